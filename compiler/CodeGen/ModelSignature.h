//===- ModelSignature.h - A model's inputs and outputs as C sees them -*- C++ -*-===//
//
// The ONNX-level signature of a compiled model: names, dtypes, static dims
// and symbolic dims of its graph inputs and outputs. Extracted from
// func @main_graph before lowering; consumed by the header writer (M.h) and
// by the emitter of the model's metadata (M_info) in the object file.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_CODEGEN_MODELSIGNATURE_H
#define ONNXC_COMPILER_CODEGEN_MODELSIGNATURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::onnxc::codegen {

/// onnxc_value_kind: what a graph input or output is.
enum class ValueKind : int32_t { Tensor = 0, Sequence = 1, Optional = 2, Map = 3 };

struct ValueSignature {
  std::string onnxName; ///< as in the model ("input:0")
  std::string cName;    ///< a unique C identifier derived from it ("input_0")
  ValueKind kind = ValueKind::Tensor;
  /// Optionals: the kind of their value (Tensor or Sequence); sequences:
  /// their items' (Tensor or Map); else Tensor.
  ValueKind payloadKind = ValueKind::Tensor;
  /// Maps and sequences of maps: the keys' dtype (7 int64 or 8 string);
  /// dtype is the values', dims {-1}. 0 otherwise.
  int32_t keyDtype = 0;
  /// The tensor's, or for a sequence or optional its items' (value's):
  int32_t dtype = 0;            ///< onnxc_dtype (ONNX TensorProto numbering)
  std::vector<int64_t> dims;    ///< -1 for a dynamic dim
  std::vector<int32_t> symbols; ///< per dim: index into symbols, or -1
                                ///< (always -1 outside plain tensors)
  std::vector<std::string> dimNames; ///< per dim: the ONNX name, or ""
  /// False for a sequence whose items have no known rank (dims empty): each
  /// item then has its own, known at run time.
  bool ranked = true;
  /// onnxc_value_info::rank: the rank, or -1 when not ranked.
  int32_t rank() const { return ranked ? (int32_t)dims.size() : -1; }

  bool isTensor() const { return kind == ValueKind::Tensor; }
  /// A map or a sequence of maps.
  bool isMapValue() const { return keyDtype != 0; }
  /// The kind of what the value holds: its own, or an optional's value's.
  ValueKind contentKind() const {
    return kind == ValueKind::Optional ? payloadKind : kind;
  }
  /// How many memref descriptors the value flattens into in the lowered
  /// entry function (runtime_abi.h): a tensor 1, a sequence 2 (data,
  /// shapes), an optional 1 (its flag) more than its value.
  unsigned numMemrefs() const {
    if (isMapValue()) // keys, values (and a sequence's sizes)
      return kind == ValueKind::Sequence ? 3 : 2;
    return (kind == ValueKind::Optional ? 1 : 0) +
           (contentKind() == ValueKind::Sequence ? 2 : 1);
  }
};

struct ModelSignature {
  std::string name; ///< C prefix of every exported symbol ("mlp")
  std::vector<ValueSignature> inputs, outputs;
  /// Symbolic dims. Named dims keep their ONNX dim_param; an unnamed dynamic
  /// dim of an input gets a fresh name "<input>_dim<i>". Output dims that use
  /// none of the inputs' symbols are data-dependent.
  std::vector<std::string> symbolNames;
  std::vector<std::string> symbolCNames; ///< unique C identifiers
  /// True for symbols that appear in some input (known before the run).
  std::vector<bool> symbolFromInput;

  /// Models with a TrainingInfoProto: the signatures of the training
  /// functions, in the order of TrainingFunction (names "<M>_train_init",
  /// ...); empty otherwise. The state is the init function's outputs and
  /// the first numState inputs of the step and infer functions; the step's
  /// last numUpdates outputs update the first numUpdates state tensors.
  std::vector<ModelSignature> training;
  int32_t numState = 0, numUpdates = 0;
};

/// The training functions the importer makes (compiler/Import/Training.cpp),
/// by their `onnx.training` kind.
enum class TrainingFunction { Init = 0, Step = 1, Infer = 2 };
inline constexpr const char *kTrainingFunctionNames[] = {"train_init",
                                                         "train_step",
                                                         "train_infer"};

/// Reads the signature of `func` (the onnx dialect's @main_graph, typed by
/// shape inference). Tensors, sequences of tensors (whose items may have no
/// known rank), optionals of either, maps with int64 or string keys and
/// sequences of maps cross the C API. Fails, with an error on the
/// function, for a type with no C equivalent (nested sequences or
/// optionals, optional maps, unranked tensors) or a rank above
/// ONNXC_MAX_RANK.
FailureOr<ModelSignature> extractSignature(func::FuncOp func,
                                           llvm::StringRef modelName);

/// Adds the signatures of `module`'s training functions to `sig` (nothing
/// for a model without training info). Fails, with an error, when one has
/// no C equivalent.
LogicalResult extractTrainingSignatures(ModuleOp module, ModelSignature &sig);

/// `name` as a C identifier: invalid characters become '_', a leading digit
/// or a C keyword gets a '_' prefix. Not uniqued.
std::string sanitizeCIdentifier(llvm::StringRef name);

} // namespace mlir::onnxc::codegen

#endif // ONNXC_COMPILER_CODEGEN_MODELSIGNATURE_H

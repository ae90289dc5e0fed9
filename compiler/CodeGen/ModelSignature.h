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
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::onnxc::codegen {

struct ValueSignature {
  std::string onnxName; ///< as in the model ("input:0")
  std::string cName;    ///< a unique C identifier derived from it ("input_0")
  int32_t dtype = 0;    ///< onnxc_dtype (ONNX TensorProto numbering)
  std::vector<int64_t> dims;    ///< -1 for a dynamic dim
  std::vector<int32_t> symbols; ///< per dim: index into symbols, or -1
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
};

/// Reads the signature of `func` (the onnx dialect's @main_graph, typed by
/// shape inference). Fails, with an error on the function, for a type with
/// no C equivalent (sequences, maps, optionals, strings) or a rank above
/// ONNXC_MAX_RANK.
FailureOr<ModelSignature> extractSignature(func::FuncOp func,
                                           llvm::StringRef modelName);

/// `name` as a C identifier: invalid characters become '_', a leading digit
/// or a C keyword gets a '_' prefix. Not uniqued.
std::string sanitizeCIdentifier(llvm::StringRef name);

} // namespace mlir::onnxc::codegen

#endif // ONNXC_COMPILER_CODEGEN_MODELSIGNATURE_H

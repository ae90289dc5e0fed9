//===- InferenceImpl.h - Internals of onnx type inference -------*- C++ -*-===//
//
// The inference driver's state (InferenceState::Impl, implemented in
// Inference.cpp) and the registry of onnxc's rules: getInferenceRules
// (Inference.cpp) collects one register function per Rules*.cpp, each
// implemented in the file it names (inferSameAsInput, the rule several files
// share, in RulesTensor.cpp). Includes the headers of the pieces the rules
// use, each implemented in its namesake .cpp: TypeUtils.h, LibOnnxBridge.h
// (the only file built with exceptions), ShapeData.h, KnownData.h,
// Sequences.h. Includes onnx_pb.h only: the ONNX schema headers throw and
// stay in the bridge.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H
#define ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H

#include "passes/ONNX/Inference/Inference.h"
#include "passes/ONNX/Inference/KnownData.h"
#include "passes/ONNX/Inference/LibOnnxBridge.h"
#include "passes/ONNX/Inference/Sequences.h"
#include "passes/ONNX/Inference/ShapeData.h"
#include "passes/ONNX/Inference/TypeUtils.h"

#include "dialects/ONNX/IR/OpInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxc {

/// Subgraphs nested deeper than this are refused (inference recurses once per
/// level).
constexpr unsigned kMaxInferenceDepth = 64;

/// Re-inferences of Loop bodies (fixed-point iterations after the first) one
/// inference run may spend in all; nested Loops multiply them. Once spent, a
/// Loop infers its body once with the most general carried types.
constexpr unsigned kLoopFixpointBudget = 256;

/// Integer tensors with more elements than this are not shape data: their
/// values are not tracked, and a 1-D shape operand this long (a rank no
/// model has) gives no result shape (a ConstantOfShape of [335544320] made
/// a Reshape target of that many dims, 2.7 GB of SymDims: the 2026-11-27
/// fuzz campaign, fuzz-findings.test).
constexpr int64_t kMaxShapeDataElements = 4096;

struct InferenceState::Impl {
  /// Known values of integer tensors, one dim per element as libonnx's data
  /// propagation represents them: dim_value (known), dim_param (symbolic,
  /// e.g. the batch size "N") or neither (unknown). Boxed: pointers handed to
  /// libonnx stay valid while the map grows.
  llvm::DenseMap<Value, std::unique_ptr<onnx::TensorShapeProto>> shapeData;
  /// onnx.Constant values exported for libonnx, and fully known shape data
  /// materialized as int tensors.
  llvm::DenseMap<Value, std::unique_ptr<onnx::TensorProto>> tensors;
  /// Known values of small floating-point tensors (f32 values rounded to
  /// f32), in row-major order.
  llvm::DenseMap<Value, SmallVector<double>> floatData;
  /// Known element types, in order, of sequences whose length is known
  /// (SequenceConstruct, SequenceInsert at known positions, ...).
  llvm::DenseMap<Value, SmallVector<Type>> seqElements;
  /// Regions inferred through a GraphInferencer during the current op.
  llvm::SmallPtrSet<Region *, 4> inferredRegions;
  /// Current subgraph nesting.
  unsigned depth = 0;
  /// Loop body re-inferences left (kLoopFixpointBudget).
  unsigned fixpointBudget = kLoopFixpointBudget;

  /// The known (maybe symbolic) values of `v`: propagated data, or the
  /// elements of a small integer onnx.Constant. Null if nothing is known.
  const onnx::TensorShapeProto *getShapeData(Value v);
  /// `v` as a TensorProto: an onnx.Constant's value, or an int tensor built
  /// from fully known shape data. Null otherwise.
  const onnx::TensorProto *getTensorData(Value v);
  /// The values of `v` if all are known integers.
  std::optional<SmallVector<int64_t>> getKnownInts(Value v);
  void setShapeData(Value v, onnx::TensorShapeProto data);
  /// The values of `v` if all are known numbers: known integers, or the
  /// elements of a small f32/f64 tensor (constant or propagated).
  std::optional<SmallVector<double>> getKnownNumbers(Value v);
  void setFloatData(Value v, SmallVector<double> data);
  /// The known element types of sequence `v`; null if its length is unknown.
  const SmallVector<Type> *getSeqElements(Value v);
  /// Drops what is known about the values defined in `region` (block
  /// arguments and results, at any depth): they are about to be re-inferred.
  void forgetRegion(Region &region);
};

//===----------------------------------------------------------------------===//
// onnxc's own rules (Rules*.cpp)
//===----------------------------------------------------------------------===//

using InferenceRule = LogicalResult (*)(Operation *op, const ONNX::OpInfo &info,
                                        InferenceState &state);

/// onnxc's rule of an op, by MLIR name: every op with
/// libonnxInferenceVersion == 0, and the ops whose libonnx schema has no
/// inference function. A rule takes precedence over libonnx.
const llvm::StringMap<InferenceRule> &getInferenceRules();
void registerNNRules(llvm::StringMap<InferenceRule> &rules);
void registerTensorRules(llvm::StringMap<InferenceRule> &rules);
void registerMLRules(llvm::StringMap<InferenceRule> &rules);
/// Attention, RMSNormalization, RotaryEmbedding, TensorScatter, Swish.
void registerTransformerRules(llvm::StringMap<InferenceRule> &rules);
void registerControlFlowRules(llvm::StringMap<InferenceRule> &rules);
void registerTrainingRules(llvm::StringMap<InferenceRule> &rules);

/// Result 0 has the type of operand 0 (Gelu, Mish, BitwiseNot, ...).
LogicalResult inferSameAsInput(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H

//===- InferenceImpl.h - Internals of onnx type inference -------*- C++ -*-===//
//
// Shared by the inference driver (Inference.cpp), the libonnx bridge
// (LibOnnxBridge.cpp, the only file built with exceptions), onnxc's own rules
// (Rules*.cpp) and the type helpers (TypeUtils.cpp). Includes onnx_pb.h only:
// the ONNX schema headers throw and stay in the bridge.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H
#define ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H

#include "passes/ONNX/Inference/Inference.h"

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
// libonnx bridge (LibOnnxBridge.cpp)
//===----------------------------------------------------------------------===//

/// How to present an op to a libonnx schema: which schema version, how many
/// of its operands, and attribute changes (an opset-18 Reduce's axes input
/// becomes the opset-13 `axes` attribute, attributes newer than the schema
/// are hidden).
struct SchemaCall {
  int version = 0;
  /// Operands passed to libonnx; -1 for all.
  int numInputs = -1;
  std::vector<onnx::AttributeProto> extraAttrs;
  std::vector<std::string> hiddenAttrs;
  /// Name of another op whose schema to use (same domain); empty for the
  /// op's own.
  std::string schemaName;
  /// An element type newer than libonnx (17-23: float8, int4, float4) that
  /// the inputs carry: presented to libonnx as uint8, and uint8 results
  /// come back as it (for ops whose results have their input's type).
  int32_t standInFor = 0;
};

/// Runs the libonnx inference (and data propagation) function of the schema
/// selected by `call` on `op`, refining its result types. Errors are emitted
/// on `op`.
LogicalResult inferWithLibOnnx(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state, const SchemaCall &call);

/// The same with the op's own schema at its libonnx inference version
/// (what ops without a rule of their own get).
inline LogicalResult inferWithLibOnnx(Operation *op, const ONNX::OpInfo &info,
                                      InferenceState &state) {
  SchemaCall call;
  call.version = info.libonnxInferenceVersion;
  return inferWithLibOnnx(op, info, state, call);
}

/// True if libonnx has a schema `name` (domain of `info`) at `version`.
bool hasLibOnnxSchema(const ONNX::OpInfo &info, StringRef name, int version);

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

/// Result 0 has the type of operand 0 (Gelu, Mish, BitwiseNot, ...).
LogicalResult inferSameAsInput(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state);
/// The ranked tensor type of operand `index`; null if absent or unranked.
RankedTensorType getRankedOperand(Operation *op, unsigned index);
/// The element type of a tensor value; null for other types.
Type getElementTypeOf(Value v);

/// Refinements libonnx 1.12 misses: Reshape/Expand/ConstantOfShape whose
/// shape operand holds symbolic dims (or has unknown values but a static
/// length: the rank), Range of known scalars, Slice of
/// unknown starts/ends (ranked), and propagation of known values through
/// Identity, Cast and scalar arithmetic (ints and floats). Runs after the
/// op's main inference.
LogicalResult refineWithShapeData(Operation *op, InferenceState &state);

/// Known values of integer tensors of any rank through the data-movement
/// ops (KnownData.cpp).
void propagateKnownData(Operation *op, InferenceState &state);

/// Tracks the element types of sequences of known length (Sequences.cpp)
/// and refines SequenceAt, ConcatFromSequence and the sequence types built
/// from them. Runs after the op's main inference.
LogicalResult refineWithSequenceData(Operation *op, InferenceState &state);
void registerControlFlowRules(llvm::StringMap<InferenceRule> &rules);
void registerTrainingRules(llvm::StringMap<InferenceRule> &rules);

//===----------------------------------------------------------------------===//
// Type helpers (TypeUtils.cpp)
//===----------------------------------------------------------------------===//

/// True if `type` is, or nests, !onnx.unknown.
bool containsUnknown(Type type);

/// Merges what inference found (`inferred`) into what the IR says (`current`):
/// unknown -> inferred, unranked -> ranked, dynamic -> static, dim names kept.
/// Fails on conflicting element types, ranks or static dims (message in
/// `error`).
FailureOr<Type> mergeTypes(Type current, Type inferred, std::string &error);

/// Merges `inferred` into result `index` of `op`; errors are emitted on `op`.
LogicalResult refineResult(Operation *op, unsigned index, Type inferred);

/// The least refined type `t` can be generalized to with the same kind and
/// element types: tensors become unranked, sequences and optionals of them
/// too.
Type generalizeType(Type t);

/// The most refined type that covers both `a` and `b` (values that may have
/// either type): dims that differ become dynamic, ranks that differ unranked,
/// unknown (in either) generalizes the other, T and optional<U> give
/// optional<T join U>. Fails on different element types or kinds (message in
/// `error`).
FailureOr<Type> joinTypes(Type a, Type b, std::string &error);

/// A symbolic dim: static size, or dynamic with a name ("" if unnamed).
struct SymDim {
  int64_t size = ShapedType::kDynamic;
  std::string name;
  bool isStatic() const { return !ShapedType::isDynamic(size); }
  static SymDim of(RankedTensorType type, unsigned dim);
};

/// The dims of a ranked tensor type with their names.
SmallVector<SymDim> getSymDims(RankedTensorType type);
/// A ranked tensor type of `dims` and `elementType`.
RankedTensorType getSymTensorType(ArrayRef<SymDim> dims, Type elementType);

/// Numpy (multidirectional) broadcasting of `shapes` keeping dim names: a dim
/// named "N" against 1 or "N" stays "N"; two different names give an unnamed
/// dim. Fails when two static dims other than 1 differ.
FailureOr<SmallVector<SymDim>>
broadcastShapes(ArrayRef<ArrayRef<SymDim>> shapes, std::string &error);

/// One element of known shape data as a SymDim.
SymDim toSymDim(const onnx::TensorShapeProto::Dimension &d);

/// True when operand `index` of `op` is absent: past the operands, or a
/// `none` value (an omitted optional input).
bool isAbsent(Operation *op, unsigned index);
/// Integer attribute `name` of `op`, or `dflt`.
int64_t getIntAttr(Operation *op, StringRef name, int64_t dflt);
/// The `axes` attribute of `op` as written, or all of [0, rank) without one.
SmallVector<int64_t> getAxesOrAll(Operation *op, int64_t rank);
/// An AttributeProto of kind INT / INTS.
onnx::AttributeProto makeIntAttr(const std::string &name, int64_t value);
onnx::AttributeProto makeIntsAttr(const std::string &name,
                                  ArrayRef<int64_t> values);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_INFERENCEIMPL_H

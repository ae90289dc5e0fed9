//===- TypeUtils.h - Merging and broadcasting of onnx types -----*- C++ -*-===//
//
// Implemented in TypeUtils.cpp: the type helpers of the inference driver and
// its rules (merging, joining and broadcasting types with their dim names,
// operand and attribute queries). Includes onnx_pb.h only.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_TYPEUTILS_H
#define ONNXC_PASSES_ONNX_INFERENCE_TYPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include "onnx/onnx_pb.h"

#include <string>

namespace mlir::onnxc {

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

/// The ranked tensor type of operand `index`; null if absent or unranked.
RankedTensorType getRankedOperand(Operation *op, unsigned index);
/// The element type of a tensor value; null for other types.
Type getElementTypeOf(Value v);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_TYPEUTILS_H

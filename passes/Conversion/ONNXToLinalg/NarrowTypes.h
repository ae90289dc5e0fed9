//===- NarrowTypes.h - int4, float8 and float4 elements as i8 ---*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in NarrowTypes.cpp: int4, uint4,
// float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz) and float4e2m1 are one i8 per
// element in the lowered code. convertScalar (Common.h) and the type
// conversion call these; so do the ops that build such constants.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_NARROWTYPES_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_NARROWTYPES_H

#include "mlir/IR/Builders.h"

namespace mlir::onnxc::linalg_conv {

/// int4, uint4, float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz) and float4e2m1:
/// one i8 per element in the lowered code.
bool isNarrowType(Type onnxElt);
/// What a narrow element computes in: i8 / ui8 for int4 / uint4, f32 for
/// the floats.
Type narrowComputeType(Type onnxElt);
/// A narrow element (its i8) as a value of narrowComputeType.
Value decodeNarrow(OpBuilder &b, Location loc, Value v, Type onnxElt);
/// `v` (of onnx type `fromOnnx`, not narrow) as the i8 of narrow `toOnnx`.
Value encodeNarrow(OpBuilder &b, Location loc, Value v, Type fromOnnx,
                   Type toOnnx, bool saturate);
/// The i8 storage of a narrow constant element (its APInt: the value of an
/// int4, the bits of a float).
APInt narrowStorage(const APInt &v, Type onnxElt);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_NARROWTYPES_H

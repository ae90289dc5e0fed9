//===- Reduction.h - Reductions shared by the lowerings ----------*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Reduction.cpp: the reduction
// generic that the Reduce* ops are built on, and the elementwise map, which
// the Softmax family (Softmax.cpp) builds from too.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_REDUCTION_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_REDUCTION_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::onnxc::linalg_conv {

using ReduceBodyFn =
    function_ref<Value(OpBuilder &, Location, Value x, Value acc)>;

/// Applies a unary float function, in f32 for half types.
template <typename MathOp>
Value mathF32(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (!t.isF16() && !t.isBF16())
    return MathOp::create(b, loc, x);
  Value w = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, t, MathOp::create(b, loc, w));
}

/// Reduces `input` over `reduced` dims with `body(x, acc)` from `init`,
/// giving a tensor without the reduced dims.
Value reduce(OpBuilder &b, Location loc, Value input, ArrayRef<bool> reduced,
             Type accType, TypedAttr init, ReduceBodyFn body);

/// Applies `fn` to each element of `v` (same shape, element type `to`).
Value mapTensor(OpBuilder &b, Location loc, Value v, Type to,
                function_ref<Value(OpBuilder &, Location, Value)> fn);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_REDUCTION_H

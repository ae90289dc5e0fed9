//===- Common.h - Helpers shared by the onnx -> linalg patterns -*- C++ -*-===//
//
// Internal to ONNXToLinalg/. Values named `orig*` are the onnx operands and
// results as the op holds them (onnx types: they carry the signedness);
// the others are converted values (signless builtin tensors).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::onnxc::linalg_conv {

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

/// The element type of a (onnx) tensor value or type, or the type itself.
Type getElementType(Type type);
inline Type getElementType(Value value) {
  return getElementType(value.getType());
}

/// True for an onnx unsigned integer element type (ui8..ui64). i1 is not.
bool isUnsignedInt(Type onnxElementType);

/// True for a float element type (f16, bf16, f32, f64).
inline bool isFloat(Type t) { return isa<FloatType>(t); }

/// `value` as a scalar constant of `type` (an integer or float type).
Value createScalarConstant(OpBuilder &b, Location loc, Type type, double value);
Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t value);
Value createIndexConstant(OpBuilder &b, Location loc, int64_t value);

/// Converts a scalar between two element types with onnx Cast semantics
/// (`fromOnnx` gives the source signedness, `toOnnx` the target's).
/// `saturate`: Cast's attribute, for float8 targets (NarrowTypes.h).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type fromOnnx,
                    Type toOnnx, bool saturate = true);

/// The constant integer contents of an (onnx or converted) value defined by
/// onnx.Constant or arith.constant; std::nullopt when it is not constant.
std::optional<SmallVector<int64_t>> getConstantInts(Value orig,
                                                    Value converted = {});
/// Same for a float constant.
std::optional<SmallVector<double>> getConstantFloats(Value orig,
                                                     Value converted = {});

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// The size of dim `dim` of the tensor `v` as an index value (a constant for
/// static dims).
Value getDimValue(OpBuilder &b, Location loc, Value v, int64_t dim);
OpFoldResult getDimOFR(OpBuilder &b, Location loc, Value v, int64_t dim);

/// A tensor.empty of `type` whose dynamic dims are the matching entries of
/// `sizes` (one index value per dim of `type`; static ones are ignored).
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> sizes);
/// A tensor.empty with the dynamic dims taken from tensor `like`.
Value createEmptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                      Value like);

/// The symbolic name of dynamic dim `dim` of the onnx value `orig`; "" if it
/// has none, is static, or `orig` is null.
StringRef dimName(Value orig, int64_t dim);

/// Normalizes a possibly negative axis into [0, rank).
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// arith.cmpi `p` of `x` and `y`, folded when both are constant (static
/// sizes then leave no run-time check behind).
Value cmpI(OpBuilder &b, Location l, arith::CmpIPredicate p, Value x, Value y);

/// An scf.if yielding `thenFn()` or the values `elseValues`.
SmallVector<Value>
buildIf(OpBuilder &b, Location l, Value cond, ValueRange elseValues,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> thenFn);

/// An scf.while carrying `inits`: `cond` decides on the carried values,
/// `body` returns the next ones. Returns the loop's results.
SmallVector<Value> buildWhile(
    OpBuilder &b, Location loc, ValueRange inits,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cond,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body);

/// Parallel iterator types.
SmallVector<utils::IteratorType> parallelIterators(unsigned n);

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

/// Emits `if (!cond) onnxc_rt_fail(ONNXC_ERROR_RUNTIME, message)`, declaring
/// onnxc_rt_fail and the message global in the module as needed; nothing
/// when `cond` is the constant true. The message names the ONNX node of
/// `loc` (runtimeMessage). With `values` (at most 3 integer or index
/// values), each "{}" in `message` is replaced by the next value at run
/// time (onnxc_rt_fail_values).
void emitRuntimeCheck(OpBuilder &b, Location loc, Value cond,
                      StringRef message, ValueRange values = {});
/// The same inside a region under construction (a linalg.generic's body
/// builder, not yet attached to the module): `anchor` is an op of the
/// module (the op being lowered).
void emitRuntimeCheck(OpBuilder &b, Location loc, Operation *anchor,
                      Value cond, StringRef message, ValueRange values = {});

/// Sizes computed from data (index values), checked at run time (folded
/// when both operands are constants). checkedMul: x * y, failing with
/// `message` (its "{}" are x and y) when either is negative or the product
/// exceeds 2^63 - 1. checkedAdd: x + y (either sign), failing when the sum
/// overflows.
Value checkedMul(OpBuilder &b, Location loc, Value x, Value y,
                 StringRef message);
Value checkedAdd(OpBuilder &b, Location loc, Value x, Value y,
                 StringRef message);

/// A float scalar holding a size (a count, a depth, a scaled dim) as an
/// index value, truncated toward zero; fails with `message` unless it is
/// finite and in [0, 2^63) (NaN, infinities and values out of int64 would
/// convert to poison).
Value floatToSize(OpBuilder &b, Location loc, Value f, StringRef message);

/// The text of a run-time message: "node 'n' (Op): reason", the node taken
/// from `loc` (lib/Support/NodeLocation.h), `message` without its own "Op: "
/// prefix, "{}" turned into onnxc_rt_fail_values' placeholder.
std::string runtimeMessage(Location loc, StringRef message);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_COMMON_H

//===- Builders.h - IR builders shared by the onnx -> linalg patterns -*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Builders.cpp: the one set of
// small builders every lowering file uses (constants, comparisons, casts,
// clamps, index normalization, run-time index checks, scalar reads,
// loops) instead of per-file copies. Common.h has shapes and run-time
// checks, Elementwise.h the broadcasting elementwise generic.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_BUILDERS_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_BUILDERS_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

namespace mlir::onnxc::linalg_conv {

/// The converted (builtin) type of the onnx value `v`.
RankedTensorType convertedTensorType(const TypeConverter *tc, Value v);

/// An integer scalar (any width) as an index value (sign-extended unless
/// `isUnsigned`).
Value toIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned = false);

/// `i < 0 ? i + dim : i` on index values (ONNX negative indices).
Value normalizeIndex(OpBuilder &b, Location loc, Value i, Value dim);

/// `-dim <= i < dim` on index values.
Value indexInRange(OpBuilder &b, Location loc, Value i, Value dim);

/// The single element of a 0-D or one-element 1-D tensor.
Value extractScalar(OpBuilder &b, Location loc, Value t);

/// Run-time check over every element of `indices`: `ok(b, loc, element,
/// position)` gives an i1 per element (the position is the element's index
/// in `indices`, one index value per dim); fails with `message` unless all
/// are true. Emitted before the op reads through the indices, so a bad index
/// never reaches a memory access.
void checkEveryElement(
    OpBuilder &b, Location loc, Value indices, StringRef message,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> ok);

/// A fresh copy of `t` (so that in-place updates never write an operand).
Value copyTensor(OpBuilder &b, Location loc, Value t);

/// Product of the dims [from, to) of `t` as an index value.
Value dimProduct(OpBuilder &b, Location loc, Value t, int64_t from, int64_t to);

/// A loop nest (scf.for) from 0 to each of `ubs` carrying `iterArgs`; the
/// body gets the induction variables and the carried values and returns the
/// new ones. Returns the final carried values.
using LoopBody = function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                 ValueRange, ValueRange)>;
SmallVector<Value> buildLoops(OpBuilder &b, Location loc, ArrayRef<Value> ubs,
                              ValueRange iterArgs, LoopBody body);

/// The dims of `t` as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value t);

/// The position gatherGeneric reads, built in the generic's body from the
/// output's coordinates (linalg.index).
using GatherIndexFn = function_ref<SmallVector<Value>(OpBuilder &, Location)>;
/// A linalg.generic over `init` (no inputs, every loop parallel) whose
/// element at each output coordinate is `data` read at `indices`: the
/// data-movement gathers whose read position is arithmetic on the output's
/// (Tile, Slice, a kernel's flip, GatherND).
Value gatherGeneric(OpBuilder &b, Location loc, Value init, Value data,
                    GatherIndexFn indices);

/// A linalg.generic over a fresh tensor of `type` (its dynamic dims from
/// `sizes`, one per dim, as createEmpty), no inputs, every loop parallel,
/// whose element at each coordinate is `element(b, l, coordinates)` (the
/// coordinates as linalg.index values): RoiAlign, MaxRoiPool.
Value indexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType type, ArrayRef<Value> sizes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> element);

//===----------------------------------------------------------------------===//
// Scalar builders
//===----------------------------------------------------------------------===//

using ForBody =
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>;

/// arith.cmpf.
Value cmpF(OpBuilder &b, Location l, arith::CmpFPredicate p, Value x, Value y);

/// A float constant of type `t`.
Value fConst(OpBuilder &b, Location l, Type t, double v);

/// An index constant.
Value idx(OpBuilder &b, Location l, int64_t v);

/// A constant of the (scalar) type of `like`.
Value cst(OpBuilder &b, Location l, Value like, double v);

Value addF(OpBuilder &b, Location l, Value x, Value y);

Value subF(OpBuilder &b, Location l, Value x, Value y);

Value mulF(OpBuilder &b, Location l, Value x, Value y);

Value divF(OpBuilder &b, Location l, Value x, Value y);

Value select(OpBuilder &b, Location l, Value c, Value x, Value y);

Value andI(OpBuilder &b, Location l, Value x, Value y);

Value notI(OpBuilder &b, Location l, Value x);

/// std::max(x, y) = x < y ? y : x (NaN in x is kept, as in C++).
Value stdMax(OpBuilder &b, Location l, Value x, Value y);

/// std::min(x, y) = y < x ? y : x.
Value stdMin(OpBuilder &b, Location l, Value x, Value y);

/// Integer (index) arithmetic folded where the operands are constant, so
/// that static shapes leave neither arithmetic nor run-time checks behind
/// (signed division and remainder).
Value addI(OpBuilder &b, Location l, Value x, Value y);
Value subI(OpBuilder &b, Location l, Value x, Value y);
Value mulI(OpBuilder &b, Location l, Value x, Value y);
Value divI(OpBuilder &b, Location l, Value x, Value y);
Value remI(OpBuilder &b, Location l, Value x, Value y);

Value minIdx(OpBuilder &b, Location l, Value x, Value y);

Value maxIdx(OpBuilder &b, Location l, Value x, Value y);

/// f32 for float types narrower than 32 bits (f16, bf16), else `t`: the
/// type that sums and statistics over elements of type `t` accumulate in.
Type floatAccType(Type t);

/// The float scalar `v` converted to the float type `to` (extf / truncf,
/// through f32 between f16 and bf16), or `v` itself.
Value convertFloat(OpBuilder &b, Location l, Value v, Type to);

/// A tensor.empty of `sizes` (constant sizes become static dims).
Value emptyTensor(OpBuilder &b, Location l, ArrayRef<Value> sizes, Type elt);

/// emptyTensor(sizes, elt) filled with `v`.
Value filledTensor(OpBuilder &b, Location l, ArrayRef<Value> sizes, Type elt,
                   double v);

/// The value of an absent optional result (onnx.NoValue).
Value noValue(OpBuilder &b, Location l);

/// The ranked tensor `t` (float elements) converted elementwise to the
/// float type `to`, or `t` itself.
Value convertTensor(OpBuilder &b, Location l, Value t, Type to);

/// The index of operand dim `dim` (of `t`) for an output coordinate `i`
/// under numpy broadcasting: 0 where the dim is 1.
Value broadcastIndex(OpBuilder &b, Location l, Value t, int64_t dim, Value i);

/// Checks at run time that dim `dim` of `t` is 1 or `size` (numpy
/// broadcasting); `message` takes the dim and `size` ("{}" twice).
void checkBroadcastDim(OpBuilder &b, Location l, Value t, int64_t dim,
                       Value size, StringRef message);

/// An index value as a float of type `t`.
Value indexToF(OpBuilder &b, Location l, Value i, Type t);

/// A float that holds an integer value (or is clamped to hold one: NaN and
/// values beyond +-2^30 become +-2^30 first) as an index.
Value fToIndex(OpBuilder &b, Location l, Value f);

/// min(max(i, 0), size - 1) on index values.
Value clampIdx(OpBuilder &b, Location l, Value i, Value size);

/// The type arithmetic runs in: f64 when any of `types` is f64, else f32.
Type computeType(OpBuilder &b, ArrayRef<Type> types);

/// Checks at run time that two sizes are equal (nothing when both are the
/// same constant).
void checkEqual(OpBuilder &b, Location loc, Value x, Value y,
                StringRef message);

/// The sizes of `type` from `sizes`: static dims of the result type are
/// checked against the sizes computed from the operands.
void checkResultSizes(OpBuilder &b, Location loc, RankedTensorType type,
                      ArrayRef<Value> sizes, StringRef message);

/// Checks that a static result dim equals its run-time size `size`.
void checkStaticDim(OpBuilder &b, Location loc, RankedTensorType type,
                    int64_t dim, Value size, StringRef message);

/// The single element of the optional scalar operand `t` (a 0-D or
/// one-element tensor); its size is checked at run time when not static.
FailureOr<Value> scalarOperand(OpBuilder &b, Location loc, Operation *op,
                               Value t, StringRef name);

/// scf.for iv in [lb, ub) by `step` carrying `iterArgs`.
SmallVector<Value> forRange(OpBuilder &b, Location loc, Value lb, Value ub,
                            Value step, ValueRange iterArgs, ForBody body);

/// A binary search over `n` (>= 1) sorted keys: the index of the first key
/// that does not order before the one searched for, clamped to n - 1 (the
/// caller compares the key there for a match). `before(b, l, at)` is an i1:
/// key `at` (an index) orders before the one searched for.
Value lowerBound(OpBuilder &b, Location loc, int64_t n,
                 function_ref<Value(OpBuilder &, Location, Value)> before);

/// An f64 constant.
Value f64Const(OpBuilder &b, Location loc, double v);

/// An index value as an f64 (through i64, signed).
Value indexToF64(OpBuilder &b, Location loc, Value i);

/// `t` as a 1-D tensor<?xT> of its elements, row-major.
Value flatten(OpBuilder &b, Location l, Value t);

/// The element count of a ranked tensor.
Value numel(OpBuilder &b, Location l, Value t);

/// Element `i` of the 1-D integer tensor `t` as an index value.
Value extractIndex(OpBuilder &b, Location loc, Value t, int64_t i);

/// x * y on index values.
Value mulIdx(OpBuilder &b, Location loc, Value x, Value y);

/// The row-major multi-index of the linear position `p` in a tensor of
/// sizes `dims`. (Used instead of collapse/expand_shape: MLIR 22.1.8 crashes
/// expanding the strided metadata of dynamic reshapes.)
SmallVector<Value> delinearize(OpBuilder &b, Location l, Value p,
                               ArrayRef<Value> dims);

/// The result as a tensor.cast of `v` when the types differ (refinement).
Value castTo(OpBuilder &b, Location loc, Value v, RankedTensorType type);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_BUILDERS_H

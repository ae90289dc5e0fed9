//===- IndexingCommon.h - Helpers of the indexing lowerings -----*- C++ -*-===//
//
// Internal to ONNXToLinalg/: index normalization, run-time index checks and
// scalar reads shared by Gather.cpp, Scatter.cpp, Indexing.cpp,
// Quantize.cpp and Tensor.cpp (defined in Gather.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_INDEXINGCOMMON_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_INDEXINGCOMMON_H

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

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_INDEXINGCOMMON_H

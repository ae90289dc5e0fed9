//===- MLCommon.h - Pieces shared by the ai.onnx.ml lowerings ---*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in MLCommon.cpp: attribute readers
// (float lists given as a float array or as a tensor, `*_as_tensor`), the
// post transforms of the classifiers and regressors with ONNX Runtime's
// formulas (its logistic, its probit through an approximate erfinv), the
// constant tables the lowerings embed, the row view of X (a 1-D X is one
// row), the row loops' empty results and the final casts.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLCOMMON_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLCOMMON_H

#include "passes/Conversion/ONNXToLinalg/Builders.h"

namespace mlir::onnxc::linalg_conv {

/// post_transform of the ml classifiers and regressors.
enum class PostTransform { None, Softmax, Logistic, SoftmaxZero, Probit };

/// Parses `post_transform`; an error on `op` for other values.
FailureOr<PostTransform> parsePostTransform(Operation *op, StringRef name);

/// The float list attribute `name`, or else the tensor attribute
/// `name_as_tensor` (f32 or f64, inline or a resource blob) as doubles;
/// std::nullopt when neither is set. `isDouble` tells whether it was a
/// double tensor.
std::optional<SmallVector<double>> getFloatList(Operation *op, StringRef name,
                                                bool *isDouble = nullptr);

/// The elements of a tensor attribute (dense, splat or resource blob):
/// `floats` for a float element type (f16, bf16, f32, f64), `ints` for an
/// integer one (sign- or zero-extended), `strings` for strings.
struct TensorValues {
  Type elementType;
  SmallVector<double> floats;
  SmallVector<int64_t> ints;
  SmallVector<StringRef> strings;
  size_t size() const {
    return std::max({floats.size(), ints.size(), strings.size()});
  }
};
/// std::nullopt when `a` is null or of another element type.
std::optional<TensorValues> readTensorAttr(ElementsAttr a);

/// The i64 list attribute `name` (empty when absent).
ArrayRef<int64_t> getI64List(Operation *op, StringRef name);

/// 1-D constant tensors.
Value i64Table(OpBuilder &b, Location loc, ArrayRef<int64_t> values);
Value i32Table(OpBuilder &b, Location loc, ArrayRef<int32_t> values);
Value floatTable(OpBuilder &b, Location loc, Type elementType,
                 ArrayRef<double> values);

/// Element `i` of a 1-D integer table as an index.
Value tableIndex(OpBuilder &b, Location loc, Value table, Value i);

/// ORT's ComputeLogistic: v = 1 / (1 + exp(-|x|)), x < 0 ? 1 - v : v.
Value mlLogistic(OpBuilder &b, Location loc, Value x);
/// ORT's ComputeProbit: sqrt(2) * ErfInv(2x - 1) with its approximate
/// ErfInv (Winitzki, a = 0.147), in f32.
Value mlProbit(OpBuilder &b, Location loc, Value x);

/// Applies `kind` in place to row `row` (an index) of the [N, C] float
/// tensor `z` over its first `numCols` columns: LOGISTIC and PROBIT per
/// element, SOFTMAX with the row max subtracted, SOFTMAX_ZERO leaving the
/// elements with |x| <= 1e-7 out of the sum (scaled by exp(-max)), as ORT's
/// write_scores. Returns the new tensor.
Value applyPostTransformRow(OpBuilder &b, Location loc, Value z, Value row,
                            int64_t numCols, PostTransform kind);

/// X as a 2-D [N, C] tensor (a 1-D X becomes [1, C]).
Value mlRows2D(OpBuilder &b, Location loc, Value x);

/// A linalg.generic mapping every element of `x` to `fn(element, indices)`
/// (indices: one index per dim), into a tensor of x's shape with element
/// type `elementType`.
Value mapElements(
    OpBuilder &b, Location loc, Value x, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> fn);

/// A table of `values` (size 1 or the size of dim `dim` of `x`, checked at
/// compile time for a static dim, at run time otherwise) read at `i`: the
/// single value broadcast, or values[i]. `what` names the attribute.
struct PerColumn {
  Value table;
  bool single;
  Value at(OpBuilder &b, Location loc, Value i) const;
};
FailureOr<PerColumn> perColumnTable(OpBuilder &b, Location loc, Operation *op,
                                    Value x, int64_t dim, Type elementType,
                                    ArrayRef<double> values, StringRef what);

/// The results of a row loop over x2 ([N, F]; `numRows` its dim 0 as a
/// value), empty: f32 scores [N, cols], and int64 labels [N].
Value createRowScores(OpBuilder &b, Location loc, Value x2, Value numRows,
                      int64_t cols);
Value createRowLabels(OpBuilder &b, Location loc, Value x2, Value numRows);

/// Replaces `op` by `values`, the k-th cast to the converted type of the
/// op's k-th result (the loops' types may be less refined than inferred).
void replaceWithCasts(ConversionPatternRewriter &rewriter, Operation *op,
                      const TypeConverter *tc, ValueRange values);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLCOMMON_H

//===- Softmax.cpp - Softmax, LogSoftmax, Hardmax -> linalg ---------------===//
//
// The Softmax family (ONNX's math category), along one axis, from the
// reductions of Reduction.h: the maximum along the axis, then
// Softmax: exp(x - max) / sum(exp(x - max)); LogSoftmax: x - max -
// log(sum(exp(x - max))); Hardmax: 1 at the first maximum, 0 elsewhere.
// Each step is one linalg.generic; the reduced tensors are broadcast back
// along the axis (withReduced).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Reduction.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Broadcasts a reduced (axis dropped) tensor `r` back against `x`.
Value withReduced(OpBuilder &b, Location loc, Value x, Value r, int64_t axis,
                  Type outElt,
                  function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  MLIRContext *ctx = b.getContext();
  auto t = cast<RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  SmallVector<AffineExpr> rExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      rExprs.push_back(getAffineDimExpr(d, ctx));
  auto outType = RankedTensorType::get(t.getShape(), outElt);
  Value init = createEmptyLike(b, loc, outType, x);
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{x, r}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank),
                                    AffineMap::get(rank, 0, rExprs, ctx),
                                    b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0], args[1]));
             })
      .getResult(0);
}

/// The maximum of the float tensor `x` over the `reduced` dims (from -inf).
Value reduceMax(OpBuilder &b, Location loc, Value x, ArrayRef<bool> reduced) {
  auto ft =
      cast<FloatType>(cast<RankedTensorType>(x.getType()).getElementType());
  return reduce(
      b, loc, x, reduced, ft,
      b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(), true)),
      [](OpBuilder &nb, Location l, Value v, Value a) -> Value {
        return arith::MaximumFOp::create(nb, l, v, a);
      });
}

/// Softmax: exp(x - max) / sum(exp(x - max)) along `axis`; LogSoftmax:
/// x - max - log(sum(exp(x - max))).
template <typename OpTy, bool IsLog>
struct SoftmaxLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto t = cast<RankedTensorType>(x.getType());
    Type elt = t.getElementType();
    int64_t rank = t.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    Value mx = reduceMax(rewriter, loc, x, reduced);
    Value shifted = withReduced(
        rewriter, loc, x, mx, axis, elt,
        [](OpBuilder &b, Location l, Value v, Value m) -> Value {
          return arith::SubFOp::create(b, l, v, m);
        });
    Value e = mapTensor(rewriter, loc, shifted, elt,
                        [](OpBuilder &b, Location l, Value v) {
                          return mathF32<math::ExpOp>(b, l, v);
                        });
    Value sum =
        reduce(rewriter, loc, e, reduced, elt, rewriter.getFloatAttr(elt, 0.0),
               [](OpBuilder &b, Location l, Value v, Value a) -> Value {
                 return arith::AddFOp::create(b, l, v, a);
               });
    Value r;
    if (IsLog)
      r = withReduced(rewriter, loc, shifted, sum, axis, elt,
                      [](OpBuilder &b, Location l, Value v, Value s) -> Value {
                        return arith::SubFOp::create(
                            b, l, v, mathF32<math::LogOp>(b, l, s));
                      });
    else
      r = withReduced(rewriter, loc, e, sum, axis, elt,
                      [](OpBuilder &b, Location l, Value v, Value s) -> Value {
                        return arith::DivFOp::create(b, l, v, s);
                      });
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Hardmax: 1 at the first maximum along `axis`, 0 elsewhere.
struct HardmaxLowering : OpConversionPattern<ONNX::HardmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::HardmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto t = cast<RankedTensorType>(x.getType());
    Type elt = t.getElementType();
    int64_t rank = t.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    Value mx = reduceMax(rewriter, loc, x, reduced);
    // The first index holding the maximum: min over i of (x == max ? i : n).
    auto i64 = rewriter.getI64Type();
    Value n = createIntConstant(rewriter, loc, i64, INT64_MAX);
    Value cand = withReduced(
        rewriter, loc, x, mx, axis, i64,
        [&](OpBuilder &b, Location l, Value v, Value m) -> Value {
          Value i = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value eq = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, v, m);
          return arith::SelectOp::create(b, l, eq, i, n);
        });
    Value firstIdx = reduce(rewriter, loc, cand, reduced, i64,
                            rewriter.getI64IntegerAttr(INT64_MAX),
                            [](OpBuilder &b, Location l, Value v, Value a) -> Value {
                              return arith::MinSIOp::create(b, l, v, a);
                            });
    Value r = withReduced(
        rewriter, loc, x, firstIdx, axis, elt,
        [&](OpBuilder &b, Location l, Value, Value fi) -> Value {
          Value i = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value eq = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, i, fi);
          return arith::SelectOp::create(b, l, eq,
                                         createScalarConstant(b, l, elt, 1),
                                         createScalarConstant(b, l, elt, 0));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateSoftmaxPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<SoftmaxLowering<ONNX::SoftmaxOp, false>,
               SoftmaxLowering<ONNX::LogSoftmaxOp, true>, HardmaxLowering>(
      tc, patterns.getContext());
}

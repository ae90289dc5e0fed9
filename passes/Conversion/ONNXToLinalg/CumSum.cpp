//===- CumSum.cpp - CumSum -> scf -----------------------------------------===//
//
// CumSum, of onnx/defs/math: sequential along its (run-time) axis, an
// scf.for nest carrying the result.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// CumSum: y[..., i, ...] = sum of x[..., j, ...] for j <= i along the
/// (run-time) axis; `exclusive` drops x[i] itself, `reverse` sums from the
/// end. Computed as [outer, len, inner] over the row-major positions.
struct CumSumLowering : OpConversionPattern<ONNX::CumSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::CumSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    if (rank == 0)
      return op.emitOpError("a 0-D input is not supported");
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    Type elt = xType.getElementType();
    Value r = createIndexConstant(rewriter, loc, rank);
    Value one = createIndexConstant(rewriter, loc, 1);
    // One element: ORT refuses a 2-element axis (we took the first), and
    // one of a run-time size 0 was read past its end.
    FailureOr<Value> axisOr =
        scalarOperand(rewriter, loc, op, adaptor.getAxis(), "axis");
    if (failed(axisOr))
      return failure();
    Value axis = toIndex(rewriter, loc, *axisOr);
    emitRuntimeCheck(rewriter, loc, indexInRange(rewriter, loc, axis, r),
                     "CumSum: axis is out of range");
    axis = normalizeIndex(rewriter, loc, axis, r);
    Value outer = one, len = one, inner = one;
    for (int64_t d = 0; d < rank; ++d) {
      Value dim = getDimValue(rewriter, loc, x, d);
      Value dv = createIndexConstant(rewriter, loc, d);
      auto pick = [&](arith::CmpIPredicate p, Value acc) -> Value {
        Value f = arith::SelectOp::create(
            rewriter, loc, cmpI(rewriter, loc, p, dv, axis), dim, one);
        return arith::MulIOp::create(rewriter, loc, acc, f);
      };
      outer = pick(arith::CmpIPredicate::slt, outer);
      len = pick(arith::CmpIPredicate::eq, len);
      inner = pick(arith::CmpIPredicate::sgt, inner);
    }
    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value init = createEmptyLike(rewriter, loc, type, x);
    Value result =
        buildLoops(
            rewriter, loc, {outer, inner}, ValueRange{init},
            [&](OpBuilder &b, Location l, ValueRange ivs,
                ValueRange args) -> SmallVector<Value> {
              Value c0 = createIndexConstant(b, l, 0);
              Value c1 = createIndexConstant(b, l, 1);
              Value acc0 = createScalarConstant(b, l, elt, 0);
              auto loop = scf::ForOp::create(
                  b, l, c0, len, c1, ValueRange{args[0], acc0},
                  [&](OpBuilder &tb, Location tl, Value t, ValueRange st) {
                    if (reverse)
                      t = arith::SubIOp::create(
                          tb, tl, arith::SubIOp::create(tb, tl, len, c1), t);
                    Value p = arith::MulIOp::create(tb, tl, ivs[0], len);
                    p = arith::AddIOp::create(tb, tl, p, t);
                    p = arith::MulIOp::create(tb, tl, p, inner);
                    p = arith::AddIOp::create(tb, tl, p, ivs[1]);
                    SmallVector<Value> idx = delinearize(tb, tl, p, dims);
                    Value v = tensor::ExtractOp::create(tb, tl, x, idx);
                    Value acc =
                        isFloat(elt)
                            ? Value(arith::AddFOp::create(tb, tl, st[1], v))
                            : Value(arith::AddIOp::create(tb, tl, st[1], v));
                    Value out = tensor::InsertOp::create(
                        tb, tl, exclusive ? st[1] : acc, st[0], idx);
                    scf::YieldOp::create(tb, tl, ValueRange{out, acc});
                  });
              return {loop.getResult(0)};
            })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateCumSumPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<CumSumLowering>(tc, patterns.getContext());
}

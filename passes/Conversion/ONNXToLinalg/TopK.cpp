//===- TopK.cpp - TopK -> scf ---------------------------------------------===//
//
// TopK, of onnx/defs/math: sequential along its axis, an scf.for nest
// carrying the result. A static K in the result type is checked against
// the run-time K.
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

/// TopK: the K largest (smallest) elements along `axis` in order, ties
/// broken by the lower index, with their indices. The j-th is found by a
/// scan for the best element ordered after the (j-1)-th: O(K * n) per row.
/// `sorted = 0` leaves the order unspecified; sorted order is one choice.
struct TopKLowering : OpConversionPattern<ONNX::TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto vType = convertedTensorType(getTypeConverter(), op.getValues());
    auto iType = convertedTensorType(getTypeConverter(), op.getIndices());
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis ") << op.getAxis() << " is out of range";
    bool largest = op.getLargest() != 0;
    bool isUnsigned = isUnsignedInt(getElementType(op.getX()));
    Type elt = xType.getElementType();
    FailureOr<Value> kOr = scalarOperand(rewriter, loc, op, adaptor.getK(), "k");
    if (failed(kOr))
      return failure();
    Value k = toIndex(rewriter, loc, *kOr);
    Value n = getDimValue(rewriter, loc, x, axis);
    Value zero = createIndexConstant(rewriter, loc, 0);
    Value one = createIndexConstant(rewriter, loc, 1);
    emitRuntimeCheck(
        rewriter, loc,
        arith::AndIOp::create(rewriter, loc,
                              cmpI(rewriter, loc, arith::CmpIPredicate::sge, k,
                                   zero),
                              cmpI(rewriter, loc, arith::CmpIPredicate::sle, k,
                                   n)),
        "TopK: K is out of range");
    checkStaticDim(rewriter, loc, vType, axis, k,
                   "TopK: K does not match the result type");
    SmallVector<Value> sizes = dimValues(rewriter, loc, x);
    sizes[axis] = k;
    Value vInit = createEmpty(rewriter, loc, vType, sizes);
    Value iInit = createEmpty(rewriter, loc, iType, sizes);
    SmallVector<Value> rows = dimValues(rewriter, loc, x);
    rows[axis] = one;

    // `a` comes strictly before `b` in the output order.
    auto strictlyBetter = [&](OpBuilder &b, Location l, Value a, Value bv) {
      if (isFloat(elt))
        return Value(arith::CmpFOp::create(
            b, l, largest ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
            a, bv));
      arith::CmpIPredicate p =
          largest ? (isUnsigned ? arith::CmpIPredicate::ugt
                                : arith::CmpIPredicate::sgt)
                  : (isUnsigned ? arith::CmpIPredicate::ult
                                : arith::CmpIPredicate::slt);
      return cmpI(b, l, p, a, bv);
    };
    auto equal = [&](OpBuilder &b, Location l, Value a, Value bv) {
      if (isFloat(elt))
        return Value(
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a, bv));
      return cmpI(b, l, arith::CmpIPredicate::eq, a, bv);
    };

    SmallVector<Value> results = buildLoops(
        rewriter, loc, rows, ValueRange{vInit, iInit},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange outs) -> SmallVector<Value> {
          Value c0 = createIndexConstant(b, l, 0);
          Value c1 = createIndexConstant(b, l, 1);
          Value none = createIndexConstant(b, l, -1);
          Value anyV = createScalarConstant(b, l, elt, 0);
          auto jLoop = scf::ForOp::create(
              b, l, c0, k, c1, ValueRange{outs[0], outs[1], anyV, none},
              [&](OpBuilder &jb, Location jl, Value j, ValueRange st) {
                Value prevV = st[2], prevI = st[3];
                Value first =
                    cmpI(jb, jl, arith::CmpIPredicate::slt, prevI, c0);
                auto iLoop = scf::ForOp::create(
                    jb, jl, c0, n, c1, ValueRange{anyV, none},
                    [&](OpBuilder &ib, Location il, Value i, ValueRange best) {
                      SmallVector<Value> pos(ivs);
                      pos[axis] = i;
                      Value v = tensor::ExtractOp::create(ib, il, x, pos);
                      // After the previous pick in the output order.
                      Value after = arith::OrIOp::create(
                          ib, il, strictlyBetter(ib, il, prevV, v),
                          arith::AndIOp::create(
                              ib, il, equal(ib, il, prevV, v),
                              cmpI(ib, il, arith::CmpIPredicate::sgt, i,
                                   prevI)));
                      Value cand = arith::OrIOp::create(ib, il, first, after);
                      Value noBest =
                          cmpI(ib, il, arith::CmpIPredicate::slt, best[1], c0);
                      Value better = arith::OrIOp::create(
                          ib, il, noBest, strictlyBetter(ib, il, v, best[0]));
                      Value take = arith::AndIOp::create(ib, il, cand, better);
                      scf::YieldOp::create(
                          ib, il,
                          ValueRange{
                              arith::SelectOp::create(ib, il, take, v, best[0]),
                              arith::SelectOp::create(ib, il, take, i,
                                                      best[1])});
                    });
                Value bv = iLoop.getResult(0), bi = iLoop.getResult(1);
                SmallVector<Value> pos(ivs);
                pos[axis] = j;
                Value vOut = tensor::InsertOp::create(jb, jl, bv, st[0], pos);
                Value bi64 =
                    arith::IndexCastOp::create(jb, jl, jb.getI64Type(), bi);
                Value iOut = tensor::InsertOp::create(jb, jl, bi64, st[1], pos);
                scf::YieldOp::create(jb, jl, ValueRange{vOut, iOut, bv, bi});
              });
          return {jLoop.getResult(0), jLoop.getResult(1)};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateTopKPatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<TopKLowering>(tc, patterns.getContext());
}

//===- Det.cpp - Det -> scf loops -----------------------------------------===//
//
// Det of each [M, M] matrix of the input (batch dims first) is Gaussian
// elimination with partial pivoting: scf.for loops over a copy of the
// matrix (in f32 for f16 inputs), the determinant the product of the
// pivots, negated once per row swap. A zero pivot column gives 0 and skips
// its elimination (no division by zero). O(M^3) per matrix.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The determinant of the [M, M] matrix at batch position `batch` of `x`,
/// as a scalar of `acc`.
Value determinant(OpBuilder &b, Location loc, Value x, ValueRange batch,
                  Value m, Type acc) {
  Value zero = createIndexConstant(b, loc, 0);
  Value one = createIndexConstant(b, loc, 1);
  // The working copy, in the accumulation type.
  int64_t size = ShapedType::kDynamic;
  if (auto c = getConstantIntValue(m))
    size = *c;
  Value a = createEmpty(b, loc, RankedTensorType::get({size, size}, acc),
                        {m, m});
  a = buildLoops(b, loc, {m, m}, ValueRange{a},
                 [&](OpBuilder &nb, Location l, ValueRange ivs,
                     ValueRange args) -> SmallVector<Value> {
                   SmallVector<Value> pos(batch);
                   pos.append(ivs.begin(), ivs.end());
                   Value v = tensor::ExtractOp::create(nb, l, x, pos);
                   v = convertScalar(nb, l, v, v.getType(), acc);
                   return {tensor::InsertOp::create(nb, l, v, args[0], ivs)};
                 })[0];
  Value det = createScalarConstant(b, loc, acc, 1);
  auto at = [](OpBuilder &nb, Location l, Value t, Value i, Value j) -> Value {
    return tensor::ExtractOp::create(nb, l, t, ValueRange{i, j});
  };
  SmallVector<Value> res = forRange(
      b, loc, zero, m, one, ValueRange{a, det},
      [&](OpBuilder &nb, Location l, Value k,
          ValueRange args) -> SmallVector<Value> {
        Value a = args[0], det = args[1];
        Value zeroF = createScalarConstant(nb, l, acc, 0);
        // The pivot row: the largest |a[i, k]| for i >= k (the first one).
        Value none = createScalarConstant(nb, l, acc, -1);
        Value p = forRange(nb, l, k, m, idx(nb, l, 1), ValueRange{none, k},
                           [&](OpBuilder &fb, Location fl, Value i,
                               ValueRange best) -> SmallVector<Value> {
                             Value v = math::AbsFOp::create(
                                 fb, fl, at(fb, fl, a, i, k));
                             Value better = arith::CmpFOp::create(
                                 fb, fl, arith::CmpFPredicate::OGT, v,
                                 best[0]);
                             return {arith::SelectOp::create(fb, fl, better,
                                                             v, best[0]),
                                     arith::SelectOp::create(fb, fl, better,
                                                             i, best[1])};
                           })[1];
        // Swap rows k and p (a no-op when p == k), negating det if they
        // differ.
        a = forRange(nb, l, zero, m, idx(nb, l, 1), ValueRange{a},
                     [&](OpBuilder &fb, Location fl, Value j,
                         ValueRange t) -> SmallVector<Value> {
                       Value rk = at(fb, fl, t[0], k, j);
                       Value rp = at(fb, fl, t[0], p, j);
                       Value u = tensor::InsertOp::create(
                           fb, fl, rp, t[0], ValueRange{k, j});
                       return {tensor::InsertOp::create(fb, fl, rk, u,
                                                        ValueRange{p, j})};
                     })[0];
        Value swapped =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne, p, k);
        det = arith::SelectOp::create(nb, l, swapped,
                                      arith::NegFOp::create(nb, l, det), det);
        Value pivot = at(nb, l, a, k, k);
        det = arith::MulFOp::create(nb, l, det, pivot);
        // Eliminate below the pivot, unless the column is all zero.
        Value nonZero = arith::CmpFOp::create(
            nb, l, arith::CmpFPredicate::UNE, pivot, zeroF);
        auto ifOp = scf::IfOp::create(nb, l, TypeRange{a.getType()}, nonZero,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard g(nb);
          nb.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(nb, l, a);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          Value k1 = arith::AddIOp::create(nb, l, k, one);
          Value e = forRange(
              nb, l, k1, m, idx(nb, l, 1), ValueRange{a},
              [&](OpBuilder &ib, Location il, Value i,
                  ValueRange t) -> SmallVector<Value> {
                Value f = arith::DivFOp::create(ib, il, at(ib, il, t[0], i, k),
                                                pivot);
                return forRange(
                    ib, il, k1, m, idx(ib, il, 1), t,
                    [&](OpBuilder &jb, Location jl, Value j,
                        ValueRange u) -> SmallVector<Value> {
                      Value v = arith::SubFOp::create(
                          jb, jl, at(jb, jl, u[0], i, j),
                          arith::MulFOp::create(jb, jl, f,
                                                at(jb, jl, u[0], k, j)));
                      return {tensor::InsertOp::create(jb, jl, v, u[0],
                                                       ValueRange{i, j})};
                    });
              })[0];
          scf::YieldOp::create(nb, l, e);
        }
        return {ifOp.getResult(0), det};
      });
  return res[1];
}

/// Det: [*, M, M] -> [*].
struct DetLowering : OpConversionPattern<ONNX::DetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    if (rank < 2)
      return op.emitOpError("input must have rank 2 or more ([*, M, M])");
    if (type.getRank() != rank - 2)
      return op.emitOpError("result must have rank ") << rank - 2;
    int64_t rows = xt.getDimSize(rank - 2), cols = xt.getDimSize(rank - 1);
    if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(cols) &&
        rows != cols)
      return op.emitOpError("matrices must be square, not ")
             << rows << "x" << cols;
    Value m = getDimValue(rewriter, loc, x, rank - 1);
    if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(cols))
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, x, rank - 2), m),
          "Det: matrices must be square");
    SmallVector<Value> batch;
    for (int64_t d = 0; d < rank - 2; ++d)
      batch.push_back(getDimValue(rewriter, loc, x, d));
    Type elt = type.getElementType();
    Type acc = elt.getIntOrFloatBitWidth() < 32 ? rewriter.getF32Type() : elt;
    SmallVector<Value> sizes(type.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        sizes[d] = batch[d];
    Value init = createEmpty(rewriter, loc, type, sizes);
    Value result =
        buildLoops(rewriter, loc, batch, ValueRange{init},
                   [&](OpBuilder &b, Location l, ValueRange ivs,
                       ValueRange args) -> SmallVector<Value> {
                     Value d = determinant(b, l, x, ivs, m, acc);
                     d = convertScalar(b, l, d, acc, elt);
                     return {tensor::InsertOp::create(b, l, d, args[0], ivs)};
                   })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateDetPatterns(TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<DetLowering>(tc, patterns.getContext());
}

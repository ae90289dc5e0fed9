//===- MatMul.cpp - MatMul, Gemm, MatMulInteger, QLinearMatMul -> linalg --===//
//
// Plain 2-D products become linalg.matmul (and equal-batch 3-D ones
// linalg.batch_matmul) so that later tiling and vectorization see named
// contractions; every other form (1-D operands, broadcast batch dims,
// transposes, zero points) is one linalg.generic with a reduction loop.
//
// A dynamic batch dim that may be 1 while the result's is not (only the run
// time knows) is broadcast up front: the result's batch sizes are the
// checked numpy broadcast of the operands', and such an operand is copied
// to them (a gather), so that the contraction keeps its affine maps. Inner
// dims that only the run time knows are checked equal. QLinearMatMul is an
// i32 product generic, then a generic that requantizes it (Quantize.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Quantize.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The loops of a numpy matmul: batch dims, then m (when A is at least 2-D),
/// n (when B is at least 2-D), then the reduction dim k.
struct MatmulLoops {
  unsigned numLoops = 0;
  /// The number of batch dims of the result.
  int64_t numBatch = 0;
  SmallVector<AffineExpr> a, b, out;
  std::optional<AffineExpr> m, n;
  /// Per operand, its dynamic batch dims that may broadcast at run time
  /// (they must be broadcast before the contraction: broadcastBatchDims).
  SmallVector<int64_t> aBroadcast, bBroadcast;
};

/// The indexing of A (optionally transposed, 2-D), B and the result.
FailureOr<MatmulLoops> matmulLoops(Operation *op, Value origA, Value origB,
                                   Value origY, bool transA = false,
                                   bool transB = false) {
  MLIRContext *ctx = op->getContext();
  auto ta = cast<RankedTensorType>(origA.getType());
  auto tb = cast<RankedTensorType>(origB.getType());
  auto ty = cast<RankedTensorType>(origY.getType());
  int64_t ra = ta.getRank(), rb = tb.getRank(), ry = ty.getRank();
  int64_t nb = ry - (ra >= 2) - (rb >= 2);
  if (nb < 0)
    return op->emitOpError("result rank does not match the operands");
  MatmulLoops l;
  l.numBatch = nb;
  unsigned next = nb;
  if (ra >= 2)
    l.m = getAffineDimExpr(next++, ctx);
  if (rb >= 2)
    l.n = getAffineDimExpr(next++, ctx);
  AffineExpr k = getAffineDimExpr(next++, ctx);
  l.numLoops = next;
  // Batch dims: aligned from the right with the result's batch dims.
  auto batch = [&](Value orig, RankedTensorType t, int64_t rank,
                   SmallVector<AffineExpr> &exprs,
                   SmallVector<int64_t> &runTimeBroadcast) -> LogicalResult {
    for (int64_t j = 0; j < rank - 2; ++j) {
      int64_t d = j + nb - (rank - 2);
      int64_t size = t.getDimSize(j), out = ty.getDimSize(d);
      if (size == 1 && out != 1) {
        exprs.push_back(getAffineConstantExpr(0, ctx));
        continue;
      }
      if (t.isDynamicDim(j) && out != 1) {
        StringRef name = dimName(orig, j);
        Value other = orig == origA ? origB : origA;
        auto to = cast<RankedTensorType>(other.getType());
        int64_t jo = d - (nb - (to.getRank() - 2));
        bool otherIsOne = to.getRank() < 2 || jo < 0 || to.getDimSize(jo) == 1;
        bool sameName = !name.empty() && name == dimName(origY, d);
        if (!otherIsOne && !sameName)
          runTimeBroadcast.push_back(j);
      }
      exprs.push_back(getAffineDimExpr(d, ctx));
    }
    return success();
  };
  if (failed(batch(origA, ta, ra, l.a, l.aBroadcast)) ||
      failed(batch(origB, tb, rb, l.b, l.bBroadcast)))
    return failure();
  if (ra >= 2) {
    l.a.push_back(transA ? k : *l.m);
    l.a.push_back(transA ? *l.m : k);
  } else {
    l.a.push_back(k);
  }
  if (rb >= 2) {
    l.b.push_back(transB ? *l.n : k);
    l.b.push_back(transB ? k : *l.n);
  } else {
    l.b.push_back(k);
  }
  for (int64_t d = 0; d < nb; ++d)
    l.out.push_back(getAffineDimExpr(d, ctx));
  if (l.m)
    l.out.push_back(*l.m);
  if (l.n)
    l.out.push_back(*l.n);
  return l;
}

/// The run-time sizes of the result of a contraction described by `l`.
SmallVector<Value> resultSizes(OpBuilder &b, Location loc, Value a, Value bv,
                               Value origA, Value origB, Value origY,
                               RankedTensorType type, bool transA,
                               bool transB) {
  SmallVector<Value> sizes(type.getRank());
  int64_t ra = cast<RankedTensorType>(a.getType()).getRank();
  int64_t rb = cast<RankedTensorType>(bv.getType()).getRank();
  int64_t nb = type.getRank() - (ra >= 2) - (rb >= 2);
  for (int64_t d = 0; d < nb; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    // The batch dim comes from whichever operand has it not equal to 1.
    int64_t ja = d - (nb - (ra - 2)), jb = d - (nb - (rb - 2));
    Value from;
    if (ra > 2 && ja >= 0 &&
        cast<RankedTensorType>(a.getType()).getDimSize(ja) != 1)
      from = tensor::DimOp::create(b, loc, a, ja);
    else
      from = tensor::DimOp::create(b, loc, bv, jb);
    sizes[d] = from;
  }
  int64_t d = nb;
  if (ra >= 2) {
    if (type.isDynamicDim(d))
      sizes[d] = tensor::DimOp::create(b, loc, a, transA ? ra - 1 : ra - 2);
    ++d;
  }
  if (rb >= 2 && type.isDynamicDim(d))
    sizes[d] = tensor::DimOp::create(b, loc, bv, transB ? rb - 2 : rb - 1);
  return sizes;
}

/// `v` with its batch dims `dims` broadcast to the result's batch sizes
/// `sizes` (one per result dim; the batch dims come first): a copy that
/// reads index 0 of a dim that is 1 at run time.
Value broadcastOperand(OpBuilder &b, Location loc, Value v,
                       ArrayRef<int64_t> dims, int64_t numBatch,
                       RankedTensorType type, ArrayRef<Value> sizes) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = t.getRank();
  int64_t offset = numBatch - (rank - 2); // result batch dim of dim 0
  SmallVector<int64_t> shape(t.getShape());
  SmallVector<Value> outSizes, isOne(rank);
  Value one = createIndexConstant(b, loc, 1);
  for (int64_t j = 0; j < rank; ++j) {
    if (!llvm::is_contained(dims, j)) {
      outSizes.push_back(getDimValue(b, loc, v, j));
      continue;
    }
    int64_t d = j + offset;
    shape[j] = type.getDimSize(d);
    outSizes.push_back(type.isDynamicDim(d)
                           ? sizes[d]
                           : createIndexConstant(b, loc, type.getDimSize(d)));
    isOne[j] = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     tensor::DimOp::create(b, loc, v, j), one);
  }
  auto outType = RankedTensorType::get(shape, t.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{},
             ValueRange{createEmpty(b, loc, outType, outSizes)},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value zero = createIndexConstant(nb, l, 0);
               SmallVector<Value> idx;
               for (int64_t j = 0; j < rank; ++j) {
                 Value i = linalg::IndexOp::create(nb, l, j);
                 idx.push_back(isOne[j] ? Value(arith::SelectOp::create(
                                              nb, l, isOne[j], zero, i))
                                        : i);
               }
               linalg::YieldOp::create(
                   nb, l, ValueRange{tensor::ExtractOp::create(nb, l, v, idx)});
             })
      .getResult(0);
}

/// For batch dims that may broadcast only at run time (`l`'s aBroadcast /
/// bBroadcast): the result's batch sizes become the numpy broadcast of A's
/// and B's (checked, and checked against the result type's static dims) in
/// `sizes`, and A and B are broadcast to them where needed.
void broadcastBatchDims(OpBuilder &b, Location loc, Operation *op,
                        const MatmulLoops &l, Value &a, Value &bv, Value origA,
                        Value origB, RankedTensorType type,
                        SmallVector<Value> &sizes) {
  if (l.aBroadcast.empty() && l.bBroadcast.empty())
    return;
  std::string prefix = (op->getName().stripDialect() + ": ").str();
  Value one = createIndexConstant(b, loc, 1);
  for (int64_t d = 0; d < l.numBatch; ++d) {
    // The operand dims aligned with d that are not a static 1, static first.
    SmallVector<std::pair<Value, int64_t>> cands;
    SmallVector<Value> origs;
    for (auto [v, orig] : {std::pair{a, origA}, std::pair{bv, origB}}) {
      auto t = cast<RankedTensorType>(v.getType());
      int64_t j = d - (l.numBatch - (t.getRank() - 2));
      if (t.getRank() <= 2 || j < 0 || t.getDimSize(j) == 1)
        continue;
      auto at = t.isDynamicDim(j) ? cands.end() : cands.begin();
      origs.insert(origs.begin() + (at - cands.begin()), orig);
      cands.insert(at, {v, j});
    }
    Value size = cands.empty()
                     ? one
                     : getDimValue(b, loc, cands[0].first, cands[0].second);
    for (size_t c = 1; c < cands.size(); ++c) {
      auto [v, j] = cands[c];
      StringRef name = dimName(origs[c], j);
      if (!name.empty() && name == dimName(origs[0], cands[0].second))
        continue; // the same symbolic dim
      Value dv = tensor::DimOp::create(b, loc, v, j);
      if (cast<RankedTensorType>(cands[0].first.getType())
              .isDynamicDim(cands[0].second))
        size = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one),
            dv, size);
      Value dvIsOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dv, one);
      Value same =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dv, size);
      Value ok = arith::OrIOp::create(b, loc, dvIsOne, same);
      emitRuntimeCheck(b, loc, ok,
                       prefix + "the batch dims of A and B do not broadcast");
    }
    if (type.isDynamicDim(d)) {
      sizes[d] = size;
    } else if (!getConstantIntValue(size)) {
      emitRuntimeCheck(b, loc,
                       arith::CmpIOp::create(
                           b, loc, arith::CmpIPredicate::eq, size,
                           createIndexConstant(b, loc, type.getDimSize(d))),
                       prefix +
                           "the batch dims do not match the inferred type");
    }
  }
  if (!l.aBroadcast.empty())
    a = broadcastOperand(b, loc, a, l.aBroadcast, l.numBatch, type, sizes);
  if (!l.bBroadcast.empty())
    bv = broadcastOperand(b, loc, bv, l.bBroadcast, l.numBatch, type, sizes);
}

/// Checks at run time that dim `ka` of A equals dim `kb` of B (the inner
/// dims) where the types leave that open; static dims are the verifier's.
void checkInnerDims(OpBuilder &b, Location loc, Operation *op, Value a,
                    Value origA, int64_t ka, Value bv, Value origB,
                    int64_t kb) {
  auto ta = cast<RankedTensorType>(a.getType());
  auto tb = cast<RankedTensorType>(bv.getType());
  if (!ta.isDynamicDim(ka) && !tb.isDynamicDim(kb))
    return;
  StringRef name = dimName(origA, ka);
  if (!name.empty() && name == dimName(origB, kb))
    return;
  Value da = getDimValue(b, loc, a, ka);
  Value db = getDimValue(b, loc, bv, kb);
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, da, db);
  emitRuntimeCheck(
      b, loc, ok,
      (op->getName().stripDialect() + ": the inner dims of A and B differ")
          .str());
}

/// The inner dim of a matmul operand: the last of A, the first of B's last
/// two (the only one of a 1-D operand).
int64_t innerDimA(Value a, bool trans = false) {
  int64_t r = cast<RankedTensorType>(a.getType()).getRank();
  return r == 1 ? 0 : (trans ? r - 2 : r - 1);
}
int64_t innerDimB(Value bv, bool trans = false) {
  int64_t r = cast<RankedTensorType>(bv.getType()).getRank();
  return r == 1 ? 0 : (trans ? r - 1 : r - 2);
}

Value zeroFilled(OpBuilder &b, Location loc, RankedTensorType type,
                 ArrayRef<Value> sizes) {
  Value empty = createEmpty(b, loc, type, sizes);
  Value zero = createScalarConstant(b, loc, type.getElementType(), 0);
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// The contraction as a linalg.generic; `extra` operands (with maps over the
/// same loops) are passed to `mulAdd`(a, b, extra..., acc).
Value contraction(OpBuilder &b, Location loc, const MatmulLoops &l, Value a,
                  Value bv, ArrayRef<Value> extra, ArrayRef<AffineMap> extraMaps,
                  Value init,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {AffineMap::get(l.numLoops, 0, l.a, ctx),
                                 AffineMap::get(l.numLoops, 0, l.b, ctx)};
  maps.append(extraMaps.begin(), extraMaps.end());
  maps.push_back(AffineMap::get(l.numLoops, 0, l.out, ctx));
  SmallVector<utils::IteratorType> iters = parallelIterators(l.numLoops);
  iters.back() = utils::IteratorType::reduction;
  SmallVector<Value> ins = {a, bv};
  ins.append(extra.begin(), extra.end());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
             iters,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
             })
      .getResult(0);
}

Value mulAdd(OpBuilder &b, Location loc, Value x, Value y, Value acc) {
  if (isFloat(x.getType()))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, acc, arith::MulIOp::create(b, loc, x, y));
}

/// MatMul: numpy matmul (batch dims broadcast; a 1-D A is a row vector and a
/// 1-D B a column vector, their unit dims dropped from the result).
struct MatMulLowering : OpConversionPattern<ONNX::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value a = adaptor.getA(), bv = adaptor.getB();
    auto ta = cast<RankedTensorType>(a.getType());
    auto tb = cast<RankedTensorType>(bv.getType());
    bool named2D = ta.getRank() == 2 && tb.getRank() == 2;
    bool namedBatch = ta.getRank() == 3 && tb.getRank() == 3 &&
                      ta.getDimSize(0) == tb.getDimSize(0) &&
                      !ta.isDynamicDim(0);
    FailureOr<MatmulLoops> l = MatmulLoops();
    if (!named2D && !namedBatch) {
      l = matmulLoops(op, op.getA(), op.getB(), op.getY());
      if (failed(l))
        return failure();
    }
    SmallVector<Value> sizes = resultSizes(rewriter, loc, a, bv, op.getA(),
                                           op.getB(), op.getY(), type, false,
                                           false);
    checkInnerDims(rewriter, loc, op, a, op.getA(), innerDimA(a), bv, op.getB(),
                   innerDimB(bv));
    broadcastBatchDims(rewriter, loc, op, *l, a, bv, op.getA(), op.getB(), type,
                       sizes);
    Value init = zeroFilled(rewriter, loc, type, sizes);
    if (named2D) {
      rewriter.replaceOp(op, linalg::MatmulOp::create(rewriter, loc,
                                                      TypeRange{type},
                                                      ValueRange{a, bv},
                                                      ValueRange{init})
                                 .getResult(0));
      return success();
    }
    if (namedBatch) {
      rewriter.replaceOp(op, linalg::BatchMatmulOp::create(rewriter, loc,
                                                           TypeRange{type},
                                                           ValueRange{a, bv},
                                                           ValueRange{init})
                                 .getResult(0));
      return success();
    }
    rewriter.replaceOp(
        op, contraction(rewriter, loc, *l, a, bv, {}, {}, init,
                        [](OpBuilder &b, Location loc, ValueRange args) {
                          return mulAdd(b, loc, args[0], args[1], args[2]);
                        }));
    return success();
  }
};

/// Gemm: Y = alpha * A' * B' + beta * C, A' = transA ? A^T : A (likewise B'),
/// C (optional) broadcast unidirectionally to (M, N).
struct GemmLowering : OpConversionPattern<ONNX::GemmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    bool transA = op.getTransA(), transB = op.getTransB();
    Value a = adaptor.getA(), bv = adaptor.getB();
    SmallVector<Value> sizes = resultSizes(rewriter, loc, a, bv, op.getA(),
                                           op.getB(), op.getY(), type, transA,
                                           transB);
    checkInnerDims(rewriter, loc, op, a, op.getA(), innerDimA(a, transA), bv,
                   op.getB(), innerDimB(bv, transB));
    Value init = zeroFilled(rewriter, loc, type, sizes);
    Value prod;
    if (!transA && !transB) {
      prod = linalg::MatmulOp::create(rewriter, loc, TypeRange{type},
                                      ValueRange{a, bv}, ValueRange{init})
                 .getResult(0);
    } else {
      FailureOr<MatmulLoops> l =
          matmulLoops(op, op.getA(), op.getB(), op.getY(), transA, transB);
      if (failed(l))
        return failure();
      prod = contraction(rewriter, loc, *l, a, bv, {}, {}, init,
                         [](OpBuilder &b, Location loc, ValueRange args) {
                           return mulAdd(b, loc, args[0], args[1], args[2]);
                         });
    }
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    bool hasC = !isa<NoneType>(op.getC().getType()) && beta != 0;
    if (alpha == 1 && !hasC) {
      rewriter.replaceOp(op, prod);
      return success();
    }
    SmallVector<Value> ins = {prod}, origIns = {op.getY()};
    if (hasC) {
      ins.push_back(adaptor.getC());
      origIns.push_back(op.getC());
    }
    Value result = buildElementwise(
        rewriter, loc, op, ins, origIns, op.getY(), type,
        [alpha, beta](ScalarContext &c) -> Value {
          OpBuilder &b = c.b;
          Location loc = c.loc;
          Value y = c.args[0];
          Type t = y.getType();
          bool f = isFloat(t);
          if (alpha != 1) {
            Value av = createScalarConstant(b, loc, t, alpha);
            y = f ? Value(arith::MulFOp::create(b, loc, av, y))
                  : Value(arith::MulIOp::create(b, loc, av, y));
          }
          if (c.args.size() > 1) {
            Value cv = c.args[1];
            if (beta != 1) {
              Value bvv = createScalarConstant(b, loc, t, beta);
              cv = f ? Value(arith::MulFOp::create(b, loc, bvv, cv))
                     : Value(arith::MulIOp::create(b, loc, bvv, cv));
            }
            y = f ? Value(arith::AddFOp::create(b, loc, y, cv))
                  : Value(arith::AddIOp::create(b, loc, y, cv));
          }
          return y;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// MatMulInteger: Y = (A - a_zero_point) * (B - b_zero_point) in i32; the
/// zero points are scalars or per row of A / per column of B.
struct MatMulIntegerLowering : OpConversionPattern<ONNX::MatMulIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MatMulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value a = adaptor.getA(), bv = adaptor.getB();
    FailureOr<MatmulLoops> l =
        matmulLoops(op, op.getA(), op.getB(), op.getY());
    if (failed(l))
      return failure();
    SmallVector<Value> extra;
    SmallVector<AffineMap> maps;
    SmallVector<Type> extraOnnx;
    SmallVector<Value> sizes = resultSizes(rewriter, loc, a, bv, op.getA(),
                                           op.getB(), op.getY(), type, false,
                                           false);
    checkInnerDims(rewriter, loc, op, a, op.getA(), innerDimA(a), bv, op.getB(),
                   innerDimB(bv));
    broadcastBatchDims(rewriter, loc, op, *l, a, bv, op.getA(), op.getB(), type,
                       sizes);
    int64_t rank = type.getRank();
    auto addZeroPoint = [&](Value orig, Value &conv,
                            std::optional<AffineExpr> dim, int64_t outDim,
                            StringRef which) -> LogicalResult {
      if (isa<NoneType>(orig.getType()))
        return success();
      auto t = cast<RankedTensorType>(conv.getType());
      if (t.getRank() > 1 || (t.getRank() == 1 && !dim))
        return op.emitOpError(which)
               << " must be a scalar or a 1-D tensor (per row of A / per "
                  "column of B)";
      if (t.getRank() == 1 && t.isDynamicDim(0)) {
        // Length known only at run time: 1 (one zero point) or the M / N
        // dim (one per row / column). Broadcast it to the latter, checked.
        Value len = getDimValue(rewriter, loc, conv, 0);
        Value target = sizes[outDim] ? sizes[outDim]
                                     : createIndexConstant(rewriter, loc,
                                                           type.getDimSize(outDim));
        Value one = createIndexConstant(rewriter, loc, 1);
        Value isOne = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::eq, len, one);
        Value ok = arith::OrIOp::create(
            rewriter, loc, isOne,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, len,
                                  target));
        emitRuntimeCheck(rewriter, loc, ok,
                         (which + " has neither 1 entry nor one per row/column").str());
        auto full = RankedTensorType::get({ShapedType::kDynamic}, t.getElementType());
        Value src = conv;
        conv = linalg::GenericOp::create(
                   rewriter, loc, TypeRange{full}, ValueRange{},
                   ValueRange{createEmpty(rewriter, loc, full, {target})},
                   SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
                   parallelIterators(1),
                   [&](OpBuilder &b, Location l, ValueRange) {
                     Value i = linalg::IndexOp::create(b, l, 0);
                     Value at = arith::SelectOp::create(
                         b, l, isOne, createIndexConstant(b, l, 0), i);
                     linalg::YieldOp::create(
                         b, l, ValueRange{tensor::ExtractOp::create(
                                   b, l, src, ValueRange{at})});
                   })
                   .getResult(0);
        t = full;
      } else if (t.getRank() == 1 && t.getDimSize(0) != 1) {
        // One zero point per row / column: the lengths must agree.
        if (!type.isDynamicDim(outDim) && type.getDimSize(outDim) != t.getDimSize(0))
          return op.emitOpError(which)
                 << " has " << t.getDimSize(0) << " entries for "
                 << type.getDimSize(outDim) << " rows/columns";
        if (type.isDynamicDim(outDim))
          emitRuntimeCheck(
              rewriter, loc,
              arith::CmpIOp::create(
                  rewriter, loc, arith::CmpIPredicate::eq, sizes[outDim],
                  createIndexConstant(rewriter, loc, t.getDimSize(0))),
              (which + " has one entry per row/column, but not as many").str());
      }
      SmallVector<AffineExpr> exprs;
      if (t.getRank() == 1)
        exprs.push_back(t.getDimSize(0) == 1 ? getAffineConstantExpr(0, ctx)
                                             : *dim);
      extra.push_back(conv);
      maps.push_back(AffineMap::get(l->numLoops, 0, exprs, ctx));
      extraOnnx.push_back(getElementType(orig));
      return success();
    };
    bool hasAZp = !isa<NoneType>(op.getAZeroPoint().getType());
    Value aZp = adaptor.getAZeroPoint(), bZp = adaptor.getBZeroPoint();
    if (failed(addZeroPoint(op.getAZeroPoint(), aZp, l->m, rank - 2,
                            "a_zero_point")) ||
        failed(addZeroPoint(op.getBZeroPoint(), bZp, l->n, rank - 1,
                            "b_zero_point")))
      return failure();
    bool hasBZp = !isa<NoneType>(op.getBZeroPoint().getType());
    Value init = zeroFilled(rewriter, loc, type, sizes);
    Type i32 = rewriter.getI32Type();
    Type onnxA = getElementType(op.getA()), onnxB = getElementType(op.getB());
    Type azpT = hasAZp ? getElementType(op.getAZeroPoint()) : Type();
    Type bzpT = hasBZp ? getElementType(op.getBZeroPoint()) : Type();
    Value result = contraction(
        rewriter, loc, *l, a, bv, extra, maps, init,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = convertScalar(b, loc, args[0], onnxA, i32);
          Value y = convertScalar(b, loc, args[1], onnxB, i32);
          unsigned i = 2;
          if (hasAZp)
            x = arith::SubIOp::create(
                b, loc, x, convertScalar(b, loc, args[i++], azpT, i32));
          if (hasBZp)
            y = arith::SubIOp::create(
                b, loc, y, convertScalar(b, loc, args[i++], bzpT, i32));
          return mulAdd(b, loc, x, y, args[i]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// QLinearMatMul's scales and zero points: per tensor (a dynamic 1-D one
/// checked at run time to hold one element).
LogicalResult checkQMatMulParams(ONNX::QLinearMatMulOp op,
                                 ONNX::QLinearMatMulOp::Adaptor adaptor,
                                 OpBuilder &rewriter, Location loc) {
  for (Value p : {op.getAScale(), op.getAZeroPoint(), op.getBScale(),
                  op.getBZeroPoint(), op.getYScale(), op.getYZeroPoint()}) {
    auto t = cast<RankedTensorType>(p.getType());
    if (t.getRank() > 1 ||
        (t.getRank() == 1 && !t.isDynamicDim(0) && t.getDimSize(0) != 1))
      return op.emitOpError(
          "only per-tensor scales and zero points are supported");
  }
  for (Value p : {adaptor.getAScale(), adaptor.getAZeroPoint(),
                  adaptor.getBScale(), adaptor.getBZeroPoint(),
                  adaptor.getYScale(), adaptor.getYZeroPoint()}) {
    auto t = cast<RankedTensorType>(p.getType());
    if (t.getRank() == 1 && t.isDynamicDim(0))
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, p, 0),
                                createIndexConstant(rewriter, loc, 1)),
          "QLinearMatMul: only per-tensor scales and zero "
          "points are supported");
  }
  return success();
}

/// The loops of QLinearMatMul's product (the result dims, then k): the
/// operands' maps (broadcast batch dims read at 0) and the result sizes,
/// with run-time checks that the operand dims match the loops and the
/// inner dims each other.
struct QMatMulLoops {
  AffineMap aMap, bMap;
  SmallVector<Value> sizes;
};

QMatMulLoops qmatmulLoops(OpBuilder &rewriter, Location loc, Value a, Value bv,
                          RankedTensorType type) {
  MLIRContext *ctx = rewriter.getContext();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(bv.getType());
  int64_t ra = aType.getRank(), rb = bType.getRank(), r = type.getRank();
  // Loops: the result dims, then k.
  unsigned numLoops = r + 1;
  AffineExpr k = getAffineDimExpr(r, ctx);
  SmallVector<Value> sizes(r);
  auto operandExprs = [&](Value v, RankedTensorType t, bool isA) {
    SmallVector<AffineExpr> exprs;
    int64_t rank = t.getRank();
    for (int64_t j = 0; j < rank - 2; ++j) {
      int64_t d = j + r - rank;
      bool bcast = t.getDimSize(j) == 1 && type.getDimSize(d) != 1;
      exprs.push_back(bcast ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(d, ctx));
      if (!bcast && type.isDynamicDim(d) && !sizes[d])
        sizes[d] = getDimValue(rewriter, loc, v, j);
    }
    if (isA) {
      exprs.push_back(getAffineDimExpr(r - 2, ctx));
      exprs.push_back(k);
    } else {
      exprs.push_back(k);
      exprs.push_back(getAffineDimExpr(r - 1, ctx));
    }
    return AffineMap::get(numLoops, 0, exprs, ctx);
  };
  AffineMap aMap = operandExprs(a, aType, true);
  AffineMap bMap = operandExprs(bv, bType, false);
  if (type.isDynamicDim(r - 2))
    sizes[r - 2] = getDimValue(rewriter, loc, a, ra - 2);
  if (type.isDynamicDim(r - 1))
    sizes[r - 1] = getDimValue(rewriter, loc, bv, rb - 1);
  for (int64_t d = 0; d < r; ++d)
    if (type.isDynamicDim(d) && !sizes[d])
      sizes[d] = createIndexConstant(rewriter, loc, 1);
  // Operand dims that index a loop must match its size (no broadcasting
  // of dynamic dims, equal k).
  auto checkDims = [&](Value v, RankedTensorType t, AffineMap m) {
    for (int64_t j = 0; j < t.getRank(); ++j) {
      auto e = dyn_cast<AffineDimExpr>(m.getResult(j));
      if (!e || e.getPosition() == (unsigned)r)
        continue;
      Value want = type.isDynamicDim(e.getPosition())
                       ? sizes[e.getPosition()]
                       : createIndexConstant(rewriter, loc,
                                             type.getDimSize(e.getPosition()));
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, v, j), want),
          "QLinearMatMul: operand shapes do not match");
    }
  };
  checkDims(a, aType, aMap);
  checkDims(bv, bType, bMap);
  Value bInner = getDimValue(rewriter, loc, bv, rb - 2);
  Value aInner = getDimValue(rewriter, loc, a, ra - 1);
  emitRuntimeCheck(rewriter, loc,
                   arith::CmpIOp::create(
                       rewriter, loc, arith::CmpIPredicate::eq, aInner, bInner),
                   "QLinearMatMul: inner dims do not match");
  return {aMap, bMap, sizes};
}

/// The int32 product sum_k (A - a_zp)(B - b_zp) over the loops.
Value qmatmulProduct(OpBuilder &rewriter, Location loc,
                     ONNX::QLinearMatMulOp op, Value a, Value bv,
                     RankedTensorType type, const QMatMulLoops &loops,
                     Value aZp, Value bZp) {
  MLIRContext *ctx = rewriter.getContext();
  Type i32 = rewriter.getI32Type();
  int64_t r = type.getRank();
  unsigned numLoops = r + 1;
  ArrayRef<Value> sizes = loops.sizes;
  AffineMap aMap = loops.aMap, bMap = loops.bMap;
  auto accType = RankedTensorType::get(type.getShape(), i32);
  Value accInit = createEmpty(rewriter, loc, accType, sizes);
  Value accZero = createIntConstant(rewriter, loc, i32, 0);
  Value acc =
      linalg::FillOp::create(rewriter, loc, accZero, accInit).getResult(0);
  SmallVector<utils::IteratorType> iters = parallelIterators(numLoops);
  iters.back() = utils::IteratorType::reduction;
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < r; ++d)
    outExprs.push_back(getAffineDimExpr(d, ctx));
  Type onnxA = getElementType(op.getA()), onnxB = getElementType(op.getB());
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{accType}, ValueRange{a, bv},
             ValueRange{acc},
             SmallVector<AffineMap>{aMap, bMap,
                                    AffineMap::get(numLoops, 0, outExprs, ctx)},
             iters,
             [&](OpBuilder &b, Location l, ValueRange args) {
               Value x = arith::SubIOp::create(
                   b, l, convertScalar(b, l, args[0], onnxA, i32), aZp);
               Value y = arith::SubIOp::create(
                   b, l, convertScalar(b, l, args[1], onnxB, i32), bZp);
               linalg::YieldOp::create(
                   b, l,
                   ValueRange{arith::AddIOp::create(
                       b, l, args[2], arith::MulIOp::create(b, l, x, y))});
             })
      .getResult(0);
}

/// QLinearMatMul: y = saturate(roundeven((a - a_zp) * (b - b_zp) *
/// (a_scale * b_scale / y_scale)) + y_zp): an i32 matmul with numpy batch
/// broadcasting, then a requantization (the multiplier in f32, the product
/// in f64 as numpy promotes int32 * float32). Scales and zero points are
/// per tensor; 1-D operands are rejected.
struct QLinearMatMulLowering : OpConversionPattern<ONNX::QLinearMatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::QLinearMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value a = adaptor.getA(), bv = adaptor.getB();
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(bv.getType());
    int64_t ra = aType.getRank(), rb = bType.getRank(), r = type.getRank();
    if (ra < 2 || rb < 2)
      return op.emitOpError("1-D operands are not supported");
    if (r != std::max(ra, rb))
      return op.emitOpError("result rank does not match the operands");
    if (failed(checkQMatMulParams(op, adaptor, rewriter, loc)))
      return failure();
    QMatMulLoops loops = qmatmulLoops(rewriter, loc, a, bv, type);
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type(),
         f64 = rewriter.getF64Type();
    auto scalarOf = [&](Value orig, Value conv, Type to) {
      return convertScalar(rewriter, loc, extractScalar(rewriter, loc, conv),
                           getElementType(orig), to);
    };
    Value aZp = scalarOf(op.getAZeroPoint(), adaptor.getAZeroPoint(), i32);
    Value bZp = scalarOf(op.getBZeroPoint(), adaptor.getBZeroPoint(), i32);
    Value yZp = scalarOf(op.getYZeroPoint(), adaptor.getYZeroPoint(), f64);
    Value yScale = scalarOf(op.getYScale(), adaptor.getYScale(), f32);
    Value bScale = scalarOf(op.getBScale(), adaptor.getBScale(), f32);
    Value aScale = scalarOf(op.getAScale(), adaptor.getAScale(), f32);
    Value mult = arith::DivFOp::create(
        rewriter, loc, arith::MulFOp::create(rewriter, loc, aScale, bScale),
        yScale);
    mult = arith::ExtFOp::create(rewriter, loc, f64, mult);

    Value prod =
        qmatmulProduct(rewriter, loc, op, a, bv, type, loops, aZp, bZp);
    Type onnxY = getElementType(op.getY());
    Value init = createEmpty(rewriter, loc, type, loops.sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{prod}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(r)),
        parallelIterators(r), [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = arith::SIToFPOp::create(b, l, f64, args[0]);
          v = arith::MulFOp::create(b, l, v, mult);
          linalg::YieldOp::create(b, l,
                                  ValueRange{quantize(b, l, v, yZp, onnxY)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateMatMulPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<MatMulLowering, GemmLowering, MatMulIntegerLowering,
               QLinearMatMulLowering>(tc, patterns.getContext());
}

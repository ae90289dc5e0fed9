//===- Transformer.cpp - Attention, RMSNormalization, RotaryEmbedding -----===//
//
// The transformer ops of opsets 23-24 -> linalg: Attention (MHA, GQA, MQA;
// 3-D and 4-D inputs; boolean or additive masks, broadcast and shorter than
// the keys; is_causal, sliding windows and nonpad_kv_seqlen, aligned
// bottom-right; the KV cache; softcap; scale; qk_matmul_output in its four
// modes; softmax_precision), RMSNormalization, RotaryEmbedding (interleaved
// and half-split, partial rotation, with or without position_ids), all of
// onnx/defs/nn (TensorScatter, of tensor, the KV cache's update, is in
// Scatter.cpp). Arithmetic runs in f32 for f16/bf16 and in the element type
// otherwise (f32, f64).
//
// Attention (Attention.cpp): the products Q K^T and P V are contractions
// (GEMM calls for f32 at -O1 and up), the bias, the softmax and its
// fully-masked-row guard elementwise generics and two row reductions.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

using CmpI = arith::CmpIPredicate;

//===----------------------------------------------------------------------===//
// Swish is in MathUnary.cpp. RMSNormalization.
//===----------------------------------------------------------------------===//

/// RMSNormalization: Y = X / sqrt(mean(X^2 over [axis, rank)) + epsilon) *
/// scale, the statistics in f32 (stash_type 1), X / RMS rounded to X's
/// type before the scale as the spec's function body casts it.
struct RMSNormLowering : OpConversionPattern<ONNX::RMSNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RMSNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    if (op.getStashType() != 1)
      return op.emitOpError("only stash_type 1 (float) is supported");
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX(), scale = adaptor.getScale();
    auto xt = cast<RankedTensorType>(x.getType());
    auto st = cast<RankedTensorType>(scale.getType());
    int64_t rank = xt.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis out of range");
    if (st.getRank() > rank)
      return op.emitOpError("scale has a higher rank than the input");
    Type xe = xt.getElementType(), ye = type.getElementType();
    Type acc = xe.isF64() ? xe : b.getF32Type();
    // Scale broadcasts unidirectionally into X.
    SmallVector<Value> xs = dimValues(b, loc, x);
    for (int64_t j = 0; j < st.getRank(); ++j)
      checkBroadcastDim(b, loc, scale, j, xs[rank - st.getRank() + j],
                     "scale does not broadcast to the input ({} vs {})");
    // Sum of squares over the reduced dims into the kept shape.
    SmallVector<Value> keptSizes(xs.begin(), xs.begin() + axis);
    Value sum = filledTensor(b, loc, keptSizes, acc, 0);
    SmallVector<utils::IteratorType> iters;
    SmallVector<AffineExpr> kept;
    for (int64_t i = 0; i < rank; ++i) {
      iters.push_back(i < axis ? utils::IteratorType::parallel
                               : utils::IteratorType::reduction);
      if (i < axis)
        kept.push_back(getAffineDimExpr(i, ctx));
    }
    AffineMap km = AffineMap::get(rank, 0, kept, ctx);
    sum = linalg::GenericOp::create(
              b, loc, TypeRange{sum.getType()}, ValueRange{x}, ValueRange{sum},
              SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank), km}, iters,
              [&](OpBuilder &nb, Location l, ValueRange a) {
                Value v = convertFloat(nb, l, a[0], acc);
                linalg::YieldOp::create(
                    nb, l, ValueRange{addF(nb, l, a[1], mulF(nb, l, v, v))});
              })
              .getResult(0);
    Value n = indexToF(b, loc, dimProduct(b, loc, x, axis, rank), acc);
    double eps = op.getEpsilon().convertToDouble();
    // The scale, right-aligned: through its map when its dims are static
    // (broadcast dims read at 0), else by tensor.extract at indices that
    // are 0 where its dim is 1 at run time.
    bool scaleByMap = st.hasStaticShape();
    SmallVector<AffineExpr> se;
    for (int64_t j = 0; j < st.getRank(); ++j) {
      int64_t o = rank - st.getRank() + j;
      se.push_back(!st.isDynamicDim(j) && st.getDimSize(j) == 1 &&
                           xt.getDimSize(o) != 1
                       ? getAffineConstantExpr(0, ctx)
                       : getAffineDimExpr(o, ctx));
    }
    SmallVector<Value> ins = {x, sum};
    SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), km};
    if (scaleByMap) {
      ins.push_back(scale);
      maps.push_back(AffineMap::get(rank, 0, se, ctx));
    }
    maps.push_back(b.getMultiDimIdentityMap(rank));
    Value init = emptyTensor(b, loc, xs, ye);
    Value y =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
            parallelIterators(rank),
            [&](OpBuilder &nb, Location l, ValueRange a) {
              Value sv;
              if (scaleByMap) {
                sv = a[2];
              } else {
                SmallVector<Value> si;
                for (int64_t j = 0; j < st.getRank(); ++j)
                  si.push_back(broadcastIndex(
                      nb, l, scale, j,
                      linalg::IndexOp::create(nb, l, rank - st.getRank() + j)));
                sv = tensor::ExtractOp::create(nb, l, scale, si);
              }
              Value ms = addF(nb, l, divF(nb, l, a[1], n),
                              fConst(nb, l, acc, eps));
              Value rms = math::SqrtOp::create(nb, l, ms);
              Value v = divF(nb, l, convertFloat(nb, l, a[0], acc), rms);
              // Normalized in X's type, then times the scale.
              v = convertFloat(nb, l, convertFloat(nb, l, v, xe), acc);
              v = mulF(nb, l, v, convertFloat(nb, l, sv, acc));
              linalg::YieldOp::create(nb, l, ValueRange{convertFloat(nb, l, v, ye)});
            })
            .getResult(0);
    rewriter.replaceOp(op, castTo(b, loc, y, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// RotaryEmbedding
//===----------------------------------------------------------------------===//

/// RotaryEmbedding: the first rotary_embedding_dim (default: all) elements
/// of each head, split in halves (x1 = x[:r/2], x2 = x[r/2:]) or interleaved
/// (x1 = x[0::2], x2 = x[1::2]), become (cos x1 - sin x2, sin x1 + cos x2)
/// with cos/sin read at the token's position (position_ids[b, s] into a
/// (max_pos, r/2) cache, or a (B, S, r/2) cache directly); the rest is
/// copied. One generic over Y reading X, the caches and the partner element
/// by tensor.extract.
struct RotaryEmbeddingLowering
    : OpConversionPattern<ONNX::RotaryEmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RotaryEmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX(), cosC = adaptor.getCosCache(),
          sinC = adaptor.getSinCache();
    bool hasPos = !isa<NoneType>(op.getPositionIds().getType());
    Value pos = hasPos ? adaptor.getPositionIds() : Value();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    if (rank != 3 && rank != 4)
      return op.emitOpError("input must have rank 3 or 4");
    std::optional<uint64_t> heads = op.getNumHeads();
    if (rank == 3 && !heads)
      return op.emitOpError("a 3-D input needs the num_heads attribute");
    int64_t cacheRank = hasPos ? 2 : 3;
    for (Value c : {cosC, sinC})
      if (cast<RankedTensorType>(c.getType()).getRank() != cacheRank)
        return op.emitOpError("cos_cache and sin_cache must have rank ")
               << cacheRank << (hasPos ? " with" : " without")
               << " position_ids";
    if (hasPos && cast<RankedTensorType>(pos.getType()).getRank() != 2)
      return op.emitOpError("position_ids must have rank 2");
    int64_t rotAttr = op.getRotaryEmbeddingDim();
    if (rotAttr < 0 || rotAttr % 2)
      return op.emitOpError("rotary_embedding_dim must be even");
    Type elt = xt.getElementType(), acc = floatAccType(elt);
    SmallVector<Value> xs = dimValues(b, loc, x);
    // Sizes: batch, sequence, head size.
    Value batch = xs[0], seq = rank == 4 ? xs[2] : xs[1];
    Value head = rank == 4 ? xs[3] : divI(b, loc, xs[2], idx(b, loc, *heads));
    if (rank == 3)
      emitRuntimeCheck(
          b, loc,
          cmpI(b, loc, CmpI::eq, remI(b, loc, xs[2], idx(b, loc, *heads)),
               idx(b, loc, 0)),
          "the hidden size {} is not a multiple of num_heads {}",
          ValueRange{xs[2], idx(b, loc, *heads)});
    Value rot = rotAttr ? idx(b, loc, rotAttr) : head;
    emitRuntimeCheck(b, loc,
                     b.createOrFold<arith::AndIOp>(
                         loc, cmpI(b, loc, CmpI::sle, rot, head),
                         cmpI(b, loc, CmpI::eq, remI(b, loc, rot, idx(b, loc, 2)),
                              idx(b, loc, 0))),
                     "the rotated size {} is odd or larger than the head size {}",
                     ValueRange{rot, head});
    Value half = divI(b, loc, rot, idx(b, loc, 2));
    for (Value c : {cosC, sinC})
      checkEqual(b, loc, getDimValue(b, loc, c, cacheRank - 1), half,
                 "the caches' last dim is not half the rotated size");
    Value maxPos;
    if (hasPos) {
      checkBroadcastDim(b, loc, pos, 0, batch,
                     "position_ids has {} rows for a batch of {}");
      checkBroadcastDim(b, loc, pos, 1, seq,
                     "position_ids has {} columns for a sequence of {}");
      maxPos = getDimValue(b, loc, cosC, 0);
      checkEqual(b, loc, getDimValue(b, loc, sinC, 0), maxPos,
                 "cos_cache and sin_cache have different lengths");
      checkEveryElement(
          b, loc, pos, "a position id is out of range of the caches",
          [&](OpBuilder &nb, Location l, Value p, ValueRange) {
            Value i = toIndex(nb, l, p);
            return andI(nb, l, cmpI(nb, l, CmpI::sge, i, idx(nb, l, 0)),
                        cmpI(nb, l, CmpI::slt, i, maxPos));
          });
    } else {
      for (Value c : {cosC, sinC}) {
        checkBroadcastDim(b, loc, c, 0, batch,
                       "the caches have {} rows for a batch of {}");
        checkBroadcastDim(b, loc, c, 1, seq,
                       "the caches have {} positions for a sequence of {}");
      }
    }
    bool interleaved = op.getInterleaved() != 0;
    Value init = emptyTensor(b, loc, xs, type.getElementType());
    Value y =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
            SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank),
                                   b.getMultiDimIdentityMap(rank)},
            parallelIterators(rank),
            [&](OpBuilder &nb, Location l, ValueRange a) {
              SmallVector<Value> iv;
              for (int64_t i = 0; i < rank; ++i)
                iv.push_back(linalg::IndexOp::create(nb, l, i));
              Value bi = iv[0], si = rank == 4 ? iv[2] : iv[1];
              // The position within the head.
              Value d = rank == 4 ? iv[3] : remI(nb, l, iv[2], head);
              Value base = rank == 4 ? idx(nb, l, 0) : subI(nb, l, iv[2], d);
              Value zero = idx(nb, l, 0), one = idx(nb, l, 1),
                    two = idx(nb, l, 2);
              Value inRot = cmpI(nb, l, CmpI::slt, d, rot);
              Value dr = select(nb, l, inRot, d, zero);
              Value first, i, i1, i2;
              if (interleaved) {
                i = divI(nb, l, dr, two);
                first = cmpI(nb, l, CmpI::eq, remI(nb, l, dr, two), zero);
                i1 = arith::MulIOp::create(nb, l, i, two);
                i2 = addI(nb, l, i1, one);
              } else {
                first = cmpI(nb, l, CmpI::slt, dr, half);
                i = select(nb, l, first, dr, subI(nb, l, dr, half));
                i1 = i;
                i2 = addI(nb, l, i, half);
              }
              auto readX = [&](Value k) {
                SmallVector<Value> p(iv.begin(), iv.end());
                p.back() = addI(nb, l, base, k);
                return convertFloat(nb, l, tensor::ExtractOp::create(nb, l, x, p), acc);
              };
              Value x1 = readX(i1), x2 = readX(i2);
              SmallVector<Value> cp;
              if (hasPos) {
                Value p = tensor::ExtractOp::create(
                    nb, l, pos,
                    ValueRange{broadcastIndex(nb, l, pos, 0, bi),
                               broadcastIndex(nb, l, pos, 1, si)});
                cp = {toIndex(nb, l, p), i};
              } else {
                cp = {broadcastIndex(nb, l, cosC, 0, bi),
                      broadcastIndex(nb, l, cosC, 1, si), i};
              }
              Value c = convertFloat(nb, l, tensor::ExtractOp::create(nb, l, cosC, cp),
                             acc);
              Value s = convertFloat(nb, l, tensor::ExtractOp::create(nb, l, sinC, cp),
                             acc);
              Value re = subF(nb, l, mulF(nb, l, c, x1), mulF(nb, l, s, x2));
              Value im = addF(nb, l, mulF(nb, l, s, x1), mulF(nb, l, c, x2));
              Value r = convertFloat(nb, l, select(nb, l, first, re, im), elt);
              linalg::YieldOp::create(nb, l,
                                      ValueRange{select(nb, l, inRot, r, a[0])});
            })
            .getResult(0);
    rewriter.replaceOp(op, castTo(b, loc, y, type));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateTransformerPatterns(TypeConverter &tc,
                                              RewritePatternSet &patterns) {
  patterns.add<RMSNormLowering, RotaryEmbeddingLowering>(tc,
                                                        patterns.getContext());
  populateAttentionPatterns(tc, patterns);
}

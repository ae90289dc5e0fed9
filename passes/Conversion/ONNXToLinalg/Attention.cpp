//===- Attention.cpp - onnx.Attention -> linalg ---------------------------===//
//
// Attention-23/24/25 (scaled dot-product attention) as generics:
//
//   1. Q, K, V as (batch, heads, seq, head_size): 3-D inputs (batch, seq,
//      heads * head_size) are expanded and transposed; past_key/past_value
//      are concatenated in front of K and V along the sequence (the
//      present_key/present_value outputs).
//   2. scores[b, h, i, j] = scale * sum_d Q[b, h, i, d] K[b, h / r, j, d],
//      r = q heads / kv heads: a plain contraction over a (B, Hkv, r, Sq, D)
//      view of Q (GQA/MQA: the r query heads of a KV head are a batch K
//      does not move in), which onnxc-linalg-to-ukernel makes a GEMM call
//      for f32; accumulated in f32 (f16/bf16) or the element type. (The
//      reference scales Q and K by sqrt(scale) each: the same up to
//      rounding.)
//   3. the bias[b, h, i, j]: the mask (boolean: 0 / -inf; float: added),
//      broadcast numpy-style, its last dim padded with -inf up to the keys;
//      is_causal (j <= i + offset), the sliding window (offset + i - j in
//      [-right, left]) and nonpad_kv_seqlen (j < nonpad[b]) as -inf where
//      they exclude a key. offset: past length, or nonpad[b] - q length.
//   4. z = softcap(scores) + bias; a softmax over j whose fully masked rows
//      (the bias all -inf) are zero, optionally rounded to
//      softmax_precision's type; Y = sum_j p[b, h, i, j] V[b, h / r, j, e],
//      the same contraction form, written straight into (batch, seq, heads,
//      v_head_size) for 3-D.
//
// qk_matmul_output: mode 0 the scores, 1 after softcap, 2 z, 3 p.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

using CmpI = arith::CmpIPredicate;
using CmpF = arith::CmpFPredicate;
constexpr double kInf = std::numeric_limits<double>::infinity();

AffineMap mapOf(MLIRContext *ctx, unsigned n, ArrayRef<AffineExpr> e) {
  return AffineMap::get(n, 0, e, ctx);
}

/// A (B, S, H * D) tensor as (B, H, S, D): expanded, then transposed.
Value toHeads(OpBuilder &b, Location l, Value t, int64_t heads) {
  auto tt = cast<RankedTensorType>(t.getType());
  Value bs = getDimValue(b, l, t, 0), s = getDimValue(b, l, t, 1),
        hidden = getDimValue(b, l, t, 2), h = idx(b, l, heads);
  emitRuntimeCheck(
      b, l,
      cmpI(b, l, CmpI::eq, b.createOrFold<arith::RemSIOp>(l, hidden, h),
           idx(b, l, 0)),
      "a hidden size ({}) is not a multiple of its number of heads ({})",
      ValueRange{hidden, h});
  Value d = b.createOrFold<arith::DivSIOp>(l, hidden, h);
  SmallVector<Value> expanded = {bs, s, h, d};
  auto et = RankedTensorType::get(
      {tt.getDimSize(0), tt.getDimSize(1), heads,
       tt.isDynamicDim(2) ? ShapedType::kDynamic : tt.getDimSize(2) / heads},
      tt.getElementType());
  Value e = tensor::ExpandShapeOp::create(
      b, l, et, t, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}},
      getAsOpFoldResult(expanded));
  Value init = emptyTensor(b, l, {bs, h, s, d}, tt.getElementType());
  return linalg::TransposeOp::create(b, l, e, init,
                                     ArrayRef<int64_t>{0, 2, 1, 3})
      .getResult()[0];
}

/// past ++ cur along dim 2 (both (B, H, S, D)).
Value concatSeq(OpBuilder &b, Location l, Value past, Value cur) {
  SmallVector<Value> ps = dimValues(b, l, past), cs = dimValues(b, l, cur);
  SmallVector<Value> sizes = cs;
  sizes[2] = b.createOrFold<arith::AddIOp>(l, ps[2], cs[2]);
  Value out = emptyTensor(b, l, sizes,
                      cast<RankedTensorType>(cur.getType()).getElementType());
  auto ofr = [](ArrayRef<Value> v) { return getAsOpFoldResult(v); };
  Value zero = idx(b, l, 0), one = idx(b, l, 1);
  SmallVector<Value> strides(4, one);
  out = tensor::InsertSliceOp::create(b, l, past, out,
                                      ofr({zero, zero, zero, zero}), ofr(ps),
                                      ofr(strides));
  return tensor::InsertSliceOp::create(b, l, cur, out,
                                       ofr({zero, zero, ps[2], zero}), ofr(cs),
                                       ofr(strides));
}

/// `v` rounded to `round` (a narrower float type) and back.
Value roundTo(OpBuilder &b, Location l, Value v, Type round) {
  if (!round)
    return v;
  return convertFloat(b, l, convertFloat(b, l, v, round), v.getType());
}

bool isPresent(Value v) { return !isa<NoneType>(v.getType()); }

/// What the attributes and the operand types decide, checked (checkConfig)
/// before any IR is built.
struct AttentionConfig {
  int64_t rank = 0;
  bool hasMask = false, hasPast = false, hasNonpad = false;
  int64_t mode = 0;
  /// The element type, the accumulation type, the softmax's type and the
  /// narrower type it rounds to (null: none).
  Type elt, acc, smType, smRound;
  Type maskElt;
};

FailureOr<AttentionConfig> checkConfig(ONNX::AttentionOp op,
                                       ONNX::AttentionOp::Adaptor adaptor,
                                       OpBuilder &b) {
  AttentionConfig c;
  Value q = adaptor.getQ(), k = adaptor.getK(), v = adaptor.getV();
  c.rank = cast<RankedTensorType>(q.getType()).getRank();
  if ((c.rank != 3 && c.rank != 4) ||
      cast<RankedTensorType>(k.getType()).getRank() != c.rank ||
      cast<RankedTensorType>(v.getType()).getRank() != c.rank)
    return op.emitOpError("Q, K and V must all have rank 3 or all rank 4");
  c.hasMask = isPresent(op.getAttnMask());
  c.hasPast = isPresent(op.getPastKey());
  c.hasNonpad = isPresent(op.getNonpadKvSeqlen());
  if (c.hasPast != isPresent(op.getPastValue()))
    return op.emitOpError("past_key and past_value must be given together");
  if (c.hasPast && c.hasNonpad)
    return op.emitOpError(
        "nonpad_kv_seqlen cannot be combined with past_key/past_value");
  c.mode = op.getQkMatmulOutputMode();
  if (c.mode < 0 || c.mode > 3)
    return op.emitOpError("qk_matmul_output_mode must be 0 to 3");
  c.elt = cast<RankedTensorType>(q.getType()).getElementType();
  c.acc = floatAccType(c.elt);
  // Softmax: computed in f64 for precision 11 (or f64 inputs), else f32;
  // f16/bf16 precisions round its input and output to that type.
  c.smType = c.acc;
  if (auto p = op.getSoftmaxPrecision()) {
    int64_t prec = (int64_t)*p;
    if (prec == 11)
      c.smType = b.getF64Type();
    else if (prec == 10)
      c.smRound = b.getF16Type();
    else if (prec == 16)
      c.smRound = b.getBF16Type();
    else if (prec != 1)
      return op.emitOpError("softmax_precision must be 1, 10, 11 or 16");
  }
  if (c.hasMask) {
    auto mt = cast<RankedTensorType>(adaptor.getAttnMask().getType());
    c.maskElt = mt.getElementType();
    if (mt.getRank() > 4)
      return op.emitOpError("attn_mask has rank ")
             << mt.getRank() << ", at most 4 allowed";
    if (!c.maskElt.isInteger(1) && !isa<FloatType>(c.maskElt))
      return op.emitOpError("attn_mask must be bool or a float type, got ")
             << c.maskElt;
  }
  if (c.rank == 3) {
    auto qh = op.getQNumHeads(), kvh = op.getKvNumHeads();
    if (!qh || !kvh)
      return op.emitOpError(
          "3-D Q, K and V need the q_num_heads and kv_num_heads attributes");
    if ((int64_t)*qh <= 0 || (int64_t)*kvh <= 0)
      return op.emitOpError("q_num_heads and kv_num_heads must be positive");
  }
  return c;
}

using IT = utils::IteratorType;

/// The steps of one Attention, in the order of the file's header, sharing
/// the values each step computes.
class AttentionBuilder {
public:
  AttentionBuilder(ONNX::AttentionOp op, ONNX::AttentionOp::Adaptor adaptor,
                   const TypeConverter *tc, const AttentionConfig &c,
                   OpBuilder &b)
      : op(op), adaptor(adaptor), tc(tc), c(c), b(b), loc(op.getLoc()),
        ctx(op.getContext()) {}

  /// 1. Q, K, V as (B, H, S, D), checked against each other; the KV cache
  /// in front of K and V; K and V repeated to the query heads when the
  /// head counts are known only at run time.
  LogicalResult buildInputs();
  /// 2. The scores, (B, Hq, Sq, T), before the scale.
  Value buildScores();
  /// 3. The bias (B, Hq, Sq, T), or null when nothing masks.
  Value buildBias();
  /// 4. z = softcap(scale * scores) + bias (with the qk output of modes
  /// 0-2 as zOp's second result) and the softmax over the keys.
  Value buildProbs(Value scores, Value bias);
  /// 5. Y = P V in the output's form.
  Value buildOutput(Value probs);
  /// Y, present_key, present_value and the qk output.
  SmallVector<Value> results(Value y, Value probs);

private:
  /// (B, Hq, X, Y) -> (B, Hq / r, r, X, Y).
  Value byGroup(Value t);
  /// A mul-add contraction over loop 5 of six (the products in acc).
  Value contract(Value lhs, Value rhs, Value init, AffineMap lhsMap,
                 AffineMap rhsMap, AffineMap outMap);
  AffineMap map(ArrayRef<unsigned> dims, unsigned n = 6) {
    SmallVector<AffineExpr> e;
    for (unsigned d : dims)
      e.push_back(getAffineDimExpr(d, ctx));
    return mapOf(ctx, n, e);
  }
  SmallVector<Value> full() { return {batch, hq, sq, total}; }
  SmallVector<Value> rowSizes() { return {batch, hq, sq}; }

  ONNX::AttentionOp op;
  ONNX::AttentionOp::Adaptor adaptor;
  const TypeConverter *tc;
  const AttentionConfig &c;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;

  Value q, k, v, kRead, vRead, mask, nonpad;
  Value batch, hq, sq, d, hkv, dv, total, past;
  int64_t reps = 1;
  bool dynamicReps = false;
  /// The query heads per KV head in the contractions' views (1 when they
  /// are known only at run time: K and V are repeated), and Hq / r.
  int64_t r = 1;
  Value groups, scaleVal;
  /// The z generic (its second result: the qk output of modes 0-2).
  linalg::GenericOp zOp;
};

LogicalResult AttentionBuilder::buildInputs() {
  q = adaptor.getQ(), k = adaptor.getK(), v = adaptor.getV();
  mask = c.hasMask ? adaptor.getAttnMask() : Value();
  if (c.rank == 3) {
    q = toHeads(b, loc, q, (int64_t)*op.getQNumHeads());
    k = toHeads(b, loc, k, (int64_t)*op.getKvNumHeads());
    v = toHeads(b, loc, v, (int64_t)*op.getKvNumHeads());
  }
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(k.getType());
  SmallVector<Value> qs = dimValues(b, loc, q), ks = dimValues(b, loc, k),
                     vs = dimValues(b, loc, v);
  batch = qs[0], hq = qs[1], sq = qs[2], d = qs[3];
  hkv = ks[1], dv = vs[3];
  checkEqual(b, loc, ks[0], batch, "K's batch differs from Q's");
  checkEqual(b, loc, vs[0], batch, "V's batch differs from Q's");
  checkEqual(b, loc, ks[3], d, "K's head size differs from Q's");
  checkEqual(b, loc, vs[1], hkv, "V's number of heads differs from K's");
  checkEqual(b, loc, vs[2], ks[2], "V's sequence length differs from K's");
  // Query heads per KV head.
  if (!qt.isDynamicDim(1) && !kt.isDynamicDim(1)) {
    if (qt.getDimSize(1) % kt.getDimSize(1) != 0)
      return op.emitOpError("the number of query heads (")
             << qt.getDimSize(1)
             << ") is not a multiple of the number of KV heads ("
             << kt.getDimSize(1) << ")";
    reps = qt.getDimSize(1) / kt.getDimSize(1);
  }
  dynamicReps = qt.isDynamicDim(1) || kt.isDynamicDim(1);
  // The KV cache.
  if (c.hasPast) {
    Value pk = adaptor.getPastKey(), pv = adaptor.getPastValue();
    if (cast<RankedTensorType>(pk.getType()).getRank() != 4 ||
        cast<RankedTensorType>(pv.getType()).getRank() != 4)
      return op.emitOpError("past_key and past_value must have rank 4");
    SmallVector<Value> pks = dimValues(b, loc, pk), pvs = dimValues(b, loc, pv);
    checkEqual(b, loc, pks[0], batch, "past_key's batch differs from Q's");
    checkEqual(b, loc, pks[1], hkv, "past_key's heads differ from K's");
    checkEqual(b, loc, pks[3], d, "past_key's head size differs from K's");
    checkEqual(b, loc, pvs[0], batch, "past_value's batch differs from Q's");
    checkEqual(b, loc, pvs[1], hkv, "past_value's heads differ from V's");
    checkEqual(b, loc, pvs[2], pks[2],
               "past_value's length differs from past_key's");
    checkEqual(b, loc, pvs[3], dv, "past_value's head size differs from V's");
    past = pks[2];
    k = concatSeq(b, loc, pk, k);
    v = concatSeq(b, loc, pv, v);
  }
  total = getDimValue(b, loc, k, 2);
  // Head counts known only at run time: K and V repeated to the query
  // heads (KV head h / (Hq / Hkv)) before the products.
  kRead = k, vRead = v;
  if (dynamicReps) {
    emitRuntimeCheck(
        b, loc,
        cmpI(b, loc, CmpI::eq, b.createOrFold<arith::RemSIOp>(loc, hq, hkv),
             idx(b, loc, 0)),
        "the number of query heads ({}) is not a multiple of the number of "
        "KV heads ({})",
        ValueRange{hq, hkv});
    Value rep = b.createOrFold<arith::DivSIOp>(loc, hq, hkv);
    auto repeat = [&](Value t) {
      SmallVector<Value> sizes = dimValues(b, loc, t);
      sizes[1] = hq;
      Value init = emptyTensor(
          b, loc, sizes, cast<RankedTensorType>(t.getType()).getElementType());
      return gatherGeneric(b, loc, init, t, [&](OpBuilder &nb, Location l) {
        SmallVector<Value> iv;
        for (int64_t i = 0; i < 4; ++i)
          iv.push_back(linalg::IndexOp::create(nb, l, i));
        iv[1] = arith::DivSIOp::create(nb, l, iv[1], rep);
        return iv;
      });
    };
    kRead = repeat(k);
    vRead = repeat(v);
  }
  nonpad = c.hasNonpad ? adaptor.getNonpadKvSeqlen() : Value();
  if (c.hasNonpad) {
    if (cast<RankedTensorType>(nonpad.getType()).getRank() != 1)
      return op.emitOpError("nonpad_kv_seqlen must be 1-D");
    checkEqual(b, loc, getDimValue(b, loc, nonpad, 0), batch,
               "nonpad_kv_seqlen has one entry per batch entry");
  }
  return success();
}

Value AttentionBuilder::byGroup(Value t) {
  SmallVector<Value> sizes = dimValues(b, loc, t);
  SmallVector<Value> out = {sizes[0], groups, idx(b, loc, r), sizes[2],
                            sizes[3]};
  SmallVector<int64_t> shape;
  for (Value o : out)
    shape.push_back(getConstantIntValue(o).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(t.getType()).getElementType());
  return tensor::ExpandShapeOp::create(
             b, loc, type, t,
             SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}},
             getAsOpFoldResult(out))
      .getResult();
}

Value AttentionBuilder::contract(Value lhs, Value rhs, Value init,
                                 AffineMap lhsMap, AffineMap rhsMap,
                                 AffineMap outMap) {
  Type acc = c.acc;
  auto mulAdd = [&](OpBuilder &nb, Location l, ValueRange a) {
    Value pr = mulF(nb, l, convertFloat(nb, l, a[0], acc),
                    convertFloat(nb, l, a[1], acc));
    linalg::YieldOp::create(nb, l, ValueRange{addF(nb, l, a[2], pr)});
  };
  SmallVector<IT> mmIters = {IT::parallel, IT::parallel, IT::parallel,
                             IT::parallel, IT::parallel, IT::reduction};
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
             ValueRange{init},
             SmallVector<AffineMap>{lhsMap, rhsMap, outMap}, mmIters, mulAdd)
      .getResult(0);
}

// 2. The scores: Q K^T as a plain contraction (a mul-add body over
// projected maps, which onnxc-linalg-to-ukernel turns into a call of the
// runtime's GEMM for f32), GQA/MQA through a view of Q as (B, Hkv, r,
// Sq, D): the r query heads of a KV head are a batch the KV head does
// not move in. The scale multiplies the product (in step 4).
Value AttentionBuilder::buildScores() {
  Type acc = c.acc;
  if (auto s = op.getScale()) {
    scaleVal = fConst(b, loc, acc, s->convertToDouble());
  } else {
    Value df = indexToF(b, loc, d, acc);
    scaleVal = divF(b, loc, fConst(b, loc, acc, 1),
                    math::SqrtOp::create(b, loc, df));
  }
  r = dynamicReps ? 1 : reps;
  groups = b.createOrFold<arith::DivSIOp>(loc, hq, idx(b, loc, r));
  Value scores =
      filledTensor(b, loc, {batch, groups, idx(b, loc, r), sq, total}, acc, 0);
  scores = contract(byGroup(q), kRead, scores, map({0, 1, 2, 3, 5}),
                    map({0, 1, 4, 5}), map({0, 1, 2, 3, 4}));
  return tensor::CollapseShapeOp::create(
      b, loc, scores, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

Value AttentionBuilder::buildBias() {
  bool causal = op.getIsCausal() != 0;
  int64_t left = (int64_t)op.getLeftWindowSize();
  int64_t right = (int64_t)op.getRightWindowSize();
  bool frontier = causal || left >= 0 || right >= 0 || c.hasNonpad;
  if (!c.hasMask && !frontier)
    return Value();
  SmallVector<Value> sizes = full();
  Value maskLen;
  int64_t mrank = 0;
  if (c.hasMask) {
    mrank = cast<RankedTensorType>(mask.getType()).getRank();
    for (int64_t j = 0; j + 1 < mrank; ++j)
      checkBroadcastDim(b, loc, mask, j, sizes[4 - mrank + j],
                        "attn_mask's dim {} does not broadcast to {}");
    if (mrank > 0) {
      maskLen = getDimValue(b, loc, mask, mrank - 1);
      emitRuntimeCheck(
          b, loc, cmpI(b, loc, CmpI::sle, maskLen, total),
          "attn_mask's last dim ({}) is longer than the keys ({})",
          ValueRange{maskLen, total});
    }
  }
  Type acc = c.acc;
  Value init = emptyTensor(b, loc, sizes, acc);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(4)},
             parallelIterators(4),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> iv;
               for (int64_t i = 0; i < 4; ++i)
                 iv.push_back(linalg::IndexOp::create(nb, l, i));
               Value zero = fConst(nb, l, acc, 0);
               Value ninf = fConst(nb, l, acc, -kInf);
               Value bv = zero;
               if (c.hasMask) {
                 SmallVector<Value> mi;
                 Value inRange;
                 for (int64_t j = 0; j < mrank; ++j) {
                   Value cv = iv[4 - mrank + j];
                   if (j + 1 < mrank) {
                     mi.push_back(broadcastIndex(nb, l, mask, j, cv));
                     continue;
                   }
                   // The last dim: shorter masks are padded with -inf.
                   inRange = cmpI(nb, l, CmpI::slt, cv, maskLen);
                   mi.push_back(select(nb, l, inRange, cv, idx(nb, l, 0)));
                 }
                 Value m = tensor::ExtractOp::create(nb, l, mask, mi);
                 Value mv = c.maskElt.isInteger(1)
                                ? select(nb, l, m, zero, ninf)
                                : convertFloat(nb, l, m, acc);
                 if (inRange)
                   mv = select(nb, l, inRange, mv, ninf);
                 bv = mv;
               }
               if (frontier) {
                 Value i = iv[2], j = iv[3];
                 Value np;
                 if (c.hasNonpad)
                   np = toIndex(nb, l,
                                tensor::ExtractOp::create(nb, l, nonpad, iv[0]));
                 // The count of valid keys before the query block.
                 Value offset =
                     c.hasPast     ? past
                     : c.hasNonpad ? arith::SubIOp::create(nb, l, np, sq)
                                         .getResult()
                                   : idx(nb, l, 0);
                 Value diff = arith::SubIOp::create(
                     nb, l, arith::AddIOp::create(nb, l, i, offset), j);
                 Value ok =
                     arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
                 if (causal)
                   ok = andI(nb, l, ok,
                             cmpI(nb, l, CmpI::sge, diff, idx(nb, l, 0)));
                 if (left >= 0)
                   ok = andI(nb, l, ok,
                             cmpI(nb, l, CmpI::sle, diff, idx(nb, l, left)));
                 if (right >= 0)
                   ok = andI(nb, l, ok,
                             cmpI(nb, l, CmpI::sge, diff, idx(nb, l, -right)));
                 if (c.hasNonpad)
                   ok = andI(nb, l, ok, cmpI(nb, l, CmpI::slt, j, np));
                 bv = select(nb, l, ok, bv, ninf);
               }
               linalg::YieldOp::create(nb, l, ValueRange{bv});
             })
      .getResult(0);
}

Value AttentionBuilder::buildProbs(Value scores, Value bias) {
  Type acc = c.acc, smType = c.smType, smRound = c.smRound;
  int64_t mode = c.mode;
  bool hasBias = bool(bias);
  // z = softcap(scores) + bias, and the qk output of modes 0-2.
  double softcap = op.getSoftcap().convertToDouble();
  bool wantQk = isPresent(op.getQkMatmulOutput());
  AffineMap id4 = b.getMultiDimIdentityMap(4);
  SmallVector<Value> zIns = {scores};
  if (hasBias)
    zIns.push_back(bias);
  SmallVector<Value> zOuts = {emptyTensor(b, loc, full(), smType)};
  bool qkHere = wantQk && mode != 3;
  Type qkType = c.elt;
  if (wantQk)
    qkType = convertedTensorType(tc, op.getQkMatmulOutput()).getElementType();
  if (qkHere)
    zOuts.push_back(emptyTensor(b, loc, full(), qkType));
  SmallVector<AffineMap> zMaps(zIns.size() + zOuts.size(), id4);
  SmallVector<Type> zTypes;
  for (Value o : zOuts)
    zTypes.push_back(o.getType());
  zOp = linalg::GenericOp::create(
      b, loc, zTypes, zIns, zOuts, zMaps, parallelIterators(4),
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value s = mulF(nb, l, a[0], scaleVal);
        Value capped = s;
        if (softcap > 0) {
          Value cap = fConst(nb, l, acc, softcap);
          capped = mulF(nb, l, cap,
                        math::TanhOp::create(nb, l, divF(nb, l, s, cap)));
        }
        Value z = hasBias ? addF(nb, l, capped, a[1]) : capped;
        SmallVector<Value> ys = {
            convertFloat(nb, l, roundTo(nb, l, z, smRound), smType)};
        if (qkHere) {
          Value o = mode == 0 ? s : mode == 1 ? capped : z;
          ys.push_back(convertFloat(nb, l, o, qkType));
        }
        linalg::YieldOp::create(nb, l, ys);
      });
  Value z = zOp.getResult(0);
  // Row max of z and of the bias (a fully masked row has a -inf bias max).
  // A bias from is_causal alone masks no row fully (key 0 is always
  // visible: the offset, the past length, is >= 0), so its max is not
  // needed; the row max is then a one-output reduction, which LLVM
  // vectorizes (the PyTorch exporter's decoders: docs/performance.md).
  bool emptyRows = hasBias && (c.hasMask || c.hasNonpad ||
                               (int64_t)op.getLeftWindowSize() >= 0 ||
                               (int64_t)op.getRightWindowSize() >= 0);
  AffineMap rowMap = map({0, 1, 2}, 4);
  SmallVector<IT> redIters = {IT::parallel, IT::parallel, IT::parallel,
                              IT::reduction};
  // One reduction per max: LLVM vectorizes a one-output max reduction, not
  // a two-output one (a scalar loop: 0.9 ms of a 1.06 ms prefill Attention,
  // docs/performance.md).
  auto rowMaxOf = [&](Value t, Type et) {
    Value init = filledTensor(b, loc, rowSizes(), et, -kInf);
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ValueRange{t},
               ValueRange{init}, SmallVector<AffineMap>{id4, rowMap}, redIters,
               [&](OpBuilder &nb, Location l, ValueRange a) {
                 linalg::YieldOp::create(
                     nb, l,
                     ValueRange{arith::MaximumFOp::create(nb, l, a[1], a[0])});
               })
        .getResult(0);
  };
  Value rowMax = rowMaxOf(z, smType);
  Value biasMax = emptyRows ? rowMaxOf(bias, acc) : Value();
  // exp(z - max), a -inf max taken as 0 (the row is all -inf).
  auto shifted = [&](OpBuilder &nb, Location l, Value zv, Value m) {
    Value ninf = fConst(nb, l, smType, -kInf);
    Value safe = select(nb, l, cmpF(nb, l, CmpF::OEQ, m, ninf),
                        fConst(nb, l, smType, 0), m);
    return math::ExpOp::create(nb, l, subF(nb, l, zv, safe)).getResult();
  };
  Value sum = filledTensor(b, loc, rowSizes(), smType, 0);
  sum = linalg::GenericOp::create(
            b, loc, TypeRange{sum.getType()}, ValueRange{z, rowMax},
            ValueRange{sum}, SmallVector<AffineMap>{id4, rowMap, rowMap},
            redIters,
            [&](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(
                  nb, l,
                  ValueRange{addF(nb, l, a[2], shifted(nb, l, a[0], a[1]))});
            })
            .getResult(0);
  SmallVector<Value> pIns = {z, rowMax, sum};
  SmallVector<AffineMap> pMaps = {id4, rowMap, rowMap};
  if (emptyRows) {
    pIns.push_back(biasMax);
    pMaps.push_back(rowMap);
  }
  pMaps.push_back(id4);
  Value probs = emptyTensor(b, loc, full(), acc);
  return linalg::GenericOp::create(
             b, loc, TypeRange{probs.getType()}, pIns, ValueRange{probs},
             pMaps, parallelIterators(4),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value zero = fConst(nb, l, smType, 0);
               Value s = a[2];
               Value empty = cmpF(nb, l, CmpF::OEQ, s, zero);
               s = select(nb, l, empty, fConst(nb, l, smType, 1), s);
               Value p = divF(nb, l, shifted(nb, l, a[0], a[1]), s);
               if (emptyRows) {
                 Value masked =
                     cmpF(nb, l, CmpF::OEQ, a[3], fConst(nb, l, acc, -kInf));
                 p = select(nb, l, masked, zero, p);
               }
               p = roundTo(nb, l, p, smRound);
               linalg::YieldOp::create(nb, l,
                                       ValueRange{convertFloat(nb, l, p, acc)});
             })
      .getResult(0);
}

// 5. Y = P V, the same contraction over (B, Hkv, r, Sq, T) P, written
// into (B, Hkv, r, Sq, Dv) or, for 3-D, (B, Sq, Hkv, r, Dv).
Value AttentionBuilder::buildOutput(Value probs) {
  bool rank4 = c.rank == 4;
  AffineMap yMap = rank4 ? map({0, 1, 2, 3, 4}) : map({0, 3, 1, 2, 4});
  SmallVector<Value> ySizes =
      rank4 ? SmallVector<Value>{batch, groups, idx(b, loc, r), sq, dv}
            : SmallVector<Value>{batch, sq, groups, idx(b, loc, r), dv};
  Value y = filledTensor(b, loc, ySizes, c.acc, 0);
  y = contract(byGroup(probs), vRead, y, map({0, 1, 2, 3, 5}),
               map({0, 1, 5, 4}), yMap);
  return tensor::CollapseShapeOp::create(
      b, loc, y,
      rank4 ? SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}}
            : SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
}

SmallVector<Value> AttentionBuilder::results(Value y, Value probs) {
  auto yType = convertedTensorType(tc, op.getY());
  if (c.acc != yType.getElementType())
    y = convertTensor(b, loc, y, yType.getElementType());
  SmallVector<Value> results = {castTo(b, loc, y, yType)};
  // The cache outputs and the qk output.
  for (auto [orig, val] : {std::pair{op.getPresentKey(), k},
                           std::pair{op.getPresentValue(), v}}) {
    if (!isPresent(orig)) {
      results.push_back(noValue(b, loc));
      continue;
    }
    results.push_back(castTo(b, loc, val, convertedTensorType(tc, orig)));
  }
  if (!isPresent(op.getQkMatmulOutput())) {
    results.push_back(noValue(b, loc));
  } else {
    auto t = convertedTensorType(tc, op.getQkMatmulOutput());
    Value qk = c.mode == 3 ? convertTensor(b, loc, probs, t.getElementType())
                           : zOp.getResult(1);
    results.push_back(castTo(b, loc, qk, t));
  }
  return results;
}

struct AttentionLowering : OpConversionPattern<ONNX::AttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<AttentionConfig> config = checkConfig(op, adaptor, rewriter);
    if (failed(config))
      return failure();
    AttentionBuilder ab(op, adaptor, getTypeConverter(), *config, rewriter);
    if (failed(ab.buildInputs()))
      return failure();
    Value scores = ab.buildScores();
    Value bias = ab.buildBias();
    Value probs = ab.buildProbs(scores, bias);
    Value y = ab.buildOutput(probs);
    rewriter.replaceOp(op, ab.results(y, probs));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateAttentionPatterns(TypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<AttentionLowering>(tc, patterns.getContext());
}

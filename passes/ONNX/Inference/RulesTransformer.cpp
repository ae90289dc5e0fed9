//===- RulesTransformer.cpp - onnxc's inference rules: opsets 22-25 ops ---===//
//
// The transformer ops of opsets 23-24 (Attention, RMSNormalization,
// RotaryEmbedding, TensorScatter, Swish), which libonnx 1.12 does not know.
// Each rule checks what the spec forbids and the shapes can show (a one-line
// error on the op) and gives the results their shapes, symbolic dims kept.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::onnxc;

static bool hasResult(Operation *op, unsigned index) {
  return index < op->getNumResults() &&
         !llvm::isa<NoneType>(op->getResult(index).getType());
}

static std::optional<int64_t> optIntAttr(Operation *op, StringRef name) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return std::nullopt;
}

/// a + b on dims: static when both are.
static SymDim addDims(SymDim a, SymDim b) {
  if (a.isStatic() && b.isStatic())
    return SymDim{a.size + b.size, ""};
  if (b.isStatic() && b.size == 0)
    return a;
  if (a.isStatic() && a.size == 0)
    return b;
  return SymDim{};
}

/// a / n on a dim (n > 0, a multiple of it when static).
static SymDim divDim(SymDim a, int64_t n) {
  if (a.isStatic())
    return SymDim{a.size / n, ""};
  return n == 1 ? a : SymDim{};
}

/// Attention-23/24/25: Q, K, V of rank 4 (batch, heads, seq, head_size) or
/// rank 3 (batch, seq, heads * head_size, with q_num_heads/kv_num_heads).
/// Y: (B, Hq, Sq, Dv) or (B, Sq, Hq * Dv); present_key/value: (B, Hkv,
/// past + Skv, D / Dv); qk_matmul_output: (B, Hq, Sq, past + Skv).
static LogicalResult inferAttention(Operation *op, const ONNX::OpInfo &,
                                    InferenceState &) {
  RankedTensorType q = getRankedOperand(op, 0), k = getRankedOperand(op, 1),
                   v = getRankedOperand(op, 2);
  bool hasPastK = !isAbsent(op, 4), hasPastV = !isAbsent(op, 5);
  if (hasPastK != hasPastV)
    return op->emitOpError()
           << "past_key and past_value must be given together";
  if (hasPastK && !isAbsent(op, 6))
    return op->emitOpError() << "nonpad_kv_seqlen cannot be combined with "
                                "past_key/past_value";
  int64_t mode = getIntAttr(op, "qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3)
    return op->emitOpError()
           << "qk_matmul_output_mode is " << mode << ", expected 0 to 3";
  if (auto p = optIntAttr(op, "softmax_precision"))
    if (*p != 1 && *p != 10 && *p != 11 && *p != 16)
      return op->emitOpError()
             << "softmax_precision is " << *p
             << ", expected 1 (float), 10 (float16), 11 (double) or 16 "
                "(bfloat16)";
  for (StringRef w : {"left_window_size", "right_window_size"})
    if (getIntAttr(op, w, -1) < -1)
      return op->emitOpError() << w << " is " << getIntAttr(op, w, -1)
                               << ", expected -1 or a nonnegative size";
  auto qHeads = optIntAttr(op, "q_num_heads");
  auto kvHeads = optIntAttr(op, "kv_num_heads");
  if ((qHeads && *qHeads <= 0) || (kvHeads && *kvHeads <= 0))
    return op->emitOpError() << "q_num_heads and kv_num_heads must be positive";
  if (!q || !k || !v)
    return success();
  int64_t rank = q.getRank();
  if ((rank != 3 && rank != 4) || k.getRank() != rank || v.getRank() != rank)
    return op->emitOpError() << "Q, K and V must all have rank 3 or all rank "
                                "4, they have ranks "
                             << q.getRank() << ", " << k.getRank() << " and "
                             << v.getRank();
  if (RankedTensorType m = getRankedOperand(op, 3))
    if (m.getRank() > 4)
      return op->emitOpError()
             << "attn_mask has rank " << m.getRank() << ", at most 4 allowed";
  SymDim batch = SymDim::of(q, 0), sq, skv, d, dv;
  SymDim hq, hkv;
  if (rank == 3) {
    if (!qHeads || !kvHeads)
      return op->emitOpError()
             << "3-D Q, K and V need the q_num_heads and kv_num_heads "
                "attributes";
    hq = SymDim{*qHeads, ""}, hkv = SymDim{*kvHeads, ""};
    sq = SymDim::of(q, 1), skv = SymDim::of(k, 1);
    for (auto [t, h, name] : {std::tuple{q, *qHeads, "Q"},
                              std::tuple{k, *kvHeads, "K"},
                              std::tuple{v, *kvHeads, "V"}})
      if (!t.isDynamicDim(2) && t.getDimSize(2) % h != 0)
        return op->emitOpError()
               << "the hidden size of " << name << " (" << t.getDimSize(2)
               << ") is not a multiple of its number of heads (" << h << ")";
    d = divDim(SymDim::of(q, 2), *qHeads);
    dv = divDim(SymDim::of(v, 2), *kvHeads);
  } else {
    hq = SymDim::of(q, 1), hkv = SymDim::of(k, 1);
    if (qHeads && hq.isStatic() && *qHeads != hq.size)
      return op->emitOpError() << "q_num_heads is " << *qHeads
                               << " but Q has " << hq.size << " heads";
    if (kvHeads && hkv.isStatic() && *kvHeads != hkv.size)
      return op->emitOpError() << "kv_num_heads is " << *kvHeads
                               << " but K has " << hkv.size << " heads";
    sq = SymDim::of(q, 2), skv = SymDim::of(k, 2);
    d = SymDim::of(q, 3), dv = SymDim::of(v, 3);
    if (!k.isDynamicDim(3) && d.isStatic() && k.getDimSize(3) != d.size)
      return op->emitOpError() << "the head size of K (" << k.getDimSize(3)
                               << ") differs from Q's (" << d.size << ")";
    if (!v.isDynamicDim(1) && hkv.isStatic() && v.getDimSize(1) != hkv.size)
      return op->emitOpError() << "V has " << v.getDimSize(1)
                               << " heads, K has " << hkv.size;
  }
  if (hq.isStatic() && hkv.isStatic() && hq.size % hkv.size != 0)
    return op->emitOpError()
           << "q_num_heads (" << hq.size
           << ") is not a multiple of kv_num_heads (" << hkv.size << ")";
  if (rank == 3 && !q.isDynamicDim(2) && !k.isDynamicDim(2) &&
      q.getDimSize(2) / hq.size != k.getDimSize(2) / hkv.size)
    return op->emitOpError()
           << "the head size of K (" << k.getDimSize(2) / hkv.size
           << ") differs from Q's (" << q.getDimSize(2) / hq.size << ")";
  SymDim past{0, ""};
  if (hasPastK) {
    RankedTensorType pk = getRankedOperand(op, 4), pv = getRankedOperand(op, 5);
    if ((pk && pk.getRank() != 4) || (pv && pv.getRank() != 4))
      return op->emitOpError() << "past_key and past_value must have rank 4";
    past = pk ? SymDim::of(pk, 2) : SymDim{};
  }
  SymDim total = addDims(past, skv);
  Type elt = q.getElementType();
  SmallVector<SymDim> y;
  if (rank == 4)
    y = {batch, hq, sq, dv};
  else
    y = {batch, sq,
         dv.isStatic() ? SymDim{hq.size * dv.size, ""} : SymDim{}};
  if (failed(refineResult(op, 0, getSymTensorType(y, elt))))
    return failure();
  if (hasResult(op, 1) &&
      failed(refineResult(op, 1,
                          getSymTensorType({batch, hkv, total, d}, elt))))
    return failure();
  if (hasResult(op, 2) &&
      failed(refineResult(
          op, 2, getSymTensorType({batch, hkv, total, dv}, v.getElementType()))))
    return failure();
  if (hasResult(op, 3) &&
      failed(refineResult(op, 3,
                          getSymTensorType({batch, hq, sq, total}, elt))))
    return failure();
  return success();
}

/// RMSNormalization-23: Y has X's shape and scale's element type; scale
/// broadcasts (unidirectionally) to X.
static LogicalResult inferRMSNormalization(Operation *op, const ONNX::OpInfo &,
                                           InferenceState &) {
  RankedTensorType x = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(1));
  if (getIntAttr(op, "stash_type", 1) != 1)
    return op->emitOpError() << "stash_type is "
                             << getIntAttr(op, "stash_type", 1)
                             << ", only 1 (float) is supported";
  if (!x || !elt)
    return success();
  int64_t rank = x.getRank(), axis = getIntAttr(op, "axis", -1);
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis " << axis
                             << " is out of range for an input of rank "
                             << rank;
  if (RankedTensorType s = getRankedOperand(op, 1)) {
    if (s.getRank() > rank)
      return op->emitOpError() << "scale has rank " << s.getRank()
                               << ", more than the input's " << rank;
    for (int64_t i = 0; i < s.getRank(); ++i) {
      int64_t xd = x.getDimSize(rank - s.getRank() + i), sd = s.getDimSize(i);
      if (!ShapedType::isDynamic(xd) && !ShapedType::isDynamic(sd) &&
          sd != 1 && sd != xd)
        return op->emitOpError()
               << "dim " << i << " of scale (" << sd
               << ") does not broadcast to the input's (" << xd << ")";
    }
  }
  return refineResult(op, 0, getSymTensorType(getSymDims(x), elt));
}

/// RotaryEmbedding-23: Y has X's type.
static LogicalResult inferRotaryEmbedding(Operation *op, const ONNX::OpInfo &,
                                          InferenceState &) {
  RankedTensorType x = getRankedOperand(op, 0);
  if (!x)
    return success();
  int64_t rank = x.getRank();
  if (rank != 3 && rank != 4)
    return op->emitOpError() << "input must have rank 3 or 4, it has " << rank;
  auto heads = optIntAttr(op, "num_heads");
  if (rank == 3 && !heads)
    return op->emitOpError() << "a 3-D input needs the num_heads attribute";
  if (heads && *heads <= 0)
    return op->emitOpError() << "num_heads is " << *heads
                             << ", expected a positive count";
  int64_t rot = getIntAttr(op, "rotary_embedding_dim", 0);
  if (rot < 0 || rot % 2 != 0)
    return op->emitOpError() << "rotary_embedding_dim is " << rot
                             << ", expected an even size (or 0: all)";
  int64_t head = ShapedType::kDynamic;
  if (rank == 4) {
    head = x.getDimSize(3);
  } else if (!x.isDynamicDim(2)) {
    if (x.getDimSize(2) % *heads != 0)
      return op->emitOpError()
             << "the hidden size (" << x.getDimSize(2)
             << ") is not a multiple of num_heads (" << *heads << ")";
    head = x.getDimSize(2) / *heads;
  }
  if (!ShapedType::isDynamic(head)) {
    if (rot == 0 && head % 2 != 0)
      return op->emitOpError() << "the head size (" << head << ") is odd";
    if (rot > head)
      return op->emitOpError()
             << "rotary_embedding_dim (" << rot
             << ") is larger than the head size (" << head << ")";
  }
  bool hasPos = !isAbsent(op, 3);
  for (unsigned i : {1u, 2u}) {
    RankedTensorType c = getRankedOperand(op, i);
    if (!c)
      continue;
    const char *name = i == 1 ? "cos_cache" : "sin_cache";
    int64_t want = hasPos ? 2 : 3;
    if (c.getRank() != want)
      return op->emitOpError()
             << name << " must have rank " << want
             << (hasPos ? " with position_ids" : " without position_ids")
             << ", it has " << c.getRank();
    int64_t half = rot ? rot / 2
                       : (ShapedType::isDynamic(head) ? ShapedType::kDynamic
                                                      : head / 2);
    int64_t last = c.getDimSize(want - 1);
    if (!ShapedType::isDynamic(half) && !ShapedType::isDynamic(last) &&
        last != half)
      return op->emitOpError() << "the last dim of " << name << " is " << last
                               << ", expected " << half
                               << " (half the rotated size)";
  }
  if (hasPos)
    if (RankedTensorType p = getRankedOperand(op, 3))
      if (p.getRank() != 2)
        return op->emitOpError()
               << "position_ids must have rank 2, it has " << p.getRank();
  return refineResult(op, 0, getSymTensorType(getSymDims(x), x.getElementType()));
}

/// TensorScatter-24: present_cache has past_cache's type.
static LogicalResult inferTensorScatter(Operation *op, const ONNX::OpInfo &,
                                        InferenceState &) {
  auto mode = op->getAttrOfType<StringAttr>("mode");
  if (mode && mode.getValue() != "linear" && mode.getValue() != "circular")
    return op->emitOpError() << "mode '" << mode.getValue()
                             << "' is not 'linear' or 'circular'";
  RankedTensorType past = getRankedOperand(op, 0),
                   upd = getRankedOperand(op, 1);
  if (!past)
    return success();
  int64_t rank = past.getRank(), axis = getIntAttr(op, "axis", -2);
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis " << axis
                             << " is out of range for a cache of rank " << rank;
  if (axis < 0)
    axis += rank;
  if (axis == 0)
    return op->emitOpError() << "axis is the batch dim 0";
  if (upd) {
    if (upd.getRank() != rank)
      return op->emitOpError() << "update has rank " << upd.getRank()
                               << ", the cache " << rank;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t c = past.getDimSize(i), u = upd.getDimSize(i);
      if (ShapedType::isDynamic(c) || ShapedType::isDynamic(u))
        continue;
      if (i == axis && u > c)
        return op->emitOpError() << "the update's sequence length (" << u
                                 << ") exceeds the cache's (" << c << ")";
      if (i != axis && u != c)
        return op->emitOpError() << "dim " << i << " of the update (" << u
                                 << ") differs from the cache's (" << c << ")";
    }
  }
  if (RankedTensorType w = getRankedOperand(op, 2))
    if (w.getRank() != 1)
      return op->emitOpError()
             << "write_indices must have rank 1, it has " << w.getRank();
  return refineResult(op, 0,
                      getSymTensorType(getSymDims(past), past.getElementType()));
}

void mlir::onnxc::registerTransformerRules(
    llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.Attention"] = inferAttention;
  rules["onnx.RMSNormalization"] = inferRMSNormalization;
  rules["onnx.RotaryEmbedding"] = inferRotaryEmbedding;
  rules["onnx.TensorScatter"] = inferTensorScatter;
  rules["onnx.Swish"] = inferSameAsInput;
}

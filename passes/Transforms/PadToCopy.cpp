//===- PadToCopy.cpp - The --onnxc-pad-to-copy pass -----------------------===//
//
// out[i] = all_k(0 <= i_k - low_k < span_k) ? src[i - low] : pad, written as
// a gather generic, becomes fill(pad) + copy(src -> out[low : low + span]).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "passes/Transforms/PadToCopy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_PADTOCOPY
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-pad-to-copy"

namespace {

/// One dim of the pad: out index i reads src[i - low] when 0 <= i - low <
/// span (a padded dim), or src[i] (an untouched dim: low and span unset).
struct PadDim {
  Value low, span, ok;
};

/// `v` is linalg.index `dim` of the generic.
bool isIndex(Value v, int64_t dim) {
  auto index = v.getDefiningOp<linalg::IndexOp>();
  return index && (int64_t)index.getDim() == dim;
}

/// Defined outside the generic `op` (so usable where the rewrite goes).
bool isOutside(Value v, Operation *op) {
  return !op->getRegion(0).isAncestor(v.getParentRegion());
}

/// ok = (j >= 0) & (j < span), either order of the conjunction.
bool matchRange(Value ok, Value j, Value &span, Operation *op) {
  auto andOp = ok.getDefiningOp<arith::AndIOp>();
  if (!andOp)
    return false;
  auto lo = andOp.getLhs().getDefiningOp<arith::CmpIOp>();
  auto hi = andOp.getRhs().getDefiningOp<arith::CmpIOp>();
  if (lo && lo.getPredicate() == arith::CmpIPredicate::slt)
    std::swap(lo, hi);
  if (!lo || !hi || lo.getPredicate() != arith::CmpIPredicate::sge ||
      hi.getPredicate() != arith::CmpIPredicate::slt || lo.getLhs() != j ||
      hi.getLhs() != j || !matchPattern(lo.getRhs(), m_Zero()) ||
      !isOutside(hi.getRhs(), op))
    return false;
  span = hi.getRhs();
  return true;
}

/// The leaves of a tree of arith.andi (constant true dropped).
void conjuncts(Value v, SmallVectorImpl<Value> &leaves) {
  if (auto andOp = v.getDefiningOp<arith::AndIOp>()) {
    // A range check (j >= 0) & (j < span) is itself one leaf.
    auto cmp = andOp.getLhs().getDefiningOp<arith::CmpIOp>();
    if (!cmp) {
      conjuncts(andOp.getLhs(), leaves);
      conjuncts(andOp.getRhs(), leaves);
      return;
    }
  }
  if (matchPattern(v, m_One()))
    return;
  leaves.push_back(v);
}

struct PadMatch {
  Value src, out, pad;
  SmallVector<PadDim> dims;
};

std::optional<PadMatch> matchPad(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 0 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray()[0].isIdentity())
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto sel = yield.getOperand(0).getDefiningOp<arith::SelectOp>();
  if (!sel)
    return std::nullopt;
  auto load = sel.getTrueValue().getDefiningOp<memref::LoadOp>();
  PadMatch m;
  m.out = op.getDpsInits()[0];
  m.pad = sel.getFalseValue();
  if (!load || !isOutside(load.getMemRef(), op) || !isOutside(m.pad, op))
    return std::nullopt;
  m.src = load.getMemRef();
  int64_t rank = load.getIndices().size();
  if (rank != op.getNumLoops() ||
      cast<MemRefType>(m.src.getType()).getRank() != rank)
    return std::nullopt;
  auto srcType = cast<MemRefType>(m.src.getType());
  auto outType = cast<MemRefType>(m.out.getType());
  SmallVector<Value> oks;
  for (auto [k, index] : llvm::enumerate(load.getIndices())) {
    PadDim d;
    // An untouched dim: index k itself or, for a dim of static size 1 in
    // both (the batch of 1, where canonicalization folds linalg.index to
    // 0), the constant 0.
    if (isIndex(index, k) ||
        (matchPattern(index, m_Zero()) && srcType.getDimSize(k) == 1 &&
         outType.getDimSize(k) == 1)) {
      m.dims.push_back(d);
      continue;
    }
    auto clamp = index.getDefiningOp<arith::SelectOp>();
    if (!clamp || !matchPattern(clamp.getFalseValue(), m_Zero()))
      return std::nullopt;
    Value j = clamp.getTrueValue();
    auto sub = j.getDefiningOp<arith::SubIOp>();
    if (!sub || !isIndex(sub.getLhs(), k) || !isOutside(sub.getRhs(), op) ||
        !matchRange(clamp.getCondition(), j, d.span, op))
      return std::nullopt;
    d.low = sub.getRhs();
    d.ok = clamp.getCondition();
    oks.push_back(d.ok);
    m.dims.push_back(d);
  }
  // The element is the source exactly when every padded dim is inside.
  SmallVector<Value> leaves;
  conjuncts(sel.getCondition(), leaves);
  if (leaves.size() != oks.size() ||
      !llvm::all_of(leaves, [&](Value v) { return llvm::is_contained(oks, v); }))
    return std::nullopt;
  // Nothing else in the body reads memory or has effects.
  for (Operation &nested : body.without_terminator())
    if (&nested != load.getOperation() && !isPure(&nested))
      return std::nullopt;
  return m;
}

void rewritePad(linalg::GenericOp op, const PadMatch &m) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  linalg::FillOp::create(b, loc, m.pad, m.out);
  SmallVector<OpFoldResult> srcOff, outOff, sizes, ones;
  Value zero = cst(0);
  for (auto [k, d] : llvm::enumerate(m.dims)) {
    Value outDim = b.createOrFold<memref::DimOp>(loc, m.out, k);
    Value srcDim = b.createOrFold<memref::DimOp>(loc, m.src, k);
    ones.push_back(b.getIndexAttr(1));
    if (!d.low) {
      srcOff.push_back(b.getIndexAttr(0));
      outOff.push_back(b.getIndexAttr(0));
      sizes.push_back(b.createOrFold<arith::MinSIOp>(loc, outDim, srcDim));
      continue;
    }
    // j in [max(0, -low), min(span, src, out - low)), i = j + low.
    Value start = b.createOrFold<arith::MaxSIOp>(
        loc, zero, b.createOrFold<arith::SubIOp>(loc, zero, d.low));
    Value end = b.createOrFold<arith::MinSIOp>(
        loc, b.createOrFold<arith::MinSIOp>(loc, d.span, srcDim),
        b.createOrFold<arith::SubIOp>(loc, outDim, d.low));
    Value len = b.createOrFold<arith::MaxSIOp>(
        loc, zero, b.createOrFold<arith::SubIOp>(loc, end, start));
    srcOff.push_back(start);
    outOff.push_back(b.createOrFold<arith::AddIOp>(loc, start, d.low));
    sizes.push_back(len);
  }
  // Constants as attributes: static subview types where sizes are static.
  for (auto *list : {&srcOff, &outOff, &sizes})
    for (OpFoldResult &ofr : *list)
      if (auto v = dyn_cast<Value>(ofr))
        ofr = getAsOpFoldResult(v);
  // Nothing of the source is kept (a crop of every element, or a begin pad
  // past the result): the fill is the result. The copy's offsets may then
  // be the dim or past it, which a static subview refuses (a valid Pad of
  // [1] by [2, -1] failed to compile, found by difffuzz).
  if (llvm::any_of(sizes, [](OpFoldResult s) { return isConstantIntValue(s, 0); })) {
    op.erase();
    return;
  }
  Value from = memref::SubViewOp::create(b, loc, m.src, srcOff, sizes, ones);
  Value to = memref::SubViewOp::create(b, loc, m.out, outOff, sizes, ones);
  linalg::CopyOp::create(b, loc, from, to);
  op.erase();
}

} // namespace

bool mlir::onnxc::ukernel::rewritePadAsCopy(linalg::GenericOp op) {
  std::optional<PadMatch> m = matchPad(op);
  if (!m)
    return false;
  rewritePad(op, *m);
  return true;
}

namespace {

struct PadToCopyPass : public onnxc::impl::PadToCopyBase<PadToCopyPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, PadMatch>> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (auto m = matchPad(op))
        found.push_back({op, *m});
    });
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << found.size()
                            << " padding gathers to fill + copy\n");
    for (auto &[op, m] : found)
      rewritePad(op, m);
  }
};

} // namespace

//===- CollapseDims.cpp - The --onnxc-collapse-dims pass ------------------===//
//
// Elementwise loops over small trailing dims (7x7 maps, per-channel scales
// broadcast over H x W) run a handful of iterations per innermost loop:
// LLVM leaves them scalar. Collapsing every run of loop dims that stays
// contiguous in all operands (linalg::areDimSequencesPreserved; a broadcast
// operand that reads none of them counts) makes one long innermost loop.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "onnxc-collapse-dims"

namespace mlir::onnxc {
#define GEN_PASS_DEF_COLLAPSEDIMS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// The maximal runs of consecutive loop dims of `op` that every indexing
/// map keeps contiguous (or does not read), those of two dims or more;
/// empty when `op` is not an all-parallel generic on identity-layout
/// buffers without linalg.index.
SmallVector<ReassociationIndices> collapsibleRuns(linalg::GenericOp op) {
  if (op.getNumLoops() < 2 ||
      llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
        return t != utils::IteratorType::parallel;
      }))
    return {};
  if (!op.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || !t.getLayout().isIdentity())
      return {};
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
    return {};
  SmallVector<ReassociationIndices> runs;
  unsigned n = op.getNumLoops();
  for (unsigned start = 0; start < n;) {
    unsigned end = start + 1;
    while (end < n) {
      ReassociationIndices seq;
      for (unsigned d = start; d <= end; ++d)
        seq.push_back(d);
      if (!linalg::areDimSequencesPreserved(maps, {seq}))
        break;
      ++end;
    }
    if (end - start >= 2) {
      ReassociationIndices seq;
      for (unsigned d = start; d < end; ++d)
        seq.push_back(d);
      runs.push_back(seq);
    }
    start = end;
  }
  return runs;
}

/// Broadcast operands read with constant-0 map results on unit dims
/// ((n, c, h, w) -> (n, c, 0, 0) of a 1x8x1x1 scale) are made to read
/// without them: the unit dims fold into a neighbour (a 1x8 view) and the
/// map keeps its dim results. The map is then a projected permutation, and
/// a run it does not read can collapse.
/// For one operand of type `t` read through `map`: the map without its
/// constant-0 results on unit dims, and the groups folding those dims into
/// a neighbour. False when there is nothing to drop, or a result is neither
/// a dim nor such a constant.
bool unitBroadcastView(MemRefType t, AffineMap map,
                       SmallVectorImpl<AffineExpr> &kept,
                       SmallVectorImpl<ReassociationIndices> &groups) {
  ReassociationIndices pending; // unit dims before the first kept one
  bool any = false;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    auto c = dyn_cast<AffineConstantExpr>(map.getResult(i));
    if (c && c.getValue() == 0 && t.getDimSize(i) == 1) {
      any = true;
      if (groups.empty())
        pending.push_back(i);
      else
        groups.back().push_back(i);
      continue;
    }
    if (!isa<AffineDimExpr>(map.getResult(i)))
      return false;
    kept.push_back(map.getResult(i));
    groups.push_back(pending);
    groups.back().push_back(i);
    pending.clear();
  }
  // All unit: a rank-0 view (no groups).
  return any;
}

/// Broadcast operands read with constant-0 map results on unit dims
/// ((n, c, h, w) -> (n, c, 0, 0) of a 1x8x1x1 scale) are made to read
/// without them: the unit dims fold into a neighbour (a 1x8 view) and the
/// map keeps its dim results. The map is then a projected permutation, and
/// a run it does not read can collapse.
void dropUnitBroadcastDims(linalg::GenericOp op, RewriterBase &rewriter) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand &o : op->getOpOperands()) {
    auto t = dyn_cast<MemRefType>(o.get().getType());
    AffineMap map = maps[o.getOperandNumber()];
    if (!t || !t.getLayout().isIdentity() ||
        t.getRank() != (int64_t)map.getNumResults())
      continue;
    SmallVector<AffineExpr> kept;
    SmallVector<ReassociationIndices> groups;
    if (!unitBroadcastView(t, map, kept, groups))
      continue;
    rewriter.setInsertionPoint(op);
    o.set(memref::CollapseShapeOp::create(rewriter, op.getLoc(), o.get(),
                                          groups));
    maps[o.getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    changed = true;
  }
  if (changed)
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
}

struct CollapseDimsPass
    : public onnxc::impl::CollapseDimsBase<CollapseDimsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    unsigned collapsed = 0;
    for (linalg::GenericOp op : ops) {
      if (llvm::all_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
            return t == utils::IteratorType::parallel;
          }) &&
          op.getBody()->getOps<linalg::IndexOp>().empty())
        dropUnitBroadcastDims(op, rewriter);
      SmallVector<ReassociationIndices> runs = collapsibleRuns(op);
      if (runs.empty())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> r = linalg::collapseOpIterationDims(
          cast<linalg::LinalgOp>(op.getOperation()), runs, rewriter);
      if (failed(r))
        continue;
      // On buffers the op has no results: the collapsed op writes through
      // collapse_shape views of the same memory.
      rewriter.replaceOp(op, r->results);
      ++collapsed;
    }
    LLVM_DEBUG(llvm::dbgs() << "onnxc-collapse-dims: " << collapsed
                            << " generics collapsed\n");
  }
};

} // namespace

//===- GuardEmptyLoops.cpp - The --onnxc-guard-empty-loops pass -----------===//
//
// A loop nest over an empty buffer of shape [2^30, 2^30, 0] runs its outer
// loops 2^60 times around an inner loop that never runs: the model hangs
// where it has nothing to do. For each perfect nest of scf.for loops (each
// body only the next loop), the inner loops' trip counts are tested once
// before the outermost loop when their bounds are defined outside the nest:
// an empty inner loop skips the whole nest.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_GUARDEMPTYLOOPS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// The loop that is the only op (but its terminator) of `loop`'s body.
scf::ForOp onlyChildLoop(scf::ForOp loop) {
  Block *body = loop.getBody();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return nullptr;
  return dyn_cast<scf::ForOp>(&body->front());
}

/// Whether `v` is defined outside `op` (so it can be read before it).
bool definedOutside(Value v, Operation *op) {
  return !op->isAncestor(v.getParentBlock()->getParentOp());
}

struct GuardEmptyLoopsPass
    : public onnxc::impl::GuardEmptyLoopsBase<GuardEmptyLoopsPass> {
  void runOnOperation() override {
    // Outermost loops of nests: loops whose parent loop does not have them
    // as its only child.
    SmallVector<scf::ForOp> roots;
    getOperation()->walk([&](scf::ForOp loop) {
      auto parent = dyn_cast<scf::ForOp>(loop->getParentOp());
      if (parent && onlyChildLoop(parent) == loop)
        return;
      if (loop->getNumResults() == 0 && onlyChildLoop(loop))
        roots.push_back(loop);
    });
    for (scf::ForOp root : roots)
      guard(root);
  }

  void guard(scf::ForOp root) {
    OpBuilder b(root);
    Location loc = root.getLoc();
    Value cond;
    for (scf::ForOp inner = onlyChildLoop(root); inner;
         inner = onlyChildLoop(inner)) {
      Value lb = inner.getLowerBound(), ub = inner.getUpperBound();
      if (!definedOutside(lb, root) || !definedOutside(ub, root))
        continue;
      auto clb = getConstantIntValue(lb), cub = getConstantIntValue(ub);
      if (clb && cub && *clb < *cub)
        continue; // never empty
      Value nonEmpty =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
      cond = cond ? arith::AndIOp::create(b, loc, cond, nonEmpty).getResult()
                  : nonEmpty;
    }
    if (!cond)
      return;
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    root->moveBefore(ifOp.thenBlock()->getTerminator());
  }
};

} // namespace

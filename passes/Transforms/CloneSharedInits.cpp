//===- CloneSharedInits.cpp - --onnxc-clone-shared-inits ------------------===//
//
// Every use of a tensor.empty gets its own, and a generator (a linalg op
// reading no tensor: a fill, a generic yielding a constant) whose result
// initializes the outputs of several ops is cloned once per such use
// (Passes.td). CSE merges identical empties and fills, and one-shot
// bufferization then copies the shared buffer for every op that writes
// into it: a copy of a whole feature map per convolution.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/Debug.h"

#include <iterator>

#define DEBUG_TYPE "onnxc-clone-shared-inits"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CLONESHAREDINITS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// A linalg op on tensors that reads no tensor and writes into
/// tensor.empty results: recomputing it costs what a copy of its result
/// would, or less.
bool isGenerator(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
    return false;
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<TensorType>(in->get().getType()))
      return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!init.get().getDefiningOp<tensor::EmptyOp>())
      return false;
  return true;
}

struct CloneSharedInitsPass
    : public onnxc::impl::CloneSharedInitsBase<CloneSharedInitsPass> {
  void runOnOperation() override {
    // A reshape of a generator used by several ops (CSE merged the reshapes
    // too): one reshape per use, so that the generator step below sees each
    // destination.
    SmallVector<Operation *> reshapes;
    getOperation().walk([&](Operation *op) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) ||
          op->getResult(0).hasOneUse() || op->use_empty())
        return;
      auto src = op->getOperand(0).getDefiningOp<linalg::LinalgOp>();
      if (src && isGenerator(src))
        reshapes.push_back(op);
    });
    for (Operation *reshape : reshapes) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : reshape->getResult(0).getUses())
        uses.push_back(&use);
      for (size_t i = 1; i < uses.size(); ++i) {
        OpBuilder b(uses[i]->getOwner());
        uses[i]->set(b.clone(*reshape)->getResult(0));
      }
    }
    // Every use of a tensor.empty gets its own (CSE merges them; two ops
    // writing into one empty tensor make bufferization copy).
    SmallVector<tensor::EmptyOp> empties;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (!op->getResult(0).hasOneUse() && !op->use_empty())
        empties.push_back(op);
    });
    for (tensor::EmptyOp empty : empties) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : empty->getResult(0).getUses())
        uses.push_back(&use);
      OpBuilder b(empty->getNextNode());
      for (size_t i = 1; i < uses.size(); ++i)
        uses[i]->set(b.clone(*empty)->getResult(0));
    }
    // Static empties move to the start of their block: empty-tensor
    // elimination (before bufferization) makes an op that fills a slice of
    // a Concat write into the Concat's buffer, and needs the destination
    // to dominate that op.
    SmallVector<tensor::EmptyOp> statics;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (op->getNumOperands() == 0)
        statics.push_back(op);
    });
    for (tensor::EmptyOp empty : statics)
      empty->moveBefore(&empty->getBlock()->front());
    SmallVector<linalg::LinalgOp> generators;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isGenerator(op) && !op->getResult(0).hasOneUse())
        generators.push_back(op);
    });
    for (linalg::LinalgOp gen : generators) {
      // The uses as the output of another op (where that op writes),
      // directly or through one reshape (convolutions write a 5-D view of
      // their init).
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : gen->getResult(0).getUses()) {
        Operation *user = use.getOwner();
        OpOperand *dest = &use;
        if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user)) {
          if (!user->getResult(0).hasOneUse())
            continue;
          dest = &*user->getResult(0).use_begin();
        }
        auto dps = dyn_cast<DestinationStyleOpInterface>(dest->getOwner());
        if (dps && dps.isDpsInit(dest))
          inits.push_back(&use);
      }
      size_t numUses = std::distance(gen->getResult(0).use_begin(),
                                     gen->getResult(0).use_end());
      // The original keeps the first init use, unless it has other uses
      // (reads), which then keep it.
      bool otherUses = inits.size() != numUses;
      if (inits.empty() || (!otherUses && inits.size() == 1))
        continue;
      for (size_t i = otherUses ? 0 : 1; i < inits.size(); ++i) {
        OpOperand *use = inits[i];
        OpBuilder b(use->getOwner());
        IRMapping map;
        // A fresh tensor.empty too, so that each clone has its own buffer.
        for (OpOperand &init : gen.getDpsInitsMutable()) {
          Operation *empty = init.get().getDefiningOp();
          map.map(init.get(), b.clone(*empty)->getResult(0));
        }
        Operation *clone = b.clone(*gen, map);
        use->set(clone->getResult(0));
        LLVM_DEBUG(llvm::dbgs() << "cloned " << *gen << " for "
                                << use->getOwner()->getName() << "\n");
      }
    }
  }
};

} // namespace

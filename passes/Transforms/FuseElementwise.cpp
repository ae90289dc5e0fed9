//===- FuseElementwise.cpp - The --onnxc-fuse-elementwise pass ------------===//
//
// linalg's elementwise fusion on tensors with onnxc's control: only
// single-use producers, and nothing but data movement into contractions and
// max pools so that onnxc-linalg-to-ukernel still recognizes them.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "passes/Transforms/UkernelMatch.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-fuse-elementwise"

namespace {

/// A generic whose body yields one of its inputs unchanged: a transpose,
/// broadcast or copy.
bool isDataMovement(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 1)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  auto arg = dyn_cast<BlockArgument>(yield.getOperand(0));
  return arg && arg.getOwner() == &body &&
         arg.getArgNumber() < (unsigned)op.getNumDpsInputs();
}

/// The most ops a fused body may hold, and the most locations (ONNX
/// nodes) a fused op may name. Each fusion clones both bodies into a new
/// generic and merges their locations (hashing them all), so fusing a
/// chain of n elementwise nodes into one loop cost O(n^2): a chain of
/// 20,000 Neg (whose body folds to nothing) took 10 s to compile, 200,000
/// an estimated quarter of an hour. Past a few hundred ops one loop gains
/// nothing over two; with the bounds the chain is cut into loops of at
/// most this many nodes and the cost is linear.
constexpr size_t kMaxFusedBodyOps = 256;

size_t numLocations(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    return fused.getLocations().size();
  return 1;
}

bool mayFuse(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (consumer && producer.getRegion().front().getOperations().size() +
                          consumer->getRegion(0).front().getOperations().size() >
                      kMaxFusedBodyOps)
    return false;
  if (numLocations(producer->getLoc()) +
          numLocations(fused->getOwner()->getLoc()) >
      kMaxFusedBodyOps)
    return false;
  if (consumer && ukernel::hasMulAddBody(consumer) &&
      consumer.getNumReductionLoops() > 0) {
    if (!isDataMovement(producer))
      return false;
    // A convolution in the kernel's form keeps it: a transpose or flip of
    // its weights (ConvTranspose's, a gradient's) fused into its maps would
    // leave it to scalar loops.
    SmallVector<AffineMap> maps = consumer.getIndexingMapsArray();
    SmallVector<utils::IteratorType> iters = consumer.getIteratorTypesArray();
    if (!ukernel::hasConvolutionMaps(maps, iters))
      return true;
    auto yield = cast<linalg::YieldOp>(
        producer.getRegion().front().getTerminator());
    unsigned arg = cast<BlockArgument>(yield.getOperand(0)).getArgNumber();
    AffineMap in = producer.getMatchingIndexingMap(&producer->getOpOperand(arg));
    AffineMap out = producer.getIndexingMapMatchingResult(
        cast<OpResult>(fused->get()));
    AffineMap inv = inversePermutation(out);
    if (!inv)
      return false;
    unsigned idx = fused->getOperandNumber();
    maps[idx] = in.compose(inv).compose(maps[idx]);
    return ukernel::hasConvolutionMaps(maps, iters);
  }
  // A max pool's padding stays a padding (onnxc-linalg-to-ukernel folds it
  // into the pool kernel's call); a gather fused into the pool would not.
  if (consumer && ukernel::matchMaxPool2d(consumer))
    return isDataMovement(producer);
  return true;
}

/// mayFuse; the fused op (created at the consumer's location) gets the
/// producer's location too, after the consumer's (which diagnostics and
/// run-time messages name, as before), so that it names both ONNX nodes
/// (--profile: "add1+relu1"). Once the control says yes, linalg's fusion
/// of two fusable generics does not fail.
bool controlFusion(OpOperand *fused) {
  if (!mayFuse(fused))
    return false;
  Operation *producer = fused->get().getDefiningOp();
  Operation *consumer = fused->getOwner();
  consumer->setLoc(FusedLoc::get(consumer->getContext(),
                                 {consumer->getLoc(), producer->getLoc()}));
  return true;
}

/// linalg.transpose / linalg.broadcast -> linalg.generic, so that the
/// elementwise fusion patterns (which take generics) see them.
template <typename OpTy>
struct Generalize : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

struct FuseElementwisePass
    : public onnxc::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<Generalize<linalg::TransposeOp>,
                 Generalize<linalg::BroadcastOp>>(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, controlFusion);
    // Fusion only removes generics, so the rewrite terminates; the bound
    // guards against pattern interplay that would not. Stopping at the
    // bound leaves valid, less fused IR: not an error.
    GreedyRewriteConfig config;
    config.setMaxIterations(32);
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << countGenerics()
                            << " generics before fusion\n");
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << countGenerics()
                            << " generics after fusion\n");
  }

  int64_t countGenerics() {
    int64_t n = 0;
    getOperation()->walk([&](linalg::GenericOp) { ++n; });
    return n;
  }
};

} // namespace

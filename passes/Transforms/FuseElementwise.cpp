//===- FuseElementwise.cpp - The --onnxc-fuse-elementwise pass ------------===//
//
// linalg's elementwise fusion on tensors with onnxc's control: only
// single-use producers, and nothing but data movement into contractions and
// max pools so that onnxc-linalg-to-ukernel still recognizes them.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "passes/Transforms/UkernelMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
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

/// A binary elementwise generic on tensors: two inputs, one init, all
/// loops parallel, every map the identity.
static bool isBinaryElementwise(linalg::GenericOp g) {
  return g.hasPureTensorSemantics() && g.getNumDpsInputs() == 2 &&
         g.getNumDpsInits() == 1 && g.getNumReductionLoops() == 0 &&
         llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); });
}

/// add(conv(x) from a zero fill, r) -> conv(x) from r: a convolution
/// without a bias whose result only feeds an elementwise Add starts from
/// the Add's other operand instead (a Paddle FPN's lateral 1 x 1
/// convolution plus the upsampled map), so that onnxc-linalg-to-ukernel's
/// call sums into it (no ONNXC_CONV_BIAS: Y's values are the start) and
/// the Add's pass over the maps goes. The sum is the same one, rounded
/// once more per K block the kernel runs (as ORT's fused Conv + Sum).
struct ConvIntoAdd : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp add,
                                PatternRewriter &rewriter) const override {
    if (!isBinaryElementwise(add))
      return failure();
    Block &body = add.getRegion().front();
    if (body.getOperations().size() != 2)
      return failure();
    auto sum = cast<linalg::YieldOp>(body.getTerminator())
                   .getOperand(0)
                   .getDefiningOp<arith::AddFOp>();
    if (!sum || !llvm::is_contained(body.getArguments().take_front(2),
                                    sum.getLhs()) ||
        !llvm::is_contained(body.getArguments().take_front(2),
                            sum.getRhs()) ||
        sum.getLhs() == sum.getRhs())
      return failure();
    auto type = dyn_cast<RankedTensorType>(add.getResult(0).getType());
    if (!type || !type.getElementType().isF32())
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      Value convOut = add.getDpsInputs()[i], other = add.getDpsInputs()[1 - i];
      if (other.getType() != type || convOut.getType() != type)
        continue;
      // The convolution's result, through a collapse_shape of its extra
      // group dim, used by the Add only.
      auto collapse = convOut.getDefiningOp<tensor::CollapseShapeOp>();
      Value raw = collapse ? collapse.getSrc() : convOut;
      auto conv = raw.getDefiningOp<linalg::LinalgOp>();
      if (!conv || !convOut.hasOneUse() || !raw.hasOneUse() ||
          conv->getNumResults() != 1 || conv.getNumDpsInits() != 1 ||
          conv.getNumReductionLoops() == 0 || !ukernel::hasMulAddBody(conv) ||
          !ukernel::hasConvolutionMaps(conv.getIndexingMapsArray(),
                                       conv.getIteratorTypesArray()))
        continue;
      // Its start: a fill of +0.0 (no bias), through an expand_shape.
      auto fill = conv.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
      if (!fill || !fill.getResult(0).hasOneUse() ||
          !matchPattern(fill.getInputs()[0], m_PosZeroFloat()))
        continue;
      tensor::ExpandShapeOp expand;
      if (collapse) {
        expand = fill.getOutputs()[0].getDefiningOp<tensor::ExpandShapeOp>();
        if (!expand || expand.getReassociationIndices() !=
                           collapse.getReassociationIndices())
          continue;
      }
      if (conv->getBlock() != add->getBlock() ||
          (collapse && collapse->getBlock() != add->getBlock()))
        continue;
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": convolution into its Add at "
                              << add.getLoc() << "\n");
      // The convolution moves to the Add (its operands come before it, and
      // so does `other`), starting from `other`.
      rewriter.setInsertionPoint(add);
      Value start = other;
      if (expand)
        start = tensor::ExpandShapeOp::create(
            rewriter, expand.getLoc(), expand.getResultType(), other,
            expand.getReassociationIndices(), expand.getMixedOutputShape());
      rewriter.moveOpBefore(conv, add);
      if (collapse)
        rewriter.moveOpBefore(collapse, add);
      rewriter.modifyOpInPlace(conv, [&] {
        conv.getDpsInitsMutable()[0].set(start);
      });
      conv->setLoc(FusedLoc::get(conv->getContext(),
                                 {conv->getLoc(), add->getLoc()}));
      rewriter.replaceOp(add, convOut);
      return success();
    }
    return failure();
  }
};

/// A residual Add (maybe with a clamp after it) of a convolution's result
/// and another value R whose last use it is: its init becomes R, so that
/// bufferization writes the sum over R's buffer and
/// onnxc-linalg-to-ukernel's fuse-residuals can run the convolution from
/// R's values in place (ONNXC_CONV_BIAS_ADD) and drop the Add. The sum
/// itself does not change. R must be an op's result (a function argument
/// is read-only: bufferization would copy it).
struct ResidualInPlace : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  /// `v` is a convolution's result (through a collapse_shape of its group
  /// dim) used once.
  static bool isConvResult(Value v) {
    if (!v.hasOneUse())
      return false;
    if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>())
      v = collapse.getSrc();
    auto conv = v.getDefiningOp<linalg::LinalgOp>();
    return conv && v.hasOneUse() && conv->getNumResults() == 1 &&
           conv.getNumReductionLoops() > 0 && ukernel::hasMulAddBody(conv) &&
           ukernel::hasConvolutionMaps(conv.getIndexingMapsArray(),
                                       conv.getIteratorTypesArray());
  }

  LogicalResult matchAndRewrite(linalg::GenericOp add,
                                PatternRewriter &rewriter) const override {
    if (!isBinaryElementwise(add))
      return failure();
    Block &body = add.getRegion().front();
    // The init's value is not read, and is not already an input.
    if (!body.getArgument(2).use_empty() || body.getOperations().size() > 4)
      return failure();
    auto type = dyn_cast<RankedTensorType>(add.getResult(0).getType());
    if (!type || !type.getElementType().isF32())
      return failure();
    // The sum of the two inputs, in the body.
    bool sums = false;
    for (Operation &o : body.without_terminator())
      if (auto s = dyn_cast<arith::AddFOp>(o))
        sums |= (s.getLhs() == body.getArgument(0) &&
                 s.getRhs() == body.getArgument(1)) ||
                (s.getLhs() == body.getArgument(1) &&
                 s.getRhs() == body.getArgument(0));
    if (!sums)
      return failure();
    Value init = add.getDpsInits()[0];
    if (!init.getDefiningOp<tensor::EmptyOp>())
      return failure();
    // When both are convolutions' results (a shortcut convolution), the
    // later one runs from the earlier one's result: the input defined
    // later is tried first as the convolution.
    Operation *d0 = add.getDpsInputs()[0].getDefiningOp(),
              *d1 = add.getDpsInputs()[1].getDefiningOp();
    unsigned first = d0 && d1 && d0->getBlock() == d1->getBlock() &&
                             d1->isBeforeInBlock(d0)
                         ? 0
                         : 1;
    for (unsigned t = 0; t < 2; ++t) {
      unsigned i = t == 0 ? first : 1 - first;
      Value conv = add.getDpsInputs()[i], r = add.getDpsInputs()[1 - i];
      if (conv.getType() != type || r.getType() != type || r == conv ||
          isa<BlockArgument>(r) || matchPattern(r, m_Constant()) ||
          !isConvResult(conv))
        continue;
      // R's other users come before the Add (a ResNet block's first
      // convolution reads it): the Add is its last use, and its buffer is
      // free to take the sum (bufferization still checks).
      if (!llvm::all_of(r.getUsers(), [&](Operation *u) {
            // A use inside an op's region (the padding's tensor.extract)
            // counts as that op.
            Operation *anc = add->getBlock()->findAncestorOpInBlock(*u);
            return u == add.getOperation() ||
                   (anc && anc != add.getOperation() &&
                    anc->isBeforeInBlock(add));
          }) ||
          llvm::count_if(r.getUsers(),
                         [&](Operation *u) { return u == add.getOperation(); }) != 1)
        continue;
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": residual Add in place at "
                              << add.getLoc() << "\n");
      rewriter.modifyOpInPlace(add,
                               [&] { add.getDpsInitsMutable()[0].set(r); });
      return success();
    }
    return failure();
  }
};

struct FuseElementwisePass
    : public onnxc::impl::FuseElementwiseBase<FuseElementwisePass> {
  using FuseElementwiseBase::FuseElementwiseBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    {
      // Before elementwise fusion merges the Add with what follows it.
      RewritePatternSet first(ctx);
      first.add<ConvIntoAdd>(ctx);
      (void)applyPatternsGreedily(getOperation(), std::move(first));
    }
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
    if (residualsInPlace) {
      // After fusion: the Add and the Relu after it are one generic.
      RewritePatternSet last(ctx);
      last.add<ResidualInPlace>(ctx);
      (void)applyPatternsGreedily(getOperation(), std::move(last));
    }
  }

  int64_t countGenerics() {
    int64_t n = 0;
    getOperation()->walk([&](linalg::GenericOp) { ++n; });
    return n;
  }
};

} // namespace

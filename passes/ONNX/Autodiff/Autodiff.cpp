//===- Autodiff.cpp - The onnx-autodiff pass -------------------------------===//
//
// Reverse-mode differentiation of onnx.training.Gradient (Passes.td has the
// contract). For each Gradient op, in its block:
//   0. ops with an expansion (RNN, GRU, LSTM) that depend on an x are
//      rewritten into the ops of the expansion;
//   1. the active ops: those that depend on one of its xs (through operands
//      or through values their regions read) and that y depends on;
//   2. the seed: dy = ones of y's shape;
//   3. the active ops in reverse order: each op's rule gets the gradients of
//      its results and adds the gradients of its inputs, which accumulate
//      (fan-out sums);
//   4. the Gradient's results are the gradients of its xs.
// The backward ops go right before the Gradient op. Steps 1 and 3 are
// backpropagate(), which the If, Loop and Scan rules (RulesControlFlow.cpp)
// also run over the recomputed body of each subgraph.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "mlir/IR/TypeUtilities.h"
#include "passes/ONNX/Passes.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/ONNXOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "onnx-autodiff"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ONNXAUTODIFF
#include "passes/ONNX/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

SmallVector<Value> autodiff::inputsOf(Operation *op) {
  llvm::SetVector<Value> in(op->operand_begin(), op->operand_end());
  for (Region &r : op->getRegions())
    r.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          in.insert(v);
    });
  return in.takeVector();
}

LogicalResult autodiff::backpropagate(ArrayRef<Operation *> ops,
                                      ArrayRef<Value> sources,
                                      InputGrads &grads, GradientBuilder &gb) {
  // The ops that depend on a source (forward), of those the ones a seed
  // depends on (backward).
  llvm::DenseSet<Value> depends(sources.begin(), sources.end());
  SmallVector<Operation *> forward;
  for (Operation *op : ops) {
    if (!llvm::any_of(inputsOf(op),
                      [&](Value v) { return depends.contains(v); }))
      continue;
    forward.push_back(op);
    depends.insert(op->result_begin(), op->result_end());
  }
  llvm::DenseSet<Value> reaches;
  for (auto &[v, g] : grads)
    if (g && depends.contains(v))
      reaches.insert(v);
  SmallVector<Operation *> active;
  for (Operation *op : llvm::reverse(forward)) {
    if (!llvm::any_of(op->getResults(),
                      [&](Value r) { return reaches.contains(r); }))
      continue;
    active.push_back(op); // reverse block order
    for (Value v : inputsOf(op))
      if (depends.contains(v))
        reaches.insert(v);
  }
  const llvm::DenseSet<Value> *outerActive = gb.active;
  SmallVector<Operation *> *outerDead = gb.dead;
  SmallVector<Operation *> dead;
  gb.active = &reaches;
  gb.dead = &dead;
  auto restore = llvm::make_scope_exit([&] {
    gb.active = outerActive;
    gb.dead = outerDead;
  });
  const llvm::StringMap<GradientRule> &rules = getGradientRules();
  Location loc = gb.loc;
  for (Operation *op : active) {
    SmallVector<Value> resultGrads;
    bool any = false;
    for (Value r : op->getResults()) {
      Value g = grads.lookup(r);
      resultGrads.push_back(g);
      any |= bool(g);
    }
    if (!any)
      continue;
    auto it = rules.find(op->getName().getStringRef());
    if (it == rules.end())
      return op->emitOpError()
             << "has no gradient rule (it is on the path from an x to y of "
             << gb.gradientName << ")";
    SmallVector<Value> inputs = inputsOf(op);
    InputGrads opGrads;
    gb.loc = op->getLoc();
    if (failed(it->second(op, resultGrads, gb, opGrads)) || gb.failed)
      return failure();
    // Every active float input must get a gradient: a rule that gives none
    // for one would silently give zeros.
    for (Value v : inputs)
      if (reaches.contains(v) && isFloatTensor(v.getType()) &&
          !opGrads.lookup(v))
        return op->emitOpError()
               << "gives no gradient for an input that depends on an x of "
               << gb.gradientName;
    for (auto &[v, g] : opGrads)
      if (reaches.contains(v))
        accumulate(gb, grads, v, g);
    if (gb.failed)
      return failure();
  }
  gb.loc = loc;
  for (Operation *op : llvm::reverse(dead))
    eraseInferredOp(op, gb.state);
  return success();
}

namespace {

/// The node name and op type of `op`, to name the Gradient in messages on
/// other ops: "node 'n' (training.Gradient)".
std::string describe(Operation *op) {
  std::string name;
  if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
    name = loc.getName().str();
  StringRef type = op->getName().getStringRef();
  type.consume_front("onnx.");
  return "node '" + name + "' (" + type.str() + ")";
}

LogicalResult differentiate(Operation *gradOp, InferenceState &state) {
  Block *block = gradOp->getBlock();
  auto xsAttr = gradOp->getAttrOfType<ArrayAttr>("xs");
  unsigned numXs = xsAttr ? xsAttr.size() : 0;
  if (gradOp->getNumOperands() == 0 || gradOp->getNumResults() != numXs)
    return gradOp->emitOpError("malformed Gradient (its verifier runs first)");
  Value y = gradOp->getOperands().back();
  std::string gname = describe(gradOp);

  SmallVector<Value> xs;
  for (unsigned i = 0; i < numXs; ++i) {
    Value x = gradOp->getOperand(i);
    StringRef xname = cast<StringAttr>(xsAttr[i]).getValue();
    Operation *def = x.getDefiningOp();
    if (def && !isa<ONNX::ConstantOp>(def))
      return gradOp->emitOpError()
             << "x '" << xname << "' is not a graph input or initializer";
    if (!isFloatTensor(x.getType()))
      return gradOp->emitOpError() << "x '" << xname
                                   << "' is not a float tensor";
    xs.push_back(x);
  }
  if (!isFloatTensor(y.getType()))
    return gradOp->emitOpError("y is not a float tensor");

  // Ops with an expansion (RNN, GRU, LSTM) that depend on an x are
  // rewritten first; the reverse pass then sees their expansion.
  {
    const auto &expansions = getGradientExpansions();
    llvm::DenseSet<Value> dep(xs.begin(), xs.end());
    SmallVector<Operation *> toExpand;
    for (Operation &op : *block) {
      if (&op == gradOp)
        break;
      if (!llvm::any_of(inputsOf(&op), [&](Value v) { return dep.contains(v); }))
        continue;
      dep.insert(op.result_begin(), op.result_end());
      if (expansions.count(op.getName().getStringRef()))
        toExpand.push_back(&op);
    }
    for (Operation *op : toExpand) {
      OpBuilder eb(op);
      GradientBuilder egb(eb, state, op->getLoc());
      if (failed(expansions.lookup(op->getName().getStringRef())(op, egb)) ||
          egb.failed)
        return failure();
    }
    y = gradOp->getOperands().back(); // it may have been replaced
  }

  // Ops of the block that depend on an x (forward from the xs).
  llvm::DenseSet<Value> dependsOnX(xs.begin(), xs.end());
  SmallVector<Operation *> forward;
  for (Operation &op : *block) {
    if (&op == gradOp)
      break;
    bool dep = false;
    for (Value v : inputsOf(&op))
      dep |= dependsOnX.contains(v);
    if (!dep)
      continue;
    forward.push_back(&op);
    for (Value r : op.getResults())
      dependsOnX.insert(r);
  }
  // Of those, the ones y depends on (backward from y).
  llvm::DenseSet<Value> reachesY{y};
  SmallVector<Operation *> active;
  for (Operation *op : llvm::reverse(forward)) {
    bool used = false;
    for (Value r : op->getResults())
      used |= reachesY.contains(r);
    if (!used)
      continue;
    active.push_back(op); // reverse block order
    for (Value v : inputsOf(op))
      if (dependsOnX.contains(v))
        reachesY.insert(v);
  }
  for (unsigned i = 0; i < numXs; ++i)
    if (!reachesY.contains(xs[i]))
      return gradOp->emitOpError()
             << "y does not depend on x '"
             << cast<StringAttr>(xsAttr[i]).getValue() << "'";

  OpBuilder b(gradOp);
  GradientBuilder gb(b, state, gradOp->getLoc());
  gb.gradientName = gname;
  InputGrads grads;
  grads[y] = gb.filledLike(y, 1.0);
  if (gb.failed)
    return failure();
  SmallVector<Operation *> ops(llvm::reverse(active));
  if (failed(backpropagate(ops, xs, grads, gb)))
    return failure();
  for (unsigned i = 0; i < numXs; ++i) {
    Value g = grads.lookup(xs[i]);
    if (g.getType() != gradOp->getResult(i).getType())
      g = gb.sumToShapeOf(g, xs[i]);
    if (!g)
      return failure();
    gradOp->getResult(i).replaceAllUsesWith(g);
  }
  gradOp->erase();
  LLVM_DEBUG(llvm::dbgs() << "onnx-autodiff: " << gname << ": "
                          << active.size() << " active ops\n");
  return success();
}

struct ONNXAutodiffPass
    : public onnxc::impl::ONNXAutodiffBase<ONNXAutodiffPass> {
  void runOnOperation() override {
    SmallVector<Operation *> gradients;
    getOperation().walk([&](Operation *op) {
      if (op->getName().getStringRef() == "onnx.training.Gradient")
        gradients.push_back(op);
    });
    if (gradients.empty())
      return;
    std::unique_ptr<InferenceState> state = createInferenceState();
    for (Operation *op : gradients)
      if (failed(differentiate(op, *state)))
        return signalPassFailure();
  }
};

} // namespace

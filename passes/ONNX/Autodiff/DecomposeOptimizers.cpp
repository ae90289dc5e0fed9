//===- DecomposeOptimizers.cpp - The onnx-decompose-optimizers pass -------===//
//
// ai.onnx.preview.training's Adagrad, Momentum and Adam as elementwise onnx
// ops (Passes.td has the formulas). Inputs: R (learning rate), T (update
// count), then n tensors X, n gradients G and the optimizer's n-tensor
// states; outputs: the n new X, then the new states, in input order.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"
#include "passes/ONNX/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ONNXDECOMPOSEOPTIMIZERS
#include "passes/ONNX/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

#define DEBUG_TYPE "onnx-decompose-optimizers"

namespace {

/// The optimizers' shared prelude: n tensors per group, checked.
LogicalResult groups(Operation *op, unsigned perTensor, unsigned &n) {
  unsigned tensors = op->getNumOperands() - 2;
  if (op->getNumOperands() < 2 || tensors % perTensor != 0 ||
      tensors == 0)
    return op->emitOpError() << "has " << tensors
                             << " inputs after R and T, not a multiple of "
                             << perTensor << " (X, G"
                             << (perTensor == 4 ? ", V, H" : ", state")
                             << " per tensor)";
  n = tensors / perTensor;
  if (op->getNumResults() != n * (perTensor - 1))
    return op->emitOpError() << "has " << op->getNumResults()
                             << " outputs, expected " << n * (perTensor - 1);
  return success();
}

/// R and T as scalars of `like`'s element type, T > 0 as a bool.
struct Step {
  Value r, t, positive;
};
Step step(GradientBuilder &gb, Operation *op, Value like) {
  Value r = gb.castLike(op->getOperand(0), like);
  Value t = op->getOperand(1);
  Value positive =
      gb.op("Greater", {t, gb.scalar(0, getElementTypeOrSelf(t.getType()))});
  return {r, gb.castLike(t, like), positive};
}

/// G + norm_coefficient * X.
Value regularized(GradientBuilder &gb, Value x, Value g, float norm) {
  if (norm == 0.0f)
    return g;
  return gb.add(gb.mul(gb.scalar(norm, getElementTypeOrSelf(x.getType())), x),
                g);
}

/// Adagrad: r = R / (1 + T * decay_factor); G' = norm * X + G;
/// H' = H + G'^2; X' = X - r * G' / (sqrt(H') + epsilon).
LogicalResult adagrad(Operation *op, GradientBuilder &gb,
                      SmallVectorImpl<Value> &out) {
  unsigned n;
  if (failed(groups(op, 3, n)))
    return failure();
  float decay = floatAttr(op, "decay_factor", 0.0f);
  float eps = floatAttr(op, "epsilon", 1e-6f);
  float norm = floatAttr(op, "norm_coefficient", 0.0f);
  SmallVector<Value> xs(n), hs(n);
  for (unsigned i = 0; i < n; ++i) {
    Value x = op->getOperand(2 + i), g = op->getOperand(2 + n + i),
          h = op->getOperand(2 + 2 * n + i);
    Type et = getElementTypeOrSelf(x.getType());
    Step s = step(gb, op, x);
    Value r = gb.div(s.r, gb.add(gb.scalar(1.0, et),
                                 gb.mul(s.t, gb.scalar(decay, et))));
    Value gr = regularized(gb, x, g, norm);
    Value hNew = gb.add(h, gb.mul(gr, gr));
    Value adaptive = gb.add(gb.op("Sqrt", {hNew}), gb.scalar(eps, et));
    xs[i] = gb.sub(x, gb.div(gb.mul(r, gr), adaptive));
    hs[i] = hNew;
  }
  out.append(xs);
  out.append(hs);
  return success();
}

/// Momentum: G' = norm * X + G; beta' = T > 0 ? beta : 1;
/// V' = alpha V + beta' G'; X' = X - R V' (standard) or
/// X - R (G' + alpha V') (nesterov).
LogicalResult momentum(Operation *op, GradientBuilder &gb,
                       SmallVectorImpl<Value> &out) {
  unsigned n;
  if (failed(groups(op, 3, n)))
    return failure();
  float alpha = floatAttr(op, "alpha", 0.0f);
  float beta = floatAttr(op, "beta", 0.0f);
  float norm = floatAttr(op, "norm_coefficient", 0.0f);
  auto modeAttr = op->getAttrOfType<StringAttr>("mode");
  StringRef mode = modeAttr ? modeAttr.getValue() : "";
  if (mode != "standard" && mode != "nesterov")
    return op->emitOpError() << "mode '" << mode
                             << "' is not 'standard' or 'nesterov'";
  SmallVector<Value> xs(n), vs(n);
  for (unsigned i = 0; i < n; ++i) {
    Value x = op->getOperand(2 + i), g = op->getOperand(2 + n + i),
          v = op->getOperand(2 + 2 * n + i);
    Type et = getElementTypeOrSelf(x.getType());
    Step s = step(gb, op, x);
    Value gr = regularized(gb, x, g, norm);
    Value betaAdj = gb.op("Where", {s.positive, gb.scalar(beta, et),
                                    gb.scalar(1.0, et)});
    Value vNew =
        gb.add(gb.mul(gb.scalar(alpha, et), v), gb.mul(betaAdj, gr));
    Value delta = mode == "standard"
                      ? vNew
                      : gb.add(gr, gb.mul(gb.scalar(alpha, et), vNew));
    xs[i] = gb.sub(x, gb.mul(s.r, delta));
    vs[i] = vNew;
  }
  out.append(xs);
  out.append(vs);
  return success();
}

/// Adam: G' = norm * X + G; V' = alpha V + (1 - alpha) G';
/// H' = beta H + (1 - beta) G'^2; r = T > 0 ? R sqrt(1 - beta^T) /
/// (1 - alpha^T) : R; X' = (1 - norm_post) (X - r V' / (sqrt(H') + eps)).
LogicalResult adam(Operation *op, GradientBuilder &gb,
                   SmallVectorImpl<Value> &out) {
  unsigned n;
  if (failed(groups(op, 4, n)))
    return failure();
  float alpha = floatAttr(op, "alpha", 0.9f);
  float beta = floatAttr(op, "beta", 0.999f);
  float eps = floatAttr(op, "epsilon", 1e-6f);
  float norm = floatAttr(op, "norm_coefficient", 0.0f);
  float post = floatAttr(op, "norm_coefficient_post", 0.0f);
  SmallVector<Value> xs(n), vs(n), hs(n);
  for (unsigned i = 0; i < n; ++i) {
    Value x = op->getOperand(2 + i), g = op->getOperand(2 + n + i),
          v = op->getOperand(2 + 2 * n + i), h = op->getOperand(2 + 3 * n + i);
    Type et = getElementTypeOrSelf(x.getType());
    Step s = step(gb, op, x);
    Value one = gb.scalar(1.0, et);
    Value gr = regularized(gb, x, g, norm);
    Value vNew = gb.add(gb.mul(gb.scalar(alpha, et), v),
                        gb.mul(gb.scalar(1.0 - (double)alpha, et), gr));
    Value hNew = gb.add(gb.mul(gb.scalar(beta, et), h),
                        gb.mul(gb.scalar(1.0 - (double)beta, et),
                               gb.mul(gr, gr)));
    Value hSqrt = gb.add(gb.op("Sqrt", {hNew}), gb.scalar(eps, et));
    Value corrected = gb.div(
        gb.mul(s.r, gb.op("Sqrt", {gb.sub(one, gb.op("Pow", {gb.scalar(beta, et),
                                                              s.t}))})),
        gb.sub(one, gb.op("Pow", {gb.scalar(alpha, et), s.t})));
    Value r = gb.op("Where", {s.positive, corrected, s.r});
    Value xNew = gb.sub(x, gb.mul(r, gb.div(vNew, hSqrt)));
    if (post != 0.0f)
      xNew = gb.mul(gb.scalar(1.0 - (double)post, et), xNew);
    xs[i] = xNew;
    vs[i] = vNew;
    hs[i] = hNew;
  }
  out.append(xs);
  out.append(vs);
  out.append(hs);
  return success();
}

struct ONNXDecomposeOptimizersPass
    : public onnxc::impl::ONNXDecomposeOptimizersBase<
          ONNXDecomposeOptimizersPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (name == "onnx.training.Adam" || name == "onnx.training.Adagrad" ||
          name == "onnx.training.Momentum")
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    std::unique_ptr<InferenceState> state = createInferenceState();
    for (Operation *op : ops) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << op->getName() << " at "
                              << op->getLoc() << "\n");
      OpBuilder b(op);
      GradientBuilder gb(b, *state, op->getLoc());
      SmallVector<Value> out;
      StringRef name = op->getName().getStringRef();
      LogicalResult ok = name == "onnx.training.Adam"      ? adam(op, gb, out)
                         : name == "onnx.training.Adagrad" ? adagrad(op, gb, out)
                                                           : momentum(op, gb, out);
      if (failed(ok) || gb.failed)
        return signalPassFailure();
      // The new values have the shapes of the op's results (each X' and
      // state has its X's shape); the result's type may know more (a dim
      // name broadcasting dropped): it is kept.
      for (auto [res, v] : llvm::zip(op->getResults(), out)) {
        if (v.getType() != res.getType() &&
            succeeded(verifyCompatibleShape(v.getType(), res.getType())))
          v.setType(res.getType());
        res.replaceAllUsesWith(v);
      }
      op->erase();
    }
  }
};

} // namespace

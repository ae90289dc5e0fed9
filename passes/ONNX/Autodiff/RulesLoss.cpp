//===- RulesLoss.cpp - Gradients of Softmax, LogSoftmax and the losses ----===//
//
// Along the softmax axis, with g the result's gradient:
//   Softmax:    y = softmax(x):     dx = y (g - sum(g y))
//   LogSoftmax: y = log softmax(x): dx = g - exp(y) sum(g)
// NegativeLogLikelihoodLoss(logp [N, C, d...], labels [N, d...], w [C]):
//   loss = -sum K logp, with K[n, c, d] = w_c (1 without weights) where c
//   is the label of (n, d) and that label is not ignore_index, else 0
//   (reduction none: per (n, d); mean: divided by sum K, as the spec's
//   reference and the lowering do), so dlogp = -K times the reduced
//   gradient (g broadcast over C; g for sum; g / sum K for mean).
// SoftmaxCrossEntropyLoss: logp = LogSoftmax(scores, axis 1), the same
//   dlogp, plus the gradient of its log_prob output, through LogSoftmax's
//   rule (softmax from the log_prob output when there is one).
// The weights get no gradient (they are constants in practice; one that
// depends on an x is an error of autodiff, never a silent zero).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

Value sumAxis(GradientBuilder &gb, Value v, int64_t axis) {
  return gb.op("ReduceSum", {v, gb.i64s({axis})},
               {gb.attr("keepdims", (int64_t)1)});
}

/// Softmax: dx = y (g - sum(g y)).
LogicalResult gradSoftmax(Operation *op, ArrayRef<Value> dy,
                          GradientBuilder &gb, InputGrads &grads) {
  Value y = op->getResult(0), g = dy[0];
  int64_t axis = getIntAttr(op, "axis", -1);
  accumulate(gb, grads, op->getOperand(0),
             gb.mul(y, gb.sub(g, sumAxis(gb, gb.mul(g, y), axis))));
  return success();
}

/// LogSoftmax along `axis` given its result's gradient `g` and its
/// softmax `p`: g - p sum(g).
Value logSoftmaxBackward(GradientBuilder &gb, Value g, Value p, int64_t axis) {
  return gb.sub(g, gb.mul(p, sumAxis(gb, g, axis)));
}

LogicalResult gradLogSoftmax(Operation *op, ArrayRef<Value> dy,
                             GradientBuilder &gb, InputGrads &grads) {
  int64_t axis = getIntAttr(op, "axis", -1);
  Value p = gb.op("Exp", {op->getResult(0)});
  accumulate(gb, grads, op->getOperand(0),
             logSoftmaxBackward(gb, dy[0], p, axis));
  return success();
}

/// The gradient of a NegativeLogLikelihoodLoss-shaped loss (operands
/// input [N, C, d...], labels, weights?) with respect to its input (the
/// log-probabilities), given the loss's gradient `g`.
Value nllBackward(Operation *op, Value g, GradientBuilder &gb) {
  Value input = op->getOperand(0), labels = op->getOperand(1);
  auto it = dyn_cast<RankedTensorType>(input.getType());
  if (!it || it.getRank() < 2) {
    op->emitError("autodiff: a loss of an unranked or 1-D input");
    gb.failed = true;
    return {};
  }
  int64_t rank = it.getRank();
  Type et = eltOf(input);
  Type i64 = gb.b.getI64Type();
  Value lab = labels;
  if (eltOf(lab) != i64)
    lab = gb.op("Cast", {lab}, {gb.attr("to", (int64_t)7)});
  lab = gb.op("Unsqueeze", {lab, gb.i64s({1})}); // [N, 1, d...]
  // [1, C, 1...]: the class of each position along C.
  SmallVector<int64_t> classShape(rank, 1);
  classShape[1] = -1;
  Value numClasses = gb.op(
      "Reshape", {gb.op("Slice", {gb.shapeOf(input), gb.i64s({1}),
                                  gb.i64s({2}), gb.none(), gb.none()}),
                  gb.i64s({})});
  Value classes = gb.op("Reshape", {gb.op("Range", {gb.scalar(0, i64),
                                                    numClasses,
                                                    gb.scalar(1, i64)}),
                                    gb.i64s(classShape)});
  Value hit = gb.op("Equal", {lab, classes});
  if (auto ii = op->getAttrOfType<IntegerAttr>("ignore_index"))
    hit = gb.op("And", {hit, gb.op("Not", {gb.op("Equal", {
                                              lab, gb.scalar(ii.getInt(), i64)})})});
  Value w = present(op, 2)
                ? gb.op("Reshape", {op->getOperand(2), gb.i64s(classShape)})
                : gb.scalar(1.0, et);
  Value k = gb.op("Where", {hit, w, gb.scalar(0.0, et)});
  auto reduction = op->getAttrOfType<StringAttr>("reduction");
  StringRef red = reduction ? reduction.getValue() : "mean";
  Value coef;
  if (red == "none")
    coef = gb.op("Unsqueeze", {g, gb.i64s({1})});
  else if (red == "sum")
    coef = g;
  else
    coef = gb.div(g, gb.op("ReduceSum", {k, gb.none()},
                           {gb.attr("keepdims", (int64_t)0)}));
  return gb.neg(gb.mul(coef, k));
}

LogicalResult gradNLLLoss(Operation *op, ArrayRef<Value> dy,
                          GradientBuilder &gb, InputGrads &grads) {
  accumulate(gb, grads, op->getOperand(0), nllBackward(op, dy[0], gb));
  return success();
}

LogicalResult gradSoftmaxCrossEntropyLoss(Operation *op, ArrayRef<Value> dy,
                                          GradientBuilder &gb,
                                          InputGrads &grads) {
  Value scores = op->getOperand(0);
  Value t = dy[0] ? nllBackward(op, dy[0], gb) : Value();
  if (dy.size() > 1 && dy[1])
    t = t ? gb.add(t, dy[1]) : dy[1];
  Value p = presentResult(op, 1)
                ? gb.op("Exp", {op->getResult(1)})
                : gb.op("Softmax", {scores}, {gb.attr("axis", (int64_t)1)});
  accumulate(gb, grads, scores, logSoftmaxBackward(gb, t, p, 1));
  return success();
}

} // namespace

void autodiff::registerLossGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.Softmax"] = gradSoftmax;
  rules["onnx.LogSoftmax"] = gradLogSoftmax;
  rules["onnx.NegativeLogLikelihoodLoss"] = gradNLLLoss;
  rules["onnx.SoftmaxCrossEntropyLoss"] = gradSoftmaxCrossEntropyLoss;
}

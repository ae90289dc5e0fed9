//===- RulesReduction.cpp - Gradients of the Reduce* ops ------------------===//
//
// The gradient of the reduced result, with the reduced dims put back
// (Unsqueeze when keepdims = 0) and expanded to the input's shape, times the
// derivative of the reduction:
//   ReduceSum 1, ReduceMean 1/n, ReduceSumSquare 2x, ReduceL1 sign(x),
//   ReduceL2 x/y, ReduceLogSumExp exp(x - y), ReduceLogSum 1/exp(y),
//   ReduceMax / ReduceMin: 1/k on the k elements equal to the result.
// The axes must be known at compile time (a constant or shape arithmetic).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "mlir/IR/TypeUtilities.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

enum class Kind { Sum, Mean, SumSquare, L1, L2, LogSumExp, LogSum, MaxMin };

/// The result's gradient broadcast back to the input's shape, and the
/// result itself broadcast likewise (for the derivatives that read it).
/// Fails when the axes are not known.
LogicalResult expandBack(Operation *op, Value g, GradientBuilder &gb,
                         Value &gExpanded, Value &yExpanded) {
  Value x = op->getOperand(0), y = op->getResult(0);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  if (!xt)
    return op->emitError("autodiff: a reduction of an unranked tensor");
  int64_t rank = xt.getRank();
  bool keep = getIntAttr(op, "keepdims", 1) != 0;
  bool noop = getIntAttr(op, "noop_with_empty_axes", 0) != 0;
  SmallVector<int64_t> axes;
  bool hasAxes = op->getNumOperands() > 1 &&
                 !isa<NoneType>(op->getOperand(1).getType());
  if (hasAxes) {
    auto known = gb.state.getImpl().getKnownInts(op->getOperand(1));
    if (!known)
      return op->emitError("autodiff: the axes of a reduction must be known "
                           "at compile time to differentiate it");
    axes.assign(known->begin(), known->end());
  } else if (auto a = intsAttr(op, "axes")) {
    axes = *a;
  }
  if (axes.empty() && noop) {
    gExpanded = g;
    yExpanded = y;
    return success();
  }
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  for (int64_t &a : axes)
    a = a < 0 ? a + rank : a;
  llvm::sort(axes);
  Value gk = g, yk = y;
  if (!keep) {
    gk = gb.op("Unsqueeze", {g, gb.i64s(axes)});
    yk = gb.op("Unsqueeze", {y, gb.i64s(axes)});
  }
  Value shape = xt.hasStaticShape() ? gb.i64s(xt.getShape()) : gb.shapeOf(x);
  gExpanded = gb.op("Expand", {gk, shape});
  yExpanded = yk;
  return success();
}

template <Kind kind>
LogicalResult gradReduce(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0);
  Value g, yb;
  if (failed(expandBack(op, dy[0], gb, g, yb)))
    return failure();
  Type et = getElementTypeOrSelf(x.getType());
  Value d;
  switch (kind) {
  case Kind::Sum:
    d = g;
    break;
  case Kind::Mean: {
    // n = elements of x / elements of y (both may be dynamic).
    Value n = gb.div(gb.op("Cast", {gb.op("Size", {x})},
                           {gb.attr("to", (int64_t)1)}),
                     gb.op("Cast", {gb.op("Size", {y})},
                           {gb.attr("to", (int64_t)1)}));
    d = gb.div(g, gb.castLike(n, x));
    break;
  }
  case Kind::SumSquare:
    d = gb.mul(g, gb.mul(gb.scalar(2.0, et), x));
    break;
  case Kind::L1:
    d = gb.mul(g, gb.op("Sign", {x}));
    break;
  case Kind::L2: // x / y, 0 where y = 0 (PyTorch's norm backward)
  {
    Value zero = gb.scalar(0.0, et);
    Value safe = gb.op("Where", {gb.op("Equal", {yb, zero}),
                                 gb.scalar(1.0, et), yb});
    d = gb.op("Where", {gb.op("Equal", {yb, zero}), zero,
                        gb.mul(g, gb.div(x, safe))});
    break;
  }
  case Kind::LogSumExp:
    d = gb.mul(g, gb.op("Exp", {gb.sub(x, yb)}));
    break;
  case Kind::LogSum:
    d = gb.div(g, gb.op("Exp", {yb}));
    break;
  case Kind::MaxMin: {
    Value hit = gb.op("Cast", {gb.op("Equal", {x, yb})},
                      {gb.attr("to", (int64_t)1)});
    hit = gb.castLike(hit, x);
    // The count of ties, reduced like the op and put back.
    Value count = gb.op("ReduceSum",
                        {hit, op->getNumOperands() > 1 ? op->getOperand(1)
                                                       : gb.none()},
                        {gb.attr("keepdims", (int64_t)1),
                         gb.attr("noop_with_empty_axes",
                                 getIntAttr(op, "noop_with_empty_axes", 0))});
    d = gb.div(gb.mul(g, hit), count);
    break;
  }
  }
  accumulate(gb, grads, x, d);
  return success();
}

} // namespace

void autodiff::registerReductionGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.ReduceSum"] = gradReduce<Kind::Sum>;
  rules["onnx.ReduceMean"] = gradReduce<Kind::Mean>;
  rules["onnx.ReduceSumSquare"] = gradReduce<Kind::SumSquare>;
  rules["onnx.ReduceL1"] = gradReduce<Kind::L1>;
  rules["onnx.ReduceL2"] = gradReduce<Kind::L2>;
  rules["onnx.ReduceLogSumExp"] = gradReduce<Kind::LogSumExp>;
  rules["onnx.ReduceLogSum"] = gradReduce<Kind::LogSum>;
  rules["onnx.ReduceMax"] = gradReduce<Kind::MaxMin>;
  rules["onnx.ReduceMin"] = gradReduce<Kind::MaxMin>;
}

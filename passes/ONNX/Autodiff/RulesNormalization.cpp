//===- RulesNormalization.cpp - Gradients of the normalizations -----------===//
//
// With the statistics over the normalized axes (m elements each):
// mu = mean(x), inv = 1 / sqrt(mean((x - mu)^2) + eps), xhat = (x - mu) inv
// and dxhat the gradient of xhat (G times the scale):
//   dx = inv (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
// The statistics are recomputed in the backward (two reductions), or read
// from LayerNormalization's Mean and InvStdDev outputs when it has them.
//   BatchNormalization, training_mode = 1: over all dims but the channels;
//     dscale = sum(G xhat), dB = sum(G) per channel; the running_mean and
//     running_var outputs (input * momentum + batch statistic * (1 -
//     momentum)) pass (1 - momentum) / m and (1 - momentum) 2 (x - mu) / m
//     to x, and momentum to input_mean / input_var (zero without them).
//   BatchNormalization, inference: an affine map per channel with the
//     given mean and var: dX = G scale inv, and scale, B, mean, var get
//     theirs; the running outputs pass the inputs through.
//   LayerNormalization (axis): over [axis, rank); Scale and B broadcast to
//     X's normalized dims (summed back); the Mean and InvStdDev outputs'
//     gradients pass 1/m and -inv^2 xhat / m to x.
//   InstanceNormalization: over the spatial dims, scale and B per channel.
//   GroupNormalization: over [N, groups, C/groups * spatial], scale and
//     bias per channel (opset 21).
//   LpNormalization (p = 1, 2): y = x / |x|_p along axis.
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

Value reduce(GradientBuilder &gb, StringRef name, Value v,
             ArrayRef<int64_t> axes, bool keep = true) {
  return gb.op(name, {v, gb.i64s(axes)}, {gb.attr("keepdims", (int64_t)keep)});
}
Value mean(GradientBuilder &gb, Value v, ArrayRef<int64_t> axes) {
  return reduce(gb, "ReduceMean", v, axes);
}

/// The normalized x and 1 / sqrt(var + eps) over `axes` (kept as 1).
struct Normalized {
  Value mu, inv, xhat;
};
Normalized normalize(GradientBuilder &gb, Value x, ArrayRef<int64_t> axes,
                     double eps) {
  Normalized n;
  n.mu = mean(gb, x, axes);
  Value xc = gb.sub(x, n.mu);
  Value var = mean(gb, gb.mul(xc, xc), axes);
  n.inv = gb.op("Reciprocal",
                {gb.op("Sqrt", {gb.add(var, gb.scalar(eps, eltOf(x)))})});
  n.xhat = gb.mul(xc, n.inv);
  return n;
}

/// dx from dxhat: inv (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
Value normBackward(GradientBuilder &gb, Value dxhat, const Normalized &n,
                   ArrayRef<int64_t> axes) {
  Value t = gb.sub(gb.sub(dxhat, mean(gb, dxhat, axes)),
                   gb.mul(n.xhat, mean(gb, gb.mul(dxhat, n.xhat), axes)));
  return gb.mul(n.inv, t);
}

/// A per-channel [C] tensor shaped [1, C, 1...] for a rank-`rank` input.
Value perChannel(GradientBuilder &gb, Value p, int64_t rank) {
  SmallVector<int64_t> axes{0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  return gb.op("Unsqueeze", {p, gb.i64s(axes)});
}

/// All axes but 1.
SmallVector<int64_t> allButChannels(int64_t rank) {
  SmallVector<int64_t> axes{0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  return axes;
}

/// Elements per statistic: size(x) / size(stat), as x's float type.
Value countOf(GradientBuilder &gb, Value x, Value stat) {
  auto asFloat = [&](Value v) {
    return gb.castLike(
        gb.op("Cast", {gb.op("Size", {v})}, {gb.attr("to", (int64_t)11)}), x);
  };
  return gb.div(asFloat(x), asFloat(stat));
}

LogicalResult gradBatchNorm(Operation *op, ArrayRef<Value> dy,
                            GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), scale = op->getOperand(1),
        bias = op->getOperand(2), inMean = op->getOperand(3),
        inVar = op->getOperand(4);
  auto xt = rankedOf(x);
  if (!xt || xt.getRank() < 2)
    return op->emitError("autodiff: a BatchNormalization of rank < 2");
  int64_t rank = xt.getRank();
  SmallVector<int64_t> axes = allButChannels(rank);
  double eps = floatAttr(op, "epsilon", 1e-5f);
  double momentum = floatAttr(op, "momentum", 0.9f);
  bool training = getIntAttr(op, "training_mode", 0) != 0;
  Type et = eltOf(x);
  Value g = dy[0];
  Value gMean = dy.size() > 1 ? dy[1] : Value();
  Value gVar = dy.size() > 2 ? dy[2] : Value();
  Value scaleB = perChannel(gb, scale, rank);
  Value dx, dscale, dbias;
  if (g) {
    dbias = reduce(gb, "ReduceSum", g, axes, false);
  }
  if (training) {
    Normalized n = normalize(gb, x, axes, eps);
    if (g) {
      dx = normBackward(gb, gb.mul(g, scaleB), n, axes);
      dscale = reduce(gb, "ReduceSum", gb.mul(g, n.xhat), axes, false);
    }
    // The running statistics: input * momentum + batch * (1 - momentum).
    Value m = countOf(gb, x, scale);
    Value rest = gb.scalar(1.0 - momentum, et);
    Value mom = gb.scalar(momentum, et);
    if (gMean) {
      Value d = gb.div(gb.mul(perChannel(gb, gMean, rank), rest), m);
      dx = dx ? gb.add(dx, d) : gb.op("Expand", {d, gb.shapeOf(x)});
      accumulate(gb, grads, inMean, gb.mul(gMean, mom));
    }
    if (gVar) {
      Value d = gb.div(gb.mul(gb.mul(perChannel(gb, gVar, rank), rest),
                              gb.mul(gb.scalar(2.0, et), gb.sub(x, n.mu))),
                       m);
      dx = dx ? gb.add(dx, d) : d;
      accumulate(gb, grads, inVar, gb.mul(gVar, mom));
    }
    // Y does not read input_mean / input_var in training mode.
    if (!gMean)
      accumulate(gb, grads, inMean, gb.filledLike(inMean, 0.0));
    if (!gVar)
      accumulate(gb, grads, inVar, gb.filledLike(inVar, 0.0));
  } else {
    Value inv = gb.op("Reciprocal",
                      {gb.op("Sqrt", {gb.add(inVar, gb.scalar(eps, et))})});
    Value invB = perChannel(gb, inv, rank);
    Value xc = gb.sub(x, perChannel(gb, inMean, rank));
    if (g) {
      dx = gb.mul(g, gb.mul(scaleB, invB));
      dscale = reduce(gb, "ReduceSum", gb.mul(g, gb.mul(xc, invB)), axes,
                      false);
      Value dmean = gb.neg(gb.mul(dbias, gb.mul(scale, inv)));
      Value dvar = gb.mul(reduce(gb, "ReduceSum", gb.mul(g, xc), axes, false),
                          gb.mul(gb.mul(scale, gb.scalar(-0.5, et)),
                                 gb.mul(inv, gb.mul(inv, inv))));
      accumulate(gb, grads, inMean, dmean);
      accumulate(gb, grads, inVar, dvar);
    }
    // The running outputs are the inputs.
    accumulate(gb, grads, inMean, gMean);
    accumulate(gb, grads, inVar, gVar);
  }
  // Only the running statistics reach y: scale and B get zeros.
  if (!dscale)
    dscale = gb.filledLike(scale, 0.0);
  if (!dbias)
    dbias = gb.filledLike(bias, 0.0);
  if (!dx)
    dx = gb.filledLike(x, 0.0);
  accumulate(gb, grads, x, dx);
  accumulate(gb, grads, scale, dscale);
  accumulate(gb, grads, bias, dbias);
  return success();
}

LogicalResult gradLayerNorm(Operation *op, ArrayRef<Value> dy,
                            GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), scale = op->getOperand(1);
  auto xt = rankedOf(x);
  if (!xt)
    return op->emitError("autodiff: a LayerNormalization of unranked X");
  int64_t rank = xt.getRank();
  int64_t axis = getIntAttr(op, "axis", -1);
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> axes;
  for (int64_t i = axis; i < rank; ++i)
    axes.push_back(i);
  double eps = floatAttr(op, "epsilon", 1e-5f);
  Type et = eltOf(x);
  Normalized n;
  if (presentResult(op, 1) && presentResult(op, 2) &&
      eltOf(op->getResult(1)) == et && eltOf(op->getResult(2)) == et) {
    n.mu = op->getResult(1);
    n.inv = op->getResult(2);
    n.xhat = gb.mul(gb.sub(x, n.mu), n.inv);
  } else {
    n = normalize(gb, x, axes, eps);
  }
  Value g = dy[0];
  Value dx;
  if (g) {
    dx = normBackward(gb, gb.mul(g, scale), n, axes);
    accumulate(gb, grads, scale, gb.sumToShapeOf(gb.mul(g, n.xhat), scale));
    if (present(op, 2))
      accumulate(gb, grads, op->getOperand(2),
                 gb.sumToShapeOf(g, op->getOperand(2)));
  } else {
    accumulate(gb, grads, scale, gb.filledLike(scale, 0.0));
    if (present(op, 2))
      accumulate(gb, grads, op->getOperand(2),
                 gb.filledLike(op->getOperand(2), 0.0));
  }
  Value m = countOf(gb, x, n.inv);
  auto add = [&](Value d) {
    d = gb.castLike(d, x);
    dx = dx ? gb.add(dx, d) : gb.op("Expand", {d, gb.shapeOf(x)});
  };
  if (dy.size() > 1 && dy[1]) // Mean
    add(gb.div(dy[1], m));
  if (dy.size() > 2 && dy[2]) // InvStdDev
    add(gb.neg(gb.div(gb.mul(dy[2], gb.mul(n.inv, gb.mul(n.inv, n.xhat))),
                      m)));
  accumulate(gb, grads, x, dx);
  return success();
}

LogicalResult gradInstanceNorm(Operation *op, ArrayRef<Value> dy,
                               GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), scale = op->getOperand(1),
        bias = op->getOperand(2);
  auto xt = rankedOf(x);
  if (!xt || xt.getRank() < 3)
    return op->emitError("autodiff: an InstanceNormalization of rank < 3");
  int64_t rank = xt.getRank();
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  Normalized n = normalize(gb, x, axes, floatAttr(op, "epsilon", 1e-5f));
  Value g = dy[0];
  accumulate(gb, grads, x,
             normBackward(gb, gb.mul(g, perChannel(gb, scale, rank)), n, axes));
  accumulate(gb, grads, scale,
             reduce(gb, "ReduceSum", gb.mul(g, n.xhat), allButChannels(rank),
                    false));
  accumulate(gb, grads, bias,
             reduce(gb, "ReduceSum", g, allButChannels(rank), false));
  return success();
}

LogicalResult gradGroupNorm(Operation *op, ArrayRef<Value> dy,
                            GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), scale = op->getOperand(1),
        bias = op->getOperand(2);
  auto xt = rankedOf(x), st = rankedOf(scale);
  if (!xt || xt.getRank() < 2 || !st)
    return op->emitError("autodiff: a GroupNormalization of rank < 2");
  int64_t rank = xt.getRank();
  int64_t groups = getIntAttr(op, "num_groups", 1);
  if (xt.isDynamicDim(1) || st.isDynamicDim(0) ||
      st.getDimSize(0) != xt.getDimSize(1))
    return op->emitError("autodiff: GroupNormalization needs a static "
                         "channel count and per-channel scale (opset 21)");
  Value shape = xt.hasStaticShape() ? gb.i64s(xt.getShape()) : gb.shapeOf(x);
  Value grouped = gb.i64s({0, groups, -1});
  Normalized n = normalize(gb, gb.op("Reshape", {x, grouped}), {2},
                           floatAttr(op, "epsilon", 1e-5f));
  Value xhat = gb.op("Reshape", {n.xhat, shape});
  Value g = dy[0];
  Value dxhat =
      gb.op("Reshape", {gb.mul(g, perChannel(gb, scale, rank)), grouped});
  accumulate(gb, grads, x,
             gb.op("Reshape", {normBackward(gb, dxhat, n, {2}), shape}));
  accumulate(gb, grads, scale,
             reduce(gb, "ReduceSum", gb.mul(g, xhat), allButChannels(rank),
                    false));
  accumulate(gb, grads, bias,
             reduce(gb, "ReduceSum", g, allButChannels(rank), false));
  return success();
}

/// LpNormalization: y = x / |x|_p. p = 2: dx = (g - y sum(g y)) / |x|;
/// p = 1: dx = g / |x| - sign(x) sum(g x) / |x|^2.
LogicalResult gradLpNorm(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0), g = dy[0];
  int64_t axis = getIntAttr(op, "axis", -1);
  int64_t p = getIntAttr(op, "p", 2);
  Value dx;
  if (p == 2) {
    Value norm = reduce(gb, "ReduceL2", x, {axis});
    dx = gb.div(gb.sub(g, gb.mul(y, reduce(gb, "ReduceSum", gb.mul(g, y),
                                           {axis}))),
                norm);
  } else if (p == 1) {
    Value norm = reduce(gb, "ReduceL1", x, {axis});
    dx = gb.sub(gb.div(g, norm),
                gb.div(gb.mul(gb.op("Sign", {x}),
                              reduce(gb, "ReduceSum", gb.mul(g, x), {axis})),
                       gb.mul(norm, norm)));
  } else {
    return op->emitError("autodiff: LpNormalization with p other than 1, 2");
  }
  accumulate(gb, grads, x, dx);
  return success();
}

} // namespace

void autodiff::registerNormalizationGradients(
    llvm::StringMap<GradientRule> &rules) {
  rules["onnx.BatchNormalization"] = gradBatchNorm;
  rules["onnx.LayerNormalization"] = gradLayerNorm;
  rules["onnx.InstanceNormalization"] = gradInstanceNorm;
  rules["onnx.GroupNormalization"] = gradGroupNorm;
  rules["onnx.LpNormalization"] = gradLpNorm;
}

//===- RulesElementwise.cpp - Gradients of elementwise ops ----------------===//
//
// With g the gradient of the result y = f(a, b, ...), each input gets
// g * df/dinput, summed back over the dims broadcasting stretched
// (sumToShapeOf). Where the derivative is not defined (Abs, Relu at 0), the
// rule takes the value PyTorch takes (0). Piecewise-constant ops (Sign,
// Floor, Ceil, Round) get an explicit zero gradient.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

/// grads[input k] = sumToShapeOf(g, input k) for a binary broadcasting op.
void give(GradientBuilder &gb, InputGrads &grads, Operation *op, unsigned k,
          Value g) {
  if (g)
    accumulate(gb, grads, op->getOperand(k),
               gb.sumToShapeOf(g, op->getOperand(k)));
}

LogicalResult gradAdd(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  give(gb, grads, op, 0, dy[0]);
  give(gb, grads, op, 1, dy[0]);
  return success();
}

LogicalResult gradSub(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  give(gb, grads, op, 0, dy[0]);
  give(gb, grads, op, 1, gb.neg(dy[0]));
  return success();
}

LogicalResult gradMul(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  Value a = op->getOperand(0), c = op->getOperand(1);
  give(gb, grads, op, 0, gb.mul(dy[0], c));
  give(gb, grads, op, 1, gb.mul(dy[0], a));
  return success();
}

/// y = a / c: da = g / c, dc = -g * y / c.
LogicalResult gradDiv(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  Value c = op->getOperand(1), y = op->getResult(0);
  give(gb, grads, op, 0, gb.div(dy[0], c));
  give(gb, grads, op, 1, gb.neg(gb.div(gb.mul(dy[0], y), c)));
  return success();
}

/// y = a ^ c: da = g * c * a^(c-1), dc = g * y * ln(a) (where a > 0; 0
/// elsewhere, as PyTorch for a = 0).
LogicalResult gradPow(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  Value a = op->getOperand(0), c = op->getOperand(1), y = op->getResult(0);
  Type et = eltOf(a);
  Value cc = gb.castLike(c, a);
  Value one = gb.scalar(1.0, et);
  Value da = gb.mul(dy[0], gb.mul(cc, gb.op("Pow", {a, gb.sub(cc, one)})));
  give(gb, grads, op, 0, da);
  if (isa<FloatType>(eltOf(c))) {
    Value zero = gb.scalar(0.0, et);
    Value positive = gb.op("Greater", {a, zero});
    Value safe = gb.op("Where", {positive, a, one});
    Value dc = gb.op("Where", {positive, gb.mul(gb.mul(dy[0], y),
                                                gb.op("Log", {safe})),
                               zero});
    give(gb, grads, op, 1, gb.castLike(dc, c));
  }
  return success();
}

/// Unary ops: grads[x] = g * d(x, y), d built by `deriv`.
template <Value (*deriv)(GradientBuilder &, Operation *, Value, Value)>
LogicalResult unary(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                    InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0);
  Value d = deriv(gb, op, x, y);
  accumulate(gb, grads, x, d ? gb.mul(dy[0], d) : Value());
  return success();
}

/// d/dx of each unary op, from its input x and output y.
Value dNeg(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.scalar(-1.0, eltOf(x));
}
Value dIdentity(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.scalar(1.0, eltOf(x));
}
Value dAbs(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Sign", {x});
}
Value dExp(GradientBuilder &, Operation *, Value, Value y) { return y; }
Value dLog(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal", {x});
}
/// sqrt: 0.5 / y.
Value dSqrt(GradientBuilder &gb, Operation *, Value x, Value y) {
  return gb.div(gb.scalar(0.5, eltOf(x)), y);
}
/// 1/x: -y^2.
Value dReciprocal(GradientBuilder &gb, Operation *, Value, Value y) {
  return gb.neg(gb.mul(y, y));
}
/// tanh: 1 - y^2.
Value dTanh(GradientBuilder &gb, Operation *, Value x, Value y) {
  return gb.sub(gb.scalar(1.0, eltOf(x)), gb.mul(y, y));
}
/// sigmoid: y (1 - y).
Value dSigmoid(GradientBuilder &gb, Operation *, Value x, Value y) {
  return gb.mul(y, gb.sub(gb.scalar(1.0, eltOf(x)), y));
}
/// relu: 1 where x > 0.
Value dRelu(GradientBuilder &gb, Operation *, Value x, Value) {
  Type et = eltOf(x);
  return gb.op("Where", {gb.op("Greater", {x, gb.scalar(0.0, et)}),
                         gb.scalar(1.0, et), gb.scalar(0.0, et)});
}
/// leaky relu: 1 where x > 0, alpha elsewhere.
Value dLeakyRelu(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  return gb.op("Where", {gb.op("Greater", {x, gb.scalar(0.0, et)}),
                         gb.scalar(1.0, et),
                         gb.scalar(floatAttr(op, "alpha", 0.01f), et)});
}
/// elu: 1 where x > 0, y + alpha elsewhere.
Value dElu(GradientBuilder &gb, Operation *op, Value x, Value y) {
  Type et = eltOf(x);
  return gb.op("Where",
               {gb.op("Greater", {x, gb.scalar(0.0, et)}), gb.scalar(1.0, et),
                gb.add(y, gb.scalar(floatAttr(op, "alpha", 1.0f), et))});
}
/// selu: gamma where x > 0, y + gamma alpha elsewhere.
Value dSelu(GradientBuilder &gb, Operation *op, Value x, Value y) {
  Type et = eltOf(x);
  double alpha = floatAttr(op, "alpha", 1.67326319217681884765625f);
  double gamma = floatAttr(op, "gamma", 1.05070102214813232421875f);
  return gb.op("Where",
               {gb.op("Greater", {x, gb.scalar(0.0, et)}), gb.scalar(gamma, et),
                gb.add(y, gb.scalar(gamma * alpha, et))});
}
/// softplus: sigmoid(x).
Value dSoftplus(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Sigmoid", {x});
}
/// hard sigmoid: alpha where 0 < alpha x + beta < 1.
Value dHardSigmoid(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  double alpha = floatAttr(op, "alpha", 0.2f);
  double beta = floatAttr(op, "beta", 0.5f);
  Value t = gb.add(gb.mul(x, gb.scalar(alpha, et)), gb.scalar(beta, et));
  Value inside = gb.op("And", {gb.op("Greater", {t, gb.scalar(0.0, et)}),
                               gb.op("Less", {t, gb.scalar(1.0, et)})});
  return gb.op("Where", {inside, gb.scalar(alpha, et), gb.scalar(0.0, et)});
}
/// erf: 2/sqrt(pi) exp(-x^2).
Value dErf(GradientBuilder &gb, Operation *, Value x, Value) {
  Type et = eltOf(x);
  return gb.mul(gb.scalar(2.0 / std::sqrt(M_PI), et),
                gb.op("Exp", {gb.neg(gb.mul(x, x))}));
}
/// gelu, exact: Phi(x) + x phi(x); tanh approximation: with
/// u = sqrt(2/pi) (x + 0.044715 x^3), t = tanh(u):
/// 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2).
Value dGelu(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  auto approx = op->getAttrOfType<StringAttr>("approximate");
  Value half = gb.scalar(0.5, et), one = gb.scalar(1.0, et);
  if (approx && approx.getValue() == "tanh") {
    double k = std::sqrt(2.0 / M_PI);
    Value x2 = gb.mul(x, x);
    Value u = gb.mul(gb.scalar(k, et),
                     gb.add(x, gb.mul(gb.scalar(0.044715, et), gb.mul(x2, x))));
    Value t = gb.op("Tanh", {u});
    Value du = gb.mul(gb.scalar(k, et),
                      gb.add(one, gb.mul(gb.scalar(3 * 0.044715, et), x2)));
    return gb.add(gb.mul(half, gb.add(one, t)),
                  gb.mul(gb.mul(half, x),
                         gb.mul(gb.sub(one, gb.mul(t, t)), du)));
  }
  Value cdf = gb.mul(half, gb.add(one, gb.op("Erf", {gb.mul(
                                           x, gb.scalar(M_SQRT1_2, et))})));
  Value pdf = gb.mul(gb.scalar(1.0 / std::sqrt(2.0 * M_PI), et),
                     gb.op("Exp", {gb.mul(gb.scalar(-0.5, et), gb.mul(x, x))}));
  return gb.add(cdf, gb.mul(x, pdf));
}

/// Trigonometric and hyperbolic functions and their inverses.
Value dSin(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Cos", {x});
}
Value dCos(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.neg(gb.op("Sin", {x}));
}
/// tan: 1 + y^2.
Value dTan(GradientBuilder &gb, Operation *, Value x, Value y) {
  return gb.add(gb.scalar(1.0, eltOf(x)), gb.mul(y, y));
}
/// asin: 1 / sqrt(1 - x^2); acos: the negation.
Value dAsin(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal",
               {gb.op("Sqrt", {gb.sub(gb.scalar(1.0, eltOf(x)), gb.mul(x, x))})});
}
Value dAcos(GradientBuilder &gb, Operation *op, Value x, Value y) {
  return gb.neg(dAsin(gb, op, x, y));
}
/// atan: 1 / (1 + x^2).
Value dAtan(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal", {gb.add(gb.scalar(1.0, eltOf(x)), gb.mul(x, x))});
}
Value dSinh(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Cosh", {x});
}
Value dCosh(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Sinh", {x});
}
/// asinh: 1 / sqrt(x^2 + 1); acosh: 1 / sqrt(x^2 - 1).
Value dAsinh(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal",
               {gb.op("Sqrt", {gb.add(gb.mul(x, x), gb.scalar(1.0, eltOf(x)))})});
}
Value dAcosh(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal",
               {gb.op("Sqrt", {gb.sub(gb.mul(x, x), gb.scalar(1.0, eltOf(x)))})});
}
/// atanh: 1 / (1 - x^2).
Value dAtanh(GradientBuilder &gb, Operation *, Value x, Value) {
  return gb.op("Reciprocal", {gb.sub(gb.scalar(1.0, eltOf(x)), gb.mul(x, x))});
}
/// softsign x / (1 + |x|): 1 / (1 + |x|)^2.
Value dSoftsign(GradientBuilder &gb, Operation *, Value x, Value) {
  Value d = gb.add(gb.scalar(1.0, eltOf(x)), gb.op("Abs", {x}));
  return gb.op("Reciprocal", {gb.mul(d, d)});
}
/// mish x tanh(softplus(x)): t + x sigmoid(x) (1 - t^2), t = tanh(softplus(x)).
Value dMish(GradientBuilder &gb, Operation *, Value x, Value) {
  Value t = gb.op("Tanh", {gb.op("Softplus", {x})});
  Value one = gb.scalar(1.0, eltOf(x));
  return gb.add(t, gb.mul(gb.mul(x, gb.op("Sigmoid", {x})),
                          gb.sub(one, gb.mul(t, t))));
}
/// hard swish x max(0, min(1, x/6 + 1/2)): 0 below -3, 1 above 3,
/// x/3 + 1/2 between.
Value dHardSwish(GradientBuilder &gb, Operation *, Value x, Value) {
  Type et = eltOf(x);
  Value mid = gb.add(gb.mul(x, gb.scalar(1.0 / 3.0, et)), gb.scalar(0.5, et));
  Value hi = gb.op("Where", {gb.op("Greater", {x, gb.scalar(3.0, et)}),
                             gb.scalar(1.0, et), mid});
  return gb.op("Where", {gb.op("Less", {x, gb.scalar(-3.0, et)}),
                         gb.scalar(0.0, et), hi});
}
/// thresholded relu: 1 where x > alpha.
Value dThresholdedRelu(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  return gb.op("Where",
               {gb.op("Greater", {x, gb.scalar(floatAttr(op, "alpha", 1.0f), et)}),
                gb.scalar(1.0, et), gb.scalar(0.0, et)});
}
/// celu max(0, x) + min(0, alpha (exp(x / alpha) - 1)): 1 where x > 0,
/// exp(x / alpha) elsewhere.
Value dCelu(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  double alpha = floatAttr(op, "alpha", 1.0f);
  return gb.op("Where", {gb.op("Greater", {x, gb.scalar(0.0, et)}),
                         gb.scalar(1.0, et),
                         gb.op("Exp", {gb.mul(x, gb.scalar(1.0 / alpha, et))})});
}
/// shrink: 1 where x < -lambd or x > lambd, 0 between.
Value dShrink(GradientBuilder &gb, Operation *op, Value x, Value) {
  Type et = eltOf(x);
  double lambd = floatAttr(op, "lambd", 0.5f);
  Value out = gb.op("Or", {gb.op("Less", {x, gb.scalar(-lambd, et)}),
                           gb.op("Greater", {x, gb.scalar(lambd, et)})});
  return gb.op("Where", {out, gb.scalar(1.0, et), gb.scalar(0.0, et)});
}

/// Piecewise-constant ops (Sign, Floor, Ceil, Round): the derivative is 0
/// wherever it exists; an explicit zero gradient, so that the path is not
/// an error.
LogicalResult gradZero(Operation *op, ArrayRef<Value>, GradientBuilder &gb,
                       InputGrads &grads) {
  Value x = op->getOperand(0);
  accumulate(gb, grads, x, gb.filledLike(x, 0.0));
  return success();
}

/// PRelu(x, slope), slope broadcast to x: dx = g where x > 0, g slope
/// elsewhere; dslope = g x where x <= 0, summed to slope's shape.
LogicalResult gradPRelu(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  Value x = op->getOperand(0), slope = op->getOperand(1);
  Type et = eltOf(x);
  Value zero = gb.scalar(0.0, et);
  Value pos = gb.op("Greater", {x, zero});
  accumulate(gb, grads, x,
             gb.sumToShapeOf(gb.mul(dy[0], gb.op("Where", {pos, gb.scalar(1.0, et),
                                                          slope})),
                             x));
  give(gb, grads, op, 1, gb.op("Where", {pos, zero, gb.mul(dy[0], x)}));
  return success();
}

/// Cast between float types: the gradient cast back.
LogicalResult gradCast(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value x = op->getOperand(0);
  if (!isa<FloatType>(eltOf(x)))
    return success(); // not differentiable; Autodiff checks it is not needed
  accumulate(gb, grads, x, gb.castLike(dy[0], x));
  return success();
}

/// CastLike(x, like): the gradient cast back to x's type; `like` only
/// gives a type (zeros).
LogicalResult gradCastLike(Operation *op, ArrayRef<Value> dy,
                           GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), like = op->getOperand(1);
  if (isa<FloatType>(eltOf(x)))
    accumulate(gb, grads, x, gb.castLike(dy[0], x));
  if (isa<FloatType>(eltOf(like)))
    accumulate(gb, grads, like, gb.filledLike(like, 0.0));
  return success();
}

/// Ops whose result reads only the shape and type of their float input
/// (RandomUniformLike, RandomNormalLike, EyeLike): a zero gradient.
LogicalResult gradShapeOnly(Operation *op, ArrayRef<Value>,
                            GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  if (isa<FloatType>(eltOf(x)))
    accumulate(gb, grads, x, gb.filledLike(x, 0.0));
  return success();
}

/// Clip(x, min, max): g where min <= x <= max (PyTorch's convention at the
/// bounds); min and max get the gradient where they clamp.
LogicalResult gradClip(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value x = op->getOperand(0);
  Type et = eltOf(x);
  Value zero = gb.scalar(0.0, et);
  Value pass = nullptr;
  auto present = [&](unsigned k) {
    return op->getNumOperands() > k && !isa<NoneType>(op->getOperand(k).getType());
  };
  if (present(1)) {
    Value lo = op->getOperand(1);
    Value below = gb.op("Less", {x, lo});
    accumulate(gb, grads, lo,
               gb.sumToShapeOf(gb.op("Where", {below, dy[0], zero}), lo));
    pass = gb.op("Not", {below});
  }
  if (present(2)) {
    Value hi = op->getOperand(2);
    Value above = gb.op("Greater", {x, hi});
    accumulate(gb, grads, hi,
               gb.sumToShapeOf(gb.op("Where", {above, dy[0], zero}), hi));
    Value notAbove = gb.op("Not", {above});
    pass = pass ? gb.op("And", {pass, notAbove}) : notAbove;
  }
  accumulate(gb, grads, x, pass ? gb.op("Where", {pass, dy[0], zero}) : dy[0]);
  return success();
}

/// Min / Max (variadic): the gradient goes to the inputs equal to the
/// result, split evenly between ties (PyTorch's rule for two inputs).
LogicalResult gradMinMax(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value y = op->getResult(0);
  Type et = eltOf(y);
  Value zero = gb.scalar(0.0, et), one = gb.scalar(1.0, et);
  Value count = nullptr;
  SmallVector<Value> hits;
  for (Value in : op->getOperands()) {
    Value hit = gb.op("Where", {gb.op("Equal", {in, y}), one, zero});
    hits.push_back(hit);
    count = count ? gb.add(count, hit) : hit;
  }
  Value share = gb.div(dy[0], count);
  for (auto [k, in] : llvm::enumerate(op->getOperands()))
    give(gb, grads, op, k, gb.mul(share, hits[k]));
  return success();
}

/// Where(c, a, b): g to a where c, to b elsewhere.
LogicalResult gradWhere(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  Value c = op->getOperand(0);
  Value zero = gb.scalar(0.0, eltOf(op->getResult(0)));
  give(gb, grads, op, 1, gb.op("Where", {c, dy[0], zero}));
  give(gb, grads, op, 2, gb.op("Where", {c, zero, dy[0]}));
  return success();
}

/// Sum (variadic): g to each input.
LogicalResult gradSum(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  for (unsigned k = 0; k < op->getNumOperands(); ++k)
    give(gb, grads, op, k, dy[0]);
  return success();
}

/// Mean (variadic): g / n to each input.
LogicalResult gradMean(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value share = gb.div(dy[0], gb.scalar((double)op->getNumOperands(),
                                        eltOf(op->getResult(0))));
  for (unsigned k = 0; k < op->getNumOperands(); ++k)
    give(gb, grads, op, k, share);
  return success();
}

} // namespace

void autodiff::registerElementwiseGradients(
    llvm::StringMap<GradientRule> &rules) {
  rules["onnx.Add"] = gradAdd;
  rules["onnx.Sub"] = gradSub;
  rules["onnx.Mul"] = gradMul;
  rules["onnx.Div"] = gradDiv;
  rules["onnx.Pow"] = gradPow;
  rules["onnx.Neg"] = unary<dNeg>;
  rules["onnx.Identity"] = unary<dIdentity>;
  rules["onnx.Abs"] = unary<dAbs>;
  rules["onnx.Exp"] = unary<dExp>;
  rules["onnx.Log"] = unary<dLog>;
  rules["onnx.Sqrt"] = unary<dSqrt>;
  rules["onnx.Reciprocal"] = unary<dReciprocal>;
  rules["onnx.Tanh"] = unary<dTanh>;
  rules["onnx.Sigmoid"] = unary<dSigmoid>;
  rules["onnx.Relu"] = unary<dRelu>;
  rules["onnx.LeakyRelu"] = unary<dLeakyRelu>;
  rules["onnx.Elu"] = unary<dElu>;
  rules["onnx.Selu"] = unary<dSelu>;
  rules["onnx.Softplus"] = unary<dSoftplus>;
  rules["onnx.HardSigmoid"] = unary<dHardSigmoid>;
  rules["onnx.Erf"] = unary<dErf>;
  rules["onnx.Gelu"] = unary<dGelu>;
  rules["onnx.Sin"] = unary<dSin>;
  rules["onnx.Cos"] = unary<dCos>;
  rules["onnx.Tan"] = unary<dTan>;
  rules["onnx.Asin"] = unary<dAsin>;
  rules["onnx.Acos"] = unary<dAcos>;
  rules["onnx.Atan"] = unary<dAtan>;
  rules["onnx.Sinh"] = unary<dSinh>;
  rules["onnx.Cosh"] = unary<dCosh>;
  rules["onnx.Asinh"] = unary<dAsinh>;
  rules["onnx.Acosh"] = unary<dAcosh>;
  rules["onnx.Atanh"] = unary<dAtanh>;
  rules["onnx.Softsign"] = unary<dSoftsign>;
  rules["onnx.Mish"] = unary<dMish>;
  rules["onnx.HardSwish"] = unary<dHardSwish>;
  rules["onnx.ThresholdedRelu"] = unary<dThresholdedRelu>;
  rules["onnx.Celu"] = unary<dCelu>;
  rules["onnx.Shrink"] = unary<dShrink>;
  rules["onnx.PRelu"] = gradPRelu;
  for (StringRef n : {"onnx.Sign", "onnx.Floor", "onnx.Ceil", "onnx.Round"})
    rules[n] = gradZero;
  rules["onnx.Cast"] = gradCast;
  rules["onnx.CastLike"] = gradCastLike;
  for (StringRef n : {"onnx.RandomUniformLike", "onnx.RandomNormalLike",
                      "onnx.EyeLike"})
    rules[n] = gradShapeOnly;
  rules["onnx.Clip"] = gradClip;
  rules["onnx.Min"] = gradMinMax;
  rules["onnx.Max"] = gradMinMax;
  rules["onnx.Where"] = gradWhere;
  rules["onnx.Sum"] = gradSum;
  rules["onnx.Mean"] = gradMean;
}

//===- MathUnary.cpp - The math category's unary elementwise ops ----------===//
//
// Abs, Neg, the math functions, Reciprocal, Sign and the activations (Relu,
// Sigmoid, ..., Gelu): ops of onnx/defs/math, each one linalg.generic whose
// body this file builds per element (Elementwise.h). Transcendental
// functions on f16/bf16 are computed in f32 (libm and the math
// approximations have no half variants) and rounded back. The unary ops of
// the other categories: Logical.cpp (Not, BitwiseNot), TensorElementwise.cpp
// (Cast, CastLike, IsNaN, IsInf), Shrink.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

using Builder1 = std::function<Value(OpBuilder &, Location, Value)>;

/// Applies `fn` to `x`, in f32 when `x` is a half type.
Value inF32(ScalarContext &c, Value x, const Builder1 &fn) {
  Type t = x.getType();
  if (!t.isF16() && !t.isBF16())
    return fn(c.b, c.loc, x);
  Value wide = arith::ExtFOp::create(c.b, c.loc, c.b.getF32Type(), x);
  return arith::TruncFOp::create(c.b, c.loc, t, fn(c.b, c.loc, wide));
}

/// A float-only unary op built by `fn` (in f32 for half types).
ScalarFn floatFn(Builder1 fn) {
  return [fn](ScalarContext &c) { return inF32(c, c.args[0], fn); };
}

template <typename MathOp> ScalarFn mathFn() {
  return floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
    return MathOp::create(b, loc, x);
  });
}

using arith::CmpFPredicate;
using arith::CmpIPredicate;

/// log(1 + exp(x)) without overflow: max(x, 0) + log1p(exp(-|x|)).
Value softplus(OpBuilder &b, Location loc, Value x) {
  Value zero = cst(b, loc, x, 0);
  Value ax = math::AbsFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, ax));
  Value l = math::Log1pOp::create(b, loc, e);
  return arith::AddFOp::create(b, loc,
                               arith::MaximumFOp::create(b, loc, x, zero), l);
}

/// Registers the elementwise lowering of each unary op, by op name, in
/// groups.
struct UnaryPatterns : ElementwisePatterns {
  /// Abs, Neg, the math functions, Reciprocal, Sign.
  void addArithmetic();
  /// Relu, Sigmoid, Softplus, Softsign.
  void addActivations();
  /// LeakyRelu, Elu, Selu, Celu, ThresholdedRelu.
  void addRectifiers();
  /// HardSigmoid, HardSwish, Mish, Swish, Gelu.
  void addShapedActivations();
};

} // namespace

void UnaryPatterns::addArithmetic() {
  // Abs: |x|; unsigned values are their own absolute value.
  add(ONNX::AbsOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value x = c.args[0];
    if (isFloat(x.getType()))
      return math::AbsFOp::create(c.b, c.loc, x);
    if (isUnsignedInt(c.onnxTypes[0]))
      return x;
    return math::AbsIOp::create(c.b, c.loc, x);
  });
  // Neg: -x (integers wrap).
  add(ONNX::NegOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value x = c.args[0];
    if (isFloat(x.getType()))
      return arith::NegFOp::create(c.b, c.loc, x);
    return arith::SubIOp::create(c.b, c.loc, cst(c.b, c.loc, x, 0), x);
  });
  add(ONNX::ExpOp::getOperationName(), mathFn<math::ExpOp>());
  add(ONNX::LogOp::getOperationName(), mathFn<math::LogOp>());
  add(ONNX::SqrtOp::getOperationName(), mathFn<math::SqrtOp>());
  add(ONNX::FloorOp::getOperationName(), mathFn<math::FloorOp>());
  add(ONNX::CeilOp::getOperationName(), mathFn<math::CeilOp>());
  // Round: to nearest, halves to even.
  add(ONNX::RoundOp::getOperationName(), mathFn<math::RoundEvenOp>());
  add(ONNX::TanhOp::getOperationName(), mathFn<math::TanhOp>());
  add(ONNX::SinOp::getOperationName(), mathFn<math::SinOp>());
  add(ONNX::CosOp::getOperationName(), mathFn<math::CosOp>());
  add(ONNX::TanOp::getOperationName(), mathFn<math::TanOp>());
  add(ONNX::AsinOp::getOperationName(), mathFn<math::AsinOp>());
  add(ONNX::AcosOp::getOperationName(), mathFn<math::AcosOp>());
  add(ONNX::AtanOp::getOperationName(), mathFn<math::AtanOp>());
  add(ONNX::SinhOp::getOperationName(), mathFn<math::SinhOp>());
  add(ONNX::CoshOp::getOperationName(), mathFn<math::CoshOp>());
  add(ONNX::AsinhOp::getOperationName(), mathFn<math::AsinhOp>());
  add(ONNX::AcoshOp::getOperationName(), mathFn<math::AcoshOp>());
  add(ONNX::AtanhOp::getOperationName(), mathFn<math::AtanhOp>());
  add(ONNX::ErfOp::getOperationName(), mathFn<math::ErfOp>());
  // Reciprocal: 1 / x.
  add(ONNX::ReciprocalOp::getOperationName(),
      floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
        return arith::DivFOp::create(b, loc, cst(b, loc, x, 1), x);
      }));
  // Sign: -1, 0 or 1 (NaN stays NaN); unsigned: 0 or 1.
  add(ONNX::SignOp::getOperationName(), [](ScalarContext &c) -> Value {
    OpBuilder &b = c.b;
    Location loc = c.loc;
    Value x = c.args[0];
    Value zero = cst(b, loc, x, 0), one = cst(b, loc, x, 1),
          mone = cst(b, loc, x, -1);
    if (isFloat(x.getType())) {
      Value r =
          select(b, loc, cmpF(b, loc, CmpFPredicate::OGT, x, zero), one, zero);
      r = select(b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, zero), mone, r);
      return select(b, loc, cmpF(b, loc, CmpFPredicate::UNO, x, x), x, r);
    }
    Value ne = arith::CmpIOp::create(b, loc, CmpIPredicate::ne, x, zero);
    Value r = select(b, loc, ne, one, zero);
    if (isUnsignedInt(c.onnxTypes[0]))
      return r;
    Value lt = arith::CmpIOp::create(b, loc, CmpIPredicate::slt, x, zero);
    return select(b, loc, lt, mone, r);
  });
}

void UnaryPatterns::addActivations() {
  // Relu: max(x, 0) (NaN propagates).
  add(ONNX::ReluOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value x = c.args[0];
    Value zero = cst(c.b, c.loc, x, 0);
    if (isFloat(x.getType()))
      return arith::MaximumFOp::create(c.b, c.loc, x, zero);
    return arith::MaxSIOp::create(c.b, c.loc, x, zero);
  });
  // Sigmoid: 1 / (1 + exp(-x)).
  add(ONNX::SigmoidOp::getOperationName(),
      floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
        Value one = cst(b, loc, x, 1);
        Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
        return arith::DivFOp::create(b, loc, one,
                                     arith::AddFOp::create(b, loc, one, e));
      }));
  // Softplus: log(exp(x) + 1).
  add(ONNX::SoftplusOp::getOperationName(), floatFn(softplus));
  // Softsign: x / (1 + |x|).
  add(ONNX::SoftsignOp::getOperationName(),
      floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
        Value d = arith::AddFOp::create(b, loc, cst(b, loc, x, 1),
                                        math::AbsFOp::create(b, loc, x));
        return arith::DivFOp::create(b, loc, x, d);
      }));
}

void UnaryPatterns::addRectifiers() {
  // LeakyRelu: x < 0 ? alpha * x : x.
  add(ONNX::LeakyReluOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 0.01);
    return inF32(c, c.args[0], [alpha](OpBuilder &b, Location loc, Value x) {
      Value zero = cst(b, loc, x, 0);
      Value ax = arith::MulFOp::create(b, loc, cst(b, loc, x, alpha), x);
      return select(b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, zero), ax, x);
    });
  });
  // Elu: x < 0 ? alpha * (exp(x) - 1) : x.
  add(ONNX::EluOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 1.0);
    return inF32(c, c.args[0], [alpha](OpBuilder &b, Location loc, Value x) {
      Value zero = cst(b, loc, x, 0);
      Value em1 = math::ExpM1Op::create(b, loc, x);
      Value neg = arith::MulFOp::create(b, loc, cst(b, loc, x, alpha), em1);
      return select(b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, zero), neg, x);
    });
  });
  // Selu: x <= 0 ? gamma * (alpha * exp(x) - alpha) : gamma * x.
  add(ONNX::SeluOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 1.67326319217681884765625);
    double gamma = floatAttr(c.op, "gamma", 1.05070102214813232421875);
    return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
      Value zero = cst(b, loc, x, 0);
      Value a = cst(b, loc, x, alpha), g = cst(b, loc, x, gamma);
      Value neg = arith::SubFOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, a, math::ExpOp::create(b, loc, x)), a);
      Value r =
          select(b, loc, cmpF(b, loc, CmpFPredicate::OLE, x, zero), neg, x);
      return arith::MulFOp::create(b, loc, g, r);
    });
  });
  // Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
  add(ONNX::CeluOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 1.0);
    return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
      Value zero = cst(b, loc, x, 0), a = cst(b, loc, x, alpha);
      Value e =
          math::ExpM1Op::create(b, loc, arith::DivFOp::create(b, loc, x, a));
      Value neg = arith::MinimumFOp::create(
          b, loc, zero, arith::MulFOp::create(b, loc, a, e));
      return arith::AddFOp::create(
          b, loc, arith::MaximumFOp::create(b, loc, zero, x), neg);
    });
  });
  // ThresholdedRelu: x > alpha ? x : 0.
  add(ONNX::ThresholdedReluOp::getOperationName(),
      [](ScalarContext &c) -> Value {
        double alpha = floatAttr(c.op, "alpha", 1.0);
        return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
          return select(
              b, loc,
              cmpF(b, loc, CmpFPredicate::OGT, x, cst(b, loc, x, alpha)), x,
              cst(b, loc, x, 0));
        });
      });
}

void UnaryPatterns::addShapedActivations() {
  // HardSigmoid: max(0, min(1, alpha * x + beta)).
  add(ONNX::HardSigmoidOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 0.2),
           beta = floatAttr(c.op, "beta", 0.5);
    return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
      Value v = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, cst(b, loc, x, alpha), x),
          cst(b, loc, x, beta));
      v = arith::MinimumFOp::create(b, loc, cst(b, loc, x, 1), v);
      return arith::MaximumFOp::create(b, loc, cst(b, loc, x, 0), v);
    });
  });
  // HardSwish: x * max(0, min(1, x / 6 + 0.5)).
  add(ONNX::HardSwishOp::getOperationName(),
      floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
        Value v = arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, cst(b, loc, x, 1.0 / 6), x),
            cst(b, loc, x, 0.5));
        v = arith::MinimumFOp::create(b, loc, cst(b, loc, x, 1), v);
        v = arith::MaximumFOp::create(b, loc, cst(b, loc, x, 0), v);
        return arith::MulFOp::create(b, loc, x, v);
      }));
  // Mish: x * tanh(softplus(x)).
  add(ONNX::MishOp::getOperationName(),
      floatFn([](OpBuilder &b, Location loc, Value x) -> Value {
        return arith::MulFOp::create(
            b, loc, x, math::TanhOp::create(b, loc, softplus(b, loc, x)));
      }));
  // Swish: x * sigmoid(alpha * x) = x / (1 + exp(-alpha * x)).
  add(ONNX::SwishOp::getOperationName(), [](ScalarContext &c) -> Value {
    double alpha = floatAttr(c.op, "alpha", 1.0);
    return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
      Value one = cst(b, loc, x, 1);
      Value ax = arith::MulFOp::create(b, loc, cst(b, loc, x, alpha), x);
      Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, ax));
      return arith::DivFOp::create(b, loc, x,
                                   arith::AddFOp::create(b, loc, one, e));
    });
  });
  // Gelu: 0.5 x (1 + erf(x / sqrt 2)); approximate = "tanh":
  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
  add(
      ONNX::GeluOp::getOperationName(),
      [](ScalarContext &c) -> Value {
        bool useTanh = cast<ONNX::GeluOp>(c.op).getApproximate() == "tanh";
        return inF32(c, c.args[0], [=](OpBuilder &b, Location loc, Value x) {
          Value inner;
          if (useTanh) {
            Value x3 = arith::MulFOp::create(
                b, loc, x, arith::MulFOp::create(b, loc, x, x));
            Value s = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(b, loc, cst(b, loc, x, 0.044715), x3));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, cst(b, loc, x, std::sqrt(2.0 / M_PI)), s));
          } else {
            inner = math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, x, cst(b, loc, x, M_SQRT1_2)));
          }
          Value one = cst(b, loc, x, 1), half = cst(b, loc, x, 0.5);
          return arith::MulFOp::create(
              b, loc, arith::MulFOp::create(b, loc, half, x),
              arith::AddFOp::create(b, loc, one, inner));
        });
      },
      [](Operation *op) -> LogicalResult {
        StringRef a = cast<ONNX::GeluOp>(op).getApproximate();
        if (a != "none" && a != "tanh")
          return op->emitOpError("approximate '") << a << "' is not supported";
        return success();
      });
}

void mlir::onnxc::populateMathUnaryPatterns(TypeConverter &tc,
                                            RewritePatternSet &patterns) {
  UnaryPatterns p{{tc, patterns}};
  p.addArithmetic();
  p.addActivations();
  p.addRectifiers();
  p.addShapedActivations();
}

//===- RecurrentActivations.cpp - RNN/GRU/LSTM activations ----------------===//
//
// The activations of RNN, GRU and LSTM (RecurrentActivations.h) built as
// scalar IR; dialects/ONNX/IR/RecurrentActivations parses them.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/RecurrentActivations.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// 1 / (1 + exp(-x)).
Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = cst(b, loc, x, 1);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

} // namespace

/// The activation `a` of the float scalar `x`.
Value linalg_conv::applyActivation(OpBuilder &b, Location loc, const Activation &a,
                      Value x) {
  using arith::CmpFPredicate;
  auto zero = [&] { return cst(b, loc, x, 0); };
  auto alpha = [&] { return cst(b, loc, x, a.alpha); };
  auto beta = [&] { return cst(b, loc, x, a.beta); };
  switch (a.kind) {
  case ActKind::Relu:
    return arith::MaximumFOp::create(b, loc, x, zero());
  case ActKind::Tanh:
    return math::TanhOp::create(b, loc, x);
  case ActKind::Sigmoid:
    return sigmoid(b, loc, x);
  case ActKind::Affine:
    return arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, alpha(), x), beta());
  case ActKind::LeakyRelu:
    return arith::SelectOp::create(
        b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, zero()),
        arith::MulFOp::create(b, loc, alpha(), x), x);
  case ActKind::ThresholdedRelu:
    return arith::SelectOp::create(
        b, loc, cmpF(b, loc, CmpFPredicate::OGT, x, alpha()), x, zero());
  case ActKind::ScaledTanh:
    return arith::MulFOp::create(
        b, loc, alpha(),
        math::TanhOp::create(b, loc, arith::MulFOp::create(b, loc, beta(), x)));
  case ActKind::HardSigmoid: {
    Value v = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, alpha(), x), beta());
    v = arith::MinimumFOp::create(b, loc, cst(b, loc, x, 1), v);
    return arith::MaximumFOp::create(b, loc, zero(), v);
  }
  case ActKind::Elu:
    return arith::SelectOp::create(
        b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, zero()),
        arith::MulFOp::create(b, loc, alpha(),
                              math::ExpM1Op::create(b, loc, x)),
        x);
  case ActKind::Softsign:
    return arith::DivFOp::create(
        b, loc, x,
        arith::AddFOp::create(b, loc, cst(b, loc, x, 1),
                              math::AbsFOp::create(b, loc, x)));
  case ActKind::Softplus: {
    // log(1 + exp(x)) without overflow: max(x, 0) + log1p(exp(-|x|)).
    Value ax = math::AbsFOp::create(b, loc, x);
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, ax));
    return arith::AddFOp::create(b, loc,
                                 arith::MaximumFOp::create(b, loc, x, zero()),
                                 math::Log1pOp::create(b, loc, e));
  }
  }
  llvm_unreachable("unknown activation");
}


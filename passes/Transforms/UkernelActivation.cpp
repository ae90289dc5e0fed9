//===- UkernelActivation.cpp - Activations a kernel call applies ----------===//
//
// onnxc-linalg-to-ukernel's matcher of the activations the runtime's
// convolution applies after the bias (ONNXC_CONV_ACT, runtime_abi.h): the
// bodies of the elementwise generics that convert-onnx-to-linalg makes of
// Sigmoid, Swish, HardSigmoid and HardSwish, and that onnxc-fuse-elementwise
// makes of Mul(x, Sigmoid(x)) and Mul(x, HardSigmoid(x)). UkernelMatch.cpp's
// convClamp checks the rest (what the generic reads and writes).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/UkernelActivation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "runtime/include/onnxc/runtime_abi.h"

#include <tuple>

namespace mlir::onnxc::ukernel {

/// `v` is an f32 constant: its value.
static std::optional<float> f32Constant(Value v) {
  FloatAttr attr;
  if (matchPattern(v, m_Constant(&attr)) && attr.getType().isF32())
    return attr.getValue().convertToFloat();
  return std::nullopt;
}

/// The operand of the commutative `op` that is not `v` (null if neither
/// is), for matching `op(v, other)` in either order.
static Value otherOperand(Operation *op, Value v) {
  if (!op || op->getNumOperands() != 2)
    return nullptr;
  if (op->getOperand(0) == v)
    return op->getOperand(1);
  if (op->getOperand(1) == v)
    return op->getOperand(0);
  return nullptr;
}

/// `v` = a * x, a a constant (either order), or x itself (a = 1): a.
static std::optional<float> scaleOf(Value v, Value x) {
  if (v == x)
    return 1.0f;
  if (auto mul = v.getDefiningOp<arith::MulFOp>())
    if (Value other = otherOperand(mul, x))
      return f32Constant(other);
  return std::nullopt;
}

/// `v` = 1 + exp(-(a * x)) (either order; also exp(c * x) with c = -a, the
/// canonical form of a negated product): a.
static std::optional<float> onePlusExpNeg(Value v, Value x) {
  auto add = v.getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    if (f32Constant(add->getOperand(i)) != 1.0f)
      continue;
    auto e = add->getOperand(1 - i).getDefiningOp<math::ExpOp>();
    if (!e)
      return std::nullopt;
    Value arg = e.getOperand();
    if (auto neg = arg.getDefiningOp<arith::NegFOp>())
      return scaleOf(neg.getOperand(), x);
    if (auto c = scaleOf(arg, x); c && arg != x)
      return -*c;
    return std::nullopt;
  }
  return std::nullopt;
}

/// The constant operand of the two-operand `op` (setting `other` to the
/// other operand).
static std::optional<float> constantOperand(Operation *op, Value &other) {
  for (unsigned i = 0; i < 2; ++i)
    if (auto c = f32Constant(op->getOperand(i))) {
      other = op->getOperand(1 - i);
      return c;
    }
  return std::nullopt;
}

/// `v` = max(min(a * x + b, 1), 0) (constants on either side; a * x may be
/// x): a and b.
static std::optional<std::pair<float, float>> hardSigmoidOf(Value v, Value x) {
  auto mx = v.getDefiningOp<arith::MaximumFOp>();
  Value t;
  if (!mx || constantOperand(mx, t) != 0.0f)
    return std::nullopt;
  auto mn = t.getDefiningOp<arith::MinimumFOp>();
  if (!mn || constantOperand(mn, t) != 1.0f)
    return std::nullopt;
  auto add = t.getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i)
    if (auto b = f32Constant(add->getOperand(i)))
      if (auto a = scaleOf(add->getOperand(1 - i), x))
        return std::make_pair(*a, *b);
  return std::nullopt;
}

/// An activation's body (runtime_abi.h's ONNXC_ACT_* formulas, as
/// convert-onnx-to-linalg lowers Sigmoid, Swish, HardSigmoid and HardSwish
/// and onnxc-fuse-elementwise fuses Mul(x, Sigmoid(x)) and
/// Mul(x, HardSigmoid(x))) of the input x alone:
///   1 / (1 + exp(-x))                      Sigmoid
///   x / (1 + exp(-a x)), x * (1 / (..))    Swish (a = 1: SiLU)
///   max(min(a x + b, 1), 0)                HardSigmoid
///   x * max(min(a x + b, 1), 0)            HardSwish
bool matchActivationBody(Block &body, Clamp &c) {
  Value x = body.getArgument(0);
  Value v = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  // 1 / (1 + exp(-a x)): a.
  auto sigmoid = [&](Value s) -> std::optional<float> {
    auto div = s.getDefiningOp<arith::DivFOp>();
    if (!div || f32Constant(div.getLhs()) != 1.0f)
      return std::nullopt;
    return onePlusExpNeg(div.getRhs(), x);
  };
  if (auto a = sigmoid(v); a && *a == 1.0f) {
    c.act = ONNXC_ACT_SIGMOID;
    return true;
  }
  if (auto div = v.getDefiningOp<arith::DivFOp>(); div && div.getLhs() == x)
    if (auto a = onePlusExpNeg(div.getRhs(), x)) {
      c.act = ONNXC_ACT_SWISH;
      c.alpha = *a;
      return true;
    }
  if (auto hs = hardSigmoidOf(v, x)) {
    c.act = ONNXC_ACT_HARD_SIGMOID;
    std::tie(c.alpha, c.beta) = *hs;
    return true;
  }
  Value other = otherOperand(v.getDefiningOp<arith::MulFOp>(), x);
  if (!other)
    return false;
  if (auto a = sigmoid(other)) {
    c.act = ONNXC_ACT_SWISH;
    c.alpha = *a;
    return true;
  }
  if (auto hs = hardSigmoidOf(other, x)) {
    c.act = ONNXC_ACT_HARD_SWISH;
    std::tie(c.alpha, c.beta) = *hs;
    return true;
  }
  return false;
}

} // namespace mlir::onnxc::ukernel

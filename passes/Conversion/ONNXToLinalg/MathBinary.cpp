//===- MathBinary.cpp - The math category's n-ary elementwise ops ---------===//
//
// Binary and variadic elementwise ops of onnx/defs/math with numpy
// broadcasting (the broadcasting itself is buildElementwise's,
// Elementwise.h): arithmetic, Max, Min, Sum, Mean, Pow, Mod, PRelu and Clip.
// Integer semantics follow the onnx element type: unsigned types use the
// unsigned arith ops. The comparisons, logic and bit ops are Logical.cpp's,
// Where TensorElementwise.cpp's.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

using arith::CmpFPredicate;
using arith::CmpIPredicate;

/// Computes `fn` in f32 when the operands are half floats.
Value binaryInF32(ScalarContext &c, Value x, Value y,
                  function_ref<Value(Value, Value)> fn) {
  Type t = x.getType();
  if (!t.isF16() && !t.isBF16())
    return fn(x, y);
  Type f32 = c.b.getF32Type();
  Value r = fn(arith::ExtFOp::create(c.b, c.loc, f32, x),
               arith::ExtFOp::create(c.b, c.loc, f32, y));
  return arith::TruncFOp::create(c.b, c.loc, t, r);
}

/// The divisor of an integer Div or Mod, checked inside the loop body:
/// division by zero fails (`what` names the operation), and so does
/// INT_MIN / -1 when `overflowFails` (Div: the quotient does not fit);
/// otherwise (Mod) a divisor of -1 is replaced by 1, which gives the same
/// remainder, 0, without the trap x86 raises for INT_MIN % -1. Returns
/// the divisor to use (1 where the check failed, so that nothing traps
/// even speculatively).
Value checkedDivisor(ScalarContext &c, Value x, Value y, StringRef what,
                     bool overflowFails) {
  OpBuilder &b = c.b;
  Location loc = c.loc;
  Type t = y.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  // A constant divisor without 0 (and -1, for signed types) needs nothing.
  if (auto divisors = getConstantInts(c.op->getOperand(1))) {
    bool signedType = !isUnsignedInt(c.onnxTypes[1]) && width > 1;
    if (llvm::none_of(*divisors, [&](int64_t v) {
          return v == 0 || (signedType && v == -1);
        }))
      return y;
  }
  Value zero = createIntConstant(b, loc, t, 0);
  Value one = createIntConstant(b, loc, t, 1);
  Value isZero = arith::CmpIOp::create(b, loc, CmpIPredicate::eq, y, zero);
  emitRuntimeCheck(b, loc, c.op,
                   arith::CmpIOp::create(b, loc, CmpIPredicate::ne, y, zero),
                   (what + " by zero").str());
  Value bad = isZero;
  if (!isUnsignedInt(c.onnxTypes[1]) && width > 1) {
    Value isMOne = arith::CmpIOp::create(b, loc, CmpIPredicate::eq, y,
                                         createIntConstant(b, loc, t, -1));
    if (overflowFails) {
      Value isMin = arith::CmpIOp::create(
          b, loc, CmpIPredicate::eq, x,
          arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(t, APInt::getSignedMinValue(width))));
      Value overflow = arith::AndIOp::create(b, loc, isMin, isMOne);
      emitRuntimeCheck(b, loc, c.op,
                       arith::XOrIOp::create(b, loc, overflow,
                                             arith::ConstantOp::create(
                                                 b, loc, b.getBoolAttr(true))),
                       (what + " overflows: {} / -1").str(), {x});
      bad = arith::OrIOp::create(b, loc, bad, overflow);
    } else {
      bad = arith::OrIOp::create(b, loc, bad, isMOne);
    }
  }
  return arith::SelectOp::create(b, loc, bad, one, y);
}

} // namespace

void mlir::onnxc::populateMathBinaryPatterns(TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  ElementwisePatterns p{tc, patterns};

  // Add, Sub, Mul: integers wrap around.
  p.add(ONNX::AddOp::getOperationName(),
        foldAll(kinds<arith::AddFOp, arith::AddIOp>()));
  p.add(ONNX::SubOp::getOperationName(),
        foldAll(kinds<arith::SubFOp, arith::SubIOp>()));
  p.add(ONNX::MulOp::getOperationName(),
        foldAll(kinds<arith::MulFOp, arith::MulIOp>()));
  // Div: integer division truncates toward zero (C semantics); an integer
  // division by zero, or INT_MIN / -1, fails the call.
  p.add(ONNX::DivOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value x = c.args[0], y = c.args[1];
    if (isFloat(x.getType()))
      return arith::DivFOp::create(c.b, c.loc, x, y);
    y = checkedDivisor(c, x, y, "integer division", /*overflowFails=*/true);
    if (isUnsignedInt(c.onnxTypes[0]))
      return arith::DivUIOp::create(c.b, c.loc, x, y);
    return arith::DivSIOp::create(c.b, c.loc, x, y);
  });
  // Max, Min (variadic): NaN propagates, as numpy's maximum/minimum.
  p.add(ONNX::MaxOp::getOperationName(),
        foldAll(kinds<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>()));
  p.add(ONNX::MinOp::getOperationName(),
        foldAll(kinds<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>()));
  // Sum (variadic).
  p.add(ONNX::SumOp::getOperationName(),
        foldAll(kinds<arith::AddFOp, arith::AddIOp>()));
  // Mean (variadic): the sum divided by the operand count.
  p.add(ONNX::MeanOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value r = c.args[0];
    for (Value v : c.args.drop_front())
      r = arith::AddFOp::create(c.b, c.loc, r, v);
    Value n = createScalarConstant(c.b, c.loc, r.getType(), c.args.size());
    return arith::DivFOp::create(c.b, c.loc, r, n);
  });

  // Pow(X, Y): Y is converted to X's type for a float X; an integer X with
  // an integer Y is exact integer exponentiation; an integer X with a float
  // Y is computed in f64 and truncated back (numpy's result cast to X).
  p.add(ONNX::PowOp::getOperationName(), [](ScalarContext &c) -> Value {
    OpBuilder &b = c.b;
    Location loc = c.loc;
    Value x = c.args[0], y = c.args[1];
    Type tx = c.onnxTypes[0], ty = c.onnxTypes[1];
    if (isFloat(x.getType())) {
      y = convertScalar(b, loc, y, ty, tx);
      return binaryInF32(c, x, y, [&](Value a, Value e) -> Value {
        return math::PowFOp::create(b, loc, a, e);
      });
    }
    if (!isFloat(y.getType())) {
      // 0 to a negative power is 1 / 0: an error, as integer division by
      // zero is (math.ipowi gave 1; ORT gives INT_MIN from its double pow,
      // numpy refuses every negative integer power). Other negative powers
      // truncate 1 / x^n toward 0 as ORT does; results past the type wrap
      // (ORT converts an out-of-range double: INT_MIN on x86).
      auto exps = getConstantInts(c.op->getOperand(1));
      bool mayBeNegative =
          !isUnsignedInt(ty) &&
          (!exps || llvm::any_of(*exps, [](int64_t v) { return v < 0; }));
      if (mayBeNegative) {
        Value bad = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, CmpIPredicate::slt, y,
                                  createIntConstant(b, loc, y.getType(), 0)),
            arith::CmpIOp::create(b, loc, CmpIPredicate::eq, x,
                                  createIntConstant(b, loc, x.getType(), 0)));
        emitRuntimeCheck(
            b, loc, c.op,
            arith::XOrIOp::create(
                b, loc, bad,
                arith::ConstantOp::create(b, loc, b.getBoolAttr(true))),
            "integer 0 to a negative power (a division by zero)");
      }
      y = convertScalar(b, loc, y, ty, tx);
      return math::IPowIOp::create(b, loc, x, y);
    }
    Type f64 = b.getF64Type();
    Value r = math::PowFOp::create(b, loc, convertScalar(b, loc, x, tx, f64),
                                   convertScalar(b, loc, y, ty, f64));
    return convertScalar(b, loc, r, f64, tx);
  });

  // Mod: fmod = 1 is C fmod (the sign of the dividend); fmod = 0 is the
  // integer modulo of Python (the sign of the divisor). The verifier rejects
  // fmod = 0 on floats.
  p.add(ONNX::ModOp::getOperationName(), [](ScalarContext &c) -> Value {
    OpBuilder &b = c.b;
    Location loc = c.loc;
    Value x = c.args[0], y = c.args[1];
    if (isFloat(x.getType()))
      return binaryInF32(c, x, y, [&](Value p, Value q) -> Value {
        return arith::RemFOp::create(b, loc, p, q);
      });
    // By zero fails the call; INT_MIN mod -1 is 0.
    y = checkedDivisor(c, x, y, "integer modulo", /*overflowFails=*/false);
    if (isUnsignedInt(c.onnxTypes[0]))
      return arith::RemUIOp::create(b, loc, x, y);
    Value r = arith::RemSIOp::create(b, loc, x, y);
    if (cast<ONNX::ModOp>(c.op).getFmod() == 1)
      return r;
    Value zero = createIntConstant(b, loc, x.getType(), 0);
    Value nz = arith::CmpIOp::create(b, loc, CmpIPredicate::ne, r, zero);
    Value rneg = arith::CmpIOp::create(b, loc, CmpIPredicate::slt, r, zero);
    Value yneg = arith::CmpIOp::create(b, loc, CmpIPredicate::slt, y, zero);
    Value differ = arith::XOrIOp::create(b, loc, rneg, yneg);
    Value fix = arith::AndIOp::create(b, loc, nz, differ);
    return arith::SelectOp::create(b, loc, fix,
                                   arith::AddIOp::create(b, loc, r, y), r);
  });

  // PRelu: x < 0 ? slope * x : x (slope broadcasts to x).
  p.add(ONNX::PReluOp::getOperationName(), [](ScalarContext &c) -> Value {
    OpBuilder &b = c.b;
    Location loc = c.loc;
    Value x = c.args[0], s = c.args[1];
    if (isUnsignedInt(c.onnxTypes[0]))
      return x;
    Value zero = createScalarConstant(b, loc, x.getType(), 0);
    Value neg, prod;
    if (isFloat(x.getType())) {
      neg = arith::CmpFOp::create(b, loc, CmpFPredicate::OLT, x, zero);
      prod = arith::MulFOp::create(b, loc, s, x);
    } else {
      neg = arith::CmpIOp::create(b, loc, CmpIPredicate::slt, x, zero);
      prod = arith::MulIOp::create(b, loc, s, x);
    }
    return arith::SelectOp::create(b, loc, neg, prod, x);
  });

  // Clip: min(max(x, lo), hi) with absent bounds omitted (lo > hi gives hi).
  p.add(ONNX::ClipOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value r = c.args[0];
    if (c.args.size() > 1 && c.args[1])
      r = applyKind(kinds<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>(),
                    c, c.onnxTypes[0], r, c.args[1]);
    if (c.args.size() > 2 && c.args[2])
      r = applyKind(kinds<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>(),
                    c, c.onnxTypes[0], r, c.args[2]);
    return r;
  });
}

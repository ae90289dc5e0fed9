//===- Logical.cpp - The logical category's ops -> linalg -----------------===//
//
// The ops of onnx/defs/logical, all elementwise (Elementwise.h): Not, And,
// Or, Xor on bool; BitwiseNot, BitwiseAnd, BitwiseOr, BitwiseXor and
// BitShift on integers; the comparisons Equal, Less, LessOrEqual, Greater,
// GreaterOrEqual (Equal also on strings, through the runtime: Strings.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

using arith::CmpFPredicate;
using arith::CmpIPredicate;

/// A comparison: float predicate, signed and unsigned integer predicates.
ScalarFn compare(CmpFPredicate f, CmpIPredicate si, CmpIPredicate ui) {
  return [=](ScalarContext &c) -> Value {
    Value x = c.args[0], y = c.args[1];
    // Strings (Equal only): their bytes, compared by the runtime.
    if (isStringType(c.onnxTypes[0]))
      return stringEqual(c.b, c.loc, c.op, x, y);
    if (isFloat(x.getType()))
      return arith::CmpFOp::create(c.b, c.loc, f, x, y);
    return arith::CmpIOp::create(c.b, c.loc,
                                 isUnsignedInt(c.onnxTypes[0]) ? ui : si, x, y);
  };
}

} // namespace

void mlir::onnxc::populateLogicalPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  ElementwisePatterns p{tc, patterns};
  // Not / BitwiseNot: x xor all-ones.
  auto bitNot = [](ScalarContext &c) -> Value {
    Value x = c.args[0];
    return arith::XOrIOp::create(c.b, c.loc, x, cst(c.b, c.loc, x, -1));
  };
  p.add(ONNX::NotOp::getOperationName(), bitNot);
  p.add(ONNX::BitwiseNotOp::getOperationName(), bitNot);
  // And, Or, Xor on bool; BitwiseAnd/Or/Xor on integers.
  p.add(ONNX::AndOp::getOperationName(),
        foldAll(kinds<arith::AndIOp, arith::AndIOp>()));
  p.add(ONNX::OrOp::getOperationName(),
        foldAll(kinds<arith::OrIOp, arith::OrIOp>()));
  p.add(ONNX::XorOp::getOperationName(),
        foldAll(kinds<arith::XOrIOp, arith::XOrIOp>()));
  p.add(ONNX::BitwiseAndOp::getOperationName(),
        foldAll(kinds<arith::AndIOp, arith::AndIOp>()));
  p.add(ONNX::BitwiseOrOp::getOperationName(),
        foldAll(kinds<arith::OrIOp, arith::OrIOp>()));
  p.add(ONNX::BitwiseXorOp::getOperationName(),
        foldAll(kinds<arith::XOrIOp, arith::XOrIOp>()));
  // Comparisons (ordered for floats: NaN compares false).
  p.add(ONNX::EqualOp::getOperationName(),
        compare(CmpFPredicate::OEQ, CmpIPredicate::eq, CmpIPredicate::eq));
  p.add(ONNX::LessOp::getOperationName(),
        compare(CmpFPredicate::OLT, CmpIPredicate::slt, CmpIPredicate::ult));
  p.add(ONNX::LessOrEqualOp::getOperationName(),
        compare(CmpFPredicate::OLE, CmpIPredicate::sle, CmpIPredicate::ule));
  p.add(ONNX::GreaterOp::getOperationName(),
        compare(CmpFPredicate::OGT, CmpIPredicate::sgt, CmpIPredicate::ugt));
  p.add(ONNX::GreaterOrEqualOp::getOperationName(),
        compare(CmpFPredicate::OGE, CmpIPredicate::sge, CmpIPredicate::uge));

  // BitShift: X << Y or X >> Y (unsigned); shifts by the bit width or more
  // give 0.
  p.add(
      ONNX::BitShiftOp::getOperationName(),
      [](ScalarContext &c) -> Value {
        OpBuilder &b = c.b;
        Location loc = c.loc;
        Value x = c.args[0], y = c.args[1];
        bool left = cast<ONNX::BitShiftOp>(c.op).getDirection() == "LEFT";
        Value s = left ? Value(arith::ShLIOp::create(b, loc, x, y))
                       : Value(arith::ShRUIOp::create(b, loc, x, y));
        Value width = createIntConstant(b, loc, x.getType(),
                                        x.getType().getIntOrFloatBitWidth());
        Value big = arith::CmpIOp::create(b, loc, CmpIPredicate::uge, y, width);
        return arith::SelectOp::create(
            b, loc, big, createIntConstant(b, loc, x.getType(), 0), s);
      },
      [](Operation *op) -> LogicalResult {
        StringRef d = cast<ONNX::BitShiftOp>(op).getDirection();
        if (d != "LEFT" && d != "RIGHT")
          return op->emitOpError("direction must be LEFT or RIGHT, not '")
                 << d << "'";
        return success();
      });
}

//===- Shrink.cpp - Shrink -> linalg --------------------------------------===//
//
// Shrink, of onnx/defs/nn: one elementwise linalg.generic (Elementwise.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

using arith::CmpFPredicate;

/// Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
static Value shrinkScalar(ScalarContext &c) {
  OpBuilder &b = c.b;
  Location loc = c.loc;
  double bias = floatAttr(c.op, "bias", 0.0),
         lambd = floatAttr(c.op, "lambd", 0.5);
  Value x = c.args[0];
  Type t = x.getType();
  if (isFloat(t)) {
    Value l = cst(b, loc, x, lambd), ml = cst(b, loc, x, -lambd),
          bv = cst(b, loc, x, bias);
    Value r = select(b, loc, cmpF(b, loc, CmpFPredicate::OGT, x, l),
                     arith::SubFOp::create(b, loc, x, bv), cst(b, loc, x, 0));
    return select(b, loc, cmpF(b, loc, CmpFPredicate::OLT, x, ml),
                  arith::AddFOp::create(b, loc, x, bv), r);
  }
  // Integers: compare in f64, the bias is truncated to the integer type.
  Type f64 = b.getF64Type();
  Value xf = convertScalar(b, loc, x, c.onnxTypes[0], f64);
  Value bv = createIntConstant(b, loc, t, (int64_t)bias);
  Value r = select(b, loc,
                   cmpF(b, loc, CmpFPredicate::OGT, xf,
                        createScalarConstant(b, loc, f64, lambd)),
                   arith::SubIOp::create(b, loc, x, bv), cst(b, loc, x, 0));
  return select(b, loc,
                cmpF(b, loc, CmpFPredicate::OLT, xf,
                     createScalarConstant(b, loc, f64, -lambd)),
                arith::AddIOp::create(b, loc, x, bv), r);
}

void mlir::onnxc::populateShrinkPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  ElementwisePatterns{tc, patterns}.add(ONNX::ShrinkOp::getOperationName(),
                                        shrinkScalar);
}

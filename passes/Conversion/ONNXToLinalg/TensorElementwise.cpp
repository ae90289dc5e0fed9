//===- TensorElementwise.cpp - The tensor category's elementwise ops ------===//
//
// The elementwise ops of onnx/defs/tensor (Elementwise.h): Cast and
// CastLike (numeric conversions with onnx semantics, convertScalar; from
// and to strings through the runtime, Strings.h), IsNaN, IsInf and Where.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

using arith::CmpFPredicate;

/// Cast's and CastLike's `saturate` (opset 19, default 1): what a float8
/// target does with values beyond its range and infinities.
static bool castSaturates(Operation *op) {
  auto a = op->getAttrOfType<IntegerAttr>("saturate");
  return !a || a.getInt() != 0;
}

/// Cast: numeric conversions with onnx semantics (see convertScalar) to the
/// inferred result type; from and to strings through the runtime
/// (Strings.h).
static Value castScalar(ScalarContext &c) {
  if (isStringType(c.onnxTypes[0]) || isStringType(c.onnxResultType))
    return castStringScalar(c.b, c.loc, c.op, c.args[0], c.onnxTypes[0],
                            c.onnxResultType, castSaturates(c.op));
  return convertScalar(c.b, c.loc, c.args[0], c.onnxTypes[0], c.onnxResultType,
                       castSaturates(c.op));
}

void mlir::onnxc::populateTensorElementwisePatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  ElementwisePatterns p{tc, patterns};
  p.add(ONNX::CastOp::getOperationName(), castScalar);
  // CastLike: Cast to the element type of `target_type` (only its type is
  // used, so it is not an operand of the generic).
  p.add(ONNX::CastLikeOp::getOperationName(), castScalar, nullptr,
        /*numInputs=*/1);
  // IsNaN: x != x.
  p.add(ONNX::IsNaNOp::getOperationName(), [](ScalarContext &c) -> Value {
    Value x = c.args[0];
    return cmpF(c.b, c.loc, CmpFPredicate::UNO, x, x);
  });
  // IsInf: x == +inf (detect_positive) or x == -inf (detect_negative).
  p.add(ONNX::IsInfOp::getOperationName(), [](ScalarContext &c) -> Value {
    auto op = cast<ONNX::IsInfOp>(c.op);
    Value x = c.args[0];
    Value r = arith::ConstantOp::create(c.b, c.loc, c.b.getBoolAttr(false));
    if (op.getDetectPositive())
      r = arith::OrIOp::create(c.b, c.loc, r,
                               cmpF(c.b, c.loc, CmpFPredicate::OEQ, x,
                                    cst(c.b, c.loc, x, INFINITY)));
    if (op.getDetectNegative())
      r = arith::OrIOp::create(c.b, c.loc, r,
                               cmpF(c.b, c.loc, CmpFPredicate::OEQ, x,
                                    cst(c.b, c.loc, x, -INFINITY)));
    return r;
  });
  // Where: condition ? X : Y.
  p.add(ONNX::WhereOp::getOperationName(), [](ScalarContext &c) -> Value {
    return arith::SelectOp::create(c.b, c.loc, c.args[0], c.args[1], c.args[2]);
  });
}

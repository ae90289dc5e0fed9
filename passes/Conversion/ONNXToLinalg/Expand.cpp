//===- Expand.cpp - Expand -> linalg --------------------------------------===//
//
// Expand, of onnx/defs/math: the input broadcast (numpy rules, both ways)
// to the shape operand, one elementwise linalg.generic (Elementwise.h)
// sized by that shape, with run-time checks that the input broadcasts.
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

namespace {

/// Expand: broadcasts the input to `shape` (numpy rules, both ways).
struct ExpandLowering : OpConversionPattern<ONNX::ExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getInput();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    int64_t shapeLen =
        cast<RankedTensorType>(adaptor.getShape().getType()).getDimSize(0);
    SmallVector<Value> sizes(rank);
    Value one = createIndexConstant(rewriter, loc, 1);
    for (int64_t k = 0; k < rank; ++k) {
      // max-like: the shape entry unless it is 1, then the input dim;
      // checked for static result dims too (inference may have taken the
      // input's dim where the entry says otherwise).
      int64_t s = k - (rank - shapeLen), j = k - (rank - inType.getRank());
      Value v = s >= 0 ? extractIndex(rewriter, loc, adaptor.getShape(), s)
                       : one;
      if (j >= 0) {
        // numpy: the entry is 1 (the input dim), or the input dim is 1, or
        // they are equal; anything else would read past the input.
        Value in = getDimValue(rewriter, loc, data, j);
        Value isOne = cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, one);
        Value ok = rewriter.createOrFold<arith::OrIOp>(
            loc,
            rewriter.createOrFold<arith::OrIOp>(
                loc, isOne,
                cmpI(rewriter, loc, arith::CmpIPredicate::eq, in, one)),
            cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, in));
        emitRuntimeCheck(rewriter, loc, ok,
                         "Expand: shape entry {} is {}, which an input dim of "
                         "{} does not broadcast to",
                         {createIndexConstant(rewriter, loc, s), v, in});
        v = rewriter.createOrFold<arith::SelectOp>(loc, isOne, in, v);
      }
      if (type.isDynamicDim(k)) {
        sizes[k] = v;
        continue;
      }
      Value want = createIndexConstant(rewriter, loc, type.getDimSize(k));
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, want),
                       "Expand: result dim {} is {} where {} is required",
                       {createIndexConstant(rewriter, loc, k), v, want});
    }
    // The sizes always go to buildElementwise (null for static result
    // dims): a dynamic input dim may be 1 at run time even when the result
    // dim is static (x of [?, ?] expanded to [2, 2, 3] with x [1, 3]), so
    // it is read through a select, not mapped to the result dim.
    Value r = buildElementwise(
        rewriter, loc, op, {data}, {op.getInput()}, op.getOutput(), type,
        [](ScalarContext &c) { return c.args[0]; }, sizes);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateExpandPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<ExpandLowering>(tc, patterns.getContext());
}

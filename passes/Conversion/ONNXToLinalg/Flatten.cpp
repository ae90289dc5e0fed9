//===- Flatten.cpp - Flatten -> tensor ------------------------------------===//
//
// Flatten, of onnx/defs/nn: a tensor.collapse_shape to 2-D, or a
// tensor.reshape when one side is empty of dims (axis 0 or rank).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Reshapes `data` to `type` through a shape tensor of `dims` (index values).
Value reshapeTo(OpBuilder &b, Location loc, Value data, RankedTensorType type,
                ArrayRef<Value> dims) {
  SmallVector<Value> all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(type.isDynamicDim(i)
                      ? dims[i]
                      : createIndexConstant(b, loc, type.getDimSize(i)));
  Value shape = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({type.getRank()}, b.getIndexType()), all);
  return tensor::ReshapeOp::create(b, loc, type, data, shape);
}

/// Flatten: to 2-D, dims [0, axis) into the first and [axis, rank) into the
/// second.
struct FlattenLowering : OpConversionPattern<ONNX::FlattenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::FlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getInput();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis > 0 && axis < rank) {
      SmallVector<ReassociationIndices> re(2);
      for (int64_t d = 0; d < rank; ++d)
        re[d < axis ? 0 : 1].push_back(d);
      Value r = tensor::CollapseShapeOp::create(rewriter, loc, data, re);
      rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
      return success();
    }
    Value n = dimProduct(rewriter, loc, data, 0, rank);
    Value one = createIndexConstant(rewriter, loc, 1);
    SmallVector<Value> dims = axis == 0 ? SmallVector<Value>{one, n}
                                        : SmallVector<Value>{n, one};
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, data, type, dims));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateFlattenPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<FlattenLowering>(tc, patterns.getContext());
}

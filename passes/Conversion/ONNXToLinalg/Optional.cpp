//===- Optional.cpp - Optional, OptionalHasElement, OptionalGetElement ----===//
//
// An optional is a tensor<i1> presence flag followed by its payload's
// values (TypeConversion.cpp); an absent payload is empty (zero-sized
// tensors, an empty sequence).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

//===----------------------------------------------------------------------===//
// Optionals
//===----------------------------------------------------------------------===//

struct OptionalLowering : OpConversionPattern<ONNX::OptionalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::OptionalOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getResult().getType());
    if (failed(types))
      return failure();
    auto flagType = RankedTensorType::get({}, rewriter.getI1Type());
    bool present = !isa<NoneType>(op.getInput().getType());
    SmallVector<Value> values{arith::ConstantOp::create(
        rewriter, l, DenseElementsAttr::get(flagType, present))};
    if (present) {
      values.append(castAll(rewriter, l, adaptor.getInput(),
                            ArrayRef<Type>(*types).drop_front(),
                            "Optional: the value does not fit its type"));
    } else {
      // Empty payload: zero-sized tensors.
      for (Type t : ArrayRef<Type>(*types).drop_front()) {
        auto rt = cast<RankedTensorType>(t);
        SmallVector<Value> dyn(rt.getNumDynamicDims(), idx(rewriter, l, 0));
        values.push_back(tensor::EmptyOp::create(
            rewriter, l, rt.getShape(), rt.getElementType(), dyn));
      }
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct OptionalHasElementLowering
    : OpConversionPattern<ONNX::OptionalHasElementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::OptionalHasElementOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type in = op.getInput().getType();
    auto flagType = RankedTensorType::get({}, rewriter.getI1Type());
    if (isa<ONNX::OptType>(in)) {
      rewriter.replaceOp(op, adaptor.getInput().front());
      return success();
    }
    // A tensor or a sequence is present; an absent input is not.
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(flagType, !isa<NoneType>(in)));
    return success();
  }
};

struct OptionalGetElementLowering
    : OpConversionPattern<ONNX::OptionalGetElementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::OptionalGetElementOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    ValueRange in = adaptor.getInput();
    if (isa<ONNX::OptType>(op.getInput().getType())) {
      emitRuntimeCheck(rewriter, l,
                       tensor::ExtractOp::create(rewriter, l, in.front(),
                                                 ValueRange{}),
                       "OptionalGetElement: the optional is empty");
      in = in.drop_front();
    }
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, l, in, *types,
                     "OptionalGetElement: the value does not fit its type")});
    return success();
  }
};

} // namespace

void mlir::onnxc::populateOptionalPatterns(TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<OptionalLowering, OptionalHasElementLowering,
               OptionalGetElementLowering>(tc, patterns.getContext());
}

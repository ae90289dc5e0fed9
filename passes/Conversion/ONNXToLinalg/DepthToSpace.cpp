//===- DepthToSpace.cpp - DepthToSpace, SpaceToDepth -> linalg -----------===//
//
// DepthToSpace and SpaceToDepth are one copy generic each whose input map
// splits and merges dims with floordiv/mod (by the channel count too, for
// SpaceToDepth); with a dynamic channel dim the channels are split by an
// expand_shape (DepthToSpace) or merged by a collapse_shape (SpaceToDepth)
// instead, so that the maps stay affine, and the sizes that static shapes
// check at compile time are checked at run time.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// A generic copying `input` into `type` through the input map `map`.
Value copyWithMap(OpBuilder &b, Location loc, Value input,
                  RankedTensorType type, ArrayRef<Value> sizes, AffineMap map) {
  int64_t rank = type.getRank();
  Value init = createEmpty(b, loc, type, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
             SmallVector<AffineMap>{map, b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// The checks DepthToSpace and SpaceToDepth share: a 4-D input and a
/// positive blocksize.
LogicalResult checkBlockInput(Operation *op, RankedTensorType xt, int64_t bs) {
  if (xt.getRank() != 4)
    return op->emitOpError("input must be 4-D (N, C, H, W)");
  if (bs <= 0)
    return op->emitOpError("blocksize must be positive");
  return success();
}

/// DepthToSpace (N, C, H, W) -> (N, C/b^2, H*b, W*b):
///   DCR: Y[n, c, h, w] = X[n, ((h%b)*b + w%b)*C/b^2 + c, h/b, w/b];
///   CRD: Y[n, c, h, w] = X[n, c*b^2 + (h%b)*b + w%b, h/b, w/b].
struct DepthToSpaceLowering : OpConversionPattern<ONNX::DepthToSpaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DepthToSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t bs = op.getBlocksize();
    if (failed(checkBlockInput(op, xt, bs)))
      return failure();
    StringRef mode = op.getMode();
    if (mode != "DCR" && mode != "CRD")
      return op.emitOpError("unsupported mode '") << mode << "'";
    int64_t c = xt.getDimSize(1);
    if (!ShapedType::isDynamic(c) && c % (bs * bs) != 0)
      return op.emitOpError("the channel dim must be a multiple of "
                            "blocksize^2");
    AffineExpr n = getAffineDimExpr(0, ctx), co = getAffineDimExpr(1, ctx),
               h = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
    if (ShapedType::isDynamic(c)) {
      // C = b*b*C' checked at run time; X split into (N, b, b, C', H, W)
      // (DCR) or (N, C', b, b, H, W) (CRD) and read with affine maps.
      Value cv = getDimValue(rewriter, loc, x, 1);
      Value bb = createIndexConstant(rewriter, loc, bs * bs);
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                arith::RemSIOp::create(rewriter, loc, cv, bb),
                                createIndexConstant(rewriter, loc, 0)),
          "DepthToSpace: the channel dim must be a multiple of blocksize^2");
      Value cOut = arith::DivSIOp::create(rewriter, loc, cv, bb);
      if (!type.isDynamicDim(1))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq, cOut,
                createIndexConstant(rewriter, loc, type.getDimSize(1))),
            "DepthToSpace: the result dims do not match the inferred type");
      bool dcr = mode == "DCR";
      int64_t dyn = ShapedType::kDynamic;
      SmallVector<int64_t> shape = {xt.getDimSize(0)};
      SmallVector<OpFoldResult> outShape = {getDimOFR(rewriter, loc, x, 0)};
      SmallVector<int64_t> split = dcr ? SmallVector<int64_t>{bs, bs, dyn}
                                       : SmallVector<int64_t>{dyn, bs, bs};
      for (int64_t v : split) {
        shape.push_back(v);
        outShape.push_back(ShapedType::isDynamic(v)
                               ? OpFoldResult(cOut)
                               : OpFoldResult(rewriter.getIndexAttr(v)));
      }
      for (int64_t i = 2; i < 4; ++i) {
        shape.push_back(xt.getDimSize(i));
        outShape.push_back(getDimOFR(rewriter, loc, x, i));
      }
      Value x6 = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, xt.getElementType()), x,
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}},
          outShape);
      SmallVector<AffineExpr> in = {n};
      if (dcr)
        in.append({h % bs, w % bs, co});
      else
        in.append({co, h % bs, w % bs});
      in.append({h.floorDiv(bs), w.floorDiv(bs)});
      SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0), cOut};
      for (int64_t i = 2; i < 4; ++i)
        sizes.push_back(arith::MulIOp::create(
            rewriter, loc, getDimValue(rewriter, loc, x, i),
            createIndexConstant(rewriter, loc, bs)));
      rewriter.replaceOp(op, copyWithMap(rewriter, loc, x6, type, sizes,
                                         AffineMap::get(4, 0, in, ctx)));
      return success();
    }
    int64_t cOut = c / (bs * bs);
    AffineExpr block = (h % bs) * bs + (w % bs);
    AffineExpr ci = mode == "DCR" ? block * cOut + co : co * (bs * bs) + block;
    AffineMap map =
        AffineMap::get(4, 0, {n, ci, h.floorDiv(bs), w.floorDiv(bs)}, ctx);
    SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0),
                                createIndexConstant(rewriter, loc, cOut)};
    for (int64_t i = 2; i < 4; ++i)
      sizes.push_back(
          arith::MulIOp::create(rewriter, loc, getDimValue(rewriter, loc, x, i),
                                createIndexConstant(rewriter, loc, bs)));
    rewriter.replaceOp(op, copyWithMap(rewriter, loc, x, type, sizes, map));
    return success();
  }
};

/// SpaceToDepth (N, C, H, W) -> (N, C*b^2, H/b, W/b):
///   Y[n, (bh*b + bw)*C + c, h, w] = X[n, c, h*b + bh, w*b + bw].
struct SpaceToDepthLowering : OpConversionPattern<ONNX::SpaceToDepthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SpaceToDepthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t bs = op.getBlocksize();
    if (failed(checkBlockInput(op, xt, bs)))
      return failure();
    int64_t c = xt.getDimSize(1);
    for (int64_t i = 2; i < 4; ++i)
      if (!xt.isDynamicDim(i) && xt.getDimSize(i) % bs != 0)
        return op.emitOpError("spatial dims must be multiples of blocksize");
    for (int64_t i = 2; i < 4; ++i)
      if (xt.isDynamicDim(i))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq,
                arith::RemSIOp::create(rewriter, loc,
                                       getDimValue(rewriter, loc, x, i),
                                       createIndexConstant(rewriter, loc, bs)),
                createIndexConstant(rewriter, loc, 0)),
            "SpaceToDepth: spatial dims must be multiples of blocksize");
    AffineExpr n = getAffineDimExpr(0, ctx), co = getAffineDimExpr(1, ctx),
               h = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
    if (ShapedType::isDynamic(c)) {
      // Y6[n, bh, bw, c, h, w] = X[n, c, h*b + bh, w*b + bw] over the
      // output split as (N, b, b, C, H/b, W/b), its channel dims merged.
      AffineExpr bh = getAffineDimExpr(1, ctx), bw = getAffineDimExpr(2, ctx),
                 ci = getAffineDimExpr(3, ctx), h6 = getAffineDimExpr(4, ctx),
                 w6 = getAffineDimExpr(5, ctx);
      AffineMap map =
          AffineMap::get(6, 0, {n, ci, h6 * bs + bh, w6 * bs + bw}, ctx);
      auto dimOrDyn = [&](int64_t i, bool div) {
        int64_t d = xt.getDimSize(i);
        return ShapedType::isDynamic(d) ? d : (div ? d / bs : d);
      };
      int64_t dyn = ShapedType::kDynamic;
      auto type6 = RankedTensorType::get({dimOrDyn(0, false), bs, bs, dyn,
                                          dimOrDyn(2, true), dimOrDyn(3, true)},
                                         xt.getElementType());
      SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0), Value(),
                                  Value(), getDimValue(rewriter, loc, x, 1)};
      for (int64_t i = 2; i < 4; ++i)
        sizes.push_back(arith::DivSIOp::create(
            rewriter, loc, getDimValue(rewriter, loc, x, i),
            createIndexConstant(rewriter, loc, bs)));
      Value y6 = copyWithMap(rewriter, loc, x, type6, sizes, map);
      Value y = tensor::CollapseShapeOp::create(
          rewriter, loc, y6,
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}});
      if (!type.isDynamicDim(1))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq,
                tensor::DimOp::create(rewriter, loc, y, 1),
                createIndexConstant(rewriter, loc, type.getDimSize(1))),
            "SpaceToDepth: the result dims do not match the inferred type");
      if (y.getType() != type)
        y = tensor::CastOp::create(rewriter, loc, type, y);
      rewriter.replaceOp(op, y);
      return success();
    }
    AffineExpr block = co.floorDiv(c);
    AffineMap map = AffineMap::get(
        4, 0, {n, co % c, h * bs + block.floorDiv(bs), w * bs + block % bs},
        ctx);
    SmallVector<Value> sizes = {
        getDimValue(rewriter, loc, x, 0),
        createIndexConstant(rewriter, loc, c * bs * bs)};
    for (int64_t i = 2; i < 4; ++i)
      sizes.push_back(arith::DivSIOp::create(
          rewriter, loc, getDimValue(rewriter, loc, x, i),
          createIndexConstant(rewriter, loc, bs)));
    rewriter.replaceOp(op, copyWithMap(rewriter, loc, x, type, sizes, map));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateDepthToSpacePatterns(TypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<DepthToSpaceLowering, SpaceToDepthLowering>(
      tc, patterns.getContext());
}

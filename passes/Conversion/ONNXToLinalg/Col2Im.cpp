//===- Col2Im.cpp - Col2Im -------------------------------------------------===//
//
// Col2Im (im2col's inverse, the "fold" of sliding blocks back into an
// image) as one gather over the output: each output element sums the
// columns whose sliding block covers it.
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

/// Col2Im: Y[n, c, o] = sum over block offsets b of X[n, c * B + lin(b),
/// lin(l)] where o_i = l_i * s_i - pad_begin_i + b_i * d_i for a sliding
/// position l_i in [0, L_i), L_i = (image_i + pads_i - d_i (block_i - 1) -
/// 1) / s_i + 1. A gather over the output: for each output element and
/// block offset, l_i = (o_i + pad_begin_i - b_i d_i) / s_i when that divides
/// and lands in range. image_shape and block_shape must be constants (the
/// result's shape depends on them).
struct Col2ImLowering : OpConversionPattern<ONNX::Col2ImOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::Col2ImOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = dyn_cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    if (!type)
      return op.emitOpError("the result must be ranked");
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    auto image = getConstantInts(op.getImageShape(), adaptor.getImageShape());
    auto block = getConstantInts(op.getBlockShape(), adaptor.getBlockShape());
    if (!image || !block)
      return op.emitOpError("image_shape and block_shape must be constants");
    int64_t r = image->size();
    if ((int64_t)block->size() != r || r == 0)
      return op.emitOpError("image_shape and block_shape must have the same "
                            "non-zero length");
    if (xt.getRank() != 3 || type.getRank() != r + 2)
      return op.emitOpError("input must be (N, C * prod(block_shape), L)");
    SmallVector<int64_t> dil(r, 1), str(r, 1), pads(2 * r, 0);
    if (auto a = op.getDilations())
      dil.assign(a->begin(), a->end());
    if (auto a = op.getStrides())
      str.assign(a->begin(), a->end());
    if (auto a = op.getPads())
      pads.assign(a->begin(), a->end());
    if ((int64_t)dil.size() != r || (int64_t)str.size() != r ||
        (int64_t)pads.size() != 2 * r)
      return op.emitOpError("dilations, strides and pads must have one value "
                            "per spatial dim (pads two)");
    int64_t blockElems = 1, blocks = 1;
    SmallVector<int64_t> nBlocks(r);
    for (int64_t i = 0; i < r; ++i) {
      if ((*image)[i] <= 0 || (*block)[i] <= 0 || dil[i] <= 0 || str[i] <= 0)
        return op.emitOpError("image_shape, block_shape, dilations and "
                              "strides must be positive");
      int64_t span = (*image)[i] + pads[i] + pads[i + r] -
                     dil[i] * ((*block)[i] - 1) - 1;
      if (span < 0)
        return op.emitOpError("the block does not fit in the padded image");
      nBlocks[i] = span / str[i] + 1;
      blockElems *= (*block)[i];
      blocks *= nBlocks[i];
    }
    if (!xt.isDynamicDim(2) && xt.getDimSize(2) != blocks)
      return op.emitOpError("input has ")
             << xt.getDimSize(2) << " columns, the sliding blocks are "
             << blocks;
    if (!xt.isDynamicDim(1) && xt.getDimSize(1) % blockElems != 0)
      return op.emitOpError("input channels must be a multiple of "
                            "prod(block_shape) = ")
             << blockElems;
    Type et = xt.getElementType();
    if (!isa<FloatType, IntegerType>(et) || et.isInteger(1))
      return op.emitOpError("needs a numeric element type");
    OpBuilder &b = rewriter;
    if (xt.isDynamicDim(2))
      emitRuntimeCheck(b, loc,
                       cmpI(b, loc, arith::CmpIPredicate::eq,
                            getDimValue(b, loc, x, 2),
                            createIndexConstant(b, loc, blocks)),
                       "Col2Im: the input's last dim must be the number of "
                       "sliding blocks");
    SmallVector<Value> sizes = {getDimValue(b, loc, x, 0)};
    Value channels = getDimValue(b, loc, x, 1);
    sizes.push_back(b.createOrFold<arith::DivSIOp>(
        loc, channels, createIndexConstant(b, loc, blockElems)));
    for (int64_t i = 0; i < r; ++i)
      sizes.push_back(createIndexConstant(b, loc, (*image)[i]));
    Value init = createEmpty(b, loc, type, sizes);
    init = linalg::FillOp::create(b, loc,
                                  createScalarConstant(b, loc, et, 0), init)
               .getResult(0);
    // Loops (n, c, o_1..o_r) parallel, (b_1..b_r) reduction; the output
    // is read at (n, c, o).
    int64_t loops = 2 + 2 * r;
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < 2 + r; ++i)
      outExprs.push_back(b.getAffineDimExpr(i));
    SmallVector<utils::IteratorType> iters(2 + r,
                                           utils::IteratorType::parallel);
    iters.append(r, utils::IteratorType::reduction);
    // A dummy input spans the block loops (their sizes).
    Value blockShape = tensor::EmptyOp::create(
        b, loc, SmallVector<int64_t>(block->begin(), block->end()), et);
    SmallVector<AffineExpr> blockExprs;
    for (int64_t i = 0; i < r; ++i)
      blockExprs.push_back(b.getAffineDimExpr(2 + r + i));
    auto maps = SmallVector<AffineMap>{
        AffineMap::get(loops, 0, blockExprs, b.getContext()),
        AffineMap::get(loops, 0, outExprs, b.getContext())};
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{Type(type)}, ValueRange{blockShape}, ValueRange{init},
        maps, iters, [&](OpBuilder &nb, Location nl, ValueRange args) {
          auto cst = [&](int64_t v) { return createIndexConstant(nb, nl, v); };
          Value n = linalg::IndexOp::create(nb, nl, 0);
          Value c = linalg::IndexOp::create(nb, nl, 1);
          Value valid = arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true));
          Value col = cst(0), ch = cst(0);
          for (int64_t i = 0; i < r; ++i) {
            Value o = linalg::IndexOp::create(nb, nl, 2 + i);
            Value bi = linalg::IndexOp::create(nb, nl, 2 + r + i);
            // t = o + pad_begin - b * d; l = t / s when s divides t.
            Value t = arith::SubIOp::create(
                nb, nl, arith::AddIOp::create(nb, nl, o, cst(pads[i])),
                arith::MulIOp::create(nb, nl, bi, cst(dil[i])));
            Value tc = arith::MaxSIOp::create(nb, nl, t, cst(0));
            Value li = arith::DivUIOp::create(nb, nl, tc, cst(str[i]));
            Value ok = arith::AndIOp::create(
                nb, nl,
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge, t,
                                      cst(0)),
                arith::CmpIOp::create(
                    nb, nl, arith::CmpIPredicate::eq,
                    arith::RemUIOp::create(nb, nl, tc, cst(str[i])), cst(0)));
            ok = arith::AndIOp::create(
                nb, nl, ok,
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, li,
                                      cst(nBlocks[i])));
            valid = arith::AndIOp::create(nb, nl, valid, ok);
            li = arith::MinUIOp::create(nb, nl, li, cst(nBlocks[i] - 1));
            col = arith::AddIOp::create(
                nb, nl, arith::MulIOp::create(nb, nl, col, cst(nBlocks[i])),
                li);
            ch = arith::AddIOp::create(
                nb, nl, arith::MulIOp::create(nb, nl, ch, cst((*block)[i])),
                bi);
          }
          ch = arith::AddIOp::create(
              nb, nl, arith::MulIOp::create(nb, nl, c, cst(blockElems)), ch);
          Value v = tensor::ExtractOp::create(nb, nl, x, ValueRange{n, ch, col});
          Value zero = createScalarConstant(nb, nl, et, 0);
          v = arith::SelectOp::create(nb, nl, valid, v, zero);
          Value acc = args[1];
          Value sum = isa<FloatType>(et)
                          ? arith::AddFOp::create(nb, nl, acc, v).getResult()
                          : arith::AddIOp::create(nb, nl, acc, v).getResult();
          linalg::YieldOp::create(nb, nl, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateCol2ImPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<Col2ImLowering>(tc, patterns.getContext());
}

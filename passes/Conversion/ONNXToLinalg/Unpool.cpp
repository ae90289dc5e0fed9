//===- Unpool.cpp - MaxUnpool -> tensor/scf -------------------------------===//
//
// MaxUnpool scatters X into zeros of the output shape: Y.flat[I.flat[i]] =
// X.flat[i], the indices being linear over the whole output (N and C
// included), as MaxPool's Indices are. The output shape is the output_shape
// input when given, else (in - 1) * stride + kernel - pad_begin - pad_end
// per spatial dim (output_shape may not be smaller). One run-time pass
// checks every index against the output size first, so no write leaves the
// output.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

struct MaxUnpoolLowering : OpConversionPattern<ONNX::MaxUnpoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MaxUnpoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value x = adaptor.getX(), indices = adaptor.getI();
    auto xt = cast<RankedTensorType>(x.getType());
    auto it = cast<RankedTensorType>(indices.getType());
    int64_t rank = xt.getRank();
    int64_t spatial = rank - 2;
    if (rank < 3)
      return op.emitOpError("X must have rank 3 or more (N, C, D1, ...)");
    if (it.getRank() != rank)
      return op.emitOpError("I must have the rank of X");
    if (type.getRank() != rank)
      return op.emitOpError("result must have the rank of X");
    for (int64_t d = 0; d < rank; ++d)
      if (!xt.isDynamicDim(d) && !it.isDynamicDim(d) &&
          xt.getDimSize(d) != it.getDimSize(d))
        return op.emitOpError("I must have the shape of X");
    ArrayRef<int64_t> kernel = op.getKernelShape();
    SmallVector<int64_t> strides(spatial, 1), pads(2 * spatial, 0);
    if (auto s = op.getStrides())
      strides.assign(s->begin(), s->end());
    if (auto p = op.getPads())
      pads.assign(p->begin(), p->end());
    if ((int64_t)kernel.size() != spatial ||
        (int64_t)strides.size() != spatial ||
        (int64_t)pads.size() != 2 * spatial)
      return op.emitOpError("kernel_shape, strides and pads must have one "
                            "value per spatial dim (pads two)");
    bool hasShape = !isa<NoneType>(op.getOutputShape().getType());
    if (hasShape) {
      auto st = cast<RankedTensorType>(adaptor.getOutputShape().getType());
      if (st.getRank() != 1 ||
          (!st.isDynamicDim(0) && st.getDimSize(0) != rank))
        return op.emitOpError("output_shape must be 1-D with one value per "
                              "dim of X");
    }

    // Builder calls that create ops are separate statements (not several
    // in one argument list): the IR order must not depend on the
    // compiler's order of evaluating arguments.
    for (int64_t d = 0; d < rank; ++d)
      if (xt.isDynamicDim(d) || it.isDynamicDim(d)) {
        Value iDim = getDimValue(rewriter, loc, indices, d);
        Value xDim = getDimValue(rewriter, loc, x, d);
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::eq, xDim,
                              iDim),
                         "MaxUnpool: I must have the shape of X");
      }
    // The output sizes: the unpooled shape, (in - 1) * stride + kernel -
    // pads per spatial dim, or the output_shape input, which may not be
    // smaller (ONNX Runtime refuses it too: the spec's output_shape only
    // resolves the ambiguity of strides that skipped input).
    Value zero = createIndexConstant(rewriter, loc, 0);
    SmallVector<Value> unpooled;
    for (int64_t d = 0; d < rank; ++d) {
      Value in = getDimValue(rewriter, loc, x, d);
      if (d < 2) {
        unpooled.push_back(in);
        continue;
      }
      int64_t s = d - 2;
      Value stride = createIndexConstant(rewriter, loc, strides[s]);
      Value minusOne = createIndexConstant(rewriter, loc, -1);
      Value v = mulI(rewriter, loc, addI(rewriter, loc, in, minusOne), stride);
      unpooled.push_back(
          addI(rewriter, loc, v,
               createIndexConstant(rewriter, loc,
                                   kernel[s] - pads[s] - pads[s + spatial])));
    }
    SmallVector<Value> sizes = unpooled;
    if (hasShape) {
      Value shape = adaptor.getOutputShape();
      Value rankValue = createIndexConstant(rewriter, loc, rank);
      Value length = getDimValue(rewriter, loc, shape, 0);
      emitRuntimeCheck(
          rewriter, loc,
          cmpI(rewriter, loc, arith::CmpIPredicate::eq, length, rankValue),
          "MaxUnpool: output_shape must have one value per dim of X");
      for (int64_t d = 0; d < rank; ++d) {
        sizes[d] = toIndex(
            rewriter, loc,
            tensor::ExtractOp::create(
                rewriter, loc, shape,
                ValueRange{createIndexConstant(rewriter, loc, d)}));
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::sge,
                              sizes[d], unpooled[d]),
                         "MaxUnpool: output_shape is smaller than the "
                         "unpooled shape");
      }
    }
    for (int64_t d = 0; d < rank; ++d) {
      emitRuntimeCheck(
          rewriter, loc,
          cmpI(rewriter, loc, arith::CmpIPredicate::sge, sizes[d], zero),
          "MaxUnpool: negative output size");
      if (!type.isDynamicDim(d))
        emitRuntimeCheck(
            rewriter, loc,
            cmpI(rewriter, loc, arith::CmpIPredicate::eq, sizes[d],
                 createIndexConstant(rewriter, loc, type.getDimSize(d))),
            "MaxUnpool: the output shape does not match the result type");
    }
    Value total = createIndexConstant(rewriter, loc, 1);
    for (Value s : sizes)
      total = mulI(rewriter, loc, total, s);
    checkEveryElement(
        rewriter, loc, indices, "MaxUnpool: index out of range",
        [&](OpBuilder &b, Location l, Value i, ValueRange) -> Value {
          Value v = toIndex(b, l, i);
          Value below = cmpI(b, l, arith::CmpIPredicate::slt, v, total);
          Value zero = createIndexConstant(b, l, 0);
          Value nonNegative = cmpI(b, l, arith::CmpIPredicate::sge, v, zero);
          return arith::AndIOp::create(b, l, nonNegative, below);
        });

    // Zeros of the output, then the scatter: each linear index is split
    // into the output's coordinates (no reshape of the output, whose
    // dynamic expand_shape the memref lowering mishandles).
    Type elt = type.getElementType();
    Value yInit = createEmpty(rewriter, loc, type, sizes);
    Value yZero = createScalarConstant(rewriter, loc, elt, 0);
    Value y = linalg::FillOp::create(rewriter, loc, yZero, yInit).getResult(0);
    y = buildLoops(
        rewriter, loc, dimValues(rewriter, loc, x), ValueRange{y},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          Value i =
              toIndex(b, l, tensor::ExtractOp::create(b, l, indices, ivs));
          Value v = tensor::ExtractOp::create(b, l, x, ivs);
          SmallVector<Value> pos(rank);
          for (int64_t d = rank - 1; d > 0; --d) {
            pos[d] = arith::RemUIOp::create(b, l, i, sizes[d]);
            i = arith::DivUIOp::create(b, l, i, sizes[d]);
          }
          pos[0] = i; // < sizes[0]: the index is below the output size

          return {tensor::InsertOp::create(b, l, v, args[0], pos)};
        })[0];
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateUnpoolPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<MaxUnpoolLowering>(tc, patterns.getContext());
}

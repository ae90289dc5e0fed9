//===- Gather.cpp - Gather, GatherElements, GatherND -> linalg ------------===//
//
// Every gather is one linalg.generic over the result reading the data with
// tensor.extract at positions computed from the indices. Negative indices
// count from the end of their dim; before the gather, one pass over the
// indices checks that each is in [-dim, dim) and calls onnxc_rt_fail
// otherwise, so no read leaves the data.
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

/// The dims of a result as index values (null for static dims), each taken
/// from `(operand, dim)` by `source(k)`.
SmallVector<Value>
resultSizes(OpBuilder &b, Location loc, RankedTensorType type,
            function_ref<std::pair<Value, int64_t>(int64_t)> source) {
  SmallVector<Value> sizes(type.getRank());
  for (int64_t k = 0; k < type.getRank(); ++k)
    if (type.isDynamicDim(k)) {
      auto [v, d] = source(k);
      sizes[k] = getDimValue(b, loc, v, d);
    }
  return sizes;
}

/// Gather: out[a..., j..., b...] = data[a..., indices[j...], b...] along
/// `axis`; indices in [-n, n), negative ones count from the end.
struct GatherLowering : OpConversionPattern<ONNX::GatherOp> {
  // Takes precedence over the unchecked Gather of Tensor.cpp.
  GatherLowering(TypeConverter &tc, MLIRContext *ctx)
      : OpConversionPattern(tc, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(ONNX::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    int64_t r = cast<RankedTensorType>(data.getType()).getRank();
    int64_t q = cast<RankedTensorType>(indices.getType()).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), r);
    if (axis < 0 || axis >= r)
      return op.emitOpError("axis ") << op.getAxis() << " is out of range";
    int64_t rank = type.getRank();
    Value axisDim = getDimValue(rewriter, loc, data, axis);
    checkEveryElement(rewriter, loc, indices, "Gather: index out of range",
                      [&](OpBuilder &b, Location l, Value i, ValueRange) {
                        return indexInRange(b, l, toIndex(b, l, i), axisDim);
                      });
    SmallVector<Value> sizes =
        resultSizes(rewriter, loc, type, [&](int64_t k) {
          if (k < axis)
            return std::make_pair(data, k);
          if (k < axis + q)
            return std::make_pair(indices, k - axis);
          return std::make_pair(data, k - q + 1);
        });
    Value init = createEmpty(rewriter, loc, type, sizes);
    SmallVector<AffineExpr> idxExprs;
    for (int64_t j = 0; j < q; ++j)
      idxExprs.push_back(getAffineDimExpr(axis + j, ctx));
    // A single index is read once, outside the loop nest: the generic
    // then reads a row at a loop-invariant offset (contiguous, so the loop
    // vectorizes), not an index from memory at every element.
    Value scalarIndex;
    if (q == 0)
      scalarIndex = normalizeIndex(
          rewriter, loc,
          toIndex(rewriter, loc,
                  tensor::ExtractOp::create(rewriter, loc, indices,
                                            ValueRange{})),
          axisDim);
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    if (!scalarIndex) {
      ins.push_back(indices);
      maps.push_back(AffineMap::get(rank, 0, idxExprs, ctx));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ins, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = scalarIndex ? scalarIndex
                                : normalizeIndex(b, l, toIndex(b, l, args[0]),
                                                 axisDim);
          SmallVector<Value> idx;
          for (int64_t k = 0; k < axis; ++k)
            idx.push_back(linalg::IndexOp::create(b, l, k));
          idx.push_back(i);
          for (int64_t k = axis + q; k < rank; ++k)
            idx.push_back(linalg::IndexOp::create(b, l, k));
          linalg::YieldOp::create(
              b, l, ValueRange{tensor::ExtractOp::create(b, l, data, idx)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// GatherElements: out[p] = data[p with p[axis] = indices[p]]; the result
/// has the shape of the indices.
struct GatherElementsLowering : OpConversionPattern<ONNX::GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    if (rank == 0 ||
        cast<RankedTensorType>(indices.getType()).getRank() != rank)
      return op.emitOpError("data and indices must have the same rank >= 1");
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis ") << op.getAxis() << " is out of range";
    Value axisDim = getDimValue(rewriter, loc, data, axis);
    // Besides the axis, the indices must fit inside the data.
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      Value fits = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule,
          getDimValue(rewriter, loc, indices, d),
          getDimValue(rewriter, loc, data, d));
      emitRuntimeCheck(rewriter, loc, fits,
                       "GatherElements: indices larger than the data");
    }
    checkEveryElement(rewriter, loc, indices,
                      "GatherElements: index out of range",
                      [&](OpBuilder &b, Location l, Value i, ValueRange) {
                        return indexInRange(b, l, toIndex(b, l, i), axisDim);
                      });
    Value init = createEmptyLike(rewriter, loc, type, indices);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{indices}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d)
            idx.push_back(
                d == axis
                    ? normalizeIndex(b, l, toIndex(b, l, args[0]), axisDim)
                    : Value(linalg::IndexOp::create(b, l, d)));
          linalg::YieldOp::create(
              b, l, ValueRange{tensor::ExtractOp::create(b, l, data, idx)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// GatherND: with b = batch_dims and k = indices.shape[-1],
/// out[i..., s...] = data[i[:b]..., indices[i..., 0..k)..., s...]: the
/// result shape is indices.shape[:-1] ++ data.shape[b+k:].
struct GatherNDLowering : OpConversionPattern<ONNX::GatherNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto idxType = cast<RankedTensorType>(indices.getType());
    int64_t r = dataType.getRank(), q = idxType.getRank();
    int64_t bd = op.getBatchDims();
    if (q < 1 || r < 1)
      return op.emitOpError("data and indices must have rank >= 1");
    // The index depth k follows from the ranks (rank = q - 1 + r - b - k).
    int64_t rank = type.getRank();
    int64_t k = q - 1 + r - bd - rank;
    if (bd < 0 || bd >= std::min(q, r) || k < 0 || bd + k > r ||
        (!idxType.isDynamicDim(q - 1) && idxType.getDimSize(q - 1) != k))
      return op.emitOpError("batch_dims ")
             << bd << ", the indices and the result rank do not fit the data "
             << "rank " << r;
    if (idxType.isDynamicDim(q - 1))
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, indices, q - 1),
                                createIndexConstant(rewriter, loc, k)),
          "GatherND: the last dim of indices does not match the result rank");
    // Indices' batch dims must equal the data's.
    for (int64_t d = 0; d < bd; ++d)
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, indices, d),
                                getDimValue(rewriter, loc, data, d)),
          "GatherND: batch dims of data and indices differ");
    SmallVector<Value> bounds;
    for (int64_t j = 0; j < k; ++j)
      bounds.push_back(getDimValue(rewriter, loc, data, bd + j));
    if (k > 0)
      checkEveryElement(
          rewriter, loc, indices, "GatherND: index out of range",
          [&](OpBuilder &b, Location l, Value i, ValueRange pos) {
            // The bound of this element: dim bd + pos[-1] of the data.
            Value bound = bounds[0];
            for (int64_t j = 1; j < k; ++j) {
              Value is = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::eq, pos.back(),
                  createIndexConstant(b, l, j));
              bound = arith::SelectOp::create(b, l, is, bounds[j], bound);
            }
            return indexInRange(b, l, toIndex(b, l, i), bound);
          });
    SmallVector<Value> sizes =
        resultSizes(rewriter, loc, type, [&](int64_t d) {
          if (d < q - 1)
            return std::make_pair(indices, d);
          return std::make_pair(data, d - (q - 1) + bd + k);
        });
    Value init = createEmpty(rewriter, loc, type, sizes);
    Value gathered =
        gatherGeneric(rewriter, loc, init, data, [&](OpBuilder &b, Location l) {
          SmallVector<Value> ivs;
          for (int64_t d = 0; d < rank; ++d)
            ivs.push_back(linalg::IndexOp::create(b, l, d));
          SmallVector<Value> idx(ivs.begin(), ivs.begin() + bd);
          SmallVector<Value> ipos(ivs.begin(), ivs.begin() + (q - 1));
          ipos.push_back(Value());
          for (int64_t j = 0; j < k; ++j) {
            ipos.back() = createIndexConstant(b, l, j);
            Value i = toIndex(b, l, tensor::ExtractOp::create(b, l, indices,
                                                              ipos));
            idx.push_back(normalizeIndex(b, l, i, bounds[j]));
          }
          idx.append(ivs.begin() + (q - 1), ivs.end());
          return idx;
        });
    rewriter.replaceOp(op, gathered);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateGatherPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<GatherLowering, GatherElementsLowering, GatherNDLowering>(
      tc, patterns.getContext());
}

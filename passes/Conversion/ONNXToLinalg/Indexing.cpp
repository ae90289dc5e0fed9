//===- Indexing.cpp - OneHot, NonZero, Trilu, Compress, ... -> linalg -----===//
//
// Ops of onnx/defs/tensor that select or place elements by index: OneHot,
// Trilu and ReverseSequence are one linalg.generic over the result
// (EyeLike: Generator.cpp). NonZero and Compress have data-dependent result
// sizes: a first loop counts, a second fills a tensor of that size. A
// result dim that shape inference made static while the op decides it at
// run time (OneHot's depth, NonZero's count) is checked against the
// run-time value (checkStaticDim).
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

/// `x != 0` for an int, bool or float scalar.
Value isNonZero(OpBuilder &b, Location l, Value x) {
  Type t = x.getType();
  if (isFloat(t))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x,
                                 createScalarConstant(b, l, t, 0));
  return cmpI(b, l, arith::CmpIPredicate::ne, x, createIntConstant(b, l, t, 0));
}

/// OneHot: out[p] = (indices[p without axis] mod depth == p[axis]) ? on : off
/// with values = [off, on]; negative indices count from depth, and indices
/// outside [-depth, depth) give an all-off row.
struct OneHotLowering : OpConversionPattern<ONNX::OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value indices = adaptor.getIndices();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis ") << op.getAxis() << " is out of range";
    Type i64 = rewriter.getI64Type();
    // A float depth is converted as Cast would; it must be a size first.
    // One element (a 0-D or 1-D depth of a run-time size 0 was read past
    // its end).
    FailureOr<Value> depthOr =
        scalarOperand(rewriter, loc, op, adaptor.getDepth(), "depth");
    if (failed(depthOr))
      return failure();
    Value rawDepth = *depthOr;
    Value depthIdx =
        isFloat(rawDepth.getType())
            ? floatToSize(rewriter, loc, rawDepth,
                          "OneHot: depth is not a size (NaN, infinite, "
                          "negative or past 2^63 - 1)")
            : toIndex(rewriter, loc,
                      convertScalar(rewriter, loc, rawDepth,
                                    getElementType(op.getDepth()), i64));
    Value depth = arith::IndexCastOp::create(rewriter, loc, i64, depthIdx);
    emitRuntimeCheck(rewriter, loc,
                     cmpI(rewriter, loc, arith::CmpIPredicate::sgt, depthIdx,
                          createIndexConstant(rewriter, loc, 0)),
                     "OneHot: depth must be positive");
    checkStaticDim(rewriter, loc, type, axis, depthIdx,
                   "OneHot: depth does not match the result type");
    Value values = adaptor.getValues();
    Value off = tensor::ExtractOp::create(
        rewriter, loc, values, ValueRange{createIndexConstant(rewriter, loc, 0)});
    Value on = tensor::ExtractOp::create(
        rewriter, loc, values, ValueRange{createIndexConstant(rewriter, loc, 1)});
    SmallVector<Value> sizes(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        sizes[d] = d == axis ? depthIdx
                             : getDimValue(rewriter, loc, indices,
                                           d < axis ? d : d - 1);
    Value init = createEmpty(rewriter, loc, type, sizes);
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        exprs.push_back(rewriter.getAffineDimExpr(d));
    Type onnxIdx = getElementType(op.getIndices());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{indices}, ValueRange{init},
        SmallVector<AffineMap>{
            AffineMap::get(rank, 0, exprs, op.getContext()),
            rewriter.getMultiDimIdentityMap(rank)},
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = convertScalar(b, l, args[0], onnxIdx, i64);
          Value neg = cmpI(b, l, arith::CmpIPredicate::slt, i,
                           createIntConstant(b, l, i64, 0));
          i = arith::SelectOp::create(b, l, neg,
                                      arith::AddIOp::create(b, l, i, depth), i);
          Value pos = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, axis));
          Value hit = cmpI(b, l, arith::CmpIPredicate::eq, i, pos);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::SelectOp::create(b, l, hit, on, off)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// NonZero: the coordinates of the non-zero elements in row-major order, as
/// an i64 tensor [rank, count].
struct NonZeroLowering : OpConversionPattern<ONNX::NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    if (rank == 0)
      return op.emitOpError("a 0-D input is not supported");
    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value zero = createIndexConstant(rewriter, loc, 0);
    // First the count, then the fill.
    Value count =
        buildLoops(rewriter, loc, dims, ValueRange{zero},
                   [&](OpBuilder &b, Location l, ValueRange ivs,
                       ValueRange args) -> SmallVector<Value> {
                     Value nz = isNonZero(
                         b, l, tensor::ExtractOp::create(b, l, x, ivs));
                     Value inc = arith::SelectOp::create(
                         b, l, nz, createIndexConstant(b, l, 1),
                         createIndexConstant(b, l, 0));
                     return {arith::AddIOp::create(b, l, args[0], inc)};
                   })[0];
    checkStaticDim(rewriter, loc, type, 1, count,
                   "NonZero: the count does not match the result type");
    Value init = createEmpty(rewriter, loc, type, {Value(), count});
    Value result =
        buildLoops(
            rewriter, loc, dims, ValueRange{init, zero},
            [&](OpBuilder &b, Location l, ValueRange ivs,
                ValueRange args) -> SmallVector<Value> {
              Value nz =
                  isNonZero(b, l, tensor::ExtractOp::create(b, l, x, ivs));
              return buildIf(
                  b, l, nz, args, [&](OpBuilder &tb, Location tl) {
                    Value out = args[0];
                    for (int64_t d = 0; d < rank; ++d) {
                      Value c = arith::IndexCastOp::create(
                          tb, tl, tb.getI64Type(), ivs[d]);
                      out = tensor::InsertOp::create(
                          tb, tl, c, out,
                          ValueRange{createIndexConstant(tb, tl, d), args[1]});
                    }
                    Value next = arith::AddIOp::create(
                        tb, tl, args[1], createIndexConstant(tb, tl, 1));
                    return SmallVector<Value>{out, next};
                  });
            })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Trilu: keeps the elements of the last two dims with j - i >= k (upper)
/// or j - i <= k (lower), zeroing the others; k defaults to 0. (The op
/// verifier guarantees rank >= 2.)
struct TriluLowering : OpConversionPattern<ONNX::TriluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TriluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value x = adaptor.getInput();
    int64_t rank = type.getRank();
    bool upper = op.getUpper() != 0;
    Value k = createIndexConstant(rewriter, loc, 0);
    if (!isa<NoneType>(op.getK().getType())) {
      FailureOr<Value> kOr =
          scalarOperand(rewriter, loc, op, adaptor.getK(), "k");
      if (failed(kOr))
        return failure();
      k = toIndex(rewriter, loc, *kOr);
    }
    Type elt = type.getElementType();
    Value init = createEmptyLike(rewriter, loc, type, x);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{x}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = linalg::IndexOp::create(b, l, rank - 2);
          Value j = linalg::IndexOp::create(b, l, rank - 1);
          Value diff = arith::SubIOp::create(b, l, j, i);
          Value keep = cmpI(b, l,
                            upper ? arith::CmpIPredicate::sge
                                  : arith::CmpIPredicate::sle,
                            diff, k);
          Value zero = createScalarConstant(b, l, elt, 0);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::SelectOp::create(b, l, keep, args[0],
                                                       zero)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// Compress: the slices along `axis` (elements of the flattened input
/// without an axis) whose condition is true; a condition shorter than the
/// dim drops the rest.
struct CompressLowering : OpConversionPattern<ONNX::CompressOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::CompressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getInput(), cond = adaptor.getCondition();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    if (rank == 0)
      return op.emitOpError("a 0-D input is not supported");
    if (cast<RankedTensorType>(cond.getType()).getRank() != 1)
      return op.emitOpError("condition must be 1-D");
    int64_t axis = 0;
    bool flat = !op.getAxis();
    if (auto a = op.getAxis()) {
      axis = normalizeAxis(*a, rank);
      if (axis < 0 || axis >= rank)
        return op.emitOpError("axis ") << *a << " is out of range";
    }
    if (type.getRank() != (flat ? 1 : rank))
      return op.emitOpError("result rank does not match the input");
    SmallVector<Value> dims = dimValues(rewriter, loc, data);
    Value n = arith::MinUIOp::create(
        rewriter, loc, getDimValue(rewriter, loc, cond, 0),
        flat ? dimProduct(rewriter, loc, data, 0, rank) : dims[axis]);
    Value count =
        buildLoops(rewriter, loc, {n},
                   ValueRange{createIndexConstant(rewriter, loc, 0)},
                   [&](OpBuilder &b, Location l, ValueRange ivs,
                       ValueRange args) -> SmallVector<Value> {
                     Value c = tensor::ExtractOp::create(b, l, cond, ivs);
                     Value inc = arith::SelectOp::create(
                         b, l, c, createIndexConstant(b, l, 1),
                         createIndexConstant(b, l, 0));
                     return {arith::AddIOp::create(b, l, args[0], inc)};
                   })[0];
    checkStaticDim(rewriter, loc, type, axis, count,
                   "Compress: the count does not match the result type");
    SmallVector<Value> sizes = flat ? SmallVector<Value>{count} : dims;
    sizes[axis] = count;
    Value init = createEmpty(rewriter, loc, type, sizes);
    Value result =
        buildLoops(
            rewriter, loc, {n},
            ValueRange{init, createIndexConstant(rewriter, loc, 0)},
            [&](OpBuilder &b, Location l, ValueRange ivs,
                ValueRange args) -> SmallVector<Value> {
              Value c = tensor::ExtractOp::create(b, l, cond, ivs);
              return buildIf(b, l, c, args, [&](OpBuilder &tb, Location tl) {
                Value next = arith::AddIOp::create(
                    tb, tl, args[1], createIndexConstant(tb, tl, 1));
                if (flat) {
                  Value v = tensor::ExtractOp::create(
                      tb, tl, data, delinearize(tb, tl, ivs[0], dims));
                  return SmallVector<Value>{
                      tensor::InsertOp::create(tb, tl, v, args[0], args[1]),
                      next};
                }
                // Element by element (a strided slice copy would need the
                // memrefCopy library function).
                SmallVector<Value> slice = dimValues(tb, tl, data);
                slice[axis] = createIndexConstant(tb, tl, 1);
                Value out =
                    buildLoops(tb, tl, slice, ValueRange{args[0]},
                               [&](OpBuilder &eb, Location el, ValueRange pos,
                                   ValueRange st) -> SmallVector<Value> {
                                 SmallVector<Value> from(pos), to(pos);
                                 from[axis] = ivs[0];
                                 to[axis] = args[1];
                                 Value v = tensor::ExtractOp::create(
                                     eb, el, data, from);
                                 return {tensor::InsertOp::create(eb, el, v,
                                                                  st[0], to)};
                               })[0];
                return SmallVector<Value>{out, next};
              });
            })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// ReverseSequence: for batch b, the first sequence_lens[b] steps along the
/// time axis are reversed; the rest are copied.
struct ReverseSequenceLowering : OpConversionPattern<ONNX::ReverseSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ReverseSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getInput(), lens = adaptor.getSequenceLens();
    int64_t rank = type.getRank();
    int64_t batchAxis = op.getBatchAxis(), timeAxis = op.getTimeAxis();
    if (rank < 2 || batchAxis < 0 || batchAxis > 1 || timeAxis < 0 ||
        timeAxis > 1 || batchAxis == timeAxis)
      return op.emitOpError("batch_axis and time_axis must be 0 and 1 (in "
                            "either order) of an input of rank >= 2");
    Value timeDim = getDimValue(rewriter, loc, x, timeAxis);
    emitRuntimeCheck(
        rewriter, loc,
        cmpI(rewriter, loc, arith::CmpIPredicate::eq,
             getDimValue(rewriter, loc, lens, 0),
             getDimValue(rewriter, loc, x, batchAxis)),
        "ReverseSequence: sequence_lens does not match the batch size");
    checkEveryElement(
        rewriter, loc, lens, "ReverseSequence: sequence length out of range",
        [&](OpBuilder &b, Location l, Value v, ValueRange) {
          Value i = toIndex(b, l, v);
          return arith::AndIOp::create(
              b, l,
              cmpI(b, l, arith::CmpIPredicate::sge, i,
                   createIndexConstant(b, l, 0)),
              cmpI(b, l, arith::CmpIPredicate::sle, i, timeDim));
        });
    Value init = createEmptyLike(rewriter, loc, type, x);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        parallelIterators(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d)
            idx.push_back(linalg::IndexOp::create(b, l, d));
          Value len = toIndex(
              b, l, tensor::ExtractOp::create(b, l, lens, idx[batchAxis]));
          Value t = idx[timeAxis];
          Value rev = arith::SubIOp::create(
              b, l,
              arith::SubIOp::create(b, l, len, createIndexConstant(b, l, 1)),
              t);
          idx[timeAxis] = arith::SelectOp::create(
              b, l, cmpI(b, l, arith::CmpIPredicate::slt, t, len), rev, t);
          linalg::YieldOp::create(
              b, l, ValueRange{tensor::ExtractOp::create(b, l, x, idx)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateIndexingPatterns(TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<OneHotLowering, NonZeroLowering, TriluLowering,
               CompressLowering, ReverseSequenceLowering>(
      tc, patterns.getContext());
}

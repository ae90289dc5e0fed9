//===- Tensor.cpp - Shape and data-movement onnx ops -> tensor/linalg -----===//
//
// Shape, Size, ConstantOfShape, Reshape, Flatten, Squeeze, Unsqueeze,
// Transpose, Concat, Expand, Tile, Slice, Range, Split. Result types
// come from shape inference; operands that determine shapes (Reshape's shape,
// Slice's starts, ...) are read from constants where the pattern needs them
// at compile time and from the tensor at run time otherwise.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/IndexingCommon.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Element `i` of the 1-D integer tensor `t` as an index value.
Value extractIndex(OpBuilder &b, Location loc, Value t, int64_t i) {
  Value e = tensor::ExtractOp::create(b, loc, t,
                                      ValueRange{createIndexConstant(b, loc, i)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
}

Value mulIdx(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulIOp::create(b, loc, x, y);
}

/// The result as a tensor.cast of `v` when the types differ (refinement).
Value castTo(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  if (v.getType() == type)
    return v;
  return tensor::CastOp::create(b, loc, type, v);
}

/// Shape: the dims [start, end) of the input as an i64 tensor.
struct ShapeLowering : OpConversionPattern<ONNX::ShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    auto clampAxis = [&](int64_t a) {
      a = a < 0 ? a + rank : a;
      return std::clamp<int64_t>(a, 0, rank);
    };
    int64_t start = clampAxis(op.getStart());
    int64_t end = op.getEnd() ? clampAxis(*op.getEnd()) : rank;
    SmallVector<Value> dims;
    for (int64_t d = start; d < end; ++d)
      dims.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI64Type(), getDimValue(rewriter, loc, data, d)));
    auto type = convertedTensorType(getTypeConverter(), op.getShape());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, type, dims);
    return success();
  }
};

/// Size: the element count of the input as an i64 scalar tensor.
struct SizeLowering : OpConversionPattern<ONNX::SizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    Value n = dimProduct(rewriter, loc, data, 0, rank);
    n = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), n);
    auto type = convertedTensorType(getTypeConverter(), op.getSize());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, type, n);
    return success();
  }
};

/// The run-time sizes of a result whose dims are the entries of a 1-D shape
/// tensor (null for the static dims of `type`).
SmallVector<Value> sizesFromShapeTensor(OpBuilder &b, Location loc,
                                        Value shape, RankedTensorType type) {
  SmallVector<Value> sizes(type.getRank());
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes[i] = extractIndex(b, loc, shape, i);
  return sizes;
}

/// ConstantOfShape: a tensor of the given shape filled with `value` (a
/// one-element tensor; default 0.0 f32).
struct ConstantOfShapeLowering : OpConversionPattern<ONNX::ConstantOfShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConstantOfShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Type elt = type.getElementType();
    TypedAttr scalar;
    if (auto v = op.getValueAttr()) {
      auto dense = dyn_cast<DenseElementsAttr>(v);
      if (!dense || dense.getNumElements() != 1)
        return op.emitOpError("value must be a one-element dense tensor");
      if (auto ft = dyn_cast<FloatType>(elt))
        scalar = rewriter.getFloatAttr(ft, *dense.getValues<APFloat>().begin());
      else
        scalar = rewriter.getIntegerAttr(elt, *dense.getValues<APInt>().begin());
    } else {
      scalar = rewriter.getZeroAttr(elt);
    }
    SmallVector<Value> sizes =
        sizesFromShapeTensor(rewriter, loc, adaptor.getInput(), type);
    // Static dims come from inference: the shape must agree (negative and
    // overlarge dynamic dims fail at the allocation: onnxc-check-alloc-sizes).
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (!type.isDynamicDim(i)) {
        Value v = extractIndex(rewriter, loc, adaptor.getInput(), i);
        Value want = createIndexConstant(rewriter, loc, type.getDimSize(i));
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, want),
                         "ConstantOfShape: dim {} is {} where {} is required",
                         {createIndexConstant(rewriter, loc, i), v, want});
      }
    Value empty = createEmpty(rewriter, loc, type, sizes);
    Value c = arith::ConstantOp::create(rewriter, loc, scalar);
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, loc, c, empty));
    return success();
  }
};

/// Reshape: the output dims come from `shape`, where 0 copies the input dim
/// (unless allowzero) and -1 takes the remaining element count. Run-time
/// checks (folded away for constant shapes and static inputs): entries >=
/// -1, at most one -1, no 0 past the input's rank (without allowzero), no 0
/// beside a -1 (with allowzero), a -1 whose other entries multiply to a
/// non-zero divisor of the element count, else entries that multiply to
/// the element count.
struct ReshapeLowering : OpConversionPattern<ONNX::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto type = convertedTensorType(getTypeConverter(), op.getReshaped());
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    bool allowZero = op.getAllowzero() != 0;
    int64_t rank = type.getRank(), inRank = inType.getRank();
    using P = arith::CmpIPredicate;
    Value zero = createIndexConstant(b, loc, 0);
    Value one = createIndexConstant(b, loc, 1);
    Value mone = createIndexConstant(b, loc, -1);
    auto constShape = getConstantInts(op.getShape(), adaptor.getShape());
    auto shapeType = cast<RankedTensorType>(adaptor.getShape().getType());
    if (shapeType.isDynamicDim(0))
      emitRuntimeCheck(
          b, loc,
          cmpI(b, loc, P::eq, getDimValue(b, loc, adaptor.getShape(), 0),
               createIndexConstant(b, loc, rank)),
          "Reshape: the shape has {} entries for a result of rank {}",
          {getDimValue(b, loc, adaptor.getShape(), 0),
           createIndexConstant(b, loc, rank)});
    // The entries, and the dims they give (0 resolved, -1 kept).
    SmallVector<Value> dims(rank);
    Value negCount = zero, anyZero = arith::ConstantOp::create(
                                         b, loc, b.getBoolAttr(false));
    for (int64_t i = 0; i < rank; ++i) {
      Value e = constShape ? createIndexConstant(b, loc, (*constShape)[i])
                           : extractIndex(b, loc, adaptor.getShape(), i);
      emitRuntimeCheck(b, loc, cmpI(b, loc, P::sge, e, mone),
                       "Reshape: shape entry {} is {}",
                       {createIndexConstant(b, loc, i), e});
      Value isZero = cmpI(b, loc, P::eq, e, zero);
      Value isNeg = cmpI(b, loc, P::eq, e, mone);
      negCount = b.createOrFold<arith::AddIOp>(
          loc, negCount, b.createOrFold<arith::SelectOp>(loc, isNeg, one, zero));
      if (allowZero) {
        anyZero = b.createOrFold<arith::OrIOp>(loc, anyZero, isZero);
      } else if (i < inRank) {
        e = b.createOrFold<arith::SelectOp>(loc, isZero,
                                            getDimValue(b, loc, data, i), e);
      } else {
        emitRuntimeCheck(b, loc, cmpI(b, loc, arith::CmpIPredicate::ne, e, zero),
                         "Reshape: shape entry {} is 0 (copy the input dim) "
                         "but the input has rank {}",
                         {createIndexConstant(b, loc, i),
                          createIndexConstant(b, loc, inRank)});
      }
      dims[i] = e;
    }
    emitRuntimeCheck(b, loc, cmpI(b, loc, P::ule, negCount, one),
                     "Reshape: the shape has {} entries of -1", {negCount});
    Value hasNeg = cmpI(b, loc, P::eq, negCount, one);
    if (allowZero)
      emitRuntimeCheck(
          b, loc,
          b.createOrFold<arith::XOrIOp>(
              loc, b.createOrFold<arith::AndIOp>(loc, hasNeg, anyZero),
              arith::ConstantOp::create(b, loc, b.getBoolAttr(true))),
          "Reshape: with allowzero, the shape has both 0 and -1");
    // The element counts: the input's (it fits: the input exists) and the
    // entries' other than -1 (checked: they come from data).
    Value total = dimProduct(b, loc, data, 0, inRank);
    Value known = one;
    for (int64_t i = 0; i < rank; ++i) {
      Value d = b.createOrFold<arith::SelectOp>(
          loc, cmpI(b, loc, P::eq, dims[i], mone), one, dims[i]);
      known = checkedMul(b, loc, known, d,
                         "Reshape: the shape's entries multiply past 2^63 - 1 "
                         "({} x {})");
    }
    // With a -1: known divides total (known 0 leaves -1 undetermined);
    // without: known is total.
    Value knownNonZero = cmpI(b, loc, P::ne, known, zero);
    Value safeKnown = b.createOrFold<arith::SelectOp>(loc, knownNonZero, known, one);
    Value rem = b.createOrFold<arith::RemUIOp>(loc, total, safeKnown);
    Value divides = b.createOrFold<arith::AndIOp>(
        loc, knownNonZero, cmpI(b, loc, P::eq, rem, zero));
    Value ok = b.createOrFold<arith::SelectOp>(
        loc, hasNeg, divides, cmpI(b, loc, P::eq, known, total));
    emitRuntimeCheck(b, loc, ok,
                     "Reshape: {} elements do not fit the shape (its entries "
                     "other than -1 multiply to {})",
                     {total, known});
    Value inferred = b.createOrFold<arith::DivUIOp>(loc, total, safeKnown);
    for (int64_t i = 0; i < rank; ++i) {
      dims[i] = b.createOrFold<arith::SelectOp>(
          loc, cmpI(b, loc, P::eq, dims[i], mone), inferred, dims[i]);
      // Static result dims come from inference: the shape must agree.
      if (!type.isDynamicDim(i)) {
        Value want = createIndexConstant(b, loc, type.getDimSize(i));
        emitRuntimeCheck(b, loc, cmpI(b, loc, P::eq, dims[i], want),
                         "Reshape: result dim {} is {} where {} is required",
                         {createIndexConstant(b, loc, i), dims[i], want});
        dims[i] = want;
      }
    }
    Value shape;
    if (type.hasStaticShape())
      shape = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({rank}, b.getIndexType()),
              llvm::to_vector(llvm::map_range(type.getShape(), [&](int64_t d) {
                return cast<Attribute>(b.getIndexAttr(d));
              }))));
    else
      shape = tensor::FromElementsOp::create(
          b, loc, RankedTensorType::get({rank}, b.getIndexType()), dims);
    rewriter.replaceOp(op,
                       tensor::ReshapeOp::create(b, loc, type, data, shape));
    return success();
  }
};

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

/// Groups the dims of the higher-rank side of a unit-dim collapse/expand:
/// each kept dim with the unit dims next to it (`unit[d]` marks them).
SmallVector<ReassociationIndices> unitReassociation(ArrayRef<bool> unit) {
  SmallVector<ReassociationIndices> re;
  ReassociationIndices pending;
  for (int64_t d = 0, e = unit.size(); d < e; ++d) {
    pending.push_back(d);
    if (!unit[d]) {
      re.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty() && !re.empty())
    re.back().append(pending.begin(), pending.end());
  return re;
}

/// Squeeze: drops the given unit dims (all static unit dims without axes).
struct SqueezeLowering : OpConversionPattern<ONNX::SqueezeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getSqueezed());
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    SmallVector<bool> unit(rank, false);
    if (isa<NoneType>(op.getAxes().getType())) {
      // Without axes the result's rank would depend on run-time dims: the
      // static unit dims go, and a dynamic dim that is 1 at run time is an
      // error (found by difffuzz.py; ORT would drop it).
      for (int64_t d = 0; d < rank; ++d) {
        unit[d] = inType.getDimSize(d) == 1;
        if (inType.isDynamicDim(d)) {
          Value dim = tensor::DimOp::create(rewriter, loc, data, d);
          emitRuntimeCheck(
              rewriter, loc,
              cmpI(rewriter, loc, arith::CmpIPredicate::ne, dim,
                   createIndexConstant(rewriter, loc, 1)),
              "Squeeze without axes: dim {} of the input is 1 at run time "
              "(the result's rank would depend on it: give axes)",
              {createIndexConstant(rewriter, loc, d)});
        }
      }
    } else if (auto axes = getConstantInts(op.getAxes(), adaptor.getAxes())) {
      for (int64_t a : *axes)
        unit[normalizeAxis(a, rank)] = true;
    } else {
      // Axes known only at run time: the types say which dims go.
      auto re = getReassociationIndicesForReshape(inType, type);
      if (!re)
        return op.emitOpError("non-constant axes with ambiguous types are not "
                              "supported");
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, type, data, *re);
      return success();
    }
    // Squeezed dynamic dims are 1 at run time: say so first.
    SmallVector<int64_t> shape(inType.getShape());
    for (int64_t d = 0; d < rank; ++d)
      if (unit[d])
        shape[d] = 1;
    data = castTo(rewriter, loc, data,
                  RankedTensorType::get(shape, inType.getElementType()));
    // The collapsed type follows the input's static dims; the inferred
    // result type may know fewer (found by difffuzz.py: 4x?x?x1 squeezed
    // to ?x?x?).
    Value r = tensor::CollapseShapeOp::create(rewriter, loc, data,
                                              unitReassociation(unit));
    rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
    return success();
  }
};

/// Unsqueeze: inserts unit dims at the given result positions.
struct UnsqueezeLowering : OpConversionPattern<ONNX::UnsqueezeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::UnsqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getExpanded());
    Value data = adaptor.getData();
    int64_t rank = type.getRank();
    SmallVector<bool> unit(rank, false);
    if (auto axes = getConstantInts(op.getAxes(), adaptor.getAxes())) {
      for (int64_t a : *axes)
        unit[normalizeAxis(a, rank)] = true;
    } else {
      // Axes known only at run time: the types say which dims are new.
      auto inType = cast<RankedTensorType>(data.getType());
      auto re = getReassociationIndicesForReshape(inType, type);
      if (!re || !type.hasStaticShape())
        return op.emitOpError("non-constant axes with ambiguous types are not "
                              "supported");
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, type, data, *re,
          getAsIndexOpFoldResult(rewriter.getContext(), type.getShape()));
      return success();
    }
    SmallVector<OpFoldResult> outShape;
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      outShape.push_back(unit[d] ? OpFoldResult(rewriter.getIndexAttr(1))
                                 : getDimOFR(rewriter, loc, data, src++));
    Value r = tensor::ExpandShapeOp::create(rewriter, loc, type, data,
                                            unitReassociation(unit), outShape);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Transpose: result dim i is input dim perm[i] (default: reversed).
struct TransposeLowering : OpConversionPattern<ONNX::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getTransposed());
    Value data = adaptor.getData();
    int64_t rank = type.getRank();
    SmallVector<int64_t> perm;
    if (auto p = op.getPerm())
      perm.assign(p->begin(), p->end());
    else
      for (int64_t d = rank - 1; d >= 0; --d)
        perm.push_back(d);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(type.isDynamicDim(d)
                          ? getDimValue(rewriter, loc, data, perm[d])
                          : Value());
    Value init = createEmpty(rewriter, loc, type, sizes);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc, data,
                                                       init, perm)
                               .getResult());
    return success();
  }
};

/// Concat: the inputs one after the other along `axis`.
struct ConcatLowering : OpConversionPattern<ONNX::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getConcatResult());
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    ValueRange inputs = adaptor.getInputs();
    SmallVector<Value> sizes(rank);
    // Every input has the result's dims but along the axis (checked: the
    // inputs' types may not say so), and those add up to the result's.
    for (int64_t d = 0; d < rank; ++d) {
      Value n;
      if (d != axis) {
        n = getDimValue(rewriter, loc, inputs[0], d);
        for (auto [k, in] : llvm::enumerate(inputs.drop_front())) {
          Value dk = getDimValue(rewriter, loc, in, d);
          emitRuntimeCheck(
              rewriter, loc, cmpI(rewriter, loc, arith::CmpIPredicate::eq, dk, n),
              "Concat: input {} has {} in dim {}, input 0 has another size",
              {createIndexConstant(rewriter, loc, k + 1), dk,
               createIndexConstant(rewriter, loc, d)});
        }
      } else {
        // Each input fits in memory, their sum need not (inputs with an
        // empty other dim): checked.
        n = createIndexConstant(rewriter, loc, 0);
        for (Value in : inputs)
          n = checkedAdd(rewriter, loc, n, getDimValue(rewriter, loc, in, d),
                         "Concat: the inputs' dims along the axis overflow "
                         "({} + {})");
      }
      if (type.isDynamicDim(d)) {
        sizes[d] = n;
        continue;
      }
      Value want = createIndexConstant(rewriter, loc, type.getDimSize(d));
      emitRuntimeCheck(
          rewriter, loc, cmpI(rewriter, loc, arith::CmpIPredicate::eq, n, want),
          "Concat: result dim {} is {} where {} is required",
          {createIndexConstant(rewriter, loc, d), n, want});
    }
    Value result = createEmpty(rewriter, loc, type, sizes);
    // An empty result holds nothing to insert, and an input empty along the
    // axis adds nothing (insert_slice refuses any static offset into a dim
    // of size 0, or at the end of a dim: found by difffuzz.py).
    if (llvm::is_contained(type.getShape(), 0)) {
      rewriter.replaceOp(op, result);
      return success();
    }
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value in : inputs) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> inSizes;
      for (int64_t d = 0; d < rank; ++d)
        inSizes.push_back(getDimOFR(rewriter, loc, in, d));
      if (std::optional<int64_t> n = getConstantIntValue(inSizes[axis]);
          n && *n == 0)
        continue;
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result,
                                             offsets, inSizes, strides);
      // Next offset: static while every size so far is.
      auto so = getConstantIntValue(offset), ss = getConstantIntValue(inSizes[axis]);
      if (so && ss)
        offset = rewriter.getIndexAttr(*so + *ss);
      else
        offset = arith::AddIOp::create(
                     rewriter, loc,
                     getValueOrCreateConstantIndexOp(rewriter, loc, offset),
                     getValueOrCreateConstantIndexOp(rewriter, loc,
                                                     inSizes[axis]))
                     .getResult();
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

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
    bool anyDynamic = !type.hasStaticShape();
    Value r = buildElementwise(
        rewriter, loc, op, {data}, {op.getInput()}, op.getOutput(), type,
        [](ScalarContext &c) { return c.args[0]; },
        anyDynamic ? ArrayRef<Value>(sizes) : ArrayRef<Value>());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Tile: output[i] = input[i mod dim] along every axis.
struct TileLowering : OpConversionPattern<ONNX::TileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getInput();
    int64_t rank = type.getRank();
    SmallVector<Value> sizes(rank), inDims;
    for (int64_t d = 0; d < rank; ++d) {
      inDims.push_back(getDimValue(rewriter, loc, data, d));
      if (type.isDynamicDim(d))
        sizes[d] = checkedMul(
            rewriter, loc, inDims[d],
            extractIndex(rewriter, loc, adaptor.getRepeats(), d),
            "Tile: a dim of {} repeated {} times is negative or more than "
            "2^63 - 1");
    }
    Value init = createEmpty(rewriter, loc, type, sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d)
            idx.push_back(arith::RemUIOp::create(
                b, l, linalg::IndexOp::create(b, l, d), inDims[d]));
          linalg::YieldOp::create(
              b, l, ValueRange{tensor::ExtractOp::create(b, l, data, idx)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// Slice with starts/ends/axes/steps known only at run time: per input
/// dim, the offset and step are selected from the entries whose axis is
/// that dim, clamped as ONNX specifies, and the result is read element by
/// element.
Value runtimeSlice(ConversionPatternRewriter &b, ONNX::SliceOp op,
                   ONNX::SliceOp::Adaptor adaptor, RankedTensorType type) {
  Location loc = op.getLoc();
  Value data = adaptor.getData();
  int64_t rank = type.getRank();
  auto i64 = b.getI64Type();
  bool hasAxes = !isa<NoneType>(op.getAxes().getType());
  bool hasSteps = !isa<NoneType>(op.getSteps().getType());
  auto c = [&](int64_t v) { return createIntConstant(b, loc, i64, v); };
  auto sel = [&](Value p, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, p, x, y);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  using P = arith::CmpIPredicate;
  auto clamp = [&](Value v, Value lo, Value hi) -> Value {
    return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo),
                                  hi);
  };
  // The number of entries may itself be known only at run time: an scf.for
  // walks them, carrying (offset, step, count) of dim d.
  Value numEntries = getDimValue(b, loc, adaptor.getStarts(), 0);
  SmallVector<Value> offs, steps, sizes(rank);
  // First the entries themselves: as many ends, axes and steps as starts,
  // every axis in [-rank, rank), no step 0 (checks fold for constants).
  {
    SmallVector<Value> others{adaptor.getEnds()};
    if (hasAxes)
      others.push_back(adaptor.getAxes());
    if (hasSteps)
      others.push_back(adaptor.getSteps());
    for (Value t : others) {
      Value n = getDimValue(b, loc, t, 0);
      emitRuntimeCheck(b, loc, cmpI(b, loc, P::eq, n, numEntries),
                       "Slice: {} starts but {} ends, axes or steps",
                       {numEntries, n});
    }
    scf::ForOp::create(
        b, loc, createIndexConstant(b, loc, 0), numEntries,
        createIndexConstant(b, loc, 1), ValueRange{},
        [&](OpBuilder &body, Location, Value iv, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(body.getInsertionBlock(), body.getInsertionPoint());
          auto at = [&](Value t) -> Value {
            Value e = tensor::ExtractOp::create(b, loc, t, ValueRange{iv});
            return e.getType() == i64 ? e
                                      : Value(arith::ExtSIOp::create(b, loc, i64, e));
          };
          if (hasAxes) {
            Value axis = at(adaptor.getAxes());
            Value ok = arith::AndIOp::create(b, loc, cmp(P::sge, axis, c(-rank)),
                                             cmp(P::slt, axis, c(rank)));
            emitRuntimeCheck(b, loc, op, ok,
                             "Slice: axis {} is out of range for rank {}",
                             {axis, c(rank)});
          }
          if (hasSteps)
            emitRuntimeCheck(b, loc, op,
                             cmp(P::ne, at(adaptor.getSteps()), c(0)),
                             "Slice: a step is 0");
          scf::YieldOp::create(b, loc);
        });
  }
  for (int64_t d = 0; d < rank; ++d) {
    Value dim = arith::IndexCastOp::create(b, loc, i64,
                                           getDimValue(b, loc, data, d));
    auto loop = scf::ForOp::create(
        b, loc, createIndexConstant(b, loc, 0), numEntries,
        createIndexConstant(b, loc, 1), ValueRange{c(0), c(1), dim, c(0)},
        [&](OpBuilder &body, Location, Value iv, ValueRange carried) {
          // The helpers above build with `b`: point it into the body.
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(body.getInsertionBlock(), body.getInsertionPoint());
          auto at = [&](Value t) -> Value {
            Value e = tensor::ExtractOp::create(b, loc, t, ValueRange{iv});
            return e.getType() == i64 ? e
                                      : Value(arith::ExtSIOp::create(b, loc, i64, e));
          };
          Value i64Iv = arith::IndexCastOp::create(b, loc, i64, iv);
          Value axis = hasAxes ? at(adaptor.getAxes()) : i64Iv;
          axis = sel(cmp(P::slt, axis, c(0)),
                     arith::AddIOp::create(b, loc, axis, c(rank)), axis);
          Value is = cmp(P::eq, axis, c(d));
          Value st = hasSteps ? at(adaptor.getSteps()) : c(1);
          // A step past the dim takes one element, as the dim + 1 does
          // (and e - s + st then cannot overflow).
          Value bound = arith::AddIOp::create(b, loc, dim, c(1));
          st = clamp(st, arith::SubIOp::create(b, loc, c(0), bound), bound);
          Value s = at(adaptor.getStarts()), e = at(adaptor.getEnds());
          s = sel(cmp(P::slt, s, c(0)), arith::AddIOp::create(b, loc, s, dim), s);
          e = sel(cmp(P::slt, e, c(0)), arith::AddIOp::create(b, loc, e, dim), e);
          Value pos = cmp(P::sgt, st, c(0));
          Value dm1 = arith::SubIOp::create(b, loc, dim, c(1));
          s = sel(pos, clamp(s, c(0), dim), clamp(s, c(0), dm1));
          e = sel(pos, clamp(e, c(0), dim), clamp(e, c(-1), dm1));
          // count = max(0, ceil((e - s) / st)) for either sign of st.
          Value diff = arith::SubIOp::create(b, loc, e, s);
          Value adj = sel(pos, arith::SubIOp::create(b, loc, st, c(1)),
                          arith::AddIOp::create(b, loc, st, c(1)));
          Value cnt = arith::DivSIOp::create(
              b, loc, arith::AddIOp::create(b, loc, diff, adj), st);
          cnt = arith::MaxSIOp::create(b, loc, cnt, c(0));
          Value seen = arith::AddIOp::create(
              b, loc, carried[3], sel(is, c(1), c(0)));
          scf::YieldOp::create(b, loc,
                               ValueRange{sel(is, s, carried[0]),
                                          sel(is, st, carried[1]),
                                          sel(is, cnt, carried[2]), seen});
        });
    Value off = loop.getResult(0), step = loop.getResult(1),
          count = loop.getResult(2);
    emitRuntimeCheck(b, loc, cmp(P::sle, loop.getResult(3), c(1)),
                     "Slice: axis {} appears {} times", {c(d), loop.getResult(3)});
    auto idx = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    };
    offs.push_back(idx(off));
    steps.push_back(idx(step));
    if (type.isDynamicDim(d))
      sizes[d] = idx(count);
  }
  Value init = createEmpty(b, loc, type, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> idx;
               for (int64_t d = 0; d < rank; ++d) {
                 Value i = linalg::IndexOp::create(nb, l, d);
                 i = arith::MulIOp::create(nb, l, i, steps[d]);
                 idx.push_back(arith::AddIOp::create(nb, l, i, offs[d]));
               }
               linalg::YieldOp::create(
                   nb, l, ValueRange{tensor::ExtractOp::create(nb, l, data, idx)});
             })
      .getResult(0);
}

/// Slice: per axis, elements start, start + step, ... before end (starts and
/// ends clamped as ONNX specifies; negative values count from the end;
/// negative steps walk backwards). Constant operands on static dims give a
/// tensor.extract_slice (positive steps) or a strided read (negative steps);
/// anything else goes through runtimeSlice.
struct SliceLowering : OpConversionPattern<ONNX::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    auto starts = getConstantInts(op.getStarts(), adaptor.getStarts());
    auto ends = getConstantInts(op.getEnds(), adaptor.getEnds());
    bool hasAxes = !isa<NoneType>(op.getAxes().getType());
    bool hasSteps = !isa<NoneType>(op.getSteps().getType());
    std::optional<SmallVector<int64_t>> axesC, stepsC;
    if (hasAxes)
      axesC = getConstantInts(op.getAxes(), adaptor.getAxes());
    if (hasSteps)
      stepsC = getConstantInts(op.getSteps(), adaptor.getSteps());
    bool dynSliced = false;
    if (starts && (!hasAxes || axesC))
      for (int64_t i = 0, e = starts->size(); i < e; ++i) {
        if (hasAxes && i >= (int64_t)axesC->size())
          return op.emitOpError("starts, ends, axes and steps differ in length");
        int64_t d = normalizeAxis(hasAxes ? (*axesC)[i] : i, rank);
        if (d < 0 || d >= rank)
          return op.emitOpError("axis ")
                 << (hasAxes ? (*axesC)[i] : i) << " is out of range for rank "
                 << rank;
        dynSliced |= inType.isDynamicDim(d);
      }
    if (!starts || !ends || (hasAxes && !axesC) || (hasSteps && !stepsC) ||
        dynSliced) {
      rewriter.replaceOp(op, runtimeSlice(rewriter, op, adaptor, type));
      return success();
    }
    SmallVector<int64_t> axes, steps;
    if (hasAxes)
      axes.assign(axesC->begin(), axesC->end());
    else
      for (int64_t i = 0, e = starts->size(); i < e; ++i)
        axes.push_back(i);
    if (hasSteps)
      steps.assign(stepsC->begin(), stepsC->end());
    else
      steps.assign(starts->size(), 1);
    if (axes.size() != starts->size() || ends->size() != starts->size() ||
        steps.size() != starts->size())
      return op.emitOpError("starts, ends, axes and steps differ in length");
    SmallVector<bool> seen(rank, false);
    for (int64_t a : axes) {
      int64_t d = normalizeAxis(a, rank);
      if (d < 0 || d >= rank)
        return op.emitOpError("axis ") << a << " is out of range for rank "
                                       << rank;
      if (seen[d])
        return op.emitOpError("axis ") << a << " appears twice";
      seen[d] = true;
    }
    SmallVector<int64_t> offs(rank, 0), strides(rank, 1);
    SmallVector<OpFoldResult> sizes;
    bool negative = false;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(getDimOFR(rewriter, loc, data, d));
    for (auto [i, axis] : llvm::enumerate(axes)) {
      int64_t d = normalizeAxis(axis, rank);
      int64_t step = steps[i];
      if (step == 0)
        return op.emitOpError("steps must not be 0");
      int64_t dim = inType.getDimSize(d);
      int64_t s = (*starts)[i], e = (*ends)[i];
      s = s < 0 ? s + dim : s;
      e = e < 0 ? e + dim : e;
      if (step > 0) {
        s = std::clamp<int64_t>(s, 0, dim);
        e = std::clamp<int64_t>(e, 0, dim);
      } else {
        s = std::clamp<int64_t>(s, 0, dim - 1);
        e = std::clamp<int64_t>(e, -1, dim - 1);
      }
      // Without overflow for any step (INT64_MIN and INT64_MAX included).
      int64_t span = step > 0 ? e - s : s - e;
      int64_t n = span <= 0 ? 0
                  : step > 0 ? 1 + (span - 1) / step
                  : step == INT64_MIN ? 1
                                      : 1 + (span - 1) / -step;
      offs[d] = s;
      strides[d] = n <= 1 ? 1 : step;
      sizes[d] = rewriter.getIndexAttr(n);
      negative |= strides[d] < 0;
    }
    // An empty result reads nothing. (extract_slice refuses any static
    // offset into a dim of size 0, and the clamped start may be the dim.)
    bool empty = llvm::any_of(sizes, [](OpFoldResult s) {
      std::optional<int64_t> c = getConstantIntValue(s);
      return c && *c == 0;
    });
    if (empty) {
      SmallVector<Value> dyn(rank);
      for (int64_t d = 0; d < rank; ++d)
        if (type.isDynamicDim(d))
          dyn[d] = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, dyn));
      return success();
    }
    if (!negative) {
      SmallVector<OpFoldResult> o, st;
      for (int64_t d = 0; d < rank; ++d) {
        o.push_back(rewriter.getIndexAttr(offs[d]));
        st.push_back(rewriter.getIndexAttr(strides[d]));
      }
      Value r = tensor::ExtractSliceOp::create(rewriter, loc, type, data, o,
                                               sizes, st);
      rewriter.replaceOp(op, r);
      return success();
    }
    // Negative steps: read input[off + i * step] element by element.
    SmallVector<Value> dyn(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        dyn[d] = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
    Value init = createEmpty(rewriter, loc, type, dyn);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, l, d);
            if (strides[d] != 1)
              i = arith::MulIOp::create(b, l, i,
                                        createIndexConstant(b, l, strides[d]));
            if (offs[d] != 0)
              i = arith::AddIOp::create(b, l, i,
                                        createIndexConstant(b, l, offs[d]));
            idx.push_back(i);
          }
          linalg::YieldOp::create(
              b, l, ValueRange{tensor::ExtractOp::create(b, l, data, idx)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// Range: start + i * delta for i < max(ceil((limit - start) / delta), 0).
struct RangeLowering : OpConversionPattern<ONNX::RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Type elt = type.getElementType();
    bool f = isFloat(elt);
    Value start = tensor::ExtractOp::create(rewriter, loc, adaptor.getStart(),
                                            ValueRange{});
    Value delta = tensor::ExtractOp::create(rewriter, loc, adaptor.getDelta(),
                                            ValueRange{});
    SmallVector<Value> sizes(1);
    Value limit = tensor::ExtractOp::create(rewriter, loc, adaptor.getLimit(),
                                            ValueRange{});
    Value n = f ? floatCount(rewriter, loc, start, limit, delta)
                : intCount(rewriter, loc, start, limit, delta);
    if (type.isDynamicDim(0)) {
      sizes[0] = n;
    } else {
      Value want = createIndexConstant(rewriter, loc, type.getDimSize(0));
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, n, want),
                       "Range: {} elements where {} are required", {n, want});
    }
    Value init = createEmpty(rewriter, loc, type, sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        parallelIterators(1), [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          i = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
          Value iv = convertScalar(b, l, i, b.getI64Type(), elt);
          Value v = f ? Value(arith::AddFOp::create(
                            b, l, start, arith::MulFOp::create(b, l, iv, delta)))
                      : Value(arith::AddIOp::create(
                            b, l, start, arith::MulIOp::create(b, l, iv, delta)));
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
  /// max(ceil((limit - start) / delta), 0) in f64; NaN, infinite or past
  /// int64 (a delta of 0 among them) fails.
  static Value floatCount(OpBuilder &b, Location loc, Value start, Value limit,
                          Value delta) {
    Type f64 = b.getF64Type();
    auto toF64 = [&](Value v) -> Value {
      return v.getType() == f64 ? v : arith::ExtFOp::create(b, loc, f64, v);
    };
    Value n = arith::DivFOp::create(
        b, loc, arith::SubFOp::create(b, loc, toF64(limit), toF64(start)),
        toF64(delta));
    n = math::CeilOp::create(b, loc, n);
    n = arith::MaximumFOp::create(b, loc, n, createScalarConstant(b, loc, f64, 0));
    return floatToSize(b, loc, n,
                       "Range: the element count is not a size (a delta of "
                       "0, an infinite or NaN bound, or more than 2^63 - 1)");
  }
  /// max(ceil((limit - start) / delta), 0) exactly, in unsigned 64-bit
  /// arithmetic: the distance between the bounds (up to 2^64 - 1), then
  /// (distance - 1) / |delta| + 1 when the range is not empty. A delta of 0
  /// and a count past 2^63 - 1 fail.
  static Value intCount(OpBuilder &b, Location loc, Value start, Value limit,
                        Value delta) {
    using P = arith::CmpIPredicate;
    auto i64 = b.getI64Type();
    auto ext = [&](Value v) -> Value {
      return v.getType() == i64 ? v : arith::ExtSIOp::create(b, loc, i64, v);
    };
    start = ext(start);
    limit = ext(limit);
    delta = ext(delta);
    Value zero = createIntConstant(b, loc, i64, 0);
    Value one = createIntConstant(b, loc, i64, 1);
    emitRuntimeCheck(b, loc, cmpI(b, loc, P::ne, delta, zero),
                     "Range: delta is 0");
    Value up = cmpI(b, loc, P::sgt, delta, zero);
    Value nonEmpty = arith::SelectOp::create(b, loc, up,
                                             cmpI(b, loc, P::sgt, limit, start),
                                             cmpI(b, loc, P::slt, limit, start));
    Value dist = arith::SelectOp::create(b, loc, up,
                                         arith::SubIOp::create(b, loc, limit, start),
                                         arith::SubIOp::create(b, loc, start, limit));
    Value mag = arith::SelectOp::create(b, loc, up, delta,
                                        arith::SubIOp::create(b, loc, zero, delta));
    Value safeMag = arith::SelectOp::create(
        b, loc, cmpI(b, loc, P::eq, mag, zero), one, mag);
    Value n = arith::AddIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, dist, one),
                               safeMag),
        one);
    n = arith::SelectOp::create(b, loc, nonEmpty, n, zero);
    emitRuntimeCheck(b, loc, cmpI(b, loc, P::sge, n, zero),
                     "Range: more than 2^63 - 1 elements");
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), n);
  }
};

/// Split: consecutive slices along `axis`, sized by `split` or equal
/// (the last one smaller when the dim does not divide).
struct SplitLowering : OpConversionPattern<ONNX::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getInput();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t n = op->getNumResults();
    SmallVector<OpFoldResult> splitSizes;
    if (!isa<NoneType>(op.getSplit().getType())) {
      auto s = getConstantInts(op.getSplit(), adaptor.getSplit());
      bool allStatic = llvm::all_of(op->getResultTypes(), [&](Type t) {
        return !cast<RankedTensorType>(t).isDynamicDim(axis);
      });
      if (allStatic) {
        for (auto [i, t] : llvm::enumerate(op->getResultTypes())) {
          int64_t size = cast<RankedTensorType>(t).getDimSize(axis);
          splitSizes.push_back(rewriter.getIndexAttr(size));
          // Inference took the types from somewhere: the split must agree.
          if (!s) {
            Value v = extractIndex(rewriter, loc, adaptor.getSplit(), i);
            Value want = createIndexConstant(rewriter, loc, size);
            emitRuntimeCheck(
                rewriter, loc,
                cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, want),
                "Split: piece {} has size {} where {} is required",
                {createIndexConstant(rewriter, loc, i), v, want});
          }
        }
      } else if (s) {
        for (int64_t v : *s)
          splitSizes.push_back(rewriter.getIndexAttr(v));
      } else {
        for (int64_t i = 0; i < n; ++i)
          splitSizes.push_back(extractIndex(rewriter, loc, adaptor.getSplit(), i));
      }
    } else {
      // ceil(dim / n) each, the rest for the last.
      Value dim = getDimValue(rewriter, loc, data, axis);
      Value nv = createIndexConstant(rewriter, loc, n);
      Value chunk = arith::CeilDivUIOp::create(rewriter, loc, dim, nv);
      for (int64_t i = 0; i < n; ++i) {
        auto rt = cast<RankedTensorType>(op->getResult(i).getType());
        if (!rt.isDynamicDim(axis)) {
          splitSizes.push_back(rewriter.getIndexAttr(rt.getDimSize(axis)));
          continue;
        }
        Value off = mulIdx(rewriter, loc, chunk, createIndexConstant(rewriter, loc, i));
        Value rest = arith::SubIOp::create(rewriter, loc, dim, off);
        splitSizes.push_back(
            arith::MinUIOp::create(rewriter, loc, chunk, rest).getResult());
      }
    }
    // The pieces tile the dim: no negative size, and they add up to it
    // (checks fold for static sizes).
    {
      Value sum = createIndexConstant(rewriter, loc, 0);
      for (auto [i, size] : llvm::enumerate(splitSizes)) {
        Value v = getValueOrCreateConstantIndexOp(rewriter, loc, size);
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::sge, v,
                              createIndexConstant(rewriter, loc, 0)),
                         "Split: piece {} has size {}",
                         {createIndexConstant(rewriter, loc, i), v});
        sum = checkedAdd(rewriter, loc, sum, v,
                         "Split: the sizes overflow ({} + {})");
      }
      Value dim = getDimValue(rewriter, loc, data, axis);
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, sum, dim),
                       "Split: the pieces add up to {} for a dim of {}",
                       {sum, dim});
    }
    SmallVector<Value> results;
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (int64_t i = 0; i < n; ++i) {
      auto type = convertedTensorType(getTypeConverter(), op->getResult(i));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes;
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(getDimOFR(rewriter, loc, data, d));
      sizes[axis] = splitSizes[i];
      offsets[axis] = offset;
      auto sz = getConstantIntValue(sizes[axis]);
      if (sz && *sz == 0 && !type.isDynamicDim(axis)) {
        // An empty piece: a zero-size slice at offset == dim would not verify.
        SmallVector<Value> dynSizes;
        for (int64_t d = 0; d < rank; ++d)
          if (type.isDynamicDim(d))
            dynSizes.push_back(getDimValue(rewriter, loc, data, d));
        results.push_back(
            tensor::EmptyOp::create(rewriter, loc, type, dynSizes).getResult());
      } else {
        // The slice's own type follows its sizes (static where they are
        // constants); the inferred result type may know more or less.
        Value piece = tensor::ExtractSliceOp::create(rewriter, loc, data,
                                                     offsets, sizes, strides);
        if (piece.getType() != type)
          piece = tensor::CastOp::create(rewriter, loc, type, piece);
        results.push_back(piece);
      }
      auto so = getConstantIntValue(offset), ss = getConstantIntValue(sizes[axis]);
      if (so && ss)
        offset = rewriter.getIndexAttr(*so + *ss);
      else
        offset = arith::AddIOp::create(
                     rewriter, loc,
                     getValueOrCreateConstantIndexOp(rewriter, loc, offset),
                     getValueOrCreateConstantIndexOp(rewriter, loc, sizes[axis]))
                     .getResult();
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnxc::linalg_conv::populateTensorPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ShapeLowering, SizeLowering, ConstantOfShapeLowering,
               ReshapeLowering, FlattenLowering, SqueezeLowering,
               UnsqueezeLowering, TransposeLowering, ConcatLowering,
               ExpandLowering, TileLowering, SliceLowering,
               RangeLowering, SplitLowering>(tc, patterns.getContext());
}

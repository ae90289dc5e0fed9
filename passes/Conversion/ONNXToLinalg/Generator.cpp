//===- Generator.cpp - Constant, ConstantOfShape, Range, EyeLike -> linalg ===//
//
// The generator ops (ONNX's generator category) that make a tensor from
// their attributes and shapes alone: ConstantOfShape (a linalg.fill), Range
// and EyeLike (one linalg.generic over the result, computed from the
// element's index), and Constant (an arith.constant of the converted type;
// strings as their addresses, Strings.h; int4/float8 elements as their i8,
// NarrowTypes.h). The random generators are in Random.cpp. A static
// result dim that the op decides at run time (ConstantOfShape's shape,
// Range's count) is checked against the run-time value.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/NarrowTypes.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Constant: the `value` (or value_float(s)/value_int(s)) tensor becomes an
/// arith.constant of the signless type; resource blobs are re-wrapped with
/// the converted type, sharing the blob.
struct ConstantLowering : OpConversionPattern<ONNX::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("result type has no conversion");
    Attribute attr;
    if (op.getSparseValueAttr())
      return op.emitOpError("sparse_value is not supported");
    // Strings: their addresses in a constant blob of the library.
    SmallVector<StringRef> strings;
    bool isString = true;
    if (auto v = dyn_cast_or_null<DenseStringElementsAttr>(op.getValueAttr()))
      strings.assign(v.getRawStringData().begin(), v.getRawStringData().end());
    else if (auto v = op.getValueStringAttr())
      strings.push_back(v.getValue());
    else if (auto v = op.getValueStringsAttr())
      for (Attribute a : v)
        strings.push_back(cast<StringAttr>(a).getValue());
    else
      isString = false;
    if (isString != isStringType(op.getType()))
      return op.emitOpError(isString ? "a string value needs a string result"
                                     : "a string result needs a string value");
    if (isString) {
      if (auto v = dyn_cast_or_null<DenseStringElementsAttr>(op.getValueAttr());
          v && v.isSplat())
        strings.assign(type.getNumElements(), strings.front());
      if ((int64_t)strings.size() != type.getNumElements())
        return op.emitOpError("holds ")
               << strings.size() << " strings for " << type.getNumElements()
               << " elements";
      rewriter.replaceOp(op, buildStringConstant(rewriter, op.getLoc(), op,
                                                 type, strings));
      return success();
    }
    Type onnxElt = cast<ShapedType>(op.getType()).getElementType();
    if (auto v = op.getValueAttr()) {
      if (auto dense = dyn_cast<DenseElementsAttr>(v);
          dense && isNarrowType(onnxElt)) {
        // One i8 per element: an int4's value, a float8/float4's bits.
        SmallVector<APInt> vals;
        int64_t n = dense.isSplat() ? 1 : dense.getNumElements();
        if (isa<IntegerType>(onnxElt)) {
          auto it = dense.value_begin<APInt>();
          for (int64_t i = 0; i < n; ++i, ++it)
            vals.push_back(narrowStorage(*it, onnxElt));
        } else {
          auto it = dense.value_begin<APFloat>();
          for (int64_t i = 0; i < n; ++i, ++it)
            vals.push_back(narrowStorage((*it).bitcastToAPInt(), onnxElt));
        }
        attr = dense.isSplat() ? DenseElementsAttr::get(type, vals.front())
                               : DenseElementsAttr::get(type, vals);
      } else if (isNarrowType(onnxElt)) {
        return op.emitOpError("a ")
               << onnxElt << " constant must be a dense elements attribute";
      } else if (auto dense = dyn_cast<DenseElementsAttr>(v)) {
        if (dense.getType() == type)
          attr = dense;
        else if (dense.isSplat() && type.getElementType().isInteger(1))
          attr = DenseElementsAttr::get(type, dense.getSplatValue<bool>());
        else
          attr = DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
      } else if (auto res = dyn_cast<DenseResourceElementsAttr>(v)) {
        attr = DenseResourceElementsAttr::get(type, res.getRawHandle());
      } else {
        return op.emitOpError("unsupported value attribute kind");
      }
    } else if (auto v = op.getValueFloatAttr()) {
      attr = DenseElementsAttr::get(type, v);
    } else if (auto v = op.getValueFloatsAttr()) {
      attr = DenseElementsAttr::get(type, v.asArrayRef());
    } else if (auto v = op.getValueIntAttr()) {
      attr = DenseElementsAttr::get(type, v);
    } else if (auto v = op.getValueIntsAttr()) {
      attr = DenseElementsAttr::get(type, v.asArrayRef());
    } else {
      return op.emitOpError("has no value");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(attr));
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
    // Scalars, or one-element tensors as ORT takes them (a 1-D bound made
    // an internal tensor.extract error).
    FailureOr<Value> startOr =
        scalarOperand(rewriter, loc, op, adaptor.getStart(), "start");
    if (failed(startOr))
      return failure();
    FailureOr<Value> deltaOr =
        scalarOperand(rewriter, loc, op, adaptor.getDelta(), "delta");
    if (failed(deltaOr))
      return failure();
    SmallVector<Value> sizes(1);
    FailureOr<Value> limitOr =
        scalarOperand(rewriter, loc, op, adaptor.getLimit(), "limit");
    if (failed(limitOr))
      return failure();
    Value start = *startOr, delta = *deltaOr, limit = *limitOr;
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

/// EyeLike: a 2-D tensor shaped like the input with ones on the k-th
/// diagonal (j - i == k) and zeros elsewhere.
struct EyeLikeLowering : OpConversionPattern<ONNX::EyeLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::EyeLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    if (type.getRank() != 2)
      return op.emitOpError("input must be 2-D");
    Type elt = type.getElementType();
    int64_t k = op.getK();
    Value init = createEmptyLike(rewriter, loc, type, adaptor.getInput());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(2)},
        parallelIterators(2), [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          Value j = linalg::IndexOp::create(b, l, 1);
          Value on = cmpI(b, l, arith::CmpIPredicate::eq,
                          arith::SubIOp::create(b, l, j, i),
                          createIndexConstant(b, l, k));
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(
                  b, l, on, createScalarConstant(b, l, elt, 1),
                  createScalarConstant(b, l, elt, 0))});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateGeneratorPatterns(TypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, ConstantOfShapeLowering, RangeLowering,
               EyeLikeLowering>(tc, patterns.getContext());
}

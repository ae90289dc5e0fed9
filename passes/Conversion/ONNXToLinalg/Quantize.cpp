//===- Quantize.cpp - Linear (de)quantization ops -> linalg ---------------===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear (QLinearMatMul,
// ONNX's math category, is in MatMul.cpp and quantizes with quantize(),
// Quantize.h).
// Quantization rounds half to even and saturates to the integer type's range
// (ui8/i8/ui16/i16/ui4/i4); float8 results are Cast with `saturate`
// (NarrowTypes.cpp: int4 and float8 are one i8 per element here). Scales
// and zero points are per tensor (0-D or one element) or, for
// (De)QuantizeLinear, per `axis` (1-D) or blocked (block_size > 0: of x's
// rank, ceil(dim / block_size) along axis).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Quantize.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The range of an onnx integer type.
std::pair<double, double> intRange(Type onnxInt) {
  auto it = cast<IntegerType>(onnxInt);
  unsigned w = it.getWidth();
  if (it.isUnsigned())
    return {0.0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

} // namespace

Value mlir::onnxc::linalg_conv::quantize(OpBuilder &b, Location l, Value v,
                                         Value zp, Type onnxOut,
                                         bool saturate) {
  Type ft = v.getType();
  if (isa<FloatType>(onnxOut)) {
    if (zp)
      v = arith::AddFOp::create(b, l, v, zp);
    return convertScalar(b, l, v, ft, onnxOut, saturate);
  }
  v = math::RoundEvenOp::create(b, l, v);
  if (zp)
    v = arith::AddFOp::create(b, l, v, zp);
  auto [lo, hi] = intRange(onnxOut);
  v = arith::MaximumFOp::create(b, l, v, createScalarConstant(b, l, ft, lo));
  v = arith::MinimumFOp::create(b, l, v, createScalarConstant(b, l, ft, hi));
  return convertScalar(b, l, v, ft, onnxOut);
}

namespace {

/// The indexing map of a scale or zero point over a `rank`-D iteration
/// space: per tensor (0-D or one element), per `axis` (1-D) or, with
/// `blockSize` > 0, blocked: of x's rank, element i along `axis` covering
/// x's block [i * blockSize, (i + 1) * blockSize).
FailureOr<AffineMap> paramMap(Operation *op, Value param, int64_t rank,
                              int64_t axis, int64_t blockSize,
                              StringRef name) {
  MLIRContext *ctx = op->getContext();
  auto t = cast<RankedTensorType>(param.getType());
  if (blockSize < 0)
    return op->emitOpError("block_size ") << blockSize << " is negative";
  if (blockSize > 0) {
    if (axis < 0 || axis >= rank)
      return op->emitOpError("axis is out of range for blocked quantization");
    if (t.getRank() != rank)
      return op->emitOpError(name)
             << " must have the rank of x (" << rank
             << ") for blocked quantization, it has rank " << t.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(d == axis ? getAffineDimExpr(d, ctx).floorDiv(blockSize)
                                : getAffineDimExpr(d, ctx));
    return AffineMap::get(rank, 0, exprs, ctx);
  }
  if (t.getRank() == 0)
    return AffineMap::get(rank, 0, {}, ctx);
  if (t.getRank() == 1 && t.getDimSize(0) == 1)
    return AffineMap::get(rank, 0, {getAffineConstantExpr(0, ctx)}, ctx);
  if (t.getRank() == 1 && axis >= 0 && axis < rank)
    return AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
  return op->emitOpError(name)
         << " must be a scalar or 1-D along axis (or have the rank of x "
            "with block_size > 0)";
}

/// Checks that a per-axis parameter has the length of the axis dim, and a
/// blocked one x's dims with ceil(dim / blockSize) along the axis (the
/// static dims at compile time).
LogicalResult checkParamLength(OpBuilder &b, Operation *op, Value param,
                               Value x, int64_t axis, int64_t blockSize,
                               StringRef name) {
  Location loc = op->getLoc();
  auto t = cast<RankedTensorType>(param.getType());
  auto xt = cast<RankedTensorType>(x.getType());
  if (blockSize > 0) {
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (!t.isDynamicDim(d) && !xt.isDynamicDim(d)) {
        int64_t want = d == axis ? llvm::divideCeil(xt.getDimSize(d), blockSize)
                                 : xt.getDimSize(d);
        if (t.getDimSize(d) != want)
          return op->emitOpError(name)
                 << " dim " << d << " is " << t.getDimSize(d) << ", expected "
                 << want << (d == axis ? " (ceil(x dim / block_size))"
                                       : " (x's dim)");
        continue;
      }
      Value want = getDimValue(b, loc, x, d);
      if (d == axis)
        want = arith::CeilDivUIOp::create(b, loc, want,
                                          createIndexConstant(b, loc, blockSize));
      emitRuntimeCheck(b, loc,
                       arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             getDimValue(b, loc, param, d),
                                             want),
                       "blocked quantization parameter shape does not match "
                       "x and block_size");
    }
    return success();
  }
  if (t.getRank() != 1 || t.getDimSize(0) == 1)
    return success();
  // Operands in separate statements: the IR order must not depend on the
  // compiler's order of evaluating arguments (g++'s, which tests see).
  Value axisDim = getDimValue(b, loc, x, axis);
  Value length = getDimValue(b, loc, param, 0);
  emitRuntimeCheck(b, loc,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         length, axisDim),
                   "quantization parameter length does not match the axis");
  return success();
}

/// The inputs and indexing maps of a (de)quantization generic over x:
/// appends the scale and, when `zp` is non-null, the zero point (after
/// checking their layouts and emitting the run-time length checks), then
/// the output's identity map.
LogicalResult quantParamInputs(OpBuilder &b, Operation *op, Value x,
                               Value scale, StringRef scaleName, Value zp,
                               StringRef zpName, int64_t rank, int64_t axis,
                               int64_t blockSize, SmallVectorImpl<Value> &ins,
                               SmallVectorImpl<AffineMap> &maps) {
  ins.push_back(scale);
  auto sMap = paramMap(op, scale, rank, axis, blockSize, scaleName);
  if (failed(sMap))
    return failure();
  maps.push_back(*sMap);
  if (failed(checkParamLength(b, op, scale, x, axis, blockSize, scaleName)))
    return failure();
  if (zp) {
    auto zMap = paramMap(op, zp, rank, axis, blockSize, zpName);
    if (failed(zMap))
      return failure();
    ins.push_back(zp);
    maps.push_back(*zMap);
    if (failed(checkParamLength(b, op, zp, x, axis, blockSize, zpName)))
      return failure();
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  return success();
}

/// QuantizeLinear: y = saturate(roundeven(x / y_scale) + y_zero_point).
struct QuantizeLinearLowering : OpConversionPattern<ONNX::QuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::QuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Opset 23's precision: the division runs in float (0: x's type, which
    // the lowering computes in float too).
    if (op.getPrecision() != 0 && op.getPrecision() != 1)
      return op.emitOpError("precision ")
             << (int64_t)op.getPrecision()
             << " is not supported (the division runs in float)";
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Type onnxOut = getElementType(op.getY());
    Value x = adaptor.getX(), scale = adaptor.getYScale();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool hasZp = !isa<NoneType>(op.getYZeroPoint().getType());
    SmallVector<Value> ins = {x};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    if (failed(quantParamInputs(rewriter, op, x, scale, "y_scale",
                                hasZp ? adaptor.getYZeroPoint() : Value(),
                                "y_zero_point", rank, axis,
                                (int64_t)op.getBlockSize(), ins, maps)))
      return failure();
    Type onnxX = getElementType(op.getX());
    Type onnxScale = getElementType(op.getYScale());
    Type onnxZp = hasZp ? getElementType(op.getYZeroPoint()) : Type();
    // i32 inputs divide in f64 (as numpy promotes int32 / float32).
    Type ct = isa<IntegerType>(onnxX) ? Type(rewriter.getF64Type())
                                       : Type(rewriter.getF32Type());
    Value init = createEmptyLike(rewriter, loc, type, x);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ins, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = convertScalar(b, l, args[0], onnxX, ct);
          Value s = convertScalar(b, l, args[1], onnxScale, ct);
          v = arith::DivFOp::create(b, l, v, s);
          Value zp =
              hasZp ? convertScalar(b, l, args[2], onnxZp, ct) : Value();
          linalg::YieldOp::create(
              b, l, ValueRange{quantize(b, l, v, zp, onnxOut,
                                        op.getSaturate() != 0)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// DequantizeLinear: y = (x - x_zero_point) * x_scale, in the scale's type.
struct DequantizeLinearLowering
    : OpConversionPattern<ONNX::DequantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DequantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX(), scale = adaptor.getXScale();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool hasZp = !isa<NoneType>(op.getXZeroPoint().getType());
    SmallVector<Value> ins = {x};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    if (failed(quantParamInputs(rewriter, op, x, scale, "x_scale",
                                hasZp ? adaptor.getXZeroPoint() : Value(),
                                "x_zero_point", rank, axis,
                                (int64_t)op.getBlockSize(), ins, maps)))
      return failure();
    Type onnxX = getElementType(op.getX());
    Type onnxScale = getElementType(op.getXScale());
    Type onnxZp = hasZp ? getElementType(op.getXZeroPoint()) : Type();
    Type f32 = rewriter.getF32Type();
    Type elt = type.getElementType();
    Value init = createEmptyLike(rewriter, loc, type, x);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ins, ValueRange{init}, maps,
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = convertScalar(b, l, args[0], onnxX, f32);
          if (hasZp)
            v = arith::SubFOp::create(
                b, l, v, convertScalar(b, l, args[2], onnxZp, f32));
          v = arith::MulFOp::create(
              b, l, v, convertScalar(b, l, args[1], onnxScale, f32));
          linalg::YieldOp::create(
              b, l, ValueRange{convertScalar(b, l, v, f32, elt)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// DynamicQuantizeLinear: with lo = min(0, min x) and hi = max(0, max x),
/// y_scale = (hi - lo) / 255 (1 when hi == lo), y_zero_point =
/// saturate(roundeven(-lo / y_scale)) and y = saturate(roundeven(x /
/// y_scale) + y_zero_point) as ui8.
struct DynamicQuantizeLinearLowering
    : OpConversionPattern<ONNX::DynamicQuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto yType = convertedTensorType(getTypeConverter(), op.getY());
    auto sType = convertedTensorType(getTypeConverter(), op.getYScale());
    auto zType = convertedTensorType(getTypeConverter(), op.getYZeroPoint());
    Value x = adaptor.getX();
    int64_t rank = yType.getRank();
    Type f32 = rewriter.getF32Type();
    Type onnxU8 = getElementType(op.getY());
    // min and max in one pass, both starting from 0.
    auto scalarType = RankedTensorType::get({}, f32);
    Value zero = createScalarConstant(rewriter, loc, f32, 0);
    Value acc = linalg::FillOp::create(
                    rewriter, loc, zero,
                    tensor::EmptyOp::create(rewriter, loc,
                                            ArrayRef<int64_t>{}, f32)
                        .getResult())
                    .getResult(0);
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::reduction);
    AffineMap scalarMap = AffineMap::get(rank, 0, {}, ctx);
    auto minMax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scalarType, scalarType}, ValueRange{x},
        ValueRange{acc, acc},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                               scalarMap, scalarMap},
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::MinimumFOp::create(b, l, args[0], args[1]),
                         arith::MaximumFOp::create(b, l, args[0], args[2])});
        });
    Value lo = tensor::ExtractOp::create(rewriter, loc, minMax.getResult(0),
                                         ValueRange{});
    Value hi = tensor::ExtractOp::create(rewriter, loc, minMax.getResult(1),
                                         ValueRange{});
    // An all-zero input (hi == lo == 0) would divide by 0: scale 1, as ONNX
    // Runtime does (y is then all zero points).
    Value c255 = createScalarConstant(rewriter, loc, f32, 255);
    Value range = arith::SubFOp::create(rewriter, loc, hi, lo);
    Value ratio = arith::DivFOp::create(rewriter, loc, range, c255);
    Value one = createScalarConstant(rewriter, loc, f32, 1);
    Value flat =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, hi, lo);
    Value scale = arith::SelectOp::create(rewriter, loc, flat, one, ratio);
    // The zero point is clipped, then rounded.
    Value zpF = arith::SubFOp::create(
        rewriter, loc, zero, arith::DivFOp::create(rewriter, loc, lo, scale));
    zpF = arith::MaximumFOp::create(rewriter, loc, zpF, zero);
    zpF = arith::MinimumFOp::create(
        rewriter, loc, zpF, createScalarConstant(rewriter, loc, f32, 255));
    zpF = math::RoundEvenOp::create(rewriter, loc, zpF);
    Value zp = convertScalar(rewriter, loc, zpF, f32, onnxU8);
    Value init = createEmptyLike(rewriter, loc, yType, x);
    auto y = linalg::GenericOp::create(
        rewriter, loc, TypeRange{yType}, ValueRange{x}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = arith::DivFOp::create(b, l, args[0], scale);
          linalg::YieldOp::create(b, l,
                                  ValueRange{quantize(b, l, v, zpF, onnxU8)});
        });
    Value s = tensor::FromElementsOp::create(rewriter, loc, sType, scale);
    Value z = tensor::FromElementsOp::create(rewriter, loc, zType, zp);
    rewriter.replaceOp(op, ValueRange{y.getResult(0), s, z});
    return success();
  }
};

} // namespace

void mlir::onnxc::populateQuantizePatterns(TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearLowering, DequantizeLinearLowering,
               DynamicQuantizeLinearLowering>(tc, patterns.getContext());
}

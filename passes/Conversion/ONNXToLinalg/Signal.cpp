//===- Signal.cpp - Window functions, DFT, STFT, MelWeightMatrix ----------===//
//
// The signal ops of opset 17 (DFT in its opset 20 form, `axis` an input)
// -> linalg.generic on tensors.
//
// - HannWindow, HammingWindow, BlackmanWindow: w[i] = a0 - a1 cos(x) +
//   a2 cos(2x), x = i * 2pi / N', N' = size (periodic) or size - 1, in the
//   order of the ops' function bodies: in f32 as those bodies compute (f64
//   for an f64 result), then cast to output_datatype.
// - DFT and STFT are direct O(n^2) sums, one per output bin (no FFT yet):
//   X[k] = sum_t x[t] e^(-+2 pi i k t / n) over the t < min(input length,
//   n) that are not zero padding, accumulated in f64 with f64 twiddle
//   factors from a table of the n angles 2 pi j / n indexed by (k t) mod n,
//   so that every angle is reduced exactly. The inverse divides by n;
//   onesided keeps the bins k <= n / 2 (as ONNX's reference does, also for
//   complex or inverse inputs). The real and imaginary sums are two f64
//   tensors, interleaved into the trailing dim of 2 at the end.
// - MelWeightMatrix follows ONNX's reference: the num_mel_bins + 2 band
//   edges (mel_step = mel range / (num_mel_bins + 2), as the reference and
//   ONNX Runtime have it), floor((dft_length + 1) * hz / sample_rate) with
//   numpy's floor division, in f64; then triangles rising from each left
//   edge to the center and falling to the right edge. Rows outside
//   [0, dft_length / 2] are dropped (where the reference would index out
//   of range or, below 0, wrap around).
//
// Sizes that come from input values (size, dft_length, frame_length,
// frame_step, num_mel_bins) are folded when they are constants and read at
// run time otherwise; a static result dim is then checked against them.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Window.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

bool isAbsent(Value v) { return !v || isa<NoneType>(v.getType()); }

/// An integer scalar operand (0-D or one element) as an index: its value
/// when it is a constant, else read at run time.
OpFoldResult scalarIndex(OpBuilder &b, Location loc, Value orig,
                         Value converted) {
  if (auto c = getConstantInts(orig, converted); c && c->size() == 1)
    return b.getIndexAttr(c->front());
  // One element (a 1-D operand of a run-time size 0 was read past its
  // end); a static count other than 1 fails every call.
  auto type = cast<RankedTensorType>(converted.getType());
  Value count = type.hasStaticShape()
                    ? idx(b, loc, type.getNumElements())
                    : dimProduct(b, loc, converted, 0, type.getRank());
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::eq, count, idx(b, loc, 1)),
                   "a scalar operand has {} elements, expected 1", {count});
  return toIndex(b, loc, extractScalar(b, loc, converted));
}

OpFoldResult minIndex(IndexMath &m, OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return m.b.getIndexAttr(std::min(*cx, *cy));
  return arith::MinSIOp::create(m.b, m.loc, m.value(x), m.value(y)).getResult();
}

/// Requires `x pred y`: an error on `op` (`message`) when both are constants
/// and it does not hold, else a run-time check (none when it folds true).
LogicalResult require(OpBuilder &b, Location loc, Operation *op,
                      arith::CmpIPredicate pred, OpFoldResult x, OpFoldResult y,
                      const Twine &message) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy) {
    if (arith::applyCmpPredicate(pred, APInt(64, *cx), APInt(64, *cy)))
      return success();
    return op->emitOpError(message);
  }
  IndexMath m{b, loc};
  Value cond = arith::CmpIOp::create(b, loc, pred, m.value(x), m.value(y));
  emitRuntimeCheck(b, loc, cond,
                   (op->getName().stripDialect() + ": " + message).str());
  return success();
}

/// Checks the size the op computes for each dim of its result against the
/// result type (static dims) and returns the sizes of the dynamic dims.
FailureOr<SmallVector<Value>> resultSizes(OpBuilder &b, Location loc,
                                          Operation *op, RankedTensorType type,
                                          ArrayRef<OpFoldResult> sizes) {
  IndexMath m{b, loc};
  SmallVector<Value> out(type.getRank());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d)) {
      out[d] = m.value(sizes[d]);
      continue;
    }
    int64_t want = type.getDimSize(d);
    if (auto c = getConstantIntValue(sizes[d]); c && *c != want)
      return op->emitOpError("result dim ")
             << d << " is " << want << " but the inputs give " << *c;
    (void)require(b, loc, op, arith::CmpIPredicate::eq, sizes[d], m.cst(want),
                  "result dim " + Twine(d) + " is " + Twine(want) +
                      " but the inputs give another size");
  }
  return out;
}

/// A 0/1 attribute, or an error on `op`.
LogicalResult checkFlag(Operation *op, StringRef name, int64_t v) {
  if (v == 0 || v == 1)
    return success();
  return op->emitOpError(name) << " must be 0 or 1, not " << v;
}

/// The f64 tensors cos(2 pi j / n) and sin(2 pi j / n) for j < n.
std::pair<Value, Value> twiddleTable(OpBuilder &b, Location loc,
                                     OpFoldResult n) {
  Type f64 = b.getF64Type();
  IndexMath m{b, loc};
  auto cn = getConstantIntValue(n);
  auto type = RankedTensorType::get({cn ? *cn : ShapedType::kDynamic}, f64);
  Value cosInit = createEmpty(b, loc, type, {m.value(n)});
  Value sinInit = createEmpty(b, loc, type, {m.value(n)});
  Value nf = arith::SIToFPOp::create(
      b, loc, f64,
      arith::IndexCastOp::create(b, loc, b.getI64Type(), m.value(n)));
  Value twoPi = createScalarConstant(b, loc, f64, kTwoPi);
  AffineMap id = b.getMultiDimIdentityMap(1);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type, type}, ValueRange{}, ValueRange{cosInit, sinInit},
      SmallVector<AffineMap>{id, id}, parallelIterators(1),
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value j = arith::IndexCastOp::create(nb, l, nb.getI64Type(),
                                             linalg::IndexOp::create(nb, l, 0));
        Value jf = arith::SIToFPOp::create(nb, l, f64, j);
        Value angle = arith::DivFOp::create(
            nb, l, arith::MulFOp::create(nb, l, twoPi, jf), nf);
        linalg::YieldOp::create(nb, l,
                                ValueRange{math::CosOp::create(nb, l, angle),
                                           math::SinOp::create(nb, l, angle)});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// The twiddle factor (cos, sin) of bin `k` and sample `t` of an `n`-point
/// DFT from the tables.
std::pair<Value, Value> twiddle(OpBuilder &b, Location loc, Value cosTab,
                                Value sinTab, Value k, Value t, Value n) {
  Value j =
      arith::RemUIOp::create(b, loc, arith::MulIOp::create(b, loc, k, t), n);
  return {tensor::ExtractOp::create(b, loc, cosTab, ValueRange{j}),
          tensor::ExtractOp::create(b, loc, sinTab, ValueRange{j})};
}

/// (re, im) + (a + i bi) (c -+ i s): the forward DFT's e^(-i x) or, with
/// `inverse`, e^(+i x). A null `bi` is a real sample.
std::pair<Value, Value> accumulate(OpBuilder &b, Location loc, Value a,
                                   Value bi, Value c, Value s, Value re,
                                   Value im, bool inverse) {
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulFOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubFOp::create(b, loc, x, y);
  };
  // forward: re += a c + bi s, im += bi c - a s
  // inverse: re += a c - bi s, im += bi c + a s
  Value r = mul(a, c), i = mul(a, s);
  if (bi) {
    r = inverse ? sub(r, mul(bi, s)) : add(r, mul(bi, s));
    i = inverse ? add(mul(bi, c), i) : sub(mul(bi, c), i);
  } else if (!inverse) {
    i = arith::NegFOp::create(b, loc, i);
  }
  return {add(re, r), add(im, i)};
}

/// The result (`type`, [..., 2]) from the f64 parts `re` and `im` (the
/// result's shape without its last dim), divided by `scale` when given.
Value interleave(OpBuilder &b, Location loc, RankedTensorType type,
                 Type onnxElt, Value re, Value im, Value scale,
                 ArrayRef<Value> sizes) {
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Value init = createEmpty(b, loc, type, sizes);
  SmallVector<AffineExpr> partExprs;
  for (int64_t d = 0; d + 1 < rank; ++d)
    partExprs.push_back(getAffineDimExpr(d, ctx));
  AffineMap part = AffineMap::get(rank, 0, partExprs, ctx);
  Type f64 = b.getF64Type();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{re, im}, ValueRange{init},
      SmallVector<AffineMap>{part, part, b.getMultiDimIdentityMap(rank)},
      parallelIterators(rank), [&](OpBuilder &nb, Location l, ValueRange args) {
        Value c = linalg::IndexOp::create(nb, l, rank - 1);
        Value isRe = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, c,
                                           createIndexConstant(nb, l, 0));
        Value v = arith::SelectOp::create(nb, l, isRe, args[0], args[1]);
        if (scale)
          v = arith::DivFOp::create(nb, l, v, scale);
        linalg::YieldOp::create(nb, l, convertScalar(nb, l, v, f64, onnxElt));
      });
  return generic.getResult(0);
}

/// A zero-filled f64 tensor with the static dims of `shape` and the sizes of
/// its dynamic ones.
Value zerosF64(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               ArrayRef<Value> sizes) {
  Type f64 = b.getF64Type();
  Value empty = createEmpty(b, loc, RankedTensorType::get(shape, f64), sizes);
  return linalg::FillOp::create(b, loc, createScalarConstant(b, loc, f64, 0),
                                empty)
      .getResult(0);
}

/// The number of complex components in the last dim of `x` (1: real, 2:
/// complex) when it is static; otherwise a run-time check that it is 1 or 2
/// and -1.
FailureOr<int64_t> complexDim(OpBuilder &b, Location loc, Operation *op,
                              Value x, StringRef name) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t c = type.getDimSize(type.getRank() - 1);
  if (!ShapedType::isDynamic(c)) {
    if (c != 1 && c != 2)
      return op->emitOpError("the last dim of ")
             << name << " must be 1 (real) or 2 (complex), not " << c;
    return c;
  }
  Value dim = getDimValue(b, loc, x, type.getRank() - 1);
  auto eq = [&](int64_t v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim,
                                 createIndexConstant(b, loc, v));
  };
  emitRuntimeCheck(b, loc, arith::OrIOp::create(b, loc, eq(1), eq(2)),
                   (op->getName().stripDialect() + ": the last dim of " + name +
                    " must be 1 (real) or 2 (complex)")
                       .str());
  return -1;
}

//===----------------------------------------------------------------------===//
// Window functions
//===----------------------------------------------------------------------===//

/// a0 - a1 cos(x) + a2 cos(2x) over [0, size) with x = i * 2pi / N'.
template <typename OpTy> struct WindowLowering : OpConversionPattern<OpTy> {
  WindowLowering(TypeConverter &tc, MLIRContext *ctx, double a0, double a1,
                 double a2)
      : OpConversionPattern<OpTy>(tc, ctx), a0(a0), a1(a1), a2(a2) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(this->getTypeConverter(), op.getOutput());
    if (type.getRank() != 1)
      return op.emitOpError("result must have rank 1");
    int64_t periodic = op.getPeriodicAttr() ? op.getPeriodicAttr().getInt() : 1;
    if (failed(checkFlag(op, "periodic", periodic)))
      return failure();
    Type onnxElt = getElementType(op.getOutput());
    // The function bodies compute in float; an f64 result gets f64.
    Type ct = type.getElementType().isF64() ? rewriter.getF64Type()
                                            : rewriter.getF32Type();
    IndexMath m{rewriter, loc};
    OpFoldResult size =
        scalarIndex(rewriter, loc, op.getSize(), adaptor.getSize());
    // A negative size is an error (ONNX Runtime refuses it); 0 is empty.
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sge, size,
                       m.cst(0), "size must not be negative")))
      return failure();
    OpFoldResult length = m.max(size, m.cst(0));
    FailureOr<SmallVector<Value>> sizes =
        resultSizes(rewriter, loc, op, type, {length});
    if (failed(sizes))
      return failure();
    Value sizeF = arith::SIToFPOp::create(
        rewriter, loc, ct,
        arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI64Type(),
            m.value(periodic ? size : m.sub(size, m.cst(1)))));
    Value inc = arith::DivFOp::create(
        rewriter, loc, createScalarConstant(rewriter, loc, ct, kTwoPi), sizeF);
    Value init = createEmpty(rewriter, loc, type, *sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        parallelIterators(1), [&](OpBuilder &b, Location l, ValueRange) {
          Value i = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, 0));
          Value x = arith::MulFOp::create(
              b, l, arith::SIToFPOp::create(b, l, ct, i), inc);
          Value v = arith::SubFOp::create(
              b, l, createScalarConstant(b, l, ct, a0),
              arith::MulFOp::create(b, l, createScalarConstant(b, l, ct, a1),
                                    math::CosOp::create(b, l, x)));
          if (a2 != 0) {
            Value x2 = arith::MulFOp::create(b, l, x,
                                             createScalarConstant(b, l, ct, 2));
            v = arith::AddFOp::create(
                b, l, v,
                arith::MulFOp::create(b, l, createScalarConstant(b, l, ct, a2),
                                      math::CosOp::create(b, l, x2)));
          }
          linalg::YieldOp::create(b, l, convertScalar(b, l, v, ct, onnxElt));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }

private:
  double a0, a1, a2;
};

//===----------------------------------------------------------------------===//
// DFT
//===----------------------------------------------------------------------===//

/// DFT-20: input [..., n_axis, ..., 1 or 2] -> [..., bins, ..., 2].
struct DFTLowering : OpConversionPattern<ONNX::DFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    if (rank < 2)
      return op.emitOpError("input must have rank 2 or more, not ") << rank;
    if (type.getRank() != rank)
      return op.emitOpError("result must have the input's rank ") << rank;
    if (!type.isDynamicDim(rank - 1) && type.getDimSize(rank - 1) != 2)
      return op.emitOpError("the last dim of the result must be 2");
    int64_t inverse = op.getInverseAttr() ? op.getInverseAttr().getInt() : 0;
    int64_t onesided = op.getOnesidedAttr() ? op.getOnesidedAttr().getInt() : 0;
    if (failed(checkFlag(op, "inverse", inverse)) ||
        failed(checkFlag(op, "onesided", onesided)))
      return failure();
    int64_t axis = -2;
    if (!isAbsent(op.getAxis())) {
      auto a = getConstantInts(op.getAxis(), adaptor.getAxis());
      if (!a || a->size() != 1)
        return op.emitOpError("axis must be a constant scalar");
      axis = a->front();
    }
    // [-r, -2] and [0, r - 2]: the last dim holds the complex parts.
    if (axis < -rank || axis > rank - 2 || axis == -1)
      return op.emitOpError("axis ")
             << axis << " is out of range for an input of rank " << rank;
    axis = normalizeAxis(axis, rank);

    FailureOr<int64_t> comps = complexDim(rewriter, loc, op, x, "the input");
    if (failed(comps))
      return failure();
    IndexMath m{rewriter, loc};
    OpFoldResult inLen = getDimOFR(rewriter, loc, x, axis);
    OpFoldResult n = isAbsent(op.getDftLength())
                         ? inLen
                         : scalarIndex(rewriter, loc, op.getDftLength(),
                                       adaptor.getDftLength());
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sgt, n,
                       m.cst(0), "the DFT length must be positive")))
      return failure();
    OpFoldResult bins = onesided ? m.add(m.floorDiv(n, m.cst(2)), m.cst(1)) : n;
    SmallVector<OpFoldResult> outSizes;
    for (int64_t d = 0; d + 1 < rank; ++d)
      outSizes.push_back(d == axis ? bins : getDimOFR(rewriter, loc, x, d));
    outSizes.push_back(m.cst(2));
    FailureOr<SmallVector<Value>> sizes =
        resultSizes(rewriter, loc, op, type, outSizes);
    if (failed(sizes))
      return failure();

    // Samples past the DFT length are cut, missing ones are zeros that add
    // nothing: sum over t < min(input length, n).
    OpFoldResult used = minIndex(m, inLen, n);
    SmallVector<OpFoldResult> offsets(rank, m.cst(0)), sliceSizes,
        strides(rank, m.cst(1));
    for (int64_t d = 0; d < rank; ++d)
      sliceSizes.push_back(d == axis       ? used
                           : d == rank - 1 ? m.cst(1)
                                           : getDimOFR(rewriter, loc, x, d));
    Value xr = tensor::ExtractSliceOp::create(rewriter, loc, x, offsets,
                                              sliceSizes, strides);
    Value xi, isComplex;
    if (*comps != 1) {
      offsets[rank - 1] =
          m.sub(getDimOFR(rewriter, loc, x, rank - 1), m.cst(1));
      xi = tensor::ExtractSliceOp::create(rewriter, loc, x, offsets, sliceSizes,
                                          strides);
      if (*comps < 0)
        isComplex =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  getDimValue(rewriter, loc, x, rank - 1),
                                  createIndexConstant(rewriter, loc, 2));
    }

    auto [cosTab, sinTab] = twiddleTable(rewriter, loc, n);
    Value nIdx = m.value(n);
    // Iteration space: the result's dims but the last, then t (reduced).
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> inExprs, outExprs;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      inExprs.push_back(getAffineDimExpr(d == axis ? rank - 1 : d, ctx));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    inExprs.push_back(getAffineConstantExpr(0, ctx));
    AffineMap inMap = AffineMap::get(rank, 0, inExprs, ctx);
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    SmallVector<Value> inputs{xr};
    SmallVector<AffineMap> maps{inMap};
    if (xi) {
      inputs.push_back(xi);
      maps.push_back(inMap);
    }
    maps.append({outMap, outMap});
    SmallVector<int64_t> partShape(type.getShape().drop_back());
    SmallVector<Value> partSizes(ArrayRef<Value>(*sizes).drop_back());
    Value reInit = zerosF64(rewriter, loc, partShape, partSizes);
    Value imInit = zerosF64(rewriter, loc, partShape, partSizes);
    SmallVector<utils::IteratorType> iters = parallelIterators(rank - 1);
    iters.push_back(utils::IteratorType::reduction);
    Type f64 = rewriter.getF64Type();
    Type onnxElt = getElementType(op.getOutput());
    Type inElt = getElementType(op.getInput());
    auto partType = RankedTensorType::get(partShape, f64);
    auto sums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{partType, partType}, inputs,
        ValueRange{reInit, imInit}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value k = linalg::IndexOp::create(b, l, axis);
          Value t = linalg::IndexOp::create(b, l, rank - 1);
          auto [c, s] = twiddle(b, l, cosTab, sinTab, k, t, nIdx);
          Value a = convertScalar(b, l, args[0], inElt, f64);
          Value bi;
          if (xi) {
            bi = convertScalar(b, l, args[1], inElt, f64);
            if (isComplex)
              bi = arith::SelectOp::create(b, l, isComplex, bi,
                                           createScalarConstant(b, l, f64, 0));
          }
          auto [re, im] = accumulate(b, l, a, bi, c, s, args[args.size() - 2],
                                     args.back(), inverse);
          linalg::YieldOp::create(b, l, ValueRange{re, im});
        });
    Value scale;
    if (inverse)
      scale = arith::SIToFPOp::create(
          rewriter, loc, f64,
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                     nIdx));
    rewriter.replaceOp(op, interleave(rewriter, loc, type, onnxElt,
                                      sums.getResult(0), sums.getResult(1),
                                      scale, *sizes));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// STFT
//===----------------------------------------------------------------------===//

/// STFT-17: signal [batch, length, 1 or 2] -> [batch, frames, bins, 2]: the
/// DFT of n = frame_length samples from f * frame_step on, weighted by the
/// window (n defaults to the window's length, then to the signal's).
struct STFTLowering : OpConversionPattern<ONNX::STFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::STFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value x = adaptor.getSignal();
    auto xt = cast<RankedTensorType>(x.getType());
    if (xt.getRank() != 3)
      return op.emitOpError("signal must have rank 3 ([batch, length, 1 or "
                            "2]), not ")
             << xt.getRank();
    if (type.getRank() != 4)
      return op.emitOpError("result must have rank 4");
    int64_t onesided = op.getOnesidedAttr() ? op.getOnesidedAttr().getInt() : 1;
    if (failed(checkFlag(op, "onesided", onesided)))
      return failure();
    Value window = adaptor.getWindow();
    if (!isAbsent(window) &&
        cast<RankedTensorType>(window.getType()).getRank() != 1)
      return op.emitOpError("window must have rank 1");
    FailureOr<int64_t> comps = complexDim(rewriter, loc, op, x, "the signal");
    if (failed(comps))
      return failure();

    IndexMath m{rewriter, loc};
    OpFoldResult length = getDimOFR(rewriter, loc, x, 1);
    OpFoldResult step =
        scalarIndex(rewriter, loc, op.getFrameStep(), adaptor.getFrameStep());
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sgt, step,
                       m.cst(0), "frame_step must be positive")))
      return failure();
    OpFoldResult winLen =
        isAbsent(window) ? OpFoldResult() : getDimOFR(rewriter, loc, window, 0);
    OpFoldResult n = !isAbsent(op.getFrameLength())
                         ? scalarIndex(rewriter, loc, op.getFrameLength(),
                                       adaptor.getFrameLength())
                     : winLen ? winLen
                              : length;
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sgt, n,
                       m.cst(0), "frame_length must be positive")))
      return failure();
    // ONNX Runtime: "Ensure that the dft size is smaller than the signal"
    // (no frame fits: it returned an empty result).
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sle, n,
                       length,
                       "the frame length must not exceed the signal's length")))
      return failure();
    // A frame is the window's length (n without one); the DFT cuts it to
    // n samples or pads it with zeros.
    OpFoldResult used = winLen ? minIndex(m, winLen, n) : n;
    OpFoldResult frames =
        m.max(m.add(m.floorDiv(m.sub(length, n), step), m.cst(1)), m.cst(0));
    OpFoldResult bins = onesided ? m.add(m.floorDiv(n, m.cst(2)), m.cst(1)) : n;
    FailureOr<SmallVector<Value>> sizes =
        resultSizes(rewriter, loc, op, type,
                    {getDimOFR(rewriter, loc, x, 0), frames, bins, m.cst(2)});
    if (failed(sizes))
      return failure();

    Type f64 = rewriter.getF64Type();
    Type inElt = getElementType(op.getSignal());
    // The window's first `used` values in f64 (ones without a window): also
    // the operand that gives the reduced loop its extent.
    auto cu = getConstantIntValue(used);
    auto wType = RankedTensorType::get({cu ? *cu : ShapedType::kDynamic}, f64);
    Value w;
    if (isAbsent(window)) {
      w = linalg::FillOp::create(
              rewriter, loc, createScalarConstant(rewriter, loc, f64, 1),
              createEmpty(rewriter, loc, wType, {m.value(used)}))
              .getResult(0);
    } else {
      Value ws = tensor::ExtractSliceOp::create(
          rewriter, loc, window, ArrayRef<OpFoldResult>{m.cst(0)},
          ArrayRef<OpFoldResult>{used}, ArrayRef<OpFoldResult>{m.cst(1)});
      Type winElt = getElementType(op.getWindow());
      AffineMap id = rewriter.getMultiDimIdentityMap(1);
      w = linalg::GenericOp::create(
              rewriter, loc, TypeRange{wType}, ValueRange{ws},
              ValueRange{createEmpty(rewriter, loc, wType, {m.value(used)})},
              SmallVector<AffineMap>{id, id}, parallelIterators(1),
              [&](OpBuilder &b, Location l, ValueRange args) {
                linalg::YieldOp::create(
                    b, l, convertScalar(b, l, args[0], winElt, f64));
              })
              .getResult(0);
    }

    auto [cosTab, sinTab] = twiddleTable(rewriter, loc, n);
    Value nIdx = m.value(n), stepIdx = m.value(step);
    Value lastComp, isComplex;
    if (*comps != 1) {
      lastComp = m.value(m.sub(getDimOFR(rewriter, loc, x, 2), m.cst(1)));
      if (*comps < 0)
        isComplex = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, lastComp,
            createIndexConstant(rewriter, loc, 1));
    }
    // (batch, frame, bin, t), t reduced.
    MLIRContext *ctx = rewriter.getContext();
    AffineMap wMap = AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx);
    AffineMap outMap =
        AffineMap::get(4, 0,
                       {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                        getAffineDimExpr(2, ctx)},
                       ctx);
    SmallVector<int64_t> partShape(type.getShape().drop_back());
    SmallVector<Value> partSizes(ArrayRef<Value>(*sizes).drop_back());
    Value reInit = zerosF64(rewriter, loc, partShape, partSizes);
    Value imInit = zerosF64(rewriter, loc, partShape, partSizes);
    auto partType = RankedTensorType::get(partShape, f64);
    SmallVector<utils::IteratorType> iters = parallelIterators(3);
    iters.push_back(utils::IteratorType::reduction);
    auto sums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{partType, partType}, ValueRange{w},
        ValueRange{reInit, imInit},
        SmallVector<AffineMap>{wMap, outMap, outMap}, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value batch = linalg::IndexOp::create(b, l, 0);
          Value f = linalg::IndexOp::create(b, l, 1);
          Value k = linalg::IndexOp::create(b, l, 2);
          Value t = linalg::IndexOp::create(b, l, 3);
          Value pos = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, f, stepIdx), t);
          auto sample = [&](Value comp) {
            Value v = tensor::ExtractOp::create(b, l, x,
                                                ValueRange{batch, pos, comp});
            return arith::MulFOp::create(
                b, l, convertScalar(b, l, v, inElt, f64), args[0]);
          };
          Value a = sample(createIndexConstant(b, l, 0));
          Value bi;
          if (lastComp) {
            bi = sample(lastComp);
            if (isComplex)
              bi = arith::SelectOp::create(b, l, isComplex, bi,
                                           createScalarConstant(b, l, f64, 0));
          }
          auto [c, s] = twiddle(b, l, cosTab, sinTab, k, t, nIdx);
          auto [re, im] =
              accumulate(b, l, a, bi, c, s, args[1], args[2], false);
          linalg::YieldOp::create(b, l, ValueRange{re, im});
        });
    rewriter.replaceOp(
        op, interleave(rewriter, loc, type, getElementType(op.getOutput()),
                       sums.getResult(0), sums.getResult(1), Value(), *sizes));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// MelWeightMatrix
//===----------------------------------------------------------------------===//

/// numpy's float floor division a // b (npy_divmod): floor of the exact
/// quotient, which floor(a / b) misses when a / b rounds up to an integer.
Value floorDivF(OpBuilder &b, Location loc, Value a, Value d) {
  Type t = a.getType();
  Value zero = createScalarConstant(b, loc, t, 0);
  Value one = createScalarConstant(b, loc, t, 1);
  Value mod = arith::RemFOp::create(b, loc, a, d);
  Value div =
      arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, a, mod), d);
  // mod != 0 with a sign other than the divisor's: one less.
  Value modNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, mod, zero);
  Value dNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, d, zero);
  Value modNZ =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, mod, zero);
  Value adjust = arith::AndIOp::create(
      b, loc, modNZ,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, modNeg, dNeg));
  div = arith::SelectOp::create(b, loc, adjust,
                                arith::SubFOp::create(b, loc, div, one), div);
  Value fl = math::FloorOp::create(b, loc, div);
  Value up = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                   arith::SubFOp::create(b, loc, div, fl),
                                   createScalarConstant(b, loc, t, 0.5));
  return arith::SelectOp::create(b, loc, up,
                                 arith::AddFOp::create(b, loc, fl, one), fl);
}

/// ONNX Runtime's range check of MelWeightMatrix's edges: the spectrogram
/// row floor((dft_length + 1) hz / sample_rate) of each is in [0, rows)
/// (NaN and infinite hertz fail; they returned zeros). The upper edge may
/// also be row `rows`: the ONNX reference accepts the Nyquist frequency
/// with an odd dft_length (its band edges lie below upper_edge_hertz),
/// which ORT refuses.
void checkMelEdges(IndexMath &m, Value lowHz, Value highHz,
                   OpFoldResult dftLength, OpFoldResult sampleRate,
                   OpFoldResult rows) {
  OpBuilder &rewriter = m.b;
  Location loc = m.loc;
  auto toF64 = [&](OpFoldResult v) {
    return indexToF64(m.b, m.loc, m.value(v));
  };
  auto cst = f64Const;
  for (auto [hz, name] : {std::pair<Value, StringRef>{lowHz, "lower"},
                          std::pair<Value, StringRef>{highHz, "upper"}}) {
    bool upper = name == "upper";
    Value row = math::FloorOp::create(
        rewriter, loc,
        arith::DivFOp::create(
            rewriter, loc,
            arith::MulFOp::create(rewriter, loc,
                                  toF64(m.add(dftLength, m.cst(1))), hz),
            toF64(sampleRate)));
    Value ok = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGE, row,
                              cst(rewriter, loc, 0)),
        arith::CmpFOp::create(rewriter, loc,
                              upper ? arith::CmpFPredicate::OLE
                                    : arith::CmpFPredicate::OLT,
                              row, toF64(rows)));
    emitRuntimeCheck(
        rewriter, loc, ok,
        ("MelWeightMatrix: " + name +
         "_edge_hertz is NaN or out of range (floor((dft_length + 1) * " +
         name + "_edge_hertz / sample_rate) must be in [0, dft_length / 2" +
         (upper ? " + 1])" : "])"))
            .str());
  }
}

/// The num_mel_bins + 2 band edges as spectrogram rows (i64), evenly
/// spaced in mel from lowMel by melStep.
Value melBandEdges(IndexMath &m, OpFoldResult numEdges, Value lowMel,
                   Value melStep, Value dftPlusOne, Value rate) {
  OpBuilder &rewriter = m.b;
  Location loc = m.loc;
  Type f64 = rewriter.getF64Type(), i64 = rewriter.getI64Type();
  auto cst = f64Const;
  auto ce = getConstantIntValue(numEdges);
  auto edgeType = RankedTensorType::get({ce ? *ce : ShapedType::kDynamic}, i64);
  Value edgeInit = createEmpty(rewriter, loc, edgeType, {m.value(numEdges)});
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{edgeType}, ValueRange{},
             ValueRange{edgeInit},
             SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
             parallelIterators(1),
             [&](OpBuilder &b, Location l, ValueRange) {
               Value i = arith::SIToFPOp::create(
                   b, l, f64,
                   arith::IndexCastOp::create(
                       b, l, i64, linalg::IndexOp::create(b, l, 0)));
               // hz = 700 (10^((i step + low) / 2595) - 1)
               Value v = arith::AddFOp::create(
                   b, l, arith::MulFOp::create(b, l, i, melStep), lowMel);
               v = math::PowFOp::create(
                   b, l, cst(b, l, 10),
                   arith::DivFOp::create(b, l, v, cst(b, l, 2595)));
               v = arith::MulFOp::create(
                   b, l, cst(b, l, 700),
                   arith::SubFOp::create(b, l, v, cst(b, l, 1)));
               v = floorDivF(b, l, arith::MulFOp::create(b, l, dftPlusOne, v),
                             rate);
               // Hertz and rates from data may give NaN or values past
               // int64, which convert to poison: clamp first (the edges are
               // only compared, never used as addresses).
               v = arith::MaxNumFOp::create(b, l, v, cst(b, l, -0x1p62));
               v = arith::MinNumFOp::create(b, l, v, cst(b, l, 0x1p62));
               linalg::YieldOp::create(
                   b, l, Value(arith::FPToSIOp::create(b, l, i64, v)));
             })
      .getResult(0);
}

/// The [rows, num_mel_bins] filters of `type` from the band edges: filter
/// i rises from edge i to edge i + 1 and falls to edge i + 2.
Value melFilters(OpBuilder &rewriter, Location loc, RankedTensorType type,
                 ArrayRef<Value> sizes, Value edges, Type onnxElt) {
  Type f64 = rewriter.getF64Type(), i64 = rewriter.getI64Type();
  auto cst = f64Const;
  Value init = createEmpty(rewriter, loc, type, sizes);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(2)},
             parallelIterators(2),
             [&](OpBuilder &b, Location l, ValueRange) {
               Value jIdx = linalg::IndexOp::create(b, l, 0);
               Value iIdx = linalg::IndexOp::create(b, l, 1);
               auto edge = [&](int64_t off) -> Value {
                 Value p = arith::AddIOp::create(
                     b, l, iIdx, createIndexConstant(b, l, off));
                 return tensor::ExtractOp::create(b, l, edges, ValueRange{p});
               };
               Value left = edge(0), center = edge(1), right = edge(2);
               Value j = arith::IndexCastOp::create(b, l, i64, jIdx);
               auto cmp = [&](arith::CmpIPredicate p, Value x,
                              Value y) -> Value {
                 return arith::CmpIOp::create(b, l, p, x, y);
               };
               auto ratio = [&](Value num, Value den) -> Value {
                 return arith::DivFOp::create(
                     b, l, arith::SIToFPOp::create(b, l, f64, num),
                     arith::SIToFPOp::create(b, l, f64, den));
               };
               using P = arith::CmpIPredicate;
               // Rising edge, left <= j <= center: (j - left) / (center -
               // left), 1 at a center that equals its left edge.
               Value rising = arith::AndIOp::create(b, l, cmp(P::sle, left, j),
                                                    cmp(P::sle, j, center));
               Value width = arith::SubIOp::create(b, l, center, left);
               Value zeroWidth =
                   cmp(P::eq, width, createIntConstant(b, l, i64, 0));
               // Divide by 1 instead of 0 (the result is not used then).
               Value safeWidth = arith::SelectOp::create(
                   b, l, zeroWidth, createIntConstant(b, l, i64, 1), width);
               Value up = arith::SelectOp::create(
                   b, l, zeroWidth, cst(b, l, 1),
                   ratio(arith::SubIOp::create(b, l, j, left), safeWidth));
               // Falling edge, center <= j < right: (right - j) / (right -
               // center); it is written last (both give 1 at the center).
               Value falling = arith::AndIOp::create(
                   b, l, cmp(P::sle, center, j), cmp(P::slt, j, right));
               Value down = ratio(arith::SubIOp::create(b, l, right, j),
                                  arith::SubIOp::create(b, l, right, center));
               Value v = arith::SelectOp::create(
                   b, l, falling, down,
                   arith::SelectOp::create(b, l, rising, up, cst(b, l, 0)));
               linalg::YieldOp::create(b, l,
                                       convertScalar(b, l, v, f64, onnxElt));
             })
      .getResult(0);
}

/// MelWeightMatrix-17: [dft_length / 2 + 1, num_mel_bins] triangular
/// filters (ONNX's reference implementation).
struct MelWeightMatrixLowering : OpConversionPattern<ONNX::MelWeightMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MelWeightMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    if (type.getRank() != 2)
      return op.emitOpError("result must have rank 2");
    IndexMath m{rewriter, loc};
    OpFoldResult melBins =
        scalarIndex(rewriter, loc, op.getNumMelBins(), adaptor.getNumMelBins());
    OpFoldResult dftLength =
        scalarIndex(rewriter, loc, op.getDftLength(), adaptor.getDftLength());
    OpFoldResult sampleRate =
        scalarIndex(rewriter, loc, op.getSampleRate(), adaptor.getSampleRate());
    if (failed(require(rewriter, loc, op, arith::CmpIPredicate::sge, melBins,
                       m.cst(0), "num_mel_bins must not be negative")) ||
        failed(require(rewriter, loc, op, arith::CmpIPredicate::sgt, dftLength,
                       m.cst(0), "dft_length must be positive")) ||
        failed(require(rewriter, loc, op, arith::CmpIPredicate::sgt, sampleRate,
                       m.cst(0), "sample_rate must be positive")))
      return failure();
    OpFoldResult rows = m.add(m.floorDiv(dftLength, m.cst(2)), m.cst(1));
    FailureOr<SmallVector<Value>> sizes =
        resultSizes(rewriter, loc, op, type, {rows, melBins});
    if (failed(sizes))
      return failure();

    Type f64 = rewriter.getF64Type();
    auto toF64 = [&](OpFoldResult v) {
      return indexToF64(m.b, m.loc, m.value(v));
    };
    auto cst = f64Const;
    auto hertz = [&](Value orig, Value converted) {
      return convertScalar(rewriter, loc,
                           extractScalar(rewriter, loc, converted),
                           getElementType(orig), f64);
    };
    // mel(hz) = 2595 log10(1 + hz / 700)
    auto mel = [&](Value hz) -> Value {
      Value r =
          arith::DivFOp::create(rewriter, loc, hz, cst(rewriter, loc, 700));
      r = arith::AddFOp::create(rewriter, loc, cst(rewriter, loc, 1), r);
      return arith::MulFOp::create(rewriter, loc, cst(rewriter, loc, 2595),
                                   math::Log10Op::create(rewriter, loc, r));
    };
    Value lowHz = hertz(op.getLowerEdgeHertz(), adaptor.getLowerEdgeHertz());
    Value highHz = hertz(op.getUpperEdgeHertz(), adaptor.getUpperEdgeHertz());
    checkMelEdges(m, lowHz, highHz, dftLength, sampleRate, rows);
    Value lowMel = mel(lowHz);
    Value highMel = mel(highHz);
    // The reference (and ONNX Runtime) divide the mel range by the number
    // of band edges, num_mel_bins + 2, not by the number of gaps between
    // them: the last edge lies below upper_edge_hertz.
    OpFoldResult numEdges = m.add(melBins, m.cst(2));
    Value melStep = arith::DivFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, highMel, lowMel),
        toF64(numEdges));
    Value dftPlusOne = toF64(m.add(dftLength, m.cst(1)));
    Value rate = toF64(sampleRate);

    Value edges = melBandEdges(m, numEdges, lowMel, melStep, dftPlusOne, rate);
    rewriter.replaceOp(op, melFilters(rewriter, loc, type, *sizes, edges,
                                      getElementType(op.getOutput())));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateSignalPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<WindowLowering<ONNX::HannWindowOp>>(tc, ctx, 0.5, 0.5, 0.0);
  patterns.add<WindowLowering<ONNX::HammingWindowOp>>(tc, ctx, 25.0 / 46.0,
                                                      21.0 / 46.0, 0.0);
  patterns.add<WindowLowering<ONNX::BlackmanWindowOp>>(tc, ctx, 0.42, 0.5,
                                                       0.08);
  patterns.add<DFTLowering, STFTLowering, MelWeightMatrixLowering>(tc, ctx);
}

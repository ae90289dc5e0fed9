//===- ObjectDetection.cpp - RoiAlign, NonMaxSuppression -> linalg/scf ----===//
//
// The ops of onnx/defs/object_detection (MaxRoiPool, of nn, is in
// Pooling.cpp). RoiAlign is one linalg.generic over the result
// (indexedGeneric) whose body reads the input with tensor.extract at
// indices it computes (clamped, so a coordinate far outside the image or
// NaN never becomes an out-of-bounds access). Its arithmetic follows ONNX
// Runtime's kernel step by step, in f32 for f16 and f32 data and f64 for
// f64 data.
//
// NonMaxSuppression has a data-dependent result size: per (batch, class)
// the boxes scoring above score_threshold are compacted, stably sorted by
// descending score, NaN scores after every number (bottom-up merge sort,
// O(n log n)), then selected
// greedily against the boxes already selected for that class (O(n * k)).
// The rows go to a scratch tensor sized for the worst case (B * C *
// min(N, max_output_boxes_per_class) rows); the result is its first rows.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// rois[roi, k] in the compute type `ct`.
Value roiCoord(OpBuilder &b, Location l, Value rois, Value roi, int64_t k,
               Type rOnnx, Type ct) {
  Value v = tensor::ExtractOp::create(b, l, rois, ValueRange{roi, idx(b, l, k)});
  return convertScalar(b, l, v, rOnnx, ct);
}

//===----------------------------------------------------------------------===//
// RoiAlign
//===----------------------------------------------------------------------===//

/// RoiAlign (opset 16): Y[r, c, ph, pw] pools X[batch_indices[r], c] over
/// bin (ph, pw) of roi r, sampling a grid of points per bin (sampling_ratio,
/// or ceil(roi size / output size) when 0) by bilinear interpolation; avg
/// averages them, max takes the largest weighted corner value (ORT's
/// definition). The steps are ORT's pre_calc_for_bilinear_interpolate.
///
/// Hostile rois (docs/testing.md): a NaN or infinite roi is an error (as in
/// ORT), and with sampling_ratio 0 so is a roi whose adaptive grid takes
/// more than kMaxAdaptiveSamples samples per channel (over all its bins).
constexpr int64_t kMaxAdaptiveSamples = int64_t(1) << 26;

/// RoiAlign's attributes, checked.
struct RoiAlignAttrs {
  bool isMax = false, halfPixel = false;
  int64_t outH = 0, outW = 0, ratio = 0;
  double scale = 1;
};

FailureOr<RoiAlignAttrs> checkRoiAlignAttrs(ONNX::RoiAlignOp op) {
  RoiAlignAttrs at;
  StringRef mode = op.getMode();
  if (mode != "avg" && mode != "max")
    return op.emitOpError("unsupported mode '") << mode << "'";
  at.isMax = mode == "max";
  StringRef ctm = op.getCoordinateTransformationMode();
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return op.emitOpError("unsupported coordinate_transformation_mode '")
           << ctm << "'";
  at.halfPixel = ctm == "half_pixel";
  at.outH = (int64_t)op.getOutputHeight();
  at.outW = (int64_t)op.getOutputWidth();
  if (at.outH < 1 || at.outW < 1)
    return op.emitOpError("output_height and output_width must be positive");
  at.ratio = (int64_t)op.getSamplingRatio();
  if (at.ratio < 0)
    return op.emitOpError("sampling_ratio must not be negative");
  at.scale = op.getSpatialScale().convertToDouble();
  return at;
}

/// The body of RoiAlign's generic: one output element, the sampling grid of
/// its bin walked by two nested loops.
struct RoiAlignElement {
  Operation *op; // the RoiAlign (its run-time checks name it)
  const RoiAlignAttrs &at;
  Value x, rois, batchIdx;
  Type ct, xOnnx, rOnnx, yOnnx;
  SmallVector<Value> xDims;
  Value heightF, widthF;

  Value operator()(OpBuilder &b, Location l, ValueRange iv) const;

private:
  /// Sampling points per bin along one axis: sampling_ratio, or the
  /// adaptive count (checked against kMaxAdaptiveSamples).
  std::pair<Value, Value> gridSize(OpBuilder &b, Location l, Value roiH,
                                   Value roiW) const;
  /// One sample at (yy, xx) of X[batch, ch], into the accumulators (the
  /// sum, or the max and whether it is the first sample). `one`: the index
  /// 1 of the body.
  SmallVector<Value> accumulate(OpBuilder &b, Location l, Value batch,
                                Value ch, Value yy, Value xx, Value one,
                                ValueRange acc) const;
};

std::pair<Value, Value> RoiAlignElement::gridSize(OpBuilder &b, Location l,
                                                  Value roiH,
                                                  Value roiW) const {
  auto c = [&](double v) { return fConst(b, l, ct, v); };
  // Sampling points per bin: ceil(roi size / output size) when
  // sampling_ratio is 0; negative counts take no sample.
  auto gridCountF = [&](Value roiSize, int64_t out) -> Value {
    Value g = math::CeilOp::create(b, l, divF(b, l, roiSize, c(out)));
    return arith::MaxNumFOp::create(b, l, g, c(0));
  };
  if (at.ratio > 0) {
    Value g = idx(b, l, at.ratio);
    return {g, g};
  }
  // The adaptive grid comes from data: a roi of 1e9 pixels would take
  // ~1e17 samples per bin (a hang; ORT fails allocating its table of
  // grid_h * grid_w * output_height * output_width samples). At most
  // kMaxAdaptiveSamples per roi and channel are taken; more is an
  // error (rois are finite here, a sum of two can still be inf).
  Value gh = gridCountF(roiH, at.outH), gw = gridCountF(roiW, at.outW);
  Value total =
      mulF(b, l, mulF(b, l, gh, gw), c((double)at.outH * (double)at.outW));
  emitRuntimeCheck(
      b, l, op,
      cmpF(b, l, arith::CmpFPredicate::OLE, total,
           c((double)kMaxAdaptiveSamples)),
      "RoiAlign: sampling_ratio 0 takes more than 2^26 samples for a "
      "roi (output_height * output_width * ceil(roi height / "
      "output_height) * ceil(roi width / output_width))");
  Value gridH = fToIndex(b, l, gh);
  Value gridW = fToIndex(b, l, gw);
  return {gridH, gridW};
}

SmallVector<Value> RoiAlignElement::accumulate(OpBuilder &b, Location l,
                                               Value batch, Value ch, Value yy,
                                               Value xx, Value one,
                                               ValueRange accX) const {
  auto c = [&](double v) { return fConst(b, l, ct, v); };
  // Points outside [-1, size] (or NaN) weigh nothing.
  Value in = andI(b, l,
                  andI(b, l, cmpF(b, l, arith::CmpFPredicate::OGE, yy, c(-1)),
                       cmpF(b, l, arith::CmpFPredicate::OLE, yy, heightF)),
                  andI(b, l, cmpF(b, l, arith::CmpFPredicate::OGE, xx, c(-1)),
                       cmpF(b, l, arith::CmpFPredicate::OLE, xx, widthF)));
  // One axis: the low/high taps and the position's fraction (positions <= 0
  // clamp to 0; past the last pixel both taps are the last).
  auto axis = [&](Value p, Value size) -> std::tuple<Value, Value, Value> {
    p = select(b, l, in, p, c(0));
    p = select(b, l, cmpF(b, l, arith::CmpFPredicate::OLE, p, c(0)), c(0), p);
    Value low = fToIndex(b, l, p);
    Value lastI = arith::SubIOp::create(b, l, size, one);
    Value atEnd = cmpI(b, l, arith::CmpIPredicate::sge, low, lastI);
    low = select(b, l, atEnd, lastI, low);
    Value high =
        select(b, l, atEnd, lastI, arith::AddIOp::create(b, l, low, one));
    p = select(b, l, atEnd, indexToF(b, l, low, ct), p);
    Value frac = subF(b, l, p, indexToF(b, l, low, ct));
    return {low, high, frac};
  };
  auto [yLow, yHigh, ly] = axis(yy, xDims[2]);
  auto [xLow, xHigh, lx] = axis(xx, xDims[3]);
  Value hy = subF(b, l, c(1), ly), hx = subF(b, l, c(1), lx);
  Value zeroF = c(0);
  auto weight = [&](Value u, Value v) {
    return select(b, l, in, mulF(b, l, u, v), zeroF);
  };
  Value w1 = weight(hy, hx), w2 = weight(hy, lx);
  Value w3 = weight(ly, hx), w4 = weight(ly, lx);
  auto pixel = [&](Value yi, Value xi) -> Value {
    Value v = tensor::ExtractOp::create(b, l, x, ValueRange{batch, ch, yi, xi});
    return convertScalar(b, l, v, xOnnx, ct);
  };
  Value t1 = mulF(b, l, w1, pixel(yLow, xLow));
  Value t2 = mulF(b, l, w2, pixel(yLow, xHigh));
  Value t3 = mulF(b, l, w3, pixel(yHigh, xLow));
  Value t4 = mulF(b, l, w4, pixel(yHigh, xHigh));
  if (!at.isMax)
    return {addF(b, l, accX[0], addF(b, l, addF(b, l, addF(b, l, t1, t2), t3), t4)),
            accX[1]};
  Value v = stdMax(b, l, stdMax(b, l, stdMax(b, l, t1, t2), t3), t4);
  Value m = select(b, l, accX[1], v, stdMax(b, l, accX[0], v));
  return {m, arith::ConstantOp::create(b, l, b.getBoolAttr(false))};
}

Value RoiAlignElement::operator()(OpBuilder &b, Location l,
                                  ValueRange iv) const {
  auto c = [&](double v) { return fConst(b, l, ct, v); };
  Value roi = iv[0], ch = iv[1], ph = iv[2], pw = iv[3];
  Value batch = toIndex(
      b, l, tensor::ExtractOp::create(b, l, batchIdx, ValueRange{roi}));
  auto roiAt = [&](int64_t k) -> Value {
    return roiCoord(b, l, rois, roi, k, rOnnx, ct);
  };
  // Do not round (ORT: "this implementation detail is critical").
  Value offset = c(at.halfPixel ? 0.5 : 0.0);
  Value sc = c(at.scale);
  Value startW = subF(b, l, mulF(b, l, roiAt(0), sc), offset);
  Value startH = subF(b, l, mulF(b, l, roiAt(1), sc), offset);
  Value endW = subF(b, l, mulF(b, l, roiAt(2), sc), offset);
  Value endH = subF(b, l, mulF(b, l, roiAt(3), sc), offset);
  Value roiW = subF(b, l, endW, startW);
  Value roiH = subF(b, l, endH, startH);
  if (!at.halfPixel) {
    // Malformed rois become 1x1.
    roiW = stdMax(b, l, roiW, c(1));
    roiH = stdMax(b, l, roiH, c(1));
  }
  Value binH = divF(b, l, roiH, c(at.outH));
  Value binW = divF(b, l, roiW, c(at.outW));
  auto [gridH, gridW] = gridSize(b, l, roiH, roiW);
  Value count =
      maxIdx(b, l, arith::MulIOp::create(b, l, gridH, gridW), idx(b, l, 1));
  Value gridHF = indexToF(b, l, gridH, ct);
  Value gridWF = indexToF(b, l, gridW, ct);
  Value baseH = addF(b, l, startH, mulF(b, l, indexToF(b, l, ph, ct), binH));
  Value baseW = addF(b, l, startW, mulF(b, l, indexToF(b, l, pw, ct), binW));
  Value zero = idx(b, l, 0), one = idx(b, l, 1);
  Value first = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
  // (i + .5) * bin_size / roi_bin_grid from the bin's start.
  auto position = [&](OpBuilder &b, Location l, Value base, Value i, Value bin,
                      Value grid) {
    return addF(b, l, base,
                divF(b, l, mulF(b, l, addF(b, l, indexToF(b, l, i, ct), c(0.5)),
                                bin),
                     grid));
  };
  SmallVector<Value> acc = forRange(
      b, l, zero, gridH, one, ValueRange{c(0), first},
      [&](OpBuilder &b, Location l, Value iy,
          ValueRange accY) -> SmallVector<Value> {
        Value yy = position(b, l, baseH, iy, binH, gridHF);
        return forRange(b, l, zero, gridW, one, accY,
                        [&](OpBuilder &b, Location l, Value ix,
                            ValueRange accX) -> SmallVector<Value> {
                          Value xx = position(b, l, baseW, ix, binW, gridWF);
                          return accumulate(b, l, batch, ch, yy, xx, one, accX);
                        });
      });
  Value result = acc[0];
  if (!at.isMax)
    result = divF(b, l, result, indexToF(b, l, count, ct));
  return convertScalar(b, l, result, ct, yOnnx);
}

struct RoiAlignLowering : OpConversionPattern<ONNX::RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<RoiAlignAttrs> attrs = checkRoiAlignAttrs(op);
    if (failed(attrs))
      return failure();
    Value x = adaptor.getX(), rois = adaptor.getRois();
    Value batchIdx = adaptor.getBatchIndices();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(rois.getType());
    auto bt = cast<RankedTensorType>(batchIdx.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    if (xt.getRank() != 4)
      return op.emitOpError("X must have rank 4 (N, C, H, W)");
    if (rt.getRank() != 2 || (!rt.isDynamicDim(1) && rt.getDimSize(1) != 4))
      return op.emitOpError("rois must have shape [num_rois, 4]");
    if (bt.getRank() != 1)
      return op.emitOpError("batch_indices must be 1-D");
    if (yt.getRank() != 4)
      return op.emitOpError("Y must have rank 4");
    Type ct = computeType(rewriter, {xt.getElementType(), rt.getElementType(),
                                     yt.getElementType()});
    Type xOnnx = getElementType(op.getX()),
         rOnnx = getElementType(op.getRois());

    SmallVector<Value> xDims = dimValues(rewriter, loc, x);
    Value numRois = getDimValue(rewriter, loc, rois, 0);
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, rois, 1),
               idx(rewriter, loc, 4),
               "RoiAlign: rois must have shape [num_rois, 4]");
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, batchIdx, 0), numRois,
               "RoiAlign: batch_indices must have one entry per roi");
    for (int64_t d : {2, 3})
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::sgt, xDims[d],
                            idx(rewriter, loc, 0)),
                       "RoiAlign: the spatial dims of X must not be empty");
    // ORT refuses NaN and infinite rois ("All 'rois' values must be
    // finite"); an infinite roi would also make the adaptive grid infinite.
    checkEveryElement(
        rewriter, loc, rois, "RoiAlign: every rois value must be finite",
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          Value f = convertScalar(b, l, v, rOnnx, ct);
          return cmpF(b, l, arith::CmpFPredicate::OLT,
                      math::AbsFOp::create(b, l, f),
                      fConst(b, l, ct, std::numeric_limits<double>::infinity()));
        });
    Value numBatches = xDims[0];
    checkEveryElement(
        rewriter, loc, batchIdx, "RoiAlign: batch_indices must be in [0, N)",
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          Value i = toIndex(b, l, v);
          return andI(b, l,
                      cmpI(b, l, arith::CmpIPredicate::sge, i, idx(b, l, 0)),
                      cmpI(b, l, arith::CmpIPredicate::slt, i, numBatches));
        });
    SmallVector<Value> ySizes = {numRois, xDims[1],
                                 idx(rewriter, loc, attrs->outH),
                                 idx(rewriter, loc, attrs->outW)};
    checkResultSizes(rewriter, loc, yt, ySizes,
                     "RoiAlign: the result shape does not match the result "
                     "type");
    Value heightF = indexToF(rewriter, loc, xDims[2], ct);
    Value widthF = indexToF(rewriter, loc, xDims[3], ct);
    RoiAlignElement element{op.getOperation(), *attrs, x, rois,
                            batchIdx, ct,     xOnnx,  rOnnx,
                            getElementType(op.getY()),
                            xDims,    heightF, widthF};
    rewriter.replaceOp(op, indexedGeneric(rewriter, loc, yt, ySizes, element));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// NonMaxSuppression
//===----------------------------------------------------------------------===//

/// Everything the selection of one (batch, class) needs.
struct NmsContext {
  Value boxes, scores;
  Value batch, cls;
  bool centerPointBox;
  Value iouThreshold;
};

/// ORT's SuppressByIOU(boxes, i, j): whether box i overlaps box j by more
/// than iou_threshold. Boxes are [y1, x1, y2, x2] (any two opposite
/// corners) or [x_center, y_center, width, height].
Value suppressByIou(OpBuilder &b, Location l, const NmsContext &ctx, Value i,
                    Value j) {
  Type f32 = b.getF32Type();
  auto coord = [&](Value box, int64_t k) -> Value {
    return tensor::ExtractOp::create(b, l, ctx.boxes,
                                     ValueRange{ctx.batch, box, idx(b, l, k)});
  };
  // [min, max] of one axis of one box.
  auto extent = [&](Value box, int64_t axis) -> std::pair<Value, Value> {
    if (ctx.centerPointBox) {
      Value center = coord(box, axis);
      Value half = divF(b, l, coord(box, axis + 2), fConst(b, l, f32, 2));
      return {subF(b, l, center, half), addF(b, l, center, half)};
    }
    // MaxMin(lhs, rhs): lhs >= rhs ? (rhs, lhs) : (lhs, rhs).
    Value lhs = coord(box, axis), rhs = coord(box, axis + 2);
    Value ge = cmpF(b, l, arith::CmpFPredicate::OGE, lhs, rhs);
    return {select(b, l, ge, rhs, lhs), select(b, l, ge, lhs, rhs)};
  };
  // x is coordinate 1 of a corner box, 0 of a center box.
  int64_t xAxis = ctx.centerPointBox ? 0 : 1, yAxis = 1 - xAxis;
  auto [x1Min, x1Max] = extent(i, xAxis);
  auto [x2Min, x2Max] = extent(j, xAxis);
  auto [y1Min, y1Max] = extent(i, yAxis);
  auto [y2Min, y2Max] = extent(j, yAxis);
  Value ixMin = stdMax(b, l, x1Min, x2Min), ixMax = stdMin(b, l, x1Max, x2Max);
  Value iyMin = stdMax(b, l, y1Min, y2Min), iyMax = stdMin(b, l, y1Max, y2Max);
  Value zero = fConst(b, l, f32, 0);
  auto positive = [&](Value v, Value than) {
    // !(v <= than): NaN passes, as in ORT's early returns.
    return notI(b, l, cmpF(b, l, arith::CmpFPredicate::OLE, v, than));
  };
  Value inter = mulF(b, l, subF(b, l, ixMax, ixMin), subF(b, l, iyMax, iyMin));
  Value area1 = mulF(b, l, subF(b, l, x1Max, x1Min), subF(b, l, y1Max, y1Min));
  Value area2 = mulF(b, l, subF(b, l, x2Max, x2Min), subF(b, l, y2Max, y2Min));
  Value uni = subF(b, l, addF(b, l, area1, area2), inter);
  Value iou = divF(b, l, inter, uni);
  Value ok = andI(b, l, positive(ixMax, ixMin), positive(iyMax, iyMin));
  ok = andI(b, l, ok, positive(inter, zero));
  ok = andI(b, l, ok, andI(b, l, positive(area1, zero), positive(area2, zero)));
  ok = andI(b, l, ok, positive(uni, zero));
  return andI(b, l, ok,
              cmpF(b, l, arith::CmpFPredicate::OGT, iou, ctx.iouThreshold));
}

/// Sorts cand[0, m) (box indices, ascending) by descending score, stably
/// (equal scores keep the lower index first, as ORT's priority queue):
/// bottom-up merge sort, each pass into a fresh tensor.
Value sortByScore(OpBuilder &b, Location loc, const NmsContext &ctx, Value cand,
                  Value m) {
  auto score = [&](OpBuilder &nb, Location l, Value box) -> Value {
    return tensor::ExtractOp::create(nb, l, ctx.scores,
                                     ValueRange{ctx.batch, ctx.cls, box});
  };
  Value one = idx(b, loc, 1);
  SmallVector<Value> res = buildWhile(
      b, loc, ValueRange{cand, one},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return cmpI(nb, l, arith::CmpIPredicate::slt, args[1], m);
      },
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value src = args[0], width = args[1];
        Value step = arith::AddIOp::create(nb, l, width, width);
        Value last = arith::SubIOp::create(nb, l, m, idx(nb, l, 1));
        Value dst =
            createEmptyLike(nb, l, cast<RankedTensorType>(src.getType()), src);
        dst = forRange(
            nb, l, idx(nb, l, 0), m, step, ValueRange{dst},
            [&](OpBuilder &fb, Location fl, Value lo,
                ValueRange d) -> SmallVector<Value> {
              Value mid =
                  minIdx(fb, fl, arith::AddIOp::create(fb, fl, lo, width), m);
              Value hi =
                  minIdx(fb, fl, arith::AddIOp::create(fb, fl, lo, step), m);
              SmallVector<Value> merged = forRange(
                  fb, fl, lo, hi, idx(fb, fl, 1), ValueRange{lo, mid, d[0]},
                  [&](OpBuilder &kb, Location kl, Value k,
                      ValueRange s) -> SmallVector<Value> {
                    Value i = s[0], j = s[1];
                    // Both heads are read in bounds even when a run is
                    // exhausted.
                    Value bi = tensor::ExtractOp::create(
                        kb, kl, src, ValueRange{minIdx(kb, kl, i, last)});
                    Value bj = tensor::ExtractOp::create(
                        kb, kl, src, ValueRange{minIdx(kb, kl, j, last)});
                    Value leftDone =
                        cmpI(kb, kl, arith::CmpIPredicate::sge, i, mid);
                    Value rightLeft =
                        cmpI(kb, kl, arith::CmpIPredicate::slt, j, hi);
                    // sj > si, NaN after every number (a total order: with
                    // IEEE's > a NaN ties with everything and the result
                    // depended on the boxes' positions). ORT's order of NaN
                    // scores is its heap's, not a defined one.
                    Value sj = score(kb, kl, bj), si = score(kb, kl, bi);
                    Value greater = arith::OrIOp::create(
                        kb, kl,
                        cmpF(kb, kl, arith::CmpFPredicate::OGT, sj, si),
                        andI(kb, kl,
                             cmpF(kb, kl, arith::CmpFPredicate::UNO, si, si),
                             cmpF(kb, kl, arith::CmpFPredicate::ORD, sj, sj)));
                    Value takeRight =
                        andI(kb, kl, rightLeft,
                             arith::OrIOp::create(kb, kl, leftDone, greater));
                    Value v = select(kb, kl, takeRight, bj, bi);
                    Value out = tensor::InsertOp::create(kb, kl, v, s[2],
                                                         ValueRange{k});
                    Value oneK = idx(kb, kl, 1), zeroK = idx(kb, kl, 0);
                    Value di = select(kb, kl, takeRight, zeroK, oneK);
                    Value dj = select(kb, kl, takeRight, oneK, zeroK);
                    return {arith::AddIOp::create(kb, kl, i, di),
                            arith::AddIOp::create(kb, kl, j, dj), out};
                  });
              return {merged[2]};
            })[0];
        return {dst, step};
      });
  return res[0];
}

/// NonMaxSuppression's optional scalar operands as values: the count per
/// class (absent: 0, clamped to [0, numBoxes]), the IoU threshold
/// (absent: 0, checked in [0, 1]) and the score threshold (null when
/// absent).
struct NmsScalars {
  Value maxOut, iou, scoreThreshold;
};

FailureOr<NmsScalars> nmsScalars(ConversionPatternRewriter &rewriter,
                                 Location loc, ONNX::NonMaxSuppressionOp op,
                                 ONNX::NonMaxSuppressionOp::Adaptor adaptor,
                                 Value numBoxes) {
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  NmsScalars s;
  // max_output_boxes_per_class: absent means 0, negative counts as 0.
  s.maxOut = idx(rewriter, loc, 0);
  if (!isa<NoneType>(op.getMaxOutputBoxesPerClass().getType())) {
    FailureOr<Value> v =
        scalarOperand(rewriter, loc, op, adaptor.getMaxOutputBoxesPerClass(),
                      "max_output_boxes_per_class");
    if (failed(v))
      return failure();
    // Clamped to [0, N] before the cast: a huge count selects at most N.
    Value n64 = arith::IndexCastOp::create(rewriter, loc, i64, numBoxes);
    Value c = arith::MaxSIOp::create(rewriter, loc, *v,
                                     createIntConstant(rewriter, loc, i64, 0));
    c = arith::MinSIOp::create(rewriter, loc, c, n64);
    s.maxOut =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), c);
  }
  s.iou = fConst(rewriter, loc, f32, 0);
  if (!isa<NoneType>(op.getIouThreshold().getType())) {
    FailureOr<Value> v = scalarOperand(rewriter, loc, op,
                                       adaptor.getIouThreshold(),
                                       "iou_threshold");
    if (failed(v))
      return failure();
    s.iou = *v;
    emitRuntimeCheck(rewriter, loc,
                     andI(rewriter, loc,
                          cmpF(rewriter, loc, arith::CmpFPredicate::OGE, s.iou,
                               fConst(rewriter, loc, f32, 0)),
                          cmpF(rewriter, loc, arith::CmpFPredicate::OLE, s.iou,
                               fConst(rewriter, loc, f32, 1))),
                     "NonMaxSuppression: iou_threshold must be in [0, 1]");
  }
  if (!isa<NoneType>(op.getScoreThreshold().getType())) {
    FailureOr<Value> v = scalarOperand(rewriter, loc, op,
                                       adaptor.getScoreThreshold(),
                                       "score_threshold");
    if (failed(v))
      return failure();
    s.scoreThreshold = *v;
  }
  return s;
}

/// The boxes of (ctx.batch, ctx.cls) scoring above `scoreThreshold` (all
/// when null), in box order, compacted to the front of a fresh index
/// vector; returns it and their count.
std::pair<Value, Value> compactCandidates(OpBuilder &b, Location l,
                                          const NmsContext &ctx,
                                          Value numBoxes,
                                          Value scoreThreshold) {
  auto idxVecType =
      RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType());
  Value cand = createEmpty(b, l, idxVecType, {numBoxes});
  SmallVector<Value> compact = buildLoops(
      b, l, {numBoxes}, ValueRange{cand, idx(b, l, 0)},
      [&](OpBuilder &nb, Location nl, ValueRange box,
          ValueRange c) -> SmallVector<Value> {
        Value keep = arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true));
        if (scoreThreshold) {
          Value s = tensor::ExtractOp::create(
              nb, nl, ctx.scores, ValueRange{ctx.batch, ctx.cls, box[0]});
          keep = cmpF(nb, nl, arith::CmpFPredicate::OGT, s, scoreThreshold);
        }
        // Written at the next free slot either way (c[1] <= box < N); only
        // a kept box advances it.
        Value t =
            tensor::InsertOp::create(nb, nl, box[0], c[0], ValueRange{c[1]});
        Value next = arith::AddIOp::create(
            nb, nl, c[1],
            select(nb, nl, keep, idx(nb, nl, 1), idx(nb, nl, 0)));
        return {t, next};
      });
  return {compact[0], compact[1]};
}

/// Greedy selection over `sorted[0, m)`: each box is kept unless it
/// overlaps a box kept before it for this class (rows [start, start +
/// count) of `out`), at most `maxOut` of them; kept boxes are written as
/// rows [batch, class, box]. Returns the rows and the count kept.
std::pair<Value, Value> selectGreedy(OpBuilder &b, Location l,
                                     const NmsContext &ctx, Value sorted,
                                     Value m, Value maxOut, Value start,
                                     Value out0) {
  Type i64 = b.getI64Type();
  SmallVector<Value> sel = buildWhile(
      b, l, ValueRange{idx(b, l, 0), idx(b, l, 0), out0},
      [&](OpBuilder &nb, Location nl, ValueRange s) {
        return andI(nb, nl, cmpI(nb, nl, arith::CmpIPredicate::slt, s[0], m),
                    cmpI(nb, nl, arith::CmpIPredicate::slt, s[1], maxOut));
      },
      [&](OpBuilder &nb, Location nl, ValueRange s) -> SmallVector<Value> {
        Value k = s[0], count = s[1], out = s[2];
        Value box = tensor::ExtractOp::create(nb, nl, sorted, ValueRange{k});
        Value end = arith::AddIOp::create(nb, nl, start, count);
        Value keep = forRange(
            nb, nl, start, end, idx(nb, nl, 1),
            ValueRange{arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true))},
            [&](OpBuilder &fb, Location fl, Value row,
                ValueRange kept) -> SmallVector<Value> {
              return buildIf(
                  fb, fl, kept[0], kept,
                  [&](OpBuilder &ib, Location il) -> SmallVector<Value> {
                    Value other = toIndex(
                        ib, il,
                        tensor::ExtractOp::create(
                            ib, il, out, ValueRange{row, idx(ib, il, 2)}));
                    return {notI(ib, il,
                                 suppressByIou(ib, il, ctx, box, other))};
                  });
            })[0];
        SmallVector<Value> written = buildIf(
            nb, nl, keep, ValueRange{out},
            [&](OpBuilder &ib, Location il) -> SmallVector<Value> {
              Value t = out;
              Value vals[3] = {ctx.batch, ctx.cls, box};
              for (int64_t col = 0; col < 3; ++col)
                t = tensor::InsertOp::create(
                    ib, il, arith::IndexCastOp::create(ib, il, i64, vals[col]),
                    t, ValueRange{end, idx(ib, il, col)});
              return {t};
            });
        Value nextCount = arith::AddIOp::create(
            nb, nl, count,
            select(nb, nl, keep, idx(nb, nl, 1), idx(nb, nl, 0)));
        return {arith::AddIOp::create(nb, nl, k, idx(nb, nl, 1)), nextCount,
                written[0]};
      });
  return {sel[2], sel[1]};
}

/// NonMaxSuppression: per batch and class, the boxes scoring above
/// score_threshold, by descending score, each kept unless it overlaps
/// (IoU > iou_threshold) a box already kept, at most
/// max_output_boxes_per_class of them; rows [batch, class, box] in that
/// order.
struct NonMaxSuppressionLowering
    : OpConversionPattern<ONNX::NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t cpb = (int64_t)op.getCenterPointBox();
    if (cpb != 0 && cpb != 1)
      return op.emitOpError("center_point_box must be 0 or 1");
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto bt = cast<RankedTensorType>(boxes.getType());
    auto st = cast<RankedTensorType>(scores.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getSelectedIndices());
    if (bt.getRank() != 3 || (!bt.isDynamicDim(2) && bt.getDimSize(2) != 4))
      return op.emitOpError(
          "boxes must have shape [num_batches, spatial_dimension, 4]");
    if (st.getRank() != 3)
      return op.emitOpError("scores must have shape [num_batches, num_classes, "
                            "spatial_dimension]");
    if (yt.getRank() != 2 || (!yt.isDynamicDim(1) && yt.getDimSize(1) != 3))
      return op.emitOpError("selected_indices must have shape [?, 3]");
    Type i64 = rewriter.getI64Type();

    SmallVector<Value> bDims = dimValues(rewriter, loc, boxes);
    SmallVector<Value> sDims = dimValues(rewriter, loc, scores);
    checkEqual(rewriter, loc, bDims[2], idx(rewriter, loc, 4),
               "NonMaxSuppression: the last dim of boxes must be 4");
    checkEqual(rewriter, loc, sDims[0], bDims[0],
               "NonMaxSuppression: boxes and scores must have the same "
               "number of batches");
    checkEqual(rewriter, loc, sDims[2], bDims[1],
               "NonMaxSuppression: boxes and scores must have the same "
               "number of boxes");
    Value numBatches = bDims[0], numBoxes = bDims[1], numClasses = sDims[1];
    FailureOr<NmsScalars> scalars =
        nmsScalars(rewriter, loc, op, adaptor, numBoxes);
    if (failed(scalars))
      return failure();
    Value maxOut = scalars->maxOut;

    // The scratch rows: at most maxOut per (batch, class); at least one, so
    // that the slice of its first rows is valid IR even when no box can be
    // selected (a static 0-row tensor fails extract_slice's verifier).
    Value rows = arith::MulIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, numBatches, numClasses), maxOut);
    rows = arith::MaxSIOp::create(rewriter, loc, rows, idx(rewriter, loc, 1));
    auto scratchType = RankedTensorType::get({ShapedType::kDynamic, 3}, i64);
    Value scratch = createEmpty(rewriter, loc, scratchType, {rows, Value()});
    Value zero = idx(rewriter, loc, 0);

    SmallVector<Value> filled = buildLoops(
        rewriter, loc, {numBatches, numClasses}, ValueRange{scratch, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          NmsContext ctx{boxes, scores, ivs[0], ivs[1], cpb == 1,
                         scalars->iou};
          Value start = args[1];
          // 1. The candidates, in box order.
          auto [cand, m] = compactCandidates(b, l, ctx, numBoxes,
                                             scalars->scoreThreshold);
          // 2. By descending score.
          Value sorted = sortByScore(b, l, ctx, cand, m);
          // 3. Greedy selection.
          auto [out, count] =
              selectGreedy(b, l, ctx, sorted, m, maxOut, start, args[0]);
          return {out, arith::AddIOp::create(b, l, start, count)};
        });
    Value total = filled[1];
    if (!yt.isDynamicDim(0))
      checkEqual(rewriter, loc, total, idx(rewriter, loc, yt.getDimSize(0)),
                 "NonMaxSuppression: the number of selected boxes does not "
                 "match the result type");
    Value result = tensor::ExtractSliceOp::create(
        rewriter, loc, filled[0],
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                               rewriter.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{total, rewriter.getIndexAttr(3)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                               rewriter.getIndexAttr(1)});
    if (result.getType() != yt)
      result = tensor::CastOp::create(rewriter, loc, yt, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateObjectDetectionPatterns(TypeConverter &tc,
                                                  RewritePatternSet &patterns) {
  patterns.add<RoiAlignLowering, NonMaxSuppressionLowering>(
      tc, patterns.getContext());
}

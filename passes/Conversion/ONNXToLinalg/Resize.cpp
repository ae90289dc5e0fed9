//===- Resize.cpp - Resize, Upsample -> linalg ----------------------------===//
//
// Resize is one linalg.generic over the result. Per resized dim the body
// maps the result index to a source coordinate (the coordinate
// transformation mode, in f64), then reads the input with tensor.extract:
// one tap for nearest, 2 (linear) or 4 (cubic) taps per resized dim, the
// weights multiplied across dims. Dims whose size does not change are read
// directly (a run-time check makes sure their scale is 1). Scales, sizes
// and roi may be run-time tensors. When a resized dim's sizes are static
// and its scale constant (nearest and linear modes), its taps and weights
// are computed at compile time into constant tables the body reads
// (the same f64 arithmetic, the same results). antialias (linear and
// cubic) always reads tables: ONNX Runtime's filter, stretched by 1/scale
// when downsampling (its weights computed in f32 as its kernel does). A
// resized dim with static sizes and a constant scale gets a constant table
// whose taps the body unrolls; the others get theirs at run time from the
// runtime (onnxc_rt_resize_aa_table, the same arithmetic), of a width known
// only then: the generic then has one reduction dim over each such table's
// taps and accumulates in f64. The tables are built in ResizeTables.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/ResizeTables.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;
using namespace mlir::onnxc::linalg_conv::resize;

namespace {

/// A coordinate as an index, callers clamp it into the input: first
/// brought into [-2^62, 2^62] (NaN to one end), so that a coordinate from
/// data (a NaN or huge roi) never converts to poison.
Value f64ToIndex(OpBuilder &b, Location loc, Value f) {
  f = arith::MaxNumFOp::create(b, loc, f, f64Const(b, loc, -0x1p62));
  f = arith::MinNumFOp::create(b, loc, f, f64Const(b, loc, 0x1p62));
  Value v = arith::FPToSIOp::create(b, loc, b.getI64Type(), f);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// Element `i` of the 1-D tensor `t` as f64 (or as index for integers).
Value extractAt(OpBuilder &b, Location loc, Value t, int64_t i, Type onnxElt) {
  Value e = tensor::ExtractOp::create(
      b, loc, t, ValueRange{createIndexConstant(b, loc, i)});
  if (isa<FloatType>(e.getType()))
    return convertScalar(b, loc, e, e.getType(), b.getF64Type());
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
}

/// Cubic convolution weights of the taps floor(x)-1 .. floor(x)+2 for the
/// fraction t (Keys, coefficient a).
SmallVector<Value> cubicWeights(OpBuilder &b, Location loc, Value t, double a) {
  auto c = [&](double v) { return f64Const(b, loc, v); };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulFOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubFOp::create(b, loc, x, y);
  };
  // Far taps (|d| in [1, 2]): ((a*d - 5a)*d + 8a)*d - 4a.
  auto far = [&](Value d) {
    return sub(mul(add(mul(sub(mul(c(a), d), c(5 * a)), d), c(8 * a)), d),
               c(4 * a));
  };
  // Near taps (|d| in [0, 1]): ((a+2)*d - (a+3))*d*d + 1.
  auto near = [&](Value d) {
    return add(mul(mul(sub(mul(c(a + 2), d), c(a + 3)), d), d), c(1));
  };
  Value one = c(1);
  return {far(add(t, one)), near(t), near(sub(one, t)), far(sub(c(2), t))};
}

/// The source coordinate (f64) of output index `i` along a resized dim,
/// computed in the body, and the constant 0.5 it made.
struct SourceCoord {
  Value xs, half;
};

/// `roiStart`/`roiEnd`: the dim's roi (tf_crop_and_resize only), whose
/// test ORs into `outside`.
SourceCoord buildSourceCoordinate(OpBuilder &nb, Location l,
                                  const ResizeParams &p, Value i,
                                  Value inSize, Value outSize, Value s,
                                  Value roiStart, Value roiEnd,
                                  Value &outside) {
  auto c = [&](double v) { return f64Const(nb, l, v); };
  Value xo = indexToF64(nb, l, i);
  Value in = indexToF64(nb, l, inSize);
  Value out = indexToF64(nb, l, outSize);
  Value half = c(0.5);
  Value hp = arith::SubFOp::create(
      nb, l,
      arith::DivFOp::create(nb, l, arith::AddFOp::create(nb, l, xo, half), s),
      half);
  // align_corners, pytorch_half_pixel and tf_crop_and_resize use the
  // unrounded output length scale * in (the reference's output_width).
  Value outF = arith::MulFOp::create(nb, l, s, in);
  Value outIsOne =
      arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, outF, c(1));
  Value inLast = arith::SubFOp::create(nb, l, in, c(1));
  Value xs;
  switch (p.coord) {
  case Coord::HalfPixel:
    xs = hp;
    break;
  case Coord::HalfPixelSymmetric: {
    Value adj = arith::DivFOp::create(nb, l, out,
                                      arith::MulFOp::create(nb, l, s, in));
    Value center = arith::MulFOp::create(nb, l, in, half);
    Value offset = arith::MulFOp::create(
        nb, l, center, arith::SubFOp::create(nb, l, c(1), adj));
    xs = arith::AddFOp::create(nb, l, offset, hp);
    break;
  }
  case Coord::PytorchHalfPixel:
    xs = arith::SelectOp::create(nb, l, outIsOne, c(0), hp);
    break;
  case Coord::AlignCorners: {
    Value r = arith::DivFOp::create(nb, l,
                                    arith::MulFOp::create(nb, l, xo, inLast),
                                    arith::SubFOp::create(nb, l, outF, c(1)));
    xs = arith::SelectOp::create(nb, l, outIsOne, c(0), r);
    break;
  }
  case Coord::Asymmetric:
    xs = arith::DivFOp::create(nb, l, xo, s);
    break;
  case Coord::TfHalfPixelForNN:
    xs = arith::DivFOp::create(nb, l, arith::AddFOp::create(nb, l, xo, half),
                               s);
    break;
  case Coord::TfCropAndResize: {
    Value len = arith::SubFOp::create(nb, l, roiEnd, roiStart);
    Value r = arith::AddFOp::create(
        nb, l, arith::MulFOp::create(nb, l, roiStart, inLast),
        arith::DivFOp::create(
            nb, l,
            arith::MulFOp::create(nb, l, arith::MulFOp::create(nb, l, xo, len),
                                  inLast),
            arith::SubFOp::create(nb, l, outF, c(1))));
    Value mid = arith::MulFOp::create(
        nb, l,
        arith::MulFOp::create(
            nb, l, arith::AddFOp::create(nb, l, roiStart, roiEnd), half),
        inLast);
    xs = arith::SelectOp::create(nb, l, outIsOne, mid, r);
    Value lo =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, xs, c(0));
    Value hi =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, xs, inLast);
    outside = arith::OrIOp::create(nb, l, outside,
                                   arith::OrIOp::create(nb, l, lo, hi));
    break;
  }
  }
  return {xs, half};
}

/// The taps (indices clamped to [0, inSize)) and weights (none for
/// nearest) of source coordinate `src` along one dim.
void buildTaps(OpBuilder &nb, Location l, const ResizeParams &p,
               SourceCoord src, Value inSize, Value zeroIdx, Value oneIdx,
               SmallVector<Value> &taps, SmallVector<Value> &weights) {
  auto c = [&](double v) { return f64Const(nb, l, v); };
  Value xs = src.xs, half = src.half;
  Value last = arith::SubIOp::create(nb, l, inSize, oneIdx);
  auto clampIdx = [&](Value v) -> Value {
    v = arith::MaxSIOp::create(nb, l, v, zeroIdx);
    return arith::MinSIOp::create(nb, l, v, last);
  };
  if (p.interp == Interp::Nearest) {
    Value r;
    switch (p.rounding) {
    case Rounding::PreferFloor:
      r = math::CeilOp::create(nb, l, arith::SubFOp::create(nb, l, xs, half));
      break;
    case Rounding::PreferCeil:
      r = math::FloorOp::create(nb, l, arith::AddFOp::create(nb, l, xs, half));
      break;
    case Rounding::Floor:
      r = math::FloorOp::create(nb, l, xs);
      break;
    case Rounding::Ceil:
      r = math::CeilOp::create(nb, l, xs);
      break;
    }
    taps.push_back(clampIdx(f64ToIndex(nb, l, r)));
    return;
  }
  Value fl = math::FloorOp::create(nb, l, xs);
  Value t = arith::SubFOp::create(nb, l, xs, fl);
  Value base = f64ToIndex(nb, l, fl);
  if (p.interp == Interp::Linear) {
    taps = {clampIdx(base),
            clampIdx(arith::AddIOp::create(nb, l, base, oneIdx))};
    weights = {arith::SubFOp::create(nb, l, c(1), t), t};
    return;
  }
  weights = cubicWeights(nb, l, t, p.cubicA);
  Value sum;
  for (int k = 0; k < 4; ++k) {
    Value idx = arith::AddIOp::create(nb, l, base,
                                      createIndexConstant(nb, l, k - 1));
    if (p.excludeOutside) {
      Value in = arith::AndIOp::create(
          nb, l,
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, idx,
                                zeroIdx),
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, idx, last));
      weights[k] = arith::SelectOp::create(nb, l, in, weights[k], c(0));
      sum = sum ? Value(arith::AddFOp::create(nb, l, sum, weights[k]))
                : weights[k];
    }
    taps.push_back(clampIdx(idx));
  }
  if (p.excludeOutside)
    for (Value &w : weights)
      w = arith::DivFOp::create(nb, l, w, sum);
}

/// Sum over every combination of taps (odometer order over the dims) of
/// x[taps] times the product of their weights (in f64), or the one tap's
/// value when no dim has weights.
Value combineTaps(OpBuilder &nb, Location l, Value x, Type elt,
                  ArrayRef<SmallVector<Value>> taps,
                  ArrayRef<SmallVector<Value>> weights) {
  int64_t rank = taps.size();
  SmallVector<int64_t> counter(rank, 0);
  Value acc;
  while (true) {
    SmallVector<Value> idx;
    Value w;
    for (int64_t d = 0; d < rank; ++d) {
      idx.push_back(taps[d][counter[d]]);
      if (!weights[d].empty())
        w = w ? Value(arith::MulFOp::create(nb, l, w, weights[d][counter[d]]))
              : weights[d][counter[d]];
    }
    Value v = tensor::ExtractOp::create(nb, l, x, idx);
    if (w) {
      Value term = arith::MulFOp::create(
          nb, l, convertScalar(nb, l, v, elt, nb.getF64Type()), w);
      acc = acc ? Value(arith::AddFOp::create(nb, l, acc, term)) : term;
    } else {
      acc = v;
    }
    int64_t d = rank - 1;
    while (d >= 0 && ++counter[d] == (int64_t)taps[d].size())
      counter[d--] = 0;
    if (d < 0)
      break;
  }
  return acc;
}

/// The resize of `x` into `type`; `scales`/`sizes` are per dim (f64 and
/// index values), `roi` start/end per dim (f64, tf_crop_and_resize only),
/// `resized` marks the dims that are interpolated.
Value buildResize(OpBuilder &b, Location loc, Operation *op, Value x,
                  RankedTensorType type, const ResizeParams &p,
                  ArrayRef<Value> scales,
                  ArrayRef<Value> outSizes, ArrayRef<Value> roiStart,
                  ArrayRef<Value> roiEnd, ArrayRef<bool> resized,
                  ArrayRef<std::optional<double>> constScales) {
  int64_t rank = type.getRank();
  Type elt = type.getElementType();
  Value init = createEmpty(b, loc, type, outSizes);
  SmallVector<Value> inSizes;
  for (int64_t i = 0; i < rank; ++i)
    inSizes.push_back(getDimValue(b, loc, x, i));
  // Resized dims with static sizes and a constant scale read their taps
  // (and weights) from tables built here.
  TapTables tables =
      buildTapTables(b, loc, cast<RankedTensorType>(x.getType()), type, p,
                     resized, constScales);
  // antialias dims whose constant tables' taps, unrolled, would pass
  // kMaxTaps per element, and those without a constant table (tables built
  // at run time): read as inputs of the generic over (result dims, one
  // reduction dim each).
  SmallVector<int64_t> loopDims;
  SmallVector<Value> loopInputs;
  if (p.antialias) {
    int64_t unrolled = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (!resized[d])
        continue;
      if (tables.index[d] && unrolled * tables.taps[d] <= kMaxTaps) {
        unrolled *= tables.taps[d];
        continue;
      }
      if (tables.index[d]) {
        loopDims.push_back(d);
        loopInputs.push_back(tables.index[d]);
        loopInputs.push_back(tables.weight[d]);
        continue;
      }
      // An empty input dim has no tap to read unless the result is empty.
      Value zeroIdx = createIndexConstant(b, loc, 0);
      emitRuntimeCheck(
          b, loc,
          arith::OrIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                    inSizes[d], zeroIdx),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                    outSizes[d], zeroIdx)),
          "Resize: antialias over dim {}, of size 0",
          {createIndexConstant(b, loc, d)});
      Value width;
      auto [it, wt] = runtimeAntialiasTable(b, loc, op, p, inSizes[d],
                                            outSizes[d], scales[d], width);
      tables.index[d] = it;
      tables.weight[d] = wt;
      loopDims.push_back(d);
      loopInputs.push_back(it);
      loopInputs.push_back(wt);
    }
  }
  int64_t numLoops = loopDims.size();

  auto body = [&](OpBuilder &nb, Location l, ValueRange args) {
    Value zeroIdx = createIndexConstant(nb, l, 0);
    Value oneIdx = createIndexConstant(nb, l, 1);
    Value outside = arith::ConstantOp::create(nb, l, nb.getBoolAttr(false));
    // Per dim: the tap indices and weights (weights empty: direct read).
    SmallVector<SmallVector<Value>> taps(rank), weights(rank);
    for (int64_t d = 0; d < rank; ++d) {
      Value i = linalg::IndexOp::create(nb, l, d);
      if (!resized[d]) {
        taps[d].push_back(i);
        continue;
      }
      if (auto *pos = llvm::find(loopDims, d); pos != loopDims.end()) {
        // A run-time table: this iteration's tap of reduction dim j.
        int64_t j = pos - loopDims.begin();
        taps[d].push_back(
            arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[2 * j]));
        weights[d].push_back(args[2 * j + 1]);
        continue;
      }
      if (tables.index[d]) {
        for (int64_t k = 0; k < tables.taps[d]; ++k) {
          Value kk = createIndexConstant(nb, l, k);
          Value tap = tensor::ExtractOp::create(nb, l, tables.index[d],
                                                ValueRange{i, kk});
          taps[d].push_back(
              arith::IndexCastOp::create(nb, l, nb.getIndexType(), tap));
          if (tables.weight[d])
            weights[d].push_back(tensor::ExtractOp::create(
                nb, l, tables.weight[d], ValueRange{i, kk}));
        }
        continue;
      }
      bool crop = p.coord == Coord::TfCropAndResize;
      SourceCoord src = buildSourceCoordinate(
          nb, l, p, i, inSizes[d], outSizes[d], scales[d],
          crop ? roiStart[d] : Value(), crop ? roiEnd[d] : Value(), outside);
      buildTaps(nb, l, p, src, inSizes[d], zeroIdx, oneIdx, taps[d],
                weights[d]);
    }
    Value acc = combineTaps(nb, l, x, elt, taps, weights);
    if (numLoops) {
      // Summed over the reduction dims in f64.
      linalg::YieldOp::create(nb, l,
                              ValueRange{arith::AddFOp::create(nb, l, args.back(), acc).getResult()});
      return;
    }
    Value result = acc.getType() == elt
                       ? acc
                       : convertScalar(nb, l, acc, acc.getType(), elt);
    if (p.coord == Coord::TfCropAndResize)
      result = arith::SelectOp::create(
          nb, l, outside, createScalarConstant(nb, l, elt, p.extrapolation),
          result);
    linalg::YieldOp::create(nb, l, result);
  };
  if (!numLoops)
    return linalg::GenericOp::create(
               b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
               SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
               parallelIterators(rank), body)
        .getResult(0);
  // (result dims, one reduction dim per run-time table): each table is read
  // at (its dim, its reduction dim); the f64 sum then becomes `elt`.
  MLIRContext *ctx = b.getContext();
  int64_t loops = rank + numLoops;
  SmallVector<AffineMap> maps;
  for (int64_t j = 0; j < numLoops; ++j) {
    AffineMap m = AffineMap::get(
        loops, 0,
        {getAffineDimExpr(loopDims[j], ctx), getAffineDimExpr(rank + j, ctx)},
        ctx);
    maps.push_back(m);
    maps.push_back(m);
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(getAffineDimExpr(d, ctx));
  maps.push_back(AffineMap::get(loops, 0, outExprs, ctx));
  SmallVector<utils::IteratorType> iters = parallelIterators(rank);
  iters.append(numLoops, utils::IteratorType::reduction);
  auto accType = RankedTensorType::get(type.getShape(), b.getF64Type());
  Value accInit = linalg::FillOp::create(b, loc, f64Const(b, loc, 0),
                                         createEmpty(b, loc, accType, outSizes))
                      .getResult(0);
  Value sum = linalg::GenericOp::create(b, loc, TypeRange{accType}, loopInputs,
                                        ValueRange{accInit}, maps, iters, body)
                  .getResult(0);
  return convertTensor(b, loc, sum, elt);
}

/// Shared by Resize and Upsample: the per-dim scales, result sizes and
/// resized dims, then the generic.
LogicalResult lowerResize(ConversionPatternRewriter &rewriter, Operation *op,
                          Value x, RankedTensorType type, const ResizeParams &p,
                          ArrayRef<int64_t> axes, Value origScales,
                          Value scalesT, Value origSizes, Value sizesT,
                          Value origRoi, Value roiT) {
  Location loc = op->getLoc();
  OpBuilder &b = rewriter;
  int64_t rank = type.getRank();
  auto xt = cast<RankedTensorType>(x.getType());
  bool hasScales = !isAbsent(origScales), hasSizes = !isAbsent(origSizes);
  if (hasScales == hasSizes)
    return op->emitOpError("exactly one of scales and sizes must be given");
  if (p.interp != Interp::Nearest && !isa<FloatType>(type.getElementType()))
    return op->emitOpError("linear and cubic modes need a float element type");
  int64_t n = axes.size();
  Value given = hasScales ? scalesT : sizesT;
  auto gt = cast<RankedTensorType>(given.getType());
  if (gt.getRank() != 1 || (!gt.isDynamicDim(0) && gt.getDimSize(0) != n))
    return op->emitOpError(hasScales ? "scales" : "sizes")
           << " must be 1-D with one entry per axis";
  if (p.coord == Coord::TfCropAndResize && isAbsent(origRoi))
    return op->emitOpError("tf_crop_and_resize needs roi");

  Value one = f64Const(b, loc, 1);
  SmallVector<Value> scales(rank, one), outSizes(rank), roiStart(rank),
      roiEnd(rank);
  SmallVector<bool> resized(rank, false);
  for (int64_t d = 0; d < rank; ++d)
    outSizes[d] = getDimValue(b, loc, x, d);
  Type onnxGiven = getElementType(hasScales ? origScales : origSizes);
  SmallVector<Value> ratio(rank);
  for (auto [k, d] : llvm::enumerate(axes)) {
    Value v = extractAt(b, loc, given, k, onnxGiven);
    Value in = indexToF64(b, loc, getDimValue(b, loc, x, d));
    if (hasScales) {
      scales[d] = v;
      // A scale from data: positive and finite (NaN fails too).
      emitRuntimeCheck(
          b, loc,
          arith::AndIOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v,
                                    f64Const(b, loc, 0)),
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v,
                                    f64Const(b, loc, INFINITY))),
          "Resize: scale {} is not positive and finite",
          {createIndexConstant(b, loc, k)});
      if (type.isDynamicDim(d)) {
        Value roiLen = one;
        if (p.coord == Coord::TfCropAndResize)
          roiLen = arith::SubFOp::create(
              b, loc, extractAt(b, loc, roiT, k + n, getElementType(origRoi)),
              extractAt(b, loc, roiT, k, getElementType(origRoi)));
        Value o;
        if (p.coord == Coord::TfCropAndResize) {
          o = arith::MulFOp::create(
              b, loc, arith::MulFOp::create(b, loc, in, roiLen), v);
        } else {
          // In f32, as ONNX Runtime and the shape inference compute it
          // (150 * 0.02f is 3 in f32, 2.99999 in f64).
          Type f32 = b.getF32Type();
          o = convertScalar(
              b, loc,
              arith::MulFOp::create(b, loc,
                                    convertScalar(b, loc, in, b.getF64Type(), f32),
                                    convertScalar(b, loc, v, b.getF64Type(), f32)),
              f32, b.getF64Type());
        }
        outSizes[d] = floatToSize(b, loc, math::FloorOp::create(b, loc, o),
                                  "Resize: an output size is not a size "
                                  "(negative, NaN or past 2^63 - 1)");
      } else {
        outSizes[d] = createIndexConstant(b, loc, type.getDimSize(d));
      }
    } else {
      // A size from data: positive (ORT: "Scale value should be greater
      // than 0"; a size of 0 is a scale of 0, negative fails too).
      emitRuntimeCheck(
          b, loc,
          b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, v,
                                        createIndexConstant(b, loc, 0)),
          "Resize: size {} is {}, expected > 0",
          {createIndexConstant(b, loc, k), v});
      ratio[d] = arith::DivFOp::create(b, loc, indexToF64(b, loc, v), in);
      outSizes[d] = type.isDynamicDim(d)
                        ? v
                        : createIndexConstant(b, loc, type.getDimSize(d));
      scales[d] = ratio[d];
    }
  }
  if (hasSizes && p.policy != "stretch") {
    // One scale for all axes: the smallest (not_larger) or the largest
    // (not_smaller) ratio; sizes become round(in * scale).
    Value common;
    for (int64_t d : axes)
      common = !common ? ratio[d]
               : p.policy == "not_larger"
                   ? Value(arith::MinimumFOp::create(b, loc, common, ratio[d]))
                   : Value(arith::MaximumFOp::create(b, loc, common, ratio[d]));
    for (int64_t d : axes) {
      scales[d] = common;
      if (type.isDynamicDim(d)) {
        Value in = indexToF64(b, loc, getDimValue(b, loc, x, d));
        Value o = arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, in, common),
            f64Const(b, loc, 0.5));
        outSizes[d] = floatToSize(b, loc, math::FloorOp::create(b, loc, o),
                                  "Resize: an output size is not a size "
                                  "(negative, NaN or past 2^63 - 1)");
      }
    }
  }
  if (p.coord == Coord::TfCropAndResize) {
    auto rt = cast<RankedTensorType>(roiT.getType());
    if (rt.getRank() != 1 || (!rt.isDynamicDim(0) && rt.getDimSize(0) != 2 * n))
      return op->emitOpError("roi must be 1-D with two entries per axis");
    for (auto [k, d] : llvm::enumerate(axes)) {
      roiStart[d] = extractAt(b, loc, roiT, k, getElementType(origRoi));
      roiEnd[d] = extractAt(b, loc, roiT, k + n, getElementType(origRoi));
    }
  }
  // Resized dims: every axis, except those whose size provably does not
  // change; those must have scale 1 (checked at run time), so they read
  // directly (tf_crop_and_resize and tf_half_pixel_for_nn always resize).
  int64_t numTaps = 1;
  for (int64_t d : axes) {
    bool same = !xt.isDynamicDim(d) && !type.isDynamicDim(d) &&
                xt.getDimSize(d) == type.getDimSize(d) &&
                p.coord != Coord::TfCropAndResize &&
                p.coord != Coord::TfHalfPixelForNN;
    if (same) {
      Value isOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          scales[d], one);
      emitRuntimeCheck(b, loc, isOne,
                       "Resize: a dim whose size does not change must have "
                       "scale 1");
      continue;
    }
    resized[d] = true;
    numTaps *= p.interp == Interp::Cubic    ? 4
               : p.interp == Interp::Linear ? 2
                                            : 1;
  }
  if (numTaps > kMaxTaps)
    return op->emitOpError("too many interpolation taps (")
           << numTaps << ") per element";
  // The scales known at compile time (a constant scales operand, or
  // constant sizes over static input dims with the stretch policy), as the
  // generic would compute them (f64 from the float, or size / in).
  SmallVector<std::optional<double>> constScales(rank);
  if (hasScales) {
    if (auto v = getConstantFloats(origScales, scalesT))
      if ((int64_t)v->size() == n)
        for (auto [k, d] : llvm::enumerate(axes))
          constScales[d] = (*v)[k];
  } else if (p.policy == "stretch") {
    if (auto v = getConstantInts(origSizes, sizesT))
      if ((int64_t)v->size() == n)
        for (auto [k, d] : llvm::enumerate(axes))
          if (!xt.isDynamicDim(d))
            constScales[d] = static_cast<double>((*v)[k]) /
                             static_cast<double>(xt.getDimSize(d));
  }
  if (p.antialias) {
    // Every resized dim reads an antialias table: a constant one with
    // static sizes and a constant scale (its taps unrolled while they fit
    // kMaxTaps), else one built at run time (buildResize).
    if (p.coord == Coord::TfCropAndResize)
      return op->emitOpError("antialias with tf_crop_and_resize is not "
                             "lowered (the filter tables take no roi)");
  }
  Value y = buildResize(b, loc, op, x, type, p, scales, outSizes, roiStart,
                        roiEnd, resized, constScales);
  rewriter.replaceOp(op, y);
  return success();
}

/// Resize: Y[i] = interpolate(X, coordinate(i)) per resized axis, with the
/// nearest (all nearest_modes), linear or cubic (cubic_coeff_a,
/// exclude_outside) mode and every coordinate_transformation_mode; scales or
/// sizes (with keep_aspect_ratio_policy), axes, roi for tf_crop_and_resize
/// (extrapolation_value outside it), antialias (tables: constant ones for
/// static sizes and constant scales, else built at run time).
struct ResizeLowering : OpConversionPattern<ONNX::ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = type.getRank();
    ResizeParams p;
    SmallVector<int64_t> axes;
    std::string error;
    if (!readResizeAttributes(op, rank, p, axes, error))
      return op.emitOpError(error);
    return lowerResize(rewriter, op, adaptor.getX(), type, p, axes,
                       op.getScales(), adaptor.getScales(), op.getSizes(),
                       adaptor.getSizes(), op.getRoi(), adaptor.getRoi());
  }
};

/// Upsample (opset 9): Resize with asymmetric coordinates, nearest rounding
/// down, modes nearest and linear.
struct UpsampleLowering : OpConversionPattern<ONNX::UpsampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::UpsampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    ResizeParams p;
    p.coord = Coord::Asymmetric;
    p.rounding = Rounding::Floor;
    StringRef mode = op.getMode();
    if (mode == "nearest")
      p.interp = Interp::Nearest;
    else if (mode == "linear" || mode == "bilinear")
      p.interp = Interp::Linear;
    else
      return op.emitOpError("unsupported mode '") << mode << "'";
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      axes.push_back(d);
    Value none =
        ONNX::NoValueOp::create(rewriter, op.getLoc(), rewriter.getNoneType());
    return lowerResize(rewriter, op, adaptor.getX(), type, p, axes,
                       op.getScales(), adaptor.getScales(), none, Value(), none,
                       Value());
  }
};

} // namespace

void mlir::onnxc::populateResizePatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<ResizeLowering, UpsampleLowering>(tc, patterns.getContext());
}

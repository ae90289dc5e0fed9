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
// when downsampling (its weights computed in f32 as its kernel does), so it
// needs static sizes and constant scales.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

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

namespace {

enum class Interp { Nearest, Linear, Cubic };
enum class Coord {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
enum class Rounding { PreferFloor, PreferCeil, Floor, Ceil };

/// Everything a resize needs besides its operands.
struct ResizeParams {
  Interp interp = Interp::Nearest;
  Coord coord = Coord::HalfPixel;
  Rounding rounding = Rounding::PreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0;
  StringRef policy = "stretch";
  bool antialias = false; // linear and cubic only
};

/// Largest number of taps one result element may read.
constexpr int64_t kMaxTaps = 4096;

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

/// The taps and weights of one resized dim computed at compile time (static
/// sizes, a constant scale): for output index o, taps[o * n + k] and, for
/// linear, weights[o * n + k]. The arithmetic is the generic's, op for op in
/// f64, so the result is the same bit for bit; only the per-element
/// coordinate math (divisions, rounding, conversions: most of a resize's
/// time) leaves the loop.
struct TapTable {
  int64_t taps = 0; // per output index
  std::vector<int64_t> index;
  std::vector<double> weight;
};

/// The antialias window of one resized dim (ORT's window_size): the filter's
/// support (1 for linear, 2 for cubic) stretched by 1/scale when
/// downsampling, both sides, plus one.
int64_t antialiasWindow(const ResizeParams &p, double s) {
  float scale = 1.0f / static_cast<float>(s);
  float supportSize = p.interp == Interp::Cubic ? 4.0f : 2.0f;
  float support = scale >= 1.0f ? supportSize * 0.5f * scale : supportSize * 0.5f;
  return static_cast<int64_t>(std::ceil(support)) * 2 + 1;
}

/// The source coordinate of output index `o` (f64, as the generic computes
/// it); shared by the tables.
double sourceCoordinate(const ResizeParams &p, int64_t o, int64_t inSize,
                        int64_t outSize, double s);

/// antialias: per output index the input taps [xmin, xmax) (clipped to the
/// input) and their normalized filter weights, ONNX Runtime's
/// SetupUpsampleFilterAntiAlias in f32: center = coordinate + 0.5, the
/// filter evaluated at (x - center + 0.5) * min(scale, 1); without
/// exclude_outside the weights of taps outside the input move to the
/// nearest edge tap. Unused slots read tap 0 with weight 0.
std::optional<TapTable> antialiasTapTable(const ResizeParams &p,
                                          int64_t inSize, int64_t outSize,
                                          double s) {
  if (p.coord == Coord::TfCropAndResize || inSize <= 0)
    return std::nullopt;
  float rscale = static_cast<float>(s);
  float scale = 1.0f / rscale;
  float supportSize = p.interp == Interp::Cubic ? 4.0f : 2.0f;
  float support = scale >= 1.0f ? supportSize * 0.5f * scale : supportSize * 0.5f;
  int64_t window = antialiasWindow(p, s);
  float invScale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  float a = static_cast<float>(p.cubicA);
  auto filter = [&](float x) -> float {
    x = std::fabs(x);
    if (p.interp == Interp::Linear)
      return x < 1.0f ? 1.0f - x : 0.0f;
    if (x < 1.0f)
      return ((a + 2.0f) * x - (a + 3.0f)) * x * x + 1;
    if (x < 2.0f)
      return (((x - 5.0f) * x + 8.f) * x - 4.f) * a;
    return 0.0f;
  };
  auto clampTo = [](int64_t v, int64_t lo, int64_t hi) {
    return std::min(std::max(v, lo), hi);
  };
  TapTable t;
  t.taps = window;
  std::vector<float> buf(window);
  for (int64_t o = 0; o < outSize; ++o) {
    float center =
        0.5f + (scale == 1.0f ? static_cast<float>(o)
                              : static_cast<float>(
                                    sourceCoordinate(p, o, inSize, outSize, s)));
    int64_t xminReal =
        static_cast<int64_t>(std::floor(center - support + 0.5f));
    int64_t xmaxReal =
        static_cast<int64_t>(std::floor(center + support + 0.5f));
    xmaxReal = xminReal + clampTo(xmaxReal - xminReal, 0, window);
    int64_t xminCut = clampTo(xminReal, 0, inSize);
    int64_t xmaxCut = clampTo(xmaxReal, 0, inSize);
    int64_t xmin = p.excludeOutside ? xminCut : xminReal;
    int64_t count = (p.excludeOutside ? xmaxCut : xmaxReal) - xmin;
    std::fill(buf.begin(), buf.end(), 0.0f);
    float total = 0.0f;
    for (int64_t x = 0; x < count; ++x) {
      float w = filter((static_cast<float>(x + xmin) - center + 0.5f) * invScale);
      buf[x] = w;
      total += w;
    }
    if (!p.excludeOutside && xminCut < xmaxCut) {
      int64_t neg = clampTo(-xmin, 0, count - 1);
      for (int64_t x = 0; x < neg; ++x)
        buf[neg] += buf[x];
      int64_t past = clampTo(count + xmin - inSize, 0, count - 1);
      for (int64_t x = count - past; x < count; ++x)
        buf[count - past - 1] += buf[x];
      for (int64_t x = 0; (neg | past) > 0 && x < xmaxCut - xminCut; ++x)
        buf[x] = buf[x + neg];
    }
    float inv = total == 0.0f ? 1.0f : 1.0f / total;
    for (int64_t k = 0; k < window; ++k) {
      bool used = k < xmaxCut - xminCut;
      t.index.push_back(used ? xminCut + k : 0);
      t.weight.push_back(used ? static_cast<double>(buf[k] * inv) : 0.0);
    }
  }
  return t;
}

double sourceCoordinate(const ResizeParams &p, int64_t o, int64_t inSize,
                        int64_t outSize, double s) {
  double in = static_cast<double>(inSize), out = static_cast<double>(outSize);
  double xo = static_cast<double>(o);
  double hp = (xo + 0.5) / s - 0.5;
  double outF = s * in;
  bool outIsOne = outF == 1;
  switch (p.coord) {
  case Coord::HalfPixel:
    return hp;
  case Coord::HalfPixelSymmetric: {
    double adj = out / (s * in);
    double center = in * 0.5;
    double offset = center * (1 - adj);
    return offset + hp;
  }
  case Coord::PytorchHalfPixel:
    return outIsOne ? 0 : hp;
  case Coord::AlignCorners:
    return outIsOne ? 0 : (xo * (in - 1)) / (outF - 1);
  case Coord::Asymmetric:
    return xo / s;
  case Coord::TfHalfPixelForNN:
    return (xo + 0.5) / s;
  case Coord::TfCropAndResize:
    break; // no table
  }
  return 0;
}

/// std::optional: nullopt when the mode has no table (cubic,
/// tf_crop_and_resize).
std::optional<TapTable> computeTapTable(const ResizeParams &p, int64_t inSize,
                                        int64_t outSize, double s) {
  if (p.antialias)
    return antialiasTapTable(p, inSize, outSize, s);
  if (p.interp == Interp::Cubic || p.coord == Coord::TfCropAndResize)
    return std::nullopt;
  auto toIndex = [](double f) {
    f = std::fmax(f, -0x1p62);
    f = std::fmin(f, 0x1p62);
    return static_cast<int64_t>(f);
  };
  auto clampIdx = [&](int64_t v) {
    return std::min(std::max(v, int64_t(0)), inSize - 1);
  };
  TapTable t;
  t.taps = p.interp == Interp::Linear ? 2 : 1;
  for (int64_t o = 0; o < outSize; ++o) {
    double xs = sourceCoordinate(p, o, inSize, outSize, s);
    if (p.interp == Interp::Nearest) {
      double r = 0;
      switch (p.rounding) {
      case Rounding::PreferFloor:
        r = std::ceil(xs - 0.5);
        break;
      case Rounding::PreferCeil:
        r = std::floor(xs + 0.5);
        break;
      case Rounding::Floor:
        r = std::floor(xs);
        break;
      case Rounding::Ceil:
        r = std::ceil(xs);
        break;
      }
      t.index.push_back(clampIdx(toIndex(r)));
      continue;
    }
    double fl = std::floor(xs);
    double frac = xs - fl;
    int64_t base = toIndex(fl);
    t.index.push_back(clampIdx(base));
    t.index.push_back(clampIdx(base + 1));
    t.weight.push_back(1 - frac);
    t.weight.push_back(frac);
  }
  return t;
}

/// The tap tables of the resized dims with static sizes and a constant
/// scale (null where a dim has none): tap indices (i64) and weights (f64,
/// none for nearest), `taps` per output index.
struct TapTables {
  SmallVector<Value> index, weight;
  SmallVector<int64_t> taps;
};

TapTables buildTapTables(OpBuilder &b, Location loc, RankedTensorType xt,
                         RankedTensorType type, const ResizeParams &p,
                         ArrayRef<bool> resized,
                         ArrayRef<std::optional<double>> constScales) {
  int64_t rank = type.getRank();
  TapTables tables;
  tables.index.resize(rank);
  tables.weight.resize(rank);
  tables.taps.assign(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    if (!resized[d] || !constScales[d] || xt.isDynamicDim(d) ||
        type.isDynamicDim(d))
      continue;
    std::optional<TapTable> t = computeTapTable(
        p, xt.getDimSize(d), type.getDimSize(d), *constScales[d]);
    if (!t)
      continue;
    int64_t n = type.getDimSize(d);
    tables.taps[d] = t->taps;
    auto it = RankedTensorType::get({n, t->taps}, b.getI64Type());
    tables.index[d] = arith::ConstantOp::create(
        b, loc, it, DenseIntElementsAttr::get(it, ArrayRef<int64_t>(t->index)));
    if (!t->weight.empty()) {
      auto wt = RankedTensorType::get({n, t->taps}, b.getF64Type());
      tables.weight[d] = arith::ConstantOp::create(
          b, loc, wt,
          DenseFPElementsAttr::get(wt, ArrayRef<double>(t->weight)));
    }
  }
  return tables;
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
Value buildResize(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                  const ResizeParams &p, ArrayRef<Value> scales,
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

  auto body = [&](OpBuilder &nb, Location l, ValueRange) {
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
    Value result = acc.getType() == elt
                       ? acc
                       : convertScalar(nb, l, acc, acc.getType(), elt);
    if (p.coord == Coord::TfCropAndResize)
      result = arith::SelectOp::create(
          nb, l, outside, createScalarConstant(nb, l, elt, p.extrapolation),
          result);
    linalg::YieldOp::create(nb, l, result);
  };
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank), body)
      .getResult(0);
}

/// True when an optional operand is absent or has no elements (opsets
/// 11-12 pass an empty `scales` when `sizes` is used).
bool isAbsent(Value orig) {
  if (isa<NoneType>(orig.getType()))
    return true;
  auto t = cast<RankedTensorType>(orig.getType());
  return t.hasStaticShape() && t.getNumElements() == 0;
}

/// The operands of lowerResize and what its steps compute from them: per
/// dim of X, the scale (f64), the result size, the roi (tf_crop_and_resize)
/// and whether it is resized.
struct ResizeDims {
  OpBuilder &b;
  Location loc;
  Value x;
  RankedTensorType xt, type;
  const ResizeParams &p;
  ArrayRef<int64_t> axes;
  int64_t n; // the axes' count
  Value one; // f64 1
  SmallVector<Value> scales, outSizes, roiStart, roiEnd;
  SmallVector<Value> ratio; // size / in, per axis, with sizes
  SmallVector<bool> resized;

  /// X's dim d as an f64 result size from `o` (floored).
  Value sizeOf(Value o) {
    return floatToSize(b, loc, math::FloorOp::create(b, loc, o),
                       "Resize: an output size is not a size "
                       "(negative, NaN or past 2^63 - 1)");
  }

  /// Scales and result sizes from the scales operand `given` (entry k for
  /// axis d), each scale checked positive and finite at run time.
  void fromScale(int64_t k, int64_t d, Value v, Value in, Value roiT,
                 Type roiElt) {
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
    if (!type.isDynamicDim(d)) {
      outSizes[d] = createIndexConstant(b, loc, type.getDimSize(d));
      return;
    }
    Value roiLen = one;
    if (p.coord == Coord::TfCropAndResize)
      roiLen =
          arith::SubFOp::create(b, loc, extractAt(b, loc, roiT, k + n, roiElt),
                                extractAt(b, loc, roiT, k, roiElt));
    outSizes[d] = sizeOf(arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, in, roiLen), v));
  }

  /// The size operand's entry k for axis d: checked positive at run time,
  /// its ratio to the input size the scale.
  void fromSize(int64_t k, int64_t d, Value v, Value in) {
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

  /// keep_aspect_ratio_policy not_larger / not_smaller: one scale for all
  /// axes, the smallest or the largest ratio; sizes become
  /// round(in * scale).
  void keepAspectRatio() {
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
        outSizes[d] = sizeOf(arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, in, common),
            f64Const(b, loc, 0.5)));
      }
    }
  }

  /// Resized dims: every axis, except those whose size provably does not
  /// change; those must have scale 1 (checked at run time), so they read
  /// directly (tf_crop_and_resize and tf_half_pixel_for_nn always resize).
  /// Returns the taps per element.
  int64_t markResized() {
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
    return numTaps;
  }
};

/// The scales known at compile time (a constant scales operand, or constant
/// sizes over static input dims with the stretch policy), as the generic
/// would compute them (f64 from the float, or size / in).
SmallVector<std::optional<double>>
constantScales(RankedTensorType xt, const ResizeParams &p,
               ArrayRef<int64_t> axes, bool hasScales, Value origScales,
               Value scalesT, Value origSizes, Value sizesT) {
  int64_t n = axes.size();
  SmallVector<std::optional<double>> constScales(xt.getRank());
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
  return constScales;
}

/// Antialias: every resized dim reads an antialias table, so static sizes
/// and a constant scale; at most kMaxTaps taps per element.
LogicalResult checkAntialias(Operation *op, RankedTensorType xt,
                             RankedTensorType type, const ResizeParams &p,
                             ArrayRef<bool> resized,
                             ArrayRef<std::optional<double>> constScales) {
  int64_t taps = 1;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!resized[d])
      continue;
    if (!constScales[d] || xt.isDynamicDim(d) || type.isDynamicDim(d) ||
        p.coord == Coord::TfCropAndResize || xt.getDimSize(d) == 0)
      return op->emitOpError(
          "antialias needs static sizes, constant scales (or sizes with "
          "the stretch policy) and no tf_crop_and_resize");
    taps *= antialiasWindow(p, *constScales[d]);
    if (taps > kMaxTaps)
      return op->emitOpError("too many interpolation taps (")
             << taps << ") per element";
  }
  return success();
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
  ResizeDims dims{b,
                  loc,
                  x,
                  xt,
                  type,
                  p,
                  axes,
                  n,
                  one,
                  SmallVector<Value>(rank, one),
                  SmallVector<Value>(rank),
                  SmallVector<Value>(rank),
                  SmallVector<Value>(rank),
                  SmallVector<Value>(rank),
                  SmallVector<bool>(rank, false)};
  for (int64_t d = 0; d < rank; ++d)
    dims.outSizes[d] = getDimValue(b, loc, x, d);
  Type onnxGiven = getElementType(hasScales ? origScales : origSizes);
  for (auto [k, d] : llvm::enumerate(axes)) {
    Value v = extractAt(b, loc, given, k, onnxGiven);
    Value in = indexToF64(b, loc, getDimValue(b, loc, x, d));
    if (hasScales)
      dims.fromScale(k, d, v, in, roiT,
                     p.coord == Coord::TfCropAndResize ? getElementType(origRoi)
                                                       : Type());
    else
      dims.fromSize(k, d, v, in);
  }
  if (hasSizes && p.policy != "stretch")
    dims.keepAspectRatio();
  if (p.coord == Coord::TfCropAndResize) {
    auto rt = cast<RankedTensorType>(roiT.getType());
    if (rt.getRank() != 1 || (!rt.isDynamicDim(0) && rt.getDimSize(0) != 2 * n))
      return op->emitOpError("roi must be 1-D with two entries per axis");
    for (auto [k, d] : llvm::enumerate(axes)) {
      dims.roiStart[d] = extractAt(b, loc, roiT, k, getElementType(origRoi));
      dims.roiEnd[d] = extractAt(b, loc, roiT, k + n, getElementType(origRoi));
    }
  }
  int64_t numTaps = dims.markResized();
  if (numTaps > kMaxTaps)
    return op->emitOpError("too many interpolation taps (")
           << numTaps << ") per element";
  SmallVector<std::optional<double>> constScales = constantScales(
      xt, p, axes, hasScales, origScales, scalesT, origSizes, sizesT);
  if (p.antialias &&
      failed(checkAntialias(op, xt, type, p, dims.resized, constScales)))
    return failure();
  Value y = buildResize(b, loc, x, type, p, dims.scales, dims.outSizes,
                        dims.roiStart, dims.roiEnd, dims.resized, constScales);
  rewriter.replaceOp(op, y);
  return success();
}

/// Resize: Y[i] = interpolate(X, coordinate(i)) per resized axis, with the
/// nearest (all nearest_modes), linear or cubic (cubic_coeff_a,
/// exclude_outside) mode and every coordinate_transformation_mode; scales or
/// sizes (with keep_aspect_ratio_policy), axes, roi for tf_crop_and_resize
/// (extrapolation_value outside it), antialias (static shapes, constant
/// scales: tables).
struct ResizeLowering : OpConversionPattern<ONNX::ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = type.getRank();
    ResizeParams p;
    StringRef mode = op.getMode();
    if (mode == "nearest")
      p.interp = Interp::Nearest;
    else if (mode == "linear")
      p.interp = Interp::Linear;
    else if (mode == "cubic")
      p.interp = Interp::Cubic;
    else
      return op.emitOpError("unsupported mode '") << mode << "'";
    StringRef ct = op.getCoordinateTransformationMode();
    auto coord = llvm::StringSwitch<std::optional<Coord>>(ct)
                     .Case("half_pixel", Coord::HalfPixel)
                     .Case("half_pixel_symmetric", Coord::HalfPixelSymmetric)
                     .Case("pytorch_half_pixel", Coord::PytorchHalfPixel)
                     .Case("align_corners", Coord::AlignCorners)
                     .Case("asymmetric", Coord::Asymmetric)
                     .Case("tf_half_pixel_for_nn", Coord::TfHalfPixelForNN)
                     .Case("tf_crop_and_resize", Coord::TfCropAndResize)
                     .Default(std::nullopt);
    if (!coord)
      return op.emitOpError("unsupported coordinate_transformation_mode '")
             << ct << "'";
    p.coord = *coord;
    StringRef nm = op.getNearestMode();
    auto rounding = llvm::StringSwitch<std::optional<Rounding>>(nm)
                        .Case("round_prefer_floor", Rounding::PreferFloor)
                        .Case("round_prefer_ceil", Rounding::PreferCeil)
                        .Case("floor", Rounding::Floor)
                        .Case("ceil", Rounding::Ceil)
                        .Default(std::nullopt);
    if (!rounding)
      return op.emitOpError("unsupported nearest_mode '") << nm << "'";
    p.rounding = *rounding;
    // antialias changes the linear and cubic filters only.
    p.antialias = op.getAntialias() != 0 && p.interp != Interp::Nearest;
    p.policy = op.getKeepAspectRatioPolicy();
    if (p.policy != "stretch" && p.policy != "not_larger" &&
        p.policy != "not_smaller")
      return op.emitOpError("unsupported keep_aspect_ratio_policy '")
             << p.policy << "'";
    p.cubicA = op.getCubicCoeffA().convertToDouble();
    p.excludeOutside = op.getExcludeOutside() != 0;
    p.extrapolation = op.getExtrapolationValue().convertToDouble();
    SmallVector<int64_t> axes;
    if (auto a = op.getAxes()) {
      for (int64_t v : *a) {
        int64_t d = normalizeAxis(v, rank);
        if (d < 0 || d >= rank)
          return op.emitOpError("axis ") << v << " out of range";
        if (llvm::is_contained(axes, d))
          return op.emitOpError("axis ") << v
                                         << " is referred to more than once";
        axes.push_back(d);
      }
    } else {
      for (int64_t d = 0; d < rank; ++d)
        axes.push_back(d);
    }
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

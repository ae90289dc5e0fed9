//===- ResizeTables.cpp - Resize's tap tables -----------------------------===//
//
// The taps and weights of one resized dim, per output index: computed at
// compile time into constants when its sizes are static and its scale
// constant (nearest and linear: the generic's own f64 arithmetic; antialias:
// ONNX Runtime's filter in f32), or, for antialias, built at run time by the
// runtime's onnxc_rt_resize_aa_table (runtime/src/resize.c: the same
// arithmetic as antialiasTapTable, step for step).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/ResizeTables.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;
using namespace mlir::onnxc::linalg_conv::resize;

namespace {

/// The antialias window of one resized dim (ORT's window_size): the filter's
/// support (1 for linear, 2 for cubic) stretched by 1/scale when
/// downsampling, both sides, plus one.
int64_t antialiasWindow(const ResizeParams &p, double s) {
  float scale = 1.0f / static_cast<float>(s);
  float supportSize = p.interp == Interp::Cubic ? 4.0f : 2.0f;
  float support =
      scale >= 1.0f ? supportSize * 0.5f * scale : supportSize * 0.5f;
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
std::optional<TapTable> antialiasTapTable(const ResizeParams &p, int64_t inSize,
                                          int64_t outSize, double s) {
  if (p.coord == Coord::TfCropAndResize || inSize <= 0)
    return std::nullopt;
  float rscale = static_cast<float>(s);
  float scale = 1.0f / rscale;
  float supportSize = p.interp == Interp::Cubic ? 4.0f : 2.0f;
  float support =
      scale >= 1.0f ? supportSize * 0.5f * scale : supportSize * 0.5f;
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
    float center = 0.5f + (scale == 1.0f ? static_cast<float>(o)
                                         : static_cast<float>(sourceCoordinate(
                                               p, o, inSize, outSize, s)));
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
      float w =
          filter((static_cast<float>(x + xmin) - center + 0.5f) * invScale);
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

} // namespace

std::optional<TapTable>
mlir::onnxc::linalg_conv::resize::computeTapTable(const ResizeParams &p,
                                                  int64_t inSize,
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

namespace {

} // namespace

TapTables resize::buildTapTables(OpBuilder &b, Location loc,
                                 RankedTensorType xt, RankedTensorType type,
                                 const ResizeParams &p, ArrayRef<bool> resized,
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

std::pair<Value, Value>
resize::runtimeAntialiasTable(OpBuilder &b, Location loc, Operation *op,
                              const ResizeParams &p, Value inSize,
                              Value outSize, Value scale, Value &width) {
  Type i64 = b.getI64Type(), i32 = b.getI32Type(), f64 = b.getF64Type();
  auto to64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  Value cubic = createIntConstant(b, loc, i32, p.interp == Interp::Cubic);
  Value w = callRuntime(b, loc, op, "onnxc_rt_resize_aa_width", {i64},
                        {cubic, scale, to64(inSize)})[0];
  width = arith::IndexCastOp::create(b, loc, b.getIndexType(), w);
  SmallVector<Value> tables, addrs;
  for (Type elt : {i64, f64}) {
    auto mt =
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, elt);
    Value m = memref::AllocOp::create(b, loc, mt, ValueRange{outSize, width},
                                      b.getI64IntegerAttr(64));
    tables.push_back(m);
    addrs.push_back(
        to64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m)));
  }
  callRuntime(b, loc, op, "onnxc_rt_resize_aa_table", {},
              {cubic, createIntConstant(b, loc, i32, (int64_t)p.coord),
               f64Const(b, loc, p.cubicA),
               createIntConstant(b, loc, i32, p.excludeOutside), to64(inSize),
               to64(outSize), scale, w, addrs[0], addrs[1]});
  SmallVector<Value> out;
  for (Value m : tables) {
    auto mt = cast<MemRefType>(m.getType());
    out.push_back(bufferization::ToTensorOp::create(
        b, loc, RankedTensorType::get(mt.getShape(), mt.getElementType()), m,
        /*restrict=*/true, /*writable=*/true));
  }
  return {out[0], out[1]};
}

bool mlir::onnxc::linalg_conv::resize::readResizeAttributes(
    ONNX::ResizeOp op, int64_t rank, ResizeParams &p,
    SmallVectorImpl<int64_t> &axes, std::string &error) {
  StringRef mode = op.getMode();
  if (mode == "nearest")
    p.interp = Interp::Nearest;
  else if (mode == "linear")
    p.interp = Interp::Linear;
  else if (mode == "cubic")
    p.interp = Interp::Cubic;
  else {
    error = ("unsupported mode '" + mode + "'").str();
    return false;
  }
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
  if (!coord) {
    error = ("unsupported coordinate_transformation_mode '" + ct + "'").str();
    return false;
  }
  p.coord = *coord;
  StringRef nm = op.getNearestMode();
  auto rounding = llvm::StringSwitch<std::optional<Rounding>>(nm)
                      .Case("round_prefer_floor", Rounding::PreferFloor)
                      .Case("round_prefer_ceil", Rounding::PreferCeil)
                      .Case("floor", Rounding::Floor)
                      .Case("ceil", Rounding::Ceil)
                      .Default(std::nullopt);
  if (!rounding) {
    error = ("unsupported nearest_mode '" + nm + "'").str();
    return false;
  }
  p.rounding = *rounding;
  // antialias changes the linear and cubic filters only.
  p.antialias = op.getAntialias() != 0 && p.interp != Interp::Nearest;
  p.policy = op.getKeepAspectRatioPolicy();
  if (p.policy != "stretch" && p.policy != "not_larger" &&
      p.policy != "not_smaller") {
    error = ("unsupported keep_aspect_ratio_policy '" + p.policy + "'").str();
    return false;
  }
  p.cubicA = op.getCubicCoeffA().convertToDouble();
  p.excludeOutside = op.getExcludeOutside() != 0;
  p.extrapolation = op.getExtrapolationValue().convertToDouble();
  axes.clear();
  if (auto a = op.getAxes()) {
    for (int64_t v : *a) {
      int64_t d = normalizeAxis(v, rank);
      if (d < 0 || d >= rank) {
        error = "axis " + std::to_string(v) + " out of range";
        return false;
      }
      if (llvm::is_contained(axes, d)) {
        error = "axis " + std::to_string(v) + " is referred to more than once";
        return false;
      }
      axes.push_back(d);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  return true;
}

bool mlir::onnxc::linalg_conv::resize::isAbsent(Value operand) {
  if (!operand || isa<NoneType>(operand.getType()))
    return true;
  auto t = dyn_cast<ShapedType>(operand.getType());
  return t && t.hasStaticShape() && t.getNumElements() == 0;
}

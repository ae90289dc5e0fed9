//===- GridSample.cpp - GridSample, AffineGrid -> linalg ------------------===//
//
// AffineGrid is one elementwise linalg.generic over the grid: the base
// coordinate of each spatial index (align_corners or pixel centers in
// [-1, 1]) multiplied by theta, in f32 for f16/bf16 and f32, f64 for f64.
//
// GridSample is one linalg.generic over the result whose body reads the
// input with tensor.extract at indices it computes (clamped, so a
// coordinate far outside the image or NaN never becomes an out-of-bounds
// access). Its arithmetic follows ONNX Runtime's kernel step by step (the
// ONNX reference implementation is a port of it), in f32 for f16 and f32
// data and f64 for f64 data, so that results agree to the last bit where
// the order of operations allows it.
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

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Largest number of input reads one GridSample result element may take.
constexpr int64_t kMaxTaps = 4096;

//===----------------------------------------------------------------------===//
// GridSample
//===----------------------------------------------------------------------===//

enum class GridMode { Nearest, Linear, Cubic };
enum class GridPad { Zeros, Border, Reflection };

/// ORT's GsReflect: reflects `x` by the near border until it lies in
/// [lo, hi] (a zero-width range gives lo).
Value reflect(OpBuilder &b, Location l, Value x, Value lo, Value hi) {
  Type t = x.getType();
  Value range = subF(b, l, hi, lo);
  auto folded = [&](Value dx) -> std::pair<Value, Value> {
    // n = trunc(dx / range) (dx >= 0); r = dx - n * range; whether n is even.
    Value n = math::FloorOp::create(b, l, divF(b, l, dx, range));
    Value r = subF(b, l, dx, mulF(b, l, n, range));
    Value half = mulF(b, l, n, fConst(b, l, t, 0.5));
    Value even = cmpF(b, l, arith::CmpFPredicate::OEQ,
                      math::FloorOp::create(b, l, half), half);
    return {r, even};
  };
  auto [rLo, evenLo] = folded(subF(b, l, lo, x));
  Value below = select(b, l, evenLo, addF(b, l, lo, rLo), subF(b, l, hi, rLo));
  auto [rHi, evenHi] = folded(subF(b, l, x, hi));
  Value above = select(b, l, evenHi, subF(b, l, hi, rHi), addF(b, l, lo, rHi));
  Value r = select(
      b, l, cmpF(b, l, arith::CmpFPredicate::OLT, x, lo), below,
      select(b, l, cmpF(b, l, arith::CmpFPredicate::OGT, x, hi), above, x));
  Value empty =
      cmpF(b, l, arith::CmpFPredicate::OLE, range, fConst(b, l, t, 0));
  return select(b, l, empty, lo, r);
}

/// Cubic convolution coefficients (Keys, A = -0.75) of the taps
/// floor(x) - 1 .. floor(x) + 2 for the fraction t, as ORT's
/// GsGetCubicCoeffs computes them.
SmallVector<Value> gridCubicCoeffs(OpBuilder &b, Location l, Value t) {
  Type ty = t.getType();
  auto c = [&](double v) { return fConst(b, l, ty, v); };
  const double a = -0.75;
  t = math::AbsFOp::create(b, l, t);
  // ((a * u - 5a) * u + 8a) * u - 4a for u = t + 1 and u = 2 - t.
  auto far = [&](Value u) {
    return subF(
        b, l,
        mulF(b, l,
             addF(b, l,
                  mulF(b, l, subF(b, l, mulF(b, l, c(a), u), c(5 * a)), u),
                  c(8 * a)),
             u),
        c(4 * a));
  };
  // ((a + 2) * u - (a + 3)) * u * u + 1 for u = t and u = 1 - t.
  auto near = [&](Value u) {
    return addF(
        b, l,
        mulF(b, l, mulF(b, l, subF(b, l, mulF(b, l, c(a + 2), u), c(a + 3)), u),
             u),
        c(1));
  };
  return {far(addF(b, l, t, c(1))), near(t), near(subF(b, l, c(1), t)),
          far(subF(b, l, c(2), t))};
}

/// GridSample's attributes, checked.
struct GridAttrs {
  GridMode mode = GridMode::Linear;
  GridPad pad = GridPad::Zeros;
  bool align = false;
};

FailureOr<GridAttrs> checkGridAttrs(ONNX::GridSampleOp op) {
  GridAttrs at;
  StringRef modeName = op.getMode();
  // Opset 16 names the modes bilinear/bicubic, opset 20 linear/cubic.
  if (modeName == "nearest")
    at.mode = GridMode::Nearest;
  else if (modeName == "bilinear" || modeName == "linear")
    at.mode = GridMode::Linear;
  else if (modeName == "bicubic" || modeName == "cubic")
    at.mode = GridMode::Cubic;
  else
    return op.emitOpError("unsupported mode '") << modeName << "'";
  StringRef padName = op.getPaddingMode();
  if (padName == "zeros")
    at.pad = GridPad::Zeros;
  else if (padName == "border")
    at.pad = GridPad::Border;
  else if (padName == "reflection")
    at.pad = GridPad::Reflection;
  else
    return op.emitOpError("unsupported padding_mode '") << padName << "'";
  int64_t alignAttr = (int64_t)op.getAlignCorners();
  if (alignAttr != 0 && alignAttr != 1)
    return op.emitOpError("align_corners must be 0 or 1");
  at.align = alignAttr == 1;
  return at;
}

/// The body of GridSample's generic: one output element.
struct GridSampleElement {
  const GridAttrs &at;
  int64_t r, perDim;
  Value x, grid;
  Type ct, xOnnx, gOnnx, yOnnx;
  SmallVector<Value> xDims;
  /// Per spatial dim, as floats: the size and the borders (reflection).
  SmallVector<Value> sizeF, lo, hi;

  void operator()(OpBuilder &b, Location l, ValueRange) const;

private:
  /// Spatial dim `i`: the tap indices of the grid's coordinate at
  /// `gridPos`, whether each is inside (zeros padding) and the weights
  /// (none for nearest).
  void dimTaps(OpBuilder &b, Location l, int64_t i,
               SmallVector<Value> &gridPos, SmallVector<Value> &taps,
               SmallVector<Value> &inside, SmallVector<Value> &weights) const;
  /// X[n, ch] at every combination of taps, the last spatial dim fastest
  /// (0 outside for zeros padding).
  SmallVector<Value> readTaps(OpBuilder &b, Location l, Value n, Value ch,
                              ArrayRef<SmallVector<Value>> taps,
                              ArrayRef<SmallVector<Value>> inside) const;
};

void GridSampleElement::dimTaps(OpBuilder &b, Location l, int64_t i,
                                SmallVector<Value> &gridPos,
                                SmallVector<Value> &taps,
                                SmallVector<Value> &inside,
                                SmallVector<Value> &weights) const {
  auto c = [&](double v) { return fConst(b, l, ct, v); };
  GridMode mode = at.mode;
  Value size = xDims[2 + i];
  gridPos.back() = idx(b, l, r - 1 - i);
  Value g = tensor::ExtractOp::create(b, l, grid, gridPos);
  g = convertScalar(b, l, g, gOnnx, ct);
  Value xc = at.align
                 ? mulF(b, l, divF(b, l, addF(b, l, g, c(1)), c(2)),
                        subF(b, l, sizeF[i], c(1)))
                 : divF(b, l,
                        subF(b, l, mulF(b, l, addF(b, l, g, c(1)), sizeF[i]),
                             c(1)),
                        c(2));
  if (mode == GridMode::Nearest)
    xc = math::RoundEvenOp::create(b, l, xc);
  // NaN and huge coordinates become finite (their taps fall outside), so
  // that no index is poison.
  xc = arith::MinNumFOp::create(b, l, xc, c(1 << 30));
  xc = arith::MaxNumFOp::create(b, l, xc, c(-(1 << 30)));
  SmallVector<Value> raw;
  if (mode == GridMode::Nearest) {
    raw.push_back(fToIndex(b, l, xc));
  } else {
    Value fl = math::FloorOp::create(b, l, xc);
    Value base = fToIndex(b, l, fl);
    if (mode == GridMode::Linear) {
      raw = {base, arith::AddIOp::create(b, l, base, idx(b, l, 1))};
      weights = {subF(b, l, addF(b, l, fl, c(1)), xc), subF(b, l, xc, fl)};
    } else {
      for (int64_t k = -1; k <= 2; ++k)
        raw.push_back(arith::AddIOp::create(b, l, base, idx(b, l, k)));
      weights = gridCubicCoeffs(b, l, subF(b, l, xc, fl));
    }
  }
  for (Value t : raw) {
    switch (at.pad) {
    case GridPad::Zeros:
      inside.push_back(
          andI(b, l, cmpI(b, l, arith::CmpIPredicate::sge, t, idx(b, l, 0)),
               cmpI(b, l, arith::CmpIPredicate::slt, t, size)));
      taps.push_back(clampIdx(b, l, t, size));
      break;
    case GridPad::Border:
      taps.push_back(clampIdx(b, l, t, size));
      break;
    case GridPad::Reflection: {
      Value f = reflect(b, l, indexToF(b, l, t, ct), lo[i], hi[i]);
      taps.push_back(clampIdx(b, l, fToIndex(b, l, f), size));
      break;
    }
    }
  }
}

SmallVector<Value>
GridSampleElement::readTaps(OpBuilder &b, Location l, Value n, Value ch,
                            ArrayRef<SmallVector<Value>> taps,
                            ArrayRef<SmallVector<Value>> inside) const {
  SmallVector<Value> values;
  SmallVector<int64_t> counter(r, 0);
  while (true) {
    SmallVector<Value> pos = {n, ch};
    Value valid;
    for (int64_t i = 0; i < r; ++i) {
      pos.push_back(taps[i][counter[i]]);
      if (at.pad == GridPad::Zeros)
        valid = valid ? andI(b, l, valid, inside[i][counter[i]])
                      : inside[i][counter[i]];
    }
    Value v = tensor::ExtractOp::create(b, l, x, pos);
    v = convertScalar(b, l, v, xOnnx, ct);
    if (valid)
      v = select(b, l, valid, v, fConst(b, l, ct, 0));
    values.push_back(v);
    int64_t i = r - 1;
    while (i >= 0 && ++counter[i] == perDim)
      counter[i--] = 0;
    if (i < 0)
      break;
  }
  return values;
}

void GridSampleElement::operator()(OpBuilder &b, Location l,
                                   ValueRange) const {
  Value n = linalg::IndexOp::create(b, l, 0);
  Value ch = linalg::IndexOp::create(b, l, 1);
  SmallVector<Value> gridPos = {n};
  for (int64_t i = 0; i < r; ++i)
    gridPos.push_back(linalg::IndexOp::create(b, l, 2 + i));
  gridPos.push_back(Value());
  SmallVector<SmallVector<Value>> taps(r), inside(r), weights(r);
  for (int64_t i = 0; i < r; ++i)
    dimTaps(b, l, i, gridPos, taps[i], inside[i], weights[i]);
  SmallVector<Value> values = readTaps(b, l, n, ch, taps, inside);
  // Interpolate along the last spatial dim first.
  if (at.mode != GridMode::Nearest) {
    for (int64_t i = r - 1; i >= 0; --i) {
      SmallVector<Value> next;
      for (size_t j = 0; j < values.size(); j += perDim) {
        Value acc = mulF(b, l, weights[i][0], values[j]);
        for (int64_t k = 1; k < perDim; ++k)
          acc = addF(b, l, acc, mulF(b, l, weights[i][k], values[j + k]));
        next.push_back(acc);
      }
      values = std::move(next);
    }
  }
  linalg::YieldOp::create(b, l, convertScalar(b, l, values[0], ct, yOnnx));
}

/// GridSample (opset 16, and the N-d form of opset 20): Y[n, c, o...] =
/// interpolate(X[n, c], denormalize(grid[n, o...])), grid's last dim
/// holding the coordinates innermost dim first (x, y, ...). Per spatial
/// dim: the coordinate is denormalized (align_corners) and rounded half to
/// even for nearest; every tap index then goes through the padding mode
/// (zeros: 0 outside; border: clamped to [0, D-1]; reflection: reflected
/// by the borders [0, D-1] with align_corners, [-0.5, D-0.5] without), as
/// ONNX Runtime's kernel and PyTorch's bicubic do. (The ONNX reference
/// implementation also clamps an outside coordinate first; that gives the
/// same values except for cubic with border padding.) Taps are combined
/// innermost dim first, as ORT's dy2 * (dx2 * p11 + dx1 * p12) + dy1 * (...).
struct GridSampleLowering : OpConversionPattern<ONNX::GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<GridAttrs> attrs = checkGridAttrs(op);
    if (failed(attrs))
      return failure();
    GridMode mode = attrs->mode;

    Value x = adaptor.getX(), grid = adaptor.getGrid();
    auto xt = cast<RankedTensorType>(x.getType());
    auto gt = cast<RankedTensorType>(grid.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    int64_t rank = xt.getRank();
    if (rank < 3)
      return op.emitOpError("X must have rank 3 or more (N, C, spatial dims)");
    if (gt.getRank() != rank || yt.getRank() != rank)
      return op.emitOpError("grid and Y must have the rank of X");
    int64_t r = rank - 2;
    if (!gt.isDynamicDim(rank - 1) && gt.getDimSize(rank - 1) != r)
      return op.emitOpError("the last dim of grid must be ")
             << r << " (one coordinate per spatial dim)";
    int64_t perDim = mode == GridMode::Nearest  ? 1
                     : mode == GridMode::Linear ? 2
                                                : 4;
    int64_t numTaps = 1;
    for (int64_t i = 0; i < r; ++i) {
      numTaps *= perDim;
      if (numTaps > kMaxTaps)
        return op.emitOpError("too many interpolation taps per element (")
               << perDim << "^" << r << ")";
    }
    Type xOnnx = getElementType(op.getX()),
         gOnnx = getElementType(op.getGrid());
    Type yElt = yt.getElementType();
    if (!isFloat(gt.getElementType()))
      return op.emitOpError("grid must have a float element type");
    Type ct =
        computeType(rewriter, {xt.getElementType(), gt.getElementType(), yElt});

    // Shapes: grid's batch is X's; Y is [N, C, grid's spatial dims].
    SmallVector<Value> xDims = dimValues(rewriter, loc, x);
    SmallVector<Value> gDims = dimValues(rewriter, loc, grid);
    checkEqual(rewriter, loc, gDims[0], xDims[0],
               "GridSample: X and grid must have the same batch size");
    checkEqual(rewriter, loc, gDims[rank - 1], idx(rewriter, loc, r),
               "GridSample: the last dim of grid must be the number of "
               "spatial dims");
    for (int64_t i = 0; i < r; ++i)
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::sgt,
                            xDims[2 + i], idx(rewriter, loc, 0)),
                       "GridSample: the spatial dims of X must not be empty");
    SmallVector<Value> ySizes = {xDims[0], xDims[1]};
    for (int64_t i = 0; i < r; ++i)
      ySizes.push_back(gDims[1 + i]);
    checkResultSizes(rewriter, loc, yt, ySizes,
                     "GridSample: the result shape does not match the result "
                     "type");
    GridSampleElement body{*attrs, r, perDim, x, grid, ct, xOnnx, gOnnx,
                           getElementType(op.getY()), xDims};
    for (int64_t i = 0; i < r; ++i) {
      Value d = indexToF(rewriter, loc, xDims[2 + i], ct);
      body.sizeF.push_back(d);
      if (attrs->pad != GridPad::Reflection)
        continue;
      if (attrs->align) {
        body.lo.push_back(fConst(rewriter, loc, ct, 0));
        body.hi.push_back(
            subF(rewriter, loc, d, fConst(rewriter, loc, ct, 1)));
      } else {
        body.lo.push_back(fConst(rewriter, loc, ct, -0.5));
        body.hi.push_back(
            subF(rewriter, loc, d, fConst(rewriter, loc, ct, 0.5)));
      }
    }

    Value init = createEmpty(rewriter, loc, yt, ySizes);
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{yt}, ValueRange{}, ValueRange{init},
                  SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
                  parallelIterators(rank), body)
                  .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// AffineGrid
//===----------------------------------------------------------------------===//

/// AffineGrid (opset 20): theta [N, r, r + 1] (r = 2 or 3), size
/// [N, C, (D,) H, W]; grid[n, (d,) h, w, k] = sum_j theta[n, k, j] * p_j +
/// theta[n, k, r] with p = (x of w, y of h, (z of d)), each coordinate
/// -1 + 2 i / (S - 1) with align_corners, else -1 + (2 i + 1) / S.
struct AffineGridLowering : OpConversionPattern<ONNX::AffineGridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::AffineGridOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value theta = adaptor.getTheta(), size = adaptor.getSize();
    auto tt = cast<RankedTensorType>(theta.getType());
    auto st = cast<RankedTensorType>(size.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getGrid());
    int64_t rank = yt.getRank(); // 4 (2-D) or 5 (3-D)
    if (tt.getRank() != 3 || (rank != 4 && rank != 5))
      return op.emitOpError("theta must be [N, 2, 3] or [N, 3, 4] and the "
                            "grid of rank 4 or 5");
    int64_t r = rank - 2;
    if ((!tt.isDynamicDim(1) && tt.getDimSize(1) != r) ||
        (!tt.isDynamicDim(2) && tt.getDimSize(2) != r + 1))
      return op.emitOpError("theta must be [N, ")
             << r << ", " << r + 1 << "] for a " << r << "-D grid";
    if (st.getRank() != 1 || (!st.isDynamicDim(0) && st.getDimSize(0) != r + 2))
      return op.emitOpError("size must have ") << r + 2 << " entries";
    bool align = op.getAlignCorners() != 0;
    Type tOnnx = getElementType(op.getTheta());
    Type ct = computeType(rewriter, {tt.getElementType()});
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, size, 0),
               idx(rewriter, loc, r + 2),
               "AffineGrid: size must have one entry per dim of the input");
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, theta, 1),
               idx(rewriter, loc, r), "AffineGrid: theta has the wrong shape");
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, theta, 2),
               idx(rewriter, loc, r + 1),
               "AffineGrid: theta has the wrong shape");
    // The grid's sizes: N from size (== theta's N), the spatial dims.
    SmallVector<Value> sz;
    for (int64_t i = 0; i < r + 2; ++i) {
      Value v = extractIndex(rewriter, loc, size, i);
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::sge, v,
                            idx(rewriter, loc, 0)),
                       "AffineGrid: size must not be negative");
      sz.push_back(v);
    }
    checkEqual(rewriter, loc, sz[0], getDimValue(rewriter, loc, theta, 0),
               "AffineGrid: size[0] must equal theta's N");
    SmallVector<Value> ySizes = {sz[0]};
    for (int64_t i = 2; i < r + 2; ++i)
      ySizes.push_back(sz[i]);
    ySizes.push_back(idx(rewriter, loc, r));
    checkResultSizes(rewriter, loc, yt, ySizes,
                     "AffineGrid: the result shape does not match the result "
                     "type");
    auto body = [&](OpBuilder &b, Location l, ValueRange) {
      Value n = linalg::IndexOp::create(b, l, 0);
      Value k = linalg::IndexOp::create(b, l, rank - 1);
      Value acc = convertScalar(
          b, l,
          tensor::ExtractOp::create(b, l, theta, ValueRange{n, k, idx(b, l, r)}),
          tOnnx, ct);
      // p_j: j = 0 is x (the last spatial dim), 1 y, 2 z.
      for (int64_t j = 0; j < r; ++j) {
        int64_t dim = r - j; // loop dim of the spatial index (1-based)
        Value i = indexToF(b, l, linalg::IndexOp::create(b, l, dim), ct);
        Value s = indexToF(b, l, ySizes[dim], ct);
        Value p;
        if (align)
          p = addF(b, l, fConst(b, l, ct, -1),
                   divF(b, l, mulF(b, l, fConst(b, l, ct, 2), i),
                        subF(b, l, s, fConst(b, l, ct, 1))));
        else
          p = addF(b, l, fConst(b, l, ct, -1),
                   divF(b, l,
                        addF(b, l, mulF(b, l, fConst(b, l, ct, 2), i),
                             fConst(b, l, ct, 1)),
                        s));
        Value th = convertScalar(
            b, l,
            tensor::ExtractOp::create(b, l, theta,
                                      ValueRange{n, k, idx(b, l, j)}),
            tOnnx, ct);
        acc = addF(b, l, acc, mulF(b, l, th, p));
      }
      linalg::YieldOp::create(
          b, l, convertScalar(b, l, acc, ct, getElementType(op.getGrid())));
    };
    Value init = createEmpty(rewriter, loc, yt, ySizes);
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{yt}, ValueRange{}, ValueRange{init},
                  SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
                  parallelIterators(rank), body)
                  .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateGridSamplePatterns(TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<GridSampleLowering, AffineGridLowering>(tc,
                                                       patterns.getContext());
}

//===- Pooling.cpp - MaxPool, AveragePool, LpPool, Global*Pool, MaxRoiPool ===//
//
// A pool is one linalg.generic over (n, c, o1..or, k1..kr) reading the
// padded input as X[n, c, o*s + k*d] (the kernel loops get their bounds from
// a tensor.empty of the kernel shape, as linalg's pooling ops do) and
// reducing into (N, C, out...). MaxPool pads with the lowest value, the
// others with 0. AveragePool accumulates the count of the positions that
// count in a second result and divides in an elementwise generic; MaxPool's
// Indices are a second result too. The Global* pools are the same op with
// the whole spatial extent as kernel.
//
// MaxRoiPool (roi pooling, ONNX's nn category like the pools; RoiAlign is
// in ObjectDetection.cpp) is one linalg.generic over the result
// (indexedGeneric) whose body takes the max over each roi bin with an
// scf.for nest; its rois arithmetic is in the rois' type, f32 for f16
// (ORT's roi_pool.cc).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Window.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

enum class PoolKind { Max, Avg, Lp };

/// What a pool computes, beyond its kind.
struct PoolSpec {
  PoolKind kind;
  Type onnxElt;  // signedness of integer MaxPool
  int64_t p = 2; // LpPool
  bool countIncludePad = false;
  bool indices = false;     // MaxPool's second result
  bool columnMajor = false; // storage_order = 1
};

/// The window: kernel sizes, strides, dilations and the geometry.
struct PoolWindow {
  SmallVector<OpFoldResult> kernel;
  SmallVector<int64_t> strides, dilations;
  WindowGeometry geo;
};

Value lowestValue(OpBuilder &b, Location loc, Type t, Type onnxElt) {
  if (auto ft = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(),
                                           /*Negative=*/true)));
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v = isUnsignedInt(onnxElt) ? APInt::getMinValue(w)
                                   : APInt::getSignedMinValue(w);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             ArrayRef<Value> sizes, Value v) {
  Value empty = createEmpty(b, loc, type, sizes);
  return linalg::FillOp::create(b, loc, v, empty).getResult(0);
}

/// |x|^p for the LpPool accumulation.
Value absPow(OpBuilder &b, Location loc, Value x, int64_t p) {
  Value a = math::AbsFOp::create(b, loc, x);
  if (p == 1)
    return a;
  if (p == 2)
    return arith::MulFOp::create(b, loc, x, x);
  return math::PowFOp::create(
      b, loc, a, createScalarConstant(b, loc, x.getType(), (double)p));
}

/// The body of the pool's linalg.generic (args: the padded input's tap, the
/// window, the accumulator, then the indices or the count when present):
/// what it reads from buildPool, and one step per kind.
struct PoolBody {
  const PoolSpec &spec;
  const PoolWindow &w;
  Type elt;
  int64_t r;
  bool count; // AveragePool counts its divisor
  // Per spatial dim: begin pad, input size, the counted range [lo, hi).
  SmallVector<Value> pb, inSizes, lo, hi;
  Value channels;

  /// Input positions of this kernel tap (unpadded coordinates).
  SmallVector<Value> positions(OpBuilder &nb, Location l) const {
    SmallVector<Value> pos;
    for (int64_t i = 0; i < r; ++i) {
      Value o = linalg::IndexOp::create(nb, l, 2 + i);
      Value k = linalg::IndexOp::create(nb, l, 2 + r + i);
      Value p = arith::AddIOp::create(
          nb, l,
          arith::MulIOp::create(
              nb, l, o, arith::ConstantIndexOp::create(nb, l, w.strides[i])),
          arith::MulIOp::create(
              nb, l, k, arith::ConstantIndexOp::create(nb, l, w.dilations[i])));
      pos.push_back(arith::SubIOp::create(nb, l, p, pb[i]));
    }
    return pos;
  }

  /// MaxPool: the max, and with Indices the flat index of the tap in X
  /// (row- or column-major spatial), the first strictly greater winning.
  void max(OpBuilder &nb, Location l, ValueRange args,
           SmallVectorImpl<Value> &results) const {
    Value v = args[0], acc = args[2];
    bool f = isFloat(elt), isUnsigned = isUnsignedInt(spec.onnxElt);
    if (!spec.indices) {
      results.push_back(f ? Value(arith::MaximumFOp::create(nb, l, v, acc))
                        : isUnsigned
                            ? Value(arith::MaxUIOp::create(nb, l, v, acc))
                            : Value(arith::MaxSIOp::create(nb, l, v, acc)));
      return;
    }
    SmallVector<Value> pos = positions(nb, l);
    Value sp = arith::ConstantIndexOp::create(nb, l, 0);
    Value total = arith::ConstantIndexOp::create(nb, l, 1);
    for (int64_t j = 0; j < r; ++j) {
      int64_t i = spec.columnMajor ? j : r - 1 - j;
      sp = arith::AddIOp::create(nb, l, sp,
                                 arith::MulIOp::create(nb, l, pos[i], total));
      total = arith::MulIOp::create(nb, l, total, inSizes[i]);
    }
    Value nc = arith::AddIOp::create(
        nb, l,
        arith::MulIOp::create(nb, l, linalg::IndexOp::create(nb, l, 0),
                              channels),
        linalg::IndexOp::create(nb, l, 1));
    Value flat = arith::AddIOp::create(
        nb, l, arith::MulIOp::create(nb, l, nc, total), sp);
    flat = arith::IndexCastOp::create(nb, l, nb.getI64Type(), flat);
    Value gt =
        f ? Value(
                arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, v, acc))
          : Value(arith::CmpIOp::create(nb, l,
                                        isUnsigned ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt,
                                        v, acc));
    results.push_back(arith::SelectOp::create(nb, l, gt, v, acc));
    results.push_back(arith::SelectOp::create(nb, l, gt, flat, args[3]));
  }

  /// AveragePool: the sum, and with `count` the number of taps inside the
  /// counted range.
  void average(OpBuilder &nb, Location l, ValueRange args,
               SmallVectorImpl<Value> &results) const {
    results.push_back(arith::AddFOp::create(nb, l, args[2], args[0]));
    if (!count)
      return;
    SmallVector<Value> pos = positions(nb, l);
    Value in = arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
    for (int64_t i = 0; i < r; ++i) {
      in = arith::AndIOp::create(
          nb, l, in,
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, pos[i],
                                lo[i]));
      in = arith::AndIOp::create(
          nb, l, in,
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, pos[i],
                                hi[i]));
    }
    Value one = createScalarConstant(nb, l, elt, 1);
    Value zero = createScalarConstant(nb, l, elt, 0);
    results.push_back(arith::AddFOp::create(
        nb, l, args[3], arith::SelectOp::create(nb, l, in, one, zero)));
  }

  void operator()(OpBuilder &nb, Location l, ValueRange args) const {
    SmallVector<Value> results;
    switch (spec.kind) {
    case PoolKind::Max:
      max(nb, l, args, results);
      break;
    case PoolKind::Avg:
      average(nb, l, args, results);
      break;
    case PoolKind::Lp:
      results.push_back(arith::AddFOp::create(nb, l, args[2],
                                              absPow(nb, l, args[0], spec.p)));
      break;
    }
    linalg::YieldOp::create(nb, l, results);
  }
};

/// The pool's finalization on its sums `generic` (with `count`, the counts
/// are its second result): the mean, or the p-th root. Other pools as they
/// are.
Value finishPool(IndexMath &m, linalg::GenericOp generic, RankedTensorType type,
                 ArrayRef<Value> sizes, const PoolSpec &spec,
                 const PoolWindow &w, bool count) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Value result = generic.getResult(0);
  if (!(spec.kind == PoolKind::Avg ||
        (spec.kind == PoolKind::Lp && spec.p != 1)))
    return result;
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  Value divisor;
  if (spec.kind == PoolKind::Avg && !count) {
    OpFoldResult n = m.cst(1);
    for (OpFoldResult k : w.kernel)
      n = m.mul(n, k);
    Value ni = arith::IndexCastOp::create(b, loc, b.getI64Type(), m.value(n));
    divisor = arith::SIToFPOp::create(b, loc, elt, ni);
  }
  SmallVector<Value> ins = {result};
  if (count)
    ins.push_back(generic.getResult(1));
  SmallVector<AffineMap> fmaps(ins.size() + 1, b.getMultiDimIdentityMap(rank));
  Value out = createEmpty(b, loc, type, sizes);
  int64_t p = spec.p;
  PoolKind kind = spec.kind;
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ins, ValueRange{out}, fmaps,
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value v;
               if (kind == PoolKind::Avg)
                 v = arith::DivFOp::create(nb, l, args[0],
                                           count ? args[1] : divisor);
               else if (p == 2)
                 v = math::SqrtOp::create(nb, l, args[0]);
               else
                 v = math::PowFOp::create(
                     nb, l, args[0],
                     createScalarConstant(nb, l, elt, 1.0 / (double)p));
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

/// Builds the pool of `x` (N, C, sp...) into `type`; the second value is the
/// Indices result of MaxPool (null otherwise).
std::pair<Value, Value> buildPool(OpBuilder &b, Location loc, Value x,
                                  RankedTensorType type, const PoolSpec &spec,
                                  const PoolWindow &w) {
  MLIRContext *ctx = b.getContext();
  IndexMath m{b, loc};
  auto xt = cast<RankedTensorType>(x.getType());
  Type elt = xt.getElementType();
  int64_t r = w.kernel.size();
  Value padValue = spec.kind == PoolKind::Max
                       ? lowestValue(b, loc, elt, spec.onnxElt)
                       : createScalarConstant(b, loc, elt, 0);
  Value xp = padSpatial(b, loc, x, w.geo.padBegin, w.geo.padEnd, padValue);

  // Result sizes and the kernel-shaped loop-bound tensor.
  SmallVector<Value> sizes = {getDimValue(b, loc, x, 0),
                              getDimValue(b, loc, x, 1)};
  for (OpFoldResult o : w.geo.out)
    sizes.push_back(m.value(o));
  SmallVector<int64_t> kshape;
  SmallVector<Value> kdyn;
  for (OpFoldResult k : w.kernel) {
    auto c = getConstantIntValue(k);
    kshape.push_back(c ? *c : ShapedType::kDynamic);
    if (!c)
      kdyn.push_back(m.value(k));
  }
  Value window = tensor::EmptyOp::create(b, loc, kshape, elt, kdyn);

  // Whether the divisor of AveragePool needs counting.
  bool count = false;
  if (spec.kind == PoolKind::Avg)
    for (int64_t i = 0; i < r; ++i) {
      bool padded = !isConstantIntValue(w.geo.padBegin[i], 0) ||
                    !isConstantIntValue(w.geo.padEnd[i], 0);
      count |= padded;
    }

  unsigned numLoops = 2 + 2 * r;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xe = {d(0), d(1)}, ke, oe = {d(0), d(1)};
  for (int64_t i = 0; i < r; ++i) {
    xe.push_back(d(2 + i) * w.strides[i] + d(2 + r + i) * w.dilations[i]);
    ke.push_back(d(2 + r + i));
    oe.push_back(d(2 + i));
  }
  AffineMap outMap = AffineMap::get(numLoops, 0, oe, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, xe, ctx),
                                 AffineMap::get(numLoops, 0, ke, ctx), outMap};
  Value init =
      filled(b, loc, type, sizes,
             spec.kind == PoolKind::Max ? padValue
                                        : createScalarConstant(b, loc, elt, 0));
  SmallVector<Value> inits = {init};
  SmallVector<Type> resultTypes = {type};
  auto idxType = RankedTensorType::get(type.getShape(), b.getI64Type());
  if (spec.indices || count) {
    RankedTensorType t =
        spec.indices ? idxType : RankedTensorType::get(type.getShape(), elt);
    Value zero = spec.indices ? createIntConstant(b, loc, b.getI64Type(), 0)
                              : createScalarConstant(b, loc, elt, 0);
    inits.push_back(filled(b, loc, t, sizes, zero));
    resultTypes.push_back(t);
    maps.push_back(outMap);
  }
  SmallVector<utils::IteratorType> iters = parallelIterators(2 + r);
  iters.append(r, utils::IteratorType::reduction);

  // Per spatial dim: begin pad and the counted range of positions.
  PoolBody body{spec, w, elt, r, count, {}, {}, {}, {}, {}};
  for (int64_t i = 0; i < r; ++i) {
    body.pb.push_back(m.value(w.geo.padBegin[i]));
    OpFoldResult in = getDimOFR(b, loc, x, 2 + i);
    body.inSizes.push_back(m.value(in));
    if (spec.countIncludePad) {
      body.lo.push_back(m.value(m.sub(m.cst(0), w.geo.padBegin[i])));
      body.hi.push_back(m.value(m.add(in, w.geo.explicitPadEnd[i])));
    } else {
      body.lo.push_back(m.value(m.cst(0)));
      body.hi.push_back(body.inSizes.back());
    }
  }
  body.channels = getDimValue(b, loc, x, 1);

  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, ValueRange{xp, window}, inits, maps, iters, body);
  Value result = finishPool(m, generic, type, sizes, spec, w, count);
  return {result, spec.indices ? generic.getResult(1) : Value()};
}

/// A spatial dim of 0 leaves every window without an input value: the
/// average would be 0 / 0, the max the lowest value, the Lp norm made of
/// padding. The spec defines a pool over the input's values, and ORT
/// refuses it ("Only N can be zero"): a compile-time error when the dim is
/// static, a run-time check naming the node when it is dynamic.
LogicalResult checkSpatialNotEmpty(OpBuilder &b, Operation *op, Value x) {
  auto xt = cast<RankedTensorType>(x.getType());
  Location loc = op->getLoc();
  for (int64_t d = 2; d < xt.getRank(); ++d) {
    std::string reason = ("X is empty in spatial dim " + Twine(d - 2) +
                          ": there is no value to pool")
                             .str();
    if (xt.getDimSize(d) == 0)
      return op->emitOpError(reason);
    if (!xt.isDynamicDim(d))
      continue;
    Value ne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                     getDimValue(b, loc, x, d),
                                     arith::ConstantIndexOp::create(b, loc, 0));
    emitRuntimeCheck(b, loc, ne,
                     (op->getName().stripDialect() + ": " + reason).str());
  }
  return success();
}

/// The window of a *Pool op from its attributes; errors on the op.
FailureOr<PoolWindow> poolWindow(OpBuilder &b, Operation *op, Value x,
                                 RankedTensorType type) {
  SmallVector<int64_t> kernel = getI64Array(op, "kernel_shape", {});
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if ((int64_t)kernel.size() != rank - 2)
    return op->emitOpError("kernel_shape must have one entry per spatial dim");
  if (failed(checkSpatialNotEmpty(b, op, x)))
    return failure();
  auto attrs = readWindowAttrs(op, kernel);
  if (failed(attrs))
    return failure();
  PoolWindow w;
  for (int64_t k : kernel)
    w.kernel.push_back(b.getIndexAttr(k));
  w.strides = attrs->strides;
  w.dilations = attrs->dilations;
  w.geo = computeWindow(b, op->getLoc(), x, *attrs);
  if (failed(checkSpatialSizes(op, type, w.geo.out)))
    return failure();
  return w;
}

/// The whole spatial extent as one window.
PoolWindow globalWindow(OpBuilder &b, Location loc, Value x) {
  int64_t r = cast<RankedTensorType>(x.getType()).getRank() - 2;
  PoolWindow w;
  for (int64_t i = 0; i < r; ++i) {
    w.kernel.push_back(getDimOFR(b, loc, x, 2 + i));
    w.strides.push_back(1);
    w.dilations.push_back(1);
    w.geo.padBegin.push_back(b.getIndexAttr(0));
    w.geo.padEnd.push_back(b.getIndexAttr(0));
    w.geo.explicitPadEnd.push_back(b.getIndexAttr(0));
    w.geo.out.push_back(b.getIndexAttr(1));
  }
  return w;
}

LogicalResult checkRank(Operation *op, Value x) {
  if (cast<RankedTensorType>(x.getType()).getRank() < 3)
    return op->emitOpError("input must have rank 3 or more (N, C, D1...)");
  return success();
}

/// MaxPool: Y[n, c, o] = max over the window of X (padding never wins);
/// Indices = the flat index of the first maximum in X, spatial dims
/// row-major (storage_order 0) or column-major (1).
struct MaxPoolLowering : OpConversionPattern<ONNX::MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRank(op, adaptor.getX())))
      return failure();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    if (op.getStorageOrder() != 0 && op.getStorageOrder() != 1)
      return op.emitOpError("storage_order must be 0 or 1");
    auto w = poolWindow(rewriter, op, adaptor.getX(), type);
    if (failed(w))
      return failure();
    PoolSpec spec{PoolKind::Max, getElementType(op.getX())};
    spec.indices = !isa<NoneType>(op.getIndices().getType());
    spec.columnMajor = op.getStorageOrder() == 1;
    auto [y, idx] =
        buildPool(rewriter, op.getLoc(), adaptor.getX(), type, spec, *w);
    if (idx) {
      auto it = cast<RankedTensorType>(
          getTypeConverter()->convertType(op.getIndices().getType()));
      if (idx.getType() != it)
        idx = tensor::CastOp::create(rewriter, op.getLoc(), it, idx);
      rewriter.replaceOp(op, {y, idx});
      return success();
    }
    Value none =
        ONNX::NoValueOp::create(rewriter, op.getLoc(), rewriter.getNoneType());
    rewriter.replaceOp(op, {y, none});
    return success();
  }
};

/// AveragePool: the window sum over the number of window positions inside
/// X (count_include_pad = 0) or inside X and its explicit pads (1); the
/// ceil_mode overhang never counts.
struct AveragePoolLowering : OpConversionPattern<ONNX::AveragePoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::AveragePoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRank(op, adaptor.getX())))
      return failure();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto w = poolWindow(rewriter, op, adaptor.getX(), type);
    if (failed(w))
      return failure();
    PoolSpec spec{PoolKind::Avg, getElementType(op.getX())};
    spec.countIncludePad = op.getCountIncludePad() != 0;
    rewriter.replaceOp(
        op,
        buildPool(rewriter, op.getLoc(), adaptor.getX(), type, spec, *w).first);
    return success();
  }
};

/// LpPool: (sum over the window of |x|^p)^(1/p), padding counting as 0.
struct LpPoolLowering : OpConversionPattern<ONNX::LpPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::LpPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRank(op, adaptor.getX())))
      return failure();
    if ((int64_t)op.getP() <= 0)
      return op.emitOpError("p must be positive");
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto w = poolWindow(rewriter, op, adaptor.getX(), type);
    if (failed(w))
      return failure();
    PoolSpec spec{PoolKind::Lp, getElementType(op.getX())};
    spec.p = op.getP();
    rewriter.replaceOp(
        op,
        buildPool(rewriter, op.getLoc(), adaptor.getX(), type, spec, *w).first);
    return success();
  }
};

/// GlobalAveragePool / GlobalMaxPool of floats: x collapsed to
/// [N, C, spatial] (a view), one reduction over the contiguous last dim, the
/// average divided after, expanded back to [N, C, 1, ...]. The window form
/// of buildPool would loop over each spatial dim separately: its innermost
/// loop is the last dim (7 long on a 7 x 7 map), which does not vectorize;
/// this one is H * W long. Null when it does not apply (other element
/// types, an empty spatial extent known at compile time).
Value buildFlatGlobalPool(OpBuilder &b, Location loc, Value x,
                          RankedTensorType type, PoolKind kind) {
  auto xt = cast<RankedTensorType>(x.getType());
  auto elt = dyn_cast<FloatType>(xt.getElementType());
  int64_t rank = xt.getRank();
  if (!elt || kind == PoolKind::Lp || type.getElementType() != elt)
    return nullptr;
  int64_t spatial = 1;
  for (int64_t i = 2; i < rank; ++i)
    spatial = xt.isDynamicDim(i) || spatial == ShapedType::kDynamic
                  ? ShapedType::kDynamic
                  : spatial * xt.getDimSize(i);
  if (spatial == 0)
    return nullptr;
  MLIRContext *ctx = b.getContext();
  ReassociationIndices inner;
  for (int64_t i = 2; i < rank; ++i)
    inner.push_back(i);
  Value flat = tensor::CollapseShapeOp::create(
      b, loc, x, SmallVector<ReassociationIndices>{{0}, {1}, inner});
  auto accType = RankedTensorType::get({xt.getDimSize(0), xt.getDimSize(1)},
                                       elt);
  Value init = createEmpty(b, loc, accType,
                           {getDimValue(b, loc, x, 0), getDimValue(b, loc, x, 1)});
  Value start = kind == PoolKind::Max ? lowestValue(b, loc, elt, elt)
                                      : createScalarConstant(b, loc, elt, 0);
  init = linalg::FillOp::create(b, loc, start, init).getResult(0);
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {d(0), d(1), d(2)}, ctx),
                                 AffineMap::get(3, 0, {d(0), d(1)}, ctx)};
  SmallVector<utils::IteratorType> iters = {utils::IteratorType::parallel,
                                            utils::IteratorType::parallel,
                                            utils::IteratorType::reduction};
  Value acc =
      linalg::GenericOp::create(
          b, loc, TypeRange{accType}, ValueRange{flat}, ValueRange{init}, maps,
          iters,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value v = kind == PoolKind::Max
                          ? arith::MaximumFOp::create(nb, nl, args[0], args[1])
                                .getResult()
                          : arith::AddFOp::create(nb, nl, args[1], args[0])
                                .getResult();
            linalg::YieldOp::create(nb, nl, v);
          })
          .getResult(0);
  if (kind == PoolKind::Avg) {
    // The count: a constant, or the product of the dims as a float.
    Value count;
    if (spatial != ShapedType::kDynamic) {
      count = createScalarConstant(b, loc, elt, (double)spatial);
    } else {
      Value n = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t i = 2; i < rank; ++i)
        n = arith::MulIOp::create(b, loc, n, getDimValue(b, loc, x, i));
      Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
      count = arith::UIToFPOp::create(b, loc, elt, i64);
    }
    AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
    acc = linalg::GenericOp::create(
              b, loc, TypeRange{accType}, ValueRange{acc}, ValueRange{init},
              SmallVector<AffineMap>{id, id},
              SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                linalg::YieldOp::create(
                    nb, nl, arith::DivFOp::create(nb, nl, args[0], count)
                                .getResult());
              })
              .getResult(0);
  }
  ReassociationIndices tail = {1};
  for (int64_t i = 2; i < rank; ++i)
    tail.push_back(i);
  SmallVector<OpFoldResult> outShape = {getDimOFR(b, loc, x, 0),
                                        getDimOFR(b, loc, x, 1)};
  for (int64_t i = 2; i < rank; ++i)
    outShape.push_back(b.getIndexAttr(1));
  return tensor::ExpandShapeOp::create(
      b, loc, type, acc, SmallVector<ReassociationIndices>{{0}, tail},
      outShape);
}

/// GlobalAveragePool / GlobalMaxPool / GlobalLpPool: the pool whose window
/// is all of the spatial dims; the result keeps them as 1.
template <typename OpTy, PoolKind Kind>
struct GlobalPoolLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (failed(checkRank(op, x)))
      return failure();
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    PoolSpec spec{Kind, getElementType(op.getX())};
    if constexpr (Kind == PoolKind::Lp) {
      if ((int64_t)op.getP() <= 0)
        return op.emitOpError("p must be positive");
      spec.p = op.getP();
    }
    if (failed(checkSpatialNotEmpty(rewriter, op, x)))
      return failure();
    if (Value flat = buildFlatGlobalPool(rewriter, op.getLoc(), x, type, Kind)) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    PoolWindow w = globalWindow(rewriter, op.getLoc(), x);
    rewriter.replaceOp(
        op, buildPool(rewriter, op.getLoc(), x, type, spec, w).first);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// MaxRoiPool
//===----------------------------------------------------------------------===//

/// MaxRoiPool (opset 1): Y[r, c, ph, pw] is the max of X[batch, c] over bin
/// (ph, pw) of roi r = (batch, x1, y1, x2, y2), the corners rounded (half
/// away from zero) after spatial_scale, the roi at least 1x1, bin edges
/// floor(ph * h / PH) .. ceil((ph + 1) * h / PH) with h / PH in the rois'
/// float type, clipped to the image; an empty bin is 0 (ORT's roi_pool.cc).
struct MaxRoiPoolLowering : OpConversionPattern<ONNX::MaxRoiPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MaxRoiPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> pooled = op.getPooledShape();
    if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1)
      return op.emitOpError("pooled_shape must be two positive sizes");
    int64_t outH = pooled[0], outW = pooled[1];
    double scale = op.getSpatialScale().convertToDouble();
    Value x = adaptor.getX(), rois = adaptor.getRois();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(rois.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    if (xt.getRank() != 4)
      return op.emitOpError("X must have rank 4 (N, C, H, W)");
    if (rt.getRank() != 2 || (!rt.isDynamicDim(1) && rt.getDimSize(1) != 5))
      return op.emitOpError("rois must have shape [num_rois, 5]");
    if (yt.getRank() != 4)
      return op.emitOpError("Y must have rank 4");
    Type xOnnx = getElementType(op.getX()), rOnnx = getElementType(op.getRois());
    Type xc = computeType(rewriter, {xt.getElementType()});
    Type rc = computeType(rewriter, {rt.getElementType()});

    SmallVector<Value> xDims = dimValues(rewriter, loc, x);
    Value numRois = getDimValue(rewriter, loc, rois, 0);
    checkEqual(rewriter, loc, getDimValue(rewriter, loc, rois, 1),
               idx(rewriter, loc, 5),
               "MaxRoiPool: rois must have shape [num_rois, 5]");
    Value numBatches = xDims[0];
    checkEveryElement(
        rewriter, loc, rois,
        "MaxRoiPool: the batch index of every roi must be in [0, N)",
        [&](OpBuilder &b, Location l, Value v, ValueRange ivs) -> Value {
          // Only column 0 is a batch index; the others pass.
          Value isBatch = cmpI(b, l, arith::CmpIPredicate::eq, ivs[1],
                               idx(b, l, 0));
          Value f = convertScalar(b, l, v, rOnnx, rc);
          Value ok = andI(b, l, cmpF(b, l, arith::CmpFPredicate::OGE, f,
                                     fConst(b, l, rc, 0)),
                          cmpF(b, l, arith::CmpFPredicate::OLT, f,
                               indexToF(b, l, numBatches, rc)));
          return arith::OrIOp::create(b, l, notI(b, l, isBatch), ok);
        });
    SmallVector<Value> ySizes = {numRois, xDims[1], idx(rewriter, loc, outH),
                                 idx(rewriter, loc, outW)};
    checkResultSizes(rewriter, loc, yt, ySizes,
                     "MaxRoiPool: the result shape does not match the result "
                     "type");

    auto element = [&](OpBuilder &b, Location l, ValueRange iv) -> Value {
      Value roi = iv[0], ch = iv[1], ph = iv[2], pw = iv[3];
      auto roiAt = [&](int64_t k) -> Value {
        Value v =
            tensor::ExtractOp::create(b, l, rois, ValueRange{roi, idx(b, l, k)});
        return convertScalar(b, l, v, rOnnx, rc);
      };
      Value batch = fToIndex(b, l, roiAt(0));
      Value sc = fConst(b, l, rc, scale);
      auto corner = [&](int64_t k) {
        return fToIndex(b, l,
                        math::RoundOp::create(b, l, mulF(b, l, roiAt(k), sc)));
      };
      Value startW = corner(1), startH = corner(2);
      Value endW = corner(3), endH = corner(4);
      Value one = idx(b, l, 1), zero = idx(b, l, 0);
      auto extent = [&](Value start, Value end) {
        return maxIdx(b, l,
                      arith::AddIOp::create(
                          b, l, arith::SubIOp::create(b, l, end, start), one),
                      one);
      };
      Value binH = divF(b, l, indexToF(b, l, extent(startH, endH), rc),
                        fConst(b, l, rc, outH));
      Value binW = divF(b, l, indexToF(b, l, extent(startW, endW), rc),
                        fConst(b, l, rc, outW));
      // [start, end) of bin p along one axis, clipped to [0, size].
      auto bin = [&](Value p, Value binSize, Value roiStart,
                     Value size) -> std::pair<Value, Value> {
        Value lo = fToIndex(
            b, l, math::FloorOp::create(
                      b, l, mulF(b, l, indexToF(b, l, p, rc), binSize)));
        Value p1 = arith::AddIOp::create(b, l, p, one);
        Value hi = fToIndex(
            b, l, math::CeilOp::create(
                      b, l, mulF(b, l, indexToF(b, l, p1, rc), binSize)));
        auto clip = [&](Value v) {
          return minIdx(b, l,
                        maxIdx(b, l, arith::AddIOp::create(b, l, v, roiStart),
                               zero),
                        size);
        };
        return {clip(lo), clip(hi)};
      };
      auto [h0, h1] = bin(ph, binH, startH, xDims[2]);
      auto [w0, w1] = bin(pw, binW, startW, xDims[3]);
      Value lowest = fConst(
          b, l, xc,
          -APFloat::getLargest(cast<FloatType>(xc).getFloatSemantics())
               .convertToDouble());
      SmallVector<Value> acc = forRange(
          b, l, h0, h1, one, ValueRange{lowest},
          [&](OpBuilder &b, Location l, Value h,
              ValueRange accH) -> SmallVector<Value> {
            return forRange(
                b, l, w0, w1, one, accH,
                [&](OpBuilder &b, Location l, Value w,
                    ValueRange accW) -> SmallVector<Value> {
                  Value v = convertScalar(
                      b, l,
                      tensor::ExtractOp::create(b, l, x,
                                                ValueRange{batch, ch, h, w}),
                      xOnnx, xc);
                  // ORT: if (v > y) y = v (a NaN never replaces).
                  return {select(b, l,
                                 cmpF(b, l, arith::CmpFPredicate::OGT, v,
                                      accW[0]),
                                 v, accW[0])};
                });
          });
      Value empty = arith::OrIOp::create(
          b, l, cmpI(b, l, arith::CmpIPredicate::sle, h1, h0),
          cmpI(b, l, arith::CmpIPredicate::sle, w1, w0));
      Value result = select(b, l, empty, fConst(b, l, xc, 0), acc[0]);
      return convertScalar(b, l, result, xc, getElementType(op.getY()));
    };
    rewriter.replaceOp(op, indexedGeneric(rewriter, loc, yt, ySizes, element));
    return success();
  }
};

} // namespace

void mlir::onnxc::populatePoolingPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AveragePoolLowering, LpPoolLowering,
               MaxRoiPoolLowering,
               GlobalPoolLowering<ONNX::GlobalAveragePoolOp, PoolKind::Avg>,
               GlobalPoolLowering<ONNX::GlobalMaxPoolOp, PoolKind::Max>,
               GlobalPoolLowering<ONNX::GlobalLpPoolOp, PoolKind::Lp>>(
      tc, patterns.getContext());
}

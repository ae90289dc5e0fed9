//===- Normalization.cpp - *Normalization, LRN -> linalg ------------------===//
//
// The statistics (mean, then the centered variance: two passes) are
// reduction generics into the kept dims, accumulated in f32 for f16/bf16
// inputs and in the element type otherwise; the normalization itself is one
// elementwise generic over the input that reads the statistics and the
// per-channel parameters through projection maps.
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
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The map from the loops of a tensor of rank `rank` to its kept dims.
AffineMap keptMap(MLIRContext *ctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> e;
  for (auto [i, r] : llvm::enumerate(reduced))
    if (!r)
      e.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(reduced.size(), 0, e, ctx);
}

/// Sums `term(x, kept...)` over the `reduced` dims of `x`; `kept` are
/// tensors of the kept shape read at the same kept position.
Value sumOver(OpBuilder &b, Location loc, Value x, ArrayRef<bool> reduced,
              Type acc, ArrayRef<Value> kept,
              function_ref<Value(OpBuilder &, Location, ValueRange)> term) {
  MLIRContext *ctx = b.getContext();
  auto t = cast<RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dyn;
  SmallVector<utils::IteratorType> iters;
  for (int64_t i = 0; i < rank; ++i) {
    iters.push_back(reduced[i] ? utils::IteratorType::reduction
                               : utils::IteratorType::parallel);
    if (reduced[i])
      continue;
    shape.push_back(t.getDimSize(i));
    if (t.isDynamicDim(i))
      dyn.push_back(tensor::DimOp::create(b, loc, x, i));
  }
  Value empty = tensor::EmptyOp::create(b, loc, shape, acc, dyn);
  Value zero = createScalarConstant(b, loc, acc, 0);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  AffineMap km = keptMap(ctx, reduced);
  SmallVector<Value> ins = {x};
  ins.append(kept.begin(), kept.end());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  maps.append(kept.size() + 1, km);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
             iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value v = term(nb, l, args.drop_back());
               Value r = arith::AddFOp::create(nb, l, args.back(), v);
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

/// The number of elements in the reduced dims, as a scalar of type `acc`.
Value reducedCount(OpBuilder &b, Location loc, Value x, ArrayRef<bool> reduced,
                   Type acc) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t n = 1;
  Value dyn;
  for (auto [i, r] : llvm::enumerate(reduced)) {
    if (!r)
      continue;
    if (!t.isDynamicDim(i)) {
      n *= t.getDimSize(i);
      continue;
    }
    Value d = tensor::DimOp::create(b, loc, x, i);
    dyn = dyn ? Value(arith::MulIOp::create(b, loc, dyn, d)) : d;
  }
  Value c = createScalarConstant(b, loc, acc, (double)n);
  if (!dyn)
    return c;
  Value di = arith::IndexCastOp::create(b, loc, b.getI64Type(), dyn);
  return arith::MulFOp::create(b, loc, c,
                               arith::SIToFPOp::create(b, loc, acc, di));
}

/// Divides every element of `v` by the scalar `n`.
Value divideBy(OpBuilder &b, Location loc, Value v, Value n) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = t.getRank();
  Value init = createEmptyLike(b, loc, t, v);
  return linalg::GenericOp::create(
             b, loc, TypeRange{t}, ValueRange{v}, ValueRange{init},
             SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value r = arith::DivFOp::create(nb, l, args[0], n);
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

/// Mean and (population) variance of `x` over the `reduced` dims, as
/// tensors of the kept dims in `acc`.
std::pair<Value, Value> meanVar(OpBuilder &b, Location loc, Value x,
                                ArrayRef<bool> reduced, Type acc) {
  Value n = reducedCount(b, loc, x, reduced, acc);
  Value sum = sumOver(b, loc, x, reduced, acc, {},
                      [&](OpBuilder &nb, Location l, ValueRange a) {
                        return convertFloat(nb, l, a[0], acc);
                      });
  Value mean = divideBy(b, loc, sum, n);
  Value sq = sumOver(b, loc, x, reduced, acc, {mean},
                     [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
                       Value d = arith::SubFOp::create(
                           nb, l, convertFloat(nb, l, a[0], acc), a[1]);
                       return arith::MulFOp::create(nb, l, d, d);
                     });
  return {mean, divideBy(b, loc, sq, n)};
}

/// An operand of the final elementwise generic: a tensor and its map.
struct MappedInput {
  Value value;
  AffineMap map;
};

/// Builds `fn(args)` over the shape of `like` (element type of `type`).
Value elementwise(OpBuilder &b, Location loc, Value like, RankedTensorType type,
                  ArrayRef<MappedInput> ins,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
  int64_t rank = type.getRank();
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  for (const MappedInput &in : ins) {
    values.push_back(in.value);
    maps.push_back(in.map);
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = createEmptyLike(b, loc, type, like);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, values, ValueRange{init}, maps,
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args.drop_back()));
             })
      .getResult(0);
}

/// A 1-D per-channel operand along dim `dim` (size-1 tensors broadcast).
AffineMap channelMap(MLIRContext *ctx, int64_t rank, Value v, int64_t dim) {
  auto t = cast<RankedTensorType>(v.getType());
  AffineExpr e = t.getDimSize(0) == 1 ? getAffineConstantExpr(0, ctx)
                                      : getAffineDimExpr(dim, ctx);
  return AffineMap::get(rank, 0, e);
}

/// Numpy (right-aligned, unidirectional) broadcast of `v` into rank `rank`.
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType target, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = target.getRank(), off = rank - t.getRank();
  SmallVector<AffineExpr> e;
  for (int64_t j = 0; j < t.getRank(); ++j)
    e.push_back(t.getDimSize(j) == 1 && target.getDimSize(j + off) != 1
                    ? getAffineConstantExpr(0, ctx)
                    : getAffineDimExpr(j + off, ctx));
  return AffineMap::get(rank, 0, e, ctx);
}

/// 1 / sqrt(v) (math.rsqrt has no libm counterpart to lower to).
Value rsqrt(OpBuilder &b, Location loc, Value v) {
  return arith::DivFOp::create(b, loc,
                               createScalarConstant(b, loc, v.getType(), 1),
                               math::SqrtOp::create(b, loc, v));
}

/// (x - mean) * rsqrt(var + eps), in `acc`.
Value normalize(OpBuilder &b, Location loc, Value x, Value mean, Value var,
                double eps, Type acc) {
  Value d = arith::SubFOp::create(b, loc, convertFloat(b, loc, x, acc), mean);
  Value v = arith::AddFOp::create(b, loc, var,
                                  createScalarConstant(b, loc, acc, eps));
  return arith::MulFOp::create(b, loc, d, rsqrt(b, loc, v));
}

/// scale * v + bias (bias optional), from `acc` into `to`.
Value affine(OpBuilder &b, Location loc, Value v, Value scale, Value bias,
             Type acc, Type to) {
  v = arith::MulFOp::create(b, loc, v, convertFloat(b, loc, scale, acc));
  if (bias)
    v = arith::AddFOp::create(b, loc, v, convertFloat(b, loc, bias, acc));
  return convertFloat(b, loc, v, to);
}

/// BatchNormalization: Y = scale[c] * (X - mean[c]) / sqrt(var[c] + eps) +
/// B[c] with the running statistics (inference), or with the batch's
/// statistics over all dims but 1 (training_mode = 1), which then also
/// gives running_mean = input_mean * momentum + mean * (1 - momentum) and
/// running_var likewise with the population variance.
struct BatchNormLowering : OpConversionPattern<ONNX::BatchNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    Value x = adaptor.getX();
    int64_t rank = type.getRank();
    if (rank < 2)
      return op.emitOpError("input must have rank 2 or more (N, C, ...)");
    for (Value p : {adaptor.getScale(), adaptor.getB(), adaptor.getInputMean(),
                    adaptor.getInputVar()})
      if (cast<RankedTensorType>(p.getType()).getRank() != 1)
        return op.emitOpError("scale, B, mean and var must be 1-D");
    Type elt = type.getElementType();
    Type acc = floatAccType(elt);
    double eps = op.getEpsilon().convertToDouble();
    bool training = op.getTrainingMode() != 0;
    Value mean = adaptor.getInputMean(), var = adaptor.getInputVar();
    AffineMap statMap = channelMap(ctx, rank, mean, 1);
    AffineMap varMap = channelMap(ctx, rank, var, 1);
    Value batchMean, batchVar;
    if (training) {
      SmallVector<bool> reduced(rank, true);
      reduced[1] = false;
      std::tie(batchMean, batchVar) = meanVar(rewriter, loc, x, reduced, acc);
      mean = batchMean;
      var = batchVar;
      statMap = varMap = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
    }
    SmallVector<MappedInput> ins = {
        {x, rewriter.getMultiDimIdentityMap(rank)},
        {mean, statMap},
        {var, varMap},
        {adaptor.getScale(), channelMap(ctx, rank, adaptor.getScale(), 1)},
        {adaptor.getB(), channelMap(ctx, rank, adaptor.getB(), 1)}};
    Value y = elementwise(rewriter, loc, x, type, ins,
                          [&](OpBuilder &b, Location l, ValueRange a) {
                            Value n =
                                normalize(b, l, a[0], convertFloat(b, l, a[1], acc),
                                          convertFloat(b, l, a[2], acc), eps, acc);
                            return affine(b, l, n, a[3], a[4], acc, elt);
                          });
    SmallVector<Value> results = {y};
    double momentum = op.getMomentum().convertToDouble();
    for (auto [orig, input, batch] :
         {std::tuple{op.getRunningMean(), adaptor.getInputMean(), batchMean},
          std::tuple{op.getRunningVar(), adaptor.getInputVar(), batchVar}}) {
      if (isa<NoneType>(orig.getType())) {
        results.push_back(noValue(rewriter, loc));
        continue;
      }
      auto rt = cast<RankedTensorType>(
          getTypeConverter()->convertType(orig.getType()));
      if (!training) {
        // Inference mode: the running statistics pass through.
        Value v = input;
        if (v.getType() != rt)
          v = tensor::CastOp::create(rewriter, loc, rt, v);
        results.push_back(v);
        continue;
      }
      AffineMap id = rewriter.getMultiDimIdentityMap(1);
      results.push_back(elementwise(
          rewriter, loc, batch, rt, {{input, id}, {batch, id}},
          [&](OpBuilder &b, Location l, ValueRange a) {
            Type t = rt.getElementType();
            Value m = createScalarConstant(b, l, acc, momentum);
            Value one = createScalarConstant(b, l, acc, 1 - momentum);
            Value v = arith::AddFOp::create(
                b, l, arith::MulFOp::create(b, l, convertFloat(b, l, a[0], acc), m),
                arith::MulFOp::create(b, l, a[1], one));
            return convertFloat(b, l, v, t);
          }));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// InstanceNormalization: per (n, c), Y = scale[c] * (X - mean) /
/// sqrt(var + eps) + B[c], statistics over the spatial dims.
struct InstanceNormLowering
    : OpConversionPattern<ONNX::InstanceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::InstanceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    int64_t rank = type.getRank();
    if (rank < 3)
      return op.emitOpError("input must have rank 3 or more (N, C, D1...)");
    Type elt = type.getElementType(), acc = floatAccType(elt);
    SmallVector<bool> reduced(rank, true);
    reduced[0] = reduced[1] = false;
    auto [mean, var] = meanVar(rewriter, loc, x, reduced, acc);
    AffineMap km = keptMap(ctx, reduced);
    double eps = op.getEpsilon().convertToDouble();
    Value y = elementwise(
        rewriter, loc, x, type,
        {{x, rewriter.getMultiDimIdentityMap(rank)},
         {mean, km},
         {var, km},
         {adaptor.getScale(), channelMap(ctx, rank, adaptor.getScale(), 1)},
         {adaptor.getB(), channelMap(ctx, rank, adaptor.getB(), 1)}},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value n = normalize(b, l, a[0], a[1], a[2], eps, acc);
          return affine(b, l, n, a[3], a[4], acc, elt);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// LayerNormalization: statistics over dims [axis, rank), Y = (X - mean) *
/// InvStdDev * Scale + B (Scale and B broadcast to X); Mean and InvStdDev
/// keep the normalized dims as 1. Computed in f32 (stash_type 1) for
/// half types.
struct LayerNormLowering : OpConversionPattern<ONNX::LayerNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::LayerNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    Value x = adaptor.getX();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis out of range");
    if (op.getStashType() != 1)
      return op.emitOpError("only stash_type 1 (float) is supported");
    Type elt = type.getElementType(), acc = floatAccType(elt);
    SmallVector<bool> reduced(rank, false);
    for (int64_t i = axis; i < rank; ++i)
      reduced[i] = true;
    auto [mean, var] = meanVar(rewriter, loc, x, reduced, acc);
    double eps = op.getEpsilon().convertToDouble();
    // InvStdDev = 1 / sqrt(var + eps), over the kept dims.
    auto kt = cast<RankedTensorType>(var.getType());
    AffineMap kid = rewriter.getMultiDimIdentityMap(kt.getRank());
    Value inv =
        elementwise(rewriter, loc, var, kt, {{var, kid}},
                    [&](OpBuilder &b, Location l, ValueRange a) {
                      Value v = arith::AddFOp::create(
                          b, l, a[0], createScalarConstant(b, l, acc, eps));
                      return rsqrt(b, l, v);
                    });
    AffineMap km = keptMap(ctx, reduced);
    bool hasB = !isa<NoneType>(op.getB().getType());
    SmallVector<MappedInput> ins = {
        {x, rewriter.getMultiDimIdentityMap(rank)},
        {mean, km},
        {inv, km},
        {adaptor.getScale(), broadcastMap(ctx, type, adaptor.getScale())}};
    if (hasB)
      ins.push_back({adaptor.getB(), broadcastMap(ctx, type, adaptor.getB())});
    Value y = elementwise(
        rewriter, loc, x, type, ins,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value d = arith::SubFOp::create(b, l, convertFloat(b, l, a[0], acc), a[1]);
          Value n = arith::MulFOp::create(b, l, d, a[2]);
          return affine(b, l, n, a[3], hasB ? a[4] : Value(), acc, elt);
        });
    // Mean / InvStdDev: the kept tensors with unit dims for the reduced ones.
    auto keepDims = [&](Value v, Value orig) -> Value {
      if (isa<NoneType>(orig.getType()))
        return noValue(rewriter, loc);
      auto rt = cast<RankedTensorType>(
          getTypeConverter()->convertType(orig.getType()));
      if (rt.getElementType() != acc) {
        AffineMap id = rewriter.getMultiDimIdentityMap(kt.getRank());
        auto ct = RankedTensorType::get(kt.getShape(), rt.getElementType());
        v = elementwise(rewriter, loc, v, ct, {{v, id}},
                        [&](OpBuilder &b, Location l, ValueRange a) {
                          return convertFloat(b, l, a[0], ct.getElementType());
                        });
      }
      SmallVector<ReassociationIndices> re;
      SmallVector<OpFoldResult> shape;
      for (int64_t i = 0; i < rank; ++i) {
        if (i < axis) {
          re.push_back({i});
          shape.push_back(getDimOFR(rewriter, loc, x, i));
        } else {
          shape.push_back(rewriter.getIndexAttr(1));
        }
      }
      if (re.empty()) {
        // All dims reduced: a rank-0 tensor to (1, ..., 1).
        return tensor::ExpandShapeOp::create(
            rewriter, loc, rt, v, SmallVector<ReassociationIndices>{}, shape);
      }
      for (int64_t i = axis; i < rank; ++i)
        re.back().push_back(i);
      return tensor::ExpandShapeOp::create(rewriter, loc, rt, v, re, shape);
    };
    Value meanOut = keepDims(mean, op.getMean());
    Value invOut = keepDims(inv, op.getInvStdDev());
    rewriter.replaceOp(op, {y, meanOut, invOut});
    return success();
  }
};

/// GroupNormalization: the C channels form num_groups groups; statistics
/// per (n, group) over its channels and the spatial dims, in the
/// stash_type (1: f32, 10: f16, 11: f64, 16: bf16, as the spec's function
/// casts X to it; never below the data's precision: f64 data stays f64); Y = scale[c] * normalized + bias[c]. Scale and bias of
/// num_groups entries are opset 18's per-group form (for C == num_groups
/// the two forms agree). Everything happens in the grouped view
/// (N, G, C/G, ...) of X, so C may be a symbolic dim (checked at run time
/// to be a multiple of num_groups and the per-channel scale's length).
struct GroupNormLowering : OpConversionPattern<ONNX::GroupNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GroupNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getX();
    int64_t rank = type.getRank();
    int64_t groups = op.getNumGroups();
    if (rank < 2)
      return op.emitOpError("input must have rank 2 or more (N, C, ...)");
    Type acc;
    switch (op.getStashType()) {
    case 1: acc = rewriter.getF32Type(); break;
    case 10: acc = rewriter.getF16Type(); break;
    case 11: acc = rewriter.getF64Type(); break;
    case 16: acc = rewriter.getBF16Type(); break;
    default:
      return op.emitOpError("stash_type ")
             << op.getStashType() << " is not a float type (1, 10, 11, 16)";
    }
    // Never below the data's own precision (double data keeps double
    // statistics under the default stash_type 1: the gradient checks in
    // double rely on it; ORT agrees within 1e-7).
    Type eltAcc = floatAccType(type.getElementType());
    if (eltAcc.getIntOrFloatBitWidth() > acc.getIntOrFloatBitWidth())
      acc = eltAcc;
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t channels = xt.getDimSize(1);
    if (groups <= 0)
      return op.emitOpError("num_groups must be positive");
    if (!ShapedType::isDynamic(channels) && channels % groups != 0)
      return op.emitOpError("the channel count ")
             << channels << " is not a multiple of num_groups " << groups;
    Value scale = adaptor.getScale(), bias = adaptor.getBias();
    for (Value v : {scale, bias})
      if (cast<RankedTensorType>(v.getType()).getRank() != 1)
        return op.emitOpError("scale and bias must be 1-D");
    Type elt = type.getElementType();
    Value cDim = getDimValue(rewriter, loc, x, 1);
    Value g = arith::ConstantIndexOp::create(rewriter, loc, groups);
    if (ShapedType::isDynamic(channels)) {
      Value rem = arith::RemUIOp::create(rewriter, loc, cDim, g);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, rem,
                                zero),
          "GroupNormalization: the channel count {} is not a multiple of "
          "num_groups",
          {cDim});
    }
    int64_t per = ShapedType::isDynamic(channels) ? ShapedType::kDynamic
                                                  : channels / groups;
    OpFoldResult perOFR =
        ShapedType::isDynamic(per)
            ? OpFoldResult(arith::DivUIOp::create(rewriter, loc, cDim, g)
                               .getResult())
            : OpFoldResult(rewriter.getIndexAttr(per));
    // The grouped view (N, G, C/G, ...).
    SmallVector<int64_t> gshape = {xt.getDimSize(0), groups, per};
    SmallVector<OpFoldResult> gsizes = {getDimOFR(rewriter, loc, x, 0),
                                        rewriter.getIndexAttr(groups), perOFR};
    SmallVector<ReassociationIndices> re = {{0}, {1, 2}};
    for (int64_t i = 2; i < rank; ++i) {
      gshape.push_back(xt.getDimSize(i));
      gsizes.push_back(getDimOFR(rewriter, loc, x, i));
      re.push_back({i + 1});
    }
    auto gtype = RankedTensorType::get(gshape, elt);
    Value xg = tensor::ExpandShapeOp::create(rewriter, loc, gtype, x, re,
                                             gsizes);
    SmallVector<bool> reduced(rank + 1, true);
    reduced[0] = reduced[1] = false;
    auto [mean, var] = meanVar(rewriter, loc, xg, reduced, acc);
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    AffineMap statMap = AffineMap::get(rank + 1, 0, {d(0), d(1)}, ctx);
    // A parameter: per group (G entries, or C == G), one value (1 entry,
    // broadcast), or per channel, read as (G, C/G).
    auto param = [&](Value v) -> std::pair<Value, AffineMap> {
      int64_t len = cast<RankedTensorType>(v.getType()).getDimSize(0);
      if (len == groups)
        return {v, AffineMap::get(rank + 1, 0, d(1))};
      if (len == 1 && channels != 1)
        return {v, AffineMap::get(rank + 1, 0,
                                  getAffineConstantExpr(0, ctx))};
      if (ShapedType::isDynamic(len) || ShapedType::isDynamic(channels)) {
        Value n = getDimValue(rewriter, loc, v, 0);
        emitRuntimeCheck(rewriter, loc,
                         arith::CmpIOp::create(rewriter, loc,
                                               arith::CmpIPredicate::eq, n,
                                               cDim),
                         "GroupNormalization: scale and bias have {} entries, "
                         "the channel count is {}",
                         {n, cDim});
      }
      int64_t perV = ShapedType::isDynamic(len) ? per : len / groups;
      OpFoldResult perVOFR = ShapedType::isDynamic(perV)
                                 ? perOFR
                                 : OpFoldResult(rewriter.getIndexAttr(perV));
      Value v2 = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({groups, perV},
                                cast<RankedTensorType>(v.getType())
                                    .getElementType()),
          v, SmallVector<ReassociationIndices>{{0, 1}},
          SmallVector<OpFoldResult>{rewriter.getIndexAttr(groups), perVOFR});
      return {v2, AffineMap::get(rank + 1, 0, {d(1), d(2)}, ctx)};
    };
    auto [s, sMap] = param(scale);
    auto [bv, bMap] = param(bias);
    double eps = op.getEpsilon().convertToDouble();
    Value yg = elementwise(rewriter, loc, xg, gtype,
                           {{xg, rewriter.getMultiDimIdentityMap(rank + 1)},
                            {mean, statMap},
                            {var, statMap},
                            {s, sMap},
                            {bv, bMap}},
                           [&](OpBuilder &b, Location l, ValueRange a) {
                             Value n =
                                 normalize(b, l, a[0], a[1], a[2], eps, acc);
                             return affine(b, l, n, a[3], a[4], acc, elt);
                           });
    Value y = tensor::CollapseShapeOp::create(rewriter, loc, yg, re);
    if (y.getType() != type)
      y = tensor::CastOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// MeanVarianceNormalization: (X - mean) / (sqrt(var) + 1e-9), statistics
/// over `axes`.
struct MVNLowering : OpConversionPattern<ONNX::MeanVarianceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MeanVarianceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getX();
    int64_t rank = type.getRank();
    SmallVector<bool> reduced(rank, false);
    for (int64_t a : op.getAxes()) {
      int64_t n = normalizeAxis(a, rank);
      if (n < 0 || n >= rank)
        return op.emitOpError("axis ") << a << " out of range";
      reduced[n] = true;
    }
    Type elt = type.getElementType(), acc = floatAccType(elt);
    auto [mean, var] = meanVar(rewriter, loc, x, reduced, acc);
    AffineMap km = keptMap(ctx, reduced);
    Value y = elementwise(
        rewriter, loc, x, type,
        {{x, rewriter.getMultiDimIdentityMap(rank)}, {mean, km}, {var, km}},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value d = arith::SubFOp::create(b, l, convertFloat(b, l, a[0], acc), a[1]);
          Value s =
              arith::AddFOp::create(b, l, math::SqrtOp::create(b, l, a[2]),
                                    createScalarConstant(b, l, acc, 1e-9));
          return convertFloat(b, l, arith::DivFOp::create(b, l, d, s), elt);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// LpNormalization: X / ||X||_p along `axis`, p = 1 (sum |x|) or 2
/// (sqrt(sum x^2)).
struct LpNormLowering : OpConversionPattern<ONNX::LpNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::LpNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis out of range");
    int64_t p = op.getP();
    if (p != 1 && p != 2)
      return op.emitOpError("p must be 1 or 2");
    Type elt = type.getElementType(), acc = floatAccType(elt);
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    Value norm = sumOver(rewriter, loc, x, reduced, acc, {},
                         [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                           Value v = convertFloat(b, l, a[0], acc);
                           if (p == 1)
                             return math::AbsFOp::create(b, l, v);
                           return arith::MulFOp::create(b, l, v, v);
                         });
    Value y = elementwise(
        rewriter, loc, x, type,
        {{x, rewriter.getMultiDimIdentityMap(rank)},
         {norm, keptMap(ctx, reduced)}},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value n = p == 2 ? Value(math::SqrtOp::create(b, l, a[1])) : a[1];
          return convertFloat(b, l, arith::DivFOp::create(b, l, convertFloat(b, l, a[0], acc), n),
                     elt);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// LRN: square_sum[n, c] = sum of X[n, j]^2 for j in [c - floor((size-1)/2),
/// c + ceil((size-1)/2)] inside [0, C); Y = X / (bias + alpha / size *
/// square_sum)^beta.
struct LRNLowering : OpConversionPattern<ONNX::LRNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getX();
    int64_t rank = type.getRank();
    int64_t size = op.getSize();
    if (rank < 2)
      return op.emitOpError("input must have rank 2 or more (N, C, ...)");
    if (size <= 0)
      return op.emitOpError("size must be positive");
    Type elt = type.getElementType(), acc = floatAccType(elt);
    int64_t before = (size - 1) / 2;
    // Loops: the dims of X, then the window j.
    Value window =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{size}, acc);
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, x, i));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), acc, dyn);
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    Value init =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    Value channels = getDimValue(rewriter, loc, x, 1);
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, ctx)),
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iters = parallelIterators(rank);
    iters.push_back(utils::IteratorType::reduction);
    Value sq =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()}, ValueRange{window},
            ValueRange{init}, maps, iters,
            [&](OpBuilder &b, Location l, ValueRange args) {
              SmallVector<Value> idx;
              for (int64_t i = 0; i < rank; ++i)
                idx.push_back(linalg::IndexOp::create(b, l, i));
              Value j = linalg::IndexOp::create(b, l, rank);
              Value c = arith::AddIOp::create(
                  b, l, idx[1],
                  arith::SubIOp::create(
                      b, l, j, arith::ConstantIndexOp::create(b, l, before)));
              Value zeroIdx = arith::ConstantIndexOp::create(b, l, 0);
              Value ok = arith::AndIOp::create(
                  b, l,
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, c,
                                        zeroIdx),
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, c,
                                        channels));
              idx[1] = arith::SelectOp::create(b, l, ok, c, zeroIdx);
              Value v = convertFloat(b, l, tensor::ExtractOp::create(b, l, x, idx), acc);
              Value s = arith::MulFOp::create(b, l, v, v);
              s = arith::SelectOp::create(b, l, ok, s,
                                          createScalarConstant(b, l, acc, 0));
              Value r = arith::AddFOp::create(b, l, args[1], s);
              linalg::YieldOp::create(b, l, r);
            })
            .getResult(0);
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    Value y = elementwise(
        rewriter, loc, x, type, {{x, id}, {sq, id}},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value s = arith::MulFOp::create(
              b, l, a[1], createScalarConstant(b, l, acc, alpha / size));
          s = arith::AddFOp::create(b, l, s,
                                    createScalarConstant(b, l, acc, bias));
          s = math::PowFOp::create(b, l, s,
                                   createScalarConstant(b, l, acc, beta));
          return convertFloat(b, l, arith::DivFOp::create(b, l, convertFloat(b, l, a[0], acc), s),
                     elt);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateNormalizationPatterns(TypeConverter &tc,
                                                RewritePatternSet &patterns) {
  patterns.add<BatchNormLowering, InstanceNormLowering, LayerNormLowering,
               GroupNormLowering, MVNLowering, LpNormLowering, LRNLowering>(
      tc, patterns.getContext());
}

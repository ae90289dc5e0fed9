//===- DeformConv.cpp - DeformConv -> linalg ------------------------------===//
//
// DeformConv (opset 19), 2-D: one linalg.generic over (n, m, oh, ow) x the
// reduction (c, i, j) of the group's input channels and the kernel taps.
// Each tap samples X bilinearly at its offset position, corners outside
// the image reading 0 (ORT's kernel, after torchvision's deform_conv2d:
// positions at or beyond -1 / size give 0), times the mask when given; the
// bias initializes the accumulator. Accumulated in f32 for f16/bf16 and
// f32, f64 for f64.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Window.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The attributes, checked.
struct DeformConvAttrs {
  int64_t group = 1, offGroup = 1;
  SmallVector<int64_t> strides, dil, pads;
};

FailureOr<DeformConvAttrs> checkAttrs(ONNX::DeformConvOp op) {
  DeformConvAttrs at;
  at.group = op.getGroup(), at.offGroup = op.getOffsetGroup();
  if (at.group < 1 || at.offGroup < 1)
    return op.emitOpError("group and offset_group must be positive");
  at.strides = getI64Array(op, "strides", {1, 1});
  at.dil = getI64Array(op, "dilations", {1, 1});
  at.pads = getI64Array(op, "pads", {0, 0, 0, 0});
  if (at.strides.size() != 2 || at.dil.size() != 2 || at.pads.size() != 4 ||
      llvm::any_of(at.strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(at.dil, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(at.pads, [](int64_t v) { return v < 0; }))
    return op.emitOpError("strides and dilations must be 2 positive values, "
                          "pads 4 non-negative ones");
  return at;
}

/// The sizes the generic needs, with the run-time checks of the operands'
/// shapes against each other.
struct DeformConvSizes {
  SmallVector<Value> xd, ySizes;
  Value kH, kW, M, cPer, taps, mPerGroup, cPerOffGroup;
};

/// (in + pads - (dil (k - 1) + 1)) / stride + 1, checked non-negative
/// before the division.
Value outputDim(OpBuilder &b, Location loc, const DeformConvAttrs &at,
                Value in, Value k, int64_t d) {
  Value span = arith::AddIOp::create(
      b, loc,
      mulIdx(b, loc, idx(b, loc, at.dil[d]),
             arith::SubIOp::create(b, loc, k, idx(b, loc, 1))),
      idx(b, loc, 1));
  Value n = arith::SubIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, in,
                            idx(b, loc, at.pads[d] + at.pads[d + 2])),
      span);
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::sge, n, idx(b, loc, 0)),
                   "DeformConv: the kernel is larger than the padded "
                   "input");
  return arith::AddIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, n, idx(b, loc, at.strides[d])),
      idx(b, loc, 1));
}

FailureOr<DeformConvSizes>
checkSizes(ONNX::DeformConvOp op, OpBuilder &b, const DeformConvAttrs &at,
           Value x, Value w, Value off, Value bias, Value mask,
           RankedTensorType yt) {
  Location loc = op.getLoc();
  bool hasBias = !isa<NoneType>(bias.getType());
  bool hasMask = !isa<NoneType>(mask.getType());
  DeformConvSizes s;
  s.xd = dimValues(b, loc, x);
  SmallVector<Value> wd = dimValues(b, loc, w);
  s.kH = wd[2], s.kW = wd[3];
  if (auto ks = op.getKernelShape()) {
    if (ks->size() != 2)
      return op.emitOpError("kernel_shape must have 2 entries");
    checkEqual(b, loc, s.kH, idx(b, loc, (*ks)[0]),
               "DeformConv: kernel_shape does not match W");
    checkEqual(b, loc, s.kW, idx(b, loc, (*ks)[1]),
               "DeformConv: kernel_shape does not match W");
  }
  SmallVector<Value> &xd = s.xd;
  Value oH = outputDim(b, loc, at, xd[2], s.kH, 0);
  Value oW = outputDim(b, loc, at, xd[3], s.kW, 1);
  s.M = wd[0], s.cPer = wd[1];
  s.taps = mulIdx(b, loc, s.kH, s.kW);
  checkEqual(b, loc, xd[1], mulIdx(b, loc, s.cPer, idx(b, loc, at.group)),
             "DeformConv: X's channels must be group x W's channels");
  Value g = idx(b, loc, at.group), og = idx(b, loc, at.offGroup);
  Value zero = idx(b, loc, 0);
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::eq,
                        arith::RemUIOp::create(b, loc, s.M, g), zero),
                   "DeformConv: the output channels must be a multiple of "
                   "group");
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::eq,
                        arith::RemUIOp::create(b, loc, xd[1], og), zero),
                   "DeformConv: the input channels must be a multiple of "
                   "offset_group");
  SmallVector<Value> od = dimValues(b, loc, off);
  checkEqual(b, loc, od[0], xd[0],
             "DeformConv: offset must have X's batch size");
  checkEqual(b, loc, od[1],
             mulIdx(b, loc, og, mulIdx(b, loc, s.taps, idx(b, loc, 2))),
             "DeformConv: offset must have offset_group x kH x kW x 2 "
             "channels");
  checkEqual(b, loc, od[2], oH,
             "DeformConv: offset must have the output's spatial size");
  checkEqual(b, loc, od[3], oW,
             "DeformConv: offset must have the output's spatial size");
  if (hasMask) {
    SmallVector<Value> md = dimValues(b, loc, mask);
    checkEqual(b, loc, md[0], xd[0],
               "DeformConv: mask must have X's batch size");
    checkEqual(b, loc, md[1], mulIdx(b, loc, og, s.taps),
               "DeformConv: mask must have offset_group x kH x kW channels");
    checkEqual(b, loc, md[2], oH,
               "DeformConv: mask must have the output's spatial size");
    checkEqual(b, loc, md[3], oW,
               "DeformConv: mask must have the output's spatial size");
  }
  if (hasBias)
    checkEqual(b, loc, getDimValue(b, loc, bias, 0), s.M,
               "DeformConv: B must have one entry per output channel");
  s.ySizes = {xd[0], s.M, oH, oW};
  checkResultSizes(b, loc, yt, s.ySizes,
                   "DeformConv: the result shape does not match the result "
                   "type");
  s.mPerGroup = arith::DivUIOp::create(b, loc, s.M, g);
  s.cPerOffGroup = arith::DivUIOp::create(b, loc, xd[1], og);
  return s;
}

/// The accumulator: the bias (or 0) in the compute type `ct`.
Value initAccumulator(OpBuilder &rewriter, Location loc, Value bias,
                      Type bOnnx, RankedTensorType accT, ArrayRef<Value> sizes) {
  Type ct = accT.getElementType();
  MLIRContext *ctx = rewriter.getContext();
  Value acc = createEmpty(rewriter, loc, accT, sizes);
  if (isa<NoneType>(bias.getType()))
    return linalg::FillOp::create(rewriter, loc, fConst(rewriter, loc, ct, 0),
                                  acc)
        .getResult(0);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{accT}, ValueRange{bias}, ValueRange{acc},
             SmallVector<AffineMap>{
                 AffineMap::get(4, 0, getAffineDimExpr(1, ctx)),
                 rewriter.getMultiDimIdentityMap(4)},
             parallelIterators(4),
             [&](OpBuilder &b, Location l, ValueRange a) {
               linalg::YieldOp::create(b, l,
                                       convertScalar(b, l, a[0], bOnnx, ct));
             })
      .getResult(0);
}

/// X[n, ch] sampled bilinearly at (h, w) in `ct`: 0 outside (-1, size) on
/// either axis (NaN: outside), corners outside the image reading 0. `one`:
/// the index 1 of the body.
Value sampleBilinear(OpBuilder &b, Location l, Value x, Type xOnnx, Type ct,
                     Value H, Value W, Value n, Value ch, Value h, Value wv,
                     Value one) {
  Value hF = indexToF(b, l, H, ct);
  Value wF = indexToF(b, l, W, ct);
  Value m1 = fConst(b, l, ct, -1);
  // Inside (-1, size) on both axes, else 0 (NaN: outside).
  Value in = andI(b, l,
                  andI(b, l, cmpF(b, l, arith::CmpFPredicate::OGT, h, m1),
                       cmpF(b, l, arith::CmpFPredicate::OLT, h, hF)),
                  andI(b, l, cmpF(b, l, arith::CmpFPredicate::OGT, wv, m1),
                       cmpF(b, l, arith::CmpFPredicate::OLT, wv, wF)));
  Value zeroF = fConst(b, l, ct, 0);
  Value hs = select(b, l, in, h, zeroF);
  Value ws = select(b, l, in, wv, zeroF);
  Value hFl = math::FloorOp::create(b, l, hs);
  Value wFl = math::FloorOp::create(b, l, ws);
  Value lh = subF(b, l, hs, hFl), lw = subF(b, l, ws, wFl);
  Value hh = subF(b, l, fConst(b, l, ct, 1), lh);
  Value hw = subF(b, l, fConst(b, l, ct, 1), lw);
  Value hLo = fToIndex(b, l, hFl), wLo = fToIndex(b, l, wFl);
  Value hHi = arith::AddIOp::create(b, l, hLo, one);
  Value wHi = arith::AddIOp::create(b, l, wLo, one);
  auto corner = [&](Value yi, Value xi) {
    Value ok = andI(
        b, l,
        andI(b, l, cmpI(b, l, arith::CmpIPredicate::sge, yi, idx(b, l, 0)),
             cmpI(b, l, arith::CmpIPredicate::slt, yi, H)),
        andI(b, l, cmpI(b, l, arith::CmpIPredicate::sge, xi, idx(b, l, 0)),
             cmpI(b, l, arith::CmpIPredicate::slt, xi, W)));
    Value v = convertScalar(
        b, l,
        tensor::ExtractOp::create(
            b, l, x,
            ValueRange{n, ch, clampIdx(b, l, yi, H), clampIdx(b, l, xi, W)}),
        xOnnx, ct);
    return select(b, l, ok, v, zeroF);
  };
  Value v = addF(b, l,
                 addF(b, l, mulF(b, l, mulF(b, l, hh, hw), corner(hLo, wLo)),
                      mulF(b, l, mulF(b, l, hh, lw), corner(hLo, wHi))),
                 addF(b, l, mulF(b, l, mulF(b, l, lh, hw), corner(hHi, wLo)),
                      mulF(b, l, mulF(b, l, lh, lw), corner(hHi, wHi))));
  return select(b, l, in, v, zeroF);
}

/// Y[n, m, oh, ow] = B[m] + sum over c < C / group, i < kH, j < kW of
/// W[m, c, i, j] * mask[n, og * kH kW + i kW + j, oh, ow] *
/// X~[n, g C/group + c](oh sH - padT + i dH + offset[n, og * 2 kH kW +
/// 2 (i kW + j), oh, ow], ow sW - padL + j dW + offset[..., + 1, ...]),
/// g = m / (M / group), og = (g C/group + c) / (C / offset_group), X~ the
/// bilinear sample (0 outside).
struct DeformConvLowering : OpConversionPattern<ONNX::DeformConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DeformConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX(), w = adaptor.getW(), off = adaptor.getOffset();
    Value bias = adaptor.getB(), mask = adaptor.getMask();
    bool hasBias = !isa<NoneType>(bias.getType());
    bool hasMask = !isa<NoneType>(mask.getType());
    auto xt = cast<RankedTensorType>(x.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    if (xt.getRank() != 4 || yt.getRank() != 4)
      return op.emitOpError("only 2-D DeformConv (X of rank 4) is supported");
    if (cast<RankedTensorType>(w.getType()).getRank() != 4 ||
        cast<RankedTensorType>(off.getType()).getRank() != 4 ||
        (hasMask && cast<RankedTensorType>(mask.getType()).getRank() != 4))
      return op.emitOpError("W, offset and mask must have rank 4");
    if (hasBias && cast<RankedTensorType>(bias.getType()).getRank() != 1)
      return op.emitOpError("B must be 1-D");
    FailureOr<DeformConvAttrs> attrs = checkAttrs(op);
    if (failed(attrs))
      return failure();
    const DeformConvAttrs &at = *attrs;
    Type ct = computeType(rewriter, {xt.getElementType()});
    Type xOnnx = getElementType(op.getX()), wOnnx = getElementType(op.getW());
    Type oOnnx = getElementType(op.getOffset());
    FailureOr<DeformConvSizes> sizes =
        checkSizes(op, rewriter, at, x, w, off, bias, mask, yt);
    if (failed(sizes))
      return failure();
    const DeformConvSizes &s = *sizes;
    const SmallVector<Value> &xd = s.xd;
    Value kW = s.kW, cPer = s.cPer, taps = s.taps;
    Value mPerGroup = s.mPerGroup, cPerOffGroup = s.cPerOffGroup;

    MLIRContext *ctx = op.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<int64_t> accShape(yt.getShape());
    auto accT = RankedTensorType::get(accShape, ct);
    Value acc = initAccumulator(
        rewriter, loc, bias, hasBias ? getElementType(op.getB()) : Type(),
        accT, s.ySizes);
    // (n, m, oh, ow, c, i, j): W read through its map, the rest extracted.
    SmallVector<AffineMap> maps = {
        AffineMap::get(7, 0, {d(1), d(4), d(5), d(6)}, ctx),
        AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx)};
    SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
    iters.append(3, utils::IteratorType::reduction);
    Type mOnnx = hasMask ? getElementType(op.getMask()) : Type();
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{accT}, ValueRange{w},
                  ValueRange{acc}, maps, iters,
                  [&](OpBuilder &b, Location l, ValueRange a) {
                    Value n = linalg::IndexOp::create(b, l, 0);
                    Value m = linalg::IndexOp::create(b, l, 1);
                    Value oh = linalg::IndexOp::create(b, l, 2);
                    Value ow = linalg::IndexOp::create(b, l, 3);
                    Value c = linalg::IndexOp::create(b, l, 4);
                    Value i = linalg::IndexOp::create(b, l, 5);
                    Value j = linalg::IndexOp::create(b, l, 6);
                    Value one = idx(b, l, 1);
                    Value grp = arith::DivUIOp::create(b, l, m, mPerGroup);
                    Value ch = arith::AddIOp::create(
                        b, l, mulIdx(b, l, grp, cPer), c);
                    Value ogi = arith::DivUIOp::create(b, l, ch, cPerOffGroup);
                    Value tap = arith::AddIOp::create(b, l, mulIdx(b, l, i, kW),
                                                      j);
                    Value oc = arith::AddIOp::create(
                        b, l,
                        mulIdx(b, l, ogi,
                               mulIdx(b, l, taps, idx(b, l, 2))),
                        mulIdx(b, l, tap, idx(b, l, 2)));
                    auto offAt = [&](Value k) {
                      return convertScalar(
                          b, l,
                          tensor::ExtractOp::create(b, l, off,
                                                    ValueRange{n, k, oh, ow}),
                          oOnnx, ct);
                    };
                    Value dy = offAt(oc);
                    Value dx = offAt(arith::AddIOp::create(b, l, oc, one));
                    auto base = [&](Value o, Value k, int64_t dim) {
                      Value p = arith::AddIOp::create(
                          b, l, mulIdx(b, l, o, idx(b, l, at.strides[dim])),
                          mulIdx(b, l, k, idx(b, l, at.dil[dim])));
                      p = arith::SubIOp::create(b, l, p,
                                                idx(b, l, at.pads[dim]));
                      return indexToF(b, l, p, ct);
                    };
                    Value h = addF(b, l, base(oh, i, 0), dy);
                    Value wv = addF(b, l, base(ow, j, 1), dx);
                    Value v = sampleBilinear(b, l, x, xOnnx, ct, xd[2], xd[3],
                                             n, ch, h, wv, one);
                    if (hasMask) {
                      Value mc = arith::AddIOp::create(
                          b, l, mulIdx(b, l, ogi, taps), tap);
                      v = mulF(b, l, v,
                               convertScalar(b, l,
                                             tensor::ExtractOp::create(
                                                 b, l, mask,
                                                 ValueRange{n, mc, oh, ow}),
                                             mOnnx, ct));
                    }
                    Value wt = convertScalar(b, l, a[0], wOnnx, ct);
                    linalg::YieldOp::create(
                        b, l, addF(b, l, a[1], mulF(b, l, wt, v)));
                  })
                  .getResult(0);
    Type yOnnx = getElementType(op.getY());
    if (ct != yt.getElementType()) {
      Value out = createEmpty(rewriter, loc, yt, s.ySizes);
      y = linalg::GenericOp::create(
              rewriter, loc, TypeRange{yt}, ValueRange{y}, ValueRange{out},
              SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(4)),
              parallelIterators(4),
              [&](OpBuilder &b, Location l, ValueRange a) {
                linalg::YieldOp::create(b, l,
                                        convertScalar(b, l, a[0], ct, yOnnx));
              })
              .getResult(0);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateDeformConvPatterns(TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<DeformConvLowering>(tc, patterns.getContext());
}

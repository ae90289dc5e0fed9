//===- ConvTaps.cpp - Dropping Conv taps that read only padding -----------===//
//
// Part of onnx-graph-optimize (GraphOptimize.cpp): a Conv's outer kernel
// taps that read only padding, for every output position, are dropped with
// the pads they spanned; a dilated Conv whose taps read padding for most
// output positions is split into regions of the output, each convolved
// with only the taps that read the input there.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Constants.h"
#include "passes/ONNX/GraphOptimize.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// A Conv's window attributes for `r` spatial dims with their defaults
/// (dilations and strides 1, pads 0): failure when one has another length
/// or kernel_shape disagrees with W's spatial dims `kernel`.
static LogicalResult readConvWindow(ONNX::ConvOp op, int64_t r,
                                    ArrayRef<int64_t> kernel,
                                    SmallVectorImpl<int64_t> &dil,
                                    SmallVectorImpl<int64_t> &str,
                                    SmallVectorImpl<int64_t> &pads) {
  dil.assign(r, 1);
  str.assign(r, 1);
  pads.assign(2 * r, 0);
  if (auto a = op.getDilations())
    dil.assign(a->begin(), a->end());
  if (auto a = op.getStrides())
    str.assign(a->begin(), a->end());
  if (auto a = op.getPads())
    pads.assign(a->begin(), a->end());
  if ((int64_t)dil.size() != r || (int64_t)str.size() != r ||
      (int64_t)pads.size() != 2 * r)
    return failure();
  if (auto k = op.getKernelShape())
    if (ArrayRef<int64_t>(*k) != kernel)
      return failure();
  return success();
}

/// Conv with constant weights, explicit pads and static spatial sizes whose
/// outer kernel taps read only padding, for every output position (a
/// dilated convolution on a map smaller than its dilation: DeepLab's ASPP
/// convolves a 16x16 map with dilations 24 and 36, where only the center
/// tap ever sees the input): those taps are dropped from the weights and
/// the pads shrink by what they spanned. The result is the same sums
/// without the zero products (the 3x3 above becomes a 1x1 convolution, 9x
/// less work). Only whole outer rows of taps go, and only when the pads
/// stay non-negative.
struct DropPaddingOnlyConvTaps : OpRewritePattern<ONNX::ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::ConvOp op,
                                PatternRewriter &rewriter) const override {
    auto xt = dyn_cast<RankedTensorType>(op.getX().getType());
    auto wt = dyn_cast<RankedTensorType>(op.getW().getType());
    auto yt = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!xt || !wt || !yt || !wt.hasStaticShape() ||
        op.getAutoPad() != "NOTSET" || xt.getRank() < 3 ||
        wt.getRank() != xt.getRank() || yt.getRank() != xt.getRank())
      return failure();
    int64_t r = xt.getRank() - 2;
    for (int64_t i = 2; i < xt.getRank(); ++i)
      if (xt.isDynamicDim(i) || yt.isDynamicDim(i))
        return failure();
    SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
    SmallVector<int64_t> dil, str, pads;
    if (failed(readConvWindow(op, r, kernel, dil, str, pads)))
      return failure();
    // Per spatial dim, the first and last taps that read the input for
    // some output position.
    SmallVector<int64_t> first(r), last(r);
    bool shrinks = false;
    for (int64_t i = 0; i < r; ++i) {
      int64_t in = xt.getDimSize(2 + i), out = yt.getDimSize(2 + i);
      // Sizes far past any real convolution are left alone (no overflow
      // below: every product stays under 2^62).
      constexpr int64_t kLimit = int64_t(1) << 30;
      if (in > kLimit || out > kLimit || kernel[i] > kLimit ||
          str[i] < 1 || str[i] > kLimit || dil[i] < 1 || dil[i] > kLimit ||
          pads[i] < 0 || pads[i] > kLimit || pads[i + r] < 0 ||
          pads[i + r] > kLimit)
        return failure();
      first[i] = kernel[i];
      last[i] = -1;
      for (int64_t t = 0; t < kernel[i]; ++t) {
        // Tap t reads position o * s - pads + t * d of output o: some o in
        // [0, out) lands in [0, in) when the range of o it needs does.
        int64_t lo = pads[i] - t * dil[i], hi = in - 1 + pads[i] - t * dil[i];
        int64_t oMin = std::max<int64_t>(0, llvm::divideCeilSigned(lo, str[i]));
        int64_t oMax = std::min(out - 1, llvm::divideFloorSigned(hi, str[i]));
        if (oMin <= oMax) {
          first[i] = std::min(first[i], t);
          last[i] = std::max(last[i], t);
        }
      }
      if (last[i] < 0)
        return failure(); // an all-padding output: leave it to the lowering
      if (pads[i] - first[i] * dil[i] < 0 ||
          pads[i + r] - (kernel[i] - 1 - last[i]) * dil[i] < 0)
        return failure();
      shrinks |= first[i] > 0 || last[i] < kernel[i] - 1;
    }
    if (!shrinks)
      return failure();
    auto bytes = getConstantBytes(op.getW());
    if (!bytes)
      return failure();
    // The kept block of W[m, c, k0, k1, ...].
    size_t eb = elementBytes(wt.getElementType());
    SmallVector<int64_t> newShape = {wt.getDimSize(0), wt.getDimSize(1)};
    for (int64_t i = 0; i < r; ++i)
      newShape.push_back(last[i] - first[i] + 1);
    auto newWt = RankedTensorType::get(newShape, wt.getElementType());
    std::vector<char> kept(newWt.getNumElements() * eb);
    SmallVector<int64_t> idx(newShape.size(), 0);
    for (int64_t n = 0, e = newWt.getNumElements(); n < e; ++n) {
      int64_t src = 0;
      for (size_t d = 0; d < newShape.size(); ++d) {
        int64_t j = d < 2 ? idx[d] : idx[d] + first[d - 2];
        src = src * wt.getDimSize(d) + j;
      }
      std::memcpy(kept.data() + n * eb, bytes->data() + src * eb, eb);
      for (int64_t d = newShape.size() - 1; d >= 0; --d) {
        if (++idx[d] < newShape[d])
          break;
        idx[d] = 0;
      }
    }
    SmallVector<int64_t> newPads(pads);
    for (int64_t i = 0; i < r; ++i) {
      newPads[i] = pads[i] - first[i] * dil[i];
      newPads[i + r] = pads[i + r] - (kernel[i] - 1 - last[i]) * dil[i];
    }
    Location loc = op.getLoc();
    Value w = createConstant(rewriter, loc, newWt, kept, "conv_kept_taps");
    auto conv = ONNX::ConvOp::create(
        rewriter, loc, yt, op.getX(), w, op.getB(), op.getAutoPadAttr(),
        op.getDilationsAttr(), op.getGroupAttr(),
        op.getKernelShape() ? rewriter.getDenseI64ArrayAttr(
                                  ArrayRef<int64_t>(newShape).drop_front(2))
                            : DenseI64ArrayAttr(),
        rewriter.getDenseI64ArrayAttr(newPads), op.getStridesAttr());
    conv->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, conv.getY());
    return success();
  }
};

/// Per spatial dim of a stride-1 Conv: the output range [lo, hi) and the
/// taps [t0, t1] that read the input for every position in it (none
/// reads padding there).
struct Segment {
  int64_t lo, hi, t0, t1;
};

/// Splits [0, out) where a tap starts or stops reading the input: tap t
/// reads input position o - pad + t * dil, inside [0, in) for o in
/// [pad - t * dil, in + pad - t * dil). Empty when a segment has no tap.
static SmallVector<Segment> tapSegments(int64_t in, int64_t out, int64_t pad,
                                        int64_t kernel, int64_t dil) {
  SmallVector<int64_t> cuts = {0, out};
  SmallVector<std::pair<int64_t, int64_t>> range(kernel);
  for (int64_t t = 0; t < kernel; ++t) {
    int64_t lo = std::max<int64_t>(0, pad - t * dil);
    int64_t hi = std::min<int64_t>(out, in + pad - t * dil);
    range[t] = {lo, hi};
    if (lo < hi) {
      cuts.push_back(lo);
      cuts.push_back(hi);
    }
  }
  llvm::sort(cuts);
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  SmallVector<Segment> segs;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    Segment s{cuts[i], cuts[i + 1], kernel, -1};
    // The taps covering the segment: their ranges slide with t, so the
    // covering ones are consecutive.
    for (int64_t t = 0; t < kernel; ++t)
      if (range[t].first <= s.lo && s.hi <= range[t].second) {
        s.t0 = std::min(s.t0, t);
        s.t1 = std::max(s.t1, t);
      }
    if (s.t1 < 0)
      return {};
    segs.push_back(s);
  }
  return segs;
}

/// A 2-D stride-1 Conv with constant weights and static spatial sizes
/// whose taps read padding for most output positions (DeepLab's ASPP: a
/// 3x3 convolution with dilation 12 on a 16x16 map, where each outer tap
/// sees the input on a quarter of the map or less and 75% of the products
/// are by padding zeros) becomes one Conv per region of the output where
/// the same taps read the input, each over the slice of X those taps read,
/// with the block of W of those taps and no pads, concatenated back (the
/// Concat's inputs are computed in place). Only when the products left are
/// at most 70% of the whole and at least 2^20 multiply-adds go; at most 25
/// regions. Not before a BatchNormalization, which folds into the Conv
/// first.
struct SplitConvByValidTaps : OpRewritePattern<ONNX::ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::ConvOp op,
                                PatternRewriter &rewriter) const override {
    auto xt = dyn_cast<RankedTensorType>(op.getX().getType());
    auto wt = dyn_cast<RankedTensorType>(op.getW().getType());
    auto yt = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!xt || !wt || !yt || !wt.hasStaticShape() || xt.getRank() != 4 ||
        wt.getRank() != 4 || yt.getRank() != 4 ||
        op.getAutoPad() != "NOTSET")
      return failure();
    for (int64_t i = 2; i < 4; ++i)
      if (xt.isDynamicDim(i) || yt.isDynamicDim(i))
        return failure();
    for (Operation *user : op->getUsers())
      if (isa<ONNX::BatchNormalizationOp>(user))
        return failure();
    SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
    SmallVector<int64_t> dil, str, pads;
    if (failed(readConvWindow(op, 2, kernel, dil, str, pads)) || str[0] != 1 ||
        str[1] != 1)
      return failure();
    constexpr int64_t kLimit = int64_t(1) << 20;
    SmallVector<Segment> segs[2];
    for (int64_t i = 0; i < 2; ++i) {
      int64_t in = xt.getDimSize(2 + i), out = yt.getDimSize(2 + i);
      if (in > kLimit || out > kLimit || kernel[i] > 64 || dil[i] < 1 ||
          dil[i] > kLimit || pads[i] < 0 || pads[i] > kLimit ||
          pads[i + 2] < 0 || pads[i + 2] > kLimit ||
          out != in + pads[i] + pads[i + 2] - (kernel[i] - 1) * dil[i])
        return failure();
      segs[i] = tapSegments(in, out, pads[i], kernel[i], dil[i]);
      if (segs[i].empty())
        return failure();
    }
    if (segs[0].size() * segs[1].size() > 25 ||
        segs[0].size() * segs[1].size() < 2)
      return failure();
    // Multiply-adds per output channel and input channel: all taps against
    // the regions' own.
    int64_t full = yt.getDimSize(2) * yt.getDimSize(3) * kernel[0] * kernel[1];
    int64_t kept = 0;
    for (const Segment &r : segs[0])
      for (const Segment &c : segs[1])
        kept += (r.hi - r.lo) * (c.hi - c.lo) * (r.t1 - r.t0 + 1) *
                (c.t1 - c.t0 + 1);
    if (kept * 10 > full * 7 ||
        (full - kept) * wt.getDimSize(0) * wt.getDimSize(1) < kLimit)
      return failure();
    // A 3x3 whose pads and sides are multiples of its dilation runs
    // through the runtime's Winograd path over its dilation's phases
    // (runtime/src/winograd.c) when its channels suit it: some 40% of the
    // direct products' time, which the regions beat only when they drop
    // more than 60% of the products (U-Net's dilation 4 on 16x16 maps
    // drops 31%: 2.83 ms in regions, 1.3 whole; DeepLab's dilation 12
    // drops 75%).
    if (kernel[0] == 3 && kernel[1] == 3 && dil[0] == dil[1] &&
        op.getGroup() == 1 && wt.getDimSize(0) % 16 == 0 &&
        wt.getDimSize(0) >= 32 && wt.getDimSize(1) % 16 == 0 &&
        kept * 10 > full * 4) {
      int64_t d = dil[0];
      bool phased = true;
      for (int64_t i = 0; i < 4; ++i)
        phased = phased && pads[i] % d == 0;
      for (int64_t i = 2; i < 4; ++i)
        phased = phased && xt.getDimSize(i) % d == 0 &&
                 yt.getDimSize(i) % d == 0;
      if (phased)
        return failure();
    }
    std::optional<std::vector<char>> bytes = getConstantBytes(op.getW());
    if (!bytes)
      return failure();

    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    size_t eb = elementBytes(wt.getElementType());
    auto ints = [&](ArrayRef<int64_t> v) {
      std::vector<char> raw(v.size() * 8);
      std::memcpy(raw.data(), v.data(), raw.size());
      return createConstant(rewriter, loc,
                            RankedTensorType::get({(int64_t)v.size()}, i64),
                            raw, "conv_region");
    };
    Value axes = ints({2, 3});
    Value none = ONNX::NoValueOp::create(rewriter, loc, rewriter.getNoneType());
    // W's block of taps [r.t0, r.t1] x [c.t0, c.t1], once per block.
    std::map<std::array<int64_t, 4>, Value> blocks;
    auto block = [&](const Segment &r, const Segment &c) {
      std::array<int64_t, 4> key = {r.t0, r.t1, c.t0, c.t1};
      if (auto it = blocks.find(key); it != blocks.end())
        return it->second;
      int64_t kh = r.t1 - r.t0 + 1, kw = c.t1 - c.t0 + 1;
      int64_t mc = wt.getDimSize(0) * wt.getDimSize(1);
      std::vector<char> out(mc * kh * kw * eb);
      for (int64_t p = 0; p < mc; ++p)
        for (int64_t a = 0; a < kh; ++a)
          std::memcpy(out.data() + ((p * kh + a) * kw) * eb,
                      bytes->data() +
                          ((p * kernel[0] + r.t0 + a) * kernel[1] + c.t0) * eb,
                      kw * eb);
      auto type = RankedTensorType::get(
          {wt.getDimSize(0), wt.getDimSize(1), kh, kw}, wt.getElementType());
      return blocks[key] =
                 createConstant(rewriter, loc, type, out, "conv_region_taps");
    };
    SmallVector<Value> bands;
    for (const Segment &r : segs[0]) {
      SmallVector<Value> parts;
      for (const Segment &c : segs[1]) {
        // The input rows and columns the region's taps read.
        int64_t h0 = r.lo - pads[0] + r.t0 * dil[0];
        int64_t h1 = r.hi - 1 - pads[0] + r.t1 * dil[0] + 1;
        int64_t w0 = c.lo - pads[1] + c.t0 * dil[1];
        int64_t w1 = c.hi - 1 - pads[1] + c.t1 * dil[1] + 1;
        Value x = op.getX();
        if (h0 != 0 || w0 != 0 || h1 != xt.getDimSize(2) ||
            w1 != xt.getDimSize(3))
          x = ONNX::SliceOp::create(
              rewriter, loc,
              RankedTensorType::get(
                  {xt.getDimSize(0), xt.getDimSize(1), h1 - h0, w1 - w0},
                  xt.getElementType(), xt.getEncoding()),
              x, ints({h0, w0}), ints({h1, w1}), axes, none);
        int64_t kh = r.t1 - r.t0 + 1, kw = c.t1 - c.t0 + 1;
        auto type = RankedTensorType::get(
            {yt.getDimSize(0), yt.getDimSize(1), r.hi - r.lo, c.hi - c.lo},
            yt.getElementType(), yt.getEncoding());
        auto conv = ONNX::ConvOp::create(
            rewriter, loc, type, x, block(r, c), op.getB(),
            op.getAutoPadAttr(), op.getDilationsAttr(), op.getGroupAttr(),
            rewriter.getDenseI64ArrayAttr({kh, kw}),
            rewriter.getDenseI64ArrayAttr({0, 0, 0, 0}), op.getStridesAttr());
        conv->setDiscardableAttrs(op->getDiscardableAttrDictionary());
        parts.push_back(conv.getY());
      }
      if (parts.size() == 1) {
        bands.push_back(parts[0]);
        continue;
      }
      bands.push_back(ONNX::ConcatOp::create(
          rewriter, loc,
          RankedTensorType::get({yt.getDimSize(0), yt.getDimSize(1),
                                 r.hi - r.lo, yt.getDimSize(3)},
                                yt.getElementType(), yt.getEncoding()),
          parts, rewriter.getIntegerAttr(i64, 3)));
    }
    Value y = bands.size() == 1
                  ? bands[0]
                  : ONNX::ConcatOp::create(rewriter, loc, yt, bands,
                                           rewriter.getIntegerAttr(i64, 2))
                        .getResult();
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateConvTapPatterns(RewritePatternSet &patterns) {
  // Whole rows of taps go first (benefit 2): a region split of a Conv that
  // still has them would carry them into every region.
  patterns.add<DropPaddingOnlyConvTaps>(patterns.getContext(), /*benefit=*/2);
  patterns.add<SplitConvByValidTaps>(patterns.getContext());
}

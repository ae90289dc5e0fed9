//===- ConvTaps.cpp - Dropping Conv taps that read only padding -----------===//
//
// Part of onnx-graph-optimize (GraphOptimize.cpp): a Conv's outer kernel
// taps that read only padding, for every output position, are dropped with
// the pads they spanned.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Constants.h"
#include "passes/ONNX/GraphOptimize.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::onnxc;

namespace {

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
    SmallVector<int64_t> dil(r, 1), str(r, 1), pads(2 * r, 0);
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
      if (SmallVector<int64_t>(k->begin(), k->end()) != kernel)
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

} // namespace

void mlir::onnxc::populateConvTapPatterns(RewritePatternSet &patterns) {
  patterns.add<DropPaddingOnlyConvTaps>(patterns.getContext());
}

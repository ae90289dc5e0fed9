//===- RulesConv.cpp - Gradients of Conv and ConvTranspose ----------------===//
//
// Conv Y = conv(X, W) + B (strides s, dilations d, pads pb/pe, groups) is
// linear in X and in W; its adjoints are convolutions again, so the
// backward runs on the same convolution lowering and kernels:
//   dX = ConvTranspose(G, W) with the same strides, dilations, pads and
//        groups, and output_padding = (in + pb + pe - extent) mod s (the
//        rows no window reached get 0; at run time a Pad when the spatial
//        dims are symbolic);
//   dW = a convolution of X with G, batch and channels swapped: the
//        "input" X'' [C/g, g*N, in] (X's channels of group j as the batch,
//        the images as channels of group j), the "kernel" G'' [M, N, out],
//        strides d, dilations s, the same pads, groups g: [C/g, M, k'],
//        sliced to the kernel size k and transposed to [M, C/g, k];
//   dB = G summed over the batch and spatial dims.
// ConvTranspose Y = convT(X, W) is the adjoint of a Conv, so:
//   dX = Conv(G, W) (same strides, dilations, pads, groups), G first cut
//        to the rows a window of the forward reached when output_shape or
//        SAME made the output larger than the full transpose;
//   dW = the convolution of G'' [M/g, g*N, out] with X'' [C, N, in],
//        strides d, dilations s: [M/g, C, k'] sliced and transposed to
//        [C, M/g, k]; dB as for Conv.
// auto_pad SAME_* and output_shape are resolved from static spatial sizes
// (as the lowering resolves them); symbolic ones with them are an error.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

/// The window geometry of a Conv or ConvTranspose: per spatial dim.
struct Geometry {
  int64_t r = 0, group = 1;
  SmallVector<int64_t> strides, dilations, pb, pe, outPad;
};

/// Strides, dilations, group, output_padding and the pads as written
/// (auto_pad not resolved yet).
Geometry readGeometry(Operation *op, int64_t r) {
  Geometry g;
  g.r = r;
  g.group = getIntAttr(op, "group", 1);
  g.strides = intsAttr(op, "strides").value_or(SmallVector<int64_t>(r, 1));
  g.dilations = intsAttr(op, "dilations").value_or(SmallVector<int64_t>(r, 1));
  g.outPad =
      intsAttr(op, "output_padding").value_or(SmallVector<int64_t>(r, 0));
  SmallVector<int64_t> pads =
      intsAttr(op, "pads").value_or(SmallVector<int64_t>(2 * r, 0));
  g.pb.assign(pads.begin(), pads.begin() + r);
  g.pe.assign(pads.begin() + r, pads.end());
  return g;
}

StringRef autoPadOf(Operation *op) {
  auto a = op->getAttrOfType<StringAttr>("auto_pad");
  return a ? a.getValue() : "NOTSET";
}

/// The kernel size of spatial dim i: kernel_shape, else W's dim 2 + i
/// (-1 when dynamic).
int64_t kernelSize(Operation *op, Value w, int64_t i) {
  if (auto k = intsAttr(op, "kernel_shape"))
    return (*k)[i];
  return rankedOf(w).getDimSize(2 + i) == ShapedType::kDynamic
             ? -1
             : rankedOf(w).getDimSize(2 + i);
}

Value slice(GradientBuilder &gb, Value v, ArrayRef<int64_t> starts,
            ArrayRef<int64_t> ends, ArrayRef<int64_t> axes) {
  return gb.op("Slice", {v, gb.i64s(starts), gb.i64s(ends), gb.i64s(axes),
                         gb.none()});
}

/// Dims [from, to) of v's shape: constants when static.
Value dimsOf(GradientBuilder &gb, Value v, int64_t from, int64_t to) {
  auto t = rankedOf(v);
  bool fixed = true;
  SmallVector<int64_t> dims;
  for (int64_t i = from; i < to; ++i) {
    fixed &= !t.isDynamicDim(i);
    dims.push_back(t.getDimSize(i));
  }
  if (fixed)
    return gb.i64s(dims);
  return slice(gb, gb.shapeOf(v), {from}, {to}, {0});
}

Value concat(GradientBuilder &gb, ArrayRef<Value> parts) {
  return gb.op("Concat", parts, {gb.attr("axis", (int64_t)0)});
}

/// `v` [N, C, s...] with its first two dims swapped: [C, N, s...].
Value swapBatchAndChannels(GradientBuilder &gb, Value v) {
  int64_t rank = rankedOf(v).getRank();
  SmallVector<int64_t> perm{1, 0};
  for (int64_t i = 2; i < rank; ++i)
    perm.push_back(i);
  return gb.op("Transpose", {v}, {gb.attr("perm", perm)});
}

/// `v` [N, C, s...] with its channels split into g groups and its spatial
/// dims flattened: [N, g, C/g, prod(s)].
Value splitGroups(GradientBuilder &gb, Value v, int64_t g) {
  int64_t c = rankedOf(v).getDimSize(1);
  return gb.op("Reshape", {v, gb.i64s({0, g, c / g, -1})});
}

/// A [N, Ca, s...] as the "input" of a weight-gradient convolution with g
/// groups: [Ca/g, g*N, s...] (group j's channels as the batch, the images
/// as the channels of group j).
Value asWgradInput(GradientBuilder &gb, Value a, int64_t g) {
  if (g == 1)
    return swapBatchAndChannels(gb, a);
  auto t = rankedOf(a);
  int64_t rank = t.getRank(), ca = t.getDimSize(1);
  Value tr = gb.op("Transpose", {splitGroups(gb, a, g)},
                   {gb.attr("perm", ArrayRef<int64_t>{2, 1, 0, 3})});
  Value n = t.isDynamicDim(0)
                ? gb.mul(dimsOf(gb, a, 0, 1), gb.i64s({g}))
                : gb.i64s({g * t.getDimSize(0)});
  return gb.op("Reshape", {tr, concat(gb, {gb.i64s({ca / g}), n,
                                           dimsOf(gb, a, 2, rank)})});
}

/// B [N, Cb, s...] as the "kernel" of a weight-gradient convolution with g
/// groups: [Cb, N, s...] (channel j*Cb/g + c reads the images).
Value asWgradKernel(GradientBuilder &gb, Value bv, int64_t g) {
  if (g == 1)
    return swapBatchAndChannels(gb, bv);
  auto t = rankedOf(bv);
  int64_t rank = t.getRank(), cb = t.getDimSize(1);
  Value tr = gb.op("Transpose", {splitGroups(gb, bv, g)},
                   {gb.attr("perm", ArrayRef<int64_t>{1, 2, 0, 3})});
  return gb.op("Reshape", {tr, concat(gb, {gb.i64s({cb}), dimsOf(gb, bv, 0, 1),
                                           dimsOf(gb, bv, 2, rank)})});
}

/// The weight gradient sum_{n, i} A[n, a, i*s + k*d - pb] B[n, b, i] as a
/// grouped convolution (see the header), in the forward weights' layout
/// [Cb, Ca/g, k...] after slicing the convolution's spatial dims to `w`'s.
Value weightGradient(GradientBuilder &gb, Value a, Value bv, Value w,
                     const Geometry &geo, ArrayRef<int64_t> pb,
                     ArrayRef<int64_t> pe) {
  SmallVector<int64_t> pads(pb.begin(), pb.end());
  pads.append(pe.begin(), pe.end());
  Value conv = gb.op("Conv", {asWgradInput(gb, a, geo.group),
                              asWgradKernel(gb, bv, geo.group), gb.none()},
                     {gb.attr("strides", geo.dilations),
                      gb.attr("dilations", geo.strides),
                      gb.attr("pads", pads), gb.attr("group", geo.group)});
  if (!conv)
    return {};
  // [Ca/g, Cb, k'...] with k' >= k: the first k.
  auto ct = rankedOf(conv), wt = rankedOf(w);
  bool same = true;
  for (int64_t i = 0; i < geo.r; ++i)
    same &= !ct.isDynamicDim(2 + i) &&
            ct.getDimSize(2 + i) == wt.getDimSize(2 + i);
  if (!same) {
    SmallVector<int64_t> axes;
    for (int64_t i = 0; i < geo.r; ++i)
      axes.push_back(2 + i);
    conv = gb.op("Slice", {conv, gb.i64s(SmallVector<int64_t>(geo.r, 0)),
                           dimsOf(gb, w, 2, 2 + geo.r), gb.i64s(axes),
                           gb.none()});
  }
  SmallVector<int64_t> perm{1, 0};
  for (int64_t i = 0; i < geo.r; ++i)
    perm.push_back(2 + i);
  Value dw = gb.op("Transpose", {conv}, {gb.attr("perm", perm)});
  // Symbolic kernel dims may come out unnamed: give W's type.
  return dw && dw.getType() != w.getType() && wt.hasStaticShape()
             ? gb.op("Reshape", {dw, gb.i64s(wt.getShape())})
             : dw;
}

/// dB: G summed over the batch and spatial dims.
Value biasGradient(GradientBuilder &gb, Value g) {
  SmallVector<int64_t> axes{0};
  for (int64_t i = 2; i < rankedOf(g).getRank(); ++i)
    axes.push_back(i);
  return gb.op("ReduceSum", {g, gb.i64s(axes)},
               {gb.attr("keepdims", (int64_t)0)});
}

LogicalResult checkRanked(Operation *op) {
  for (unsigned k = 0; k < 2; ++k)
    if (!rankedOf(op->getOperand(k)) || rankedOf(op->getOperand(k)).getRank() < 3)
      return op->emitError("autodiff: a convolution of unranked or rank < 3 "
                           "operands");
  return success();
}

LogicalResult gradConv(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  if (failed(checkRanked(op)))
    return failure();
  Value x = op->getOperand(0), w = op->getOperand(1), g = dy[0];
  auto xt = rankedOf(x);
  int64_t r = xt.getRank() - 2;
  Geometry geo = readGeometry(op, r);
  StringRef autoPad = autoPadOf(op);
  SmallVector<int64_t> extent(r), outPad(r, 0);
  bool staticIn = true;
  for (int64_t i = 0; i < r; ++i) {
    int64_t k = kernelSize(op, w, i);
    extent[i] = k < 0 ? -1 : (k - 1) * geo.dilations[i] + 1;
    staticIn &= !xt.isDynamicDim(2 + i) && k >= 0;
  }
  if (autoPad == "VALID") {
    geo.pb.assign(r, 0);
    geo.pe.assign(r, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    if (!staticIn)
      return op->emitError("autodiff: Conv with auto_pad ")
             << autoPad << " needs static spatial and kernel sizes";
    for (int64_t i = 0; i < r; ++i) {
      int64_t in = xt.getDimSize(2 + i), s = geo.strides[i];
      int64_t out = (in + s - 1) / s;
      int64_t total = std::max<int64_t>(0, (out - 1) * s + extent[i] - in);
      int64_t half = total / 2;
      geo.pb[i] = autoPad == "SAME_UPPER" ? half : total - half;
      geo.pe[i] = total - geo.pb[i];
    }
  }
  // dX: the transposed convolution of G.
  SmallVector<int64_t> pads(geo.pb);
  pads.append(geo.pe.begin(), geo.pe.end());
  if (staticIn)
    for (int64_t i = 0; i < r; ++i)
      outPad[i] = (xt.getDimSize(2 + i) + geo.pb[i] + geo.pe[i] - extent[i]) %
                  geo.strides[i];
  Value dx = gb.op("ConvTranspose", {g, w, gb.none()},
                   {gb.attr("strides", geo.strides),
                    gb.attr("dilations", geo.dilations),
                    gb.attr("pads", pads), gb.attr("group", geo.group),
                    gb.attr("output_padding", outPad)});
  if (dx && !staticIn) {
    // The rows past the last window (fewer than a stride): zeros at the
    // end, counted at run time.
    Value rest = gb.sub(dimsOf(gb, x, 2, 2 + r), dimsOf(gb, dx, 2, 2 + r));
    dx = gb.op("Pad", {dx, concat(gb, {gb.i64s(SmallVector<int64_t>(r + 2, 0)),
                                       gb.i64s({0, 0}), rest}),
                       gb.none(), gb.none()});
    if (dx && dx.getType() != x.getType())
      dx = gb.op("Reshape", {dx, gb.shapeOf(x)});
  }
  accumulate(gb, grads, x, dx);
  accumulate(gb, grads, w, weightGradient(gb, x, g, w, geo, geo.pb, geo.pe));
  if (present(op, 2))
    accumulate(gb, grads, op->getOperand(2), biasGradient(gb, g));
  return success();
}

LogicalResult gradConvTranspose(Operation *op, ArrayRef<Value> dy,
                                GradientBuilder &gb, InputGrads &grads) {
  if (failed(checkRanked(op)))
    return failure();
  Value x = op->getOperand(0), w = op->getOperand(1), g = dy[0];
  auto xt = rankedOf(x);
  int64_t r = xt.getRank() - 2;
  Geometry geo = readGeometry(op, r);
  StringRef autoPad = autoPadOf(op);
  SmallVector<int64_t> outShape = intsAttr(op, "output_shape").value_or(
      SmallVector<int64_t>());
  if ((int64_t)outShape.size() == r + 2)
    outShape.erase(outShape.begin(), outShape.begin() + 2);
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  // Rows of G past the full transpose (output_shape or SAME larger than
  // it) read no input: cut them.
  SmallVector<int64_t> cut(r, -1);
  bool anyCut = false;
  if (!outShape.empty() || same) {
    for (int64_t i = 0; i < r; ++i) {
      int64_t k = kernelSize(op, w, i);
      if (xt.isDynamicDim(2 + i) || k < 0)
        return op->emitError("autodiff: ConvTranspose with output_shape or "
                             "auto_pad SAME needs static spatial and kernel "
                             "sizes");
      int64_t in = xt.getDimSize(2 + i), s = geo.strides[i];
      int64_t full =
          s * (in - 1) + geo.outPad[i] + (k - 1) * geo.dilations[i] + 1;
      int64_t out = outShape.empty() ? in * s : outShape[i];
      int64_t total = std::max<int64_t>(0, full - out);
      int64_t half = total / 2;
      geo.pb[i] = autoPad == "SAME_LOWER" ? total - half : half;
      geo.pe[i] = full - out - geo.pb[i];
      if (geo.pe[i] < 0) {
        cut[i] = out + geo.pe[i];
        geo.pe[i] = 0;
        anyCut = true;
      }
    }
  } else if (autoPad == "VALID") {
    geo.pb.assign(r, 0);
    geo.pe.assign(r, 0);
  }
  if (anyCut) {
    SmallVector<int64_t> starts, ends, axes;
    for (int64_t i = 0; i < r; ++i)
      if (cut[i] >= 0) {
        starts.push_back(0);
        ends.push_back(cut[i]);
        axes.push_back(2 + i);
      }
    g = slice(gb, g, starts, ends, axes);
  }
  SmallVector<int64_t> pads(geo.pb);
  pads.append(geo.pe.begin(), geo.pe.end());
  Value dx = gb.op("Conv", {g, w, gb.none()},
                   {gb.attr("strides", geo.strides),
                    gb.attr("dilations", geo.dilations),
                    gb.attr("pads", pads), gb.attr("group", geo.group)});
  if (dx && dx.getType() != x.getType() && !xt.hasStaticShape())
    dx = gb.op("Reshape", {dx, gb.shapeOf(x)});
  accumulate(gb, grads, x, dx);
  accumulate(gb, grads, w, weightGradient(gb, g, x, w, geo, geo.pb, geo.pe));
  if (present(op, 2))
    accumulate(gb, grads, op->getOperand(2), biasGradient(gb, dy[0]));
  return success();
}

} // namespace

void autodiff::registerConvGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.Conv"] = gradConv;
  rules["onnx.ConvTranspose"] = gradConvTranspose;
}

//===- RulesPooling.cpp - Gradients of the pooling ops --------------------===//
//
// MaxPool: the gradient goes to the maximum of each window (the first one,
//   as the forward's Indices output and PyTorch take it): G scatter-added
//   (ScatterElements, reduction add) at the Indices, flat positions in X.
//   When the forward does not output Indices, the rule makes it output
//   them (its absent second result gets its type; the lowering computes
//   them in the same pass over the windows).
// AveragePool: the adjoint of the window sums, G / count(o) spread back by
//   a depthwise ConvTranspose with a kernel of ones (same strides,
//   dilations and pads; count(o) = the taps of window o that count: in X,
//   or in X and its explicit pads with count_include_pad, as the lowering
//   counts them; a compile-time table, separable per spatial dim).
// GlobalAveragePool: G / (spatial size) expanded to X; GlobalMaxPool: G to
//   the elements equal to the maximum, split between ties (as ReduceMax).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

/// MaxPool: scatter G to the Indices.
LogicalResult gradMaxPool(Operation *op, ArrayRef<Value> dy,
                          GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0);
  auto xt = rankedOf(x), yt = rankedOf(y);
  if (!xt || !yt)
    return op->emitError("autodiff: a MaxPool of unranked tensors");
  Value indices = op->getResult(1);
  if (isa<NoneType>(indices.getType()))
    // The absent Indices output, made present: same shape as Y.
    indices.setType(RankedTensorType::get(yt.getShape(), gb.b.getI64Type(),
                                          yt.getEncoding()));
  int64_t rank = xt.getRank();
  bool columnMajor = getIntAttr(op, "storage_order", 0) == 1 && rank > 3;
  Value n = gb.op("Reshape", {gb.op("Size", {x}), gb.i64s({1})});
  Type et = eltOf(x);
  Value zeros = gb.op(
      "ConstantOfShape", {n},
      {gb.b.getNamedAttr("value", DenseElementsAttr::get(
                                      RankedTensorType::get({1}, et),
                                      gb.b.getFloatAttr(et, 0.0)))});
  Value flat = gb.op("ScatterElements",
                     {zeros, gb.op("Reshape", {indices, gb.i64s({-1})}),
                      gb.op("Reshape", {dy[0], gb.i64s({-1})})},
                     {gb.attr("axis", (int64_t)0),
                      gb.attr("reduction", StringRef("add"))});
  Value dx;
  if (!columnMajor) {
    dx = gb.op("Reshape", {flat, xt.hasStaticShape() ? gb.i64s(xt.getShape())
                                                     : gb.shapeOf(x)});
  } else {
    // Column-major spatial indices: the flat tensor is [N, C, reversed
    // spatial dims]; transpose them back.
    Value shape = gb.shapeOf(x);
    SmallVector<int64_t> rev{0, 1};
    for (int64_t i = rank - 1; i >= 2; --i)
      rev.push_back(i);
    Value revShape = gb.op("Gather", {shape, gb.i64s(rev)},
                           {gb.attr("axis", (int64_t)0)});
    dx = gb.op("Transpose", {gb.op("Reshape", {flat, revShape})},
               {gb.attr("perm", rev)});
  }
  if (dx && dx.getType() != x.getType() && xt.hasStaticShape())
    dx = gb.op("Reshape", {dx, gb.i64s(xt.getShape())});
  accumulate(gb, grads, x, dx);
  return success();
}

/// AveragePool: G / count spread back over each window.
LogicalResult gradAveragePool(Operation *op, ArrayRef<Value> dy,
                              GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), g = dy[0];
  auto xt = rankedOf(x);
  if (!xt || xt.getRank() < 3)
    return op->emitError("autodiff: an AveragePool of an unranked tensor");
  int64_t r = xt.getRank() - 2;
  auto kernel = intsAttr(op, "kernel_shape");
  if (!kernel || (int64_t)kernel->size() != r)
    return op->emitError("autodiff: AveragePool without kernel_shape");
  SmallVector<int64_t> s =
      intsAttr(op, "strides").value_or(SmallVector<int64_t>(r, 1));
  SmallVector<int64_t> d =
      intsAttr(op, "dilations").value_or(SmallVector<int64_t>(r, 1));
  SmallVector<int64_t> pads =
      intsAttr(op, "pads").value_or(SmallVector<int64_t>(2 * r, 0));
  auto ap = op->getAttrOfType<StringAttr>("auto_pad");
  StringRef autoPad = ap ? ap.getValue() : "NOTSET";
  bool ceil = getIntAttr(op, "ceil_mode", 0) != 0;
  bool includePad = getIntAttr(op, "count_include_pad", 0) != 0;
  if (xt.isDynamicDim(1))
    return op->emitError("autodiff: AveragePool needs a static channel count");
  for (int64_t i = 0; i < r; ++i)
    if (xt.isDynamicDim(2 + i))
      return op->emitError("autodiff: AveragePool needs static spatial sizes");
  // The geometry as the lowering resolves it (Window.cpp).
  SmallVector<int64_t> pb(r), pe(r), out(r), in(r), extent(r);
  for (int64_t i = 0; i < r; ++i) {
    in[i] = xt.getDimSize(2 + i);
    extent[i] = ((*kernel)[i] - 1) * d[i] + 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      out[i] = (in[i] + s[i] - 1) / s[i];
      int64_t total =
          std::max<int64_t>(0, (out[i] - 1) * s[i] + extent[i] - in[i]);
      int64_t half = total / 2;
      pb[i] = autoPad == "SAME_UPPER" ? half : total - half;
      pe[i] = total - pb[i];
    } else {
      bool valid = autoPad == "VALID";
      pb[i] = valid ? 0 : pads[i];
      pe[i] = valid ? 0 : pads[r + i];
      int64_t span = in[i] + pb[i] + pe[i] - extent[i];
      if (ceil) {
        out[i] = (span + s[i] - 1) / s[i] + 1;
        if ((out[i] - 1) * s[i] >= in[i] + pb[i])
          --out[i];
      } else {
        out[i] = span / s[i] + 1;
      }
    }
  }
  // 1 / count(o) as a [1, 1, out...] table, the product of per-dim counts.
  SmallVector<SmallVector<int64_t>> counts(r);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t o = 0; o < out[i]; ++o) {
      int64_t lo = includePad ? -pb[i] : 0, hi = in[i] + (includePad ? pe[i] : 0);
      int64_t c = 0;
      for (int64_t k = 0; k < (*kernel)[i]; ++k) {
        int64_t p = o * s[i] + k * d[i] - pb[i];
        c += p >= lo && p < hi;
      }
      counts[i].push_back(c);
    }
  int64_t total = 1;
  for (int64_t o : out)
    total *= o;
  SmallVector<double> inv(total);
  for (int64_t f = 0; f < total; ++f) {
    int64_t rest = f, c = 1;
    for (int64_t i = r - 1; i >= 0; --i) {
      c *= counts[i][rest % out[i]];
      rest /= out[i];
    }
    inv[f] = c ? 1.0 / c : 0.0;
  }
  Type et = eltOf(x);
  SmallVector<int64_t> tshape{1, 1};
  tshape.append(out.begin(), out.end());
  auto ttype = RankedTensorType::get(tshape, et);
  SmallVector<Attribute> vals;
  for (double v : inv)
    vals.push_back(gb.b.getFloatAttr(et, v));
  OperationState st(gb.loc, "onnx.Constant");
  st.addAttribute("value", DenseElementsAttr::get(ttype, vals));
  st.addTypes(ttype);
  Value invCount = gb.b.create(st)->getResult(0);
  // The window sums' adjoint: a depthwise ConvTranspose with ones. The
  // end padding covers a ceil-mode window past the explicit pads; the
  // output padding, the rows after the last window.
  int64_t c = xt.getDimSize(1);
  SmallVector<int64_t> kshape{c, 1};
  kshape.append(kernel->begin(), kernel->end());
  auto ktype = RankedTensorType::get(kshape, et);
  OperationState ks(gb.loc, "onnx.Constant");
  ks.addAttribute("value", DenseElementsAttr::get(
                               ktype, gb.b.getFloatAttr(et, 1.0)));
  ks.addTypes(ktype);
  Value ones = gb.b.create(ks)->getResult(0);
  SmallVector<int64_t> tpads(r), tpe(r), outPad(r);
  for (int64_t i = 0; i < r; ++i) {
    int64_t full = s[i] * (out[i] - 1) + extent[i];
    tpe[i] = std::max<int64_t>(0, full - pb[i] - in[i]);
    outPad[i] = in[i] - (full - pb[i] - tpe[i]);
  }
  SmallVector<int64_t> allPads(pb);
  allPads.append(tpe.begin(), tpe.end());
  Value dx = gb.op("ConvTranspose", {gb.mul(g, invCount), ones, gb.none()},
                   {gb.attr("strides", s), gb.attr("dilations", d),
                    gb.attr("pads", allPads), gb.attr("group", c),
                    gb.attr("output_padding", outPad)});
  if (dx && dx.getType() != x.getType())
    dx = gb.op("Reshape", {dx, gb.shapeOf(x)});
  accumulate(gb, grads, x, dx);
  return success();
}

/// The spatial axes [2, rank).
SmallVector<int64_t> spatialAxes(Value x) {
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < rankedOf(x).getRank(); ++i)
    axes.push_back(i);
  return axes;
}

LogicalResult gradGlobalAveragePool(Operation *op, ArrayRef<Value> dy,
                                    GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  if (!rankedOf(x))
    return op->emitError("autodiff: a pool of an unranked tensor");
  Value n = gb.div(gb.op("Cast", {gb.op("Size", {x})}, {gb.attr("to", (int64_t)1)}),
                   gb.op("Cast", {gb.op("Size", {op->getResult(0)})},
                         {gb.attr("to", (int64_t)1)}));
  Value dx = gb.op("Expand", {gb.div(dy[0], gb.castLike(n, x)), gb.shapeOf(x)});
  accumulate(gb, grads, x, dx);
  return success();
}

LogicalResult gradGlobalMaxPool(Operation *op, ArrayRef<Value> dy,
                                GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0);
  if (!rankedOf(x))
    return op->emitError("autodiff: a pool of an unranked tensor");
  Value hit = gb.castLike(
      gb.op("Cast", {gb.op("Equal", {x, y})}, {gb.attr("to", (int64_t)1)}), x);
  Value count = gb.op("ReduceSum", {hit, gb.i64s(spatialAxes(x))},
                      {gb.attr("keepdims", (int64_t)1)});
  accumulate(gb, grads, x, gb.mul(hit, gb.div(dy[0], count)));
  return success();
}

} // namespace

void autodiff::registerPoolingGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.MaxPool"] = gradMaxPool;
  rules["onnx.AveragePool"] = gradAveragePool;
  rules["onnx.GlobalAveragePool"] = gradGlobalAveragePool;
  rules["onnx.GlobalMaxPool"] = gradGlobalMaxPool;
}

//===- RulesTensor.cpp - Gradients of shape and data-movement ops ---------===//
//
// Ops that only move data have gradients that move it back:
//   Reshape, Flatten, Squeeze, Unsqueeze: the gradient reshaped to the
//     input's shape;
//   Transpose: transposed by the inverse permutation;
//   Expand: summed back over the broadcast dims;
//   Concat: sliced per input; Split: the outputs' gradients concatenated
//     (zeros for an output no gradient reaches); Trilu: Trilu of the gradient;
//   every other mover (Slice, Gather, GatherElements, GatherND, Pad, Tile,
//     DepthToSpace, SpaceToDepth, ReverseSequence, Compress): "scatterBack", the
//     op applied to the flat positions of its input (an iota of the input's
//     shape) tells which input element each result element came from, and
//     the gradient is scatter-added there (repeated reads sum).
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

Value reshapeLike(GradientBuilder &gb, Value g, Value x) {
  auto xt = cast<RankedTensorType>(x.getType());
  if (g.getType() == x.getType())
    return g;
  return gb.op("Reshape", {g, xt.hasStaticShape() ? gb.i64s(xt.getShape())
                                                  : gb.shapeOf(x)});
}

LogicalResult gradReshapeLike(Operation *op, ArrayRef<Value> dy,
                              GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  if (!isa<RankedTensorType>(x.getType()))
    return op->emitError("autodiff: a reshape of an unranked tensor");
  accumulate(gb, grads, x, reshapeLike(gb, dy[0], x));
  return success();
}

LogicalResult gradTranspose(Operation *op, ArrayRef<Value> dy,
                            GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  if (!xt)
    return op->emitError("autodiff: a transpose of an unranked tensor");
  int64_t r = xt.getRank();
  SmallVector<int64_t> perm;
  if (auto p = intsAttr(op, "perm"))
    perm = *p;
  else
    for (int64_t i = r - 1; i >= 0; --i)
      perm.push_back(i);
  SmallVector<int64_t> inverse(r);
  for (int64_t i = 0; i < r; ++i)
    inverse[perm[i]] = i;
  accumulate(gb, grads, x,
             gb.op("Transpose", {dy[0]}, {gb.attr("perm", inverse)}));
  return success();
}

LogicalResult gradExpand(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value x = op->getOperand(0);
  accumulate(gb, grads, x, gb.sumToShapeOf(dy[0], x));
  return success();
}

/// The gradient of input `dataIndex` of the data mover `op` (result
/// `resultIndex`), by scattering the result's gradient back to where each
/// element came from.
Value scatterBack(Operation *op, unsigned dataIndex, unsigned resultIndex,
                  Value g, GradientBuilder &gb) {
  Value x = op->getOperand(dataIndex);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  if (!xt) {
    op->emitError("autodiff: a data movement of an unranked tensor");
    gb.failed = true;
    return {};
  }
  Type i64 = gb.b.getI64Type();
  Value n = gb.op("Size", {x});
  Value iota = gb.op("Reshape", {gb.op("Range", {gb.scalar(0, i64), n,
                                                 gb.scalar(1, i64)}),
                                 gb.shapeOf(x)});
  // The op again, on the positions. A padding value becomes -1 (no source
  // element): those positions land in a spare slot past the end.
  SmallVector<Value> operands(op->getOperands());
  operands[dataIndex] = iota;
  StringRef name = op->getName().getStringRef();
  bool padded = name == "onnx.Pad";
  if (padded) {
    if (operands.size() < 3)
      operands.resize(3, gb.none());
    operands[2] = gb.scalar(-1, i64);
  }
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  Operation *again = gb.create(name.drop_front(5), operands, attrs,
                               op->getNumResults());
  if (!again)
    return {};
  Value pos = gb.op("Reshape", {again->getResult(resultIndex), gb.i64s({-1})});
  Value flatG = gb.op("Reshape", {g, gb.i64s({-1})});
  Value slots = gb.op("Reshape", {n, gb.i64s({1})});
  if (padded) {
    slots = gb.add(slots, gb.i64s({1}));
    pos = gb.op("Where", {gb.op("Less", {pos, gb.scalar(0, i64)}), n, pos});
  }
  Type et = getElementTypeOrSelf(g.getType());
  Value zeros = gb.op(
      "ConstantOfShape", {slots},
      {gb.b.getNamedAttr("value", DenseElementsAttr::get(
                                      RankedTensorType::get({1}, et),
                                      gb.b.getFloatAttr(et, 0.0)))});
  Value sum = gb.op("ScatterElements", {zeros, pos, flatG},
                    {gb.attr("axis", (int64_t)0),
                     gb.attr("reduction", StringRef("add"))});
  if (padded)
    sum = gb.op("Slice", {sum, gb.i64s({0}), gb.op("Reshape", {n, gb.i64s({1})}),
                          gb.none(), gb.none()});
  return reshapeLike(gb, sum, x);
}

/// Data movers of input 0 (the other inputs are indices, shapes, pads).
LogicalResult gradMover(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  accumulate(gb, grads, op->getOperand(0),
             scatterBack(op, 0, 0, dy[0], gb));
  return success();
}

/// Concat: input k's gradient is its slice of the result's along `axis`.
LogicalResult gradConcat(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  auto yt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!yt)
    return op->emitError("autodiff: a concatenation of unranked tensors");
  int64_t axis = getIntAttr(op, "axis", 0);
  if (axis < 0)
    axis += yt.getRank();
  Value offset = gb.i64s({0});
  for (Value in : op->getOperands()) {
    Value len = gb.op("Slice", {gb.shapeOf(in), gb.i64s({axis}),
                                gb.i64s({axis + 1}), gb.none(), gb.none()});
    Value end = gb.add(offset, len);
    accumulate(gb, grads, in,
               gb.op("Slice", {dy[0], offset, end, gb.i64s({axis}), gb.none()}));
    offset = end;
  }
  return success();
}

/// Split: the outputs' gradients concatenated (zeros for those none
/// reaches).
LogicalResult gradSplit(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  SmallVector<Value> parts;
  for (auto [k, g] : llvm::enumerate(dy))
    parts.push_back(g ? g : gb.filledLike(op->getResult(k), 0.0));
  accumulate(gb, grads, op->getOperand(0),
             gb.op("Concat", parts, {gb.attr("axis", getIntAttr(op, "axis", 0))}));
  return success();
}

/// Trilu keeps a triangle and zeroes the rest: the gradient likewise.
LogicalResult gradTrilu(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  SmallVector<Value> operands(op->getOperands());
  operands[0] = dy[0];
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  accumulate(gb, grads, op->getOperand(0), gb.op("Trilu", operands, attrs));
  return success();
}

} // namespace

void autodiff::registerTensorGradients(llvm::StringMap<GradientRule> &rules) {
  for (StringRef n : {"onnx.Reshape", "onnx.Flatten", "onnx.Squeeze",
                      "onnx.Unsqueeze"})
    rules[n] = gradReshapeLike;
  rules["onnx.Transpose"] = gradTranspose;
  rules["onnx.Expand"] = gradExpand;
  rules["onnx.Concat"] = gradConcat;
  rules["onnx.Split"] = gradSplit;
  for (StringRef n : {"onnx.Slice", "onnx.Gather", "onnx.GatherElements",
                      "onnx.GatherND", "onnx.Pad", "onnx.Tile",
                      "onnx.DepthToSpace", "onnx.SpaceToDepth",
                      "onnx.ReverseSequence", "onnx.Compress"})
    rules[n] = gradMover;
  rules["onnx.Trilu"] = gradTrilu;
}

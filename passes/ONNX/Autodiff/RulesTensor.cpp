//===- RulesTensor.cpp - Gradients of shape and data-movement ops ---------===//
//
// Ops that only move data have gradients that move it back:
//   Reshape, Flatten, Squeeze, Unsqueeze: the gradient reshaped to the
//     input's shape; ConstantOfShape: none (its input is a shape);
//   Transpose: transposed by the inverse permutation;
//   Expand: summed back over the broadcast dims;
//   Concat: sliced per input; Split: the outputs' gradients concatenated
//     (zeros for an output no gradient reaches); Trilu: Trilu of the gradient;
//   Slice with unit steps over static dims: G padded back with zeros; Pad
//     (constant mode): Pad of G by the negated pads; Tile: G summed over the
//     repeats; DepthToSpace / SpaceToDepth / ReverseSequence: the inverse
//     permutation; Gather (axis 0), GatherElements, GatherND (no batch
//     dims): G scatter-added at the same indices (ScatterND /
//     ScatterElements, reduction add);
//   every other mover (other Slices, Gathers, GatherNDs and Pads, Compress):
//     "scatterBack", the op applied to the flat positions of its input (an
//     iota of the input's shape) tells which input element each result
//     element came from, and the gradient is scatter-added there (repeated
//     reads sum).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>

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

/// Slice with unit steps and known bounds over static dims: the gradient
/// is G padded back with zeros (one Pad, no scatter). Other slices scatter
/// back.
LogicalResult gradSlice(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                        InputGrads &grads) {
  Value x = op->getOperand(0);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  auto known = [&](unsigned k) -> std::optional<SmallVector<int64_t>> {
    if (op->getNumOperands() <= k || isa<NoneType>(op->getOperand(k).getType()))
      return std::nullopt;
    return gb.state.getImpl().getKnownInts(op->getOperand(k));
  };
  auto starts = known(1), ends = known(2), axes = known(3), steps = known(4);
  bool hasAxes = op->getNumOperands() > 3 &&
                 !isa<NoneType>(op->getOperand(3).getType());
  bool hasSteps = op->getNumOperands() > 4 &&
                  !isa<NoneType>(op->getOperand(4).getType());
  bool padded = xt && starts && ends && (!hasAxes || axes) &&
                (!hasSteps || steps);
  if (padded && steps)
    padded = llvm::all_of(*steps, [](int64_t s) { return s == 1; });
  SmallVector<int64_t> pads;
  if (padded) {
    int64_t rank = xt.getRank();
    pads.assign(2 * rank, 0);
    for (size_t i = 0; i < starts->size() && padded; ++i) {
      int64_t a = axes ? (*axes)[i] : (int64_t)i;
      a = a < 0 ? a + rank : a;
      if (a < 0 || a >= rank || xt.isDynamicDim(a)) {
        padded = false;
        break;
      }
      int64_t dim = xt.getDimSize(a);
      auto clampIndex = [&](int64_t v) {
        v = v < 0 ? v + dim : v;
        return std::clamp<int64_t>(v, 0, dim);
      };
      int64_t b = clampIndex((*starts)[i]), e = clampIndex((*ends)[i]);
      pads[a] = b;
      pads[rank + a] = dim - std::max(b, e);
    }
  }
  if (!padded) {
    accumulate(gb, grads, x, scatterBack(op, 0, 0, dy[0], gb));
    return success();
  }
  accumulate(gb, grads, x,
             gb.op("Pad", {dy[0], gb.i64s(pads), gb.none(), gb.none()}));
  return success();
}

/// Gather along axis 0 (embedding tables): G scatter-added to the rows the
/// indices name (ScatterND, reduction add; negative indices wrapped).
/// Other axes scatter back.
LogicalResult gradGather(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value x = op->getOperand(0), idx = op->getOperand(1);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  int64_t axis = getIntAttr(op, "axis", 0);
  if (!xt || (axis != 0 && axis != -xt.getRank())) {
    accumulate(gb, grads, x, scatterBack(op, 0, 0, dy[0], gb));
    return success();
  }
  Type i64 = gb.b.getI64Type();
  if (getElementTypeOrSelf(idx.getType()) != i64)
    idx = gb.op("Cast", {idx}, {gb.attr("to", (int64_t)7)});
  Value rows = gb.op("Reshape", {gb.op("Slice", {gb.shapeOf(x), gb.i64s({0}),
                                                 gb.i64s({1}), gb.none(),
                                                 gb.none()}),
                                 gb.i64s({})});
  idx = gb.op("Where", {gb.op("Less", {idx, gb.scalar(0, i64)}),
                        gb.add(idx, rows), idx});
  Value zeros = gb.filledLike(x, 0.0);
  accumulate(gb, grads, x,
             gb.op("ScatterND", {zeros, gb.op("Unsqueeze", {idx, gb.i64s({-1})}),
                                 dy[0]},
                   {gb.attr("reduction", StringRef("add"))}));
  return success();
}

/// Pad, constant mode: Pad of the gradient by the negated pads (a crop where
/// the forward padded, zeros where it cropped). Other modes read elements
/// more than once: scatter back.
LogicalResult gradPad(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                      InputGrads &grads) {
  Value x = op->getOperand(0);
  auto mode = op->getAttrOfType<StringAttr>("mode");
  if (mode && mode.getValue() != "constant") {
    accumulate(gb, grads, x, scatterBack(op, 0, 0, dy[0], gb));
    return success();
  }
  Value axes = op->getNumOperands() > 3 ? op->getOperand(3) : gb.none();
  Value dx = gb.op("Pad", {dy[0], gb.neg(op->getOperand(1)), gb.none(), axes});
  if (dx && dx.getType() != x.getType())
    dx = reshapeLike(gb, dx, x);
  accumulate(gb, grads, x, dx);
  return success();
}

/// Tile: G as [r0, d0, r1, d1, ...] summed over the repeats.
LogicalResult gradTile(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value x = op->getOperand(0), reps = op->getOperand(1);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  if (!xt)
    return op->emitError("autodiff: a Tile of an unranked tensor");
  int64_t rank = xt.getRank();
  if (rank == 0) {
    accumulate(gb, grads, x, dy[0]);
    return success();
  }
  Value pairs = gb.op("Concat", {gb.op("Unsqueeze", {reps, gb.i64s({1})}),
                                 gb.op("Unsqueeze", {gb.shapeOf(x),
                                                     gb.i64s({1})})},
                      {gb.attr("axis", (int64_t)1)});
  Value split = gb.op("Reshape", {dy[0], gb.op("Reshape", {pairs,
                                                          gb.i64s({-1})})});
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < rank; ++i)
    axes.push_back(2 * i);
  Value dx = gb.op("ReduceSum", {split, gb.i64s(axes)},
                   {gb.attr("keepdims", (int64_t)0)});
  accumulate(gb, grads, x, dx ? reshapeLike(gb, dx, x) : dx);
  return success();
}

/// DepthToSpace and SpaceToDepth permute elements: the gradient is the
/// inverse permutation (SpaceToDepth of G for DCR DepthToSpace, DCR
/// DepthToSpace of G for SpaceToDepth; for CRD a Reshape-Transpose-Reshape
/// with static C, H, W).
LogicalResult gradDepthSpace(Operation *op, ArrayRef<Value> dy,
                             GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  int64_t b = getIntAttr(op, "blocksize", 1);
  auto mode = op->getAttrOfType<StringAttr>("mode");
  bool toSpace = op->getName().getStringRef() == "onnx.DepthToSpace";
  Value dx;
  if (!toSpace) {
    dx = gb.op("DepthToSpace", {dy[0]},
               {gb.attr("blocksize", b), gb.attr("mode", StringRef("DCR"))});
  } else if (!mode || mode.getValue() == "DCR") {
    dx = gb.op("SpaceToDepth", {dy[0]}, {gb.attr("blocksize", b)});
  } else {
    auto xt = dyn_cast<RankedTensorType>(x.getType());
    if (!xt || xt.getRank() != 4 || xt.isDynamicDim(1) || xt.isDynamicDim(2) ||
        xt.isDynamicDim(3)) {
      accumulate(gb, grads, x, scatterBack(op, 0, 0, dy[0], gb));
      return success();
    }
    int64_t c = xt.getDimSize(1) / (b * b), h = xt.getDimSize(2),
            w = xt.getDimSize(3);
    Value split = gb.op("Reshape", {dy[0], gb.i64s({0, c, h, b, w, b})});
    Value tr = gb.op("Transpose", {split},
                     {gb.attr("perm", ArrayRef<int64_t>{0, 1, 3, 5, 2, 4})});
    dx = gb.op("Reshape", {tr, gb.i64s({0, c * b * b, h, w})});
  }
  accumulate(gb, grads, x, dx ? reshapeLike(gb, dx, x) : dx);
  return success();
}

/// ReverseSequence is its own inverse.
LogicalResult gradReverseSequence(Operation *op, ArrayRef<Value> dy,
                                  GradientBuilder &gb, InputGrads &grads) {
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  accumulate(gb, grads, op->getOperand(0),
             gb.op("ReverseSequence", {dy[0], op->getOperand(1)}, attrs));
  return success();
}

/// GatherElements: G scatter-added at the same indices.
LogicalResult gradGatherElements(Operation *op, ArrayRef<Value> dy,
                                 GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  accumulate(gb, grads, x,
             gb.op("ScatterElements",
                   {gb.filledLike(x, 0.0), op->getOperand(1), dy[0]},
                   {gb.attr("axis", getIntAttr(op, "axis", 0)),
                    gb.attr("reduction", StringRef("add"))}));
  return success();
}

/// GatherND without batch dims: G scatter-added at the same indices
/// (ScatterND); with batch dims, scatter back.
LogicalResult gradGatherND(Operation *op, ArrayRef<Value> dy,
                           GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0);
  if (getIntAttr(op, "batch_dims", 0) != 0) {
    accumulate(gb, grads, x, scatterBack(op, 0, 0, dy[0], gb));
    return success();
  }
  accumulate(gb, grads, x,
             gb.op("ScatterND", {gb.filledLike(x, 0.0), op->getOperand(1), dy[0]},
                   {gb.attr("reduction", StringRef("add"))}));
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

/// ConstantOfShape: its float result reads only a shape (an integer
/// input): nothing to differentiate.
LogicalResult gradNothing(Operation *, ArrayRef<Value>, GradientBuilder &,
                          InputGrads &) {
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
  rules["onnx.Slice"] = gradSlice;
  rules["onnx.Gather"] = gradGather;
  rules["onnx.Pad"] = gradPad;
  rules["onnx.Tile"] = gradTile;
  rules["onnx.DepthToSpace"] = gradDepthSpace;
  rules["onnx.SpaceToDepth"] = gradDepthSpace;
  rules["onnx.ReverseSequence"] = gradReverseSequence;
  rules["onnx.GatherElements"] = gradGatherElements;
  rules["onnx.GatherND"] = gradGatherND;
  rules["onnx.Compress"] = gradMover;
  rules["onnx.Trilu"] = gradTrilu;
  rules["onnx.ConstantOfShape"] = gradNothing;
}

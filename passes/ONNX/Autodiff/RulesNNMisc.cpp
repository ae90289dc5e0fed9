//===- RulesNNMisc.cpp - Gradients of Dropout, CumSum, Resize, TopK -------===//
//
// Dropout: the identity without training_mode (or a false one); in
//   training mode dX = G * mask / (1 - ratio) with the forward's mask (its
//   absent mask output is made present: the same draw), and with a
//   training_mode known only at run time a Where between the two.
// CumSum: the cumulative sum of G in the other direction, exclusive as the
//   forward.
// Resize: linear in X and separable: along each resized axis d it is a
//   matrix A_d [out_d, in_d]; the rule builds A_d^T as the Resize of an
//   identity [in_d, in_d] along its second axis (same mode, coordinate
//   transformation, rounding, cubic coefficient, antialias, scale or size),
//   and dX = G contracted with A_d^T over each resized axis (MatMul). Every
//   mode (nearest, linear, cubic) this way; needs static resized dims,
//   known scales or sizes; tf_crop_and_resize and aspect-ratio policies
//   other than stretch have no rule.
// TopK: G scatter-added to X at the Indices output.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

LogicalResult gradDropout(Operation *op, ArrayRef<Value> dy,
                          GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), g = dy[0];
  if (!present(op, 2)) {
    accumulate(gb, grads, x, g);
    return success();
  }
  Value training = op->getOperand(2);
  auto known = gb.state.getImpl().getKnownInts(training);
  if (known && known->size() == 1 && (*known)[0] == 0) {
    accumulate(gb, grads, x, g);
    return success();
  }
  auto xt = rankedOf(x);
  if (!xt)
    return op->emitError("autodiff: a Dropout of an unranked tensor");
  Value mask = op->getResult(1);
  if (isa<NoneType>(mask.getType()))
    mask.setType(RankedTensorType::get(xt.getShape(), gb.b.getI1Type(),
                                       xt.getEncoding()));
  Type et = eltOf(x);
  Value ratio = present(op, 1) ? gb.castLike(op->getOperand(1), x)
                               : gb.scalar(0.5, et);
  Value scale = gb.op("Reciprocal", {gb.sub(gb.scalar(1.0, et), ratio)});
  Value dropped = gb.mul(gb.mul(g, gb.op("CastLike", {mask, x})), scale);
  if (!known)
    dropped = gb.op("Where", {training, dropped, g});
  accumulate(gb, grads, x, dropped);
  return success();
}

LogicalResult gradCumSum(Operation *op, ArrayRef<Value> dy,
                         GradientBuilder &gb, InputGrads &grads) {
  SmallVector<NamedAttribute> attrs;
  attrs.push_back(gb.attr("exclusive", getIntAttr(op, "exclusive", 0)));
  attrs.push_back(gb.attr("reverse", 1 - getIntAttr(op, "reverse", 0)));
  accumulate(gb, grads, op->getOperand(0),
             gb.op("CumSum", {dy[0], op->getOperand(1)}, attrs));
  return success();
}

LogicalResult gradResize(Operation *op, ArrayRef<Value> dy,
                         GradientBuilder &gb, InputGrads &grads) {
  Value x = op->getOperand(0), y = op->getResult(0);
  auto xt = rankedOf(x), yt = rankedOf(y);
  if (!xt || !yt)
    return op->emitError("autodiff: a Resize of unranked tensors");
  auto ctm = op->getAttrOfType<StringAttr>("coordinate_transformation_mode");
  if (ctm && ctm.getValue() == "tf_crop_and_resize")
    return op->emitError("autodiff: Resize with tf_crop_and_resize has no "
                         "gradient rule");
  auto policy = op->getAttrOfType<StringAttr>("keep_aspect_ratio_policy");
  if (policy && policy.getValue() != "stretch")
    return op->emitError("autodiff: Resize with keep_aspect_ratio_policy ")
           << policy.getValue() << " has no gradient rule";
  int64_t rank = xt.getRank();
  SmallVector<int64_t> axes = getAxesOrAll(op, rank);
  for (int64_t &a : axes)
    a = a < 0 ? a + rank : a;
  std::optional<SmallVector<double>> scales;
  std::optional<SmallVector<int64_t>> sizes;
  if (present(op, 3))
    sizes = gb.state.getImpl().getKnownInts(op->getOperand(3));
  else if (present(op, 2))
    scales = gb.state.getImpl().getKnownNumbers(op->getOperand(2));
  if ((!scales && !sizes) ||
      (scales ? scales->size() : sizes->size()) != axes.size())
    return op->emitError("autodiff: Resize needs scales or sizes known at "
                         "compile time to differentiate it");
  // The forward's attributes, for the 2-D resize of an identity.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "axes")
      attrs.push_back(a);
  Type et = eltOf(x);
  Value d = dy[0];
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t in = xt.getDimSize(axis), out = yt.getDimSize(axis);
    // Scale 1 is the identity (a symbolic batch dim, say).
    if (scales && (*scales)[i] == 1.0)
      continue;
    // Inference may leave out unknown; the spec's floor(in * scale).
    if (ShapedType::isDynamic(out) && !ShapedType::isDynamic(in))
      out = scales ? (int64_t)std::floor(in * (float)(*scales)[i])
                   : (*sizes)[i];
    if (ShapedType::isDynamic(in))
      return op->emitError("autodiff: Resize needs static resized dims");
    if (in == out && !scales)
      continue;
    // A_d^T [in, out]: row j is the resize of the unit vector e_j.
    auto eyeType = RankedTensorType::get({in, in}, et);
    SmallVector<Attribute> eye;
    for (int64_t r = 0; r < in; ++r)
      for (int64_t c = 0; c < in; ++c)
        eye.push_back(gb.b.getFloatAttr(et, r == c ? 1.0 : 0.0));
    OperationState st(gb.loc, "onnx.Constant");
    st.addAttribute("value", DenseElementsAttr::get(eyeType, eye));
    st.addTypes(eyeType);
    Value eyeV = gb.b.create(st)->getResult(0);
    Value sc = gb.none(), sz = gb.none();
    if (scales) {
      auto t = RankedTensorType::get({2}, gb.b.getF32Type());
      OperationState ss(gb.loc, "onnx.Constant");
      ss.addAttribute("value", DenseElementsAttr::get(
                                   t, ArrayRef<float>{1.0f, (float)(*scales)[i]}));
      ss.addTypes(t);
      sc = gb.b.create(ss)->getResult(0);
    } else {
      sz = gb.i64s({in, out});
    }
    Value at = gb.op("Resize", {eyeV, gb.none(), sc, sz}, attrs);
    // Contract G's axis with A_d^T: move the axis last, MatMul by A_d.
    SmallVector<int64_t> perm;
    for (int64_t k = 0; k < rank; ++k)
      if (k != axis)
        perm.push_back(k);
    perm.push_back(axis);
    SmallVector<int64_t> inverse(rank);
    for (int64_t k = 0; k < rank; ++k)
      inverse[perm[k]] = k;
    bool last = axis == rank - 1;
    Value moved = last ? d : gb.op("Transpose", {d}, {gb.attr("perm", perm)});
    Value a = gb.op("Transpose", {at}, {gb.attr("perm", ArrayRef<int64_t>{1, 0})});
    Value prod = gb.op("MatMul", {moved, a});
    d = last ? prod : gb.op("Transpose", {prod}, {gb.attr("perm", inverse)});
  }
  if (d && d.getType() != x.getType())
    d = gb.op("Reshape", {d, xt.hasStaticShape() ? gb.i64s(xt.getShape())
                                                 : gb.shapeOf(x)});
  accumulate(gb, grads, x, d);
  return success();
}

LogicalResult gradTopK(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value x = op->getOperand(0);
  accumulate(gb, grads, x,
             gb.op("ScatterElements",
                   {gb.filledLike(x, 0.0), op->getResult(1), dy[0]},
                   {gb.attr("axis", getIntAttr(op, "axis", -1)),
                    gb.attr("reduction", StringRef("add"))}));
  return success();
}

} // namespace

void autodiff::registerNNMiscGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.Dropout"] = gradDropout;
  rules["onnx.CumSum"] = gradCumSum;
  rules["onnx.Resize"] = gradResize;
  rules["onnx.TopK"] = gradTopK;
}

//===- GradientBuilder.cpp - Building gradients out of onnx ops -----------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

Operation *GradientBuilder::create(StringRef name, ValueRange operands,
                                   ArrayRef<NamedAttribute> attrs,
                                   unsigned numResults) {
  if (failed)
    return nullptr;
  for (Value v : operands)
    if (!v) {
      failed = true;
      return nullptr;
    }
  OperationState st(loc, ("onnx." + name).str());
  st.addOperands(operands);
  st.addAttributes(attrs);
  st.addTypes(SmallVector<Type>(numResults,
                                ONNX::UnknownType::get(b.getContext())));
  Operation *op = b.create(st);
  if (mlir::failed(ONNX::verifyONNXOp(op)) ||
      mlir::failed(inferOpTypes(op, state))) {
    failed = true;
    return nullptr;
  }
  for (Value r : op->getResults())
    if (isa<ONNX::UnknownType>(r.getType())) {
      emitError(loc) << "autodiff: cannot infer the type of a gradient op ("
                     << name << ")";
      failed = true;
      return nullptr;
    }
  return op;
}

Value GradientBuilder::op(StringRef name, ValueRange operands,
                          ArrayRef<NamedAttribute> attrs) {
  Operation *o = create(name, operands, attrs, 1);
  return o ? o->getResult(0) : Value();
}

NamedAttribute GradientBuilder::attr(StringRef name, int64_t v) {
  return b.getNamedAttr(name, b.getI64IntegerAttr(v));
}
NamedAttribute GradientBuilder::attr(StringRef name, float v) {
  return b.getNamedAttr(name, b.getF32FloatAttr(v));
}
NamedAttribute GradientBuilder::attr(StringRef name, ArrayRef<int64_t> v) {
  return b.getNamedAttr(name, b.getDenseI64ArrayAttr(v));
}
NamedAttribute GradientBuilder::attr(StringRef name, StringRef v) {
  return b.getNamedAttr(name, b.getStringAttr(v));
}

std::optional<SmallVector<int64_t>> autodiff::intsAttr(Operation *op,
                                                      StringRef name) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(a.asArrayRef());
  if (auto a = op->getAttrOfType<ArrayAttr>(name)) {
    SmallVector<int64_t> v;
    for (Attribute e : a)
      v.push_back(cast<IntegerAttr>(e).getInt());
    return v;
  }
  return std::nullopt;
}

Value GradientBuilder::none() {
  OperationState st(loc, "onnx.NoValue");
  st.addTypes(b.getNoneType());
  return b.create(st)->getResult(0);
}

static Value constantOf(GradientBuilder &gb, DenseElementsAttr value) {
  OperationState st(gb.loc, "onnx.Constant");
  st.addAttribute("value", value);
  st.addTypes(value.getType());
  return gb.b.create(st)->getResult(0);
}

Value GradientBuilder::scalar(double v, Type elt) {
  auto type = RankedTensorType::get({}, elt);
  if (auto f = dyn_cast<FloatType>(elt))
    return constantOf(*this, DenseElementsAttr::get(type, b.getFloatAttr(f, v)));
  return constantOf(*this, DenseElementsAttr::get(
                               type, b.getIntegerAttr(elt, (int64_t)v)));
}

Value GradientBuilder::i64s(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, b.getI64Type());
  return constantOf(*this, DenseElementsAttr::get(type, values));
}

Value GradientBuilder::filledLike(Value like, double v) {
  auto type = dyn_cast<RankedTensorType>(like.getType());
  if (!type) {
    emitError(loc) << "autodiff: a gradient of unranked type";
    failed = true;
    return {};
  }
  Type elt = type.getElementType();
  if (type.hasStaticShape()) {
    Attribute a = isa<FloatType>(elt)
                      ? Attribute(b.getFloatAttr(elt, v))
                      : Attribute(b.getIntegerAttr(elt, (int64_t)v));
    return constantOf(*this, DenseElementsAttr::get(
                                 RankedTensorType::get(type.getShape(), elt), a));
  }
  auto one = RankedTensorType::get({1}, elt);
  Attribute a = isa<FloatType>(elt)
                    ? Attribute(b.getFloatAttr(elt, v))
                    : Attribute(b.getIntegerAttr(elt, (int64_t)v));
  return op("ConstantOfShape", {shapeOf(like)},
            {b.getNamedAttr("value", DenseElementsAttr::get(one, a))});
}

Value GradientBuilder::castLike(Value v, Value like) {
  if (!v || getElementTypeOrSelf(v.getType()) ==
                getElementTypeOrSelf(like.getType()))
    return v;
  return op("CastLike", {v, like});
}

/// Whether dim `gd` of the gradient may have been broadcast from dim `xd`
/// of x: 1 (yes), 0 (no), -1 (only the run time knows).
static int broadcastDim(RankedTensorType g, unsigned gd, RankedTensorType x,
                        unsigned xd) {
  int64_t gs = g.getDimSize(gd), xs = x.getDimSize(xd);
  if (!ShapedType::isDynamic(xs)) {
    if (xs != 1)
      return 0;
    return gs == 1 ? 0 : ShapedType::isDynamic(gs) ? -1 : 1;
  }
  // x's dim is dynamic: it was not broadcast when it equals g's.
  StringRef xn = ONNX::getDimName(x, xd), gn = ONNX::getDimName(g, gd);
  if (!xn.empty() && xn == gn)
    return 0;
  if (gs == 1)
    return 0;
  return -1;
}

Value GradientBuilder::sumToShapeOf(Value grad, Value x) {
  if (!grad)
    return {};
  auto g = dyn_cast<RankedTensorType>(grad.getType());
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  if (!g || !xt) {
    emitError(loc) << "autodiff: broadcasting of unranked tensors";
    failed = true;
    return {};
  }
  if (g == xt || (g.getShape() == xt.getShape() && g.hasStaticShape()))
    return grad;
  int64_t R = g.getRank(), r = xt.getRank();
  if (r > R) {
    emitError(loc) << "autodiff: a gradient of rank " << R
                   << " for an input of rank " << r;
    failed = true;
    return {};
  }
  SmallVector<int64_t> axes;
  bool runtime = false;
  for (int64_t i = 0; i < R; ++i) {
    if (i < R - r) {
      axes.push_back(i);
      continue;
    }
    int64_t gs = g.getDimSize(i), xs = xt.getDimSize(i - (R - r));
    if (!ShapedType::isDynamic(gs) && !ShapedType::isDynamic(xs) && xs != 1 &&
        xs != gs) {
      emitError(loc) << "autodiff: a gradient of shape " << g
                     << " does not broadcast from its input's " << xt;
      failed = true;
      return {};
    }
    int k = broadcastDim(g, i, xt, i - (R - r));
    if (k == 1)
      axes.push_back(i);
    runtime |= k < 0;
  }
  Value reduced = grad;
  if (runtime) {
    // mask[d] = x's dim (1-padded to the rank of grad) is 1 and grad's is
    // not: the dims broadcasting stretched, found at run time.
    Value xs = shapeOf(x);
    if (R > r)
      xs = op("Concat", {i64s(SmallVector<int64_t>(R - r, 1)), xs},
              {attr("axis", (int64_t)0)});
    Value one = i64s({1});
    Value mask = op("And", {op("Equal", {xs, one}),
                            op("Not", {op("Equal", {shapeOf(grad), one})})});
    Value dynAxes = op("Reshape", {op("NonZero", {mask}), i64s({-1})});
    reduced = op("ReduceSum", {grad, dynAxes},
                 {attr("keepdims", (int64_t)1),
                  attr("noop_with_empty_axes", (int64_t)1)});
  } else if (!axes.empty()) {
    reduced = op("ReduceSum", {grad, i64s(axes)}, {attr("keepdims", (int64_t)1)});
  }
  if (!reduced)
    return {};
  auto rt = cast<RankedTensorType>(reduced.getType());
  if (rt == xt)
    return reduced;
  if (xt.hasStaticShape())
    return op("Reshape", {reduced, i64s(xt.getShape())});
  return op("Reshape", {reduced, shapeOf(x)});
}

void autodiff::accumulate(GradientBuilder &gb, InputGrads &grads, Value v,
                          Value g) {
  if (!g)
    return;
  auto it = grads.find(v);
  if (it == grads.end() || !it->second) {
    grads[v] = g;
    return;
  }
  it->second = gb.add(it->second, g);
}

const llvm::StringMap<GradientRule> &autodiff::getGradientRules() {
  static const llvm::StringMap<GradientRule> rules = [] {
    llvm::StringMap<GradientRule> r;
    registerElementwiseGradients(r);
    registerLinalgGradients(r);
    registerReductionGradients(r);
    registerTensorGradients(r);
    registerLossGradients(r);
    registerConvGradients(r);
    registerPoolingGradients(r);
    registerNormalizationGradients(r);
    registerNNMiscGradients(r);
    registerControlFlowGradients(r);
    return r;
  }();
  return rules;
}

const llvm::StringMap<GradientExpansion> &autodiff::getGradientExpansions() {
  static const llvm::StringMap<GradientExpansion> expansions = [] {
    llvm::StringMap<GradientExpansion> e;
    registerRecurrentExpansions(e);
    return e;
  }();
  return expansions;
}

//===- ShapeData.cpp - Inference from propagated shape values -------------===//
//
// libonnx 1.12 reads the shape operand of Reshape, Expand and
// ConstantOfShape only when all its values are known. Shape data also carries
// symbolic values (the batch size "N" of Shape(x)): these rules turn them into
// named dims, and propagate data through ops libonnx has no data propagation
// function for.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::onnxc;

/// The values of a shape operand as dims; nullopt if not known at all.
static std::optional<SmallVector<SymDim>>
getShapeOperand(Operation *op, unsigned index, InferenceState &state) {
  if (index >= op->getNumOperands())
    return std::nullopt;
  const onnx::TensorShapeProto *data =
      state.getImpl().getShapeData(op->getOperand(index));
  if (!data)
    return std::nullopt;
  SmallVector<SymDim> dims;
  for (const auto &d : data->dim())
    dims.push_back(toSymDim(d));
  return dims;
}

/// The -1 entry of a Reshape target: input elements / other output dims,
/// cancelling dims of the same name.
static SymDim inferReshapeDim(ArrayRef<SymDim> in, ArrayRef<SymDim> out,
                              size_t skip) {
  int64_t inProduct = 1, outProduct = 1;
  llvm::StringMap<int> names;
  for (const SymDim &d : in) {
    if (d.isStatic())
      inProduct *= d.size;
    else if (d.name.empty())
      return {};
    else
      ++names[d.name];
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (i == skip)
      continue;
    const SymDim &d = out[i];
    if (d.isStatic())
      outProduct *= d.size;
    else if (d.name.empty() || --names[d.name] < 0)
      return {};
  }
  SmallVector<StringRef> left;
  for (auto &e : names)
    for (int i = 0; i < e.second; ++i)
      left.push_back(e.first());
  if (outProduct == 0 || inProduct % outProduct != 0)
    return {};
  SymDim r;
  if (left.empty()) {
    r.size = inProduct / outProduct;
  } else if (left.size() == 1 && inProduct == outProduct) {
    r.name = left.front().str();
  }
  return r;
}

static LogicalResult refineReshape(Operation *op, InferenceState &state) {
  auto inType = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto resType = llvm::dyn_cast<TensorType>(op->getResult(0).getType());
  std::optional<SmallVector<SymDim>> target = getShapeOperand(op, 1, state);
  if (!target || !resType)
    return success();
  bool allowZero = getIntAttr(op, "allowzero", 0) != 0;
  SmallVector<SymDim> in = inType ? getSymDims(inType) : SmallVector<SymDim>();
  SmallVector<SymDim> out;
  int64_t inferIndex = -1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    if (d.isStatic() && d.size == 0 && !allowZero) {
      out.push_back(inType && i < in.size() ? in[i] : SymDim());
    } else if (d.isStatic() && d.size == -1) {
      inferIndex = i;
      out.push_back(SymDim());
    } else if (d.isStatic() && d.size < -1) {
      return op->emitOpError() << "invalid shape value " << d.size;
    } else {
      out.push_back(d);
    }
  }
  if (inferIndex >= 0 && inType)
    out[inferIndex] = inferReshapeDim(in, out, inferIndex);
  // libonnx 1.12 checks the element count only when it infers a -1 dim.
  if (inType && inType.hasStaticShape() &&
      llvm::all_of(out, [](const SymDim &d) { return d.isStatic(); })) {
    int64_t count = 1;
    for (const SymDim &d : out)
      count *= d.size;
    if (count != inType.getNumElements())
      return op->emitOpError()
             << "cannot reshape " << inType.getNumElements()
             << " elements into a shape of " << count << " elements";
  }
  return refineResult(op, 0, getSymTensorType(out, resType.getElementType()));
}

static LogicalResult refineExpand(Operation *op, InferenceState &state) {
  auto inType = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto resType = llvm::dyn_cast<TensorType>(op->getResult(0).getType());
  std::optional<SmallVector<SymDim>> target = getShapeOperand(op, 1, state);
  if (!target || !resType || !inType)
    return success();
  SmallVector<SymDim> in = getSymDims(inType);
  std::string error;
  FailureOr<SmallVector<SymDim>> out = broadcastShapes({in, *target}, error);
  if (failed(out))
    return op->emitOpError() << error;
  return refineResult(op, 0, getSymTensorType(*out, resType.getElementType()));
}

static LogicalResult refineConstantOfShape(Operation *op,
                                           InferenceState &state) {
  auto resType = llvm::dyn_cast<TensorType>(op->getResult(0).getType());
  std::optional<SmallVector<SymDim>> target = getShapeOperand(op, 0, state);
  if (!target || !resType)
    return success();
  for (const SymDim &d : *target)
    if (d.isStatic() && d.size < 0)
      return op->emitOpError() << "negative dimension " << d.size;
  return refineResult(op, 0,
                      getSymTensorType(*target, resType.getElementType()));
}

/// Integer Div of known values (a scalar divisor broadcasts).
static void propagateDiv(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  auto lhs = impl.getKnownInts(op->getOperand(0));
  auto rhs = impl.getKnownInts(op->getOperand(1));
  auto type = llvm::dyn_cast<TensorType>(op->getResult(0).getType());
  if (!lhs || !rhs || !type || !type.getElementType().isSignlessInteger())
    return;
  size_t n = std::max(lhs->size(), rhs->size());
  if ((lhs->size() != n && lhs->size() != 1) ||
      (rhs->size() != n && rhs->size() != 1))
    return;
  onnx::TensorShapeProto data;
  for (size_t i = 0; i < n; ++i) {
    int64_t a = (*lhs)[lhs->size() == 1 ? 0 : i];
    int64_t b = (*rhs)[rhs->size() == 1 ? 0 : i];
    if (b == 0)
      return;
    // ONNX integer Div truncates like C.
    data.add_dim()->set_dim_value(a / b);
  }
  impl.setShapeData(op->getResult(0), std::move(data));
}

/// Neg of known integer values.
static void propagateNeg(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  auto values = impl.getKnownInts(op->getOperand(0));
  if (!values || !getElementTypeOf(op->getResult(0)).isSignlessInteger())
    return;
  onnx::TensorShapeProto data;
  for (int64_t v : *values)
    data.add_dim()->set_dim_value(-v);
  impl.setShapeData(op->getResult(0), std::move(data));
}

/// ConstantOfShape of a known small 1-D shape with an integer value.
static void propagateConstantOfShape(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  auto shape = impl.getKnownInts(op->getOperand(0));
  auto value = op->getAttrOfType<DenseIntElementsAttr>("value");
  if (!shape || shape->size() != 1 || (*shape)[0] < 0 || (*shape)[0] > 4096 ||
      !value || value.getNumElements() != 1 ||
      !value.getElementType().isSignlessInteger())
    return;
  int64_t v = (*value.getValues<APInt>().begin()).getSExtValue();
  onnx::TensorShapeProto data;
  for (int64_t i = 0; i < (*shape)[0]; ++i)
    data.add_dim()->set_dim_value(v);
  impl.setShapeData(op->getResult(0), std::move(data));
}

LogicalResult mlir::onnxc::refineWithShapeData(Operation *op,
                                               InferenceState &state) {
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Reshape")
    return refineReshape(op, state);
  if (name == "onnx.Expand")
    return refineExpand(op, state);
  if (name == "onnx.ConstantOfShape") {
    propagateConstantOfShape(op, state);
    return refineConstantOfShape(op, state);
  }
  if (name == "onnx.Neg")
    propagateNeg(op, state);
  if (name == "onnx.Identity") {
    if (const onnx::TensorShapeProto *d =
            state.getImpl().getShapeData(op->getOperand(0)))
      state.getImpl().setShapeData(op->getResult(0), *d);
    return success();
  }
  if (name == "onnx.Div")
    propagateDiv(op, state);
  return success();
}

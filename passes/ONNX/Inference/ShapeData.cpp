//===- ShapeData.cpp - Inference from propagated shape values -------------===//
//
// libonnx 1.12 reads the shape operand of Reshape, Expand and
// ConstantOfShape only when all its values are known. Shape data also carries
// symbolic values (the batch size "N" of Shape(x)): these rules turn them into
// named dims, give the rank alone when only the operand's length is known,
// and propagate data through ops libonnx has no data propagation function
// for.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/ShapeData.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

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

/// The values of a shape operand as dims, or as many unknown dims as its
/// static length when its values are not known: the result's rank is still
/// fixed (a 1-D shape computed at run time, or a graph input). Nullopt if
/// neither is known.
static std::optional<SmallVector<SymDim>>
getShapeOperandOrLength(Operation *op, unsigned index, InferenceState &state) {
  if (auto dims = getShapeOperand(op, index, state))
    return dims;
  RankedTensorType type = getRankedOperand(op, index);
  if (!type || type.getRank() != 1 || type.isDynamicDim(0) ||
      type.getDimSize(0) > kMaxShapeDataElements)
    return std::nullopt;
  return SmallVector<SymDim>(type.getDimSize(0));
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
  std::optional<SmallVector<SymDim>> target =
      getShapeOperandOrLength(op, 1, state);
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
  std::optional<SmallVector<SymDim>> target =
      getShapeOperandOrLength(op, 1, state);
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
  std::optional<SmallVector<SymDim>> target =
      getShapeOperandOrLength(op, 0, state);
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
  if (!shape || shape->size() != 1 || (*shape)[0] < 0 || (*shape)[0] > kMaxShapeDataElements ||
      !value || value.getNumElements() != 1 ||
      !value.getElementType().isSignlessInteger())
    return;
  int64_t v = (*value.getValues<APInt>().begin()).getSExtValue();
  onnx::TensorShapeProto data;
  for (int64_t i = 0; i < (*shape)[0]; ++i)
    data.add_dim()->set_dim_value(v);
  impl.setShapeData(op->getResult(0), std::move(data));
}

//===----------------------------------------------------------------------===//
// Known numbers: Cast and scalar arithmetic on ints and floats
//===----------------------------------------------------------------------===//

/// Propagated tensors hold at most this many elements.
static constexpr int64_t kMaxKnownElements = 4096;

static bool isModeledFloat(Type t) { return t && (t.isF32() || t.isF64()); }

static bool isModeledInt(Type t) {
  return t && t.isSignlessInteger() &&
         (t.getIntOrFloatBitWidth() == 32 || t.getIntOrFloatBitWidth() == 64);
}

/// `x` rounded to the precision of the float type `elt`.
static double roundTo(Type elt, double x) {
  return elt.isF32() ? (double)(float)x : x;
}

/// Records `values` as the known values of result 0: floats rounded to the
/// result's precision; integers (from a Cast) only if all are integral and in
/// range, and not where data propagation already knows more (symbolic dims).
static void setKnownNumbers(Operation *op, InferenceState &state,
                            ArrayRef<double> values) {
  InferenceState::Impl &impl = state.getImpl();
  Value result = op->getResult(0);
  Type elt = getElementTypeOf(result);
  if (isModeledFloat(elt)) {
    SmallVector<double> rounded;
    for (double x : values)
      rounded.push_back(roundTo(elt, x));
    impl.setFloatData(result, std::move(rounded));
    return;
  }
  if (!isModeledInt(elt) || impl.shapeData.count(result))
    return;
  double limit = elt.getIntOrFloatBitWidth() == 32 ? 0x1p31 : 0x1p63;
  onnx::TensorShapeProto data;
  for (double x : values) {
    if (!std::isfinite(x) || x >= limit || x < -limit)
      return;
    data.add_dim()->set_dim_value((int64_t)std::trunc(x));
  }
  impl.setShapeData(result, std::move(data));
}

/// The known operand values of an elementwise op, each broadcast to the
/// element count of its static result: an operand holds one element or has
/// the result's shape. Nullopt if any is unknown.
static std::optional<SmallVector<SmallVector<double>>>
getElementwiseOperands(Operation *op, InferenceState &state, size_t &count) {
  auto resType = llvm::dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resType || !resType.hasStaticShape() ||
      resType.getNumElements() > kMaxKnownElements)
    return std::nullopt;
  count = resType.getNumElements();
  SmallVector<SmallVector<double>> operands;
  for (Value v : op->getOperands()) {
    auto type = llvm::dyn_cast<RankedTensorType>(v.getType());
    std::optional<SmallVector<double>> values =
        state.getImpl().getKnownNumbers(v);
    if (!type || !values)
      return std::nullopt;
    if (values->size() == 1)
      values->resize(count, values->front());
    else if (type.getShape() != resType.getShape() || values->size() != count)
      return std::nullopt;
    operands.push_back(std::move(*values));
  }
  return operands;
}

/// Float arithmetic of known values, rounded to the result's precision as
/// it goes; Cast of known ints and floats to any modeled type.
static void propagateNumbers(Operation *op, InferenceState &state) {
  StringRef name = op->getName().getStringRef();
  Type elt = getElementTypeOf(op->getResult(0));
  size_t count = 0;
  if (name == "onnx.Cast") {
    auto in = getElementwiseOperands(op, state, count);
    if (in)
      setKnownNumbers(op, state, (*in)[0]);
    return;
  }
  if (!isModeledFloat(elt))
    return;
  using Unary = double (*)(double);
  using Binary = double (*)(double, double);
  Unary unary =
      llvm::StringSwitch<Unary>(name)
          .Case("onnx.Neg", [](double a) { return -a; })
          .Case("onnx.Abs", [](double a) { return std::fabs(a); })
          .Case("onnx.Ceil", [](double a) { return std::ceil(a); })
          .Case("onnx.Floor", [](double a) { return std::floor(a); })
          .Case("onnx.Relu", [](double a) { return std::fmax(a, 0.); })
          .Case("onnx.Sqrt", [](double a) { return std::sqrt(a); })
          .Default(nullptr);
  // Max and Min are variadic: they fold over all operands.
  Binary binary =
      llvm::StringSwitch<Binary>(name)
          .Case("onnx.Add", [](double a, double b) { return a + b; })
          .Case("onnx.Sub", [](double a, double b) { return a - b; })
          .Case("onnx.Mul", [](double a, double b) { return a * b; })
          .Case("onnx.Div", [](double a, double b) { return a / b; })
          .Case("onnx.Max", [](double a, double b) { return std::fmax(a, b); })
          .Case("onnx.Min", [](double a, double b) { return std::fmin(a, b); })
          .Default(nullptr);
  if ((!unary && !binary) || op->getNumOperands() == 0 ||
      (unary && op->getNumOperands() != 1))
    return;
  auto in = getElementwiseOperands(op, state, count);
  if (!in)
    return;
  SmallVector<double> out = (*in)[0];
  for (size_t i = 0; i < count; ++i) {
    if (unary)
      out[i] = roundTo(elt, unary(out[i]));
    for (size_t j = 1; j < in->size(); ++j)
      out[i] = roundTo(elt, binary(out[i], (*in)[j][i]));
  }
  setKnownNumbers(op, state, out);
}

/// Range of known start, limit and delta: max(ceil((limit - start) / delta),
/// 0) elements (the difference in the element type, the quotient in double,
/// as the ONNX reference does); known int values are propagated.
static LogicalResult refineRange(Operation *op, InferenceState &state) {
  if (op->getNumOperands() != 3)
    return success();
  InferenceState::Impl &impl = state.getImpl();
  Type elt = getElementTypeOf(op->getResult(0));
  int64_t count;
  if (isModeledInt(elt)) {
    auto start = impl.getKnownInts(op->getOperand(0));
    auto limit = impl.getKnownInts(op->getOperand(1));
    auto delta = impl.getKnownInts(op->getOperand(2));
    if (!start || !limit || !delta || start->size() != 1 ||
        limit->size() != 1 || delta->size() != 1 || delta->front() == 0)
      return success();
    int64_t s = start->front(), l = limit->front(), d = delta->front();
    if (std::abs(s) > (int64_t(1) << 61) || std::abs(l) > (int64_t(1) << 61))
      return success();
    int64_t diff = l - s;
    count = diff / d;
    if (diff % d != 0 && ((diff > 0) == (d > 0)))
      ++count;
    count = std::max<int64_t>(count, 0);
    if (count <= kMaxKnownElements) {
      onnx::TensorShapeProto data;
      for (int64_t i = 0; i < count; ++i)
        data.add_dim()->set_dim_value(s + i * d);
      impl.setShapeData(op->getResult(0), std::move(data));
    }
  } else if (isModeledFloat(elt)) {
    auto start = impl.getKnownNumbers(op->getOperand(0));
    auto limit = impl.getKnownNumbers(op->getOperand(1));
    auto delta = impl.getKnownNumbers(op->getOperand(2));
    if (!start || !limit || !delta || start->size() != 1 ||
        limit->size() != 1 || delta->size() != 1 || delta->front() == 0)
      return success();
    double n = std::ceil(roundTo(elt, limit->front() - start->front()) /
                         delta->front());
    if (!std::isfinite(n) || n > 0x1p62)
      return success();
    count = std::max<int64_t>((int64_t)n, 0);
  } else {
    return success();
  }
  return refineResult(op, 0, RankedTensorType::get({count}, elt));
}

/// Slice whose starts, ends, axes or steps are not all known keeps the rank
/// of its data, and the dims its axes do not name.
static LogicalResult refineSlice(Operation *op, InferenceState &state) {
  RankedTensorType in = getRankedOperand(op, 0);
  if (!in || !llvm::isa<UnrankedTensorType>(op->getResult(0).getType()))
    return success();
  SmallVector<SymDim> dims = getSymDims(in);
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes;
  if (isAbsent(op, 3)) {
    RankedTensorType starts = getRankedOperand(op, 1);
    if (starts && starts.getRank() == 1 && starts.hasStaticShape() &&
        starts.getDimSize(0) <= rank)
      for (int64_t i = 0; i < starts.getDimSize(0); ++i)
        axes.push_back(i);
    else
      for (int64_t i = 0; i < rank; ++i)
        axes.push_back(i);
  } else if (auto known = state.getImpl().getKnownInts(op->getOperand(3))) {
    for (int64_t a : *known)
      axes.push_back(a < 0 ? a + rank : a);
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  for (int64_t a : axes) {
    // An invalid axis is libonnx's (or the runtime's) to report.
    if (a < 0 || a >= rank)
      return success();
    dims[a] = SymDim();
  }
  return refineResult(op, 0, getSymTensorType(dims, in.getElementType()));
}

/// Concat of 1-D shape data. libonnx's data propagation does it too, but
/// fails when its first input is empty (it checks `axis` against the length
/// of that input's values).
static void propagateConcat(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  Value result = op->getResult(0);
  auto type = llvm::dyn_cast<RankedTensorType>(result.getType());
  int64_t axis = getIntAttr(op, "axis", 0);
  if (impl.shapeData.count(result) || !type || type.getRank() != 1 ||
      !isModeledInt(type.getElementType()) || (axis != 0 && axis != -1))
    return;
  onnx::TensorShapeProto data;
  for (Value v : op->getOperands()) {
    const onnx::TensorShapeProto *d = impl.getShapeData(v);
    if (!d)
      return;
    for (const auto &dim : d->dim())
      *data.add_dim() = dim;
  }
  impl.setShapeData(result, std::move(data));
}

/// Size of a static shape; comparisons of known numbers and logic of known
/// bools (bools known as 0 and 1): the condition of an If that tests a rank
/// or a dim (`Equal(Size(Shape(x)), 1)`) is then known, and the importer
/// keeps only the branch taken.
static void propagateLogic(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  StringRef name = op->getName().getStringRef();
  Value result = op->getResult(0);
  if (impl.shapeData.count(result))
    return;
  if (name == "onnx.Size") {
    auto in = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!in || !in.hasStaticShape() || !isModeledInt(getElementTypeOf(result)))
      return;
    onnx::TensorShapeProto data;
    data.add_dim()->set_dim_value(in.getNumElements());
    impl.setShapeData(result, std::move(data));
    return;
  }
  Type elt = getElementTypeOf(result);
  if (!elt || !elt.isInteger(1))
    return;
  using Compare = bool (*)(double, double);
  Compare compare =
      llvm::StringSwitch<Compare>(name)
          .Case("onnx.Equal", [](double a, double b) { return a == b; })
          .Case("onnx.Greater", [](double a, double b) { return a > b; })
          .Case("onnx.Less", [](double a, double b) { return a < b; })
          .Case("onnx.GreaterOrEqual",
                [](double a, double b) { return a >= b; })
          .Case("onnx.LessOrEqual", [](double a, double b) { return a <= b; })
          .Case("onnx.And", [](double a, double b) { return a && b; })
          .Case("onnx.Or", [](double a, double b) { return a || b; })
          .Case("onnx.Xor", [](double a, double b) { return bool(a) != bool(b); })
          .Default(nullptr);
  bool isNot = name == "onnx.Not";
  if ((!compare && !isNot) || op->getNumOperands() != (isNot ? 1u : 2u))
    return;
  size_t count = 0;
  auto in = getElementwiseOperands(op, state, count);
  if (!in)
    return;
  onnx::TensorShapeProto data;
  for (size_t i = 0; i < count; ++i)
    data.add_dim()->set_dim_value(isNot ? (*in)[0][i] == 0
                                        : compare((*in)[0][i], (*in)[1][i]));
  impl.setShapeData(result, std::move(data));
}

LogicalResult mlir::onnxc::refineWithShapeData(Operation *op,
                                               InferenceState &state) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() == 1 && getElementTypeOf(op->getResult(0))) {
    propagateNumbers(op, state);
    propagateLogic(op, state);
    propagateKnownData(op, state);
  }
  if (name == "onnx.Range")
    return refineRange(op, state);
  if (name == "onnx.Slice")
    return refineSlice(op, state);
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
    InferenceState::Impl &impl = state.getImpl();
    Value in = op->getOperand(0);
    if (const onnx::TensorShapeProto *d = impl.getShapeData(in))
      impl.setShapeData(op->getResult(0), *d);
    else if (isModeledFloat(getElementTypeOf(in)))
      if (auto values = impl.getKnownNumbers(in))
        impl.setFloatData(op->getResult(0), std::move(*values));
    return success();
  }
  if (name == "onnx.Div")
    propagateDiv(op, state);
  if (name == "onnx.Concat")
    propagateConcat(op, state);
  return success();
}

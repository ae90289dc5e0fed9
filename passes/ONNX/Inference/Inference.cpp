//===- Inference.cpp - Type inference driver for onnx ops -----------------===//
//
// Picks how to infer each op: onnx.Constant from its value, ops libonnx
// knows through their libonnx schema (LibOnnxBridge.cpp), newer ops through
// onnxc's rules (Rules*.cpp); then sharpens the result with propagated shape
// data (ShapeData.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/Block.h"

using namespace mlir;
using namespace mlir::onnxc;

//===----------------------------------------------------------------------===//
// onnxc's rules: every Rules*.cpp file's register function
//===----------------------------------------------------------------------===//

const llvm::StringMap<InferenceRule> &mlir::onnxc::getInferenceRules() {
  static const llvm::StringMap<InferenceRule> rules = [] {
    llvm::StringMap<InferenceRule> r;
    registerTensorRules(r);
    registerNNRules(r);
    registerMLRules(r);
    registerTransformerRules(r);
    registerControlFlowRules(r);
    registerTrainingRules(r);
    return r;
  }();
  return rules;
}

//===----------------------------------------------------------------------===//
// InferenceState
//===----------------------------------------------------------------------===//

InferenceState::InferenceState() : impl(std::make_unique<Impl>()) {}
InferenceState::~InferenceState() = default;

std::unique_ptr<InferenceState> mlir::onnxc::createInferenceState() {
  return std::unique_ptr<InferenceState>(new InferenceState());
}

static ElementsAttr getConstantValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getName().getStringRef() != "onnx.Constant")
    return {};
  return def->getAttrOfType<ElementsAttr>("value");
}

const onnx::TensorShapeProto *InferenceState::Impl::getShapeData(Value v) {
  auto it = shapeData.find(v);
  if (it != shapeData.end())
    return it->second.get();
  ElementsAttr value = getConstantValue(v);
  if (!value) {
    // An empty 1-D int tensor has known (no) values whatever computed it:
    // libonnx's Slice propagates no data for an empty slice, which would
    // stop a Concat of shape pieces (the expanded LayerNormalization's
    // prefix shape when axis = 0). Not cached: the value's type may still
    // be generalized (Loop-carried values).
    static const onnx::TensorShapeProto empty;
    auto type = llvm::dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() != 1 || type.getDimSize(0) != 0 ||
        !type.getElementType().isSignlessInteger() ||
        type.getElementType().getIntOrFloatBitWidth() < 32)
      return nullptr;
    return &empty;
  }
  auto type = llvm::dyn_cast<RankedTensorType>(value.getType());
  auto dense = llvm::dyn_cast<DenseIntElementsAttr>(value);
  if (!type || !dense || type.getNumElements() > kMaxShapeDataElements ||
      !type.getElementType().isSignlessInteger() ||
      (type.getElementType().getIntOrFloatBitWidth() < 32 &&
       !type.getElementType().isInteger(1)))
    return nullptr;
  // Bools are known as 0 and 1 (an If condition computed from shapes).
  bool isBool = type.getElementType().isInteger(1);
  auto data = std::make_unique<onnx::TensorShapeProto>();
  for (const APInt &x : dense.getValues<APInt>())
    data->add_dim()->set_dim_value(isBool ? x.getZExtValue()
                                          : x.getSExtValue());
  return (shapeData[v] = std::move(data)).get();
}

const onnx::TensorProto *InferenceState::Impl::getTensorData(Value v) {
  auto it = tensors.find(v);
  if (it != tensors.end())
    return it->second.get();
  auto tensor = std::make_unique<onnx::TensorProto>();
  if (ElementsAttr value = getConstantValue(v)) {
    if (!proto::exportTensor(value, *tensor))
      return nullptr;
    return (tensors[v] = std::move(tensor)).get();
  }
  auto type = llvm::dyn_cast<RankedTensorType>(v.getType());
  // Known floats, as a float tensor of the value's type.
  if (auto it = floatData.find(v); it != floatData.end()) {
    const SmallVector<double> &values = it->second;
    if (!type || type.getRank() > 1 ||
        (type.getRank() == 0 && values.size() != 1))
      return nullptr;
    if (type.getRank() == 1)
      tensor->add_dims(values.size());
    if (type.getElementType().isF32()) {
      tensor->set_data_type(onnx::TensorProto::FLOAT);
      for (double x : values)
        tensor->add_float_data((float)x);
    } else if (type.getElementType().isF64()) {
      tensor->set_data_type(onnx::TensorProto::DOUBLE);
      for (double x : values)
        tensor->add_double_data(x);
    } else {
      return nullptr;
    }
    return (tensors[v] = std::move(tensor)).get();
  }
  // Fully known shape data, as an int tensor of the value's type.
  std::optional<SmallVector<int64_t>> ints = getKnownInts(v);
  if (!ints || !type || !type.hasStaticShape() ||
      type.getNumElements() != (int64_t)ints->size() ||
      !type.getElementType().isSignlessInteger() ||
      (type.getElementType().getIntOrFloatBitWidth() != 64 &&
       type.getElementType().getIntOrFloatBitWidth() != 32))
    return nullptr;
  for (int64_t d : type.getShape())
    tensor->add_dims(d);
  if (type.getElementType().getIntOrFloatBitWidth() == 64) {
    tensor->set_data_type(onnx::TensorProto::INT64);
    for (int64_t x : *ints)
      tensor->add_int64_data(x);
  } else {
    tensor->set_data_type(onnx::TensorProto::INT32);
    for (int64_t x : *ints)
      tensor->add_int32_data((int32_t)x);
  }
  return (tensors[v] = std::move(tensor)).get();
}

std::optional<int64_t> mlir::onnxc::getKnownScalar(Value v,
                                                   InferenceState &state) {
  std::optional<SmallVector<int64_t>> ints = state.getImpl().getKnownInts(v);
  if (!ints || ints->size() != 1)
    return std::nullopt;
  return ints->front();
}

std::optional<SmallVector<int64_t>>
InferenceState::Impl::getKnownInts(Value v) {
  const onnx::TensorShapeProto *data = getShapeData(v);
  if (!data)
    return std::nullopt;
  SmallVector<int64_t> ints;
  for (const auto &d : data->dim()) {
    if (!d.has_dim_value())
      return std::nullopt;
    ints.push_back(d.dim_value());
  }
  return ints;
}

void InferenceState::Impl::setShapeData(Value v, onnx::TensorShapeProto data) {
  shapeData[v] = std::make_unique<onnx::TensorShapeProto>(std::move(data));
  tensors.erase(v);
}

std::optional<SmallVector<double>>
InferenceState::Impl::getKnownNumbers(Value v) {
  if (auto it = floatData.find(v); it != floatData.end())
    return it->second;
  if (ElementsAttr value = getConstantValue(v)) {
    auto type = llvm::dyn_cast<RankedTensorType>(value.getType());
    auto dense = llvm::dyn_cast<DenseFPElementsAttr>(value);
    if (type && dense && type.getNumElements() <= kMaxShapeDataElements &&
        (type.getElementType().isF32() || type.getElementType().isF64())) {
      SmallVector<double> values;
      for (const APFloat &x : dense.getValues<APFloat>())
        values.push_back(x.convertToDouble());
      return (floatData[v] = std::move(values));
    }
  }
  std::optional<SmallVector<int64_t>> ints = getKnownInts(v);
  if (!ints)
    return std::nullopt;
  return SmallVector<double>(ints->begin(), ints->end());
}

void InferenceState::Impl::setFloatData(Value v, SmallVector<double> data) {
  floatData[v] = std::move(data);
  tensors.erase(v);
}

const SmallVector<Type> *InferenceState::Impl::getSeqElements(Value v) {
  auto it = seqElements.find(v);
  return it == seqElements.end() ? nullptr : &it->second;
}

void InferenceState::Impl::forgetRegion(Region &region) {
  auto forget = [&](Value v) {
    shapeData.erase(v);
    tensors.erase(v);
    floatData.erase(v);
    seqElements.erase(v);
  };
  auto forgetArgs = [&](Region &r) {
    for (Block &block : r)
      for (BlockArgument arg : block.getArguments())
        forget(arg);
  };
  forgetArgs(region);
  region.walk([&](Operation *op) {
    for (Value result : op->getResults())
      forget(result);
    for (Region &r : op->getRegions())
      forgetArgs(r);
  });
}

SmallVector<DenseElementsAttr>
mlir::onnxc::getKnownResults(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  SmallVector<DenseElementsAttr> values;
  if (op->getNumRegions() || op->getNumResults() == 0)
    return {};
  for (Value r : op->getResults()) {
    auto t = llvm::dyn_cast<RankedTensorType>(r.getType());
    if (!t || !t.hasStaticShape() ||
        t.getNumElements() > kMaxShapeDataElements)
      return {};
    // An empty result is "known" (no values) for any op that makes it, as
    // getShapeData has it for its readers; the op itself is only folded
    // when inference derived the result, not from its type alone: an op
    // of empty result still checks its inputs (a Range of delta 0, a
    // ScatterElements index into an empty tensor, a CumSum axis).
    if (t.getNumElements() == 0 && !impl.shapeData.count(r) &&
        !impl.floatData.count(r))
      return {};
    Type et = t.getElementType();
    auto plain = RankedTensorType::get(t.getShape(), et);
    if (et.isSignlessInteger(64) || et.isSignlessInteger(32) ||
        et.isInteger(1)) {
      std::optional<SmallVector<int64_t>> ints = impl.getKnownInts(r);
      if (!ints || (int64_t)ints->size() != t.getNumElements())
        return {};
      SmallVector<APInt> bits;
      for (int64_t x : *ints)
        bits.push_back(APInt(et.getIntOrFloatBitWidth(), (uint64_t)x,
                             /*isSigned=*/!et.isInteger(1),
                             /*implicitTrunc=*/true));
      values.push_back(DenseElementsAttr::get(plain, bits));
    } else if (et.isF32() || et.isF64()) {
      auto it = impl.floatData.find(r);
      if (it == impl.floatData.end() ||
          (int64_t)it->second.size() != t.getNumElements())
        return {};
      if (et.isF32()) {
        SmallVector<float> f(it->second.begin(), it->second.end());
        values.push_back(DenseElementsAttr::get(plain, ArrayRef<float>(f)));
      } else {
        values.push_back(
            DenseElementsAttr::get(plain, ArrayRef<double>(it->second)));
      }
    } else {
      return {};
    }
  }
  return values;
}

void mlir::onnxc::eraseInferredOp(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  for (Value result : op->getResults()) {
    impl.shapeData.erase(result);
    impl.tensors.erase(result);
    impl.floatData.erase(result);
    impl.seqElements.erase(result);
  }
  for (Region &r : op->getRegions())
    impl.forgetRegion(r);
  op->erase();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static LogicalResult inferConstant(Operation *op) {
  Attribute value = op->getAttr("value");
  if (!value)
    value = op->getAttr("sparse_value");
  auto elements = llvm::dyn_cast_or_null<ElementsAttr>(value);
  if (!elements)
    return success();
  return refineResult(op, 0, elements.getType());
}

/// Gives an untyped subgraph input (Loop and Scan bodies may omit types) the
/// type its parent op passes in, as libonnx would when inferring the parent:
/// the importer infers the subgraph's ops before their parent.
static void seedBlockArgument(BlockArgument arg) {
  if (!llvm::isa<ONNX::UnknownType>(arg.getType()))
    return;
  Operation *parent = arg.getOwner()->getParentOp();
  if (!parent)
    return;
  StringRef name = parent->getName().getStringRef();
  MLIRContext *ctx = arg.getContext();
  unsigned i = arg.getArgNumber();
  auto operandType = [&](unsigned index) -> Type {
    return index < parent->getNumOperands()
               ? parent->getOperand(index).getType()
               : Type();
  };
  Type seed;
  if (name == "onnx.Loop") {
    if (i == 0)
      seed = RankedTensorType::get({}, IntegerType::get(ctx, 64));
    else if (i == 1)
      seed = RankedTensorType::get({}, IntegerType::get(ctx, 1));
    else if (auto t = llvm::dyn_cast_or_null<TensorType>(operandType(i)))
      // The shape of a carried value may change across iterations.
      seed = UnrankedTensorType::get(t.getElementType());
    else if (Type t = operandType(i); t && !llvm::isa<NoneType>(t))
      seed = t;
  } else if (name == "onnx.Scan") {
    int64_t numScan = getIntAttr(parent, "num_scan_inputs", 0);
    int64_t numState = (int64_t)parent->getNumOperands() - numScan;
    Type t = operandType(i);
    if ((int64_t)i < numState) {
      seed = t;
    } else if (auto r = llvm::dyn_cast_or_null<RankedTensorType>(t)) {
      int64_t axis = 0;
      if (auto axes =
              parent->getAttrOfType<DenseI64ArrayAttr>("scan_input_axes");
          axes && (int64_t)i - numState < (int64_t)axes.size())
        axis = axes[i - numState];
      if (axis < 0)
        axis += r.getRank();
      if (axis >= 0 && axis < r.getRank()) {
        SmallVector<SymDim> dims = getSymDims(r);
        dims.erase(dims.begin() + axis);
        seed = getSymTensorType(dims, r.getElementType());
      }
    } else if (auto u = llvm::dyn_cast_or_null<UnrankedTensorType>(t)) {
      seed = u;
    }
  } else if (name == "onnx.SequenceMap") {
    Type t = operandType(i);
    if (auto s = llvm::dyn_cast_or_null<ONNX::SeqType>(t))
      seed = s.getElementType();
    else
      seed = t;
  }
  if (seed && !containsUnknown(seed))
    arg.setType(seed);
}

static bool isONNXOp(Operation *op) {
  Dialect *d = op->getDialect();
  return d && d->getNamespace() == "onnx";
}

LogicalResult mlir::onnxc::inferOpTypes(Operation *op, InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  if (!isONNXOp(op)) {
    // Ops of other dialects: only their regions may hold onnx ops.
    for (Region &r : op->getRegions())
      if (failed(inferRegionTypes(r, state)))
        return failure();
    return success();
  }
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Constant")
    return inferConstant(op);
  const ONNX::OpInfo *info = ONNX::lookupOpInfo(op);
  if (!info)
    return success();
  for (Value operand : op->getOperands()) {
    if (auto arg = llvm::dyn_cast<BlockArgument>(operand))
      seedBlockArgument(arg);
    if (containsUnknown(operand.getType()))
      return success();
  }

  if (impl.depth > kMaxInferenceDepth)
    return op->emitOpError() << "subgraphs are nested more than "
                             << kMaxInferenceDepth << " deep";
  ++impl.depth;
  LogicalResult result = success();
  if (InferenceRule rule = getInferenceRules().lookup(name)) {
    result = rule(op, *info, state);
  } else if (info->libonnxInferenceVersion > 0) {
    result = inferWithLibOnnx(op, *info, state);
  }
  if (succeeded(result))
    result = refineWithShapeData(op, state);
  if (succeeded(result))
    result = refineWithSequenceData(op, state);
  // Regions libonnx did not visit (no inference function, or it stopped
  // early) are still inferred on their own.
  for (Region &r : op->getRegions()) {
    if (impl.inferredRegions.erase(&r) || failed(result))
      continue;
    result = inferRegionTypes(r, state);
  }
  --impl.depth;
  return result;
}

LogicalResult mlir::onnxc::inferRegionTypes(Region &region,
                                            InferenceState &state) {
  for (Block &block : region)
    for (Operation &op : block)
      if (failed(inferOpTypes(&op, state)))
        return failure();
  return success();
}

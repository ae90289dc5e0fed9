//===- LibOnnxBridge.cpp - libonnx inference functions over MLIR ops ------===//
//
// Presents an onnx op to libonnx as an onnx::InferenceContext (and an
// onnx::DataPropagationContext) and merges the TypeProtos it infers into the
// op's result types. libonnx reports errors by throwing: this file is built
// with -fexceptions and no exception leaves it.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/LibOnnxBridge.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/StringRef.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"

#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// Thrown by a subgraph inferencer when an op of the subgraph failed (its
/// error is already emitted).
struct NestedFailure {};

/// Attributes, inputs and outputs of the op as libonnx sees them; shared by
/// the inference and data propagation contexts.
class OpView {
public:
  OpView(Operation *op, const ONNX::OpInfo &info, InferenceState &state,
         const SchemaCall &call)
      : op(op), info(info), state(state), call(call) {
    unsigned n = op->getNumOperands();
    if (call.numInputs >= 0)
      n = std::min<unsigned>(n, call.numInputs);
    // ONNX drops trailing absent inputs.
    while (n > 0 && llvm::isa<NoneType>(op->getOperand(n - 1).getType()))
      --n;
    inputTypes.resize(n);
    hasInputType.resize(n, false);
    for (unsigned i = 0; i < n; ++i) {
      hasInputType[i] =
          proto::exportType(op->getOperand(i).getType(), inputTypes[i]);
      if (call.standInFor && inputTypes[i].has_tensor_type() &&
          inputTypes[i].tensor_type().elem_type() == call.standInFor)
        inputTypes[i].mutable_tensor_type()->set_elem_type(
            onnx::TensorProto::UINT8);
    }
    // Likewise trailing absent outputs.
    unsigned m = op->getNumResults();
    while (m > 0 && llvm::isa<NoneType>(op->getResult(m - 1).getType()))
      --m;
    outputTypes.resize(m);
  }

  const onnx::AttributeProto *getAttribute(const std::string &name) {
    for (const std::string &h : call.hiddenAttrs)
      if (h == name)
        return nullptr;
    for (const onnx::AttributeProto &a : call.extraAttrs)
      if (a.name() == name)
        return &a;
    auto it = attrs.find(name);
    if (it != attrs.end())
      return it->second.get();
    const ONNX::AttrInfo *ai = info.findAttr(name);
    std::unique_ptr<onnx::AttributeProto> proto;
    if (ai && ai->regionIndex >= 0) {
      proto = std::make_unique<onnx::AttributeProto>();
      proto->set_name(name);
      proto->set_type(onnx::AttributeProto::GRAPH);
      proto->mutable_g()->set_name(name);
    } else if (ai) {
      if (Attribute attr = op->getAttr(name)) {
        proto = std::make_unique<onnx::AttributeProto>();
        if (!proto::exportAttribute(attr, ai->kind, name, *proto))
          proto.reset();
      }
    }
    return (attrs[name] = std::move(proto)).get();
  }

  size_t getNumInputs() const { return inputTypes.size(); }
  const onnx::TypeProto *getInputType(size_t i) const {
    return i < inputTypes.size() && hasInputType[i] ? &inputTypes[i] : nullptr;
  }
  Value getInput(size_t i) const {
    return i < inputTypes.size() ? op->getOperand(i) : Value();
  }

  Operation *op;
  const ONNX::OpInfo &info;
  InferenceState &state;
  const SchemaCall &call;
  std::vector<onnx::TypeProto> inputTypes;
  std::vector<bool> hasInputType;
  std::vector<onnx::TypeProto> outputTypes;
  std::map<std::string, std::unique_ptr<onnx::AttributeProto>> attrs;
};

/// Infers a region (a graph attribute) for libonnx: refines the block
/// argument types from the given input types, infers the region's ops and
/// returns the types of its onnx.Yield operands.
class RegionInferencer final : public onnx::GraphInferencer {
public:
  RegionInferencer(Operation *parent, Region &region, InferenceState &state)
      : parent(parent), region(region), state(state) {}

  std::vector<const onnx::TypeProto *>
  doInferencing(const std::vector<const onnx::TypeProto *> &inputTypes,
                const std::vector<const onnx::TensorProto *> &) override {
    state.getImpl().inferredRegions.insert(&region);
    if (region.empty())
      fail_type_inference("the subgraph is empty");
    Block &block = region.front();
    if (inputTypes.size() != block.getNumArguments())
      fail_type_inference("the subgraph has ", block.getNumArguments(),
                          " inputs but ", inputTypes.size(), " were provided");
    for (unsigned i = 0; i < block.getNumArguments(); ++i) {
      if (!inputTypes[i] ||
          inputTypes[i]->value_case() == onnx::TypeProto::VALUE_NOT_SET)
        continue;
      BlockArgument arg = block.getArgument(i);
      std::string error;
      FailureOr<Type> given =
          proto::importType(parent->getContext(), *inputTypes[i], error);
      if (failed(given))
        continue;
      FailureOr<Type> merged = mergeTypes(arg.getType(), *given, error);
      if (failed(merged))
        fail_type_inference("subgraph input ", i, ": ", error);
      arg.setType(*merged);
    }
    if (failed(inferRegionTypes(region, state)))
      throw NestedFailure();
    Operation *term = block.empty() ? nullptr : &block.back();
    outputs.clear();
    if (!term)
      return {};
    outputs.resize(term->getNumOperands());
    std::vector<const onnx::TypeProto *> result;
    for (unsigned i = 0; i < term->getNumOperands(); ++i) {
      proto::exportType(term->getOperand(i).getType(), outputs[i]);
      result.push_back(&outputs[i]);
    }
    return result;
  }

private:
  Operation *parent;
  Region &region;
  InferenceState &state;
  std::vector<onnx::TypeProto> outputs;
};

/// The known values of `v` as libonnx's data propagation sees shape data:
/// only for tensors of rank 0 or 1 (onnxc follows higher ranks itself,
/// KnownData.cpp; libonnx's propagators read their input as a 1-D list).
static const onnx::TensorShapeProto *shapeDataForLibOnnx(Value v,
                                                         InferenceState &state) {
  if (!v)
    return nullptr;
  auto t = llvm::dyn_cast<RankedTensorType>(v.getType());
  if (t && t.getRank() > 1)
    return nullptr;
  return state.getImpl().getShapeData(v);
}

class OpInferenceContext final : public onnx::InferenceContext {
public:
  explicit OpInferenceContext(OpView &view) : view(view) {}

  const onnx::AttributeProto *
  getAttribute(const std::string &name) const override {
    return view.getAttribute(name);
  }
  size_t getNumInputs() const override { return view.getNumInputs(); }
  const onnx::TypeProto *getInputType(size_t i) const override {
    return view.getInputType(i);
  }
  const onnx::TensorProto *getInputData(size_t i) const override {
    Value v = view.getInput(i);
    return v ? view.state.getImpl().getTensorData(v) : nullptr;
  }
  size_t getNumOutputs() const override { return view.outputTypes.size(); }
  onnx::TypeProto *getOutputType(size_t i) override {
    if (i >= view.outputTypes.size())
      fail_type_inference("output ", i, " is out of range");
    return &view.outputTypes[i];
  }
  onnx::GraphInferencer *
  getGraphAttributeInferencer(const std::string &name) override {
    const ONNX::AttrInfo *ai = view.info.findAttr(name);
    if (!ai || ai->regionIndex < 0 ||
        ai->regionIndex >= (int)view.op->getNumRegions())
      fail_type_inference("no graph attribute '", name, "'");
    auto &slot = inferencers[name];
    if (!slot)
      slot = std::make_unique<RegionInferencer>(
          view.op, view.op->getRegion(ai->regionIndex), view.state);
    return slot.get();
  }
  const onnx::SparseTensorProto *getInputSparseData(size_t) const override {
    return nullptr;
  }
  const onnx::TensorShapeProto *getSymbolicInput(size_t i) const override {
    return shapeDataForLibOnnx(view.getInput(i), view.state);
  }

private:
  OpView &view;
  std::map<std::string, std::unique_ptr<RegionInferencer>> inferencers;
};

class OpDataPropagationContext final : public onnx::DataPropagationContext {
public:
  OpDataPropagationContext(OpView &view) : view(view) {
    for (unsigned i = 0; i < view.op->getNumResults(); ++i) {
      onnx::TypeProto t;
      proto::exportType(view.op->getResult(i).getType(), t);
      outputTypes.push_back(std::move(t));
    }
  }
  const onnx::AttributeProto *
  getAttribute(const std::string &name) const override {
    return view.getAttribute(name);
  }
  size_t getNumInputs() const override { return view.getNumInputs(); }
  const onnx::TypeProto *getInputType(size_t i) const override {
    return view.getInputType(i);
  }
  size_t getNumOutputs() const override { return outputTypes.size(); }
  const onnx::TypeProto *getOutputType(size_t i) const override {
    return i < outputTypes.size() ? &outputTypes[i] : nullptr;
  }
  const onnx::TensorShapeProto *getInputData(size_t i) override {
    return shapeDataForLibOnnx(view.getInput(i), view.state);
  }
  void addOutputData(size_t i, onnx::TensorShapeProto &&data) override {
    if (i < outputTypes.size())
      outputData.emplace_back(i, std::move(data));
  }

  std::vector<std::pair<size_t, onnx::TensorShapeProto>> outputData;

private:
  OpView &view;
  std::vector<onnx::TypeProto> outputTypes;
};

} // namespace

/// libonnx messages start with "[ShapeInferenceError] " or
/// "[TypeInferenceError] ".
static std::string cleanMessage(llvm::StringRef msg) {
  for (llvm::StringRef prefix :
       {"[ShapeInferenceError] ", "[TypeInferenceError] "})
    msg.consume_front(prefix);
  return msg.trim().str();
}

static const onnx::OpSchema *findSchema(const ONNX::OpInfo &info,
                                        llvm::StringRef name, int version) {
  std::string domain = ONNX::canonicalDomain(info.domain).str();
  if (domain == "ai.onnx")
    domain = "";
  return onnx::OpSchemaRegistry::Schema(name.str(), version, domain);
}

bool mlir::onnxc::hasLibOnnxSchema(const ONNX::OpInfo &info,
                                   llvm::StringRef name, int version) {
  return findSchema(info, name, version) != nullptr;
}

/// Imports the TypeProtos libonnx inferred into the result types.
static LogicalResult mergeOutputs(Operation *op, OpView &view) {
  for (unsigned i = 0; i < view.outputTypes.size(); ++i) {
    onnx::TypeProto &t = view.outputTypes[i];
    if (t.value_case() == onnx::TypeProto::VALUE_NOT_SET ||
        llvm::isa<NoneType>(op->getResult(i).getType()))
      continue;
    if (view.call.standInFor && t.has_tensor_type() &&
        t.tensor_type().elem_type() == onnx::TensorProto::UINT8)
      t.mutable_tensor_type()->set_elem_type(view.call.standInFor);
    // Some functions set a shape and leave the element type to the caller.
    if (t.has_tensor_type() && t.tensor_type().elem_type() == 0) {
      auto cur = llvm::dyn_cast<TensorType>(op->getResult(i).getType());
      if (!cur)
        continue;
      t.mutable_tensor_type()->set_elem_type(
          proto::getDataType(cur.getElementType()));
    }
    std::string error;
    FailureOr<Type> inferred = proto::importType(op->getContext(), t, error);
    if (failed(inferred))
      return op->emitOpError() << "result #" << i << ": " << error;
    if (failed(refineResult(op, i, *inferred)))
      return failure();
  }
  return success();
}

LogicalResult mlir::onnxc::inferWithLibOnnx(Operation *op,
                                            const ONNX::OpInfo &info,
                                            InferenceState &state,
                                            const SchemaCall &call) {
  llvm::StringRef name = call.schemaName.empty()
                             ? llvm::StringRef(info.onnxName)
                             : llvm::StringRef(call.schemaName);
  const onnx::OpSchema *schema = findSchema(info, name, call.version);
  if (!schema || !schema->has_type_and_shape_inference_function())
    return success();
  OpView view(op, info, state, call);
  try {
    OpInferenceContext ctx(view);
    schema->GetTypeAndShapeInferenceFunction()(ctx);
  } catch (const NestedFailure &) {
    return failure();
  } catch (const std::exception &e) {
    return op->emitOpError() << cleanMessage(e.what());
  } catch (...) {
    return op->emitOpError() << "type inference failed";
  }
  if (failed(mergeOutputs(op, view)))
    return failure();

  if (!schema->has_data_propagation_function())
    return success();
  try {
    OpDataPropagationContext ctx(view);
    schema->GetDataPropagationFunction()(ctx);
    for (auto &[index, data] : ctx.outputData)
      state.getImpl().setShapeData(op->getResult(index), std::move(data));
  } catch (...) {
    // Data propagation only sharpens inference: a failure is not an error
    // (inference proper has checked the op).
  }
  return success();
}

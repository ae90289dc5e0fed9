//===- Upgrade.cpp - Older opset signatures to the canonical ones ---------===//
//
// The dialect holds each op in its newest signature. A node written against
// an older one is rewritten here before it is built: attributes that became
// inputs turn into constants, legacy attributes are dropped where they are
// no-ops and refused where they change semantics. docs/opsets.md lists every
// rule. Rules run when the node's signature version is below the op's
// canonical version.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

namespace {

onnx::AttributeProto *findAttr(onnx::NodeProto &node, llvm::StringRef name) {
  for (onnx::AttributeProto &a : *node.mutable_attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

/// Removes attribute `name`; returns a copy of it if it was there.
std::optional<onnx::AttributeProto> takeAttr(onnx::NodeProto &node,
                                             llvm::StringRef name) {
  auto *attrs = node.mutable_attribute();
  for (int i = 0; i < attrs->size(); ++i)
    if (attrs->at(i).name() == name) {
      onnx::AttributeProto a = attrs->at(i);
      attrs->DeleteSubrange(i, 1);
      return a;
    }
  return std::nullopt;
}

/// Makes input `index` of `node` the value named `name` (padding with "").
void setInput(onnx::NodeProto &node, int index, const std::string &name) {
  while (node.input_size() <= index)
    node.add_input("");
  node.set_input(index, name);
}

void setStringAttr(onnx::NodeProto &node, const std::string &name,
                   const std::string &value) {
  onnx::AttributeProto *a = findAttr(node, name);
  if (!a) {
    a = node.add_attribute();
    a->set_name(name);
  }
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

void setIntAttr(onnx::NodeProto &node, const std::string &name, int64_t value) {
  onnx::AttributeProto *a = findAttr(node, name);
  if (!a) {
    a = node.add_attribute();
    a->set_name(name);
  }
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

bool isOneOf(llvm::StringRef s, std::initializer_list<llvm::StringRef> list) {
  return llvm::is_contained(list, s);
}

} // namespace

namespace {

/// One node's upgrade: the node, its scope, and the steps that rewrite it
/// from its signature version `v` to the canonical one, in order.
struct Upgrader {
  GraphImporter &gi;
  NodeState &n;
  Scope &scope;
  onnx::NodeProto &node;
  llvm::StringRef op;
  int64_t v;
  /// Synthesized constants get names no model uses.
  unsigned counter = 0;

  Upgrader(GraphImporter &gi, NodeState &n, Scope &scope)
      : gi(gi), n(n), scope(scope), node(n.node), op(n.node.op_type()),
        v(n.version) {}

  std::string bindValue(Value value) {
    std::string name =
        "onnxc.upgrade." + n.label + "." + std::to_string(counter++);
    scope.values[name] = value;
    return name;
  }
  Type inputType(int index) {
    if (index >= node.input_size() || node.input(index).empty())
      return {};
    Value in = scope.lookup(node.input(index));
    return in ? in.getType() : Type();
  }
  Type elementTypeOf(int index) {
    if (auto t = llvm::dyn_cast_or_null<TensorType>(inputType(index)))
      return t.getElementType();
    return {};
  }
  /// Moves the ints attribute `attr` to input `index` as a constant.
  LogicalResult intsToInput(llvm::StringRef attr, int index) {
    std::optional<onnx::AttributeProto> a = takeAttr(node, attr);
    if (!a)
      return success();
    SmallVector<int64_t> vals(a->ints().begin(), a->ints().end());
    if (index < node.input_size() && !node.input(index).empty())
      return gi.nodeError(n, "gives '" + attr.str() +
                                 "' both as attribute and input");
    setInput(node, index, bindValue(gi.makeI64Constant(vals)));
    return success();
  }

  /// Attributes of opset 1 that never changed semantics.
  void dropLegacyAttributes() {
    takeAttr(node, "consumed_inputs");
    if (isOneOf(op, {"BatchNormalization", "Dropout"}))
      takeAttr(node, "is_test");
    if (isOneOf(op, {"RNN", "GRU", "LSTM"}))
      takeAttr(node, "output_sequence");
  }

  /// Legacy broadcasting (opset < 7): `broadcast`/`axis` on binary ops.
  LogicalResult legacyBroadcast() {
    if (v < 7 && isOneOf(op, {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or",
                              "Xor", "Equal", "Greater", "Less", "Gemm"})) {
      std::optional<onnx::AttributeProto> b = takeAttr(node, "broadcast");
      std::optional<onnx::AttributeProto> axis = takeAttr(node, "axis");
      if (op != "Gemm" && b && b->i() == 1 && axis) {
        auto a = llvm::dyn_cast_or_null<RankedTensorType>(inputType(0));
        auto bt = llvm::dyn_cast_or_null<RankedTensorType>(inputType(1));
        if (!a || !bt)
          return gi.nodeError(
              n, "legacy broadcast with 'axis' needs ranked inputs");
        int64_t ax = axis->i() < 0 ? axis->i() + a.getRank() : axis->i();
        int64_t trailing = a.getRank() - ax - bt.getRank();
        if (ax < 0 || trailing < 0)
          return gi.nodeError(n, "legacy broadcast axis " +
                                     std::to_string(axis->i()) +
                                     " does not fit the input ranks");
        if (trailing > 0) {
          SmallVector<int64_t> axes;
          for (int64_t i = 0; i < trailing; ++i)
            axes.push_back(bt.getRank() + i);
          Value axesV = gi.makeI64Constant(axes);
          Operation *u = gi.createOp("onnx.Unsqueeze",
                                     {scope.lookup(node.input(1)), axesV}, {},
                                     1, gi.nodeLoc(n));
          if (!u)
            return failure();
          node.set_input(1, bindValue(u->getResult(0)));
        }
      }
    }
    return success();
  }

  /// PRelu before 7: a slope of shape [C] applies along the channel axis
  /// (1), not the last one: unsqueeze it to [C, 1, ..., 1].
  LogicalResult preluSlope() {
    if (op == "PRelu" && v < 7) {
      auto x = llvm::dyn_cast_or_null<RankedTensorType>(inputType(0));
      auto slope = llvm::dyn_cast_or_null<RankedTensorType>(inputType(1));
      if (x && slope && slope.getRank() == 1 && x.getRank() > 2 &&
          !(slope.getDimSize(0) == 1)) {
        SmallVector<int64_t> axes;
        for (int64_t i = 1; i < x.getRank() - 1; ++i)
          axes.push_back(i);
        Operation *u =
            gi.createOp("onnx.Unsqueeze",
                        {scope.lookup(node.input(1)), gi.makeI64Constant(axes)},
                        {}, 1, gi.nodeLoc(n));
        if (!u)
          return failure();
        node.set_input(1, bindValue(u->getResult(0)));
      }
    }
    return success();
  }

  /// Attributes that became inputs: constants in their place.
  LogicalResult attributesToInputs() {
    if (op.starts_with("Reduce") && findAttr(node, "axes"))
      if (failed(intsToInput("axes", 1)))
        return failure();
    if (op == "Split" && v < 13 && findAttr(node, "split"))
      if (failed(intsToInput("split", 1)))
        return failure();
    if (isOneOf(op, {"Squeeze", "Unsqueeze"}) && v < 13)
      if (failed(intsToInput("axes", 1)))
        return failure();
    if (op == "Reshape" && v < 5)
      if (failed(intsToInput("shape", 1)))
        return failure();

    if (op == "Slice" && v < 10) {
      if (failed(intsToInput("starts", 1)) || failed(intsToInput("ends", 2)) ||
          failed(intsToInput("axes", 3)))
        return failure();
    }

    if (op == "TopK" && v < 10) {
      std::optional<onnx::AttributeProto> k = takeAttr(node, "k");
      if (!k)
        return gi.nodeError(n, "TopK-1 requires attribute 'k'");
      setInput(node, 1, bindValue(gi.makeI64Constant({k->i()})));
    }

    if (op == "Pad" && v < 11) {
      std::optional<onnx::AttributeProto> pads = takeAttr(node, "pads");
      if (!pads)
        pads = takeAttr(node, "paddings");
      if (!pads)
        return gi.nodeError(n, "Pad before opset 11 requires attribute 'pads'");
      SmallVector<int64_t> vals(pads->ints().begin(), pads->ints().end());
      setInput(node, 1, bindValue(gi.makeI64Constant(vals)));
      std::optional<onnx::AttributeProto> value = takeAttr(node, "value");
      if (value && value->f() != 0) {
        Type elt = elementTypeOf(0);
        if (!elt)
          return gi.nodeError(n, "Pad value needs a typed input");
        setInput(node, 2, bindValue(gi.makeScalarConstant(elt, value->f())));
      }
    }

    if (op == "Clip" && v < 11) {
      std::optional<onnx::AttributeProto> lo = takeAttr(node, "min");
      std::optional<onnx::AttributeProto> hi = takeAttr(node, "max");
      Type elt = elementTypeOf(0);
      if ((lo || hi) && !elt)
        return gi.nodeError(n, "Clip min/max need a typed input");
      if (lo)
        setInput(node, 1, bindValue(gi.makeScalarConstant(elt, lo->f())));
      if (hi)
        setInput(node, 2, bindValue(gi.makeScalarConstant(elt, hi->f())));
    }

    if (op == "Dropout" && v < 12) {
      std::optional<onnx::AttributeProto> ratio = takeAttr(node, "ratio");
      if (ratio)
        setInput(node, 1,
                 bindValue(gi.makeScalarConstant(gi.builder.getF32Type(),
                                                 ratio->f())));
    }

    if (op == "Upsample" && v < 9) {
      std::optional<onnx::AttributeProto> scales = takeAttr(node, "scales");
      if (!scales)
        return gi.nodeError(n, "Upsample-7 requires attribute 'scales'");
      SmallVector<float> vals(scales->floats().begin(), scales->floats().end());
      auto type = RankedTensorType::get({(int64_t)vals.size()},
                                        gi.builder.getF32Type());
      OperationState st(gi.builder.getUnknownLoc(), "onnx.Constant");
      st.addAttribute("value",
                      DenseElementsAttr::get(type, ArrayRef<float>(vals)));
      st.addTypes(type);
      setInput(node, 1, bindValue(gi.builder.create(st)->getResult(0)));
    }
    return success();
  }

  /// Signatures that changed otherwise: inputs moved, attributes renamed,
  /// retyped or given new defaults; what has no canonical form refused.
  LogicalResult changedSignatures() {
    if (op == "Resize" && v < 11) {
      // Resize-10 (X, scales) has Upsample's asymmetric coordinates.
      // Resize-11 inserted `roi` before `scales`.
      std::string scales = node.input_size() > 1 ? node.input(1) : "";
      setInput(node, 1, "");
      setInput(node, 2, scales);
      setStringAttr(node, "coordinate_transformation_mode", "asymmetric");
      if (!findAttr(node, "nearest_mode"))
        setStringAttr(node, "nearest_mode", "floor");
    }

    if (op == "Cast" && v < 6) {
      onnx::AttributeProto *to = findAttr(node, "to");
      if (to && to->type() == onnx::AttributeProto::STRING) {
        static const std::map<std::string, int> names = {
            {"FLOAT", 1},    {"UINT8", 2},      {"INT8", 3},
            {"UINT16", 4},   {"INT16", 5},      {"INT32", 6},
            {"INT64", 7},    {"STRING", 8},     {"BOOL", 9},
            {"FLOAT16", 10}, {"DOUBLE", 11},    {"UINT32", 12},
            {"UINT64", 13},  {"COMPLEX64", 14}, {"COMPLEX128", 15}};
        auto it = names.find(to->s());
        if (it == names.end())
          return gi.nodeError(n, "Cast-1 'to' names unknown type '" + to->s() +
                                     "'");
        setIntAttr(node, "to", it->second);
      }
    }

    if (op == "Concat" && v < 4 && !findAttr(node, "axis"))
      setIntAttr(node, "axis", 1);

    if (op == "BatchNormalization") {
      if (std::optional<onnx::AttributeProto> s = takeAttr(node, "spatial");
          s && s->i() == 0)
        return gi.nodeError(
            n, "BatchNormalization with spatial=0 is not supported");
      if (v < 14) {
        for (int i = 3; i < node.output_size(); ++i)
          if (!node.output(i).empty())
            return gi.nodeError(n, "the saved_mean/saved_var outputs of "
                                   "BatchNormalization before opset 14 are not "
                                   "supported");
        while (node.output_size() > 3)
          node.mutable_output()->RemoveLast();
      }
    }

    if (op == "MeanVarianceNormalization" && v < 9) {
      std::optional<onnx::AttributeProto> across =
          takeAttr(node, "across_channels");
      std::optional<onnx::AttributeProto> normVar =
          takeAttr(node, "normalize_variance");
      if (normVar && normVar->i() == 0)
        return gi.nodeError(
            n, "MeanVarianceNormalization-1 with normalize_variance=0 "
               "is not supported");
      onnx::AttributeProto *axes = node.add_attribute();
      axes->set_name("axes");
      axes->set_type(onnx::AttributeProto::INTS);
      for (int64_t a : across && across->i() ? std::vector<int64_t>{0, 1, 2, 3}
                                             : std::vector<int64_t>{0, 2, 3})
        axes->add_ints(a);
    }

    if (op == "DFT" && v < 20) {
      std::optional<onnx::AttributeProto> axis = takeAttr(node, "axis");
      setInput(node, 2,
               bindValue(gi.makeI64Constant({axis ? axis->i() : 1}, true)));
    }

    if (op == "Tile" && v < 6)
      return gi.nodeError(n, "Tile-1 (tiles and axis inputs) is not supported");
    return success();
  }

  /// Softmax, LogSoftmax and Hardmax before 13 work on the input coerced to
  /// 2-D at `axis` (default 1): Op(x) = Reshape(Op13(Flatten(x, axis)),
  /// Shape(x)). Builds that itself (`handled`) unless the axis is the last.
  LogicalResult coercedSoftmax(bool &handled) {
    if (isOneOf(op, {"Softmax", "LogSoftmax", "Hardmax"}) && v < 13) {
      std::optional<onnx::AttributeProto> axisAttr = takeAttr(node, "axis");
      int64_t axis = axisAttr ? axisAttr->i() : 1;
      auto t = llvm::dyn_cast_or_null<RankedTensorType>(inputType(0));
      if (!t)
        return gi.nodeError(n, "upgrading " + op.str() + "-" +
                                   std::to_string(v) +
                                   " needs an input of known rank");
      int64_t rank = t.getRank();
      if (axis < 0)
        axis += rank;
      if (axis < 0 || axis > rank)
        return gi.nodeError(n, "axis " + std::to_string(axis) +
                                   " is out of range");
      if (axis == rank - 1 || rank <= 1) {
        setIntAttr(node, "axis", -1);
        return success();
      }
      Value x = scope.lookup(node.input(0));
      Location loc = gi.nodeLoc(n);
      Operation *flat = gi.createOp(
          "onnx.Flatten", {x},
          {gi.builder.getNamedAttr("axis", gi.builder.getI64IntegerAttr(axis))},
          1, loc);
      if (!flat)
        return failure();
      Operation *inner = gi.createOp(
          n.info->opName, {flat->getResult(0)},
          {gi.builder.getNamedAttr("axis", gi.builder.getI64IntegerAttr(-1))},
          1, loc);
      if (!inner)
        return failure();
      Operation *shape = gi.createOp("onnx.Shape", {x}, {}, 1, loc);
      if (!shape)
        return failure();
      Operation *back =
          gi.createOp("onnx.Reshape",
                      {inner->getResult(0), shape->getResult(0)}, {}, 1, loc);
      if (!back)
        return failure();
      if (node.output_size() && !node.output(0).empty())
        scope.values[node.output(0)] = back->getResult(0);
      handled = true;
      return success();
    }
    return success();
  }
};

} // namespace

LogicalResult GraphImporter::upgradeNode(NodeState &n, Scope &scope,
                                         bool &handled) {
  Upgrader u(*this, n, scope);
  u.dropLegacyAttributes();
  if (failed(u.legacyBroadcast()) || failed(u.preluSlope()) ||
      failed(u.attributesToInputs()) || failed(u.changedSignatures()))
    return failure();
  return u.coercedSoftmax(handled);
}

/// Ops of opsets 22-25 whose canonical signature covers their earlier
/// versions too: a node written against an opset before the op existed, or
/// using an input or attribute its opset does not have yet, is an error
/// (the canonical signature would accept it). Empty when the node is fine.
std::string import::opsetPatchError(const onnx::NodeProto &node, int64_t opset) {
  struct Since {
    const char *op;
    int64_t opset;
  };
  static const Since kFirst[] = {{"Attention", 23},     {"RMSNormalization", 23},
                                 {"RotaryEmbedding", 23}, {"Swish", 24},
                                 {"TensorScatter", 24}};
  for (const Since &s : kFirst)
    if (node.op_type() == s.op && opset < s.opset)
      return "op '" + node.op_type() + "' does not exist in opset " +
             std::to_string(opset) + " (it is new in opset " +
             std::to_string(s.opset) + ")";
  if (node.op_type() == "Attention") {
    if (opset < 24 && node.input_size() > 6 && !node.input(6).empty())
      return "input 'nonpad_kv_seqlen' needs opset 24 or later (the model "
             "imports opset " + std::to_string(opset) + ")";
    if (opset < 25)
      for (const onnx::AttributeProto &a : node.attribute())
        if (a.name() == "left_window_size" || a.name() == "right_window_size")
          return "attribute '" + a.name() + "' needs opset 25 or later (the "
                 "model imports opset " + std::to_string(opset) + ")";
  }
  return "";
}

/// The same for ai.onnx.ml opsets 4 and 5 (Patches.cpp): TreeEnsemble is new
/// in 5, LabelEncoder's tensor attributes in 4, and the opset-5 model has no
/// TreeEnsembleRegressor or TreeEnsembleClassifier (deprecated there, as
/// ONNX Runtime refuses them).
std::string import::mlOpsetPatchError(const onnx::NodeProto &node,
                                     int64_t opset) {
  const std::string &op = node.op_type();
  if (op == "TreeEnsemble" && opset < 5)
    return "op 'TreeEnsemble' does not exist in ai.onnx.ml opset " +
           std::to_string(opset) + " (it is new in opset 5)";
  if ((op == "TreeEnsembleRegressor" || op == "TreeEnsembleClassifier") &&
      opset >= 5)
    return "op '" + op + "' is deprecated in ai.onnx.ml opset 5 (the model "
           "imports opset " + std::to_string(opset) + "): use TreeEnsemble";
  if (op == "LabelEncoder" && opset < 4)
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == "keys_tensor" || a.name() == "values_tensor" ||
          a.name() == "default_tensor")
        return "attribute '" + a.name() + "' needs ai.onnx.ml opset 4 or "
               "later (the model imports opset " + std::to_string(opset) + ")";
  return "";
}

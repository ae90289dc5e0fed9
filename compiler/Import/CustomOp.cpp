//===- CustomOp.cpp - Nodes of domains onnxc does not know ----------------===//
//
// A node whose domain is none of ai.onnx, ai.onnx.ml and
// ai.onnx.preview.training, and that no model-local function defines, is a
// custom op: it becomes onnx.Custom, which convert-onnx-custom-to-call
// lowers to a call of the user's kernel onnxc_custom_<domain>_<op>
// (docs/custom-ops.md). onnxc cannot infer its results: each takes the type
// the model declares for it (value_info, or the graph's output), which
// must give an element type and a rank; dims it leaves unknown come from
// the kernel library's shape function at run time.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

LogicalResult GraphImporter::importCustomNode(
    NodeState &n, Scope &scope,
    const llvm::StringMap<onnx::TypeProto *> &valueInfo) {
  const onnx::NodeProto &node = n.node;
  std::string kernel =
      ONNX::CustomOp::getKernelName(n.domain, node.op_type());
  auto isTensor = [](Type t) {
    auto rt = llvm::dyn_cast<RankedTensorType>(t);
    return rt && !llvm::isa<ONNX::StringType>(rt.getElementType());
  };

  SmallVector<Value> operands;
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string &name = node.input(i);
    if (name.empty())
      return nodeError(n, "input " + std::to_string(i) +
                              " is absent: a custom op's inputs are all "
                              "present tensors");
    Value v = scope.lookup(name);
    if (!v)
      return nodeError(n, "input '" + name + "' is not defined");
    if (!isTensor(v.getType()))
      return nodeError(n, "input '" + name +
                              "' is not a numeric tensor of known rank (the "
                              "custom-op ABI passes those only)");
    operands.push_back(v);
  }

  SmallVector<NamedAttribute> attrs;
  for (onnx::AttributeProto &a : *n.node.mutable_attribute()) {
    int kind = proto::getAttributeKind(a);
    if (!a.ref_attr_name().empty())
      return nodeError(n, "attribute '" + a.name() +
                              "' refers to a function attribute outside a "
                              "function");
    if (kind != ONNX::kAttrInt && kind != ONNX::kAttrFloat &&
        kind != ONNX::kAttrString && kind != ONNX::kAttrInts &&
        kind != ONNX::kAttrFloats)
      return nodeError(n, "attribute '" + a.name() + "' is of kind " +
                              proto::getAttributeKindName(kind) +
                              ": the custom-op ABI passes int, float, string, "
                              "ints and floats");
    std::string error;
    FailureOr<Attribute> attr =
        proto::importAttribute(ctx, a, kind, /*policy=*/nullptr, error);
    if (failed(attr))
      return nodeError(n, "attribute '" + a.name() + "' " + error);
    attrs.push_back(builder.getNamedAttr(a.name(), *attr));
  }

  SmallVector<Type> resultTypes;
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &name = node.output(i);
    if (name.empty())
      return nodeError(n, "output " + std::to_string(i) +
                              " has no name: a custom op's outputs are all "
                              "produced");
    onnx::TypeProto *declared = valueInfo.lookup(name);
    if (!declared)
      declared = outputTypes.lookup(name);
    Type t;
    if (declared) {
      std::string error;
      FailureOr<Type> imported = proto::importType(ctx, *declared, error);
      if (failed(imported))
        return nodeError(n, "output '" + name + "': " + error);
      t = *imported;
    }
    if (!t || !isTensor(t))
      return nodeError(
          n, "output '" + name + "' has no shape source: onnxc cannot infer a "
                 "custom op's outputs; declare its element type and rank in "
                 "the model's value_info (dims left unknown come from " +
                 kernel + "_shape)");
    resultTypes.push_back(t);
  }
  if (resultTypes.empty())
    return nodeError(n, "has no outputs");

  auto op = ONNX::CustomOp::create(
      builder, nodeLoc(n), resultTypes, operands,
      builder.getStringAttr(n.domain), builder.getStringAttr(node.op_type()),
      builder.getDictionaryAttr(attrs));
  if (failed(mlir::verify(op)))
    return failure();
  for (int i = 0; i < node.output_size(); ++i)
    scope.values[node.output(i)] = op->getResult(i);
  return success();
}

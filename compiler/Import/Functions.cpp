//===- Functions.cpp - Model-local functions, inlined at each call --------===//
//
// A call of a model-local function (FunctionProto) imports the function's
// nodes in place, in a scope of their own that sees only the formal inputs;
// attribute references take the call's attribute values.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"
#include "compiler/Import/Limits.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

/// Function-call nesting beyond this is refused (the input controls the
/// depth of the importer's recursion).
static constexpr unsigned kMaxDepth = kMaxNesting;

namespace {
/// Replaces references to function attributes (ref_attr_name) by the call's
/// attribute values, in `node` and in its subgraphs.
void bindAttributeRefs(onnx::NodeProto &node,
                       const std::map<std::string, const onnx::AttributeProto *> &callAttrs) {
  std::vector<onnx::NodeProto *> work = {&node};
  while (!work.empty()) {
    onnx::NodeProto *n = work.back();
    work.pop_back();
    auto *attrs = n->mutable_attribute();
    for (int i = attrs->size() - 1; i >= 0; --i) {
      onnx::AttributeProto &a = attrs->at(i);
      if (!a.ref_attr_name().empty()) {
        auto it = callAttrs.find(a.ref_attr_name());
        if (it == callAttrs.end()) {
          attrs->DeleteSubrange(i, 1); // unset: the op's default applies
          continue;
        }
        std::string name = a.name();
        a = *it->second;
        a.set_name(name);
        continue;
      }
      if (a.has_g())
        for (auto &sn : *a.mutable_g()->mutable_node())
          work.push_back(&sn);
      for (auto &g : *a.mutable_graphs())
        for (auto &sn : *g.mutable_node())
          work.push_back(&sn);
    }
  }
}
} // namespace

LogicalResult GraphImporter::inlineFunction(const onnx::FunctionProto &fn,
                                            NodeState &n, Scope &scope) {
  if (++depth > kMaxDepth)
    return nodeError(n, "function calls are nested more than " +
                            std::to_string(kMaxDepth) + " deep (recursive function?)");
  if (n.node.input_size() > fn.input_size())
    return nodeError(n, "passes " + std::to_string(n.node.input_size()) +
                            " inputs to a function that takes " +
                            std::to_string(fn.input_size()));
  if (n.node.output_size() > fn.output_size())
    return nodeError(n, "expects " + std::to_string(n.node.output_size()) +
                            " outputs from a function that has " +
                            std::to_string(fn.output_size()));
  // The body sees only the formal inputs (functions capture nothing).
  Scope body;
  for (int i = 0; i < fn.input_size(); ++i) {
    std::string actual = i < n.node.input_size() ? n.node.input(i) : "";
    if (actual.empty()) {
      body.values[fn.input(i)] = noValue();
      continue;
    }
    Value v = scope.lookup(actual);
    if (!v)
      return nodeError(n, "input '" + actual + "' is not defined");
    body.values[fn.input(i)] = v;
  }
  std::map<std::string, const onnx::AttributeProto *> callAttrs;
  std::set<std::string> declared(fn.attribute().begin(), fn.attribute().end());
  for (const onnx::AttributeProto &a : n.node.attribute()) {
    if (!declared.count(a.name()))
      return nodeError(n, "function '" + fn.name() + "' has no attribute '" +
                              a.name() + "'");
    callAttrs[a.name()] = &a;
  }
  OpsetMap fnOpsets;
  std::string error;
  if (failed(readOpsets(fn.opset_import(), fnOpsets, error)))
    return nodeError(n, "function '" + fn.name() + "': " + error);
  std::vector<onnx::NodeProto> copies(fn.node().begin(), fn.node().end());
  std::vector<onnx::NodeProto *> ptrs;
  for (onnx::NodeProto &c : copies) {
    bindAttributeRefs(c, callAttrs);
    ptrs.push_back(&c);
  }
  llvm::StringMap<onnx::TypeProto *> noValueInfo;
  if (failed(importNodes(ptrs, body, fnOpsets, noValueInfo, n.label + "/")))
    return failure();
  for (int i = 0; i < n.node.output_size(); ++i) {
    if (n.node.output(i).empty())
      continue;
    Value v = body.values.lookup(fn.output(i));
    if (!v)
      return nodeError(n, "function '" + fn.name() + "' does not produce its output '" +
                              fn.output(i) + "'");
    scope.values[n.node.output(i)] = v;
  }
  --depth;
  return success();
}

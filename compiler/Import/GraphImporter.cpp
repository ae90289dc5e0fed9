//===- GraphImporter.cpp - Graphs and nodes to the dialect ---------------===//

#include "compiler/Import/GraphImporter.h"
#include "compiler/Import/Limits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"

#include "onnx/defs/schema.h"

#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

/// Subgraph and function-call nesting beyond this is refused (the input
/// controls the depth of the importer's recursion).
static constexpr unsigned kMaxDepth = kMaxNesting;

/// Whether `vi` declares a type. Exporters write subgraph outputs whose
/// TypeProto is present but empty (no tensor, sequence, map or optional
/// set): that declares nothing, as an absent type, and inference decides.
static bool hasType(const onnx::ValueInfoProto &vi) {
  return vi.has_type() &&
         vi.type().value_case() != onnx::TypeProto::VALUE_NOT_SET;
}

int64_t import::maxSupportedOpset(StringRef domain) {
  if (domain.empty())
    return 25;
  if (domain == "ai.onnx.ml")
    return 5;
  if (domain == "ai.onnx.preview.training")
    return 1;
  return 0;
}

/// Newest version libonnx 1.12 knows per domain.
static int64_t maxLibonnxOpset(StringRef domain) {
  if (domain.empty())
    return 17;
  if (domain == "ai.onnx.ml")
    return 3;
  return 1;
}

GraphImporter::GraphImporter(MLIRContext &ctx, std::string fileName,
                             std::string baseDir, uint64_t maxNodes)
    : builder(&ctx), ctx(&ctx), fileName(std::move(fileName)),
      inference(createInferenceState()), maxNodes(maxNodes) {
  policy.baseDir = std::move(baseDir);
  if (!policy.baseDir.empty())
    policyPtr = &policy;
}

Location GraphImporter::nodeLoc(const NodeState &n) const {
  // The node's name, around its ONNX op type: the lowering gives its ops
  // this location, so that their diagnostics still name the ONNX node
  // ("node 'conv1' (Conv): ...", see the driver's formatDiagnostic).
  std::string opType = n.node.op_type();
  if (!n.domain.empty())
    opType = n.domain + "." + opType;
  return NameLoc::get(
      StringAttr::get(ctx, n.label),
      FusedLoc::get(ctx, {FileLineColLoc::get(ctx, fileName, 0, 0)},
                    StringAttr::get(ctx, opType)));
}

LogicalResult GraphImporter::nodeError(const NodeState &n, const Twine &message) {
  std::string opType = n.node.op_type();
  if (!n.domain.empty())
    opType = n.domain + "." + opType;
  emitError(FileLineColLoc::get(ctx, fileName, 0, 0))
      << "node '" << n.label << "' (" << opType << "): " << message;
  return failure();
}

Value GraphImporter::noValue() { return cachedNoValue; }

Value GraphImporter::makeI64Constant(ArrayRef<int64_t> values, bool scalar) {
  SmallVector<int64_t> shape;
  if (!scalar)
    shape.push_back(values.size());
  auto type = RankedTensorType::get(shape, builder.getI64Type());
  OperationState st(builder.getUnknownLoc(), "onnx.Constant");
  st.addAttribute("value", DenseElementsAttr::get(type, values));
  st.addTypes(type);
  return builder.create(st)->getResult(0);
}

Value GraphImporter::makeScalarConstant(Type elementType, double v) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute value;
  if (auto ft = llvm::dyn_cast<FloatType>(elementType)) {
    value = DenseElementsAttr::get(type, builder.getFloatAttr(ft, v));
  } else if (auto it = llvm::dyn_cast<IntegerType>(elementType)) {
    value = DenseElementsAttr::get(
        type, builder.getIntegerAttr(it, APInt(it.getWidth(), (int64_t)v,
                                               !it.isUnsigned())));
  } else {
    return {};
  }
  OperationState st(builder.getUnknownLoc(), "onnx.Constant");
  st.addAttribute("value", value);
  st.addTypes(type);
  return builder.create(st)->getResult(0);
}

Operation *GraphImporter::createOp(StringRef opName, ValueRange operands,
                                   ArrayRef<NamedAttribute> attrs,
                                   unsigned numResults, Location loc) {
  OperationState st(loc, opName);
  st.addOperands(operands);
  st.addAttributes(attrs);
  st.addTypes(SmallVector<Type>(numResults, ONNX::UnknownType::get(ctx)));
  Operation *op = builder.create(st);
  if (failed(ONNX::verifyONNXOp(op)) || failed(inferOpTypes(op, *inference)))
    return nullptr;
  return op;
}

Value GraphImporter::importInitializer(onnx::TensorProto &t) {
  std::string error;
  FailureOr<ElementsAttr> value = proto::importTensor(ctx, t, policyPtr, error);
  if (failed(value)) {
    emitError(FileLineColLoc::get(ctx, fileName, 0, 0))
        << "initializer '" << t.name() << "': " << error;
    return {};
  }
  OperationState st(NameLoc::get(StringAttr::get(ctx, t.name())), "onnx.Constant");
  st.addAttribute("value", *value);
  st.addTypes(value->getType());
  return builder.create(st)->getResult(0);
}

Value GraphImporter::importSparseInitializer(onnx::SparseTensorProto &t) {
  std::string error;
  FailureOr<ElementsAttr> value =
      proto::importSparseTensor(ctx, t, policyPtr, error);
  std::string name = t.values().name();
  if (failed(value)) {
    emitError(FileLineColLoc::get(ctx, fileName, 0, 0))
        << "sparse initializer '" << name << "': " << error;
    return {};
  }
  OperationState st(NameLoc::get(StringAttr::get(ctx, name)), "onnx.Constant");
  st.addAttribute("value", *value);
  st.addTypes(value->getType());
  return builder.create(st)->getResult(0);
}

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

LogicalResult import::readOpsets(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto> &imports,
    OpsetMap &opsets, std::string &error) {
  for (const onnx::OperatorSetIdProto &o : imports) {
    std::string domain = ONNX::canonicalDomain(o.domain()).str();
    std::string shown = domain.empty() ? "ai.onnx" : domain;
    if (!opsets.emplace(domain, o.version()).second) {
      error = "domain '" + shown + "' is imported twice";
      return failure();
    }
  }
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::importModel(onnx::ModelProto &model) {
  Location fileLoc = FileLineColLoc::get(ctx, fileName, 0, 0);
  if (!model.has_graph()) {
    emitError(fileLoc) << "the model has no graph (not an ONNX model?)";
    return nullptr;
  }
  int64_t ir = model.ir_version();
  if (ir < 3 || ir > 10) {
    emitError(fileLoc) << "IR version " << ir
                       << " is not supported (onnxc accepts 3 to 10)";
    return nullptr;
  }
  // IR version 3 made opset_import required: no import is no opset, not
  // opset 1.
  if (model.opset_import_size() == 0) {
    emitError(fileLoc) << "the model imports no opset (opset_import is empty)";
    return nullptr;
  }
  OpsetMap opsets;
  std::string error;
  if (failed(readOpsets(model.opset_import(), opsets, error))) {
    emitError(fileLoc) << "opset_import: " << error;
    return nullptr;
  }
  for (const onnx::FunctionProto &f : model.functions()) {
    std::string domain = ONNX::canonicalDomain(f.domain()).str();
    if (!functions.emplace(std::make_pair(domain, f.name()), &f).second) {
      emitError(fileLoc) << "function '" << f.name() << "' of domain '"
                         << domain << "' is defined twice";
      return nullptr;
    }
    OpsetMap fnOpsets;
    if (failed(readOpsets(f.opset_import(), fnOpsets, error))) {
      emitError(fileLoc) << "function '" << f.name()
                         << "': opset_import: " << error;
      return nullptr;
    }
  }
  // Functions calling functions can expand a small file exponentially:
  // count before building anything.
  uint64_t expanded = countExpandedNodes(model, maxNodes + 1);
  if (expanded > maxNodes) {
    emitError(fileLoc) << "the model has more than " << maxNodes
                       << " nodes once its functions are inlined (the limit; "
                          "raise it with --max-nodes)";
    return nullptr;
  }

  // Owned here: an error below destroys what was built so far.
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  Builder b(ctx);
  SmallVector<NamedAttribute> opsetAttrs;
  for (auto &[d, v] : opsets)
    opsetAttrs.push_back(
        b.getNamedAttr(d.empty() ? "ai.onnx" : d, b.getI64IntegerAttr(v)));
  (*module)->setAttr("onnx.opset_import", b.getDictionaryAttr(opsetAttrs));
  (*module)->setAttr("onnx.ir_version", b.getI64IntegerAttr(ir));
  if (!model.producer_name().empty())
    (*module)->setAttr("onnx.producer", b.getStringAttr(model.producer_name()));

  if (!importFunction(*model.mutable_graph(), "main_graph", opsets, *module))
    return nullptr;
  if (model.training_info_size() > 0 &&
      failed(importTraining(model, opsets, *module)))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

func::FuncOp GraphImporter::importFunction(onnx::GraphProto &graph,
                                           StringRef name,
                                           const OpsetMap &opsets,
                                           ModuleOp module) {
  Location fileLoc = FileLineColLoc::get(ctx, fileName, 0, 0);
  Builder b(ctx);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, fileLoc, name,
                                   builder.getFunctionType({}, {}));
  mainBlock = func.addEntryBlock();
  builder.setInsertionPointToStart(mainBlock);
  {
    OperationState st(builder.getUnknownLoc(), "onnx.NoValue");
    st.addTypes(builder.getNoneType());
    cachedNoValue = builder.create(st)->getResult(0);
  }
  Scope scope;
  SmallVector<Type> resultTypes;
  SmallVector<std::string> inputNames, outputNames;
  if (failed(importGraph(graph, mainBlock, scope, opsets,
                         /*isMain=*/true, &resultTypes, &inputNames,
                         &outputNames)))
    return nullptr;
  func.setType(builder.getFunctionType(mainBlock->getArgumentTypes(), resultTypes));
  for (auto [i, name] : llvm::enumerate(inputNames))
    func.setArgAttr(i, "onnx.name", b.getStringAttr(name));
  for (auto [i, name] : llvm::enumerate(outputNames))
    func.setResultAttr(i, "onnx.name", b.getStringAttr(name));
  if (!graph.name().empty())
    func->setAttr("onnx.graph_name", b.getStringAttr(graph.name()));
  if (cachedNoValue.use_empty())
    cachedNoValue.getDefiningOp()->erase();
  cachedNoValue = nullptr;
  return func;
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

namespace {
/// Names a graph reads from enclosing scopes (its free names), computed
/// without recursion: subgraphs are visited through an explicit stack.
std::set<std::string> freeNames(const onnx::GraphProto &root) {
  std::set<std::string> result;
  struct Frame {
    const onnx::GraphProto *g;
    std::set<std::string> defined;
  };
  // Each subgraph's free names are those used and not defined by it or any
  // of its ancestors up to `root`.
  std::vector<Frame> stack;
  std::vector<std::pair<const onnx::GraphProto *, std::set<std::string>>> work;
  work.push_back({&root, {}});
  while (!work.empty()) {
    auto [g, inherited] = std::move(work.back());
    work.pop_back();
    std::set<std::string> defined = inherited;
    for (auto &i : g->input())
      defined.insert(i.name());
    for (auto &t : g->initializer())
      defined.insert(t.name());
    for (auto &t : g->sparse_initializer())
      defined.insert(t.values().name());
    for (auto &n : g->node())
      for (auto &o : n.output())
        defined.insert(o);
    for (auto &n : g->node()) {
      for (auto &i : n.input())
        if (!i.empty() && !defined.count(i))
          result.insert(i);
      for (auto &a : n.attribute()) {
        if (a.has_g())
          work.push_back({&a.g(), defined});
        for (auto &sg : a.graphs())
          work.push_back({&sg, defined});
      }
    }
    for (auto &o : g->output())
      if (!defined.count(o.name()))
        result.insert(o.name());
  }
  return result;
}

bool hasSubgraphs(const onnx::NodeProto &n) {
  for (auto &a : n.attribute())
    if (a.has_g() || a.graphs_size())
      return true;
  return false;
}
} // namespace

LogicalResult GraphImporter::importGraph(
    onnx::GraphProto &graph, Block *block, Scope &scope, const OpsetMap &opsets,
    bool isMain, SmallVectorImpl<Type> *resultTypes,
    SmallVectorImpl<std::string> *inputNames,
    SmallVectorImpl<std::string> *outputNames) {
  Location fileLoc = FileLineColLoc::get(ctx, fileName, 0, 0);
  std::string where = isMain ? "graph" : "subgraph '" + graph.name() + "'";
  auto fail = [&](const Twine &msg) {
    emitError(fileLoc) << where << ": " << msg;
    return failure();
  };
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);

  // Initializers (and sparse ones) become constants.
  std::set<std::string> initializerNames;
  for (onnx::TensorProto &t : *graph.mutable_initializer()) {
    if (t.name().empty())
      return fail("an initializer has no name");
    if (!initializerNames.insert(t.name()).second)
      return fail("initializer '" + t.name() + "' is defined twice");
    Value v = importInitializer(t);
    if (!v)
      return failure();
    scope.values[t.name()] = v;
  }
  for (onnx::SparseTensorProto &t : *graph.mutable_sparse_initializer()) {
    std::string name = t.values().name();
    if (!initializerNames.insert(name).second)
      return fail("initializer '" + name + "' is defined twice");
    Value v = importSparseInitializer(t);
    if (!v)
      return failure();
    scope.values[name] = v;
  }
  // Constants the training functions share with the main graph (imported
  // once: a weight's data is not copied again; Training.cpp).
  if (isMain && sharedConstants)
    for (const auto &[name, value] : *sharedConstants) {
      if (!initializerNames.insert(name.str()).second)
        return fail("initializer '" + name.str() + "' is defined twice");
      OperationState st(NameLoc::get(StringAttr::get(ctx, name)),
                        "onnx.Constant");
      st.addAttribute("value", value);
      st.addTypes(value.getType());
      scope.values[name] = builder.create(st)->getResult(0);
    }

  // Inputs. In the main graph an input that is also an initializer is a
  // constant (older exporters list every weight as an input); a subgraph's
  // inputs are all block arguments.
  std::set<std::string> inputSeen;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (in.name().empty())
      return fail("a graph input has no name");
    if (!inputSeen.insert(in.name()).second)
      return fail("input '" + in.name() + "' is listed twice");
    if (isMain && initializerNames.count(in.name()))
      continue;
    Type type;
    if (hasType(in)) {
      std::string error;
      FailureOr<Type> t = proto::importType(ctx, in.type(), error);
      if (failed(t))
        return fail("input '" + in.name() + "': " + error);
      type = *t;
    } else if (isMain) {
      return fail("input '" + in.name() + "' has no type");
    } else {
      type = ONNX::UnknownType::get(ctx); // Loop/Scan bodies may omit types
    }
    scope.values[in.name()] =
        block->addArgument(type, NameLoc::get(StringAttr::get(ctx, in.name())));
    if (inputNames)
      inputNames->push_back(in.name());
  }

  llvm::StringMap<onnx::TypeProto *> valueInfo;
  for (onnx::ValueInfoProto &vi : *graph.mutable_value_info())
    if (hasType(vi))
      valueInfo[vi.name()] = vi.mutable_type();

  // The graph's declared output types: what types a custom node's results
  // when no value_info does (CustomOp.cpp).
  llvm::StringMap<onnx::TypeProto *> outerOutputTypes = std::move(outputTypes);
  outputTypes.clear();
  for (onnx::ValueInfoProto &out : *graph.mutable_output())
    if (hasType(out))
      outputTypes[out.name()] = out.mutable_type();

  std::vector<onnx::NodeProto *> nodes;
  for (onnx::NodeProto &n : *graph.mutable_node())
    nodes.push_back(&n);
  if (failed(importNodes(nodes, scope, opsets, valueInfo, "")))
    return failure();
  outputTypes = std::move(outerOutputTypes);

  // Outputs.
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    Value v = scope.lookup(out.name());
    if (!v)
      return fail("output '" + out.name() + "' is not produced by any node");
    if (hasType(out)) {
      std::string error;
      FailureOr<Type> t = mergeDeclaredType(v, out.name(), out.type(), error);
      if (failed(t))
        return fail("output '" + out.name() + "': " + error);
      // A declared type may be more precise than what inference found; it is
      // recorded on the value when it is produced inside this graph.
      if (*t != v.getType() && v.getParentBlock() == block &&
          !llvm::isa<BlockArgument>(v))
        v.setType(*t);
    }
    if (llvm::isa<ONNX::UnknownType>(v.getType()))
      return fail("the type of output '" + out.name() + "' is unknown");
    results.push_back(v);
    if (outputNames)
      outputNames->push_back(out.name());
  }
  builder.setInsertionPointToEnd(block);
  if (isMain) {
    func::ReturnOp::create(builder, fileLoc, results);
  } else {
    OperationState st(fileLoc, "onnx.Yield");
    st.addOperands(results);
    builder.create(st);
  }
  if (resultTypes)
    for (Value v : results)
      resultTypes->push_back(v.getType());
  return success();
}

FailureOr<Type> GraphImporter::mergeDeclaredType(Value v, StringRef name,
                                                 const onnx::TypeProto &declared,
                                                 std::string &error) {
  FailureOr<Type> d = proto::importType(ctx, declared, error);
  if (failed(d)) {
    // An output declared without an element type says nothing.
    if (declared.has_tensor_type() && declared.tensor_type().elem_type() == 0) {
      error.clear();
      return v.getType();
    }
    return failure();
  }
  Type cur = v.getType();
  if (llvm::isa<ONNX::UnknownType>(cur))
    return *d;
  auto ct = llvm::dyn_cast<TensorType>(cur);
  auto dt = llvm::dyn_cast<TensorType>(*d);
  if (ct && dt) {
    if (ct.getElementType() != dt.getElementType()) {
      std::string s1, s2;
      llvm::raw_string_ostream o1(s1), o2(s2);
      o1 << cur;
      o2 << *d;
      error = "declared type " + s2 + " does not match the computed type " + s1;
      return failure();
    }
    auto cr = llvm::dyn_cast<RankedTensorType>(ct);
    auto dr = llvm::dyn_cast<RankedTensorType>(dt);
    if (!dr)
      return cur;
    if (!cr)
      return *d;
    // Inference is authoritative over a wrong declaration, as in ONNX
    // Runtime's lenient merge, and the user is told (a rank or a dim).
    auto contradicts = [&]() {
      emitWarning(FileLineColLoc::get(ctx, fileName, 0, 0))
          << "output '" << name << "': declared type " << dt
          << " contradicts the inferred " << cur
          << "; the inferred type is kept";
      return cur;
    };
    if (cr.getRank() != dr.getRank())
      return contradicts();
    SmallVector<int64_t> shape;
    SmallVector<std::string> names;
    for (unsigned i = 0; i < cr.getRank(); ++i) {
      int64_t a = cr.getDimSize(i), b = dr.getDimSize(i);
      if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
        return contradicts();
      if (!ShapedType::isDynamic(a)) {
        shape.push_back(a);
        names.push_back("");
      } else {
        shape.push_back(b);
        StringRef n = ONNX::getDimName(cr, i);
        names.push_back((n.empty() ? ONNX::getDimName(dr, i) : n).str());
      }
    }
    SmallVector<StringRef> refs(names.begin(), names.end());
    return Type(ONNX::getTensorType(shape, cr.getElementType(), refs));
  }
  return cur;
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

LogicalResult GraphImporter::importNodes(
    std::vector<onnx::NodeProto *> &nodes, Scope &scope, const OpsetMap &opsets,
    const llvm::StringMap<onnx::TypeProto *> &valueInfo, StringRef labelPrefix) {
  Location fileLoc = FileLineColLoc::get(ctx, fileName, 0, 0);
  auto label = [&](size_t i) {
    const std::string &name = nodes[i]->name();
    return labelPrefix.str() + (name.empty() ? "#" + std::to_string(i) : name);
  };
  // Producers of every name defined in this graph.
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const std::string &o : nodes[i]->output()) {
      if (o.empty())
        continue;
      if (scope.values.count(o)) {
        emitError(fileLoc) << "node '" << label(i) << "' (" << nodes[i]->op_type()
                           << "): output '" << o
                           << "' redefines a graph input or initializer";
        return failure();
      }
      auto [it, fresh] = producer.emplace(o, i);
      if (!fresh) {
        emitError(fileLoc) << "node '" << label(i) << "' (" << nodes[i]->op_type()
                           << "): output '" << o << "' is also produced by node '"
                           << label(it->second) << "'";
        return failure();
      }
    }
  // Dependencies (inputs, and names subgraphs read) -> a stable topological
  // order: the original order wherever it is already valid.
  std::vector<std::vector<size_t>> users(nodes.size());
  std::vector<size_t> pending(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::set<std::string> needs(nodes[i]->input().begin(), nodes[i]->input().end());
    // A Gradient reads the tensor its `y` attribute names.
    if (nodes[i]->op_type() == "Gradient")
      for (auto &a : nodes[i]->attribute())
        if (a.name() == "y")
          needs.insert(a.s());
    if (hasSubgraphs(*nodes[i]))
      for (auto &a : nodes[i]->attribute()) {
        if (a.has_g())
          for (auto &n : freeNames(a.g()))
            needs.insert(n);
        for (auto &g : a.graphs())
          for (auto &n : freeNames(g))
            needs.insert(n);
      }
    for (const std::string &name : needs) {
      if (name.empty())
        continue;
      auto it = producer.find(name);
      if (it != producer.end()) {
        if (it->second == i) {
          emitError(fileLoc) << "node '" << label(i) << "' ("
                             << nodes[i]->op_type() << "): reads its own output '"
                             << name << "'";
          return failure();
        }
        users[it->second].push_back(i);
        ++pending[i];
      } else if (!scope.lookup(name)) {
        emitError(fileLoc) << "node '" << label(i) << "' (" << nodes[i]->op_type()
                           << "): input '" << name << "' is not defined";
        return failure();
      }
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!pending[i])
      ready.push(i);
  size_t done = 0;
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    ++done;
    if (failed(importNode(*nodes[i], i, scope, opsets, valueInfo, labelPrefix)))
      return failure();
    for (size_t u : users[i])
      if (--pending[u] == 0)
        ready.push(u);
  }
  if (done != nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i)
      if (pending[i]) {
        emitError(fileLoc) << "node '" << label(i) << "' (" << nodes[i]->op_type()
                           << "): the graph has a cycle through this node";
        return failure();
      }
  }
  return success();
}

LogicalResult GraphImporter::importNode(
    onnx::NodeProto &node, size_t index, Scope &scope, const OpsetMap &opsets,
    const llvm::StringMap<onnx::TypeProto *> &valueInfo, StringRef labelPrefix) {
  NodeState n;
  n.node = node;
  n.label = labelPrefix.str() +
            (node.name().empty() ? "#" + std::to_string(index) : node.name());
  n.domain = ONNX::canonicalDomain(node.domain()).str();

  auto fn = functions.find({n.domain, node.op_type()});
  if (fn != functions.end())
    return inlineFunction(*fn->second, n, scope);
  // countExpandedNodes bounds this up front; graph attributes a function
  // call binds into its body may still multiply.
  if (++numNodes > maxNodes)
    return nodeError(n, "the model has more than " + std::to_string(maxNodes) +
                            " nodes once its functions are inlined (the "
                            "limit; raise it with --max-nodes)");

  // Before anything reads them (Constant's value_*, the upgrades).
  for (const onnx::AttributeProto &a : node.attribute())
    if (std::string error;
        a.ref_attr_name().empty() && !proto::checkAttributeFields(a, error))
      return nodeError(n, "attribute '" + a.name() + "' " + error);

  int64_t maxOpset = maxSupportedOpset(n.domain);
  // A domain onnxc does not know: the user's kernel (CustomOp.cpp).
  if (!maxOpset)
    return importCustomNode(n, scope, valueInfo);
  auto opsetIt = opsets.find(n.domain);
  if (opsetIt == opsets.end())
    return nodeError(n, "the model imports no opset for domain '" +
                            (n.domain.empty() ? "ai.onnx" : n.domain) + "'");
  int64_t opset = opsetIt->second;
  if (opset < 1 || opset > maxOpset)
    return nodeError(n, "opset " + std::to_string(opset) + " of domain '" +
                            (n.domain.empty() ? "ai.onnx" : n.domain) +
                            "' is not supported (onnxc supports 1 to " +
                            std::to_string(maxOpset) + ")");
  n.info = ONNX::lookupOpInfo(n.domain, node.op_type());
  if (!n.info)
    return nodeError(n, "unknown op '" + node.op_type() + "'");

  if (n.domain == "ai.onnx.ml")
    if (std::string error = mlOpsetPatchError(n.node, opset); !error.empty())
      return nodeError(n, error);
  // The signature this node was written against.
  if (opset > maxLibonnxOpset(n.domain)) {
    // libonnx 1.12 has no schema this new: the patched canonical signature
    // covers opsets 18-25, except DFT whose axis became an input at 20.
    if (n.domain.empty())
      if (std::string error = opsetPatchError(n.node, opset); !error.empty())
        return nodeError(n, error);
    n.version = (node.op_type() == "DFT" && opset < 20) ? 17 : n.info->sinceVersion;
  } else {
    const onnx::OpSchema *schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), (int)opset, n.domain);
    if (!schema)
      return nodeError(n, "op '" + node.op_type() + "' does not exist in opset " +
                              std::to_string(opset));
    n.version = std::max<int64_t>(schema->since_version(),
                                  opset >= n.info->sinceVersion ? n.info->sinceVersion : 0);
  }
  if (n.domain.empty() && node.op_type() == "Scan" && n.version < 9)
    n.info = ONNX::lookupOpInfo("onnx.ScanV8");

  if (node.op_type() == "Constant" && n.domain.empty() &&
      failed(normalizeConstant(n)))
    return failure();
  bool handled = false;
  if (n.version < n.info->sinceVersion && failed(upgradeNode(n, scope, handled)))
    return failure();
  if (handled)
    return success();
  return buildOp(n, scope, valueInfo, opsets);
}

LogicalResult GraphImporter::normalizeConstant(NodeState &n) {
  // All value_* forms become a tensor `value`.
  if (n.node.attribute_size() != 1)
    return nodeError(n, "Constant needs exactly one value attribute, it has " +
                            std::to_string(n.node.attribute_size()));
  onnx::AttributeProto &a = *n.node.mutable_attribute(0);
  if (!a.ref_attr_name().empty())
    return success(); // resolved by function inlining before this point
  const std::string name = a.name();
  onnx::TensorProto t;
  using TP = onnx::TensorProto;
  if (name == "value" || name == "sparse_value")
    return success();
  if (name == "value_float") {
    t.set_data_type(TP::FLOAT);
    t.add_float_data(a.f());
  } else if (name == "value_floats") {
    t.set_data_type(TP::FLOAT);
    t.add_dims(a.floats_size());
    for (float f : a.floats())
      t.add_float_data(f);
  } else if (name == "value_int") {
    t.set_data_type(TP::INT64);
    t.add_int64_data(a.i());
  } else if (name == "value_ints") {
    t.set_data_type(TP::INT64);
    t.add_dims(a.ints_size());
    for (int64_t i : a.ints())
      t.add_int64_data(i);
  } else if (name == "value_string") {
    t.set_data_type(TP::STRING);
    t.add_string_data(a.s());
  } else if (name == "value_strings") {
    t.set_data_type(TP::STRING);
    t.add_dims(a.strings_size());
    for (const std::string &s : a.strings())
      t.add_string_data(s);
  } else {
    return nodeError(n, "unknown attribute '" + name + "'");
  }
  a.Clear();
  a.set_name("value");
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = std::move(t);
  return success();
}

LogicalResult GraphImporter::buildOp(
    NodeState &n, Scope &scope, const llvm::StringMap<onnx::TypeProto *> &valueInfo,
    const OpsetMap &opsets) {
  const ONNX::OpInfo &info = *n.info;
  const onnx::NodeProto &node = n.node;

  // Operands: one per formal input (none when absent), then the variadic tail.
  ArrayRef<ONNX::ParamInfo> ins = info.getInputs();
  bool variadicIn = !ins.empty() && ins.back().option == ONNX::ParamInfo::Variadic;
  size_t fixedIn = variadicIn ? ins.size() - 1 : ins.size();
  if (!variadicIn && (size_t)node.input_size() > ins.size())
    return nodeError(n, "has " + std::to_string(node.input_size()) +
                            " inputs, the op takes at most " +
                            std::to_string(ins.size()));
  SmallVector<Value> operands;
  for (size_t i = 0; i < std::max<size_t>(fixedIn, node.input_size()); ++i) {
    std::string name = i < (size_t)node.input_size() ? node.input(i) : "";
    bool optional = i < fixedIn && ins[i].option == ONNX::ParamInfo::Optional;
    if (name.empty()) {
      if (i < fixedIn && !optional)
        return nodeError(n, "required input '" + std::string(ins[i].name) +
                                "' is missing");
      if (i >= fixedIn)
        return nodeError(n, "a variadic input has an empty name");
      operands.push_back(noValue());
      continue;
    }
    Value v = scope.lookup(name);
    if (!v)
      return nodeError(n, "input '" + name + "' is not defined");
    operands.push_back(v);
  }

  // Gradient: the tensor `y` names follows the inputs (xs, zs) as the last
  // operand (onnx-autodiff differentiates it; Verify.cpp checks the count).
  if (StringRef(info.opName) == "onnx.training.Gradient") {
    std::string y;
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == "y")
        y = a.s();
    Value v = y.empty() ? Value() : scope.lookup(y);
    if (!v)
      return nodeError(n, "y '" + y + "' is not a tensor of the graph");
    operands.push_back(v);
  }

  // Attributes; graph attributes become regions.
  SmallVector<NamedAttribute> attrs;
  SmallVector<onnx::GraphProto *> graphs(info.getNumRegions(), nullptr);
  std::set<std::string> seen;
  for (onnx::AttributeProto &a : *n.node.mutable_attribute()) {
    if (!seen.insert(a.name()).second)
      return nodeError(n, "attribute '" + a.name() + "' is given twice");
    if (!a.ref_attr_name().empty())
      return nodeError(n, "attribute '" + a.name() +
                              "' refers to a function attribute outside a function");
    const ONNX::AttrInfo *ai = info.findAttr(a.name());
    if (!ai)
      return nodeError(n, "unknown attribute '" + a.name() + "'");
    if (ai->kind == ONNX::kAttrGraph) {
      if (proto::getAttributeKind(a) != ONNX::kAttrGraph)
        return nodeError(n, "attribute '" + a.name() + "' must be a graph");
      graphs[ai->regionIndex] = a.mutable_g();
      continue;
    }
    std::string error;
    FailureOr<Attribute> attr =
        proto::importAttribute(ctx, a, ai->kind, policyPtr, error);
    if (failed(attr))
      return nodeError(n, "attribute '" + a.name() + "' " + error);
    attrs.push_back(builder.getNamedAttr(a.name(), *attr));
  }
  for (const ONNX::AttrInfo &ai : info.getAttrs())
    if (ai.required && !seen.count(ai.name))
      return nodeError(n, "required attribute '" + std::string(ai.name) +
                              "' is missing");

  // Results: one per formal output (none when absent), then the variadic tail.
  ArrayRef<ONNX::ParamInfo> outs = info.getOutputs();
  bool variadicOut =
      !outs.empty() && outs.back().option == ONNX::ParamInfo::Variadic;
  size_t fixedOut = variadicOut ? outs.size() - 1 : outs.size();
  if (!variadicOut && (size_t)node.output_size() > outs.size())
    return nodeError(n, "has " + std::to_string(node.output_size()) +
                            " outputs, the op has at most " +
                            std::to_string(outs.size()));
  size_t numResults = std::max<size_t>(fixedOut, node.output_size());
  SmallVector<Type> resultTypes;
  for (size_t i = 0; i < numResults; ++i) {
    std::string name = i < (size_t)node.output_size() ? node.output(i) : "";
    if (name.empty()) {
      if (i < fixedOut && outs[i].option != ONNX::ParamInfo::Optional &&
          i < (size_t)node.output_size())
        return nodeError(n, "required output '" + std::string(outs[i].name) +
                                "' has an empty name");
      if (i < fixedOut && outs[i].option != ONNX::ParamInfo::Optional)
        return nodeError(n, "required output '" + std::string(outs[i].name) +
                                "' is missing");
      resultTypes.push_back(builder.getNoneType());
      continue;
    }
    Type t = ONNX::UnknownType::get(ctx);
    if (onnx::TypeProto *vi = valueInfo.lookup(name)) {
      std::string error;
      FailureOr<Type> declared = proto::importType(ctx, *vi, error);
      if (succeeded(declared))
        t = *declared;
    }
    resultTypes.push_back(t);
  }

  OperationState st(nodeLoc(n), info.opName);
  st.addOperands(operands);
  st.addAttributes(attrs);
  st.addTypes(resultTypes);
  SmallVector<Region *> regions;
  for (size_t r = 0; r < graphs.size(); ++r)
    regions.push_back(st.addRegion());
  Operation *op = builder.create(st);

  for (size_t r = 0; r < graphs.size(); ++r) {
    if (!graphs[r])
      return nodeError(n, "a graph attribute is missing");
    if (++depth > kMaxDepth)
      return nodeError(n, "subgraphs are nested more than " +
                              std::to_string(kMaxDepth) + " deep");
    Block *body = new Block();
    op->getRegion(r).push_back(body);
    Scope inner;
    inner.parent = &scope;
    if (failed(importGraph(*graphs[r], body, inner, opsets, /*isMain=*/false,
                           nullptr, nullptr, nullptr)))
      return failure();
    --depth;
  }

  // The op's own checks (attribute values, ranks) run before libonnx sees
  // it: libonnx's inference functions trust them (a zero stride divides).
  if (failed(ONNX::verifyONNXOp(op)) || failed(inferOpTypes(op, *inference)))
    return failure();
  SmallVector<Value> results(op->getResults());
  if (StringRef(info.opName) == "onnx.If")
    results = foldKnownIf(op);
  else
    results = foldKnownResults(op);
  for (size_t i = 0; i < numResults; ++i) {
    std::string name = i < (size_t)node.output_size() ? node.output(i) : "";
    if (name.empty())
      continue;
    if (llvm::isa<ONNX::UnknownType>(results[i].getType()))
      return nodeError(n, "cannot infer the type of output '" + name + "'");
    scope.values[name] = results[i];
  }
  return success();
}

/// An op whose every result inference knows in full (shape arithmetic on
/// constants: Shape of a static tensor, Reshape/Slice/Transpose/Concat of
/// constant pads, comparisons of known dims) becomes constants, so that the
/// ops reading them see constants (a Pad's pads, a Reshape's shape) and
/// nothing of it is computed at run time.
SmallVector<Value> GraphImporter::foldKnownResults(Operation *op) {
  SmallVector<Value> results(op->getResults());
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Constant" || name == "onnx.NoValue")
    return results;
  SmallVector<DenseElementsAttr> values = getKnownResults(op, *inference);
  if (values.empty())
    return results;
  OpBuilder b(op);
  for (auto [k, v] : llvm::enumerate(values)) {
    OperationState st(op->getLoc(), "onnx.Constant");
    st.addAttribute("value", v);
    st.addTypes(v.getType());
    results[k] = b.create(st)->getResult(0);
  }
  eraseInferredOp(op, *inference);
  return results;
}

/// An If whose condition inference knows (exporters turn `if x.dim() == 1`
/// into If(Equal(Size(Shape(x)), 1))) becomes the branch it takes: its ops
/// move before the If, which goes. The other branch may yield another rank,
/// which would leave the If's results unranked. Returns the values that
/// stand for the If's results (its own when the condition is not known).
SmallVector<Value> GraphImporter::foldKnownIf(Operation *op) {
  SmallVector<Value> results(op->getResults());
  std::optional<int64_t> cond = getKnownScalar(op->getOperand(0), *inference);
  if (!cond || op->getNumRegions() != 2)
    return results;
  Region &taken = op->getRegion(*cond ? 0 : 1);
  if (taken.empty() || taken.front().empty())
    return results;
  Block &body = taken.front();
  Operation *yield = &body.back();
  if (yield->getNumOperands() != op->getNumResults())
    return results;
  results.assign(yield->getOperands().begin(), yield->getOperands().end());
  op->getBlock()->getOperations().splice(op->getIterator(),
                                         body.getOperations(), body.begin(),
                                         yield->getIterator());
  eraseInferredOp(op, *inference);
  return results;
}

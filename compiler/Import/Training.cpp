//===- Training.cpp - TrainingInfoProto -> the training functions ---------===//
//
// A model with a TrainingInfoProto gets, beside @main_graph, three functions
// over its mutable state (docs/training.md):
//   @train_init()                      -> (state...)
//   @train_step(state..., inputs..., algorithm inputs...)
//                                      -> (algorithm outputs..., updates...)
// where the algorithm outputs are those no key is updated from (the loss).
//   @train_infer(state..., inputs...)  -> (outputs...)
// The state is every key of update_binding (in order), then the keys of
// initialization_binding that are not among them: initializers of the main
// graph or of the algorithm. Each function is imported from a graph built
// here: the step from the main graph's nodes followed by the algorithm's
// (the spec runs the algorithm on the concatenation of both), with the
// state keys turned from initializers into inputs; the init from the
// initialization graph, its outputs routed by initialization_binding (a key
// it does not bind keeps its initializer's value). @train_step's results
// after the algorithm's outputs are the update_binding values, in key order.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <set>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

namespace {

/// The ValueInfoProto of an initializer used as a graph input.
onnx::ValueInfoProto inputFor(const onnx::TensorProto &t) {
  onnx::ValueInfoProto vi;
  vi.set_name(t.name());
  auto *tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(t.data_type());
  auto *shape = tt->mutable_shape();
  for (int64_t d : t.dims())
    shape->add_dim()->set_dim_value(d);
  return vi;
}

/// A graph output that only names a value (inference gives its type).
onnx::ValueInfoProto outputNamed(const std::string &name) {
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  return vi;
}

/// Appends `from`'s value_info (the initializers come as shared constants:
/// importing a TensorProto hands its data to the IR, so each is imported
/// once).
void addValueInfo(onnx::GraphProto &to, const onnx::GraphProto &from) {
  for (const onnx::ValueInfoProto &vi : from.value_info())
    *to.add_value_info() = vi;
}

/// The graph inputs of `g` that are not initializers (older exporters list
/// every weight as an input too) nor state keys.
void addInputs(onnx::GraphProto &to, const onnx::GraphProto &g,
               const std::set<std::string> &state) {
  std::set<std::string> inits;
  for (const onnx::TensorProto &t : g.initializer())
    inits.insert(t.name());
  for (const onnx::ValueInfoProto &in : g.input())
    if (!inits.count(in.name()) && !state.count(in.name()))
      *to.add_input() = in;
}

} // namespace

LogicalResult GraphImporter::importTraining(onnx::ModelProto &model,
                                            const OpsetMap &opsets,
                                            ModuleOp module) {
  Location fileLoc = FileLineColLoc::get(ctx, fileName, 0, 0);
  auto fail = [&](const Twine &msg) {
    emitError(fileLoc) << "training_info: " << msg;
    return failure();
  };
  if (model.training_info_size() != 1)
    return fail("the model has " + Twine(model.training_info_size()) +
                " TrainingInfoProtos; onnxc supports one");
  const onnx::TrainingInfoProto &ti = model.training_info(0);
  const onnx::GraphProto &mainGraph = model.graph();
  const onnx::GraphProto &algo = ti.algorithm();
  const onnx::GraphProto &init = ti.initialization();

  // Initializers a key may name.
  std::map<std::string, const onnx::TensorProto *> inits;
  for (const onnx::GraphProto *g : {&mainGraph, &algo})
    for (const onnx::TensorProto &t : g->initializer())
      inits[t.name()] = &t;
  std::set<std::string> algoOutputs, mainOutputs, initOutputs;
  for (const onnx::ValueInfoProto &o : algo.output())
    algoOutputs.insert(o.name());
  for (const onnx::ValueInfoProto &o : mainGraph.output())
    mainOutputs.insert(o.name());
  for (const onnx::ValueInfoProto &o : init.output())
    initOutputs.insert(o.name());

  // The state: update_binding keys in order, then the other
  // initialization_binding keys.
  std::vector<std::string> state;
  std::set<std::string> stateSet;
  std::vector<std::string> updates;
  for (const onnx::StringStringEntryProto &e : ti.update_binding()) {
    std::string what = "update_binding '" + e.key() + "' -> '" + e.value() + "'";
    if (!inits.count(e.key()))
      return fail(what + ": the key is not an initializer of the main graph "
                         "or of the algorithm");
    if (!stateSet.insert(e.key()).second)
      return fail(what + ": the key is bound twice");
    if (!algoOutputs.count(e.value()) && !mainOutputs.count(e.value()))
      return fail(what + ": the value is not an output of the algorithm or "
                         "of the main graph");
    state.push_back(e.key());
    updates.push_back(e.value());
  }
  std::map<std::string, std::string> initBinding;
  for (const onnx::StringStringEntryProto &e : ti.initialization_binding()) {
    std::string what =
        "initialization_binding '" + e.key() + "' -> '" + e.value() + "'";
    if (!inits.count(e.key()))
      return fail(what + ": the key is not an initializer of the main graph "
                         "or of the algorithm");
    if (!initBinding.emplace(e.key(), e.value()).second)
      return fail(what + ": the key is bound twice");
    if (!initOutputs.count(e.value()))
      return fail(what + ": the value is not an output of the initialization");
    if (stateSet.insert(e.key()).second)
      state.push_back(e.key());
  }
  if (init.input_size())
    return fail("the initialization graph has inputs; it must have none");
  if (state.empty())
    return fail("no update_binding or initialization_binding: nothing to "
                "train");

  // Every initializer as an attribute, imported once: the main graph's from
  // @main_graph's constants (already imported), the algorithm's and the
  // initialization's here.
  llvm::StringMap<ElementsAttr> constants, withoutState, mainWithoutState;
  std::set<std::string> mainInits;
  for (const onnx::TensorProto &t : mainGraph.initializer())
    mainInits.insert(t.name());
  if (auto mainFn = module.lookupSymbol<func::FuncOp>("main_graph"))
    mainFn.walk([&](Operation *op) {
      auto loc = dyn_cast<NameLoc>(op->getLoc());
      auto value = op->getAttrOfType<ElementsAttr>("value");
      if (op->getName().getStringRef() == "onnx.Constant" && loc && value &&
          mainInits.count(loc.getName().str()))
        constants.try_emplace(loc.getName().getValue(), value);
    });
  for (const onnx::GraphProto *g : {&algo, &init})
    for (const onnx::TensorProto &t0 : g->initializer()) {
      onnx::TensorProto t = t0;
      std::string error;
      FailureOr<ElementsAttr> value =
          proto::importTensor(ctx, t, policyPtr, error);
      if (failed(value))
        return fail("initializer '" + t.name() + "': " + error);
      constants.try_emplace(t.name(), *value);
    }
  for (const auto &[name, value] : constants) {
    if (stateSet.count(name.str()))
      continue;
    withoutState.try_emplace(name, value);
    if (mainInits.count(name.str()))
      mainWithoutState.try_emplace(name, value);
  }

  Builder b(ctx);
  SmallVector<Attribute> stateNames;
  for (const std::string &k : state)
    stateNames.push_back(b.getStringAttr(k));
  auto mark = [&](func::FuncOp f, StringRef kind) {
    f->setAttr("onnx.training", b.getStringAttr(kind));
    f->setAttr("onnx.state", b.getArrayAttr(stateNames));
  };

  // @train_init: the initialization's nodes; every key's initial value.
  {
    onnx::GraphProto g;
    g.set_name("train_init");
    *g.mutable_node() = init.node();
    addValueInfo(g, mainGraph);
    addValueInfo(g, algo);
    addValueInfo(g, init);
    for (const std::string &k : state) {
      auto it = initBinding.find(k);
      *g.add_output() = outputNamed(it == initBinding.end() ? k : it->second);
    }
    sharedConstants = &constants;
    func::FuncOp f = importFunction(g, "train_init", opsets, module);
    sharedConstants = nullptr;
    if (!f)
      return failure();
    mark(f, "init");
  }

  // @train_step: main graph then algorithm, the state as inputs.
  {
    onnx::GraphProto g;
    g.set_name("train_step");
    for (const std::string &k : state)
      *g.add_input() = inputFor(*inits[k]);
    addInputs(g, mainGraph, stateSet);
    addInputs(g, algo, stateSet);
    *g.mutable_node() = mainGraph.node();
    for (const onnx::NodeProto &n : algo.node())
      *g.add_node() = n;
    addValueInfo(g, mainGraph);
    addValueInfo(g, algo);
    // The algorithm's outputs that no key is updated from (the loss, say):
    // the updates themselves go to the state, not back to the caller.
    std::set<std::string> updateSet(updates.begin(), updates.end());
    for (const onnx::ValueInfoProto &o : algo.output())
      if (!updateSet.count(o.name()))
        *g.add_output() = o;
    for (const std::string &v : updates)
      *g.add_output() = outputNamed(v);
    sharedConstants = &withoutState;
    func::FuncOp f = importFunction(g, "train_step", opsets, module);
    sharedConstants = nullptr;
    if (!f)
      return failure();
    mark(f, "step");
    f->setAttr("onnx.num_updates", b.getI64IntegerAttr(updates.size()));
  }

  // @train_infer: the main graph with the state as inputs.
  {
    onnx::GraphProto g;
    g.set_name("train_infer");
    for (const std::string &k : state)
      *g.add_input() = inputFor(*inits[k]);
    addInputs(g, mainGraph, stateSet);
    *g.mutable_node() = mainGraph.node();
    addValueInfo(g, mainGraph);
    // A state key among the algorithm's initializers is an input all the
    // same (one signature for the state).
    for (const onnx::ValueInfoProto &o : mainGraph.output())
      *g.add_output() = o;
    sharedConstants = &mainWithoutState;
    func::FuncOp f = importFunction(g, "train_infer", opsets, module);
    sharedConstants = nullptr;
    if (!f)
      return failure();
    mark(f, "infer");
  }
  return success();
}

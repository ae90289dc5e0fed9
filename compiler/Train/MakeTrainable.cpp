//===- MakeTrainable.cpp - An inference model plus a TrainingInfoProto ----===//
//
// The algorithm graph it writes (names made unique against the model's):
//   loss = SoftmaxCrossEntropyLoss(output, label)        (cross-entropy), or
//          ReduceMean(Mul(d, d)), d = Sub(output, label) (mse)
//   grads = Gradient<xs = trainables, y = loss>(trainables)
//   sgd:      X' = X - lr * (G + wd * X)
//   momentum: Momentum<alpha = momentum, beta = 1, mode, norm = wd>
//             (R, T, X..., G..., V...)      (PyTorch's SGD with momentum)
//   adam:     Adam<alpha = beta1, beta = beta2, epsilon, norm = wd>
//             (R, T, X..., G..., V..., H...), T counting from 1 (bias
//             correction as PyTorch's first step)
//   adagrad:  Adagrad<epsilon, norm = wd>(R, T, X..., G..., H...), T from 0
//   T' = T + 1
// The optimizer's moments (zeros) and T are initializers of the algorithm;
// update_binding maps every X, moment and T to its new value.
//
//===----------------------------------------------------------------------===//

#include "compiler/Train/MakeTrainable.h"

#include "onnx/defs/schema.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

using namespace mlir::onnxc::train;

namespace {

/// Every name the model uses (values, initializers, nodes' outputs), at any
/// depth, so that new names do not collide.
void collectNames(const onnx::GraphProto &g, std::set<std::string> &names) {
  for (const auto &v : g.input())
    names.insert(v.name());
  for (const auto &v : g.output())
    names.insert(v.name());
  for (const auto &t : g.initializer())
    names.insert(t.name());
  for (const auto &n : g.node()) {
    for (const auto &o : n.output())
      names.insert(o);
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        collectNames(a.g(), names);
      for (const auto &sg : a.graphs())
        collectNames(sg, names);
    }
  }
}

/// Whether every use of `name` in `g` (subgraphs included) is a
/// differentiable input of its op's schema; `used` is set when there is
/// one.
bool differentiableUses(const onnx::GraphProto &g, const std::string &name,
                        bool &used) {
  for (const auto &n : g.node()) {
    for (int i = 0; i < n.input_size(); ++i) {
      if (n.input(i) != name)
        continue;
      used = true;
      const onnx::OpSchema *schema =
          onnx::OpSchemaRegistry::Schema(n.op_type(), n.domain());
      if (!schema || schema->inputs().empty())
        return false;
      size_t k = std::min<size_t>(i, schema->inputs().size() - 1);
      const auto &formal = schema->inputs()[k];
      if ((size_t)i >= schema->inputs().size() &&
          formal.GetOption() != onnx::OpSchema::Variadic)
        return false;
      if (formal.GetDifferentiationCategory() !=
          onnx::OpSchema::Differentiable)
        return false;
    }
    for (const auto &a : n.attribute()) {
      if (a.has_g() && !differentiableUses(a.g(), name, used))
        return false;
      for (const auto &sg : a.graphs())
        if (!differentiableUses(sg, name, used))
          return false;
    }
  }
  return true;
}

bool isFloat(int32_t dt) {
  return dt == onnx::TensorProto::FLOAT || dt == onnx::TensorProto::DOUBLE;
}

onnx::NodeProto &addNode(onnx::GraphProto &g, const std::string &op,
                         std::vector<std::string> inputs,
                         std::vector<std::string> outputs,
                         const std::string &domain = "") {
  onnx::NodeProto &n = *g.add_node();
  n.set_op_type(op);
  n.set_domain(domain);
  for (auto &i : inputs)
    n.add_input(i);
  for (auto &o : outputs)
    n.add_output(o);
  return n;
}

void setFloat(onnx::NodeProto &n, const std::string &name, float v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void setInt(onnx::NodeProto &n, const std::string &name, int64_t v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void setString(onnx::NodeProto &n, const std::string &name,
               const std::string &v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

void setStrings(onnx::NodeProto &n, const std::string &name,
                const std::vector<std::string> &v) {
  auto *a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (auto &s : v)
    a->add_strings(s);
}

/// A scalar initializer.
void addScalar(onnx::GraphProto &g, const std::string &name, int32_t dt,
               double v) {
  onnx::TensorProto &t = *g.add_initializer();
  t.set_name(name);
  t.set_data_type(dt);
  if (dt == onnx::TensorProto::INT64)
    t.add_int64_data((int64_t)v);
  else if (dt == onnx::TensorProto::DOUBLE)
    t.add_double_data(v);
  else
    t.add_float_data((float)v);
}

/// Zeros of `like`'s type and shape.
void addZerosLike(onnx::GraphProto &g, const std::string &name,
                  const onnx::TensorProto &like) {
  onnx::TensorProto &t = *g.add_initializer();
  t.set_name(name);
  t.set_data_type(like.data_type());
  int64_t n = 1;
  for (int64_t d : like.dims()) {
    t.add_dims(d);
    n *= d;
  }
  size_t bytes = like.data_type() == onnx::TensorProto::DOUBLE ? 8 : 4;
  t.set_raw_data(std::string((size_t)n * bytes, '\0'));
}

/// Fresh value names: none of the model's, none given out before.
struct Names {
  std::set<std::string> taken;
  std::string fresh(const std::string &base) {
    std::string n = base;
    for (int i = 1; taken.count(n); ++i)
      n = base + "_" + std::to_string(i);
    taken.insert(n);
    return n;
  }
};

/// The output to train against (a float tensor), after checking the loss,
/// the optimizer and the opset; null with `error` set.
const onnx::ValueInfoProto *checkOptions(const onnx::ModelProto &model,
                                         const TrainOptions &o,
                                         std::string &error) {
  const onnx::GraphProto &g = model.graph();
  if (model.training_info_size())
    return error = "the model has training info already", nullptr;
  const onnx::ValueInfoProto *out = nullptr;
  for (const auto &v : g.output())
    if (v.name() == o.output)
      out = &v;
  if (!out)
    return error = "the model has no output '" + o.output + "'", nullptr;
  if (!out->type().has_tensor_type() ||
      !isFloat(out->type().tensor_type().elem_type()))
    return error = "output '" + o.output + "' is not a float tensor", nullptr;
  if (o.loss != "cross-entropy" && o.loss != "mse")
    return error = "unknown loss '" + o.loss + "' (cross-entropy or mse)",
           nullptr;
  static const std::set<std::string> optimizers = {"sgd", "momentum",
                                                   "nesterov", "adam",
                                                   "adagrad"};
  if (!optimizers.count(o.optimizer))
    return error = "unknown optimizer '" + o.optimizer +
                   "' (sgd, momentum, nesterov, adam, adagrad)",
           nullptr;
  int64_t opset = 0;
  for (const auto &imp : model.opset_import())
    if (imp.domain().empty() || imp.domain() == "ai.onnx")
      opset = imp.version();
  if (o.loss == "cross-entropy" && opset < 12)
    return error = "cross-entropy needs opset 12 or newer "
                   "(SoftmaxCrossEntropyLoss); the model has opset " +
                   std::to_string(opset),
           nullptr;
  return out;
}

/// The trainable initializers (`--trainable`, else every float one with a
/// differentiable use that is not `--frozen`), all of one float type;
/// false with `error` set.
bool trainableInitializers(
    const onnx::GraphProto &g, const TrainOptions &o,
    const std::map<std::string, const onnx::TensorProto *> &inits,
    std::vector<std::string> &xs, std::string &error) {
  if (!o.trainable.empty()) {
    for (const std::string &n : o.trainable) {
      auto it = inits.find(n);
      if (it == inits.end())
        return error = "'" + n + "' is not an initializer of the model", false;
      if (!isFloat(it->second->data_type()))
        return error = "initializer '" + n + "' is not float or double",
               false;
      xs.push_back(n);
    }
  } else {
    std::set<std::string> frozen(o.frozen.begin(), o.frozen.end());
    for (const auto &t : g.initializer()) {
      bool used = false;
      if (isFloat(t.data_type()) && !frozen.count(t.name()) &&
          differentiableUses(g, t.name(), used) && used)
        xs.push_back(t.name());
    }
  }
  if (xs.empty())
    return error = "no trainable initializer (pass --trainable)", false;
  int32_t dt = inits.at(xs.front())->data_type();
  for (const std::string &x : xs)
    if (inits.at(x)->data_type() != dt)
      return error = "trainable initializers of different float types ('" +
                     xs.front() + "', '" + x + "')",
             false;
  return true;
}

/// The label input of the algorithm `a`: class indices (the output's dims
/// without the class dim 1) for cross-entropy, else targets of the output's
/// type; false with `error` set.
bool addLabel(onnx::GraphProto &a, const onnx::ValueInfoProto &out,
              const TrainOptions &o, std::string &error) {
  onnx::ValueInfoProto &label = *a.add_input();
  label.set_name(o.label);
  auto *lt = label.mutable_type()->mutable_tensor_type();
  const auto &ot = out.type().tensor_type();
  if (o.loss != "cross-entropy") {
    *lt = ot;
    return true;
  }
  lt->set_elem_type(onnx::TensorProto::INT64);
  if (ot.has_shape()) {
    if (ot.shape().dim_size() < 2)
      return error = "cross-entropy needs an output of rank 2 or more "
                     "(N, C, ...)",
             false;
    auto *s = lt->mutable_shape();
    for (int d = 0; d < ot.shape().dim_size(); ++d)
      if (d != 1)
        *s->add_dim() = ot.shape().dim(d);
  }
  return true;
}

/// The update of every x (`xs`, gradients `gs`) into `newXs` by the
/// optimizer, with the learning rate `lr`: plain nodes for SGD, else one
/// ai.onnx.preview.training node whose states (zeros like each x, and the
/// update count) become outputs of `a` bound in `bindings`.
void addOptimizer(onnx::GraphProto &a, Names &names, const TrainOptions &o,
                  const std::vector<std::string> &xs,
                  const std::vector<std::string> &gs,
                  const std::vector<std::string> &newXs,
                  const std::map<std::string, const onnx::TensorProto *> &inits,
                  int32_t dt, const std::string &lr,
                  std::vector<std::pair<std::string, std::string>> &bindings) {
  if (o.optimizer == "sgd") {
    for (size_t i = 0; i < xs.size(); ++i) {
      std::string gi = gs[i];
      if (o.weightDecay != 0.0f) {
        std::string wd = names.fresh("weight_decay"),
                    wx = names.fresh(xs[i] + "_decay"),
                    g2 = names.fresh(xs[i] + "_grad_l2");
        addScalar(a, wd, dt, o.weightDecay);
        addNode(a, "Mul", {wd, xs[i]}, {wx});
        addNode(a, "Add", {gs[i], wx}, {g2});
        gi = g2;
      }
      std::string step = names.fresh(xs[i] + "_step");
      addNode(a, "Mul", {lr, gi}, {step});
      addNode(a, "Sub", {xs[i], step}, {newXs[i]});
    }
    return;
  }
  std::string t = names.fresh("update_count"),
              tNew = names.fresh("update_count_new"), one = names.fresh("one");
  // Adam's bias correction counts from 1, as PyTorch's first step.
  addScalar(a, t, onnx::TensorProto::INT64, o.optimizer == "adam" ? 1 : 0);
  addScalar(a, one, onnx::TensorProto::INT64, 1);
  addNode(a, "Add", {t, one}, {tNew});
  std::vector<std::string> ins = {lr, t}, outs = newXs;
  ins.insert(ins.end(), xs.begin(), xs.end());
  ins.insert(ins.end(), gs.begin(), gs.end());
  auto addState = [&](const std::string &suffix) {
    for (const std::string &x : xs) {
      std::string s = names.fresh(x + suffix),
                  sNew = names.fresh(x + suffix + "_new");
      addZerosLike(a, s, *inits.at(x));
      ins.push_back(s);
      outs.push_back(sNew);
      bindings.push_back({s, sNew});
    }
  };
  onnx::NodeProto *opt;
  if (o.optimizer == "momentum" || o.optimizer == "nesterov") {
    addState("_momentum");
    opt = &addNode(a, "Momentum", ins, outs, "ai.onnx.preview.training");
    setFloat(*opt, "alpha", o.momentum);
    setFloat(*opt, "beta", 1.0f);
    setString(*opt, "mode", o.optimizer == "nesterov" ? "nesterov" : "standard");
    setFloat(*opt, "norm_coefficient", o.weightDecay);
  } else if (o.optimizer == "adam") {
    addState("_m");
    addState("_v");
    opt = &addNode(a, "Adam", ins, outs, "ai.onnx.preview.training");
    setFloat(*opt, "alpha", o.beta1);
    setFloat(*opt, "beta", o.beta2);
    setFloat(*opt, "epsilon", o.epsilon);
    setFloat(*opt, "norm_coefficient", o.weightDecay);
  } else {
    addState("_sum");
    opt = &addNode(a, "Adagrad", ins, outs, "ai.onnx.preview.training");
    setFloat(*opt, "epsilon", o.epsilon);
    setFloat(*opt, "norm_coefficient", o.weightDecay);
  }
  for (size_t i = xs.size(); i < outs.size(); ++i)
    a.add_output()->set_name(outs[i]);
  a.add_output()->set_name(tNew);
  bindings.push_back({t, tNew});
}

} // namespace

bool mlir::onnxc::train::makeTrainable(onnx::ModelProto &model,
                                       const TrainOptions &o,
                                       std::string &error) {
  onnx::GraphProto &g = *model.mutable_graph();
  const onnx::ValueInfoProto *out = checkOptions(model, o, error);
  if (!out)
    return false;
  std::map<std::string, const onnx::TensorProto *> inits;
  for (const auto &t : g.initializer())
    inits[t.name()] = &t;
  std::vector<std::string> xs;
  if (!trainableInitializers(g, o, inits, xs, error))
    return false;
  int32_t dt = inits[xs.front()]->data_type();

  Names names;
  collectNames(g, names.taken);
  if (names.taken.count(o.label))
    return error = "the label name '" + o.label +
                   "' is already a value of the model (pass --label)",
           false;
  names.taken.insert(o.label);

  onnx::TrainingInfoProto &ti = *model.add_training_info();
  onnx::GraphProto &a = *ti.mutable_algorithm();
  a.set_name("onnxc_training");
  if (!addLabel(a, *out, o, error))
    return false;

  std::string loss = names.fresh("loss");
  if (o.loss == "cross-entropy") {
    addNode(a, "SoftmaxCrossEntropyLoss", {o.output, o.label}, {loss});
  } else {
    std::string d = names.fresh("loss_diff"), d2 = names.fresh("loss_sq");
    addNode(a, "Sub", {o.output, o.label}, {d});
    addNode(a, "Mul", {d, d}, {d2});
    setInt(addNode(a, "ReduceMean", {d2}, {loss}), "keepdims", 0);
  }
  std::vector<std::string> gs;
  for (const std::string &x : xs)
    gs.push_back(names.fresh(x + "_grad"));
  onnx::NodeProto &grad =
      addNode(a, "Gradient", xs, gs, "ai.onnx.preview.training");
  setStrings(grad, "xs", xs);
  auto *ya = grad.add_attribute();
  ya->set_name("y");
  ya->set_type(onnx::AttributeProto::STRING);
  ya->set_s(loss);

  std::vector<std::string> newXs;
  for (const std::string &x : xs)
    newXs.push_back(names.fresh(x + "_new"));
  std::vector<std::pair<std::string, std::string>> bindings;
  for (size_t i = 0; i < xs.size(); ++i)
    bindings.push_back({xs[i], newXs[i]});
  std::string lr = names.fresh("learning_rate");
  addScalar(a, lr, dt, o.lr);
  addOptimizer(a, names, o, xs, gs, newXs, inits, dt, lr, bindings);

  // The outputs: the loss, then every updated value.
  onnx::ValueInfoProto lossInfo;
  lossInfo.set_name(loss);
  lossInfo.mutable_type()->mutable_tensor_type()->set_elem_type(dt);
  lossInfo.mutable_type()->mutable_tensor_type()->mutable_shape();
  *a.mutable_output()->Add() = lossInfo;
  std::rotate(a.mutable_output()->rbegin(), a.mutable_output()->rbegin() + 1,
              a.mutable_output()->rend());
  for (const std::string &x : newXs)
    a.add_output()->set_name(x);
  for (auto &[k, v] : bindings) {
    auto *e = ti.add_update_binding();
    e->set_key(k);
    e->set_value(v);
  }
  bool hasTraining = false;
  for (const auto &imp : model.opset_import())
    hasTraining |= imp.domain() == "ai.onnx.preview.training";
  if (!hasTraining) {
    auto *imp = model.add_opset_import();
    imp->set_domain("ai.onnx.preview.training");
    imp->set_version(1);
  }
  return true;
}

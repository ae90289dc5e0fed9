//===- RecurrentActivations.cpp - RNN/GRU/LSTM activation attributes ------===//
//
// The activations of RNN, GRU and LSTM parsed from the op's attributes
// (RecurrentActivations.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/RecurrentActivations.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::rnn;

namespace {

/// An activation name, which of alpha / beta it takes and their defaults
/// (those of the ONNX operator of the same name; NaN: no default).
struct ActivationInfo {
  StringLiteral name;
  ActKind kind;
  bool takesAlpha, takesBeta;
  double alpha, beta;
};

constexpr ActivationInfo kActivations[] = {
    {"Relu", ActKind::Relu, false, false, 0, 0},
    {"Tanh", ActKind::Tanh, false, false, 0, 0},
    {"Sigmoid", ActKind::Sigmoid, false, false, 0, 0},
    {"Affine", ActKind::Affine, true, true, 1.0, 0.0},
    {"LeakyRelu", ActKind::LeakyRelu, true, false, 0.01, 0},
    {"ThresholdedRelu", ActKind::ThresholdedRelu, true, false, 1.0, 0},
    // The ScaledTanh operator gave alpha and beta no default.
    {"ScaledTanh", ActKind::ScaledTanh, true, true, NAN, NAN},
    {"HardSigmoid", ActKind::HardSigmoid, true, true, 0.2, 0.5},
    {"Elu", ActKind::Elu, true, false, 1.0, 0},
    {"Softsign", ActKind::Softsign, false, false, 0, 0},
    {"Softplus", ActKind::Softplus, false, false, 0, 0},
};

} // namespace

StringRef rnn::activationName(ActKind kind) {
  for (const ActivationInfo &i : kActivations)
    if (i.kind == kind)
      return i.name;
  return "";
}

/// The activations of `op`, `perDir` per direction for `numDir` directions
/// (the attribute's or `defaults` per direction), with their alpha / beta.
/// Names match case-insensitively (as onnxruntime).
FailureOr<SmallVector<Activation>>
rnn::parseActivations(Operation *op, int64_t perDir, int64_t numDir,
                 ArrayRef<StringRef> defaults) {
  SmallVector<StringRef> names;
  if (auto attr = op->getAttrOfType<ArrayAttr>("activations")) {
    for (Attribute a : attr) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s)
        return op->emitOpError("activations must be strings");
      names.push_back(s.getValue());
    }
  } else {
    for (int64_t d = 0; d < numDir; ++d)
      names.append(defaults.begin(), defaults.end());
  }
  int64_t expected = perDir * numDir;
  // RNN's schema default is {"Tanh", "Tanh"} even for one direction: a
  // one-direction RNN with two entries uses the first.
  if (perDir == 1 && numDir == 1 && names.size() == 2)
    names.resize(1);
  if ((int64_t)names.size() != expected)
    return op->emitOpError("has ")
           << names.size() << " activations, expected " << expected << " ("
           << perDir << " per direction)";

  ArrayRef<float> alphas, betas;
  if (auto a = op->getAttrOfType<DenseF32ArrayAttr>("activation_alpha"))
    alphas = a.asArrayRef();
  if (auto a = op->getAttrOfType<DenseF32ArrayAttr>("activation_beta"))
    betas = a.asArrayRef();
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> acts;
  for (StringRef name : names) {
    const ActivationInfo *info = nullptr;
    for (const ActivationInfo &i : kActivations)
      if (name.equals_insensitive(i.name))
        info = &i;
    if (!info) {
      SmallVector<StringRef> all;
      for (const ActivationInfo &i : kActivations)
        all.push_back(i.name);
      return op->emitOpError("activation '")
             << name << "' is not supported (expected one of "
             << llvm::join(all, ", ") << ")";
    }
    Activation act{info->kind, info->alpha, info->beta};
    if (info->takesAlpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (info->takesBeta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    if (std::isnan(act.alpha) || std::isnan(act.beta))
      return op->emitOpError("activation ")
             << info->name
             << " needs its alpha and beta in activation_alpha and "
                "activation_beta (it has no defaults)";
    acts.push_back(act);
  }
  // Values left over mean the model expects another assignment of values
  // to functions (e.g. one per activation): refuse rather than guess.
  if (nextAlpha != alphas.size())
    return op->emitOpError("activation_alpha has ")
           << alphas.size() << " values, but its activations take "
           << nextAlpha;
  if (nextBeta != betas.size())
    return op->emitOpError("activation_beta has ")
           << betas.size() << " values, but its activations take " << nextBeta;
  return acts;
}


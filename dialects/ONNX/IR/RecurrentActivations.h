//===- RecurrentActivations.h - RNN/GRU/LSTM activation attributes -*- C++ -*-===//
//
// The activations of RNN, GRU and LSTM as their `activations`,
// `activation_alpha` and `activation_beta` attributes give them: parsed
// once for the lowering (ONNXToLinalg/RecurrentActivations, scalar IR) and
// the gradient rules (Autodiff/RulesRecurrent, onnx ops).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_IR_RECURRENTACTIVATIONS_H
#define ONNXC_DIALECTS_ONNX_IR_RECURRENTACTIVATIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::onnxc::rnn {

enum class ActKind {
  Relu,
  Tanh,
  Sigmoid,
  Affine,
  LeakyRelu,
  ThresholdedRelu,
  ScaledTanh,
  HardSigmoid,
  Elu,
  Softsign,
  Softplus
};

struct Activation {
  ActKind kind;
  double alpha = 0, beta = 0;
};

/// The activation's name (the ONNX operator of the same name).
StringRef activationName(ActKind kind);

/// The activations of `op`, `perDir` per direction for `numDir` directions
/// (the attribute's or `defaults` per direction), with their alpha / beta,
/// consumed in order by the functions that take them (as onnxruntime).
/// Names match case-insensitively. A non-string name, an unknown name,
/// another count, a missing alpha / beta or values left over: an error on
/// `op`.
FailureOr<SmallVector<Activation>>
parseActivations(Operation *op, int64_t perDir, int64_t numDir,
                 ArrayRef<StringRef> defaults);

} // namespace mlir::onnxc::rnn

#endif // ONNXC_DIALECTS_ONNX_IR_RECURRENTACTIVATIONS_H

//===- RecurrentActivations.h - RNN/GRU/LSTM activations ------*- C++ -*-===//
//
// Internal to ONNXToLinalg/. The activations of RNN, GRU and LSTM (their
// `activations`, `activation_alpha` and `activation_beta` attributes) and
// their scalar formulas, for Recurrent.cpp's gate generics.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::onnxc::linalg_conv {

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

/// The activations of `op`, `perDir` per direction for `numDir` directions
/// (the attribute's or `defaults` per direction), with their alpha / beta.
/// Names match case-insensitively (as onnxruntime). An unknown name,
/// another count, a missing alpha / beta or values left over: an error on
/// `op`.
FailureOr<SmallVector<Activation>>
parseActivations(Operation *op, int64_t perDir, int64_t numDir,
                 ArrayRef<StringRef> defaults);

/// The activation `a` of the float scalar `x`.
Value applyActivation(OpBuilder &b, Location loc, const Activation &a,
                      Value x);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H

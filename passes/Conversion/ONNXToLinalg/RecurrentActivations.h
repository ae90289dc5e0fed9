//===- RecurrentActivations.h - RNN/GRU/LSTM activations ------*- C++ -*-===//
//
// Internal to ONNXToLinalg/. The scalar formulas of the RNN, GRU and LSTM
// activations (parsed by dialects/ONNX/IR/RecurrentActivations.h), for
// Recurrent.cpp's gate generics.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H

#include "dialects/ONNX/IR/RecurrentActivations.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::onnxc::linalg_conv {

using rnn::Activation;
using rnn::ActKind;
using rnn::parseActivations;

/// The activation `a` of the float scalar `x`.
Value applyActivation(OpBuilder &b, Location loc, const Activation &a,
                      Value x);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENTACTIVATIONS_H

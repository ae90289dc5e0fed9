//===- MakeTrainable.h - An inference model plus a TrainingInfoProto --*- C++ -*-===//
//
// Turns an inference model (PyTorch's export, say) into a standard ONNX
// model with a TrainingInfoProto: a loss on one of its outputs, one Gradient
// node over the trainable initializers and an optimizer, with update_binding
// for the parameters and the optimizer's state (docs/training.md). onnxc
// compiles the result like any other model; any runtime that implements
// ai.onnx.preview.training can run it too.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_TRAIN_MAKETRAINABLE_H
#define ONNXC_COMPILER_TRAIN_MAKETRAINABLE_H

#include "onnx/onnx_pb.h"

#include <string>
#include <vector>

namespace mlir::onnxc::train {

struct TrainOptions {
  std::string output;             ///< the graph output the loss reads
  std::string loss = "cross-entropy"; ///< or "mse"
  std::string label = "label";    ///< the algorithm's input: class indices
                                  ///< (cross-entropy) or targets (mse)
  std::string optimizer = "sgd";  ///< sgd, momentum, nesterov, adam, adagrad
  float lr = 0.01f;
  float momentum = 0.9f;          ///< momentum, nesterov
  float beta1 = 0.9f, beta2 = 0.999f; ///< adam
  float epsilon = 1e-8f;          ///< adam, adagrad
  float weightDecay = 0.0f;       ///< L2, added to the gradient
  /// Initializers to train; empty: every float initializer whose every use
  /// is a differentiable input of its op (weights and biases, not a
  /// Resize's scales or a BatchNormalization's running statistics).
  std::vector<std::string> trainable;
  std::vector<std::string> frozen; ///< taken out of the default set
};

/// Adds the training info to `model`. Returns false with `error` set (one
/// line) when the output, an initializer or an option does not fit.
bool makeTrainable(onnx::ModelProto &model, const TrainOptions &options,
                   std::string &error);

} // namespace mlir::onnxc::train

#endif // ONNXC_COMPILER_TRAIN_MAKETRAINABLE_H

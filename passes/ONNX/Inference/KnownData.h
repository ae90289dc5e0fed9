//===- KnownData.h - Known values through data movement ---------*- C++ -*-===//
//
// Implemented in KnownData.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_KNOWNDATA_H
#define ONNXC_PASSES_ONNX_INFERENCE_KNOWNDATA_H

#include "passes/ONNX/Inference/Inference.h"

namespace mlir::onnxc {

/// Known values of integer tensors of any rank through the data-movement
/// ops (KnownData.cpp).
void propagateKnownData(Operation *op, InferenceState &state);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_KNOWNDATA_H

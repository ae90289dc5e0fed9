//===- Sequences.h - Element types of sequences of known length -*- C++ -*-===//
//
// Implemented in Sequences.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_SEQUENCES_H
#define ONNXC_PASSES_ONNX_INFERENCE_SEQUENCES_H

#include "passes/ONNX/Inference/Inference.h"

namespace mlir::onnxc {

/// Tracks the element types of sequences of known length (Sequences.cpp)
/// and refines SequenceAt, ConcatFromSequence and the sequence types built
/// from them. Runs after the op's main inference.
LogicalResult refineWithSequenceData(Operation *op, InferenceState &state);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_SEQUENCES_H

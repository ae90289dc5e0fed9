//===- ShapeData.h - Refinements from known integer values ------*- C++ -*-===//
//
// Implemented in ShapeData.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_SHAPEDATA_H
#define ONNXC_PASSES_ONNX_INFERENCE_SHAPEDATA_H

#include "passes/ONNX/Inference/Inference.h"

namespace mlir::onnxc {

/// Refinements libonnx 1.12 misses: Reshape/Expand/ConstantOfShape whose
/// shape operand holds symbolic dims (or has unknown values but a static
/// length: the rank), Range of known scalars, Slice of
/// unknown starts/ends (ranked), and propagation of known values through
/// Identity, Cast and scalar arithmetic (ints and floats). Runs after the
/// op's main inference.
LogicalResult refineWithShapeData(Operation *op, InferenceState &state);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_SHAPEDATA_H

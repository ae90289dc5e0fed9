//===- GraphOptimize.h - onnx-graph-optimize's pattern sets -----*- C++ -*-===//
//
// The rewrites of onnx-graph-optimize that live in their own files.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H
#define ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::onnxc {

/// Conv kernel taps that read only padding are dropped (ConvTaps.cpp).
void populateConvTapPatterns(RewritePatternSet &patterns);

/// Transposes that move only unit dims become Reshapes; a MatMul of a
/// batched A by a 2-D B becomes one 2-D product (LayoutSimplify.cpp).
void populateLayoutSimplifyPatterns(RewritePatternSet &patterns);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H

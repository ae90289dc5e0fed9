//===- GraphOptimize.h - onnx-graph-optimize's pattern sets -----*- C++ -*-===//
//
// The rewrites of onnx-graph-optimize that live in their own files.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H
#define ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::onnxc {

/// Conv kernel taps that read only padding are dropped (ConvTaps.cpp).
void populateConvTapPatterns(RewritePatternSet &patterns);

/// Transposes that move only unit dims become Reshapes; a MatMul of a
/// batched A by a 2-D B becomes one 2-D product (LayoutSimplify.cpp).
void populateLayoutSimplifyPatterns(RewritePatternSet &patterns);

/// Builders the rewrites share (GraphOptimize.cpp).
/// The permutation of a Transpose (default: reversed dims).
SmallVector<int64_t> getPerm(ONNX::TransposeOp op, int64_t rank);
/// An i64 shape constant.
Value shapeConstant(PatternRewriter &rewriter, Location loc,
                    ArrayRef<int64_t> shape);
/// `source` [..., K] (K static and > 0) as [-1, K]; unchanged when 2-D.
Value flattenRows(PatternRewriter &rewriter, Location loc, Value source);
/// The 2-D product `flat` [rows, N] back to the shape of `source` [..., K]
/// with N for K (unchanged when `source` is 2-D).
Value unflattenRows(PatternRewriter &rewriter, Location loc, Value flat,
                    Value source);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_GRAPHOPTIMIZE_H

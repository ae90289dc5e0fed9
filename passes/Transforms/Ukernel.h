//===- Ukernel.h - What the runtime's kernels compute -----------*- C++ -*-===//
//
// Shared by onnxc-fuse-elementwise (which must not break the forms below),
// onnxc-pad-to-copy and onnxc-linalg-to-ukernel (which rewrite them).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_TRANSFORMS_UKERNEL_H
#define ONNXC_PASSES_TRANSFORMS_UKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::onnxc::ukernel {

/// The body is `yield out + a * b` (operands of + and * in either order) over
/// the op's two inputs and its one init, in floating point.
bool hasMulAddBody(linalg::LinalgOp op);

/// Indexing maps and iterators (X, W, Y) of the grouped convolution that
/// onnxc-linalg-to-ukernel computes with the runtime's kernel
/// (UkernelMatch.h, matchConvolution): onnxc-fuse-elementwise keeps a
/// convolution in that form.
bool hasConvolutionMaps(ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iters);

/// Strides and dilations (h, w) of `op` when it is the fp32 2-D max pool of
/// convert-onnx-to-linalg without Indices (Pooling.cpp): loops n, c, oh, ow
/// (parallel), kh, kw (reduction); maps X[n, c, oh * sh + kh * dh,
/// ow * sw + kw * dw], a kernel-shaped operand [kh, kw] and Y[n, c, oh, ow];
/// body `yield maximumf(x, y)`. On tensors or buffers: onnxc-fuse-elementwise
/// keeps the padding out of it, onnxc-linalg-to-ukernel replaces it by
/// onnxc_rt_smaxpool2d.
struct MaxPool2d {
  int64_t stride[2], dilation[2];
};
std::optional<MaxPool2d> matchMaxPool2d(linalg::LinalgOp op);

/// When `op` is a padding gather (the form onnxc-pad-to-copy matches),
/// replaces it by a fill of the pad value and a copy of the source into the
/// interior (a subview of the output), erases it and returns true; else
/// changes nothing. onnxc-linalg-to-ukernel fuses that form into a
/// convolution.
bool rewritePadAsCopy(linalg::GenericOp op);

} // namespace mlir::onnxc::ukernel

#endif // ONNXC_PASSES_TRANSFORMS_UKERNEL_H

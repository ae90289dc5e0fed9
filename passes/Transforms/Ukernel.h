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

/// When `op` is a padding gather (the form onnxc-pad-to-copy matches),
/// replaces it by a fill of the pad value and a copy of the source into the
/// interior (a subview of the output), erases it and returns true; else
/// changes nothing. onnxc-linalg-to-ukernel fuses that form into a
/// convolution.
bool rewritePadAsCopy(linalg::GenericOp op);

} // namespace mlir::onnxc::ukernel

#endif // ONNXC_PASSES_TRANSFORMS_UKERNEL_H

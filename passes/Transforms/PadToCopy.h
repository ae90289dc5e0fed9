//===- PadToCopy.h - A padding gather as fill + copy ------------*- C++ -*-===//
//
// Implemented in PadToCopy.cpp (the --onnxc-pad-to-copy pass); also called
// by onnxc-linalg-to-ukernel, which fuses that form into a convolution.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_TRANSFORMS_PADTOCOPY_H
#define ONNXC_PASSES_TRANSFORMS_PADTOCOPY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::onnxc::ukernel {

/// When `op` is a padding gather (the form onnxc-pad-to-copy matches),
/// replaces it by a fill of the pad value and a copy of the source into the
/// interior (a subview of the output), erases it and returns true; else
/// changes nothing. onnxc-linalg-to-ukernel fuses that form into a
/// convolution.
bool rewritePadAsCopy(linalg::GenericOp op);

} // namespace mlir::onnxc::ukernel

#endif // ONNXC_PASSES_TRANSFORMS_PADTOCOPY_H

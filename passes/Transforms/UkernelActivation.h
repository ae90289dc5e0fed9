//===- UkernelActivation.h - Activations a kernel call applies --*- C++ -*-===//
//
// Implemented in UkernelActivation.cpp: the activations of the runtime's
// convolution (ONNXC_CONV_ACT, runtime_abi.h) that onnxc-linalg-to-ukernel
// fuses into the call (UkernelEpilogue.cpp's convClamp).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_TRANSFORMS_UKERNELACTIVATION_H
#define ONNXC_PASSES_TRANSFORMS_UKERNELACTIVATION_H

#include "passes/Transforms/UkernelMatch.h"

namespace mlir::onnxc::ukernel {

/// The body of a clamp's generic is one of the runtime's activations of its
/// input alone (UkernelActivation.cpp): sets c.act, c.alpha, c.beta.
bool matchActivationBody(Block &body, Clamp &c);

} // namespace mlir::onnxc::ukernel

#endif // ONNXC_PASSES_TRANSFORMS_UKERNELACTIVATION_H

//===- Passes.h - Conversions out of the onnx dialect -----------*- C++ -*-===//
#ifndef ONNXC_PASSES_CONVERSION_PASSES_H
#define ONNXC_PASSES_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::onnxc {

#define GEN_PASS_DECL
#include "passes/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Conversion/Passes.h.inc"

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_PASSES_H

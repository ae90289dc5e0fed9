//===- Passes.h - Passes on the onnx dialect --------------------*- C++ -*-===//
#ifndef ONNXC_PASSES_ONNX_PASSES_H
#define ONNXC_PASSES_ONNX_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::onnxc {

#define GEN_PASS_DECL
#include "passes/ONNX/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/ONNX/Passes.h.inc"

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_PASSES_H

//===- ONNXOps.h - The onnx dialect's op classes ----------------*- C++ -*-===//
//
// The generated op classes (one per ONNX operator, from the ONNX schemas) and
// the hand-written core ops (onnx.Yield, onnx.NoValue). Heavy: include it
// only where typed op classes are used.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H
#define ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H

#include "dialects/ONNX/IR/ONNXDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/ONNX/IR/ONNXCoreOps.h.inc"

#define GET_OP_CLASSES
#include "dialects/ONNX/IR/ONNXOps.h.inc"

namespace mlir::onnxc::ONNX {
/// Registers the generated ops; defined across the ONNXOpsShard*.cpp files.
void registerONNXDialectOperations(ONNXDialect *dialect);
#define ONNXC_DECLARE_SHARD(N) void registerONNXDialectOperations##N(ONNXDialect *);
ONNXC_DECLARE_SHARD(0)
ONNXC_DECLARE_SHARD(1)
ONNXC_DECLARE_SHARD(2)
ONNXC_DECLARE_SHARD(3)
ONNXC_DECLARE_SHARD(4)
ONNXC_DECLARE_SHARD(5)
ONNXC_DECLARE_SHARD(6)
ONNXC_DECLARE_SHARD(7)
#undef ONNXC_DECLARE_SHARD
} // namespace mlir::onnxc::ONNX

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H

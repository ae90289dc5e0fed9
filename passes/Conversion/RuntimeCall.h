//===- RuntimeCall.h - Calls of the C runtime from the onnx dialect -*- C++ -*-===//
//
// The bridge that the passes calling runtime functions on onnx-dialect IR
// share (convert-onnx-quantized-to-ukernel, convert-onnx-custom-to-call,
// onnxc-insert-debug-dumps): every tensor the call reads goes through a
// read-only bufferization.to_buffer placed right before the call; every
// result is a fresh memref.alloc handed back by bufferization.to_tensor
// (restrict, writable); unrealized_conversion_casts bridge the onnx and the
// builtin tensor types (convert-onnx-to-linalg folds them away). Parameter
// blocks are int64 allocas at the function's entry (runtime_abi.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_RUNTIMECALL_H
#define ONNXC_PASSES_CONVERSION_RUNTIMECALL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxc {

/// The onnxc_dtype (runtime.h) of an element type; 0 when it has none.
int64_t runtimeDType(Type elementType);

/// Emits runtime calls and the buffers they work on, at `loc` through `b`.
class RuntimeCallBuilder {
public:
  RuntimeCallBuilder(ModuleOp module, const TypeConverter &tc);

  /// Inserts before `op`, with its location.
  void setInsertionPoint(Operation *op);

  /// The builtin tensor of an onnx value (itself when already builtin).
  Value builtin(Value v);
  Value idx(int64_t v);
  /// An i64 constant.
  Value i64c(int64_t v);
  /// An index value as i64.
  Value i64(Value index);
  /// Dim `d` of a ranked tensor (a constant when static).
  Value dim(Value tensor, int64_t d);
  /// The data address (i64) of a memref.
  Value address(Value memref);
  /// The data address of a memref as an !llvm.ptr.
  Value pointer(Value memref);
  /// The dense buffer of a tensor (onnx or builtin), read only from here on:
  /// emitted right before the call, so that nothing can write it in place
  /// in between.
  Value readBuffer(Value tensor);
  /// A fresh 64-byte aligned buffer for a result of builtin tensor type `t`,
  /// its dynamic dims from `sizes` (one index value per dim, static ones
  /// ignored).
  Value alloc(RankedTensorType t, ArrayRef<Value> sizes);
  /// `memref` as the (onnx) value of type `onnxType`.
  Value result(Value memref, Type onnxType);
  /// An int64 parameter block of `slots` slots in the frame of `at`'s
  /// function (an alloca in a loop would grow the stack every iteration).
  Value paramsBlock(Operation *at, int64_t slots);
  void store(Value block, int64_t slot, Value v);
  /// A call of the runtime function `name` (declared once, private,
  /// returning nothing).
  void call(StringRef name, ValueRange args);
  /// The address of a constant NUL-terminated string (lib/Support).
  Value message(StringRef text);

  ModuleOp module;
  const TypeConverter &tc;
  OpBuilder b;
  Location loc;
};

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_RUNTIMECALL_H

//===- Checks.h - Checks of the whole converted module ----------*- C++ -*-===//
//
// Internal to ONNXToLinalg/: the checks convert-onnx-to-linalg adds around
// the conversion (Checks.cpp), beside those each lowering makes for its
// own op (emitRuntimeCheck, Common.h).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_CHECKS_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_CHECKS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace mlir::onnxc::linalg_conv {

/// Before the conversion: one error per value (an op's result, a function
/// argument) whose static dims alone hold more than 2^63 - 1 bytes (its byte
/// size, and byte offsets into it, would wrap).
LogicalResult checkStaticSizes(ModuleOp module);

/// The symbolic dim names of each function's arguments after conversion
/// (argument i of the converted signature, one name per dim, "" for none),
/// recorded before the conversion drops the #onnx.dims encodings. The
/// runtime binds equal names of the model's inputs to one value.
using ArgDimNames =
    DenseMap<Operation *, SmallVector<SmallVector<std::string>>>;
ArgDimNames recordArgDimNames(ModuleOp module, const TypeConverter &tc);

/// After the conversion: a run-time check before every tensor.cast from a
/// dynamic dim to a static one (the lowerings cast values to the types
/// inference gave them), an empty result exempt.
void checkCasts(ModuleOp module);

/// After the conversion: a run-time check of every pair of operand dims
/// that a linalg loop reads together, unless both are static, the IR shows
/// them equal (the same size source) or the runtime does (function
/// arguments' dims of one symbolic name); an empty iteration space exempt.
void checkLinalgDims(ModuleOp module, const ArgDimNames &argNames);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_CHECKS_H

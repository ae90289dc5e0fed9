//===- LibOnnxBridge.h - libonnx's inference functions ----------*- C++ -*-===//
//
// Implemented in LibOnnxBridge.cpp, the only file of the inference built
// with exceptions: libonnx's inference and data propagation run on an onnx
// op. Includes onnx_pb.h only: the ONNX schema headers throw and stay in the
// bridge.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_LIBONNXBRIDGE_H
#define ONNXC_PASSES_ONNX_INFERENCE_LIBONNXBRIDGE_H

#include "passes/ONNX/Inference/Inference.h"

#include "dialects/ONNX/IR/OpInfo.h"

#include "onnx/onnx_pb.h"

#include <string>
#include <vector>

namespace mlir::onnxc {

/// How to present an op to a libonnx schema: which schema version, how many
/// of its operands, and attribute changes (an opset-18 Reduce's axes input
/// becomes the opset-13 `axes` attribute, attributes newer than the schema
/// are hidden).
struct SchemaCall {
  int version = 0;
  /// Operands passed to libonnx; -1 for all.
  int numInputs = -1;
  std::vector<onnx::AttributeProto> extraAttrs;
  std::vector<std::string> hiddenAttrs;
  /// Name of another op whose schema to use (same domain); empty for the
  /// op's own.
  std::string schemaName;
  /// An element type newer than libonnx (17-23: float8, int4, float4) that
  /// the inputs carry: presented to libonnx as uint8, and uint8 results
  /// come back as it (for ops whose results have their input's type).
  int32_t standInFor = 0;
};

/// Runs the libonnx inference (and data propagation) function of the schema
/// selected by `call` on `op`, refining its result types. Errors are emitted
/// on `op`.
LogicalResult inferWithLibOnnx(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state, const SchemaCall &call);

/// The same with the op's own schema at its libonnx inference version
/// (what ops without a rule of their own get).
inline LogicalResult inferWithLibOnnx(Operation *op, const ONNX::OpInfo &info,
                                      InferenceState &state) {
  SchemaCall call;
  call.version = info.libonnxInferenceVersion;
  return inferWithLibOnnx(op, info, state, call);
}

/// True if libonnx has a schema `name` (domain of `info`) at `version`.
bool hasLibOnnxSchema(const ONNX::OpInfo &info, StringRef name, int version);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_LIBONNXBRIDGE_H

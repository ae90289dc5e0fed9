//===- Inference.h - Type and shape inference of onnx ops -------*- C++ -*-===//
//
// The importer calls inferOpTypes as it builds each node; the
// onnx-shape-inference pass runs it over whole functions. Most ops are
// inferred by libonnx's own inference functions (through an
// onnx::InferenceContext over the MLIR op), ops newer than libonnx by onnxc's
// rules. Integer tensors whose values are known at compile time (shapes and
// the arithmetic on them), small float tensors computed from constants, and
// the element types of sequences of known length are propagated between ops
// in an InferenceState, so that Shape -> Gather -> Concat -> Reshape chains
// give static or named dims, and Range of computed scalars a static length.
// Loop bodies are inferred to a fixed point of their carried types.
//
// This header includes no protobuf or ONNX header.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_INFERENCE_INFERENCE_H
#define ONNXC_PASSES_ONNX_INFERENCE_INFERENCE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>

namespace mlir::onnxc {

/// What one inference run knows beyond the types in the IR: the (possibly
/// symbolic) values of integer tensors computed from shapes, known float
/// values, the element types of sequences of known length, and TensorProtos
/// of constants handed to libonnx. Keys are Values and Operations: the state
/// is valid while the ops it has seen are not erased. Not thread-safe.
class InferenceState {
public:
  struct Impl;
  ~InferenceState();
  InferenceState(const InferenceState &) = delete;
  InferenceState &operator=(const InferenceState &) = delete;

  Impl &getImpl() { return *impl; }

private:
  InferenceState();
  friend std::unique_ptr<InferenceState> createInferenceState();
  std::unique_ptr<Impl> impl;
};

std::unique_ptr<InferenceState> createInferenceState();

/// Infers the result types of one onnx op from its operands and attributes and
/// refines its result types in place (and its regions' block argument types and
/// nested ops, for If/Loop/Scan/SequenceMap). Fails with an error emitted on
/// the op when the op violates ONNX semantics (libonnx's inference errors are
/// surfaced as such). An op with an operand of type !onnx.unknown, or for
/// which nothing can be inferred, keeps its result types and succeeds.
LogicalResult inferOpTypes(Operation *op, InferenceState &state);

/// The value of the scalar (or one-element) integer or bool `v` when
/// inference knows it (constants, shape arithmetic, comparisons of known
/// values; bools as 0 and 1).
std::optional<int64_t> getKnownScalar(Value v, InferenceState &state);

/// The values of every result of `op` when inference knows them all (small
/// statically shaped int, bool and f32/f64 tensors; at most 4096 elements
/// each), else nothing. `op` must have no regions.
SmallVector<DenseElementsAttr> getKnownResults(Operation *op,
                                               InferenceState &state);

/// Erases `op` (which must have no uses left) and forgets what `state`
/// knows of the values it and its regions define.
void eraseInferredOp(Operation *op, InferenceState &state);

/// Runs inferOpTypes on every op nested in `region`, in order (the ops of a
/// subgraph are inferred through their parent op). Stops at the first error.
LogicalResult inferRegionTypes(Region &region, InferenceState &state);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_INFERENCE_INFERENCE_H

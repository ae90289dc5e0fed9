//===- Pipeline.h - onnxc's MLIR pass pipelines -----------------*- C++ -*-===//
//
// The two MLIR phases of onnxc, as the driver runs them and as onnxc-opt
// runs them by name (registerPipelines):
//
//   onnxc-lower-to-linalg{opt-level=N}  onnx dialect -> linalg on tensors
//   onnxc-lower-to-llvm{opt-level=N}    linalg on tensors -> LLVM dialect
//
//   onnxc --emit=linalg -ON m.onnx
//     == onnxc --emit=onnx m.onnx | onnxc-opt --onnxc-lower-to-linalg=opt-level=N
//   (after the driver renamed @main_graph: prepareEntryFunction)
//
// Defined in Pipeline.cpp (library ONNXCPipeline, which onnxc-opt links).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_BACKEND_PIPELINE_H
#define ONNXC_COMPILER_BACKEND_PIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::onnxc::backend {

/// What the MLIR pipelines optimize for.
struct PipelineOptions {
  /// 0: the plain loop lowering (fast to compile), no graph rewrites. 1 and
  /// above: graph rewrites, int8 ops as runtime kernel calls, elementwise
  /// fusion on tensors, fp32 matrix products and convolutions as calls to
  /// the runtime's kernels (which pick the CPU's vector ISA at run time).
  unsigned optLevel = 2;
  /// --profile: onnxc-profile-nodes times every node (docs/profiling.md).
  bool profile = false;
  /// --debug-dump: onnxc-insert-debug-dumps writes every node's outputs.
  bool debugDump = false;
  /// --fuse-conv-activations: Sigmoid, Swish, HardSigmoid and HardSwish
  /// after a convolution run in its kernel (onnxc-linalg-to-ukernel's
  /// fuse-activations), split over threads with it; on by default.
  bool fuseConvActivations = true;
  /// --fuse-conv-residuals: a residual Add (and its Relu) after a
  /// convolution runs in the convolution's kernel, which starts from the
  /// Add's other operand in place (onnxc-fuse-elementwise's
  /// residuals-in-place, onnxc-linalg-to-ukernel's fuse-residuals); on by
  /// default.
  bool fuseConvResiduals = true;
};

/// Dialects, interface models and LLVM translations the pipelines need.
void registerBackendDialects(DialectRegistry &registry);

/// onnx dialect -> linalg/tensor/arith/math on tensors: gradients, graph
/// rewrites (-O1 and up), convert-onnx-to-linalg.
void buildONNXToLinalgPipeline(OpPassManager &pm,
                               const PipelineOptions &options = {});

/// linalg on tensors -> LLVM dialect (onnx.* attributes stripped,
/// bufferization, deallocation, runtime kernel calls, loops).
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const PipelineOptions &options = {});

/// Registers both pipelines (onnxc-lower-to-linalg, onnxc-lower-to-llvm)
/// with their `opt-level` option, for onnxc-opt.
void registerPipelines();

} // namespace mlir::onnxc::backend

#endif // ONNXC_COMPILER_BACKEND_PIPELINE_H

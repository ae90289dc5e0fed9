//===- Pipeline.cpp - The MLIR stages: onnx -> linalg -> LLVM dialect -----===//
//
// Heavy includes live here only (one TU): each dialect and conversion by its
// own header, never mlir/Conversion/Passes.h or InitAll*.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"
#include "passes/Conversion/Passes.h"
#include "passes/ONNX/Passes.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::onnxc;

void backend::registerBackendDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
                  ub::UBDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

std::string backend::entryFunctionName(StringRef modelName) {
  return (modelName + "_main_graph").str();
}

LogicalResult backend::prepareEntryFunction(ModuleOp module, StringRef modelName) {
  auto entry = module.lookupSymbol<func::FuncOp>("main_graph");
  if (!entry)
    return module.emitError("the module has no @main_graph");
  // @main_graph, then the training functions (ModelSignature.h names them).
  SmallVector<std::pair<func::FuncOp, std::string>> entries = {
      {entry, entryFunctionName(modelName)}};
  for (const char *name : codegen::kTrainingFunctionNames)
    if (auto f = module.lookupSymbol<func::FuncOp>(name))
      entries.push_back({f, entryFunctionName((modelName + "_" + name).str())});
  for (auto &[f, name] : entries) {
    if (failed(SymbolTable::replaceAllSymbolUses(
            f, StringAttr::get(module.getContext(), name), module)))
      return failure();
    SymbolTable::setSymbolName(f, name);
    f->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  }
  return success();
}

void backend::releaseResourceBlobs(MLIRContext &ctx) {
  DialectResourceBlobManager &manager =
      DenseResourceElementsHandle::getManagerInterface(&ctx).getBlobManager();
  std::vector<std::string> names;
  manager.getBlobMap([&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &map) {
    for (const auto &entry : map)
      names.push_back(entry.getKey().str());
  });
  for (const std::string &name : names)
    manager.update(name, AsmResourceBlob());
}

void backend::buildONNXToLinalgPipeline(OpPassManager &pm,
                                        const PipelineOptions &options) {
  // Gradient ops become the ONNX ops that compute them (every level).
  pm.addNestedPass<func::FuncOp>(createONNXAutodiff());
  pm.addNestedPass<func::FuncOp>(createONNXDecomposeOptimizers());
  // Graph rewrites (Conv+BatchNorm folding, constant transposes, ...) from
  // -O1 up; -O0 lowers the graph as imported.
  if (options.optLevel > 0) {
    pm.addNestedPass<func::FuncOp>(createONNXPromoteF16());
    pm.addNestedPass<func::FuncOp>(createONNXGraphOptimize());
    // int8 convolutions and products (and dynamic quantization) as calls
    // of the runtime's int8 kernels, their dequantizing epilogue fused.
    pm.addPass(createConvertONNXQuantizedToUkernel());
  }
  // --debug-dump: every node's outputs to the runtime (the driver runs
  // this phase at -O0 then: no rewrite above hid an intermediate).
  if (options.debugDump)
    pm.addPass(createInsertDebugDumps());
  // Custom ops (unknown domains) as calls of the user's kernels.
  pm.addPass(createConvertONNXCustomToCall());
  pm.addPass(createConvertONNXToLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void backend::buildLinalgToLLVMPipeline(OpPassManager &pm,
                                        const PipelineOptions &options) {
  bool optimize = options.optLevel > 0;
  // LLVM translation knows no onnx.* attribute; the entry's inputs are the
  // caller's buffers (read-only for bufferization).
  pm.addPass(createStripONNXAttributes());
  if (optimize) {
    // Fewer, larger loop nests: intermediates of elementwise chains are
    // never stored (and never allocated once bufferized).
    FuseElementwiseOptions fuse;
    fuse.residualsInPlace = options.fuseConvResiduals;
    pm.addNestedPass<func::FuncOp>(createFuseElementwise(fuse));
    // Sums and maxima in any order: LLVM vectorizes the reduction loops.
    pm.addNestedPass<func::FuncOp>(createReassociateReductions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  // A result inserted into a larger tensor (a Concat input) is computed
  // in place in its slice: its tensor.empty becomes the slice of the
  // destination, and bufferization needs no copy.
  // The Concat's inputs in the order they are computed, its empty before
  // the first: that input too (a U-Net's skip) is computed in place.
  if (optimize) {
    pm.addNestedPass<func::FuncOp>(createOrderSliceInserts());
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
  }
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Contiguous memrefs at the model boundary: the runtime builds and reads
  // identity-layout descriptors (runtime_abi.h).
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop may yield a new tensor (a scan output that grew, a loop-carried
  // value that changed shape): it becomes a new buffer, which the
  // ownership-based deallocation below frees.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  // Returning an input or a constant leaves bufferization.clone behind.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  // fp32 products and convolutions -> the runtime's packed-GEMM kernels;
  // after deallocation, so that the frees stay after the calls.
  if (optimize) {
    // Padding as fill + contiguous copy instead of a gather per element.
    pm.addNestedPass<func::FuncOp>(createPadToCopy());
    LinalgToUkernelOptions ukernel;
    ukernel.fuseActivations = options.fuseConvActivations;
    ukernel.fuseResiduals = options.fuseConvResiduals;
    pm.addPass(createLinalgToUkernel(ukernel));
    // exp, erf, tanh, log as inline arithmetic: no libm call per element,
    // and the loops around them vectorize. After the kernel calls, whose
    // matcher folds activations (Sigmoid's exp among them) into a
    // convolution while they still read as math.exp.
    pm.addNestedPass<func::FuncOp>(createApproximateMath());
    // Memory planning: the statically shaped intermediates that only the
    // runtime's kernels touch share one arena, offsets planned from their
    // lifetimes; the others are freed right after their last use.
    pm.addNestedPass<func::FuncOp>(createPlanBuffers());
    // Elementwise loops over contiguous dims as one long loop (vectorizes
    // where the innermost dim is a 7-wide map).
    pm.addNestedPass<func::FuncOp>(createCollapseDims());
    // Large copies (Concat inputs into their slices) split over threads.
    pm.addNestedPass<func::FuncOp>(createParallelCopies());
  }
  // --profile: begin/end calls around each node's ops, once the kernel
  // calls and fusions are final (what runs is what is timed).
  if (options.profile)
    pm.addPass(createProfileNodes());
  // Buffer sizes computed from data: no negative dim, no byte size that
  // wraps (every level: a model must fail, not write past its buffers).
  pm.addPass(createCheckAllocSizes());
  // Weights as flat arrays: one LLVM constant each instead of one per
  // innermost row (compile time and memory; every level).
  pm.addPass(createFlattenGlobals());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createGuardEmptyLoops());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // math.ipowi (integer Pow) becomes a function; the rest goes to LLVM
  // intrinsics where there is one (fma, floor, ... become instructions where
  // the CPU has them; the polynomial approximations are made of them), else
  // to libm.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  // Models allocate through the runtime (runtime/src/alloc.c), at every
  // level: it frees what a failed call leaves, applies the memory limit,
  // fails the call naming the node when memory runs out (onnxc-mark-
  // allocator passes the node), and keeps large freed buffers for the next
  // run instead of letting libc hand them back to the kernel and fault
  // them in again.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createMarkAllocator());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Bools as bytes in memory: their loops vectorize (every level).
  pm.addPass(createBoolBytes());
  pm.addPass(createCanonicalizerPass());
}

namespace {
/// The pipelines' options as onnxc-opt parses them:
/// --onnxc-lower-to-llvm=opt-level=0.
struct PipelineCLOptions
    : public PassPipelineOptions<PipelineCLOptions> {
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("onnxc's -O level, 0-3 (default 2)"),
                            llvm::cl::init(2)};
  Option<bool> profile{*this, "profile",
                       llvm::cl::desc("onnxc --profile: time every node"),
                       llvm::cl::init(false)};
  Option<bool> debugDump{
      *this, "debug-dump",
      llvm::cl::desc("onnxc --debug-dump: write every node's outputs"),
      llvm::cl::init(false)};
  Option<bool> fuseConvActivations{
      *this, "fuse-conv-activations",
      llvm::cl::desc("onnxc --fuse-conv-activations"), llvm::cl::init(true)};
  Option<bool> fuseConvResiduals{
      *this, "fuse-conv-residuals",
      llvm::cl::desc("onnxc --fuse-conv-residuals"), llvm::cl::init(true)};
};
} // namespace

void backend::registerPipelines() {
  PassPipelineRegistration<PipelineCLOptions>(
      "onnxc-lower-to-linalg",
      "onnxc's onnx -> linalg phase, as the driver runs it (--emit=linalg)",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildONNXToLinalgPipeline(pm, {o.optLevel, o.profile, o.debugDump, o.fuseConvActivations,
                                       o.fuseConvResiduals});
      });
  PassPipelineRegistration<PipelineCLOptions>(
      "onnxc-lower-to-llvm",
      "onnxc's linalg -> LLVM dialect phase, as the driver runs it "
      "(--emit=llvm)",
      [](OpPassManager &pm, const PipelineCLOptions &o) {
        buildLinalgToLLVMPipeline(pm, {o.optLevel, o.profile, o.debugDump, o.fuseConvActivations,
                                       o.fuseConvResiduals});
      });
}

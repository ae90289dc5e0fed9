//===- onnxc-fuzz-pipeline.cpp - libFuzzer harness: the whole pipeline ----===//
//
// Takes each input through the whole compiler, as `onnxc --emit=obj` does:
// import (binary protobuf, or the ONNX text format when the bytes look like
// text), the model's signature, onnx -> linalg, linalg -> LLVM dialect, LLVM
// IR with the model's ABI, LLVM's optimizations and code generation to an
// object in memory. Any crash, sanitizer report (the build is ASan + UBSan),
// LLVM fatal error or hang is a bug; a model that is refused with a
// diagnostic is not. External data is refused (no model directory), so
// inputs never reach the file system.
//
// The pipelines are the driver's own (backend::buildONNXToLinalgPipeline and
// buildLinalgToLLVMPipeline). ONNXC_FUZZ_OPT=0..3 picks the optimization
// level (default 2).
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"
#include "compiler/Backend/Pipeline.h"
#include "compiler/CodeGen/ModelSignature.h"
#include "compiler/Import/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace mlir::onnxc;

// See onnxc-fuzz.cpp: Debian's libMLIR/libLLVM are not instrumented, and
// LLVM's header-only allocators would report use-after-poison on valid
// memory. Every other ASan check stays.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

namespace {
// Fuzzed models stay small: a bigger graph only costs time per execution,
// the code paths are the same.
constexpr uint64_t kMaxNodes = 256;

unsigned optLevel() {
  static unsigned level = [] {
    const char *env = std::getenv("ONNXC_FUZZ_OPT");
    return env && env[0] >= '0' && env[0] <= '3' && !env[1] ? unsigned(env[0] - '0')
                                                            : 2u;
  }();
  return level;
}

bool compile(MLIRContext &ctx, llvm::StringRef bytes, bool &failedOnce) {
  ImportOptions importOptions;
  importOptions.maxNodes = kMaxNodes;
  OwningOpRef<ModuleOp> module =
      importModelBuffer(ctx, bytes, "fuzz-input", /*baseDir=*/"", importOptions);
  if (!module || failedOnce)
    return false;
  auto entry = module->lookupSymbol<func::FuncOp>("main_graph");
  if (!entry)
    return false;
  const char *modelName = "fuzz";
  FailureOr<codegen::ModelSignature> signature =
      codegen::extractSignature(entry, modelName);
  if (failed(signature) ||
      failed(codegen::extractTrainingSignatures(*module, *signature)))
    return false;
  if (failed(backend::prepareEntryFunction(*module, modelName)))
    return false;

  // The driver's two phases, built by the same functions
  // (compiler/Backend/Pipeline.h), so the harness cannot drift from it.
  unsigned level = optLevel();
  backend::PipelineOptions pipeline;
  pipeline.optLevel = level;
  PassManager toLinalg(&ctx);
  backend::buildONNXToLinalgPipeline(toLinalg, pipeline);
  if (failed(toLinalg.run(*module)) || failedOnce)
    return false;

  PassManager toLLVM(&ctx);
  backend::buildLinalgToLLVMPipeline(toLLVM, pipeline);
  if (failed(toLLVM.run(*module)) || failedOnce)
    return false;

  std::string error;
  backend::TargetOptions target;
  target.optLevel = level;
  static std::unique_ptr<llvm::TargetMachine> tm =
      backend::createTargetMachine(target, error);
  if (!tm) {
    llvm::errs() << "onnxc-fuzz-pipeline: no target machine: " << error << "\n";
    std::abort();
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      backend::translateToLLVMIR(*module, llvmContext, *signature, *tm);
  if (!llvmModule)
    return false;
  module = nullptr;
  backend::optimizeModule(*llvmModule, *tm, level);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  if (!backend::emitCode(*llvmModule, *tm, os, /*assembly=*/false, error))
    return false;
  return !object.empty();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context, renewed now and then so uniqued attributes and types do
  // not pile up; the weights' blobs are freed after every input.
  static std::unique_ptr<MLIRContext> ctx;
  static bool failedOnce = false;
  static unsigned uses = 0;
  if (!ctx || ++uses % 500 == 0) {
    ctx.reset();
    DialectRegistry registry;
    backend::registerBackendDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    // One thread: one fuzzing process is one core, and runs reproduce.
    ctx->disableMultithreading();
    ctx->printOpOnDiagnostic(false);
    ctx->getDiagEngine().registerHandler([](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        failedOnce = true;
      return success();
    });
  }
  failedOnce = false;
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  (void)compile(*ctx, bytes, failedOnce);
  backend::releaseResourceBlobs(*ctx);
  return 0;
}

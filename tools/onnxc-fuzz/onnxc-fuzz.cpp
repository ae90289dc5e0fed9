//===- onnxc-fuzz.cpp - libFuzzer harness: import + verify + inference ----===//
//
// Feeds arbitrary bytes to the importer as a binary protobuf or, when they
// look like text, as the ONNX text format. Import runs shape inference and
// the verifier; any crash, sanitizer report or hang is a bug. External data
// is refused (no model directory), so inputs never reach the file system.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/Importer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace mlir;

// onnxc's code is instrumented, Debian's libMLIR.so/libLLVM.so are not. LLVM's
// header-only allocators poison fresh slabs under ASan and unpoison what they
// hand out; when uninstrumented library code allocates from a slab our
// instrumented inline code poisoned, ASan reports use-after-poison on valid
// memory. Manual poisoning is turned off; every other ASan check stays.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input would dominate the run time; one is reused and
  // renewed now and then so uniqued attributes do not pile up.
  static std::unique_ptr<MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 2000 == 0) {
    ctx = std::make_unique<MLIRContext>();
    ctx->printOpOnDiagnostic(false);
    ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  }
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      onnxc::importModelBuffer(*ctx, bytes, "fuzz-input", /*baseDir=*/"");
  (void)module;
  return 0;
}

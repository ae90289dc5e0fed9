//===- Sanitizer.cpp - AddressSanitizer on the model's LLVM module --------===//
//
// `onnxc --sanitize=address`: LLVM's AddressSanitizer pass on the optimized
// module (where clang runs it: after the optimizations), every defined
// function marked sanitize_address and keeping its frame pointer (readable
// reports). The library links the runtime built with ASan
// (libonnxc_runtime_asan.a) and leaves the __asan_* symbols to the program
// that loads it, which must be linked with -fsanitize=address.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"

using namespace mlir;
using namespace mlir::onnxc;

void backend::instrumentAddressSanitizer(llvm::Module &module,
                                         llvm::TargetMachine &tm) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr(llvm::Attribute::SanitizeAddress);
    f.addFnAttr("frame-pointer", "all");
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions()));
  mpm.run(module, mam);
}

std::string backend::sanitizedRuntimeLibrary(llvm::StringRef runtimeLibrary) {
  llvm::StringRef lib = runtimeLibrary;
  if (lib.consume_back(".a"))
    return (lib + "_asan.a").str();
  return runtimeLibrary.str();
}

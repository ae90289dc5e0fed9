//===- Backend.h - onnx dialect to objects and shared libraries -*- C++ -*-===//
//
// The stages after import: onnx -> linalg (passes/Conversion) -> bufferized
// loops -> LLVM dialect -> LLVM IR with the model's exported symbols ->
// object (in-process TargetMachine) -> shared library (in-process lld, with
// the onnxc runtime linked in). docs/pipeline.md describes each stage.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_BACKEND_BACKEND_H
#define ONNXC_COMPILER_BACKEND_BACKEND_H

#include "compiler/Backend/Pipeline.h"
#include "compiler/CodeGen/ModelSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::onnxc::backend {

struct TargetOptions {
  std::string triple; ///< "" = the host
  std::string cpu;    ///< "" = the host CPU (with its features)
  unsigned optLevel = 2;
};

/// The exported name of the model's entry function: "<model>_main_graph".
std::string entryFunctionName(llvm::StringRef modelName);

/// Renames @main_graph to entryFunctionName(modelName) and marks it for the
/// C interface (_mlir_ciface_<entry>). Run before lowering.
LogicalResult prepareEntryFunction(ModuleOp module, llvm::StringRef modelName);

/// Frees the data of every dense_resource blob of `ctx` (the weights) once
/// no module uses them any more: they live in the context, not the module.
void releaseResourceBlobs(MLIRContext &ctx);

/// Creates the target machine for `options`; null with `error` set.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, std::string &error);

/// LLVM dialect module -> LLVM IR module for `tm`, with the model's ABI
/// (M_info, M_run; runtime/include/onnxc/runtime_abi.h) added and every
/// other symbol made internal. Null after emitting an error.
std::unique_ptr<llvm::Module>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext,
                  const codegen::ModelSignature &signature,
                  llvm::TargetMachine &tm);

/// Runs LLVM's O0-O3 pipeline on `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &tm,
                    unsigned optLevel);

/// --sanitize=address (Sanitizer.cpp): LLVM's AddressSanitizer on the
/// optimized module; every defined function is instrumented.
void instrumentAddressSanitizer(llvm::Module &module, llvm::TargetMachine &tm);

/// The ASan build of a runtime archive: libonnxc_runtime.a ->
/// libonnxc_runtime_asan.a (beside it).
std::string sanitizedRuntimeLibrary(llvm::StringRef runtimeLibrary);

/// Writes an object file or assembly. False with `error` set on failure.
bool emitCode(llvm::Module &module, llvm::TargetMachine &tm,
              llvm::raw_pwrite_stream &os, bool assembly, std::string &error);

/// What a library for a target links against (Cross.cpp).
struct LinkTarget {
  bool cross = false;         ///< not the host
  std::string triple;         ///< the multiarch name ("aarch64-linux-gnu") when cross
  std::string runtimeLibrary; ///< the onnxc runtime archive built for the target
  std::string builtinsLibrary; ///< the compiler builtins (compiler-rt's or libgcc.a); may be ""
  std::vector<std::string> libraryDirs; ///< where libc and libm are
  /// The user's objects and archives (--link: custom-op kernels), linked
  /// after the model object; a static library takes in their members.
  std::vector<std::string> userInputs;
  /// --sanitize=address: the runtime is the ASan one, and the model's
  /// __asan_* symbols come from the loading program (no --no-undefined).
  bool sanitized = false;
};

/// Fails with a one-line `error` when LLVM knows no target for `triple`
/// ("" is the host).
bool checkTargetTriple(llvm::StringRef triple, std::string &error);

/// Resolves what --emit=lib and --emit=staticlib link for `triple` ("" =
/// the host): the runtime (`runtimeLibrary` if given, else the host's
/// `hostRuntimeLibrary` or, for another target, lib/<triple>/ beside it),
/// the builtins, the C library (under `sysroot`, default /usr/<triple>).
/// False with a one-line `error` naming what is missing and the Debian
/// packages that provide it.
bool resolveLinkTarget(llvm::StringRef triple, llvm::StringRef sysroot,
                       llvm::StringRef runtimeLibrary,
                       llvm::StringRef hostRuntimeLibrary, LinkTarget &out,
                       std::string &error);

/// Links `objects` and the onnxc runtime into a shared library with lld,
/// in-process. The library needs only libc and libm at run time; a
/// `sanitized` one (--sanitize=address) also the ASan runtime's symbols,
/// left undefined for the program that loads it.
bool linkSharedLibrary(const std::vector<std::string> &objects,
                       const LinkTarget &target, llvm::StringRef output,
                       std::string &error);

/// Writes the static library `output` (--emit=staticlib, Archiver.cpp): the
/// model object `object` as member `memberName`, every member of the
/// runtime archive and the compiler builtins those need. Links with any C
/// toolchain; several model archives link into one program. Fails when a
/// member is for another machine than the model object.
bool writeStaticLibrary(llvm::MemoryBufferRef object, llvm::StringRef memberName,
                        const LinkTarget &target, llvm::StringRef output,
                        std::string &error);

/// The runtime archive next to the running onnxc: <bindir>/../lib/libonnxc_runtime.a.
std::string defaultRuntimeLibrary(const char *argv0, void *mainAddr);

} // namespace mlir::onnxc::backend

#endif // ONNXC_COMPILER_BACKEND_BACKEND_H

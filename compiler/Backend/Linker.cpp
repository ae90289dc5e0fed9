//===- Linker.cpp - Model objects to a shared library with lld, in process ===//
//
// The library links the model's object, the onnxc runtime archive and the
// compiler builtins (half-precision conversions and the like) statically;
// at run time it needs only libc and libm.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace mlir::onnxc;

std::string backend::defaultRuntimeLibrary(const char *argv0, void *mainAddr) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, mainAddr);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(path, "..", "lib", "libonnxc_runtime.a");
  return std::string(path);
}

bool backend::linkSharedLibrary(const std::vector<std::string> &objects,
                                const LinkTarget &target,
                                llvm::StringRef output, std::string &error) {
  llvm::StringRef runtimeLibrary = target.runtimeLibrary;
  if (!llvm::sys::fs::exists(runtimeLibrary)) {
    error = "the onnxc runtime library '" + runtimeLibrary.str() +
            "' does not exist (build target onnxc_runtime, or pass --runtime-lib)";
    return false;
  }
  std::string soname = llvm::sys::path::filename(output).str();
  std::vector<std::string> storage = {"ld.lld", "-shared", "-o", output.str(),
                                      "-soname", soname, "--eh-frame-hdr",
                                      "--hash-style=gnu", "--build-id",
                                      "-z", "noexecstack", "-z", "relro",
                                      "-z", "now", "--gc-sections",
                                      "--as-needed"};
  // A sanitized model's __asan_* symbols come from the loading program.
  if (!target.sanitized)
    storage.push_back("--no-undefined");
  for (const std::string &o : objects)
    storage.push_back(o);
  for (const std::string &o : target.userInputs) {
    if (!llvm::sys::fs::exists(o)) {
      error = "--link '" + o + "' does not exist";
      return false;
    }
    storage.push_back(o);
  }
  // The runtime API a caller may use whatever the model holds, also when
  // the model's code does not reference it (random.c's seed functions).
  for (const char *sym : {"onnxc_set_random_seed", "onnxc_get_random_seed"}) {
    storage.push_back("-u");
    storage.push_back(sym);
  }
  storage.push_back(runtimeLibrary.str());
  if (!target.builtinsLibrary.empty() &&
      llvm::sys::fs::exists(target.builtinsLibrary))
    storage.push_back(target.builtinsLibrary);
  for (const std::string &dir : target.libraryDirs)
    storage.push_back("-L" + dir);
  storage.push_back("-lm");
  storage.push_back("-lc");
  std::vector<const char *> args;
  for (const std::string &s : storage)
    args.push_back(s.c_str());
  std::string out, err;
  llvm::raw_string_ostream outOS(out), errOS(err);
  lld::Result result =
      lld::lldMain(args, outOS, errOS, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0 || !result.canRunAgain) {
    llvm::StringRef first = llvm::StringRef(err).split('\n').first;
    first.consume_front("ld.lld: ");
    first.consume_front("error: ");
    // A custom op's kernel (or shape function) nobody provided.
    if (first.consume_front("undefined symbol: onnxc_custom_")) {
      error = "the custom-op function 'onnxc_custom_" + first.str() +
              "' is not defined: pass the object or archive that defines it "
              "with --link (docs/custom-ops.md)";
      return false;
    }
    error = "linking failed: error: " + first.str();
    return false;
  }
  return true;
}

//===- Cross.cpp - What a library for a target links against -------------===//
//
// `onnxc --mtriple=T` with --emit=lib or --emit=staticlib links a library for
// T: the model object, the onnxc runtime built for T (by the onnxc build,
// cmake/CrossRuntimes.cmake: <onnxc's dir>/../lib/<T>/libonnxc_runtime.a),
// T's compiler builtins and, for a shared library, T's libc and libm. The
// host needs nothing more; another Linux target needs its C library in
// Debian's cross layout (/usr/<T>/lib, libc6-dev-<arch>-cross) and its libgcc
// (/usr/lib/gcc-cross/<T>/<version>/libgcc.a, libgcc-12-dev-<arch>-cross):
// clang's own layout, so no --sysroot is needed for clang either
// (docs/embedding.md, "Cross-compilation").
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::onnxc;

#ifndef ONNXC_BUILTINS_LIBRARY
#define ONNXC_BUILTINS_LIBRARY ""
#endif

namespace {

/// Debian's name of an architecture (its cross packages' suffix).
std::string debianArch(const llvm::Triple &t) {
  switch (t.getArch()) {
  case llvm::Triple::aarch64:
    return "arm64";
  case llvm::Triple::x86_64:
    return "amd64";
  case llvm::Triple::arm:
    return "armhf";
  case llvm::Triple::ppc64le:
    return "ppc64el";
  default:
    return t.getArchName().str();
  }
}

/// The multiarch name of `t` ("aarch64-linux-gnu"): the directories of
/// Debian's cross layout and of onnxc's cross runtimes.
std::string multiarchName(const llvm::Triple &t) {
  return (t.getArchName() + "-" + t.getOSName() + "-" + t.getEnvironmentName())
      .str();
}

/// libgcc.a of the newest gcc-cross version for `name` under `usr`.
std::string findCrossLibgcc(llvm::StringRef usr, llvm::StringRef name) {
  llvm::SmallString<256> dir(usr);
  llvm::sys::path::append(dir, "lib", "gcc-cross", name);
  std::error_code ec;
  std::string best;
  int bestVersion = -1;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef version = llvm::sys::path::filename(it->path());
    int major = 0;
    if (version.split('.').first.getAsInteger(10, major))
      continue;
    llvm::SmallString<256> lib(it->path());
    llvm::sys::path::append(lib, "libgcc.a");
    if (major > bestVersion && llvm::sys::fs::exists(lib)) {
      bestVersion = major;
      best = std::string(lib);
    }
  }
  return best;
}

} // namespace

bool backend::checkTargetTriple(llvm::StringRef triple, std::string &error) {
  if (triple.empty())
    return true;
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    return true;
  }();
  (void)initialized;
  llvm::Triple t(llvm::Triple::normalize(triple));
  std::string lookupError;
  if (t.getArch() == llvm::Triple::UnknownArch ||
      !llvm::TargetRegistry::lookupTarget(t, lookupError)) {
    error = "unknown target triple '" + triple.str() +
            "' (onnxc links libraries for the host and aarch64-linux-gnu)";
    return false;
  }
  return true;
}

bool backend::resolveLinkTarget(llvm::StringRef triple, llvm::StringRef sysroot,
                                llvm::StringRef runtimeLibrary,
                                llvm::StringRef hostRuntimeLibrary,
                                LinkTarget &out, std::string &error) {
  if (!checkTargetTriple(triple, error))
    return false;
  llvm::Triple host(llvm::sys::getDefaultTargetTriple());
  llvm::Triple t(llvm::Triple::normalize(triple.empty() ? host.str()
                                                       : triple.str()));
  out = LinkTarget();
  if (t.getArch() == host.getArch() && t.getOS() == host.getOS()) {
    // The host: the runtime next to onnxc, the builtins onnxc was built
    // with, the system's libc.
    out.runtimeLibrary =
        runtimeLibrary.empty() ? hostRuntimeLibrary.str() : runtimeLibrary.str();
    out.builtinsLibrary = ONNXC_BUILTINS_LIBRARY;
    for (const char *dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                            "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
      if (llvm::sys::fs::is_directory(dir))
        out.libraryDirs.push_back(dir);
    return true;
  }
  if (!t.isOSLinux() || t.getEnvironment() != llvm::Triple::GNU) {
    error = "--mtriple=" + triple.str() +
            ": onnxc links libraries for the host and for Linux GNU targets "
            "(aarch64-linux-gnu); use --emit=obj and your own toolchain";
    return false;
  }
  out.cross = true;
  out.triple = multiarchName(t);
  std::string arch = debianArch(t);
  std::string packages = "libc6-dev-" + arch + "-cross libgcc-12-dev-" + arch +
                         "-cross";
  // The target's C library: Debian's cross layout (clang's default).
  llvm::SmallString<256> root(sysroot.empty() ? "/usr/" + out.triple
                                              : sysroot.str());
  llvm::SmallString<256> libDir(root);
  llvm::sys::path::append(libDir, "lib");
  llvm::SmallString<256> libc(libDir);
  llvm::sys::path::append(libc, "libc.so");
  if (!llvm::sys::fs::exists(libc)) {
    error = "no C library for " + out.triple + " in '" + std::string(root) +
            "' (lib/libc.so): install " + packages;
    return false;
  }
  out.libraryDirs.push_back(std::string(libDir));
  out.builtinsLibrary =
      findCrossLibgcc(llvm::sys::path::parent_path(root), out.triple);
  if (out.builtinsLibrary.empty()) {
    error = "no libgcc.a for " + out.triple + " in '" +
            llvm::sys::path::parent_path(root).str() + "/lib/gcc-cross/" +
            out.triple + "': install " + packages;
    return false;
  }
  // The runtime built for the target (cmake/CrossRuntimes.cmake).
  if (!runtimeLibrary.empty()) {
    out.runtimeLibrary = runtimeLibrary.str();
  } else {
    llvm::SmallString<256> lib(llvm::sys::path::parent_path(hostRuntimeLibrary));
    llvm::sys::path::append(lib, out.triple, "libonnxc_runtime.a");
    out.runtimeLibrary = std::string(lib);
    if (!llvm::sys::fs::exists(lib)) {
      error = "no onnxc runtime for " + out.triple + " ('" + std::string(lib) +
              "'): build onnxc with " + packages +
              " installed (cmake/CrossRuntimes.cmake), or pass --runtime-lib";
      return false;
    }
  }
  return true;
}

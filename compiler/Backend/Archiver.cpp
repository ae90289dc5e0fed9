//===- Archiver.cpp - A model object and the runtime as one static library ===//
//
// `onnxc --emit=staticlib` writes M.a: the model's object (member M.o), every
// member of the onnxc runtime archive, and the members of the compiler
// builtins (half-precision conversions, CPU feature detection) that those
// reference, so that the archive links with any C toolchain and needs only
// libc, libm and pthreads.
//
// Several model archives link into one program: the model object exports
// only M_info, M_run (and M_train_info); everything else in it is internal
// (CodeEmitter.cpp). The runtime members of each archive are the same
// objects, so the linker takes each one once (from the first archive that
// provides it) and every model binds to that one copy of the runtime.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// Adds the symbols `buffer` (an object file) defines to `defined` and those
/// it references to `undefined`, its machine to `arch`. False when it is
/// not an object file.
bool collectSymbols(llvm::MemoryBufferRef buffer, llvm::StringSet<> &defined,
                    llvm::StringSet<> &undefined,
                    llvm::Triple::ArchType *arch = nullptr) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> obj =
      llvm::object::ObjectFile::createObjectFile(buffer);
  if (!obj) {
    llvm::consumeError(obj.takeError());
    return false;
  }
  if (arch)
    *arch = (*obj)->getArch();
  for (const llvm::object::SymbolRef &sym : (*obj)->symbols()) {
    llvm::Expected<uint32_t> flags = sym.getFlags();
    llvm::Expected<llvm::StringRef> name = sym.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if (name->empty() || !(*flags & llvm::object::SymbolRef::SF_Global))
      continue;
    if (*flags & llvm::object::SymbolRef::SF_Undefined)
      undefined.insert(*name);
    else
      defined.insert(*name);
  }
  return true;
}

/// An archive opened for reading; keeps its buffer alive.
struct OpenArchive {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::unique_ptr<llvm::object::Archive> archive;
};

bool openArchive(llvm::StringRef path, OpenArchive &out, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return false;
  }
  out.buffer = std::move(*buffer);
  auto archive = llvm::object::Archive::create(out.buffer->getMemBufferRef());
  if (!archive) {
    error = "'" + path.str() + "' is not an archive: " +
            llvm::toString(archive.takeError());
    return false;
  }
  out.archive = std::move(*archive);
  return true;
}

} // namespace

bool backend::writeStaticLibrary(llvm::MemoryBufferRef object,
                                 llvm::StringRef memberName,
                                 const LinkTarget &target,
                                 llvm::StringRef output, std::string &error) {
  llvm::StringRef runtimeLibrary = target.runtimeLibrary;
  if (!llvm::sys::fs::exists(runtimeLibrary)) {
    error = "the onnxc runtime library '" + runtimeLibrary.str() +
            "' does not exist (build target onnxc_runtime, or pass --runtime-lib)";
    return false;
  }
  std::vector<llvm::NewArchiveMember> members;
  llvm::StringSet<> defined, undefined;
  llvm::NewArchiveMember model(object);
  model.MemberName = memberName;
  members.push_back(std::move(model));
  llvm::Triple::ArchType modelArch = llvm::Triple::UnknownArch;
  collectSymbols(object, defined, undefined, &modelArch);
  // No object for another machine slips in (a host runtime in an aarch64
  // library, ...).
  auto checkArch = [&](llvm::StringRef archive, llvm::StringRef name,
                       llvm::Triple::ArchType arch) {
    if (arch == modelArch || arch == llvm::Triple::UnknownArch)
      return true;
    error = "'" + archive.str() + "' member '" + name.str() + "' is for " +
            llvm::Triple::getArchTypeName(arch).str() + ", the model for " +
            llvm::Triple::getArchTypeName(modelArch).str() +
            " (pass the runtime built for the model's target)";
    return false;
  };

  // Every runtime member: the linker takes what the model needs.
  OpenArchive runtime;
  if (!openArchive(runtimeLibrary, runtime, error))
    return false;
  llvm::Error err = llvm::Error::success();
  for (const llvm::object::Archive::Child &child :
       runtime.archive->children(err)) {
    llvm::Expected<llvm::NewArchiveMember> member =
        llvm::NewArchiveMember::getOldMember(child, /*Deterministic=*/true);
    if (!member) {
      error = "cannot read a member of '" + runtimeLibrary.str() +
              "': " + llvm::toString(member.takeError());
      return false;
    }
    llvm::Triple::ArchType arch = llvm::Triple::UnknownArch;
    collectSymbols(member->Buf->getMemBufferRef(), defined, undefined, &arch);
    if (!checkArch(runtimeLibrary, member->MemberName, arch)) {
      llvm::consumeError(std::move(err));
      return false;
    }
    members.push_back(std::move(*member));
  }
  if (err) {
    error = "cannot read '" + runtimeLibrary.str() +
            "': " + llvm::toString(std::move(err));
    return false;
  }

  // The user's objects and archives (--link): their members, after the
  // runtime's.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> userBuffers;
  std::vector<OpenArchive> userArchives;
  for (const std::string &path : target.userInputs) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      error = "--link '" + path + "': " + buffer.getError().message();
      return false;
    }
    if (llvm::StringRef((*buffer)->getBufferStart(), (*buffer)->getBufferSize())
            .starts_with("!<arch>\n")) {
      userArchives.emplace_back();
      if (!openArchive(path, userArchives.back(), error))
        return false;
      llvm::Error uerr = llvm::Error::success();
      for (const llvm::object::Archive::Child &child :
           userArchives.back().archive->children(uerr)) {
        llvm::Expected<llvm::NewArchiveMember> member =
            llvm::NewArchiveMember::getOldMember(child, true);
        if (!member) {
          llvm::consumeError(std::move(uerr));
          error = "cannot read a member of '" + path +
                  "': " + llvm::toString(member.takeError());
          return false;
        }
        llvm::Triple::ArchType arch = llvm::Triple::UnknownArch;
        collectSymbols(member->Buf->getMemBufferRef(), defined, undefined, &arch);
        if (!checkArch(path, member->MemberName, arch)) {
          llvm::consumeError(std::move(uerr));
          return false;
        }
        members.push_back(std::move(*member));
      }
      if (uerr) {
        error = "cannot read '" + path + "': " + llvm::toString(std::move(uerr));
        return false;
      }
      continue;
    }
    llvm::Triple::ArchType arch = llvm::Triple::UnknownArch;
    if (!collectSymbols((*buffer)->getMemBufferRef(), defined, undefined,
                        &arch)) {
      error = "--link '" + path + "' is neither an object file nor an archive";
      return false;
    }
    if (!checkArch(path, llvm::sys::path::filename(path), arch))
      return false;
    llvm::NewArchiveMember member((*buffer)->getMemBufferRef());
    member.MemberName = llvm::sys::path::filename(path);
    members.push_back(std::move(member));
    userBuffers.push_back(std::move(*buffer));
  }

  // The builtins' members that define a symbol referenced and not defined
  // so far, until nothing more is needed (libc's and libm's symbols are
  // not in the builtins and stay undefined).
  OpenArchive builtins;
  llvm::StringRef builtinsPath = target.builtinsLibrary;
  if (!builtinsPath.empty() && llvm::sys::fs::exists(builtinsPath) &&
      openArchive(builtinsPath, builtins, error)) {
    llvm::StringSet<> tried;
    bool changed = true;
    while (changed) {
      changed = false;
      std::vector<std::string> wanted;
      for (const auto &s : undefined)
        if (!defined.contains(s.getKey()) && !tried.contains(s.getKey()))
          wanted.push_back(s.getKey().str());
      for (const std::string &name : wanted) {
        tried.insert(name);
        if (defined.contains(name)) // by a member added for another name
          continue;
        llvm::Expected<std::optional<llvm::object::Archive::Child>> child =
            builtins.archive->findSym(name);
        if (!child) {
          llvm::consumeError(child.takeError());
          continue;
        }
        if (!*child)
          continue;
        llvm::Expected<llvm::NewArchiveMember> member =
            llvm::NewArchiveMember::getOldMember(**child, true);
        if (!member) {
          llvm::consumeError(member.takeError());
          continue;
        }
        llvm::Triple::ArchType arch = llvm::Triple::UnknownArch;
        collectSymbols(member->Buf->getMemBufferRef(), defined, undefined,
                       &arch);
        if (!checkArch(builtinsPath, member->MemberName, arch))
          return false;
        members.push_back(std::move(*member));
        changed = true;
      }
    }
  }
  error.clear();

  if (llvm::Error e = llvm::writeArchive(
          output, members, llvm::SymtabWritingMode::NormalSymtab,
          llvm::object::Archive::K_GNU, /*Deterministic=*/true,
          /*Thin=*/false)) {
    error = "cannot write '" + output.str() + "': " + llvm::toString(std::move(e));
    return false;
  }
  return true;
}

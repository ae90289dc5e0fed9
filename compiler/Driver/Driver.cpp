//===- Driver.cpp - The onnxc command line --------------------------------===//
//
// onnxc MODEL [--emit=STAGE] [-o OUT]: imports an ONNX model and runs the
// pipeline up to STAGE (docs/pipeline.md). By default it writes MODEL.so and
// MODEL.h. Errors are one line on stderr and exit code 1:
//   onnxc: error: model.onnx: node 'conv1' (Conv): <reason>
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"

#include "compiler/Backend/Backend.h"
#include "compiler/CodeGen/HeaderWriter.h"
#include "compiler/CodeGen/ModelSignature.h"
#include "compiler/Import/Importer.h"
#include "passes/Conversion/Passes.h"
#include "lib/Support/Escape.h"
#include "passes/ONNX/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdio>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Stage { ONNX, Linalg, LLVM, LLVMIR, Asm, Obj, Header, Lib, StaticLib };

cl::OptionCategory onnxcCategory("onnxc options");

struct Options {
  cl::opt<std::string> input{cl::Positional, cl::desc("<model.onnx | model.onnxtxt>"),
                             cl::Required, cl::cat(onnxcCategory)};
  cl::opt<std::string> output{
      "o",
      cl::desc("Output file. lib: NAME.so and NAME.h (default: MODEL.so in the "
               "current directory); staticlib: NAME.a and NAME.h; obj: NAME.o and "
               "NAME.h; text stages: "
               "default stdout"),
      cl::value_desc("file"), cl::cat(onnxcCategory)};
  cl::opt<Stage> emit{
      "emit", cl::desc("Stop after this stage and write its result:"),
      cl::values(
          clEnumValN(Stage::ONNX, "onnx",
                     "the onnx dialect after import and shape inference"),
          clEnumValN(Stage::Linalg, "linalg", "linalg/tensor/arith on tensors"),
          clEnumValN(Stage::LLVM, "llvm", "the LLVM dialect"),
          clEnumValN(Stage::LLVMIR, "llvm-ir", "LLVM IR, optimized, with the model's exported symbols"),
          clEnumValN(Stage::Asm, "asm", "assembly"),
          clEnumValN(Stage::Obj, "obj", "an object file and its C header"),
          clEnumValN(Stage::Header, "header", "the C header only"),
          clEnumValN(Stage::Lib, "lib", "a shared library and its C header (default)"),
          clEnumValN(Stage::StaticLib, "staticlib",
                     "a static library (the model object and the runtime) "
                     "and its C header")),
      cl::init(Stage::Lib), cl::cat(onnxcCategory)};
  cl::opt<std::string> format{
      "input-format", cl::desc("Model format: auto (default), binary or text"),
      cl::init("auto"), cl::cat(onnxcCategory)};
  cl::opt<bool> requireStatic{
      "require-static",
      cl::desc("Fail unless every value has a fully static type after inference"),
      cl::cat(onnxcCategory)};
  cl::opt<unsigned> optLevel{"O", cl::desc("Optimization level 0-3 (default 2)"),
                             cl::Prefix, cl::init(2), cl::cat(onnxcCategory)};
  cl::opt<std::string> mtriple{"mtriple", cl::desc("Target triple (default: the host's)"),
                               cl::cat(onnxcCategory)};
  cl::opt<std::string> name{
      "name", cl::desc("C name of the model: prefix of its symbols (default: "
                       "the output file's stem)"),
      cl::cat(onnxcCategory)};
  cl::opt<bool> locations{
      "locations",
      cl::desc("Print each op's location in the MLIR stages (onnx, linalg, "
               "llvm): the ONNX node and op type it comes from"),
      cl::cat(onnxcCategory)};
  cl::opt<uint64_t> maxNodes{
      "max-nodes",
      cl::desc("Refuse models with more nodes than this, in all graphs, once "
               "model-local functions are inlined (default 1000000)"),
      cl::init(onnxc::ImportOptions::kDefaultMaxNodes), cl::cat(onnxcCategory)};
  cl::opt<std::string> sysroot{
      "sysroot",
      cl::desc("The C library of a cross --mtriple for --emit=lib (default: "
               "Debian's cross layout, /usr/<triple>)"),
      cl::value_desc("dir"), cl::cat(onnxcCategory)};
  cl::list<std::string> link{
      "link",
      cl::desc("An object or archive to link into the library (lib) or add "
               "to it (staticlib): custom-op kernels (docs/custom-ops.md)"),
      cl::value_desc("file.o|lib.a"), cl::cat(onnxcCategory)};
  cl::opt<std::string> sanitize{
      "sanitize",
      cl::desc("Instrument the generated code: 'address' (AddressSanitizer; "
               "links libonnxc_runtime_asan.a; load the library from a "
               "program linked with -fsanitize=address)"),
      cl::value_desc("address"), cl::cat(onnxcCategory)};
  cl::opt<bool> profile{
      "profile",
      cl::desc("Time every ONNX node at run time: the library writes a "
               "Chrome trace (ONNXC_PROFILE=out.json or onnxc_profile_start; "
               "docs/profiling.md)"),
      cl::cat(onnxcCategory)};
  cl::opt<bool> debugDump{
      "debug-dump",
      cl::desc("Write every node's outputs as .npy files and a manifest.json "
               "at run time (ONNXC_DUMP_DIR=dir or onnxc_debug_dump_dir; "
               "the MLIR stages run at -O0; docs/profiling.md)"),
      cl::cat(onnxcCategory)};
  cl::opt<bool> fuseConvActivations{
      "fuse-conv-activations",
      cl::desc("Run a Sigmoid, Swish, HardSigmoid or HardSwish that follows "
               "a convolution inside the convolution's kernel, split over "
               "threads with it (default on; =false keeps them separate "
               "loops on the calling thread; docs/performance.md)"),
      cl::init(true), cl::cat(onnxcCategory)};
  cl::opt<bool> fuseConvResiduals{
      "fuse-conv-residuals",
      cl::desc("Run a residual Add (and a Relu after it) that follows a "
               "convolution inside the convolution's kernel, which starts "
               "from the Add's other operand in place (default on; =false "
               "keeps the Add a loop of its own; docs/performance.md)"),
      cl::init(true), cl::cat(onnxcCategory)};
  cl::opt<std::string> runtimeLib{
      "runtime-lib",
      cl::desc("The onnxc runtime archive to link (default: ../lib/libonnxc_runtime.a "
               "next to onnxc)"),
      cl::cat(onnxcCategory)};
};

/// Formats a diagnostic as one line: "node 'n' (Op): reason". The node and
/// its ONNX op type come from the location the importer gave the node
/// (NameLoc("n", FusedLoc<"Op">[file])), which the lowering passes on to the
/// ops it creates: an error of a linalg.generic lowered from node 'n' reads
/// "node 'n' (Op): linalg.generic: reason".
std::string formatDiagnostic(Diagnostic &diag) {
  // Kept whole: the caller escapes newlines (a node name may hold one).
  std::string msg = llvm::StringRef(diag.str()).rtrim().str();
  std::string node, onnxOp;
  Location loc = diag.getLocation();
  // Rewrites fuse the locations of the ops they merge: the first one names
  // the node.
  while (auto fused = llvm::dyn_cast<FusedLoc>(loc)) {
    if (fused.getLocations().empty())
      break;
    loc = fused.getLocations().front();
  }
  if (auto nl = llvm::dyn_cast<NameLoc>(loc)) {
    node = nl.getName().str();
    if (auto child = llvm::dyn_cast<FusedLoc>(nl.getChildLoc()))
      if (auto type = llvm::dyn_cast_or_null<StringAttr>(child.getMetadata()))
        onnxOp = type.str();
  }
  llvm::StringRef m = msg;
  llvm::StringRef opName, rest = m;
  if (m.starts_with("'")) {
    size_t end = m.find("' op ");
    if (end != llvm::StringRef::npos) {
      opName = m.substr(1, end - 1);
      rest = m.substr(end + 5);
    }
  }
  bool isONNXOp = opName.consume_front("onnx.");
  if (node.empty())
    return opName.empty() ? msg : opName.str() + ": " + rest.str();
  if (m.starts_with("node '"))
    return msg;
  // An onnx op names itself; another op names the ONNX node it comes from.
  if (isONNXOp || (!opName.empty() && onnxOp.empty()))
    return "node '" + node + "' (" + opName.str() + "): " + rest.str();
  if (onnxOp.empty())
    return "'" + node + "': " + msg;
  return "node '" + node + "' (" + onnxOp + "): " +
         (opName.empty() ? "" : opName.str() + ": ") + rest.str();
}

/// Reports the first value whose type is not fully static.
LogicalResult checkStatic(ModuleOp module) {
  auto isStatic = [](Type t) {
    if (auto tt = llvm::dyn_cast<TensorType>(t))
      return tt.hasStaticShape();
    return true;
  };
  WalkResult r = module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!isStatic(arg.getType())) {
            op->emitOpError() << "a region argument has the non-static type "
                              << arg.getType();
            return WalkResult::interrupt();
          }
    for (Value v : op->getResults())
      if (!isStatic(v.getType())) {
        op->emitOpError() << "result " << llvm::cast<OpResult>(v).getResultNumber()
                          << " has the non-static type " << v.getType();
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

/// Output paths: `path` with its extension replaced.
std::string withExtension(llvm::StringRef path, llvm::StringRef ext) {
  llvm::SmallString<256> p(path);
  llvm::sys::path::replace_extension(p, ext);
  return std::string(p);
}

/// Fails when writing `path` would overwrite the model `input` (the same
/// file, also through a link).
LogicalResult checkNotInput(llvm::StringRef path, llvm::StringRef input) {
  if (path == "-")
    return success();
  bool same = false;
  if (!llvm::sys::fs::equivalent(path, input, same) && same)
    return failure();
  return success();
}

bool writeFile(llvm::StringRef path, llvm::function_ref<bool(llvm::raw_pwrite_stream &)> fn,
               std::string &error) {
  auto out = openOutputFile(path, &error);
  if (!out)
    return false;
  if (!fn(out->os())) {
    out->os().clear_error();
    return false;
  }
  // A write error (a full disk, /dev/full) is a one-line error, not LLVM's
  // "IO failure on output stream" abort when the stream is destroyed.
  out->os().flush();
  if (out->os().has_error()) {
    error = "cannot write '" + path.str() + "': " + out->os().error().message();
    out->os().clear_error();
    return false;
  }
  out->keep();
  return true;
}

/// Whether `path` is, or would be created as, a regular file (not a device
/// such as /dev/null, a directory or a FIFO).
bool isRegularOutput(llvm::StringRef path) {
  if (path == "-")
    return false;
  // /dev/stdout, /dev/fd/N and /proc/self/fd/N are streams even when they
  // resolve to a regular file (stdout redirected to one): no header goes
  // "beside" them (it wrote /dev/stdout.h).
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(path));
  if (dir.empty())
    dir = ".";
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(dir, real)) {
    llvm::StringRef r = real;
    if (r == "/dev" || r.starts_with("/dev/") || r == "/proc" ||
        r.starts_with("/proc/"))
      return false;
  }
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(path, st))
    return true; // does not exist yet
  return llvm::sys::fs::is_regular_file(st);
}

/// Removes `path` after a failed run when it is a regular file this run
/// wrote (never a device: sys::fs::remove refuses those too).
void removeOutput(llvm::StringRef path) {
  if (path != "-" && isRegularOutput(path))
    (void)llvm::sys::fs::remove(path);
}

/// Parses onnxc's command line: its own options, LLVM's --mcpu and MLIR's
/// pass-manager, timing, context and printer options (--mlir-*), each under
/// its heading in --help.
/// Returns LLVM's complaint about a bad command line (unknown options,
/// values that do not parse, extra arguments) as one line, empty when the
/// line parsed: LLVM prints them as "onnxc: ...", some on two lines.
std::string parseCommandLine(int argc, char **argv) {
  // --mcpu is one of LLVM's codegen flags: the in-process linker registers
  // them too, so onnxc uses LLVM's rather than an option of its own.
  static llvm::codegen::RegisterCodeGenFlags codegenFlags;
  if (cl::Option *mcpu = cl::getRegisteredOptions().lookup("mcpu")) {
    mcpu->addCategory(onnxcCategory);
    mcpu->setDescription("Target CPU (default: the host's, with its features)");
  }
  // MLIR's pass-manager, timing, context and printer options
  // (--mlir-print-ir-after-all, --mlir-timing, --mlir-disable-threading,
  // ...), listed under their own heading in --help.
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  static cl::OptionCategory mlirCategory("MLIR pass-manager options");
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.first.starts_with("mlir-"))
      entry.second->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&onnxcCategory, &mlirCategory});
  // LLVM writes most complaints to the stream given, but those about an
  // option's value straight to llvm::errs() (stderr): stderr goes to a
  // temporary file while parsing (--help and --version print to stdout).
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::FILE *captured = std::tmpfile();
  int savedStderr = captured ? ::dup(2) : -1;
  if (savedStderr >= 0)
    ::dup2(::fileno(captured), 2);
  bool parsed = cl::ParseCommandLineOptions(
      argc, argv,
      "onnxc: ONNX models to native code\n\n"
      "  onnxc model.onnx            writes model.so and model.h\n"
      "  onnxc model.onnx --emit=S   stops after stage S\n",
      &errorStream);
  llvm::errs().flush();
  if (savedStderr >= 0) {
    ::dup2(savedStderr, 2);
    ::close(savedStderr);
    std::rewind(captured);
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, captured)) > 0)
      errors.insert(0, std::string(buffer, n)); // before what Errs got
  }
  if (captured)
    std::fclose(captured);
  if (parsed) {
    // Warnings (LLVM prints none today) pass through as they were.
    if (!errors.empty())
      llvm::errs() << errors;
    return "";
  }
  std::string prefix = llvm::sys::path::filename(argv[0]).str() + ": ";
  std::string message;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(errors).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    line = line.trim();
    line.consume_front(prefix);
    if (!line.empty())
      message += (message.empty() ? "" : " ") + line.str();
  }
  return message.empty() ? "bad command line (see --help)" : message;
}

/// The target of a library (--emit=lib, staticlib): what it links (the
/// runtime built for it, its C library, --link inputs, the sanitized
/// runtime); for other stages only the triple is checked.
bool resolveTarget(const Options &opts, const char *argv0,
                   mlir::onnxc::backend::LinkTarget &linkTarget,
                   std::string &error) {
  Stage stage = opts.emit;
  if (stage == Stage::Lib || stage == Stage::StaticLib) {
    std::string hostRuntime = mlir::onnxc::backend::defaultRuntimeLibrary(
        argv0, reinterpret_cast<void *>(&mlir::onnxc::onnxcMain));
    if (!mlir::onnxc::backend::resolveLinkTarget(opts.mtriple, opts.sysroot, opts.runtimeLib,
                                    hostRuntime, linkTarget, error))
      return false;
    linkTarget.userInputs.assign(opts.link.begin(), opts.link.end());
    // Objects and archives are regular files: a device (/dev/zero) made
    // ld.lld abort ("LLVM ERROR: out of memory"), a FIFO would block.
    auto notRegular = [](const std::string &path) {
      llvm::sys::fs::file_status st;
      return !llvm::sys::fs::status(path, st) &&
             !llvm::sys::fs::is_regular_file(st);
    };
    for (const std::string &path : linkTarget.userInputs)
      if (notRegular(path)) {
        error = "--link '" + path + "' is not a regular file";
        return false;
      }
    if (!opts.runtimeLib.empty() && notRegular(opts.runtimeLib)) {
      error = "--runtime-lib '" + opts.runtimeLib + "' is not a regular file";
      return false;
    }
    if (opts.sanitize == "address") {
      if (linkTarget.cross) {
        error = "--sanitize=address links the host's ASan runtime: it "
                "cannot be combined with --mtriple=" + opts.mtriple;
        return false;
      }
      if (opts.runtimeLib.empty())
        linkTarget.runtimeLibrary =
            mlir::onnxc::backend::sanitizedRuntimeLibrary(linkTarget.runtimeLibrary);
      linkTarget.sanitized = true;
    }
    return true;
  }
  return mlir::onnxc::backend::checkTargetTriple(opts.mtriple, error);
}

/// The output file (-o, or the input's stem with the stage's extension;
/// "-" for text stages) and the header beside it; fails when one of the
/// files would overwrite the model or another of them.
bool planOutputs(const Options &opts, std::string &output,
                 std::string &headerPath, std::string &error) {
  Stage stage = opts.emit;
  auto fail = [&](const llvm::Twine &msg) {
    error = msg.str();
    return false;
  };
  bool textStage = stage == Stage::ONNX || stage == Stage::Linalg ||
                   stage == Stage::LLVM || stage == Stage::LLVMIR || stage == Stage::Asm;
  output = opts.output;
  if (output.empty()) {
    llvm::StringRef stem = llvm::sys::path::stem(opts.input);
    output = textStage ? "-"
             : stage == Stage::Obj    ? (stem + ".o").str()
             : stage == Stage::Header ? (stem + ".h").str()
             : stage == Stage::StaticLib ? (stem + ".a").str()
                                      : (stem + ".so").str();
  }
  headerPath =
      stage == Stage::Header ? output : withExtension(output, ".h");
  // Never write over the model, whichever of the files would.
  if ((stage == Stage::Obj || stage == Stage::Lib ||
       stage == Stage::StaticLib) &&
      (output == headerPath || output == withExtension(headerPath, ".hpp")))
    return fail("-o '" + output + "' would be written twice, as the " +
                (stage == Stage::Obj ? "object" : "library") +
                " and as its header: give it another extension than .h or .hpp");
  if (failed(checkNotInput(output, opts.input)))
    return fail("-o '" + output + "' is the model itself: writing it would "
                "destroy the model");
  if (!textStage && stage != Stage::Header &&
      failed(checkNotInput(headerPath, opts.input)))
    return fail("the header '" + headerPath + "' would overwrite the model");
  if (!textStage &&
      failed(checkNotInput(withExtension(headerPath, ".hpp"), opts.input)))
    return fail("the C++ header '" + withExtension(headerPath, ".hpp") +
                "' would overwrite the model");
  return true;
}

/// Runs one of onnxc's phases (the pipeline `build` adds) over `module`,
/// with the --mlir-* pass-manager options and a timing scope of its own.
LogicalResult runPhase(MLIRContext &ctx, ModuleOp module, TimingScope &root,
                       llvm::StringRef name,
                       llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(&ctx);
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  TimingScope scope = root.nest(name);
  pm.enableTiming(scope);
  build(pm);
  return pm.run(module);
}

/// M.h and, beside it, the C++ classes M.hpp (which include M.h).
bool writeHeaders(const mlir::onnxc::codegen::ModelSignature &signature,
                  llvm::StringRef headerPath, std::string &error) {
  namespace codegen = mlir::onnxc::codegen;
  return writeFile(headerPath,
                   [&](llvm::raw_pwrite_stream &os) {
                     os << codegen::writeModelHeader(signature);
                     return true;
                   },
                   error) &&
         writeFile(withExtension(headerPath, ".hpp"),
                   [&](llvm::raw_pwrite_stream &os) {
                     os << codegen::writeModelCxxHeader(
                         signature, llvm::sys::path::filename(headerPath));
                     return true;
                   },
                   error);
}

/// Writes `output` through `produce(path)`: directly when it is (or will
/// be) a regular file, else (a device such as /dev/null or /dev/full)
/// into a temporary file that is then copied with the write checked. The
/// archive writer renames its temporary file over the output, which as
/// root replaced /dev/null itself by a regular file; ld.lld's own write to
/// /dev/full aborted with "LLVM ERROR: IO failure on output stream".
bool writeThroughTemporary(const std::string &output, llvm::StringRef ext,
                           llvm::function_ref<bool(const std::string &)> produce,
                           std::string &error) {
  if (isRegularOutput(output))
    return produce(output);
  llvm::SmallString<256> tmp;
  if (auto ec = llvm::sys::fs::createTemporaryFile("onnxc", ext, tmp)) {
    error = "cannot create a temporary file: " + ec.message();
    return false;
  }
  llvm::FileRemover removeTmp(tmp);
  if (!produce(std::string(tmp)))
    return false;
  auto bytes = llvm::MemoryBuffer::getFile(tmp);
  if (!bytes) {
    error = "cannot read '" + std::string(tmp) + "': " +
            bytes.getError().message();
    return false;
  }
  return writeFile(output,
                   [&](llvm::raw_pwrite_stream &os) {
                     os << (*bytes)->getBuffer();
                     return true;
                   },
                   error);
}

/// The library: a static one (the object in memory, then the archive) or
/// a shared one (the object in a temporary file, then lld). `emit` writes
/// the object, `emitted` runs once it has (the weights are in the object
/// now: the LLVM module can go before the link).
bool writeLibrary(llvm::function_ref<bool(llvm::raw_pwrite_stream &)> emit,
                  llvm::function_ref<void()> emitted, bool staticLib, const std::string &modelName,
                  const mlir::onnxc::backend::LinkTarget &linkTarget,
                  const std::string &output, std::string &error) {
  namespace backend = mlir::onnxc::backend;
  if (staticLib) {
    llvm::SmallVector<char, 0> objBuffer;
    llvm::raw_svector_ostream objOS(objBuffer);
    if (!emit(objOS))
      return false;
    emitted();
    // The buffer's name outlives the MemoryBufferRef (which keeps only a
    // StringRef to it: a temporary here was read after its scope, ASan).
    std::string objectName = modelName + ".o";
    llvm::MemoryBufferRef object(
        llvm::StringRef(objBuffer.data(), objBuffer.size()), objectName);
    return writeThroughTemporary(
        output, "a",
        [&](const std::string &path) {
          return backend::writeStaticLibrary(object, objectName,
                                             linkTarget, path, error);
        },
        error);
  }
  llvm::SmallString<256> objPath;
  if (auto ec = llvm::sys::fs::createTemporaryFile("onnxc", "o", objPath)) {
    error = "cannot create a temporary file: " + ec.message();
    return false;
  }
  llvm::FileRemover removeObj(objPath);
  if (!writeFile(objPath, emit, error))
    return false;
  emitted();
  return writeThroughTemporary(
      output, "so",
      [&](const std::string &path) {
        return backend::linkSharedLibrary({std::string(objPath)}, linkTarget,
                                          path, error);
      },
      error);
}

/// What the options' values must be; the message of the first that is
/// not, or "".
std::string checkOptions(const Options &opts) {
  if (opts.optLevel > 3)
    return "-O" + std::to_string(opts.optLevel) +
           " is not an optimization level (0-3)";
  if (opts.format != "auto" && opts.format != "binary" && opts.format != "text")
    return "--input-format must be auto, binary or text";
  if (!opts.sanitize.empty() && opts.sanitize != "address")
    return "--sanitize=" + opts.sanitize + " is not supported (only 'address')";
  if (opts.profile && opts.debugDump)
    return "--profile and --debug-dump do not combine: the dumps' file "
           "writes would be timed as the nodes' work";
  return "";
}

/// The code generator's target: --mtriple (the host's when empty), --mcpu,
/// -O.
mlir::onnxc::backend::TargetOptions targetOptions(const Options &opts) {
  mlir::onnxc::backend::TargetOptions target;
  target.triple =
      opts.mtriple.empty() ? "" : llvm::Triple::normalize(opts.mtriple);
  target.cpu = llvm::codegen::getMCPU();
  target.optLevel = opts.optLevel;
  return target;
}
} // namespace

int mlir::onnxc::onnxcMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options opts;
  std::string badLine = parseCommandLine(argc, argv);
  // Every message is one line: names and paths come from the input.
  auto fail = [&](const llvm::Twine &msg) {
    llvm::errs() << "onnxc: error: " << onnxc::escapeForMessage(msg.str())
                 << "\n";
    return 1;
  };
  if (!badLine.empty())
    return fail(badLine);
  if (std::string bad = checkOptions(opts); !bad.empty())
    return fail(bad);
  bool asan = opts.sanitize == "address";

  DialectRegistry registry;
  backend::registerBackendDialects(registry);
  MLIRContext ctx(registry);
  ctx.printOpOnDiagnostic(false);
  bool failedOnce = false;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (!failedOnce)
        llvm::errs() << "onnxc: error: "
                     << onnxc::escapeForMessage(opts.input + ": " +
                                                formatDiagnostic(diag))
                     << "\n";
      failedOnce = true;
    } else if (diag.getSeverity() == DiagnosticSeverity::Warning) {
      llvm::errs() << "onnxc: warning: "
                   << onnxc::escapeForMessage(opts.input + ": " +
                                              formatDiagnostic(diag))
                   << "\n";
    }
    return success();
  });

  Stage stage = opts.emit;
  // The target, checked before any work: what a library for it links
  // (the runtime built for it, its C library: compiler/Backend/Cross.cpp).
  std::string error;
  backend::LinkTarget linkTarget;
  if (!resolveTarget(opts, argv[0], linkTarget, error))
    return fail(error);
  std::string output, headerPath;
  if (!planOutputs(opts, output, headerPath, error))
    return fail(error);

  onnxc::ImportOptions importOptions;
  importOptions.format = opts.format;
  importOptions.maxNodes = opts.maxNodes;
  OwningOpRef<ModuleOp> module =
      onnxc::importModelFile(ctx, opts.input, importOptions);
  if (!module || failedOnce)
    return 1;
  if (opts.requireStatic && failed(checkStatic(*module)))
    return 1;

  auto printModule = [&](llvm::raw_pwrite_stream &os) {
    OpPrintingFlags flags;
    if (opts.locations)
      flags.enableDebugInfo();
    module->print(os, flags);
    os << "\n";
    return true;
  };
  if (stage == Stage::ONNX)
    return writeFile(output, printModule, error) ? 0 : fail(error);

  // The C name, sanitized as a file stem is ("a-b" -> "a_b", "int" ->
  // "_int"): the entry function and the header must agree on it.
  std::string modelName = codegen::sanitizeCIdentifier(
      !opts.name.empty() ? llvm::StringRef(opts.name)
      : llvm::sys::path::stem(output == "-" ? llvm::StringRef(opts.input)
                                            : llvm::StringRef(output)));
  auto entry = module->lookupSymbol<func::FuncOp>("main_graph");
  if (!entry)
    return fail(opts.input + ": the imported module has no @main_graph");
  FailureOr<codegen::ModelSignature> signature =
      codegen::extractSignature(entry, modelName);
  if (failed(signature) ||
      failed(codegen::extractTrainingSignatures(*module, *signature)))
    return 1;
  // The headers go beside a file: beside a device such as /dev/null there
  // is none (it wrote /dev/null.h and /dev/null.hpp), and --emit=header to
  // a device writes only the C header there. When a header cannot be
  // written, the run leaves no output behind (a library without its
  // header was left).
  bool besideFile = isRegularOutput(output);
  auto writeHeader = [&]() {
    if (stage == Stage::Header && !besideFile)
      return writeFile(output,
                       [&](llvm::raw_pwrite_stream &os) {
                         os << codegen::writeModelHeader(*signature);
                         return true;
                       },
                       error);
    if (!besideFile)
      return true;
    if (writeHeaders(*signature, headerPath, error))
      return true;
    if (stage != Stage::Header)
      removeOutput(output);
    removeOutput(headerPath);
    return false;
  };
  if (stage == Stage::Header)
    return writeHeader() ? 0 : fail(error);

  if (failed(backend::prepareEntryFunction(*module, modelName)))
    return 1;
  // The pass managers take the --mlir-* pass-manager options
  // (--mlir-print-ir-after-all, --mlir-timing, ...); onnxc-opt runs the
  // same pipelines by name (compiler/Backend/Pipeline.h).
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();
  // --debug-dump: the MLIR stages at -O0 (no graph rewrite or fusion hides
  // a node's output; LLVM's -O level stays).
  backend::PipelineOptions pipeline{opts.debugDump ? 0u : unsigned(opts.optLevel),
                                    opts.profile, opts.debugDump,
                                    opts.fuseConvActivations,
                                    opts.fuseConvResiduals};
  if (failed(runPhase(ctx, *module, rootTiming, "onnxc-lower-to-linalg",
                      [&](OpPassManager &pm) {
                        backend::buildONNXToLinalgPipeline(pm, pipeline);
                      })) ||
      failedOnce)
    return failedOnce ? 1 : fail(opts.input + ": lowering to linalg failed");
  if (stage == Stage::Linalg)
    return writeFile(output, printModule, error) ? 0 : fail(error);
  if (failed(runPhase(ctx, *module, rootTiming, "onnxc-lower-to-llvm",
                      [&](OpPassManager &pm) {
                        backend::buildLinalgToLLVMPipeline(pm, pipeline);
                      })) ||
      failedOnce)
    return failedOnce ? 1 : fail(opts.input + ": lowering to LLVM failed");
  if (stage == Stage::LLVM)
    return writeFile(output, printModule, error) ? 0 : fail(error);

  std::unique_ptr<llvm::TargetMachine> tm =
      backend::createTargetMachine(targetOptions(opts), error);
  if (!tm)
    return fail(error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      backend::translateToLLVMIR(*module, llvmContext, *signature, *tm);
  if (!llvmModule)
    return 1;
  // The LLVM module has its own copy of the weights: the MLIR module and
  // its weight blobs go (peak compile memory).
  module = nullptr;
  backend::releaseResourceBlobs(ctx);
  backend::optimizeModule(*llvmModule, *tm, opts.optLevel);
  if (asan)
    backend::instrumentAddressSanitizer(*llvmModule, *tm);
  if (stage == Stage::LLVMIR)
    return writeFile(output, [&](llvm::raw_pwrite_stream &os) {
      llvmModule->print(os, nullptr);
      return true;
    }, error) ? 0 : fail(error);

  auto emit = [&](llvm::raw_pwrite_stream &os) {
    return backend::emitCode(*llvmModule, *tm, os, stage == Stage::Asm, error);
  };
  if (stage == Stage::Asm)
    return writeFile(output, emit, error) ? 0 : fail(error);
  if (stage == Stage::Obj)
    return writeFile(output, emit, error) && writeHeader() ? 0 : fail(error);

  // Once the object holds the weights, the LLVM module goes, and the heap
  // it leaves is given back before the link maps the object and writes the
  // library (peak compile memory: DeepLab-ASPP, 42 MiB of weights, 385 -> 324 MiB).
  auto released = [&] {
    llvmModule.reset();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  };
  if (!writeLibrary(
          emit, released, stage == Stage::StaticLib,
          modelName, linkTarget, output, error))
    return fail(error);
  return writeHeader() ? 0 : fail(error);
}

//===- onnxc.cpp - The onnxc driver ---------------------------------------===//
//
// onnxc MODEL [--emit=STAGE] [-o OUT]: imports an ONNX model and runs the
// pipeline up to STAGE. Errors are one line on stderr, exit code 1:
//   onnxc: error: model.onnx: node 'conv1' (Conv): <reason>
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/HeaderWriter.h"
#include "compiler/CodeGen/ModelSignature.h"
#include "compiler/Import/Importer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Stage { ONNX, Header };

cl::OptionCategory onnxcCategory("onnxc options");

struct Options {
  cl::opt<std::string> input{cl::Positional, cl::desc("<model.onnx | model.onnxtxt>"),
                             cl::Required, cl::cat(onnxcCategory)};
  cl::opt<std::string> output{
      "o", cl::desc("Output file (default: stdout; <model>.h for header)"),
      cl::value_desc("file"), cl::cat(onnxcCategory)};
  cl::opt<std::string> name{
      "name",
      cl::desc("C prefix of the model's symbols (default: the output's stem)"),
      cl::value_desc("identifier"), cl::cat(onnxcCategory)};
  cl::opt<Stage> emit{
      "emit", cl::desc("Stop after this stage and write its result:"),
      cl::values(clEnumValN(Stage::ONNX, "onnx",
                            "the onnx dialect after import and shape inference"),
                 clEnumValN(Stage::Header, "header",
                            "the model's C header (M.h)")),
      cl::init(Stage::ONNX), cl::cat(onnxcCategory)};
  cl::opt<std::string> format{
      "input-format", cl::desc("Model format: auto (default), binary or text"),
      cl::init("auto"), cl::cat(onnxcCategory)};
  cl::opt<bool> requireStatic{
      "require-static",
      cl::desc("Fail unless every value has a fully static type after inference"),
      cl::cat(onnxcCategory)};
};

/// Formats a diagnostic as one line: "node 'n' (Op): reason" when it comes
/// from an op with a named location ("'onnx.Conv' op reason").
std::string formatDiagnostic(Diagnostic &diag) {
  std::string msg = diag.str();
  msg = msg.substr(0, msg.find('\n'));
  std::string node;
  Location loc = diag.getLocation();
  if (auto fused = llvm::dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      loc = fused.getLocations().front();
  if (auto nl = llvm::dyn_cast<NameLoc>(loc))
    node = nl.getName().str();
  llvm::StringRef m = msg;
  if (m.starts_with("'")) {
    size_t end = m.find("' op ");
    if (end != llvm::StringRef::npos) {
      llvm::StringRef opName = m.substr(1, end - 1);
      llvm::StringRef rest = m.substr(end + 5);
      opName.consume_front("onnx.");
      if (!node.empty())
        return "node '" + node + "' (" + opName.str() + "): " + rest.str();
      return opName.str() + ": " + rest.str();
    }
  }
  if (!node.empty() && !m.starts_with("node '"))
    return "'" + node + "': " + msg;
  return msg;
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
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options opts;
  cl::HideUnrelatedOptions(onnxcCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "onnxc: ONNX models to native code\n\n"
                              "Stages (--emit): onnx, header. Native code "
                              "generation (linalg, llvm, obj, lib) is not "
                              "built yet.\n");
  MLIRContext ctx;
  ctx.printOpOnDiagnostic(false);
  bool failedOnce = false;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (!failedOnce)
        llvm::errs() << "onnxc: error: " << opts.input << ": "
                     << formatDiagnostic(diag) << "\n";
      failedOnce = true;
    } else if (diag.getSeverity() == DiagnosticSeverity::Warning) {
      llvm::errs() << "onnxc: warning: " << opts.input << ": "
                   << formatDiagnostic(diag) << "\n";
    }
    return success();
  });

  onnxc::ImportOptions importOptions;
  if (opts.format != "auto" && opts.format != "binary" && opts.format != "text") {
    llvm::errs() << "onnxc: error: --input-format must be auto, binary or text\n";
    return 1;
  }
  importOptions.format = opts.format;
  OwningOpRef<ModuleOp> module =
      onnxc::importModelFile(ctx, opts.input, importOptions);
  if (!module || failedOnce)
    return 1;
  if (opts.requireStatic && failed(checkStatic(*module)))
    return 1;

  std::string output = opts.output;
  if (output.empty())
    output = opts.emit == Stage::Header
                 ? (llvm::sys::path::stem(opts.input) + ".h").str()
                 : "-";
  std::string error;
  auto out = openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << "onnxc: error: " << error << "\n";
    return 1;
  }
  if (opts.emit == Stage::Header) {
    std::string modelName = opts.name;
    if (modelName.empty())
      modelName = onnxc::codegen::sanitizeCIdentifier(llvm::sys::path::stem(
          output == "-" ? llvm::StringRef(opts.input) : llvm::StringRef(output)));
    if (failed(onnxc::codegen::emitHeaderFile(*module, modelName, out->os())))
      return 1;
  } else {
    module->print(out->os());
    out->os() << "\n";
  }
  out->keep();
  return 0;
}

//===- Loader.cpp - Reading a model file into a ModelProto ----------------===//
//
// The only importer file that calls libonnx code that may throw (its text
// parser); it is built with -fexceptions and nothing escapes it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"
#include "compiler/Import/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include "onnx/defs/parser.h"

#include <cctype>
#include <exception>

using namespace mlir;
using namespace mlir::onnxc;

void mlir::onnxc::loadImporterDialects(MLIRContext &ctx) {
  ctx.loadDialect<ONNX::ONNXDialect, func::FuncDialect>();
}

/// ONNX text starts with `<` (the model header) or a graph name and `(`;
/// binary protobuf starts with a field tag.
static bool looksLikeText(StringRef data) {
  StringRef t = data.ltrim();
  if (t.empty())
    return false;
  if (t.front() == '<')
    return true;
  for (char c : t.take_front(256))
    if (!std::isprint((unsigned char)c) && !std::isspace((unsigned char)c))
      return false;
  return std::isalpha((unsigned char)t.front()) || t.front() == '_';
}

static bool parseText(StringRef data, onnx::ModelProto &model,
                      std::string &error) {
  try {
    std::string text = data.str();
    onnx::OnnxParser parser(text.c_str());
    auto status = parser.Parse(model);
    if (!status.IsOK()) {
      // libonnx's messages span lines ("[ParseError at ...]", the context,
      // what was expected): join them into one.
      error.clear();
      for (llvm::StringRef line : llvm::split(status.ErrorMessage(), '\n')) {
        line = line.trim();
        if (!line.empty())
          error += (error.empty() ? "" : " ") + line.str();
      }
      return false;
    }
    if (!parser.EndOfInput()) {
      error = "unexpected text after the model";
      return false;
    }
    return true;
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  } catch (...) {
    error = "unknown parser failure";
    return false;
  }
}

OwningOpRef<ModuleOp> mlir::onnxc::importModelBuffer(MLIRContext &ctx,
                                                     StringRef data,
                                                     StringRef name,
                                                     StringRef baseDir,
                                                     const ImportOptions &options) {
  loadImporterDialects(ctx);
  Location loc = FileLineColLoc::get(&ctx, name, 0, 0);
  onnx::ModelProto model;
  bool text = options.format == "text" ||
              (options.format == "auto" &&
               (name.ends_with(".onnxtxt") || name.ends_with(".txt") ||
                name.ends_with(".onnxtext") ||
                (!name.ends_with(".onnx") && looksLikeText(data))));
  if (text) {
    std::string error;
    if (!parseText(data, model, error)) {
      emitError(loc) << "cannot parse ONNX text: " << error;
      return nullptr;
    }
  } else {
    if (data.size() > (size_t)INT32_MAX) {
      emitError(loc) << "the model is larger than 2 GB; store its weights as "
                        "external data";
      return nullptr;
    }
    if (!model.ParseFromArray(data.data(), (int)data.size())) {
      emitError(loc) << "not a valid ONNX protobuf (truncated or corrupt?)";
      return nullptr;
    }
  }
  import::GraphImporter importer(ctx, name.str(), baseDir.str());
  return importer.importModel(model);
}

OwningOpRef<ModuleOp> mlir::onnxc::importModelFile(MLIRContext &ctx,
                                                   StringRef path,
                                                   const ImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0))
        << "cannot read the model: " << buffer.getError().message();
    return nullptr;
  }
  StringRef dir = llvm::sys::path::parent_path(path);
  return importModelBuffer(ctx, (*buffer)->getBuffer(), path,
                           dir.empty() ? "." : dir, options);
}

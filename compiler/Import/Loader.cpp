//===- Loader.cpp - Reading a model file into a ModelProto ----------------===//
//
// The only importer file that calls libonnx code that may throw (its text
// parser); it is built with -fexceptions and nothing escapes it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/GraphImporter.h"
#include "compiler/Import/Importer.h"
#include "compiler/Import/Limits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include "onnx/defs/parser.h"

#include <google/protobuf/io/coded_stream.h>

#include <cctype>
#include <exception>
#include <stdexcept>

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

namespace {
/// libonnx's parser, with the position it stopped at.
struct TextParser : onnx::OnnxParser {
  using onnx::OnnxParser::OnnxParser;
  size_t offset() const { return next_ - start_; }
};

/// "line L, column C" of `offset` in `text`.
std::string position(StringRef text, size_t offset) {
  offset = std::min(offset, text.size());
  StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  size_t column = lineStart == StringRef::npos ? offset + 1 : offset - lineStart;
  return "line " + std::to_string(1 + before.count('\n')) + ", column " +
         std::to_string(column);
}
/// Where and what a numeric literal that std::stoll/stof refused is: the
/// parser stopped just after it.
std::string badLiteral(StringRef text, size_t end, StringRef why) {
  end = std::min(end, text.size());
  size_t begin = end;
  while (begin > 0 && (std::isalnum((unsigned char)text[begin - 1]) ||
                       StringRef("+-.").contains(text[begin - 1])))
    --begin;
  return position(text, begin) + ": '" + text.slice(begin, end).take_front(64).str() +
         "' is " + why.str();
}
} // namespace

static bool parseText(StringRef data, onnx::ModelProto &model,
                      std::string &error) {
  if (!import::checkTextInput(data, error))
    return false;
  std::string text = data.str();
  TextParser parser(text.c_str());
  try {
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
      error = position(text, parser.offset()) + ": unexpected text after the model";
      return false;
    }
    return true;
  } catch (const std::out_of_range &) {
    error = badLiteral(text, parser.offset(), "out of range");
    return false;
  } catch (const std::invalid_argument &) {
    error = badLiteral(text, parser.offset(), "not a valid number");
    return false;
  } catch (const std::exception &e) {
    error = position(text, parser.offset()) + ": " + e.what();
    return false;
  } catch (...) {
    error = "unknown parser failure";
    return false;
  }
}

/// Parses a binary ModelProto, with protobuf's recursion limit just above
/// the nesting checkBinaryNesting allows.
static bool parseBinary(StringRef data, onnx::ModelProto &model) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t *>(data.data()), (int)data.size());
  in.SetRecursionLimit(import::kMaxMessageDepth + 16);
  // A zero tag ends a message early without an error: require the whole
  // input to be read, as ParseFromArray does.
  return model.ParseFromCodedStream(&in) && in.CurrentPosition() == (int)data.size();
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
  if (data.size() > kMaxModelFileBytes) {
    emitError(loc) << "the model is larger than 2 GB; store its weights as "
                      "external data";
    return nullptr;
  }
  if (text) {
    std::string error;
    if (!parseText(data, model, error)) {
      emitError(loc) << "cannot parse ONNX text: " << error;
      return nullptr;
    }
  } else {
    std::string error;
    if (!import::checkBinaryNesting(data, error)) {
      emitError(loc) << error << " (onnxc's limit)";
      return nullptr;
    }
    if (!parseBinary(data, model)) {
      emitError(loc) << "not a valid ONNX protobuf (truncated or corrupt?)";
      return nullptr;
    }
  }
  import::GraphImporter importer(ctx, name.str(), baseDir.str(),
                                 options.maxNodes);
  return importer.importModel(model);
}

OwningOpRef<ModuleOp> mlir::onnxc::importModelFile(MLIRContext &ctx,
                                                   StringRef path,
                                                   const ImportOptions &options) {
  // Only regular files: a device (/dev/zero) or a FIFO has no size and
  // would be read without end.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status)) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0))
        << "cannot read the model: " << ec.message();
    return nullptr;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0))
        << "the model is not a regular file";
    return nullptr;
  }
  if (status.getSize() > kMaxModelFileBytes) {
    emitError(FileLineColLoc::get(&ctx, path, 0, 0))
        << "the model file has " << status.getSize()
        << " bytes, above the 2 GB a model may have (store its weights as "
           "external data)";
    return nullptr;
  }
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

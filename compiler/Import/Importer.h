//===- Importer.h - ONNX models to the onnx dialect -------------*- C++ -*-===//
//
// Reads a model (binary protobuf or ONNX text format) and builds a module
// holding `func.func @main_graph` in the onnx dialect, with every value's
// type inferred (libonnx's inference where it is authoritative, onnxc's own
// rules elsewhere: passes/ONNX/Inference).
//
// What the importer normalizes (docs/importer.md):
//  - nodes of older opsets are upgraded to the dialect's newest signature;
//  - graphs are topologically sorted; subgraphs become regions that use
//    outer-scope values directly;
//  - model-local functions are inlined at their call sites;
//  - initializers (also those listed as graph inputs) become onnx.Constant;
//  - Constant's value_* attributes all become `value`.
//
// Errors are emitted as MLIR diagnostics; each names the node, its op type
// and the reason.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_IMPORT_IMPORTER_H
#define ONNXC_COMPILER_IMPORT_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::onnxc {

struct ImportOptions {
  /// Input format: "auto" (by extension, then by content), "binary", "text".
  std::string format = "auto";
  /// Most nodes the model may hold, in all its graphs, once its model-local
  /// functions are inlined (the driver's --max-nodes).
  uint64_t maxNodes = kDefaultMaxNodes;
  static constexpr uint64_t kDefaultMaxNodes = 1000000;
};

/// Largest model file: protobuf's limit for a message, for both formats.
/// Weights beyond it go to external data files.
constexpr uint64_t kMaxModelFileBytes = (uint64_t(1) << 31) - 1;

/// Imports the model at `path`. External data is read relative to its
/// directory. Returns null after emitting an error.
OwningOpRef<ModuleOp> importModelFile(MLIRContext &ctx, llvm::StringRef path,
                                      const ImportOptions &options = {});

/// Imports a model held in memory; `name` labels diagnostics and `baseDir`
/// is where external data may be read from ("" refuses external data).
OwningOpRef<ModuleOp> importModelBuffer(MLIRContext &ctx, llvm::StringRef data,
                                        llvm::StringRef name,
                                        llvm::StringRef baseDir,
                                        const ImportOptions &options = {});

/// Registers the dialects the importer produces.
void loadImporterDialects(MLIRContext &ctx);

} // namespace mlir::onnxc

#endif // ONNXC_COMPILER_IMPORT_IMPORTER_H

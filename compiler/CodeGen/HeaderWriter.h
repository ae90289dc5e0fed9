//===- HeaderWriter.h - The generated model header M.h ----------*- C++ -*-===//
//
// Writes the C header shipped with a compiled model library M.so. The header
// is self-contained: it embeds the public runtime declarations
// (runtime/include/onnxc/runtime.h, under that header's own include guard)
// and adds, for model M:
//   - constants: M_NUM_INPUTS, M_NUM_OUTPUTS, M_NUM_SYMBOLS and per value
//     M_<v>_NAME (the ONNX name), M_<v>_INDEX, M_<v>_KIND (and for
//     optionals M_<v>_PAYLOAD_KIND), M_<v>_DTYPE, M_<v>_RANK, M_<v>_DIM<i>
//     for static dims (of the items, for sequences and optionals),
//     M_<v>_NUMEL for tensors whose every dim is static;
//   - the exported entry points M_info() and M_run();
//   - static inline M_run_typed(symbols..., inputs..., outputs...), with
//     typed buffers for tensors and onnxc_tensor values for sequences and
//     optionals;
//   - under __cplusplus, `struct onnxc_model::M` with the same entry points.
// Compiles warning-free as C99 and C++17; headers of different models can be
// included in one translation unit.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_CODEGEN_HEADERWRITER_H
#define ONNXC_COMPILER_CODEGEN_HEADERWRITER_H

#include "compiler/CodeGen/ModelSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::onnxc::codegen {

/// The text of M.h for `sig` (M = sig.name).
std::string writeModelHeader(const ModelSignature &sig);

/// Extracts the signature of `module`'s func.func @main_graph (onnx dialect,
/// after shape inference) and writes its header to `os`. Fails, with an
/// error on the module or the function, when there is no @main_graph or its
/// signature has no C equivalent (see extractSignature).
LogicalResult emitHeaderFile(ModuleOp module, llvm::StringRef modelName,
                             llvm::raw_ostream &os);

/// The public runtime header (runtime/include/onnxc/runtime.h) as embedded
/// at build time.
llvm::StringRef getRuntimeHeaderText();

/// The text of M.hpp (CxxHeaderWriter.cpp): the C++17 classes of
/// onnxc/runtime.hpp (embedded) and `onnxc::models::M` over the C header,
/// which it includes as `cHeaderName`.
std::string writeModelCxxHeader(const ModelSignature &sig,
                                llvm::StringRef cHeaderName);

/// onnxc/runtime.hpp as embedded at build time.
llvm::StringRef getRuntimeCxxHeaderText();

/// "float[N, 3]", "sequence<int64[?]>": a value's type as the headers'
/// comments show it (safe inside a comment).
std::string describeValue(const ModelSignature &sig, const ValueSignature &v);

/// "ONNXC_DTYPE_FLOAT": the runtime.h constant of `dtype`.
llvm::StringRef getDTypeConstant(int32_t dtype);

/// C type of one element of `dtype` in the typed API ("float", "uint16_t"
/// for float16 and bfloat16, "uint8_t" for bool); "void" for complex types.
llvm::StringRef getCElementType(int32_t dtype);

} // namespace mlir::onnxc::codegen

#endif // ONNXC_COMPILER_CODEGEN_HEADERWRITER_H

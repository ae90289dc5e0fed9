//===- Limits.h - Bounds the importer puts on its input ---------*- C++ -*-===//
//
// Private to compiler/Import. A model file controls the depth of the
// parsers' recursion (libonnx's text parser, protobuf's binary parser, the
// importer's subgraph and function recursion) and, through model-local
// functions, how many nodes it expands to. These checks run before the
// recursive code does, so that a hostile file gets one error line instead of
// a stack overflow, a hang or an exhausted memory (docs/importer.md).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_IMPORT_LIMITS_H
#define ONNXC_COMPILER_IMPORT_LIMITS_H

#include "llvm/ADT/StringRef.h"

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <string>

namespace mlir::onnxc::import {

/// Subgraphs, function calls and types (seq(seq(...))) nest at most this
/// deep.
constexpr unsigned kMaxNesting = 64;

/// Text models: `{`, `(` and `[` nest at most this deep. Every recursion of
/// libonnx's text parser passes one of them.
constexpr unsigned kMaxTextBrackets = 256;

/// Binary models: messages nest at most this deep. A model within
/// kMaxNesting nests about 340 deep (each subgraph level costs 3 messages,
/// each type level 2); protobuf's own recursion limit is set just above.
constexpr unsigned kMaxMessageDepth = 400;

/// Checks the nesting of a binary ModelProto by walking its wire format
/// without recursion. False with `error` set when a limit is exceeded; a
/// malformed message passes (protobuf's parser reports it).
bool checkBinaryNesting(llvm::StringRef data, std::string &error);

/// Checks the bracket nesting and the bytes of an ONNX text model. False
/// with `error` set when it nests too deep or holds a NUL byte.
bool checkTextInput(llvm::StringRef data, std::string &error);

/// The number of nodes the model's graphs (with their subgraphs) hold once
/// every call of a model-local function is inlined, saturated at `cap`.
/// Calls that recurse count as nothing here (the importer refuses them).
uint64_t countExpandedNodes(const onnx::ModelProto &model, uint64_t cap);

} // namespace mlir::onnxc::import

#endif // ONNXC_COMPILER_IMPORT_LIMITS_H

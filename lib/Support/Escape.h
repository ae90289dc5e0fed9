//===- Escape.h - Text from a model, made safe for one message line -*- C++ -*-===//
//
// Names, file paths and parser context come from the input: a newline in a
// node name would forge a second "onnxc: error:" line, binary junk would
// reach the terminal raw. Every message onnxc prints goes through
// escapeForMessage.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_LIB_SUPPORT_ESCAPE_H
#define ONNXC_LIB_SUPPORT_ESCAPE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::onnxc {

/// `text` as one printable line: control characters (C0, DEL, C1), line and
/// paragraph separators, bidirectional overrides and bytes that are not
/// valid UTF-8 become escapes (\n, \t, \r, \xNN, \u{NNNN}); other UTF-8 text
/// is kept.
std::string escapeForMessage(llvm::StringRef text);

} // namespace mlir::onnxc

#endif // ONNXC_LIB_SUPPORT_ESCAPE_H

//===- Escape.cpp - Text from a model, made safe for one message line -----===//

#include "lib/Support/Escape.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::onnxc;

/// Code points that move the cursor or reorder text: line and paragraph
/// separators, and the bidirectional embeddings, overrides and isolates.
static bool isLayoutControl(llvm::UTF32 c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0x200e || c == 0x200f || c == 0x061c;
}

std::string mlir::onnxc::escapeForMessage(llvm::StringRef text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const auto *p = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *end = p + text.size();
  while (p < end) {
    unsigned char c = *p;
    if (c < 0x80) {
      if (c == '\n')
        os << "\\n";
      else if (c == '\t')
        os << "\\t";
      else if (c == '\r')
        os << "\\r";
      else if (c < 0x20 || c == 0x7f)
        os << llvm::format("\\x%02x", c);
      else
        os << (char)c;
      ++p;
      continue;
    }
    unsigned n = llvm::getNumBytesForUTF8(c);
    if (n > (unsigned)(end - p) || !llvm::isLegalUTF8Sequence(p, p + n)) {
      os << llvm::format("\\x%02x", c);
      ++p;
      continue;
    }
    llvm::UTF32 cp;
    const llvm::UTF8 *q = p;
    llvm::UTF32 *target = &cp;
    llvm::ConvertUTF8toUTF32(&q, p + n, &target, target + 1,
                             llvm::strictConversion);
    if (isLayoutControl(cp))
      os << llvm::format("\\u{%04x}", cp);
    else
      os.write(reinterpret_cast<const char *>(p), n);
    p += n;
  }
  return out;
}

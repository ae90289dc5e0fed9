//===- Internal.h - Shared by TensorIO's sources ------------------*- C++ -*-===//

#ifndef ONNXC_LIB_TENSORIO_INTERNAL_H
#define ONNXC_LIB_TENSORIO_INTERNAL_H

#include <string>

namespace onnxc::tensorio::detail {

/// Sets `error` and returns false.
inline bool fail(std::string &error, const std::string &message) {
  error = message;
  return false;
}

/// Reads the regular file `path` (under 2 GB: protobuf's limit; a device or
/// a FIFO would be read without end).
bool readFile(const std::string &path, std::string &bytes, std::string &error);
/// Writes `bytes` to `path`.
bool writeFile(const std::string &path, const std::string &bytes,
               std::string &error);

} // namespace onnxc::tensorio::detail

#endif // ONNXC_LIB_TENSORIO_INTERNAL_H

//===- Npy.cpp - numpy .npy files -----------------------------------------===//
//
// The format (numpy/lib/format.py): the magic "\x93NUMPY", a major and a
// minor version byte, the header's length (2 bytes little-endian in version
// 1, 4 in versions 2 and 3), the header (a Python dict literal: 'descr',
// 'fortran_order', 'shape'; padded with spaces, ending in '\n'), then the
// data in the header's order.
//
//===----------------------------------------------------------------------===//

#include "lib/TensorIO/Internal.h"
#include "lib/TensorIO/TensorIO.h"

#include <algorithm>
#include <cstring>

using namespace onnxc::tensorio;
using detail::fail;

namespace {

const char kMagic[] = "\x93NUMPY";
const size_t kMagicLen = 6;

struct Descr {
  const char *text; // without the byte-order character
  int32_t dtype;
};
// '|' (not applicable) or '<' (little-endian) before each; '=' is native,
// which is little-endian on every target onnxc runs on.
const Descr kDescrs[] = {
    {"b1", ONNXC_DTYPE_BOOL},       {"i1", ONNXC_DTYPE_INT8},
    {"u1", ONNXC_DTYPE_UINT8},      {"i2", ONNXC_DTYPE_INT16},
    {"u2", ONNXC_DTYPE_UINT16},     {"i4", ONNXC_DTYPE_INT32},
    {"u4", ONNXC_DTYPE_UINT32},     {"i8", ONNXC_DTYPE_INT64},
    {"u8", ONNXC_DTYPE_UINT64},     {"f2", ONNXC_DTYPE_FLOAT16},
    {"f4", ONNXC_DTYPE_FLOAT},      {"f8", ONNXC_DTYPE_DOUBLE},
    {"c8", ONNXC_DTYPE_COMPLEX64},  {"c16", ONNXC_DTYPE_COMPLEX128}};

/// The value of `key` in the header dict: the text after "'key':" up to the
/// next top-level ',' or '}' (a tuple's commas are inside parentheses).
bool headerField(const std::string &header, const std::string &key,
                 std::string &value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at);
  if (at == std::string::npos)
    return false;
  int depth = 0;
  size_t end = at + 1;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  value = header.substr(at + 1, end - at - 1);
  size_t b = value.find_first_not_of(" "), e = value.find_last_not_of(" ");
  value = b == std::string::npos ? "" : value.substr(b, e - b + 1);
  return true;
}

/// The dims of a shape tuple "(2, 3)", "(4,)", "()".
bool parseShape(const std::string &text, std::vector<int64_t> &dims) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return false;
  dims.clear();
  size_t i = 1;
  while (i < text.size() - 1) {
    while (i < text.size() - 1 && (text[i] == ' ' || text[i] == ','))
      ++i;
    if (i >= text.size() - 1)
      break;
    int64_t v = 0;
    size_t start = i;
    while (i < text.size() - 1 && text[i] >= '0' && text[i] <= '9') {
      if (v > (INT64_MAX - 9) / 10)
        return false;
      v = v * 10 + (text[i++] - '0');
    }
    if (i == start)
      return false;
    dims.push_back(v);
  }
  return true;
}

} // namespace

bool onnxc::tensorio::parseNpy(const std::string &bytes,
                               const std::string &what, HostTensor &out,
                               std::string &error) {
  if (bytes.size() < kMagicLen + 4 ||
      std::memcmp(bytes.data(), kMagic, kMagicLen) != 0)
    return fail(error, what + " is not a .npy file (no \\x93NUMPY magic)");
  unsigned major = (unsigned char)bytes[kMagicLen];
  size_t lenBytes = major == 1 ? 2 : major == 2 || major == 3 ? 4 : 0;
  if (!lenBytes)
    return fail(error, what + " has .npy format version " +
                           std::to_string(major) + ", not 1 to 3");
  size_t start = kMagicLen + 2 + lenBytes;
  if (bytes.size() < start)
    return fail(error, what + " ends inside its .npy header");
  size_t headerLen = 0;
  for (size_t i = 0; i < lenBytes; ++i)
    headerLen |= (size_t)(unsigned char)bytes[kMagicLen + 2 + i] << (8 * i);
  if (bytes.size() - start < headerLen)
    return fail(error, what + " ends inside its .npy header");
  std::string header = bytes.substr(start, headerLen);
  std::string descr, order, shape;
  if (!headerField(header, "descr", descr) ||
      !headerField(header, "fortran_order", order) ||
      !headerField(header, "shape", shape))
    return fail(error, what + " has a .npy header without descr, "
                              "fortran_order and shape");
  if (order != "False")
    return fail(error, what + " is in Fortran order: only C order is read");
  if (descr.size() < 4 || (descr.front() != '\'' && descr.front() != '"') ||
      descr.back() != descr.front())
    return fail(error, what + " has the .npy descr " + descr);
  char byteOrder = descr[1];
  std::string code = descr.substr(2, descr.size() - 3);
  if (byteOrder == '>')
    return fail(error, what + " is big-endian (" + descr + ")");
  out.dtype = -1;
  if (byteOrder == '<' || byteOrder == '|' || byteOrder == '=')
    for (const Descr &d : kDescrs)
      if (code == d.text)
        out.dtype = d.dtype;
  if (out.dtype < 0)
    return fail(error, what + " has dtype " + descr +
                           ", which compiled models do not support");
  if (!parseShape(shape, out.dims))
    return fail(error, what + " has the .npy shape " + shape);
  if (out.dims.size() > ONNXC_MAX_RANK)
    return fail(error, what + " has rank " + std::to_string(out.dims.size()) +
                           ", above " + std::to_string(ONNXC_MAX_RANK));
  size_t esize = onnxc_dtype_size(out.dtype);
  // A 0 anywhere makes 0 elements, whatever the dims before it.
  int64_t n = std::find(out.dims.begin(), out.dims.end(), 0) != out.dims.end() ? 0 : 1;
  for (int64_t d : out.dims) {
    if (n == 0)
      break;
    if (n > INT64_MAX / d / (int64_t)esize)
      return fail(error, what + " is too large");
    n *= d;
  }
  // Checked before anything is allocated: a few bytes may declare terabytes.
  size_t held = bytes.size() - start - headerLen;
  if ((uint64_t)held != (uint64_t)n * esize)
    return fail(error, what + " has " + std::to_string(held) +
                           " bytes of data for " + std::to_string(n) +
                           " elements of " + std::to_string(esize) + " bytes");
  out.bytes.assign(bytes.begin() + (std::ptrdiff_t)(start + headerLen),
                   bytes.end());
  return true;
}

bool onnxc::tensorio::readNpy(const std::string &path, HostTensor &out,
                              std::string &error) {
  std::string bytes;
  if (!detail::readFile(path, bytes, error))
    return false;
  return parseNpy(bytes, "'" + path + "'", out, error);
}

bool onnxc::tensorio::writeNpy(const std::string &path, const onnxc_tensor &t,
                               std::string &error) {
  if (t.kind != ONNXC_VALUE_TENSOR)
    return fail(error, "cannot write '" + path +
                           "': .npy holds tensors, not sequences or optionals");
  int32_t dtype = t.dtype == ONNXC_DTYPE_BFLOAT16 ? ONNXC_DTYPE_UINT16 : t.dtype;
  std::string descr;
  for (const Descr &d : kDescrs)
    if (d.dtype == dtype)
      descr = std::string(onnxc_dtype_size(dtype) == 1 ? "|" : "<") + d.text;
  if (descr.empty())
    return fail(error, "cannot write '" + path + "': dtype " +
                           onnxc_dtype_name(t.dtype) + " has no .npy form");
  std::string shape = "(";
  for (int32_t d = 0; d < t.rank; ++d)
    shape += std::to_string(t.shape[d]) + (t.rank == 1 || d + 1 < t.rank ? "," : "") +
             (d + 1 < t.rank ? " " : "");
  shape += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Padded with spaces so that the data starts at a multiple of 64, then
  // '\n' (as numpy writes it).
  size_t total = kMagicLen + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 65535)
    return fail(error, "cannot write '" + path + "': the shape is too long");
  std::string bytes(kMagic, kMagicLen);
  bytes += '\x01';
  bytes += '\x00';
  bytes += (char)(header.size() & 0xff);
  bytes += (char)(header.size() >> 8);
  bytes += header;
  size_t size = (size_t)onnxc_tensor_numel(&t) * onnxc_dtype_size(t.dtype);
  if (size)
    bytes.append((const char *)t.data, size);
  return detail::writeFile(path, bytes, error);
}

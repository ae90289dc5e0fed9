//===- TensorIO.cpp - Host tensors, files, text ---------------------------===//

#include "lib/TensorIO/TensorIO.h"
#include "lib/TensorIO/Internal.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace onnxc::tensorio;

int64_t HostTensor::numel() const {
  // A 0 anywhere makes the count 0, whatever the other dims: [2^32, 2^32,
  // 0] is empty (multiplied in order, it overflowed first: UBSan).
  for (int64_t d : dims)
    if (d == 0)
      return 0;
  int64_t n = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(n, d, &n))
      return INT64_MAX; // no such tensor is held in memory
  return n;
}

onnxc_tensor HostTensor::view() const {
  onnxc_tensor t;
  std::memset(&t, 0, sizeof t);
  t.data = const_cast<char *>(bytes.data());
  t.dtype = dtype;
  t.rank = (int32_t)dims.size();
  std::copy(dims.begin(), dims.end(), t.shape);
  return t;
}

bool detail::readFile(const std::string &path, std::string &bytes,
                      std::string &error) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return fail(error, "cannot read '" + path + "'");
  if (!S_ISREG(st.st_mode))
    return fail(error, "'" + path + "' is not a regular file");
  if (st.st_size > INT32_MAX)
    return fail(error, "'" + path + "' is larger than 2 GB, protobuf's limit");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(error, "cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  bytes = ss.str();
  return true;
}

bool detail::writeFile(const std::string &path, const std::string &bytes,
                       std::string &error) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !out.write(bytes.data(), (std::streamsize)bytes.size()))
    return fail(error, "cannot write '" + path + "'");
  return true;
}

std::string onnxc::tensorio::shapeString(const int64_t *dims, int32_t rank) {
  std::string s = "[";
  for (int32_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + "]";
}

std::string onnxc::tensorio::describeValue(const onnxc_tensor &t) {
  if (t.kind == ONNXC_VALUE_OPTIONAL)
    return t.num_items ? "optional: " + describeValue(t.items[0])
                       : "optional: empty";
  if (t.kind == ONNXC_VALUE_MAP)
    return t.num_items == 2
               ? std::string("map<") + onnxc_dtype_name(t.items[0].dtype) +
                     ", " + onnxc_dtype_name(t.dtype) + "> of " +
                     std::to_string(t.items[0].shape[0]) + " entries"
               : std::string("map");
  if (t.kind == ONNXC_VALUE_SEQUENCE && t.num_items > 0 &&
      t.items[0].kind == ONNXC_VALUE_MAP) {
    std::string s = "sequence of " + std::to_string(t.num_items) + " ";
    return s + describeValue(t.items[0]) + (t.num_items > 1 ? ", ..." : "");
  }
  if (t.kind != ONNXC_VALUE_SEQUENCE)
    return std::string(onnxc_dtype_name(t.dtype)) + shapeString(t.shape, t.rank);
  std::string s = "sequence of " + std::to_string(t.num_items) + " " +
                  onnxc_dtype_name(t.dtype);
  const int64_t kShown = 10;
  for (int64_t i = 0; i < t.num_items && i < kShown; ++i)
    s += (i ? ", " : ": ") + shapeString(t.items[i].shape, t.items[i].rank);
  if (t.num_items > kShown)
    s += ", ...";
  return s;
}

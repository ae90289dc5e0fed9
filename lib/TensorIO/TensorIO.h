//===- TensorIO.h - Tensors from and to files, compared -----------*- C++ -*-===//
//
// The tensor I/O that onnxc-run and the tests share, without MLIR or LLVM:
//   - ONNX .pb files: a TensorProto, a SequenceProto of tensors or an
//     OptionalProto (what the ONNX backend test data holds), read into host
//     memory and written from a model's outputs;
//   - numpy's .npy files (format 1.0 to 3.0, little-endian, C order);
//   - numpy.allclose comparison of a model's output with an expected value,
//     with a report of what differs.
// Every reader checks the sizes a file declares against the bytes it holds
// before it allocates anything, and fails with a one-line message (`error`)
// naming the file: a truncated or hostile file never becomes a bad_alloc or
// a read past its end. Values are onnxc_tensor (onnxc/runtime.h) views or
// owning HostTensor/HostValue.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_TENSORIO_TENSORIO_H
#define ONNXC_LIB_TENSORIO_TENSORIO_H

#include "onnxc/runtime.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace onnxc::tensorio {

/// A tensor read from a file: dtype (ONNXC_DTYPE_*), shape, bytes in
/// row-major order.
struct HostTensor {
  int32_t dtype = 0;
  std::vector<int64_t> dims;
  std::vector<char> bytes;
  /// Strings (dtype ONNXC_DTYPE_STRING): `bytes` holds one `const char *`
  /// per element, pointing into this block of NUL-terminated strings,
  /// shared by the copies of the tensor.
  std::shared_ptr<const std::string> strings;
  int64_t numel() const;
  /// A view for the C API (points into this tensor's bytes).
  onnxc_tensor view() const;
};

/// A value of a .pb file: a tensor, a sequence of tensors, an optional
/// holding one of those, a map or a sequence of maps.
struct HostValue {
  int32_t kind = ONNXC_VALUE_TENSOR;
  HostTensor tensor;            ///< tensors
  std::vector<HostValue> items; ///< sequences: tensors or maps; optionals:
                                ///< 0 or 1; maps: keys, values (1-D)
};

//===-- ONNX protobuf (.pb) ----------------------------------------------===//

/// Parses `bytes` as the kind of value the model has there: a TensorProto
/// (kind ONNXC_VALUE_TENSOR), a SequenceProto (of maps when `payloadKind`
/// is ONNXC_VALUE_MAP), a MapProto, or an OptionalProto (whose value is a
/// `payloadKind`). `what` names the source in messages
/// ("'dir/input_0.pb'").
bool parseValue(const std::string &bytes, const std::string &what, int32_t kind,
                int32_t payloadKind, HostValue &out, std::string &error);
/// Reads the file `path` (a regular file under 2 GB) and parses it.
bool readValue(const std::string &path, int32_t kind, int32_t payloadKind,
               HostValue &out, std::string &error);
/// Writes `t` as a TensorProto, SequenceProto or OptionalProto named `name`
/// (an absent optional: elem_type UNDEFINED, as
/// onnx.numpy_helper.from_optional(None) writes it).
bool writeValue(const std::string &path, const std::string &name,
                const onnxc_tensor &t, std::string &error);

//===-- numpy (.npy) -----------------------------------------------------===//

/// Parses a .npy file's bytes (bool, integers, float16/32/64, complex;
/// little-endian, C order).
bool parseNpy(const std::string &bytes, const std::string &what,
              HostTensor &out, std::string &error);
bool readNpy(const std::string &path, HostTensor &out, std::string &error);
/// Writes a tensor as a version 1.0 .npy file (bfloat16, which numpy lacks,
/// as uint16).
bool writeNpy(const std::string &path, const onnxc_tensor &t,
              std::string &error);

//===-- Comparison -------------------------------------------------------===//

/// numpy.allclose semantics: |got - expected| <= atol + rtol * |expected|,
/// NaN equals NaN, infinities equal themselves; integers and bools exact.
struct Tolerance {
  double rtol = 1e-3, atol = 1e-7;
};

/// Compares a tensor, a sequence (its item count, then item by item) or an
/// optional (its presence, then its value). Prints to `report` what
/// differs, each line starting with `label` ("output 0 'y'"): the count of
/// differing values, the largest absolute and relative errors and the first
/// ten differences. True when it matches. Expected bfloat16 stored as
/// uint16 (ONNX 1.12's test data) matches bfloat16 bits.
bool compareValue(std::FILE *report, const std::string &label,
                  const onnxc_tensor &got, const HostValue &expected,
                  Tolerance tol);

//===-- Text -------------------------------------------------------------===//

/// "[2, 4]".
std::string shapeString(const int64_t *dims, int32_t rank);
/// "float[2, 4]"; "sequence of 3 float: [4], [3], [2]"; "optional: ...",
/// "optional: empty".
std::string describeValue(const onnxc_tensor &t);

} // namespace onnxc::tensorio

#endif // ONNXC_LIB_TENSORIO_TENSORIO_H

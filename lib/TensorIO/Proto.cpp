//===- Proto.cpp - ONNX TensorProto, SequenceProto, OptionalProto files ---===//

#include "lib/TensorIO/Internal.h"
#include "lib/TensorIO/TensorIO.h"

#include "onnx/onnx-data_pb.h" // SequenceProto, OptionalProto
#include "onnx/onnx_pb.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <cstring>

using namespace onnxc::tensorio;
using detail::fail;

namespace {

/// A string TensorProto (string_data): the strings in one block, their
/// addresses in `bytes`.
bool parseStrings(const onnx::TensorProto &t, const std::string &what,
                  HostTensor &h, std::string &error) {
  int64_t n = 1;
  for (int64_t d : h.dims) {
    if (d != 0 && n > INT64_MAX / d)
      return fail(error, what + " is too large");
    n *= d;
  }
  if (t.has_raw_data() || t.string_data_size() != n)
    return fail(error, what + " has " + std::to_string(t.string_data_size()) +
                           " strings for " + std::to_string(n) + " elements");
  auto block = std::make_shared<std::string>();
  std::vector<size_t> offsets;
  for (const std::string &s : t.string_data()) {
    if (s.find('\0') != std::string::npos)
      return fail(error, what + " holds a string with a NUL byte, which a C "
                                "string cannot hold");
    offsets.push_back(block->size());
    block->append(s);
    block->push_back('\0');
  }
  h.bytes.resize((size_t)n * sizeof(const char *));
  for (int64_t i = 0; i < n; ++i) {
    const char *p = block->data() + offsets[(size_t)i];
    std::memcpy(h.bytes.data() + i * sizeof p, &p, sizeof p);
  }
  h.strings = std::move(block);
  return true;
}

/// A TensorProto (raw_data or the typed fields) in host layout. `what`
/// names it in messages ("'dir/input_0.pb'", "'dir/input_0.pb' item 2").
bool parseTensor(const onnx::TensorProto &t, const std::string &what,
                 HostTensor &h, std::string &error) {
  h.dtype = t.data_type();
  h.dims.clear();
  for (int64_t d : t.dims()) {
    if (d < 0)
      return fail(error, what + " has a negative dim");
    h.dims.push_back(d);
  }
  if (h.dims.size() > ONNXC_MAX_RANK)
    return fail(error, what + " has rank " + std::to_string(h.dims.size()) +
                           ", above " + std::to_string(ONNXC_MAX_RANK));
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return fail(error, what + " uses external data, which onnxc-run does not read");
  if (h.dtype == ONNXC_DTYPE_STRING)
    return parseStrings(t, what, h, error);
  size_t esize = onnxc_dtype_size(h.dtype);
  if (esize == 0)
    return fail(error, what + " has dtype " + onnxc_dtype_name(h.dtype) +
                           ", which compiled models do not support");
  // A 0 anywhere makes 0 elements, whatever the dims before it.
  int64_t n = std::find(h.dims.begin(), h.dims.end(), 0) != h.dims.end() ? 0 : 1;
  for (int64_t d : h.dims) {
    if (n == 0)
      break;
    if (n > INT64_MAX / d / (int64_t)esize)
      return fail(error, what + " is too large");
    n *= d;
  }
  // The packed 4-bit types hold two elements per byte (raw_data) or per
  // int32_data entry (its low byte).
  int64_t elements = n;
  if (h.dtype >= 21 && h.dtype <= 23)
    n = n / 2 + n % 2;
  // The file must hold the data its dims declare: compared before anything
  // is allocated (a few bytes may declare terabytes).
  int64_t held, per = 1;
  if (t.has_raw_data()) {
    held = (int64_t)t.raw_data().size();
    per = (int64_t)esize;
  } else {
    switch (h.dtype) {
    case onnx::TensorProto::FLOAT:
      held = t.float_data_size();
      break;
    case onnx::TensorProto::COMPLEX64:
      held = t.float_data_size(), per = 2;
      break;
    case onnx::TensorProto::DOUBLE:
      held = t.double_data_size();
      break;
    case onnx::TensorProto::COMPLEX128:
      held = t.double_data_size(), per = 2;
      break;
    case onnx::TensorProto::INT64:
      held = t.int64_data_size();
      break;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
      held = t.uint64_data_size();
      break;
    default: // int32 and narrower, bool, float16, bfloat16: int32_data
      held = t.int32_data_size();
      break;
    }
  }
  if (held != n * per)
    return fail(
        error,
        what + " has " + std::to_string(held) +
            (t.has_raw_data() ? " bytes of raw data for " + std::to_string(n * per)
             : per == 2       ? " values for " + std::to_string(n) +
                              " complex elements"
                              : " values for " + std::to_string(elements) + " elements"));
  h.bytes.resize((size_t)n * esize);
  // An empty tensor: nothing to copy (and memcpy may not take the null
  // pointers of empty containers; UBSan, .ci/asan).
  if (h.bytes.empty())
    return true;
  char *out = h.bytes.data();
  if (t.has_raw_data()) {
    std::memcpy(out, t.raw_data().data(), h.bytes.size());
    return true;
  }
  switch (h.dtype) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::COMPLEX64:
    std::memcpy(out, t.float_data().data(), h.bytes.size());
    break;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::COMPLEX128:
    std::memcpy(out, t.double_data().data(), h.bytes.size());
    break;
  case onnx::TensorProto::INT64:
    std::memcpy(out, t.int64_data().data(), h.bytes.size());
    break;
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    for (int64_t i = 0; i < n; ++i) {
      uint64_t v = t.uint64_data((int)i);
      std::memcpy(out + i * esize, &v, esize); // little-endian truncation
    }
    break;
  default: // int32 and narrower, bool, float16, bfloat16: int32_data
    for (int64_t i = 0; i < n; ++i) {
      int32_t v = t.int32_data((int)i);
      std::memcpy(out + i * esize, &v, esize);
    }
    break;
  }
  return true;
}

/// Protobuf parses any bytes of a fitting wire format: a file that holds
/// another message shows up as unknown fields.
template <typename Message>
bool parseExactly(Message &m, const std::string &bytes) {
  return m.ParseFromString(bytes) &&
         m.GetReflection()->GetUnknownFields(m).empty();
}

/// A SequenceProto of tensors (only those cross the C API).
bool parseSequence(const onnx::SequenceProto &s, const std::string &what,
                   HostValue &v, std::string &error) {
  bool tensors = s.elem_type() == onnx::SequenceProto::TENSOR ||
                 (s.elem_type() == onnx::SequenceProto::UNDEFINED &&
                  s.tensor_values_size() == 0);
  if (!tensors || s.sparse_tensor_values_size() || s.sequence_values_size() ||
      s.map_values_size() || s.optional_values_size())
    return fail(error, what + " is a sequence of elem_type " +
                           std::to_string(s.elem_type()) +
                           ": compiled models take sequences of tensors");
  v.kind = ONNXC_VALUE_SEQUENCE;
  v.items.clear();
  for (int i = 0; i < s.tensor_values_size(); ++i) {
    HostValue item;
    if (!parseTensor(s.tensor_values(i), what + " item " + std::to_string(i),
                     item.tensor, error))
      return false;
    v.items.push_back(std::move(item));
  }
  return true;
}

/// A MapProto (int64 or string keys; its values a SequenceProto of
/// one-element tensors, as onnx.numpy_helper.from_dict writes them) as a
/// map value: items[0] the keys, items[1] the values, both 1-D.
bool parseMap(const onnx::MapProto &m, const std::string &what, HostValue &v,
              std::string &error) {
  v.kind = ONNXC_VALUE_MAP;
  v.items.assign(2, HostValue());
  onnx::TensorProto keys;
  keys.set_data_type(m.key_type());
  if (m.key_type() == onnx::TensorProto::INT64) {
    if (m.string_keys_size())
      return fail(error, what + " is a map of int64 keys with string keys");
    keys.add_dims(m.keys_size());
    *keys.mutable_int64_data() = m.keys();
  } else if (m.key_type() == onnx::TensorProto::STRING) {
    if (m.keys_size())
      return fail(error, what + " is a map of string keys with int64 keys");
    keys.add_dims(m.string_keys_size());
    for (const std::string &k : m.string_keys())
      keys.add_string_data(k);
  } else {
    return fail(error, what + " is a map of key type " +
                           std::to_string(m.key_type()) +
                           ": compiled models take int64 or string keys");
  }
  if (!parseTensor(keys, what + " keys", v.items[0].tensor, error))
    return false;
  const onnx::SequenceProto &s = m.values();
  int64_t n = keys.dims(0);
  if (s.tensor_values_size() != n || s.sequence_values_size() ||
      s.map_values_size() || s.optional_values_size() ||
      s.sparse_tensor_values_size())
    return fail(error, what + " has " + std::to_string(n) + " keys and " +
                           std::to_string(s.tensor_values_size()) +
                           " tensor values");
  // The values side by side: one element each.
  onnx::TensorProto values;
  int32_t dtype = n ? s.tensor_values(0).data_type() : onnx::TensorProto::FLOAT;
  values.set_data_type(dtype);
  values.add_dims(n);
  std::string raw;
  for (int64_t i = 0; i < n; ++i) {
    HostTensor t;
    std::string item = what + " value " + std::to_string(i);
    if (!parseTensor(s.tensor_values((int)i), item, t, error))
      return false;
    if (t.dtype != dtype || t.numel() != 1)
      return fail(error, item + " is not one element of dtype " +
                             onnxc_dtype_name(dtype));
    if (dtype == ONNXC_DTYPE_STRING)
      values.add_string_data(*(const char *const *)t.bytes.data());
    else
      raw.append(t.bytes.data(), t.bytes.size());
  }
  if (dtype != ONNXC_DTYPE_STRING)
    values.set_raw_data(raw);
  return parseTensor(values, what + " values", v.items[1].tensor, error);
}

/// A SequenceProto of maps.
bool parseMapSequence(const onnx::SequenceProto &s, const std::string &what,
                      HostValue &v, std::string &error) {
  if (s.tensor_values_size() || s.sparse_tensor_values_size() ||
      s.sequence_values_size() || s.optional_values_size() ||
      (s.elem_type() != onnx::SequenceProto::MAP && s.map_values_size()))
    return fail(error, what + " is a sequence of elem_type " +
                           std::to_string(s.elem_type()) +
                           ": the model takes a sequence of maps");
  v.kind = ONNXC_VALUE_SEQUENCE;
  v.items.clear();
  for (int i = 0; i < s.map_values_size(); ++i) {
    HostValue m;
    if (!parseMap(s.map_values(i), what + " item " + std::to_string(i), m,
                  error))
      return false;
    v.items.push_back(std::move(m));
  }
  return true;
}

bool parseOptional(const onnx::OptionalProto &o, const std::string &what,
                   int32_t payloadKind, HostValue &v, std::string &error) {
  v.kind = ONNXC_VALUE_OPTIONAL;
  v.items.clear();
  bool seq = payloadKind == ONNXC_VALUE_SEQUENCE;
  if (o.has_tensor_value() && seq)
    return fail(error, what + " holds a tensor, the model's optional a sequence");
  if (o.has_sequence_value() && !seq)
    return fail(error, what + " holds a sequence, the model's optional a tensor");
  if (o.has_sparse_tensor_value() || o.has_map_value() ||
      o.has_optional_value())
    return fail(error, what + " holds a value of elem_type " +
                           std::to_string(o.elem_type()) +
                           ": compiled models take optional tensors and "
                           "sequences");
  if (o.has_tensor_value()) {
    HostValue t;
    if (!parseTensor(o.tensor_value(), what, t.tensor, error))
      return false;
    v.items.push_back(std::move(t));
  } else if (o.has_sequence_value()) {
    HostValue s;
    if (!parseSequence(o.sequence_value(), what, s, error))
      return false;
    v.items.push_back(std::move(s));
  }
  return true;
}

/// The TensorProto of a model-allocated tensor.
void toTensorProto(const onnxc_tensor &t, onnx::TensorProto &p) {
  p.set_data_type(t.dtype);
  for (int32_t d = 0; d < t.rank; ++d)
    p.add_dims(t.shape[d]);
  if (t.dtype == ONNXC_DTYPE_STRING) {
    for (int64_t i = 0, n = onnxc_tensor_numel(&t); i < n; ++i)
      p.add_string_data(((const char *const *)t.data)[i]);
    return;
  }
  size_t bytes = onnxc_dtype_bytes(t.dtype, onnxc_tensor_numel(&t));
  p.set_raw_data(bytes ? std::string((const char *)t.data, bytes) : "");
}

/// A map output: keys, then its values as a SequenceProto of 0-D tensors
/// (onnx.numpy_helper.from_dict's layout).
void toMapProto(const onnxc_tensor &t, onnx::MapProto &p) {
  const onnxc_tensor &k = t.items[0], &v = t.items[1];
  int64_t n = k.shape[0];
  p.set_key_type(k.dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (k.dtype == ONNXC_DTYPE_STRING)
      p.add_string_keys(((const char *const *)k.data)[i]);
    else
      p.add_keys(((const int64_t *)k.data)[i]);
  }
  onnx::SequenceProto *values = p.mutable_values();
  values->set_elem_type(onnx::SequenceProto::TENSOR);
  size_t esize = onnxc_dtype_size(v.dtype);
  for (int64_t i = 0; i < n; ++i) {
    onnxc_tensor e = v;
    e.rank = 0;
    e.data = (char *)v.data + i * esize;
    toTensorProto(e, *values->add_tensor_values());
  }
}

void toSequenceProto(const onnxc_tensor &t, onnx::SequenceProto &p) {
  if (t.num_items > 0 && t.items[0].kind == ONNXC_VALUE_MAP) {
    p.set_elem_type(onnx::SequenceProto::MAP);
    for (int64_t i = 0; i < t.num_items; ++i)
      toMapProto(t.items[i], *p.add_map_values());
    return;
  }
  p.set_elem_type(onnx::SequenceProto::TENSOR);
  for (int64_t i = 0; i < t.num_items; ++i)
    toTensorProto(t.items[i], *p.add_tensor_values());
}

} // namespace

bool onnxc::tensorio::parseValue(const std::string &bytes,
                                 const std::string &what, int32_t kind,
                                 int32_t payloadKind, HostValue &out,
                                 std::string &error) {
  if (kind == ONNXC_VALUE_SEQUENCE) {
    onnx::SequenceProto s;
    if (!parseExactly(s, bytes))
      return fail(error, what + " is not an ONNX SequenceProto");
    if (payloadKind == ONNXC_VALUE_MAP)
      return parseMapSequence(s, what, out, error);
    return parseSequence(s, what, out, error);
  }
  if (kind == ONNXC_VALUE_MAP) {
    onnx::MapProto m;
    if (!parseExactly(m, bytes))
      return fail(error, what + " is not an ONNX MapProto");
    return parseMap(m, what, out, error);
  }
  if (kind == ONNXC_VALUE_OPTIONAL) {
    onnx::OptionalProto o;
    if (!parseExactly(o, bytes))
      return fail(error, what + " is not an ONNX OptionalProto");
    return parseOptional(o, what, payloadKind, out, error);
  }
  onnx::TensorProto t;
  if (!t.ParseFromString(bytes))
    return fail(error, what + " is not an ONNX TensorProto");
  out.kind = ONNXC_VALUE_TENSOR;
  out.items.clear();
  return parseTensor(t, what, out.tensor, error);
}

bool onnxc::tensorio::readValue(const std::string &path, int32_t kind,
                                int32_t payloadKind, HostValue &out,
                                std::string &error) {
  std::string bytes;
  if (!detail::readFile(path, bytes, error))
    return false;
  return parseValue(bytes, "'" + path + "'", kind, payloadKind, out, error);
}

bool onnxc::tensorio::writeValue(const std::string &path,
                                 const std::string &name, const onnxc_tensor &t,
                                 std::string &error) {
  std::string bytes;
  if (t.kind == ONNXC_VALUE_SEQUENCE) {
    onnx::SequenceProto p;
    p.set_name(name);
    toSequenceProto(t, p);
    bytes = p.SerializeAsString();
  } else if (t.kind == ONNXC_VALUE_MAP) {
    onnx::MapProto p;
    toMapProto(t, p);
    bytes = p.SerializeAsString();
  } else if (t.kind == ONNXC_VALUE_OPTIONAL) {
    onnx::OptionalProto p;
    p.set_name(name);
    if (t.num_items == 1 && t.items[0].kind == ONNXC_VALUE_SEQUENCE) {
      p.set_elem_type(onnx::OptionalProto::SEQUENCE);
      toSequenceProto(t.items[0], *p.mutable_sequence_value());
    } else if (t.num_items == 1) {
      p.set_elem_type(onnx::OptionalProto::TENSOR);
      toTensorProto(t.items[0], *p.mutable_tensor_value());
    } else {
      p.set_elem_type(onnx::OptionalProto::UNDEFINED);
    }
    bytes = p.SerializeAsString();
  } else {
    onnx::TensorProto p;
    p.set_name(name);
    toTensorProto(t, p);
    bytes = p.SerializeAsString();
  }
  return detail::writeFile(path, bytes, error);
}

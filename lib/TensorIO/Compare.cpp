//===- Compare.cpp - numpy.allclose comparison with a report --------------===//

#include "lib/TensorIO/TensorIO.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace onnxc::tensorio;

namespace {

float halfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f,
           mant = h & 0x3ff, bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else { // subnormal: normalize
    exp = 113;
    while (!(mant & 0x400)) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Element `i` of a floating tensor as double (complex: component i).
double floatAt(int32_t dtype, const void *data, int64_t i) {
  switch (dtype) {
  case ONNXC_DTYPE_FLOAT:
  case ONNXC_DTYPE_COMPLEX64:
    return ((const float *)data)[i];
  case ONNXC_DTYPE_DOUBLE:
  case ONNXC_DTYPE_COMPLEX128:
    return ((const double *)data)[i];
  case ONNXC_DTYPE_FLOAT16:
    return halfToFloat(((const uint16_t *)data)[i]);
  default: { // bfloat16
    uint32_t bits = (uint32_t)((const uint16_t *)data)[i] << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  }
}

/// Integer element `i` as text.
std::string intAt(int32_t dtype, const void *data, int64_t i) {
  switch (dtype) {
  case ONNXC_DTYPE_INT8:
    return std::to_string(((const int8_t *)data)[i]);
  case ONNXC_DTYPE_UINT8:
    return std::to_string(((const uint8_t *)data)[i]);
  case ONNXC_DTYPE_FLOAT8E4M3FN:
  case ONNXC_DTYPE_FLOAT8E4M3FNUZ:
  case ONNXC_DTYPE_FLOAT8E5M2:
  case ONNXC_DTYPE_FLOAT8E5M2FNUZ: {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", ((const uint8_t *)data)[i]);
    return buf;
  }
  case ONNXC_DTYPE_BOOL:
    return ((const uint8_t *)data)[i] ? "true" : "false";
  case ONNXC_DTYPE_INT16:
    return std::to_string(((const int16_t *)data)[i]);
  case ONNXC_DTYPE_UINT16:
    return std::to_string(((const uint16_t *)data)[i]);
  case ONNXC_DTYPE_INT32:
    return std::to_string(((const int32_t *)data)[i]);
  case ONNXC_DTYPE_UINT32:
    return std::to_string(((const uint32_t *)data)[i]);
  case ONNXC_DTYPE_INT64:
    return std::to_string(((const int64_t *)data)[i]);
  default:
    return std::to_string(((const uint64_t *)data)[i]);
  }
}

bool isFloating(int32_t dtype) {
  return dtype == ONNXC_DTYPE_FLOAT || dtype == ONNXC_DTYPE_DOUBLE ||
         dtype == ONNXC_DTYPE_FLOAT16 || dtype == ONNXC_DTYPE_BFLOAT16 ||
         dtype == ONNXC_DTYPE_COMPLEX64 || dtype == ONNXC_DTYPE_COMPLEX128;
}

/// "[1, 2]" for flat index `i` of `dims` (complex: "[1, 2].re").
std::string indexString(const std::vector<int64_t> &dims, int64_t i,
                        bool complex) {
  std::string part;
  if (complex) {
    part = i % 2 ? ".im" : ".re";
    i /= 2;
  }
  std::vector<int64_t> idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = dims[d] ? i % dims[d] : 0;
    i = dims[d] ? i / dims[d] : 0;
  }
  return shapeString(idx.data(), (int32_t)idx.size()) + part;
}

/// At most 40 bytes of `s`, control bytes and quotes as \xNN.
std::string quoted(const char *s) {
  std::string out;
  size_t i = 0;
  for (; s[i] && i < 40; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.push_back((char)c);
    }
  }
  if (s[i])
    out += "...";
  return out;
}

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// Compares one tensor (`label` names it: "output 0 'y'", "output 0 'y'
/// item 2"); prints what differs. True when it matches.
bool compareTensor(std::FILE *report, const std::string &label, const onnxc_tensor &got,
                   const HostTensor &exp, Tolerance o) {
  // Expected bfloat16 stored as uint16 (ONNX 1.12 test data: numpy has no
  // bfloat16; the bits are the same).
  bool bf16AsU16 =
      got.dtype == ONNXC_DTYPE_BFLOAT16 && exp.dtype == ONNXC_DTYPE_UINT16;
  if (got.dtype != exp.dtype && !bf16AsU16) {
    std::fprintf(report, "%s: dtype %s, expected %s\n", label.c_str(),
                onnxc_dtype_name(got.dtype), onnxc_dtype_name(exp.dtype));
    return false;
  }
  if ((size_t)got.rank != exp.dims.size() ||
      !std::equal(exp.dims.begin(), exp.dims.end(), got.shape)) {
    std::fprintf(report, "%s: shape %s, expected %s\n", label.c_str(),
                shapeString(got.shape, got.rank).c_str(),
                shapeString(exp.dims.data(), (int32_t)exp.dims.size()).c_str());
    return false;
  }
  const int kShown = 10;
  int64_t n = exp.numel(), bad = 0;
  std::vector<std::string> shown;
  if (got.dtype == ONNXC_DTYPE_STRING) {
    for (int64_t i = 0; i < n; ++i) {
      const char *g = ((const char *const *)got.data)[i];
      const char *e = ((const char *const *)(const void *)exp.bytes.data())[i];
      if (std::strcmp(g, e) == 0)
        continue;
      if (bad++ < kShown)
        shown.push_back(indexString(exp.dims, i, false) + ": got '" +
                        quoted(g) + "', expected '" + quoted(e) + "'");
    }
    if (bad)
      std::fprintf(report, "%s: %lld of %lld strings differ\n", label.c_str(),
                   (long long)bad, (long long)n);
  } else if (got.dtype >= ONNXC_DTYPE_UINT4 &&
             got.dtype <= ONNXC_DTYPE_FLOAT4E2M1) {
    // Packed: element i is nibble i % 2 of byte i / 2; codes compare exactly.
    auto nibble = [](const void *data, int64_t i) {
      uint8_t byte = ((const uint8_t *)data)[i / 2];
      return (int)(i % 2 ? byte >> 4 : byte & 0xF);
    };
    auto show = [&](int v) {
      return std::to_string(got.dtype == ONNXC_DTYPE_INT4 && v >= 8 ? v - 16 : v);
    };
    for (int64_t i = 0; i < n; ++i) {
      int g = nibble(got.data, i), e = nibble(exp.bytes.data(), i);
      if (g == e)
        continue;
      if (bad++ < kShown)
        shown.push_back(indexString(exp.dims, i, false) + ": got " + show(g) +
                        ", expected " + show(e));
    }
    if (bad)
      std::fprintf(report, "%s: %lld of %lld elements differ (exact comparison)\n",
                   label.c_str(), (long long)bad, (long long)n);
  } else if (!isFloating(got.dtype)) {
    // Integers, bool, and the float8 codes (bit for bit).
    size_t esize = onnxc_dtype_size(got.dtype);
    for (int64_t i = 0; i < n; ++i) {
      if (std::memcmp((const char *)got.data + i * esize,
                      exp.bytes.data() + i * esize, esize) == 0)
        continue;
      if (bad++ < kShown)
        shown.push_back(indexString(exp.dims, i, false) + ": got " +
                        intAt(got.dtype, got.data, i) + ", expected " +
                        intAt(got.dtype, exp.bytes.data(), i));
    }
    if (bad)
      std::fprintf(report, "%s: %lld of %lld elements differ (exact comparison)\n",
                  label.c_str(), (long long)bad, (long long)n);
  } else {
    bool complex = got.dtype == ONNXC_DTYPE_COMPLEX64 ||
                   got.dtype == ONNXC_DTYPE_COMPLEX128;
    int64_t values = complex ? 2 * n : n;
    double maxAbs = 0, maxRel = 0;
    int64_t maxAbsAt = -1, maxRelAt = -1;
    for (int64_t i = 0; i < values; ++i) {
      double a = floatAt(got.dtype, got.data, i);
      double b = floatAt(got.dtype, exp.bytes.data(), i);
      bool ok;
      if (std::isnan(a) || std::isnan(b))
        ok = std::isnan(a) && std::isnan(b);
      else if (std::isinf(a) || std::isinf(b))
        ok = a == b;
      else
        ok = std::fabs(a - b) <= o.atol + o.rtol * std::fabs(b);
      if (!std::isnan(a) && !std::isnan(b) && !std::isinf(a) &&
          !std::isinf(b)) {
        double abs = std::fabs(a - b);
        if (abs > maxAbs)
          maxAbs = abs, maxAbsAt = i;
        if (b != 0 && abs / std::fabs(b) > maxRel)
          maxRel = abs / std::fabs(b), maxRelAt = i;
      }
      if (ok)
        continue;
      if (bad++ < kShown)
        shown.push_back(indexString(exp.dims, i, complex) + ": got " + fmt(a) +
                        ", expected " + fmt(b) + " (abs error " +
                        fmt(std::fabs(a - b)) + ")");
    }
    if (bad) {
      std::fprintf(report, "%s: %lld of %lld values differ (rtol %s, atol %s); max abs "
                  "error %s",
                  label.c_str(), (long long)bad, (long long)values,
                  fmt(o.rtol).c_str(), fmt(o.atol).c_str(),
                  fmt(maxAbs).c_str());
      if (maxAbsAt >= 0)
        std::fprintf(report, " at %s", indexString(exp.dims, maxAbsAt, complex).c_str());
      std::fprintf(report, ", max rel error %s", fmt(maxRel).c_str());
      if (maxRelAt >= 0)
        std::fprintf(report, " at %s", indexString(exp.dims, maxRelAt, complex).c_str());
      std::fprintf(report, "\n");
    }
  }
  for (const std::string &s : shown)
    std::fprintf(report, "  %s\n", s.c_str());
  if (bad > kShown)
    std::fprintf(report, "  ... and %lld more\n", (long long)(bad - kShown));
  return bad == 0;
}

/// A map: the same keys (compared exactly, in any order), then the value of
/// each expected key against got's value of that key.
bool compareMap(std::FILE *report, const std::string &label,
                const onnxc_tensor &got, const HostValue &exp, Tolerance o) {
  if (got.num_items != 2 || exp.items.size() != 2) {
    std::fprintf(report, "%s: a map of %lld items\n", label.c_str(),
                 (long long)got.num_items);
    return false;
  }
  const onnxc_tensor &gk = got.items[0], &gv = got.items[1];
  const HostTensor &ek = exp.items[0].tensor, &ev = exp.items[1].tensor;
  int64_t n = ek.numel();
  if (gk.dtype != ek.dtype || gv.dtype != ev.dtype) {
    std::fprintf(report, "%s: map<%s, %s>, expected map<%s, %s>\n",
                 label.c_str(), onnxc_dtype_name(gk.dtype),
                 onnxc_dtype_name(gv.dtype), onnxc_dtype_name(ek.dtype),
                 onnxc_dtype_name(ev.dtype));
    return false;
  }
  if (onnxc_tensor_numel(&gk) != n) {
    std::fprintf(report, "%s: %lld entries, expected %lld\n", label.c_str(),
                 (long long)onnxc_tensor_numel(&gk), (long long)n);
    return false;
  }
  bool strings = ek.dtype == ONNXC_DTYPE_STRING;
  auto keyText = [&](const void *data, int64_t i) {
    if (strings)
      return "'" + std::string(((const char *const *)data)[i]) + "'";
    return std::to_string(((const int64_t *)data)[i]);
  };
  // got's entries in the expected keys' order.
  size_t vsize = onnxc_dtype_size(gv.dtype);
  std::vector<char> values((size_t)n * vsize);
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = 0;
    for (; j < n; ++j)
      if (strings ? std::strcmp(((const char *const *)gk.data)[j],
                                ((const char *const *)ek.bytes.data())[i]) == 0
                  : ((const int64_t *)gk.data)[j] ==
                        ((const int64_t *)ek.bytes.data())[i])
        break;
    if (j == n) {
      std::fprintf(report, "%s: no key %s\n", label.c_str(),
                   keyText(ek.bytes.data(), i).c_str());
      return false;
    }
    std::memcpy(values.data() + i * vsize, (const char *)gv.data + j * vsize,
                vsize);
  }
  onnxc_tensor permuted = gv;
  permuted.data = values.data();
  return compareTensor(report, label + " values (in the expected keys' order)",
                       permuted, ev, o);
}

} // namespace

/// Compares a tensor, a sequence (its item count, then item by item) or an
/// optional (its presence, then its value); prints what differs.
bool onnxc::tensorio::compareValue(std::FILE *report, const std::string &label,
                                   const onnxc_tensor &got,
                                   const HostValue &exp, Tolerance o) {
  if (got.kind != exp.kind) {
    std::fprintf(report, "%s: a value of kind %d, expected kind %d\n", label.c_str(),
                (int)got.kind, (int)exp.kind);
    return false;
  }
  if (got.kind == ONNXC_VALUE_TENSOR)
    return compareTensor(report, label, got, exp.tensor, o);
  if (got.kind == ONNXC_VALUE_MAP)
    return compareMap(report, label, got, exp, o);
  if (got.kind == ONNXC_VALUE_OPTIONAL) {
    if (got.num_items != (int64_t)exp.items.size()) {
      std::fprintf(report, "%s: %s, expected %s\n", label.c_str(),
                  got.num_items ? "a value" : "an empty optional",
                  exp.items.empty() ? "an empty optional" : "a value");
      return false;
    }
    return got.num_items == 0 ||
           compareValue(report, label, got.items[0], exp.items[0], o);
  }
  if (got.num_items != (int64_t)exp.items.size()) {
    std::fprintf(report, "%s: %lld items, expected %zu\n", label.c_str(),
                (long long)got.num_items, exp.items.size());
    return false;
  }
  bool ok = true;
  for (int64_t i = 0; i < got.num_items; ++i)
    ok &= got.items[i].kind == ONNXC_VALUE_MAP || exp.items[(size_t)i].kind == ONNXC_VALUE_MAP
              ? compareValue(report, label + " item " + std::to_string(i),
                             got.items[i], exp.items[(size_t)i], o)
              : compareTensor(report, label + " item " + std::to_string(i),
                              got.items[i], exp.items[(size_t)i].tensor, o);
  return ok;
}

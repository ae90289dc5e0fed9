//===- TensorIOTest.cpp - Unit test of lib/TensorIO -----------------------===//
//
//   onnxc-tensorio-test DIR             every check, scratch files in DIR;
//                                       one line per failed check, then
//                                       "N checks, M failed"
//   onnxc-tensorio-test read FILE KIND  FILE (.npy, or .pb of KIND tensor,
//                                       sequence, optional-tensor,
//                                       optional-sequence) described, or
//                                       its one-line error (exit 1)
//   onnxc-tensorio-test write-npy FILE  a float32 [2, 3] and friends for
//                                       numpy to load (FILE.f4.npy, ...)
//
//===----------------------------------------------------------------------===//

#include "lib/TensorIO/TensorIO.h"

#include "onnx/onnx_pb.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

using namespace onnxc::tensorio;

namespace {

int checks = 0, failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
    }                                                                          \
  } while (0)

onnxc_tensor tensorOf(void *data, int32_t dtype, std::vector<int64_t> dims) {
  onnxc_tensor t;
  std::memset(&t, 0, sizeof t);
  t.data = data;
  t.dtype = dtype;
  t.rank = (int32_t)dims.size();
  for (size_t d = 0; d < dims.size(); ++d)
    t.shape[d] = dims[d];
  return t;
}

HostValue valueOf(const HostTensor &t) {
  HostValue v;
  v.tensor = t;
  return v;
}

/// compareValue's verdict and its report.
bool compare(const onnxc_tensor &got, const HostValue &exp, Tolerance tol,
             std::string &report) {
  std::FILE *f = std::tmpfile();
  bool ok = compareValue(f, "out", got, exp, tol);
  std::rewind(f);
  report.clear();
  char buf[512];
  while (std::fgets(buf, sizeof buf, f))
    report += buf;
  std::fclose(f);
  return ok;
}

bool oneLine(const std::string &s) {
  return !s.empty() && s.find('\n') == std::string::npos;
}

void testProtoRoundTrip(const std::string &dir) {
  float x[6] = {0, 1.5f, -2, 3, 4, 5};
  onnxc_tensor t = tensorOf(x, ONNXC_DTYPE_FLOAT, {2, 3});
  std::string error, path = dir + "/x.pb";
  CHECK(writeValue(path, "x", t, error));
  HostValue v;
  CHECK(readValue(path, ONNXC_VALUE_TENSOR, 0, v, error));
  CHECK(v.tensor.dtype == ONNXC_DTYPE_FLOAT);
  CHECK(v.tensor.dims == (std::vector<int64_t>{2, 3}));
  CHECK(v.tensor.bytes.size() == sizeof x &&
        std::memcmp(v.tensor.bytes.data(), x, sizeof x) == 0);
  std::string report;
  CHECK(compare(t, v, Tolerance(), report) && report.empty());

  // A sequence of two tensors and an optional holding a sequence.
  int64_t a[2] = {1, 2}, b[3] = {3, 4, 5};
  onnxc_tensor items[2] = {tensorOf(a, ONNXC_DTYPE_INT64, {2}),
                           tensorOf(b, ONNXC_DTYPE_INT64, {3})};
  onnxc_tensor seq = onnxc_make_sequence(items, 2);
  CHECK(writeValue(dir + "/s.pb", "s", seq, error));
  HostValue s;
  CHECK(readValue(dir + "/s.pb", ONNXC_VALUE_SEQUENCE, 0, s, error));
  CHECK(s.kind == ONNXC_VALUE_SEQUENCE && s.items.size() == 2 &&
        s.items[1].tensor.dims == std::vector<int64_t>{3});
  CHECK(compare(seq, s, Tolerance(), report));
  onnxc_tensor opt = onnxc_make_optional(&seq);
  CHECK(writeValue(dir + "/o.pb", "o", opt, error));
  HostValue o;
  CHECK(readValue(dir + "/o.pb", ONNXC_VALUE_OPTIONAL, ONNXC_VALUE_SEQUENCE, o,
                  error));
  CHECK(o.kind == ONNXC_VALUE_OPTIONAL && o.items.size() == 1 &&
        o.items[0].items.size() == 2);
  CHECK(compare(opt, o, Tolerance(), report));
  // The optional's payload kind must be the model's.
  CHECK(!readValue(dir + "/o.pb", ONNXC_VALUE_OPTIONAL, ONNXC_VALUE_TENSOR, o,
                   error));
  CHECK(error == "'" + dir + "/o.pb' holds a sequence, the model's optional "
                             "a tensor");
}

/// String tensors: string_data both ways, the host tensor's pointers valid
/// in a copy, exact comparison with a report, the counts checked.
void testStrings(const std::string &dir) {
  const char *x[3] = {"a", "", "\xc3\xa9t\xc3\xa9"};
  onnxc_tensor t = tensorOf(x, ONNXC_DTYPE_STRING, {3});
  std::string error, report;
  CHECK(writeValue(dir + "/str.pb", "s", t, error));
  HostValue v;
  CHECK(readValue(dir + "/str.pb", ONNXC_VALUE_TENSOR, 0, v, error));
  HostValue copy = v;
  v = HostValue();
  onnxc_tensor c = copy.tensor.view();
  CHECK(c.dtype == ONNXC_DTYPE_STRING && c.rank == 1 && c.shape[0] == 3);
  CHECK(std::strcmp(((const char *const *)c.data)[2], x[2]) == 0);
  CHECK(compare(t, copy, Tolerance(), report) && report.empty());
  const char *y[3] = {"a", "b", "\xc3\xa9t\xc3\xa9"};
  CHECK(!compare(tensorOf(y, ONNXC_DTYPE_STRING, {3}), copy, Tolerance(),
                 report));
  CHECK(report.find("1 of 3 strings differ") != std::string::npos &&
        report.find("[1]: got 'b', expected ''") != std::string::npos);
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::STRING);
  p.add_dims(2);
  p.add_string_data("only one");
  CHECK(!parseValue(p.SerializeAsString(), "'p'", ONNXC_VALUE_TENSOR, 0, v,
                    error));
  CHECK(error == "'p' has 1 strings for 2 elements");
}

void testProtoErrors(const std::string &dir) {
  std::string error;
  HostValue v;
  // A few bytes that declare 2^40 floats: an error, nothing allocated.
  onnx::TensorProto big;
  big.set_data_type(onnx::TensorProto::FLOAT);
  big.add_dims(int64_t(1) << 40);
  big.set_raw_data(std::string(4, '\0'));
  CHECK(!parseValue(big.SerializeAsString(), "'big'", ONNXC_VALUE_TENSOR, 0, v,
                    error));
  CHECK(error == "'big' has 4 bytes of raw data for 4398046511104");
  // A truncated file: protobuf fails to parse it.
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(64);
  t.set_raw_data(std::string(256, '\1'));
  std::string bytes = t.SerializeAsString();
  CHECK(!parseValue(bytes.substr(0, bytes.size() / 2), "'cut'",
                    ONNXC_VALUE_TENSOR, 0, v, error));
  CHECK(error == "'cut' is not an ONNX TensorProto");
  // A typed field shorter than the dims.
  onnx::TensorProto few;
  few.set_data_type(onnx::TensorProto::INT64);
  few.add_dims(3);
  few.add_int64_data(1);
  CHECK(!parseValue(few.SerializeAsString(), "'few'", ONNXC_VALUE_TENSOR, 0, v,
                    error));
  CHECK(error == "'few' has 1 values for 3 elements");
  // Negative dims, unsupported dtypes, missing files, directories.
  onnx::TensorProto neg;
  neg.set_data_type(onnx::TensorProto::FLOAT);
  neg.add_dims(-1);
  CHECK(!parseValue(neg.SerializeAsString(), "'neg'", ONNXC_VALUE_TENSOR, 0, v,
                    error));
  CHECK(error == "'neg' has a negative dim");
  // Dims whose product overflows before a 0: an empty tensor (it was "too
  // large").
  onnx::TensorProto wide;
  wide.set_data_type(onnx::TensorProto::FLOAT);
  wide.add_dims(int64_t(1) << 32);
  wide.add_dims(int64_t(1) << 32);
  wide.add_dims(0);
  CHECK(parseValue(wide.SerializeAsString(), "'wide'", ONNXC_VALUE_TENSOR, 0,
                   v, error));
  onnx::TensorProto str;
  str.set_data_type(onnx::TensorProto::STRING);
  CHECK(!parseValue(str.SerializeAsString(), "'str'", ONNXC_VALUE_TENSOR, 0, v,
                    error));
  CHECK(error == "'str' has 0 strings for 1 elements");
  CHECK(!readValue(dir + "/missing.pb", ONNXC_VALUE_TENSOR, 0, v, error));
  CHECK(error == "cannot read '" + dir + "/missing.pb'");
  CHECK(!readValue(dir, ONNXC_VALUE_TENSOR, 0, v, error));
  CHECK(error == "'" + dir + "' is not a regular file");
  // A TensorProto is not a SequenceProto.
  CHECK(!parseValue(bytes, "'t'", ONNXC_VALUE_SEQUENCE, 0, v, error));
  CHECK(error == "'t' is not an ONNX SequenceProto");
}

void testNpy(const std::string &dir) {
  std::string error, report;
  double d[4] = {1, -2, 3.25, 1e300};
  onnxc_tensor t = tensorOf(d, ONNXC_DTYPE_DOUBLE, {4});
  CHECK(writeNpy(dir + "/d.npy", t, error));
  HostTensor h;
  CHECK(readNpy(dir + "/d.npy", h, error));
  CHECK(h.dtype == ONNXC_DTYPE_DOUBLE && h.dims == std::vector<int64_t>{4});
  CHECK(compare(t, valueOf(h), Tolerance{0, 0}, report));
  // Rank 0 and an empty tensor.
  uint8_t flag = 1;
  CHECK(writeNpy(dir + "/b.npy", tensorOf(&flag, ONNXC_DTYPE_BOOL, {}), error));
  CHECK(readNpy(dir + "/b.npy", h, error));
  CHECK(h.dtype == ONNXC_DTYPE_BOOL && h.dims.empty() && h.bytes.size() == 1);
  CHECK(writeNpy(dir + "/e.npy", tensorOf(nullptr, ONNXC_DTYPE_INT32, {0, 5}),
                 error));
  CHECK(readNpy(dir + "/e.npy", h, error));
  CHECK(h.dims == (std::vector<int64_t>{0, 5}) && h.bytes.empty());
  // The data starts at a multiple of 64 bytes, as numpy writes it.
  std::ifstream in(dir + "/d.npy", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  CHECK(bytes.size() > sizeof d && (bytes.size() - sizeof d) % 64 == 0);
  // Truncated data, a truncated header, another file, big-endian, Fortran
  // order, a shape that declares more than the file holds.
  CHECK(!parseNpy(bytes.substr(0, bytes.size() - 1), "'d'", h, error));
  CHECK(error == "'d' has 31 bytes of data for 4 elements of 8 bytes");
  CHECK(!parseNpy(bytes.substr(0, 20), "'d'", h, error));
  CHECK(error == "'d' ends inside its .npy header");
  CHECK(!parseNpy("PK\3\4 not numpy", "'z'", h, error));
  CHECK(error == "'z' is not a .npy file (no \\x93NUMPY magic)");
  std::string be = bytes;
  be.replace(be.find("'<f8'"), 5, "'>f8'");
  CHECK(!parseNpy(be, "'be'", h, error));
  CHECK(error == "'be' is big-endian ('>f8')");
  std::string fo = bytes;
  fo.replace(fo.find("False"), 5, "True ");
  CHECK(!parseNpy(fo, "'fo'", h, error));
  CHECK(error == "'fo' is in Fortran order: only C order is read");
  std::string huge = bytes;
  huge.replace(huge.find("(4,)"), 4, "(9999999999, 9999999999,)");
  CHECK(!parseNpy(huge, "'huge'", h, error));
  CHECK(oneLine(error) && error.rfind("'huge' ", 0) == 0);
  CHECK(!writeNpy(dir + "/s.npy", onnxc_make_sequence(nullptr, 0), error));
  CHECK(oneLine(error));
}

void testCompare() {
  std::string report;
  float exp[4] = {1, 2, NAN, INFINITY};
  HostTensor h;
  h.dtype = ONNXC_DTYPE_FLOAT;
  h.dims = {4};
  h.bytes.assign((char *)exp, (char *)exp + sizeof exp);
  // Within rtol, NaN equals NaN, inf equals inf.
  float near[4] = {1.0005f, 2, NAN, INFINITY};
  CHECK(compare(tensorOf(near, ONNXC_DTYPE_FLOAT, {4}), valueOf(h),
                Tolerance{1e-3, 0}, report));
  // Outside: one value differs; the report says which and by how much.
  float far[4] = {1.01f, 2, NAN, INFINITY};
  CHECK(!compare(tensorOf(far, ONNXC_DTYPE_FLOAT, {4}), valueOf(h),
                 Tolerance{1e-3, 0}, report));
  CHECK(report.rfind("out: 1 of 4 values differ (rtol 0.001, atol 0)", 0) == 0);
  CHECK(report.find("  [0]: got 1.00999999, expected 1") != std::string::npos);
  // NaN against a number, -inf against inf.
  float nan[4] = {NAN, 2, NAN, -INFINITY};
  CHECK(!compare(tensorOf(nan, ONNXC_DTYPE_FLOAT, {4}), valueOf(h),
                 Tolerance{1, 1}, report));
  CHECK(report.rfind("out: 2 of 4 values differ", 0) == 0);
  // Integers are exact; shapes and dtypes must match.
  int32_t ie[3] = {1, 2, 3}, ig[3] = {1, 2, 4};
  HostTensor hi;
  hi.dtype = ONNXC_DTYPE_INT32;
  hi.dims = {3};
  hi.bytes.assign((char *)ie, (char *)ie + sizeof ie);
  CHECK(!compare(tensorOf(ig, ONNXC_DTYPE_INT32, {3}), valueOf(hi),
                 Tolerance{1, 1}, report));
  CHECK(report == "out: 1 of 3 elements differ (exact comparison)\n"
                  "  [2]: got 4, expected 3\n");
  CHECK(!compare(tensorOf(ie, ONNXC_DTYPE_INT32, {1, 3}), valueOf(hi),
                 Tolerance(), report));
  CHECK(report == "out: shape [1, 3], expected [3]\n");
  CHECK(!compare(tensorOf(ie, ONNXC_DTYPE_UINT32, {3}), valueOf(hi),
                 Tolerance(), report));
  CHECK(report == "out: dtype uint32, expected int32\n");
  // Sequences: item counts first.
  HostValue seq;
  seq.kind = ONNXC_VALUE_SEQUENCE;
  seq.items.push_back(valueOf(hi));
  onnxc_tensor items[2] = {tensorOf(ie, ONNXC_DTYPE_INT32, {3}),
                           tensorOf(ie, ONNXC_DTYPE_INT32, {3})};
  CHECK(!compare(onnxc_make_sequence(items, 2), seq, Tolerance(), report));
  CHECK(report == "out: 2 items, expected 1\n");
  CHECK(compare(onnxc_make_sequence(items, 1), seq, Tolerance(), report));
}

int describeFile(const std::string &path, const std::string &kind) {
  std::string error;
  HostValue v;
  bool ok;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0)
    ok = readNpy(path, v.tensor, error);
  else if (kind == "tensor")
    ok = readValue(path, ONNXC_VALUE_TENSOR, 0, v, error);
  else if (kind == "sequence")
    ok = readValue(path, ONNXC_VALUE_SEQUENCE, 0, v, error);
  else if (kind == "optional-tensor")
    ok = readValue(path, ONNXC_VALUE_OPTIONAL, ONNXC_VALUE_TENSOR, v, error);
  else
    ok = readValue(path, ONNXC_VALUE_OPTIONAL, ONNXC_VALUE_SEQUENCE, v, error);
  if (!ok) {
    std::printf("error: %s\n", error.c_str());
    return 1;
  }
  // Described through the C API's view, as onnxc-run prints outputs.
  std::vector<onnxc_tensor> items;
  const HostValue &inner = v.kind == ONNXC_VALUE_OPTIONAL && !v.items.empty()
                               ? v.items[0]
                               : v;
  for (const HostValue &i : inner.items)
    items.push_back(i.tensor.view());
  onnxc_tensor t = inner.kind == ONNXC_VALUE_SEQUENCE
                       ? onnxc_make_sequence(items.data(), (int64_t)items.size())
                       : inner.tensor.view();
  if (!items.empty())
    t.dtype = items[0].dtype;
  onnxc_tensor shown = v.kind == ONNXC_VALUE_OPTIONAL
                           ? onnxc_make_optional(v.items.empty() ? nullptr : &t)
                           : t;
  std::printf("%s\n", describeValue(shown).c_str());
  // The values of small float and integer tensors.
  if (v.kind == ONNXC_VALUE_TENSOR && v.tensor.numel() <= 16) {
    for (int64_t i = 0; i < v.tensor.numel(); ++i) {
      const char *p = v.tensor.bytes.data();
      switch (v.tensor.dtype) {
      case ONNXC_DTYPE_FLOAT:
        std::printf(" %g", (double)((const float *)p)[i]);
        break;
      case ONNXC_DTYPE_DOUBLE:
        std::printf(" %g", ((const double *)p)[i]);
        break;
      case ONNXC_DTYPE_INT64:
        std::printf(" %lld", (long long)((const int64_t *)p)[i]);
        break;
      case ONNXC_DTYPE_INT32:
        std::printf(" %d", ((const int32_t *)p)[i]);
        break;
      case ONNXC_DTYPE_BOOL:
      case ONNXC_DTYPE_UINT8:
        std::printf(" %u", ((const uint8_t *)p)[i]);
        break;
      default:
        break;
      }
    }
    std::printf("\n");
  }
  return 0;
}

int writeSamples(const std::string &prefix) {
  std::string error;
  float f[6] = {0, 1, 2, 3, 4.5f, -5};
  int64_t l[3] = {-1, 0, 1LL << 40};
  uint8_t b[2] = {1, 0};
  bool ok = writeNpy(prefix + ".f4.npy", tensorOf(f, ONNXC_DTYPE_FLOAT, {2, 3}),
                     error) &&
            writeNpy(prefix + ".i8.npy", tensorOf(l, ONNXC_DTYPE_INT64, {3}),
                     error) &&
            writeNpy(prefix + ".b1.npy", tensorOf(b, ONNXC_DTYPE_BOOL, {2, 1}),
                     error) &&
            writeNpy(prefix + ".scalar.npy",
                     tensorOf(f + 4, ONNXC_DTYPE_FLOAT, {}), error);
  if (!ok)
    std::printf("error: %s\n", error.c_str());
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::string(argv[1]) == "read")
    return describeFile(argv[2], argv[3]);
  if (argc == 3 && std::string(argv[1]) == "write-npy")
    return writeSamples(argv[2]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: onnxc-tensorio-test DIR | read FILE KIND | "
                         "write-npy PREFIX\n");
    return 2;
  }
  std::string dir = argv[1];
  testProtoRoundTrip(dir);
  testStrings(dir);
  testProtoErrors(dir);
  testNpy(dir);
  testCompare();
  std::printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

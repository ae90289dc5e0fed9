//===- onnxc-run.cpp - Run a compiled model on .pb tensors ----------------===//
//
//   onnxc-run LIB.so [--inputs DIR] [--save DIR] [--expect DIR]
//             [--rtol R] [--atol A] [--runs N] [--warmup N] [--name M]
//             [--threads N] [--profile FILE] [--debug-dump DIR]
//
// Loads a model library (dlopen), reads DIR/input_<i>.pb in graph-input
// order (an ONNX TensorProto, or a SequenceProto or OptionalProto where the
// model takes a sequence or an optional), runs M_run, optionally saves
// output_<k>.pb and compares with the expected output_<k>.pb with
// numpy.allclose semantics (|got - expected| <= atol + rtol * |expected|,
// NaN equals NaN, integers and bools exact; sequences item by item, after
// their item counts; optionals after their presence). Exit codes: 0 ok, 1
// an output differs, 2 a usage, I/O or run error (one line on stderr).
// --threads sets the library's thread count (onnxc_set_num_threads)
// before the first run. --profile (a library compiled with onnxc --profile)
// records the runs (after the warm-up ones) into a Chrome trace and prints
// the nodes that took the most time; --debug-dump (a library compiled with
// onnxc --debug-dump) writes every node's outputs into DIR
// (docs/profiling.md).
//
//===----------------------------------------------------------------------===//

#include "onnxc/runtime.h"

#include "onnx/onnx-data_pb.h" // SequenceProto, OptionalProto
#include "onnx/onnx_pb.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <type_traits>
#include <vector>

namespace {

using InfoFn = const onnxc_model_info *(*)();
using RunFn = onnxc_status (*)(const onnxc_tensor *, int32_t, onnxc_tensor *,
                               int32_t);
using LastErrorFn = const char *(*)();
using SetThreadsFn = onnxc_status (*)(int32_t);
using GetThreadsFn = int32_t (*)();
using DumpDirFn = onnxc_status (*)(const char *);
using ProfileStartFn = onnxc_status (*)(const char *);
using ProfileStopFn = onnxc_status (*)();
using ProfileSummaryFn = int32_t (*)(onnxc_profile_entry *, int32_t);

const char *const kUsage =
    "usage: onnxc-run LIB.so [--inputs DIR] [--save DIR] [--expect DIR]\n"
    "                 [--rtol R] [--atol A] [--runs N] [--warmup N] [--name "
    "M]\n"
    "                 [--threads N] [--profile FILE] [--debug-dump DIR]\n"
    "       onnxc-run LIB.so --train-steps N --inputs DIR [--save-params DIR]\n"
    "                 [--quiet]\n"
    "  --inputs DIR  input_0.pb, input_1.pb, ... in graph-input order\n"
    "                (TensorProto; SequenceProto, OptionalProto where the\n"
    "                model takes sequences, optionals)\n"
    "  --save DIR    write output_0.pb, ... there\n"
    "  --expect DIR  compare with output_0.pb, ... there (exit 1 on mismatch)\n"
    "  --rtol R, --atol A  tolerances: |got - exp| <= atol + rtol * |exp|\n"
    "                (defaults 1e-3 and 1e-7, as ONNX's backend tests)\n"
    "  --runs N, --warmup N  time N runs after N warm-up runs\n"
    "  --memory      print the resident set before loading the model and its\n"
    "                peak (VmHWM) after the runs, in KB\n"
    "  --name M      symbol prefix (default: the library's file name stem)\n"
    "  --threads N   threads for the model's large matrix products and\n"
    "                convolutions (0: one per CPU; default: the environment's\n"
    "                ONNXC_NUM_THREADS, else 1)\n"
    "  --profile FILE  (a library compiled with onnxc --profile) record the\n"
    "                runs after the warm-up into FILE (Chrome trace JSON) and\n"
    "                print the nodes that took the most time\n"
    "  --debug-dump DIR  (a library compiled with onnxc --debug-dump) write\n"
    "                every node's outputs as .npy and a manifest.json there\n"
    "  --train-steps N  (a model with training info) create a training state,\n"
    "                run N train steps on the inputs in DIR (input_K.pb: the\n"
    "                main graph's inputs in graph order, then the\n"
    "                algorithm's), printing each step's outputs (the loss)\n"
    "  --save-params DIR  then write <key>.pb (a TensorProto named after the\n"
    "                key) for every tensor of the training state\n"
    "  --quiet       do not print the steps' outputs\n";

struct Options {
  std::string library, inputs, save, expect, name;
  double rtol = 1e-3, atol = 1e-7;
  long runs = 0, warmup = 0;
  long threads = -1; // -1: leave the library's default
  bool memory = false;
  long trainSteps = -1; // -1: inference
  std::string saveParams;
  bool quiet = false;
  std::string profile, debugDump;
};

/// `msg` on one line: control characters (from file names, the model's
/// names, its error messages) become \xNN.
std::string escapeControls(const std::string &msg) {
  std::string out;
  for (unsigned char c : msg) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += (char)c;
    }
  }
  return out;
}

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "onnxc-run: error: %s\n", escapeControls(msg).c_str());
  std::exit(2);
}

bool parseNumber(const char *s, double &out) {
  char *end = nullptr;
  out = std::strtod(s, &end);
  return end != s && *end == '\0' && std::isfinite(out) && out >= 0;
}

bool parseCount(const char *s, long &out) {
  char *end = nullptr;
  out = std::strtol(s, &end, 10);
  return end != s && *end == '\0' && out >= 0;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    std::string value;
    bool hasValue = false;
    size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      hasValue = true;
    }
    auto next = [&]() -> std::string {
      if (hasValue)
        return value;
      if (i + 1 >= argc)
        die("option '" + a + "' needs a value");
      return argv[++i];
    };
    if (a == "--inputs") {
      o.inputs = next();
    } else if (a == "--save") {
      o.save = next();
    } else if (a == "--expect") {
      o.expect = next();
    } else if (a == "--name") {
      o.name = next();
    } else if (a == "--rtol" || a == "--atol") {
      std::string v = next();
      if (!parseNumber(v.c_str(), a == "--rtol" ? o.rtol : o.atol))
        die("option '" + a + "' needs a non-negative number, got '" + v + "'");
    } else if (a == "--runs" || a == "--warmup") {
      std::string v = next();
      if (!parseCount(v.c_str(), a == "--runs" ? o.runs : o.warmup))
        die("option '" + a + "' needs a non-negative integer, got '" + v + "'");
    } else if (a == "--memory") {
      o.memory = true;
    } else if (a == "--train-steps") {
      std::string v = next();
      if (!parseCount(v.c_str(), o.trainSteps))
        die("option '--train-steps' needs a non-negative integer, got '" + v +
            "'");
    } else if (a == "--save-params") {
      o.saveParams = next();
    } else if (a == "--debug-dump") {
      o.debugDump = next();
    } else if (a == "--profile") {
      o.profile = next();
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--threads") {
      std::string v = next();
      if (!parseCount(v.c_str(), o.threads) || o.threads > 64)
        die("option '--threads' needs an integer from 0 to 64, got '" + v +
            "'");
    } else if (a.size() > 1 && a[0] == '-') {
      die("unknown option '" + a + "' (see --help)");
    } else if (o.library.empty()) {
      o.library = a;
    } else {
      die("more than one library given ('" + o.library + "', '" + a + "')");
    }
  }
  if (o.library.empty())
    die("no model library given (see --help)");
  if (o.warmup > 0 && o.runs == 0)
    die("--warmup needs --runs");
  if (o.trainSteps < 0 && (!o.saveParams.empty() || o.quiet))
    die("--save-params and --quiet need --train-steps");
  if (o.trainSteps >= 0 && !o.profile.empty())
    die("--profile does not combine with --train-steps");
  if (o.trainSteps >= 0 && (o.runs > 0 || !o.expect.empty() || !o.save.empty()))
    die("--train-steps does not combine with --runs, --expect or --save");
  return o;
}

bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool isDirectory(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The symbol prefix a file name suggests: "dir/my-model.so" -> "my_model".
std::string defaultName(const std::string &path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  if (base.size() > 3 && base.compare(base.size() - 3, 3, ".so") == 0)
    base.resize(base.size() - 3);
  for (char &c : base)
    if (!std::isalnum((unsigned char)c) && c != '_')
      c = '_';
  if (base.empty() || std::isdigit((unsigned char)base[0]))
    base.insert(base.begin(), '_');
  return base;
}

std::string shapeString(const int64_t *dims, int32_t rank) {
  std::string s = "[";
  for (int32_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + "]";
}

const char *dtypeName(int32_t dtype) { return onnxc_dtype_name(dtype); }

/// A tensor read from or written to a .pb file: dtype, shape, bytes.
struct HostTensor {
  int32_t dtype = 0;
  std::vector<int64_t> dims;
  std::vector<char> bytes;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  }
};

/// A value of a .pb file: a tensor, a sequence of tensors, or an optional
/// holding one of those.
struct HostValue {
  int32_t kind = ONNXC_VALUE_TENSOR;
  HostTensor tensor;            ///< tensors
  std::vector<HostValue> items; ///< sequences: tensors; optionals: 0 or 1
};

std::string readFile(const std::string &path) {
  // A device or a FIFO would be read without end; protobuf reads at most
  // 2 GB.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    die("cannot read '" + path + "'");
  if (!S_ISREG(st.st_mode))
    die("'" + path + "' is not a regular file");
  if (st.st_size > INT32_MAX)
    die("'" + path + "' is larger than 2 GB, protobuf's limit");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    die("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A TensorProto (raw_data or the typed fields) in host layout. `what`
/// names it in messages ("'dir/input_0.pb'", "'dir/input_0.pb' item 2").
HostTensor parseTensor(const onnx::TensorProto &t, const std::string &what) {
  HostTensor h;
  h.dtype = t.data_type();
  for (int64_t d : t.dims()) {
    if (d < 0)
      die(what + " has a negative dim");
    h.dims.push_back(d);
  }
  if (h.dims.size() > ONNXC_MAX_RANK)
    die(what + " has rank " + std::to_string(h.dims.size()) + ", above " +
        std::to_string(ONNXC_MAX_RANK));
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    die(what + " uses external data, which onnxc-run does not read");
  size_t esize = onnxc_dtype_size(h.dtype);
  if (esize == 0)
    die(what + " has dtype " + dtypeName(h.dtype) +
        ", which compiled models do not support");
  int64_t n = 1;
  for (int64_t d : h.dims) {
    if (d != 0 && n > INT64_MAX / d / (int64_t)esize)
      die(what + " is too large");
    n *= d;
  }
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
    die(what + " has " + std::to_string(held) +
        (t.has_raw_data() ? " bytes of raw data for " + std::to_string(n * per)
         : per == 2       ? " values for " + std::to_string(n) +
                          " complex elements"
                          : " values for " + std::to_string(n) + " elements"));
  h.bytes.resize((size_t)n * esize);
  char *out = h.bytes.data();
  if (t.has_raw_data()) {
    std::memcpy(out, t.raw_data().data(), h.bytes.size());
    return h;
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
  return h;
}

/// Protobuf parses any bytes of a fitting wire format: a file that holds
/// another message shows up as unknown fields.
template <typename Message>
bool parseExactly(Message &m, const std::string &bytes) {
  return m.ParseFromString(bytes) &&
         m.GetReflection()->GetUnknownFields(m).empty();
}

/// A SequenceProto of tensors (only those cross the C API).
HostValue parseSequence(const onnx::SequenceProto &s, const std::string &what) {
  bool tensors = s.elem_type() == onnx::SequenceProto::TENSOR ||
                 (s.elem_type() == onnx::SequenceProto::UNDEFINED &&
                  s.tensor_values_size() == 0);
  if (!tensors || s.sparse_tensor_values_size() || s.sequence_values_size() ||
      s.map_values_size() || s.optional_values_size())
    die(what + " is a sequence of elem_type " + std::to_string(s.elem_type()) +
        ": compiled models take sequences of tensors");
  HostValue v;
  v.kind = ONNXC_VALUE_SEQUENCE;
  for (int i = 0; i < s.tensor_values_size(); ++i) {
    HostValue item;
    item.tensor =
        parseTensor(s.tensor_values(i), what + " item " + std::to_string(i));
    v.items.push_back(std::move(item));
  }
  return v;
}

/// Reads `path` as the kind of value the model has there: a TensorProto, a
/// SequenceProto, or an OptionalProto (whose value is a `payloadKind`).
HostValue readValue(const std::string &path, int32_t kind,
                    int32_t payloadKind) {
  std::string bytes = readFile(path), what = "'" + path + "'";
  if (kind == ONNXC_VALUE_SEQUENCE) {
    onnx::SequenceProto s;
    if (!parseExactly(s, bytes))
      die(what + " is not an ONNX SequenceProto");
    return parseSequence(s, what);
  }
  if (kind == ONNXC_VALUE_OPTIONAL) {
    onnx::OptionalProto o;
    if (!parseExactly(o, bytes))
      die(what + " is not an ONNX OptionalProto");
    HostValue v;
    v.kind = ONNXC_VALUE_OPTIONAL;
    bool seq = payloadKind == ONNXC_VALUE_SEQUENCE;
    if (o.has_tensor_value() && seq)
      die(what + " holds a tensor, the model's optional a sequence");
    if (o.has_sequence_value() && !seq)
      die(what + " holds a sequence, the model's optional a tensor");
    if (o.has_sparse_tensor_value() || o.has_map_value() ||
        o.has_optional_value())
      die(what + " holds a value of elem_type " +
          std::to_string(o.elem_type()) +
          ": compiled models take optional tensors and sequences");
    if (o.has_tensor_value()) {
      HostValue t;
      t.tensor = parseTensor(o.tensor_value(), what);
      v.items.push_back(std::move(t));
    } else if (o.has_sequence_value()) {
      v.items.push_back(parseSequence(o.sequence_value(), what));
    }
    return v;
  }
  onnx::TensorProto t;
  if (!t.ParseFromString(bytes))
    die(what + " is not an ONNX TensorProto");
  HostValue v;
  v.tensor = parseTensor(t, what);
  return v;
}

/// The TensorProto of a model-allocated tensor.
void toTensorProto(const onnxc_tensor &t, onnx::TensorProto &p) {
  p.set_data_type(t.dtype);
  for (int32_t d = 0; d < t.rank; ++d)
    p.add_dims(t.shape[d]);
  size_t bytes = (size_t)onnxc_tensor_numel(&t) * onnxc_dtype_size(t.dtype);
  p.set_raw_data(bytes ? std::string((const char *)t.data, bytes) : "");
}

void toSequenceProto(const onnxc_tensor &t, onnx::SequenceProto &p) {
  p.set_elem_type(onnx::SequenceProto::TENSOR);
  for (int64_t i = 0; i < t.num_items; ++i)
    toTensorProto(t.items[i], *p.add_tensor_values());
}

/// Writes output `t` as the TensorProto, SequenceProto or OptionalProto
/// (absent: elem_type UNDEFINED, as onnx.numpy_helper.from_optional(None)).
void writeValue(const std::string &path, const std::string &name,
                const onnxc_tensor &t) {
  std::string bytes;
  if (t.kind == ONNXC_VALUE_SEQUENCE) {
    onnx::SequenceProto p;
    p.set_name(name);
    toSequenceProto(t, p);
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
  std::ofstream out(path, std::ios::binary);
  if (!out || !out.write(bytes.data(), (std::streamsize)bytes.size()))
    die("cannot write '" + path + "'");
}

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

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// Compares one tensor (`label` names it: "output 0 'y'", "output 0 'y'
/// item 2"); prints what differs. True when it matches.
bool compareTensor(const std::string &label, const onnxc_tensor &got,
                   const HostTensor &exp, const Options &o) {
  // Expected bfloat16 stored as uint16 (ONNX 1.12 test data, see above).
  bool bf16AsU16 =
      got.dtype == ONNXC_DTYPE_BFLOAT16 && exp.dtype == ONNXC_DTYPE_UINT16;
  if (got.dtype != exp.dtype && !bf16AsU16) {
    std::printf("%s: dtype %s, expected %s\n", label.c_str(),
                dtypeName(got.dtype), dtypeName(exp.dtype));
    return false;
  }
  if ((size_t)got.rank != exp.dims.size() ||
      !std::equal(exp.dims.begin(), exp.dims.end(), got.shape)) {
    std::printf("%s: shape %s, expected %s\n", label.c_str(),
                shapeString(got.shape, got.rank).c_str(),
                shapeString(exp.dims.data(), (int32_t)exp.dims.size()).c_str());
    return false;
  }
  const int kShown = 10;
  int64_t n = exp.numel(), bad = 0;
  std::vector<std::string> shown;
  if (!isFloating(got.dtype)) {
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
      std::printf("%s: %lld of %lld elements differ (exact comparison)\n",
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
      std::printf("%s: %lld of %lld values differ (rtol %s, atol %s); max abs "
                  "error %s",
                  label.c_str(), (long long)bad, (long long)values,
                  fmt(o.rtol).c_str(), fmt(o.atol).c_str(),
                  fmt(maxAbs).c_str());
      if (maxAbsAt >= 0)
        std::printf(" at %s", indexString(exp.dims, maxAbsAt, complex).c_str());
      std::printf(", max rel error %s", fmt(maxRel).c_str());
      if (maxRelAt >= 0)
        std::printf(" at %s", indexString(exp.dims, maxRelAt, complex).c_str());
      std::printf("\n");
    }
  }
  for (const std::string &s : shown)
    std::printf("  %s\n", s.c_str());
  if (bad > kShown)
    std::printf("  ... and %lld more\n", (long long)(bad - kShown));
  return bad == 0;
}

/// Compares a tensor, a sequence (its item count, then item by item) or an
/// optional (its presence, then its value); prints what differs.
bool compareValue(const std::string &label, const onnxc_tensor &got,
                  const HostValue &exp, const Options &o) {
  if (got.kind != exp.kind) {
    std::printf("%s: a value of kind %d, expected kind %d\n", label.c_str(),
                (int)got.kind, (int)exp.kind);
    return false;
  }
  if (got.kind == ONNXC_VALUE_TENSOR)
    return compareTensor(label, got, exp.tensor, o);
  if (got.kind == ONNXC_VALUE_OPTIONAL) {
    if (got.num_items != (int64_t)exp.items.size()) {
      std::printf("%s: %s, expected %s\n", label.c_str(),
                  got.num_items ? "a value" : "an empty optional",
                  exp.items.empty() ? "an empty optional" : "a value");
      return false;
    }
    return got.num_items == 0 ||
           compareValue(label, got.items[0], exp.items[0], o);
  }
  if (got.num_items != (int64_t)exp.items.size()) {
    std::printf("%s: %lld items, expected %zu\n", label.c_str(),
                (long long)got.num_items, exp.items.size());
    return false;
  }
  bool ok = true;
  for (int64_t i = 0; i < got.num_items; ++i)
    ok &= compareTensor(label + " item " + std::to_string(i), got.items[i],
                        exp.items[(size_t)i].tensor, o);
  return ok;
}

/// "float[2, 4]"; "sequence of 3 float: [4], [3], [2]"; "optional: ...",
/// "optional: empty".
std::string describeValue(const onnxc_tensor &t) {
  if (t.kind == ONNXC_VALUE_OPTIONAL)
    return t.num_items ? "optional: " + describeValue(t.items[0])
                       : "optional: empty";
  if (t.kind != ONNXC_VALUE_SEQUENCE)
    return std::string(dtypeName(t.dtype)) + shapeString(t.shape, t.rank);
  std::string s =
      "sequence of " + std::to_string(t.num_items) + " " + dtypeName(t.dtype);
  const int64_t kShown = 10;
  for (int64_t i = 0; i < t.num_items && i < kShown; ++i)
    s += (i ? ", " : ": ") + shapeString(t.items[i].shape, t.items[i].rank);
  if (t.num_items > kShown)
    s += ", ...";
  return s;
}

// Threads of this process (Linux: /proc/self/status), -1 if unknown.
long processThreads() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Threads:", 0) == 0)
      return std::strtol(line.c_str() + 8, nullptr, 10);
  return -1;
}

void releaseAll(std::vector<onnxc_tensor> &outs) {
  for (onnxc_tensor &t : outs) {
    onnxc_tensor_release(&t);
    std::memset(&t, 0, sizeof t);
  }
}

} // namespace

/// A "Vm...:" figure of /proc/self/status in KiB, or -1.
long procStatusKB(const char *key) {
  std::FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long kb = -1;
  size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f))
    if (!std::strncmp(line, key, n) && line[n] == ':') {
      kb = std::strtol(line + n + 1, nullptr, 10);
      break;
    }
  std::fclose(f);
  return kb;
}

/// The training API of a library with training info (runtime.h).
struct TrainApi {
  const onnxc_train_info *(*info)() = nullptr;
  onnxc_status (*create)(const onnxc_train_info *, onnxc_train_state **) =
      nullptr;
  void (*destroy)(onnxc_train_state *) = nullptr;
  onnxc_status (*step)(onnxc_train_state *, const onnxc_tensor *, int32_t,
                       onnxc_tensor *, int32_t) = nullptr;
  const onnxc_model_info *(*stepInfo)(const onnxc_train_state *) = nullptr;
  int32_t (*numParams)(const onnxc_train_state *) = nullptr;
  const char *(*paramName)(const onnxc_train_state *, int32_t) = nullptr;
  onnxc_status (*exportParam)(const onnxc_train_state *, const char *, void **,
                              size_t *) = nullptr;
  onnxc_train_state *state = nullptr;
};

TrainApi loadTrainApi(void *lib, const std::string &m,
                      const std::string &library) {
  TrainApi t;
  t.info = (decltype(t.info))::dlsym(lib, (m + "_train_info").c_str());
  if (!t.info)
    die("'" + library + "' does not export " + m +
        "_train_info: the model has no training info (--train-steps needs "
        "a model with a TrainingInfoProto)");
  auto sym = [&](auto &fn, const char *name) {
    fn = (std::remove_reference_t<decltype(fn)>)::dlsym(lib, name);
    if (!fn)
      die("'" + library + "' does not export " + name);
  };
  sym(t.create, "onnxc_train_create");
  sym(t.destroy, "onnxc_train_destroy");
  sym(t.step, "onnxc_train_step");
  sym(t.stepInfo, "onnxc_train_step_info");
  sym(t.numParams, "onnxc_train_num_params");
  sym(t.paramName, "onnxc_train_param_name");
  sym(t.exportParam, "onnxc_train_export_param");
  return t;
}

/// --train-steps N: N steps, each step's outputs printed ("step K: name
/// value" for scalars, the shape otherwise), then --save-params.
int runTraining(const Options &o, TrainApi &train, const onnxc_model_info *mi,
                std::vector<onnxc_tensor> &inputs,
                std::vector<onnxc_tensor> &outputs,
                LastErrorFn lastError) {
  for (long step = 0; step < o.trainSteps; ++step) {
    releaseAll(outputs);
    onnxc_status s = train.step(train.state, inputs.data(), mi->num_inputs,
                                outputs.data(), mi->num_outputs);
    if (s != ONNXC_OK)
      die("train step " + std::to_string(step) + " failed (" +
          onnxc_status_string(s) + "): " +
          (lastError ? lastError() : "(no message)"));
    if (o.quiet)
      continue;
    std::printf("step %ld:", step);
    for (int32_t k = 0; k < mi->num_outputs; ++k) {
      const onnxc_tensor &t = outputs[k];
      std::printf(" %s", mi->outputs[k].name);
      if (t.kind == ONNXC_VALUE_TENSOR && onnxc_tensor_numel(&t) == 1 &&
          (t.dtype == ONNXC_DTYPE_FLOAT || t.dtype == ONNXC_DTYPE_DOUBLE))
        std::printf(" %.9g", t.dtype == ONNXC_DTYPE_FLOAT
                                 ? (double)*(const float *)t.data
                                 : *(const double *)t.data);
      else
        std::printf(" %s", describeValue(t).c_str());
    }
    std::printf("\n");
  }
  releaseAll(outputs);
  if (!o.saveParams.empty()) {
    if (!isDirectory(o.saveParams))
      die("'" + o.saveParams + "' is not a directory");
    for (int32_t i = 0; i < train.numParams(train.state); ++i) {
      const char *name = train.paramName(train.state, i);
      void *data = nullptr;
      size_t size = 0;
      if (train.exportParam(train.state, name, &data, &size) != ONNXC_OK)
        die(std::string("exporting '") + name + "' failed");
      std::string file = o.saveParams + "/" + name + ".pb";
      std::ofstream out(file, std::ios::binary);
      out.write((const char *)data, (std::streamsize)size);
      std::free(data);
      if (!out)
        die("cannot write '" + file + "'");
    }
  }
  train.destroy(train.state);
  std::fflush(stdout);
  return 0;
}

static int runMain(int argc, char **argv) {
  Options o = parseArgs(argc, argv);
  // The process before the model: what --memory subtracts.
  long rssBeforeKB = procStatusKB("VmRSS");
  if (!fileExists(o.library))
    die("cannot read '" + o.library + "'");
  std::string path =
      o.library.find('/') == std::string::npos ? "./" + o.library : o.library;
  void *lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    die(std::string("cannot load '") + o.library + "': " + ::dlerror());
  std::string m = o.name.empty() ? defaultName(o.library) : o.name;
  auto info = (InfoFn)::dlsym(lib, (m + "_info").c_str());
  RunFn run = (RunFn)::dlsym(lib, (m + "_run").c_str());
  // onnxc prefixes a stem that is a reserved word (int, main, onnxc, ...)
  // with '_'; the default name follows it.
  if ((!info || !run) && o.name.empty()) {
    info = (InfoFn)::dlsym(lib, ("_" + m + "_info").c_str());
    run = (RunFn)::dlsym(lib, ("_" + m + "_run").c_str());
    if (info && run)
      m = "_" + m;
  }
  if (!info || !run)
    die("'" + o.library + "' does not export " + m + "_info and " + m + "_run" +
        (o.name.empty() ? " (set the model name with --name)" : ""));
  // The library's own runtime holds the thread's last error message.
  auto lastError = (LastErrorFn)::dlsym(lib, "onnxc_last_error");
  const onnxc_model_info *mi = info();
  if (!mi)
    die(m + "_info() returned null");
  // Training: the step's signature (without the state) replaces the model's.
  TrainApi train;
  if (o.trainSteps >= 0) {
    train = loadTrainApi(lib, m, o.library);
    if (train.create(train.info(), &train.state) != ONNXC_OK)
      die(std::string("creating the training state failed: ") +
          (lastError ? lastError() : "(no message)"));
    mi = train.stepInfo(train.state);
    run = nullptr;
  }
  if (o.threads >= 0) {
    auto setThreads =
        (SetThreadsFn)::dlsym(lib, "onnxc_set_num_threads");
    if (!setThreads)
      die("'" + o.library +
          "' does not export onnxc_set_num_threads (built by an onnxc "
          "without threads): --threads cannot apply");
    if (setThreads((int32_t)o.threads) != ONNXC_OK)
      die("onnxc_set_num_threads(" + std::to_string(o.threads) + ") failed");
  }

  // --profile: the library's profiling API (only --profile libraries
  // define it), started right before the recorded runs.
  ProfileStartFn profileStart = nullptr;
  ProfileStopFn profileStop = nullptr;
  ProfileSummaryFn profileSummary = nullptr;
  if (!o.profile.empty()) {
    profileStart = (ProfileStartFn)::dlsym(lib, "onnxc_profile_start");
    profileStop = (ProfileStopFn)::dlsym(lib, "onnxc_profile_stop");
    profileSummary = (ProfileSummaryFn)::dlsym(lib, "onnxc_profile_summary");
    if (!profileStart || !profileStop || !profileSummary)
      die("'" + o.library +
          "' records no profile: compile the model with onnxc --profile");
  }
  if (!o.debugDump.empty()) {
    auto dumpDir = (DumpDirFn)::dlsym(lib, "onnxc_debug_dump_dir");
    if (!dumpDir)
      die("'" + o.library +
          "' dumps no intermediates: compile the model with onnxc --debug-dump");
    if (dumpDir(o.debugDump.c_str()) != ONNXC_OK)
      die(std::string("--debug-dump: ") +
          (lastError ? lastError() : "(no message)"));
  }
  auto startProfile = [&]() {
    if (profileStart && profileStart(o.profile.c_str()) != ONNXC_OK)
      die(std::string("--profile: ") +
          (lastError ? lastError() : "(no message)"));
  };

  for (const std::string *dir : {&o.inputs, &o.save, &o.expect})
    if (!dir->empty() && !isDirectory(*dir))
      die("'" + *dir + "' is not a directory");
  if (mi->num_inputs > 0 && o.inputs.empty())
    die("the model has " + std::to_string(mi->num_inputs) +
        " input(s): pass --inputs DIR");

  // Inputs, in graph-input order.
  std::vector<HostValue> hostInputs;
  for (int32_t i = 0; i < mi->num_inputs; ++i) {
    std::string file = o.inputs + "/input_" + std::to_string(i) + ".pb";
    hostInputs.push_back(
        readValue(file, mi->inputs[i].kind, mi->inputs[i].payload_kind));
  }
  if (!o.inputs.empty() &&
      fileExists(o.inputs + "/input_" + std::to_string(mi->num_inputs) + ".pb"))
    die("'" + o.inputs + "' has input_" + std::to_string(mi->num_inputs) +
        ".pb but the model has " + std::to_string(mi->num_inputs) +
        " input(s)");
  // The onnxc_tensors point into hostInputs and into these item arrays.
  std::vector<std::vector<onnxc_tensor>> itemArrays;
  itemArrays.reserve(2 * (size_t)mi->num_inputs);
  auto checkTensor = [&](HostTensor &h, const onnxc_value_info &vi,
                         const std::string &label) {
    // ONNX 1.12's test data stores bfloat16 tensors as uint16 (numpy has no
    // bfloat16): the bits are the same, so they are taken as bfloat16.
    if (h.dtype == ONNXC_DTYPE_UINT16 && vi.dtype == ONNXC_DTYPE_BFLOAT16)
      h.dtype = ONNXC_DTYPE_BFLOAT16;
    if (h.dtype != vi.dtype)
      die(label + ": dtype " + dtypeName(h.dtype) + ", the model expects " +
          dtypeName(vi.dtype));
    // Rank -1: the items of a sequence of no declared rank, each of its
    // own.
    if (vi.rank >= 0 && (int32_t)h.dims.size() != vi.rank)
      die(label + ": rank " + std::to_string(h.dims.size()) +
          ", the model expects " + std::to_string(vi.rank));
    onnxc_tensor t;
    std::memset(&t, 0, sizeof t);
    t.data = h.bytes.data();
    t.dtype = h.dtype;
    t.rank = (int32_t)h.dims.size();
    std::copy(h.dims.begin(), h.dims.end(), t.shape);
    return t;
  };
  // Values nest at most two deep: an optional of a sequence of tensors.
  auto makeSequence = [&](HostValue &h, const onnxc_value_info &vi,
                          const std::string &label) {
    std::vector<onnxc_tensor> items;
    for (size_t j = 0; j < h.items.size(); ++j)
      items.push_back(checkTensor(h.items[j].tensor, vi,
                                  label + " item " + std::to_string(j)));
    itemArrays.push_back(std::move(items));
    return onnxc_make_sequence(itemArrays.back().data(),
                               (int64_t)itemArrays.back().size());
  };
  std::vector<onnxc_tensor> inputs((size_t)mi->num_inputs);
  for (int32_t i = 0; i < mi->num_inputs; ++i) {
    const onnxc_value_info &vi = mi->inputs[i];
    HostValue &h = hostInputs[i];
    std::string label =
        "input_" + std::to_string(i) + ".pb (input '" + vi.name + "')";
    if (vi.kind == ONNXC_VALUE_TENSOR) {
      inputs[i] = checkTensor(h.tensor, vi, label);
    } else if (vi.kind == ONNXC_VALUE_SEQUENCE) {
      inputs[i] = makeSequence(h, vi, label);
    } else if (h.items.empty()) {
      inputs[i] = onnxc_make_optional(nullptr);
    } else {
      onnxc_tensor value = vi.payload_kind == ONNXC_VALUE_SEQUENCE
                               ? makeSequence(h.items[0], vi, label)
                               : checkTensor(h.items[0].tensor, vi, label);
      itemArrays.push_back({value});
      inputs[i] = onnxc_make_optional(itemArrays.back().data());
    }
  }

  std::vector<onnxc_tensor> outputs((size_t)mi->num_outputs);
  if (o.trainSteps >= 0)
    return runTraining(o, train, mi, inputs, outputs, lastError);
  auto runOnce = [&]() {
    releaseAll(outputs);
    onnxc_status s =
        run(inputs.data(), mi->num_inputs, outputs.data(), mi->num_outputs);
    if (s != ONNXC_OK)
      die(m + "_run failed (" + onnxc_status_string(s) +
          "): " + (lastError ? lastError() : "(no message)"));
  };

  if (o.runs > 0) {
    for (long i = 0; i < o.warmup; ++i)
      runOnce();
    startProfile();
    std::vector<double> ms;
    for (long i = 0; i < o.runs; ++i) {
      auto start = std::chrono::steady_clock::now();
      runOnce();
      auto end = std::chrono::steady_clock::now();
      ms.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(ms.begin(), ms.end());
    double median = ms.size() % 2
                        ? ms[ms.size() / 2]
                        : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    std::printf("%s: %ld runs (%ld warm-up): median %.3f ms, min %.3f ms\n",
                m.c_str(), o.runs, o.warmup, median, ms.front());
  } else {
    startProfile();
    runOnce();
  }
  if (profileStop) {
    if (profileStop() != ONNXC_OK)
      die(std::string("--profile: ") +
          (lastError ? lastError() : "(no message)"));
    std::vector<onnxc_profile_entry> nodes((size_t)profileSummary(nullptr, 0));
    nodes.resize((size_t)profileSummary(nodes.data(), (int32_t)nodes.size()));
    // Loops include their bodies' nodes: the totals overlap.
    std::printf("profile: %zu nodes and loop bodies, written to %s; top by "
                "total time:\n  total ms   ms/call     calls  node\n",
                nodes.size(), o.profile.c_str());
    for (size_t i = 0; i < nodes.size() && i < 10; ++i)
      std::printf("  %8.3f %9.4f %9lld  %s (%s)%s\n", nodes[i].total_ns / 1e6,
                  nodes[i].calls ? nodes[i].total_ns / 1e6 / nodes[i].calls : 0.0,
                  (long long)nodes[i].calls,
                  escapeControls(nodes[i].name).c_str(),
                  escapeControls(nodes[i].op).c_str(),
                  nodes[i].iteration ? " iterations" : "");
  }

  if (o.memory)
    std::printf("memory: %ld KB before loading the model, peak %ld KB\n",
                rssBeforeKB, procStatusKB("VmHWM"));

  if (o.threads >= 0) {
    // Whether the model did use them: the pool's workers stay after a run.
    auto getThreads = (GetThreadsFn)::dlsym(lib, "onnxc_get_num_threads");
    std::printf("threads: %d (%ld in the process after the runs)\n",
                getThreads ? (int)getThreads() : -1, processThreads());
  }
  for (int32_t k = 0; k < mi->num_outputs; ++k)
    std::printf("output %d '%s': %s\n", k, mi->outputs[k].name,
                describeValue(outputs[k]).c_str());

  if (!o.save.empty())
    for (int32_t k = 0; k < mi->num_outputs; ++k)
      writeValue(o.save + "/output_" + std::to_string(k) + ".pb",
                 mi->outputs[k].name, outputs[k]);

  int status = 0;
  if (!o.expect.empty()) {
    std::vector<HostValue> expected;
    for (int32_t k = 0; k < mi->num_outputs; ++k)
      expected.push_back(
          readValue(o.expect + "/output_" + std::to_string(k) + ".pb",
                    mi->outputs[k].kind, mi->outputs[k].payload_kind));
    if (fileExists(o.expect + "/output_" + std::to_string(mi->num_outputs) +
                   ".pb"))
      die("'" + o.expect + "' has output_" + std::to_string(mi->num_outputs) +
          ".pb but the model has " + std::to_string(mi->num_outputs) +
          " output(s)");
    int mismatched = 0;
    for (int32_t k = 0; k < mi->num_outputs; ++k)
      if (!compareValue("output " + std::to_string(k) + " '" +
                            mi->outputs[k].name + "'",
                        outputs[k], expected[k], o))
        ++mismatched;
    if (mismatched) {
      std::printf("FAILED: %d of %d outputs differ\n", mismatched,
                  mi->num_outputs);
      status = 1;
    } else {
      std::printf("OK: %d outputs match\n", mi->num_outputs);
    }
  }
  releaseAll(outputs);
  std::fflush(stdout);
  return status;
}

int main(int argc, char **argv) {
  // Inputs are checked before anything is sized from them; this is the
  // last line of defense (one error line, not an abort).
  try {
    return runMain(argc, argv);
  } catch (const std::bad_alloc &) {
    die("out of memory");
  }
}

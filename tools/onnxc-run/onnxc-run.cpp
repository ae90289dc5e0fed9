//===- onnxc-run.cpp - Run a compiled model on .pb tensors ----------------===//
//
//   onnxc-run LIB.so [--inputs DIR] [--save DIR] [--expect DIR]
//             [--rtol R] [--atol A] [--runs N] [--warmup N] [--name M]
//             [--threads N] [--profile FILE] [--debug-dump DIR]
//
// Loads a model library (dlopen), reads DIR/input_<i>.pb in graph-input
// order (an ONNX TensorProto, or a SequenceProto or OptionalProto where the
// model takes a sequence or an optional; a tensor may be DIR/input_<i>.npy
// instead), runs M_run, optionally saves
// output_<k>.pb and compares with the expected output_<k>.pb with
// numpy.allclose semantics (|got - expected| <= atol + rtol * |expected|,
// NaN equals NaN, integers and bools exact; sequences item by item, after
// their item counts; optionals after their presence). Exit codes: 0 ok, 1
// an output differs, 2 a usage, I/O or run error (one line on stderr).
// --threads sets the library's thread count (onnxc_set_num_threads)
// before the first run. --runs also prints the median CPU time (user +
// system, every thread) of the timed runs, "cpu: median X ms a run"
// (bench/cputime reads it). --profile (a library compiled with onnxc
// --profile) records the runs (after the warm-up ones) into a Chrome trace
// and prints the nodes that took the most time; --debug-dump (a library
// compiled with onnxc --debug-dump) writes every node's outputs into DIR
// (docs/profiling.md).
//
//===----------------------------------------------------------------------===//

#include "lib/TensorIO/TensorIO.h"
#include "onnxc/runtime.h"
#include "onnxc/runtime_abi.h"

#include <algorithm>
#include <chrono>
#include <ctime>
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

namespace tensorio = onnxc::tensorio;
using tensorio::describeValue;
using tensorio::HostTensor;
using tensorio::HostValue;

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
    "                model takes sequences, optionals); input_N.npy where\n"
    "                there is no input_N.pb and the input is a tensor\n"
    "  --save DIR    write output_0.pb, ... there\n"
    "  --expect DIR  compare with output_0.pb (or .npy), ... there (exit 1 on\n"
    "                mismatch)\n"
    "  --rtol R, --atol A  tolerances: |got - exp| <= atol + rtol * |exp|\n"
    "                (defaults 1e-3 and 1e-7, as ONNX's backend tests)\n"
    "  --runs N, --warmup N  time N runs after N warm-up runs (wall median\n"
    "                        and min, and the median CPU time)\n"
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

/// Reads input_<i> / output_<k>: `stem`.pb as the kind of value the model
/// has there, or, when only `stem`.npy exists and the value is a tensor,
/// that .npy file.
// The file that holds value `stem` (stem.pb, else stem.npy for a tensor).
std::string valueFile(const std::string &stem, int32_t kind) {
  if (kind == ONNXC_VALUE_TENSOR && !fileExists(stem + ".pb") &&
      fileExists(stem + ".npy"))
    return stem + ".npy";
  return stem + ".pb";
}

HostValue readValueOrDie(const std::string &stem, int32_t kind,
                         int32_t payloadKind) {
  std::string error;
  HostValue v;
  if (valueFile(stem, kind) == stem + ".npy") {
    if (!tensorio::readNpy(stem + ".npy", v.tensor, error))
      die(error);
    return v;
  }
  if (!tensorio::readValue(stem + ".pb", kind, payloadKind, v, error))
    die(error);
  return v;
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

/// Releases the model's outputs: the library's own onnxc_tensor_release
/// when it exports one (set once the library is loaded), so that a large
/// output goes back into the cache of the runtime that allocated it, as in
/// a program linked with the library; this tool's own copy of the runtime
/// would hand it to libc, and the next run would fault its pages in again.
void (*releaseTensor)(onnxc_tensor *) = onnxc_tensor_release;

void releaseAll(std::vector<onnxc_tensor> &outs) {
  for (onnxc_tensor &t : outs) {
    releaseTensor(&t);
    std::memset(&t, 0, sizeof t);
  }
}

/// CPU time (user + system, every thread) this process has used, in ms.
double processCpuMs() {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/// The median of `v` (sorted in place).
double medianOf(std::vector<double> &v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

/// The C API's view of the inputs read from files (`hostInputs`, in
/// graph-input order, read from `files`), checked against the model's dtypes
/// and ranks; the sequences' and optionals' item arrays go to `itemArrays`.
std::vector<onnxc_tensor>
makeInputs(const onnxc_model_info *mi, std::vector<HostValue> &hostInputs,
           const std::vector<std::string> &files,
           std::vector<std::vector<onnxc_tensor>> &itemArrays) {
  itemArrays.reserve(2 * (size_t)mi->num_inputs);
  // (Item arrays keep their addresses when itemArrays grows: moved, not
  // copied.)
  auto checkTensor = [&](HostTensor &h, const onnxc_value_info &vi,
                         const std::string &label) {
    // ONNX 1.12's test data stores bfloat16 tensors as uint16 (numpy has no
    // bfloat16): the bits are the same, so they are taken as bfloat16.
    if (h.dtype == ONNXC_DTYPE_UINT16 && vi.dtype == ONNXC_DTYPE_BFLOAT16)
      h.dtype = ONNXC_DTYPE_BFLOAT16;
    if (h.dtype != vi.dtype)
      die(label + ": dtype " + onnxc_dtype_name(h.dtype) + ", the model expects " +
          onnxc_dtype_name(vi.dtype));
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
  // Maps: their keys and values as read (the runtime checks them).
  auto makeMap = [&](const HostValue &h) {
    itemArrays.push_back(std::vector<onnxc_tensor>(2));
    onnxc_tensor k = h.items[0].tensor.view(), v = h.items[1].tensor.view();
    return onnxc_make_map(itemArrays.back().data(), &k, &v);
  };
  std::vector<onnxc_tensor> inputs((size_t)mi->num_inputs);
  for (int32_t i = 0; i < mi->num_inputs; ++i) {
    const onnxc_value_info &vi = mi->inputs[i];
    HostValue &h = hostInputs[i];
    std::string file = files[(size_t)i];
    std::string label = file.substr(file.rfind('/') + 1) + " (input '" +
                        std::string(vi.name) + "')";
    if (vi.kind == ONNXC_VALUE_MAP) {
      inputs[i] = makeMap(h);
    } else if (vi.kind == ONNXC_VALUE_SEQUENCE &&
               vi.payload_kind == ONNXC_VALUE_MAP) {
      std::vector<onnxc_tensor> maps;
      for (const HostValue &m : h.items)
        maps.push_back(makeMap(m));
      itemArrays.push_back(std::move(maps));
      inputs[i] = onnxc_make_sequence(itemArrays.back().data(),
                                      (int64_t)itemArrays.back().size());
      inputs[i].dtype = vi.dtype;
    } else if (vi.kind == ONNXC_VALUE_TENSOR) {
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
  return inputs;
}

/// --expect DIR: every output compared with DIR/output_<k>.pb (or .npy);
/// 1 when one differs.
int compareOutputs(const Options &o, const onnxc_model_info *mi,
                   const std::vector<onnxc_tensor> &outputs) {
  std::vector<HostValue> expected;
  for (int32_t k = 0; k < mi->num_outputs; ++k)
    expected.push_back(
        readValueOrDie(o.expect + "/output_" + std::to_string(k),
                       mi->outputs[k].kind, mi->outputs[k].payload_kind));
  if (fileExists(o.expect + "/output_" + std::to_string(mi->num_outputs) +
                 ".pb"))
    die("'" + o.expect + "' has output_" + std::to_string(mi->num_outputs) +
        ".pb but the model has " + std::to_string(mi->num_outputs) +
        " output(s)");
  int mismatched = 0;
  for (int32_t k = 0; k < mi->num_outputs; ++k)
    if (!tensorio::compareValue(
            stdout, "output " + std::to_string(k) + " '" +
                        mi->outputs[k].name + "'",
            outputs[k], expected[k], tensorio::Tolerance{o.rtol, o.atol}))
      ++mismatched;
  if (mismatched) {
    std::printf("FAILED: %d of %d outputs differ\n", mismatched,
                mi->num_outputs);
    return 1;
  }
  std::printf("OK: %d outputs match\n", mi->num_outputs);
  return 0;
}

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
  // The layout of M_info's structs (runtime_abi.h): libraries before
  // version 2 export no onnxc_abi_version.
  auto abiVersion = (int32_t(*)())::dlsym(lib, "onnxc_abi_version");
  int32_t abi = abiVersion ? abiVersion() : 1;
  if (abi != ONNXC_ABI_VERSION)
    die("'" + o.library + "' was built for runtime ABI version " +
        std::to_string(abi) + ", this onnxc-run reads version " +
        std::to_string(ONNXC_ABI_VERSION) + ": compile the model again");
  // The library's own runtime holds the thread's last error message.
  auto lastError = (LastErrorFn)::dlsym(lib, "onnxc_last_error");
  if (auto release =
          (void (*)(onnxc_tensor *))::dlsym(lib, "onnxc_tensor_release"))
    releaseTensor = release;
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
  std::vector<std::string> inputFiles;
  for (int32_t i = 0; i < mi->num_inputs; ++i) {
    std::string stem = o.inputs + "/input_" + std::to_string(i);
    inputFiles.push_back(valueFile(stem, mi->inputs[i].kind));
    hostInputs.push_back(readValueOrDie(stem, mi->inputs[i].kind,
                                        mi->inputs[i].payload_kind));
  }
  for (const char *ext : {".pb", ".npy"})
    if (!o.inputs.empty() &&
        fileExists(o.inputs + "/input_" + std::to_string(mi->num_inputs) + ext))
      die("'" + o.inputs + "' has input_" + std::to_string(mi->num_inputs) +
          ext + " but the model has " + std::to_string(mi->num_inputs) +
          " input(s)");
  // The onnxc_tensors point into hostInputs and into these item arrays.
  std::vector<std::vector<onnxc_tensor>> itemArrays;
  std::vector<onnxc_tensor> inputs = makeInputs(mi, hostInputs, inputFiles, itemArrays);

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
    std::vector<double> ms, cpu;
    for (long i = 0; i < o.runs; ++i) {
      double cpu0 = processCpuMs();
      auto start = std::chrono::steady_clock::now();
      runOnce();
      auto end = std::chrono::steady_clock::now();
      cpu.push_back(processCpuMs() - cpu0);
      ms.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
    double median = medianOf(ms);
    std::printf("%s: %ld runs (%ld warm-up): median %.3f ms, min %.3f ms\n",
                m.c_str(), o.runs, o.warmup, median, ms.front());
    std::printf("cpu: median %.3f ms a run\n", medianOf(cpu));
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
      if (std::string error;
          !tensorio::writeValue(o.save + "/output_" + std::to_string(k) + ".pb",
                                mi->outputs[k].name, outputs[k], error))
        die(error);

  int status = o.expect.empty() ? 0 : compareOutputs(o, mi, outputs);
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

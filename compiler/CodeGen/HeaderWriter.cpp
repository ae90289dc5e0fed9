//===- HeaderWriter.cpp - The generated model header M.h ------------------===//
//
// See HeaderWriter.h for what the header contains. Everything the header
// declares carries the model's prefix M (or sits in the runtime section,
// which has its own include guard), so headers of different models coexist.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/HeaderWriter.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::codegen;

namespace {
// runtime/include/onnxc/runtime.h, embedded by compiler/CodeGen/CMakeLists.txt.
const char kRuntimeHeader[] =
#include "compiler/CodeGen/RuntimeHeader.inc"
    ;

const char *dtypeConstant(int32_t dtype) {
  switch (dtype) {
  case 1:
    return "ONNXC_DTYPE_FLOAT";
  case 2:
    return "ONNXC_DTYPE_UINT8";
  case 3:
    return "ONNXC_DTYPE_INT8";
  case 4:
    return "ONNXC_DTYPE_UINT16";
  case 5:
    return "ONNXC_DTYPE_INT16";
  case 6:
    return "ONNXC_DTYPE_INT32";
  case 7:
    return "ONNXC_DTYPE_INT64";
  case 8:
    return "ONNXC_DTYPE_STRING";
  case 9:
    return "ONNXC_DTYPE_BOOL";
  case 10:
    return "ONNXC_DTYPE_FLOAT16";
  case 11:
    return "ONNXC_DTYPE_DOUBLE";
  case 12:
    return "ONNXC_DTYPE_UINT32";
  case 13:
    return "ONNXC_DTYPE_UINT64";
  case 14:
    return "ONNXC_DTYPE_COMPLEX64";
  case 15:
    return "ONNXC_DTYPE_COMPLEX128";
  case 16:
    return "ONNXC_DTYPE_BFLOAT16";
  case 17:
    return "ONNXC_DTYPE_FLOAT8E4M3FN";
  case 18:
    return "ONNXC_DTYPE_FLOAT8E4M3FNUZ";
  case 19:
    return "ONNXC_DTYPE_FLOAT8E5M2";
  case 20:
    return "ONNXC_DTYPE_FLOAT8E5M2FNUZ";
  case 21:
    return "ONNXC_DTYPE_UINT4";
  case 22:
    return "ONNXC_DTYPE_INT4";
  case 23:
    return "ONNXC_DTYPE_FLOAT4E2M1";
  default:
    return "ONNXC_DTYPE_UNDEFINED";
  }
}

/// `s` as a C string literal: printable ASCII as is, everything else (and
/// '?', which could start a trigraph) escaped.
std::string cString(llvm::StringRef s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += (char)c;
    } else if (c == '?') {
      out += "\\?";
    } else if (c >= 0x20 && c < 0x7f) {
      out += (char)c;
    } else {
      char buf[8];
      snprintf(buf, sizeof buf, "\\%03o", (unsigned)c);
      out += buf;
    }
  }
  return out + "\"";
}

/// `s` safe inside a /* */ comment: no "*/", no control characters, no
/// trigraphs or line splices.
std::string commentText(llvm::StringRef s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c < 0x20 || c == 0x7f || c == '\\')
      out += '.';
    else if (c == '/' && !out.empty() && out.back() == '*')
      out += " /";
    else if (c == '?' && !out.empty() && out.back() == '?')
      out += " ?";
    else
      out += (char)c;
  }
  return out;
}

/// "float[N, 4]" with the ONNX symbol names; "?" for data-dependent dims.
/// Sequences and optionals: "sequence<float[N]>", "optional<int64[3]>",
/// "optional<sequence<float[?]>>" (their dims are per item, not symbols).
std::string describe(const ModelSignature &sig, const ValueSignature &v) {
  if (v.isMapValue()) {
    // "map<string, float>", "sequence<map<int64, float>>".
    std::string m = "map<" + proto::getDataTypeName(v.keyDtype) + ", " +
                    proto::getDataTypeName(v.dtype) + ">";
    return commentText(v.kind == ValueKind::Sequence ? "sequence<" + m + ">"
                                                     : m);
  }
  std::string s = proto::getDataTypeName(v.dtype);
  s += v.ranked ? "[" : "[*"; // items of any rank, each its own
  for (size_t d = 0; d < v.dims.size(); ++d) {
    if (d)
      s += ", ";
    if (v.dims[d] >= 0)
      s += std::to_string(v.dims[d]);
    else if (v.symbols[d] >= 0)
      s += sig.symbolNames[v.symbols[d]];
    else if (!v.isTensor() && !v.dimNames[d].empty())
      s += v.dimNames[d];
    else
      s += '?';
  }
  s += ']';
  if (v.contentKind() == ValueKind::Sequence)
    s = "sequence<" + s + ">";
  if (v.kind == ValueKind::Optional)
    s = "optional<" + s + ">";
  return commentText(s);
}

/// True when the caller can size the output before the run: a tensor whose
/// every dim is static or a symbol of the inputs.
bool isCallerSized(const ModelSignature &sig, const ValueSignature &v) {
  // Strings are always allocated by the model (docs/codegen.md).
  if (!v.isTensor() || v.dtype == 8)
    return false;
  for (size_t d = 0; d < v.dims.size(); ++d)
    if (v.dims[d] < 0 &&
        (v.symbols[d] < 0 || !sig.symbolFromInput[v.symbols[d]]))
      return false;
  return true;
}

const char *kindConstant(ValueKind kind) {
  switch (kind) {
  case ValueKind::Tensor:
    return "ONNXC_VALUE_TENSOR";
  case ValueKind::Sequence:
    return "ONNXC_VALUE_SEQUENCE";
  case ValueKind::Optional:
    return "ONNXC_VALUE_OPTIONAL";
  case ValueKind::Map:
    return "ONNXC_VALUE_MAP";
  }
  return "ONNXC_VALUE_TENSOR";
}

/// The element count of a caller-sized value as a C expression ("N * 3").
std::string numelExpr(const ModelSignature &sig, const ValueSignature &v) {
  int64_t constant = 1;
  bool overflow = false;
  std::vector<std::string> factors;
  for (size_t d = 0; d < v.dims.size(); ++d) {
    if (v.dims[d] >= 0) {
      int64_t r;
      overflow |= llvm::MulOverflow(constant, v.dims[d], r);
      constant = r;
    } else {
      factors.push_back(sig.symbolCNames[v.symbols[d]]);
    }
  }
  if (overflow)
    return "(too many)";
  if (constant != 1 || factors.empty())
    factors.push_back(std::to_string(constant));
  return llvm::join(factors, " * ");
}

/// "N * 4 elements", and for the packed 4-bit types how they are stored.
std::string elementsText(const ModelSignature &sig, const ValueSignature &v) {
  std::string s = numelExpr(sig, v) + " elements";
  if (v.dtype >= 21 && v.dtype <= 23)
    s += " packed two per byte (low nibble first)";
  return s;
}

/// A parameter of M_run_typed: its declaration and its doc line.
struct Param {
  std::string decl, name, doc;
};

std::vector<Param> typedParams(const ModelSignature &sig) {
  std::vector<Param> params;
  for (size_t s = 0; s < sig.symbolNames.size(); ++s)
    if (sig.symbolFromInput[s])
      params.push_back(
          {"int64_t " + sig.symbolCNames[s], sig.symbolCNames[s],
           "the symbolic dim '" + commentText(sig.symbolNames[s]) + "'"});
  for (const ValueSignature &v : sig.inputs) {
    if (v.isMapValue())
      params.push_back({"const onnxc_tensor *" + v.cName, v.cName,
                        "input '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            (v.kind == ValueKind::Map
                                 ? ": a map (onnxc_make_map), read only "
                                   "(NULL: refused)"
                                 : ": a sequence of maps (onnxc_make_sequence "
                                   "of onnxc_make_map), read only (NULL: no "
                                   "maps)")});
    else if (v.kind == ValueKind::Sequence)
      params.push_back({"const onnxc_tensor *" + v.cName, v.cName,
                        "input '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            ": a sequence (onnxc_make_sequence), read only "
                            "(NULL: no items)"});
    else if (v.kind == ValueKind::Optional)
      params.push_back({"const onnxc_tensor *" + v.cName, v.cName,
                        "input '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            ": an optional (onnxc_make_optional), read only "
                            "(NULL: absent)"});
    else if (v.dtype == 8)
      params.push_back(
          {"const char *const *" + v.cName, v.cName,
           "input '" + commentText(v.onnxName) + "', " + describe(sig, v) +
               ": " + numelExpr(sig, v) +
               " pointers to NUL-terminated UTF-8 strings, read only"});
    else
      params.push_back(
          {"const " + getCElementType(v.dtype).str() + " *" + v.cName, v.cName,
           "input '" + commentText(v.onnxName) + "', " + describe(sig, v) +
               ": " + elementsText(sig, v) + ", read only"});
  }
  for (const ValueSignature &v : sig.outputs) {
    if (!v.isTensor())
      params.push_back({"onnxc_tensor *" + v.cName, v.cName,
                        "output '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            ": allocated by the model; release with "
                            "onnxc_tensor_release (NULL: discarded)"});
    else if (v.dtype == 8)
      params.push_back({"onnxc_tensor *" + v.cName, v.cName,
                        "output '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            ": strings allocated by the model (data: const "
                            "char *[numel]); release with "
                            "onnxc_tensor_release (NULL: discarded)"});
    else if (isCallerSized(sig, v))
      params.push_back({getCElementType(v.dtype).str() + " *" + v.cName,
                        v.cName,
                        "output '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) + ": " + numelExpr(sig, v) +
                            " elements, written (NULL: computed and "
                            "discarded)"});
    else
      params.push_back({"onnxc_tensor *" + v.cName, v.cName,
                        "output '" + commentText(v.onnxName) + "', " +
                            describe(sig, v) +
                            ": data-dependent shape, allocated by the model; "
                            "release with onnxc_tensor_release (NULL: "
                            "discarded)"});
  }
  return params;
}

void writeValueMacros(llvm::raw_ostream &os, const ModelSignature &sig,
                      const ValueSignature &v, const char *kind, size_t index) {
  std::string p = sig.name + "_" + v.cName + "_";
  os << "/* " << kind << " " << index << ": '" << commentText(v.onnxName)
     << "', " << describe(sig, v) << " */\n";
  os << "#define " << p << "NAME " << cString(v.onnxName) << "\n";
  os << "#define " << p << "INDEX " << index << "\n";
  os << "#define " << p << "KIND " << kindConstant(v.kind) << "\n";
  if (v.kind == ValueKind::Optional || v.payloadKind == ValueKind::Map)
    os << "#define " << p << "PAYLOAD_KIND " << kindConstant(v.payloadKind)
       << "\n";
  if (v.isMapValue())
    os << "#define " << p << "KEY_DTYPE " << dtypeConstant(v.keyDtype)
       << "\n";
  os << "#define " << p << "DTYPE " << dtypeConstant(v.dtype) << "\n";
  os << "#define " << p << "RANK "
     << (v.ranked ? std::to_string(v.rank()) : std::string("(-1)")) << "\n";
  bool allStatic = v.isTensor();
  for (size_t d = 0; d < v.dims.size(); ++d) {
    if (v.dims[d] >= 0)
      os << "#define " << p << "DIM" << d << " " << v.dims[d] << "\n";
    else
      allStatic = false;
  }
  if (allStatic) {
    std::string n = numelExpr(sig, v);
    if (n != "(too many)")
      os << "#define " << p << "NUMEL " << n << "\n";
  }
  os << "\n";
}

/// How a typed wrapper is named and what it calls: M_run_typed calls
/// M_run; the training wrappers take the state first and call the
/// runtime's onnxc_train_step / onnxc_train_infer.
struct TypedRun {
  std::string fn;      ///< the wrapper's name
  std::string m;       ///< the model's prefix (its helper M_set_tensor_)
  std::string leading; ///< a first parameter ("" for none)
  std::string call;    ///< the call up to its first argument
  bool emitHelper = true;
};

void writeTypedRun(llvm::raw_ostream &os, const ModelSignature &sig,
                   const TypedRun &run) {
  const std::string &m = run.m;
  size_t numIn = sig.inputs.size(), numOut = sig.outputs.size();
  std::vector<Param> params = typedParams(sig);

  // The helper that fills one onnxc_tensor. `data` is not a const pointer:
  // g++ warns (-Wmaybe-uninitialized) when the not yet written buffer of an
  // output is passed as one to a function it does not inline; inputs cast
  // their constness away at the call.
  if (run.emitHelper) {
    os << "/* Fills one onnxc_tensor of " << m << "_run_typed. */\n"
       << "static inline void " << m
       << "_set_tensor_(onnxc_tensor *t, void *data, int32_t dtype,\n"
       << "    int32_t rank, const int64_t *shape) {\n"
       << "  int32_t d;\n"
       << "  t->data = data;\n"
       << "  t->rank = rank;\n"
       << "  t->dtype = dtype;\n"
       << "  t->owner = 0;\n"
       << "  t->kind = ONNXC_VALUE_TENSOR;\n"
       << "  t->num_items = 0;\n"
       << "  t->items = 0;\n"
       << "  for (d = 0; d < ONNXC_MAX_RANK; ++d)\n"
       << "    t->shape[d] = d < rank ? shape[d] : 0;\n"
       << "}\n\n";
  }

  os << "/*\n * Runs the model on typed buffers (row-major, dense):\n";
  for (const Param &p : params)
    os << " *   " << p.name << ": " << p.doc << "\n";
  os << " * Returns ONNXC_OK, or an error status and onnxc_last_error() says "
        "why.\n */\n";
  os << "static inline onnxc_status " << run.fn << "(";
  if (params.empty() && run.leading.empty())
    os << "void";
  os << run.leading;
  for (size_t i = 0; i < params.size(); ++i)
    os << (i || !run.leading.empty() ? ",\n    " : "") << params[i].decl;
  os << ") {\n";
  os << "  onnxc_tensor onnxc_in_[" << std::max<size_t>(numIn, 1) << "];\n";
  os << "  onnxc_tensor onnxc_out_[" << std::max<size_t>(numOut, 1) << "];\n";
  os << "  onnxc_status onnxc_status_;\n";

  auto shapeArgs = [&](const ValueSignature &v) {
    std::vector<std::string> dims;
    for (size_t d = 0; d < v.dims.size(); ++d)
      dims.push_back(v.dims[d] >= 0 ? std::to_string(v.dims[d])
                                    : sig.symbolCNames[v.symbols[d]]);
    return dims;
  };
  auto setTensor = [&](const char *array, size_t i, const ValueSignature &v,
                       const std::string &data) {
    std::vector<std::string> dims = shapeArgs(v);
    if (dims.empty()) {
      os << "  " << m << "_set_tensor_(&" << array << "[" << i << "], " << data
         << ", " << dtypeConstant(v.dtype) << ", 0, 0);\n";
      return;
    }
    os << "  {\n    const int64_t onnxc_shape_[" << dims.size() << "] = {"
       << llvm::join(dims, ", ") << "};\n";
    os << "    " << m << "_set_tensor_(&" << array << "[" << i << "], " << data
       << ", " << dtypeConstant(v.dtype) << ", " << dims.size()
       << ", onnxc_shape_);\n  }\n";
  };
  for (size_t i = 0; i < numIn; ++i) {
    const ValueSignature &v = sig.inputs[i];
    if (v.isTensor()) {
      setTensor("onnxc_in_", i, v, "(void *)(uintptr_t)" + v.cName);
      continue;
    }
    os << "  if (" << v.cName << ")\n    onnxc_in_[" << i << "] = *" << v.cName
       << ";\n  else\n    onnxc_in_[" << i << "] = "
       << (v.kind == ValueKind::Sequence ? "onnxc_make_sequence(0, 0)"
                                         : "onnxc_make_optional(0)")
       << ";\n";
    if (v.kind == ValueKind::Map) // refused by the run: a map has 2 items
      os << "  if (!" << v.cName << ")\n    onnxc_in_[" << i
         << "].kind = ONNXC_VALUE_MAP;\n";
  }
  // Arrays are never empty; their unused element is initialized too.
  if (numIn == 0)
    os << "  " << m
       << "_set_tensor_(&onnxc_in_[0], 0, ONNXC_DTYPE_UNDEFINED, 0, 0);\n";
  if (numOut == 0)
    os << "  " << m
       << "_set_tensor_(&onnxc_out_[0], 0, ONNXC_DTYPE_UNDEFINED, 0, 0);\n";
  for (size_t k = 0; k < numOut; ++k) {
    const ValueSignature &v = sig.outputs[k];
    if (isCallerSized(sig, v))
      setTensor("onnxc_out_", k, v, v.cName);
    else
      os << "  " << m << "_set_tensor_(&onnxc_out_[" << k << "], 0, "
         << dtypeConstant(v.dtype) << ", 0, 0);\n";
  }
  os << "  onnxc_status_ = " << run.call << "onnxc_in_, " << numIn
     << ", onnxc_out_, " << numOut << ");\n";
  for (size_t k = 0; k < numOut; ++k) {
    const ValueSignature &v = sig.outputs[k];
    if (isCallerSized(sig, v)) {
      os << "  onnxc_tensor_release(&onnxc_out_[" << k << "]);\n";
    } else {
      os << "  if (" << v.cName << ")\n    *" << v.cName << " = onnxc_out_["
         << k << "];\n  else\n    onnxc_tensor_release(&onnxc_out_[" << k
         << "]);\n";
    }
  }
  os << "  return onnxc_status_;\n}\n\n";
}

/// The training API of a model with training info: M_train_info and
/// wrappers of the runtime's onnxc_train_* for this model, untyped and
/// typed (the step's and inference's inputs without the state).
void writeTraining(llvm::raw_ostream &os, const ModelSignature &sig) {
  const std::string &m = sig.name;
  auto withoutState = [&](const ModelSignature &t) {
    ModelSignature r = t;
    r.inputs.erase(r.inputs.begin(), r.inputs.begin() + sig.numState);
    return r;
  };
  ModelSignature step =
      withoutState(sig.training[(int)TrainingFunction::Step]);
  ModelSignature infer =
      withoutState(sig.training[(int)TrainingFunction::Infer]);
  step.outputs.resize(step.outputs.size() - sig.numUpdates);
  os << "/* Training (docs/training.md): the state holds " << sig.numState
     << " tensor(s). */\n";
  os << "#define " << m << "_TRAIN_NUM_PARAMS " << sig.numState << "\n";
  os << "#define " << m << "_TRAIN_STEP_NUM_INPUTS " << step.inputs.size()
     << "\n";
  os << "#define " << m << "_TRAIN_STEP_NUM_OUTPUTS " << step.outputs.size()
     << "\n\n";
  os << "const onnxc_train_info *" << m << "_train_info(void);\n\n";
  os << "static inline onnxc_status " << m
     << "_train_create(onnxc_train_state **state) {\n"
     << "  return onnxc_train_create(" << m << "_train_info(), state);\n}\n\n";
  for (const char *what : {"step", "infer"}) {
    os << "static inline onnxc_status " << m << "_train_" << what
       << "(onnxc_train_state *state,\n"
       << "    const onnxc_tensor *inputs, int32_t num_inputs,\n"
       << "    onnxc_tensor *outputs, int32_t num_outputs) {\n"
       << "  return onnxc_train_" << what
       << "(state, inputs, num_inputs, outputs, num_outputs);\n}\n\n";
  }
  writeTypedRun(os, step,
                {m + "_train_step_typed", m, "onnxc_train_state *state",
                 "onnxc_train_step(state, ", false});
  writeTypedRun(os, infer,
                {m + "_train_infer_typed", m, "onnxc_train_state *state",
                 "onnxc_train_infer(state, ", false});
}

void writeCxxWrapper(llvm::raw_ostream &os, const ModelSignature &sig) {
  const std::string &m = sig.name;
  std::vector<Param> params = typedParams(sig);
  // A struct named like one of its members would declare a constructor.
  std::string type = m;
  if (llvm::is_contained(
          {"info", "run", "run_typed", "kNumInputs", "kNumOutputs"}, m))
    type += "_model";
  os << "#ifdef __cplusplus\n"
     << "namespace onnxc_model {\n"
     << "/* Model '" << m << "': the C entry points as static members. */\n"
     << "struct " << type << " {\n"
     << "  static constexpr int32_t kNumInputs = " << sig.inputs.size() << ";\n"
     << "  static constexpr int32_t kNumOutputs = " << sig.outputs.size()
     << ";\n"
     << "  static const onnxc_model_info *info() { return ::" << m
     << "_info(); }\n"
     << "  static onnxc_status run(const onnxc_tensor *inputs, int32_t "
        "num_inputs,\n"
     << "                          onnxc_tensor *outputs, int32_t num_outputs) "
        "{\n"
     << "    return ::" << m
     << "_run(inputs, num_inputs, outputs, num_outputs);\n  }\n"
     << "  static onnxc_status run_typed(";
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ",\n      " : "") << params[i].decl;
  os << ") {\n    return ::" << m << "_run_typed(";
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ", " : "") << params[i].name;
  os << ");\n  }\n};\n} // namespace onnxc_model\n#endif\n\n";
}
} // namespace

std::string codegen::describeValue(const ModelSignature &sig,
                                   const ValueSignature &v) {
  return describe(sig, v);
}

llvm::StringRef codegen::getDTypeConstant(int32_t dtype) {
  return dtypeConstant(dtype);
}

llvm::StringRef codegen::getRuntimeHeaderText() {
  return llvm::StringRef(kRuntimeHeader, sizeof(kRuntimeHeader) - 1);
}

llvm::StringRef codegen::getCElementType(int32_t dtype) {
  switch (dtype) {
  case 1:
    return "float";
  case 2:
    return "uint8_t";
  case 3:
    return "int8_t";
  case 4:
    return "uint16_t";
  case 5:
    return "int16_t";
  case 6:
    return "int32_t";
  case 7:
    return "int64_t";
  case 8:
    return "const char *"; // a pointer to a NUL-terminated UTF-8 string
  case 9:
    return "uint8_t"; // bool: one byte, 0 or 1
  case 10:
    return "uint16_t"; // float16 bits
  case 11:
    return "double";
  case 12:
    return "uint32_t";
  case 13:
    return "uint64_t";
  case 16:
    return "uint16_t"; // bfloat16 bits
  case 17:
  case 18:
  case 19:
  case 20:
    return "uint8_t"; // float8 bits
  case 21:
  case 22:
  case 23:
    return "uint8_t"; // two 4-bit elements per byte, low nibble first
  default:
    return "void"; // complex: interleaved real, imaginary
  }
}

std::string codegen::writeModelHeader(const ModelSignature &sig) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string &m = sig.name;
  std::string guard = "ONNXC_MODEL_" + m + "_H";

  os << "/*===- " << m << ".h - generated by onnxc; do not edit ";
  os << "-----------------===*\n *\n";
  os << " * Model '" << m << "': " << sig.inputs.size() << " input(s), "
     << sig.outputs.size() << " output(s).\n";
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    os << " *   input  " << i << "  " << sig.inputs[i].cName << "  '"
       << commentText(sig.inputs[i].onnxName) << "'  "
       << describe(sig, sig.inputs[i]) << "\n";
  for (size_t k = 0; k < sig.outputs.size(); ++k)
    os << " *   output " << k << "  " << sig.outputs[k].cName << "  '"
       << commentText(sig.outputs[k].onnxName) << "'  "
       << describe(sig, sig.outputs[k]) << "\n";
  if (!sig.symbolNames.empty()) {
    os << " * Symbolic dims:";
    for (size_t s = 0; s < sig.symbolNames.size(); ++s)
      os << (s ? "," : "") << " " << commentText(sig.symbolNames[s])
         << (sig.symbolFromInput[s] ? " (set by the inputs)"
                                    : " (data-dependent)");
    os << "\n";
  }
  os << " *\n * Link with the model library " << m << ".so. Entry points:\n"
     << " *   " << m << "_info()       what the model says about itself\n"
     << " *   " << m << "_run()        tensors in, tensors out (onnxc_tensor)\n"
     << " *   " << m << "_run_typed()  typed buffers (static inline)\n"
     << " *===-------------------------------------------------------------"
        "---------===*/\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";

  os << "/*===- The onnxc runtime API (onnxc/runtime.h) ---------------------"
        "------===*/\n";
  os << getRuntimeHeaderText();
  if (!getRuntimeHeaderText().ends_with("\n"))
    os << "\n";
  os << "/*===- Model '" << m
     << "' ------------------------------------------"
        "-----------===*/\n\n";

  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  os << "#define " << m << "_NUM_INPUTS " << sig.inputs.size() << "\n";
  os << "#define " << m << "_NUM_OUTPUTS " << sig.outputs.size() << "\n";
  os << "#define " << m << "_NUM_SYMBOLS " << sig.symbolNames.size() << "\n\n";
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    writeValueMacros(os, sig, sig.inputs[i], "Input", i);
  for (size_t k = 0; k < sig.outputs.size(); ++k)
    writeValueMacros(os, sig, sig.outputs[k], "Output", k);

  os << "/* Exported by the model library. */\n";
  os << "const onnxc_model_info *" << m << "_info(void);\n";
  os << "onnxc_status " << m
     << "_run(const onnxc_tensor *inputs, int32_t num_inputs,\n"
     << "    onnxc_tensor *outputs, int32_t num_outputs);\n\n";
  writeTypedRun(os, sig, {m + "_run_typed", m, "", m + "_run(", true});
  if (!sig.training.empty())
    writeTraining(os, sig);
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n";
  writeCxxWrapper(os, sig);
  os << "#endif /* " << guard << " */\n";
  return text;
}

LogicalResult codegen::emitHeaderFile(ModuleOp module,
                                      llvm::StringRef modelName,
                                      llvm::raw_ostream &os) {
  auto func = module.lookupSymbol<func::FuncOp>("main_graph");
  if (!func)
    return module.emitError("no func.func @main_graph to take the model's "
                            "signature from");
  FailureOr<ModelSignature> sig = extractSignature(func, modelName);
  if (failed(sig))
    return failure();
  os << writeModelHeader(*sig);
  return success();
}

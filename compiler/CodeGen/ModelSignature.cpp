//===- ModelSignature.cpp - A model's inputs and outputs as C sees them ---===//
//
// Reads the signature of the onnx dialect's @main_graph: ONNX names (the
// `onnx.name` argument and result attributes), dtypes, static dims and the
// symbolic dims named by #onnx.dims, and derives unique C identifiers.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/ModelSignature.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::codegen;

namespace {
/// Largest rank a tensor crossing the C API may have (ONNXC_MAX_RANK).
constexpr unsigned kMaxRank = 16;

/// C99/C11 and C++17 keywords, C++ alternative tokens, and names the C and
/// C++ standard headers of the model header define as macros or types.
bool isReservedWord(llvm::StringRef name) {
  static const char *const words[] = {
      // C
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
      "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
      "_Static_assert", "_Thread_local",
      // C++
      "alignas", "alignof", "asm", "bool", "catch", "char16_t", "char32_t",
      "class", "const_cast", "constexpr", "decltype", "delete", "dynamic_cast",
      "explicit", "export", "false", "friend", "mutable", "namespace", "new",
      "noexcept", "nullptr", "operator", "private", "protected", "public",
      "reinterpret_cast", "static_assert", "static_cast", "template", "this",
      "thread_local", "throw", "true", "try", "typeid", "typename", "using",
      "virtual", "wchar_t", "char8_t", "concept", "consteval", "constinit",
      "co_await", "co_return", "co_yield", "requires", "and", "and_eq",
      "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq", "xor",
      "xor_eq",
      // <stddef.h>, <stdint.h>, <stdbool.h>, common libc macros
      "NULL", "offsetof", "size_t", "ptrdiff_t", "max_align_t", "wchar_t",
      "errno", "assert", "EOF", "stdin", "stdout", "stderr", "main", "int8_t",
      "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
      "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t"};
  static const llvm::StringSet<> set = [] {
    llvm::StringSet<> s;
    for (const char *w : words)
      s.insert(w);
    return s;
  }();
  if (set.contains(name))
    return true;
  // The runtime's own names, and the <stdint.h> limit macros
  // (INT8_MAX, UINT64_C, SIZE_MAX, ...). A model named onnxc or ONNXC
  // would put its macros (ONNXC_MAX_RANK for an input MAX) among them.
  if (name.starts_with("onnxc_") || name.starts_with("ONNXC_") ||
      name == "onnxc" || name == "ONNXC")
    return true;
  static const char *const limitPrefixes[] = {
      "INT", "UINT", "SIZE_", "PTRDIFF_", "SIG_ATOMIC_", "WCHAR_", "WINT_"};
  bool upper = llvm::all_of(name, [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (upper)
    for (const char *p : limitPrefixes)
      if (name.starts_with(p))
        return true;
  return false;
}

/// Hands out C identifiers for the values and symbols of model `model`,
/// each once. They become parameters of M_run_typed and parts of the macro
/// names M_<value>_<SUFFIX> (HeaderWriter.cpp).
class NameUniquer {
public:
  NameUniquer(llvm::StringRef model, llvm::ArrayRef<llvm::StringRef> reserved)
      : model(model) {
    for (llvm::StringRef r : reserved)
      used.insert(r);
  }
  std::string get(llvm::StringRef name) {
    std::string base = sanitizeCIdentifier(name);
    std::string candidate = base;
    for (unsigned i = 1; used.contains(candidate) || isReservedWord(candidate) ||
                         isGenerated(candidate);
         ++i)
      candidate = base + "_" + std::to_string(i);
    used.insert(candidate);
    return candidate;
  }

private:
  /// Whether `c` is, or can make, one of the header's own identifiers: as a
  /// parameter it would be replaced by a macro or hide a function, as part
  /// of a macro name it would define one twice.
  bool isGenerated(llvm::StringRef c) const {
    // M_x_PAYLOAD_KIND is the payload kind of an optional x and the kind of
    // a value x_PAYLOAD.
    if (c.ends_with("_PAYLOAD"))
      return true;
    // The members of the C++ wrapper struct (parameters would shadow them).
    if (llvm::is_contained({"info", "run", "run_typed", "kNumInputs",
                            "kNumOutputs"},
                           c))
      return true;
    std::string prefix = model + "_";
    if (!c.starts_with(prefix))
      return false;
    llvm::StringRef rest = c.drop_front(prefix.size());
    if (llvm::is_contained({"NUM_INPUTS", "NUM_OUTPUTS", "NUM_SYMBOLS", "info",
                            "run", "run_typed", "set_tensor_"},
                           rest))
      return true;
    for (llvm::StringRef suffix : {"_NAME", "_INDEX", "_KIND", "_DTYPE",
                                   "_RANK", "_NUMEL"})
      if (rest.ends_with(suffix))
        return true;
    size_t dim = rest.rfind("_DIM");
    return dim != llvm::StringRef::npos && dim + 4 < rest.size() &&
           llvm::all_of(rest.drop_front(dim + 4),
                        [](char ch) { return ch >= '0' && ch <= '9'; });
  }

  std::string model;
  llvm::StringSet<> used;
};

/// One graph input or output before symbol numbering.
struct RawValue {
  ValueSignature sig;
  llvm::SmallVector<std::string> dimNames; ///< "" for static or unnamed
};

/// Reads a graph input or output: a ranked tensor, a sequence of tensors
/// (whose items may have no known rank), or an optional of either.
FailureOr<RawValue> readValue(func::FuncOp func, Type type,
                              DictionaryAttr attrs, bool isInput,
                              unsigned index) {
  RawValue raw;
  const char *kind = isInput ? "input" : "output";
  auto nameAttr =
      attrs ? llvm::dyn_cast_or_null<StringAttr>(attrs.get("onnx.name"))
            : StringAttr();
  raw.sig.onnxName = nameAttr ? nameAttr.getValue().str()
                              : std::string(kind) + "_" + std::to_string(index);
  auto noEquivalent = [&]() {
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has the type " << type
           << ", which has no C equivalent (tensors, sequences of tensors, "
              "optionals of those, maps and sequences of maps cross the "
              "model's C API)";
  };

  // Peel the optional, then the sequence, down to the tensor type that
  // describes the value's items.
  Type content = type;
  if (auto opt = llvm::dyn_cast<ONNX::OptType>(content)) {
    raw.sig.kind = ValueKind::Optional;
    content = opt.getElementType();
  }
  if (auto seq = llvm::dyn_cast<ONNX::SeqType>(content)) {
    if (raw.sig.kind == ValueKind::Optional)
      raw.sig.payloadKind = ValueKind::Sequence;
    else
      raw.sig.kind = ValueKind::Sequence;
    content = seq.getElementType();
  }
  // A map (or a sequence's map): its keys' dtype, then its values' element
  // type as a tensor's; both cross as 1-D arrays (runtime_abi.h).
  if (auto map = llvm::dyn_cast<ONNX::MapType>(content)) {
    if (raw.sig.kind == ValueKind::Optional)
      return func.emitError()
             << kind << " '" << raw.sig.onnxName << "' has the type " << type
             << ": optional maps do not cross the C API (maps and sequences "
                "of maps do)";
    if (raw.sig.kind == ValueKind::Sequence)
      raw.sig.payloadKind = ValueKind::Map;
    else
      raw.sig.kind = ValueKind::Map;
    int32_t keyDtype = proto::getDataType(map.getKeyType());
    auto values = llvm::dyn_cast<TensorType>(map.getValueType());
    int32_t valueDtype =
        values ? proto::getDataType(values.getElementType()) : 0;
    if (keyDtype != 7 && keyDtype != 8)
      return func.emitError()
             << kind << " '" << raw.sig.onnxName << "' has the type " << type
             << ": maps cross the C API with int64 or string keys";
    if (!values || valueDtype < 1 || valueDtype > 20)
      return func.emitError()
             << kind << " '" << raw.sig.onnxName << "' has the type " << type
             << ": a map's values cross the C API as a tensor of a dtype of "
                "at least one byte";
    raw.sig.keyDtype = keyDtype;
    raw.sig.dtype = valueDtype;
    raw.sig.dims = {-1};
    raw.sig.dimNames = {""};
    raw.dimNames = {""};
    return raw;
  }
  // The items of a sequence may have no known rank: a sequence crosses as
  // a flat data memref and a shapes memref that holds each item's rank
  // (runtime_abi.h). A tensor (or an optional's) crosses as a memref of its
  // own rank.
  auto unranked = llvm::dyn_cast<UnrankedTensorType>(content);
  if (unranked && raw.sig.contentKind() != ValueKind::Sequence)
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has the type " << type
           << ", which has no C equivalent (the C API needs the rank of "
              "every tensor)";
  auto tensor = llvm::dyn_cast<RankedTensorType>(content);
  if (!tensor && !unranked)
    return noEquivalent();
  Type elementType =
      tensor ? tensor.getElementType() : unranked.getElementType();
  int32_t dtype = proto::getDataType(elementType);
  // ONNX FLOAT (1) .. BFLOAT16 (16): fixed-size elements, and strings (8)
  // as arrays of pointers to NUL-terminated UTF-8 (docs/codegen.md); float8
  // (17-20) one byte each, uint4/int4/float4e2m1 (21-23) packed two per
  // byte (docs/embedding.md).
  bool supported = dtype >= 1 && dtype <= 23;
  if (!supported)
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has the element type "
           << elementType << ", which the C runtime does not support";
  // Strings cross as tensors only (docs/strings.md).
  if (dtype == 8 && raw.sig.kind != ValueKind::Tensor)
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has the type " << type
           << ": sequences and optionals of strings do not cross the C API "
              "yet (string tensors do)";
  // The runtime packs and unpacks 4-bit tensors, not sequences' items.
  if (dtype >= 21 && dtype <= 23 && raw.sig.kind != ValueKind::Tensor)
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has the type " << type
           << ": sequences and optionals of 4-bit elements do not cross the "
              "C API (4-bit tensors do)";
  raw.sig.dtype = dtype;
  if (!tensor) {
    raw.sig.ranked = false;
    return raw;
  }
  if (tensor.getRank() > kMaxRank)
    return func.emitError()
           << kind << " '" << raw.sig.onnxName << "' has "
           << (raw.sig.contentKind() == ValueKind::Sequence ? "items of " : "")
           << "rank " << tensor.getRank() << ", above the runtime's limit of "
           << kMaxRank;
  for (unsigned d = 0, e = tensor.getRank(); d < e; ++d) {
    raw.sig.dims.push_back(tensor.isDynamicDim(d) ? -1 : tensor.getDimSize(d));
    std::string name =
        tensor.isDynamicDim(d) ? ONNX::getDimName(tensor, d).str() : "";
    raw.sig.dimNames.push_back(name);
    // Only tensors bind symbols: the items of a sequence differ in their
    // dynamic dims whatever their names (ONNX's SequenceMap tests have
    // items of 6, 9 and 4 elements under one dim_param), and an absent
    // optional binds nothing.
    raw.dimNames.push_back(raw.sig.isTensor() ? name : "");
  }
  return raw;
}
} // namespace

std::string codegen::sanitizeCIdentifier(llvm::StringRef name) {
  std::string out;
  out.reserve(name.size() + 1);
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    out.push_back(ok ? c : '_');
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9') || isReservedWord(out))
    out.insert(out.begin(), '_');
  return out;
}

FailureOr<ModelSignature> codegen::extractSignature(func::FuncOp func,
                                                    llvm::StringRef modelName) {
  if (!func)
    return failure(); // the caller reports the missing @main_graph
  ModelSignature sig;
  sig.name = sanitizeCIdentifier(modelName);
  FunctionType type = func.getFunctionType();

  std::vector<RawValue> ins, outs;
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    FailureOr<RawValue> v =
        readValue(func, type.getInput(i), func.getArgAttrDict(i), true, i);
    if (failed(v))
      return failure();
    ins.push_back(std::move(*v));
  }
  for (unsigned i = 0, e = type.getNumResults(); i < e; ++i) {
    FailureOr<RawValue> v =
        readValue(func, type.getResult(i), func.getResultAttrDict(i), false, i);
    if (failed(v))
      return failure();
    outs.push_back(std::move(*v));
  }

  // Unnamed dynamic dims of inputs get a fresh name, distinct from every
  // dim_param of the model.
  llvm::StringSet<> named;
  for (auto *values : {&ins, &outs})
    for (RawValue &v : *values)
      for (const std::string &n : v.sig.dimNames)
        if (!n.empty())
          named.insert(n);
  for (RawValue &v : ins)
    for (unsigned d = 0; d < v.dimNames.size(); ++d) {
      if (!v.sig.isTensor() || v.sig.dims[d] >= 0 || !v.dimNames[d].empty())
        continue;
      std::string base = v.sig.onnxName + "_dim" + std::to_string(d);
      std::string fresh = base;
      for (unsigned i = 1; named.contains(fresh); ++i)
        fresh = base + "_" + std::to_string(i);
      named.insert(fresh);
      v.dimNames[d] = fresh;
      v.sig.dimNames[d] = fresh;
    }

  // Number the symbols by first appearance, inputs first.
  llvm::StringMap<int32_t> symbolIndex;
  auto number = [&](RawValue &v, bool isInput) {
    for (unsigned d = 0; d < v.dimNames.size(); ++d) {
      int32_t s = -1;
      if (v.sig.dims[d] < 0 && !v.dimNames[d].empty()) {
        auto [it, inserted] = symbolIndex.try_emplace(
            v.dimNames[d], (int32_t)sig.symbolNames.size());
        if (inserted) {
          sig.symbolNames.push_back(v.dimNames[d]);
          sig.symbolFromInput.push_back(isInput);
        }
        s = it->second;
      }
      v.sig.symbols.push_back(s);
    }
  };
  for (RawValue &v : ins)
    number(v, true);
  for (RawValue &v : outs)
    number(v, false);

  // C names: unique across inputs, outputs and symbols, since all of them
  // become parameters of M_run_typed and parts of macro names. The locals of
  // the generated functions are reserved.
  NameUniquer uniquer(sig.name, {"onnxc_in_", "onnxc_out_", "onnxc_status_",
                       "onnxc_shape_", "inputs", "outputs", "num_inputs",
                       "num_outputs"});
  for (RawValue &v : ins) {
    v.sig.cName = uniquer.get(v.sig.onnxName);
    sig.inputs.push_back(std::move(v.sig));
  }
  for (RawValue &v : outs) {
    v.sig.cName = uniquer.get(v.sig.onnxName);
    sig.outputs.push_back(std::move(v.sig));
  }
  for (const std::string &s : sig.symbolNames)
    sig.symbolCNames.push_back(uniquer.get(s));
  return sig;
}

LogicalResult codegen::extractTrainingSignatures(ModuleOp module,
                                                 ModelSignature &sig) {
  auto step = module.lookupSymbol<func::FuncOp>(
      kTrainingFunctionNames[(int)TrainingFunction::Step]);
  if (!step)
    return success();
  for (const char *name : kTrainingFunctionNames) {
    auto f = module.lookupSymbol<func::FuncOp>(name);
    if (!f)
      return module.emitError("training info without @") << name;
    FailureOr<ModelSignature> s =
        extractSignature(f, sig.name + "_" + name);
    if (failed(s))
      return failure();
    sig.training.push_back(std::move(*s));
  }
  auto state = step->getAttrOfType<ArrayAttr>("onnx.state");
  auto updates = step->getAttrOfType<IntegerAttr>("onnx.num_updates");
  if (!state || !updates)
    return module.emitError("@train_step lacks its state attributes");
  sig.numState = state.size();
  sig.numUpdates = updates.getInt();
  return success();
}

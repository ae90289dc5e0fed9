//===- CxxHeaderWriter.cpp - The generated C++ header M.hpp ---------------===//
//
// M.hpp: the C++17 classes of runtime/include/onnxc/runtime.hpp (embedded
// under its own include guard, as M.h embeds runtime.h) and, for model M,
//
//   namespace onnxc::models {
//   class M {
//     struct Inputs  { ::onnxc::TensorIn<float> x; ... };   // graph order
//     struct Outputs { ::onnxc::Tensor<float> y; ... };     // owned
//     Outputs run(const Inputs &) const;                    // throws
//     Outputs operator()(inputs...) const;                  // positional
//     class Trainer;                          // models with training info
//   };
//   }
//
// over M_run (M.h), with the symbolic dims taken from the inputs' shapes and
// every failure thrown as ::onnxc::Error with the runtime's message
// (docs/embedding.md). Compiles with -std=c++17 -Wall -Wextra -Werror.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/HeaderWriter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::codegen;

namespace {
// runtime/include/onnxc/runtime.hpp, embedded by compiler/CodeGen/CMakeLists.txt.
const char kRuntimeCxxHeader[] =
#include "compiler/CodeGen/RuntimeCxxHeader.inc"
    ;

/// `s` safe in a // comment: no control characters, no backslash (a line
/// splice), no trigraph.
std::string lineCommentText(llvm::StringRef s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == '\\')
      out += '.';
    else if (c == '?' && !out.empty() && out.back() == '?')
      out += " ?";
    else
      out += (char)c;
  }
  return out;
}

/// The C++ element type of `dtype`.
std::string elementType(int32_t dtype) {
  if (dtype == 14)
    return "::std::complex<float>";
  if (dtype == 15)
    return "::std::complex<double>";
  return getCElementType(dtype).str();
}

/// The member type of an input in Inputs.
std::string inputType(const ValueSignature &v) {
  std::string t = elementType(v.dtype);
  if (v.isMapValue())
    return (v.kind == ValueKind::Sequence ? "::onnxc::MapSequenceIn<"
                                          : "::onnxc::MapIn<") +
           elementType(v.keyDtype) + ", " + t + ">";
  std::string content = v.contentKind() == ValueKind::Sequence
                            ? "::onnxc::SequenceIn<" + t + ">"
                            : "::onnxc::TensorIn<" + t + ">";
  if (v.kind == ValueKind::Optional)
    return "::std::optional<" + content + ">";
  return content;
}

/// The member type of an output in Outputs.
std::string outputType(const ValueSignature &v) {
  std::string t = elementType(v.dtype);
  if (v.isMapValue())
    return (v.kind == ValueKind::Sequence ? "::onnxc::MapSequence<"
                                          : "::onnxc::Map<") +
           elementType(v.keyDtype) + ", " + t + ">";
  if (v.kind == ValueKind::Optional)
    return v.payloadKind == ValueKind::Sequence
               ? "::onnxc::Optional<::onnxc::SequenceView<" + t + ">>"
               : "::onnxc::Optional<::onnxc::TensorView<" + t + ">>";
  if (v.kind == ValueKind::Sequence)
    return "::onnxc::Sequence<" + t + ">";
  return "::onnxc::Tensor<" + t + ">";
}

/// A member name: the value's C name, with '_' appended when it would be
/// the name of its struct.
std::string memberName(const ValueSignature &v, llvm::StringRef structName) {
  return v.cName == structName ? v.cName + "_" : v.cName;
}

/// A signature's inputs or outputs as a struct of named members.
void writeStruct(llvm::raw_ostream &os, const ModelSignature &sig,
                 llvm::StringRef name, llvm::ArrayRef<ValueSignature> values,
                 bool inputs, llvm::StringRef indent) {
  os << indent << "/// The " << (inputs ? "inputs" : "outputs")
     << " by name, in graph order"
     << (inputs ? " (read only; they must outlive the call)."
                : " (owned: freed with the struct).")
     << "\n";
  os << indent << "struct " << name << " {\n";
  for (const ValueSignature &v : values)
    os << indent << "  " << (inputs ? inputType(v) : outputType(v)) << " "
       << memberName(v, name) << "; ///< '" << lineCommentText(v.onnxName)
       << "', " << describeValue(sig, v) << "\n";
  os << indent << "};\n";
}

/// The body of a call: `in` (a const Inputs-like struct) to the C inputs,
/// `call` with them, the outputs into `outputsType`.
void writeCallBody(llvm::raw_ostream &os, llvm::ArrayRef<ValueSignature> ins,
                   llvm::StringRef inputsType,
                   llvm::ArrayRef<ValueSignature> outs,
                   llvm::StringRef outputsType, llvm::StringRef call,
                   llvm::StringRef indent) {
  size_t numIn = ins.size(), numOut = outs.size();
  if (numIn == 0)
    os << indent << "(void)in;\n";
  os << indent << "::onnxc::detail::Arg args[" << std::max<size_t>(numIn, 1)
     << "];\n";
  for (size_t i = 0; i < numIn; ++i)
    os << indent << "args[" << i << "].set(in." << memberName(ins[i], inputsType)
       << ", " << getDTypeConstant(ins[i].dtype) << ");\n";
  os << indent << "onnxc_tensor c_in[" << std::max<size_t>(numIn, 1) << "] = {";
  for (size_t i = 0; i < std::max<size_t>(numIn, 1); ++i)
    os << (i ? ", " : "") << "args[" << i << "].value";
  os << "};\n";
  os << indent << "::onnxc::detail::Outs<" << numOut << "> c_out;\n";
  os << indent << "::onnxc::check(" << call << "c_in, " << numIn
     << ", c_out.data(), " << numOut << "));\n";
  os << indent << "return " << outputsType << "{";
  for (size_t k = 0; k < numOut; ++k)
    os << (k ? ",\n" + indent.str() + "    " : "") << outputType(outs[k])
       << "(c_out.take(" << k << "))";
  os << "};\n";
}

/// Outputs run(const Inputs &) and the positional operator().
void writeRun(llvm::raw_ostream &os, const ModelSignature &sig,
              llvm::StringRef m) {
  os << "  /// Runs the model; the symbolic dims come from the inputs' "
        "shapes.\n"
     << "  /// Throws ::onnxc::Error with the runtime's message.\n";
  os << "  Outputs run(const Inputs &in) const {\n";
  writeCallBody(os, sig.inputs, "Inputs", sig.outputs, "Outputs",
                "::" + m.str() + "_run(", "    ");
  os << "  }\n";
  os << "  /// run() with the inputs in graph order (trailing optionals may "
        "be left out).\n";
  // Optionals after the last non-optional input default to absent.
  size_t firstDefaulted = sig.inputs.size();
  while (firstDefaulted > 0 &&
         sig.inputs[firstDefaulted - 1].kind == ValueKind::Optional)
    --firstDefaulted;
  os << "  Outputs operator()(";
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    os << (i ? ",\n                     " : "") << "const "
       << inputType(sig.inputs[i]) << " &" << sig.inputs[i].cName
       << (i >= firstDefaulted ? " = ::std::nullopt" : "");
  os << ") const {\n    return run(Inputs{";
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    os << (i ? ", " : "") << sig.inputs[i].cName;
  os << "});\n  }\n";
}

/// class Trainer: the model's training state with typed step() and infer().
void writeTrainer(llvm::raw_ostream &os, const ModelSignature &sig,
                  llvm::StringRef m) {
  auto withoutState = [&](const ModelSignature &t) {
    ModelSignature r = t;
    r.inputs.erase(r.inputs.begin(), r.inputs.begin() + sig.numState);
    return r;
  };
  ModelSignature step = withoutState(sig.training[(int)TrainingFunction::Step]);
  ModelSignature infer =
      withoutState(sig.training[(int)TrainingFunction::Infer]);
  step.outputs.resize(step.outputs.size() - sig.numUpdates);
  os << "\n";
  writeStruct(os, step, "StepInputs", step.inputs, true, "  ");
  writeStruct(os, step, "StepOutputs", step.outputs, false, "  ");
  writeStruct(os, infer, "InferInputs", infer.inputs, true, "  ");
  writeStruct(os, infer, "InferOutputs", infer.outputs, false, "  ");
  os << "  /// Training (docs/training.md): a state of " << sig.numState
     << " tensor(s) (parameters,\n"
     << "  /// optimizer state) initialized by the model; move-only, one "
        "thread at a\n"
     << "  /// time. step() takes the main graph's inputs, then the "
        "algorithm's; it\n"
     << "  /// returns the algorithm's outputs that no parameter is updated "
        "from.\n"
     << "  class Trainer : public ::onnxc::TrainState {\n  public:\n"
     << "    Trainer() : ::onnxc::TrainState(::" << m << "_train_info()) {}\n"
     << "    /// One step; all or nothing (the state is unchanged after a "
        "throw).\n"
     << "    StepOutputs step(const StepInputs &in) {\n";
  writeCallBody(os, step.inputs, "StepInputs", step.outputs, "StepOutputs",
                "onnxc_train_step(get(), ", "      ");
  os << "    }\n"
     << "    /// Inference with the state's current parameters.\n"
     << "    InferOutputs infer(const InferInputs &in) const {\n";
  writeCallBody(os, infer.inputs, "InferInputs", infer.outputs, "InferOutputs",
                "onnxc_train_infer(get(), ", "      ");
  os << "    }\n  };\n";
}
} // namespace

llvm::StringRef codegen::getRuntimeCxxHeaderText() {
  return llvm::StringRef(kRuntimeCxxHeader, sizeof(kRuntimeCxxHeader) - 1);
}

std::string codegen::writeModelCxxHeader(const ModelSignature &sig,
                                         llvm::StringRef cHeaderName) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string &m = sig.name;
  // A class named like one of its members would declare a constructor.
  std::string type = m;
  if (llvm::is_contained({"Inputs", "Outputs", "StepInputs", "StepOutputs",
                          "InferInputs", "InferOutputs", "Trainer", "info",
                          "run", "num_inputs", "num_outputs"},
                         m))
    type += "_model";

  os << "/*===- " << m << ".hpp - generated by onnxc; do not edit "
     << "---------------===*\n *\n"
     << " * C++17 classes for model '" << m << "' over " << cHeaderName
     << " (docs/embedding.md):\n"
     << " *   onnxc::models::" << type
     << "  run(Inputs) / operator()(inputs...) -> Outputs\n";
  for (const ValueSignature &v : sig.inputs)
    os << " *   input   " << v.cName << "  " << describeValue(sig, v) << "\n";
  for (const ValueSignature &v : sig.outputs)
    os << " *   output  " << v.cName << "  " << describeValue(sig, v) << "\n";
  os << " * Errors are thrown as onnxc::Error (the runtime's message and "
        "status).\n"
     << " *===-------------------------------------------------------------"
        "---------===*/\n";
  std::string guard = "ONNXC_MODEL_" + m + "_HPP";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include \"" << cHeaderName << "\"\n\n";

  // The common classes, without their #include of onnxc/runtime.h (M.h
  // holds it: the user needs only M.h and M.hpp).
  std::string common = getRuntimeCxxHeaderText().str();
  const std::string include = "#include \"onnxc/runtime.h\"\n";
  size_t at = common.find(include);
  if (at != std::string::npos)
    common.replace(at, include.size(),
                   "/* onnxc/runtime.h: in the model's C header */\n");
  os << "/*===- The onnxc C++ classes (onnxc/runtime.hpp) -------------------"
        "------===*/\n";
  os << common;
  if (!llvm::StringRef(common).ends_with("\n"))
    os << "\n";
  os << "/*===- Model '" << m
     << "' ------------------------------------------"
        "-----------===*/\n\n";

  os << "namespace onnxc {\nnamespace models {\n\n";
  os << "/// Model '" << m << "': " << sig.inputs.size() << " input(s), "
     << sig.outputs.size() << " output(s). Stateless; calls are "
     << "thread-safe.\n";
  os << "class " << type << " {\npublic:\n";
  os << "  static constexpr int32_t num_inputs = " << sig.inputs.size()
     << ";\n";
  os << "  static constexpr int32_t num_outputs = " << sig.outputs.size()
     << ";\n";
  os << "  /// What the library says about the model (names, dtypes, dims).\n"
     << "  static const onnxc_model_info &info() { return *::" << m
     << "_info(); }\n\n";
  writeStruct(os, sig, "Inputs", sig.inputs, true, "  ");
  writeStruct(os, sig, "Outputs", sig.outputs, false, "  ");
  os << "\n";
  writeRun(os, sig, m);
  if (!sig.training.empty())
    writeTrainer(os, sig, m);
  os << "};\n\n} // namespace models\n} // namespace onnxc\n\n";
  os << "#endif /* " << guard << " */\n";
  return text;
}

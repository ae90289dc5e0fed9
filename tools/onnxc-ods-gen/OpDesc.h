//===- OpDesc.h - ONNX operator signatures for the ODS generator -*- C++ -*-===//
//
// A plain description of one ONNX operator signature: what the generator
// reads from libonnx's schema registry, patches by hand for opsets newer than
// libonnx 1.12 knows (18-21), and writes out as ODS plus a C++ info table.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_TOOLS_ODSGEN_OPDESC_H
#define ONNXC_TOOLS_ODSGEN_OPDESC_H

#include <string>
#include <vector>

namespace onnxc::odsgen {

/// One formal input or output.
struct ParamDesc {
  enum Option { Single, Optional, Variadic };
  std::string name;
  /// ONNX type strings, e.g. "tensor(float)", "seq(tensor(int64))".
  std::vector<std::string> types;
  Option option = Single;
  int minArity = 1;
  /// The type parameter name ("T"), or the type itself when it is written
  /// inline ("tensor(int64)").
  std::string typeParam;
  /// A variadic parameter whose values all have one type (ONNX's
  /// is_homogeneous; false for Loop's and Scan's V, If's outputs).
  bool homogeneous = true;
};

/// Attribute kinds, numbered as onnx::AttributeProto::AttributeType.
enum class AttrKind {
  Undefined = 0,
  Float = 1,
  Int = 2,
  String = 3,
  Tensor = 4,
  Graph = 5,
  Floats = 6,
  Ints = 7,
  Strings = 8,
  Tensors = 9,
  Graphs = 10,
  SparseTensor = 11,
  SparseTensors = 12,
  TypeProto = 13,
  TypeProtos = 14,
};

struct AttrDesc {
  std::string name;
  AttrKind kind = AttrKind::Undefined;
  bool required = false;
  /// Default value rendered as a C++/ODS literal ("" when there is none).
  bool hasDefault = false;
  long long intDefault = 0;
  double floatDefault = 0;
  std::string stringDefault;
  std::vector<long long> intsDefault;
  std::vector<double> floatsDefault;
  std::vector<std::string> stringsDefault;
};

struct OpDesc {
  std::string domain; // "" (ai.onnx), "ai.onnx.ml", "ai.onnx.preview.training"
  std::string name;   // "Conv"
  /// Suffix of an older signature kept as its own op ("V8": onnx.ScanV8).
  std::string versionSuffix;
  /// Opset version that introduced this (canonical) signature.
  int sinceVersion = 1;
  /// Version of the libonnx schema whose inference function applies to this
  /// signature unchanged; 0 if none does (new op, or patched signature).
  int libonnxInferenceVersion = 0;
  std::vector<ParamDesc> inputs, outputs;
  std::vector<AttrDesc> attrs;
  std::string summary;
  bool deprecated = false;
  bool hasFunctionBody = false;
  /// Which patch (if any) changed the libonnx signature; kept in the info table.
  std::string patchNote;
};

/// Applies the hand-written opset 18-25 changes on top of libonnx 1.12.
void applyOpsetPatches(std::vector<OpDesc> &ops);

} // namespace onnxc::odsgen

#endif // ONNXC_TOOLS_ODSGEN_OPDESC_H

//===- OpInfo.h - The ONNX signature of every onnx op ------------*- C++ -*-===//
//
// A table generated with the ODS (ONNXOpInfo.inc): ONNX names, the opset of
// the canonical signature, formal inputs/outputs and attribute kinds. The
// importer maps NodeProtos through it, the verifier checks arities with it,
// and shape inference finds the libonnx schema that applies.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_IR_OPINFO_H
#define ONNXC_DIALECTS_ONNX_IR_OPINFO_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::onnxc::ONNX {

struct ParamInfo {
  enum Option : uint8_t { Single, Optional, Variadic };
  const char *name;
  Option option;
  int minArity;
  /// The schema's type parameter ("T"): values of one parameter have one
  /// type. Null when the type is written inline.
  const char *typeParam;
  /// For a variadic parameter: all its values have one type.
  bool homogeneous;
};

/// Attribute kinds use onnx::AttributeProto::AttributeType numbering.
enum AttrKindCode : int {
  kAttrFloat = 1,
  kAttrInt = 2,
  kAttrString = 3,
  kAttrTensor = 4,
  kAttrGraph = 5,
  kAttrFloats = 6,
  kAttrInts = 7,
  kAttrStrings = 8,
  kAttrTensors = 9,
  kAttrGraphs = 10,
  kAttrSparseTensor = 11,
  kAttrSparseTensors = 12,
  kAttrTypeProto = 13,
  kAttrTypeProtos = 14,
};

struct AttrInfo {
  const char *name;
  int kind;
  bool required;
  /// Index of the region holding this graph attribute, -1 otherwise.
  int regionIndex;
};

struct OpInfo {
  const char *opName;   ///< "onnx.Conv", "onnx.ml.Scaler"
  const char *domain;   ///< "", "ai.onnx.ml", "ai.onnx.preview.training"
  const char *onnxName; ///< "Conv"
  int sinceVersion;     ///< opset of the canonical signature
  /// Version of the libonnx schema whose inference function applies as is;
  /// 0 when onnxc infers the op itself.
  int libonnxInferenceVersion;
  const ParamInfo *inputs;
  unsigned numInputs;
  const ParamInfo *outputs;
  unsigned numOutputs;
  const AttrInfo *attrs;
  unsigned numAttrs;
  bool deprecated;
  bool hasFunctionBody;
  const char *patchNote;

  llvm::ArrayRef<ParamInfo> getInputs() const { return {inputs, numInputs}; }
  llvm::ArrayRef<ParamInfo> getOutputs() const { return {outputs, numOutputs}; }
  llvm::ArrayRef<AttrInfo> getAttrs() const { return {attrs, numAttrs}; }
  const AttrInfo *findAttr(llvm::StringRef name) const;
  unsigned getNumRegions() const;
};

/// Looks an op up by its MLIR name ("onnx.Conv"); null if it is not an ONNX
/// operator (onnx.Yield, onnx.NoValue, other dialects).
const OpInfo *lookupOpInfo(llvm::StringRef opName);
/// Looks an op up by ONNX domain ("" or "ai.onnx" for the default) and type.
const OpInfo *lookupOpInfo(llvm::StringRef domain, llvm::StringRef onnxName);
const OpInfo *lookupOpInfo(Operation *op);
llvm::ArrayRef<OpInfo> getAllOpInfos();

/// Canonical domain name: "ai.onnx" and "" are the same domain.
llvm::StringRef canonicalDomain(llvm::StringRef domain);

} // namespace mlir::onnxc::ONNX

#endif // ONNXC_DIALECTS_ONNX_IR_OPINFO_H

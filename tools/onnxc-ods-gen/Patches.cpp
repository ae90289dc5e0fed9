//===- Patches.cpp - Opset 18-21 signatures libonnx 1.12 does not know ----===//
//
// libonnx 1.12 stops at opset 17. The dialect's canonical form of an op is its
// newest signature, so the changes of opsets 18-21 are applied here by hand,
// and operators new in those opsets are declared here. docs/opsets.md lists
// every patch; the importer upgrades older signatures to these.
//
// An op whose signature changed here loses libonnx's inference function
// (libonnxInferenceVersion = 0, or the view the bridge presents to it is
// described in passes/ONNX/Inference/); value-set-only changes (a new mode
// string) keep it.
//
//===----------------------------------------------------------------------===//

#include "OpDesc.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace onnxc::odsgen {
namespace {

const std::vector<std::string> kFloatTypes = {
    "tensor(bfloat16)", "tensor(double)", "tensor(float)", "tensor(float16)"};
const std::vector<std::string> kIntTypes = {
    "tensor(int16)",  "tensor(int32)",  "tensor(int64)",  "tensor(int8)",
    "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint8)"};
const std::vector<std::string> kFloat8Types = {
    "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
    "tensor(float8e5m2fnuz)"};
const std::vector<std::string> kInt4Types = {"tensor(int4)", "tensor(uint4)"};

std::vector<std::string> concat(std::vector<std::string> a,
                                const std::vector<std::string> &b) {
  for (const std::string &s : b)
    if (std::find(a.begin(), a.end(), s) == a.end())
      a.push_back(s);
  return a;
}

OpDesc *find(std::vector<OpDesc> &ops, const std::string &name,
             const std::string &domain = "") {
  for (OpDesc &op : ops)
    if (op.name == name && op.domain == domain && op.versionSuffix.empty())
      return &op;
  std::cerr << "onnxc-ods-gen: patch refers to unknown op " << name << "\n";
  std::exit(1);
}

AttrDesc *findAttr(OpDesc &op, const std::string &name) {
  for (AttrDesc &a : op.attrs)
    if (a.name == name)
      return &a;
  return nullptr;
}

void removeAttr(OpDesc &op, const std::string &name) {
  op.attrs.erase(std::remove_if(op.attrs.begin(), op.attrs.end(),
                                [&](const AttrDesc &a) { return a.name == name; }),
                 op.attrs.end());
}

AttrDesc intAttr(const std::string &name, long long def) {
  AttrDesc a;
  a.name = name, a.kind = AttrKind::Int, a.hasDefault = true, a.intDefault = def;
  return a;
}
AttrDesc floatAttr(const std::string &name, double def) {
  AttrDesc a;
  a.name = name, a.kind = AttrKind::Float, a.hasDefault = true,
  a.floatDefault = def;
  return a;
}
AttrDesc strAttr(const std::string &name, const std::string &def) {
  AttrDesc a;
  a.name = name, a.kind = AttrKind::String, a.hasDefault = true,
  a.stringDefault = def;
  return a;
}
AttrDesc optAttr(const std::string &name, AttrKind kind) {
  AttrDesc a;
  a.name = name, a.kind = kind;
  return a;
}
AttrDesc reqAttr(const std::string &name, AttrKind kind) {
  AttrDesc a;
  a.name = name, a.kind = kind, a.required = true;
  return a;
}

ParamDesc param(const std::string &name, std::vector<std::string> types,
                ParamDesc::Option option = ParamDesc::Single) {
  ParamDesc p;
  p.name = name, p.types = std::move(types), p.option = option;
  std::sort(p.types.begin(), p.types.end());
  return p;
}

void patch(OpDesc &op, int version, const std::string &note,
           bool keepsInference = false) {
  op.sinceVersion = version;
  if (!keepsInference)
    op.libonnxInferenceVersion = 0;
  op.patchNote += (op.patchNote.empty() ? "" : "; ") + note;
}

void widen(OpDesc &op, const std::vector<std::string> &extra,
           const std::string &typeParam) {
  for (auto *ps : {&op.inputs, &op.outputs})
    for (ParamDesc &p : *ps)
      if (p.typeParam == typeParam)
        p.types = concat(p.types, extra), std::sort(p.types.begin(), p.types.end());
}

OpDesc newOp(const std::string &name, int version, const std::string &domain = "") {
  OpDesc op;
  op.name = name, op.domain = domain, op.sinceVersion = version;
  op.libonnxInferenceVersion = 0;
  op.patchNote = "new in opset " + std::to_string(version) + " (hand-declared)";
  return op;
}

} // namespace

void applyOpsetPatches(std::vector<OpDesc> &ops) {
  // --- Opset 18 -------------------------------------------------------------
  // Reduce*: `axes` moves from an attribute to an optional input, and
  // `noop_with_empty_axes` appears (ReduceSum did this at 13).
  for (const char *name :
       {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
        "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare"}) {
    OpDesc &op = *find(ops, name);
    removeAttr(op, "axes");
    op.inputs.push_back(param("axes", {"tensor(int64)"}, ParamDesc::Optional));
    op.attrs.push_back(intAttr("noop_with_empty_axes", 0));
    patch(op, 18, "opset 18: axes is an input");
  }
  {
    OpDesc &op = *find(ops, "Split");
    op.attrs.push_back(optAttr("num_outputs", AttrKind::Int));
    patch(op, 18, "opset 18: num_outputs (uneven last chunk)");
  }
  {
    OpDesc &op = *find(ops, "Pad");
    op.inputs.push_back(param("axes", {"tensor(int32)", "tensor(int64)"},
                              ParamDesc::Optional));
    patch(op, 19, "opset 18: axes input; opset 19: mode wrap");
  }
  {
    OpDesc &op = *find(ops, "Resize");
    op.attrs.push_back(intAttr("antialias", 0));
    op.attrs.push_back(optAttr("axes", AttrKind::Ints));
    op.attrs.push_back(strAttr("keep_aspect_ratio_policy", "stretch"));
    patch(op, 19,
          "opset 18: antialias, axes, keep_aspect_ratio_policy; opset 19: "
          "half_pixel_symmetric");
  }
  for (const char *name : {"ScatterElements", "ScatterND"})
    patch(*find(ops, name), 18, "opset 18: reduction max/min", true);
  {
    OpDesc &op = *find(ops, "LpPool");
    op.attrs.push_back(intAttr("ceil_mode", 0));
    op.attrs.push_back(optAttr("dilations", AttrKind::Ints));
    patch(op, 18, "opset 18: ceil_mode, dilations");
  }
  for (const char *name : {"OptionalHasElement", "OptionalGetElement"}) {
    OpDesc &op = *find(ops, name);
    // Opset 18 accepts a plain tensor or sequence, or no input at all.
    std::vector<std::string> plain;
    for (const std::string &t : op.inputs[0].types)
      if (t.rfind("optional(", 0) == 0)
        plain.push_back(t.substr(9, t.size() - 10));
    op.inputs[0].types = concat(op.inputs[0].types, plain);
    if (op.name == "OptionalHasElement")
      op.inputs[0].option = ParamDesc::Optional;
    patch(op, 18, "opset 18: tensor and sequence inputs");
  }
  for (const char *name : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    OpDesc op = newOp(name, 18);
    op.inputs = {param("A", kIntTypes), param("B", kIntTypes)};
    op.outputs = {param("C", kIntTypes)};
    ops.push_back(op);
  }
  {
    OpDesc op = newOp("BitwiseNot", 18);
    op.inputs = {param("X", kIntTypes)};
    op.outputs = {param("Y", kIntTypes)};
    ops.push_back(op);
  }
  {
    OpDesc op = newOp("Mish", 18);
    op.inputs = {param("X", kFloatTypes)};
    op.outputs = {param("Y", kFloatTypes)};
    ops.push_back(op);
  }
  {
    OpDesc op = newOp("GroupNormalization", 21);
    op.inputs = {param("X", kFloatTypes), param("scale", kFloatTypes),
                 param("bias", kFloatTypes)};
    op.outputs = {param("Y", kFloatTypes)};
    op.attrs = {floatAttr("epsilon", 1e-5), reqAttr("num_groups", AttrKind::Int),
                intAttr("stash_type", 1)};
    op.patchNote = "new in opset 18, stash_type from opset 21 (hand-declared)";
    ops.push_back(op);
  }
  {
    auto all = concat(concat(kFloatTypes, kIntTypes),
                      {"tensor(bool)", "tensor(string)", "tensor(complex64)",
                       "tensor(complex128)"});
    OpDesc op = newOp("CenterCropPad", 18);
    op.inputs = {param("input_data", all),
                 param("shape", {"tensor(int32)", "tensor(int64)"})};
    op.outputs = {param("output_data", all)};
    op.attrs = {optAttr("axes", AttrKind::Ints)};
    ops.push_back(op);
    OpDesc col = newOp("Col2Im", 18);
    col.inputs = {param("input", all), param("image_shape", {"tensor(int64)"}),
                  param("block_shape", {"tensor(int64)"})};
    col.outputs = {param("output", all)};
    col.attrs = {optAttr("dilations", AttrKind::Ints),
                 optAttr("pads", AttrKind::Ints),
                 optAttr("strides", AttrKind::Ints)};
    ops.push_back(col);
  }

  // --- Opset 19 -------------------------------------------------------------
  {
    OpDesc &op = *find(ops, "AveragePool");
    op.attrs.push_back(optAttr("dilations", AttrKind::Ints));
    patch(op, 19, "opset 19: dilations");
  }
  for (const char *name : {"Cast", "CastLike"}) {
    OpDesc &op = *find(ops, name);
    op.attrs.push_back(intAttr("saturate", 1));
    for (auto *ps : {&op.inputs, &op.outputs})
      for (ParamDesc &p : *ps)
        if (p.typeParam != "tensor(int64)")
          p.types = concat(concat(p.types, kFloat8Types), kInt4Types);
    patch(op, 21, "opset 19: saturate, float8; opset 21: int4", true);
  }
  {
    OpDesc op = newOp("DeformConv", 19);
    op.inputs = {param("X", kFloatTypes), param("W", kFloatTypes),
                 param("offset", kFloatTypes),
                 param("B", kFloatTypes, ParamDesc::Optional),
                 param("mask", kFloatTypes, ParamDesc::Optional)};
    op.outputs = {param("Y", kFloatTypes)};
    op.attrs = {optAttr("dilations", AttrKind::Ints), intAttr("group", 1),
                optAttr("kernel_shape", AttrKind::Ints),
                intAttr("offset_group", 1), optAttr("pads", AttrKind::Ints),
                optAttr("strides", AttrKind::Ints)};
    ops.push_back(op);
  }
  {
    OpDesc &q = *find(ops, "QuantizeLinear");
    q.attrs.push_back(intAttr("saturate", 1));
    q.attrs.push_back(intAttr("block_size", 0));
    q.attrs.push_back(intAttr("output_dtype", 0));
    widen(q, concat(kFloat8Types, concat(kInt4Types, {"tensor(int16)", "tensor(uint16)"})), "T2");
    q.inputs[0].types = concat(q.inputs[0].types, {"tensor(float16)", "tensor(bfloat16)"});
    q.inputs[1].types = concat(q.inputs[1].types, {"tensor(float16)", "tensor(bfloat16)"});
    patch(q, 21, "opset 19: saturate, float8; opset 21: block_size, output_dtype, int4");
    OpDesc &d = *find(ops, "DequantizeLinear");
    d.attrs.push_back(intAttr("block_size", 0));
    widen(d, concat(kFloat8Types, concat(kInt4Types, {"tensor(int16)", "tensor(uint16)"})), "T");
    d.inputs[1].types = concat(d.inputs[1].types, {"tensor(float16)", "tensor(bfloat16)"});
    d.outputs[0].types = concat(d.outputs[0].types, {"tensor(float16)", "tensor(bfloat16)"});
    patch(d, 21, "opset 19: float8; opset 21: block_size, int4");
  }

  // --- Opset 20 -------------------------------------------------------------
  {
    OpDesc &op = *find(ops, "DFT");
    removeAttr(op, "axis");
    op.inputs.push_back(param("axis", {"tensor(int64)"}, ParamDesc::Optional));
    patch(op, 20, "opset 20: axis is an input");
  }
  for (const char *name : {"ReduceMax", "ReduceMin"}) {
    OpDesc &op = *find(ops, name);
    op.inputs[0].types = concat(op.inputs[0].types, {"tensor(bool)"});
    op.outputs[0].types = concat(op.outputs[0].types, {"tensor(bool)"});
    patch(op, 20, "opset 20: bool");
  }
  {
    OpDesc op = newOp("Gelu", 20);
    op.inputs = {param("X", kFloatTypes)};
    op.outputs = {param("Y", kFloatTypes)};
    op.attrs = {strAttr("approximate", "none")};
    ops.push_back(op);
  }
  {
    OpDesc op = newOp("AffineGrid", 20);
    op.inputs = {param("theta", kFloatTypes), param("size", {"tensor(int64)"})};
    op.outputs = {param("grid", kFloatTypes)};
    op.attrs = {intAttr("align_corners", 0)};
    ops.push_back(op);
  }
  {
    OpDesc &op = *find(ops, "GridSample");
    // libonnx 1.12 binds grid to X's type parameter T1; the spec's grid has
    // a float type of its own (T2), whatever X's type: unbind it.
    op.inputs[1].typeParam = "";
    patch(op, 20, "opset 20: N-d input, modes linear/cubic");
  }
  {
    OpDesc op = newOp("RegexFullMatch", 20);
    op.inputs = {param("X", {"tensor(string)"})};
    op.outputs = {param("Y", {"tensor(bool)"})};
    op.attrs = {optAttr("pattern", AttrKind::String)};
    ops.push_back(op);
    OpDesc cat = newOp("StringConcat", 20);
    cat.inputs = {param("X", {"tensor(string)"}), param("Y", {"tensor(string)"})};
    cat.outputs = {param("Z", {"tensor(string)"})};
    ops.push_back(cat);
    OpDesc split = newOp("StringSplit", 20);
    split.inputs = {param("X", {"tensor(string)"})};
    split.outputs = {param("Y", {"tensor(string)"}),
                     param("Z", {"tensor(int64)"})};
    split.attrs = {optAttr("delimiter", AttrKind::String),
                   optAttr("maxsplit", AttrKind::Int)};
    ops.push_back(split);
  }
}

} // namespace onnxc::odsgen

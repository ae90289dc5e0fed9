//===- Patches.cpp - Opset 18-25 signatures libonnx 1.12 does not know ----===//
//
// libonnx 1.12 stops at opset 17. The dialect's canonical form of an op is its
// newest signature, so the changes of opsets 18-25 are applied here by hand,
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
const std::vector<std::string> kFloat4Types = {"tensor(float4e2m1)"};

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

/// Opsets 19, 21 and 23: the narrow types on the data-movement ops.
void applyNarrowTypePatches(std::vector<OpDesc> &ops) {
  // --- Opsets 19, 21, 23: float8, int4, float4e2m1 on the data-movement ops
  // (type widening only; docs/opsets.md). The parameter that takes every
  // tensor type (it holds uint8 and float) gains them; the signature's
  // version and libonnx inference stay (the inference presents these types
  // to libonnx as uint8: SchemaCall::standInFor).
  // Pad (19, 21, 23) and the control-flow ops If, Loop, Scan (19, 21, 23)
  // too; not Concat or Gather, whose newest versions (13) have none of these
  // types.
  for (const char *name : {"Constant", "Identity", "Reshape", "Shape", "Size",
                           "Transpose", "Squeeze", "Unsqueeze", "Flatten",
                           "Pad", "If", "Loop", "Scan"}) {
    OpDesc &op = *find(ops, name);
    for (auto *ps : {&op.inputs, &op.outputs})
      for (ParamDesc &p : *ps)
        if (std::count(p.types.begin(), p.types.end(), "tensor(uint8)") &&
            std::count(p.types.begin(), p.types.end(), "tensor(float)")) {
          p.types = concat(concat(concat(p.types, kFloat8Types), kInt4Types),
                           kFloat4Types);
          std::sort(p.types.begin(), p.types.end());
        }
    op.patchNote += std::string(op.patchNote.empty() ? "" : "; ") +
                    "float8 (19), int4 (21), float4e2m1 (23)";
  }
  for (const char *name : {"Cast", "CastLike"}) {
    OpDesc &op = *find(ops, name);
    for (auto *ps : {&op.inputs, &op.outputs})
      for (ParamDesc &p : *ps)
        if (p.typeParam != "tensor(int64)")
          p.types = concat(p.types, kFloat4Types);
    op.patchNote += "; opset 23: float4e2m1";
  }
  {
    OpDesc &q = *find(ops, "QuantizeLinear");
    widen(q, kFloat4Types, "T2");
    q.patchNote += "; opset 23: float4e2m1";
    OpDesc &d = *find(ops, "DequantizeLinear");
    widen(d, kFloat4Types, "T");
    d.patchNote += "; opset 23: float4e2m1";
  }
}

/// Opset 22: bfloat16 on the ops whose opset-22 version only widened their
/// types.
void applyOpset22Patches(std::vector<OpDesc> &ops) {
  // --- Opset 22: bfloat16 only ---------------------------------------------
  for (const char *name :
       {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "AveragePool",
        "Bernoulli", "Conv", "ConvTranspose", "Cos", "Cosh", "DeformConv",
        "Det", "Dropout", "Elu", "EyeLike", "GRU", "GlobalAveragePool",
        "GlobalLpPool", "GlobalMaxPool", "GridSample", "HardSigmoid",
        "HardSwish", "InstanceNormalization", "LSTM", "LpNormalization",
        "LpPool", "MaxPool", "MaxRoiPool", "MaxUnpool", "Mish", "Multinomial",
        "NegativeLogLikelihoodLoss", "RNN", "RandomNormal", "RandomNormalLike",
        "RandomUniform", "RandomUniformLike", "RoiAlign", "Round", "Selu",
        "Sin", "Sinh", "Softplus", "Softsign", "Tan", "ThresholdedRelu"}) {
    OpDesc &op = *find(ops, name);
    bool widened = false;
    for (auto *ps : {&op.inputs, &op.outputs})
      for (ParamDesc &p : *ps)
        if (std::find(p.types.begin(), p.types.end(), "tensor(float)") !=
                p.types.end() &&
            std::find(p.types.begin(), p.types.end(), "tensor(bfloat16)") ==
                p.types.end()) {
          p.types = concat(p.types, {"tensor(bfloat16)"});
          std::sort(p.types.begin(), p.types.end());
          widened = true;
        }
    if (widened) {
      op.sinceVersion = std::max(op.sinceVersion, 22);
      op.patchNote += std::string(op.patchNote.empty() ? "" : "; ") +
                      "opset 22: bfloat16";
    }
  }
}

/// Opset 23 (ONNX 1.18).
void applyOpset23Patches(std::vector<OpDesc> &ops) {
  // --- Opset 23 ---------------------------------------------------------------
  {
    // Attention-23; nonpad_kv_seqlen (24); left/right_window_size (25).
    OpDesc op = newOp("Attention", 23);
    auto t = [](ParamDesc p, const char *param) {
      p.typeParam = param;
      return p;
    };
    std::vector<std::string> maskTypes =
        concat(concat(kFloatTypes, kIntTypes), {"tensor(bool)"});
    op.inputs = {t(param("Q", kFloatTypes), "T1"),
                 t(param("K", kFloatTypes), "T1"),
                 t(param("V", kFloatTypes), "T2"),
                 param("attn_mask", maskTypes, ParamDesc::Optional),
                 t(param("past_key", kFloatTypes, ParamDesc::Optional), "T1"),
                 t(param("past_value", kFloatTypes, ParamDesc::Optional), "T2"),
                 param("nonpad_kv_seqlen", {"tensor(int64)"},
                       ParamDesc::Optional)};
    op.outputs = {
        t(param("Y", kFloatTypes), "T1"),
        t(param("present_key", kFloatTypes, ParamDesc::Optional), "T1"),
        t(param("present_value", kFloatTypes, ParamDesc::Optional), "T2"),
        t(param("qk_matmul_output", kFloatTypes, ParamDesc::Optional), "T1")};
    op.attrs = {intAttr("is_causal", 0),
                optAttr("kv_num_heads", AttrKind::Int),
                intAttr("left_window_size", -1),
                optAttr("q_num_heads", AttrKind::Int),
                intAttr("qk_matmul_output_mode", 0),
                intAttr("right_window_size", -1),
                optAttr("scale", AttrKind::Float),
                floatAttr("softcap", 0.0),
                optAttr("softmax_precision", AttrKind::Int)};
    op.patchNote = "new in opset 23, nonpad_kv_seqlen from 24, "
                   "left/right_window_size from 25 (hand-declared)";
    ops.push_back(op);
  }
  {
    OpDesc op = newOp("RMSNormalization", 23);
    op.inputs = {param("X", kFloatTypes), param("scale", kFloatTypes)};
    op.inputs[1].typeParam = "V";
    op.outputs = {param("Y", kFloatTypes)};
    op.outputs[0].typeParam = "V";
    op.attrs = {intAttr("axis", -1), floatAttr("epsilon", 1e-5),
                intAttr("stash_type", 1)};
    ops.push_back(op);
  }
  {
    std::vector<std::string> types = {"tensor(bfloat16)", "tensor(float)",
                                      "tensor(float16)"};
    OpDesc op = newOp("RotaryEmbedding", 23);
    op.inputs = {param("X", types), param("cos_cache", types),
                 param("sin_cache", types),
                 param("position_ids", {"tensor(int64)"}, ParamDesc::Optional)};
    for (int i = 0; i < 3; ++i)
      op.inputs[i].typeParam = "T";
    op.outputs = {param("Y", types)};
    op.outputs[0].typeParam = "T";
    op.attrs = {intAttr("interleaved", 0), optAttr("num_heads", AttrKind::Int),
                intAttr("rotary_embedding_dim", 0)};
    ops.push_back(op);
  }
  {
    // QuantizeLinear-23: precision (the type x / y_scale is computed in).
    OpDesc &q = *find(ops, "QuantizeLinear");
    q.attrs.push_back(intAttr("precision", 0));
    patch(q, 23, "opset 23: precision");
    // DequantizeLinear-23: output_dtype.
    OpDesc &d = *find(ops, "DequantizeLinear");
    d.attrs.push_back(intAttr("output_dtype", 0));
    patch(d, 23, "opset 23: output_dtype");
  }
}

/// Opset 24 (ONNX 1.19).
void applyOpset24Patches(std::vector<OpDesc> &ops) {
  // --- Opset 24 ---------------------------------------------------------------
  {
    OpDesc op = newOp("Swish", 24);
    op.inputs = {param("X", kFloatTypes)};
    op.outputs = {param("Y", kFloatTypes)};
    op.attrs = {floatAttr("alpha", 1.0)};
    ops.push_back(op);
  }
  {
    auto all = concat(concat(kFloatTypes, kIntTypes),
                      concat({"tensor(bool)", "tensor(string)",
                              "tensor(complex64)", "tensor(complex128)"},
                             concat(kFloat8Types, kInt4Types)));
    OpDesc op = newOp("TensorScatter", 24);
    op.inputs = {param("past_cache", all), param("update", all),
                 param("write_indices", {"tensor(int64)"}, ParamDesc::Optional)};
    op.inputs[0].typeParam = op.inputs[1].typeParam = "T";
    op.outputs = {param("present_cache", all)};
    op.outputs[0].typeParam = "T";
    op.attrs = {intAttr("axis", -2), strAttr("mode", "linear")};
    ops.push_back(op);
  }
  for (const char *name : {"Cast", "CastLike"}) {
    // round_mode only affects float8e8m0, which onnxc does not have.
    OpDesc &op = *find(ops, name);
    op.attrs.push_back(strAttr("round_mode", "up"));
    patch(op, 24, "opset 24: round_mode", true);
  }
}

/// Opsets 22-25 (ONNX 1.17-1.20; docs/Changelog.md of onnx/onnx): the new
/// transformer ops, the attributes existing ops gained, and bfloat16 on the
/// ops whose opset-22 version only widened their types. The other type-only
/// widenings (float4e2m1 at 23, float8e8m0 at 24, int2/uint2 at 25) are not
/// declared: onnxc has no such element types.
void applyOpset22To25Patches(std::vector<OpDesc> &ops) {
  applyNarrowTypePatches(ops);
  applyOpset22Patches(ops);
  applyOpset23Patches(ops);
  applyOpset24Patches(ops);
}

/// ai.onnx.ml opsets 4 and 5 (ONNX 1.15-1.16; docs/Changelog-ml.md of
/// onnx/onnx): LabelEncoder-4's tensor attributes and types, and the
/// TreeEnsemble op of opset 5. TreeEnsembleRegressor and
/// TreeEnsembleClassifier are deprecated at 5 and keep their opset-3
/// signature (the importer refuses them in an opset-5 model).
void applyMLOpset4To5Patches(std::vector<OpDesc> &ops) {
  {
    OpDesc &op = *find(ops, "LabelEncoder", "ai.onnx.ml");
    for (const char *name : {"default_tensor", "keys_tensor", "values_tensor"})
      op.attrs.push_back(optAttr(name, AttrKind::Tensor));
    for (const char *t : {"T1", "T2"})
      widen(op, {"tensor(double)", "tensor(int16)", "tensor(int32)"}, t);
    patch(op, 4,
          "ml opset 4: keys_tensor, values_tensor, default_tensor; double, "
          "int16, int32");
  }
  {
    std::vector<std::string> types = {"tensor(double)", "tensor(float)",
                                      "tensor(float16)"};
    OpDesc op = newOp("TreeEnsemble", 5, "ai.onnx.ml");
    op.inputs = {param("X", types)};
    op.inputs[0].typeParam = "T";
    op.outputs = {param("Y", types)};
    op.outputs[0].typeParam = "T";
    op.attrs = {intAttr("aggregate_function", 1),
                reqAttr("leaf_targetids", AttrKind::Ints),
                reqAttr("leaf_weights", AttrKind::Tensor),
                optAttr("membership_values", AttrKind::Tensor),
                optAttr("n_targets", AttrKind::Int),
                reqAttr("nodes_falseleafs", AttrKind::Ints),
                reqAttr("nodes_falsenodeids", AttrKind::Ints),
                reqAttr("nodes_featureids", AttrKind::Ints),
                optAttr("nodes_hitrates", AttrKind::Tensor),
                optAttr("nodes_missing_value_tracks_true", AttrKind::Ints),
                reqAttr("nodes_modes", AttrKind::Tensor),
                reqAttr("nodes_splits", AttrKind::Tensor),
                reqAttr("nodes_trueleafs", AttrKind::Ints),
                reqAttr("nodes_truenodeids", AttrKind::Ints),
                intAttr("post_transform", 0),
                reqAttr("tree_roots", AttrKind::Ints)};
    ops.push_back(op);
  }
}

/// Opset 18 (ONNX 1.13).
void applyOpset18Patches(std::vector<OpDesc> &ops) {
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
}

/// Opset 19 (ONNX 1.14) and the opset-21 additions of the same ops.
void applyOpset19Patches(std::vector<OpDesc> &ops) {
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
    // Equal-19: string operands (compared by content, the runtime's
    // onnxc_rt_str_eq); libonnx's Equal-13 inference still gives the
    // broadcast bool result.
    OpDesc &eq = *find(ops, "Equal");
    widen(eq, {"tensor(string)"}, "T");
    patch(eq, 19, "opset 19: string", /*keepsInference=*/true);
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
}

/// Opset 20 (ONNX 1.15).
void applyOpset20Patches(std::vector<OpDesc> &ops) {
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

} // namespace

void applyOpsetPatches(std::vector<OpDesc> &ops) {
  applyOpset18Patches(ops);
  applyOpset19Patches(ops);
  applyOpset20Patches(ops);
  applyOpset22To25Patches(ops);
  applyMLOpset4To5Patches(ops);
}

} // namespace onnxc::odsgen

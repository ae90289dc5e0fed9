"""fp16 models as converters write them.

`to_float16` follows onnxconverter-common's float16.convert_float_to_float16
(what users run on an fp32 export, and what most published fp16 ONNX models
went through): every float initializer and Constant tensor becomes
float16 (magnitudes clamped to [1e-7, 1e4], the converter's defaults),
every float value_info and graph input/output becomes float16, Cast nodes
to float become Casts to float16, ops of the block list run in float
between Cast nodes, Resize's scales stay float (its ALWAYS_FLOAT_INPUTS).
keep_io_types=True keeps the graph inputs and outputs float: a Cast
`graph_input_cast<i>` after each input and a Cast `graph_output_cast<i>`
before each output, the names the converter gives them."""

import numpy as np
from onnx import helper, numpy_helper

from common import F, F16, check, register

# onnxconverter-common's DEFAULT_OP_BLOCK_LIST: ops left in float.
BLOCK = {"ArrayFeatureExtractor", "Binarizer", "CastMap", "CategoryMapper", "DictVectorizer",
         "FeatureVectorizer", "Imputer", "LabelEncoder", "LinearClassifier",
         "LinearRegressor", "Normalizer", "OneHotEncoder", "RandomUniformLike",
         "SVMClassifier", "SVMRegressor", "Scaler", "TreeEnsembleClassifier",
         "TreeEnsembleRegressor", "ZipMap", "NonMaxSuppression", "TopK", "RoiAlign", "Range",
         "CumSum", "Min", "Max", "Upsample"}
# Inputs that stay float whatever the rest becomes (by op, input index).
ALWAYS_FLOAT = {"Resize": [2]}
MIN_POSITIVE, MAX_FINITE = 1e-7, 1e4


def _half(array):
    a = np.asarray(array, np.float32)
    mag = np.abs(a)
    a = np.where((mag > 0) & (mag < MIN_POSITIVE), np.sign(a) * MIN_POSITIVE, a)
    a = np.clip(a, -MAX_FINITE, MAX_FINITE)
    return a.astype(np.float16)


def _half_tensor(t):
    return numpy_helper.from_array(_half(numpy_helper.to_array(t)), t.name)


def to_float16(model, keep_io_types=True, sort=True):
    """sort=False appends the input Casts after the other nodes, as
    onnxconverter-common did before it topologically sorted its output (a
    graph that is not sorted: ONNX requires the order, runtimes sort)."""
    g = model.graph
    nodes = list(g.node)
    # Values that must stay float: ALWAYS_FLOAT inputs and the inputs and
    # outputs of blocked ops.
    keep_float = set()
    for n in nodes:
        for i in ALWAYS_FLOAT.get(n.op_type, []):
            if i < len(n.input) and n.input[i]:
                keep_float.add(n.input[i])
    inits = []
    for t in g.initializer:
        inits.append(_half_tensor(t) if t.data_type == F and t.name not in keep_float else t)
    del g.initializer[:]
    g.initializer.extend(inits)

    out_nodes = []
    for n in nodes:
        if n.op_type == "Constant" and n.output[0] not in keep_float:
            for a in n.attribute:
                if a.name == "value" and a.t.data_type == F:
                    a.t.CopyFrom(_half_tensor(a.t))
        if n.op_type == "Cast":
            for a in n.attribute:
                if a.name == "to" and a.i == F:
                    a.i = F16
        if n.op_type in BLOCK:
            # float16 -> float before, float -> float16 after.
            ins = []
            for x in n.input:
                if not x:
                    ins.append(x)
                    continue
                c = x + "_to_float"
                out_nodes.append(helper.make_node("Cast", [x], [c], name=n.name + "_input_cast_"
                                                  + x.replace("/", "_"), to=F))
                ins.append(c)
            del n.input[:]
            n.input.extend(ins)
            outs = list(n.output)
            del n.output[:]
            n.output.extend([o + "_float" for o in outs])
            out_nodes.append(n)
            for k, o in enumerate(outs):
                out_nodes.append(helper.make_node("Cast", [o + "_float"], [o],
                                                  name=n.name + "_output_cast%d" % k, to=F16))
            continue
        out_nodes.append(n)

    for vi in g.value_info:
        if vi.type.tensor_type.elem_type == F and vi.name not in keep_float:
            vi.type.tensor_type.elem_type = F16

    head, tail = [], []
    if keep_io_types:
        for i, x in enumerate(g.input):
            if x.type.tensor_type.elem_type != F:
                continue
            cast = "graph_input_cast_%d" % i
            for n in out_nodes:
                for k, name in enumerate(n.input):
                    if name == x.name:
                        n.input[k] = cast
            head.append(helper.make_node("Cast", [x.name], [cast], name="graph_input_cast%d" % i,
                                         to=F16))
        for i, y in enumerate(g.output):
            if y.type.tensor_type.elem_type != F:
                continue
            cast = "graph_output_cast_%d" % i
            for n in out_nodes:
                for k, name in enumerate(n.output):
                    if name == y.name:
                        n.output[k] = cast
            tail.append(helper.make_node("Cast", [cast], [y.name],
                                         name="graph_output_cast%d" % i, to=F))
    else:
        for x in list(g.input) + list(g.output):
            if x.type.tensor_type.elem_type == F:
                x.type.tensor_type.elem_type = F16
    del g.node[:]
    g.node.extend(head + out_nodes + tail if sort else out_nodes + tail + head)
    return check(model, full=sort)


def _unet(dynamic):
    from unet import unet_model
    return unet_model(dynamic)


def _mobilenet_v2(dynamic):
    from torchnets import mobilenet_v2
    return mobilenet_v2(dynamic)


@register("unet_fp16", "fp16", "the U-Net converted to fp16 as onnxconverter-common writes it "
          "(keep_io_types: float input and output, Cast to/from float16 at the graph I/O; "
          "weights, activations, Resize in float16)",
          heavy=True, reference=lambda d: _unet(d))
def unet_fp16(dynamic):
    from unet import unet_model
    return to_float16(unet_model(dynamic), keep_io_types=True)


@register("unet_fp16_io", "fp16", "the fp16 U-Net with float16 graph input and output "
          "(converter without keep_io_types)",
          heavy=True, reference=lambda d: _unet(d))
def unet_fp16_io(dynamic):
    from unet import unet_model
    return to_float16(unet_model(dynamic), keep_io_types=False)


@register("mobilenet_v2_fp16", "fp16", "torchvision mobilenet_v2 converted to fp16 "
          "(keep_io_types), Clip bounds in float16, by an older converter: the input Cast "
          "appended after the other nodes (graph not topologically sorted)",
          heavy=True, reference=lambda d: _mobilenet_v2(d))
def mobilenet_v2_fp16(dynamic):
    from torchnets import mobilenet_v2
    return to_float16(mobilenet_v2(dynamic), keep_io_types=True, sort=False)

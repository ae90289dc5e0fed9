#!/usr/bin/python3
"""Models in the form PyTorch 1.13's torch.onnx.export writes them, and inputs.

Written with python3-onnx and numpy only (no torch): the node patterns,
names and constants follow what torch 1.13 emits at opsets 13-17 in eval
mode with constant folding (the default), so that onnxc is tested and
benchmarked on the graphs users bring. Used by test/numeric/ort (small sizes) and
the bench (bigger sizes): every family takes its sizes, batch and seed.

    gen_models.py list
    gen_models.py model NAME -o MODEL.onnx [--set KEY=VALUE]...
    gen_models.py inputs MODEL.onnx -o DIR [--dim NAME=N]... [--seed N]

NAME is a family (mlp, resnet, mobilenet, transformer) or a preset (a
family with parameters, `list` shows them); --set overrides a parameter
(a Python literal: --set sizes=(784,512,10) --set dynamic=True).
`inputs` writes input_<i>.pb (ONNX TensorProto, graph-input order) with
random values from --seed; --dim binds a symbolic dim (dim_param) of the
inputs. The model says how its inputs are drawn (metadata_props
"onnxc.gen.inputs", JSON): token ids below the vocabulary size, attention
masks as ones then zeros; everything else standard normal.

What torch 1.13 emits, reproduced here:
- nn.Linear on 2D input: Gemm(x, W, b, transB=1); on more dims:
  MatMul(x, W^T) with W^T folded into an initializer named onnx::MatMul_N,
  then Add(bias, y) (bias first).
- eval-mode Conv + BatchNorm: fused into one Conv with a bias by the export
  (fold_bn=True); without the fusion, Conv without bias + BatchNormalization.
- relu6 (hardtanh 0..6): Clip(x, min, max) with min and max as inputs
  (opset 11+); scalar Python constants as Constant nodes.
- torchvision's ResNet/MobileNetV2 heads: GlobalAveragePool, Flatten(axis=1),
  Gemm.
- HuggingFace BERT-style encoders: Gather embeddings, the extended attention
  mask Unsqueeze/Unsqueeze/Cast/Sub(1, m)/Mul(-10000), MatMul+Add projections,
  Reshape + Transpose into heads (K transposed straight to [0,2,3,1]),
  MatMul, Div by sqrt(head dim), Add mask, Softmax(-1), LayerNormalization
  (opset 17) or ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add (older
  opsets), GELU as Div(sqrt 2)/Erf/Add 1/Mul/Mul 0.5, pooler Gather/Gemm/Tanh.
  With dynamic axes, Reshape shapes come from Shape/Gather/Unsqueeze/Concat
  (and Shape/Slice/Concat), position ids from Slice of a buffer.
"""

import argparse
import ast
import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

INPUTS_KEY = "onnxc.gen.inputs"


class Graph:
    """Builds a graph with torch-like names: scoped node names
    (/layer1/conv1/Conv), outputs NODE_output_N, unique."""

    def __init__(self, seed, constants=False):
        self.rng = np.random.default_rng(seed)
        self.constants = constants  # weights as Constant nodes
        self.nodes = []
        self.initializers = []
        self.used = set()
        self.counter = 0

    def unique(self, name):
        base, i = name, 0
        while name in self.used:
            i += 1
            name = "%s_%d" % (base, i)
        self.used.add(name)
        return name

    def weight(self, name, array):
        """A parameter: an initializer, or a Constant node (constants=True)."""
        name = self.unique(name)
        tensor = numpy_helper.from_array(np.ascontiguousarray(array), name)
        if self.constants:
            self.nodes.append(helper.make_node(
                "Constant", [], [name], name=self.unique("/" + name + "/Constant"),
                value=tensor))
        else:
            self.initializers.append(tensor)
        return name

    def folded(self, op, array):
        """An initializer constant folding made (torch names it onnx::Op_N)."""
        self.counter += 1
        return self.weight("onnx::%s_%d" % (op, self.counter), array)

    def const(self, scope, array):
        """A Constant node, as torch emits for Python scalars and shapes."""
        node = self.unique(scope + "/Constant")
        out = node + "_output_0"
        self.used.add(out)
        self.nodes.append(helper.make_node(
            "Constant", [], [out], name=node,
            value=numpy_helper.from_array(np.asarray(array))))
        return out

    def node(self, op, inputs, scope="", outputs=1, **attrs):
        name = self.unique(scope + "/" + op)
        outs = [name + "_output_%d" % i for i in range(outputs)]
        self.used.update(outs)
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if outputs == 1 else outs

    def uniform(self, shape, bound):
        return self.rng.uniform(-bound, bound, shape).astype(np.float32)

    def normal(self, shape, scale=1.0, mean=0.0):
        return (mean + scale * self.rng.standard_normal(shape)).astype(np.float32)

    def model(self, name, inputs, outputs, opset, input_spec=None,
              value_info=False):
        graph = helper.make_graph(self.nodes, name, inputs, outputs,
                                  initializer=self.initializers)
        m = helper.make_model(
            graph, producer_name="pytorch", producer_version="1.13.1",
            opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8 if opset <= 17 else 9  # what torch 1.13 writes
        if input_spec:
            helper.set_model_props(m, {INPUTS_KEY: json.dumps(input_spec)})
        if value_info:  # torch records inferred shapes of intermediates
            m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
        onnx.checker.check_model(m, full_check=True)
        return m


def dims(dynamic, names, sizes):
    return [n if dynamic else s for n, s in zip(names, sizes)]


def linear_bound(fan_in):
    """Biases: torch's default init, U(+-1/sqrt(fan_in))."""
    return 1.0 / math.sqrt(fan_in)


def weight_bound(fan_in):
    """Weights: He-uniform, U(+-sqrt(6/fan_in)), so that activations keep
    their scale through ReLU layers as in trained networks. torch's default
    (bound 1/sqrt(fan_in)) shrinks them about 2.5x per layer: the outputs of
    a random ResNet then hardly depend on the input (mostly the last bias),
    and a wrong convolution could hide below the tolerance."""
    return math.sqrt(6.0 / fan_in)


# --- MLP ---------------------------------------------------------------------

def mlp(sizes=(30, 67, 45, 10), batch=4, seed=0, opset=14, form="gemm",
        seq=3, dynamic=False, constants=False, value_info=False):
    """Linear+ReLU chain (no ReLU after the last). form="gemm": input
    [batch, in], Gemm(transB=1); form="matmul": input [batch, seq, in]
    (torch's >2D Linear), MatMul + Add(bias, y). dynamic: batch (and seq)
    symbolic. Input named like an unnamed torch input (onnx::Gemm_0)."""
    g = Graph(seed, constants)
    if form not in ("gemm", "matmul"):
        raise ValueError("form must be gemm or matmul")
    if form == "gemm":
        x = "onnx::Gemm_0"
        in_dims = dims(dynamic, ["batch"], [batch]) + [sizes[0]]
    else:
        x = "onnx::MatMul_0"
        in_dims = dims(dynamic, ["batch", "seq"], [batch, seq]) + [sizes[0]]
    g.used.add(x)
    h = x
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        scope = "/fc%d" % i
        w = g.uniform((n_out, n_in), weight_bound(n_in))
        b = g.uniform((n_out,), linear_bound(n_in))
        if form == "gemm":
            h = g.node("Gemm", [h, g.weight("fc%d.weight" % i, w),
                                g.weight("fc%d.bias" % i, b)], scope,
                       alpha=1.0, beta=1.0, transB=1)
        else:
            h = g.node("MatMul", [h, g.folded("MatMul", w.T)], scope)
            h = g.node("Add", [g.weight("fc%d.bias" % i, b), h], scope)
        if i + 2 < len(sizes):
            h = g.node("Relu", [h], "/relu%d" % i)
    out_dims = in_dims[:-1] + [sizes[-1]]
    return g.model("mlp", [helper.make_tensor_value_info(x, TensorProto.FLOAT, in_dims)],
                   [helper.make_tensor_value_info(h, TensorProto.FLOAT, out_dims)],
                   opset, value_info=value_info)


# --- CNNs --------------------------------------------------------------------

def conv_bn(g, x, scope, prefix, c_in, c_out, k, stride=1, pad=0, group=1,
            fold_bn=True, bias=False):
    """Conv(bias=False) + BatchNorm in eval mode: fused by the export into
    one Conv with a bias (fold_bn), else Conv + BatchNormalization."""
    fan_in = c_in // group * k * k
    w = g.uniform((c_out, c_in // group, k, k), weight_bound(fan_in))
    b = g.uniform((c_out,), linear_bound(fan_in)) if bias else np.zeros(c_out, np.float32)
    gamma = g.normal((c_out,), 0.1, 1.0)
    beta = g.normal((c_out,), 0.1)
    mean = g.normal((c_out,), 0.1)
    var = g.rng.uniform(0.5, 1.5, (c_out,)).astype(np.float32)
    eps = 1e-5
    attrs = dict(dilations=[1, 1], group=group, kernel_shape=[k, k],
                 pads=[pad] * 4, strides=[stride, stride])
    if fold_bn:
        scale = gamma / np.sqrt(var + eps)
        w_f = (w * scale[:, None, None, None]).astype(np.float32)
        b_f = ((b - mean) * scale + beta).astype(np.float32)
        return g.node("Conv", [x, g.folded("Conv", w_f), g.folded("Conv", b_f)],
                      scope + "/conv", **attrs)
    ins = [x, g.weight(prefix + "conv.weight", w)]
    if bias:
        ins.append(g.weight(prefix + "conv.bias", b))
    y = g.node("Conv", ins, scope + "/conv", **attrs)
    return g.node("BatchNormalization",
                  [y, g.weight(prefix + "bn.weight", gamma), g.weight(prefix + "bn.bias", beta),
                   g.weight(prefix + "bn.running_mean", mean),
                   g.weight(prefix + "bn.running_var", var)],
                  scope + "/bn", epsilon=eps, momentum=0.9)


def classifier(g, x, c_in, classes):
    """torchvision's head: GlobalAveragePool, Flatten(1), Linear (Gemm)."""
    x = g.node("GlobalAveragePool", [x], "/avgpool")
    x = g.node("Flatten", [x], "", axis=1)
    return g.node("Gemm", [x, g.weight("fc.weight",
                                       g.uniform((classes, c_in), weight_bound(c_in))),
                           g.weight("fc.bias", g.uniform((classes,), linear_bound(c_in)))],
                  "/fc", alpha=1.0, beta=1.0, transB=1)


def resnet(batch=1, image=30, channels=(8, 16, 32), blocks=1, classes=10,
           stem_channels=8, seed=0, opset=14, fold_bn=True, dynamic=False,
           constants=False, value_info=False):
    """ResNet with BasicBlocks: Conv7x7/2 + BN + Relu + MaxPool3x3/2, stages
    of `blocks` blocks (the first of each later stage strided, with a 1x1
    Conv+BN downsample), residual Add + Relu, then the classifier head."""
    g = Graph(seed, constants)
    x = "input"
    g.used.add(x)
    h = conv_bn(g, x, "/stem", "stem.", 3, stem_channels, 7, 2, 3, fold_bn=fold_bn)
    h = g.node("Relu", [h], "/stem")
    h = g.node("MaxPool", [h], "/maxpool", ceil_mode=0, kernel_shape=[3, 3],
               pads=[1, 1, 1, 1], strides=[2, 2])
    c = stem_channels
    for s, c_out in enumerate(channels):
        for bi in range(blocks):
            stride = 2 if s > 0 and bi == 0 else 1
            scope = "/layer%d/layer%d.%d" % (s + 1, s + 1, bi)
            prefix = "layer%d.%d." % (s + 1, bi)
            y = conv_bn(g, h, scope + "/1", prefix + "1.", c, c_out, 3, stride, 1,
                        fold_bn=fold_bn)
            y = g.node("Relu", [y], scope + "/relu")
            y = conv_bn(g, y, scope + "/2", prefix + "2.", c_out, c_out, 3, 1, 1,
                        fold_bn=fold_bn)
            identity = h
            if stride != 1 or c != c_out:
                identity = conv_bn(g, h, scope + "/downsample", prefix + "downsample.",
                                   c, c_out, 1, stride, 0, fold_bn=fold_bn)
            h = g.node("Add", [y, identity], scope)
            h = g.node("Relu", [h], scope + "/relu_1")
            c = c_out
    out = classifier(g, h, c, classes)
    b = dims(dynamic, ["batch"], [batch])
    return g.model("resnet", [helper.make_tensor_value_info(
                       x, TensorProto.FLOAT, b + [3, image, image])],
                   [helper.make_tensor_value_info(out, TensorProto.FLOAT, b + [classes])],
                   opset, value_info=value_info)


def relu6(g, x, scope):
    """F.relu6 / nn.ReLU6 (hardtanh 0..6): Clip with min and max inputs."""
    lo = g.const(scope, np.array(0.0, np.float32))
    hi = g.const(scope, np.array(6.0, np.float32))
    return g.node("Clip", [x, lo, hi], scope)


def mobilenet(batch=1, image=30, stem_channels=8,
              blocks=((1, 8, 1, 1), (4, 12, 2, 2), (4, 16, 1, 2)),
              last_channels=32, classes=10, seed=0, opset=14, fold_bn=True,
              dynamic=False, constants=False, value_info=False):
    """MobileNetV2: Conv3x3/2 + relu6, inverted residual blocks
    (expansion t, channels c, repeats n, stride s): 1x1 expand Conv + relu6
    (t != 1), 3x3 depthwise Conv (group = channels) + relu6, 1x1 project
    Conv (linear), residual Add when stride 1 and channels unchanged; then
    1x1 Conv + relu6 and the classifier head."""
    g = Graph(seed, constants)
    x = "input"
    g.used.add(x)
    h = conv_bn(g, x, "/features.0", "features.0.", 3, stem_channels, 3, 2, 1,
                fold_bn=fold_bn)
    h = relu6(g, h, "/features.0/relu6")
    c = stem_channels
    layer = 1
    for t, c_out, n, s in blocks:
        for i in range(n):
            stride = s if i == 0 else 1
            scope = "/features.%d" % layer
            prefix = "features.%d." % layer
            hidden = c * t
            y = h
            if t != 1:
                y = conv_bn(g, y, scope + "/expand", prefix + "expand.", c, hidden, 1,
                            fold_bn=fold_bn)
                y = relu6(g, y, scope + "/expand/relu6")
            y = conv_bn(g, y, scope + "/dw", prefix + "dw.", hidden, hidden, 3, stride, 1,
                        group=hidden, fold_bn=fold_bn)
            y = relu6(g, y, scope + "/dw/relu6")
            y = conv_bn(g, y, scope + "/project", prefix + "project.", hidden, c_out, 1,
                        fold_bn=fold_bn)
            if stride == 1 and c == c_out:
                y = g.node("Add", [h, y], scope)
            h = y
            c = c_out
            layer += 1
    h = conv_bn(g, h, "/features.%d" % layer, "features.%d." % layer, c, last_channels, 1,
                fold_bn=fold_bn)
    h = relu6(g, h, "/features.%d/relu6" % layer)
    out = classifier(g, h, last_channels, classes)
    b = dims(dynamic, ["batch"], [batch])
    return g.model("mobilenet", [helper.make_tensor_value_info(
                       x, TensorProto.FLOAT, b + [3, image, image])],
                   [helper.make_tensor_value_info(out, TensorProto.FLOAT, b + [classes])],
                   opset, value_info=value_info)


# --- Transformer encoder (BERT-style) -----------------------------------------

def transformer(batch=2, seq=7, hidden=36, heads=3, ffn=50, layers=2, vocab=50,
                max_positions=64, seed=0, opset=14, layernorm="decomposed",
                mask=True, pooler=True, dynamic=False, constants=False,
                value_info=False, eps=1e-12):
    """A BERT encoder as HuggingFace models export: inputs input_ids
    (int64 [batch, seq]) and attention_mask (int64, mask=True); outputs
    last_hidden_state [batch, seq, hidden] and pooler_output [batch,
    hidden] (pooler=True). layernorm="fused" uses LayerNormalization
    (opset >= 17), "decomposed" the ReduceMean/Pow/Sqrt chain.
    dynamic: batch and sequence are symbolic and every shape is computed
    in the graph."""
    if layernorm == "fused" and opset < 17:
        raise ValueError("LayerNormalization needs opset >= 17")
    if hidden % heads:
        raise ValueError("hidden must be a multiple of heads")
    head = hidden // heads
    g = Graph(seed, constants)
    i64 = lambda v: np.array(v, np.int64)

    def unsqueeze(x, axes, scope):
        if opset >= 13:
            return g.node("Unsqueeze", [x, g.const(scope, i64(axes))], scope)
        return g.node("Unsqueeze", [x], scope, axes=axes)

    def shape_dim(x, index, scope):
        """Shape(x)[index] as a 1-element tensor: Shape, Gather, Unsqueeze."""
        s = g.node("Shape", [x], scope)
        d = g.node("Gather", [s, g.const(scope, i64(index))], scope, axis=0)
        return unsqueeze(d, [0], scope)

    def layer_norm(x, scope, prefix):
        gamma = g.weight(prefix + "LayerNorm.weight", g.normal((hidden,), 0.1, 1.0))
        beta = g.weight(prefix + "LayerNorm.bias", g.normal((hidden,), 0.1))
        scope += "/LayerNorm"
        if layernorm == "fused":
            return g.node("LayerNormalization", [x, gamma, beta], scope, axis=-1,
                          epsilon=eps)
        mean = g.node("ReduceMean", [x], scope, axes=[-1], keepdims=1)
        d = g.node("Sub", [x, mean], scope)
        sq = g.node("Pow", [d, g.const(scope, np.array(2.0, np.float32))], scope)
        var = g.node("ReduceMean", [sq], scope, axes=[-1], keepdims=1)
        var = g.node("Add", [var, g.const(scope, np.array(eps, np.float32))], scope)
        std = g.node("Sqrt", [var], scope)
        y = g.node("Div", [d, std], scope)
        y = g.node("Mul", [y, gamma], scope)
        return g.node("Add", [y, beta], scope)

    def linear(x, n_in, n_out, scope, prefix):
        w = g.uniform((n_out, n_in), weight_bound(n_in))
        b = g.uniform((n_out,), linear_bound(n_in))
        y = g.node("MatMul", [x, g.folded("MatMul", w.T)], scope)
        return g.node("Add", [g.weight(prefix + "bias", b), y], scope)

    def split_heads(x, scope, perm):
        if dynamic:
            shape = g.node("Concat", [shape_dim(x, 0, scope), shape_dim(x, 1, scope),
                                      g.const(scope, i64([heads])),
                                      g.const(scope, i64([head]))], scope, axis=0)
        else:  # traced sizes, folded into an initializer
            shape = g.folded("Reshape", i64([batch, seq, heads, head]))
        x = g.node("Reshape", [x, shape], scope)
        return g.node("Transpose", [x], scope, perm=perm)

    ids = "input_ids"
    g.used.add(ids)
    inputs = [helper.make_tensor_value_info(
        ids, TensorProto.INT64, dims(dynamic, ["batch", "sequence"], [batch, seq]))]
    spec = {ids: {"int_range": [0, vocab]}}

    # Embeddings: word + position (+ token type 0, folded into a row add).
    scope = "/embeddings"
    words = g.node("Gather", [g.weight("embeddings.word_embeddings.weight",
                                       g.normal((vocab, hidden))), ids],
                   scope + "/word_embeddings", axis=0)
    pos_table = g.weight("embeddings.position_embeddings.weight",
                         g.normal((max_positions, hidden)))
    if dynamic:
        # position_ids[:, :seq_len] of a registered buffer, then Gather.
        buffer = g.weight("embeddings.position_ids",
                          np.arange(max_positions, dtype=np.int64)[None, :])
        seq_len = shape_dim(ids, 1, scope)
        pos_ids = g.node("Slice", [buffer, g.const(scope, i64([0])), seq_len,
                                   g.const(scope, i64([1])), g.const(scope, i64([1]))],
                         scope)
        pos = g.node("Gather", [pos_table, pos_ids], scope + "/position_embeddings",
                     axis=0)
    else:
        pos = g.node("Gather", [pos_table, g.folded(
            "Gather", np.arange(seq, dtype=np.int64)[None, :])],
            scope + "/position_embeddings", axis=0)
    token_type = g.weight("embeddings.token_type_embeddings.weight",
                          g.normal((2, hidden)))
    tt = g.node("Gather", [token_type, g.folded("Gather", np.zeros((1, 1), np.int64))],
                scope + "/token_type_embeddings", axis=0)
    h = g.node("Add", [words, tt], scope)
    h = g.node("Add", [h, pos], scope)
    h = layer_norm(h, scope, "embeddings.")

    ext_mask = None
    if mask:
        am = "attention_mask"
        g.used.add(am)
        inputs.append(helper.make_tensor_value_info(
            am, TensorProto.INT64, dims(dynamic, ["batch", "sequence"], [batch, seq])))
        spec[am] = {"mask": True}
        # (1.0 - mask[:, None, None, :].to(float)) * -10000.0
        m = unsqueeze(am, [1], "")
        m = unsqueeze(m, [2], "")
        m = g.node("Cast", [m], "", to=TensorProto.FLOAT)
        m = g.node("Sub", [g.const("", np.array(1.0, np.float32)), m], "")
        ext_mask = g.node("Mul", [m, g.const("", np.array(-10000.0, np.float32))], "")

    for li in range(layers):
        scope = "/encoder/layer.%d" % li
        prefix = "encoder.layer.%d." % li
        s_att = scope + "/attention/self"
        p_att = prefix + "attention.self."
        q = linear(h, hidden, hidden, s_att + "/query", p_att + "query.")
        k = linear(h, hidden, hidden, s_att + "/key", p_att + "key.")
        v = linear(h, hidden, hidden, s_att + "/value", p_att + "value.")
        q = split_heads(q, s_att, [0, 2, 1, 3])
        k = split_heads(k, s_att, [0, 2, 3, 1])  # transpose(-1, -2) folded in
        v = split_heads(v, s_att, [0, 2, 1, 3])
        scores = g.node("MatMul", [q, k], s_att)
        scores = g.node("Div", [scores, g.const(s_att, np.array(math.sqrt(head),
                                                                np.float32))], s_att)
        if ext_mask is not None:
            scores = g.node("Add", [scores, ext_mask], s_att)
        probs = g.node("Softmax", [scores], s_att, axis=-1)
        ctx = g.node("MatMul", [probs, v], s_att)
        ctx = g.node("Transpose", [ctx], s_att, perm=[0, 2, 1, 3])
        if dynamic:
            # context.size()[:-2] + (hidden,): Shape, Slice, Concat.
            sh = g.node("Shape", [ctx], s_att)
            lead = g.node("Slice", [sh, g.const(s_att, i64([0])), g.const(s_att, i64([-2])),
                                    g.const(s_att, i64([0]))], s_att)
            shape = g.node("Concat", [lead, g.const(s_att, i64([hidden]))], s_att, axis=0)
        else:
            shape = g.folded("Reshape", i64([batch, seq, hidden]))
        ctx = g.node("Reshape", [ctx, shape], s_att)
        s_out = scope + "/attention/output"
        a = linear(ctx, hidden, hidden, s_out + "/dense", prefix + "attention.output.dense.")
        a = g.node("Add", [a, h], s_out)
        h = layer_norm(a, s_out, prefix + "attention.output.")

        s_int = scope + "/intermediate"
        f = linear(h, hidden, ffn, s_int + "/dense", prefix + "intermediate.dense.")
        # GELU: x * 0.5 * (1.0 + erf(x / sqrt(2.0)))
        s_gelu = s_int + "/intermediate_act_fn"
        e = g.node("Div", [f, g.const(s_gelu, np.array(math.sqrt(2.0), np.float32))], s_gelu)
        e = g.node("Erf", [e], s_gelu)
        e = g.node("Add", [e, g.const(s_gelu, np.array(1.0, np.float32))], s_gelu)
        f = g.node("Mul", [f, e], s_gelu)
        f = g.node("Mul", [f, g.const(s_gelu, np.array(0.5, np.float32))], s_gelu)
        s_o = scope + "/output"
        o = linear(f, ffn, hidden, s_o + "/dense", prefix + "output.dense.")
        o = g.node("Add", [o, h], s_o)
        h = layer_norm(o, s_o, prefix + "output.")

    # Graph outputs carry the names given to the export (output_names).
    assert g.nodes[-1].output[0] == h
    g.nodes[-1].output[0] = "last_hidden_state"
    bs = dims(dynamic, ["batch", "sequence"], [batch, seq])
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                             bs + [hidden])]
    if pooler:
        # hidden_states[:, 0] -> Linear -> Tanh
        first = g.node("Gather", ["last_hidden_state", g.const("/pooler", i64(0))],
                       "/pooler", axis=1)
        p = g.node("Gemm", [first, g.weight("pooler.dense.weight",
                                            g.uniform((hidden, hidden), weight_bound(hidden))),
                            g.weight("pooler.dense.bias",
                                     g.uniform((hidden,), linear_bound(hidden)))],
                   "/pooler/dense", alpha=1.0, beta=1.0, transB=1)
        g.node("Tanh", [p], "/pooler/activation")
        g.nodes[-1].output[0] = "pooler_output"
        outputs.append(helper.make_tensor_value_info(
            "pooler_output", TensorProto.FLOAT, bs[:1] + [hidden]))
    return g.model("transformer", inputs, outputs, opset, spec, value_info)


FAMILIES = {"mlp": mlp, "resnet": resnet, "mobilenet": mobilenet,
            "transformer": transformer}

# Named configurations (the small sizes test/numeric/ort runs). The default sizes
# are deliberately not multiples of 8 or 16: vector tiles get remainders.
PRESETS = {
    "mlp_gemm": ("mlp", {}),
    "mlp_gemm_dynamic": ("mlp", {"dynamic": True}),
    "mlp_matmul": ("mlp", {"form": "matmul"}),
    "mlp_matmul_dynamic": ("mlp", {"form": "matmul", "dynamic": True}),
    "mlp_constants": ("mlp", {"constants": True}),
    "resnet_folded": ("resnet", {"batch": 2}),
    "resnet_bn": ("resnet", {"batch": 2, "fold_bn": False, "opset": 15}),
    "resnet_dynamic": ("resnet", {"dynamic": True, "blocks": 2}),
    "mobilenet": ("mobilenet", {"batch": 2}),
    "mobilenet_bn_dynamic": ("mobilenet", {"fold_bn": False, "dynamic": True,
                                           "opset": 13}),
    "bert_decomposed": ("transformer", {}),
    "bert_layernorm": ("transformer", {"opset": 17, "layernorm": "fused"}),
    "bert_nomask": ("transformer", {"mask": False, "opset": 13}),
    "bert_dynamic": ("transformer", {"dynamic": True, "value_info": True}),
    "bert_layernorm_dynamic": ("transformer", {"dynamic": True, "opset": 17,
                                               "layernorm": "fused"}),
    "bert_constants": ("transformer", {"constants": True, "opset": 17,
                                       "layernorm": "fused"}),
}


def build(name, overrides):
    if name in PRESETS:
        family, params = PRESETS[name]
    elif name in FAMILIES:
        family, params = name, {}
    else:
        raise SystemExit("gen_models: unknown model '%s' (see `list`)" % name)
    params = dict(params, **overrides)
    return FAMILIES[family](**params)


# --- Inputs ------------------------------------------------------------------

NP_TYPES = {TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64,
            TensorProto.FLOAT16: np.float16, TensorProto.INT64: np.int64,
            TensorProto.INT32: np.int32, TensorProto.BOOL: np.bool_}


def make_inputs(model, bindings, seed):
    """Random inputs for the graph inputs (initializers excluded)."""
    rng = np.random.default_rng(seed)
    props = {p.key: p.value for p in model.metadata_props}
    spec = json.loads(props.get(INPUTS_KEY, "{}"))
    inits = {t.name for t in model.graph.initializer}
    arrays = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        shape = []
        for d in tt.shape.dim:
            if d.HasField("dim_value"):
                shape.append(d.dim_value)
            elif d.dim_param in bindings:
                shape.append(bindings[d.dim_param])
            else:
                raise SystemExit("gen_models: input '%s' has symbolic dim '%s': give --dim %s=N"
                                 % (vi.name, d.dim_param, d.dim_param or "?"))
        dtype = NP_TYPES.get(tt.elem_type)
        if dtype is None:
            raise SystemExit("gen_models: input '%s' has an unsupported type" % vi.name)
        how = spec.get(vi.name, {})
        if "int_range" in how:
            lo, hi = how["int_range"]
            a = rng.integers(lo, hi, shape).astype(dtype)
        elif "positions" in how:
            # Each row: start, start + 1, ... (position_ids after a cache of
            # `start` tokens).
            a = np.broadcast_to(how["positions"] + np.arange(shape[-1]),
                                shape).astype(dtype)
        elif how.get("mask"):
            # Each row: ones up to a random length >= 1, then zeros (padding).
            a = np.zeros(shape, dtype)
            rows = a.reshape(-1, shape[-1])
            for r in rows:
                r[:rng.integers(1, shape[-1] + 1)] = 1
        elif dtype == np.bool_:
            a = rng.integers(0, 2, shape).astype(dtype)
        elif np.issubdtype(dtype, np.integer):
            a = rng.integers(-10, 10, shape).astype(dtype)
        else:
            a = rng.standard_normal(shape).astype(dtype)
        arrays.append((vi.name, a))
    return arrays


def parse_assignments(items, convert):
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit("gen_models: expected KEY=VALUE, got '%s'" % item)
        out[key] = convert(value)
    return out


def literal(value):
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value  # a bare string: --set layernorm=fused


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the families and presets")
    pm = sub.add_parser("model", help="write a model")
    pm.add_argument("name")
    pm.add_argument("-o", "--output", required=True)
    pm.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    pi = sub.add_parser("inputs", help="write random inputs for a model")
    pi.add_argument("model")
    pi.add_argument("-o", "--output", required=True, metavar="DIR")
    pi.add_argument("--dim", action="append", default=[], metavar="NAME=N")
    pi.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    if args.cmd == "list":
        for name, fn in FAMILIES.items():
            print("%-24s family: %s" % (name, fn.__doc__.strip().split("\n")[0]))
        for name, (family, params) in PRESETS.items():
            print("%-24s %s %s" % (name, family, params))
        return 0
    if args.cmd == "model":
        m = build(args.name, parse_assignments(args.set, literal))
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        onnx.save(m, args.output)
        return 0
    model = onnx.load(args.model)
    bindings = parse_assignments(args.dim, int)
    os.makedirs(args.output, exist_ok=True)
    for i, (name, a) in enumerate(make_inputs(model, bindings, args.seed)):
        with open(os.path.join(args.output, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, name).SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

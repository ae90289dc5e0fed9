#!/usr/bin/python3
"""ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul,
DynamicQuantizeLinear and dynamic quantization's dequantizing chains, with
ONNX Runtime as the oracle.

    gen_quant_ops.py write DIR            DIR/quant/<case>/model.onnx and
                                          test_data_set_0/input_<i>.pb
    gen_quant_ops.py oracle DIR CMD...    runs CMD MODEL --inputs SET
                                          --save SET (ort_run.js) on every
                                          case: the expected outputs

The layout is the conformance runner's (--data DIR --suites quant). Every
case comes twice: with static shapes (batch 1 or 2), and `_nbatch`, whose
activations have a symbolic batch dim N (data at batch 3). The ONNX tests
cover one small case per op; these add uint8 and int8 activations and
weights, zero points absent, per tensor, per row of A and per output
channel, groups, strides, dilations, asymmetric pads, auto_pad, 1-D
convolutions, depthwise, batched products, per-channel QLinearConv and
per-column QLinearMatMul scales, int8 outputs, convolutions in QDQ form
(DequantizeLinear -> Conv -> [Relu] -> QuantizeLinear, which ONNX Runtime
fuses into QLinearConv; one with a bias scale off by an ulp, which is not
fused), and the chains ONNX Runtime's quantize_dynamic writes: DynamicQuantizeLinear, then ConvInteger
or MatMulInteger, Cast to float, Mul by the product of the two scales, the
bias (Reshape + Add for a Conv; Add with the bias first, as torch exports a
Linear), Relu or Clip; and DynamicQuantizeLinear on all-zero, all-negative,
all-positive inputs.
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402

TYPES = {np.float32: T.FLOAT, np.uint8: T.UINT8, np.int8: T.INT8,
         np.int32: T.INT32, np.int64: T.INT64}


class Graph:
    """A one-case graph: activations are graph inputs (their dim 0 the
    batch), everything else initializers."""

    def __init__(self, dynamic):
        self.dynamic = dynamic
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []

    def input(self, name, array):
        self.inputs.append((name, array))
        return name

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, ins, outs, **attrs):
        self.nodes.append(helper.make_node(op, ins, outs, **attrs))
        return outs[0] if len(outs) == 1 else outs

    def output(self, name, elem):
        self.outputs.append(helper.make_tensor_value_info(name, elem, None))

    def model(self, opset=13):
        vis = []
        for name, a in self.inputs:
            shape = list(a.shape)
            if self.dynamic:
                shape[0] = "N"
            vis.append(helper.make_tensor_value_info(
                name, TYPES[a.dtype.type], shape))
        g = helper.make_graph(self.nodes, "quant", vis, self.outputs,
                              self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        return m, [a for _, a in self.inputs]


def qbytes(rng, shape, dtype):
    lo, hi = (0, 255) if dtype == np.uint8 else (-128, 127)
    return rng.integers(lo, hi + 1, shape).astype(dtype)


def zp(rng, dtype, shape=()):
    return qbytes(rng, shape, dtype)


# ---- ConvInteger -----------------------------------------------------------

def convinteger(rng, b, dyn, x_t=np.uint8, w_t=np.int8, x_zp=True, w_zp=True,
                w_zp_per_channel=False, c=5, m=7, hw=(9, 10), k=(3, 3),
                **attrs):
    g = Graph(dyn)
    group = attrs.get("group", 1)
    x = g.input("x", qbytes(rng, (b, c * group) + hw, x_t))
    w = g.init("w", qbytes(rng, (m, c) + k, w_t))
    ins = [x, w]
    if x_zp or w_zp:
        ins.append(g.init("x_zp", zp(rng, x_t)) if x_zp else "")
    if w_zp:
        ins.append(g.init("w_zp", zp(rng, w_t, (m,) if w_zp_per_channel else ())))
    g.node("ConvInteger", ins, ["y"], **attrs)
    g.output("y", T.INT32)
    model = g.model(10)
    # int8 inputs with uint8 weights: ONNX Runtime on a CPU without VNNI
    # (an AMD EPYC Zen 3) sums pairs of products in int16 with saturation,
    # 122 of this case's 224 outputs off by up to 23551; numpy is the
    # oracle (exact, as onnxc is on every tier).
    if w_zp_per_channel or (x_t == np.int8 and w_t == np.uint8):
        init = {t.name: numpy_helper.to_array(t) for t in g.inits}
        return model + (conv_reference(g.inputs[0][1], init["w"], init["x_zp"],
                                       init["w_zp"], attrs),)
    return model


def conv_reference(x, w, x_zp, w_zp, attrs):
    """ConvInteger in numpy (2-D, explicit pads, strides; group 1)."""
    pt, pl, pb, pr = attrs.get("pads", [0, 0, 0, 0])
    sh, sw = attrs.get("strides", [1, 1])
    xi = x.astype(np.int64) - np.int64(x_zp)
    wi = w.astype(np.int64) - np.asarray(w_zp, np.int64).reshape(-1, 1, 1, 1)
    xi = np.pad(xi, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    n, c, h, wd = xi.shape
    m, _, kh, kw = wi.shape
    oh, ow = (h - kh) // sh + 1, (wd - kw) // sw + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            win = xi[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]
            y[:, :, i, j] = np.einsum("nckl,mckl->nm", win, wi)
    return y.astype(np.int32)


def convinteger_cases(rng):
    yield "convinteger_u8x_s8w", dict()
    yield "convinteger_u8w", dict(w_t=np.uint8, pads=[1, 1, 1, 1])
    yield "convinteger_s8x_s8w", dict(x_t=np.int8, pads=[0, 1, 2, 1])
    yield "convinteger_s8x_u8w", dict(x_t=np.int8, w_t=np.uint8, strides=[2, 1])
    yield "convinteger_no_zp", dict(x_zp=False, w_zp=False, pads=[1, 1, 1, 1])
    yield "convinteger_x_zp_only", dict(w_zp=False, pads=[1, 1, 1, 1])
    # ONNX Runtime takes only a per-tensor w_zero_point: numpy is the oracle
    # (write() saves the expected output; oracle() skips the case); so for
    # int8 x uint8 weights (convinteger() says why).
    yield "convinteger_w_zp_per_channel", dict(w_t=np.uint8, w_zp_per_channel=True,
                                               pads=[1, 2, 1, 0])
    yield "convinteger_groups_strides", dict(group=3, c=2, m=6, strides=[2, 2],
                                             pads=[1, 0, 0, 1])
    yield "convinteger_dilations", dict(dilations=[2, 3], pads=[2, 3, 2, 3],
                                        hw=(11, 13))
    yield "convinteger_depthwise", dict(group=8, c=1, m=8, pads=[1, 1, 1, 1])
    yield "convinteger_same_upper", dict(auto_pad="SAME_UPPER", strides=[2, 2],
                                         hw=(10, 9))
    yield "convinteger_1x1_wide", dict(c=40, m=33, k=(1, 1), hw=(6, 7))
    yield "convinteger_1d", dict(hw=(23,), k=(5,), pads=[2, 1], strides=[2])
    yield "convinteger_1d_dilated_u8w", dict(hw=(30,), k=(3,), dilations=[3],
                                             w_t=np.uint8, pads=[3, 3])


# ---- MatMulInteger -----------------------------------------------------------

def matmulinteger(rng, b, dyn, a_t=np.uint8, b_t=np.int8, a_zp="tensor",
                  b_zp="tensor", m=5, k=19, n=37, a_rank=3, batched_b=False):
    g = Graph(dyn)
    a_shape = (b, m, k) if a_rank == 3 else (b * m, k)
    a = g.input("a", qbytes(rng, a_shape, a_t))
    if batched_b:
        bb = g.input("b", qbytes(rng, (b, k, n), b_t))
    else:
        bb = g.init("b", qbytes(rng, (k, n), b_t))
    ins = [a, bb]
    if a_zp or b_zp:
        if a_zp == "row":
            ins.append(g.init("a_zp", zp(rng, a_t, (a_shape[-2],))))
        else:
            ins.append(g.init("a_zp", zp(rng, a_t)) if a_zp else "")
    if b_zp:
        ins.append(g.init("b_zp", zp(rng, b_t, (n,) if b_zp == "column" else ())))
    g.node("MatMulInteger", ins, ["y"])
    g.output("y", T.INT32)
    model = g.model(10)
    if a_zp == "row":
        # ONNX Runtime takes only a per-tensor a_zero_point: numpy decides.
        init = {t.name: numpy_helper.to_array(t) for t in g.inits}
        av = g.inputs[0][1].astype(np.int64) - init["a_zp"].astype(np.int64)[:, None]
        bz = init["b_zp"].astype(np.int64) if b_zp else 0
        return model + (np.matmul(av, init["b"].astype(np.int64) - bz).astype(np.int32),)
    return model


def matmulinteger_cases(rng):
    yield "matmulinteger_u8a_s8b", dict()
    yield "matmulinteger_2d_u8b", dict(a_rank=2, b_t=np.uint8)
    yield "matmulinteger_s8a", dict(a_t=np.int8, b_t=np.uint8)
    yield "matmulinteger_no_zp", dict(a_zp=None, b_zp=None, k=64, n=40)
    yield "matmulinteger_b_zp_per_column", dict(b_zp="column", b_t=np.uint8)
    yield "matmulinteger_a_zp_per_row", dict(a_zp="row", a_rank=3)
    yield "matmulinteger_both_per_axis", dict(a_zp="row", b_zp="column", k=70)
    yield "matmulinteger_batched_b", dict(batched_b=True, m=9, k=33, n=20)


# ---- QLinearConv / QLinearMatMul -------------------------------------------------

def qlinearconv(rng, b, dyn, x_t=np.uint8, w_t=np.int8, y_t=np.uint8,
                per_channel=False, bias=True, c=6, m=9, hw=(8, 9), k=(3, 3),
                **attrs):
    g = Graph(dyn)
    group = attrs.get("group", 1)
    x = g.input("x", qbytes(rng, (b, c * group) + hw, x_t))
    w_shape = (m, c) + k
    w = g.init("w", qbytes(rng, w_shape, w_t))
    ch = (m,) if per_channel else ()
    ins = [x, g.init("x_scale", np.float32(0.05)), g.init("x_zp", zp(rng, x_t)),
           w, g.init("w_scale", rng.uniform(0.002, 0.01, ch).astype(np.float32)),
           # ONNX Runtime takes only symmetric int8 weights per channel.
           g.init("w_zp", np.zeros(ch, w_t) if w_t == np.int8 else zp(rng, w_t, ch)),
           g.init("y_scale", np.float32(0.7)), g.init("y_zp", zp(rng, y_t))]
    if bias:
        ins.append(g.init("bias", rng.integers(-3000, 3000, (m,)).astype(np.int32)))
    g.node("QLinearConv", ins, ["y"], **attrs)
    g.output("y", TYPES[y_t])
    return g.model(10)


def qlinearconv_cases(rng):
    yield "qlinearconv_per_tensor", dict(pads=[1, 1, 1, 1])
    yield "qlinearconv_per_channel", dict(per_channel=True, pads=[1, 1, 1, 1])
    yield "qlinearconv_s8_out", dict(x_t=np.int8, y_t=np.int8, pads=[0, 1, 1, 0])
    yield "qlinearconv_u8w_no_bias", dict(w_t=np.uint8, bias=False, strides=[2, 2])
    yield "qlinearconv_groups_dilated", dict(group=2, c=3, m=4, dilations=[2, 2],
                                             pads=[2, 2, 2, 2], per_channel=True)
    yield "qlinearconv_1d", dict(hw=(21,), k=(3,), pads=[1, 1])


def qlinearmatmul(rng, b, dyn, a_t=np.uint8, b_t=np.int8, y_t=np.uint8,
                  per_column=False, m=6, k=27, n=35, a_rank=3):
    g = Graph(dyn)
    a_shape = (b, m, k) if a_rank == 3 else (b * m, k)
    cols = (n,) if per_column else ()
    ins = [g.input("a", qbytes(rng, a_shape, a_t)),
           g.init("a_scale", np.float32(0.04)), g.init("a_zp", zp(rng, a_t)),
           g.init("b", qbytes(rng, (k, n), b_t)),
           g.init("b_scale", rng.uniform(0.002, 0.01, cols).astype(np.float32)),
           g.init("b_zp", zp(rng, b_t, cols)),
           g.init("y_scale", np.float32(0.3)), g.init("y_zp", zp(rng, y_t))]
    g.node("QLinearMatMul", ins, ["y"])
    g.output("y", TYPES[y_t])
    return g.model(10)


def qlinearmatmul_cases(rng):
    yield "qlinearmatmul_3d", dict()
    yield "qlinearmatmul_2d_s8", dict(a_rank=2, a_t=np.int8, y_t=np.int8)
    yield "qlinearmatmul_u8b", dict(b_t=np.uint8, k=64)
    yield "qlinearmatmul_per_column", dict(per_column=True, b_t=np.uint8)


# ---- Dynamic quantization (onnxruntime's quantize_dynamic) ------------------------

def dynamic_conv(rng, b, dyn, w_t=np.int8, bias=True, act=None,
                 per_channel=False, c=6, m=10, hw=(11, 12), k=(3, 3), **attrs):
    g = Graph(dyn)
    x = g.input("x", rng.standard_normal((b, c) + hw).astype(np.float32))
    xq, xs, xz = g.node("DynamicQuantizeLinear", [x], ["xq", "xs", "xz"])
    w = g.init("w", qbytes(rng, (m, c) + k, w_t))
    ws = g.init("w_scale", rng.uniform(0.002, 0.01, (1, m, 1, 1) if per_channel
                                       else ()).astype(np.float32))
    wz = g.init("w_zp", zp(rng, w_t) if w_t == np.uint8 else np.int8(0))
    acc = g.node("ConvInteger", [xq, w, xz, wz], ["acc"], **attrs)
    f = g.node("Cast", [acc], ["accf"], to=T.FLOAT)
    s = g.node("Mul", [xs, ws], ["scale"])
    y = g.node("Mul", [f, s], ["scaled"])
    if bias:
        bs = g.init("bias", rng.standard_normal((m,)).astype(np.float32))
        shape = g.init("shape", np.array([1, -1, 1, 1], np.int64))
        br = g.node("Reshape", [bs, shape], ["bias_r"])
        y = g.node("Add", [y, br], ["biased"])
    if act == "relu":
        y = g.node("Relu", [y], ["act"])
    elif act == "clip":
        y = g.node("Clip", [y, g.init("lo", np.float32(-0.5)),
                            g.init("hi", np.float32(1.5))], ["act"])
    g.nodes[-1].output[0] = "y"
    g.output("y", T.FLOAT)
    return g.model(13)


def dynamic_matmul(rng, b, dyn, w_t=np.int8, bias=True, act=None,
                   per_column=False, m=7, k=48, n=40):
    g = Graph(dyn)
    x = g.input("x", rng.standard_normal((b, m, k)).astype(np.float32))
    xq, xs, xz = g.node("DynamicQuantizeLinear", [x], ["xq", "xs", "xz"])
    w = g.init("w", qbytes(rng, (k, n), w_t))
    ws = g.init("w_scale", rng.uniform(0.002, 0.01, (n,) if per_column
                                       else ()).astype(np.float32))
    wz = g.init("w_zp", zp(rng, w_t) if w_t == np.uint8 else np.int8(0))
    acc = g.node("MatMulInteger", [xq, w, xz, wz], ["acc"])
    f = g.node("Cast", [acc], ["accf"], to=T.FLOAT)
    s = g.node("Mul", [xs, ws], ["scale"])
    y = g.node("Mul", [f, s], ["scaled"])
    if bias:
        bs = g.init("bias", rng.standard_normal((n,)).astype(np.float32))
        y = g.node("Add", [bs, y], ["biased"])
    if act == "relu":
        y = g.node("Relu", [y], ["act"])
    g.nodes[-1].output[0] = "y"
    g.output("y", T.FLOAT)
    return g.model(13)


def dynamic_cases(rng):
    yield dynamic_conv, "dynamic_conv_bias", dict(pads=[1, 1, 1, 1])
    yield dynamic_conv, "dynamic_conv_bias_relu", dict(pads=[1, 1, 1, 1], act="relu")
    yield dynamic_conv, "dynamic_conv_u8w_clip", dict(w_t=np.uint8, act="clip",
                                                      strides=[2, 2])
    yield dynamic_conv, "dynamic_conv_no_bias", dict(bias=False, dilations=[2, 2],
                                                     pads=[2, 2, 2, 2])
    yield dynamic_conv, "dynamic_conv_per_channel", dict(per_channel=True,
                                                         pads=[1, 1, 1, 1])
    yield dynamic_matmul, "dynamic_matmul_bias", dict()
    yield dynamic_matmul, "dynamic_matmul_relu_u8w", dict(w_t=np.uint8, act="relu")
    yield dynamic_matmul, "dynamic_matmul_per_column", dict(per_column=True,
                                                            bias=False)


# ---- QDQ form (onnxruntime's quantize_static with QuantFormat.QDQ) ------------

def qdq_conv(rng, b, dyn, x_t=np.uint8, per_channel=False, bias=True,
             relu=False, bias_scale_off=False, c=6, m=9, hw=(8, 9), k=(3, 3),
             **attrs):
    g = Graph(dyn)
    x = g.input("x", qbytes(rng, (b, c) + hw, x_t))
    xs = np.float32(0.05)
    xf = g.node("DequantizeLinear", [x, g.init("xs", xs), g.init("xz", zp(rng, x_t))],
                ["xf"])
    ch = (m,) if per_channel else ()
    ws = rng.uniform(0.002, 0.01, ch).astype(np.float32)
    wf = g.node("DequantizeLinear",
                [g.init("w", qbytes(rng, (m, c) + k, np.int8)), g.init("ws", ws),
                 g.init("wz", np.zeros(ch, np.int8))], ["wf"], axis=0)
    ins = [xf, wf]
    if bias:
        # The bias at the product's scale (float32), as the quantizer writes
        # it; `bias_scale_off`: one ulp off (not fused: the float path).
        bs = (xs * ws).astype(np.float32)
        if bias_scale_off:
            bs = np.nextafter(bs, np.float32(1))
        ins.append(g.node("DequantizeLinear",
                          [g.init("b", rng.integers(-3000, 3000, (m,)).astype(np.int32)),
                           g.init("bs", bs), g.init("bz", np.zeros(bs.shape, np.int32))],
                          ["bf"], axis=0))
    y = g.node("Conv", ins, ["yf"], **attrs)
    if relu:
        y = g.node("Relu", [y], ["yr"])
    g.node("QuantizeLinear", [y, g.init("ys", np.float32(0.3)),
                              g.init("yz", zp(rng, np.uint8))], ["y"])
    g.output("y", T.UINT8)
    return g.model(13)


def qdq_cases(rng):
    yield "qdq_conv_per_tensor", dict(pads=[1, 1, 1, 1])
    yield "qdq_conv_per_channel_relu", dict(per_channel=True, relu=True,
                                            pads=[1, 1, 1, 1])
    yield "qdq_conv_s8x_no_bias_strided", dict(x_t=np.int8, bias=False,
                                               strides=[2, 2])
    yield "qdq_conv_bias_scale_off", dict(bias_scale_off=True, pads=[1, 1, 1, 1])


def qdq_gemm(rng, b, dyn, op="Gemm", x_t=np.uint8, w_t=np.int8,
             per_column=False, bias=True, transB=1, k=37, n=45, rank=2,
             **attrs):
    """QuantizeLinear(Gemm|MatMul(DequantizeLinear(x), DequantizeLinear(w),
    [DequantizeLinear(bias int32)])): the QDQ form of a product."""
    g = Graph(dyn)
    shape = (b, k) if rank == 2 else (b, 3, k)
    x = g.input("x", qbytes(rng, shape, x_t))
    xs = np.float32(0.05)
    xf = g.node("DequantizeLinear", [x, g.init("xs", xs), g.init("xz", zp(rng, x_t))],
                ["xf"])
    col = (n,) if per_column else ()
    ws = rng.uniform(0.002, 0.01, col).astype(np.float32)
    wshape = (n, k) if (op == "Gemm" and transB) else (k, n)
    axis = 0 if wshape == (n, k) else 1
    wz = np.zeros(col, w_t) if w_t == np.int8 else \
        rng.integers(100, 156, col).astype(np.uint8)
    wf = g.node("DequantizeLinear",
                [g.init("w", qbytes(rng, wshape, w_t)), g.init("ws", ws),
                 g.init("wz", wz)], ["wf"], axis=axis)
    ins = [xf, wf]
    if op == "Gemm":
        if bias:
            bs = (xs * ws).astype(np.float32)
            ins.append(g.node("DequantizeLinear",
                              [g.init("b", rng.integers(-3000, 3000, (n,)).astype(np.int32)),
                               g.init("bs", bs), g.init("bz", np.zeros(bs.shape, np.int32))],
                              ["bf"], axis=0))
        y = g.node("Gemm", ins, ["yf"], transB=transB, **attrs)
    else:
        y = g.node("MatMul", ins, ["yf"])
    g.node("QuantizeLinear", [y, g.init("ys", np.float32(0.3)),
                              g.init("yz", zp(rng, np.uint8))], ["y"])
    g.output("y", T.UINT8)
    return g.model(13)


def qdq_gemm_cases(rng):
    yield "qdq_gemm_transb_bias", dict()
    yield "qdq_gemm_per_column_s8x", dict(per_column=True, x_t=np.int8)
    yield "qdq_gemm_no_transb_u8w", dict(transB=0, w_t=np.uint8, bias=False)
    yield "qdq_gemm_transa", dict(transA=1, k=7, n=9)
    yield "qdq_matmul_3d", dict(op="MatMul", rank=3, per_column=True)


def dql(rng, b, dyn, kind):
    g = Graph(dyn)
    x = rng.standard_normal((b, 3, 17, 5)).astype(np.float32) * 3
    if kind == "zeros":
        x[:] = 0
    elif kind == "negative":
        x = -np.abs(x) - 0.1
    elif kind == "positive":
        x = np.abs(x) + 0.1
    g.input("x", x)
    g.node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zp"])
    g.output("y", T.UINT8)
    g.output("y_scale", T.FLOAT)
    g.output("y_zp", T.UINT8)
    return g.model(11)


def maxpool(rng, b, dyn, t=np.uint8, c=5, hw=(13, 21), **attrs):
    g = Graph(dyn)
    g.input("x", qbytes(rng, (b, c) + hw, t))
    g.node("MaxPool", ["x"], ["y"], **attrs)
    g.output("y", TYPES[t])
    return g.model(12)


def maxpool_cases(rng):
    # uint8 / int8 between the convolutions of QOperator and QDQ models
    # (runtime/src/bpool.c at -O2): ResNet's 3x3 / 2 with pads 1 over odd
    # sizes, 2x2 / 2, and a dilated stride-1 window with pads on every side.
    yield "maxpool_u8_3x3_s2", dict(kernel_shape=[3, 3], strides=[2, 2],
                                    pads=[1, 1, 1, 1])
    yield "maxpool_s8_2x2", dict(t=np.int8, kernel_shape=[2, 2], strides=[2, 2])
    yield "maxpool_s8_dilated", dict(t=np.int8, kernel_shape=[3, 3],
                                     dilations=[2, 2], pads=[2, 1, 0, 2])


def cases():
    rng = np.random.default_rng(11)
    for dyn in [False, True]:
        suffix = "_nbatch" if dyn else ""
        for gen, batch in [(convinteger_cases, 1), (matmulinteger_cases, 2),
                           (qlinearconv_cases, 2), (qlinearmatmul_cases, 1)]:
            fn = {convinteger_cases: convinteger,
                  matmulinteger_cases: matmulinteger,
                  qlinearconv_cases: qlinearconv,
                  qlinearmatmul_cases: qlinearmatmul}[gen]
            for name, kw in gen(rng):
                yield name + suffix, fn(rng, 3 if dyn else batch, dyn, **kw)
        for fn, name, kw in dynamic_cases(rng):
            yield name + suffix, fn(rng, 3 if dyn else 1, dyn, **kw)
        for name, kw in qdq_cases(rng):
            yield name + suffix, qdq_conv(rng, 3 if dyn else 2, dyn, **kw)
        for name, kw in qdq_gemm_cases(rng):
            b = 7 if name == "qdq_gemm_transa" else (3 if dyn else 2)
            yield name + suffix, qdq_gemm(rng, b, dyn, **kw)
        for name, kw in maxpool_cases(rng):
            yield name + suffix, maxpool(rng, 3 if dyn else 2, dyn, **kw)
        for kind in ["normal", "zeros", "negative", "positive"]:
            yield "dynamicquantizelinear_%s%s" % (kind, suffix), \
                dql(rng, 3 if dyn else 2, dyn, kind)


def write(root):
    for name, case in cases():
        testcases.save_model_case(root, "quant", name, case[0], case[1],
                                  case[2] if len(case) > 2 else None)


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "quant", __doc__)

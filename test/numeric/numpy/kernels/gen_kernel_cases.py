"""Models for the runtime-kernel rewrite (onnxc-linalg-to-ukernel) and
memory planning (onnxc-plan-buffers), with numpy references: convolutions
whose bias is computed or a strided view, stride-2 stems of 3 channels,
residual blocks with a convolution shortcut,
depthwise convolutions with
windows other than 3 x 3 (5 x 5, 7 x 7, dilated, 1-D: the kernel tiers'
general depthwise paths), and a ceil_mode max pool whose last window is
dropped. Writes ROOT/kernels/NAME/ for run_conformance.py --data.

With `chains`: convolutions in a row, each reading the one before's output
(onnxc_rt_sconv2d_chain: the runtime runs them in bands of rows when the
maps in between are large), as MobileNet blocks lay them out, in
ROOT/chains/NAME/.

usage: gen_kernel_cases.py ROOT [chains]"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "Utils"))
from testcases import save_case, vi  # noqa: E402

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def conv2d(x, w, b, pad):
    """NCHW convolution, stride 1, symmetric zero padding `pad`."""
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, m, oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + oh, j:j + ow].astype(np.float64)
            y += np.einsum("nchw,mc->nmhw", patch, w[:, :, i, j].astype(np.float64))
    return (y + b.astype(np.float64)[None, :, None, None]).astype(np.float32)


def conv_grouped(x, w, b, stride, pad, dil, group):
    """N-D (1-D or 2-D) grouped convolution over NC... inputs with symmetric
    zero padding, in float64."""
    nd = x.ndim - 2
    stride, pad, dil = ([v] * nd if np.isscalar(v) else list(v) for v in (stride, pad, dil))
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p, p) for p in pad])
    n, c = x.shape[:2]
    m, cg = w.shape[:2]
    k = w.shape[2:]
    out = [(xp.shape[2 + i] - (k[i] - 1) * dil[i] - 1) // stride[i] + 1 for i in range(nd)]
    y = np.zeros([n, m] + out)
    mg = m // group
    for g in range(group):
        xg = xp[:, g * cg:(g + 1) * cg]
        wg = w[g * mg:(g + 1) * mg].astype(np.float64)
        for idx in np.ndindex(*k):
            sl = tuple(slice(idx[i] * dil[i], idx[i] * dil[i] + (out[i] - 1) * stride[i] + 1,
                             stride[i]) for i in range(nd))
            patch = xg[(slice(None), slice(None)) + sl]
            y[:, g * mg:(g + 1) * mg] += np.einsum(
                "nc...,mc->nm...", patch, wg[(slice(None), slice(None)) + idx])
    return (y + b.astype(np.float64).reshape([1, m] + [1] * nd)).astype(np.float32)


def save_conv_act_case(root, name, conv, act, x, w, b, y):
    """A case of one Conv node (output "c" when an activation follows) and
    its optional Relu / HardSwish, y the numpy convolution before it."""
    nodes = [conv]
    if act == "Relu":
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
        y = np.maximum(y, 0)
    elif act == "HardSwish":
        nodes.append(helper.make_node("HardSwish", ["c"], ["y"]))
        y = (y * np.clip(y / 6.0 + 0.5, 0, 1)).astype(np.float32)
    g = helper.make_graph(
        nodes, name, [vi("x", F, list(x.shape))], [vi("y", F, list(y.shape))],
        initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    save_case(root, "kernels", name, g, [([x], [y])])


def depthwise_cases(root):
    rng = np.random.default_rng(2)
    # (name, channels, input spatial dims, kernel, stride, pad, dilation,
    # activation): MobileNetV3 / OCR-style 5 x 5 blocks with HardSwish or
    # Relu after, a 7 x 7, a dilated 3 x 3, a 1-D depthwise.
    cases = [
        ("dw5x5_s1_relu", 24, [20, 37], [5, 5], 1, 2, 1, "Relu"),
        ("dw5x5_s2_hardswish", 40, [28, 28], [5, 5], 2, 2, 1, "HardSwish"),
        ("dw7x7_s1", 16, [14, 70], [7, 7], 1, 3, 1, None),
        ("dw3x3_dilated2", 12, [19, 23], [3, 3], 1, 2, 2, None),
        ("dw1d_k9", 8, [150], [9], 1, 4, 1, None),
    ]
    for name, c, dims, k, stride, pad, dil, act in cases:
        nd = len(dims)
        x = rng.standard_normal([2, c] + dims).astype(np.float32)
        w = rng.standard_normal([c, 1] + k).astype(np.float32)
        b = rng.standard_normal([c]).astype(np.float32)
        y = conv_grouped(x, w, b, stride, pad, dil, c)
        conv = helper.make_node("Conv", ["x", "w", "b"], ["c" if act else "y"],
                                group=c, kernel_shape=k, strides=[stride] * nd,
                                pads=[pad] * (2 * nd), dilations=[dil] * nd)
        save_conv_act_case(root, name, conv, act, x, w, b, y)


def conv_cases(root):
    rng = np.random.default_rng(0)
    # The bias computed in the model (ReduceMax of an input): a buffer of
    # its own, whose address reaches the kernel through the parameter
    # block; memory planning must keep it alive until the call.
    w = rng.standard_normal((64, 8, 3, 3)).astype(np.float32)
    x = rng.standard_normal((1, 8, 16, 16)).astype(np.float32)
    b0 = rng.standard_normal((64, 4)).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("ReduceMax", ["b0"], ["b"], axes=[1], keepdims=0),
         helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
        "conv_bias_computed", [vi("x", F, [1, 8, 16, 16]), vi("b0", F, [64, 4])],
        [vi("y", F, [1, 64, 16, 16])], initializer=[numpy_helper.from_array(w, "w")])
    save_case(root, "kernels", "conv_bias_computed", g,
              [([x, b0], [conv2d(x, w, b0.max(axis=1), 1)])])
    # The bias a strided view (every other element): the kernel reads a
    # bias through a plain pointer, so it must get a contiguous one.
    w = rng.standard_normal((8, 8, 3, 3)).astype(np.float32)
    x = rng.standard_normal((1, 8, 8, 8)).astype(np.float32)
    b0 = np.arange(16, dtype=np.float32)
    g = helper.make_graph(
        [helper.make_node("Slice", ["b0", "st", "en", "ax", "sp"], ["b"]),
         helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
        "conv_bias_strided", [vi("x", F, [1, 8, 8, 8]), vi("b0", F, [16])],
        [vi("y", F, [1, 8, 8, 8])],
        initializer=[numpy_helper.from_array(w, "w")] + [
            numpy_helper.from_array(np.array([v], np.int64), n)
            for n, v in (("st", 0), ("en", 16), ("ax", 0), ("sp", 2))])
    save_case(root, "kernels", "conv_bias_strided", g,
              [([x, b0], [conv2d(x, w, b0[::2], 1)])])


def stem_cases(root):
    """Convolutions of 3 input channels (network stems). Stride 2: the
    AVX-512 tier copies the padded input with its columns split by parity
    for tiles with positions in lanes (conv_pad.c's split_copy): 16 and 24
    output channels (3 x 3 and 7 x 7), 64 (3 x 3; every panel over rows),
    odd and even input widths, padded or not, two images, with an
    activation; 32 channels keep the plain copy. Stride 1, 64 channels:
    positions in lanes over the plain copy."""
    rng = np.random.default_rng(3)
    # (name, channels out, input [n, c, h, w], kernel, pad, activation)
    cases = [
        ("stem16_s2_hardswish", 16, [1, 3, 67, 69], 3, 1, "HardSwish"),
        ("stem16_k7_s2", 16, [1, 3, 30, 80], 7, 3, None),
        ("stem64_s2_relu", 64, [2, 3, 40, 75], 3, 1, "Relu"),
        ("stem64_s2_unpadded", 64, [1, 3, 21, 70], 3, 0, None),
        ("stem32_s2", 32, [1, 3, 33, 66], 3, 1, None),
        ("stem24_s2_relu", 24, [1, 3, 35, 71], 3, 1, "Relu"),
        # Stride 1, 64 channels: every panel with positions in lanes, no
        # split copy.
        ("stem64_s1_relu", 64, [1, 3, 20, 45], 3, 1, "Relu", 1),
    ]
    for name, m, shape, k, pad, act, *rest in cases:
        stride = rest[0] if rest else 2
        x = rng.standard_normal(shape).astype(np.float32)
        w = (rng.standard_normal([m, shape[1], k, k]) * 0.3).astype(np.float32)
        b = rng.standard_normal([m]).astype(np.float32)
        y = conv_grouped(x, w, b, stride, pad, 1, 1)
        conv = helper.make_node("Conv", ["x", "w", "b"], ["c" if act else "y"],
                                kernel_shape=[k, k], strides=[stride] * 2, pads=[pad] * 4)
        save_conv_act_case(root, name, conv, act, x, w, b, y)


def residual_cases(root):
    """ResNet blocks whose shortcut is a convolution (Add, then Relu):
    stride 1 and 2, 3 x 3 main path."""
    rng = np.random.default_rng(4)
    for name, cin, cout, hw, stride in (("residual_conv_s1", 16, 32, 20, 1),
                                        ("residual_conv_s2", 16, 32, 21, 2)):
        x = rng.standard_normal([1, cin, hw, hw]).astype(np.float32)
        w1 = (rng.standard_normal([cout, cin, 3, 3]) * 0.2).astype(np.float32)
        b1 = rng.standard_normal([cout]).astype(np.float32)
        w2 = (rng.standard_normal([cout, cout, 3, 3]) * 0.1).astype(np.float32)
        b2 = rng.standard_normal([cout]).astype(np.float32)
        wd = (rng.standard_normal([cout, cin, 1, 1]) * 0.3).astype(np.float32)
        bd = rng.standard_normal([cout]).astype(np.float32)
        h = np.maximum(conv_grouped(x, w1, b1, stride, 1, 1, 1), 0)
        main = conv_grouped(h, w2, b2, 1, 1, 1, 1)
        short = conv_grouped(x, wd, bd, stride, 0, 1, 1)
        y = np.maximum(main.astype(np.float64) + short, 0).astype(np.float32)
        nodes = [
            helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3],
                             strides=[stride] * 2, pads=[1] * 4),
            helper.make_node("Relu", ["c1"], ["h"]),
            helper.make_node("Conv", ["h", "w2", "b2"], ["c2"], kernel_shape=[3, 3],
                             pads=[1] * 4),
            helper.make_node("Conv", ["x", "wd", "bd"], ["cd"], kernel_shape=[1, 1],
                             strides=[stride] * 2),
            helper.make_node("Add", ["c2", "cd"], ["s"]),
            helper.make_node("Relu", ["s"], ["y"])]
        g = helper.make_graph(
            nodes, name, [vi("x", F, list(x.shape))], [vi("y", F, list(y.shape))],
            initializer=[numpy_helper.from_array(v, n) for v, n in
                         ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (wd, "wd"),
                          (bd, "bd"))])
        save_case(root, "kernels", name, g, [([x], [y])])


def pool_cases(root):
    rng = np.random.default_rng(1)
    # ceil_mode with a last window along H that would start past the input
    # (rows 0, 2, then 4 of 4): dropped, 2 rows; along W every window starts
    # inside: 4 columns.
    x = rng.standard_normal((2, 3, 4, 7)).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[1, 3], strides=[2, 2],
                          pads=[0, 1, 0, 1], ceil_mode=1)],
        "maxpool_ceil_dropped", [vi("x", F, [2, 3, 4, 7])], [vi("y", F, [2, 3, 2, 4])])
    xp = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 1)), constant_values=-np.inf)
    y = np.stack([np.stack([xp[:, :, r, 2 * j:2 * j + 3].max(axis=-1) for j in range(4)], -1)
                  for r in (0, 2)], -2)
    save_case(root, "kernels", "maxpool_ceil_dropped", g, [([x], [y])])


def softmax_cases(root):
    """Softmax / LogSoftmax along the last axis (onnxc_rt_softmax): rows
    of 197 (whole vectors and a tail on both vector tiers), 16 (whole
    vectors only), 3 (a tail only), 37 with large values (the maximum
    subtracted); float64 references."""
    rng = np.random.default_rng(7)
    for name, op, shape, scale, shift in (
            ("softmax_rows197", "Softmax", [2, 3, 197], 3.0, 0.0),
            ("softmax_rows16", "Softmax", [2, 16], 2.0, 0.0),
            ("softmax_rows3", "Softmax", [5, 3], 1.0, 0.0),
            ("logsoftmax_rows37", "LogSoftmax", [4, 37], 50.0, 1000.0)):
        x = (rng.standard_normal(shape) * scale + shift).astype(np.float32)
        xd = x.astype(np.float64)
        z = xd - xd.max(axis=-1, keepdims=True)
        s = np.exp(z).sum(axis=-1, keepdims=True)
        y = (z - np.log(s) if op == "LogSoftmax" else np.exp(z) / s).astype(np.float32)
        g = helper.make_graph([helper.make_node(op, ["x"], ["y"], axis=-1)], name,
                              [vi("x", F, shape)], [vi("y", F, shape)])
        save_case(root, "kernels", name, g, [([x], [y])], opset=13)


def chain_case(root, rng, name, x, specs, residual=False, extra_output=None):
    """One chain: specs are (kind, out_channels, kernel, stride, act) with
    kind "conv" (ungrouped) or "dw" (depthwise); act None, "clip6" (Clip
    to [0, 6]) or "relu". residual: an Add of the input after the last;
    extra_output: the index of a spec whose output is also a graph output
    (read after the chain: not dead)."""
    nodes, inits, outs = [], [], {}
    cur, cv, c = "x", x, x.shape[1]
    inits.append(numpy_helper.from_array(np.array(0, np.float32), "lo"))
    inits.append(numpy_helper.from_array(np.array(6, np.float32), "hi"))
    for i, (kind, m, k, stride, act) in enumerate(specs):
        group = c if kind == "dw" else 1
        m = c if kind == "dw" else m
        w = (rng.standard_normal((m, c // group, k, k)) / np.sqrt(c // group * k * k)).astype(np.float32)
        b = (0.1 * rng.standard_normal(m)).astype(np.float32)
        inits += [numpy_helper.from_array(w, "w%d" % i), numpy_helper.from_array(b, "b%d" % i)]
        pad = k // 2
        nodes.append(helper.make_node("Conv", [cur, "w%d" % i, "b%d" % i], ["c%d" % i],
                                      group=group, kernel_shape=[k, k], strides=[stride] * 2,
                                      pads=[pad] * 4))
        cv = conv_grouped(cv, w, b, stride, pad, 1, group)
        cur = "c%d" % i
        if act == "clip6":
            nodes.append(helper.make_node("Clip", [cur, "lo", "hi"], ["a%d" % i]))
            cv, cur = np.clip(cv, 0, 6), "a%d" % i
        elif act == "relu":
            nodes.append(helper.make_node("Relu", [cur], ["a%d" % i]))
            cv, cur = np.maximum(cv, 0), "a%d" % i
        outs[i] = (cur, cv)
        c = m
    if residual:
        nodes.append(helper.make_node("Add", [cur, "x"], ["sum"]))
        cv, cur = (cv + x).astype(np.float32), "sum"
    nodes.append(helper.make_node("Identity", [cur], ["y"]))
    graph_outs, values = [vi("y", F, list(cv.shape))], [cv]
    if extra_output is not None:
        t, tv = outs[extra_output]
        nodes.append(helper.make_node("Identity", [t], ["t"]))
        graph_outs.append(vi("t", F, list(tv.shape)))
        values.append(tv)
    g = helper.make_graph(nodes, name, [vi("x", F, list(x.shape))], graph_outs,
                          initializer=inits)
    save_case(root, "chains", name, g, [([x], values)])


def chain_cases(root):
    rng = np.random.default_rng(5)
    # Maps in between of 1.6 to 4.8 MB (banded; under 1 MB they are not):
    # an expansion, a depthwise stride 2 and a projection; a residual
    # block whose depthwise Clip writes its input's buffer (in place); a
    # stem, a depthwise and a projection; the depthwise output also a
    # graph output (written whole, not a scratch); odd sizes and 5 x 5
    # windows; two ungrouped 3 x 3 convolutions.
    chain_case(root, rng, "expand_dw_s2_project",
               rng.standard_normal((1, 16, 112, 112)).astype(np.float32),
               [("conv", 96, 1, 1, "clip6"), ("dw", 0, 3, 2, "clip6"), ("conv", 24, 1, 1, None)])
    chain_case(root, rng, "residual_dw_in_place",
               rng.standard_normal((1, 24, 64, 64)).astype(np.float32),
               [("conv", 144, 1, 1, "clip6"), ("dw", 0, 3, 1, "clip6"), ("conv", 24, 1, 1, None)],
               residual=True)
    chain_case(root, rng, "stem_dw_project",
               rng.standard_normal((1, 3, 224, 224)).astype(np.float32),
               [("conv", 32, 3, 2, "clip6"), ("dw", 0, 3, 1, "clip6"), ("conv", 16, 1, 1, None)])
    chain_case(root, rng, "depthwise_read_after",
               rng.standard_normal((1, 16, 112, 112)).astype(np.float32),
               [("conv", 96, 1, 1, "relu"), ("dw", 0, 3, 1, None), ("conv", 24, 1, 1, None)],
               extra_output=1)
    chain_case(root, rng, "odd_dw5x5_s2",
               rng.standard_normal((1, 12, 115, 91)).astype(np.float32),
               [("conv", 64, 1, 1, "relu"), ("dw", 0, 5, 2, "relu"), ("conv", 20, 1, 1, "relu")])
    # A 5 x 5 depthwise over rows of at most 32 (16) outputs, which the
    # AVX-512 kernel computes 2 (4) rows at a time with other partial sums
    # than a lone row: each band's rows must start where the whole call's
    # pairs (quads) do.
    chain_case(root, rng, "dw5x5_paired_rows",
               rng.standard_normal((1, 24, 64, 64)).astype(np.float32),
               [("conv", 72, 1, 1, "relu"), ("dw", 0, 5, 2, "clip6")])
    chain_case(root, rng, "dw5x5_quad_rows",
               rng.standard_normal((1, 16, 64, 32)).astype(np.float32),
               [("conv", 128, 1, 1, "relu"), ("dw", 0, 5, 2, None)])
    chain_case(root, rng, "conv3x3_pair",
               rng.standard_normal((1, 16, 96, 96)).astype(np.float32),
               [("conv", 32, 3, 1, "relu"), ("conv", 24, 3, 1, "relu")])


def main(argv):
    if len(argv) == 3 and argv[2] == "chains":
        chain_cases(argv[1])
        return
    if len(argv) != 2:
        sys.exit(__doc__)
    conv_cases(argv[1])
    stem_cases(argv[1])
    residual_cases(argv[1])
    depthwise_cases(argv[1])
    pool_cases(argv[1])
    softmax_cases(argv[1])


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/python3
"""ConvTranspose and Col2Im beyond the ONNX test data, with ONNX Runtime as
the oracle (the layout of gen_vision_ops.py: write DIR, then oracle DIR
CMD...).

ConvTranspose with constant weights takes onnx-graph-optimize's product +
Col2Im form at -O1 and above (one group, explicit pads, static spatial
sizes; under 32 input positions the product transposed, which the
runtime's Col2Im call reads as it is); the cases cover it in 1-D, 2-D and
3-D with strides, dilations, pads, output_padding and bias, on a 1 x 1
input and on 72 positions, and the forms it leaves to the direct
lowering (groups, output_shape, auto_pad, weights as an input). Col2Im
cases cover strides, dilations, pads, 1-D and 3-D. Conv cases whose outer
kernel taps read only padding (dilations past the map, as DeepLab's ASPP
has) take onnx-graph-optimize's dropping of those taps: center-only, one
side only (1-D, asymmetric pads), grouped, strided, and a case whose taps
all read the input somewhere (unchanged). Dilated Conv cases whose taps
read padding on most of the map take its split into output regions (3x3
on 16x16 with dilation 12, asymmetric pads and dilations with groups, a
5x5 kernel); with symbolic dims they stay whole. Conv + activation cases
(conv_activation_cases) cover the activations fused into the
convolution's call, and residual blocks (conv_residual_cases) the
residual Adds fused into it.
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402


def model(name, nodes, inputs, inits, opset):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, T.FLOAT, a.shape) for n, a in inputs],
        [helper.make_tensor_value_info("y", T.FLOAT, None)],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m, [a for _, a in inputs]


def convtranspose_cases(rng):
    f = np.float32
    # (name, x shape, w shape, attrs, bias, weights constant)
    specs = [
        ("dcgan_k4_s2_p1", (2, 8, 4, 4), (8, 6, 4, 4),
         dict(strides=[2, 2], pads=[1, 1, 1, 1]), True, True),
        ("dcgan_first_1x1", (2, 10, 1, 1), (10, 7, 4, 4), {}, True, True),
        ("k4_s2_p1_wide", (2, 3, 8, 9), (3, 5, 4, 4),
         dict(strides=[2, 2], pads=[1, 2, 1, 0]), True, True),
        ("unet_k2_s2", (1, 16, 5, 7), (16, 8, 2, 2), dict(strides=[2, 2]),
         True, True),
        ("k3_s1_p1", (1, 4, 6, 6), (4, 5, 3, 3), dict(pads=[1, 1, 1, 1]),
         False, True),
        ("k3_s2_outpad", (1, 3, 5, 4), (3, 4, 3, 3),
         dict(strides=[2, 2], pads=[1, 0, 1, 2], output_padding=[1, 1]),
         True, True),
        ("dilated", (1, 3, 5, 5), (3, 2, 3, 3),
         dict(strides=[2, 1], dilations=[2, 3], pads=[2, 1, 0, 3]), True,
         True),
        ("1d", (2, 5, 9), (5, 3, 4), dict(strides=[3], pads=[1, 2]), True,
         True),
        ("3d", (1, 2, 3, 4, 3), (2, 3, 2, 3, 2),
         dict(strides=[2, 1, 2], pads=[0, 1, 1, 0, 1, 0]), True, True),
        ("groups_direct", (1, 4, 5, 5), (4, 3, 3, 3),
         dict(strides=[2, 2], group=2), True, True),
        ("output_shape_direct", (1, 3, 4, 4), (3, 2, 3, 3),
         dict(strides=[2, 2], output_shape=[10, 9]), False, True),
        ("same_upper_direct", (1, 3, 4, 5), (3, 2, 3, 3),
         dict(strides=[2, 2], auto_pad="SAME_UPPER"), False, True),
        ("weights_input_direct", (1, 3, 4, 4), (3, 2, 4, 4),
         dict(strides=[2, 2], pads=[1, 1, 1, 1]), True, False),
    ]
    for name, xs, ws, attrs, bias, const_w in specs:
        x = rng.standard_normal(xs).astype(f)
        w = rng.standard_normal(ws).astype(f)
        m = ws[1] * attrs.get("group", 1)
        b = rng.standard_normal(m).astype(f)
        ins = [("x", x)] + ([] if const_w else [("w", w)])
        inits = ([("w", w)] if const_w else []) + ([("b", b)] if bias else [])
        node = helper.make_node("ConvTranspose",
                                ["x", "w"] + (["b"] if bias else []), ["y"],
                                **attrs)
        yield "convtranspose_" + name, model(name, [node], ins, inits, 17)


def col2im_cases(rng):
    f = np.float32
    # (name, image, block, attrs)
    specs = [
        ("2d_plain", [5, 5], [2, 2], {}),
        ("2d_strided_padded", [6, 7], [3, 2],
         dict(strides=[2, 1], pads=[1, 0, 1, 1])),
        ("2d_dilated", [7, 6], [2, 3], dict(dilations=[2, 1], strides=[1, 2])),
        ("1d", [10], [3], dict(strides=[2], pads=[1, 1])),
        ("3d", [4, 3, 5], [2, 2, 2], dict(strides=[2, 1, 2])),
    ]
    for name, image, block, attrs in specs:
        r = len(image)
        s = attrs.get("strides", [1] * r)
        d = attrs.get("dilations", [1] * r)
        p = attrs.get("pads", [0] * 2 * r)
        blocks = 1
        for i in range(r):
            blocks *= (image[i] + p[i] + p[i + r] - d[i] * (block[i] - 1) - 1) // s[i] + 1
        c = 2
        x = rng.standard_normal((2, c * int(np.prod(block)), blocks)).astype(f)
        node = helper.make_node("Col2Im", ["x", "im", "bl"], ["y"], **attrs)
        inits = [("im", np.array(image, np.int64)),
                 ("bl", np.array(block, np.int64))]
        yield "col2im_" + name, model(name, [node], [("x", x)], inits, 18)


def conv_padding_taps_cases(rng):
    f = np.float32
    # (name, x shape, w shape, attrs)
    specs = [
        ("aspp_center_only", (1, 8, 6, 6), (4, 8, 3, 3),
         dict(dilations=[8, 8], pads=[8, 8, 8, 8])),
        ("aspp_partial", (1, 8, 6, 6), (4, 8, 3, 3),
         dict(dilations=[4, 4], pads=[4, 4, 4, 4])),
        ("1d_one_side", (2, 3, 4), (5, 3, 3), dict(dilations=[3], pads=[3, 1])),
        ("grouped_strided", (1, 6, 7, 5), (6, 3, 3, 3),
         dict(dilations=[7, 2], pads=[7, 2, 7, 2], strides=[2, 1], group=2)),
    ]
    for name, xs, ws, attrs in specs:
        x = rng.standard_normal(xs).astype(f)
        w = rng.standard_normal(ws).astype(f)
        b = rng.standard_normal(ws[0]).astype(f)
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], **attrs)
        yield "conv_" + name, model(name, [node], [("x", x)],
                                    [("w", w), ("b", b)], 17)


def conv_region_cases(rng):
    f = np.float32
    # Dilated convolutions whose taps read padding for most positions:
    # onnx-graph-optimize splits them into output regions, each convolved
    # with the taps that read the input there.
    specs = [
        ("aspp_regions", (1, 24, 16, 16), (32, 24, 3, 3),
         dict(dilations=[12, 12], pads=[12, 12, 12, 12])),
        ("regions_asym_grouped", (2, 96, 10, 12), (48, 48, 3, 3),
         dict(dilations=[5, 7], pads=[5, 7, 4, 6], group=2)),
        ("regions_5x5", (1, 16, 12, 12), (32, 16, 5, 5),
         dict(dilations=[4, 4], pads=[8, 8, 8, 8])),
    ]
    for name, xs, ws, attrs in specs:
        x = rng.standard_normal(xs).astype(f)
        w = rng.standard_normal(ws).astype(f)
        b = rng.standard_normal(ws[0]).astype(f)
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], **attrs)
        yield "conv_" + name, model(name, [node], [("x", x)],
                                    [("w", w), ("b", b)], 17)


def conv_activation_cases(rng):
    f = np.float32
    # Activations that onnxc-linalg-to-ukernel folds into the convolution's
    # call (ONNXC_CONV_ACT): Sigmoid, Mul(x, Sigmoid(x)) in both orders,
    # Swish with alpha, HardSigmoid with non-default alpha and beta,
    # HardSwish, Mul(x, HardSigmoid(x)); after the GEMM paths (3x3, 1x1,
    # several channel panels and more than 128 positions, strided) and
    # the depthwise kernel (strides 1 and 2, 5x5); and a convolution whose
    # output also feeds a second node (no fold). act_nan_inf: an input with
    # NaN and infinities through a 1x1 convolution of positive weights.
    def act(kind, c, y):
        if kind == "sigmoid":
            return [helper.make_node("Sigmoid", [c], [y])]
        if kind == "swish_mul":
            return [helper.make_node("Sigmoid", [c], ["s"]),
                    helper.make_node("Mul", [c, "s"], [y])]
        if kind == "swish_mul_rev":
            return [helper.make_node("Sigmoid", [c], ["s"]),
                    helper.make_node("Mul", ["s", c], [y])]
        if kind == "swish_op":
            return [helper.make_node("Swish", [c], [y], alpha=0.8)]
        if kind == "hardsigmoid":
            return [helper.make_node("HardSigmoid", [c], [y], alpha=0.3,
                                     beta=0.4)]
        if kind == "hardswish":
            return [helper.make_node("HardSwish", [c], [y])]
        if kind == "hardswish_mul":
            return [helper.make_node("HardSigmoid", [c], ["s"]),
                    helper.make_node("Mul", ["s", c], [y])]
        raise ValueError(kind)

    # (name, x shape, w shape, conv attrs, activation)
    specs = [
        ("sigmoid", (1, 8, 12, 12), (16, 8, 3, 3), dict(pads=[1, 1, 1, 1]),
         "sigmoid"),
        ("swish_mul", (2, 8, 12, 12), (16, 8, 3, 3), dict(pads=[1, 1, 1, 1]),
         "swish_mul"),
        ("swish_mul_rev_1x1", (1, 40, 14, 14), (72, 40, 1, 1), {},
         "swish_mul_rev"),
        ("swish_op", (1, 8, 12, 12), (16, 8, 3, 3),
         dict(pads=[1, 1, 1, 1], strides=[2, 2]), "swish_op"),
        ("hardsigmoid_ab", (1, 24, 15, 15), (40, 24, 3, 3),
         dict(pads=[1, 1, 1, 1]), "hardsigmoid"),
        ("hardswish", (1, 16, 14, 14), (48, 16, 1, 1), {}, "hardswish"),
        ("hardswish_mul", (1, 8, 10, 10), (24, 8, 3, 3),
         dict(pads=[1, 1, 1, 1], strides=[2, 2]), "hardswish_mul"),
        ("dw_sigmoid", (1, 16, 14, 14), (16, 1, 3, 3),
         dict(pads=[1, 1, 1, 1], group=16), "sigmoid"),
        ("dw_swish_mul_s2", (1, 24, 15, 15), (24, 1, 3, 3),
         dict(pads=[1, 1, 1, 1], strides=[2, 2], group=24), "swish_mul"),
        ("dw_hardswish_5x5", (1, 16, 13, 13), (16, 1, 5, 5),
         dict(pads=[2, 2, 2, 2], group=16), "hardswish"),
        ("dw_hardsigmoid_ab", (2, 8, 9, 9), (8, 1, 3, 3),
         dict(pads=[1, 1, 1, 1], group=8), "hardsigmoid"),
    ]
    for name, xs, ws, attrs, kind in specs:
        x = rng.standard_normal(xs).astype(f)
        w = (rng.standard_normal(ws) * 0.5).astype(f)
        b = rng.standard_normal(ws[0]).astype(f)
        nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], **attrs)]
        nodes += act(kind, "c", "y")
        opset = 24 if kind == "swish_op" else 17
        yield "conv_act_" + name, model(name, nodes, [("x", x)],
                                        [("w", w), ("b", b)], opset)
    # The convolution's output also feeds a second output: not folded.
    x = rng.standard_normal((1, 8, 10, 10)).astype(f)
    w = (rng.standard_normal((16, 8, 3, 3)) * 0.5).astype(f)
    b = rng.standard_normal(16).astype(f)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Sigmoid", ["c"], ["y"]),
             helper.make_node("Neg", ["c"], ["z"])]
    m, ins = model("second_user", nodes, [("x", x)], [("w", w), ("b", b)], 17)
    m.graph.output.append(helper.make_tensor_value_info("z", T.FLOAT, None))
    yield "conv_act_second_user", (m, ins)
    # NaN, +inf and -inf in the input, positive weights: the sums are NaN,
    # +inf, -inf (or NaN) where a window holds them.
    for kind in ("sigmoid", "swish_mul", "hardsigmoid", "hardswish"):
        x = rng.standard_normal((1, 4, 5, 5)).astype(f)
        x[0, 0, 0, 0] = np.nan
        x[0, 1, 1, 1] = np.inf
        x[0, 2, 2, 2] = -np.inf
        x[0, :, 3, 3] = [np.inf, 1.0, 2.0, 3.0]
        x[0, :, 4, 4] = [-np.inf, 1.0, 2.0, 3.0]
        w = np.abs(rng.standard_normal((6, 4, 1, 1))).astype(f) + f(0.1)
        b = rng.standard_normal(6).astype(f)
        nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"])]
        nodes += act(kind, "c", "y")
        yield "conv_act_nan_inf_" + kind, model(
            "nan_inf", nodes, [("x", x)], [("w", w), ("b", b)], 17)


def conv_residual_cases(rng):
    """Residual blocks whose Add (and Relu or Clip after it) runs in the
    convolution that feeds it (onnxc-fuse-elementwise's residuals-in-place,
    onnxc-linalg-to-ukernel's fuse-residuals: ONNXC_CONV_BIAS_ADD), on each
    of the runtime's paths: Winograd (3x3, 32 channels, 16x16), the 1 x 1
    path over wide rows with a convolution shortcut (both Add operands
    convolutions), the indirect GEMM (24 channels, 6x6), a MobileNetV2
    block without a Relu after the Add (two images), a block whose
    residual is read again after the Add (not fused), and a MobileNet block
    between large maps (the runtime's chains)."""
    f = np.float32
    inits = []

    def conv(name, x, y, cin, cout, k, group=1, stride=1):
        w = (rng.standard_normal((cout, cin // group, k, k)) /
             np.sqrt(cin // group * k * k)).astype(f)
        b = (rng.standard_normal(cout) * 0.1).astype(f)
        inits.extend([(name + "_w", w), (name + "_b", b)])
        return helper.make_node("Conv", [x, name + "_w", name + "_b"], [y],
                                pads=[k // 2] * 4, group=group,
                                strides=[stride, stride])

    def relu(x, y):
        return helper.make_node("Relu", [x], [y])

    def clip6(x, y):
        inits.extend([(y + "_lo", np.array(0, f)), (y + "_hi", np.array(6, f))])
        return helper.make_node("Clip", [x, y + "_lo", y + "_hi"], [y])

    def case(name, xshape, nodes, extra_outputs=()):
        x = rng.standard_normal(xshape).astype(f)
        m, ins = model(name, nodes, [("x", x)], list(inits), 17)
        for o in extra_outputs:
            m.graph.output.append(helper.make_tensor_value_info(o, T.FLOAT, None))
        inits.clear()
        return "conv_residual_" + name, (m, ins)

    def basic(c, k, post=relu):
        return [conv("s", "x", "s0", 3, c, 3), relu("s0", "r"),
                conv("a", "r", "a0", c, c, k), relu("a0", "a1"),
                conv("b", "a1", "b0", c, c, k),
                helper.make_node("Add", ["b0", "r"], ["sum"]), post("sum", "y")]

    yield case("basic_wino", (1, 3, 16, 16), basic(32, 3))
    yield case("igemm", (1, 3, 6, 6), basic(24, 3))
    yield case("clip6", (1, 3, 9, 9), basic(24, 3, clip6))
    nodes = [conv("s", "x", "s0", 3, 32, 3), relu("s0", "r"),
             conv("a", "r", "a0", 32, 64, 1), relu("a0", "a1"),
             conv("b", "a1", "b0", 64, 64, 1), conv("d", "r", "d0", 32, 64, 1),
             helper.make_node("Add", ["b0", "d0"], ["sum"]), relu("sum", "y")]
    yield case("down_1x1", (1, 3, 40, 40), nodes)
    # MobileNetV2's block: expand, depthwise, project, Add without a Relu.
    def mbv2(c, e):
        return [conv("s", "x", "s0", 3, c, 3), clip6("s0", "r"),
                conv("e", "r", "e0", c, e, 1), clip6("e0", "e1"),
                conv("dw", "e1", "d0", e, e, 3, group=e), clip6("d0", "d1"),
                conv("p", "d1", "p0", e, c, 1),
                helper.make_node("Add", ["r", "p0"], ["y"])]
    yield case("mbv2", (2, 3, 14, 14), mbv2(16, 64))
    nodes = basic(16, 3)
    yield case("second_use", (1, 3, 12, 12), nodes, extra_outputs=["r"])
    # Maps of 1 MB and more between the calls (the runtime's chains): the
    # block's sum read by one more convolution only.
    nodes = mbv2(16, 64)[:-1] + [helper.make_node("Add", ["r", "p0"], ["sum"]),
                                 conv("n", "sum", "y", 16, 64, 1)]
    yield case("chain", (1, 3, 64, 64), nodes)


def write(root):
    rng = np.random.default_rng(0)
    for gen in (convtranspose_cases, col2im_cases, conv_padding_taps_cases,
                conv_region_cases, conv_activation_cases, conv_residual_cases):
        for name, (m, inputs) in gen(rng):
            testcases.save_model_case(root, "conv", name, m, inputs)


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "conv", __doc__, per_line=True)

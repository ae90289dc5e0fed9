#!/usr/bin/python3
"""DeformConv (opset 19) with ONNX Runtime as the oracle (write DIR, then
oracle DIR CMD..., as gen_conv_ops.py).

2-D cases: plain (offsets of about half a pixel), bias and mask, pads and
strides, dilations with asymmetric pads, group 2 with offset_group 2,
offset_group 2 under one group, offsets large enough to push taps past
the image on every side (corners outside read 0), zero offsets (an
ordinary convolution, taps on exact pixels), a non-square kernel with
kernel_shape given, and double data. onnxc lowers the 2-D form only;
other ranks get a one-line error (test/tools/onnxc).
"""
import sys

import numpy as np
from onnx import helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def out_size(n, k, s, d, p0, p1):
    return (n + p0 + p1 - (d * (k - 1) + 1)) // s + 1


def cases(rng):
    # (name, x shape, w shape, attrs, offset scale, bias, mask, dtype)
    specs = [
        ("plain", (1, 2, 5, 5), (3, 2, 3, 3), {}, 0.5, False, False, np.float32),
        ("bias_mask", (2, 3, 6, 5), (4, 3, 3, 3), dict(pads=[1, 1, 1, 1]), 0.7,
         True, True, np.float32),
        ("strides_pads", (1, 2, 8, 7), (3, 2, 3, 3),
         dict(strides=[2, 2], pads=[1, 1, 1, 1]), 1.0, True, False, np.float32),
        ("dilations_asym_pads", (1, 2, 7, 8), (2, 2, 2, 3),
         dict(dilations=[2, 1], pads=[1, 0, 2, 1]), 0.6, False, True, np.float32),
        ("group2_offset_group2", (1, 4, 6, 6), (6, 2, 3, 3),
         dict(group=2, offset_group=2), 0.8, True, True, np.float32),
        ("offset_group2", (2, 4, 5, 6), (3, 4, 2, 2),
         dict(offset_group=2), 0.5, False, False, np.float32),
        ("far_outside", (1, 1, 4, 5), (2, 1, 3, 3), dict(pads=[1, 1, 1, 1]),
         4.0, True, False, np.float32),
        ("zero_offsets", (1, 2, 5, 6), (3, 2, 3, 3),
         dict(pads=[1, 1, 1, 1], strides=[1, 2]), 0.0, True, False, np.float32),
        ("kernel_shape_1x3", (1, 2, 5, 7), (2, 2, 1, 3),
         dict(kernel_shape=[1, 3]), 0.9, False, True, np.float32),
        ("double", (1, 2, 5, 5), (2, 2, 3, 3), dict(pads=[1, 1, 1, 1]), 0.7,
         True, True, np.float64),
    ]
    for name, xs, ws, attrs, oscale, bias, mask, dt in specs:
        s = attrs.get("strides", [1, 1])
        d = attrs.get("dilations", [1, 1])
        p = attrs.get("pads", [0, 0, 0, 0])
        og = attrs.get("offset_group", 1)
        oh = out_size(xs[2], ws[2], s[0], d[0], p[0], p[2])
        ow = out_size(xs[3], ws[3], s[1], d[1], p[1], p[3])
        taps = ws[2] * ws[3]
        x = rng.standard_normal(xs).astype(dt)
        w = rng.standard_normal(ws).astype(dt)
        off = (rng.standard_normal((xs[0], og * taps * 2, oh, ow)) *
               oscale).astype(dt)
        ins = [("x", x), ("w", w), ("offset", off)]
        names = ["x", "w", "offset", "", ""]
        if bias:
            ins.append(("b", rng.standard_normal(ws[0]).astype(dt)))
            names[3] = "b"
        if mask:
            ins.append(("mask", rng.random((xs[0], og * taps, oh, ow)).astype(dt)))
            names[4] = "mask"
        while names[-1] == "":
            names.pop()
        node = helper.make_node("DeformConv", names, ["y"], **attrs)
        yield "deformconv_" + name, model(name, [node], ins,
                                          [("y", ONNX_TYPE[x.dtype])], 19)


def write(root):
    write_all(root, "deformconv", cases(np.random.default_rng(0)))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "deformconv", __doc__, per_line=True)

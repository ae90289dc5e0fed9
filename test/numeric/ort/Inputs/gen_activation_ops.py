#!/usr/bin/python3
"""Gelu (opset 20, approximate "none" and "tanh") and Mish (opset 18) with
ONNX Runtime as the oracle (write DIR, then oracle DIR CMD..., as
gen_conv_ops.py).

Each op in every float type the spec allows that onnxc supports: float,
double, float16 (bfloat16 does not cross ORT's Node binding). ORT 1.30 has
no double Erf, which its Gelu(approximate="none") expands to: that case
has a numpy reference instead (0.5 x (1 + erf(x / sqrt 2)) with math.erf
in double). Inputs mix
a normal sample with the saturating ends: +-1, +-3, +-10, +-30, +-80 (f16:
+-11 instead of +-80), 0, and for float/double +-100, where exp in a
softplus or tanh overflows if taken literally.
"""
import math
import sys

import numpy as np
from onnx import helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def values(rng, dt, shape):
    v = (rng.standard_normal(shape) * 2).astype(dt)
    big = 11 if dt == np.float16 else 100
    special = [0, 1, -1, 3, -3, 10, -10, 30, -30, big, -big, 0.5, -0.5]
    flat = v.reshape(-1)
    flat[:len(special)] = np.array(special, dtype=dt)
    return v


def cases(rng):
    for dt in (np.float32, np.float64, np.float16):
        t = ONNX_TYPE[np.dtype(dt)]
        tn = np.dtype(dt).name
        for approx in ("none", "tanh"):
            x = values(rng, dt, (2, 3, 7))
            name = "gelu_%s_%s" % (approx, tn)
            attrs = {} if approx == "none" and dt == np.float64 else \
                {"approximate": approx}
            node = helper.make_node("Gelu", ["x"], ["y"], **attrs)
            m = model(name, [node], [("x", x)], [("y", t)], 20)
            if approx == "none" and dt == np.float64:
                erf = np.vectorize(math.erf)
                yield name, m, 0.5 * x * (1 + erf(x / math.sqrt(2)))
            else:
                yield name, m
        x = values(rng, dt, (4, 9))
        name = "mish_" + tn
        node = helper.make_node("Mish", ["x"], ["y"])
        yield name, model(name, [node], [("x", x)], [("y", t)], 18)


def write(root):
    write_all(root, "activation", cases(np.random.default_rng(0)))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "activation", __doc__, per_line=True)

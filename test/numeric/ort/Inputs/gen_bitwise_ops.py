#!/usr/bin/python3
"""BitwiseAnd, BitwiseOr, BitwiseXor and BitwiseNot (opset 18) with ONNX
Runtime as the oracle (write DIR, then oracle DIR CMD..., as
gen_conv_ops.py).

One model per integer type the spec allows (int8, int16, int32, int64,
uint8, uint16, uint32, uint64), each holding the four ops: And on equal
shapes, Or with a row broadcast against [4], Xor with both operands
broadcast ([3, 1, 4] against [2, 1]), Not. The values span the type's
range, with its minimum, maximum, 0 and all-ones (-1 or the unsigned
maximum) among them, so a sign extension or a truncation shows.
"""
import sys

import numpy as np
from onnx import helper

from opmodel import ONNX_TYPE, model, write_all, testcases

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64]


def values(rng, dt, shape):
    info = np.iinfo(dt)
    v = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    flat = v.reshape(-1)
    special = [info.min, info.max, 0, dt(-1) if info.min < 0 else info.max, 1]
    n = min(len(special), flat.size)
    flat[:n] = np.array(special[:n], dtype=dt)
    return v


def cases(rng):
    for dt in DTYPES:
        t = ONNX_TYPE[np.dtype(dt)]
        x = values(rng, dt, (3, 4))
        y = values(rng, dt, (3, 4))[::-1].copy()
        r = values(rng, dt, (4,))
        p = values(rng, dt, (3, 1, 4))
        q = values(rng, dt, (2, 1))
        nodes = [helper.make_node("BitwiseAnd", ["x", "y"], ["and"]),
                 helper.make_node("BitwiseOr", ["x", "r"], ["or"]),
                 helper.make_node("BitwiseXor", ["p", "q"], ["xor"]),
                 helper.make_node("BitwiseNot", ["x"], ["not"])]
        name = "bitwise_" + np.dtype(dt).name
        yield name, model(name, nodes,
                          [("x", x), ("y", y), ("r", r), ("p", p), ("q", q)],
                          [(n, t) for n in ("and", "or", "xor", "not")], 18)


def write(root):
    write_all(root, "bitwise", cases(np.random.default_rng(0)))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "bitwise", __doc__, per_line=True)

#!/usr/bin/python3
"""Scan as opset 8 defines it (onnx.ScanV8: a batch dim before the
sequence dim, the optional sequence_lens input, `directions`) with ONNX
Runtime as the oracle (write DIR, then oracle DIR CMD..., as
gen_conv_ops.py).

Cases: a running sum (one state, one scan input, one scan output); two
scan inputs read in opposite directions with two states and two scan
outputs; sequence_lens shorter than the sequence for some batch rows (the
final state is the one at the row's length, the scan outputs past it are
zeros), with a reverse scan (int64) and with two scan inputs in opposite
directions (float, a body of symbolic dims); the same reverse scan without
it (int64); a body that reads an outer-scope value. Float32 and int64.
"""
import sys

import numpy as np
from onnx import TensorProto as T, helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


def running_sum(rng):
    b, t, k = 3, 5, 4
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]),
         helper.make_node("Identity", ["s2"], ["y"])],
        "body", [vi("s", T.FLOAT, [k]), vi("x", T.FLOAT, [k])],
        [vi("s2", T.FLOAT, [k]), vi("y", T.FLOAT, [k])])
    node = helper.make_node("Scan", ["", "init", "xs"], ["final", "ys"],
                            body=body, num_scan_inputs=1)
    init = rng.standard_normal((b, k)).astype(np.float32)
    xs = rng.standard_normal((b, t, k)).astype(np.float32)
    return "scan8_running_sum", model(
        "running_sum", [node], [("init", init), ("xs", xs)],
        [("final", T.FLOAT), ("ys", T.FLOAT)], 8)


def two_directions(rng):
    b, t = 2, 6
    body = helper.make_graph(
        [helper.make_node("Add", ["s1", "a"], ["n1"]),
         helper.make_node("Mul", ["s2", "c"], ["m"]),
         helper.make_node("Add", ["m", "a"], ["n2"]),
         helper.make_node("Sub", ["n1", "c"], ["y1"]),
         helper.make_node("Identity", ["n2"], ["y2"])],
        "body", [vi("s1", T.FLOAT, [3]), vi("s2", T.FLOAT, [3]),
                 vi("a", T.FLOAT, [3]), vi("c", T.FLOAT, [3])],
        [vi("n1", T.FLOAT, [3]), vi("n2", T.FLOAT, [3]),
         vi("y1", T.FLOAT, [3]), vi("y2", T.FLOAT, [3])])
    node = helper.make_node("Scan", ["", "i1", "i2", "a", "c"],
                            ["f1", "f2", "y1", "y2"], body=body,
                            num_scan_inputs=2, directions=[0, 1])
    f = np.float32
    ins = [("i1", rng.standard_normal((b, 3)).astype(f)),
           ("i2", rng.standard_normal((b, 3)).astype(f)),
           ("a", rng.standard_normal((b, t, 3)).astype(f)),
           ("c", (rng.random((b, t, 3)) + 0.5).astype(f))]
    return "scan8_two_directions", model(
        "two_directions", [node], ins,
        [(n, T.FLOAT) for n in ("f1", "f2", "y1", "y2")], 8)


def sequence_lens(rng, with_lens=True):
    b, t = 4, 5
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]),
         helper.make_node("Mul", ["s2", "x"], ["y"])],
        "body", [vi("s", T.INT64, [2]), vi("x", T.INT64, [2])],
        [vi("s2", T.INT64, [2]), vi("y", T.INT64, [2])])
    node = helper.make_node("Scan", ["lens" if with_lens else "", "init", "xs"],
                            ["final", "ys"], body=body, num_scan_inputs=1,
                            directions=[1])
    ins = [("lens", np.array([5, 3, 1, 4], np.int64))] if with_lens else []
    ins += [("init", rng.integers(-5, 5, (b, 2)).astype(np.int64)),
            ("xs", rng.integers(-9, 9, (b, t, 2)).astype(np.int64))]
    name = "scan8_sequence_lens_reverse" if with_lens else "scan8_reverse_int64"
    return name, model(name, [node], ins,
                       [("final", T.INT64), ("ys", T.INT64)], 8)


def sequence_lens_forward(rng, lens=(6, 1, 3)):
    """Float, two scan inputs in opposite directions, two states; the body
    declares its shapes with a symbolic dim, so the scan outputs' rows get
    their shape from the first step (the growing accumulators)."""
    b, t = len(lens), 6
    k = ["k"]
    body = helper.make_graph(
        [helper.make_node("Add", ["s1", "a"], ["n1"]),
         helper.make_node("Mul", ["s2", "c"], ["n2"]),
         helper.make_node("Sub", ["n1", "c"], ["y1"]),
         helper.make_node("Identity", ["n2"], ["y2"])],
        "body", [vi("s1", T.FLOAT, k), vi("s2", T.FLOAT, k),
                 vi("a", T.FLOAT, k), vi("c", T.FLOAT, k)],
        [vi("n1", T.FLOAT, k), vi("n2", T.FLOAT, k),
         vi("y1", T.FLOAT, k), vi("y2", T.FLOAT, k)])
    node = helper.make_node("Scan", ["lens", "i1", "i2", "a", "c"],
                            ["f1", "f2", "y1", "y2"], body=body,
                            num_scan_inputs=2, directions=[0, 1])
    f = np.float32
    ins = [("lens", np.array(lens, np.int64)),
           ("i1", rng.standard_normal((b, 3)).astype(f)),
           ("i2", rng.standard_normal((b, 3)).astype(f)),
           ("a", rng.standard_normal((b, t, 3)).astype(f)),
           ("c", (rng.random((b, t, 3)) + 0.5).astype(f))]
    return "scan8_sequence_lens_forward", model(
        "sequence_lens_forward", [node], ins,
        [(n, T.FLOAT) for n in ("f1", "f2", "y1", "y2")], 8)


def outer_scope(rng):
    b, t = 2, 4
    body = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"]),
         helper.make_node("Add", ["s", "xw"], ["t"]),
         helper.make_node("Tanh", ["t"], ["s2"]),
         helper.make_node("Identity", ["s2"], ["y"])],
        "body", [vi("s", T.FLOAT, [1, 3]), vi("x", T.FLOAT, [1, 2])],
        [vi("s2", T.FLOAT, [1, 3]), vi("y", T.FLOAT, [1, 3])])
    node = helper.make_node("Scan", ["", "h0", "xs"], ["h", "hs"], body=body,
                            num_scan_inputs=1)
    f = np.float32
    w = rng.standard_normal((2, 3)).astype(f)
    ins = [("h0", rng.standard_normal((b, 1, 3)).astype(f)),
           ("xs", rng.standard_normal((b, t, 1, 2)).astype(f))]
    return "scan8_outer_scope_rnn", model(
        "outer_scope", [node], ins, [("h", T.FLOAT), ("hs", T.FLOAT)], 8,
        inits=[("w", w)])


def write(root):
    rng = np.random.default_rng(0)
    write_all(root, "scan8", [g(rng) for g in (running_sum, two_directions,
                                               sequence_lens, outer_scope,
                                               sequence_lens_forward)] +
              [sequence_lens(rng, with_lens=False)])


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "scan8", __doc__, per_line=True)

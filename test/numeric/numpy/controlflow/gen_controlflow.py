#!/usr/bin/python3
"""Writes control-flow test cases (If, Loop, Scan) in the ONNX backend-test
layout: OUT/controlflow/<case>/model.onnx + test_data_set_N/{input,output}_N.pb.

Expected outputs come from numpy implementations of the same computation,
written independently of the models. run_conformance.py --data OUT runs them.

Usage: gen_controlflow.py OUT            the cases
       gen_controlflow.py OUT --errors   models whose second data set must
                                         fail at run time
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
from testcases import const, vi  # noqa: E402
import testcases  # noqa: E402

F = TensorProto.FLOAT
I64 = TensorProto.INT64
B = TensorProto.BOOL


def save_case(root, name, graph, datasets):
    testcases.save_case(root, "controlflow", name, graph, datasets)


def loop_converge(root):
    """Gradient descent on sum((x - a)^2) until the loss is below eps: no
    trip count, the condition is computed in the body, the target `a` and
    the rate are outer-scope values; the losses are a scan output of
    unknown length."""
    body = helper.make_graph(
        [
            helper.make_node("Sub", ["x_in", "a"], ["d"]),
            helper.make_node("Mul", ["d", "d"], ["d2"]),
            helper.make_node("ReduceSum", ["d2"], ["loss"], keepdims=0),
            helper.make_node("Mul", ["d", "two_lr"], ["step"]),
            helper.make_node("Sub", ["x_in", "step"], ["x_out"]),
            helper.make_node("Greater", ["loss", "eps"], ["cond_out"]),
        ],
        "gd_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("x_in", F, [4])],
        [vi("cond_out", B, []), vi("x_out", F, [4]), vi("loss", F, [])],
    )
    graph = helper.make_graph(
        [
            const("two_lr", np.float32(0.2)),
            const("eps", np.float32(1e-4)),
            const("go", np.array(True)),
            helper.make_node("Loop", ["", "go", "x0"], ["x", "losses"], body=body),
        ],
        "loop_converge",
        [vi("x0", F, [4]), vi("a", F, [4])],
        [vi("x", F, [4]), vi("losses", F, [None])],
    )
    rng = np.random.default_rng(1)
    x0 = rng.standard_normal(4).astype(np.float32) * 3
    a = rng.standard_normal(4).astype(np.float32)
    x, losses = x0.copy(), []
    while True:
        d = x - a
        loss = np.float32((d * d).sum())
        x = (x - d * np.float32(0.2)).astype(np.float32)
        losses.append(loss)
        if not loss > np.float32(1e-4):
            break
    save_case(root, "loop_converge", graph,
              [([x0, a], [x, np.array(losses, np.float32)])])


def loop_long_scan(root):
    """A trip count from the input (3000, past the preallocated rows) and a
    scan output of [M, 2] rows; a loop-carried running sum."""
    body = helper.make_graph(
        [
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Mul", ["fi", "w"], ["row"]),
            helper.make_node("Add", ["s_in", "row"], ["s_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "long_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("s_in", F, [2])],
        [vi("cond_out", B, []), vi("s_out", F, [2]), vi("row", F, [2])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "", "s0"], ["s", "rows"], body=body)],
        "loop_long_scan",
        [vi("m", I64, []), vi("s0", F, [2]), vi("w", F, [2])],
        [vi("s", F, [2]), vi("rows", F, [None, 2])],
    )
    datasets = []
    for m in (3000, 0, 1):
        s0 = np.array([1.0, -1.0], np.float32)
        w = np.array([0.5, 0.25], np.float32)
        rows = (np.arange(m, dtype=np.float32)[:, None] * w).astype(np.float32)
        s = s0.copy()
        for r in rows:
            s = (s + r).astype(np.float32)
        datasets.append(([np.array(m, np.int64), s0, w], [s, rows.reshape(m, 2)]))
    save_case(root, "loop_long_scan", graph, datasets)


def loop_concat(root):
    """A loop-carried value that grows every iteration (Concat), with a
    trip count and a condition that both apply."""
    body = helper.make_graph(
        [
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Unsqueeze", ["fi", "ax0"], ["fi1"]),
            helper.make_node("Concat", ["y_in", "fi1"], ["y_out"], axis=0),
            helper.make_node("Less", ["i", "stop"], ["cond_out"]),
        ],
        "concat_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("y_in", F, [None])],
        [vi("cond_out", B, []), vi("y_out", F, [None])],
    )
    graph = helper.make_graph(
        [
            const("ax0", np.array([0], np.int64)),
            helper.make_node("Loop", ["m", "c", "y0"], ["y"], body=body),
        ],
        "loop_concat",
        [vi("m", I64, []), vi("c", B, []), vi("stop", I64, []), vi("y0", F, [1])],
        [vi("y", F, [None])],
    )
    datasets = []
    for m, c, stop in ((5, True, 100), (10, True, 3), (4, False, 100)):
        y = [np.float32(7)]
        i, cond = 0, c
        while i < m and cond:
            y.append(np.float32(i))
            cond = i < stop
            i += 1
        datasets.append(([np.array(m, np.int64), np.array(c), np.array(stop, np.int64),
                          np.array([7], np.float32)], [np.array(y, np.float32)]))
    save_case(root, "loop_concat", graph, datasets)


def loop_nested_if(root):
    """A Loop whose body holds an If (branches read an outer-scope value two
    levels up) and a nested Loop (its trip count is the outer iteration
    number) whose sum is a scan output of the outer loop."""
    then_g = helper.make_graph([helper.make_node("Add", ["y_in", "x"], ["t_out"])],
                               "then_g", [], [vi("t_out", F, [3])])
    else_g = helper.make_graph([helper.make_node("Mul", ["y_in", "two"], ["e_out"])],
                               "else_g", [], [vi("e_out", F, [3])])
    inner = helper.make_graph(
        [
            helper.make_node("Add", ["acc_in", "j"], ["acc_out"]),
            helper.make_node("Identity", ["ci"], ["co"]),
        ],
        "inner",
        [vi("j", I64, []), vi("ci", B, []), vi("acc_in", I64, [])],
        [vi("co", B, []), vi("acc_out", I64, [])],
    )
    body = helper.make_graph(
        [
            helper.make_node("Mod", ["i", "two_i"], ["r"]),
            helper.make_node("Equal", ["r", "zero_i"], ["even"]),
            helper.make_node("If", ["even"], ["y_out"], then_branch=then_g,
                             else_branch=else_g),
            helper.make_node("Loop", ["i", "", "zero_i"], ["tri"], body=inner),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "outer",
        [vi("i", I64, []), vi("cond_in", B, []), vi("y_in", F, [3])],
        [vi("cond_out", B, []), vi("y_out", F, [3]), vi("tri", I64, [])],
    )
    graph = helper.make_graph(
        [
            const("two", np.float32(2)),
            const("two_i", np.int64(2)),
            const("zero_i", np.int64(0)),
            helper.make_node("Loop", ["m", "", "y0"], ["y", "tris"], body=body),
        ],
        "loop_nested_if",
        [vi("m", I64, []), vi("y0", F, [3]), vi("x", F, [3])],
        [vi("y", F, [3]), vi("tris", I64, [None])],
    )
    m = 6
    y0 = np.array([1, 2, 3], np.float32)
    x = np.array([0.5, -1, 4], np.float32)
    y, tris = y0.copy(), []
    for i in range(m):
        y = (y + x) if i % 2 == 0 else (y * 2)
        tris.append(sum(range(i)))
    save_case(root, "loop_nested_if", graph,
              [([np.array(m, np.int64), y0, x],
                [y.astype(np.float32), np.array(tris, np.int64)])])


def if_shapes(root):
    """Branches yield different shapes (3 and 5 elements): a dynamic dim."""
    then_g = helper.make_graph(
        [helper.make_node("Slice", ["x", "s0", "s3"], ["t_out"])],
        "then_g", [], [vi("t_out", F, [3])])
    else_g = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e_out"])], "else_g", [], [vi("e_out", F, [5])])
    graph = helper.make_graph(
        [
            const("s0", np.array([0], np.int64)),
            const("s3", np.array([3], np.int64)),
            helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
        ],
        "if_shapes",
        [vi("c", B, []), vi("x", F, [5])],
        [vi("y", F, [None])],
    )
    x = np.arange(5, dtype=np.float32) + 1
    save_case(root, "if_shapes", graph,
              [([np.array(True), x], [x[:3]]), ([np.array(False), x], [-x])])


def scan_axes(root):
    """Scan with two scan inputs on axes 1 and 0, the first read in reverse;
    two scan outputs on axes 1 and 0, the second written in reverse; a
    running-sum state."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["a", "b"], ["ab"]),
            helper.make_node("Add", ["s_in", "ab"], ["s_out"]),
            helper.make_node("Mul", ["s_out", "ab"], ["o1"]),
            helper.make_node("Sub", ["a", "b"], ["o2"]),
        ],
        "scan_body",
        [vi("s_in", F, [3]), vi("a", F, [3]), vi("b", F, [3])],
        [vi("s_out", F, [3]), vi("o1", F, [3]), vi("o2", F, [3])],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "xa", "xb"], ["s", "y1", "y2"], body=body,
                          num_scan_inputs=2, scan_input_axes=[1, 0],
                          scan_input_directions=[1, 0], scan_output_axes=[1, 0],
                          scan_output_directions=[0, 1])],
        "scan_axes",
        [vi("s0", F, [3]), vi("xa", F, [3, 4]), vi("xb", F, [4, 3])],
        [vi("s", F, [3]), vi("y1", F, [3, 4]), vi("y2", F, [4, 3])],
    )
    rng = np.random.default_rng(2)
    s0 = rng.standard_normal(3).astype(np.float32)
    xa = rng.standard_normal((3, 4)).astype(np.float32)
    xb = rng.standard_normal((4, 3)).astype(np.float32)
    L = 4
    s = s0.copy()
    y1 = np.zeros((3, L), np.float32)
    y2 = np.zeros((L, 3), np.float32)
    for t in range(L):
        a = xa[:, L - 1 - t]
        b = xb[t, :]
        ab = a + b
        s = s + ab
        y1[:, t] = s * ab
        y2[L - 1 - t, :] = a - b
    save_case(root, "scan_axes", graph, [([s0, xa, xb], [s, y1, y2])])


def scan_many_steps(root):
    """200,000 steps with a running-max state and two scan outputs, the
    second on axis 1 and written in reverse. The body's row shapes are
    symbolic: the accumulators are sized by an outer loop at the first row
    and written in place after (they were copied whole on every step:
    200,000 steps took 11.7 s)."""
    body = helper.make_graph(
        [
            helper.make_node("Max", ["s_in", "x"], ["s_out"]),
            helper.make_node("Sub", ["x", "s_in"], ["o1"]),
            helper.make_node("Neg", ["x"], ["o2"]),
        ],
        "many_steps_body",
        [vi("s_in", F, ["k"]), vi("x", F, ["k"])],
        [vi("s_out", F, ["k"]), vi("o1", F, ["k"]), vi("o2", F, ["k"])],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "xs"], ["s", "y1", "y2"], body=body,
                          num_scan_inputs=1, scan_output_axes=[0, 1],
                          scan_output_directions=[0, 1])],
        "scan_many_steps",
        [vi("s0", F, [2]), vi("xs", F, [200000, 2])],
        [vi("s", F, [2]), vi("y1", F, [200000, 2]), vi("y2", F, [2, 200000])],
    )
    n = 200000
    # Small integers: every value exact in float32.
    xs = (np.arange(2 * n, dtype=np.int64).reshape(n, 2) % 1001 - 500).astype(np.float32)
    s0 = np.array([-1000.0, 0.0], np.float32)
    before = np.maximum.accumulate(np.concatenate([s0[None], xs]), axis=0)
    y1 = xs - before[:-1]
    y2 = (-xs)[::-1].T
    save_case(root, "scan_many_steps", graph,
              [([s0, xs], [before[-1], y1, np.ascontiguousarray(y2)])])


def scan_twin_outputs(root):
    """Two scan outputs of the same type (their accumulators must not share
    a buffer) and a state that is a graph input (it must not be written in
    place)."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["s_in", "x"], ["s_out"]),
            helper.make_node("Mul", ["s_out", "two"], ["o1"]),
            helper.make_node("Add", ["s_out", "one"], ["o2"]),
        ],
        "twin_body",
        [vi("s_in", F, [3]), vi("x", F, [3])],
        [vi("s_out", F, [3]), vi("o1", F, [3]), vi("o2", F, [3])],
    )
    graph = helper.make_graph(
        [
            const("two", np.float32(2)),
            const("one", np.float32(1)),
            helper.make_node("Scan", ["s0", "xs"], ["s", "y1", "y2"], body=body,
                             num_scan_inputs=1),
            helper.make_node("Identity", ["s0"], ["s0_after"]),
        ],
        "scan_twin_outputs",
        [vi("s0", F, [3]), vi("xs", F, [5, 3])],
        [vi("s", F, [3]), vi("y1", F, [5, 3]), vi("y2", F, [5, 3]), vi("s0_after", F, [3])],
    )
    rng = np.random.default_rng(4)
    s0 = rng.standard_normal(3).astype(np.float32)
    xs = rng.standard_normal((5, 3)).astype(np.float32)
    s, y1, y2 = s0.copy(), [], []
    for t in range(5):
        s = s + xs[t]
        y1.append(s * 2)
        y2.append(s + 1)
    save_case(root, "scan_twin_outputs", graph,
              [([s0, xs], [s, np.array(y1, np.float32), np.array(y2, np.float32), s0])])


def loop_zero_steps(root):
    """A loop that may run no step: its scan output then has 0 rows, and
    the rows' dim N (a symbol of input x) is still N."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["co"]),
         helper.make_node("Identity", ["x"], ["y"])],
        "zero_body", [vi("i", I64, []), vi("c", B, [])],
        [vi("co", B, []), vi("y", F, ["N"])])
    graph = helper.make_graph(
        [const("go", np.array(True)),
         helper.make_node("Loop", ["m", "go"], ["ys"], body=body)],
        "loop_zero_steps", [vi("m", I64, []), vi("x", F, ["N"])],
        [vi("ys", F, ["M", "N"])])
    x = np.array([1, 2, 3], np.float32)
    save_case(root, "loop_zero_steps", graph,
              [([np.array(m, np.int64), x], [np.tile(x, (m, 1)).reshape(m, 3)])
               for m in (0, 2)])


def loop_counted(root):
    """A for loop as exporters write it: a constant trip count and a
    constant true condition the body passes through (lowered to scf.for);
    the scan output is preallocated to M rows."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["co"]),
         helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Mul", ["s_in", "fi"], ["p"]),
         helper.make_node("Add", ["p", "x"], ["s_out"])],
        "counted_body", [vi("i", I64, []), vi("c", B, []), vi("s_in", F, [2])],
        [vi("co", B, []), vi("s_out", F, [2]), vi("p", F, [2])])
    graph = helper.make_graph(
        [const("m", np.int64(5)), const("go", np.array(True)),
         helper.make_node("Loop", ["m", "go", "s0"], ["s", "ps"], body=body)],
        "loop_counted", [vi("s0", F, [2]), vi("x", F, [2])],
        [vi("s", F, [2]), vi("ps", F, [5, 2])])
    s0 = np.array([1, -1], np.float32)
    x = np.array([0.5, 2], np.float32)
    s, ps = s0.copy(), []
    for i in range(5):
        p = s * np.float32(i)
        ps.append(p)
        s = p + x
    save_case(root, "loop_counted", graph, [([s0, x], [s, np.array(ps, np.float32)])])


def loop_rnn(root):
    """An RNN cell stepped by a Loop: h = tanh(X[i] W + h R + b), the
    hidden states collected as a scan output."""
    body = helper.make_graph(
        [
            helper.make_node("Gather", ["X", "i"], ["xt"], axis=0),
            helper.make_node("MatMul", ["xt", "W"], ["xw"]),
            helper.make_node("MatMul", ["h_in", "R"], ["hr"]),
            helper.make_node("Add", ["xw", "hr"], ["s1"]),
            helper.make_node("Add", ["s1", "bias"], ["s2"]),
            helper.make_node("Tanh", ["s2"], ["h_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "rnn_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("h_in", F, [2, 8])],
        [vi("cond_out", B, []), vi("h_out", F, [2, 8]), vi("hs", F, [2, 8])],
    )
    # hs is h_out, yielded twice (carried and scanned).
    body.node[-2].output[0] = "h_out"
    body.output[2].name = "h_out"
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["X"], ["shp"], start=0, end=1),
            helper.make_node("Squeeze", ["shp"], ["steps"]),
            helper.make_node("Loop", ["steps", "", "h0"], ["h", "hs"], body=body),
        ],
        "loop_rnn",
        [vi("X", F, [5, 2, 4]), vi("h0", F, [2, 8]), vi("W", F, [4, 8]),
         vi("R", F, [8, 8]), vi("bias", F, [8])],
        [vi("h", F, [2, 8]), vi("hs", F, [5, 2, 8])],
    )
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 2, 4)).astype(np.float32)
    h0 = rng.standard_normal((2, 8)).astype(np.float32)
    W = (rng.standard_normal((4, 8)) * 0.5).astype(np.float32)
    R = (rng.standard_normal((8, 8)) * 0.3).astype(np.float32)
    bias = rng.standard_normal(8).astype(np.float32)
    h, hs = h0.astype(np.float64), []
    for t in range(5):
        h = np.tanh(X[t] @ W + h @ R + bias)
        hs.append(h)
    save_case(root, "loop_rnn", graph,
              [([X, h0, W, R, bias], [h.astype(np.float32), np.array(hs, np.float32)])])


def loop_row_products(root):
    """Row products that onnx-graph-optimize moves out of a Loop: a Gemm of
    Gather(X, i) (transB, alpha, a per-column C) and a vector row of a 2-D
    X times W plus a bias; the trip count is a constant equal to X's row
    count. With every dim symbolic the rewrite does not apply: both forms
    must give the same numbers."""
    body = helper.make_graph(
        [
            helper.make_node("Gather", ["X", "i"], ["xt"], axis=0),
            helper.make_node("Gemm", ["xt", "B", "C"], ["g"], alpha=0.5, transB=1),
            helper.make_node("Gather", ["V", "i"], ["vt"], axis=0),
            helper.make_node("MatMul", ["vt", "W"], ["vw"]),
            helper.make_node("Add", ["vw", "b"], ["vb"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "rows_body",
        [vi("i", I64, []), vi("cond_in", B, [])],
        [vi("cond_out", B, []), vi("g", F, [2, 5]), vi("vb", F, [2])],
    )
    graph = helper.make_graph(
        [
            const("m", np.array(4, np.int64)),
            const("go", np.array(True)),
            helper.make_node("Loop", ["m", "go"], ["gs", "vbs"], body=body),
        ],
        "loop_row_products",
        [vi("X", F, [4, 2, 3]), vi("B", F, [5, 3]), vi("C", F, [5]),
         vi("V", F, [4, 3]), vi("W", F, [3, 2]), vi("b", F, [2])],
        [vi("gs", F, [4, 2, 5]), vi("vbs", F, [4, 2])],
    )
    rng = np.random.default_rng(7)
    X = rng.standard_normal((4, 2, 3)).astype(np.float32)
    Bm = rng.standard_normal((5, 3)).astype(np.float32)
    C = rng.standard_normal(5).astype(np.float32)
    V = rng.standard_normal((4, 3)).astype(np.float32)
    W = rng.standard_normal((3, 2)).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    gs = np.array([0.5 * (X[t] @ Bm.T) + C for t in range(4)], np.float32)
    vbs = np.array([V[t] @ W + b for t in range(4)], np.float32)
    save_case(root, "loop_row_products", graph,
              [([X, Bm, C, V, W, b], [gs, vbs])])


def scan_row_products(root):
    """A Scan body multiplying its scan input's slice (axis 1, read in
    reverse) by an outer-scope W into a running sum, and reading the slice
    itself too: the product becomes a second scan input, the first
    stays."""
    body = helper.make_graph(
        [
            helper.make_node("MatMul", ["xt", "W"], ["xw"]),
            helper.make_node("Add", ["s_in", "xw"], ["s_out"]),
            helper.make_node("Mul", ["xt", "xt"], ["sq"]),
        ],
        "rows_body",
        [vi("s_in", F, [2, 4]), vi("xt", F, [2, 3])],
        [vi("s_out", F, [2, 4]), vi("sq", F, [2, 3])],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "X"], ["s", "sqs"], body=body,
                          num_scan_inputs=1, scan_input_axes=[1],
                          scan_input_directions=[1])],
        "scan_row_products",
        [vi("s0", F, [2, 4]), vi("X", F, [2, 5, 3]), vi("W", F, [3, 4])],
        [vi("s", F, [2, 4]), vi("sqs", F, [5, 2, 3])],
    )
    rng = np.random.default_rng(8)
    s0 = rng.standard_normal((2, 4)).astype(np.float32)
    X = rng.standard_normal((2, 5, 3)).astype(np.float32)
    W = rng.standard_normal((3, 4)).astype(np.float32)
    s, sqs = s0.astype(np.float64), []
    for t in range(5):
        xt = X[:, 4 - t, :]
        s = s + xt @ W
        sqs.append(xt * xt)
    save_case(root, "scan_row_products", graph,
              [([s0, X, W], [s.astype(np.float32), np.array(sqs, np.float32)])])


def errors(root):
    """Inputs that only run time can reject: an If condition of symbolic
    shape given two elements; Scan inputs of different symbolic lengths."""
    then_g = helper.make_graph([helper.make_node("Neg", ["x"], ["t"])], "t", [],
                               [vi("t", F, [2])])
    else_g = helper.make_graph([helper.make_node("Abs", ["x"], ["e"])], "e", [],
                               [vi("e", F, [2])])
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
        "if_cond_two", [vi("c", B, ["n"]), vi("x", F, [2])], [vi("y", F, [2])])
    x = np.array([1, -2], np.float32)
    save_case(root, "if_cond_two", graph,
              [([np.array([True]), x], [-x]), ([np.array([True, False]), x], [-x])])
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "a"], ["s_out"]),
         helper.make_node("Mul", ["a", "b"], ["o"])],
        "b", [vi("s_in", F, [2]), vi("a", F, [2]), vi("b", F, [2])],
        [vi("s_out", F, [2]), vi("o", F, [2])])
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "xa", "xb"], ["s", "y"], body=body,
                          num_scan_inputs=2)],
        "scan_lengths", [vi("s0", F, [2]), vi("xa", F, ["la", 2]), vi("xb", F, ["lb", 2])],
        [vi("s", F, [2]), vi("y", F, [None, 2])])
    s0 = np.zeros(2, np.float32)
    xa = np.ones((3, 2), np.float32)
    xb = np.ones((4, 2), np.float32)
    save_case(root, "scan_lengths", graph,
              [([s0, xa, xa], [s0 + 3, xa]), ([s0, xa, xb], [s0 + 3, xa])])
    # A sequence position out of range: item 1 of a two-item sequence is
    # fine, item 2 is not.
    graph = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["a", "b"], ["sq"]),
         helper.make_node("SequenceAt", ["sq", "p"], ["y"])],
        "seq_at", [vi("a", F, [2]), vi("b", F, [2]), vi("p", I64, [])],
        [vi("y", F, [2])])
    a = np.array([1, 2], np.float32)
    b = np.array([3, 4], np.float32)
    save_case(root, "seq_at", graph,
              [([a, b, np.array(1, np.int64)], [b]),
               ([a, b, np.array(2, np.int64)], [b])])


def loop_many_trips(root):
    """400,000 trips with two scan outputs (rows of [2], and rows of x's
    shape, symbolic in the dynamic run) and a condition from the body
    (i < limit): the accumulators grow by doubling in an outer loop and
    the inner loop writes rows in place (an accumulator grown inside the
    loop that carries it was copied whole on every trip: 400,000 trips
    took 26 s). Sets: all trips, a stop by the condition after 1501 rows
    (not a capacity), one trip past the 1024 preallocated rows, none."""
    body = helper.make_graph(
        [
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Mul", ["fi", "w"], ["row"]),
            helper.make_node("Mul", ["fi", "x"], ["row2"]),
            helper.make_node("Add", ["s_in", "row"], ["s_out"]),
            helper.make_node("Less", ["i", "limit"], ["cond_out"]),
        ],
        "many_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("s_in", F, [2])],
        [vi("cond_out", B, []), vi("s_out", F, [2]), vi("row", F, [2]),
         vi("row2", F, [3])],
    )
    graph = helper.make_graph(
        [const("go", np.array(True)),
         helper.make_node("Loop", ["m", "go", "s0"], ["s", "rows", "rows2"],
                          body=body)],
        "loop_many_trips",
        [vi("m", I64, []), vi("limit", I64, []), vi("s0", F, [2]),
         vi("w", F, [2]), vi("x", F, [3])],
        [vi("s", F, [2]), vi("rows", F, [None, 2]), vi("rows2", F, [None, 3])],
    )
    s0 = np.array([1.0, -1.0], np.float32)
    w = np.array([0.5, 0.25], np.float32)
    x = np.array([1.0, -2.0, 0.125], np.float32)
    datasets = []
    for m, limit in ((400000, 1 << 40), (400000, 1500), (1025, 1 << 40),
                     (0, 5)):
        n = min(m, limit + 1)
        fi = np.arange(n, dtype=np.float32)[:, None]
        rows = (fi * w).astype(np.float32).reshape(n, 2)
        rows2 = (fi * x).astype(np.float32).reshape(n, 3)
        # s0 + rows[0] + rows[1] + ... in order, in float32.
        s = np.add.accumulate(np.concatenate([s0[None], rows]), axis=0,
                              dtype=np.float32)[-1]
        datasets.append(([np.array(m, np.int64), np.array(limit, np.int64),
                          s0, w, x], [s, rows, rows2]))
    save_case(root, "loop_many_trips", graph, datasets)


def main():
    root = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--errors":
        errors(root)
        return
    for fn in (loop_converge, loop_long_scan, loop_concat, loop_nested_if, if_shapes,
               scan_axes, scan_many_steps, scan_twin_outputs, loop_zero_steps, loop_counted,
               loop_rnn, loop_row_products, scan_row_products, loop_many_trips):
        fn(root)


if __name__ == "__main__":
    main()

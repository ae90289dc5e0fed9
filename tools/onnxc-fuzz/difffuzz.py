#!/usr/bin/python3
"""Differential fuzzing of onnxc against ONNX Runtime.

Generates random valid small graphs (a grammar over ONNX ops with random
attributes and shapes, opset 17), compiles each with onnxc, runs it on
random inputs with onnxc-run and with ONNX Runtime (tools/ort/ort_run.js),
and compares the outputs. Findings are:
  - onnxc crashing or hanging (compile or run), or a run-time error status
    on a graph ORT runs;
  - outputs that differ (floats beyond rtol/atol, NaN where the other has a
    number; integers and booleans exactly; shapes and types exactly).
A model ORT refuses is skipped; a model onnxc refuses with its one-line
error is counted (unsupported ops and attribute combinations), not a
finding. Each graph is a seed: `--seed S --count 1 --keep DIR` rebuilds it.

    difffuzz.py --onnxc BIN/onnxc --onnxc-run BIN/onnxc-run --work DIR
                [--seed S] [--count N] [--nodes K] [--opt L|mix]
                [--dynamic P] [--keep DIR] [--verbose]

Prints one line per finding and ends with
  difffuzz: N graphs, C compared, R refused by onnxc, S refused by ORT,
            F findings
exit status 1 when F > 0.

Ops whose result jumps (Floor, comparisons, ArgMax, Cast to int, ...) only
take "exact" values (graph inputs and what exact ops make of them: moves,
Relu, Max, ...), so that rounding differences of the float kernels never
change their result: a mismatch there is a real one. Graphs are kept to a
few nodes and small shapes, so a run takes well under a second.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

OPSET = 17
HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, "..", "ort", "ort_run.js")

F32, I64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
NP = {F32: np.float32, I64: np.int64, BOOL: np.bool_}


class Value:
    def __init__(self, name, dtype, shape, exact):
        self.name, self.dtype, self.shape, self.exact = name, dtype, list(shape), exact


class Graph:
    """A graph under construction: its inputs, initializers, nodes, values."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs, self.inits, self.nodes, self.values = [], [], [], []
        self.n = 0

    def fresh(self, prefix):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def new_input(self, dtype, shape):
        v = Value(self.fresh("in"), dtype, shape, True)
        self.inputs.append(v)
        self.values.append(v)
        return v

    def const(self, array, prefix="c"):
        name = self.fresh(prefix)
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def floats(self, shape, scale=1.0):
        return (self.rng.standard_normal(shape) * scale).astype(np.float32)

    def pick(self, dtype=F32, min_rank=0, max_rank=4, exact=False):
        ok = [v for v in self.values if v.dtype == dtype and
              min_rank <= len(v.shape) <= max_rank and (v.exact or not exact)]
        if ok and self.rng.random() < 0.8:
            return self.rng.choice(ok)
        rank = self.rng.integers(max(min_rank, 1 if max_rank > 0 else 0), max_rank + 1)
        return self.new_input(dtype, [int(self.rng.integers(1, 5)) for _ in range(rank)])

    def model(self, outputs):
        def info(v):
            return helper.make_tensor_value_info(v.name, v.dtype, v.shape)
        g = helper.make_graph(self.nodes, "g", [info(v) for v in self.inputs],
                              [info(v) for v in outputs], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
        m.ir_version = 8
        return m


# ---- the grammar: each rule adds one node (and its constants) or fails ----

UNARY = ["Relu", "Neg", "Abs", "Sigmoid", "Tanh", "Exp", "Erf", "Softplus",
         "Sin", "Cos", "Sqrt", "Log", "Reciprocal", "Softsign", "Selu",
         "HardSwish", "Identity"]
UNARY_EXACT = {"Relu", "Neg", "Abs", "Identity"}
JUMPY_UNARY = ["Floor", "Ceil", "Round", "Sign"]
BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"]
COMPARE = ["Less", "Greater", "Equal", "LessOrEqual", "GreaterOrEqual"]
REDUCE_ATTR_AXES = ["ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                    "ReduceL1", "ReduceL2", "ReduceLogSumExp", "ReduceSumSquare"]


def broadcast_partner(g, shape):
    """A shape that broadcasts with `shape`: some dims 1, maybe fewer dims."""
    rng = g.rng
    s = [d if rng.random() < 0.7 else 1 for d in shape]
    if s and rng.random() < 0.3:
        s = s[int(rng.integers(0, len(s) + 1)):]
    return s


def r_unary(g):
    x = g.pick()
    op = str(g.rng.choice(UNARY))
    attrs = {}
    if op == "Selu":
        attrs = {"alpha": float(g.rng.uniform(0.5, 2)), "gamma": float(g.rng.uniform(0.5, 2))}
    return op, [x.name], attrs, x.exact and op in UNARY_EXACT


def r_unary_attr(g):
    x = g.pick()
    op = str(g.rng.choice(["LeakyRelu", "Elu", "HardSigmoid", "Celu", "ThresholdedRelu"]))
    attrs = {"alpha": float(np.float32(g.rng.uniform(0.05, 2)))}
    if op == "HardSigmoid":
        attrs["beta"] = float(np.float32(g.rng.uniform(0, 1)))
    return op, [x.name], attrs, False


def r_jumpy(g):
    x = g.pick(exact=True)
    return str(g.rng.choice(JUMPY_UNARY)), [x.name], {}, True


def r_binary(g):
    a = g.pick()
    op = str(g.rng.choice(BINARY))
    if g.rng.random() < 0.5:
        bshape = broadcast_partner(g, a.shape)
        if op == "Pow":
            b = g.const(g.rng.integers(-2, 4, size=bshape).astype(np.float32))
        elif op == "Div":
            b = g.const((g.rng.uniform(0.5, 2, size=bshape) *
                         g.rng.choice([-1, 1], size=bshape)).astype(np.float32))
        else:
            b = g.new_input(F32, bshape).name
    else:
        b = g.new_input(F32, broadcast_partner(g, a.shape)).name
    ins = [a.name, b] if g.rng.random() < 0.7 else [b, a.name]
    return op, ins, {}, a.exact and op in ("Max", "Min")


def r_int_binary(g):
    a = g.pick(I64)
    op = str(g.rng.choice(["Add", "Sub", "Mul", "Max", "Min", "Div", "Mod"]))
    shape = broadcast_partner(g, a.shape)
    if op in ("Div", "Mod"):
        b = g.const((g.rng.integers(1, 5, size=shape) *
                     g.rng.choice([-1, 1], size=shape)).astype(np.int64))
    else:
        b = g.new_input(I64, shape).name
    attrs = {"fmod": 0} if op == "Mod" else {}
    return op, [a.name, b], attrs, True


def r_compare(g):
    a = g.pick(exact=True)
    b = g.new_input(F32, broadcast_partner(g, a.shape))
    return str(g.rng.choice(COMPARE)), [a.name, b.name], {}, True


def r_where(g):
    a = g.pick()
    c = g.pick(BOOL) if any(v.dtype == BOOL for v in g.values) else None
    if c is None:
        c = g.new_input(BOOL, broadcast_partner(g, a.shape))
    b = g.new_input(F32, broadcast_partner(g, a.shape))
    return "Where", [c.name, a.name, b.name], {}, a.exact


def r_cast(g):
    x = g.pick(exact=True)
    to = int(g.rng.choice([I64, TensorProto.INT32, F32, TensorProto.DOUBLE]))
    if x.dtype == F32 and to in (I64, TensorProto.INT32):
        # Float -> int truncates: values in range, so that the spec defines it.
        pass
    return "Cast", [x.name], {"to": to}, True


def r_reduce(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axes = sorted(set(int(a) for a in g.rng.integers(-rank, rank, size=g.rng.integers(1, rank + 1))))
    axes = sorted(set(a % rank for a in axes))
    keep = int(g.rng.integers(0, 2))
    if g.rng.random() < 0.3:
        ins = [x.name]
        if g.rng.random() < 0.7:
            ins.append(g.const(np.array(axes, dtype=np.int64)))
        return "ReduceSum", ins, {"keepdims": keep}, False
    op = str(g.rng.choice(REDUCE_ATTR_AXES))
    attrs = {"keepdims": keep}
    if g.rng.random() < 0.8:
        attrs["axes"] = axes
    return op, [x.name], attrs, x.exact and op in ("ReduceMax", "ReduceMin")


def r_argmax(g):
    x = g.pick(min_rank=1, exact=True)
    rank = len(x.shape)
    return (str(g.rng.choice(["ArgMax", "ArgMin"])), [x.name],
            {"axis": int(g.rng.integers(-rank, rank)), "keepdims": int(g.rng.integers(0, 2)),
             "select_last_index": int(g.rng.integers(0, 2))}, True)


def r_softmax(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    return (str(g.rng.choice(["Softmax", "LogSoftmax"])), [x.name],
            {"axis": int(g.rng.integers(-rank, rank))}, False)


def r_matmul(g):
    a = g.pick(min_rank=1, max_rank=3)
    k = a.shape[-1]
    n = int(g.rng.integers(1, 6))
    if len(a.shape) >= 2 and g.rng.random() < 0.5:
        b = g.const(g.floats([k, n]))
    else:
        batch = a.shape[:-2] if len(a.shape) > 2 and g.rng.random() < 0.5 else []
        b = g.new_input(F32, batch + [k, n]).name
    return "MatMul", [a.name, b], {}, False


def r_gemm(g):
    a = g.pick(min_rank=2, max_rank=2)
    ta, tb = int(g.rng.integers(0, 2)), int(g.rng.integers(0, 2))
    m, k = (a.shape[1], a.shape[0]) if ta else (a.shape[0], a.shape[1])
    n = int(g.rng.integers(1, 6))
    b = g.const(g.floats([n, k] if tb else [k, n]))
    ins = [a.name, b]
    if g.rng.random() < 0.7:
        ins.append(g.const(g.floats(broadcast_partner(g, [m, n]))))
    return ("Gemm", ins, {"transA": ta, "transB": tb,
                          "alpha": float(np.float32(g.rng.uniform(-2, 2))),
                          "beta": float(np.float32(g.rng.uniform(-2, 2)))}, False)


def r_transpose(g):
    x = g.pick(min_rank=1)
    perm = [int(p) for p in g.rng.permutation(len(x.shape))]
    return "Transpose", [x.name], {"perm": perm}, x.exact


def r_reshape(g):
    x = g.pick()
    total = int(np.prod(x.shape)) if x.shape else 1
    dims, rest = [], total
    for _ in range(int(g.rng.integers(0, 4))):
        divs = [d for d in range(1, rest + 1) if rest % d == 0]
        d = int(g.rng.choice(divs))
        dims.append(d)
        rest //= d
    if rest != 1 or not dims:
        dims.append(rest)
    g.rng.shuffle(dims)
    if g.rng.random() < 0.5:
        dims[int(g.rng.integers(0, len(dims)))] = -1
    for i in range(min(len(dims), len(x.shape))):
        if dims[i] == x.shape[i] and g.rng.random() < 0.5:
            dims[i] = 0
    return "Reshape", [x.name, g.const(np.array(dims, dtype=np.int64))], {}, x.exact


def r_flatten(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    return "Flatten", [x.name], {"axis": int(g.rng.integers(-rank, rank + 1))}, x.exact


def r_squeeze(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    if g.rng.random() < 0.5:
        axes = [int(a) for a in g.rng.integers(-(rank + 1), rank + 1, size=g.rng.integers(1, 3))]
        new_rank = rank + len(axes)
        axes = sorted(set(a % new_rank if a >= 0 else a for a in axes))
        norm = [a % new_rank for a in axes]
        if len(set(norm)) != len(norm):
            return None
        return "Unsqueeze", [x.name, g.const(np.array(axes, dtype=np.int64))], {}, x.exact
    ones = [i for i, d in enumerate(x.shape) if d == 1]
    if not ones:
        return None
    axes = [i - rank if g.rng.random() < 0.3 else i for i in ones if g.rng.random() < 0.7]
    ins = [x.name] + ([g.const(np.array(axes, dtype=np.int64))] if axes else [])
    return "Squeeze", ins, {}, x.exact


def r_concat(g):
    a = g.pick(min_rank=1)
    rank = len(a.shape)
    axis = int(g.rng.integers(-rank, rank))
    parts = [a.name]
    for _ in range(int(g.rng.integers(1, 3))):
        s = list(a.shape)
        s[axis] = int(g.rng.integers(0 if g.rng.random() < 0.1 else 1, 4))
        parts.append(g.new_input(a.dtype, s).name)
    g.rng.shuffle(parts)
    return "Concat", parts, {"axis": axis}, a.exact


def r_slice(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axes = [int(a) for a in g.rng.permutation(rank)[:int(g.rng.integers(1, rank + 1))]]
    starts, ends, steps = [], [], []
    for a in axes:
        d = x.shape[a]
        step = int(g.rng.choice([1, 1, 2, 3, -1, -2]))
        pick = lambda: int(g.rng.choice([int(g.rng.integers(-d - 2, d + 3)), 2**62, -2**62]))
        starts.append(pick())
        ends.append(pick())
        steps.append(step)
    if g.rng.random() < 0.3:
        axes = [a - rank for a in axes]
    ins = [x.name, g.const(np.array(starts, dtype=np.int64)), g.const(np.array(ends, dtype=np.int64))]
    if g.rng.random() < 0.8 or any(s != 1 for s in steps):
        ins.append(g.const(np.array(axes, dtype=np.int64)))
        ins.append(g.const(np.array(steps, dtype=np.int64)))
    return "Slice", ins, {}, x.exact


def r_gather(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axis = int(g.rng.integers(-rank, rank))
    d = x.shape[axis]
    ishape = [int(g.rng.integers(1, 4)) for _ in range(int(g.rng.integers(0, 3)))]
    idx = g.rng.integers(-d, d, size=ishape).astype(np.int64)
    return "Gather", [x.name, g.const(idx)], {"axis": axis}, x.exact


def r_pad(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    mode = str(g.rng.choice(["constant", "reflect", "edge"]))
    lo = 0 if mode == "reflect" else -1
    pads = []
    for half in range(2):
        for d in x.shape:
            hi = d - 1 if mode == "reflect" else 3
            pads.append(int(g.rng.integers(0 if mode == "reflect" else lo, max(hi, 0) + 1)))
    if mode == "constant":
        # Negative pads crop; keep every dim at least 1.
        for i, d in enumerate(x.shape):
            while pads[i] + pads[i + rank] + d < 1:
                pads[i] += 1
    if mode == "edge" or mode == "reflect":
        pads = [max(p, 0) for p in pads]
    ins = [x.name, g.const(np.array(pads, dtype=np.int64))]
    if mode == "constant" and g.rng.random() < 0.5:
        ins.append(g.const(np.array(g.rng.uniform(-2, 2), dtype=np.float32)))
    return "Pad", ins, {"mode": mode}, x.exact


def r_tile_expand(g):
    x = g.pick(max_rank=3)
    if g.rng.random() < 0.5 and x.shape:
        reps = g.rng.integers(1, 3, size=len(x.shape)).astype(np.int64)
        return "Tile", [x.name, g.const(reps)], {}, x.exact
    target = [d if d != 1 else int(g.rng.integers(1, 4)) for d in x.shape]
    if g.rng.random() < 0.5:
        target = [int(g.rng.integers(1, 3))] + target
    if g.rng.random() < 0.3:
        target = [1 if g.rng.random() < 0.5 else d for d in target]
    return "Expand", [x.name, g.const(np.array(target, dtype=np.int64))], {}, x.exact


def r_conv(g):
    n, c = int(g.rng.integers(1, 3)), int(g.rng.integers(1, 4))
    group = int(g.rng.choice([1, 1, c]))
    hw = [int(g.rng.integers(3, 8)) for _ in range(2)]
    x = g.new_input(F32, [n, c] + hw)
    m = group * int(g.rng.integers(1, 3))
    k = [int(g.rng.integers(1, 4)) for _ in range(2)]
    attrs = {"kernel_shape": k, "strides": [int(s) for s in g.rng.integers(1, 3, size=2)],
             "dilations": [int(s) for s in g.rng.integers(1, 3, size=2)],
             "group": group}
    if g.rng.random() < 0.3:
        attrs["auto_pad"] = str(g.rng.choice(["SAME_UPPER", "SAME_LOWER", "VALID"]))
        if attrs["auto_pad"] != "VALID":
            # ORT refuses SAME_* with dilations.
            attrs["dilations"] = [1, 1]
    else:
        attrs["pads"] = [int(p) for p in g.rng.integers(0, 3, size=4)]
    eff = [(k[i] - 1) * attrs["dilations"][i] + 1 for i in range(2)]
    if any(eff[i] > hw[i] for i in range(2)):
        return None
    ins = [x.name, g.const(g.floats([m, c // group] + k))]
    if g.rng.random() < 0.6:
        ins.append(g.const(g.floats([m])))
    return "Conv", ins, attrs, False


def r_pool(g):
    x = g.pick(min_rank=4, max_rank=4, exact=True)
    op = str(g.rng.choice(["MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"]))
    if op.startswith("Global"):
        return op, [x.name], {}, op == "GlobalMaxPool"
    k = [int(g.rng.integers(1, min(3, d) + 1)) for d in x.shape[2:]]
    attrs = {"kernel_shape": k, "strides": [int(s) for s in g.rng.integers(1, 3, size=2)],
             "pads": [int(g.rng.integers(0, kk)) for kk in k + k]}
    if op == "AveragePool":
        attrs["count_include_pad"] = int(g.rng.integers(0, 2))
    if g.rng.random() < 0.3:
        attrs["ceil_mode"] = 1
    return op, [x.name], attrs, op == "MaxPool"


def r_norm(g):
    x = g.pick(min_rank=2, max_rank=4)
    op = str(g.rng.choice(["BatchNormalization", "LayerNormalization", "InstanceNormalization"]))
    c = x.shape[1]
    if op == "BatchNormalization":
        ins = [x.name, g.const(g.floats([c])), g.const(g.floats([c])), g.const(g.floats([c])),
               g.const(np.abs(g.floats([c])) + 0.5)]
        return op, ins, {"epsilon": 1e-5}, False
    if op == "InstanceNormalization":
        if len(x.shape) < 3:
            return None
        return op, [x.name, g.const(g.floats([c])), g.const(g.floats([c]))], {"epsilon": 1e-5}, False
    rank = len(x.shape)
    axis = int(g.rng.integers(-rank, rank))
    nshape = x.shape[axis % rank:]
    return op, [x.name, g.const(g.floats(nshape)), g.const(g.floats(nshape))], \
        {"axis": axis, "epsilon": 1e-5}, False


def r_cumsum(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axis = g.const(np.array(int(g.rng.integers(-rank, rank)), dtype=np.int64))
    return ("CumSum", [x.name, axis], {"exclusive": int(g.rng.integers(0, 2)),
                                       "reverse": int(g.rng.integers(0, 2))}, False)


def r_clip(g):
    x = g.pick()
    lo = float(np.float32(g.rng.uniform(-2, 0)))
    hi = float(np.float32(g.rng.uniform(0, 2)))
    ins = [x.name, g.const(np.array(lo, dtype=np.float32)) if g.rng.random() < 0.8 else "",
           g.const(np.array(hi, dtype=np.float32)) if g.rng.random() < 0.8 else ""]
    while ins and ins[-1] == "":
        ins.pop()
    return "Clip", ins, {}, x.exact


def r_split(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axis = int(g.rng.integers(-rank, rank))
    d = x.shape[axis]
    if d < 2:
        return None
    cut = int(g.rng.integers(1, d))
    return "Split", [x.name, g.const(np.array([cut, d - cut], dtype=np.int64))], \
        {"axis": axis}, x.exact, 2


def r_shape_reshape(g):
    # Reshape to another value's run-time shape: Shape -> (Slice) -> Reshape.
    x = g.pick(min_rank=1)
    flat = g.fresh("flat")
    g.nodes.append(helper.make_node("Flatten", [x.name], [flat], axis=0,
                                    name="n%d_Flatten" % len(g.nodes)))
    shp = g.fresh("shape")
    g.nodes.append(helper.make_node("Shape", [x.name], [shp],
                                    name="n%d_Shape" % len(g.nodes)))
    return "Reshape", [flat, shp], {}, x.exact


def r_gather_elements(g):
    x = g.pick(min_rank=1)
    rank = len(x.shape)
    axis = int(g.rng.integers(-rank, rank))
    ishape = [int(g.rng.integers(1, d + 1)) for d in x.shape]
    d = x.shape[axis]
    idx = g.rng.integers(-d, d, size=ishape).astype(np.int64)
    return "GatherElements", [x.name, g.const(idx)], {"axis": axis}, x.exact


def r_depth_space(g):
    x = g.pick(min_rank=4, max_rank=4)
    n, c, h, w = x.shape
    if g.rng.random() < 0.5:
        bs = [b for b in (2, 3) if h % b == 0 and w % b == 0]
        if not bs:
            return None
        return "SpaceToDepth", [x.name], {"blocksize": int(g.rng.choice(bs))}, x.exact
    bs = [b for b in (2,) if c % (b * b) == 0]
    if not bs:
        return None
    return ("DepthToSpace", [x.name], {"blocksize": 2,
                                       "mode": str(g.rng.choice(["DCR", "CRD"]))}, x.exact)


def r_topk(g):
    x = g.pick(min_rank=1, exact=True)
    rank = len(x.shape)
    axis = int(g.rng.integers(-rank, rank))
    k = int(g.rng.integers(1, x.shape[axis] + 1))
    return ("TopK", [x.name, g.const(np.array([k], dtype=np.int64))],
            {"axis": axis, "largest": int(g.rng.integers(0, 2)), "sorted": 1}, True, 2)


def r_resize(g):
    x = g.pick(min_rank=4, max_rank=4)
    scales = np.array([1, 1] + [float(g.rng.choice([1, 2, 3])) for _ in range(2)],
                      dtype=np.float32)
    mode = str(g.rng.choice(["nearest", "linear"]))
    attrs = {"mode": mode}
    if mode == "nearest":
        attrs["coordinate_transformation_mode"] = "asymmetric"
        attrs["nearest_mode"] = "floor"
    else:
        attrs["coordinate_transformation_mode"] = str(
            g.rng.choice(["half_pixel", "align_corners", "asymmetric"]))
    return "Resize", [x.name, "", g.const(scales)], attrs, False


RULES = [(r_unary, 6), (r_unary_attr, 3), (r_jumpy, 2), (r_binary, 6),
         (r_int_binary, 2), (r_compare, 2), (r_where, 2), (r_cast, 2),
         (r_reduce, 4), (r_argmax, 2), (r_softmax, 2), (r_matmul, 3),
         (r_gemm, 2), (r_transpose, 3), (r_reshape, 3), (r_flatten, 1),
         (r_squeeze, 2), (r_concat, 3), (r_slice, 3), (r_gather, 2),
         (r_pad, 2), (r_tile_expand, 2), (r_conv, 3), (r_pool, 2),
         (r_norm, 2), (r_cumsum, 1), (r_clip, 1), (r_split, 1),
         (r_shape_reshape, 1), (r_gather_elements, 1), (r_depth_space, 1),
         (r_topk, 1), (r_resize, 1)]
EXACT_OPS = set()


def infer(g, outputs):
    m = g.model(outputs)
    m = shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
    return {vi.name: vi for vi in list(m.graph.value_info) + list(m.graph.output)}


def generate(seed, max_nodes, dynamic=0.0):
    rng = np.random.default_rng(seed)
    g = Graph(rng)
    g.new_input(F32, [int(rng.integers(1, 5)) for _ in range(int(rng.integers(1, 5)))])
    if rng.random() < 0.2:
        g.new_input(I64, [int(rng.integers(1, 5)) for _ in range(int(rng.integers(1, 4)))])
    rules, weights = zip(*RULES)
    p = np.array(weights, dtype=float) / sum(weights)
    target = int(rng.integers(1, max_nodes + 1))
    tries = 0
    while len(g.nodes) < target and tries < 40:
        tries += 1
        rule = rules[int(rng.choice(len(rules), p=p))]
        snapshot = (list(g.inputs), list(g.inits), list(g.values), g.n, len(g.nodes))
        try:
            made = rule(g)
        except (ValueError, IndexError, ZeroDivisionError):
            made = None
        if made is None:
            g.inputs, g.inits, g.values, g.n, nn = snapshot
            del g.nodes[nn:]
            continue
        op, ins, attrs, exact = made[:4]
        nout = made[4] if len(made) > 4 else 1
        outs = [g.fresh("v") for _ in range(nout)]
        node = helper.make_node(op, ins, outs, name="n%d_%s" % (len(g.nodes), op), **attrs)
        g.nodes.append(node)
        try:
            m = g.model([])
            m.graph.output.extend([helper.make_empty_tensor_value_info(o) for o in outs])
            m = shape_inference.infer_shapes(m, check_type=True, strict_mode=True,
                                             data_prop=True)
            found = {vi.name: vi for vi in m.graph.output}
            new = []
            for o in outs:
                t = found[o].type.tensor_type
                if not t.HasField("shape") or t.elem_type == 0:
                    raise ValueError("no shape")
                dims = [d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim]
                if any(d < 0 for d in dims) or int(np.prod(dims or [1])) > 4096:
                    raise ValueError("bad shape")
                new.append(Value(o, t.elem_type, dims, exact))
        except Exception:
            g.inputs, g.inits, g.values, g.n, nn = snapshot
            del g.nodes[nn:]
            continue
        g.values.extend(new)
    if not g.nodes:
        return None
    used = {i for n in g.nodes for i in n.input}
    outputs = [v for v in g.values if v.name not in used and
               v.name not in {i.name for i in g.inputs}]
    outputs = [v for v in outputs if v.dtype in (F32, I64, BOOL, TensorProto.INT32,
                                                 TensorProto.DOUBLE)]
    if not outputs:
        return None
    m = g.model(outputs)
    onnx.checker.check_model(m, full_check=True)
    if rng.random() < dynamic:
        # Some input dims symbolic (each its own name, so that nothing ties
        # them): the compiled model then checks and computes shapes at run
        # time. Outputs declare their rank only. Dims of 1 stay static: a
        # symbolic dim that is 1 at run time makes Squeeze without axes and
        # broadcasting depend on data (onnxc fixes the rank at compile time
        # and checks; docs/testing.md).
        for vi in m.graph.input:
            for k, dim in enumerate(vi.type.tensor_type.shape.dim):
                if dim.dim_value > 1 and rng.random() < 0.5:
                    dim.Clear()
                    dim.dim_param = "%s_%d" % (vi.name, k)
        for vi in m.graph.output:
            for k, dim in enumerate(vi.type.tensor_type.shape.dim):
                dim.Clear()
                dim.dim_param = "%s_%d" % (vi.name, k)
    inputs = []
    for v in g.inputs:
        if v.dtype == F32:
            a = (rng.standard_normal(v.shape) * 2).astype(np.float32)
            # Exact values on a grid of quarters: Floor/Round/Cast/ties see
            # representable values, the same in both runtimes.
            a = np.round(a * 4) / 4
        elif v.dtype == I64:
            a = rng.integers(-8, 9, size=v.shape).astype(np.int64)
        else:
            a = rng.random(v.shape) < 0.5
        inputs.append(a.astype(NP[v.dtype]) if v.dtype in NP else a)
    return m, inputs


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, (p.stderr or p.stdout).strip()
    except subprocess.TimeoutExpired:
        return "timeout", ""


def compare(got, exp, rtol, atol):
    if got.dtype != exp.dtype:
        return "dtype %s, ORT %s" % (got.dtype, exp.dtype)
    if got.shape != exp.shape:
        return "shape %s, ORT %s" % (list(got.shape), list(exp.shape))
    if got.dtype.kind == "f":
        gn, en = np.isnan(got), np.isnan(exp)
        if (gn != en).any():
            return "NaN at %s" % (np.argwhere(gn != en)[0].tolist(),)
        g, e = got[~gn].astype(np.float64), exp[~en].astype(np.float64)
        inf = np.isinf(g) | np.isinf(e)
        if (g[inf] != e[inf]).any():
            return "inf mismatch"
        g, e = g[~inf], e[~inf]
        bad = np.abs(g - e) > atol + rtol * np.abs(e)
        if bad.any():
            i = int(np.argmax(np.abs(g - e)))
            return "max |diff| %.3g (got %r, ORT %r)" % (abs(g[i] - e[i]), g[i], e[i])
        return None
    if (got != exp).any():
        i = np.argwhere(got != exp)[0].tolist()
        return "differs at %s (got %r, ORT %r)" % (i, got[tuple(i)], exp[tuple(i)])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--onnxc", required=True)
    ap.add_argument("--onnxc-run", required=True)
    ap.add_argument("--node", default=shutil.which("node") or "node")
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=4)
    ap.add_argument("--dynamic", type=float, default=0.3,
                    help="fraction of graphs with symbolic input dims")
    ap.add_argument("--opt", default="2", help="onnxc -O level (or 'mix': by seed)")
    ap.add_argument("--onnxc-flags", default="", help="more onnxc flags (space separated)")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--keep", help="keep every graph's files under this directory")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    os.makedirs(a.work, exist_ok=True)
    counts = dict(graphs=0, compared=0, onnxc=0, ort=0, findings=0)
    refusals = {}
    for seed in range(a.seed, a.seed + a.count):
        made = generate(seed, a.nodes, a.dynamic)
        if made is None:
            continue
        model, inputs = made
        counts["graphs"] += 1
        d = os.path.join(a.keep or a.work, "s%d" % seed)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "in"))
        os.makedirs(os.path.join(d, "out"))
        onnx.save(model, os.path.join(d, "model.onnx"))
        for i, x in enumerate(inputs):
            t = numpy_helper.from_array(x, model.graph.input[i].name)
            with open(os.path.join(d, "in", "input_%d.pb" % i), "wb") as f:
                f.write(t.SerializeToString())
        ops = " ".join(n.op_type for n in model.graph.node)
        tag = "seed %d [%s]" % (seed, ops)

        def finding(msg):
            counts["findings"] += 1
            print("FINDING %s: %s" % (tag, msg), flush=True)

        rc, err = run([a.node, ORT_RUN, os.path.join(d, "model.onnx"), "--inputs",
                       os.path.join(d, "in"), "--save", os.path.join(d, "ort")], a.timeout)
        if rc != 0:
            counts["ort"] += 1
            if a.verbose:
                print("ort refuses %s: %s" % (tag, err.splitlines()[-1] if err else rc))
            continue
        opt = str(seed % 4) if a.opt == "mix" else a.opt
        lib = os.path.join(d, "m.so")
        rc, err = run([a.onnxc, os.path.join(d, "model.onnx"), "-o", lib, "-O" + opt] +
                      a.onnxc_flags.split(), a.timeout)
        if rc == "timeout":
            finding("onnxc -O%s hangs (over %g s)" % (opt, a.timeout))
            continue
        if rc != 0:
            line = err.splitlines()[-1] if err else ""
            if rc == 1 and line.startswith("onnxc: error:") and len(err.splitlines()) == 1:
                counts["onnxc"] += 1
                reason = line.split("): ", 1)[-1][:80]
                refusals[reason] = refusals.get(reason, 0) + 1
                if a.verbose:
                    print("onnxc refuses %s: %s" % (tag, line))
            else:
                finding("onnxc -O%s exits %s: %s" % (opt, rc, err[-300:].replace("\n", " | ")))
            continue
        rc, err = run([a.onnxc_run, lib, "--inputs", os.path.join(d, "in"), "--save",
                       os.path.join(d, "out")], a.timeout)
        if rc != 0:
            finding("onnxc-run -O%s exits %s: %s" % (opt, rc, err[-300:].replace("\n", " | ")))
            continue
        bad = []
        for k, o in enumerate(model.graph.output):
            exp = numpy_helper.to_array(onnx.load_tensor(os.path.join(d, "ort", "output_%d.pb" % k)))
            got = numpy_helper.to_array(onnx.load_tensor(os.path.join(d, "out", "output_%d.pb" % k)))
            why = compare(got, exp, a.rtol, a.atol)
            if why:
                bad.append("output %d '%s': %s" % (k, o.name, why))
        if bad:
            finding("-O%s mismatch: %s" % (opt, "; ".join(bad)))
        else:
            counts["compared"] += 1
            if a.verbose:
                print("ok %s" % tag)
        if not a.keep:
            shutil.rmtree(d, ignore_errors=True)
    if a.verbose:
        for r, n in sorted(refusals.items(), key=lambda x: -x[1]):
            print("  refused %dx: %s" % (n, r))
    print("difffuzz: %d graphs, %d compared, %d refused by onnxc, %d refused by ORT, "
          "%d findings" % (counts["graphs"], counts["compared"], counts["onnxc"],
                           counts["ort"], counts["findings"]))
    return 1 if counts["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())

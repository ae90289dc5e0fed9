#!/usr/bin/python3
"""RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike and
Multinomial as generated cases the conformance runner can count (write
DIR; every case has a numpy reference, so `oracle` leaves them alone).

Random values cannot be compared with ONNX Runtime's (another generator)
value by value, so each model computes statistics of its own draws and
the reference is what they must be:

- z scores, expected 0 with atol 6 (random-tolerance.json): for a sample
  of n draws of a distribution with mean mu and variance s2,
  z_mean = (mean - mu) / sqrt(s2 / n) and
  z_var = (mean((y - mu)^2) - s2) / sqrt(m4' / n), m4' being the variance
  of (y - mu)^2: w^4 / 180 for a uniform of width w, 2 s2^2 for a normal.
  By the central limit theorem (n = 2^16 to 2^20) each |z| exceeds 6 with
  probability 2.0e-9; the statistics are taken in double after a Cast, so
  the summation error is far below one standard error;
- exact outputs: the result's shape (Shape, int64), the range (uniform:
  low <= y <= high, a float16 may round to high; normal: no NaN or
  infinity), two nodes with the same seed drawing the same tensor and a
  third with another seed a different one (bool);
- the dtype: each statistic is computed from the draws without a Cast
  where the dtype matters (Shape, the range), and the Cast to double
  reads the declared dtype, so a wrong dtype fails to compile or compare.

Multinomial: per row b and class j of the logits, the count c_bj of
sample_size = n draws is binomial: z = (c_bj - n p_bj) / sqrt(n p_bj
(1 - p_bj)) with p = softmax(logits) (computed in the model, so that the
symbolic-dims run reads its own input), expected 0 with atol 6 (12 cells:
a correct sampler fails with probability 2.4e-8); every sample in
[0, class_size); int32 and int64 outputs. A -inf logit gets p = 0: its
count must be 0 exactly (its z is then 0/0; the model reports the count).

The *Like cases and Multinomial read a graph input, so the --dynamic run
gives them symbolic dims. The seeds are fixed, so a run is reproducible;
the bounds hold for any seed. test/e2e/random checks the streams bit for
bit against a Python Philox reference, the seeds' determinism across
calls and processes, and more distributions (stats.py, determinism.py).
"""
import math
import sys

import numpy as np
from onnx import TensorProto as T, helper

from opmodel import ONNX_TYPE, model, write_all, testcases

DT = {T.FLOAT: np.float32, T.DOUBLE: np.float64, T.FLOAT16: np.float16}


def c(name, value):
    return testcases.const(name, np.asarray(value))


def stats_nodes(y, mu, s2, m4, n):
    """Nodes computing z_mean and z_var (double scalars) of tensor y."""
    return [
        helper.make_node("Cast", [y], ["yd"], to=T.DOUBLE),
        c("mu", np.float64(mu)),
        helper.make_node("ReduceMean", ["yd"], ["mean"], keepdims=0),
        helper.make_node("Sub", ["mean", "mu"], ["dm"]),
        c("se_mean", np.float64(math.sqrt(s2 / n))),
        helper.make_node("Div", ["dm", "se_mean"], ["z_mean"]),
        helper.make_node("Sub", ["yd", "mu"], ["dev"]),
        helper.make_node("Mul", ["dev", "dev"], ["dev2"]),
        helper.make_node("ReduceMean", ["dev2"], ["var"], keepdims=0),
        c("s2", np.float64(s2)),
        helper.make_node("Sub", ["var", "s2"], ["dv"]),
        c("se_var", np.float64(math.sqrt(m4 / n))),
        helper.make_node("Div", ["dv", "se_var"], ["z_var"]),
    ]


def all_true(cond, out):
    """out = every element of the bool tensor `cond` is true (bool scalar)."""
    return [helper.make_node("Cast", [cond], [out + "_i"], to=T.INT32),
            helper.make_node("ReduceMin", [out + "_i"], [out + "_m"], keepdims=0),
            c(out + "_one", np.int32(1)),
            helper.make_node("Equal", [out + "_m", out + "_one"], [out])]


def seed_nodes(op, attrs, ins, seed):
    """Two more draws: the same seed (must equal y) and another (must not)."""
    a2 = dict(attrs, seed=seed)
    a3 = dict(attrs, seed=seed + 1.0)
    return [helper.make_node(op, ins, ["y_same"], **a2),
            helper.make_node(op, ins, ["y_other"], **a3),
            helper.make_node("Equal", ["y", "y_same"], ["eq_same"]),
            helper.make_node("Equal", ["y", "y_other"], ["eq_other"]),
            helper.make_node("Not", ["eq_other"], ["ne_other"]),
            helper.make_node("Cast", ["ne_other"], ["ne_i"], to=T.INT32),
            helper.make_node("ReduceMax", ["ne_i"], ["ne_m"], keepdims=0),
            c("ne_one", np.int32(1)),
            helper.make_node("Equal", ["ne_m", "ne_one"], ["other_differs"])] + \
        all_true("eq_same", "same_equal")


OUTS = [("z_mean", T.DOUBLE), ("z_var", T.DOUBLE), ("shape", T.INT64),
        ("in_range", T.BOOL), ("same_equal", T.BOOL), ("other_differs", T.BOOL)]


def expected(shape):
    return [np.float64(0), np.float64(0), np.array(shape, np.int64),
            np.bool_(True), np.bool_(True), np.bool_(True)]


def uniform_case(name, op, dtype, shape, low, high, seed, x=None):
    n = int(np.prod(shape))
    w = high - low
    attrs = dict(low=low, high=high, seed=seed)
    ins = []
    inputs = []
    if op == "RandomUniform":
        attrs.update(shape=list(shape), dtype=dtype)
    else:
        ins = ["x"]
        inputs = [("x", x)]
        if dtype is not None:
            attrs["dtype"] = dtype
    nodes = [helper.make_node(op, ins, ["y"], **attrs)]
    nodes += stats_nodes("y", (low + high) / 2, w * w / 12, w ** 4 / 180, n)
    nodes += [helper.make_node("Shape", ["y"], ["shape"]),
              helper.make_node("ReduceMin", ["yd"], ["ymin"], keepdims=0),
              helper.make_node("ReduceMax", ["yd"], ["ymax"], keepdims=0),
              c("low", np.float64(low)), c("high", np.float64(high)),
              helper.make_node("GreaterOrEqual", ["ymin", "low"], ["ge"]),
              helper.make_node("LessOrEqual", ["ymax", "high"], ["le"]),
              helper.make_node("And", ["ge", "le"], ["in_range"])]
    nodes += seed_nodes(op, {k: v for k, v in attrs.items() if k != "seed"},
                        ins, seed)
    return name, model(name, nodes, inputs, OUTS, 18), expected(shape)


def normal_case(name, op, dtype, shape, mean, scale, seed, x=None):
    n = int(np.prod(shape))
    s2 = scale * scale
    attrs = dict(mean=mean, scale=scale, seed=seed)
    ins = []
    inputs = []
    if op == "RandomNormal":
        attrs.update(shape=list(shape), dtype=dtype)
    else:
        ins = ["x"]
        inputs = [("x", x)]
        if dtype is not None:
            attrs["dtype"] = dtype
    nodes = [helper.make_node(op, ins, ["y"], **attrs)]
    nodes += stats_nodes("y", mean, s2, 2 * s2 * s2, n)
    nodes += [helper.make_node("Shape", ["y"], ["shape"]),
              helper.make_node("IsNaN", ["yd"], ["nan"]),
              helper.make_node("IsInf", ["yd"], ["inf"]),
              helper.make_node("Or", ["nan", "inf"], ["bad"]),
              helper.make_node("Not", ["bad"], ["finite"])]
    nodes += all_true("finite", "in_range")
    nodes += seed_nodes(op, {k: v for k, v in attrs.items() if k != "seed"},
                        ins, seed)
    return name, model(name, nodes, inputs, OUTS, 18), expected(shape)


def multinomial_case(name, logits, n, dtype, seed):
    b, k = logits.shape
    nodes = [
        helper.make_node("Multinomial", ["x"], ["s"], sample_size=n,
                         dtype=dtype, seed=seed),
        helper.make_node("Shape", ["s"], ["shape"]),
        helper.make_node("Cast", ["s"], ["s64"], to=T.INT64),
        # counts[b, j] = sum over samples of (s == j)
        c("k", np.int64(k)), c("zero", np.int64(0)), c("one", np.int64(1)),
        helper.make_node("Range", ["zero", "k", "one"], ["classes"]),
        c("ax", np.array([2], np.int64)),
        helper.make_node("Unsqueeze", ["s64", "ax"], ["s3"]),
        helper.make_node("Equal", ["s3", "classes"], ["hit"]),
        helper.make_node("Cast", ["hit"], ["hitd"], to=T.DOUBLE),
        c("ax1", np.array([1], np.int64)),
        helper.make_node("ReduceSum", ["hitd", "ax1"], ["counts"], keepdims=0),
        helper.make_node("Cast", ["x"], ["xd"], to=T.DOUBLE),
        helper.make_node("Softmax", ["xd"], ["p"], axis=1),
        c("n", np.float64(n)), c("fone", np.float64(1)), c("tiny", np.float64(1e-300)),
        helper.make_node("Mul", ["p", "n"], ["np_"]),
        helper.make_node("Sub", ["counts", "np_"], ["dc"]),
        helper.make_node("Sub", ["fone", "p"], ["q"]),
        helper.make_node("Mul", ["np_", "q"], ["v"]),
        helper.make_node("Max", ["v", "tiny"], ["v1"]),
        helper.make_node("Sqrt", ["v1"], ["sd"]),
        helper.make_node("Div", ["dc", "sd"], ["z"]),
        # cells with p = 0 report their count (must be 0) instead of z
        c("fzero", np.float64(0)),
        helper.make_node("Equal", ["p", "fzero"], ["impossible"]),
        helper.make_node("Where", ["impossible", "counts", "z"], ["z_counts"]),
        helper.make_node("GreaterOrEqual", ["s64", "zero"], ["ge"]),
        helper.make_node("Less", ["s64", "k"], ["lt"]),
        helper.make_node("And", ["ge", "lt"], ["ok"]),
    ] + all_true("ok", "in_range")
    outs = [("z_counts", T.DOUBLE), ("shape", T.INT64), ("in_range", T.BOOL)]
    ref = [np.zeros((b, k)), np.array([b, n], np.int64), np.bool_(True)]
    return name, model(name, nodes, [("x", logits)], outs, 18), ref


def cases(rng):
    big, mid = (1024, 1024), (256, 256)
    yield uniform_case("randomuniform_float", "RandomUniform", T.FLOAT, big,
                       -2.0, 3.0, 1.0)
    yield uniform_case("randomuniform_double", "RandomUniform", T.DOUBLE,
                       (4, 512, 512), 0.0, 1.0, 2.0)
    yield uniform_case("randomuniform_float16", "RandomUniform", T.FLOAT16,
                       mid, -1.0, 1.0, 3.0)
    yield normal_case("randomnormal_float", "RandomNormal", T.FLOAT, big,
                      1.0, 2.0, 4.0)
    yield normal_case("randomnormal_double", "RandomNormal", T.DOUBLE, big,
                      -3.0, 0.5, 5.0)
    yield normal_case("randomnormal_float16", "RandomNormal", T.FLOAT16, mid,
                      0.0, 1.0, 6.0)
    x32 = np.zeros((512, 1024), np.float32)
    x16 = np.zeros((256, 256), np.float16)
    yield uniform_case("randomuniformlike_input_dtype", "RandomUniformLike",
                       None, x32.shape, 0.5, 4.0, 7.0, x=x32)
    yield uniform_case("randomuniformlike_double_from_float16",
                       "RandomUniformLike", T.DOUBLE, x16.shape, -5.0, 5.0,
                       8.0, x=x16)
    yield normal_case("randomnormallike_input_dtype", "RandomNormalLike", None,
                      x32.shape, 2.0, 3.0, 9.0, x=x32)
    yield normal_case("randomnormallike_float16_from_float",
                      "RandomNormalLike", T.FLOAT16, x32.shape, 0.0, 1.0, 10.0,
                      x=x32)
    logits = np.array([[0.0, 1.0, 2.0, -1.0], [3.0, 3.0, 3.0, 3.0],
                       [-0.5, 2.0, -np.inf, 0.25]], np.float32)
    yield multinomial_case("multinomial_int32", logits, 100000, T.INT32, 11.0)
    yield multinomial_case("multinomial_int64_double_logits",
                           logits.astype(np.float64), 50000, T.INT64, 12.0)


def write(root):
    write_all(root, "random", cases(np.random.default_rng(0)))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "random", __doc__, per_line=True)

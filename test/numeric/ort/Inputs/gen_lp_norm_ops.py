#!/usr/bin/python3
"""LpPool (opset 18), GlobalLpPool, LpNormalization and GroupNormalization
(opsets 18 and 21) with ONNX Runtime as the oracle (write DIR, then oracle
DIR CMD..., as gen_conv_ops.py).

LpPool: p = 1, 2 (the default), 3; 1-D, 2-D and 3-D windows with pads,
strides, dilations, ceil_mode, auto_pad SAME_UPPER / SAME_LOWER / VALID.
GlobalLpPool: p = 1, 2, 3 over 1-D, 2-D and 3-D maps. LpNormalization:
p = 1 and 2, axis first, middle and last (-1). GroupNormalization: one
group, several, one per channel; epsilon; stash_type 1 given explicitly
and 11 (statistics in double, on float and float16 data);
1-D, 2-D and 3-D maps; opset 18's per-group scale and bias. Float in
every case; double and float16 where the spec allows them. ORT 1.30 has
no double LpPool or GlobalLpPool: those two cases take a numpy reference
(the spec's formula in double, below; the LpPool one checked against ORT
on the float cases).
"""
import sys

import numpy as np
from onnx import helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def lp_pool_ref(x, kernel, p, strides, pads, dilations, ceil_mode, auto_pad):
    """(sum over the window of |x|^p)^(1/p), the padding counting as 0."""
    r = len(kernel)
    spatial = x.shape[2:]
    strides = strides or [1] * r
    dilations = dilations or [1] * r
    eff = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = [-(-s // st) for s, st in zip(spatial, strides)]
        total = [max(0, (o - 1) * st + e - s)
                 for o, st, e, s in zip(out, strides, eff, spatial)]
        lo = [t // 2 if auto_pad == "SAME_UPPER" else t - t // 2 for t in total]
        pads = lo + [t - l for t, l in zip(total, lo)]
    elif auto_pad == "VALID":
        pads = [0] * 2 * r
    pads = pads or [0] * 2 * r
    out = []
    for i in range(r):
        n = spatial[i] + pads[i] + pads[i + r] - eff[i]
        o = (-(-n // strides[i]) if ceil_mode else n // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= spatial[i] + pads[i]:
            o -= 1
        out.append(o)
    xp = np.zeros(x.shape[:2] + tuple(
        s + pads[i] + pads[i + r] + eff[i] for i, s in enumerate(spatial)))
    xp[(slice(None), slice(None)) + tuple(
        slice(pads[i], pads[i] + s) for i, s in enumerate(spatial))] = x
    y = np.zeros(x.shape[:2] + tuple(out))
    for idx in np.ndindex(*out):
        win = xp[(slice(None), slice(None)) + tuple(
            slice(idx[i] * strides[i], idx[i] * strides[i] + eff[i],
                  dilations[i]) for i in range(r))]
        y[(slice(None), slice(None)) + idx] = (
            np.abs(win.astype(np.float64)) ** p).reshape(
                x.shape[:2] + (-1,)).sum(-1) ** (1.0 / p)
    return y.astype(x.dtype)


def lp_pool_cases(rng):
    # (name, x shape, kernel, attrs)
    specs = [
        ("2d_p2_default", (2, 3, 7, 8), [3, 3], {}),
        ("2d_p1_pads_strides", (1, 2, 6, 7), [3, 2],
         dict(p=1, pads=[1, 0, 2, 1], strides=[2, 1])),
        ("2d_p3_dilations_ceil", (1, 2, 9, 8), [2, 3],
         dict(p=3, dilations=[2, 1], strides=[2, 2], pads=[1, 1, 0, 1],
              ceil_mode=1)),
        ("1d_same_upper", (2, 3, 9), [4], dict(strides=[2], auto_pad="SAME_UPPER")),
        ("2d_same_lower", (1, 2, 5, 6), [3, 2],
         dict(p=1, strides=[2, 2], auto_pad="SAME_LOWER")),
        ("3d_p2_valid", (1, 2, 4, 5, 6), [2, 2, 3],
         dict(strides=[1, 2, 1], auto_pad="VALID")),
    ]
    for name, xs, k, attrs in specs:
        x = rng.standard_normal(xs).astype(np.float32)
        node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=k, **attrs)
        yield "lppool_" + name, model(name, [node], [("x", x)],
                                      [("y", ONNX_TYPE[x.dtype])], 18)
    for dt in (np.float64, np.float16):
        x = rng.standard_normal((1, 3, 6, 5)).astype(dt)
        attrs = dict(p=3, strides=[2, 1], pads=[1, 1, 1, 0], ceil_mode=1)
        node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], **attrs)
        name = "lppool_2d_p3_" + np.dtype(dt).name
        m = model(name, [node], [("x", x)], [("y", ONNX_TYPE[x.dtype])], 18)
        if dt == np.float64:
            yield name, m, lp_pool_ref(x, [2, 2], 3, [2, 1], [1, 1, 1, 0], None,
                                       1, None)
        else:
            yield name, m


def global_lp_pool_cases(rng):
    for name, xs, p, dt in [("2d_p2_default", (2, 3, 5, 4), None, np.float32),
                            ("1d_p1", (2, 4, 9), 1, np.float32),
                            ("3d_p3", (1, 2, 3, 4, 5), 3, np.float32),
                            ("2d_p2_float64", (1, 3, 4, 4), 2, np.float64),
                            ("2d_p1_float16", (1, 3, 4, 4), 1, np.float16)]:
        x = rng.standard_normal(xs).astype(dt)
        attrs = {} if p is None else {"p": p}
        node = helper.make_node("GlobalLpPool", ["x"], ["y"], **attrs)
        m = model(name, [node], [("x", x)], [("y", ONNX_TYPE[x.dtype])], 18)
        if dt != np.float64:
            yield "globallppool_" + name, m
        else:
            ref = (np.abs(x.astype(np.float64)) ** (p or 2)).sum(
                axis=tuple(range(2, x.ndim)), keepdims=True) ** (1.0 / (p or 2))
            yield "globallppool_" + name, m, ref.astype(dt)


def lp_norm_cases(rng):
    for name, xs, attrs, dt in [("p2_default", (3, 5), {}, np.float32),
                                ("p1_axis0", (4, 3, 2), dict(p=1, axis=0), np.float32),
                                ("p2_axis1", (2, 5, 3), dict(p=2, axis=1), np.float32),
                                ("p1_last_float64", (2, 3, 4), dict(p=1, axis=-1),
                                 np.float64),
                                ("p2_axis1_float16", (2, 4, 3), dict(p=2, axis=1),
                                 np.float16)]:
        x = rng.standard_normal(xs).astype(dt)
        x.reshape(-1)[0] = 0
        node = helper.make_node("LpNormalization", ["x"], ["y"], **attrs)
        m = model(name, [node], [("x", x)], [("y", ONNX_TYPE[x.dtype])], 18)
        yield "lpnorm_" + name, m


def group_norm_cases(rng):
    # (name, x shape, groups, attrs, dtype, opset)
    specs = [
        ("1group_2d", (2, 6, 4, 5), 1, {}, np.float32, 21),
        ("3groups_2d", (2, 6, 4, 5), 3, dict(epsilon=1e-3), np.float32, 21),
        ("per_channel_1d", (3, 4, 7), 4, dict(stash_type=1), np.float32, 21),
        ("2groups_3d", (1, 4, 3, 2, 5), 2, {}, np.float32, 21),
        ("2groups_float64", (2, 4, 3, 3), 2, {}, np.float64, 21),
        ("2groups_float16", (2, 4, 3, 3), 2, {}, np.float16, 21),
        ("opset18_per_group_scale", (2, 6, 3, 4), 3, {}, np.float32, 18),
        ("stash_double_float", (2, 4, 5), 2, dict(stash_type=11), np.float32, 21),
        ("stash_double_float16", (2, 6, 3), 3, dict(stash_type=11), np.float16, 21),
    ]
    for name, xs, g, attrs, dt, opset in specs:
        x = (rng.standard_normal(xs) * 3 + 1).astype(dt)
        c = xs[1] if opset >= 21 else g
        scale = rng.standard_normal(c).astype(dt)
        bias = rng.standard_normal(c).astype(dt)
        node = helper.make_node("GroupNormalization", ["x", "scale", "bias"],
                                ["y"], num_groups=g, **attrs)
        yield "groupnorm_" + name, model(
            name, [node], [("x", x)], [("y", ONNX_TYPE[x.dtype])], opset,
            inits=[("scale", scale), ("bias", bias)])


def write(root):
    rng = np.random.default_rng(0)
    for gen in (lp_pool_cases, global_lp_pool_cases, lp_norm_cases,
                group_norm_cases):
        write_all(root, "lpnorm", gen(rng))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "lpnorm", __doc__, per_line=True)

#!/usr/bin/python3
"""CenterCropPad (opset 18), AffineGrid (opset 20) and MaxRoiPool with ONNX
Runtime as the oracle (write DIR, then oracle DIR CMD..., as
gen_conv_ops.py).

CenterCropPad: crop only, pad only, both in one op (axes), negative axes,
odd differences (the spec's function pads and crops (out - in) / 2 and
(in - out) / 2 in front, rounded down), float, float16, int32, uint8 and
bool data, the shape as an initializer or as a graph input (the result's
shape then comes from data). AffineGrid: 2-D and 3-D, align_corners 0 and
1, float and double theta, size as an initializer or a graph input.
MaxRoiPool: rois inside, across and outside the image, a degenerate 1x1
roi, spatial_scale 1 and 0.5 (corners at .5 round away from zero), bins
that come out empty; float (ORT's only type) and double (numpy: a port of
ORT's roi_pool.cc loop, below).
"""
import math
import sys

import numpy as np
from onnx import TensorProto as T, helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def data(rng, shape, dt):
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.integer):
        return rng.integers(1, 100, size=shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def center_crop_pad_cases(rng):
    # (name, x shape, dtype, target shape, axes, shape as input)
    specs = [
        ("crop_2d", (6, 7), np.float32, [4, 4], None, False),
        ("pad_2d", (3, 4), np.float32, [6, 7], None, False),
        ("crop_and_pad_axes", (2, 5, 4, 3), np.float32, [3, 8], [1, 2], False),
        ("negative_axis", (2, 3, 8), np.float16, [5], [-1], False),
        ("odd_int32", (5, 4, 3), np.int32, [2, 7, 3], None, False),
        ("uint8_image_axes", (4, 6, 3), np.uint8, [5, 2], [0, 1], False),
        ("bool_pad", (2, 3), np.bool_, [4, 4], None, False),
        ("shape_input", (3, 9, 2), np.float32, [6, 4], [1, 0], True),
    ]
    for name, xs, dt, target, axes, as_input in specs:
        x = data(rng, xs, dt)
        shape = np.array(target, np.int64)
        attrs = {} if axes is None else {"axes": axes}
        node = helper.make_node("CenterCropPad", ["x", "shape"], ["y"], **attrs)
        ins = [("x", x)] + ([("shape", shape)] if as_input else [])
        inits = [] if as_input else [("shape", shape)]
        yield "centercroppad_" + name, model(
            name, [node], ins, [("y", ONNX_TYPE[x.dtype])], 18, inits)


def affine_grid_cases(rng):
    # (name, size, align_corners, dtype, size as input)
    specs = [
        ("2d", [2, 3, 4, 5], 0, np.float32, False),
        ("2d_align_corners", [2, 1, 5, 3], 1, np.float32, False),
        ("3d", [1, 2, 3, 4, 5], 0, np.float32, False),
        ("3d_align_corners", [2, 1, 2, 3, 4], 1, np.float32, False),
        ("2d_double", [3, 1, 4, 6], 1, np.float64, False),
        ("2d_size_input", [2, 3, 7, 2], 0, np.float32, True),
    ]
    for name, size, align, dt, as_input in specs:
        r = len(size) - 2
        theta = (rng.standard_normal((size[0], r, r + 1)) * 0.5).astype(dt)
        theta[:, :, :r] += np.eye(r, dtype=dt)
        sz = np.array(size, np.int64)
        node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"],
                                align_corners=align)
        ins = [("theta", theta)] + ([("size", sz)] if as_input else [])
        inits = [] if as_input else [("size", sz)]
        yield "affinegrid_" + name, model(
            name, [node], ins, [("grid", ONNX_TYPE[theta.dtype])], 20, inits)


def max_roi_pool_ref(x, rois, pooled, scale):
    """ORT's roi_pool.cc: corners rounded after the scale, rois at least 1x1,
    bin edges floor/ceil of p * size / pooled (in the rois' type), clipped;
    an empty bin is 0."""
    ph_n, pw_n = pooled
    n_rois = rois.shape[0]
    _, c, h, w = x.shape
    y = np.zeros((n_rois, c, ph_n, pw_n), x.dtype)
    ft = rois.dtype.type

    def rnd(v):  # std::round: half away from zero
        return int(math.copysign(math.floor(abs(v) + 0.5), v))
    for n in range(n_rois):
        b = int(rois[n, 0])
        sw, sh, ew, eh = (rnd(ft(rois[n, k]) * ft(scale)) for k in (1, 2, 3, 4))
        rh = max(eh - sh + 1, 1)
        rw = max(ew - sw + 1, 1)
        bh = ft(rh) / ft(ph_n)
        bw = ft(rw) / ft(pw_n)
        for ph in range(ph_n):
            for pw in range(pw_n):
                hs = min(max(int(math.floor(ft(ph) * bh)) + sh, 0), h)
                he = min(max(int(math.ceil(ft(ph + 1) * bh)) + sh, 0), h)
                ws = min(max(int(math.floor(ft(pw) * bw)) + sw, 0), w)
                we = min(max(int(math.ceil(ft(pw + 1) * bw)) + sw, 0), w)
                if he <= hs or we <= ws:
                    continue
                y[n, :, ph, pw] = x[b, :, hs:he, ws:we].max(axis=(1, 2))
    return y


def max_roi_pool_cases(rng):
    rois = np.array([[0, 1, 1, 6, 5],
                     [1, 0, 0, 11, 9],
                     [0, 3.4, 2.6, 3.4, 2.6],   # 1 x 1
                     [1, -4, -3, 2, 2],          # across the top-left corner
                     [0, 8, 7, 20, 20],          # across the bottom-right one
                     [1, 30, 30, 40, 40],        # outside: every bin empty
                     [0, 5, 1, 1, 8]], np.float32)  # x2 < x1: 1 wide
    for name, pooled, scale, dt in [("3x2", [3, 2], 1.0, np.float32),
                                    ("2x4_scale_half", [2, 4], 0.5, np.float32),
                                    ("1x1", [1, 1], 1.0, np.float32),
                                    ("4x3_double", [4, 3], 0.5, np.float64)]:
        x = rng.standard_normal((2, 3, 10, 12)).astype(dt)
        r = rois.astype(dt)
        if scale == 0.5:
            r[0, 1:] = [3, 5, 9, 7]  # 1.5, 2.5, 4.5, 3.5 after the scale
        node = helper.make_node("MaxRoiPool", ["x", "rois"], ["y"],
                                pooled_shape=pooled, spatial_scale=scale)
        m = model(name, [node], [("x", x), ("rois", r)],
                  [("y", ONNX_TYPE[x.dtype])], 18)
        if dt == np.float64:
            yield "maxroipool_" + name, m, max_roi_pool_ref(x, r, pooled, scale)
        else:
            yield "maxroipool_" + name, m


def write(root):
    rng = np.random.default_rng(0)
    for gen in (center_crop_pad_cases, affine_grid_cases, max_roi_pool_cases):
        write_all(root, "nn18", gen(rng))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "nn18", __doc__, per_line=True)

#!/usr/bin/python3
"""Resize's opset-18/19 modes with ONNX Runtime as the oracle (write DIR,
then oracle DIR CMD..., as gen_conv_ops.py): `axes` (a subset of the dims,
negative axes, with scales and with sizes), `keep_aspect_ratio_policy`
not_larger / not_smaller (sizes, nearest and linear, 2 and 3 resized
dims), the opset-19 `half_pixel_symmetric` coordinate mode (linear,
nearest and cubic, up and down), and `antialias`
(linear and cubic downsampling, with axes and sizes, exclude_outside with
cubic_coeff_a, up in one dim and down in the other, align_corners;
scales and sizes from data, with not_larger; windows too wide to unroll:
onnxc builds the filter tables at compile time when sizes and scales are
static, at run time otherwise, so the symbolic runs test those). The scales
and sizes are initializers (what exporters write) except in the cases
marked from data. Float inputs; one uint8
image for nearest with axes. ORT's cubic mode takes 2-D inputs or 4-D
ones resized in H and W only, so the cubic cases are 4-D. The
"kernel_" cases are 4-D fp32 resized in H and W with constant scales or
sizes: statically compiled they run the runtime's onnxc_rt_resize2d
(runtime/src/resize.c) instead of the generic.
"""
import sys

import numpy as np
from onnx import helper

from opmodel import ONNX_TYPE, model, write_all, testcases


def resize_case(rng, name, xs, attrs, scales=None, sizes=None, dt=np.float32,
                from_data=False):
    if dt == np.uint8:
        x = rng.integers(0, 256, size=xs, dtype=np.uint8)
    else:
        x = rng.standard_normal(xs).astype(dt)
    inits = []
    ins = ["x", "", ""]
    if scales is not None:
        inits.append(("scales", np.array(scales, np.float32)))
        ins[2] = "scales"
    if sizes is not None:
        inits.append(("sizes", np.array(sizes, np.int64)))
        ins.append("sizes")
    node = helper.make_node("Resize", ins, ["y"], **attrs)
    inputs = [("x", x)]
    if from_data:  # scales or sizes as graph inputs: known at run time only
        inputs, inits = inputs + inits, []
    return "resize_" + name, model(name, [node], inputs,
                                   [("y", ONNX_TYPE[x.dtype])], 19, inits)


def cases(rng):
    yield resize_case(rng, "axes_linear_scales", (1, 2, 5, 6),
                      dict(mode="linear", axes=[2, 3]), scales=[1.5, 0.5])
    yield resize_case(rng, "axes_last_sizes_cubic", (2, 3, 4, 7),
                      dict(mode="cubic", axes=[-1]), sizes=[11])
    yield resize_case(rng, "axes_nearest_uint8", (1, 4, 6, 3),
                      dict(mode="nearest", axes=[1, 2],
                           nearest_mode="floor"), scales=[2.0, 0.5],
                      dt=np.uint8)
    yield resize_case(rng, "axes_swapped_sizes", (1, 2, 4, 6),
                      dict(mode="linear", axes=[3, 2]), sizes=[9, 3])
    yield resize_case(rng, "not_larger_linear", (1, 2, 6, 8),
                      dict(mode="linear", keep_aspect_ratio_policy="not_larger",
                           axes=[2, 3]), sizes=[5, 5])
    yield resize_case(rng, "not_smaller_nearest", (1, 1, 6, 8),
                      dict(mode="nearest",
                           keep_aspect_ratio_policy="not_smaller"),
                      sizes=[1, 1, 9, 9])
    yield resize_case(rng, "not_larger_3d_linear", (1, 1, 4, 6, 5),
                      dict(mode="linear", keep_aspect_ratio_policy="not_larger",
                           axes=[2, 3, 4]), sizes=[7, 7, 8])
    yield resize_case(rng, "not_smaller_up_linear", (1, 2, 3, 5),
                      dict(mode="linear", keep_aspect_ratio_policy="not_smaller",
                           axes=[2, 3]), sizes=[7, 7])
    for mode in ("linear", "nearest", "cubic"):
        yield resize_case(rng, "hps_%s_up" % mode, (1, 2, 4, 5),
                          dict(mode=mode,
                               coordinate_transformation_mode="half_pixel_symmetric"),
                          scales=[1, 1, 1.7, 2.3])
        yield resize_case(rng, "hps_%s_down_sizes" % mode, (1, 2, 9, 7),
                          dict(mode=mode,
                               coordinate_transformation_mode="half_pixel_symmetric"),
                          sizes=[1, 2, 4, 3])
    for mode in ("linear", "cubic"):
        yield resize_case(rng, "antialias_%s_down" % mode, (1, 2, 12, 10),
                          dict(mode=mode, antialias=1),
                          scales=[1, 1, 0.4, 0.6])
        yield resize_case(rng, "antialias_%s_axes_sizes" % mode, (2, 3, 2, 16),
                          dict(mode=mode, antialias=1, axes=[3]), sizes=[5])
    yield resize_case(rng, "antialias_cubic_exclude_outside", (1, 1, 9, 13),
                      dict(mode="cubic", antialias=1, exclude_outside=1,
                           cubic_coeff_a=-0.5), scales=[1, 1, 0.5, 0.35])
    yield resize_case(rng, "antialias_linear_up_down_hps", (1, 1, 5, 12),
                      dict(mode="linear", antialias=1,
                           coordinate_transformation_mode="half_pixel_symmetric"),
                      scales=[1, 1, 1.6, 0.3])
    yield resize_case(rng, "antialias_linear_align_corners", (1, 2, 11, 9),
                      dict(mode="linear", antialias=1,
                           coordinate_transformation_mode="align_corners"),
                      sizes=[1, 2, 4, 3])
    # Scales and sizes from data: the filter tables are built at run time,
    # with static shapes too.
    yield resize_case(rng, "antialias_linear_scales_data", (1, 2, 12, 10),
                      dict(mode="linear", antialias=1),
                      scales=[1, 1, 0.4, 0.6], from_data=True)
    yield resize_case(rng, "antialias_cubic_not_larger_data", (1, 1, 16, 20),
                      dict(mode="cubic", antialias=1, axes=[2, 3],
                           keep_aspect_ratio_policy="not_larger"),
                      sizes=[5, 9], from_data=True)
    # Windows of 101 and 61 taps: 6161 per element, more than onnxc unrolls
    # (4096): the second dim's constant table is read in a loop.
    yield resize_case(rng, "antialias_linear_wide_windows", (1, 1, 150, 120),
                      dict(mode="linear", antialias=1),
                      scales=[1, 1, 0.02, 1 / 30])

    # 4-D fp32 over H and W with constant scales or sizes: the runtime's
    # onnxc_rt_resize2d (resize.c) in static mode, every coordinate mode
    # with tables, nearest modes, up and down, one dim only, batch 2. The
    # scales are exact in binary and give whole sizes: with others
    # align_corners differs between ORT (the integer output size) and the
    # ONNX reference that onnxc follows (scale * input size).
    for ct in ("half_pixel", "align_corners", "asymmetric",
               "pytorch_half_pixel"):
        yield resize_case(rng, "kernel_linear_%s" % ct, (2, 3, 7, 8),
                          dict(mode="linear", coordinate_transformation_mode=ct),
                          scales=[1, 1, 2.0, 1.5])
        yield resize_case(rng, "kernel_linear_%s_down" % ct, (1, 2, 12, 12),
                          dict(mode="linear", coordinate_transformation_mode=ct),
                          scales=[1, 1, 0.5, 0.75])
    for nm, ct in (("round_prefer_floor", "half_pixel"),
                   ("round_prefer_ceil", "asymmetric"),
                   ("floor", "align_corners"), ("ceil", "half_pixel"),
                   ("round_prefer_floor", "tf_half_pixel_for_nn")):
        yield resize_case(rng, "kernel_nearest_%s_%s" % (nm, ct), (1, 3, 6, 8),
                          dict(mode="nearest", nearest_mode=nm,
                               coordinate_transformation_mode=ct),
                          scales=[1, 1, 2.5, 0.75])
    yield resize_case(rng, "kernel_nearest_x2_sizes", (2, 4, 8, 16),
                      dict(mode="nearest"), sizes=[2, 4, 16, 32])
    yield resize_case(rng, "kernel_linear_w_only", (1, 2, 5, 6),
                      dict(mode="linear"), scales=[1, 1, 1, 2.0])
    yield resize_case(rng, "kernel_linear_h_only_axes", (1, 2, 5, 6),
                      dict(mode="linear", axes=[2]), scales=[3.0])
    yield resize_case(rng, "kernel_linear_to_one", (1, 2, 5, 6),
                      dict(mode="linear"), sizes=[1, 2, 1, 1])
    yield resize_case(rng, "kernel_linear_x2_wide", (1, 8, 32, 40),
                      dict(mode="linear"), scales=[1, 1, 2.0, 2.0])


def write(root):
    write_all(root, "resize", cases(np.random.default_rng(0)))


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "resize", __doc__, per_line=True)

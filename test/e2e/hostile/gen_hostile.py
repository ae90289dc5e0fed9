#!/usr/bin/python3
"""Writes models and run-time inputs that a compiled model must reject with
an error status and a one-line message naming the node, never a crash, a
trap or OK with a wrong result: sizes that come from data and
overflow or exceed memory, shapes the ONNX spec makes invalid, integer
division by zero.

Every case is OUT/hostile/<case>/model.onnx with test_data_set_0 valid
(inputs and numpy outputs: it must run and match) and test_data_set_1..
hostile (inputs only). Node names are the case names, so that messages
can be checked.

Usage: gen_hostile.py OUT
"""
import os
import sys

import numpy as np

from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402
from hostile import F, I32, I64, const, f32, i64, node, save, vi  # noqa: E402

CASES, case = hostile.collector()


# ---- Sizes that come from data ------------------------------------------

@case
def constantofshape_big(root):
    """The result's dims are the input's values: 2^40 elements do not fit
    in memory, 2^62 floats do not fit in 2^64 bytes."""
    save(root, "constantofshape_big",
         [node("ConstantOfShape", ["s"], ["y"], "constantofshape_big",
               value=helper.make_tensor("v", F, [1], [1.5]))],
         [vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([i64(2, 3)], [np.full((2, 3), 1.5, np.float32)]),
          ([i64(1 << 20, 1 << 20)], []),
          ([i64(1 << 31, 1 << 31)], []),
          ([i64(-2, 3)], [])])


@case
def tile_big(root):
    """Tile's result dim is dim * repeats: 2^40 repeats exceed memory,
    2^62 overflow the dim."""
    save(root, "tile_big",
         [node("Tile", ["x", "r"], ["y"], "tile_big")],
         [vi("x", F, [2]), vi("r", I64, [1])], [vi("y", F, ["n"])],
         [([f32(1, 2), i64(2)], [f32(1, 2, 1, 2)]),
          ([f32(1, 2), i64(1 << 40)], []),
          ([f32(1, 2), i64(1 << 62)], []),
          ([f32(1, 2), i64(-1)], [])])


@case
def range_big(root):
    """Range's length is ceil((limit - start) / delta): a delta of 0 has no
    length, 2^62 elements do not fit in 2^64 bytes."""
    save(root, "range_big",
         [node("Range", ["a", "b", "c"], ["y"], "range_big")],
         [vi("a", I64, []), vi("b", I64, []), vi("c", I64, [])],
         [vi("y", I64, ["n"])],
         [([np.int64(1), np.int64(7), np.int64(2)], [i64(1, 3, 5)]),
          ([np.int64(0), np.int64(1 << 62), np.int64(1)], []),
          ([np.int64(0), np.int64(5), np.int64(0)], []),
          ([np.int64(-(1 << 62)), np.int64(1 << 62), np.int64(1)], [])])


@case
def range_float_big(root):
    """A float Range whose length is beyond int64."""
    save(root, "range_float_big",
         [node("Range", ["a", "b", "c"], ["y"], "range_float_big")],
         [vi("a", F, []), vi("b", F, []), vi("c", F, [])],
         [vi("y", F, ["n"])],
         [([np.float32(0), np.float32(2), np.float32(0.5)],
           [f32(0, 0.5, 1, 1.5)]),
          ([np.float32(0), np.float32(1e30), np.float32(1e-30)], []),
          ([np.float32(0), np.float32(np.inf), np.float32(1)], []),
          ([np.float32(0), np.float32(1), np.float32(np.nan)], [])])


@case
def expand_big(root):
    """Expand to a shape from data."""
    save(root, "expand_big",
         [node("Expand", ["x", "s"], ["y"], "expand_big")],
         [vi("x", F, [1]), vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([f32(3), i64(2, 2)], [np.full((2, 2), 3, np.float32)]),
          ([f32(3), i64(1 << 20, 1 << 20)], []),
          ([f32(3), i64(1 << 31, 1 << 31)], []),
          ([f32(3), i64(-4, 2)], [])])


@case
def expand_bad(root):
    """Expand of a dim of 2 to 3 (numpy does not broadcast it)."""
    save(root, "expand_bad",
         [node("Expand", ["x", "s"], ["y"], "expand_bad")],
         [vi("x", F, [2]), vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([f32(3, 4), i64(2, 2)], [np.array([[3, 4], [3, 4]], np.float32)]),
          ([f32(3, 4), i64(2, 3)], [])])


@case
def onehot_big(root):
    """OneHot's depth from data."""
    save(root, "onehot_big",
         [node("OneHot", ["i", "d", "v"], ["y"], "onehot_big")],
         [vi("i", I64, [2]), vi("d", I64, []), vi("v", F, [2])],
         [vi("y", F, [2, "d"])],
         [([i64(0, 2), np.int64(3), f32(0, 1)],
           [f32(1, 0, 0, 0, 0, 1).reshape(2, 3)]),
          ([i64(0, 2), np.int64(1 << 40), f32(0, 1)], []),
          ([i64(0, 2), np.int64(1 << 62), f32(0, 1)], [])])


@case
def onehot_float_depth(root):
    """A float depth beyond int64 (converted with Cast semantics)."""
    save(root, "onehot_float_depth",
         [node("OneHot", ["i", "d", "v"], ["y"], "onehot_float_depth")],
         [vi("i", I64, [2]), vi("d", F, []), vi("v", F, [2])],
         [vi("y", F, [2, "d"])],
         [([i64(0, 2), np.float32(3), f32(0, 1)],
           [f32(1, 0, 0, 0, 0, 1).reshape(2, 3)]),
          ([i64(0, 2), np.float32(1e30), f32(0, 1)], []),
          ([i64(0, 2), np.float32(np.nan), f32(0, 1)], [])])


@case
def pad_big(root):
    """Pad with pads from data: 2^40 before each dim, 2^62 on both sides of
    one (the dim overflows), and a negative pad larger than the dim."""
    save(root, "pad_big",
         [node("Pad", ["x", "p"], ["y"], "pad_big")],
         [vi("x", F, [2, 2]), vi("p", I64, [4])], [vi("y", F, ["a", "b"])],
         [([f32(1, 2, 3, 4).reshape(2, 2), i64(0, 1, 0, 0)],
           [f32(0, 1, 2, 0, 3, 4).reshape(2, 3)]),
          ([f32(1, 2, 3, 4).reshape(2, 2), i64(1 << 40, 1 << 40, 0, 0)], []),
          ([f32(1, 2, 3, 4).reshape(2, 2), i64(1 << 62, 0, 1 << 62, 0)], []),
          ([f32(1, 2, 3, 4).reshape(2, 2), i64(-3, 0, 0, 0)], [])])


@case
def pad_edge_empty(root):
    """Edge padding of an empty dim has no edge to copy."""
    save(root, "pad_edge_empty",
         [node("Pad", ["x", "p"], ["y"], "pad_edge_empty", mode="edge")],
         [vi("x", F, ["n"]), vi("p", I64, [2])], [vi("y", F, ["m"])],
         [([f32(1, 2), i64(1, 0)], [f32(1, 1, 2)]),
          ([f32(), i64(1, 0)], [])])


@case
def conv_pads(root):
    """A Conv with pads of 2^40 on an input of symbolic spatial size."""
    w = np.ones((1, 1, 1, 1), np.float32)
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    save(root, "conv_pads",
         [node("Conv", ["x", "w"], ["y"], "conv_pads",
               pads=[1 << 40, 1 << 40, 0, 0])],
         [vi("x", F, [1, 1, "h", "w"])], [vi("y", F, [1, 1, "p", "q"])],
         [([x], [])],
         inits=[helper.make_tensor("w", F, [1, 1, 1, 1], w.ravel())])


@case
def resize_scale(root):
    """Resize by scales from data: 1e9 along two axes, and a scale beyond
    int64."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    save(root, "resize_scale",
         [node("Resize", ["x", "", "s"], ["y"], "resize_scale",
               mode="nearest")],
         [vi("x", F, [1, 1, 2, 2]), vi("s", F, [4])],
         [vi("y", F, [1, 1, "a", "b"])],
         [([x, f32(1, 1, 2, 1)],
           [np.repeat(x, 2, axis=2)]),
          ([x, f32(1, 1, 1e9, 1e9)], []),
          ([x, f32(1, 1, 1e30, 1)], []),
          ([x, f32(1, 1, -2, 1)], [])])


# ---- Shapes the spec makes invalid --------------------------------------

@case
def reshape_bad(root):
    """Reshape of 8 elements to a shape from data: [3, -1] leaves 2
    elements over, [-1, -1] has two unknowns, [0, -1] of a [0, 4] input
    has no size for -1, [5, 2] has 10 elements."""
    save(root, "reshape_bad",
         [node("Reshape", ["x", "s"], ["y"], "reshape_bad")],
         [vi("x", F, ["n", 4]), vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([np.arange(8, dtype=np.float32).reshape(2, 4), i64(4, -1)],
           [np.arange(8, dtype=np.float32).reshape(4, 2)]),
          ([np.arange(8, dtype=np.float32).reshape(2, 4), i64(3, -1)], []),
          ([np.arange(8, dtype=np.float32).reshape(2, 4), i64(-1, -1)], []),
          ([np.zeros((0, 4), np.float32), i64(0, -1)], []),
          ([np.arange(8, dtype=np.float32).reshape(2, 4), i64(5, 2)], []),
          ([np.arange(8, dtype=np.float32).reshape(2, 4), i64(-2, -4)], [])])


@case
def slice_bad(root):
    """Slice with axes and steps from data: axis 5 of a rank-1 input, a
    step of 0."""
    save(root, "slice_bad",
         [node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], "slice_bad")],
         [vi("x", F, [4]), vi("st", I64, [1]), vi("en", I64, [1]),
          vi("ax", I64, [1]), vi("sp", I64, [1])], [vi("y", F, ["n"])],
         [([f32(0, 1, 2, 3), i64(1), i64(3), i64(0), i64(1)], [f32(1, 2)]),
          ([f32(0, 1, 2, 3), i64(1), i64(3), i64(5), i64(1)], []),
          ([f32(0, 1, 2, 3), i64(1), i64(3), i64(0), i64(0)], [])])


@case
def concat_bad(root):
    """Concat along axis 0 of [2, 2] and [2, 3]."""
    save(root, "concat_bad",
         [node("Concat", ["a", "b"], ["y"], "concat_bad", axis=0)],
         [vi("a", F, ["n", "m"]), vi("b", F, ["k", "l"])],
         [vi("y", F, ["p", "q"])],
         [([np.ones((2, 2), np.float32), np.zeros((1, 2), np.float32)],
           [np.concatenate([np.ones((2, 2)), np.zeros((1, 2))]).astype(np.float32)]),
          ([np.ones((2, 2), np.float32), np.zeros((2, 3), np.float32)], [])])


@case
def squeeze_bad(root):
    """Squeeze of axis 1, which is 3 at run time."""
    save(root, "squeeze_bad",
         [const("ax", i64(1)),
          node("Squeeze", ["x", "ax"], ["y"], "squeeze_bad")],
         [vi("x", F, [2, "n"])], [vi("y", F, [2])],
         [([np.ones((2, 1), np.float32)], [np.ones(2, np.float32)]),
          ([np.ones((2, 3), np.float32)], [])])


@case
def div_int(root):
    """Integer division by zero and INT64_MIN / -1 (both trap on x86)."""
    lo = np.iinfo(np.int64).min
    save(root, "div_int",
         [node("Div", ["a", "b"], ["y"], "div_int")],
         [vi("a", I64, ["n"]), vi("b", I64, ["n"])], [vi("y", I64, ["n"])],
         [([i64(7, -7, lo), i64(2, 2, 1)], [i64(3, -3, lo)]),
          ([i64(7, -7), i64(2, 0)], []),
          ([i64(lo), i64(-1)], [])])


@case
def div_int32(root):
    lo = np.iinfo(np.int32).min
    save(root, "div_int32",
         [node("Div", ["a", "b"], ["y"], "div_int32")],
         [vi("a", I32, ["n"]), vi("b", I32, ["n"])], [vi("y", I32, ["n"])],
         [([np.array([7, lo], np.int32), np.array([-2, 1], np.int32)],
           [np.array([-3, lo], np.int32)]),
          ([np.array([7], np.int32), np.array([0], np.int32)], []),
          ([np.array([lo], np.int32), np.array([-1], np.int32)], [])])


@case
def mod_int(root):
    """Integer Mod by zero; INT64_MIN mod -1 is 0 (no overflow)."""
    lo = np.iinfo(np.int64).min
    save(root, "mod_int",
         [node("Mod", ["a", "b"], ["y"], "mod_int")],
         [vi("a", I64, ["n"]), vi("b", I64, ["n"])], [vi("y", I64, ["n"])],
         [([i64(7, -7, lo), i64(3, 3, -1)], [i64(1, 2, 0)]),
          ([i64(7), i64(0)], [])])


@case
def mod_fmod_int(root):
    lo = np.iinfo(np.int64).min
    save(root, "mod_fmod_int",
         [node("Mod", ["a", "b"], ["y"], "mod_fmod_int", fmod=1)],
         [vi("a", I64, ["n"]), vi("b", I64, ["n"])], [vi("y", I64, ["n"])],
         [([i64(7, -7, lo), i64(3, 3, -1)], [i64(1, -1, 0)]),
          ([i64(7), i64(0)], [])])


@case
def gather_idx(root):
    """Indices from data out of [-n, n): Gather, GatherElements, GatherND,
    ScatterElements, ScatterND on inputs of symbolic shape."""
    d = np.arange(6, dtype=np.float32).reshape(2, 3)
    save(root, "gather_idx",
         [node("Gather", ["x", "i"], ["y"], "gather_idx", axis=1)],
         [vi("x", F, ["n", "m"]), vi("i", I64, ["k"])], [vi("y", F, ["n", "k"])],
         [([d, i64(2, -3)], [d[:, [2, 0]]]),
          ([d, i64(0, 3)], []),
          ([d, i64(-4)], [])])
    save(root, "gatherelements_idx",
         [node("GatherElements", ["x", "i"], ["y"], "gatherelements_idx", axis=0)],
         [vi("x", F, ["n", "m"]), vi("i", I64, ["k", "l"])],
         [vi("y", F, ["k", "l"])],
         [([d, np.array([[1, 0, 1]], np.int64)], [np.array([[3, 1, 5]], np.float32)]),
          ([d, np.array([[1, 2, 1]], np.int64)], []),
          ([d, np.zeros((1, 4), np.int64)], [])])
    save(root, "gathernd_idx",
         [node("GatherND", ["x", "i"], ["y"], "gathernd_idx")],
         [vi("x", F, ["n", "m"]), vi("i", I64, ["k", 2])], [vi("y", F, ["k"])],
         [([d, np.array([[1, 2]], np.int64)], [f32(5)]),
          ([d, np.array([[2, 0]], np.int64)], [])])
    save(root, "scatterelements_idx",
         [node("ScatterElements", ["x", "i", "u"], ["y"], "scatterelements_idx",
               axis=1)],
         [vi("x", F, ["n", "m"]), vi("i", I64, ["k", "l"]), vi("u", F, ["k", "l"])],
         [vi("y", F, ["n", "m"])],
         [([d, np.array([[2]], np.int64), f32(9).reshape(1, 1)],
           [np.array([[0, 1, 9], [3, 4, 5]], np.float32)]),
          ([d, np.array([[3]], np.int64), f32(9).reshape(1, 1)], []),
          ([d, np.zeros((3, 1), np.int64), f32(9, 9, 9).reshape(3, 1)], [])])
    save(root, "scatternd_idx",
         [node("ScatterND", ["x", "i", "u"], ["y"], "scatternd_idx")],
         [vi("x", F, ["n", "m"]), vi("i", I64, ["k", 2]), vi("u", F, ["k"])],
         [vi("y", F, ["n", "m"])],
         [([d, np.array([[1, 2]], np.int64), f32(9)],
           [np.array([[0, 1, 2], [3, 4, 9]], np.float32)]),
          ([d, np.array([[-3, 0]], np.int64), f32(9)], [])])


@case
def batchnorm_params(root):
    """BatchNormalization whose scale has another symbolic length than the
    channels: the lowering reads scale[c] for every channel c."""
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)
    ones2, zeros2 = np.ones(2, np.float32), np.zeros(2, np.float32)
    save(root, "batchnorm_params",
         [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
               "batchnorm_params", epsilon=0.0)],
         [vi("x", F, [1, "c", 2, 2]), vi("s", F, ["k"]), vi("b", F, ["k"]),
          vi("m", F, ["k"]), vi("v", F, ["k"])], [vi("y", F, [1, "c", 2, 2])],
         [([x, ones2, zeros2, zeros2, ones2], [x]),
          ([x, np.ones(1, np.float32), np.zeros(1, np.float32),
            np.zeros(1, np.float32), np.ones(1, np.float32)], [])])


@case
def split_bad(root):
    """Split with sizes from data that do not tile the dim (they read past
    it, or leave it short)."""
    x = np.arange(5, dtype=np.float32)
    save(root, "split_bad",
         [node("Split", ["x", "s"], ["y", "z"], "split_bad")],
         [vi("x", F, ["n"]), vi("s", I64, [2])],
         [vi("y", F, ["a"]), vi("z", F, ["b"])],
         [([x, i64(2, 3)], [x[:2], x[2:]]),
          ([x, i64(2, 4)], []),
          ([x, i64(-1, 6)], [])])


@case
def reducemean_empty(root):
    """An integer ReduceMean over an empty axis divided by zero."""
    save(root, "reducemean_empty",
         [node("ReduceMean", ["x"], ["y"], "reducemean_empty", axes=[1],
               keepdims=0)],
         [vi("x", I32, [2, "n"])], [vi("y", I32, [2])],
         [([np.array([[1, 2], [3, 5]], np.int32)], [np.array([1, 4], np.int32)]),
          ([np.zeros((2, 0), np.int32)], [])])


@case
def cast_saturate(root):
    """Cast from float to int32 saturates (NaN is 0); fptosi would give
    poison, which a later index check must never see."""
    save(root, "cast_saturate",
         [node("Cast", ["x"], ["y"], "cast_saturate", to=I32)],
         [vi("x", F, ["n"])], [vi("y", I32, ["n"])],
         [([f32(np.nan, 1e30, -1e30, 2.5, -2.5, np.inf)],
           [np.array([0, 2**31 - 1, -2**31, 2, -2, 2**31 - 1], np.int32)])])


if __name__ == "__main__":
    hostile.main(CASES, sys.argv)

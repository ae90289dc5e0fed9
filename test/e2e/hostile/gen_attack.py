#!/usr/bin/python3
"""The fourth attack on compiled models (2026-11-26): run-time inputs of the
classes gen_hostile.py and gen_ops.py cover, on other ops and types: sizes
and ranks from data, shapes that disagree at run time, indices and
positions out of range (also in sequences), integer division of the small
types, ranges whose length overflows, batch indices of the RoI ops.

Every case is OUT/hostile/<case>/model.onnx with test_data_set_0 valid
(inputs and numpy outputs) and test_data_set_1.. hostile (inputs only).
Node names are the case names.

Usage: gen_attack.py OUT
"""
import os
import sys

import numpy as np

from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402
from hostile import F, I32, I64, f32, i64, node, save, vi  # noqa: E402

CASES, case = hostile.collector()
U8 = TensorProto.UINT8
I8 = TensorProto.INT8
I16 = TensorProto.INT16
U32 = TensorProto.UINT32
U64 = TensorProto.UINT64
B = TensorProto.BOOL


def seq(name, *arrays, elt=F):
    if not arrays:
        s = numpy_helper.from_list([], name)
        s.elem_type = 1  # tensors
        return s
    return numpy_helper.from_list(list(arrays), name)


def seqtype(elt, shape):
    return helper.make_sequence_type_proto(helper.make_tensor_type_proto(elt, shape))


@case
def topk_k(root):
    """TopK with k from data: larger than the axis, negative."""
    x = f32(3, 1, 2)
    save(root, "topk_k", [node("TopK", ["x", "k"], ["v", "i"], "topk_k")],
         [vi("x", F, ["n"]), vi("k", I64, [1])],
         [vi("v", F, ["m"]), vi("i", I64, ["m"])],
         [([x, i64(2)], [f32(3, 2), i64(0, 2)]),
          ([x, i64(4)], []), ([x, i64(-1)], []), ([x, i64(1 << 62)], [])])


@case
def cumsum_axis(root):
    """CumSum with an axis from data out of range."""
    x = f32(1, 2, 3)
    save(root, "cumsum_axis", [node("CumSum", ["x", "a"], ["y"], "cumsum_axis")],
         [vi("x", F, ["n"]), vi("a", I64, [])], [vi("y", F, ["n"])],
         [([x, np.int64(0)], [f32(1, 3, 6)]),
          ([x, np.int64(1)], []), ([x, np.int64(-2)], []),
          ([x, np.int64(-(1 << 63))], [])])


@case
def trilu_k(root):
    """Trilu with k from data at the int64 limits (k + j must not wrap)."""
    x = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    save(root, "trilu_k", [node("Trilu", ["x", "k"], ["y"], "trilu_k", upper=1)],
         [vi("x", F, ["n", "m"]), vi("k", I64, [])], [vi("y", F, ["n", "m"])],
         [([x, np.int64(1)], [np.triu(x, 1)]),
          ([x, np.int64(-(1 << 63))], [x]),
          ([x, np.int64((1 << 63) - 1)], [np.zeros_like(x)])])
    save(root, "trilu_k_lower", [node("Trilu", ["x", "k"], ["y"], "trilu_k_lower", upper=0)],
         [vi("x", F, ["n", "m"]), vi("k", I64, [])], [vi("y", F, ["n", "m"])],
         [([x, np.int64(-1)], [np.tril(x, -1)]),
          ([x, np.int64(-(1 << 63))], [np.zeros_like(x)]),
          ([x, np.int64((1 << 63) - 1)], [x])])


@case
def onehot_neg(root):
    """OneHot indices below -depth are out of range (all-off rows, as ORT's)
    and a depth of 0 from data."""
    save(root, "onehot_neg", [node("OneHot", ["i", "d", "v"], ["y"], "onehot_neg")],
         [vi("i", I64, ["n"]), vi("d", I64, []), vi("v", F, [2])],
         [vi("y", F, ["n", "k"])],
         [([i64(0, -1, -4, 3), np.int64(3), f32(0, 1)],
           [np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32)]),
          ([i64(0), np.int64(0), f32(0, 1)], []),
          ([i64(0), np.int64(-3), f32(0, 1)], [])])


@case
def depth_space(root):
    """DepthToSpace / SpaceToDepth with run-time dims not divisible by the
    block."""
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)
    y = x.reshape(1, 2, 2, 1, 2, 2).transpose(0, 3, 4, 1, 5, 2).reshape(1, 1, 4, 4)
    save(root, "depthtospace_run",
         [node("DepthToSpace", ["x"], ["y"], "depthtospace_run", blocksize=2)],
         [vi("x", F, [1, "c", "h", "w"])], [vi("y", F, [1, "c2", "h2", "w2"])],
         [([x], [y]), ([np.zeros((1, 3, 2, 2), np.float32)], [])])
    z = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    zz = z.reshape(1, 1, 2, 2, 2, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 4, 2, 2)
    save(root, "spacetodepth_run",
         [node("SpaceToDepth", ["x"], ["y"], "spacetodepth_run", blocksize=2)],
         [vi("x", F, [1, 1, "h", "w"])], [vi("y", F, [1, 4, "h2", "w2"])],
         [([z], [zz]), ([np.zeros((1, 1, 3, 4), np.float32)], []),
          ([np.zeros((1, 1, 4, 5), np.float32)], [])])


@case
def shapes_disagree(root):
    """Operands whose symbolic dims disagree at run time: MatMul's K, a
    broadcast of 2 and 3, Gemm's C, Conv's channels, Where, Einsum,
    LayerNormalization's scale, a variadic Sum."""
    a = np.ones((2, 3), np.float32)
    save(root, "matmul_k", [node("MatMul", ["a", "b"], ["y"], "matmul_k")],
         [vi("a", F, ["m", "k"]), vi("b", F, ["k2", "n"])], [vi("y", F, ["m", "n"])],
         [([a, np.ones((3, 2), np.float32)], [np.full((2, 2), 3, np.float32)]),
          ([a, np.ones((4, 2), np.float32)], [])])
    save(root, "add_bcast", [node("Add", ["a", "b"], ["y"], "add_bcast")],
         [vi("a", F, ["n"]), vi("b", F, ["m"])], [vi("y", F, ["k"])],
         [([f32(1, 2), f32(3)], [f32(4, 5)]), ([f32(1, 2), f32(1, 2, 3)], [])])
    save(root, "gemm_c", [node("Gemm", ["a", "b", "c"], ["y"], "gemm_c")],
         [vi("a", F, ["m", "k"]), vi("b", F, ["k", "n"]), vi("c", F, ["p"])],
         [vi("y", F, ["m", "n"])],
         [([a, np.ones((3, 2), np.float32), f32(1, 2)],
           [np.array([[4, 5], [4, 5]], np.float32)]),
          ([a, np.ones((3, 2), np.float32), f32(1, 2, 3)], [])])
    save(root, "conv_channels", [node("Conv", ["x", "w"], ["y"], "conv_channels")],
         [vi("x", F, [1, "c", 3, 3]), vi("w", F, [1, "c2", 1, 1])],
         [vi("y", F, [1, 1, 3, 3])],
         [([np.ones((1, 2, 3, 3), np.float32), np.ones((1, 2, 1, 1), np.float32)],
           [np.full((1, 1, 3, 3), 2, np.float32)]),
          ([np.ones((1, 2, 3, 3), np.float32), np.ones((1, 3, 1, 1), np.float32)], [])])
    save(root, "where_bcast", [node("Where", ["c", "a", "b"], ["y"], "where_bcast")],
         [vi("c", B, ["n"]), vi("a", F, ["m"]), vi("b", F, ["m"])], [vi("y", F, ["k"])],
         [([np.array([True, False]), f32(1, 2), f32(3, 4)], [f32(1, 4)]),
          ([np.array([True, False]), f32(1, 2, 5), f32(3, 4, 6)], [])])
    save(root, "einsum_dims",
         [node("Einsum", ["a", "b"], ["y"], "einsum_dims", equation="ij,jk->ik")],
         [vi("a", F, ["m", "k"]), vi("b", F, ["k2", "n"])], [vi("y", F, ["m", "n"])],
         [([a, np.ones((3, 2), np.float32)], [np.full((2, 2), 3, np.float32)]),
          ([a, np.ones((2, 2), np.float32)], [])])
    save(root, "layernorm_scale",
         [node("LayerNormalization", ["x", "s"], ["y"], "layernorm_scale")],
         [vi("x", F, [2, "n"]), vi("s", F, ["k"])], [vi("y", F, [2, "n"])],
         [([np.array([[1, 3], [2, 2]], np.float32), f32(1, 1)],
           [np.array([[-1, 1], [0, 0]], np.float32)]),
          ([np.array([[1, 3], [2, 2]], np.float32), f32(1, 1, 1)], [])],
         opset=17)
    save(root, "sum_bcast", [node("Sum", ["a", "b", "c"], ["y"], "sum_bcast")],
         [vi("a", F, ["n"]), vi("b", F, ["m"]), vi("c", F, ["p"])], [vi("y", F, ["k"])],
         [([f32(1, 2), f32(1, 1), f32(1)], [f32(3, 4)]),
          ([f32(1, 2), f32(1, 1), f32(1, 2, 3)], [])])


@case
def pool_conv_small(root):
    """An input smaller than the kernel at run time: Conv refuses it (as
    ORT does); MaxPool's output dim is floor((2 - 3) / 1) + 1 = 0, an empty
    result (as ORT's)."""
    save(root, "maxpool_small",
         [node("MaxPool", ["x"], ["y"], "maxpool_small", kernel_shape=[3, 3])],
         [vi("x", F, [1, 1, "h", "w"])], [vi("y", F, [1, 1, "a", "b"])],
         [([np.ones((1, 1, 3, 3), np.float32)], [np.ones((1, 1, 1, 1), np.float32)]),
          ([np.ones((1, 1, 2, 3), np.float32)], [np.zeros((1, 1, 0, 1), np.float32)])])
    save(root, "conv_small", [node("Conv", ["x", "w"], ["y"], "conv_small")],
         [vi("x", F, [1, 1, "h", "w"]), vi("w", F, [1, 1, "kh", "kw"])],
         [vi("y", F, [1, 1, "a", "b"])],
         [([np.ones((1, 1, 3, 3), np.float32), np.ones((1, 1, 3, 3), np.float32)],
           [np.full((1, 1, 1, 1), 9, np.float32)]),
          ([np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 3, 3), np.float32)], [])])


@case
def reversesequence_lens(root):
    """ReverseSequence with lengths from data past the time dim or
    negative."""
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    save(root, "reversesequence_lens",
         [node("ReverseSequence", ["x", "l"], ["y"], "reversesequence_lens",
               time_axis=0, batch_axis=1)],
         [vi("x", F, ["t", "b"]), vi("l", I64, ["b"])], [vi("y", F, ["t", "b"])],
         [([x, i64(3, 1)], [np.array([[4, 1], [2, 3], [0, 5]], np.float32)]),
          ([x, i64(4, 1)], []), ([x, i64(-1, 1)], [])])


@case
def roi_batch(root):
    """RoiAlign and MaxRoiPool with a batch index past the batch."""
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    save(root, "roialign_batch",
         [node("RoiAlign", ["x", "r", "b"], ["y"], "roialign_batch",
               output_height=1, output_width=1, sampling_ratio=1,
               spatial_scale=1.0)],
         [vi("x", F, ["n", 1, 4, 4]), vi("r", F, ["k", 4]), vi("b", I64, ["k"])],
         [vi("y", F, ["k", 1, 1, 1])],
         [([x, f32(0, 0, 2, 2).reshape(1, 4), i64(0)],
           [np.full((1, 1, 1, 1), 2.5, np.float32)]),
          ([x, f32(0, 0, 2, 2).reshape(1, 4), i64(1)], []),
          ([x, f32(0, 0, 2, 2).reshape(1, 4), i64(-1)], [])])
    save(root, "maxroipool_batch",
         [node("MaxRoiPool", ["x", "r"], ["y"], "maxroipool_batch",
               pooled_shape=[1, 1])],
         [vi("x", F, ["n", 1, 4, 4]), vi("r", F, ["k", 5])],
         [vi("y", F, ["k", 1, 1, 1])],
         [([x, f32(0, 0, 0, 1, 1).reshape(1, 5)],
           [np.full((1, 1, 1, 1), 5, np.float32)]),
          ([x, f32(3, 0, 0, 1, 1).reshape(1, 5)], []),
          ([x, f32(-1, 0, 0, 1, 1).reshape(1, 5)], []),
          ([x, f32(np.nan, 0, 0, 1, 1).reshape(1, 5)], [])])


@case
def small_int_div(root):
    """Div and Mod of uint8, int8, int16, uint32, uint64 by zero, and int8
    -128 / -1."""
    for name, elt, dt in (("div_u8", U8, np.uint8), ("div_i8", I8, np.int8),
                          ("div_i16", I16, np.int16), ("div_u32", U32, np.uint32),
                          ("div_u64", U64, np.uint64)):
        lo = np.iinfo(dt).min
        sets = [([np.array([7, 9], dt), np.array([2, 3], dt)], [np.array([3, 3], dt)]),
                ([np.array([7], dt), np.array([0], dt)], [])]
        if lo < 0:
            sets.append(([np.array([lo], dt), np.array([-1], dt)], []))
        save(root, name, [node("Div", ["a", "b"], ["y"], name)],
             [vi("a", elt, ["n"]), vi("b", elt, ["n"])], [vi("y", elt, ["n"])], sets)
        mname = name.replace("div", "mod")
        save(root, mname, [node("Mod", ["a", "b"], ["y"], mname)],
             [vi("a", elt, ["n"]), vi("b", elt, ["n"])], [vi("y", elt, ["n"])],
             [([np.array([7, 9], dt), np.array([2, 4], dt)], [np.array([1, 1], dt)]),
              ([np.array([7], dt), np.array([0], dt)], [])])


@case
def range_wrap(root):
    """Range whose limit - start overflows the type: int64 from INT64_MIN to
    INT64_MAX by 2^62 has 4 elements; int32 from -2^31 to 2^31 - 1 by
    2^30 has 4; by 1 it has 2^32 (a memory error, never a wrong count)."""
    lo, hi = -(1 << 63), (1 << 63) - 1
    save(root, "range_wrap", [node("Range", ["a", "b", "c"], ["y"], "range_wrap")],
         [vi("a", I64, []), vi("b", I64, []), vi("c", I64, [])], [vi("y", I64, ["n"])],
         [([np.int64(lo), np.int64(hi), np.int64(1 << 62)],
           [i64(lo, -(1 << 62), 0, 1 << 62)]),
          ([np.int64(hi), np.int64(lo), np.int64(-(1 << 62))],
           [i64(hi, hi - (1 << 62), hi - (2 << 62), hi - (3 << 62))]),
          ([np.int64(lo), np.int64(hi), np.int64(1)], [])])
    i32 = lambda v: np.int32(v)  # noqa: E731
    save(root, "range_wrap32", [node("Range", ["a", "b", "c"], ["y"], "range_wrap32")],
         [vi("a", I32, []), vi("b", I32, []), vi("c", I32, [])], [vi("y", I32, ["n"])],
         [([i32(-(1 << 31)), i32((1 << 31) - 1), i32(1 << 30)],
           [np.array([-(1 << 31), -(1 << 30), 0, 1 << 30], np.int32)]),
          ([i32((1 << 31) - 1), i32(-(1 << 31)), i32(-(1 << 30))],
           [np.array([(1 << 31) - 1, (1 << 30) - 1, -1, -(1 << 30) - 1], np.int32)]),
          ([i32(-(1 << 31)), i32((1 << 31) - 1), i32(1)], [])])


@case
def reshape_allowzero(root):
    """Reshape with allowzero=1: a shape with both 0 and -1 is invalid."""
    save(root, "reshape_allowzero",
         [node("Reshape", ["x", "s"], ["y"], "reshape_allowzero", allowzero=1)],
         [vi("x", F, ["n"]), vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([np.zeros(0, np.float32), i64(0, 3)], [np.zeros((0, 3), np.float32)]),
          ([np.zeros(0, np.float32), i64(0, -1)], [])])


@case
def expand_data(root):
    """Expand with a shape from data: negative dims, incompatible dims."""
    save(root, "expand_data", [node("Expand", ["x", "s"], ["y"], "expand_data")],
         [vi("x", F, ["n"]), vi("s", I64, [2])], [vi("y", F, ["a", "b"])],
         [([f32(1, 2), i64(2, 1)], [np.array([[1, 2], [1, 2]], np.float32)]),
          ([f32(1, 2), i64(2, -1)], []), ([f32(1, 2), i64(-2, 2)], []),
          ([f32(1, 2), i64(2, 3)], []), ([f32(1, 2), i64(2, 0)], [])])


@case
def pad_data(root):
    """Pad with negative pads from data past the dim."""
    save(root, "pad_data", [node("Pad", ["x", "p"], ["y"], "pad_data")],
         [vi("x", F, ["n"]), vi("p", I64, [2])], [vi("y", F, ["m"])],
         [([f32(1, 2, 3), i64(-1, 1)], [f32(2, 3, 0)]),
          ([f32(1, 2, 3), i64(-2, -2)], []), ([f32(1, 2, 3), i64(-(1 << 63), 0)], [])])


@case
def slice_extremes(root):
    """Slice with int32 starts/ends/steps at their limits, and int64 step
    INT64_MIN."""
    x = f32(0, 1, 2, 3, 4, 5)
    save(root, "slice_i32", [node("Slice", ["x", "s", "e", "a", "p"], ["y"], "slice_i32")],
         [vi("x", F, ["n"]), vi("s", I32, [1]), vi("e", I32, [1]), vi("a", I32, [1]),
          vi("p", I32, [1])], [vi("y", F, ["m"])],
         [([x, np.array([-(1 << 31)], np.int32), np.array([(1 << 31) - 1], np.int32),
            np.array([0], np.int32), np.array([2], np.int32)], [f32(0, 2, 4)]),
          ([x, np.array([(1 << 31) - 1], np.int32), np.array([-(1 << 31)], np.int32),
            np.array([0], np.int32), np.array([-(1 << 31)], np.int32)], [f32(5)]),
          ([x, np.array([0], np.int32), np.array([6], np.int32),
            np.array([-2], np.int32), np.array([1], np.int32)], [])])


@case
def sequences(root):
    """Positions out of range in sequence ops: SequenceAt, SequenceInsert,
    SequenceErase, on empty and short sequences; SplitToSequence sizes from
    data; ConcatFromSequence of items that disagree."""
    st = seqtype(F, ["n"])
    a, b = f32(1, 2), f32(3, 4)
    save(root, "sequenceat_pos", [node("SequenceAt", ["s", "i"], ["y"], "sequenceat_pos")],
         [helper.make_value_info("s", st), vi("i", I64, [])], [vi("y", F, ["n"])],
         [([seq("s", a, b), np.int64(-1)], [b]),
          ([seq("s", a, b), np.int64(2)], []), ([seq("s", a, b), np.int64(-3)], []),
          ([seq("s"), np.int64(0)], [])])
    save(root, "sequenceinsert_pos",
         [node("SequenceInsert", ["s", "t", "i"], ["o"], "sequenceinsert_pos"),
          node("SequenceAt", ["o", "z"], ["y"], "at0")],
         [helper.make_value_info("s", st), vi("t", F, ["n"]), vi("i", I64, []),
          vi("z", I64, [])], [vi("y", F, ["n"])],
         [([seq("s", a), b, np.int64(0), np.int64(0)], [b]),
          ([seq("s", a), b, np.int64(3), np.int64(0)], []),
          ([seq("s", a), b, np.int64(-3), np.int64(0)], [])])
    save(root, "sequenceerase_pos",
         [node("SequenceErase", ["s", "i"], ["o"], "sequenceerase_pos"),
          node("SequenceLength", ["o"], ["y"], "len")],
         [helper.make_value_info("s", st), vi("i", I64, [])], [vi("y", I64, [])],
         [([seq("s", a, b), np.int64(0)], [np.int64(1)]),
          ([seq("s", a, b), np.int64(2)], []), ([seq("s"), np.int64(0)], [])])
    save(root, "splittosequence_sizes",
         [node("SplitToSequence", ["x", "p"], ["o"], "splittosequence_sizes"),
          node("SequenceLength", ["o"], ["y"], "len")],
         [vi("x", F, ["n"]), vi("p", I64, ["k"])], [vi("y", I64, [])],
         [([f32(1, 2, 3), i64(1, 2)], [np.int64(2)]),
          ([f32(1, 2, 3), i64(2, 2)], []), ([f32(1, 2, 3), i64(4, -1)], []),
          ([f32(1, 2, 3), i64(0)], [])])
    save(root, "concatfromsequence_dims",
         [node("ConcatFromSequence", ["s"], ["y"], "concatfromsequence_dims", axis=0)],
         [helper.make_value_info("s", seqtype(F, ["n", "m"]))], [vi("y", F, ["k", "m"])],
         [([seq("s", np.ones((1, 2), np.float32), np.ones((2, 2), np.float32))],
           [np.ones((3, 2), np.float32)]),
          ([seq("s", np.ones((1, 2), np.float32), np.ones((1, 3), np.float32))], []),
          ([seq("s")], [])])


@case
def scan_lengths(root):
    """Scan over two inputs whose scanned dims differ at run time."""
    body = helper.make_graph(
        [node("Add", ["a", "b"], ["c"], "body_add")], "body",
        [vi("a", F, [2]), vi("b", F, [2])], [vi("c", F, [2])])
    save(root, "scan_lengths",
         [node("Scan", ["x", "z"], ["y"], "scan_lengths", body=body, num_scan_inputs=2)],
         [vi("x", F, ["t", 2]), vi("z", F, ["u", 2])], [vi("y", F, ["t", 2])],
         [([np.ones((3, 2), np.float32), np.ones((3, 2), np.float32)],
           [np.full((3, 2), 2, np.float32)]),
          ([np.ones((3, 2), np.float32), np.ones((2, 2), np.float32)], []),
          ([np.ones((2, 2), np.float32), np.ones((3, 2), np.float32)], [])])


@case
def quant_axis(root):
    """DequantizeLinear per axis with a scale of another length than the
    axis (run-time dims)."""
    save(root, "dequant_axis",
         [node("DequantizeLinear", ["x", "s"], ["y"], "dequant_axis", axis=0)],
         [vi("x", U8, ["n", 2]), vi("s", F, ["k"])], [vi("y", F, ["n", 2])],
         [([np.array([[1, 2], [3, 4]], np.uint8), f32(1, 2)],
           [np.array([[1, 2], [6, 8]], np.float32)]),
          ([np.array([[1, 2], [3, 4]], np.uint8), f32(1, 2, 3)], []),
          ([np.array([[1, 2], [3, 4]], np.uint8), f32(1)], [])])


@case
def lstm_lens(root):
    """LSTM with sequence_lens from data past seq_length or negative."""
    h = 1
    x = np.ones((2, 1, 1), np.float32)
    w = np.zeros((1, 4 * h, 1), np.float32)
    r = np.zeros((1, 4 * h, h), np.float32)
    save(root, "lstm_lens",
         [node("LSTM", ["x", "w", "r", "", "l"], ["", "yh"], "lstm_lens", hidden_size=h)],
         [vi("x", F, ["t", 1, 1]), vi("w", F, [1, 4, 1]), vi("r", F, [1, 4, 1]),
          vi("l", I32, [1])], [vi("yh", F, [1, 1, 1])],
         [([x, w, r, np.array([2], np.int32)], [np.zeros((1, 1, 1), np.float32)]),
          ([x, w, r, np.array([5], np.int32)], []),
          ([x, w, r, np.array([-1], np.int32)], [])])


@case
def maxunpool_shape(root):
    """MaxUnpool with output_shape from data smaller than the unpooled shape
    (it returned OK; ONNX Runtime refuses it), and indices out of range."""
    x = np.ones((1, 1, 1, 1), np.float32)
    at = lambda v: np.array(v, np.int64).reshape(1, 1, 1, 1)  # noqa: E731
    save(root, "maxunpool_shape",
         [node("MaxUnpool", ["x", "i", "s"], ["y"], "maxunpool_shape",
               kernel_shape=[2, 2], strides=[2, 2])],
         [vi("x", F, [1, 1, 1, 1]), vi("i", I64, [1, 1, 1, 1]), vi("s", I64, [4])],
         [vi("y", F, ["a", "b", "c", "d"])],
         [([x, at(3), i64(1, 1, 2, 2)], [np.array([[[[0, 0], [0, 1]]]], np.float32)]),
          ([x, at(3), i64(1, 1, 1, 1)], []), ([x, at(0), i64(1, 1, -2, 2)], []),
          ([x, at(9), i64(1, 1, 2, 2)], []), ([x, at(-1), i64(1, 1, 2, 2)], [])])


@case
def resize_data(root):
    """Resize with sizes and scales from data: negative, NaN, infinite,
    beyond memory, and a scale so small that a dim is 0 (empty, as ORT)."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    save(root, "resize_sizes",
         [node("Resize", ["x", "", "", "s"], ["y"], "resize_sizes", mode="nearest")],
         [vi("x", F, [1, 1, "h", "w"]), vi("s", I64, [4])],
         [vi("y", F, ["a", "b", "c", "d"])],
         [([x, i64(1, 1, 4, 4)], [x.repeat(2, axis=2).repeat(2, axis=3)]),
          ([x, i64(1, 1, -4, 4)], []), ([x, i64(1, 1, 1 << 40, 1 << 40)], []),
          ([x, i64(1, 1, 1 << 62, 4)], [])])
    save(root, "resize_scales",
         [node("Resize", ["x", "", "s"], ["y"], "resize_scales", mode="linear")],
         [vi("x", F, [1, 1, "h", "w"]), vi("s", F, [4])],
         [vi("y", F, ["a", "b", "c", "d"])],
         [([x, f32(1, 1, 2, 2)],
           [np.array([[[[0, 0.25, 0.75, 1], [0.5, 0.75, 1.25, 1.5],
                        [1.5, 1.75, 2.25, 2.5], [2, 2.25, 2.75, 3]]]], np.float32)]),
          ([x, f32(1, 1, np.nan, 2)], []), ([x, f32(1, 1, np.inf, 2)], []),
          ([x, f32(1, 1, -1, 2)], []),
          ([x, f32(1, 1, 1e-30, 2)], [np.zeros((1, 1, 0, 4), np.float32)])])


@case
def control_data(root):
    """If with a condition of 2 or 0 elements, Loop with a negative or huge
    trip count (0 trips; with cond false, none), NonMaxSuppression whose
    boxes and scores disagree, GatherND whose batch dims disagree."""
    t = helper.make_graph([node("Neg", ["x"], ["a"], "if_neg")], "t", [], [vi("a", F, [2])])
    e = helper.make_graph([node("Abs", ["x"], ["a"], "if_abs")], "e", [], [vi("a", F, [2])])
    save(root, "if_cond", [node("If", ["c"], ["y"], "if_cond", then_branch=t, else_branch=e)],
         [vi("c", B, ["n"]), vi("x", F, [2])], [vi("y", F, [2])],
         [([np.array([True]), f32(1, -2)], [f32(-1, 2)]),
          ([np.array([True, False]), f32(1, -2)], []), ([np.zeros(0, bool), f32(1, -2)], [])])
    body = helper.make_graph(
        [node("Identity", ["c"], ["co"], "loop_cond"), node("Add", ["v", "v"], ["w"], "loop_add")],
        "body", [vi("i", I64, []), vi("c", B, []), vi("v", F, [2])],
        [vi("co", B, []), vi("w", F, [2])])
    save(root, "loop_m", [node("Loop", ["m", "c", "x"], ["y"], "loop_m", body=body)],
         [vi("m", I64, []), vi("c", B, []), vi("x", F, [2])], [vi("y", F, [2])],
         [([np.int64(2), np.array(True), f32(1, 2)], [f32(4, 8)]),
          ([np.int64(-5), np.array(True), f32(1, 2)], [f32(1, 2)]),
          ([np.int64(1 << 62), np.array(False), f32(1, 2)], [f32(1, 2)])])
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1]]], np.float32)
    save(root, "nms_boxes", [node("NonMaxSuppression", ["b", "s", "m"], ["y"], "nms_boxes")],
         [vi("b", F, [1, "n", 4]), vi("s", F, [1, 1, "k"]), vi("m", I64, [1])],
         [vi("y", I64, ["r", 3])],
         [([boxes, f32(0.9, 0.8).reshape(1, 1, 2), i64(5)], [np.zeros((1, 3), np.int64)]),
          ([boxes, f32(0.9, 0.8, 0.7).reshape(1, 1, 3), i64(5)], []),
          ([boxes, f32(0.9, 0.8).reshape(1, 1, 2), i64(1 << 62)], [np.zeros((1, 3), np.int64)]),
          ([boxes, f32(0.9, 0.8).reshape(1, 1, 2), i64(-3)], [np.zeros((0, 3), np.int64)])])
    d = np.arange(6, dtype=np.float32).reshape(2, 3)
    save(root, "gathernd_batch",
         [node("GatherND", ["x", "i"], ["y"], "gathernd_batch", batch_dims=1)],
         [vi("x", F, ["b", "n"]), vi("i", I64, ["c", 1])], [vi("y", F, ["c"])],
         [([d, np.array([[1], [2]], np.int64)], [f32(1, 5)]),
          ([d, np.array([[1], [2], [0]], np.int64)], []),
          ([d, np.array([[1], [3]], np.int64)], [])])


@case
def bitshift_big(root):
    """BitShift by 64 or more: ONNX does not say; the result must at least
    be the same every run (0, as a shift of every bit out)."""
    save(root, "bitshift_big",
         [node("BitShift", ["a", "b"], ["y"], "bitshift_big", direction="LEFT")],
         [vi("a", U64, ["n"]), vi("b", U64, ["n"])], [vi("y", U64, ["n"])],
         [([np.array([1, 1], np.uint64), np.array([3, 63], np.uint64)],
           [np.array([8, 1 << 63], np.uint64)]),
          ([np.array([1, 1], np.uint64), np.array([64, 200], np.uint64)],
           [np.array([0, 0], np.uint64)])])


@case
def fifth_attack(root):
    """The fifth attack (2026-11-27, 23 run-time cases of the classes above
    on other ops; these three had no case yet): ReduceSum's axes from data
    out of range, Compress with a condition longer than the axis (the
    selections past the axis are dropped, as ORT does), GatherElements with
    an index below -dim."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    save(root, "reducesum_axes",
         [node("ReduceSum", ["x", "a"], ["y"], "reducesum_axes", keepdims=1)],
         [vi("x", F, [2, 3]), vi("a", I64, [1])], [vi("y", F, [2, 1])],
         [([x, i64(1)], [x.sum(axis=1, keepdims=True)]),
          ([x, i64(2)], []),
          ([x, i64(-3)], [])])
    save(root, "compress_long",
         [node("Compress", ["x", "c"], ["y"], "compress_long", axis=0)],
         [vi("x", F, [2, 3]), vi("c", B, ["n"])], [vi("y", F, ["m", 3])],
         [([x, np.array([True, False, True, True])], [x[0:1]]),
          ([x, np.array([False, True])], [x[1:2]])])
    save(root, "gatherelements_neg",
         [node("GatherElements", ["x", "i"], ["y"], "gatherelements_neg", axis=1)],
         [vi("x", F, [2, 3]), vi("i", I64, [2, 2])], [vi("y", F, [2, 2])],
         [([x, np.array([[0, -1], [2, -3]], np.int64)],
           [np.array([[0, 2], [5, 3]], np.float32)]),
          ([x, np.array([[0, 1], [2, -4]], np.int64)], [])])


if __name__ == "__main__":
    hostile.main(CASES, sys.argv)

"""gradcheck cases: shape and data-movement ops (RulesTensor.cpp)."""
import numpy as np

from gradcheck import C, Case, In, X

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def i64(*v):
    return C(np.array(v, np.int64))


add("reshape", "Reshape", [X([2, 3, 4]), i64(-1, 4)])
add("reshape_0", "Reshape", [X([2, 3, 4]), i64(0, 12)])
add("flatten", "Flatten", [X([2, 3, 4])], {"axis": 2})
add("flatten_0", "Flatten", [X([2, 3, 4])], {"axis": 0})
add("squeeze", "Squeeze", [X([2, 1, 3, 1]), i64(1, 3)])
add("squeeze_all", "Squeeze", [X([2, 1, 3, 1])], sym={})
add("unsqueeze", "Unsqueeze", [X([2, 3]), i64(0, -1)])
add("transpose", "Transpose", [X([2, 3, 4])], {"perm": [2, 0, 1]})
add("transpose_default", "Transpose", [X([2, 3, 4])])
add("expand", "Expand", [X([3, 1]), i64(2, 3, 4)], sym={})
add("expand_rank", "Expand", [X([4]), i64(3, 4)], sym={})
add("expand_same", "Expand", [X([3, 4]), i64(1, 4)])
add("concat", "Concat", [X([2, 3]), X([2, 1]), X([2, 2])], {"axis": 1})
add("concat_axis0", "Concat", [X([2, 3]), X([1, 3])], {"axis": -2},
    sym={0: {0: "N"}, 1: {0: "M"}})
add("split", "Split", [X([2, 6]), i64(1, 2, 3)], {"axis": 1}, nout=3,
    yout=[0, 1, 2])
add("split_unused", "Split", [X([6, 2])], {"axis": 0, "num_outputs": 3},
    nout=3, yout=[0, 2], opset=18, sym={})
add("split_equal", "Split", [X([2, 6])], {"axis": 1}, nout=2, yout=[0, 1])
add("trilu", "Trilu", [X([3, 4])])
add("trilu_lower_k", "Trilu", [X([2, 4, 4]), C(np.array(-1, np.int64))],
    {"upper": 0})

# Slices, gathers, pads and other movers.
add("slice", "Slice", [X([4, 5]), i64(1, 0), i64(3, 4), i64(0, 1)])
add("slice_step", "Slice", [X([6, 5]), i64(0, 4), i64(6, 0), i64(0, 1),
                            i64(2, -1)])
add("slice_neg", "Slice", [X([3, 6]), i64(-4), i64(-1), i64(1)])
add("slice_large", "Slice", [X([8, 20]), i64(2, 3), i64(7, 19)])
add("gather0", "Gather", [X([5, 3]), i64(0, 2, 2, -1)])
add("gather1", "Gather", [X([2, 5, 3]), C(np.array([[0, 4], [1, 1]],
                                                   np.int64))], {"axis": 1})
add("gather_scalar", "Gather", [X([5, 3]), C(np.array(3, np.int64))])
add("gather_elements", "GatherElements",
    [X([3, 4]), C(np.array([[0, 3], [1, 1], [2, 0]], np.int64))],
    {"axis": 1})
add("gather_nd", "GatherND", [X([3, 4, 2]), C(np.array([[0, 1], [2, 3],
                                                        [0, 1]], np.int64))])
add("gather_nd_batch", "GatherND",
    [X([2, 3, 4]), In(np.array([[[1], [2]], [[0], [0]]], np.int64))],
    {"batch_dims": 1}, sym={0: {0: "N"}, 1: {0: "N"}})
add("pad_constant", "Pad", [X([2, 3]), i64(1, 0, 2, 1), C(np.array(0.5))])
add("pad_negative", "Pad", [X([4, 5]), i64(-1, 1, 0, -2)])
add("pad_reflect", "Pad", [X([3, 4]), i64(0, 2, 1, 1)], {"mode": "reflect"})
add("pad_edge", "Pad", [X([3, 4]), i64(1, 1, 2, 2)], {"mode": "edge"})
add("pad_axes", "Pad", [X([2, 3, 4]), i64(1, 2), None, i64(2)], opset=18)
add("tile", "Tile", [X([2, 3]), i64(2, 3)])
add("depth_to_space", "DepthToSpace", [X([1, 8, 2, 3])], {"blocksize": 2})
add("depth_to_space_crd", "DepthToSpace", [X([2, 8, 2, 2])],
    {"blocksize": 2, "mode": "CRD"})
add("space_to_depth", "SpaceToDepth", [X([2, 2, 4, 6])], {"blocksize": 2})
add("reverse_sequence", "ReverseSequence",
    [X([4, 3, 2]), C(np.array([4, 2, 1], np.int64))],
    {"batch_axis": 1, "time_axis": 0}, sym={0: {0: "T"}})
add("compress", "Compress", [X([4, 3]), C(np.array([True, False, True, True]))],
    {"axis": 0}, sym={})
add("compress_flat", "Compress", [X([3, 4]), C(np.array([0, 1, 1, 0, 1],
                                                        bool))])

# The direct inverses: Gather on axis 0 (an embedding table, repeated and
# negative indices, int32), Pad by negated pads, Tile summed, permutations.
add("gather_embedding", "Gather",
    [X([10, 4]), C(np.array([[1, 3, 3, -1, 0], [9, 1, 1, 1, -10], [2, 2, 5, 6, 7]],
                            np.int32))], sym={})
add("gather_embedding_sym", "Gather",
    [X([6, 3]), In(np.array([[0, 5], [2, 2], [-2, 1]], np.int64))],
    sym={1: {0: "N"}})
add("pad_wrap", "Pad", [X([3, 4]), i64(1, 2, 0, 1)], {"mode": "wrap"},
    opset=19)
add("pad_constant_crop_and_pad", "Pad", [X([4, 5]), i64(2, -1, -1, 3)])
add("tile_rank3", "Tile", [X([2, 1, 3]), i64(1, 3, 2)])
add("slice_step1_sym_axis1", "Slice", [X([3, 8]), i64(2), i64(7), i64(1)],
    sym={0: {0: "N", 1: "L"}})

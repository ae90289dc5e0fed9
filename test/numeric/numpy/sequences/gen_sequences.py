#!/usr/bin/python3
"""Writes models with sequences and optionals in their signatures, in the
ONNX backend-test layout: OUT/sequences/<case>/model.onnx +
test_data_set_N/{input,output}_N.pb (SequenceProto, OptionalProto where the
model takes or returns those). Expected outputs come from numpy.
run_conformance.py --data OUT --suites sequences runs them.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def seq_type(elem, shape):
    return helper.make_sequence_type_proto(helper.make_tensor_type_proto(elem, shape))


def opt_type(t):
    return helper.make_optional_type_proto(t)


def typed(name, t):
    return helper.make_value_info(name, t)


def write_case(root, name, nodes, inputs, outputs, data_sets):
    g = helper.make_graph(nodes, name, inputs, outputs)
    testcases.save_case(root, "sequences", name, g, data_sets, opset=18,
                        ir_version=8)


def seq(items):
    return numpy_helper.from_list(items)


def opt(value, elem_type=None):
    return numpy_helper.from_optional(value, dtype=elem_type)


def tensor(a):
    return numpy_helper.from_array(np.asarray(a))


def main(root):
    rng = np.random.default_rng(3)

    # Items of rank 2 with one dynamic dim: passed through, counted, one
    # taken out and a new one inserted at the front; also with no items.
    items = [rng.standard_normal((2, 3)).astype(np.float32),
             np.zeros((0, 3), np.float32),
             rng.standard_normal((1, 3)).astype(np.float32)]
    x = rng.standard_normal((4, 3)).astype(np.float32)
    zero = np.array(0, np.int64)
    write_case(
        root, "seq_rank2",
        [helper.make_node("Identity", ["s"], ["same"]),
         helper.make_node("SequenceLength", ["s"], ["n"]),
         helper.make_node("SequenceInsert", ["s", "x", "zero"], ["inserted"]),
         helper.make_node("SequenceAt", ["inserted", "zero"], ["first"])],
        [typed("s", seq_type(F, ["N", 3])), helper.make_tensor_value_info("x", F, [4, 3]),
         helper.make_tensor_value_info("zero", I64, [])],
        [typed("same", seq_type(F, ["N", 3])), helper.make_tensor_value_info("n", I64, []),
         typed("inserted", seq_type(F, [None, 3])),
         helper.make_tensor_value_info("first", F, [None, 3])],
        [([seq(items), tensor(x), tensor(zero)],
          [seq(items), tensor(np.array(3, np.int64)), seq([x] + items), tensor(x)]),
         ([seq([]), tensor(x), tensor(zero)],
          [seq([]), tensor(np.array(0, np.int64)), seq([x]), tensor(x)])])

    # Optionals: a tensor and a sequence, present and absent, passed through
    # and tested.
    t = np.arange(6, dtype=np.int64).reshape(2, 3)
    s_items = [np.array([1.5, 2.5], np.float32), np.array([3.5], np.float32)]
    write_case(
        root, "optionals",
        [helper.make_node("Identity", ["ot"], ["ot_out"]),
         helper.make_node("OptionalHasElement", ["ot"], ["ot_has"]),
         helper.make_node("Identity", ["os"], ["os_out"]),
         helper.make_node("OptionalHasElement", ["os"], ["os_has"])],
        [typed("ot", opt_type(helper.make_tensor_type_proto(I64, [2, 3]))),
         typed("os", opt_type(seq_type(F, [None])))],
        [typed("ot_out", opt_type(helper.make_tensor_type_proto(I64, [2, 3]))),
         helper.make_tensor_value_info("ot_has", TensorProto.BOOL, []),
         typed("os_out", opt_type(seq_type(F, [None]))),
         helper.make_tensor_value_info("os_has", TensorProto.BOOL, [])],
        [([opt(t), opt(s_items)],
          [opt(t), tensor(np.array(True)), opt(s_items), tensor(np.array(True))]),
         ([opt(None), opt(None)],
          [opt(None), tensor(np.array(False)), opt(None), tensor(np.array(False))]),
         # A present optional holding an empty sequence.
         ([opt(None), opt([], onnx.OptionalProto.SEQUENCE)],
          [opt(None), tensor(np.array(False)), opt([], onnx.OptionalProto.SEQUENCE),
           tensor(np.array(True))])])

    # Items of no declared rank, each of its own: a scalar, a vector and a
    # matrix cross the C API, a 3-D tensor is inserted among them, the first
    # item erased; also with no items. (SequenceAt would give an unranked
    # tensor, which does not cross the C API once --dynamic drops the
    # outputs' shapes.)
    mixed = [np.array(1.5, np.float32),
             rng.standard_normal(3).astype(np.float32),
             rng.standard_normal((2, 3)).astype(np.float32)]
    cube = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    one = np.array(1, np.int64)
    write_case(
        root, "seq_mixed_ranks",
        [helper.make_node("Identity", ["s"], ["same"]),
         helper.make_node("SequenceInsert", ["s", "x", "at"], ["inserted"]),
         helper.make_node("SequenceErase", ["inserted", "zero"], ["erased"]),
         helper.make_node("SequenceLength", ["inserted"], ["n"])],
        [typed("s", seq_type(F, None)), helper.make_tensor_value_info("x", F, [2, 2, 2]),
         helper.make_tensor_value_info("at", I64, []),
         helper.make_tensor_value_info("zero", I64, [])],
        [typed("same", seq_type(F, None)), typed("inserted", seq_type(F, None)),
         typed("erased", seq_type(F, None)), helper.make_tensor_value_info("n", I64, [])],
        [([seq(mixed), tensor(cube), tensor(one), tensor(zero)],
          [seq(mixed), seq([mixed[0], cube] + mixed[1:]), seq([cube] + mixed[1:]),
           tensor(np.array(4, np.int64))]),
         ([seq([]), tensor(cube), tensor(zero), tensor(zero)],
          [seq([]), seq([cube]), seq([]), tensor(np.array(1, np.int64))])])

    # A Loop whose body declares items of rank 1 carrying a sequence of no
    # declared rank: the items' rows become a table on the way in (each
    # item's rank checked), and the body appends to it.
    v = rng.standard_normal(3).astype(np.float32)
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("SequenceInsert", ["acc_in", "v"], ["acc_out"])],
        "body",
        [helper.make_tensor_value_info("i", I64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         typed("acc_in", seq_type(F, [None]))],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         typed("acc_out", seq_type(F, [None]))])
    vecs = [rng.standard_normal(2).astype(np.float32),
            rng.standard_normal(4).astype(np.float32)]
    write_case(
        root, "seq_loop_ranked_body",
        [helper.make_node("Loop", ["m", "", "s"], ["out"], body=body)],
        [typed("s", seq_type(F, None)), helper.make_tensor_value_info("m", I64, []),
         helper.make_tensor_value_info("v", F, [3])],
        [typed("out", seq_type(F, [None]))],
        [([seq(vecs), tensor(np.array(2, np.int64)), tensor(v)],
          [seq(vecs + [v, v])]),
         ([seq([]), tensor(np.array(1, np.int64)), tensor(v)], [seq([v])])])


if __name__ == "__main__":
    main(sys.argv[1])

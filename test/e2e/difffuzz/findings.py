#!/usr/bin/python3
"""findings.py DIR: the differential fuzzer's findings (tools/onnxc-fuzz/
difffuzz.py) as regression cases: DIR/CASE/model.onnx and
test_data_set_0/{input,output}_N.pb, the outputs computed with numpy (ORT
agreed on each). findings.test compiles and runs every case.

Cases (the seed that found them, with difffuzz.py's grammar of commit
4ee1f9e: seeds name other graphs once rules are added):
  slice_empty_past_end   Slice of [2,3] with starts 2^62 on both axes (the
                         result [0,0]): onnxc refused the model ("offset 0 is
                         out-of-bounds: 2 >= 2", extract_slice's verifier).
                         seed 193, --nodes 6.
  slice_of_empty         Slice of a [0,3] value (a Slice's empty result): the
                         same refusal, for any offset into a dim of size 0.
                         seed 209, --nodes 6.
  slice_huge_step        Slice with step 2^63-1 and -2^63: the element count
                         overflowed in the compiler ((e - s + step - 1) / step;
                         signed overflow, benign with g++ -O2, a UBSan report).
  squeeze_dynamic        Squeeze without axes of [4, N, M, 1]: onnxc refused it
                         (collapse_shape to the inferred ?x?x? where its own
                         type is 4x?x?). seed 1041, --nodes 8 --dynamic 0.5.
                         Data set 1 has N = 1: an error status (the rank would
                         depend on it), not a wrong shape.
  concat_empty           Concat of [0,4,0,1], [0,N,0,3] and [0,?,?,1] along the
                         last axis (an empty result), and Concat of [2,3] with
                         an empty [2,0] last: onnxc refused both ("offset 0 is
                         out-of-bounds: 0 >= 0", insert_slice's verifier).
                         seed 7096, --nodes 8 --dynamic 0.5 (grammar of this
                         commit's difffuzz.py).
  pad_crop_all           Pad of [1] by [2, -1] (constant): the one element
                         cropped, the result [c, c]. onnxc refused it
                         ("offset 0 is out-of-bounds: 2 >= 2", the empty
                         copy's subview in onnxc-pad-to-copy). seeds 20021,
                         20069, --nodes 8 --dynamic 0.5 (grammar of commit
                         3ef9ffe).
  split_known_sizes      Split of [2, N] by a constant [1, 1], then Squeeze
                         of a piece: libonnx leaves the pieces [2, ?], and
                         the Squeeze without axes of [2, ?] to the declared
                         [?] failed ("tensor.cast ... cast incompatible").
                         The pieces are now [2, 1]. seed 20224. Data set 1
                         has N = 3: an error status.
  squeeze_declared_rank  The same seed's other half: Squeeze without axes of
                         [2, N] to a declared [Y] (rank 1: N must be 1). It
                         failed to compile ("tensor.cast ... incompatible");
                         now N is squeezed and checked to be 1 at run time
                         (data set 1, N = 3: an error status).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIG = 2**62


def save(root, name, nodes, inputs, outputs, inits, feeds, expected):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    g = helper.make_graph(nodes, name, inputs, outputs,
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    for i, x in enumerate(feeds):
        t = numpy_helper.from_array(x, inputs[i].name)
        open(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), "wb").write(t.SerializeToString())
    for i, x in enumerate(expected):
        t = numpy_helper.from_array(x, outputs[i].name)
        open(os.path.join(d, "test_data_set_0", "output_%d.pb" % i), "wb").write(t.SerializeToString())


def i64(*v):
    return np.array(v, dtype=np.int64)


def main(root):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    f = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
    # Both axes start past their end: an empty [0, 0], and x + 1 beside it
    # so that the model has a non-empty output too.
    save(root, "slice_empty_past_end",
         [helper.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"]),
          helper.make_node("Neg", ["x"], ["z"])],
         [f("x", [2, 3])], [f("y", [0, 0]), f("z", [2, 3])],
         {"s": i64(BIG, BIG), "e": i64(-BIG, BIG), "a": i64(1, 0), "st": i64(2, 1)},
         [x], [np.zeros((0, 0), np.float32), -x])
    # A slice of an empty value: [2,3] -> [0,3] -> rows 1: (still [0,3])
    # and columns 1:3 -> [0, 2].
    save(root, "slice_of_empty",
         [helper.make_node("Slice", ["x", "s0", "e0", "a0"], ["e"]),
          helper.make_node("Slice", ["e", "s1", "e1", "a1"], ["y"])],
         [f("x", [2, 3])], [f("y", [0, 2])],
         {"s0": i64(5), "e0": i64(9), "a0": i64(0),
          "s1": i64(1, 1), "e1": i64(3, 3), "a1": i64(0, 1)},
         [x], [np.zeros((0, 2), np.float32)])
    # Steps at the int64 extremes: one element each way.
    save(root, "slice_huge_step",
         [helper.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"])],
         [f("x", [2, 3])], [f("y", [1, 1])],
         {"s": i64(0, -1), "e": i64(BIG, -BIG), "a": i64(0, 1),
          "st": i64(2**63 - 1, -2**63)},
         [x], [x[0:1, 2:3]])

    # Squeeze without axes, symbolic dims: [4, N, M, 1] -> [4, N, M].
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, "N", "M", 1])
    yo = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c"])
    x = np.arange(24, dtype=np.float32).reshape(4, 2, 3, 1)
    save(root, "squeeze_dynamic", [helper.make_node("Squeeze", ["x"], ["y"])],
         [xi], [yo], {}, [x], [x.reshape(4, 2, 3)])
    d1 = os.path.join(root, "squeeze_dynamic", "test_data_set_1")
    os.makedirs(d1, exist_ok=True)
    t = numpy_helper.from_array(np.ones((4, 1, 3, 1), np.float32), "x")
    open(os.path.join(d1, "input_0.pb"), "wb").write(t.SerializeToString())

    # Concat with empty inputs: an empty result, and an empty input last.
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [0, 4, 0, 1])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [0, "N", 0, 3])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    e = helper.make_tensor_value_info("e", TensorProto.FLOAT, [2, 0])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [0, 4, 0, 4])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    save(root, "concat_empty",
         [helper.make_node("Concat", ["a", "b"], ["y"], axis=-1),
          helper.make_node("Concat", ["x", "e"], ["z"], axis=1)],
         [a, b, x, e], [y, z], {},
         [np.zeros((0, 4, 0, 1), np.float32), np.zeros((0, 4, 0, 3), np.float32),
          xv, np.zeros((2, 0), np.float32)],
         [np.zeros((0, 4, 0, 4), np.float32), xv])

    # A begin pad of 2 and an end crop of 1 on [1]: nothing of x is kept.
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    yo = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    save(root, "pad_crop_all",
         [helper.make_node("Pad", ["x", "p", "c"], ["y"], mode="constant")],
         [xi], [yo], {"p": i64(2, -1), "c": np.array(1.5, np.float32)},
         [np.array([7], np.float32)], [np.full(2, 1.5, np.float32)])

    # Constant split sizes on a symbolic dim, a piece squeezed.
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "N"])
    ao = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, "A"])
    yo = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["Y"])
    xv = np.arange(4, dtype=np.float32).reshape(2, 2)
    save(root, "split_known_sizes",
         [helper.make_node("Split", ["x", "s"], ["a", "b"], axis=-1),
          helper.make_node("Squeeze", ["b"], ["y"])],
         [xi], [ao, yo], {"s": i64(1, 1)}, [xv], [xv[:, :1], xv[:, 1]])
    d1 = os.path.join(root, "split_known_sizes", "test_data_set_1")
    os.makedirs(d1, exist_ok=True)
    t = numpy_helper.from_array(np.ones((2, 3), np.float32), "x")
    open(os.path.join(d1, "input_0.pb"), "wb").write(t.SerializeToString())

    # Squeeze without axes whose declared result rank drops the symbolic dim.
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "N"])
    yo = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["Y"])
    xv = np.arange(2, dtype=np.float32).reshape(2, 1)
    save(root, "squeeze_declared_rank", [helper.make_node("Squeeze", ["x"], ["y"])],
         [xi], [yo], {}, [xv], [xv.reshape(2)])
    d1 = os.path.join(root, "squeeze_declared_rank", "test_data_set_1")
    os.makedirs(d1, exist_ok=True)
    t = numpy_helper.from_array(np.ones((2, 3), np.float32), "x")
    open(os.path.join(d1, "input_0.pb"), "wb").write(t.SerializeToString())


if __name__ == "__main__":
    main(sys.argv[1])

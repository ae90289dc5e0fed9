"""Writes the models of the embedding tests into DIR (python3-onnx):

seqs.onnx: sequences and optionals across the API, with a symbolic dim:
  inputs  x float[N, 4], lens int64[K], extra seq(float[?, 4]),
          scale optional(float[1])
  outputs parts seq(float[?, 4]) = SplitToSequence(x, lens) (axis 0),
          sums float[N] = ReduceSum(x, axis 1),
          joined float[?, 4] = ConcatFromSequence(extra) (axis 0),
          has_scale bool[] = OptionalHasElement(scale),
          maybe optional(float[N]) = Optional(sums).
linear.onnx: y = x @ W + b (W float[3, 2], b float[2] initializers),
  x float[N, 3]; made trainable by onnxc-make-trainable in the tests.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

root = sys.argv[1]
os.makedirs(root, exist_ok=True)


def save(name, graph):
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(root, name + ".onnx"))


def seq_of(elem, shape):
    return h.make_sequence_type_proto(h.make_tensor_type_proto(elem, shape))


def opt_of(type_proto):
    return h.make_optional_type_proto(type_proto)


axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
save("seqs", h.make_graph(
    [h.make_node("SplitToSequence", ["x", "lens"], ["parts"], axis=0),
     h.make_node("ReduceSum", ["x", "axes"], ["sums"], keepdims=0),
     h.make_node("ConcatFromSequence", ["extra"], ["joined"], axis=0),
     h.make_node("OptionalHasElement", ["scale"], ["has_scale"]),
     h.make_node("Optional", ["sums"], ["maybe"])],
    "seqs",
    [h.make_tensor_value_info("x", T.FLOAT, ["N", 4]),
     h.make_tensor_value_info("lens", T.INT64, ["K"]),
     h.make_value_info("extra", seq_of(T.FLOAT, [None, 4])),
     h.make_value_info("scale", opt_of(h.make_tensor_type_proto(T.FLOAT, [1])))],
    [h.make_value_info("parts", seq_of(T.FLOAT, [None, 4])),
     h.make_tensor_value_info("sums", T.FLOAT, ["N"]),
     h.make_tensor_value_info("joined", T.FLOAT, [None, 4]),
     h.make_tensor_value_info("has_scale", T.BOOL, []),
     h.make_value_info("maybe", opt_of(h.make_tensor_type_proto(T.FLOAT, ["N"])))],
    [axes]))

W = numpy_helper.from_array(
    np.array([[0.5, -1.0], [0.25, 2.0], [-0.75, 0.125]], dtype=np.float32), "W")
b = numpy_helper.from_array(np.array([0.1, -0.2], dtype=np.float32), "b")
save("linear", h.make_graph(
    [h.make_node("MatMul", ["x", "W"], ["xw"]),
     h.make_node("Add", ["xw", "b"], ["y"])],
    "linear",
    [h.make_tensor_value_info("x", T.FLOAT, ["N", 3])],
    [h.make_tensor_value_info("y", T.FLOAT, ["N", 2])],
    [W, b]))

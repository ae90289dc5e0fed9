"""Writes DIR/maps.onnx: skl2onnx's classifier shape (LinearClassifier ->
label, probabilities -> ZipMap -> output_probability, string labels) and a
DictVectorizer of a map input (string keys, float values):
  inputs  x float[N, 2], m map<string, float>
  outputs label string[N], output_probability seq<map<string, float>>,
          y float[1, 3] (m's values of "a", "b", "c", 0 where absent)."""
import os
import sys

import onnx
from onnx import helper
from onnx import TensorProto as T


def map_type(key, value):
    tp = onnx.TypeProto()
    tp.map_type.key_type = key
    tp.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(value, None))
    return tp


labels = ["cat", "dog", "eel"]
nodes = [
    helper.make_node("LinearClassifier", ["x"], ["label", "probabilities"],
                     domain="ai.onnx.ml", classlabels_strings=labels,
                     coefficients=[1.0, 0.0, 0.0, 1.0, -1.0, -1.0],
                     intercepts=[0.0, 0.0, 0.5], post_transform="SOFTMAX"),
    helper.make_node("ZipMap", ["probabilities"], ["output_probability"],
                     domain="ai.onnx.ml", classlabels_strings=labels),
    helper.make_node("DictVectorizer", ["m"], ["y"], domain="ai.onnx.ml",
                     string_vocabulary=["a", "b", "c"]),
]
seq = onnx.TypeProto()
seq.sequence_type.elem_type.CopyFrom(map_type(T.STRING, T.FLOAT))
graph = helper.make_graph(
    nodes, "maps",
    [helper.make_tensor_value_info("x", T.FLOAT, ["N", 2]),
     helper.make_value_info("m", map_type(T.STRING, T.FLOAT))],
    [helper.make_tensor_value_info("label", T.STRING, ["N"]),
     helper.make_value_info("output_probability", seq),
     helper.make_tensor_value_info("y", T.FLOAT, [1, 3])])
model = helper.make_model(graph, opset_imports=[
    helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)])
model.ir_version = 8
onnx.save(model, os.path.join(sys.argv[1], "maps.onnx"))

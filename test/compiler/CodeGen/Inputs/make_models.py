"""Writes models with awkward signatures for the header tests into DIR.

names.onnx: ONNX names that are not C identifiers, keywords, names that
  collide once sanitized, a symbol named like an input, an unnamed dynamic
  input dim, data-dependent and scalar outputs, an output that is an input,
  every element type the typed API maps.
strings.onnx, seq.onnx: signatures with no C equivalent.
"""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h

root = sys.argv[1]
os.makedirs(root, exist_ok=True)


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def save(name, nodes, inputs, outputs):
    g = h.make_graph(nodes, name, inputs, outputs)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    with open(os.path.join(root, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


save("names",
     [h.make_node("ReduceSum", ["input:0"], ["total"], keepdims=0),
      h.make_node("NonZero", ["class"], ["nz"]),
      h.make_node("Greater", ["input:0", "input:0"], ["input_0"]),
      h.make_node("Identity", ["N"], ["half"]),
      h.make_node("Identity", ["1x"], ["x-y"]),
      h.make_node("Identity", ["a*/b"], ["bf"])],
     [vi("input:0", T.FLOAT, ["N", 3]), vi("class", T.INT8, ["N"]),
      vi("N", T.FLOAT16, [None, 2]), vi("1x", T.DOUBLE, [2, 2]),
      vi("a*/b", T.BFLOAT16, [4]), vi("q\"??/\\", T.UINT64, []),
      vi("onnxc_in_", T.INT32, [1]), vi("INT8_MAX", T.UINT8, [1])],
     [vi("nz", T.INT64, [1, None]), vi("total", T.FLOAT, []),
      vi("input_0", T.BOOL, ["N", 3]), vi("half", T.FLOAT16, [None, 2]),
      vi("x-y", T.DOUBLE, [2, 2]), vi("bf", T.BFLOAT16, [4]),
      vi("q\"??/\\", T.UINT64, [])])

save("strings", [h.make_node("Identity", ["s"], ["t"])],
     [vi("s", T.STRING, [2])], [vi("t", T.STRING, [2])])

seq = h.make_tensor_sequence_value_info("seq", T.FLOAT, None)
save("seq", [h.make_node("SequenceConstruct", ["x"], ["seq"])],
     [vi("x", T.FLOAT, [2])], [seq])

"""Writes models with awkward signatures for the header tests into DIR.

names.onnx: ONNX names that are not C identifiers, keywords, names that
  collide once sanitized, a symbol named like an input, an unnamed dynamic
  input dim, data-dependent and scalar outputs, an output that is an input,
  every element type the typed API maps.
seqopt.onnx: sequences and optionals, the signature of
  test/tools/onnxc-run/Inputs/fake_seq_model.c.
unranked_seq.onnx: a sequence whose items have no known rank.
strings.onnx, nested_seq.onnx, map.onnx, map_i32.onnx, opt_map.onnx,
seq_map.onnx, opt_opt.onnx, unranked_opt.onnx,
  string_seq.onnx, rank17_seq.onnx, int4_seq.onnx: signatures with no C
  equivalent. narrow.onnx: float8 and int4 tensors in and out.
"""
import onnx
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



def typed(name, type_proto):
    return h.make_value_info(name, type_proto)


def seq_of(elem, shape):
    return h.make_sequence_type_proto(h.make_tensor_type_proto(elem, shape))


def opt_of(type_proto):
    return h.make_optional_type_proto(type_proto)


save("seqopt",
     [h.make_node("Identity", ["S"], ["T"]),
      h.make_node("OptionalHasElement", ["O"], ["F"]),
      h.make_node("Identity", ["O"], ["U"]),
      h.make_node("Identity", ["P"], ["Q"])],
     [typed("S", seq_of(T.FLOAT, ["M", 2])),
      typed("O", opt_of(h.make_tensor_type_proto(T.INT64, [3]))),
      typed("P", opt_of(seq_of(T.INT32, [None])))],
     [typed("T", seq_of(T.FLOAT, ["M", 2])), vi("F", T.BOOL, []),
      typed("U", opt_of(h.make_tensor_type_proto(T.INT64, [3]))),
      typed("Q", opt_of(seq_of(T.INT32, [None])))])


def unused_input(name, type_proto):
    """A model whose only input has `type_proto` (and goes unused)."""
    save(name, [h.make_node("Constant", [], ["n"], value_int=1)],
         [typed("x", type_proto)], [vi("n", T.INT64, [])])


unused_input("unranked_seq", seq_of(T.FLOAT, None))
unused_input("nested_seq", h.make_sequence_type_proto(seq_of(T.FLOAT, [2])))
map_type = onnx.TypeProto()
map_type.map_type.key_type = T.INT64
map_type.map_type.value_type.CopyFrom(h.make_tensor_type_proto(T.FLOAT, []))
unused_input("map", map_type)
map_i32 = onnx.TypeProto()
map_i32.map_type.key_type = T.INT32
map_i32.map_type.value_type.CopyFrom(h.make_tensor_type_proto(T.FLOAT, []))
unused_input("map_i32", map_i32)
unused_input("opt_map", opt_of(map_type))
unused_input("seq_map", h.make_sequence_type_proto(map_type))
unused_input("opt_opt", opt_of(opt_of(h.make_tensor_type_proto(T.FLOAT, [2]))))
unused_input("unranked_opt", opt_of(h.make_tensor_type_proto(T.FLOAT, None)))
unused_input("string_seq", seq_of(T.STRING, [2]))
unused_input("rank17_seq", seq_of(T.FLOAT, [1] * 17))
unused_input("int4_seq", seq_of(22, [3]))  # int4: packed at the API only as tensors

# float8 (17) and int4 (22) tensors cross: uint8_t codes and packed bytes.
save("narrow", [h.make_node("Identity", ["f"], ["g"]),
                h.make_node("Identity", ["q"], ["r"])],
     [vi("f", 17, [2]), vi("q", 22, [3])], [vi("g", 17, [2]), vi("r", 22, [3])])

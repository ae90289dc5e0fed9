#!/usr/bin/python3
"""Writes models at and beyond the importer's limits (docs/importer.md):
nesting of subgraphs, types, messages and brackets, and function expansion.

usage: make_limits.py OUTDIR

Binary models are encoded by hand (python-onnx's own serializer recurses and
cannot write 5,000 levels), so the script needs only the standard library.
"""
import os
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def tag(field, wire):
    return varint(field << 3 | wire)


def msg(field, body):
    return tag(field, 2) + varint(len(body)) + body


def string(field, s):
    return msg(field, s.encode())


def integer(field, n):
    return tag(field, 0) + varint(n)


# onnx.proto field numbers.
def tensor_type(elem=1, dims=(2,)):
    shape = b"".join(msg(1, integer(1, d)) for d in dims)
    return msg(1, integer(1, elem) + msg(2, shape))  # TypeProto.tensor_type


def value_info(name, type_proto):
    return string(1, name) + msg(2, type_proto)


def node(op, inputs, outputs, attrs=b""):
    return (b"".join(string(1, i) for i in inputs) +
            b"".join(string(2, o) for o in outputs) + string(4, op) + attrs)


def graph_attr(name, graph):
    return msg(5, string(1, name) + msg(6, graph) + integer(20, 5))


def graph(name, nodes, inputs, outputs):
    return (b"".join(msg(1, n) for n in nodes) + string(2, name) +
            b"".join(msg(11, i) for i in inputs) +
            b"".join(msg(12, o) for o in outputs))


def model(g, opset=17):
    return integer(1, 8) + msg(8, string(1, "") + integer(2, opset)) + msg(7, g)


def nested_if(levels):
    """`levels` Ifs, each in the then-branch of the one above."""
    inner = graph("g0", [node("Identity", ["x"], ["y0"])], [],
                  [value_info("y0", tensor_type())])
    other = graph("e", [node("Identity", ["x"], ["e"])], [],
                  [value_info("e", tensor_type())])
    for i in range(1, levels + 1):
        out = "y%d" % i
        n = node("If", ["c"], [out],
                 graph_attr("then_branch", inner) + graph_attr("else_branch", other))
        if i == levels:
            return model(graph("main", [n],
                               [value_info("x", tensor_type()),
                                value_info("c", tensor_type(9, ()))],
                               [value_info(out, tensor_type())]))
        inner = graph("g%d" % i, [n], [], [value_info(out, tensor_type())])


def nested_seq(levels):
    """An input of type seq(seq(...(float[2]))), also the output."""
    t = tensor_type()
    for _ in range(levels):
        t = msg(4, msg(1, t))  # TypeProto.sequence_type.elem_type
    return model(graph("main", [], [value_info("x", t)], [value_info("x", t)]))


def nested_groups(levels):
    """A valid Relu model with an unknown field of `levels` nested groups."""
    groups = tag(100, 3) * levels + tag(100, 4) * levels
    g = graph("main", [node("Relu", ["x"], ["y"])], [value_info("x", tensor_type())],
              [value_info("y", tensor_type())])
    return model(g) + groups


def nested_text_if(levels):
    g = "g0 () => (float[2] y0) { y0 = Identity(x) }"
    for i in range(1, levels + 1):
        g = ("g%d () => (float[2] y%d) { y%d = If <then_branch = %s, else_branch = "
             "e () => (float[2] z) { z = Identity(x) }> (c) }" % (i, i, i, g))
    return ('<ir_version: 8, opset_import: ["" : 17]>\n'
            "main (float[2] x, bool c) => (float[2] y) {\n"
            "  y = If <then_branch = %s, else_branch = "
            "e () => (float[2] z) { z = Identity(x) }> (c)\n}\n" % g)


def nested_text_seq(levels):
    t = "seq(" * levels + "float[2]" + ")" * levels
    return ('<ir_version: 8, opset_import: ["" : 17]>\n'
            "main (%s x) => (%s y) {\n  y = Identity(x)\n}\n" % (t, t))


def exponential_functions(levels):
    """f_i calls f_(i-1) twice: the main graph's one call expands to 2^levels
    Relu nodes."""
    text = ('<ir_version: 8, opset_import: ["" : 17, "local" : 1]>\n'
            "main (float[2] x) => (float[2] y) {\n  y = local.f%d(x)\n}\n" % levels)
    text += ('<domain: "local", opset_import: ["" : 17]>\n'
             "f0 (x) => (y) {\n  y = Relu(x)\n}\n")
    for i in range(1, levels + 1):
        text += ('<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
                 "f%d (x) => (y) {\n  t = local.f%d(x)\n  y = local.f%d(t)\n}\n"
                 % (i, i - 1, i - 1))
    return text


def main(out):
    os.makedirs(out, exist_ok=True)

    def save(name, data):
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(os.path.join(out, name), mode) as f:
            f.write(data)

    save("if-64.onnx", nested_if(64))
    save("if-65.onnx", nested_if(65))
    save("if-5000.onnx", nested_if(5000))
    save("seq-64.onnx", nested_seq(64))
    save("seq-65.onnx", nested_seq(65))
    save("groups-500.onnx", nested_groups(500))
    save("groups-3.onnx", nested_groups(3))
    save("if-5000.onnxtxt", nested_text_if(5000))
    save("seq-300.onnxtxt", nested_text_seq(300))
    save("functions-30.onnxtxt", exponential_functions(30))
    save("functions-3.onnxtxt", exponential_functions(3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

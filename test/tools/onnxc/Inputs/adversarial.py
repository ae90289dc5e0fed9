#!/usr/bin/python3
"""Bad models, written as an attacker would, run through onnxc.

usage: adversarial.py ONNXC OUTDIR [--all-stages] [--jobs N] [--timeout S]
                      [--only NAME | --only PREFIX*]

Every case must end in exit code 0 with nothing on stderr but warnings, or in
exit code 1 with exactly one line "onnxc: error: ..." free of control
characters; never a signal, a timeout, an exhausted memory or a second line.
Cases marked "error" must be refused (the spec rejects them), cases marked
"ok" must compile. By default a case runs --emit=onnx, and the cases that
import run on through --emit=linalg, llvm and obj; --all-stages runs every
case at every stage. Prints one line per failure and a summary; exit code 1
if anything failed. Needs python3-onnx (/usr/bin/python3).
"""
import argparse
import concurrent.futures
import os
import resource
import subprocess
import sys

import onnx
from onnx import TensorProto as TP
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adversarial_more  # noqa: E402 (the fourth attack's cases)

ALL_STAGES = ["onnx", "linalg", "llvm", "llvm-ir", "asm", "obj", "header", "lib"]
HEAD = '<ir_version: 8, opset_import: ["" : 17]>\n'


def text(body, head=HEAD):
    return (head + body).encode()


def vi(name, shape, elt=TP.FLOAT):
    return helper.make_tensor_value_info(name, elt, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, ir=8, opsets=None):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(
        g, opset_imports=opsets or [helper.make_opsetid("", opset)])
    m.ir_version = ir
    return m


def relu(**kw):
    return model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                 [vi("x", [2])], [vi("y", [2])], **kw)


def binary(m):
    return m.SerializeToString()


CASES = []


def case(name, expect, data, ext=".onnxtxt"):
    CASES.append((name, expect, data, ext))


def bcase(name, expect, data):
    case(name, expect, data, ".onnx")


def text_cases():
    case("truncated-text", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu("))
    case("huge-static-tensor", "any",
         text("g (float[281474976710656, 281474976710656] x) => "
              "(float[281474976710656, 281474976710656] y) {\n  y = Relu(x)\n}\n"))
    case("negative-dim", "error",
         text("g (float[-3] x) => (float[-3] y) {\n  y = Relu(x)\n}\n"))
    case("cycle", "error",
         text("g (float[2] x) => (float[2] y) {\n  a = Relu(b)\n  b = Relu(a)\n"
              "  y = Add(a, x)\n}\n"))
    case("undefined-value", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(nope)\n}\n"))
    case("output-twice", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(x)\n  y = Neg(x)\n}\n"))
    case("output-shadows-input", "error",
         text("g (float[2] x) => (float[2] y) {\n  x = Relu(x)\n  y = Neg(x)\n}\n"))
    case("opset-huge", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n",
              '<ir_version: 8, opset_import: ["" : 9999999999]>\n'))
    case("opset-zero", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n",
              '<ir_version: 8, opset_import: ["" : 0]>\n'))
    case("ir-huge", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n",
              '<ir_version: 9223372036854775807, opset_import: ["" : 17]>\n'))
    # A node of an unknown domain is a custom op (docs/custom-ops.md): it
    # compiles to a call of the user's kernel (an error only when linking
    # without it); without a declared output type it is an error.
    case("unknown-domain-used", "ok",
         text("g (float[2] x) => (float[2] y) {\n  y = com.evil.Pwn(x)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "com.evil" : 1]>\n'))
    case("unknown-domain-untyped", "error",
         text("g (float[2] x) => (float[2] y) {\n  a = com.evil.Pwn(x)\n  y = Relu(a)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "com.evil" : 1]>\n'))
    case("if-branch-arity", "error",
         text("g (float[2] x, bool c) => (float[2] y) {\n"
              "  y = If <then_branch = t () => (float[2] a, float[2] b) "
              "{ a = Relu(x)\n b = Neg(x) }, else_branch = e () => (float[2] a) "
              "{ a = Neg(x) }> (c)\n}\n"))
    case("if-branch-types", "error",
         text("g (float[2] x, bool c) => (float[2] y) {\n"
              "  y = If <then_branch = t () => (float[2] a) { a = Relu(x) }, "
              "else_branch = e () => (int64[2] a) { a = Cast<to = 7>(x) }> (c)\n}\n"))
    case("if-float-cond", "error",
         text("g (float[2] x, float c) => (float[2] y) {\n"
              "  y = If <then_branch = t () => (float[2] a) { a = Relu(x) }, "
              "else_branch = e () => (float[2] a) { a = Neg(x) }> (c)\n}\n"))
    case("loop-body-arity", "error",
         text("g (float[2] x, int64 n, bool c) => (float[2] y) {\n"
              "  y = Loop(n, c, x) <body = b (int64 i, bool ci) => (bool co, float[2] w) "
              "{ co = Identity(ci)\n w = Relu(x) }>\n}\n"))
    case("loop-float-cond", "error",
         text("g (float[2] x, int64 n, float c) => (float[2] y) {\n"
              "  y = Loop(n, c, x) <body = b (int64 i, bool ci, float[2] v) => "
              "(bool co, float[2] w) { co = Identity(ci)\n w = Relu(v) }>\n}\n"))
    case("loop-float-trip-count", "error",
         text("g (float[2] x, float n, bool c) => (float[2] y) {\n"
              "  y = Loop(n, c, x) <body = b (int64 i, bool ci, float[2] v) => "
              "(bool co, float[2] w) { co = Identity(ci)\n w = Relu(v) }>\n}\n"))
    case("scan-num-scan-inputs", "error",
         text("g (float[3, 2] x) => (float[3, 2] y) {\n"
              "  y = Scan<num_scan_inputs = 5, body = b (float[2] e) => (float[2] o) "
              "{ o = Relu(e) }>(x)\n}\n"))
    case("resize-scale-zero", "error",
         text("g (float[1, 1, 4, 4] x) => (float[1, 1, 4, 0] y) {\n"
              "  s = Constant<value = float[4] {1.0, 1.0, 1.0, 0.0}>()\n"
              "  y = Resize(x, , s)\n}\n"))
    case("resize-scale-negative", "error",
         text("g (float[1, 1, 4, 4] x) => (float[1, 1, 4, 4] y) {\n"
              "  s = Constant<value = float[4] {1.0, 1.0, 1.0, -1.0}>()\n"
              "  y = Resize(x, , s)\n}\n"))
    case("resize-scale-huge", "any",
         text("g (float[1, 1, 4, 4] x) => (float[1, 1, ?, ?] y) {\n"
              "  s = Constant<value = float[4] {1.0, 1.0, 1e9, 1e9}>()\n"
              "  y = Resize(x, , s)\n}\n"))
    case("convtranspose-output-padding", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 3, 3] w) => (float[1, 1, 11, 11] y) {\n"
              "  y = ConvTranspose<strides = [2, 2], output_padding = [5, 5]>(x, w)\n}\n"))
    case("conv-stride-zero", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 3, 3] w) => (float[1, 1, 2, 2] y) {\n"
              "  y = Conv<strides = [0, 0]>(x, w)\n}\n"))
    case("conv-kernel-larger", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 5, 5] w) => (float[1, 1, 1, 1] y) {\n"
              "  y = Conv(x, w)\n}\n"))
    case("conv-pads-huge", "any",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 3, 3] w) => (float[1, 1, ?, ?] y) {\n"
              "  y = Conv<pads = [1099511627776, 1099511627776, 1099511627776, "
              "1099511627776]>(x, w)\n}\n"))
    case("conv-group-zero", "error",
         text("g (float[1, 2, 4, 4] x, float[2, 1, 3, 3] w) => (float[1, 2, 2, 2] y) {\n"
              "  y = Conv<group = 0>(x, w)\n}\n"))
    case("conv-group-mismatch", "error",
         text("g (float[1, 3, 4, 4] x, float[2, 1, 3, 3] w) => (float[1, 2, 2, 2] y) {\n"
              "  y = Conv<group = 2>(x, w)\n}\n"))
    case("gather-axis-huge", "error",
         text("g (float[2, 3] x, int64[2] i) => (float[2, 2] y) {\n"
              "  y = Gather<axis = 1000>(x, i)\n}\n"))
    case("transpose-perm-repeat", "error",
         text("g (float[2, 3] x) => (float[3, 2] y) {\n"
              "  y = Transpose<perm = [0, 0]>(x)\n}\n"))
    case("concat-axis-huge", "error",
         text("g (float[2, 3] x) => (float[4, 3] y) {\n"
              "  y = Concat<axis = 100>(x, x)\n}\n"))
    case("concat-dims", "error",
         text("g (float[2, 3] x, float[2, 4] z) => (float[4, 3] y) {\n"
              "  y = Concat<axis = 0>(x, z)\n}\n"))
    case("split-sizes", "error",
         text("g (float[6] x) => (float[2] a, float[2] b) {\n"
              "  s = Constant<value = int64[2] {2, 2}>()\n"
              "  a, b = Split<axis = 0>(x, s)\n}\n"))
    case("split-negative-size", "error",
         text("g (float[6] x) => (float[8] a, float[-2] b) {\n"
              "  s = Constant<value = int64[2] {8, -2}>()\n"
              "  a, b = Split<axis = 0>(x, s)\n}\n"))
    case("reshape-allowzero-5", "error",
         text("g (float[2, 3] x) => (float[3, 2] y) {\n"
              "  s = Constant<value = int64[2] {3, 2}>()\n"
              "  y = Reshape<allowzero = 5>(x, s)\n}\n"))
    case("reshape-two-minus-one", "error",
         text("g (float[2, 4] x) => (float[?, ?] y) {\n"
              "  s = Constant<value = int64[2] {-1, -1}>()\n"
              "  y = Reshape(x, s)\n}\n"))
    case("reshape-count", "error",
         text("g (float[8] x) => (float[3, ?] y) {\n"
              "  s = Constant<value = int64[2] {3, -1}>()\n"
              "  y = Reshape(x, s)\n}\n"))
    case("constantofshape-huge", "any",
         text("g (float[2] x) => (float[?, ?] y) {\n"
              "  s = Constant<value = int64[2] {1099511627776, 1099511627776}>()\n"
              "  y = ConstantOfShape(s)\n}\n"))
    case("constantofshape-negative", "error",
         text("g (float[2] x) => (float[?] y) {\n"
              "  s = Constant<value = int64[1] {-5}>()\n"
              "  y = ConstantOfShape(s)\n}\n"))
    case("expand-huge", "any",
         text("g (float[1] x) => (float[?, ?] y) {\n"
              "  s = Constant<value = int64[2] {1099511627776, 1099511627776}>()\n"
              "  y = Expand(x, s)\n}\n"))
    case("tile-huge", "any",
         text("g (float[2] x) => (float[?] y) {\n"
              "  r = Constant<value = int64[1] {4611686018427387904}>()\n"
              "  y = Tile(x, r)\n}\n"))
    case("range-huge", "any",
         text("g (float[1] x) => (int64[?] y) {\n"
              "  a = Constant<value = int64 {0}>()\n"
              "  b = Constant<value = int64 {9223372036854775807}>()\n"
              "  d = Constant<value = int64 {1}>()\n"
              "  y = Range(a, b, d)\n}\n"))
    case("onehot-depth-negative", "error",
         text("g (int64[3] i) => (float[3, ?] y) {\n"
              "  d = Constant<value = int64 {-4}>()\n"
              "  v = Constant<value = float[2] {0.0, 1.0}>()\n"
              "  y = OneHot(i, d, v)\n}\n"))
    case("slice-step-zero", "error",
         text("g (float[6] x) => (float[?] y) {\n"
              "  s = Constant<value = int64[1] {0}>()\n"
              "  e = Constant<value = int64[1] {6}>()\n"
              "  a = Constant<value = int64[1] {0}>()\n"
              "  p = Constant<value = int64[1] {0}>()\n"
              "  y = Slice(x, s, e, a, p)\n}\n"))
    case("squeeze-non-one", "error",
         text("g (float[2, 3] x) => (float[3] y) {\n"
              "  a = Constant<value = int64[1] {0}>()\n"
              "  y = Squeeze(x, a)\n}\n"))
    case("unsqueeze-axis-huge", "error",
         text("g (float[2, 3] x) => (float[2, 3, 1] y) {\n"
              "  a = Constant<value = int64[1] {99}>()\n"
              "  y = Unsqueeze(x, a)\n}\n"))
    case("initializer-short", "error",
         text("g (float[4] x) => (float[4] y) <float[4] w = {1.0, 2.0}> {\n"
              "  y = Add(x, w)\n}\n"))
    case("relu-many-inputs", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(%s)\n}\n"
              % ", ".join(["x"] * 1000)))
    case("add-float-int", "error",
         text("g (float[2] x, int64[2] z) => (float[2] y) {\n  y = Add(x, z)\n}\n"))
    case("matmul-scalars", "error",
         text("g (float x, float z) => (float y) {\n  y = MatMul(x, z)\n}\n"))
    case("cast-to-999", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Cast<to = 999>(x)\n}\n"))
    case("constant-two-values", "error",
         text("g (float[2] x) => (float[2] y) {\n"
              "  c = Constant<value_float = 1.0, value_int = 1>()\n  y = Add(x, c)\n}\n"))
    case("einsum-bad-equation", "error",
         text("g (float[2, 3] x, float[3, 4] z) => (float[2, 4] y) {\n"
              "  y = Einsum<equation = \"ij,jk->ikq\">(x, z)\n}\n"))
    case("pad-mode-bogus", "error",
         text("g (float[2] x) => (float[4] y) {\n"
              "  p = Constant<value = int64[2] {1, 1}>()\n"
              "  y = Pad<mode = \"bogus\">(x, p)\n}\n"))
    case("div-int-by-zero", "any",
         text("g (int64[2] x) => (int64[2] y) {\n"
              "  z = Constant<value = int64[2] {0, 0}>()\n  y = Div(x, z)\n}\n"))
    case("identity-graph", "ok",
         text("g (float[2] x) => (float[2] y) {\n  y = Identity(x)\n}\n"))
    case("no-outputs", "any",
         text("g (float[2] x) => () {\n  y = Relu(x)\n}\n"))
    case("nested-functions", "ok",
         text("g (float[2] x) => (float[2] y) {\n  y = local.f(x)\n}\n"
              '<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
              "f (a) => (b) {\n  t = local.h(a)\n  b = local.h(t)\n}\n"
              '<domain: "local", opset_import: ["" : 17]>\n'
              "h (a) => (b) {\n  b = Relu(a)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "local" : 1]>\n'))
    case("function-calls-itself", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = local.f(x)\n}\n"
              '<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
              "f (a) => (b) {\n  b = local.f(a)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "local" : 1]>\n'))
    case("binary-junk-in-text", "error",
         HEAD.encode() + b"g (float[2] x) => (float[2] y) {\n  y = \x00\x01\xff\x1b[2J(x)\n}\n")


def binary_cases():
    bcase("empty-file", "error", b"")
    bcase("random-bytes", "error", bytes((i * 197 + 13) % 256 for i in range(4096)))
    data = binary(relu())
    for part in (3, 2):
        bcase("truncated-1-%d" % part, "error", data[: len(data) // part])
    # Field 1 (ir_version) as bytes, field 7 (graph) as a varint: protobuf
    # keeps both as unknown fields.
    bcase("ir-version-wrong-wire-type", "error",
         b"\x0a\x03abc" + data[2:] if data[:1] == b"\x08" else b"\x0a\x03abc" + data)
    bcase("graph-wrong-wire-type", "error", b"\x08\x08\x38\x05")
    bcase("zero-tag", "error", data + b"\x00\x01\x02")
    m = relu()
    t = m.graph.initializer.add()
    t.name, t.data_type = "w", 999
    t.dims.append(2)
    m.graph.node[0].input.append("w")
    bcase("initializer-type-999", "error", binary(m))
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    w.dims[0] = -2
    bcase("initializer-negative-dim", "error", binary(model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="a")],
        [vi("x", [2])], [vi("y", [2])], inits=[w])))
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    w.ClearField("float_data")
    w.raw_data = b"\x00" * 7
    bcase("initializer-raw-size", "error", binary(model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="a")],
        [vi("x", [2])], [vi("y", [2])], inits=[w])))
    w = helper.make_tensor("w", TP.FLOAT, [1], [1.0])
    w.ClearField("float_data")
    w.dims[:] = [1 << 20, 1 << 20]
    bcase("initializer-declares-more", "error", binary(model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="a")],
        [vi("x", [2])], [vi("y", None)], inits=[w])))
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    w.ClearField("float_data")
    w.data_location = TP.EXTERNAL
    e = w.external_data.add()
    e.key, e.value = "location", ""
    bcase("external-empty-location", "error", binary(model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="a")],
        [vi("x", [2])], [vi("y", [2])], inits=[w])))
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    w.ClearField("float_data")
    w.data_location = TP.EXTERNAL
    e = w.external_data.add()
    e.key, e.value = "location", "/dev/zero"
    bcase("external-device", "error", binary(model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="a")],
        [vi("x", [2])], [vi("y", [2])], inits=[w])))
    bcase("required-input-empty", "error", binary(model(
        [helper.make_node("Add", ["x", ""], ["y"], name="a")],
        [vi("x", [2])], [vi("y", [2])])))
    bcase("required-output-empty", "error", binary(model(
        [helper.make_node("Relu", ["x"], [""], name="r")],
        [vi("x", [2])], [vi("y", [2])])))
    m = model([helper.make_node("Concat", ["x", "x"], ["y"], name="c", axis=0)],
              [vi("x", [2])], [vi("y", [4])])
    m.graph.node[0].attribute[0].type = 0
    bcase("attribute-undefined", "error", binary(m))
    m = model([helper.make_node("Concat", ["x", "x"], ["y"], name="c", axis=0)],
              [vi("x", [2])], [vi("y", [4])])
    m.graph.node[0].attribute[0].ClearField("i")
    m.graph.node[0].attribute[0].s = b"zero"
    bcase("attribute-wrong-field", "error", binary(m))
    sp = helper.make_sparse_tensor(
        helper.make_tensor("w", TP.FLOAT, [2], [5.0, 6.0]),
        helper.make_tensor("i", TP.INT64, [2], [1, 1000]), [4])
    m = model([helper.make_node("Add", ["x", "w"], ["y"], name="a")],
              [vi("x", [4])], [vi("y", [4])])
    m.graph.sparse_initializer.append(sp)
    bcase("sparse-index-out-of-range", "error", binary(m))
    bcase("opset-negative", "error", binary(relu(opset=-5)))
    bcase("opset-duplicated", "error", binary(relu(opsets=[
        helper.make_opsetid("", 17), helper.make_opsetid("", 13)])))
    m = relu()
    m.graph.value_info.append(vi("y", [1 << 60]))
    bcase("value-info-huge-dim", "any", binary(m))
    m = relu()
    m.graph.input[0].type.Clear()
    bcase("input-type-empty", "error", binary(m))
    m = relu()
    m.graph.node[0].op_type = ""
    bcase("op-type-empty", "error", binary(m))
    m = relu()
    m.graph.node[0].name = "n" * 100000
    m.graph.node[0].op_type = "Nope"
    bcase("name-100k", "error", binary(m))
    m = relu()
    m.graph.output.append(m.graph.output[0])
    bcase("output-listed-twice", "any", binary(m))
    m = relu()
    m.graph.input.append(m.graph.input[0])
    bcase("input-listed-twice", "error", binary(m))
    m = model([helper.make_node("Add", ["x", "s"], ["y"], name="a")],
              [vi("x", [2])], [vi("y", [2])],
              inits=[helper.make_tensor("s", TP.STRING, [2], [b"a", b"b"])])
    bcase("add-string", "error", binary(m))
    m = model([helper.make_node("Relu", ["x"], ["y"], name="r")],
              [vi("x", [2])], [vi("y", [2])])
    m.graph.input[0].type.tensor_type.elem_type = 12345
    bcase("elem-type-12345", "error", binary(m))
    m = relu()
    m.functions.add().CopyFrom(helper.make_function(
        "local", "f", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])],
        [helper.make_opsetid("", 17)]))
    m.functions.add().CopyFrom(m.functions[0])
    bcase("function-twice", "error", binary(m))
    m = model([helper.make_node("f", ["x", "x", "x"], ["y"], domain="local", name="call")],
              [vi("x", [2])], [vi("y", [2])],
              opsets=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    m.functions.add().CopyFrom(helper.make_function(
        "local", "f", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])],
        [helper.make_opsetid("", 17)]))
    bcase("function-too-many-inputs", "error", binary(m))
    # Sequences of sequences, optionals of optionals: the spec's type
    # constraints allow neither.
    seq2 = helper.make_sequence_type_proto(helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(TP.FLOAT, [2])))
    m = model([helper.make_node("SequenceConstruct", ["x"], ["s"], name="s1"),
               helper.make_node("SequenceConstruct", ["s"], ["y"], name="s2")],
              [vi("x", [2])], [helper.make_value_info("y", seq2)])
    bcase("sequence-of-sequences", "error", binary(m))
    opt2 = helper.make_optional_type_proto(helper.make_optional_type_proto(
        helper.make_tensor_type_proto(TP.FLOAT, [2])))
    m = model([helper.make_node("Optional", ["x"], ["o"], name="o1"),
               helper.make_node("Optional", ["o"], ["y"], name="o2")],
              [vi("x", [2])], [helper.make_value_info("y", opt2)])
    bcase("optional-of-optional", "error", binary(m))
    # 100 SequenceConstructs, each wrapping the last: types as deep as the
    # graph is long.
    nodes = [helper.make_node("SequenceConstruct", ["x" if i == 0 else "s%d" % (i - 1)],
                              ["s%d" % i]) for i in range(100)]
    m = model(nodes, [vi("x", [2])], [helper.make_value_info(
        "s99", helper.make_sequence_type_proto(
            helper.make_tensor_type_proto(TP.FLOAT, [2])))])
    bcase("sequence-chain-100", "error", binary(m))
    nodes = [helper.make_node("Relu", ["x" if i == 0 else "t%d" % (i - 1)],
                              ["t%d" % i if i < 1999 else "y"]) for i in range(2000)]
    bcase("chain-2000", "ok", binary(model(nodes, [vi("x", [2])], [vi("y", [2])])))


def run(onnxc, path, stage, out, timeout):
    def limit():
        # Not under ASan (ONNXC_SANITIZED, test/lit.cfg.py): its shadow
        # memory needs the address space.
        if not os.environ.get("ONNXC_SANITIZED"):
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    args = [onnxc, path, "--emit=" + stage, "-o",
            os.devnull if stage not in ("obj", "header", "lib") else out]
    try:
        p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return "timeout", "timed out after %ss" % timeout
    err = p.stderr
    lines = [l for l in err.split(b"\n") if l and not l.startswith(b"onnxc: warning: ")]
    printable = all(b >= 0x20 and b != 0x7f for l in lines for b in l)
    if p.returncode == 0 and not lines:
        return "ok", ""
    if (p.returncode == 1 and len(lines) == 1 and printable and
            lines[0].startswith(b"onnxc: error: ") and err.endswith(b"\n")):
        return "error", lines[0].decode("utf-8", "replace")
    return "bad", "exit %d, stderr %r" % (p.returncode, err[:300])


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("onnxc")
    p.add_argument("outdir")
    p.add_argument("--all-stages", action="store_true")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--only")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    text_cases()
    binary_cases()
    adversarial_more.add(sys.modules[__name__])
    os.makedirs(args.outdir, exist_ok=True)
    cases = [c for c in CASES if not args.only or c[0] == args.only or
             (args.only.endswith("*") and c[0].startswith(args.only[:-1]))]
    paths = {}
    for name, _, data, ext in cases:
        paths[name] = os.path.join(args.outdir, name + ext)
        with open(paths[name], "wb") as f:
            f.write(data)

    def one(c):
        name = c[0]
        results = []
        stages = ALL_STAGES if args.all_stages else ["onnx"]
        for stage in stages:
            out = os.path.join(args.outdir, "%s-%s.out" % (name, stage))
            results.append((stage,) + run(args.onnxc, paths[name], stage, out,
                                          args.timeout))
        if not args.all_stages and results[-1][1] == "ok":
            for stage in ["linalg", "llvm", "obj"]:
                out = os.path.join(args.outdir, "%s-%s.out" % (name, stage))
                results.append((stage,) + run(args.onnxc, paths[name], stage, out,
                                              args.timeout))
                if results[-1][1] != "ok":
                    break
        return c, results

    counts, failures = {}, []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for (name, expect, _, _), results in pool.map(one, cases):
            for stage, outcome, detail in results:
                counts[outcome] = counts.get(outcome, 0) + 1
                if args.verbose:
                    print("%-32s %-8s %-7s %s" % (name, stage, outcome, detail))
                if outcome not in ("ok", "error"):
                    failures.append("%s --emit=%s: %s: %s" % (name, stage, outcome, detail))
            final = results[-1][1]
            if expect in ("ok", "error") and final != expect:
                failures.append("%s: expected %s, got %s at --emit=%s (%s)" % (
                    name, expect, final, results[-1][0], results[-1][2]))
    for f in failures:
        print("FAIL: " + f)
    print("adversarial: %d cases, %d runs: %d ok, %d one-line errors, %d bad, "
          "%d timeouts, %d expectation failures" % (
              len(cases), sum(counts.values()), counts.get("ok", 0),
              counts.get("error", 0), counts.get("bad", 0),
              counts.get("timeout", 0),
              sum(1 for f in failures if ": expected " in f)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

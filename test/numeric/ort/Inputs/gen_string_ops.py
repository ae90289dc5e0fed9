#!/usr/bin/python3
"""String tensors and the string ops with ONNX Runtime as the oracle.

    gen_string_ops.py write DIR          DIR/strings/<case>/model.onnx and
                                         test_data_set_0/input_<i>.pb
    gen_string_ops.py oracle DIR CMD...  runs CMD MODEL --inputs SET --save SET
                                         (ort_run.js) on every case: the
                                         expected outputs

The layout is the conformance runner's (--data DIR --suites strings).
Cases: string graph inputs and outputs through the ops that only move
elements (Identity, Reshape, Transpose, Concat, Gather, Slice, Squeeze,
Unsqueeze, Flatten, Where, Expand, Tile), string Constants; Cast from
and to string (float, double, float16, int8..int64, uint8..uint64, bool;
from string also bfloat16, through float32;
from the float types numpy is the reference: NUMPY_REF below);
StringNormalizer (every case action, case-sensitive and not, stopwords, the
empty result, [C] and [1, C]); StringConcat (broadcast); StringSplit
(delimiters, whitespace, maxsplit); RegexFullMatch (RE2 classes, groups,
alternation, repetition); ai.onnx.ml LabelEncoder with string keys and/or
values, CategoryMapper both ways. Non-ASCII UTF-8 appears in every op that
reads bytes.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

NP = {np.float32: T.FLOAT, np.float64: T.DOUBLE, np.float16: T.FLOAT16,
      np.int64: T.INT64, np.int32: T.INT32, np.int16: T.INT16, np.int8: T.INT8,
      np.uint8: T.UINT8, np.uint16: T.UINT16, np.uint32: T.UINT32,
      np.uint64: T.UINT64, np.bool_: T.BOOL, np.object_: T.STRING}


def strs(*values):
    return np.array(values, dtype=object)


def model(name, nodes, inputs, outputs, opset=20, ml=False):
    """`inputs` [(name, array)], `outputs` [(name, elem type)] of unknown
    shape."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, NP[a.dtype.type], a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs])
    opsets = [helper.make_opsetid("", opset)]
    if ml:
        opsets.append(helper.make_opsetid("ai.onnx.ml", 3))
    m = helper.make_model(graph, opset_imports=opsets)
    m.ir_version = 9
    return m, [a for _, a in inputs]


def node(op, ins, outs, domain="", **attrs):
    return helper.make_node(op, ins, outs, domain=domain, **attrs)


WORDS = strs("monday", "Tuesday", "", "wednesday", "thursday", "Straße",
             "ÉCOLE", "δέλτα", "Привет", "x y")


def movement_cases():
    a = WORDS[:6].reshape(2, 3)
    b = strs("p", "q", "r").reshape(1, 3)
    yield "identity", model("identity", [node("Identity", ["a"], ["y"])],
                            [("a", a)], [("y", T.STRING)])
    shape = numpy_helper.from_array(np.array([3, 2], np.int64), "s")
    yield "reshape_transpose", model("rt", [
        node("Constant", [], ["s"], value=shape),
        node("Reshape", ["a", "s"], ["r"]),
        node("Transpose", ["r"], ["y"], perm=[1, 0])],
        [("a", a)], [("y", T.STRING)])
    yield "concat_gather", model("cg", [
        node("Concat", ["a", "b"], ["c"], axis=0),
        node("Constant", [], ["i"],
             value=numpy_helper.from_array(np.array([2, 0, 0], np.int64), "i")),
        # Axis 1: ONNX Runtime 1.30's Gather of strings along axis 0 copies
        # only the first string of each gathered row (onnxc gathers whole
        # rows, as the spec says; test/e2e/strings covers it).
        node("Gather", ["c", "i"], ["y"], axis=1)],
        [("a", a), ("b", b)], [("y", T.STRING)])
    starts = numpy_helper.from_array(np.array([1], np.int64), "st")
    ends = numpy_helper.from_array(np.array([3], np.int64), "en")
    axes = numpy_helper.from_array(np.array([1], np.int64), "ax")
    yield "slice_squeeze", model("ss", [
        node("Constant", [], ["st"], value=starts),
        node("Constant", [], ["en"], value=ends),
        node("Constant", [], ["ax"], value=axes),
        node("Slice", ["a", "st", "en", "ax"], ["s"]),
        node("Unsqueeze", ["s", "ax"], ["u"]),
        node("Squeeze", ["u", "ax"], ["q"]),
        node("Flatten", ["q"], ["y"], axis=0)],
        [("a", a)], [("y", T.STRING)])
    cond = np.array([[True, False, True], [False, False, True]])
    yield "where", model("where", [node("Where", ["c", "a", "b"], ["y"])],
        [("c", cond), ("a", a), ("b", strs("monday", "x", "").reshape(1, 3))],
        [("y", T.STRING)])
    reps = numpy_helper.from_array(np.array([2, 1], np.int64), "reps")
    yield "tile_expand", model("te", [
        node("Constant", [], ["reps"], value=reps),
        node("Tile", ["b", "reps"], ["t"]),
        node("Constant", [], ["es"],
             value=numpy_helper.from_array(np.array([2, 2, 3], np.int64), "es")),
        node("Expand", ["b", "es"], ["y"])],
        [("b", b)], [("t", T.STRING), ("y", T.STRING)])
    k = helper.make_tensor("k", T.STRING, [2, 2],
                           [s.encode() for s in ["k0", "", "κλειδί", "k3"]])
    yield "constant", model("const", [
        node("Constant", [], ["k"], value=k),
        node("Constant", [], ["one"], value_string="single"),
        node("Constant", [], ["many"], value_strings=["m0", "m1"]),
        node("Concat", ["k", "x"], ["y"], axis=1),
        node("Identity", ["one"], ["z"]),
        node("Identity", ["many"], ["w"])],
        [("x", strs("a", "b").reshape(2, 1))],
        [("y", T.STRING), ("z", T.STRING), ("w", T.STRING)])


# Cases whose expected outputs are numpy's, not ONNX Runtime's: Cast and
# CastLike from a float type to string. The ONNX reference implementation
# (and the ONNX backend test data) writes x.astype(numpy.str_), the shortest
# digits that round-trip in the source type ("0.6048455", "1.0", "1e-07",
# "nan", "-inf"); ONNX Runtime 1.30 writes printf %.8g ("0.60484552", "1",
# "NaN", "-INF"). onnxc follows the spec's reference (docs/strings.md).
NUMPY_REF = {}


def cast_cases(rng):
    floats = np.array([0.5, -1.25, 3.0e10, 1.0e-7, 123456789.0, np.nan, np.inf,
                       -np.inf, 0.0, 0.1, 0.6048455, 1e-4, 1e16, -0.0,
                       16777218.0, 1.4e-45, 3.4028235e38], np.float32)
    values = {
        "float": floats,
        "double": np.array([0.1, -2.5, 1.0e20, 3.14159265358979, 1e-300,
                            1e-4, 1e16, 9999999999999998.0, 5e-324, 1.0,
                            0.6048455238342285], np.float64),
        "float16": np.array([0.5, -1.5, 1000.0, 0.0999, 65504.0, 6e-08,
                             0.0001, 1e-4 * 0.9, np.nan, -np.inf, 2049.0],
                            np.float16),
        "int8": np.array([-128, 0, 127], np.int8),
        "int16": np.array([-32768, 5, 32767], np.int16),
        "int32": np.array([-2147483648, 7, 2147483647], np.int32),
        "int64": np.array([-9223372036854775808, 0, 9223372036854775807], np.int64),
        "uint8": np.array([0, 255], np.uint8),
        "uint16": np.array([0, 65535], np.uint16),
        "uint32": np.array([0, 4294967295], np.uint32),
        "uint64": np.array([0, 18446744073709551615], np.uint64),
        "bool": np.array([True, False]),
    }
    for name, a in values.items():
        case = "cast_%s_to_string" % name
        if a.dtype.kind == "f":
            NUMPY_REF[case] = [a.astype(np.str_).astype(object)]
        yield case, model(
            "c", [node("Cast", ["x"], ["y"], to=T.STRING)], [("x", a)],
            [("y", T.STRING)])
    parse = {
        "float": (T.FLOAT, strs("1.5", "-2.25e3", "INF", "-inf", "+INF", "NaN",
                                "1e-5", " 7", "0x10")),
        "double": (T.DOUBLE, strs("3.141592653589793", "-1E300", "2")),
        "float16": (T.FLOAT16, strs("0.1", "65504", "-3")),
        "int64": (T.INT64, strs("-9223372036854775808", "42", "100.5", "+7")),
        "int32": (T.INT32, strs("-5", "2147483647")),
        "int8": (T.INT8, strs("-128", "12")),
        "uint8": (T.UINT8, strs("200", "0")),
        "uint64": (T.UINT64, strs("18446744073709551615", "3")),
        "int16": (T.INT16, strs("-32768", "32767", "-7")),
        "uint16": (T.UINT16, strs("65535", "0", "9")),
        "uint32": (T.UINT32, strs("4294967295", "1")),
        "bool": (T.BOOL, strs("0", "1", "5", " 0")),
    }
    for name, (to, a) in parse.items():
        yield "cast_string_to_%s" % name, model(
            "c", [node("Cast", ["x"], ["y"], to=to)], [("x", a)], [("y", to)])
    # bfloat16 (through float32: ORT's Node binding has no bfloat16 tensor).
    yield "cast_string_to_bfloat16", model("c", [
        node("Cast", ["x"], ["b"], to=T.BFLOAT16),
        node("Cast", ["b"], ["y"], to=T.FLOAT)],
        [("x", strs("0.1", "-3.5e10", "inf", "NaN", "1.00390625", "1e-40"))],
        [("y", T.FLOAT)])
    like = numpy_helper.from_array(strs("x"), "like")
    NUMPY_REF["castlike_float_to_string"] = [
        floats[:5].reshape(5, 1).astype(np.str_).astype(object)]
    yield "castlike_float_to_string", model("cl", [
        node("Constant", [], ["like"], value=like),
        node("CastLike", ["x", "like"], ["y"])],
        [("x", floats[:5].reshape(5, 1))], [("y", T.STRING)])


def normalizer_cases():
    x = strs("monday", "Tuesday", "MONDAY", "Straße", "ÉCOLE", "δέλτα",
             "Привет", "", "wednesday")
    for action in ["NONE", "LOWER", "UPPER"]:
        for sensitive in [0, 1]:
            name = "strnorm_%s_%s" % (action.lower(), "cs" if sensitive else "ci")
            yield name, model(name, [node(
                "StringNormalizer", ["x"], ["y"], case_change_action=action,
                is_case_sensitive=sensitive, stopwords=["monday", "école"],
                locale="C")], [("x", x)], [("y", T.STRING)])
    yield "strnorm_2d_upper", model("n2", [node(
        "StringNormalizer", ["x"], ["y"], case_change_action="UPPER",
        locale="C")], [("x", x[:4].reshape(1, 4))], [("y", T.STRING)])
    yield "strnorm_empty", model("ne", [node(
        "StringNormalizer", ["x"], ["y"], stopwords=["a", "b"],
        case_change_action="LOWER", locale="C")],
        [("x", strs("a", "b", "A"))], [("y", T.STRING)])


def concat_split_cases():
    yield "strconcat_broadcast", model("sc", [node("StringConcat", ["a", "b"], ["y"])],
                                       [("a", WORDS[:6].reshape(2, 3)),
                                        ("b", strs("_x", "", "é"))],
                                       [("y", T.STRING)])
    x = strs("a,b,,c", "", "one", ",lead", "trail,", "é,ü,ö")
    yield "strsplit_comma", model("s1", [node("StringSplit", ["x"], ["y", "z"],
                                              delimiter=",")],
                                  [("x", x)], [("y", T.STRING), ("z", T.INT64)])
    yield "strsplit_comma_max1", model("s2", [node("StringSplit", ["x"], ["y", "z"],
                                                   delimiter=",", maxsplit=1)],
                                       [("x", x.reshape(2, 3))],
                                       [("y", T.STRING), ("z", T.INT64)])
    ws = strs("  hello   world ", "a\tb\nc", "", "   ", "single")
    yield "strsplit_whitespace", model("s3", [node("StringSplit", ["x"], ["y", "z"])],
                                       [("x", ws)], [("y", T.STRING), ("z", T.INT64)])
    yield "strsplit_multichar", model("s4", [node("StringSplit", ["x"], ["y", "z"],
                                                  delimiter="--")],
                                      [("x", strs("a--b----c", "--", "x-y"))],
                                      [("y", T.STRING), ("z", T.INT64)])


def equal_cases():
    # Equal-19 on strings: by content (UTF-8 bytes), broadcast; equal
    # strings at different addresses, "" against "", case differences.
    a = strs("monday", "", "Straße", "x y", "ÉCOLE", "abc")
    b = strs("monday", "", "strasse", "x  y", "ÉCOLE", "abd")
    yield "equal_strings", model("eq", [node("Equal", ["a", "b"], ["y"])],
                                 [("a", a.reshape(2, 3)), ("b", b.reshape(2, 3))],
                                 [("y", T.BOOL)], opset=19)
    yield "equal_strings_broadcast", model(
        "eqb", [node("Equal", ["a", "b"], ["y"])],
        [("a", WORDS.reshape(2, 5)), ("b", strs("monday", "x y", "", "δέλτα", "Thursday"))],
        [("y", T.BOOL)], opset=19)


def regex_cases():
    x = strs("www.google.com", "www.facebook.com", "www.bbc.co.uk", "abc",
             "123-4567", "12-34567", "", "aaab", "ab", "Café")
    for i, pattern in enumerate([
            r"www\.[\w.-]+\.com",
            r"\d{3}-\d{4}",
            r"(?:ab)+|a*b",
            r"[a-z]+",
            r"[^0-9]*",
            r"Caf.+|.*\.uk",
            r"(www|abc)(\.[a-z]+)*"]):
        yield "regex_%d" % i, model("r", [node("RegexFullMatch", ["x"], ["y"],
                                               pattern=pattern)],
                                    [("x", x.reshape(2, 5))], [("y", T.BOOL)])


def ml_cases():
    s = strs("cat", "dog", "eel", "", "Ünï", "cow").reshape(2, 3)
    le = lambda **kw: node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", **kw)
    yield "labelenc_str_int", model("l1", [le(
        keys_strings=["dog", "cat", "Ünï"], values_int64s=[1, 2, 3],
        default_int64=-7)], [("x", s)], [("y", T.INT64)], opset=17, ml=True)
    yield "labelenc_str_str", model("l2", [le(
        keys_strings=["dog", "cat", "", "cow"], values_strings=["D", "C", "E", "W"],
        default_string="??")], [("x", s)], [("y", T.STRING)], opset=17, ml=True)
    yield "labelenc_str_float", model("l3", [le(
        keys_strings=["eel", "cat"], values_floats=[0.5, -1.0])],
        [("x", s)], [("y", T.FLOAT)], opset=17, ml=True)
    yield "labelenc_int_str", model("l4", [le(
        keys_int64s=[3, 1, 9], values_strings=["three", "one", "nine"])],
        [("x", np.array([[1, 2, 3], [9, 9, -1]], np.int64))], [("y", T.STRING)],
        opset=17, ml=True)
    yield "labelenc_float_str", model("l5", [le(
        keys_floats=[0.5, 1.5], values_strings=["half", "one and a half"])],
        [("x", np.array([0.5, 1.5, 2.5], np.float32))], [("y", T.STRING)],
        opset=17, ml=True)
    yield "onehot_str", model("oh", [node(
        "OneHotEncoder", ["x"], ["y"], domain="ai.onnx.ml",
        cats_strings=["cat", "dog", "Ünï", "cow"], zeros=1)],
        [("x", s)], [("y", T.FLOAT)], opset=17, ml=True)
    x = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, -1.0], [2.0, 0.0]],
                 np.float32)
    yield "linclf_str_3c", model("lc3", [node(
        "LinearClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
        coefficients=[1.0, 0.5, -1.0, 2.0, 0.3, -0.7], intercepts=[0.1, -0.2, 0.0],
        classlabels_strings=["alpha", "beta", "gamma"], post_transform="SOFTMAX")],
        [("x", x)], [("y", T.STRING), ("z", T.FLOAT)], opset=17, ml=True)
    yield "linclf_str_binary", model("lc2", [node(
        "LinearClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
        coefficients=[1.0, -0.5], intercepts=[0.1],
        classlabels_strings=["no", "yes"], post_transform="LOGISTIC")],
        [("x", x)], [("y", T.STRING), ("z", T.FLOAT)], opset=17, ml=True)
    yield "svmclf_str", model("svm", [node(
        "SVMClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
        kernel_type="LINEAR", kernel_params=[0.0, 0.0, 0.0],
        coefficients=[1.0, -0.5, 0.25, 0.5, -1.0, 0.3], rho=[0.1],
        classlabels_strings=["a", "b", "c"], post_transform="SOFTMAX")],
        [("x", x)], [("y", T.STRING), ("z", T.FLOAT)], opset=17, ml=True)
    yield "treeclf_str", model("tc", [node(
        "TreeEnsembleClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
        nodes_treeids=[0, 0, 0, 0, 0], nodes_nodeids=[0, 1, 2, 3, 4],
        nodes_featureids=[0, 1, 0, 0, 0], nodes_values=[0.75, 0.0, 0, 0, 0],
        nodes_modes=["BRANCH_LEQ", "BRANCH_LEQ", "LEAF", "LEAF", "LEAF"],
        nodes_truenodeids=[1, 2, 0, 0, 0], nodes_falsenodeids=[4, 3, 0, 0, 0],
        class_treeids=[0, 0, 0], class_nodeids=[2, 3, 4], class_ids=[0, 1, 2],
        class_weights=[1.0, 1.0, 1.0], classlabels_strings=["low", "mid", "high"])],
        [("x", x)], [("y", T.STRING), ("z", T.FLOAT)], opset=17, ml=True)
    cm = lambda **kw: node("CategoryMapper", ["x"], ["y"], domain="ai.onnx.ml",
                           cats_strings=["cat", "dog", "Ünï"],
                           cats_int64s=[10, 20, 30], **kw)
    yield "catmap_str_int", model("c1", [cm(default_int64=99)], [("x", s)],
                                  [("y", T.INT64)], opset=17, ml=True)
    yield "catmap_int_str", model("c2", [cm(default_string="none")],
                                  [("x", np.array([[10, 30, 5]], np.int64))],
                                  [("y", T.STRING)], opset=17, ml=True)


def cases():
    rng = np.random.default_rng(7)
    yield from movement_cases()
    yield from cast_cases(rng)
    yield from normalizer_cases()
    yield from concat_split_cases()
    yield from regex_cases()
    yield from equal_cases()
    yield from ml_cases()


def write(root):
    for name, (m, inputs) in cases():
        d = os.path.join(root, "strings", name)
        s = os.path.join(d, "test_data_set_0")
        os.makedirs(s, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        for i, a in enumerate(inputs):
            t = numpy_helper.from_array(a, m.graph.input[i].name)
            with open(os.path.join(s, "input_%d.pb" % i), "wb") as f:
                f.write(t.SerializeToString())
        for i, a in enumerate(NUMPY_REF.get(name, [])):
            t = numpy_helper.from_array(a, m.graph.output[i].name)
            with open(os.path.join(s, "output_%d.pb" % i), "wb") as f:
                f.write(t.SerializeToString())


def oracle(root, cmd):
    suite = os.path.join(root, "strings")
    list(cases())  # fills NUMPY_REF
    for name in sorted(os.listdir(suite)):
        d = os.path.join(suite, name)
        s = os.path.join(d, "test_data_set_0")
        if name in NUMPY_REF:
            print("%s: numpy reference" % name)
            continue
        r = subprocess.run(cmd + [os.path.join(d, "model.onnx"), "--inputs", s,
                                  "--save", s], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s: %s" % (name, (r.stderr or r.stdout).strip()))
        print("%s: %s" % (name, r.stdout.strip().replace("\n", "; ")))


def main(argv):
    if len(argv) == 3 and argv[1] == "write":
        write(argv[2])
    elif len(argv) >= 4 and argv[1] == "oracle":
        oracle(argv[2], " ".join(argv[3:]).split())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

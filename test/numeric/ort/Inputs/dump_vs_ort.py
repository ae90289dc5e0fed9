"""onnxc --debug-dump against ONNX Runtime (test/numeric/ort/debug-dump*.test).

    dump_vs_ort.py expose MODEL OUT       OUT: MODEL with every node output
                                          (main graph, tensors) also a graph
                                          output, for ORT
    dump_vs_ort.py compare MODEL EXPOSED DUMP_DIR ORT_DIR [--rtol R --atol A]
    dump_vs_ort.py dtypes-model OUT       a small model whose intermediates
                                          cover .npy's dtypes, a symbolic dim
                                          and a sequence (not dumpable)

compare: DUMP_DIR/manifest.json (onnxc's dump of MODEL's run) names every
tensor output of every node but Constant once (call 0) with a file, or as
skipped with a reason; each file is an .npy whose dtype and shape are ORT's
and whose values match ORT's output_<k>.pb of EXPOSED (numpy.allclose,
integers and bools exactly). Prints the skipped ones and "OK: N
intermediates match ONNX Runtime" (exit 0), else each mismatch (exit 1).
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def node_outputs(graph):
    for n in graph.node:
        if n.op_type == "Constant":
            continue
        for i, o in enumerate(n.output):
            if o:
                yield n, i, o


def expose(model_path, out_path):
    m = onnx.load(model_path)
    inferred = onnx.shape_inference.infer_shapes(m)
    types = {v.name: v.type for v in list(inferred.graph.value_info) +
             list(inferred.graph.output) + list(inferred.graph.input)}
    existing = {o.name for o in m.graph.output}
    for _, _, name in node_outputs(m.graph):
        t = types.get(name)
        if name in existing or t is None or not t.HasField("tensor_type"):
            continue
        v = onnx.ValueInfoProto()
        v.name = name
        v.type.tensor_type.elem_type = t.tensor_type.elem_type
        m.graph.output.append(v)
    onnx.save(m, out_path)


def compare(model_path, exposed_path, dump_dir, ort_dir, rtol, atol):
    graph = onnx.load(model_path).graph
    exposed = [o.name for o in onnx.load(exposed_path).graph.output]
    with open(os.path.join(dump_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    errors, skipped, matched = [], [], 0
    if not manifest.get("complete"):
        errors.append("the manifest is not complete")
    entries = {}
    for e in manifest["entries"]:
        if e["call"] == 0:
            key = (e["node"], e["output"])
            if key in entries:
                errors.append("%r output %d listed twice" % key)
            entries[key] = e
    for n, i, name in node_outputs(graph):
        e = entries.pop((n.name, i), None)
        if e is None:
            errors.append("node %r (%s) output %d is not in the manifest" %
                          (n.name, n.op_type, i))
            continue
        if e["op"] != n.op_type:
            errors.append("node %r: op %r in the manifest" % (n.name, e["op"]))
        if "skipped" in e:
            skipped.append("%s output %d: %s" % (n.name, i, e["skipped"]))
            continue
        got = np.load(os.path.join(dump_dir, e["file"]))
        if name not in exposed:
            errors.append("node %r output %r: ORT has no such output" % (n.name, name))
            continue
        t = onnx.TensorProto()
        with open(os.path.join(ort_dir, "output_%d.pb" % exposed.index(name)), "rb") as f:
            t.ParseFromString(f.read())
        want = numpy_helper.to_array(t)
        if list(got.shape) != list(e["shape"]):
            errors.append("%s: the manifest says %r, the file %r" %
                          (e["file"], e["shape"], got.shape))
        if got.dtype != want.dtype or got.shape != want.shape:
            errors.append("node %r output %d: %s%s, ORT %s%s" % (
                n.name, i, got.dtype, got.shape, want.dtype, want.shape))
            continue
        if got.dtype.kind in "fc":
            ok = np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        else:
            ok = np.array_equal(got, want)
        if not ok:
            errors.append("node %r output %d: values differ from ORT's (max |d| %g)" % (
                n.name, i, float(np.max(np.abs(got.astype(np.float64) -
                                               want.astype(np.float64))))))
            continue
        matched += 1
    for (node, i), e in entries.items():
        errors.append("the manifest lists %r output %d, not a node of the graph" % (node, i))
    for s in skipped:
        print("skipped: " + s)
    for e in errors:
        print(e)
    if errors:
        return 1
    print("OK: %d intermediates match ONNX Runtime" % matched)
    return 0


def dtypes_model(out_path):
    """x: float[N, 4] (N symbolic) through Shape, Casts to every .npy dtype
    ORT computes elementwise, a comparison (bool), and a sequence."""
    X = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("Shape", ["r"], ["shape"], name="shape"),
        helper.make_node("Greater", ["x", "r"], ["gt"], name="greater"),
        helper.make_node("Not", ["gt"], ["le"], name="not"),
        helper.make_node("Mul", ["x", "ten"], ["xs"], name="scale"),
        helper.make_node("Relu", ["xs"], ["rs"], name="relu_scaled"),
    ]
    outs = []
    for i, (dt, tag) in enumerate([(TensorProto.DOUBLE, "f64"), (TensorProto.FLOAT16, "f16"),
                                   (TensorProto.INT8, "i8"), (TensorProto.UINT8, "u8"),
                                   (TensorProto.INT16, "i16"), (TensorProto.INT32, "i32"),
                                   (TensorProto.INT64, "i64"), (TensorProto.UINT16, "u16"),
                                   (TensorProto.UINT32, "u32"), (TensorProto.UINT64, "u64")]):
        # Unsigned types from non-negative values (a negative float's cast
        # to them is undefined).
        src = "rs" if tag.startswith("u") else "xs"
        nodes.append(helper.make_node("Cast", [src], ["c_" + tag], name="cast_" + tag, to=dt))
        nodes.append(helper.make_node("Cast", ["c_" + tag], ["b_" + tag], name="back_" + tag,
                                      to=TensorProto.FLOAT))
        outs.append("b_" + tag)
    nodes.append(helper.make_node("Sum", outs, ["sum"], name="sum"))
    nodes.append(helper.make_node("SequenceConstruct", ["x", "r"], ["seq"], name="seq"))
    nodes.append(helper.make_node("SequenceAt", ["seq", "one"], ["at"], name="at"))
    nodes.append(helper.make_node("Add", ["sum", "at"], ["y"], name="add"))
    one = helper.make_tensor("one", TensorProto.INT64, [], [1])
    ten = helper.make_tensor("ten", TensorProto.FLOAT, [], [10.0])
    graph = helper.make_graph(
        nodes, "dtypes", [X],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("le", TensorProto.BOOL, ["N", 4])],
        initializer=[one, ten])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, out_path)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("expose")
    e.add_argument("model")
    e.add_argument("out")
    c = sub.add_parser("compare")
    for k in ("model", "exposed", "dump", "ort"):
        c.add_argument(k)
    c.add_argument("--rtol", type=float, default=1e-3)
    c.add_argument("--atol", type=float, default=1e-5)
    d = sub.add_parser("dtypes-model")
    d.add_argument("out")
    a = p.parse_args()
    if a.cmd == "expose":
        return expose(a.model, a.out)
    if a.cmd == "dtypes-model":
        return dtypes_model(a.out)
    return compare(a.model, a.exposed, a.dump, a.ort, a.rtol, a.atol)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Writes binary models that the ONNX text format cannot express, for the
importer's error tests. usage: make_models.py OUTDIR  (needs python3-onnx)."""
import os
import sys

import onnx
from onnx import TensorProto, helper


def model(nodes, inputs, outputs, inits=(), opset=17, ir=8, **kw):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], **kw)
    m.ir_version = ir
    return m


def vi(name, shape, elt=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elt, shape)


def relu_model(**kw):
    return model([helper.make_node("Relu", ["x"], ["y"], name="r")],
                 [vi("x", [2])], [vi("y", [2])], **kw)


def external(location, length=8, offset=0):
    t = TensorProto()
    t.name = "w"
    t.data_type = TensorProto.FLOAT
    t.dims.append(2)
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v
    return model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                 [vi("x", [2])], [vi("y", [2])], inits=[t])


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda m, n: onnx.save(m, os.path.join(out, n))
    save(relu_model(ir=2), "ir2.onnx")
    save(relu_model(ir=11), "ir11.onnx")
    save(relu_model(opset=26), "opset26.onnx")
    save(relu_model(opset=25), "opset25.onnx")
    # Ops of opsets 22-25 used before their opset, or with what a later
    # version added.
    f = TensorProto.FLOAT
    qkv = [vi(n, [1, 2, 3, 4]) for n in "qkv"]
    save(model([helper.make_node("Attention", ["q", "k", "v"], ["y"], name="att")],
               qkv, [vi("y", None)], opset=22), "attention-opset22.onnx")
    save(model([helper.make_node("Attention", ["q", "k", "v", "", "", "", "n"],
                                 ["y"], name="att")],
               qkv + [vi("n", [1], TensorProto.INT64)], [vi("y", None)], opset=23),
         "attention-nonpad-opset23.onnx")
    save(model([helper.make_node("Attention", ["q", "k", "v"], ["y"], name="att",
                                 left_window_size=2)],
               qkv, [vi("y", None)], opset=24), "attention-window-opset24.onnx")
    save(model([helper.make_node("Swish", ["x"], ["y"], name="sw")],
               [vi("x", [2], f)], [vi("y", None)], opset=23), "swish-opset23.onnx")
    # ai.onnx.ml 4 and 5: TreeEnsemble before opset 5, the deprecated
    # TreeEnsembleRegressor at 5, LabelEncoder's keys_tensor before 4.
    def ml(node, opset, xt=f, yt=f):
        m = model([node], [vi("x", [2, 3], xt)], [vi("y", None, yt)])
        m.opset_import.append(helper.make_opsetid("ai.onnx.ml", opset))
        return m
    import numpy as np
    from onnx import numpy_helper
    tree5 = dict(
        nodes_featureids=[0], nodes_modes=numpy_helper.from_array(
            np.array([0], np.uint8)),
        nodes_splits=numpy_helper.from_array(np.array([0.5], np.float32)),
        nodes_truenodeids=[0], nodes_trueleafs=[1], nodes_falsenodeids=[1],
        nodes_falseleafs=[1], leaf_targetids=[0, 0],
        leaf_weights=numpy_helper.from_array(np.array([1, 2], np.float32)),
        tree_roots=[0], n_targets=1)
    save(ml(helper.make_node("TreeEnsemble", ["x"], ["y"], name="te",
                             domain="ai.onnx.ml", **tree5), 4),
         "tree-ensemble-ml4.onnx")
    save(ml(helper.make_node("TreeEnsembleRegressor", ["x"], ["y"], name="ter",
                             domain="ai.onnx.ml", n_targets=1,
                             nodes_treeids=[0], nodes_nodeids=[0],
                             nodes_featureids=[0], nodes_modes=["LEAF"],
                             nodes_values=[0.0], nodes_truenodeids=[0],
                             nodes_falsenodeids=[0], target_treeids=[0],
                             target_nodeids=[0], target_ids=[0],
                             target_weights=[1.0]), 5),
         "tree-ensemble-regressor-ml5.onnx")
    save(ml(helper.make_node("LabelEncoder", ["x"], ["y"], name="le",
                             domain="ai.onnx.ml",
                             keys_tensor=numpy_helper.from_array(
                                 np.array([1, 2], np.int64)),
                             values_int64s=[3, 4]), 3,
            TensorProto.INT64, TensorProto.INT64),
         "label-encoder-tensor-ml3.onnx")
    # Wrong attribute kind: Concat's axis as a float.
    save(model([helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=1.5)],
               [vi("x", [2])], [vi("y", [4])]), "attr-kind.onnx")
    # Negative and huge dims.
    save(model([helper.make_node("Relu", ["x"], ["y"], name="r")],
               [vi("x", [-3])], [vi("y", None)]), "negative-dim.onnx")
    huge = TensorProto()
    huge.name, huge.data_type = "w", TensorProto.FLOAT
    huge.dims.extend([1 << 30, 1 << 30])
    save(model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
               [vi("x", [2])], [vi("y", None)], inits=[huge]), "huge-dim.onnx")
    # Initializer whose data does not match its shape.
    short = TensorProto()
    short.name, short.data_type = "w", TensorProto.FLOAT
    short.dims.append(4)
    short.float_data.extend([1.0, 2.0])
    save(model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
               [vi("x", [4])], [vi("y", [4])], inits=[short]), "short-data.onnx")
    # External data: fine, missing file, absolute, escaping, symlink outside.
    with open(os.path.join(out, "w.bin"), "wb") as f:
        f.write(bytes([0, 0, 128, 63, 0, 0, 0, 64]))  # 1.0, 2.0
    save(external("w.bin"), "ext-ok.onnx")
    save(external("missing.bin"), "ext-missing.onnx")
    save(external("/etc/passwd"), "ext-absolute.onnx")
    save(external("../w.bin"), "ext-escape.onnx")
    save(external("w.bin", length=64), "ext-range.onnx")
    # offset + length past 2^63 - 1 (the message computed it with signed
    # overflow: an end of -9223372036854775793).
    save(external("w.bin", length=16, offset=(1 << 63) - 1), "ext-range-huge.onnx")
    link = os.path.join(out, "link.bin")
    if not os.path.lexists(link):
        os.symlink("/etc/hostname", link)
    save(external("link.bin"), "ext-link.onnx")
    # A graph input that is also an initializer (IR 3 exporters).
    w = helper.make_tensor("w", TensorProto.FLOAT, [2], [1.0, 2.0])
    save(model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
               [vi("x", [2]), vi("w", [2])], [vi("y", [2])], inits=[w], ir=3),
         "init-input.onnx")
    # Nodes out of order, and a node whose subgraph reads a later value.
    save(model([helper.make_node("Relu", ["a"], ["y"], name="second"),
                helper.make_node("Neg", ["x"], ["a"], name="first")],
               [vi("x", [2])], [vi("y", [2])]), "unsorted.onnx")
    # Truncated protobuf.
    data = relu_model().SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    # A vendor domain imported but unused, and a node in an unknown domain
    # (a custom op).
    m = relu_model()
    m.opset_import.append(helper.make_opsetid("com.vendor", 1))
    save(m, "unused-domain.onnx")
    m = model([helper.make_node("Foo", ["x"], ["y"], name="foo", domain="com.vendor")],
              [vi("x", [2])], [vi("y", [2])])
    m.opset_import.append(helper.make_opsetid("com.vendor", 1))
    save(m, "unknown-domain.onnx")
    # Attributes whose fields contradict their type.
    def concat(**edit):
        n = helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=0)
        a = n.attribute[0]
        if "type" in edit:
            a.type = edit["type"]
        if "f" in edit:
            a.f = edit["f"]
        if edit.get("clear_i"):
            a.ClearField("i")
        return model([n], [vi("x", [2])], [vi("y", [4])])
    save(concat(type=0), "attr-undefined.onnx")
    save(concat(f=1.5, clear_i=True), "attr-int-holds-float.onnx")
    save(concat(f=1.5), "attr-two-kinds.onnx")
    # A sparse initializer whose linearized index 1000 is beyond its shape
    # [4] (it wrapped around to 0 before).
    sp = helper.make_sparse_tensor(
        helper.make_tensor("w", TensorProto.FLOAT, [1], [5.0]),
        helper.make_tensor("i", TensorProto.INT64, [1], [1000]), [4])
    m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
              [vi("x", [4])], [vi("y", [4])])
    m.graph.sparse_initializer.append(sp)
    save(m, "sparse-index.onnx")
    # Type 99 (python-onnx refuses to set an unknown enum value): patch
    # AttributeProto.type (field 20, varint) from INT (2) to 99.
    data = concat().SerializeToString()
    assert data.count(b"\xa0\x01\x02") == 1
    with open(os.path.join(out, "attr-type-99.onnx"), "wb") as f:
        f.write(data.replace(b"\xa0\x01\x02", b"\xa0\x01\x63"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

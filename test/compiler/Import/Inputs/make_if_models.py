#!/usr/bin/python3
"""Writes the If models of if-fold.test: forms exporters write that the ONNX
text format cannot express. usage: make_if_models.py OUTDIR (python3-onnx)."""
import os
import sys

import onnx
from onnx import TensorProto as T, helper


def untyped(name):
    """A branch output whose TypeProto is present but empty, as exporters
    write them (not the same as an absent type)."""
    v = onnx.ValueInfoProto(name=name)
    v.type.SetInParent()
    return v


def branch(name, op, out):
    inputs = ["x", "ax"] if op == "Unsqueeze" else ["x"]
    return helper.make_graph([helper.make_node(op, inputs, [out], name=name + "_n")],
                             name, [], [untyped(out)])


def model(cond_nodes, then_op, else_op, x_shape):
    nodes = cond_nodes + [
        helper.make_node("If", ["c"], ["y"], name="If_69",
                         then_branch=branch("then", then_op, "ty"),
                         else_branch=branch("else", else_op, "ey")),
        helper.make_node("Relu", ["y"], ["z"], name="relu")]
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", T.FLOAT, x_shape),
                     helper.make_tensor_value_info("flag", T.BOOL, [])],
        [helper.make_tensor_value_info("z", T.FLOAT, None)],
        [helper.make_tensor("one", T.INT64, [], [1]),
         helper.make_tensor("ax", T.INT64, [1], [0])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
    m.ir_version = 8
    return m


def main(out):
    os.makedirs(out, exist_ok=True)
    rank_test = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
                 helper.make_node("Size", ["s"], ["r"], name="size"),
                 helper.make_node("Equal", ["r", "one"], ["c"], name="eq")]
    # `if x.dim() == 1: x = x.unsqueeze(0)`: the branches yield ranks 3 and 2.
    onnx.save(model(rank_test, "Unsqueeze", "Identity", ["N", 3]),
              os.path.join(out, "rank-test.onnx"))
    # A run-time condition, untyped branch outputs of the same rank.
    onnx.save(model([helper.make_node("Identity", ["flag"], ["c"], name="id")],
                    "Relu", "Neg", ["N", 3]),
              os.path.join(out, "untyped-outputs.onnx"))
    # A run-time condition and branches of different ranks: the rank is unknown.
    onnx.save(model([helper.make_node("Identity", ["flag"], ["c"], name="id")],
                    "Unsqueeze", "Identity", ["N", 3]),
              os.path.join(out, "ranks-differ.onnx"))


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/python3
"""scan8_rows.py OUT [BATCH]: writes OUT/scan8_rows.onnx, a Scan-8 (batched)
running sum whose entry shapes are symbolic ([b, k] states, [b, n, k] scan
inputs), so its batch accumulators get their entry shape from the first
entry; with BATCH, also OUT/data/input_0.pb, input_1.pb (BATCH entries of
n = 3, k = 2) and output_0.pb, output_1.pb (numpy)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
vi = helper.make_tensor_value_info
body = helper.make_graph(
    [helper.make_node("Add", ["si", "x"], ["so"]),
     helper.make_node("Identity", ["x"], ["y"])],
    "body", [vi("si", T.FLOAT, ["k"]), vi("x", T.FLOAT, ["k"])],
    [vi("so", T.FLOAT, ["k"]), vi("y", T.FLOAT, ["k"])])
g = helper.make_graph(
    [helper.make_node("Scan", ["", "s0", "xs"], ["s", "ys"], body=body,
                      num_scan_inputs=1)],
    "g", [vi("s0", T.FLOAT, ["b", "k"]), vi("xs", T.FLOAT, ["b", "n", "k"])],
    [vi("s", T.FLOAT, ["b", "k"]), vi("ys", T.FLOAT, ["b", "n", "k"])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 8)])
onnx.save(m, os.path.join(out, "scan8_rows.onnx"))
if len(sys.argv) > 2:
    b = int(sys.argv[2])
    rng = np.random.default_rng(0)
    s0 = rng.standard_normal((b, 2)).astype(np.float32)
    xs = rng.standard_normal((b, 3, 2)).astype(np.float32)
    d = os.path.join(out, "data")
    os.makedirs(d, exist_ok=True)
    for name, a in [("input_0", s0), ("input_1", xs),
                    ("output_0", s0 + xs.sum(axis=1, dtype=np.float32)),
                    ("output_1", xs)]:
        with open(os.path.join(d, name + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())

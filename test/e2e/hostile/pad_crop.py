#!/usr/bin/python3
"""pad_crop.py DIR: Pad in edge, reflect and wrap modes with a negative pad
on one side of an axis and a positive one on the other (opset 19), pads
from data (one data set per pad vector) and from an initializer; the
expected outputs are numpy's np.pad of the cropped input, which ONNX
Runtime agrees with. onnxc wrapped and reflected over the uncropped input
(OK with wrong values; the issue-12 re-audit, finding pad-wrap-crop)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

PADS = [(-1, 0, 1, 0), (1, 0, -1, 0), (-1, 0, 2, 0), (2, 0, -1, 0),
        (-2, 0, 1, 0), (1, 0, -2, 0), (-1, 0, -1, 0), (0, -1, 0, 1)]


def expected(x, p, mode):
    r = len(x.shape)
    xc = x[tuple(slice(max(0, -p[i]), x.shape[i] - max(0, -p[i + r]))
                 for i in range(r))]
    return np.pad(xc, [(max(0, p[i]), max(0, p[i + r])) for i in range(r)],
                  mode={"edge": "edge", "reflect": "reflect", "wrap": "wrap"}[mode])


def write_pb(path, name, a):
    open(path, "wb").write(numpy_helper.from_array(a, name).SerializeToString())


def model(path, mode, pads=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    ins, inits = [x], []
    if pads is None:
        ins.append(helper.make_tensor_value_info("p", TensorProto.INT64, [4]))
    else:
        inits.append(numpy_helper.from_array(np.array(pads, np.int64), "p"))
    g = helper.make_graph([helper.make_node("Pad", ["x", "p"], ["y"], mode=mode)],
                          "pad_crop", ins, [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    m.ir_version = 8
    os.makedirs(path, exist_ok=True)
    onnx.save(m, os.path.join(path, "model.onnx"))


def main(root):
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    for mode in ["edge", "reflect", "wrap"]:
        d = os.path.join(root, "pad_crop_" + mode)
        model(d, mode)
        for k, p in enumerate(PADS):
            s = os.path.join(d, "test_data_set_%d" % k)
            os.makedirs(s, exist_ok=True)
            write_pb(os.path.join(s, "input_0.pb"), "x", x)
            write_pb(os.path.join(s, "input_1.pb"), "p", np.array(p, np.int64))
            write_pb(os.path.join(s, "output_0.pb"), "y", expected(x, p, mode))
        # The same pads as an initializer (static result shape).
        d = os.path.join(root, "pad_crop_%s_static" % mode)
        model(d, mode, PADS[1])
        s = os.path.join(d, "test_data_set_0")
        os.makedirs(s, exist_ok=True)
        write_pb(os.path.join(s, "input_0.pb"), "x", x)
        write_pb(os.path.join(s, "output_0.pb"), "y", expected(x, PADS[1], mode))


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/python3
"""Tests ort_run.js's TensorProto reader and writer.

    identity_dtypes.py write DIR   model.onnx (Identity per dtype) and
                                   in/input_<i>.pb in the typed fields
                                   (float_data, int32_data, int64_data,
                                   double_data, uint64_data), dims unpacked
    identity_dtypes.py check DIR   DIR/out/output_<i>.pb (what ort_run.js
                                   wrote) equal the inputs: name, dtype,
                                   shape, values (exact); prints one line each
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

TYPES = [(T.FLOAT, np.float32), (T.DOUBLE, np.float64), (T.FLOAT16, np.float16),
         (T.INT64, np.int64), (T.INT32, np.int32), (T.INT16, np.int16),
         (T.INT8, np.int8), (T.UINT64, np.uint64), (T.UINT32, np.uint32),
         (T.UINT16, np.uint16), (T.UINT8, np.uint8), (T.BOOL, np.bool_)]
SHAPES = [[2, 3], [], [0, 4]]  # a matrix, a scalar, an empty tensor


def value(i, dtype, shape):
    rng = np.random.default_rng(i)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)  # the extremes: all 64 bits must survive
        flat = [info.min, info.max, 0, 1, info.max // 3, info.min // 5]
        return np.resize(np.array(flat, dtype), shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def cases():
    for i, (t, dtype) in enumerate(TYPES):
        shape = SHAPES[i % len(SHAPES)]
        yield i, t, dtype, shape, value(i, dtype, shape)


def write(d):
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    ins, outs, nodes = [], [], []
    for i, t, dtype, shape, a in cases():
        ins.append(helper.make_tensor_value_info("x%d" % i, t, shape))
        outs.append(helper.make_tensor_value_info("y%d" % i, t, shape))
        nodes.append(helper.make_node("Identity", ["x%d" % i], ["y%d" % i]))
        vals = a.flatten().tolist()
        tp = helper.make_tensor("x%d" % i, t, shape, vals, raw=False)
        assert not tp.raw_data and np.array_equal(numpy_helper.to_array(tp), a)
        with open(os.path.join(d, "in", "input_%d.pb" % i), "wb") as f:
            f.write(tp.SerializeToString())
    g = helper.make_graph(nodes, "identity_dtypes", ins, outs)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(d, "model.onnx"))


def check(d):
    bad = 0
    for i, t, dtype, shape, a in cases():
        tp = onnx.TensorProto()
        with open(os.path.join(d, "out", "output_%d.pb" % i), "rb") as f:
            tp.ParseFromString(f.read())
        got = numpy_helper.to_array(tp)
        ok = (tp.name == "y%d" % i and tp.data_type == t and list(tp.dims) == shape
              and got.dtype == a.dtype and np.array_equal(got, a))
        bad += not ok
        print("y%d %s%s: %s" % (i, T.DataType.Name(t).lower(), shape,
                               "ok" if ok else "DIFFERS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(write(sys.argv[2]) if sys.argv[1] == "write" else check(sys.argv[2]))

"""Writes the .pb test data of the onnxc-run tests into DIR.

DIR/in:        input_0.pb (X float[2, 4], raw_data), input_1.pb (K int64[1])
DIR/in_typed:  the same through the typed fields (float_data, int64_data)
DIR/exp:       the outputs of fake_model.c: output_0.pb (Y), output_1.pb (Z)
DIR/exp_*:     expected outputs that differ in values, shape, dtype
DIR/bad_*:     broken input directories
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

root = sys.argv[1]
x = np.array([[1.0, -2.0, 3.0, 4.0], [-5.0, 6.0, np.nan, 8.0]], np.float32)
k = np.array([1], np.int64)
y = x + 1
z = y[:, 0] > 0


def write(sub, name, arr, tensor_name=""):
    d = os.path.join(root, sub)
    os.makedirs(d, exist_ok=True)
    t = arr if isinstance(arr, TensorProto) else numpy_helper.from_array(arr, tensor_name)
    with open(os.path.join(d, name), "wb") as f:
        f.write(t.SerializeToString())


write("in", "input_0.pb", x, "X")
write("in", "input_1.pb", k, "K")
write("in_typed", "input_0.pb",
      helper.make_tensor("X", TensorProto.FLOAT, [2, 4], x.flatten().tolist()))
write("in_typed", "input_1.pb", helper.make_tensor("K", TensorProto.INT64, [1], [1]))
write("exp", "output_0.pb", y, "Y")
write("exp", "output_1.pb", z, "Z")

# Values: two floats off (one within rtol 0.5), one bool flipped.
y_off = y.copy()
y_off[0, 1] += 0.25  # -1 -> -0.75: rel error 0.25
y_off[1, 3] = 100.0  # 9 -> 100
write("exp_values", "output_0.pb", y_off)
write("exp_values", "output_1.pb", np.logical_not(z) * np.array([True, False]))
# Only the float within 0.5 relative tolerance.
y_near = y.copy()
y_near[0, 1] += 0.25
write("exp_near", "output_0.pb", y_near)
write("exp_near", "output_1.pb", z)
# Shape and dtype.
write("exp_shape", "output_0.pb", np.zeros((3, 4), np.float32))
write("exp_shape", "output_1.pb", z)
write("exp_dtype", "output_0.pb", y.astype(np.float64))
write("exp_dtype", "output_1.pb", z)
# An expected directory without output_1.pb, one with an extra output.
write("exp_missing", "output_0.pb", y)
write("exp_extra", "output_0.pb", y)
write("exp_extra", "output_1.pb", z)
write("exp_extra", "output_2.pb", z)

# Broken inputs.
write("bad_missing", "input_0.pb", x)
write("bad_extra", "input_0.pb", x)
write("bad_extra", "input_1.pb", k)
write("bad_extra", "input_2.pb", k)
write("bad_dtype", "input_0.pb", x.astype(np.float64))
write("bad_dtype", "input_1.pb", k)
# .npy inputs: messages name the .npy file (they said input_0.pb), and an
# extra input_2.npy is refused as an extra input_2.pb is.
os.makedirs(os.path.join(root, "bad_npy_dtype"), exist_ok=True)
np.save(os.path.join(root, "bad_npy_dtype", "input_0.npy"), x.astype(np.float64))
write("bad_npy_dtype", "input_1.pb", k)
write("bad_npy_extra", "input_0.pb", x)
write("bad_npy_extra", "input_1.pb", k)
np.save(os.path.join(root, "bad_npy_extra", "input_2.npy"), k)
write("bad_rank", "input_0.pb", x.reshape(8))
write("bad_rank", "input_1.pb", k)
write("bad_dim", "input_0.pb", np.zeros((2, 3), np.float32))
write("bad_dim", "input_1.pb", k)
write("bad_fail", "input_0.pb", x)
write("bad_fail", "input_1.pb", np.array([-1], np.int64))
write("bad_string", "input_0.pb", np.array(["a"], object))
write("bad_string", "input_1.pb", k)
os.makedirs(os.path.join(root, "bad_garbage"), exist_ok=True)
with open(os.path.join(root, "bad_garbage", "input_0.pb"), "wb") as f:
    f.write(b"\xff\xff\xff not a tensor")
write("bad_garbage", "input_1.pb", k)
bad_raw = numpy_helper.from_array(x)
bad_raw.raw_data = bad_raw.raw_data[:-4]
write("bad_raw", "input_0.pb", bad_raw)
write("bad_raw", "input_1.pb", k)
# Tensors that declare more data than they hold: dims of 2^40 x 4 elements
# with 16 bytes of raw data, or with no typed values (an uncaught
# std::bad_alloc before: the buffer was sized from the dims).
huge = TensorProto()
huge.data_type = TensorProto.FLOAT
huge.dims.extend([1 << 40, 4])
huge.raw_data = b"\0" * 16
write("bad_huge_raw", "input_0.pb", huge)
write("bad_huge_raw", "input_1.pb", k)
huge.ClearField("raw_data")
write("bad_huge_typed", "input_0.pb", huge)
write("bad_huge_typed", "input_1.pb", k)
# An input that is not a regular file (read without end before).
os.makedirs(os.path.join(root, "bad_device"), exist_ok=True)
if not os.path.lexists(os.path.join(root, "bad_device", "input_0.pb")):
    os.symlink("/dev/zero", os.path.join(root, "bad_device", "input_0.pb"))
write("bad_device", "input_1.pb", k)
# Zero rows: N = 0.
write("empty", "input_0.pb", np.zeros((0, 4), np.float32))
write("empty", "input_1.pb", k)
write("empty_exp", "output_0.pb", np.zeros((0, 4), np.float32))
write("empty_exp", "output_1.pb", np.zeros((0,), np.bool_))

"""Helper of ../tensorio-python.test: writes files with numpy and onnx, checks
the .npy files onnxc-tensorio-test wrote."""
import sys

import numpy as np
from onnx import numpy_helper

mode, out = sys.argv[1], sys.argv[2]
if mode == "check-npy":
    samples = {
        "f4": np.array([[0, 1, 2], [3, 4.5, -5]], np.float32),
        "i8": np.array([-1, 0, 1 << 40], np.int64),
        "b1": np.array([[True], [False]]),
        "scalar": np.array(4.5, np.float32),
    }
    for name, want in samples.items():
        got = np.load(f"{out}/w.{name}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert (got == want).all(), name
        np.save(f"{out}/np.{name}.npy", want)
        same = open(f"{out}/w.{name}.npy", "rb").read() == open(
            f"{out}/np.{name}.npy", "rb").read()
        print(name, got.dtype, got.shape, "same-bytes" if same else "DIFFERENT")
else:
    a = np.array([[1, 2], [3, 4.5]])
    np.save(f"{out}/a.npy", a)
    raw = open(f"{out}/a.npy", "rb").read()
    open(f"{out}/a-cut.npy", "wb").write(raw[:-8])
    np.save(f"{out}/a-fortran.npy", np.asfortranarray(a))
    t = numpy_helper.from_array(np.array([7, -8, 1 << 40], np.int64), "t")
    open(f"{out}/t.pb", "wb").write(t.SerializeToString())
    # int64_data holding fewer values than the dims declare.
    del t.int64_data[:]
    t.ClearField("raw_data")
    t.int64_data.append(1)
    open(f"{out}/t-cut.pb", "wb").write(t.SerializeToString())
    s = numpy_helper.from_list(
        [np.zeros(2, np.float32), np.ones(3, np.float32)], "s")
    open(f"{out}/s.pb", "wb").write(s.SerializeToString())
    o = numpy_helper.from_optional(np.array(5, np.int32), "o")
    open(f"{out}/o.pb", "wb").write(o.SerializeToString())
    n = numpy_helper.from_optional(None, "n")
    open(f"{out}/none.pb", "wb").write(n.SerializeToString())

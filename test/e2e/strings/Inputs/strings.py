import sys

import numpy as np
import onnxc

m = onnxc.compile(sys.argv[1])
print("inputs:", m.inputs)
x = np.array([0.5, -2, 1e10], np.float32)
out = m.run({"s": np.array(["one", "two", "été"]), "x": x})
print("joined:", out["joined"].tolist(), out["joined"].dtype)
print("is_one:", out["is_one"].tolist())
print("upper:", out["upper"].tolist(), out["upper"].dtype)
print("code:", out["code"].tolist())
out = m.run({"s": [b"one", b"two", "été".encode()], "x": x})
print("bytes in:", out["joined"].tolist())
try:
    m.run({"s": np.array([1.0, 2.0, 3.0]), "x": x})
except onnxc.Error as e:
    print("%s: %s" % (type(e).__name__, e))

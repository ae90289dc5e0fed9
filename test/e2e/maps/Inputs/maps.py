"""Maps through the Python package: a dict in, ZipMap's list of dicts out."""
import sys

import numpy as np
import onnxc

m = onnxc.compile(sys.argv[1])
print("inputs:", m.inputs)
print("outputs:", m.outputs)
x = np.array([[3, 0], [0, 3]], np.float32)
out = m.run({"x": x, "m": {"b": 2.5, "zz": 9.0, "a": -1.0}})
for i, d in enumerate(out["output_probability"]):
    print("map %d: %s sum %.3f" % (i, " ".join("%s=%.3f" % kv for kv in d.items()),
                                   sum(d.values())))
print("label:", out["label"].tolist())
print("y:", out["y"].tolist())
for what, bad in [("key twice", None), ("int keys", {1: 2.0}),
                  ("not a dict", [1.0])]:
    try:
        if bad is None:
            # A dict cannot hold a key twice: keys equal once encoded.
            bad = {"a": 1.0, b"a": 2.0}
        m.run({"x": x, "m": bad})
    except onnxc.Error as e:
        print("%s: %s: %s" % (what, type(e).__name__, e))

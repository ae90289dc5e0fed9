"""Runs the custom-op models of test/embed/custom-op.test through the Python
package and checks them against numpy: check.py DIR."""
import sys

import numpy as np
import onnxc

d = sys.argv[1]
w1 = np.array([0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8,
               -0.15, 0.25, -0.35, 0.45, -0.55, 0.65, -0.75, 0.85,
               0.2, 0.1, -0.1, -0.2, 0.3, 0.4, -0.3, -0.4,
               -0.5, 0.6, 0.05, -0.05, 0.15, -0.25, 0.35, 0.45],
              np.float32).reshape(4, 8)
b1 = np.array([0.01, -0.02, 0.03, -0.04, 0.05, -0.06, 0.07, -0.08], np.float32)
w2 = np.array([0.3, -0.1, 0.2, -0.4, 0.5, 0.1, 0.25, 0.15, -0.35,
               0.45, -0.2, 0.05, -0.3, 0.1, 0.6, 0.2, -0.5, 0.35,
               0.1, 0.1, -0.1, -0.45, 0.3, 0.2], np.float32).reshape(8, 3)


def swish_ref(x):
    h = x.astype(np.float64) @ w1 + b1
    a = h / (1 + np.exp(-1.5 * h))
    return a @ w2


rng = np.random.default_rng(7)
for lib in sys.argv[2:]:
    name, _, path = lib.partition("=")
    m = onnxc.load(path, name=name)
    if name.startswith("swish"):
        for n in (1, 5, 33):
            x = rng.uniform(-3, 3, (n, 4)).astype(np.float32)
            y = m(x)
            err = np.max(np.abs(y - swish_ref(x)))
            print("%s N=%d: %s %s, max error %s" % (name, n, y.shape, y.dtype,
                                                   "< 1e-5" if err < 1e-5 else err))
    elif name == "badbeta":
        try:
            m(np.ones((2, 3), np.float32))
            print("badbeta: no error")
        except onnxc.Error as e:
            print("%s: %s: %s" % (name, type(e).__name__, e))
    else:
        x = np.array([[1.0, -2.0, 3.0], [-0.5, 0.25, 4.0]], np.float32)
        k = np.array([10, 20, 30], np.int64)
        y, code = m(x, k)
        ref = np.maximum(x, 0) * 2.5 + np.array([0.5, -1.0, 2.0], np.float32) + 7 + k
        print("%s: y matches: %s, code %s" % (name, bool(np.allclose(y, ref, atol=1e-6)),
                                               code.tolist()))

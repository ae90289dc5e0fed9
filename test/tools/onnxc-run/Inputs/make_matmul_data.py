"""Writes DIR/input_0.pb and input_1.pb for Inputs/matmul.onnxtxt
(standard normal, seed 1)."""
import os
import sys

import numpy as np
from onnx import numpy_helper

rng = np.random.default_rng(1)
for i, (name, shape) in enumerate((("a", (128, 160)), ("b", (160, 96)))):
    arr = rng.standard_normal(shape).astype(np.float32)
    with open(os.path.join(sys.argv[1], "input_%d.pb" % i), "wb") as f:
        f.write(numpy_helper.from_array(arr, name).SerializeToString())

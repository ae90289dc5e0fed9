"""Writes Inputs/concat.onnxtxt's inputs (standard normal, seed 1) to DIR
as input_0.pb and input_1.pb, and its outputs, computed by numpy, as
output_0.pb and output_1.pb."""
import os
import sys

import numpy as np
from onnx import numpy_helper

rng = np.random.default_rng(1)
a = rng.standard_normal((1, 96, 32, 32)).astype(np.float32)
b = rng.standard_normal((1, 64, 32, 32)).astype(np.float32)
arrays = {"input_0": a, "input_1": b,
          "output_0": np.concatenate([a, b], axis=1),
          "output_1": np.concatenate([b, b, b], axis=3)}
for name, arr in arrays.items():
    with open(os.path.join(sys.argv[1], name + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(arr, name).SerializeToString())

"""compile_memory.py ONNXC OUT_DIR - onnxc's peak memory on a 40 MB conv net.

Builds a conv net of 40 MB of fp32 weights (seventeen 3x3 convolutions of 256
channels on a 14 x 14 map and a 1000-way Gemm, random weights, as a
ResNet's last stages), compiles it to a shared library with onnxc, and
prints the weight bytes, onnxc's peak resident set (the child's ru_maxrss)
and whether it is under issue 10's budget: twice the weight bytes plus
300 MB. Compile time is printed but not checked (a benchmark, not a test:
docs/performance.md records it).
"""
import os
import resource
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    onnxc, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    nodes, inits, cur = [], [], "x"
    weight_bytes = 0
    for i in range(17):
        w = (rng.standard_normal((256, 256, 3, 3)) * 0.02).astype(np.float32)
        b = np.zeros(256, np.float32)
        inits += [numpy_helper.from_array(w, "w%d" % i), numpy_helper.from_array(b, "b%d" % i)]
        weight_bytes += w.nbytes + b.nbytes
        nodes.append(helper.make_node("Conv", [cur, "w%d" % i, "b%d" % i], ["c%d" % i],
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", ["c%d" % i], ["r%d" % i]))
        cur = "r%d" % i
    nodes.append(helper.make_node("GlobalAveragePool", [cur], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"]))
    fc = (rng.standard_normal((1000, 256)) * 0.02).astype(np.float32)
    inits += [numpy_helper.from_array(fc, "fc"), numpy_helper.from_array(np.zeros(1000, np.float32), "fcb")]
    weight_bytes += fc.nbytes + 4000
    nodes.append(helper.make_node("Gemm", ["flat", "fc", "fcb"], ["y"], transB=1))
    graph = helper.make_graph(nodes, "net40", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 256, 14, 14])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    path = os.path.join(out, "net40.onnx")
    onnx.save(model, path)
    start = time.time()
    proc = subprocess.run([onnxc, path, "-o", os.path.join(out, "net40.so")], capture_output=True, text=True)
    seconds = time.time() - start
    if proc.returncode != 0:
        sys.exit("onnxc failed: " + proc.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    budget = 2 * weight_bytes + 300 * 2**20
    print("weights %.1f MiB, peak RSS %.1f MiB, budget %.1f MiB, compile %.1f s" %
          (weight_bytes / 2**20, peak / 2**20, budget / 2**20, seconds))
    print("within budget" if peak <= budget else "OVER BUDGET")


if __name__ == "__main__":
    main()

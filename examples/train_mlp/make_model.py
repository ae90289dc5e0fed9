#!/usr/bin/python3
"""Writes the inference model of examples/train_mlp: a 2 -> H -> H -> 2
multilayer perceptron (Gemm, Relu, Gemm, Relu, Gemm) from points to class
logits, with a symbolic batch dim N and He-initialized weights drawn from
numpy's RandomState(0) (the same model on every run), as a binary ONNX
model, the form a model exported from PyTorch comes in.
onnxc-make-trainable then adds the loss, the Gradient and the optimizer.

    /usr/bin/python3 examples/train_mlp/make_model.py OUT.onnx [--hidden H]
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--hidden", type=int, default=32)
    a = p.parse_args()
    h = a.hidden
    rng = np.random.RandomState(0)
    sizes = [2, h, h, 2]
    inits, nodes = [], []
    x = "points"
    for k in range(3):
        fan_in, fan_out = sizes[k], sizes[k + 1]
        w = (rng.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        b = np.zeros(fan_out, np.float32)
        inits += [numpy_helper.from_array(w, f"W{k + 1}"),
                  numpy_helper.from_array(b, f"B{k + 1}")]
        y = "logits" if k == 2 else f"z{k + 1}"
        nodes.append(helper.make_node("Gemm", [x, f"W{k + 1}", f"B{k + 1}"], [y],
                                      name=f"fc{k + 1}"))
        if k < 2:
            nodes.append(helper.make_node("Relu", [y], [f"h{k + 1}"], name=f"relu{k + 1}"))
            x = f"h{k + 1}"
    graph = helper.make_graph(
        nodes, "spiral_mlp",
        [helper.make_tensor_value_info("points", TensorProto.FLOAT, ["N", 2])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 2])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="examples/train_mlp/make_model.py")
    onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()

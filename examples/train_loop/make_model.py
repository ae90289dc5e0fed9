#!/usr/bin/python3
"""Writes the inference model of examples/train_loop: a recurrent network
written as an ONNX Loop (an Elman RNN, h_t = tanh(x_t W + h_{t-1} R + b),
h_0 = 0) over a sequence seq: float[T, N, 1] whose length T and batch N
are both symbolic (the trip count is T, read from seq's shape), then a
Gemm from the last state to two class logits. The weights are drawn from
numpy's RandomState(0) (the same model on every run) and written as a
binary ONNX model, the form a model exported from PyTorch comes in.
onnxc-make-trainable then adds the loss, the Gradient and the optimizer.

    /usr/bin/python3 examples/train_loop/make_model.py OUT.onnx [--hidden H]
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--hidden", type=int, default=16)
    a = p.parse_args()
    h = a.hidden
    rng = np.random.RandomState(0)

    def uniform(shape, fan_in):  # PyTorch's default RNN/Linear init bound
        b = 1.0 / np.sqrt(fan_in)
        return rng.uniform(-b, b, shape).astype(np.float32)

    inits = [numpy_helper.from_array(uniform((1, h), h), "W"),
             numpy_helper.from_array(uniform((h, h), h), "R"),
             numpy_helper.from_array(uniform((h,), h), "b"),
             numpy_helper.from_array(uniform((h, 2), h), "W_out"),
             numpy_helper.from_array(uniform((2,), h), "b_out"),
             numpy_helper.from_array(np.array([h], np.int64), "hidden")]
    # The cell: one step of the sequence, the state carried.
    body = helper.make_graph(
        [helper.make_node("Gather", ["seq", "t"], ["x_t"], axis=0, name="x_t"),
         helper.make_node("MatMul", ["x_t", "W"], ["xw"], name="input_proj"),
         helper.make_node("MatMul", ["h_in", "R"], ["hr"], name="recurrent_proj"),
         helper.make_node("Add", ["xw", "hr"], ["pre"], name="pre"),
         helper.make_node("Add", ["pre", "b"], ["pre_b"], name="pre_b"),
         helper.make_node("Tanh", ["pre_b"], ["h_out"], name="h_out"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="cond")],
        "rnn_cell",
        [helper.make_tensor_value_info("t", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_in", TensorProto.FLOAT, ["N", h])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_out", TensorProto.FLOAT, ["N", h])])
    nodes = [
        # The trip count (T) and the initial state (zeros [N, H]) from seq's shape.
        helper.make_node("Shape", ["seq"], ["T1"], start=0, end=1, name="T1"),
        helper.make_node("Squeeze", ["T1"], ["T"], name="T"),
        helper.make_node("Shape", ["seq"], ["N1"], start=1, end=2, name="N1"),
        helper.make_node("Concat", ["N1", "hidden"], ["h0_shape"], axis=0, name="h0_shape"),
        helper.make_node("ConstantOfShape", ["h0_shape"], ["h0"], name="h0",
                         value=numpy_helper.from_array(np.zeros(1, np.float32))),
        helper.make_node("Loop", ["T", "", "h0"], ["h_last"], body=body, name="rnn"),
        helper.make_node("Gemm", ["h_last", "W_out", "b_out"], ["logits"], name="classify")]
    graph = helper.make_graph(
        nodes, "rnn_classifier",
        [helper.make_tensor_value_info("seq", TensorProto.FLOAT, ["T", "N", 1])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 2])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="examples/train_loop/make_model.py")
    onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Training with onnxc against PyTorch (a reference of the test tooling only;
onnxc never depends on it).

    torch_compare.py CASE WORKDIR --onnxc BIN --onnxc-run BIN --make-trainable BIN

For CASE: builds a network in torch (float64, seeded weights), exports it
with torch.onnx.export (or, for the control-flow nets, writes its ONNX twin
by hand: a Loop, a Scan, Ifs, with the torch weights), makes it trainable with onnxc-make-trainable (the
loss and optimizer of the case), compiles it with onnxc, trains N steps
with `onnxc-run --train-steps N --save-params` on one fixed batch, trains
the same torch network N steps with the matching torch optimizer on the
same batch, and compares every parameter: |onnxc - torch| <= rtol * |torch|
+ atol with rtol 1e-3 and atol 1e-9 (float64: the
parameters differ by rounding only, orders of magnitude below rtol).
Prints one line per parameter and "OK" or "FAILED"; exit 1 on failure.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

RTOL, ATOL = 1e-3, 1e-9


def mlp():
    return torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(),
                               torch.nn.Linear(16, 16), torch.nn.ReLU(),
                               torch.nn.Linear(16, 4))


def mlp_tanh():
    """For Adam: ONNX's Adam adds epsilon to sqrt(H), PyTorch's to the
    bias-corrected sqrt(H / (1 - beta2^t)) (31x larger at t = 1), so the two
    differ by design where sqrt(H) is not far above epsilon (a gradient of
    1e-4 already moves the first step by 1e-3 relative with epsilon 1e-8).
    The Adam cases use epsilon 1e-12, where the two definitions agree to
    far below rtol, and Tanh units (no barely-alive ReLU)."""
    return torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(),
                               torch.nn.Linear(16, 16), torch.nn.Tanh(),
                               torch.nn.Linear(16, 4))


def cnn():
    """Issue 11's small CNN: Conv, MaxPool, Gemm."""
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(4, 8, 3, stride=2), torch.nn.Tanh(),
        torch.nn.Flatten(), torch.nn.Linear(8, 5))


def cnn_grouped():
    """Grouped and depthwise convolutions, average pooling with padding."""
    return torch.nn.Sequential(
        torch.nn.Conv2d(2, 6, 3, padding=1), torch.nn.Tanh(),
        torch.nn.Conv2d(6, 6, 3, padding=1, groups=6),
        torch.nn.AvgPool2d(3, stride=2, padding=1), torch.nn.Sigmoid(),
        torch.nn.Conv2d(6, 4, 1, groups=2), torch.nn.Tanh(),
        torch.nn.Flatten(), torch.nn.Linear(64, 3))


# Control flow: torch modules with a hand-written ONNX twin (onnx_model(),
# initializers named as the torch parameters), since torch.onnx.export of
# traced code unrolls Python loops and branches.

D = onnx.TensorProto.DOUBLE


def _model(nodes, params, x_shape, y_shape, extra_inits=()):
    """An inference model: input x (float64, x_shape), output y (y_shape),
    the torch parameters as initializers of the same names."""
    from onnx import helper
    inits = [numpy_helper.from_array(p.detach().numpy(), n)
             for n, p in params] + list(extra_inits)
    g = helper.make_graph(nodes, "net",
                          [helper.make_tensor_value_info("x", D, x_shape)],
                          [helper.make_tensor_value_info("y", D, y_shape)],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


class RNNLoop(torch.nn.Module):
    """h_t = tanh(x_t Wx + h_{t-1} Wh + b) over the T steps of x [T, B, I],
    y = h_T Wo + bo; in ONNX a Loop whose trip count is x's dim 0 (read at
    run time), carrying h, capturing the weights and x."""

    def __init__(self, i=3, h=5, o=2, batch=4):
        super().__init__()
        self.wx = torch.nn.Parameter(torch.randn(i, h) * 0.5)
        self.wh = torch.nn.Parameter(torch.randn(h, h) * 0.5)
        self.b = torch.nn.Parameter(torch.randn(h) * 0.1)
        self.wo = torch.nn.Parameter(torch.randn(h, o) * 0.5)
        self.bo = torch.nn.Parameter(torch.randn(o) * 0.1)
        self.hsize, self.batch = h, batch

    def forward(self, x):
        h = torch.zeros(x.shape[1], self.hsize, dtype=x.dtype)
        for t in range(x.shape[0]):
            h = torch.tanh(x[t] @ self.wx + h @ self.wh + self.b)
        return h @ self.wo + self.bo

    def onnx_model(self, x_shape):
        from onnx import helper
        n = helper.make_node
        body = helper.make_graph(
            [n("Gather", ["x", "it"], ["xt"], axis=0),
             n("MatMul", ["xt", "wx"], ["a"]),
             n("MatMul", ["h", "wh"], ["c"]),
             n("Add", ["a", "c"], ["ac"]),
             n("Add", ["ac", "b"], ["pre"]),
             n("Tanh", ["pre"], ["h2"])], "body",
            [helper.make_tensor_value_info("it", onnx.TensorProto.INT64, []),
             helper.make_tensor_value_info("cond", onnx.TensorProto.BOOL, []),
             helper.make_tensor_value_info("h", D, None)],
            [helper.make_tensor_value_info("cond", onnx.TensorProto.BOOL, []),
             helper.make_tensor_value_info("h2", D, None)])
        h0 = numpy_helper.from_array(
            np.zeros((x_shape[1], self.hsize)), "h0")
        zero = numpy_helper.from_array(np.array(0, np.int64), "zero")
        return _model([n("Shape", ["x"], ["xs"]),
                       n("Gather", ["xs", "zero"], ["T"], axis=0),
                       n("Loop", ["T", "", "h0"], ["hT"], body=body),
                       n("MatMul", ["hT", "wo"], ["ho"]),
                       n("Add", ["ho", "bo"], ["y"])],
                      self.named_parameters(), x_shape,
                      [x_shape[1], self.bo.shape[0]], [h0, zero])


class ScanRecurrence(torch.nn.Module):
    """A Scan over x [T, B, I] read in reverse: state h, h' = tanh(x_t Wx +
    h Wh + b), scan output h'; y = (h_final + mean_t h'_t) Wo + bo."""

    def __init__(self, i=3, h=4, o=2):
        super().__init__()
        self.wx = torch.nn.Parameter(torch.randn(i, h) * 0.5)
        self.wh = torch.nn.Parameter(torch.randn(h, h) * 0.5)
        self.b = torch.nn.Parameter(torch.randn(h) * 0.1)
        self.wo = torch.nn.Parameter(torch.randn(h, o) * 0.5)
        self.bo = torch.nn.Parameter(torch.randn(o) * 0.1)
        self.hsize = h

    def forward(self, x):
        h = torch.zeros(x.shape[1], self.hsize, dtype=x.dtype)
        outs = []
        for t in reversed(range(x.shape[0])):
            h = torch.tanh(x[t] @ self.wx + h @ self.wh + self.b)
            outs.append(h)
        return (h + torch.stack(outs).mean(0)) @ self.wo + self.bo

    def onnx_model(self, x_shape):
        from onnx import helper
        n = helper.make_node
        body = helper.make_graph(
            [n("MatMul", ["xt", "wx"], ["a"]),
             n("MatMul", ["h", "wh"], ["c"]),
             n("Add", ["a", "c"], ["ac"]),
             n("Add", ["ac", "b"], ["pre"]),
             n("Tanh", ["pre"], ["h2"]),
             n("Identity", ["h2"], ["o"])], "body",
            [helper.make_tensor_value_info("h", D, None),
             helper.make_tensor_value_info("xt", D, None)],
            [helper.make_tensor_value_info("h2", D, None),
             helper.make_tensor_value_info("o", D, None)])
        h0 = numpy_helper.from_array(
            np.zeros((x_shape[1], self.hsize)), "h0")
        return _model([n("Scan", ["h0", "x"], ["hT", "hs"], body=body,
                         num_scan_inputs=1, scan_input_directions=[1]),
                       n("ReduceMean", ["hs"], ["hm"], axes=[0], keepdims=0),
                       n("Add", ["hT", "hm"], ["hh"]),
                       n("MatMul", ["hh", "wo"], ["ho"]),
                       n("Add", ["ho", "bo"], ["y"])],
                      self.named_parameters(), x_shape,
                      [x_shape[1], self.bo.shape[0]], [h0])


class IfNet(torch.nn.Module):
    """h = tanh(x W1 + b1); two Ifs on sum(x) > 0 and its negation, so that
    one takes its then branch and the other its else branch:
      If1: then h Wa + ba            else sigmoid(h Wb)
      If2: then relu(h Wc)           else tanh(h Wd) + h
    y = (If1 + If2) Wo. The branches read the weights from the outer scope;
    the untaken branches' weights get zero gradients."""

    def __init__(self, i=3, h=4, o=2):
        super().__init__()
        r = torch.randn
        self.w1 = torch.nn.Parameter(r(i, h) * 0.5)
        self.b1 = torch.nn.Parameter(r(h) * 0.1)
        self.wa = torch.nn.Parameter(r(h, h) * 0.5)
        self.ba = torch.nn.Parameter(r(h) * 0.1)
        self.wb = torch.nn.Parameter(r(h, h) * 0.5)
        self.wc = torch.nn.Parameter(r(h, h) * 0.5)
        self.wd = torch.nn.Parameter(r(h, h) * 0.5)
        self.wo = torch.nn.Parameter(r(h, o) * 0.5)

    def forward(self, x):
        h = torch.tanh(x @ self.w1 + self.b1)
        c = bool(x.sum() > 0)
        a = h @ self.wa + self.ba if c else torch.sigmoid(h @ self.wb)
        b = torch.relu(h @ self.wc) if not c else torch.tanh(h @ self.wd) + h
        return (a + b) @ self.wo

    def onnx_model(self, x_shape):
        from onnx import helper
        n = helper.make_node
        vi = lambda name: helper.make_tensor_value_info(name, D, None)
        g = helper.make_graph
        then1 = g([n("MatMul", ["h", "wa"], ["t1"]),
                   n("Add", ["t1", "ba"], ["a1"])], "then1", [], [vi("a1")])
        else1 = g([n("MatMul", ["h", "wb"], ["e1"]),
                   n("Sigmoid", ["e1"], ["a2"])], "else1", [], [vi("a2")])
        then2 = g([n("MatMul", ["h", "wc"], ["t2"]),
                   n("Relu", ["t2"], ["b1"])], "then2", [], [vi("b1")])
        else2 = g([n("MatMul", ["h", "wd"], ["e2"]),
                   n("Tanh", ["e2"], ["e3"]),
                   n("Add", ["e3", "h"], ["b2"])], "else2", [], [vi("b2")])
        zero = numpy_helper.from_array(np.array(0.0), "zero")
        return _model([n("MatMul", ["x", "w1"], ["xw"]),
                       n("Add", ["xw", "b1"], ["pre"]),
                       n("Tanh", ["pre"], ["h"]),
                       n("ReduceSum", ["x"], ["s"], keepdims=0),
                       n("Greater", ["s", "zero"], ["c"]),
                       n("Not", ["c"], ["nc"]),
                       n("If", ["c"], ["a"], then_branch=then1,
                         else_branch=else1),
                       n("If", ["nc"], ["b"], then_branch=then2,
                         else_branch=else2),
                       n("Add", ["a", "b"], ["ab"]),
                       n("MatMul", ["ab", "wo"], ["y"])],
                      self.named_parameters(), x_shape,
                      [x_shape[0], self.wo.shape[1]], [zero])


# name -> (network, input shape, loss, optimizer, optimizer options, steps)
CASES = {
    "mlp_mse_sgd": (mlp, (8, 6), "mse", "sgd", dict(lr=0.05), 10),
    "mlp_mse_sgd_wd": (mlp, (8, 6), "mse", "sgd",
                       dict(lr=0.05, weight_decay=0.01), 10),
    "mlp_mse_momentum": (mlp, (8, 6), "mse", "momentum",
                         dict(lr=0.05, momentum=0.9), 10),
    "mlp_mse_nesterov": (mlp, (8, 6), "mse", "nesterov",
                         dict(lr=0.05, momentum=0.8), 10),
    "mlp_mse_adam": (mlp_tanh, (8, 6), "mse", "adam",
                     dict(lr=0.01, betas=(0.9, 0.999), eps=1e-12), 10),
    "mlp_mse_adagrad": (mlp, (8, 6), "mse", "adagrad",
                        dict(lr=0.05, eps=1e-10), 10),
    "mlp_ce_adam": (mlp_tanh, (8, 6), "cross-entropy", "adam",
                    dict(lr=0.01, betas=(0.9, 0.999), eps=1e-12), 10),
    "cnn_ce_momentum": (cnn, (6, 1, 8, 8), "cross-entropy", "momentum",
                        dict(lr=0.05, momentum=0.9), 10),
    "cnn_grouped_mse_sgd": (cnn_grouped, (4, 2, 8, 8), "mse", "sgd",
                            dict(lr=0.1), 10),
    "rnn_loop_mse_adagrad": (RNNLoop, (5, 4, 3), "mse", "adagrad",
                             dict(lr=0.05, eps=1e-10), 10),
    "scan_mse_sgd": (ScanRecurrence, (6, 4, 3), "mse", "sgd",
                     dict(lr=0.1), 10),
    "if_mse_momentum": (IfNet, (5, 3), "mse", "momentum",
                        dict(lr=0.05, momentum=0.9), 10),
}


def torch_optimizer(name, params, opts):
    if name == "sgd":
        return torch.optim.SGD(params, **opts)
    if name in ("momentum", "nesterov"):
        return torch.optim.SGD(params, nesterov=name == "nesterov", **opts)
    if name == "adam":
        return torch.optim.Adam(params, **opts)
    return torch.optim.Adagrad(params, **opts)


def trainable_flags(name, opts):
    flags = ["--optimizer", name, "--lr", repr(opts["lr"])]
    if "momentum" in opts:
        flags += ["--momentum", repr(opts["momentum"])]
    if "betas" in opts:
        flags += ["--beta1", repr(opts["betas"][0]),
                  "--beta2", repr(opts["betas"][1])]
    if "eps" in opts:
        flags += ["--epsilon", repr(opts["eps"])]
    if "weight_decay" in opts:
        flags += ["--weight-decay", repr(opts["weight_decay"])]
    return flags


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("work")
    p.add_argument("--onnxc", required=True)
    p.add_argument("--onnxc-run", required=True)
    p.add_argument("--make-trainable", required=True)
    args = p.parse_args()
    build, shape, loss, opt, opts, steps = CASES[args.case]
    os.makedirs(args.work, exist_ok=True)
    torch.manual_seed(0)
    net = build().double()
    x = torch.randn(*shape, dtype=torch.float64)
    if build is IfNet:
        x = x.abs()  # sum(x) > 0: If1 takes then, If2 else
    with torch.no_grad():
        out = net(x)
    if loss == "mse":
        target = torch.randn(*out.shape, dtype=torch.float64)
    else:
        target = torch.randint(0, out.shape[1], (out.shape[0],))
    infer = os.path.join(args.work, "model.onnx")
    if hasattr(net, "onnx_model"):
        onnx.save(net.onnx_model(list(shape)), infer)
    else:
        torch.onnx.export(net, x, infer, input_names=["x"],
                          output_names=["y"], opset_version=13,
                          do_constant_folding=False,
                          dynamic_axes={"x": {0: "N"}, "y": {0: "N"}})
    names = [n for n, _ in net.named_parameters()]
    train = os.path.join(args.work, "train.onnx")
    subprocess.run([args.make_trainable, infer, "-o", train, "--output", "y",
                    "--loss", loss, "--label", "target",
                    "--trainable", ",".join(names)] +
                   trainable_flags(opt, opts), check=True)
    lib = os.path.join(args.work, "train.so")
    subprocess.run([args.onnxc, train, "-o", lib], check=True)
    data = os.path.join(args.work, "data")
    params = os.path.join(args.work, "params")
    os.makedirs(data, exist_ok=True)
    os.makedirs(params, exist_ok=True)
    for i, t in enumerate([x, target]):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(t.numpy()).SerializeToString())
    subprocess.run([args.onnxc_run, lib, "--train-steps", str(steps),
                    "--inputs", data, "--save-params", params, "--quiet"],
                   check=True)

    optim = torch_optimizer(opt, net.parameters(), opts)
    lossfn = torch.nn.MSELoss() if loss == "mse" else torch.nn.CrossEntropyLoss()
    for _ in range(steps):
        optim.zero_grad()
        lossfn(net(x), target).backward()
        optim.step()
    failed = 0
    for name, param in net.named_parameters():
        got = numpy_helper.to_array(onnx.load_tensor(
            os.path.join(params, name + ".pb")))
        want = param.detach().numpy()
        err = np.abs(got - want)
        bad = err > RTOL * np.abs(want) + ATOL
        rel = float(np.max(err / (np.abs(want) + 1e-30)))
        print("%s %s: max abs %.3g, max rel %.3g%s" % (
            args.case, name, float(err.max()), rel,
            "" if not bad.any() else ", %d beyond rtol %g" % (bad.sum(), RTOL)))
        failed += int(bad.any())
    print("%s: %s" % (args.case, "FAILED" if failed else "OK"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

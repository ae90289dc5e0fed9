#!/usr/bin/python3
"""Training with onnxc against PyTorch (a reference of the test tooling only;
onnxc never depends on it).

    torch_compare.py CASE WORKDIR --onnxc BIN --onnxc-run BIN --make-trainable BIN

For CASE: builds a network in torch (float64, seeded weights), exports it
with torch.onnx.export, makes it trainable with onnxc-make-trainable (the
loss and optimizer of the case), compiles it with onnxc, trains N steps
with `onnxc-run --train-steps N --save-params` on one fixed batch, trains
the same torch network N steps with the matching torch optimizer on the
same batch, and compares every parameter: |onnxc - torch| <= rtol * |torch|
+ atol with rtol 1e-3 (issue 11's bound) and atol 1e-9 (float64: the
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
    with torch.no_grad():
        out = net(x)
    if loss == "mse":
        target = torch.randn(*out.shape, dtype=torch.float64)
    else:
        target = torch.randint(0, out.shape[1], (out.shape[0],))
    infer = os.path.join(args.work, "model.onnx")
    torch.onnx.export(net, x, infer, input_names=["x"], output_names=["y"],
                      opset_version=13, do_constant_folding=False,
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

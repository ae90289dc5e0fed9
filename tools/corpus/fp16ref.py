#!/usr/bin/python3
"""fp16ref.py - a second fp16 engine, to tell who is right when onnxc and
ONNX Runtime differ on an fp16 corpus model.

    fp16ref.py MODEL.onnx DATA_SET [--got DIR]

Evaluates the fp16 model with torch: every op in fp32 (the products and
sums of Conv and Gemm in fp32) on fp16 values, each op's output rounded to
fp16, which is what the ONNX semantics of an fp16 graph is up to where the
rounding happens. Prints the largest difference, as a share of the output's
largest magnitude, between this emulation and ORT's outputs
(DATA_SET/output_<k>.pb) and, with --got, onnxc's (onnxc-run --save DIR).
Two correct engines land a few 1e-3 apart on the corpus's fp16 models
(tools/corpus/corpus.py TOLERANCES, fp16). With --fp32 nothing is rounded
(a check of the emulator itself on an fp32 model: ~1e-6).

Ops: those of the corpus's fp16 models (Conv, Relu, Clip, Add, Sigmoid,
MaxPool, Concat, Resize, Cast, Constant, GlobalAveragePool, Flatten,
Gemm); anything else is an error.
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import read_pb  # noqa: E402


def topological(nodes, ready):
    """The nodes in an order where each follows its inputs' producers (an
    older converter leaves the graph unsorted)."""
    ready, todo, out = set(ready), list(nodes), []
    while todo:
        rest = [n for n in todo if not all(not i or i in ready for i in n.input)]
        done = [n for n in todo if n not in rest]
        if not done:
            raise SystemExit("fp16ref: a cycle, or an input nothing produces")
        for n in done:
            out.append(n)
            ready.update(n.output)
        todo = rest
    return out


def evaluate(model, feeds, round16=True):
    import torch
    F = torch.nn.functional

    def r(t):
        return t.half().float() if round16 else t

    def tensor(a):
        a = np.array(a)
        return torch.from_numpy(a.astype(np.float32) if a.dtype == np.float16 else a)

    g = model.graph
    v = {t.name: tensor(numpy_helper.to_array(t)) for t in g.initializer}
    for vi, a in zip([i for i in g.input if i.name not in v], feeds):
        v[vi.name] = tensor(a)
    for n in topological(g.node, set(v)):
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        x = [v[i] if i else None for i in n.input]
        op = n.op_type
        if op == "Constant":
            out = tensor(numpy_helper.to_array(a["value"]))
        elif op == "Cast":
            out = x[0].float() if a["to"] == onnx.TensorProto.FLOAT else r(x[0].float())
        elif op == "Conv":
            p = a.get("pads", [0, 0, 0, 0])
            out = r(F.conv2d(x[0], x[1], x[2] if len(x) > 2 else None,
                             stride=a.get("strides", 1), padding=(p[0], p[1]),
                             dilation=a.get("dilations", 1), groups=a.get("group", 1)))
        elif op == "Relu":
            out = F.relu(x[0])
        elif op == "Clip":
            out = torch.clamp(x[0], float(x[1]), float(x[2]))
        elif op == "Add":
            out = r(x[0] + x[1])
        elif op == "Sigmoid":
            out = r(torch.sigmoid(x[0]))
        elif op == "MaxPool":
            p = a.get("pads", [0, 0, 0, 0])
            out = F.max_pool2d(x[0], a["kernel_shape"], a.get("strides"), (p[0], p[1]),
                               ceil_mode=bool(a.get("ceil_mode", 0)))
        elif op == "Concat":
            out = torch.cat(x, dim=a["axis"])
        elif op == "Resize":
            s = x[2].tolist()[2:]
            if a["mode"] == b"nearest":
                out = F.interpolate(x[0], scale_factor=s, mode="nearest")
            else:
                out = r(F.interpolate(x[0], scale_factor=s, mode="bilinear",
                                      align_corners=False))
        elif op == "GlobalAveragePool":
            out = r(x[0].mean(dim=(2, 3), keepdim=True))
        elif op == "Flatten":
            out = torch.flatten(x[0], a.get("axis", 1))
        elif op == "Gemm":
            w = x[1].t() if a.get("transB", 0) else x[1]
            out = r(x[0] @ w + (x[2] if len(x) > 2 else 0))
        else:
            raise SystemExit("fp16ref: no emulation of %s (node %s)" % (op, n.name))
        v[n.output[0]] = out
    return [v[o.name].numpy() for o in g.output]


def main(argv):
    p = argparse.ArgumentParser(prog="fp16ref.py", description=__doc__.split("\n")[0])
    p.add_argument("model")
    p.add_argument("data_set")
    p.add_argument("--got", help="onnxc's outputs (onnxc-run --save DIR)")
    p.add_argument("--fp32", action="store_true", help="round nothing")
    args = p.parse_args(argv)
    model = onnx.load(args.model)
    k, feeds = 0, []
    while os.path.exists(os.path.join(args.data_set, "input_%d.pb" % k)):
        feeds.append(read_pb(os.path.join(args.data_set, "input_%d.pb" % k)))
        k += 1
    outs = evaluate(model, feeds, not args.fp32)
    for k, e in enumerate(outs):
        e = e.astype(np.float64)
        ort = read_pb(os.path.join(args.data_set, "output_%d.pb" % k)).astype(np.float64)
        scale = float(np.max(np.abs(ort)))
        line = "output %d: emulation vs ORT %.2e" % (k, np.max(np.abs(e - ort)) / scale)
        if args.got:
            got = read_pb(os.path.join(args.got, "output_%d.pb" % k)).astype(np.float64)
            line += ", vs onnxc %.2e, onnxc vs ORT %.2e" % (
                np.max(np.abs(e - got)) / scale, np.max(np.abs(got - ort)) / scale)
        print(line + " (of max |ORT| %.3g)" % scale)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

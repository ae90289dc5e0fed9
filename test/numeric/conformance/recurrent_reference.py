#!/usr/bin/python3
"""RNN, GRU and LSTM against a numpy reference, for the attributes that the
ONNX backend test data (libonnx 1.12) does not cover: directions,
layout 1, activations with activation_alpha / activation_beta, clip,
sequence_lens, input_forget, peepholes, linear_before_reset, every optional
input and output, f16 and f64.

For each case it builds a one-node model (opset 14), random inputs (fixed
seed), the expected outputs from the reference below (float64, written
independently of onnxc's lowering: one batch entry at a time), compiles the
model with onnxc and compares with onnxc-run --expect (rtol 1e-3, atol 1e-5,
as the conformance run). With --dynamic every graph-input dim is symbolic.
Error cases check onnxc-run's run-time failures (sequence_lens out of
range, mismatched dynamic shapes).

    recurrent_reference.py --onnxc ONNXC --onnxc-run ONNXC_RUN --work DIR
                           [--dynamic] [--filter SUBSTRING]

Prints one line per case (PASS / FAIL with the reason), then
`recurrent-reference: N passed, M failed`; exits 1 if any failed.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_conformance import make_dynamic  # noqa: E402

#===----------------------------------------------------------------------===#
# The reference
#===----------------------------------------------------------------------===#

# name -> (takes alpha, takes beta, default alpha, default beta); the
# defaults are those of the ONNX operators of the same name.
ACTIVATIONS = {
    "relu": (False, False, 0, 0),
    "tanh": (False, False, 0, 0),
    "sigmoid": (False, False, 0, 0),
    "affine": (True, True, 1.0, 0.0),
    "leakyrelu": (True, False, 0.01, 0),
    "thresholdedrelu": (True, False, 1.0, 0),
    "scaledtanh": (True, True, None, None),
    "hardsigmoid": (True, True, 0.2, 0.5),
    "elu": (True, False, 1.0, 0),
    "softsign": (False, False, 0, 0),
    "softplus": (False, False, 0, 0),
}


def activation_fns(names, alphas, betas):
    """The activations as (name, alpha, beta), the values consumed in order
    by the functions that take them (as onnxruntime)."""
    alphas, betas = list(alphas or []), list(betas or [])
    out = []
    for n in names:
        ta, tb, da, db = ACTIVATIONS[n.lower()]
        a = alphas.pop(0) if ta and alphas else da
        b = betas.pop(0) if tb and betas else db
        out.append((n.lower(), a, b))
    return out


def apply(act, x):
    name, a, b = act
    if name == "relu":
        return np.maximum(x, 0)
    if name == "tanh":
        return np.tanh(x)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "affine":
        return a * x + b
    if name == "leakyrelu":
        return np.where(x < 0, a * x, x)
    if name == "thresholdedrelu":
        return np.where(x > a, x, 0)
    if name == "scaledtanh":
        return a * np.tanh(b * x)
    if name == "hardsigmoid":
        return np.clip(a * x + b, 0, 1)
    if name == "elu":
        return np.where(x < 0, a * (np.exp(x) - 1), x)
    if name == "softsign":
        return x / (1 + np.abs(x))
    if name == "softplus":
        return np.log1p(np.exp(x))
    raise ValueError(name)


DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def reference(op, attrs, X, W, R, B=None, lens=None, h0=None, c0=None,
              P=None):
    """Y, Y_h, Y_c (Y_c only for LSTM) in float64."""
    X, W, R = (a.astype(np.float64) for a in (X, W, R))
    layout = attrs.get("layout", 0)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    seq, batch, _ = X.shape
    direction = attrs.get("direction", "forward")
    dirs = {"forward": [False], "reverse": [True],
            "bidirectional": [False, True]}[direction]
    nd = len(dirs)
    H = R.shape[2]
    G = GATES[op]
    per_dir = len(DEFAULT_ACTS[op])
    names = attrs.get("activations", DEFAULT_ACTS[op] * nd)
    if op == "RNN" and nd == 1 and len(names) == 2:
        names = names[:1]
    acts = activation_fns(names, attrs.get("activation_alpha"),
                          attrs.get("activation_beta"))
    clip = attrs.get("clip")
    def cl(v):
        return v if clip is None else np.clip(v, -clip, clip)
    lbr = attrs.get("linear_before_reset", 0)
    input_forget = attrs.get("input_forget", 0)
    B = np.zeros((nd, 2 * G * H)) if B is None else B.astype(np.float64)
    P = np.zeros((nd, 3 * H)) if P is None else P.astype(np.float64)
    Y = np.zeros((seq, nd, batch, H))
    Yh = np.zeros((nd, batch, H))
    Yc = np.zeros((nd, batch, H))
    for d, rev in enumerate(dirs):
        f, g, h = (acts[d * per_dir:(d + 1) * per_dir] + [None, None])[:3]
        Wd, Rd, Bd, Pd = W[d], R[d], B[d], P[d]
        Wb, Rb = Bd[:G * H], Bd[G * H:]
        def blk(m, k):
            return m[k * H:(k + 1) * H]
        for b in range(batch):
            L = seq if lens is None else int(lens[b])
            hs = np.zeros(H) if h0 is None else h0[d, b].astype(np.float64)
            cs = np.zeros(H) if c0 is None else c0[d, b].astype(np.float64)
            steps = range(L - 1, -1, -1) if rev else range(L)
            for t in steps:
                x = X[t, b]
                if op == "RNN":
                    hs = apply(f, cl(Wd @ x + Rd @ hs + Wb + Rb))
                elif op == "GRU":
                    z = apply(f, cl(blk(Wd, 0) @ x + blk(Rd, 0) @ hs
                                    + blk(Wb, 0) + blk(Rb, 0)))
                    r = apply(f, cl(blk(Wd, 1) @ x + blk(Rd, 1) @ hs
                                    + blk(Wb, 1) + blk(Rb, 1)))
                    if lbr:
                        pre = (blk(Wd, 2) @ x + blk(Wb, 2)
                               + r * (blk(Rd, 2) @ hs + blk(Rb, 2)))
                    else:
                        pre = (blk(Wd, 2) @ x + blk(Rd, 2) @ (r * hs)
                               + blk(Rb, 2) + blk(Wb, 2))
                    hh = apply(g, cl(pre))
                    hs = (1 - z) * hh + z * hs
                else:  # LSTM, gates iofc, peepholes iof
                    def pre(k):
                        return (blk(Wd, k) @ x + blk(Rd, k) @ hs + blk(Wb, k)
                                + blk(Rb, k))
                    i = apply(f, cl(pre(0) + blk(Pd, 0) * cs))
                    if input_forget:
                        fg = 1 - i
                    else:
                        fg = apply(f, cl(pre(2) + blk(Pd, 2) * cs))
                    ct = apply(g, cl(pre(3)))
                    cs = fg * cs + i * ct
                    o = apply(f, cl(pre(1) + blk(Pd, 1) * cs))
                    hs = o * apply(h, cs)
                Y[t, d, b] = hs
            # A sequence of length 0 has no last state: 0 (as onnxruntime).
            Yh[d, b] = hs if L > 0 else 0
            Yc[d, b] = cs if L > 0 else 0
    if layout:
        Y = Y.transpose(2, 0, 1, 3)
        Yh = Yh.transpose(1, 0, 2)
        Yc = Yc.transpose(1, 0, 2)
    return Y, Yh, Yc


#===----------------------------------------------------------------------===#
# The cases
#===----------------------------------------------------------------------===#

def case(name, op, seq, batch, inp, hidden, attrs=None, inputs=("B",),
         outputs=("Y", "Y_h"), dtype=np.float32, lens=None,
         hidden_attr=True, expect_error=None, bad=None, const=False):
    """const: W, R, B and P are initializers (compiled-in constants, as in
    exported models) rather than graph inputs."""
    return dict(name=name, op=op, seq=seq, batch=batch, input=inp,
                hidden=hidden, attrs=attrs or {}, inputs=inputs,
                outputs=outputs, dtype=dtype, lens=lens,
                hidden_attr=hidden_attr, expect_error=expect_error, bad=bad,
                const=const)


ALL_LSTM = ("B", "sequence_lens", "initial_h", "initial_c", "P")
CASES = [
    # RNN
    case("rnn_bidirectional", "RNN", 4, 3, 2, 5,
         {"direction": "bidirectional"}, ("B", "initial_h")),
    case("rnn_reverse_relu_clip", "RNN", 5, 2, 3, 4,
         {"direction": "reverse", "activations": ["Relu"], "clip": 0.7}),
    case("rnn_bidirectional_leakyrelu_softsign_layout1", "RNN", 3, 2, 3, 4,
         {"direction": "bidirectional", "layout": 1,
          "activations": ["LeakyRelu", "Softsign"], "activation_alpha": [0.3]},
         ("B", "initial_h")),
    case("rnn_seq_lens_reverse", "RNN", 5, 4, 2, 3,
         {"direction": "reverse"}, ("B", "sequence_lens", "initial_h"),
         lens=[5, 2, 0, 3]),
    case("rnn_tanh_tanh_forward", "RNN", 3, 2, 2, 3,
         {"activations": ["Tanh", "Tanh"]}),
    case("rnn_no_hidden_size_y_only", "RNN", 3, 2, 2, 3, {}, ("B",),
         outputs=("Y",), hidden_attr=False),
    # GRU
    case("gru_bidirectional_lbr_seq_lens", "GRU", 5, 3, 3, 4,
         {"direction": "bidirectional", "linear_before_reset": 1},
         ("B", "sequence_lens", "initial_h"), lens=[5, 3, 1]),
    case("gru_reverse_seq_lens_layout1", "GRU", 4, 3, 2, 5,
         {"direction": "reverse", "layout": 1},
         ("B", "sequence_lens", "initial_h"), lens=[2, 4, 3]),
    case("gru_hardsigmoid_elu_clip", "GRU", 4, 2, 3, 3,
         {"activations": ["HardSigmoid", "Elu"],
          "activation_alpha": [0.3, 0.8], "activation_beta": [0.4],
          "clip": 1.5}, ("B", "initial_h")),
    case("gru_bidirectional_affine_thresholdedrelu_softplus_relu", "GRU", 3, 2,
         2, 4,
         {"direction": "bidirectional",
          "activations": ["Affine", "ThresholdedRelu", "Sigmoid", "Softplus"],
          "activation_alpha": [0.5, 0.1], "activation_beta": [0.2]}),
    case("gru_lbr_no_bias_y_h_only", "GRU", 3, 2, 3, 4,
         {"linear_before_reset": 1}, (), outputs=("Y_h",)),
    case("gru_f16_bidirectional", "GRU", 4, 2, 3, 4,
         {"direction": "bidirectional"}, ("B", "initial_h"),
         dtype=np.float16),
    # LSTM
    case("lstm_bidirectional_all", "LSTM", 5, 3, 3, 4,
         {"direction": "bidirectional"}, ALL_LSTM,
         outputs=("Y", "Y_h", "Y_c"), lens=[5, 2, 4]),
    case("lstm_bidirectional_all_layout1", "LSTM", 4, 3, 2, 3,
         {"direction": "bidirectional", "layout": 1}, ALL_LSTM,
         outputs=("Y", "Y_h", "Y_c"), lens=[1, 4, 0]),
    case("lstm_reverse_input_forget_clip", "LSTM", 4, 2, 3, 4,
         {"direction": "reverse", "input_forget": 1, "clip": 0.9},
         ("B", "initial_h", "initial_c", "P"), outputs=("Y", "Y_h", "Y_c")),
    case("lstm_scaledtanh_affine_hardsigmoid", "LSTM", 3, 2, 2, 3,
         {"activations": ["HardSigmoid", "ScaledTanh", "Affine"],
          "activation_alpha": [0.25, 1.5, 0.7],
          "activation_beta": [0.45, 0.6, -0.1]}, ("B",),
         outputs=("Y", "Y_c")),
    case("lstm_bidirectional_mixed_acts", "LSTM", 3, 2, 3, 4,
         {"direction": "bidirectional",
          "activations": ["Sigmoid", "Tanh", "Softsign",
                          "HardSigmoid", "Elu", "LeakyRelu"]},
         ("B", "initial_h", "initial_c"), outputs=("Y", "Y_h", "Y_c")),
    case("lstm_no_hidden_size_f64", "LSTM", 3, 2, 2, 3, {},
         ("B", "initial_h", "initial_c"), outputs=("Y_h", "Y_c"),
         dtype=np.float64, hidden_attr=False),
    # Constant weights (onnxc reads R in place and the GEMM kernel gets W
    # and R packed at compile time); sizes that leave partial kernel panels
    # (4 * 9 = 36 and 3 * 13 = 39 gate rows) and several batch rows.
    case("lstm_const_bidirectional_all", "LSTM", 6, 3, 5, 9,
         {"direction": "bidirectional"}, ALL_LSTM,
         outputs=("Y", "Y_h", "Y_c"), lens=[6, 0, 4], const=True),
    case("gru_const_bidirectional_layout1", "GRU", 5, 3, 7, 13,
         {"direction": "bidirectional", "layout": 1}, ("B", "initial_h"),
         const=True),
    case("gru_const_lbr_reverse", "GRU", 5, 2, 6, 13,
         {"direction": "reverse", "linear_before_reset": 1},
         ("B", "sequence_lens"), lens=[3, 5], const=True),
    case("rnn_const_batch1", "RNN", 7, 1, 17, 40, {}, ("B", "initial_h"),
         const=True),
    case("lstm_const_f16", "LSTM", 4, 2, 3, 5, {}, ("B", "P"),
         outputs=("Y", "Y_h", "Y_c"), dtype=np.float16, const=True),
    case("gru_const_f64_reverse", "GRU", 4, 2, 3, 5,
         {"direction": "reverse"}, ("B",), dtype=np.float64, const=True),
    # Run-time errors.
    case("error_seq_lens_too_long", "LSTM", 3, 2, 2, 3, {},
         ("B", "sequence_lens"), lens=[3, 4],
         expect_error="node '#0' (LSTM): sequence_lens values must be in [0, seq_length]"),
    case("error_seq_lens_negative", "GRU", 3, 2, 2, 3, {},
         ("B", "sequence_lens"), lens=[-1, 2],
         expect_error="node '#0' (GRU): sequence_lens values must be in [0, seq_length]"),
    # Dynamic mode only: W of the wrong input size reaches the run.
    case("error_dynamic_w_shape", "RNN", 3, 2, 2, 3, {}, ("B",),
         bad="W", expect_error="node '#0' (RNN): W must have shape"),
]


#===----------------------------------------------------------------------===#
# Building and running
#===----------------------------------------------------------------------===#

ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
             np.float64: TensorProto.DOUBLE}
INPUT_ORDER = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c",
               "P"]


def make_case(c, rng):
    op, dt = c["op"], c["dtype"]
    seq, batch, inp, H = c["seq"], c["batch"], c["input"], c["hidden"]
    attrs = dict(c["attrs"])
    nd = 2 if attrs.get("direction") == "bidirectional" else 1
    G = GATES[op]
    layout = attrs.get("layout", 0)
    state = (batch, nd, H) if layout else (nd, batch, H)
    shapes = {"X": (batch, seq, inp) if layout else (seq, batch, inp),
              "W": (nd, G * H, inp), "R": (nd, G * H, H),
              "B": (nd, 2 * G * H), "initial_h": state, "initial_c": state,
              "P": (nd, 3 * H)}
    if c["bad"] == "W":
        shapes["W"] = (nd, G * H, inp + 1)
    vals = {}
    for n in INPUT_ORDER:
        if n in ("X", "W", "R") or n in c["inputs"]:
            if n == "sequence_lens":
                vals[n] = np.array(c["lens"], dtype=np.int32)
            else:
                vals[n] = rng.uniform(-1, 1, shapes[n]).astype(dt)
    onnx_attrs = dict(attrs)
    if c["hidden_attr"]:
        onnx_attrs["hidden_size"] = H
    # Inputs by position, "" for absent ones before a present one.
    last = max(i for i, n in enumerate(INPUT_ORDER) if n in vals)
    node_inputs = [n if n in vals else "" for n in INPUT_ORDER[:last + 1]]
    out_names = ["Y", "Y_h", "Y_c"][:3 if op == "LSTM" else 2]
    node_outputs = [n if n in c["outputs"] else "" for n in out_names]
    while node_outputs and not node_outputs[-1]:
        node_outputs.pop()
    node = helper.make_node(op, node_inputs, node_outputs, **onnx_attrs)
    weights = ("W", "R", "B", "P") if c["const"] else ()
    graph_inputs = [
        helper.make_tensor_value_info(
            n, TensorProto.INT32 if n == "sequence_lens" else ONNX_TYPE[dt],
            v.shape) for n, v in vals.items() if n not in weights]
    initializers = [numpy_helper.from_array(v, n) for n, v in vals.items()
                    if n in weights]
    expected = {}
    if not c["expect_error"]:
        Y, Yh, Yc = reference(op, attrs, vals["X"], vals["W"], vals["R"],
                              vals.get("B"), vals.get("sequence_lens"),
                              vals.get("initial_h"), vals.get("initial_c"),
                              vals.get("P"))
        expected = {"Y": Y, "Y_h": Yh, "Y_c": Yc}
    graph_outputs = []
    for n in c["outputs"]:
        shape = expected[n].shape if expected else None
        graph_outputs.append(helper.make_tensor_value_info(n, ONNX_TYPE[dt],
                                                           shape))
    graph = helper.make_graph([node], c["name"], graph_inputs, graph_outputs,
                              initializer=initializers)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="recurrent_reference")
    model.ir_version = 7
    names = [n for n in vals if n not in weights]
    inputs = [vals[n] for n in names]
    outputs = [expected[n].astype(dt) for n in c["outputs"]] if expected else []
    return model, names, inputs, outputs


def run_case(args, c, rng):
    work = os.path.join(args.work, c["name"] + ("_dyn" if args.dynamic else ""))
    os.makedirs(os.path.join(work, "data"), exist_ok=True)
    model, names, inputs, outputs = make_case(c, rng)
    path = os.path.join(work, "model.onnx")
    onnx.save(model, path)
    if args.dynamic:
        make_dynamic(path, path)
    data = os.path.join(work, "data")
    for i, (n, v) in enumerate(zip(names, inputs)):
        onnx.save_tensor(numpy_helper.from_array(v, n),
                         os.path.join(data, "input_%d.pb" % i))
    for i, (n, v) in enumerate(zip(c["outputs"], outputs)):
        onnx.save_tensor(numpy_helper.from_array(v, n),
                         os.path.join(data, "output_%d.pb" % i))
    lib = os.path.join(work, "m.so")
    p = subprocess.run([args.onnxc, path, "-o", lib], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        return "compile failed: " + (p.stderr.strip().splitlines() or ["?"])[0]
    cmd = [args.onnxc_run, lib, "--inputs", data]
    if not c["expect_error"]:
        cmd += ["--expect", data, "--rtol", "1e-3", "--atol", "1e-5"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    text = (r.stdout + r.stderr).strip()
    if c["expect_error"]:
        if r.returncode == 0:
            return "ran, expected the error '%s'" % c["expect_error"]
        if c["expect_error"] not in text:
            return "failed without '%s': %s" % (c["expect_error"], text[:300])
        return None
    if r.returncode != 0:
        return "onnxc-run: " + text[:500]
    return None


def main(argv):
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--onnxc", required=True)
    p.add_argument("--onnxc-run", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--dynamic", action="store_true")
    p.add_argument("--filter", default="")
    args = p.parse_args(argv)
    passed = failed = 0
    for c in CASES:
        if args.filter not in c["name"]:
            continue
        # Static shapes reject a bad W at compile time (see the lit tests).
        if c["bad"] and not args.dynamic:
            continue
        # One generator per case: each case's data does not depend on which
        # others ran.
        rng = np.random.default_rng(sum(map(ord, c["name"])))
        err = run_case(args, c, rng)
        if err:
            failed += 1
            print("FAIL %s: %s" % (c["name"], err))
        else:
            passed += 1
            print("PASS %s" % c["name"])
    print("recurrent-reference: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

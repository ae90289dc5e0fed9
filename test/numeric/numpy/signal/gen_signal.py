#!/usr/bin/python3
"""Writes signal-op test cases (DFT, STFT, the window functions,
MelWeightMatrix) in the ONNX backend-test layout:
OUT/signal/<case>/model.onnx + test_data_set_N/{input,output}_N.pb.

They cover what libonnx's node tests leave out: dft_length (padding and
cutting), onesided, complex and f64/f16 inputs, STFT without a window and
of complex signals, window and MelWeightMatrix output types. Expected
outputs come from numpy (np.fft, the ONNX reference formulas).

Usage: gen_signal.py OUT            the cases
       gen_signal.py OUT --errors   models whose second data set must fail
                                    at run time
"""
import os
import sys

import numpy as np

from onnx import TensorProto, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
from testcases import const, vi  # noqa: E402
import testcases  # noqa: E402

F = TensorProto.FLOAT
D = TensorProto.DOUBLE
H = TensorProto.FLOAT16
I64 = TensorProto.INT64
I32 = TensorProto.INT32


def save_case(root, name, graph, datasets):
    testcases.save_case(root, "signal", name, graph, datasets)


def to_complex(x):
    """[..., 1 or 2] -> complex128 [...]."""
    x = x.astype(np.float64)
    return x[..., 0] + (1j * x[..., 1] if x.shape[-1] == 2 else 0)


def from_complex(c, dtype):
    return np.stack([c.real, c.imag], -1).astype(dtype)


def dft_ref(x, n, axis, inverse, onesided, dtype):
    """ONNX DFT: the signal along `axis` padded or cut to n; onesided keeps
    the bins k <= n / 2."""
    c = to_complex(x)
    r = np.fft.ifft(c, n, axis=axis) if inverse else np.fft.fft(c, n, axis=axis)
    if onesided:
        r = np.take(r, np.arange(n // 2 + 1), axis=axis)
    return from_complex(r, dtype)


def dft_length_onesided(root):
    """A real signal, dft_length from the input (padding, cutting, equal),
    onesided: the output length along the axis is only known at run time."""
    graph = helper.make_graph(
        [helper.make_node("DFT", ["x", "n"], ["y"], axis=1, onesided=1)],
        "dft_length_onesided",
        [vi("x", F, [2, 12, 1]), vi("n", I64, [])],
        [vi("y", F, [2, None, 2])])
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 12, 1)).astype(np.float32)
    save_case(root, "dft_length_onesided", graph,
              [([x, np.array(n, np.int64)], [dft_ref(x, n, 1, False, True, np.float32)])
               for n in (16, 7, 12)])


def dft_complex_f64_inverse(root):
    """An f64 complex input, inverse along axis 2 of 4 with a constant
    dft_length (cuts 5 to 4 samples) and int32 dft_length."""
    graph = helper.make_graph(
        [const("n", np.int32(4)),
         helper.make_node("DFT", ["x", "n"], ["y"], axis=2, inverse=1)],
        "dft_complex_f64_inverse",
        [vi("x", D, [3, 2, 5, 2])],
        [vi("y", D, [3, 2, 4, 2])])
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 2, 5, 2))
    save_case(root, "dft_complex_f64_inverse", graph,
              [([x], [dft_ref(x, 4, 2, True, False, np.float64)])])


def dft_f16(root):
    """An f16 real input (the sums are f64; only the result is rounded)."""
    graph = helper.make_graph(
        [helper.make_node("DFT", ["x"], ["y"], axis=1)],
        "dft_f16", [vi("x", H, [1, 8, 1])], [vi("y", H, [1, 8, 2])])
    x = (np.arange(8) * 0.25 - 1).astype(np.float16).reshape(1, 8, 1)
    save_case(root, "dft_f16", graph,
              [([x], [dft_ref(x, 8, 1, False, False, np.float16)])])


def stft_ref(x, step, window, n, onesided, dtype):
    """ONNX STFT: frames of the window's length (n without one) every `step`
    samples, weighted by the window, each an n-point DFT."""
    c = to_complex(x)
    length = c.shape[1]
    w = np.ones(n) if window is None else window.astype(np.float64)
    frames = max(0, (length - n) // step + 1)
    out = []
    for f in range(frames):
        seg = c[:, f * step: f * step + len(w)] * w
        r = np.fft.fft(seg, n, axis=1)
        if onesided:
            r = r[:, : n // 2 + 1]
        out.append(r)
    r = np.stack(out, 1) if out else np.zeros((c.shape[0], 0, n // 2 + 1 if onesided else n))
    return from_complex(r, dtype)


def stft_complex(root):
    """A complex signal with a window, not onesided."""
    graph = helper.make_graph(
        [helper.make_node("STFT", ["x", "step", "w"], ["y"], onesided=0)],
        "stft_complex",
        [vi("x", F, [2, 40, 2]), vi("step", I64, []), vi("w", F, [10])],
        [vi("y", F, [2, 7, 10, 2])])
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 40, 2)).astype(np.float32)
    w = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(10) / 10)).astype(np.float32)
    save_case(root, "stft_complex", graph,
              [([x, np.array(5, np.int64), w], [stft_ref(x, 5, w, 10, False, np.float32)])])


def stft_f64_frame_length(root):
    """An f64 real signal, frame_length and frame_step from the inputs, no
    window, onesided (the default)."""
    graph = helper.make_graph(
        [helper.make_node("STFT", ["x", "step", "", "n"], ["y"])],
        "stft_f64_frame_length",
        [vi("x", D, [1, 50, 1]), vi("step", I32, []), vi("n", I32, [])],
        [vi("y", D, [1, None, None, 2])])
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 50, 1))
    save_case(root, "stft_f64_frame_length", graph,
              [([x, np.array(s, np.int32), np.array(n, np.int32)],
                [stft_ref(x, s, None, n, True, np.float64)])
               for s, n in ((7, 12), (3, 9))])


def window_ref(kind, size, periodic, compute):
    """The window functions' bodies: a0 - a1 cos(x) + a2 cos(2x) in
    `compute` precision."""
    a = {"HannWindow": (0.5, 0.5, 0.0), "HammingWindow": (25 / 46, 21 / 46, 0.0),
         "BlackmanWindow": (0.42, 0.5, 0.08)}[kind]
    a0, a1, a2 = (compute(v) for v in a)
    n = compute(size if periodic else size - 1)
    inc = compute(2 * np.pi) / n
    x = np.arange(size).astype(compute) * inc
    return a0 - a1 * np.cos(x) + a2 * np.cos(x * compute(2))


def windows(root):
    """Sizes from the input, periodic and symmetric, f64, f16 and integer
    results."""
    cases = [("HannWindow", 1, D, np.float64), ("HammingWindow", 0, H, np.float16),
             ("BlackmanWindow", 0, D, np.float64), ("HannWindow", 1, I64, np.int64)]
    for kind, periodic, dt, npdt in cases:
        name = "%s_%s_%s" % (kind.lower(), "periodic" if periodic else "symmetric",
                             np.dtype(npdt).name)
        graph = helper.make_graph(
            [helper.make_node(kind, ["n"], ["y"], periodic=periodic,
                              output_datatype=dt)],
            name, [vi("n", I32, [])], [vi("y", dt, [None])])
        compute = np.float64 if npdt == np.float64 else np.float32
        sizes = (2, 7, 16) if periodic or npdt != np.int64 else (8,)
        data = []
        for s in sizes:
            w = window_ref(kind, s, periodic, compute)
            # Cast semantics: float -> int truncates.
            data.append(([np.array(s, np.int32)], [w.astype(npdt)]))
        save_case(root, name, graph, data)


def mel_ref(bins, dft_length, rate, low, high, dtype):
    """ONNX's reference MelWeightMatrix (mel_step over num_mel_bins + 2)."""
    edges = np.arange(0, bins + 2)
    low_mel = 2595 * np.log10(1 + float(low) / 700)
    high_mel = 2595 * np.log10(1 + float(high) / 700)
    step = (high_mel - low_mel) / edges.shape[0]
    edges = edges * step + low_mel
    edges = 700 * (np.power(10, edges / 2595) - 1)
    edges = (((dft_length + 1) * edges) // rate).astype(int)
    out = np.zeros((dft_length // 2 + 1, bins))
    for i in range(bins):
        left, center, right = edges[i], edges[i + 1], edges[i + 2]
        if center == left:
            out[center, i] = 1
        else:
            for j in range(left, center + 1):
                out[j, i] = (j - left) / (center - left)
        if right > center:
            for j in range(center, right):
                out[j, i] = (right - j) / (right - center)
    return out.astype(dtype)


def melweightmatrix(root):
    """f32 and f64 band edges, f64 and int32 results, i64 sizes."""
    for edge_t, edge_np, out_t, out_np in ((F, np.float32, D, np.float64),
                                           (D, np.float64, I32, np.int32)):
        name = "melweightmatrix_%s_%s" % (np.dtype(edge_np).name, np.dtype(out_np).name)
        graph = helper.make_graph(
            [helper.make_node("MelWeightMatrix", ["m", "n", "r", "lo", "hi"], ["y"],
                              output_datatype=out_t)],
            name,
            [vi("m", I64, []), vi("n", I64, []), vi("r", I64, []),
             vi("lo", edge_t, []), vi("hi", edge_t, [])],
            [vi("y", out_t, [None, None])])
        data = []
        for m, n, r, lo, hi in ((10, 64, 16000, 100.0, 6000.0), (5, 33, 8000, 0.0, 4000.0)):
            data.append(([np.array(m, np.int64), np.array(n, np.int64),
                          np.array(r, np.int64), np.array(lo, edge_np),
                          np.array(hi, edge_np)],
                         [mel_ref(m, n, r, lo, hi, out_np)]))
        save_case(root, name, graph, data)


def errors(root):
    """Data set 0 runs, data set 1 must fail with a run-time error."""
    # dft_length 0.
    graph = helper.make_graph(
        [helper.make_node("DFT", ["x", "n"], ["y"], axis=1)],
        "dft_zero_length", [vi("x", F, [1, 4, 1]), vi("n", I64, [])],
        [vi("y", F, [1, None, 2])])
    x = np.arange(4, dtype=np.float32).reshape(1, 4, 1)
    save_case(root, "dft_zero_length", graph,
              [([x, np.array(4, np.int64)], [dft_ref(x, 4, 1, False, False, np.float32)]),
               ([x, np.array(0, np.int64)], [dft_ref(x, 4, 1, False, False, np.float32)])])
    # A declared output size that the size input does not match.
    graph = helper.make_graph(
        [helper.make_node("HannWindow", ["n"], ["y"])],
        "hann_static_size", [vi("n", I64, [])], [vi("y", F, [8])])
    w = window_ref("HannWindow", 8, 1, np.float32)
    save_case(root, "hann_static_size", graph,
              [([np.array(8, np.int64)], [w]), ([np.array(9, np.int64)], [w])])
    # frame_step 0.
    graph = helper.make_graph(
        [helper.make_node("STFT", ["x", "step", "", "n"], ["y"])],
        "stft_zero_step",
        [vi("x", F, [1, 16, 1]), vi("step", I64, []), vi("n", I64, [])],
        [vi("y", F, [1, None, None, 2])])
    x = np.arange(16, dtype=np.float32).reshape(1, 16, 1)
    y = stft_ref(x, 4, None, 8, True, np.float32)
    save_case(root, "stft_zero_step", graph,
              [([x, np.array(4, np.int64), np.array(8, np.int64)], [y]),
               ([x, np.array(0, np.int64), np.array(8, np.int64)], [y])])


def main():
    root = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--errors":
        errors(root)
        return
    for fn in (dft_length_onesided, dft_complex_f64_inverse, dft_f16, stft_complex,
               stft_f64_frame_length, windows, melweightmatrix):
        fn(root)


if __name__ == "__main__":
    main()

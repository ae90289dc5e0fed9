#!/usr/bin/python3
"""Writes models and run-time inputs for ops whose inputs from data the
ONNX spec or ONNX Runtime refuses (found by the 2026-11-26 re-audit of
issue 12): a compiled model must fail them with an error status and a
one-line message naming the node, never hang, crash or return OK with
made-up values.

The layout is gen_hostile.py's: OUT/hostile/<case>/model.onnx with
test_data_set_0 valid (inputs and numpy outputs) unless a case says
otherwise, and test_data_set_1.. hostile (inputs only, or outputs where the
case is valid). Node names are the case names.

Usage: gen_ops.py OUT
"""
import os
import sys

import numpy as np

from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402
from hostile import F, I32, I64, f32, i64, node, save, vi  # noqa: E402

CASES, case = hostile.collector()


@case
def roialign_adaptive(root):
    """RoiAlign with sampling_ratio 0 takes ceil(roi size / output size)
    samples per bin from the rois' values: a roi of 1e9 hung the model, an
    infinite one too (ORT: "All 'rois' values must be finite"). Set 4 is
    a large roi under the cap (16M samples): it runs."""
    x = np.ones((1, 1, 4, 4), np.float32)
    b = i64(0)
    save(root, "roialign_adaptive",
         [node("RoiAlign", ["x", "r", "b"], ["y"], "roialign_adaptive",
               output_height=2, output_width=2, sampling_ratio=0)],
         [vi("x", F, [1, 1, 4, 4]), vi("r", F, [1, 4]), vi("b", I64, [1])],
         [vi("y", F, [1, 1, 2, 2])],
         [([x, f32(0, 0, 2, 2).reshape(1, 4), b], [np.ones((1, 1, 2, 2), np.float32)]),
          ([x, f32(0, 0, 1e9, 1e9).reshape(1, 4), b], []),
          ([x, f32(0, 0, np.inf, np.inf).reshape(1, 4), b], []),
          ([x, f32(0, np.nan, 2, 2).reshape(1, 4), b], []),
          ([x, f32(0, 0, 4000, 4000).reshape(1, 4), b], [])],
         opset=16)


@case
def argmax_empty(root):
    """ArgMax/ArgMin over an axis that is empty at run time returned -1
    with OK (a following Gather reads -1 as the last element); ORT refuses
    it unless the result is empty too (set 2). argmin_empty has the axis
    statically 0 and the other dim symbolic (the verifier leaves it to run
    time: a static [0, 0] is valid)."""
    x = np.array([[1, 3], [4, 2]], np.float32)
    save(root, "argmax_empty",
         [node("ArgMax", ["x"], ["y"], "argmax_empty", axis=1, keepdims=0)],
         [vi("x", F, ["n", "m"])], [vi("y", I64, ["n"])],
         [([x], [i64(1, 0)]),
          ([np.zeros((2, 0), np.float32)], []),
          ([np.zeros((0, 0), np.float32)], [np.zeros(0, np.int64)])])
    save(root, "argmin_empty",
         [node("ArgMin", ["x"], ["y"], "argmin_empty", axis=-1)],
         [vi("x", F, ["n", 0])], [vi("y", I64, ["n", 1])],
         [([np.zeros((0, 0), np.float32)], [np.zeros((0, 1), np.int64)]),
          ([np.zeros((3, 0), np.float32)], [])])


@case
def pad_reflect_far(root):
    """Pad reflect with pads from data mirrors once: a side pads by at most
    the dim (after the crops) - 1, as ORT requires ("pre-pad exceeds
    maximum allowed"); it returned numpy's repeated reflection."""
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    save(root, "pad_reflect_far",
         [node("Pad", ["x", "p"], ["y"], "pad_reflect_far", mode="reflect")],
         [vi("x", F, ["n", 2]), vi("p", I64, [4])], [vi("y", F, ["m", 2])],
         [([x, i64(2, 0, 2, 0)], [np.pad(x, ((2, 2), (0, 0)), mode="reflect")]),
          ([x, i64(3, 0, 0, 0)], []),
          ([x, i64(-1, 0, 2, 0)], []),
          ([x[:1], i64(0, 0, 1, 0)], [])],
         opset=18)


@case
def resize_sizes_zero(root):
    """Resize with sizes from data: a size of 0 is a scale of 0 (ORT:
    "Scale value should be greater than 0"); it returned an empty tensor."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    save(root, "resize_sizes_zero",
         [node("Resize", ["x", "", "", "s"], ["y"], "resize_sizes_zero")],
         [vi("x", F, [1, 1, 2, 2]), vi("s", I64, [4])],
         [vi("y", F, [1, 1, "h", "w"])],
         [([x, i64(1, 1, 4, 4)], [x.repeat(2, axis=2).repeat(2, axis=3)]),
          ([x, i64(1, 1, 0, 4)], []),
          ([x, i64(1, 1, 4, -4)], [])])


def hann(n):
    """HannWindow (periodic) as the ONNX reference computes it."""
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)).astype(np.float32)


@case
def signal_sizes(root):
    """Sizes from data that ORT refuses: STFT with a frame longer than the
    signal (it returned no frames), HannWindow of a negative size (an
    empty window), MelWeightMatrix with NaN, negative or too high edges
    (zeros). Set 0 of the mel case has edges ORT accepts: it runs (its
    values are checked elsewhere); set 5 has the Nyquist frequency as the
    upper edge with an odd dft_length, which the ONNX reference accepts
    and ORT refuses: it runs."""
    sig = np.zeros((1, 8, 1), np.float32)
    save(root, "stft_long_frame",
         [node("STFT", ["x", "st", "", "n"], ["y"], "stft_long_frame")],
         [vi("x", F, [1, "l", 1]), vi("st", I64, []), vi("n", I64, [])],
         [vi("y", F, [1, "f", "b", 2])],
         [([sig, np.array(4, np.int64), np.array(8, np.int64)],
           [np.zeros((1, 1, 5, 2), np.float32)]),
          ([sig, np.array(4, np.int64), np.array(9, np.int64)], [])])
    save(root, "hann_negative",
         [node("HannWindow", ["n"], ["y"], "hann_negative")],
         [vi("n", I64, [])], [vi("y", F, ["n"])],
         [([np.array(4, np.int64)], [hann(4)]),
          ([np.array(0, np.int64)], [np.zeros(0, np.float32)]),
          ([np.array(-4, np.int64)], [])])
    args = ["nb", "dl", "sr", "lo", "hi"]

    def mel(lo, hi, dft=16):
        return [np.array(4, np.int64), np.array(dft, np.int64),
                np.array(8000, np.int64), np.array(lo, np.float32),
                np.array(hi, np.float32)]
    save(root, "mel_edges",
         [node("MelWeightMatrix", args, ["y"], "mel_edges")],
         [vi(a, I64, []) for a in args[:3]] + [vi(a, F, []) for a in args[3:]],
         [vi("y", F, ["r", "m"])],
         [(mel(0, 4000), []),
          (mel(np.nan, 4000), []),
          (mel(-10, 4000), []),
          (mel(0, np.inf), []),
          (mel(0, 1e9), []),
          (mel(0, 4000, dft=15), [])])


@case
def pow_int_zero(root):
    """Integer Pow of 0 to a negative power is 1 / 0: it returned 1 with OK
    (ORT: INT_MIN, numpy refuses negative integer powers). Other negative
    powers truncate toward 0, as ORT computes them."""
    a = np.array([2, 0, -1, 1, 2, 3], np.int32)
    save(root, "pow_int_zero",
         [node("Pow", ["a", "b"], ["y"], "pow_int_zero")],
         [vi("a", I32, ["n"]), vi("b", I64, ["n"])], [vi("y", I32, ["n"])],
         [([a, i64(-1, 2, -3, -100, 3, 4)], [np.array([0, 0, -1, 1, 8, 81], np.int32)]),
          ([a, i64(-1, -1, -3, -100, 3, 4)], [])])


@case
def empty_big_dims(root):
    """A shape whose element count is 0 but whose other dims multiply past
    2^63 was refused as overflowing ([2^32, 2^32, 0]); with smaller ones
    ([2^30, 2^30, 0]) the loops ran 2^60 empty iterations (a hang). Both
    are empty results, as in ORT, through ConstantOfShape and an
    elementwise op."""
    def empty(*dims):
        # A TensorProto: numpy refuses [2^32, 2^32, 0] ("array is too big").
        return helper.make_tensor("y", F, list(dims), [])
    save(root, "empty_big_dims",
         [node("ConstantOfShape", ["s"], ["c"], "empty_big_dims",
               value=helper.make_tensor("v", F, [1], [1.5])),
          node("Relu", ["c"], ["y"], "empty_big_dims_relu")],
         [vi("s", I64, [3])], [vi("y", F, ["a", "b", "c"])],
         [([i64(2, 1, 3)], [np.full((2, 1, 3), 1.5, np.float32)]),
          ([i64(1 << 32, 1 << 32, 0)], [empty(1 << 32, 1 << 32, 0)]),
          ([i64(1 << 30, 1 << 30, 0)], [empty(1 << 30, 1 << 30, 0)]),
          ([i64(1 << 32, 1 << 32, 2)], [])])


@case
def concat_many(root):
    """One Concat of 300 inputs (symbolic and static along the axis): the
    compiler took more than 100 s for 250 (one chain of 250 insert_slices
    for bufferization); it concatenates in a tree of 16 now. Set 1: an
    input of another width is still the run-time error naming it."""
    n = 300
    names = ["a" if i % 3 == 0 else "b" for i in range(n)]
    a = np.arange(3, dtype=np.float32).reshape(1, 3)
    b = np.arange(6, dtype=np.float32).reshape(2, 3) + 10
    y = np.concatenate([a if v == "a" else b for v in names], 0)
    save(root, "concat_many",
         [node("Concat", names, ["y"], "concat_many", axis=0)],
         [vi("a", F, ["n", "m"]), vi("b", F, [2, 3])], [vi("y", F, ["k", 3])],
         [([a, b], [y]),
          ([np.zeros((1, 4), np.float32), b], [])])


@case
def pool_empty(root):
    """A pool over a spatial dim that is 0 at run time pooled no input
    value: AveragePool returned NaN (0 / 0), MaxPool the lowest float,
    LpPool and GlobalLpPool 0, with OK. ORT refuses every pool of such an X
    ("Only N can be zero"); the spec defines a pool over the input's
    values. Set 0 is valid; the static case is a compile-time error
    (convert-onnx-to-linalg-pooling-invalid.mlir)."""
    x = f32(1, 2, 3).reshape(1, 1, 3)
    e = np.zeros((1, 1, 0), np.float32)
    for name, op, attrs, y in [
            ("avgpool_empty", "AveragePool", dict(pads=[1, 1]),
             f32(1, 1.5, 2.5, 3)),
            ("maxpool_empty", "MaxPool", dict(pads=[1, 1]), f32(1, 2, 3, 3)),
            ("lppool_empty", "LpPool", dict(pads=[1, 1]),
             np.sqrt(f32(1, 5, 13, 9)))]:
        save(root, name,
             [node(op, ["x"], ["y"], name, kernel_shape=[2], **attrs)],
             [vi("x", F, [1, 1, "n"])], [vi("y", F, [1, 1, "m"])],
             [([x], [y.reshape(1, 1, 4)]), ([e], [])])
    x2 = np.arange(6, dtype=np.float32).reshape(1, 2, 1, 3)
    save(root, "gap_empty",
         [node("GlobalAveragePool", ["x"], ["y"], "gap_empty")],
         [vi("x", F, [1, 2, "h", "w"])], [vi("y", F, [1, 2, 1, 1])],
         [([x2], [x2.mean(axis=(2, 3), keepdims=True)]),
          ([np.zeros((1, 2, 4, 0), np.float32)], [])])


@case
def split_many(root):
    """One Split of 1000 outputs (a symbolic input, outputs of 1 and 2
    elements): LLVM's -O2 took more than 120 s on an entry function that
    returned one struct of 1000 memref descriptors; it stores each through
    the wrapper's pointer now (codegen/result-stores.test). Set 1: an input
    of another size is the run-time error naming the node."""
    n = 1000
    sizes = [1 + i % 2 for i in range(n)]
    x = np.arange(sum(sizes), dtype=np.float32)
    parts = np.split(x, np.cumsum(sizes)[:-1])
    outs = ["y%d" % i for i in range(n)]
    save(root, "split_many",
         [node("Split", ["x", "s"], outs, "split_many", axis=0)],
         [vi("x", F, ["n"])], [vi(o, F, [k]) for o, k in zip(outs, sizes)],
         [([x], parts), ([x[:-1]], [])],
         inits=[helper.make_tensor("s", I64, [n], sizes)])


@case
def strnorm_batch(root):
    """StringNormalizer's X is [C] or [1, C]: a 2-D X whose first dim is
    symbolic compiles (libonnx 1.12's inference refused it) and must be 1
    at run time, as ORT requires."""
    x = np.array([["monday", "tuesday", "sunday"]], dtype=object)
    y = np.array([["MONDAY", "TUESDAY", "SUNDAY"]], dtype=object)
    save(root, "strnorm_batch",
         [node("StringNormalizer", ["x"], ["y"], "strnorm_batch",
               case_change_action="UPPER")],
         [vi("x", TensorProto.STRING, ["b", "c"])],
         [vi("y", TensorProto.STRING, [1, None])],
         [([x], [y]), ([np.concatenate([x, x])], [])])


@case
def scan8_lens(root):
    """ScanV8's sequence_lens from data: each entry in [1, the sequence
    length] (ORT refuses 0 and longer ones), one per batch entry. Set 0:
    lens [3, 1] match numpy (the rows past a length are zeros)."""
    body = helper.make_graph(
        [node("Add", ["s", "x"], ["s2"], "add"),
         node("Identity", ["s2"], ["y"], "id")],
        "body", [vi("s", F, [2]), vi("x", F, [2])],
        [vi("s2", F, [2]), vi("y", F, [2])])
    xs = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    init = np.zeros((2, 2), np.float32)
    ys = np.cumsum(xs, axis=1)
    ys[1, 1:] = 0
    final = np.stack([ys[0, 2], ys[1, 0]])
    save(root, "scan8_lens",
         [node("Scan", ["lens", "init", "xs"], ["final", "ys"], "scan8_lens",
               body=body, num_scan_inputs=1)],
         [vi("lens", I64, ["n"]), vi("init", F, ["b", 2]),
          vi("xs", F, ["b", "t", 2])],
         [vi("final", F, ["b", 2]), vi("ys", F, ["b", "t", 2])],
         [([i64(3, 1), init, xs], [final, ys]),
          ([i64(3, 0), init, xs], []),
          ([i64(4, 1), init, xs], []),
          ([i64(3), init, xs], [])],
         opset=8)


@case
def resize_aa_empty(root):
    """Resize with antialias over a dim whose size is known at run time
    only (its filter table is built then): a dim of size 0 has no tap to
    read for a non-empty result. Set 0 is valid (no reference: the shape
    is printed; test/numeric/ort/resize-ops.test checks the values)."""
    x = np.arange(24, dtype=np.float32).reshape(1, 1, 6, 4)
    save(root, "resize_aa_empty",
         [node("Resize", ["x", "", "", "s"], ["y"], "resize_aa_empty",
               mode="linear", antialias=1, axes=[2])],
         [vi("x", F, [1, 1, "h", 4]), vi("s", I64, [1])],
         [vi("y", F, [1, 1, None, 4])],
         [([x, i64(3)], []), ([np.zeros((1, 1, 0, 4), np.float32), i64(3)], [])],
         opset=19, check=False)  # onnx 1.12's checker predates antialias


@case
def if_declared_shape(root):
    """If branches whose outputs are declared [3, 4] over outer values of
    symbolic dims: the Identity in each branch compiles to a cast checked
    at run time (it was refused: 'input and output types do not match')."""
    then_g = helper.make_graph([node("Identity", ["a"], ["t"], "then_id")],
                               "then", [], [vi("t", F, [3, 4])])
    else_g = helper.make_graph([node("Identity", ["a2"], ["e"], "else_id")],
                               "else", [], [vi("e", F, [3, 4])])
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    save(root, "if_declared_shape",
         [node("If", ["c"], ["y"], "if_declared_shape", then_branch=then_g,
               else_branch=else_g)],
         [vi("c", TensorProto.BOOL, []), vi("a", F, ["p", "q"]),
          vi("a2", F, ["r", "s"])], [vi("y", F, [3, 4])],
         [([np.array(False), a, -a], [-a]),
          ([np.array(False), a, -a[:2]], [])])


@case
def nms_nan(root):
    """NonMaxSuppression with NaN scores: NaN sorts after every number
    (ties, only NaNs, keep the lower box first), so the result no longer
    depends on where the NaN boxes are (with IEEE's > a NaN tied with
    every score, and the merge sort's result followed the boxes'
    positions). ORT 1.30's order of NaN scores is its heap's (for scores
    [nan, .9, nan, .8, .1] it returns boxes 2, 0, 1, 3, 4), not a defined
    one; with a score_threshold NaN boxes are dropped, as in ORT. The
    boxes are disjoint: every box is selected, in score order."""
    nan = np.nan
    sets = []
    for s in ([0.9, nan, 0.8, 0.7], [nan, 0.9, nan, 0.8, 0.1],
              [nan, nan, nan], [0.1, 0.2, nan, 0.3, nan, 0.4, 0.5, 0.6, nan]):
        n = len(s)
        boxes = np.array([[[i * 10, 0, i * 10 + 5, 5] for i in range(n)]],
                         np.float32)
        sc = np.array(s, np.float32)
        order = sorted(range(n), key=lambda i: (np.isnan(sc[i]),
                                                -np.nan_to_num(sc[i]), i))
        sel = np.array([[0, 0, i] for i in order], np.int64).reshape(n, 3)
        sets.append(([boxes, sc.reshape(1, 1, n)], [sel]))
    save(root, "nms_nan",
         [node("NonMaxSuppression", ["b", "s", "m", "iou"], ["y"], "nms_nan")],
         [vi("b", F, [1, "n", 4]), vi("s", F, [1, 1, "n"])],
         [vi("y", I64, ["k", 3])], sets,
         inits=[numpy_helper.from_array(i64(10), "m"),
                numpy_helper.from_array(f32(0.5), "iou")],
         opset=11)


@case
def tfidf_skip_huge(root):
    """TfIdfVectorizer with max_skip_count 2^62 looped over 2^62 skip
    distances (a hang; ORT 1.30 hangs too): a distance of the row length
    or more fits no n-gram of 2 items, so every ordered pair of a row
    counts, as with max_skip_count = row length - 2 (ORT agrees with that
    count). tfidf_gram_huge: n-grams of 2^62 items, none in the pool: 0.
    Set 1 is a row of one item, set 2 of none."""
    pool = [1, 2, 1, 1, 1, 2, 2, 1]  # unigrams 1, 2; bigrams 11, 12, 21
    col = {(1,): 0, (2,): 1, (1, 1): 2, (1, 2): 3, (2, 1): 4}

    def tf(x, lo):
        y = np.zeros((x.shape[0], 5), np.float32)
        for r, row in enumerate(x.tolist()):
            for i, a in enumerate(row):
                if lo == 1 and (a,) in col:
                    y[r, col[(a,)]] += 1
                for b in row[i + 1:]:
                    if lo <= 2 and (a, b) in col:
                        y[r, col[(a, b)]] += 1
        return y

    x = np.array([[1, 1, 2, 1, 3, 2], [2, 3, 3, 3, 3, 1]], np.int64)
    for name, lo in (("tfidf_skip_huge", 1), ("tfidf_gram_huge", 2**62)):
        save(root, name,
             [node("TfIdfVectorizer", ["x"], ["y"], name, mode="TF",
                   min_gram_length=lo, max_gram_length=max(lo, 2),
                   max_skip_count=2**62, ngram_counts=[0, 2],
                   ngram_indexes=[0, 1, 2, 3, 4], pool_int64s=pool)],
             [vi("x", I64, ["n", "m"])], [vi("y", F, ["n", 5])],
             [([a], [tf(a, lo)]) for a in (x, x[:, :1], x[:, :0])],
             opset=9)


@case
def empty_checks(root):
    """Ops whose result is a statically empty 1-D int tensor were folded
    into an empty constant at import (such a tensor has known, no, values),
    dropping the checks of their inputs: Range with a constant delta of 0
    (int64 and int32), ScatterElements with an index into an empty tensor
    and CumSum with axis 5 returned an empty tensor with OK (ORT refuses
    all three). Each now fails at run time."""
    c = numpy_helper.from_array
    save(root, "range_delta0",
         [node("Range", ["a", "b", "d"], ["y"], "range_delta0"),
          node("Range", ["a32", "b32", "d32"], ["y32"], "range_delta0_i32")],
         [], [vi("y", I64, [0]), vi("y32", I32, [0])], [([], [])],
         inits=[c(np.array(0, np.int64), "a"), c(np.array(5, np.int64), "b"),
                c(np.array(0, np.int64), "d"),
                c(np.array(0, np.int32), "a32"),
                c(np.array(5, np.int32), "b32"),
                c(np.array(0, np.int32), "d32")])
    save(root, "scatter_empty",
         [node("ScatterElements", ["x", "i", "u"], ["y"], "scatter_empty")],
         [vi("x", I64, [0])], [vi("y", I64, [0])],
         [([np.zeros(0, np.int64)], [])],
         inits=[c(i64(0), "i"), c(i64(1), "u")])
    save(root, "cumsum_empty_axis",
         [node("CumSum", ["x", "a"], ["y"], "cumsum_empty_axis")],
         [vi("x", I64, [0])], [vi("y", I64, [0])],
         [([np.zeros(0, np.int64)], [])],
         inits=[c(np.array(5, np.int64), "a")])


@case
def split_len(root):
    """Split with 'split' from data of a length known at run time only:
    the sizes were read by position, so [6] for two outputs read past the
    tensor (the second size was whatever followed it) and [2, 4, 0] for
    two returned OK (ORT refuses both)."""
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    save(root, "split_len",
         [node("Split", ["x", "s"], ["y1", "y2"], "split_len", axis=1)],
         [vi("x", F, [4, 6]), vi("s", I64, ["k"])],
         [vi("y1", F, [4, None]), vi("y2", F, [4, None])],
         [([x, i64(2, 4)], [x[:, :2], x[:, 2:]]),
          ([x, i64(6)], []),
          ([x, i64(2, 4, 0)], [])])


@case
def scalar_len(root):
    """Scalar operands from data whose size is known at run time only
    (declared [k]): element 0 was read whatever the size, so a tensor of 0
    elements was read past its end (OneHot, TopK, CumSum, Trilu, DFT) and
    one of 2 elements gave OK (ORT refuses both); a 1-D Range bound made
    an internal 'tensor.extract' error. Set 0 is valid ([2] or [1])."""
    x5 = np.arange(5, dtype=np.float32)
    x33 = np.arange(9, dtype=np.float32).reshape(3, 3)
    sig = np.arange(4, dtype=np.float32).reshape(1, 4, 1)
    dft = np.fft.fft(sig[0, :, 0], 2)
    cases = [
        ("scalar_onehot", "OneHot", [vi("i", I64, [3]), vi("d", I64, ["k"])],
         [vi("y", F, [3, None])], ["i", "d", "v"],
         lambda d: [i64(0, 1, 2), d], np.eye(3, 2, dtype=np.float32), {},
         [numpy_helper.from_array(f32(0, 1), "v")]),
        ("scalar_topk", "TopK", [vi("x", F, [5]), vi("k", I64, ["k"])],
         [vi("y", F, [None])], ["x", "k"], lambda d: [x5, d], f32(4, 3), {},
         []),
        ("scalar_cumsum", "CumSum", [vi("x", F, [5]), vi("a", I64, ["k"])],
         [vi("y", F, [5])], ["x", "a"], lambda d: [x5, d - 2],
         np.cumsum(x5), {}, []),
        ("scalar_trilu", "Trilu", [vi("x", F, [3, 3]), vi("k", I64, ["k"])],
         [vi("y", F, [3, 3])], ["x", "k"], lambda d: [x33, d],
         np.triu(x33, 2), {}, []),
        ("scalar_dft", "DFT", [vi("x", F, [1, 4, 1]), vi("l", I64, ["k"])],
         [vi("y", F, [1, None, 2])], ["x", "l"], lambda d: [sig, d],
         np.stack([dft.real, dft.imag], -1).reshape(1, 2, 2).astype(
             np.float32), {}, []),
        ("scalar_range", "Range", [vi("a", I64, ["k"])],
         [vi("y", I64, [None])], ["a", "b", "c"], lambda d: [d],
         i64(2, 3, 4), {},
         [numpy_helper.from_array(np.array(5, np.int64), "b"),
          numpy_helper.from_array(np.array(1, np.int64), "c")]),
    ]
    for name, op, ins, outs, names, mk, want, attrs, inits in cases:
        n_out = 2 if op == "TopK" else 1
        outs = outs + ([vi("yi", I64, [None])] if op == "TopK" else [])
        want_all = [want, i64(4, 3)] if op == "TopK" else [want]
        save(root, name,
             [node(op, names, ["y", "yi"][:n_out], name, **attrs)],
             ins, outs,
             [(mk(i64(2)), want_all), (mk(np.zeros(0, np.int64)), []),
              (mk(i64(2, 2)), [])],
             inits=inits)


if __name__ == "__main__":
    hostile.main(CASES, sys.argv)

#!/usr/bin/python3
"""GridSample, RoiAlign, NonMaxSuppression and TfIdfVectorizer beyond the
ONNX test data, with ONNX Runtime as the oracle.

    gen_vision_ops.py write DIR            DIR/vision/<case>/model.onnx and
                                           test_data_set_0/input_<i>.pb
    gen_vision_ops.py oracle DIR CMD...    runs CMD MODEL --inputs SET
                                           --save SET (ort_run.js) on every
                                           case: the expected outputs

The layout is the conformance runner's (--data DIR --suites vision). The
ONNX tests cover GridSample on f32 2-D data with in-range grids, RoiAlign in
avg mode, NonMaxSuppression with every optional input given, and
TfIdfVectorizer in TF mode; these add every GridSample mode x padding mode x
align_corners with grids reaching past the borders, ties for nearest, f64 and
3-D (opset 20) GridSample, RoiAlign max mode, adaptive sampling, spatial_scale and rois
outside the image, NonMaxSuppression with centre boxes, score ties, absent
optional inputs and a large limit, and TfIdfVectorizer IDF/TFIDF with and
without weights, int64 input, 3-grams and permuted output columns.
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402

NP_TO_ONNX = {np.float32: T.FLOAT, np.float64: T.DOUBLE, np.int64: T.INT64,
              np.int32: T.INT32}


def model(name, op, inputs, attrs, out_type, opset, domain=""):
    """One-node model: `inputs` is [(name, array or None)] (None: absent)."""
    node_inputs = [n if a is not None else "" for n, a in inputs]
    while node_inputs and node_inputs[-1] == "":
        node_inputs.pop()
    graph_inputs = [
        helper.make_tensor_value_info(n, NP_TO_ONNX[a.dtype.type], a.shape)
        for n, a in inputs if a is not None]
    node = helper.make_node(op, node_inputs, ["y"], **attrs)
    graph = helper.make_graph(
        [node], name, graph_inputs,
        [helper.make_tensor_value_info("y", out_type, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid(domain,
                                                                     opset)])
    m.ir_version = 8
    return m, [a for _, a in inputs if a is not None]


def gridsample_cases(rng):
    for mode in ["bilinear", "nearest", "bicubic"]:
        for pad in ["zeros", "border", "reflection"]:
            for ac in [0, 1]:
                x = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
                # Past the borders, to exercise the padding modes.
                g = rng.uniform(-1.7, 1.7, (2, 6, 7, 2)).astype(np.float32)
                yield ("gridsample_%s_%s_ac%d" % (mode, pad, ac),
                       model("gs", "GridSample", [("x", x), ("grid", g)],
                             dict(mode=mode, padding_mode=pad,
                                  align_corners=ac), T.FLOAT, 16))
    # Coordinates exactly halfway between pixels: nearest rounds half to
    # even.
    for pad in ["zeros", "reflection"]:
        x = rng.standard_normal((1, 1, 4, 4)).astype(np.float32)
        g = (rng.integers(-1, 10, (1, 5, 6, 2)) / 4 - 1).astype(np.float32)
        yield ("gridsample_nearest_ties_%s" % pad,
               model("gs", "GridSample", [("x", x), ("grid", g)],
                     dict(mode="nearest", padding_mode=pad), T.FLOAT, 16))
    x = rng.standard_normal((1, 2, 4, 6))
    g = rng.uniform(-1.3, 1.3, (1, 3, 5, 2))
    yield ("gridsample_f64_opset20_cubic_reflection",
           model("gs", "GridSample", [("x", x), ("grid", g)],
                 dict(mode="cubic", padding_mode="reflection"), T.DOUBLE, 20))
    for mode in ["linear", "nearest"]:
        for pad in ["zeros", "border", "reflection"]:
            x = rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
            g = rng.uniform(-1.4, 1.4, (1, 2, 3, 4, 3)).astype(np.float32)
            yield ("gridsample_3d_%s_%s" % (mode, pad),
                   model("gs", "GridSample", [("x", x), ("grid", g)],
                         dict(mode=mode, padding_mode=pad), T.FLOAT, 20))


def roialign_cases(rng):
    def rois(n, h, w):
        r = np.empty((n, 4), np.float32)
        for i in range(n):
            x1, x2 = sorted(rng.uniform(-3, w + 3, 2))
            y1, y2 = sorted(rng.uniform(-3, h + 3, 2))
            r[i] = [x1, y1, x2, y2]
        r[0] = [2.0, 1.0, 2.5, 1.2]  # smaller than a pixel
        return r
    for mode in ["avg", "max"]:
        for ctm in ["half_pixel", "output_half_pixel"]:
            for sr in [0, 2]:
                x = rng.standard_normal((2, 3, 12, 10)).astype(np.float32)
                r = rois(5, 12 / 0.8, 10 / 0.8)
                bi = rng.integers(0, 2, 5).astype(np.int64)
                yield ("roialign_%s_%s_sr%d" % (mode, ctm, sr),
                       model("ra", "RoiAlign",
                             [("x", x), ("rois", r), ("batch_indices", bi)],
                             dict(mode=mode, coordinate_transformation_mode=ctm,
                                  output_height=3, output_width=4,
                                  sampling_ratio=sr, spatial_scale=0.8),
                             T.FLOAT, 16))
    x = rng.standard_normal((1, 2, 8, 9))
    r = rois(3, 8, 9).astype(np.float64)
    bi = np.zeros(3, np.int64)
    yield ("roialign_f64", model("ra", "RoiAlign",
                                 [("x", x), ("rois", r), ("batch_indices", bi)],
                                 dict(output_height=2, output_width=3),
                                 T.DOUBLE, 16))


def nms_cases(rng):
    def boxes(b, n, center):
        c = rng.uniform(0, 10, (b, n, 2))
        s = rng.uniform(0.5, 4, (b, n, 2))
        if center:
            return np.concatenate([c, s], -1).astype(np.float32)
        # [y1, x1, y2, x2], some with the corners swapped.
        a, z = c - s / 2, c + s / 2
        out = np.concatenate([a, z], -1)
        swap = rng.random((b, n)) < 0.3
        out[swap] = out[swap][:, [2, 3, 0, 1]]
        return out.astype(np.float32)
    i64 = lambda v: np.array([v], np.int64)
    f32 = lambda v: np.array([v], np.float32)
    for center in [0, 1]:
        yield ("nms_center%d" % center,
               model("nms", "NonMaxSuppression",
                     [("boxes", boxes(2, 30, center)),
                      ("scores", rng.random((2, 3, 30)).astype(np.float32)),
                      ("max", i64(5)), ("iou", f32(0.3)),
                      ("score", f32(0.2))],
                     dict(center_point_box=center), T.INT64, 11))
    # Scores from few values: ties go to the lower box index.
    scores = (rng.integers(0, 4, (1, 2, 25)) / 4).astype(np.float32)
    yield ("nms_ties", model("nms", "NonMaxSuppression",
                             [("boxes", boxes(1, 25, 0)), ("scores", scores),
                              ("max", i64(1000)), ("iou", f32(0.5))],
                             {}, T.INT64, 11))
    # Only max_output_boxes_per_class: no score threshold, iou 0.
    yield ("nms_no_thresholds",
           model("nms", "NonMaxSuppression",
                 [("boxes", boxes(1, 12, 0)),
                  ("scores", rng.random((1, 2, 12)).astype(np.float32)),
                  ("max", i64(4))], {}, T.INT64, 11))
    # No max_output_boxes_per_class: nothing is selected.
    yield ("nms_no_max",
           model("nms", "NonMaxSuppression",
                 [("boxes", boxes(1, 5, 0)),
                  ("scores", rng.random((1, 1, 5)).astype(np.float32))],
                 {}, T.INT64, 11))


def tfidf_cases(rng):
    # 1-, 2- and 3-grams over 0..6; columns permuted with a gap.
    pool = [1, 3, 5, 0, 1, 3, 2, 4, 5, 6, 6, 1, 1, 3, 2, 5, 6, 0, 4, 4]
    counts = [0, 3, 11]
    indexes = [7, 2, 0, 4, 1, 9, 3, 5, 8, 6]
    weights = [float(w) for w in rng.uniform(0.5, 2, 10).round(3)]
    x64 = rng.integers(0, 7, (3, 14)).astype(np.int64)
    x32 = rng.integers(0, 7, (20,)).astype(np.int32)
    common = dict(pool_int64s=pool, ngram_counts=counts, ngram_indexes=indexes)
    for mode in ["TF", "IDF", "TFIDF"]:
        for w in [False, True]:
            if mode == "TF" and w:
                continue
            attrs = dict(common, mode=mode, min_gram_length=1,
                         max_gram_length=3, max_skip_count=2)
            if w:
                attrs["weights"] = weights
            yield ("tfidf_%s%s" % (mode.lower(), "_weights" if w else ""),
                   model("tfidf", "TfIdfVectorizer", [("x", x64)], attrs,
                         T.FLOAT, 9))
    yield ("tfidf_1d_2to3grams",
           model("tfidf", "TfIdfVectorizer", [("x", x32)],
                 dict(common, mode="TF", min_gram_length=2, max_gram_length=3,
                      max_skip_count=3), T.FLOAT, 9))
    yield ("tfidf_unigrams_skip",
           model("tfidf", "TfIdfVectorizer", [("x", x32)],
                 dict(common, mode="TFIDF", weights=weights, min_gram_length=1,
                      max_gram_length=1, max_skip_count=4), T.FLOAT, 9))


def cases():
    rng = np.random.default_rng(7)
    for gen in [gridsample_cases, roialign_cases, nms_cases, tfidf_cases]:
        yield from gen(rng)


def write(root):
    for name, (m, inputs) in cases():
        testcases.save_model_case(root, "vision", name, m, inputs)


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "vision", __doc__)

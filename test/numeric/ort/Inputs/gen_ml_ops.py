#!/usr/bin/python3
"""ai.onnx.ml ops with ONNX Runtime as the oracle.

    gen_ml_ops.py write DIR [FAMILY...]    DIR/ml/<case>/model.onnx and
                                           test_data_set_0/input_<i>.pb
                                           (families: treereg treeclf prep
                                           linear svm tree5 labelenc4, the
                                           default, and
                                           unsupported: a CategoryMapper
                                           round trip, for the docs)
    gen_ml_ops.py oracle DIR CMD...        runs CMD MODEL --inputs SET
                                           --save SET (ort_run.js) on every
                                           case: the expected outputs

The layout is the conformance runner's (--data DIR --suites ml). libonnx
1.12 has no test data for the ml ops, so the models are written here the way
skl2onnx and onnxmltools shape them, with random trees (depth 3-8, up to 100
trees): TreeEnsembleRegressor with every aggregate_function x post_transform,
several targets, base values, every node mode, missing_value_tracks_true with
NaN inputs, the *_as_tensor attributes, 1-D and int64 X;
TreeEnsembleClassifier multi-class (random-forest and boosting shapes) with
every post_transform, and the binary shapes (one class id with positive or
mixed weights, 0/1/2 base values, both class ids); the preprocessing ops
(Scaler, Normalizer, Binarizer, Imputer, ArrayFeatureExtractor,
OneHotEncoder, LabelEncoder int/float, FeatureVectorizer), LinearRegressor
and LinearClassifier with every post_transform, SVMRegressor and
SVMClassifier with every kernel (liblinear and SVC forms, binary and
multi-class); TreeEnsemble (ai.onnx.ml 5) and LabelEncoder-4's tensor
attributes. A case ORT 1.30 cannot run carries a numpy reference
(testcases.save_model_case), which the oracle step keeps.
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402

NP_TO_ONNX = {np.float32: T.FLOAT, np.float64: T.DOUBLE, np.int64: T.INT64,
              np.int32: T.INT32, np.int16: T.INT16, np.float16: T.FLOAT16,
              np.object_: T.STRING}
MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ",
         "BRANCH_NEQ"]
POSTS = ["NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"]


def ml_model(name, nodes, inputs, outputs, ml_opset=3):
    """A model of `nodes` (ai.onnx.ml); `inputs` [(name, array)], `outputs`
    [(name, elem type)] with unknown shapes."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, NP_TO_ONNX[a.dtype.type], a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs])
    m = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", ml_opset)])
    m.ir_version = 8
    return m, [a for _, a in inputs]


def random_tree(rng, tree_id, depth, num_features, modes, thresholds,
                tracks_p, shuffle):
    """One tree as nodes_* lists and its leaves' node ids. Branches stop at
    random below `depth` (at least 2 levels)."""
    nodes = []  # (id, feature, mode, value, true, false, tracks)
    leaves = []
    ids = list(range(2 ** (depth + 1)))
    if shuffle:
        rng.shuffle(ids)
    counter = [0]

    def new_id():
        i = ids[counter[0]]
        counter[0] += 1
        return i

    # Iterative: (node id, level).
    root = new_id()
    stack = [(root, 0)]
    rows = {}
    while stack:
        nid, level = stack.pop()
        leaf = level == depth or (level >= 2 and rng.random() < 0.2)
        if leaf:
            rows[nid] = (nid, 0, "LEAF", 0.0, 0, 0, 0)
            leaves.append(nid)
            continue
        t, f = new_id(), new_id()
        mode = modes[rng.integers(len(modes))]
        rows[nid] = (nid, int(rng.integers(num_features)), mode,
                     float(thresholds()), t, f,
                     int(rng.random() < tracks_p))
        stack.append((f, level + 1))
        stack.append((t, level + 1))
    # The root first (it is the tree's first node listed), the rest shuffled
    # or in id order.
    rest = [k for k in rows if k != root]
    if shuffle:
        rng.shuffle(rest)
    else:
        rest.sort()
    for k in [root] + rest:
        nodes.append(rows[k])
    return nodes, leaves


def ensemble_attrs(rng, num_trees, depth, num_features, modes=("BRANCH_LEQ",),
                   thresholds=None, tracks_p=0.0, shuffle=False):
    thresholds = thresholds or (lambda: rng.standard_normal())
    attrs = {k: [] for k in ["nodes_treeids", "nodes_nodeids",
                             "nodes_featureids", "nodes_modes", "nodes_values",
                             "nodes_truenodeids", "nodes_falsenodeids",
                             "nodes_missing_value_tracks_true"]}
    leaves = []
    for t in range(num_trees):
        nodes, lv = random_tree(rng, t, depth, num_features, modes, thresholds,
                                tracks_p, shuffle)
        for nid, feat, mode, val, tr, fa, trk in nodes:
            attrs["nodes_treeids"].append(t)
            attrs["nodes_nodeids"].append(nid)
            attrs["nodes_featureids"].append(feat)
            attrs["nodes_modes"].append(mode)
            attrs["nodes_values"].append(val)
            attrs["nodes_truenodeids"].append(tr)
            attrs["nodes_falsenodeids"].append(fa)
            attrs["nodes_missing_value_tracks_true"].append(trk)
        leaves += [(t, l) for l in lv]
    if tracks_p == 0.0:
        del attrs["nodes_missing_value_tracks_true"]
    return attrs, leaves


def leaf_weights(rng, leaves, prefix, num_ids, pick, scale=1.0, low=None):
    """`prefix`{treeids,nodeids,ids,weights}: per leaf, the ids pick(tree)
    returns, weights uniform in [low, scale) (normal * scale without low)."""
    out = {prefix + k: [] for k in ["treeids", "nodeids", "ids", "weights"]}
    for t, l in leaves:
        for i in pick(t):
            out[prefix + "treeids"].append(t)
            out[prefix + "nodeids"].append(l)
            out[prefix + "ids"].append(int(i))
            w = rng.uniform(low, scale) if low is not None else \
                rng.standard_normal() * scale
            out[prefix + "weights"].append(float(w))
    return out


def as_tensor(attrs, names, dtype):
    """Moves the float lists `names` to their *_as_tensor forms."""
    for n in names:
        v = np.array(attrs.pop(n), dtype)
        attrs[n + "_as_tensor"] = numpy_helper.from_array(v)
    return attrs


def regressor_cases(rng):
    nf = 8
    x = rng.standard_normal((7, nf)).astype(np.float32)

    def reg(name, attrs, x=x, opset=3):
        node = helper.make_node("TreeEnsembleRegressor", ["x"], ["y"],
                                domain="ai.onnx.ml", **attrs)
        return name, ml_model(name, [node], [("x", x)], [("y", T.FLOAT)], opset)

    # Every aggregate x post transform, 3 targets, each leaf weighing a
    # random subset of the targets (MIN/MAX rows some target never got).
    for agg in ["SUM", "AVERAGE", "MIN", "MAX"]:
        for post in POSTS:
            a, leaves = ensemble_attrs(rng, 12, 4, nf)
            probit = post == "PROBIT"
            a.update(leaf_weights(
                rng, leaves, "target_", 3,
                lambda t: [i for i in range(3) if rng.random() < 0.7],
                scale=(0.9 / 12 if agg == "SUM" else 0.9) if probit else 1.0,
                low=0.05 / 12 if probit and agg == "SUM" else
                (0.05 if probit else None)))
            a.update(n_targets=3, aggregate_function=agg, post_transform=post)
            if agg == "SUM" and not probit:
                a["base_values"] = [0.5, -1.0, 2.0]
            yield reg("treereg_%s_%s" % (agg.lower(), post.lower()), a)
    # One target (gradient boosting): SUM with a base value, AVERAGE (random
    # forest), PROBIT.
    for agg, post, base in [("SUM", "NONE", [0.25]), ("AVERAGE", "NONE", None),
                            ("SUM", "PROBIT", None), ("MIN", "NONE", [1.0]),
                            ("MAX", "NONE", None)]:
        a, leaves = ensemble_attrs(rng, 30, 5, nf)
        probit = post == "PROBIT"
        a.update(leaf_weights(rng, leaves, "target_", 1, lambda t: [0],
                              scale=0.9 / 30 if probit else 1.0,
                              low=0.1 / 30 if probit else None))
        a.update(n_targets=1, aggregate_function=agg, post_transform=post)
        if base:
            a["base_values"] = base
        yield reg("treereg_1t_%s_%s" % (agg.lower(), post.lower()), a)
    # Every branch mode, ids shuffled, values on a grid (ties: EQ/NEQ/LT/LEQ
    # differ), NaN inputs, missing_value_tracks_true on some nodes.
    xg = rng.integers(-2, 3, (9, nf)).astype(np.float32)
    xg[rng.random(xg.shape) < 0.15] = np.nan
    for tracks in [0.0, 0.5]:
        a, leaves = ensemble_attrs(rng, 15, 5, nf, modes=MODES,
                                   thresholds=lambda: float(rng.integers(-1, 2)),
                                   tracks_p=tracks, shuffle=True)
        a.update(leaf_weights(rng, leaves, "target_", 2,
                              lambda t: [0, 1]))
        a.update(n_targets=2, aggregate_function="SUM")
        yield reg("treereg_modes%s" % ("_tracks" if tracks else ""), a, xg)
    # One mode each (the constant-mode walk), with NaN.
    for mode in MODES:
        a, leaves = ensemble_attrs(rng, 10, 4, nf, modes=[mode],
                                   thresholds=lambda: float(rng.integers(-1, 2)),
                                   tracks_p=0.3)
        a.update(leaf_weights(rng, leaves, "target_", 1, lambda t: [0]))
        a.update(n_targets=1)
        yield reg("treereg_only_%s" % mode.lower(), a, xg)
    # *_as_tensor (double thresholds and weights) on a double X.
    xd = rng.standard_normal((6, nf))
    a, leaves = ensemble_attrs(rng, 10, 4, nf)
    a.update(leaf_weights(rng, leaves, "target_", 2, lambda t: [0, 1]))
    a.update(n_targets=2, base_values=[0.1, 0.2])
    yield reg("treereg_as_tensor_f64",
              as_tensor(a, ["nodes_values", "target_weights", "base_values"],
                        np.float64), xd)
    # (ORT 1.30 has no int32 or int64 kernel for TreeEnsembleRegressor and
    # refuses a 1-D X: those onnxc forms are not compared here.)
    # skl2onnx's GradientBoostingRegressor shape: 100 trees depth 6 on 40
    # features, one target, a base value.
    xb = rng.standard_normal((50, 40)).astype(np.float32)
    a, leaves = ensemble_attrs(rng, 100, 6, 40)
    a.update(leaf_weights(rng, leaves, "target_", 1, lambda t: [0], 0.1))
    a.update(n_targets=1, base_values=[3.5])
    yield reg("treereg_gbm_100x6", a, xb)


def classifier_cases(rng):
    nf = 6
    x = rng.standard_normal((8, nf)).astype(np.float32)

    def clf(name, attrs, x=x, labels=None):
        node = helper.make_node("TreeEnsembleClassifier", ["x"], ["y", "z"],
                                domain="ai.onnx.ml", **attrs)
        return name, ml_model(name, [node], [("x", x)],
                              [("y", T.INT64), ("z", T.FLOAT)])

    # Multi-class, random-forest shape (every leaf weighs every class, as
    # probabilities) and boosting shape (tree t weighs class t % 4), with
    # every post transform.
    for shape in ["forest", "boost"]:
        for post in POSTS:
            a, leaves = ensemble_attrs(rng, 12, 4, nf)
            pick = (lambda t: range(4)) if shape == "forest" else \
                (lambda t: [t % 4])
            probit = post == "PROBIT"
            a.update(leaf_weights(rng, leaves, "class_", 4, pick,
                                  scale=0.9 / 12 if probit or shape == "forest"
                                  else 1.0,
                                  low=0.01 / 12 if probit or shape == "forest"
                                  else None))
            a.update(classlabels_int64s=[10, 20, 30, 40], post_transform=post)
            yield clf("treeclf_%s_%s" % (shape, post.lower()), a)
    # Leaves weighing some classes only (classes no leaf reached are not
    # labels) and base values.
    a, leaves = ensemble_attrs(rng, 5, 3, nf)
    a.update(leaf_weights(rng, leaves, "class_", 5,
                          lambda t: [i for i in range(5) if rng.random() < 0.3]))
    a.update(classlabels_int64s=[0, 1, 2, 3, 4],
             base_values=[-0.5, 0.5, 0.0, 0.1, -0.1])
    yield clf("treeclf_sparse_base", a)
    # Binary, one class id: probabilities of class 1 (all positive), and
    # boosting logits (mixed signs) with 0, 1 or 2 base values.
    for post in ["NONE", "LOGISTIC"]:
        a, leaves = ensemble_attrs(rng, 10, 4, nf)
        a.update(leaf_weights(rng, leaves, "class_", 2, lambda t: [1],
                              scale=0.1, low=0.0))
        a.update(classlabels_int64s=[0, 1], post_transform=post)
        yield clf("treeclf_binary_positive_%s" % post.lower(), a)
        for nbase in [0, 1, 2]:
            a, leaves = ensemble_attrs(rng, 10, 4, nf)
            a.update(leaf_weights(rng, leaves, "class_", 2, lambda t: [1], 0.5))
            a.update(classlabels_int64s=[3, 5], post_transform=post)
            if nbase:
                a["base_values"] = [0.2, -0.3][:nbase]
            yield clf("treeclf_binary_logit_%s_base%d" % (post.lower(), nbase),
                      a)
    # Binary, both class ids at every leaf.
    for post in ["NONE", "SOFTMAX"]:
        a, leaves = ensemble_attrs(rng, 10, 4, nf)
        a.update(leaf_weights(rng, leaves, "class_", 2, lambda t: [0, 1]))
        a.update(classlabels_int64s=[0, 1], post_transform=post)
        yield clf("treeclf_binary_both_%s" % post.lower(), a)
    # Large: 100 trees depth 6, 3 classes boosting, softmax, 64 rows.
    xb = rng.standard_normal((64, 30)).astype(np.float32)
    a, leaves = ensemble_attrs(rng, 99, 6, 30)
    a.update(leaf_weights(rng, leaves, "class_", 3, lambda t: [t % 3], 0.2))
    a.update(classlabels_int64s=[7, 8, 9], post_transform="SOFTMAX",
             base_values=[0.1, 0.0, -0.1])
    yield clf("treeclf_gbm_99x6", a, xb)


def one_node(name, op, inputs, outputs, attrs):
    node = helper.make_node(op, [n for n, _ in inputs], [n for n, _ in outputs],
                            domain="ai.onnx.ml", **attrs)
    return name, ml_model(name, [node], inputs, outputs)


def preprocess_cases(rng):
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)
    x = f32(5, 4)
    yield one_node("scaler_per_column", "Scaler", [("x", x)], [("y", T.FLOAT)],
                   dict(offset=[0.5, -1.0, 2.0, 0.0], scale=[2.0, 0.5, -1.0, 3.0]))
    yield one_node("scaler_single_f64", "Scaler",
                   [("x", rng.standard_normal((3, 6)))], [("y", T.FLOAT)],
                   dict(offset=[0.25], scale=[4.0]))
    yield one_node("scaler_int64", "Scaler",
                   [("x", rng.integers(-5, 5, (4, 3)).astype(np.int64))],
                   [("y", T.FLOAT)], dict(offset=[1.0, 2.0, 3.0], scale=[0.5, 1.0, 2.0]))
    xn = f32(6, 5)
    xn[2] = 0
    for norm in ["MAX", "L1", "L2"]:
        yield one_node("normalizer_%s" % norm.lower(), "Normalizer", [("x", xn)],
                       [("y", T.FLOAT)], dict(norm=norm))
    yield one_node("normalizer_l2_1d", "Normalizer", [("x", f32(7))],
                   [("y", T.FLOAT)], dict(norm="L2"))
    yield one_node("normalizer_max_int32", "Normalizer",
                   [("x", rng.integers(-4, 9, (3, 4)).astype(np.int32))],
                   [("y", T.FLOAT)], dict(norm="MAX"))
    yield one_node("binarizer", "Binarizer", [("x", f32(4, 5))], [("y", T.FLOAT)],
                   dict(threshold=0.3))
    xi = f32(6, 4)
    xi[rng.random(xi.shape) < 0.3] = np.nan
    yield one_node("imputer_nan_per_column", "Imputer", [("x", xi)],
                   [("y", T.FLOAT)],
                   dict(imputed_value_floats=[1.0, 2.0, 3.0, 4.0],
                        replaced_value_float=float("nan")))
    xz = rng.integers(-1, 2, (5, 3)).astype(np.float32)
    yield one_node("imputer_zero_single", "Imputer", [("x", xz)],
                   [("y", T.FLOAT)],
                   dict(imputed_value_floats=[9.5], replaced_value_float=0.0))
    yield one_node("imputer_int64", "Imputer",
                   [("x", rng.integers(-1, 3, (4, 3)).astype(np.int64))],
                   [("y", T.INT64)],
                   dict(imputed_value_int64s=[10, 20, 30], replaced_value_int64=-1))
    yield one_node("afe_2d", "ArrayFeatureExtractor",
                   [("x", f32(3, 6)), ("i", np.array([4, 1, 4], np.int64))],
                   [("y", T.FLOAT)], {})
    yield one_node("afe_3d_int64", "ArrayFeatureExtractor",
                   [("x", rng.integers(0, 100, (2, 3, 5)).astype(np.int64)),
                    ("i", np.array([[0], [3]], np.int64))], [("y", T.INT64)], {})
    yield one_node("onehot_int64", "OneHotEncoder",
                   [("x", rng.integers(0, 9, (2, 3)).astype(np.int64))],
                   [("y", T.FLOAT)], dict(cats_int64s=[1, 3, 5, 7], zeros=1))
    yield one_node("onehot_float_zeros0", "OneHotEncoder",
                   [("x", rng.choice([2.0, 4.0, 6.0], (3, 2)).astype(np.float32))],
                   [("y", T.FLOAT)], dict(cats_int64s=[6, 4, 2], zeros=0))
    keys_i = [5, -3, 12, 0, 7]
    keys_f = [0.5, -1.25, 3.0, 0.0, 2.5]
    xi64 = rng.choice(keys_i + [1, 2], (3, 4)).astype(np.int64)
    xf = rng.choice(keys_f + [9.0, -0.0], (3, 4)).astype(np.float32)
    xf[0, 0] = np.nan
    for kt, vt in [("i", "i"), ("i", "f"), ("f", "i"), ("f", "f")]:
        attrs = {}
        attrs["keys_int64s" if kt == "i" else "keys_floats"] = \
            keys_i if kt == "i" else keys_f
        if vt == "i":
            attrs.update(values_int64s=[10, 20, 30, 40, 50], default_int64=-7)
        else:
            attrs.update(values_floats=[1.5, 2.5, 3.5, 4.5, 5.5],
                         default_float=-0.5)
        yield one_node("labelencoder_%s%s" % (kt, vt), "LabelEncoder",
                       [("x", xi64 if kt == "i" else xf)],
                       [("y", T.INT64 if vt == "i" else T.FLOAT)], attrs)
    yield one_node("featurevectorizer", "FeatureVectorizer",
                   [("a", f32(4, 3)), ("b", f32(4, 2)), ("c", f32(4, 4))],
                   [("y", T.FLOAT)], dict(inputdimensions=[3, 2, 4]))
    yield one_node("featurevectorizer_int64", "FeatureVectorizer",
                   [("a", rng.integers(-3, 3, (2, 2)).astype(np.int64)),
                    ("b", rng.integers(-3, 3, (2, 3)).astype(np.int64))],
                   [("y", T.FLOAT)], dict(inputdimensions=[2, 3]))


def linear_cases(rng):
    x = rng.standard_normal((6, 5)).astype(np.float32)
    coef = lambda n: [float(v) for v in rng.standard_normal(n).round(4)]
    yield one_node("linreg_1t", "LinearRegressor", [("x", x)], [("y", T.FLOAT)],
                   dict(coefficients=coef(5), intercepts=[0.75], targets=1))
    for post in POSTS:
        scale = 0.05 if post == "PROBIT" else 1.0
        yield one_node("linreg_3t_%s" % post.lower(), "LinearRegressor",
                       [("x", x * scale if post != "PROBIT" else
                         np.abs(x) * 0.05)], [("y", T.FLOAT)],
                       dict(coefficients=[abs(c) for c in coef(15)]
                            if post == "PROBIT" else coef(15),
                            intercepts=[0.1, 0.2, 0.3] if post == "PROBIT"
                            else [0.5, -0.5, 1.0],
                            targets=3, post_transform=post))
    for post in POSTS:
        yield one_node("linclf_4c_%s" % post.lower(), "LinearClassifier",
                       [("x", np.abs(x) * 0.05 if post == "PROBIT" else x)],
                       [("y", T.INT64), ("z", T.FLOAT)],
                       dict(coefficients=[abs(c) for c in coef(20)]
                            if post == "PROBIT" else coef(20),
                            intercepts=[0.1, 0.2, 0.3, 0.05] if post == "PROBIT"
                            else [0.1, -0.2, 0.3, 0.0],
                            classlabels_ints=[4, 3, 2, 1], post_transform=post))
    for post in ["NONE", "LOGISTIC", "SOFTMAX", "SOFTMAX_ZERO"]:
        yield one_node("linclf_binary_%s" % post.lower(), "LinearClassifier",
                       [("x", x)], [("y", T.INT64), ("z", T.FLOAT)],
                       dict(coefficients=coef(5), intercepts=[0.25],
                            classlabels_ints=[0, 1], post_transform=post))
    yield one_node("linclf_int64", "LinearClassifier",
                   [("x", rng.integers(-3, 4, (4, 5)).astype(np.int64))],
                   [("y", T.INT64), ("z", T.FLOAT)],
                   dict(coefficients=coef(15), intercepts=[0.0, 0.5, -0.5],
                        classlabels_ints=[7, 8, 9], post_transform="SOFTMAX"))


def svm_cases(rng):
    nf = 4
    x = rng.standard_normal((7, nf)).astype(np.float32)
    fl = lambda *s: [float(v) for v in rng.standard_normal(s).ravel().round(4)]
    kernels = {"LINEAR": [0.0, 0.0, 0.0], "POLY": [0.5, 1.0, 3.0],
               "RBF": [0.3, 0.0, 0.0], "SIGMOID": [0.2, 0.1, 0.0]}
    yield one_node("svmreg_liblinear", "SVMRegressor", [("x", x)],
                   [("y", T.FLOAT)],
                   dict(coefficients=fl(nf), rho=[0.5], n_supports=0,
                        kernel_type="LINEAR", kernel_params=[0.0, 0.0, 0.0]))
    for kname, params in kernels.items():
        yield one_node("svmreg_%s" % kname.lower(), "SVMRegressor", [("x", x)],
                       [("y", T.FLOAT)],
                       dict(coefficients=fl(5), support_vectors=fl(5, nf),
                            rho=[-0.25], n_supports=5, kernel_type=kname,
                            kernel_params=params))
    yield one_node("svmreg_one_class", "SVMRegressor", [("x", x)],
                   [("y", T.FLOAT)],
                   dict(coefficients=fl(3), support_vectors=fl(3, nf),
                        rho=[0.1], n_supports=3, kernel_type="RBF",
                        kernel_params=[0.5, 0.0, 0.0], one_class=1))
    yield one_node("svmclf_liblinear_3c", "SVMClassifier", [("x", x)],
                   [("y", T.INT64), ("z", T.FLOAT)],
                   dict(coefficients=fl(3, nf), rho=[0.2],
                        classlabels_ints=[0, 1, 2], kernel_type="LINEAR",
                        kernel_params=[0.0, 0.0, 0.0], post_transform="SOFTMAX"))
    yield one_node("svmclf_liblinear_binary", "SVMClassifier", [("x", x)],
                   [("y", T.INT64), ("z", T.FLOAT)],
                   dict(coefficients=fl(2, nf), rho=[0.1],
                        classlabels_ints=[5, 6], kernel_type="LINEAR",
                        kernel_params=[0.0, 0.0, 0.0]))
    per = [2, 3, 2]
    nv = sum(per)
    for kname, params in kernels.items():
        yield one_node("svmclf_svc_%s_3c" % kname.lower(), "SVMClassifier",
                       [("x", x)], [("y", T.INT64), ("z", T.FLOAT)],
                       dict(coefficients=fl(2, nv), support_vectors=fl(nv, nf),
                            vectors_per_class=per, rho=fl(3),
                            classlabels_ints=[10, 11, 12], kernel_type=kname,
                            kernel_params=params))
    yield one_node("svmclf_svc_rbf_4c_logistic", "SVMClassifier", [("x", x)],
                   [("y", T.INT64), ("z", T.FLOAT)],
                   dict(coefficients=fl(3, 8), support_vectors=fl(8, nf),
                        vectors_per_class=[2, 2, 3, 1], rho=fl(6),
                        classlabels_ints=[1, 2, 3, 4], kernel_type="RBF",
                        kernel_params=[0.4, 0.0, 0.0], post_transform="LOGISTIC"))
    # Probability estimates (prob_a, prob_b: pairwise coupling).
    for k, kname, post in [(3, "RBF", "NONE"), (2, "LINEAR", "NONE"),
                           (4, "POLY", "SOFTMAX"), (5, "SIGMOID", "NONE")]:
        per = [1 + i % 2 for i in range(k)]
        nv, npairs = sum(per), k * (k - 1) // 2
        yield one_node("svmclf_svc_%s_%dc_proba_%s" % (kname.lower(), k,
                                                     post.lower()),
                       "SVMClassifier", [("x", x)],
                       [("y", T.INT64), ("z", T.FLOAT)],
                       dict(coefficients=fl(k - 1, nv),
                            support_vectors=fl(nv, nf), vectors_per_class=per,
                            rho=fl(npairs), prob_a=[float(v) for v in
                                                    -rng.uniform(0.5, 3, npairs)],
                            prob_b=fl(npairs), classlabels_ints=list(range(k)),
                            kernel_type=kname, kernel_params=kernels[kname],
                            post_transform=post))
    for post in ["NONE", "LOGISTIC", "SOFTMAX", "SOFTMAX_ZERO"]:
        yield one_node("svmclf_svc_binary_%s" % post.lower(), "SVMClassifier",
                       [("x", x)], [("y", T.INT64), ("z", T.FLOAT)],
                       dict(coefficients=fl(1, 5), support_vectors=fl(5, nf),
                            vectors_per_class=[3, 2], rho=[0.05],
                            classlabels_ints=[0, 1], kernel_type="RBF",
                            kernel_params=[0.5, 0.0, 0.0], post_transform=post))


def random_tree5(rng, nodes, leaves, depth, num_features, modes, thresholds,
                 tracks_p, num_targets, members):
    """One TreeEnsemble-5 tree appended to `nodes` (dicts of the nodes_*
    fields) and `leaves` ((target, weight)); returns its root's index.
    Branches stop at random below `depth` (at least 2 levels). A
    BRANCH_MEMBER node (mode 6) takes a set from members()."""
    def new_leaf():
        leaves.append((int(rng.integers(num_targets)),
                       float(rng.standard_normal())))
        return len(leaves) - 1

    root = len(nodes)
    nodes.append(None)
    stack = [(root, 0)]
    while stack:
        at, level = stack.pop()
        mode = int(modes[rng.integers(len(modes))])
        node = dict(feature=int(rng.integers(num_features)), mode=mode,
                    split=0.0 if mode == 6 else float(thresholds()),
                    set=members() if mode == 6 else None,
                    tracks=int(rng.random() < tracks_p))
        for side in ("true", "false"):
            if level + 1 == depth or (level >= 1 and rng.random() < 0.25):
                node[side] = (1, new_leaf())
            else:
                nodes.append(None)
                node[side] = (0, len(nodes) - 1)
                stack.append((len(nodes) - 1, level + 1))
        nodes[at] = node
    return root


def tree5_attrs(nodes, leaves, roots, n_targets, dtype, **extra):
    """The TreeEnsemble-5 attributes of `nodes`, `leaves` and `roots`."""
    members = []
    for n in nodes:
        if n["mode"] == 6:
            members += list(n["set"]) + [float("nan")]
    a = dict(
        nodes_featureids=[n["feature"] for n in nodes],
        nodes_modes=numpy_helper.from_array(
            np.array([n["mode"] for n in nodes], np.uint8)),
        nodes_splits=numpy_helper.from_array(
            np.array([n["split"] for n in nodes], dtype)),
        nodes_truenodeids=[n["true"][1] for n in nodes],
        nodes_trueleafs=[n["true"][0] for n in nodes],
        nodes_falsenodeids=[n["false"][1] for n in nodes],
        nodes_falseleafs=[n["false"][0] for n in nodes],
        leaf_targetids=[t for t, _ in leaves],
        leaf_weights=numpy_helper.from_array(
            np.array([w for _, w in leaves], dtype)),
        tree_roots=list(roots), n_targets=n_targets)
    if any(n["tracks"] for n in nodes):
        a["nodes_missing_value_tracks_true"] = [n["tracks"] for n in nodes]
    if members:
        a["membership_values"] = numpy_helper.from_array(
            np.array(members, dtype))
    a.update(extra)
    return a


def ensemble5(rng, num_trees, depth, num_features, num_targets,
              modes=(0,), thresholds=None, tracks_p=0.0, members=None,
              dtype=np.float32, **extra):
    thresholds = thresholds or (lambda: rng.standard_normal())
    nodes, leaves = [], []
    roots = [random_tree5(rng, nodes, leaves, depth, num_features, modes,
                          thresholds, tracks_p, num_targets, members)
             for _ in range(num_trees)]
    return tree5_attrs(nodes, leaves, roots, num_targets, dtype, **extra)


def eval_tree5(a, x):
    """TreeEnsemble-5 with SUM, in float32, as a numpy reference (no
    BRANCH_MEMBER, no missing-value tracking; post_transform NONE, SOFTMAX
    or LOGISTIC)."""
    arr = lambda k: numpy_helper.to_array(a[k])
    modes, splits = arr("nodes_modes"), arr("nodes_splits").astype(np.float32)
    weights = arr("leaf_weights").astype(np.float32)
    cmp = [np.less_equal, np.less, np.greater_equal, np.greater, np.equal,
           np.not_equal]
    y = np.zeros((x.shape[0], a["n_targets"]), np.float32)
    for r, row in enumerate(x.astype(np.float32)):
        for i in a["tree_roots"]:
            leaf = False
            while not leaf:
                go = cmp[modes[i]](row[a["nodes_featureids"][i]], splits[i])
                side = "true" if go else "false"
                leaf = a["nodes_%sleafs" % side][i] == 1
                i = a["nodes_%snodeids" % side][i]
            y[r, a["leaf_targetids"][i]] += weights[i]
    post = a.get("post_transform", 0)
    if post == 1:
        y = np.exp(y - y.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)
    elif post == 2:
        y = 1 / (1 + np.exp(-y))
    return y.astype(x.dtype)


def tree5_cases(rng):
    """TreeEnsemble (ai.onnx.ml 5) against ORT: every aggregate_function,
    the post transforms, several targets, every branch mode with NaN and
    missing_value_tracks_true, BRANCH_MEMBER sets, double and float16 X,
    one-leaf trees, a subtree two trees share, 100 trees depth 6."""
    nf = 6

    def te(name, attrs, x):
        node = helper.make_node("TreeEnsemble", ["x"], ["y"],
                                domain="ai.onnx.ml", **attrs)
        return name, ml_model(name, [node], [("x", x)],
                              [("y", NP_TO_ONNX[x.dtype.type])], 5)

    x = rng.standard_normal((7, nf)).astype(np.float32)
    aggs = ["average", "sum", "min", "max"]
    for agg in range(4):
        a = ensemble5(rng, 12, 4, nf, 3, aggregate_function=agg)
        yield te("tree5_%s_none" % aggs[agg], a, x)
    # ORT 1.30 reads post_transform 1 as LOGISTIC and 2 as SOFTMAX (its
    # own enum's order); the spec says 1 SOFTMAX, 2 LOGISTIC, which onnxc
    # follows: those two against numpy.
    for post in [1, 2, 3]:
        a = ensemble5(rng, 12, 4, nf, 3, post_transform=post)
        case = te("tree5_sum_%s" % POSTS[post].lower(), a, x)
        yield case + ((eval_tree5(a, x),) if post < 3 else ())
    # PROBIT on one target: small positive leaf weights.
    a = ensemble5(rng, 10, 4, nf, 1, post_transform=4)
    a["leaf_weights"] = numpy_helper.from_array(np.abs(
        numpy_helper.to_array(a["leaf_weights"])).astype(np.float32) * 0.05)
    yield te("tree5_1t_probit", a, x)
    # LOGISTIC on one target: ORT leaves the score as it is, the spec (and
    # onnxc) apply it; numpy.
    a = ensemble5(rng, 10, 4, nf, 1, post_transform=2)
    yield te("tree5_1t_logistic", a, x) + (eval_tree5(a, x),)
    # Every branch mode, values on a grid, NaN, tracks on some nodes.
    xg = rng.integers(-2, 3, (9, nf)).astype(np.float32)
    xg[rng.random(xg.shape) < 0.15] = np.nan
    grid = lambda: float(rng.integers(-1, 2))
    for tracks in [0.0, 0.5]:
        a = ensemble5(rng, 15, 5, nf, 2, modes=range(6), thresholds=grid,
                      tracks_p=tracks)
        yield te("tree5_modes%s" % ("_tracks" if tracks else ""), a, xg)
    # BRANCH_MEMBER: sets of 1-4 grid values, mixed with the other modes.
    sets = lambda: sorted(set(float(v) for v in
                              rng.integers(-2, 3, rng.integers(1, 5))))
    for tracks in [0.0, 0.5]:
        a = ensemble5(rng, 15, 5, nf, 2, modes=[0, 4, 6, 6], thresholds=grid,
                      tracks_p=tracks, members=sets)
        yield te("tree5_member%s" % ("_tracks" if tracks else ""), a, xg)
    # Double X (double splits, weights and sums), float16 X.
    a = ensemble5(rng, 10, 4, nf, 2, dtype=np.float64)
    yield te("tree5_f64", a, rng.standard_normal((6, nf)))
    # float16 X: ORT 1.30 refuses it (its inference compares the splits'
    # type with float), so a numpy walk in float32 is the reference.
    a = ensemble5(rng, 10, 4, nf, 2, modes=range(6), dtype=np.float16)
    xh = rng.standard_normal((6, nf)).astype(np.float16)
    yield te("tree5_f16", a, xh) + (eval_tree5(a, xh),)
    # One-leaf trees (a root whose two children are one leaf) beside
    # others, and a subtree two trees share (tree 2's root is a node of
    # tree 1).
    nodes, leaves = [], []
    roots = [random_tree5(rng, nodes, leaves, 3, nf, [0], rng.standard_normal,
                          0.0, 2, None) for _ in range(2)]
    leaves.append((1, 0.75))
    nodes.append(dict(feature=5, mode=0, split=0.0, set=None, tracks=0,
                      true=(1, len(leaves) - 1), false=(1, len(leaves) - 1)))
    roots.append(len(nodes) - 1)
    roots.append(nodes[roots[0]]["true"][1] if nodes[roots[0]]["true"][0] == 0
                 else roots[1])
    yield te("tree5_leaf_root_shared", tree5_attrs(nodes, leaves, roots, 2,
                                                   np.float32), x)
    # skl2onnx's GradientBoostingRegressor shape: 100 trees depth 6.
    xb = rng.standard_normal((50, 40)).astype(np.float32)
    a = ensemble5(rng, 100, 6, 40, 1)
    yield te("tree5_gbm_100x6", a, xb)


def labelencoder4_cases(rng):
    """LabelEncoder (ai.onnx.ml 4): keys_tensor, values_tensor,
    default_tensor; double keys and values; ORT's defaults (default_float
    for float values_tensor, -0.0 for double ones); a NaN key. int16 and
    int32 (ORT 1.30 has no kernel) against numpy."""
    tensor = lambda v, t: numpy_helper.from_array(np.array(v, t))

    def le(name, x, out, attrs, ref=None):
        node = helper.make_node("LabelEncoder", ["x"], ["y"],
                                domain="ai.onnx.ml", **attrs)
        case = (name, ml_model(name, [node], [("x", x)], [("y", out)], 4))
        return case + ((ref,) if ref is not None else ())

    kd = [0.5, -1.25, 3.0, 0.0, 2.5]
    xd = rng.choice(kd + [9.0, -0.0], (3, 4))
    xd[0, 0] = np.nan
    yield le("le4_double_double", xd, T.DOUBLE,
             dict(keys_tensor=tensor(kd, np.float64),
                  values_tensor=tensor([1.5, 2.5, 3.5, 4.5, 5.5], np.float64),
                  default_tensor=tensor([-7.25], np.float64)))
    yield le("le4_double_nodefault", xd, T.DOUBLE,
             dict(keys_tensor=tensor(kd, np.float64),
                  values_tensor=tensor([1.5, 2.5, 3.5, 4.5, 5.5], np.float64),
                  default_float=3.0))
    yield le("le4_double_int64", xd, T.INT64,
             dict(keys_tensor=tensor(kd, np.float64),
                  values_int64s=[1, 2, 3, 4, 5], default_int64=-9))
    yield le("le4_double_string", xd, T.STRING,
             dict(keys_tensor=tensor(kd, np.float64),
                  values_strings=["a", "b", "c", "d", "e"]))
    xs = rng.choice(["x", "yy", "zzz", "w"], (2, 3)).astype(object)
    yield le("le4_string_double", xs, T.DOUBLE,
             dict(keys_strings=["x", "yy", "zzz"],
                  values_tensor=tensor([0.25, 0.5, 0.75], np.float64)))
    yield le("le4_string_tensors", xs, T.STRING,
             dict(keys_tensor=tensor(["x", "yy", "zzz"], object),
                  values_tensor=tensor(["X", "YY", "ZZZ"], object),
                  default_tensor=tensor(["none"], object)))
    xi = rng.choice([5, -3, 12, 0, 7, 1, 2], (3, 4)).astype(np.int64)
    yield le("le4_int64_float_tensor", xi, T.FLOAT,
             dict(keys_int64s=[5, -3, 12, 0, 7],
                  values_tensor=tensor([0.5, 1.5, 2.5, 3.5, 4.5], np.float32),
                  default_float=-2.0))
    yield le("le4_int64_tensors", xi, T.INT64,
             dict(keys_tensor=tensor([5, -3, 12, 0, 7], np.int64),
                  values_tensor=tensor([50, 30, 120, 0, 70], np.int64),
                  default_int64=42))
    xf = rng.choice([1.0, 2.0, 3.0, np.nan], (2, 5)).astype(np.float32)
    yield le("le4_float_nan_key", xf, T.INT64,
             dict(keys_floats=[1.0, float("nan")], values_int64s=[10, 20]))
    # int16 / int32 keys and values: numpy.
    keys = [5, -3, 12, 0, 7]
    vals = [100, -200, 300, 400, -500]
    for kt, vt, dflt in [(np.int32, np.int16, None), (np.int16, np.int32, 77),
                         (np.int32, np.int32, None)]:
        x = rng.choice(keys + [1, 2], (3, 4)).astype(kt)
        attrs = dict(keys_tensor=tensor(keys, kt),
                     values_tensor=tensor(vals, vt))
        if dflt is not None:
            attrs["default_tensor"] = tensor([dflt], vt)
        table = dict(zip(keys, vals))
        ref = np.vectorize(lambda k: table.get(int(k), -1 if dflt is None
                                               else dflt))(x).astype(vt)
        yield le("le4_%s_%s" % (np.dtype(kt).name, np.dtype(vt).name), x,
                 NP_TO_ONNX[vt], attrs, ref)


def unsupported_cases(rng):
    """CategoryMapper int64 -> string -> int64 (the string forms'
    tests are gen_string_ops.py's), for the docs run only; not a default
    family. (ZipMap, DictVectorizer, CastMap: gen_ml_map_ops.py.)"""
    x = rng.integers(0, 4, (2, 3)).astype(np.int64)
    cm = lambda i, o: helper.make_node("CategoryMapper", [i], [o],
                                       domain="ai.onnx.ml",
                                       cats_int64s=[1, 2], cats_strings=["a", "b"])
    m, inputs = ml_model("categorymapper", [cm("x", "s"), cm("s", "y")],
                         [("x", x)], [("y", T.INT64)])
    m.graph.output[0].type.tensor_type.shape.dim.add().dim_value = 2
    m.graph.output[0].type.tensor_type.shape.dim.add().dim_value = 3
    yield "categorymapper", (m, inputs)


FAMILIES = {"treereg": regressor_cases, "treeclf": classifier_cases,
            "prep": preprocess_cases, "linear": linear_cases, "svm": svm_cases,
            "tree5": tree5_cases, "labelenc4": labelencoder4_cases,
            "unsupported": unsupported_cases}
DEFAULT = ["treereg", "treeclf", "prep", "linear", "svm", "tree5",
           "labelenc4"]


def cases(families):
    for name in families:
        # One generator per family, so that adding a family leaves the
        # others' cases unchanged.
        yield from FAMILIES[name](np.random.default_rng(sum(map(ord, name))))


def write(root, families):
    for case in cases(families):
        name, (m, inputs) = case[:2]
        testcases.save_model_case(root, "ml", name, m, inputs,
                                  case[2] if len(case) > 2 else None)


def oracle(root, cmd):
    testcases.ort_oracle(root, "ml", cmd)


def main(argv):
    if len(argv) >= 3 and argv[1] == "write":
        write(argv[2], argv[3:] or DEFAULT)
    elif len(argv) >= 4 and argv[1] == "oracle":
        oracle(argv[2], " ".join(argv[3:]).split())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

"""Statistical tests of the random ops compiled by onnxc.

Each check is a bound derived from the sample size (harness.py): means and
variances within 6 standard errors (two-sided false-failure probability
2.0e-9 each, by the central limit theorem), proportions within 6 standard
errors, Kolmogorov-Smirnov sqrt(n) D_n < 3 (3.0e-8), Pearson chi-square
with its Wilson-Hilferty z < 6 (1.0e-9). About 60 checks: a correct
generator fails one with probability below 1e-6. The seeds are fixed, so a
run is reproducible; the bounds hold for any seed.

usage: stats.py --onnxc ONNXC WORKDIR [--only NAME]
Prints one line per check and "stats: OK" at the end; exits 1 on a
failure."""

import argparse
import math
import os
import subprocess
import sys

import numpy as np
from onnx import helper, numpy_helper, TensorProto as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Model, save_model, compile_model, mean_var_check,
                     chi2_check, ks_check, proportion_check)

F32, F64, F16 = T.FLOAT, T.DOUBLE, T.FLOAT16


def normal_cdf(mean, sd):
    erf = np.vectorize(math.erf)
    return lambda x: 0.5 * (1 + erf((x - mean) / (sd * math.sqrt(2))))


def uniform_checks(name, y, low, high, bins=100):
    y64 = y.astype(np.float64).ravel()
    w = high - low
    ok = bool(y64.min() >= low and y64.max() <= high)
    print("%s: range [%.6g, %.6g] within [%g, %g] %s"
          % (name, y64.min(), y64.max(), low, high, "ok" if ok else "FAIL"))
    ok &= mean_var_check(name, y64, (low + high) / 2, w * w / 12, w ** 4 / 80)
    counts, _ = np.histogram(y64, bins=bins, range=(low, high))
    ok &= chi2_check(name + " histogram", counts,
                     np.full(bins, y64.size / bins))
    ok &= ks_check(name, y64, lambda x: np.clip((x - low) / w, 0, 1))
    return ok


def normal_checks(name, y, mean, sd, ks=True):
    y64 = y.astype(np.float64).ravel()
    ok = bool(np.isfinite(y64).all())
    ok &= mean_var_check(name, y64, mean, sd * sd, 3 * sd ** 4)
    # Tails: P(|z| > 3) = 0.0026998.
    ok &= proportion_check(name + " |z|>3", int((abs(y64 - mean) > 3 * sd).sum()),
                           y64.size, 0.0026997960632601866)
    if ks:
        ok &= ks_check(name, y64, normal_cdf(mean, sd))
    return ok


def case_uniform(work, onnxc):
    ok = True
    for dtype, n, tag, seed in [(F32, (1024, 1024), "f32", 11.0),
                                (F64, (1 << 20,), "f64", 12.0),
                                (F16, (256, 256), "f16", 13.0)]:
        path = os.path.join(work, "uniform_%s.onnx" % tag)
        save_model(path, [helper.make_node(
            "RandomUniform", [], ["y"], dtype=dtype, shape=list(n), low=-2.0,
            high=3.0, seed=seed)], [], [("y", dtype, list(n))])
        m = Model(compile_model(onnxc, path, work, "uniform_" + tag),
                  "uniform_" + tag)
        y = m.run()[0]
        ok &= y.shape == n and y.dtype == {F32: np.float32, F64: np.float64,
                                           F16: np.float16}[dtype]
        ok &= uniform_checks("RandomUniform %s" % tag, y, -2.0, 3.0)
        if dtype == F64:
            # 53 random bits: values on the 2^-24 grid of [0, 1) (one in
            # 2^29) would say only 24 are used. Expect 0.002 of 2^20.
            u = (y.astype(np.float64) + 2.0) / 5.0
            on_grid = int((u * 2.0 ** 24 == np.floor(u * 2.0 ** 24)).sum())
            print("RandomUniform f64: %d values on the 2^-24 grid (< 10) %s"
                  % (on_grid, "ok" if on_grid < 10 else "FAIL"))
            ok &= on_grid < 10
    return ok


def case_normal(work, onnxc):
    ok = True
    for dtype, n, tag in [(F32, (1024, 1024), "f32"), (F64, (1 << 20,), "f64"),
                          (F16, (256, 256), "f16")]:
        path = os.path.join(work, "normal_%s.onnx" % tag)
        save_model(path, [helper.make_node(
            "RandomNormal", [], ["y"], dtype=dtype, shape=list(n), mean=1.5,
            scale=2.0)], [], [("y", dtype, list(n))])
        m = Model(compile_model(onnxc, path, work, "normal_" + tag),
                  "normal_" + tag)
        m.set_seed(1234)
        y = m.run()[0]
        ok &= y.shape == n
        # f16 values are rounded (spacing up to 2^-8 here): no KS.
        ok &= normal_checks("RandomNormal %s" % tag, y, 1.5, 2.0,
                            ks=dtype != F16)
    return ok


def case_like(work, onnxc):
    ok = True
    # RandomUniformLike of an int64 input with a dtype, symbolic dims.
    path = os.path.join(work, "uniform_like.onnx")
    save_model(path, [helper.make_node("RandomUniformLike", ["x"], ["y"],
                                       dtype=F32, low=0.0, high=1.0)],
               [("x", T.INT64, ["N", "M"])], [("y", F32, ["N", "M"])])
    m = Model(compile_model(onnxc, path, work, "uniform_like"), "uniform_like")
    m.set_seed(5)
    y = m.run(np.zeros((700, 1500), np.int64))[0]
    ok &= y.shape == (700, 1500) and y.dtype == np.float32
    ok &= uniform_checks("RandomUniformLike int64 -> f32", y, 0.0, 1.0)
    # RandomNormalLike of a double input without a dtype: double output.
    path = os.path.join(work, "normal_like.onnx")
    save_model(path, [helper.make_node("RandomNormalLike", ["x"], ["y"],
                                       mean=-3.0, scale=0.5)],
               [("x", F64, ["N", 1000])], [("y", F64, ["N", 1000])])
    m = Model(compile_model(onnxc, path, work, "normal_like"), "normal_like")
    m.set_seed(6)
    y = m.run(np.ones((1000, 1000), np.float64))[0]
    ok &= y.shape == (1000, 1000) and y.dtype == np.float64
    ok &= normal_checks("RandomNormalLike f64", y, -3.0, 0.5)
    return ok


def case_bernoulli(work, onnxc):
    ok = True
    probs = [0.0, 0.1, 0.5, 0.9, 1.0]
    n = 200000
    for in_t, out_t, tag, np_out in [(F32, T.BOOL, "f32_bool", np.bool_),
                                     (F64, None, "f64", np.float64),
                                     (F16, T.INT32, "f16_int32", np.int32)]:
        path = os.path.join(work, "bernoulli_%s.onnx" % tag)
        attrs = {"seed": 3.0} if out_t is None else {"dtype": out_t}
        save_model(path, [helper.make_node("Bernoulli", ["p"], ["y"], **attrs)],
                   [("p", in_t, [5, "N"])], [("y", out_t or in_t, [5, "N"])])
        m = Model(compile_model(onnxc, path, work, "bernoulli_" + tag),
                  "bernoulli_" + tag)
        m.set_seed(77)
        p = np.repeat(np.array(probs)[:, None], n, axis=1).astype(
            {F32: np.float32, F64: np.float64, F16: np.float16}[in_t])
        y = m.run(p)[0]
        good = y.dtype == np_out and y.shape == p.shape and bool(
            np.isin(y.astype(np.float64), [0, 1]).all())
        print("Bernoulli %s: dtype %s, values in {0, 1} %s"
              % (tag, y.dtype, "ok" if good else "FAIL"))
        ok &= good
        hits = y.astype(np.int64).sum(axis=1)
        exact = hits[0] == 0 and hits[4] == n
        print("Bernoulli %s: p=0 gives %d ones, p=1 %d of %d %s"
              % (tag, hits[0], hits[4], n, "ok" if exact else "FAIL"))
        ok &= bool(exact)
        for r in (1, 2, 3):
            ok &= proportion_check("Bernoulli %s p=%g" % (tag, probs[r]),
                                   int(hits[r]), n, float(p[r, 0]))
    return ok


def case_multinomial(work, onnxc):
    ok = True
    logits = np.array([np.log([0.1, 0.2, 0.3, 0.4, 1.0]),
                       [0.0] * 5,
                       [10.0, 0.0, -10.0, 5.0, 5.0]], np.float32)
    logits[0, 4] = -np.inf  # never drawn
    s = 100000
    for dtype, tag in [(T.INT32, "int32"), (T.INT64, "int64")]:
        path = os.path.join(work, "multinomial_%s.onnx" % tag)
        save_model(path, [helper.make_node("Multinomial", ["x"], ["y"],
                                           dtype=dtype, sample_size=s)],
                   [("x", F32, ["B", 5])], [("y", dtype, ["B", s])])
        m = Model(compile_model(onnxc, path, work, "multinomial_" + tag),
                  "multinomial_" + tag)
        m.set_seed(99)
        y = m.run(logits)[0]
        good = y.shape == (3, s) and y.dtype == (np.int32 if dtype == T.INT32
                                                 else np.int64) \
            and int(y.min()) >= 0 and int(y.max()) <= 4
        print("Multinomial %s: shape %s dtype %s classes in [0, 4] %s"
              % (tag, y.shape, y.dtype, "ok" if good else "FAIL"))
        ok &= bool(good)
        e = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
        soft = e / e.sum(axis=1, keepdims=True)
        for b in range(3):
            counts = np.bincount(y[b], minlength=5)
            ok &= chi2_check("Multinomial %s row %d vs softmax" % (tag, b),
                             counts, soft[b] * s)
    return ok


def case_dropout(work, onnxc):
    ok = True
    rng = np.random.RandomState(0)
    for dtype, tag in [(F32, "f32"), (F64, "f64"), (F16, "f16")]:
        npt = {F32: np.float32, F64: np.float64, F16: np.float16}[dtype]
        path = os.path.join(work, "dropout_%s.onnx" % tag)
        save_model(path, [helper.make_node("Dropout", ["x", "r", "t"],
                                           ["y", "mask"])],
                   [("x", dtype, ["N", 1024]), ("r", F32, []), ("t", T.BOOL, [])],
                   [("y", dtype, ["N", 1024]), ("mask", T.BOOL, ["N", 1024])])
        m = Model(compile_model(onnxc, path, work, "dropout_" + tag),
                  "dropout_" + tag)
        m.set_seed(2024)
        x = (rng.rand(1024, 1024) + 0.5).astype(npt)
        for ratio in (0.3, 0.9, 0.001):
            y, mask = m.run(x, np.array(ratio, np.float32), np.array(True))
            ok &= proportion_check("Dropout %s ratio %g keep rate" % (tag, ratio),
                                   int(mask.sum()), mask.size, 1 - ratio)
            ct = np.float64 if dtype == F64 else np.float32
            scale = ct(1.0 / (1.0 - float(np.float32(ratio))))
            want = np.where(mask, x.astype(ct) * scale, 0).astype(npt)
            exact = np.array_equal(y, want)
            print("Dropout %s ratio %g: y = x * mask * %.9g exactly %s"
                  % (tag, ratio, scale, "ok" if exact else "FAIL"))
            ok &= exact
        # ratio 0 in training mode, and training_mode false: the identity,
        # an all-true mask, bit for bit.
        for ratio, training in ((0.0, True), (0.5, False)):
            y, mask = m.run(x, np.array(ratio, np.float32), np.array(training))
            same = np.array_equal(y.view(np.uint8), x.view(np.uint8)) and \
                bool(mask.all())
            print("Dropout %s ratio %g training %s: identity, mask all true %s"
                  % (tag, ratio, training, "ok" if same else "FAIL"))
            ok &= same
        # A ratio outside [0, 1) at run time: the run fails with a status.
        for ratio in (1.0, -0.25, float("nan")):
            try:
                m.run(x, np.array(ratio, np.float32), np.array(True))
                err = None
            except RuntimeError as e:
                err = e.args
            good = err == (5, "node '#0' (Dropout): ratio must be in [0, 1)")
            print("Dropout %s ratio %g: %s %s" % (tag, ratio, err,
                                                  "ok" if good else "FAIL"))
            ok &= good
    return ok


def case_dropout_default(work, onnxc):
    # The default ratio (0.5) with a constant training_mode, a seed and
    # no mask output.
    ok = True
    path = os.path.join(work, "dropout_default.onnx")
    save_model(path, [
        helper.make_node("Constant", [], ["t"],
                         value=numpy_helper.from_array(np.array(True))),
        helper.make_node("Dropout", ["x", "", "t"], ["y"], seed=42)],
        [("x", F32, [512, 512])], [("y", F32, [512, 512])])
    m = Model(compile_model(onnxc, path, work, "dropout_default"),
              "dropout_default")
    y = m.run(np.ones((512, 512), np.float32))[0]
    vals = set(np.unique(y).tolist())
    good = vals <= {0.0, 2.0}
    print("Dropout default ratio: values %s in {0, 2} %s"
          % (sorted(vals), "ok" if good else "FAIL"))
    ok &= good
    ok &= proportion_check("Dropout default ratio keep rate",
                           int((y == 2).sum()), y.size, 0.5)
    return ok


CASES = {"uniform": case_uniform, "normal": case_normal, "like": case_like,
         "bernoulli": case_bernoulli, "multinomial": case_multinomial,
         "dropout": case_dropout, "dropout_default": case_dropout_default}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("--onnxc", required=True)
    ap.add_argument("--only", action="append")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    if a.only:
        ok = True
        for name in a.only:
            try:
                ok &= bool(CASES[name](a.work, a.onnxc))
            except Exception as e:  # a failure, not a silent stop
                print("case %s raised %s: %s: FAIL" % (name, type(e).__name__, e))
                ok = False
        return 0 if ok else 1
    # Each case in a process of its own: every model library holds a copy
    # of the runtime's thread-locals (initial-exec TLS), and glibc's static
    # TLS reserve for dlopen'ed libraries takes only a few.
    ok = True
    for name in CASES:
        sys.stdout.flush()
        rc = subprocess.call([sys.executable, os.path.abspath(__file__), a.work,
                              "--onnxc", a.onnxc, "--only", name])
        ok &= rc == 0
    print("stats: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Determinism and stream layout of the random ops compiled by onnxc.

- The generated code against the reference (harness.py: Philox4x32-10,
  itself checked against Random123's published vectors first): a seeded
  RandomUniform (f32, f64), a Dropout mask with an int seed, Bernoulli and
  Multinomial equal the reference bit for bit, for several successive calls
  (element i of call k uses counter (i, k)); RandomNormal within 3e-5 at
  scale 3 (f32: 2 pi u rounded, log approximated) and 1e-14 (f64).
- A seeded node gives the same values in two processes; successive calls
  of a node differ.
- onnxc_set_random_seed restarts every stream: the same seed replays the
  unseeded nodes' values (also in the model compiled from another path),
  and a seeded node's from its first call; another
  seed gives other values; ONNXC_RANDOM_SEED in the environment acts as a
  set_random_seed at start; without either, two processes differ, and
  onnxc_get_random_seed replays a process's values.
- Two unseeded nodes of one model draw different values.
- Calls from 8 threads at once get distinct call indices: the 32 outputs
  equal, as a set, those of 32 calls on one thread after the same seed.
- A RandomUniformLike in a Loop draws new values each iteration; an If
  holding a RandomUniformLike (the ONNX Script form of Dropout) compiles
  and runs.

usage: determinism.py --onnxc ONNXC WORKDIR [--only NAME]
"""

import argparse
import os
import subprocess
import sys
import threading

import numpy as np
from onnx import helper, numpy_helper, TensorProto as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Model, save_model, compile_model, check_reference_kat,
                     philox_np, seeded_key, seeded_key_int, uniform24,
                     uniform53)

F32, F64 = T.FLOAT, T.DOUBLE
RESULTS = []


def check(name, ok, detail=""):
    print("%s: %s%s" % (name, "ok" if ok else "FAIL",
                        " (%s)" % detail if detail else ""))
    RESULTS.append(bool(ok))


def words(n, k, key):
    return philox_np(np.arange(n, dtype=np.uint64), k, key)


def case_reference(work, onnxc):
    check_reference_kat()
    check("reference Philox4x32-10 passes Random123's 3 vectors", True)
    path = os.path.join(work, "ref.onnx")
    save_model(path, [
        helper.make_node("RandomUniform", [], ["u32"], shape=[3, 1000],
                         low=-1.0, high=2.0, seed=7.0),
        helper.make_node("RandomUniform", [], ["u64"], dtype=F64,
                         shape=[3000], seed=7.5),
        helper.make_node("Dropout", ["x", "r", "t"], ["y", "mask"], seed=99),
        helper.make_node("Bernoulli", ["p"], ["b"], seed=1.25),
        helper.make_node("Multinomial", ["logits"], ["cls"], sample_size=500, dtype=T.INT64,
                         seed=2.0),
        helper.make_node("RandomNormal", [], ["n32"], shape=[4000], mean=1.0,
                         scale=3.0, seed=8.0),
        helper.make_node("RandomNormal", [], ["n64"], dtype=F64, shape=[4000],
                         seed=9.0)],
        [("x", F32, [3000]), ("r", F32, []), ("t", T.BOOL, []),
         ("p", F64, [3000]), ("logits", F32, [2, 6])],
        [("u32", F32, [3, 1000]), ("u64", F64, [3000]), ("y", F32, [3000]),
         ("mask", T.BOOL, [3000]), ("b", F64, [3000]),
         ("cls", T.INT64, [2, 500]), ("n32", F32, [4000]), ("n64", F64, [4000])])
    m = Model(compile_model(onnxc, path, work, "ref"), "ref")
    rng = np.random.RandomState(1)
    x = rng.rand(3000).astype(np.float32) + 1
    p = rng.rand(3000)
    logits = rng.randn(2, 6).astype(np.float32)
    ratio = np.float32(0.35)
    thr = int(np.ceil(np.float64(ratio) * 2.0 ** 32))
    for k in range(3):
        u32, u64, y, mask, b, cls, n32, n64 = m.run(
            x, np.array(ratio), np.array(True), p, logits)
        w = words(3000, k, seeded_key(7.0))
        want = (np.float32(-1.0) + np.float32(3.0) * uniform24(w[0])).reshape(3, 1000)
        check("call %d: RandomUniform f32 = reference" % k,
              np.array_equal(u32, want))
        w = words(3000, k, seeded_key(7.5))
        check("call %d: RandomUniform f64 = reference" % k,
              np.array_equal(u64, uniform53(w[0], w[1])))
        w = words(3000, k, seeded_key_int(99))
        want_mask = w[0] >= np.uint64(thr)
        check("call %d: Dropout mask (int seed) = reference" % k,
              np.array_equal(mask, want_mask),
              "%d kept" % int(want_mask.sum()))
        check("call %d: Dropout output = x * mask / (1 - ratio)" % k,
              np.array_equal(y, np.where(want_mask, x * np.float32(
                  1 / (1 - np.float64(ratio))), np.float32(0))))
        w = words(3000, k, seeded_key(1.25))
        check("call %d: Bernoulli f64 = reference" % k,
              np.array_equal(b, (uniform53(w[0], w[1]) < p).astype(np.float64)))
        w = words(1000, k, seeded_key(2.0))
        u = uniform53(w[0], w[1]).reshape(2, 500)
        e = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
        cdf = np.cumsum(e, axis=1)
        want_cls = np.minimum((cdf[:, None, :] <= (u * cdf[:, -1:])[:, :, None])
                              .sum(axis=2), 5)
        check("call %d: Multinomial = reference (inverse CDF)" % k,
              np.array_equal(cls, want_cls))
        w = words(4000, k, seeded_key(8.0))
        u1 = uniform24(w[0], open_at_zero=True).astype(np.float64)
        u2 = uniform24(w[1]).astype(np.float64)
        z = np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)
        err = np.abs(n32 - (1 + 3 * z)).max()
        # f32: theta = 2 pi u2 rounded (|d theta| <= ~1e-6 near 2 pi) times
        # r <= 5.8, the approximated log, times the scale 3: within 3e-5.
        check("call %d: RandomNormal f32 = reference within 3e-5" % k,
              err < 3e-5, "max error %.2g" % err)
        w = words(4000, k, seeded_key(9.0))
        z = np.sqrt(-2 * np.log(uniform53(w[0], w[1], open_at_zero=True))) * \
            np.cos(2 * np.pi * uniform53(w[2], w[3]))
        err = np.abs(n64 - z).max()
        check("call %d: RandomNormal f64 = reference within 1e-14" % k,
              err < 1e-14, "max error %.2g" % err)


def child(lib, name, calls, seed=None):
    """Runs `calls` calls of a no-input model in a fresh process; returns
    the outputs and the process seed."""
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from harness import Model\nimport numpy as np, pickle\n"
            "m = Model(%r, %r)\n%s"
            "out = [m.run()[0] for _ in range(%d)]\n"
            "sys.stdout.buffer.write(pickle.dumps((out, m.get_seed())))\n"
            % (os.path.dirname(os.path.abspath(__file__)), lib, name,
               "m.set_seed(%d)\n" % seed if seed is not None else "", calls))
    env = dict(os.environ)
    env.pop("ONNXC_RANDOM_SEED", None)
    return env, code


def run_child(lib, name, calls, seed=None, env_seed=None):
    import pickle
    env, code = child(lib, name, calls, seed)
    if env_seed is not None:
        env["ONNXC_RANDOM_SEED"] = str(env_seed)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         stdout=subprocess.PIPE).stdout
    return pickle.loads(out)


def case_processes(work, onnxc):
    seeded = os.path.join(work, "seeded.onnx")
    save_model(seeded, [helper.make_node("RandomNormal", [], ["y"],
                                         shape=[1000], seed=3.0)],
               [], [("y", F32, [1000])])
    lib = compile_model(onnxc, seeded, work, "seeded")
    a, _ = run_child(lib, "seeded", 3)
    b, _ = run_child(lib, "seeded", 3)
    check("seeded node: same values in two processes",
          all(np.array_equal(x, y) for x, y in zip(a, b)))
    check("seeded node: successive calls differ",
          not np.array_equal(a[0], a[1]) and not np.array_equal(a[1], a[2]))
    # onnxc_set_random_seed restarts a seeded node's stream too.
    c, _ = run_child(lib, "seeded", 1, seed=1)
    check("seeded node: set_random_seed restarts it at its first call",
          np.array_equal(c[0], a[0]))

    unseeded = os.path.join(work, "unseeded.onnx")
    save_model(unseeded, [helper.make_node("RandomUniform", [], ["y"],
                                           shape=[1000])],
               [], [("y", F32, [1000])])
    lib = compile_model(onnxc, unseeded, work, "unseeded")
    a, sa = run_child(lib, "unseeded", 2, seed=42)
    b, sb = run_child(lib, "unseeded", 2, seed=42)
    check("unseeded node: set_random_seed(42) replays in another process",
          np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and
          sa == sb == 42)
    check("unseeded node: successive calls differ",
          not np.array_equal(a[0], a[1]))
    c, _ = run_child(lib, "unseeded", 1, seed=43)
    check("unseeded node: another seed, other values",
          not np.array_equal(a[0], c[0]))
    # The same model compiled from another file: the same node ids.
    other_dir = os.path.join(work, "elsewhere")
    os.makedirs(other_dir, exist_ok=True)
    other = os.path.join(other_dir, "renamed.onnx")
    with open(unseeded, "rb") as f, open(other, "wb") as g:
        g.write(f.read())
    lib2 = compile_model(onnxc, other, other_dir, "unseeded")
    o, _ = run_child(lib2, "unseeded", 2, seed=42)
    check("unseeded node: the model compiled from another path draws the same",
          np.array_equal(a[0], o[0]) and np.array_equal(a[1], o[1]))
    e, se = run_child(lib, "unseeded", 2, env_seed=42)
    check("ONNXC_RANDOM_SEED=42 gives the values of set_random_seed(42)",
          np.array_equal(a[0], e[0]) and np.array_equal(a[1], e[1]) and
          se == 42)
    e, _ = run_child(lib, "unseeded", 1, env_seed="0x2a")
    check("ONNXC_RANDOM_SEED=0x2a is 42", np.array_equal(a[0], e[0]))
    d1, s1 = run_child(lib, "unseeded", 1)
    d2, s2 = run_child(lib, "unseeded", 1)
    check("no seed: two processes draw different values",
          not np.array_equal(d1[0], d2[0]) and s1 != s2,
          "process seeds %#x, %#x" % (s1, s2))
    r, _ = run_child(lib, "unseeded", 1, seed=s1)
    check("no seed: onnxc_get_random_seed replays the process's values",
          np.array_equal(r[0], d1[0]))


def case_in_process(work, onnxc):
    path = os.path.join(work, "two.onnx")
    save_model(path, [helper.make_node("RandomUniform", [], ["a"], shape=[500]),
                      helper.make_node("RandomUniform", [], ["b"], shape=[500]),
                      helper.make_node("RandomUniform", [], ["c"], shape=[500],
                                       seed=1.0)],
               [], [("a", F32, [500]), ("b", F32, [500]), ("c", F32, [500])])
    m = Model(compile_model(onnxc, path, work, "two"), "two")
    m.set_seed(7)
    a1, b1, c1 = m.run()
    a2, b2, c2 = m.run()
    check("two unseeded nodes of one model differ", not np.array_equal(a1, b1))
    m.set_seed(7)
    a3, b3, c3 = m.run()
    check("set_random_seed(7) again replays every node's first call",
          np.array_equal(a1, a3) and np.array_equal(b1, b3) and
          np.array_equal(c1, c3))
    check("set_random_seed restarts the seeded node too",
          np.array_equal(c1, c3) and not np.array_equal(c2, c3))

    # Threads: 8 threads x 4 calls at once vs 32 calls on one thread.
    m.set_seed(11)
    serial = sorted(tuple(m.run()[0][:8].tolist()) for _ in range(32))
    m.set_seed(11)
    got, lock = [], threading.Lock()

    def work_fn():
        for _ in range(4):
            v = tuple(m.run()[0][:8].tolist())
            with lock:
                got.append(v)
    threads = [threading.Thread(target=work_fn) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check("8 threads x 4 calls: the 32 values of 32 calls on one thread",
          sorted(got) == serial and len(set(serial)) == 32)


def case_control_flow(work, onnxc):
    # A Loop whose body draws a row: each iteration its own values.
    body = helper.make_graph(
        [helper.make_node("RandomUniformLike", ["x"], ["row"], dtype=F32),
         helper.make_node("Identity", ["c"], ["c_out"])],
        "body",
        [helper.make_tensor_value_info("i", T.INT64, []),
         helper.make_tensor_value_info("c", T.BOOL, [])],
        [helper.make_tensor_value_info("c_out", T.BOOL, []),
         helper.make_tensor_value_info("row", F32, [8])])
    path = os.path.join(work, "loop.onnx")
    save_model(path, [
        helper.make_node("Constant", [], ["n"],
                         value=numpy_helper.from_array(np.array(4, np.int64))),
        helper.make_node("Constant", [], ["cond"],
                         value=numpy_helper.from_array(np.array(True))),
        helper.make_node("Loop", ["n", "cond"], ["rows"], body=body)],
        [("x", F32, [8])], [("rows", F32, [4, 8])])
    m = Model(compile_model(onnxc, path, work, "loop"), "loop")
    rows = m.run(np.zeros(8, np.float32))[0]
    check("Loop: each iteration draws other values",
          rows.shape == (4, 8) and len({tuple(r) for r in rows.tolist()}) == 4)

    # ONNX Script's Dropout: RandomUniformLike and Where inside an If.
    then = helper.make_graph(
        [helper.make_node("RandomUniformLike", ["data"], ["rand"], dtype=F32,
                          seed=5.0),
         helper.make_node("GreaterOrEqual", ["rand", "ratio"], ["mask_t"]),
         helper.make_node("Constant", [], ["zero"],
                          value=numpy_helper.from_array(np.array(0, np.float32))),
         helper.make_node("Where", ["mask_t", "data", "zero"], ["kept"]),
         helper.make_node("Constant", [], ["one"],
                          value=numpy_helper.from_array(np.array(1, np.float32))),
         helper.make_node("Sub", ["one", "ratio"], ["keep_p"]),
         helper.make_node("Div", ["kept", "keep_p"], ["out_t"])],
        "then", [], [helper.make_tensor_value_info("out_t", F32, [1000]),
                     helper.make_tensor_value_info("mask_t", T.BOOL, [1000])])
    other = helper.make_graph(
        [helper.make_node("Identity", ["data"], ["out_e"]),
         helper.make_node("Shape", ["data"], ["shape"]),
         helper.make_node("ConstantOfShape", ["shape"], ["mask_e"],
                          value=numpy_helper.from_array(np.array([True])))],
        "else", [], [helper.make_tensor_value_info("out_e", F32, [1000]),
                     helper.make_tensor_value_info("mask_e", T.BOOL, [1000])])
    path = os.path.join(work, "script_dropout.onnx")
    save_model(path, [helper.make_node("If", ["training"], ["out", "mask"],
                                       then_branch=then, else_branch=other)],
               [("data", F32, [1000]), ("ratio", F32, []),
                ("training", T.BOOL, [])],
               [("out", F32, [1000]), ("mask", T.BOOL, [1000])])
    m = Model(compile_model(onnxc, path, work, "script_dropout"),
              "script_dropout")
    x = np.full(1000, 3.0, np.float32)
    out, mask = m.run(x, np.array(0.25, np.float32), np.array(True))
    w = words(1000, 0, seeded_key(5.0))
    want = uniform24(w[0]) >= np.float32(0.25)
    check("If + RandomUniformLike (ONNX Script Dropout): mask = reference",
          np.array_equal(mask, want), "%d kept" % int(mask.sum()))
    check("If + RandomUniformLike: kept values scaled, others 0",
          np.array_equal(out, np.where(want, np.float32(3.0) / np.float32(0.75),
                                       np.float32(0))))
    out, mask = m.run(x, np.array(0.25, np.float32), np.array(False))
    check("If + RandomUniformLike: inference branch is the identity",
          np.array_equal(out, x) and bool(mask.all()))


CASES = {"reference": case_reference, "processes": case_processes,
         "in_process": case_in_process, "control_flow": case_control_flow}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("--onnxc", required=True)
    ap.add_argument("--only", action="append")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    if a.only:
        for name in a.only:
            try:
                CASES[name](a.work, a.onnxc)
            except Exception as e:  # a failure, not a silent stop
                check("case %s raised %s: %s" % (name, type(e).__name__, e), False)
        return 0 if all(RESULTS) else 1
    # One process per case (a few model libraries each: see stats.py).
    ok = True
    for name in CASES:
        sys.stdout.flush()
        ok &= subprocess.call([sys.executable, os.path.abspath(__file__), a.work,
                               "--onnxc", a.onnxc, "--only", name]) == 0
    print("determinism: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

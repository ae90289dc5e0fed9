#!/usr/bin/python3
"""Finite-difference check of onnx-autodiff's gradient rules.

For each case of a table (the cases_*.py modules beside this file: op,
attributes, inputs, which inputs are the xs), it builds float64 ONNX models

  F:  out = OP(inputs...);  y = sum_k ReduceSum(out_k * R_k)
  G:  F + Gradient(xs, y) (ai.onnx.preview.training), outputs y and dy/dxs

with fixed random R_k of each output's shape (so that no cancellation hides
an error), compiles F, G, and G with its batch dim(s) symbolic with onnxc,
loads the libraries in this process (ctypes over the C API of
onnxc/runtime.h) and checks, for each x, the gradients of G (static and
symbolic) against central differences of F's y computed by onnxc itself:

  (F(x + h v) - F(x - h v)) / 2h   against   <dy/dx, v>

for v every unit vector when x has at most FULL_MAX elements, else
DIRECTIONS random unit-norm directions. Also checks that G's y equals F's.

Tolerance (one for all float64 cases): |analytic - fd| <= ATOL + RTOL * |fd| with
ATOL = RTOL = 1e-6, h = 1e-5. Why: in float64 the central difference errs
by h^2 |f'''| / 6 (truncation, ~2e-11 |f'''|) plus about eps |y| / h
(rounding, ~1e-11 |y|); the cases keep |f'''| and |y| moderate (inputs of
order 1, kinks at least 0.05 away), so the difference is within ~1e-9 of
the true derivative, three orders under the tolerance. A wrong rule (a
missing term, a wrong sign or factor, a broadcast not summed back, a wrong
border) errs by 1e-3 or more along a random direction.

Each case is also compiled in float32 (the type training uses; the rules'
constants and casts must type-check there too), static, and compared with
the same float64 differences at ATOL32 = RTOL32 = 1e-4: float32 rounds at
6e-8 relative, and forward and backward chains with sums of up to a few
hundred terms accumulate 1e-6 to 1e-5 of it; 1e-4 still catches any wrong
rule. Ops the spec types float32 only (Celu) are checked that way only,
against the float64 differences of their ONNX expansion (`ref`).

Usage:
  gradcheck.py [--category C]... [--case NAME]... [--match SUBSTRING]...
               [--work DIR]
               [--onnxc PATH] [--keep] [--list] [--perturb EPS]
Prints one line per case (PASS/FAIL/XFAIL/XPASS with the largest error)
and ends with "gradcheck: N cases, P passed, F failed". Exit 1 when a case
fails (or an xfail case passes). Needs /usr/bin/python3 (python3-onnx,
numpy).
"""
import argparse
import ctypes
import importlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

H = 1e-5
RTOL = 1e-6
ATOL = 1e-6
RTOL32 = 1e-4
ATOL32 = 1e-4
TOLERANCE = {np.dtype("float64"): (ATOL, RTOL),
             np.dtype("float32"): (ATOL32, RTOL32)}
# G's y against F's: the same computation, up to reassociation.
YTOL = {(ATOL, RTOL): 1e-9, (ATOL32, RTOL32): 1e-5}
FULL_MAX = 64
DIRECTIONS = 8

CATEGORIES = ["elementwise", "linalg", "reduction", "tensor", "conv", "pool",
              "norm", "softmax", "misc", "recurrent", "controlflow"]

# ---------------------------------------------------------------------------
# The case table's vocabulary.


class X:
    """A differentiated graph input (an x of the Gradient): float64 of
    `shape`, drawn by `gen(rng, shape)`."""

    def __init__(self, shape, gen=None):
        self.shape = tuple(shape)
        self.gen = gen or normal()


class In:
    """A graph input that is not an x: `value` (a numpy array, or a
    callable gen(rng) giving one)."""

    def __init__(self, value):
        self.value = value


class C:
    """An initializer (a constant: indices, shapes, axes, float data)."""

    def __init__(self, value):
        self.value = value


NONE = None  # an absent optional input


def normal(scale=1.0):
    return lambda rng, shape: rng.standard_normal(shape) * scale


def uniform(lo, hi):
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def away(lo=0.1, hi=2.0, center=0.0):
    """Values with |v - center| in [lo, hi], random sign: away from a kink."""
    def gen(rng, shape):
        mag = rng.uniform(lo, hi, shape)
        sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
        return center + sign * mag
    return gen


def avoiding(kinks, lo=-2.0, hi=2.0, margin=0.05):
    """Uniform in [lo, hi], at least `margin` away from each kink."""
    def gen(rng, shape):
        v = rng.uniform(lo, hi, shape)
        while True:
            bad = np.zeros(np.shape(v), bool)
            for k in kinks:
                bad |= np.abs(v - k) < margin
            if not bad.any():
                return v
            v = np.where(bad, rng.uniform(lo, hi, np.shape(v)), v)
    return gen


def distinct(lo=-2.0, hi=2.0):
    """All values distinct, at least (hi - lo) / (2n) apart: no ties for
    Max, Min, MaxPool, ReduceMax..."""
    def gen(rng, shape):
        n = int(np.prod(shape)) if len(shape) else 1
        grid = np.linspace(lo, hi, n) if n > 1 else np.array([lo])
        jitter = rng.uniform(-0.25, 0.25, n) * ((hi - lo) / max(n, 1))
        return rng.permutation(grid + jitter).reshape(shape)
    return gen


class Case:
    """One check. `inputs`: X, In, C or NONE per operand of the op. `nout`:
    the op's result count; `yout`: the results y sums (float ones).
    `sym`: {input index: {dim: name}} made symbolic in the symbolic run
    (default: dim 0 of the first graph input, "N"); {} for none.
    `nodes`: a function(in_names, out_names) -> [NodeProto] replacing the
    single node (chains, fan-out). `xfail`: the reason a case is expected
    to fail (it then must fail). `h`: the step, H unless the case says why
    another is exact. `f32`: also check the float32 model (default), only
    it ("only", with `ref` the op's expansion in float64 for F), or not."""

    def __init__(self, name, op, inputs, attrs=None, nout=1, yout=(0,),
                 opset=17, domain="", sym=None, nodes=None, xfail=None,
                 rules=None, h=H, f32=True, ref=None):
        self.name = name
        self.op = op
        self.inputs = list(inputs)
        self.attrs = attrs or {}
        self.nout = nout
        self.yout = list(yout)
        self.opset = opset
        self.domain = domain
        self.nodes = nodes
        self.xfail = xfail
        self.h = h
        # float32: also check G in float32 (True), only in float32 with F
        # built from `ref` in float64 ("only": ops the spec types float32
        # only), or not (False: the case's nodes are float64-specific).
        self.f32 = f32
        self.ref = ref
        # The rules this case exercises (for the docs table): the op, and
        # for chains the ops named here.
        self.rules = rules or [op]
        if sym is None:
            sym = {}
            for k, spec in enumerate(self.inputs):
                if isinstance(spec, (X, In)):
                    if self._rank(k) > 0:
                        sym = {k: {0: "N"}}
                    break
        self.sym = {k: (v if isinstance(v, dict) else {v: "N"})
                    for k, v in sym.items()}
        self.category = None

    def _rank(self, k):
        spec = self.inputs[k]
        if isinstance(spec, X):
            return len(spec.shape)
        v = spec.value
        return np.asarray(v).ndim if not callable(v) else 1


# ---------------------------------------------------------------------------
# Models.

NP_TO_ONNX = {np.dtype("float64"): TensorProto.DOUBLE,
              np.dtype("float32"): TensorProto.FLOAT,
              np.dtype("int64"): TensorProto.INT64,
              np.dtype("int32"): TensorProto.INT32,
              np.dtype("bool"): TensorProto.BOOL}
ONNX_TO_NP = {v: k for k, v in NP_TO_ONNX.items()}


def seed_of(name):
    return zlib.crc32(name.encode()) & 0x7fffffff


def materialize(case, rng):
    """The value of each operand (None for absent ones)."""
    vals = []
    for spec in case.inputs:
        if spec is None:
            vals.append(None)
        elif isinstance(spec, X):
            vals.append(np.asarray(spec.gen(rng, spec.shape), np.float64))
        else:
            v = spec.value(rng) if callable(spec.value) else spec.value
            vals.append(np.asarray(v))
    return vals


def op_nodes(case, in_names, out_names):
    if case.nodes:
        return case.nodes(in_names, out_names)
    return [helper.make_node(case.op, in_names, out_names, domain=case.domain,
                             **case.attrs)]


def opsets(case):
    ops = [helper.make_opsetid("", case.opset),
           helper.make_opsetid("ai.onnx.preview.training", 1)]
    if case.domain and case.domain != "ai.onnx.preview.training":
        ops.append(helper.make_opsetid(case.domain, 1))
    return ops


def in_names(case):
    return ["" if s is None else "i%d" % k for k, s in enumerate(case.inputs)]


def as_dtype(v, dtype):
    """`v` in `dtype` if it is a float64 array (float32 constants such as
    Resize's scales stay)."""
    return v.astype(dtype) if v is not None and v.dtype == np.float64 else v


def graph_inputs(case, vals, sym=None, dtype=np.float64):
    """(graph inputs, initializers) of the case's operands."""
    ins, inits = [], []
    for k, (spec, v) in enumerate(zip(case.inputs, vals)):
        if spec is None:
            continue
        v = as_dtype(v, dtype)
        name = "i%d" % k
        if isinstance(spec, C):
            inits.append(numpy_helper.from_array(v, name))
            continue
        shape = list(v.shape)
        for d, dn in (sym or {}).get(k, {}).items():
            shape[d] = dn
        ins.append(helper.make_tensor_value_info(name, NP_TO_ONNX[v.dtype],
                                                 shape))
    return ins, inits


def probe_model(case, vals):
    """The op alone, every result a graph output (to learn their shapes)."""
    ins, inits = graph_inputs(case, vals, None, np.float32
                              if case.f32 == "only" else np.float64)
    outs = ["o%d" % k for k in range(case.nout)]
    nodes = op_nodes(case, in_names(case), outs)
    g = helper.make_graph(nodes, "probe", ins,
                          [helper.make_empty_tensor_value_info(o) for o in outs],
                          inits)
    return helper.make_model(g, opset_imports=opsets(case),
                             producer_name="gradcheck")


def retyped(nodes, dtype):
    """`nodes` with their subgraphs (If, Loop, Scan bodies: value infos,
    Casts and Constants typed float64 by the case tables) in `dtype`; the
    top-level nodes stay as they are (a Cast to float64 there is the
    case's own)."""
    if dtype == np.float64:
        return nodes
    to = NP_TO_ONNX[np.dtype(dtype)]

    def fix_graph(g):
        for v in list(g.input) + list(g.output) + list(g.value_info):
            tt = v.type.tensor_type
            if tt.elem_type == TensorProto.DOUBLE:
                tt.elem_type = to
        for n in g.node:
            fix_node(n)

    def fix_node(n):
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                fix_graph(a.g)
            elif n.op_type == "Cast" and a.name == "to" and \
                    a.i == TensorProto.DOUBLE:
                a.i = to
            elif a.type == onnx.AttributeProto.TENSOR and \
                    a.t.data_type == TensorProto.DOUBLE:
                a.t.CopyFrom(numpy_helper.from_array(
                    numpy_helper.to_array(a.t).astype(dtype), a.t.name))
    for n in nodes:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                fix_graph(a.g)
    return nodes


def loss_model(case, vals, rs, gradient, sym=None, dtype=np.float64):
    """F (gradient=False) or G: y = sum_k ReduceSum(out_k * R_k), in
    `dtype`; F of a float32-only op is its float64 `ref`."""
    ins, inits = graph_inputs(case, vals, sym, dtype)
    outs = ["o%d" % k for k in range(case.nout)]
    if case.ref and not gradient:
        nodes = case.ref(in_names(case), outs)
    else:
        nodes = retyped(op_nodes(case, in_names(case), outs), dtype)
    terms = []
    for k, r in zip(case.yout, rs):
        inits.append(numpy_helper.from_array(r.astype(dtype), "r%d" % k))
        nodes.append(helper.make_node("Mul", ["o%d" % k, "r%d" % k],
                                      ["m%d" % k]))
        nodes.append(helper.make_node("ReduceSum", ["m%d" % k], ["s%d" % k],
                                      keepdims=0))
        terms.append("s%d" % k)
    if len(terms) == 1:
        nodes.append(helper.make_node("Identity", terms, ["y"]))
    else:
        nodes.append(helper.make_node("Sum", terms, ["y"]))
    outputs = [helper.make_tensor_value_info("y", NP_TO_ONNX[np.dtype(dtype)],
                                             [])]
    if gradient:
        xs = ["i%d" % k for k, s in enumerate(case.inputs) if isinstance(s, X)]
        gs = ["d_" + x for x in xs]
        nodes.append(helper.make_node("Gradient", xs, gs, xs=xs, y="y",
                                      domain="ai.onnx.preview.training"))
        outputs += [helper.make_empty_tensor_value_info(g) for g in gs]
    g = helper.make_graph(nodes, "G" if gradient else "F", ins, outputs, inits)
    return helper.make_model(g, opset_imports=opsets(case),
                             producer_name="gradcheck")


# ---------------------------------------------------------------------------
# Compiling and running (the C API of onnxc/runtime.h through ctypes).


class Tensor(ctypes.Structure):
    pass


Tensor._fields_ = [("data", ctypes.c_void_p),
                   ("shape", ctypes.c_int64 * 16),
                   ("rank", ctypes.c_int32),
                   ("dtype", ctypes.c_int32),
                   ("owner", ctypes.c_void_p),
                   ("kind", ctypes.c_int32),
                   ("num_items", ctypes.c_int64),
                   ("items", ctypes.POINTER(Tensor))]


class CompileError(Exception):
    pass


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4000000 * 1024, 4000000 * 1024))


class Library:
    """A compiled model, callable on a list of numpy arrays."""

    def __init__(self, onnxc, model, work, name):
        path = os.path.join(work, name + ".onnx")
        onnx.save(model, path)
        so = os.path.join(work, name + ".so")
        try:
            p = subprocess.run([onnxc, path, "-o", so, "--name", name],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120,
                               preexec_fn=limit_memory)
        except subprocess.TimeoutExpired:
            raise CompileError("onnxc timed out on %s" % path)
        if p.returncode != 0:
            lines = [l for l in (p.stderr + p.stdout).splitlines() if l.strip()]
            raise CompileError(lines[0] if lines else
                               "onnxc exited with %d" % p.returncode)
        self.lib = ctypes.CDLL(so)
        self.run = getattr(self.lib, name + "_run")
        self.run.restype = ctypes.c_int
        self.lib.onnxc_last_error.restype = ctypes.c_char_p
        self.lib.onnxc_tensor_release.argtypes = [ctypes.POINTER(Tensor)]
        self.num_outputs = len(model.graph.output)

    def __call__(self, arrays):
        arrays = [np.require(a, requirements="C") for a in arrays]
        ins = (Tensor * max(len(arrays), 1))()
        for t, a in zip(ins, arrays):
            t.data = a.ctypes.data
            t.rank = a.ndim
            for d, s in enumerate(a.shape):
                t.shape[d] = s
            t.dtype = NP_TO_ONNX[a.dtype]
        outs = (Tensor * self.num_outputs)()
        status = self.run(ins, len(arrays), outs, self.num_outputs)
        if status != 0:
            raise RuntimeError("run failed (%d): %s" % (
                status, self.lib.onnxc_last_error().decode()))
        result = []
        for t in outs:
            dt = ONNX_TO_NP[t.dtype]
            shape = tuple(t.shape[d] for d in range(t.rank))
            n = int(np.prod(shape)) if shape else 1
            if n == 0:
                a = np.zeros(shape, dt)
            else:
                buf = (ctypes.c_char * (n * dt.itemsize)).from_address(t.data)
                a = np.frombuffer(buf, dt).reshape(shape).copy()
            self.lib.onnxc_tensor_release(ctypes.byref(t))
            result.append(a)
        return result


# ---------------------------------------------------------------------------
# The check.


def feeds(case, vals):
    """The values of the graph inputs, in graph order."""
    return [v for s, v in zip(case.inputs, vals)
            if s is not None and not isinstance(s, C)]


def directions(rng, shape):
    n = int(np.prod(shape)) if shape else 1
    if n <= FULL_MAX:
        for j in range(n):
            e = np.zeros(n)
            e[j] = 1.0
            yield e.reshape(shape)
    else:
        for _ in range(DIRECTIONS):
            v = rng.standard_normal(shape)
            yield v / np.linalg.norm(v)


def output_shapes(case, vals, onnxc, work):
    """The shapes of the op's results: onnx's shape inference, else a run
    of the op alone compiled by onnxc."""
    model = probe_model(case, vals)
    shapes = {}
    try:
        # onnx 1.12 knows the schemas up to opset 17 only.
        if case.opset > 17:
            raise ValueError("opset")
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
        for o in inferred.graph.output:
            tt = o.type.tensor_type
            if not tt.HasField("shape"):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else None
                    for d in tt.shape.dim]
            if None not in dims:
                shapes[o.name] = (tuple(dims), ONNX_TO_NP.get(tt.elem_type))
    except Exception:
        pass
    want = ["o%d" % k for k in case.yout]
    if all(w in shapes and shapes[w][1] is not None for w in want):
        return [shapes[w][0] for w in want]
    lib = Library(onnxc, model, work, "probe")
    res = lib([as_dtype(v, np.float32) if case.f32 == "only" else v
               for v in feeds(case, vals)])
    return [res[k].shape for k in case.yout]


def check_case(case, onnxc, work, perturb=0.0):
    """Returns (ok, message). `perturb` is added to the first element of
    each gradient autodiff gives (the harness's self-test: it must then
    fail)."""
    rng = np.random.default_rng(seed_of(case.name))
    vals = materialize(case, rng)
    shapes = output_shapes(case, vals, onnxc, work)
    rs = [rng.standard_normal(s) for s in shapes]
    f = Library(onnxc, loss_model(case, vals, rs, False), work, "f")
    # (mode, library, dtype)
    runs = []
    dtypes = [np.float64] if not case.f32 else \
        [np.float32] if case.f32 == "only" else [np.float64, np.float32]
    for dt in dtypes:
        suffix = "" if dt == np.float64 else "-f32"
        runs.append(("static" + suffix, Library(
            onnxc, loss_model(case, vals, rs, True, None, dt), work,
            "g" + suffix.replace("-", "_")), dt))
        if case.sym and (dt == np.float64 or case.f32 == "only"):
            runs.append(("symbolic" + suffix, Library(
                onnxc, loss_model(case, vals, rs, True, case.sym, dt), work,
                "gs" + suffix.replace("-", "_")), dt))
    base = feeds(case, vals)
    # Graph-input position of each operand.
    pos, p = {}, 0
    for k, s in enumerate(case.inputs):
        if s is not None and not isinstance(s, C):
            pos[k] = p
            p += 1
    xs = [k for k, s in enumerate(case.inputs) if isinstance(s, X)]
    y0 = f(base)[0]
    worst = 0.0
    results = {mode: [a.astype(np.float64) for a in
                      lib([as_dtype(v, dt) for v in base])]
               for mode, lib, dt in runs}
    tols = {mode: TOLERANCE[np.dtype(dt)] for mode, _, dt in runs}
    for res in results.values():
        for gr in res[1:]:
            gr.reshape(-1)[:1] += perturb
    for mode, res in results.items():
        if abs(res[0] - y0) > YTOL[tols[mode]] * (1 + abs(y0)):
            return False, "%s: y %r differs from F's %r" % (mode, res[0], y0)
        for xi, k in enumerate(xs):
            if res[1 + xi].shape != vals[k].shape:
                return False, "%s: d/di%d has shape %s, the input %s" % (
                    mode, k, res[1 + xi].shape, vals[k].shape)
    for xi, k in enumerate(xs):
        drng = np.random.default_rng(seed_of(case.name) + 1 + k)
        for v in directions(drng, vals[k].shape):
            plus = list(base)
            minus = list(base)
            plus[pos[k]] = vals[k] + case.h * v
            minus[pos[k]] = vals[k] - case.h * v
            fd = (f(plus)[0] - f(minus)[0]) / (2 * case.h)
            for mode, res in results.items():
                an = float(np.sum(res[1 + xi] * v))
                err = abs(an - fd)
                atol, rtol = tols[mode]
                worst = max(worst, err / (atol + rtol * abs(fd)))
                if err > atol + rtol * abs(fd):
                    where = ""
                    if np.count_nonzero(v) == 1:
                        where = " at %s" % (np.unravel_index(
                            int(np.flatnonzero(v)[0]), v.shape),)
                    return False, ("%s: d/di%d%s: autodiff %.10g, finite "
                                   "difference %.10g" % (mode, k, where, an, fd))
    return True, "error/tolerance %.2g (%s)" % (
        worst, ", ".join(m for m, _, _ in runs))


def run_isolated(fn):
    """fn() -> (ok, message) in a forked child: a crash of a compiled model
    fails its case only, and each case's libraries leave with its child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            ok, msg = fn()
        except CompileError as e:
            ok, msg = False, "compile: %s" % e
        except Exception as e:  # a run failure, or a bug of the harness
            ok, msg = False, "%s: %s" % (type(e).__name__, e)
        with os.fdopen(w, "w") as f:
            f.write(("1" if ok else "0") + msg.replace("\n", " "))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        out = f.read()
    _, status = os.waitpid(pid, 0)
    if not out:
        return False, "the check died (wait status %d)" % status
    return out[0] == "1", out[1:]


def load_cases(categories):
    # The case modules import this file as `gradcheck`: let them see these
    # classes, not a second copy, when it runs as __main__.
    sys.modules.setdefault("gradcheck", sys.modules[__name__])
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    cases = []
    for cat in categories:
        mod = importlib.import_module("cases_" + cat)
        for c in mod.CASES:
            c.category = cat
            cases.append(c)
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit("gradcheck: duplicate case names: %s" % sorted(dup))
    return cases


def available_categories():
    here = os.path.dirname(os.path.abspath(__file__))
    return [c for c in CATEGORIES
            if os.path.exists(os.path.join(here, "cases_%s.py" % c))]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--category", action="append")
    ap.add_argument("--case", action="append", help="only this case")
    ap.add_argument("--match", action="append",
                    help="only cases whose name contains this")
    ap.add_argument("--work", help="directory for the models and libraries")
    ap.add_argument("--onnxc", default=shutil.which("onnxc") or "onnxc")
    ap.add_argument("--keep", action="store_true",
                    help="keep each case's files in WORK/CASE")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--perturb", type=float, default=0.0,
                    help="add this to the first element of each gradient "
                    "(a self-test: the cases must then fail)")
    args = ap.parse_args(argv)
    cases = load_cases(args.category or available_categories())
    if args.case:
        cases = [c for c in cases if c.name in args.case]
    if args.match:
        cases = [c for c in cases if any(s in c.name for s in args.match)]
    if args.list:
        for c in cases:
            print("%s %s %s" % (c.category, c.name, " ".join(c.rules)))
        return 0
    # The runtime's thread-locals are initial-exec (runtime/src/internal.h): each loaded
    # library takes ~0.5 KB of the static TLS space glibc keeps for dlopen,
    # which holds only a few by default.
    tunable = "glibc.rtld.optional_static_tls=65536"
    if tunable not in os.environ.get("GLIBC_TUNABLES", ""):
        env = dict(os.environ)
        env["GLIBC_TUNABLES"] = ":".join(
            t for t in [env.get("GLIBC_TUNABLES"), tunable] if t)
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    root = args.work or tempfile.mkdtemp(prefix="gradcheck")
    os.makedirs(root, exist_ok=True)
    passed = failed = 0
    for c in cases:
        work = os.path.join(root, c.name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        ok, msg = run_isolated(
            lambda: check_case(c, args.onnxc, work, args.perturb))
        if c.xfail:
            status = "XPASS" if ok else "XFAIL"
            good = not ok
            msg = "%s (expected to fail: %s)" % (msg, c.xfail)
        else:
            status = "PASS" if ok else "FAIL"
            good = ok
        print("%s %s: %s" % (status, c.name, msg), flush=True)
        if good:
            passed += 1
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
        else:
            failed += 1
    if not args.work:
        shutil.rmtree(root, ignore_errors=True)
    print("gradcheck: %d cases, %d passed, %d failed" % (
        len(cases), passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

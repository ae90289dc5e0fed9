#!/usr/bin/python3
"""The corpus: realistic models, shaped as the published ones users bring.

Nothing is downloaded: torchvision architectures (and small torch modules
written after published ones) with seeded random weights, exported by
Debian's torch 1.13 (`torch.onnx.export`, opsets 11-17), and onnx.helper
for what torch cannot export (converter-style fp16, quantized forms,
Paddle-style Constant-node weights, a Silero-like If + LSTM model).
Issue 10 lists the classes; docs/testing.md and bench/README.md say how
the corpus is checked and timed.

    corpus.py list [--names]          the models (name, class, what)
    corpus.py classes                 the tolerance of each class, and why
    corpus.py model NAME -o DIR [--dynamic] [--ort] [--cache]
    corpus.py compare NAME GOT EXPECTED
    corpus.py check NAME --work DIR [--dynamic] [--build B] [--cache DIR]

`model` writes DIR/model.onnx and DIR/test_data_set_0/input_*.pb (batch 1,
seed 1). --dynamic names the batch dim "N" (dim_param) and adds
test_data_set_1 at batch 2 (seed 2); some models add sets (the VAD at 8
kHz). --ort runs ONNX Runtime on every set (tools/ort/ort_run.js, 1
thread) and writes its output_*.pb beside the inputs, and for the fp16 and
int8 models its outputs of the fp32 model they were made from
(reference_*.pb, DIR/reference.onnx). --cache does nothing when DIR already holds the same model (a
stamp of the generator sources, the name and the flags).

`compare` checks onnxc's outputs (GOT/output_*.pb, as onnxc-run --save
writes them) against ORT's (EXPECTED/output_*.pb; for fp16 and int8 with
EXPECTED/reference_*.pb) with the tolerance of the model's class
(TOLERANCES below, the one place it is stated), prints one line per
output and `OK` or `FAILED`, exit status 0 or 1.

`check` is what each test/numeric/corpus lit test runs: `model --ort --cache` into
BUILD/corpus/NAME[-dynamic], onnxc (under a time and memory limit), then
onnxc-run and `compare` on every data set; the last line is
`NAME: OK (class C)` or `NAME: FAILED (class C)`, with the tool's error
above it. status.py runs the same over the whole corpus and times it
(docs/corpus-status.md).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(SRC, "tools", "ort"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

import gen_models  # noqa: E402  (tools/ort: make_inputs, INPUTS_KEY)
from common import MODELS  # noqa: E402  (the registry the generators fill)

# The generator modules, in the order `list` shows their models.
GENERATORS = ("torchnets", "unet", "fp16", "quant", "ocr", "audio", "vad")


# --- Tolerances: the one place they are stated ------------------------------------
#
# fp32: an element passes when |got - ort| <= atol * max|ort| + rtol * |ort|:
# atol is a fraction of the output's largest magnitude, because a network's
# outputs are sums of many products and an absolute bound on the elements
# near zero only means something relative to the scale of the whole output.
# fp16 and int8 (reference=True): onnxc's error against the fp32 model the
# fp16 or int8 one was made from (ORT's outputs of it, reference_<k>.pb
# beside ORT's own) must be within rms_ratio (rms) and max_ratio (largest
# element) of ORT's error.
TOLERANCES = {
    "fp32": dict(
        rtol=1e-3, atol=1e-4,
        why="Both engines compute in fp32 (unit roundoff 6e-8) but sum in different "
            "orders (blocking, FMA, Winograd/im2col in ORT's MLAS): per layer the "
            "difference is about sqrt(K) * 6e-8 of the output's scale for a reduction "
            "of K terms (K up to ~5000 here, so ~4e-6), and it grows through ~20-100 "
            "layers of a deep net. 1e-4 of the largest output magnitude (plus 1e-3 "
            "relative) bounds that with margin, and a wrong kernel (an element off by "
            "its own size) still fails it by orders of magnitude."),
    "fp16": dict(
        reference=True, rms_ratio=2.0, max_ratio=2.0,
        why="fp16 keeps an 11-bit significand (unit roundoff u = 2^-11 = 4.9e-4). An "
            "fp16 graph fixes its values to fp16 between ops but not how an op computes "
            "or whether a fused chain rounds in between: ORT on x86 computes most "
            "fp16 ops in fp32 and rounds their outputs, fusing some; an engine that "
            "rounds every op's output (tools/corpus/fp16ref.py, torch with fp32 "
            "products and sums) is as correct, and the two differ elementwise by up "
            "to 1.1e-2 of the output's scale on MobileNetV2 (5e-3 on the U-Net): "
            "the differences enter at every layer and propagate. So, as for int8, "
            "the test is accuracy against the fp32 model the fp16 one was converted "
            "from (same weights before rounding, same input): onnxc's rms error and "
            "largest error within 2x ORT's. Rounding every op's output, the most "
            "rounding fp16 semantics allows, costs 1.3-1.5x ORT's rms error and "
            "1.5-1.7x its largest on the corpus; accumulating a K-term dot product in "
            "fp16 adds about sqrt(K) * u per output (K = 4608: 3e-2 relative) and "
            "fails."),
    "int8": dict(
        reference=True, rms_ratio=1.25, max_ratio=1.5,
        why="Integer products are exact (int32 sums), but every float-to-integer "
            "rounding (QuantizeLinear, DynamicQuantizeLinear, the requantization of "
            "QLinearConv/QLinearMatMul, the Q of a QDQ pair) sends a value within an "
            "ulp of a .5 tie to either integer depending on the order of the float "
            "arithmetic before it, and a flipped step changes the next layer's "
            "accumulators, so flips cascade with depth; with DynamicQuantizeLinear a "
            "1-ulp change of a tensor's min or max rescales the whole tensor. Two "
            "correct engines therefore differ by several output steps on many "
            "elements: ORT against itself with graph optimizations disabled (the "
            "literal DQ -> float op -> Q semantics instead of its fused integer "
            "kernels) differs by 7 steps on 54% of MobileNetV2-QDQ's outputs, and one "
            "1-ulp GELU difference in BERT's first layer flips 12% of the quantized "
            "activations by layer 2. No elementwise bound against ORT is both safe and "
            "meaningful. What every correct engine shares is its accuracy: against "
            "the fp32 model the int8 one was made from (same weights and inputs), "
            "onnxc's error must be no worse than ORT's: rms within 1.25x and largest "
            "element within 1.5x of ORT's (ORT with and without its optimizations and "
            "onnxc all land within 2% (rms) and 10% (max) of each other on the "
            "corpus). A wrong kernel (zero point, scale, saturation, rounding "
            "direction) multiplies the error and fails."),
}


def tolerance(cls):
    if cls not in TOLERANCES:
        raise SystemExit("corpus: unknown class '%s'" % cls)
    return TOLERANCES[cls]


# --- The registry ------------------------------------------------------------------

def by_name(name):
    load_all()
    for m in MODELS:
        if m.name == name:
            return m
    raise SystemExit("corpus: unknown model '%s' (see corpus.py list)" % name)


def load_all():
    """Imports the generator modules (each registers its models)."""
    if MODELS:
        return
    for mod in GENERATORS:
        if os.path.exists(os.path.join(HERE, mod + ".py")):
            __import__(mod)


# Bump when generate() or write_inputs() change what they write (they are
# not part of the stamp).
DATA_VERSION = 2


def sources_stamp(m):
    """A hash of what model m is made from: common.py,
    tools/ort/gen_models.py, the generator module that defines it and the
    generator modules that one imports (transitively). A cached model is
    regenerated when any of them changes."""
    h = hashlib.sha256(b"%d" % DATA_VERSION)
    todo, seen = [m.build.__module__, "common"], set()
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        with open(os.path.join(HERE, mod + ".py"), "rb") as fh:
            text = fh.read()
        h.update(mod.encode() + b"\0" + text)
        for dep in GENERATORS:
            if re.search(rb"^\s*(from %s import|import %s\b)" % (dep.encode(), dep.encode()),
                         text, re.M):
                todo.append(dep)
    with open(os.path.join(SRC, "tools", "ort", "gen_models.py"), "rb") as fh:
        h.update(fh.read())
    return h.hexdigest()[:16]


# --- Inputs and ORT ----------------------------------------------------------------

def write_inputs(model, d, batch, seed, overrides=None):
    os.makedirs(d, exist_ok=True)
    for i, (name, a) in enumerate(gen_models.make_inputs(model, {"N": batch}, seed)):
        if overrides and name in overrides:
            a = overrides[name]
        with open(os.path.join(d, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, name).SerializeToString())


def ort_env():
    env = dict(os.environ)
    env.setdefault("ONNXC_ORT_MODULES", os.path.join(
        os.environ.get("ONNXC_BUILD_DIR", os.path.join(SRC, "build")), "ort",
        "node_modules"))
    return env


def run_ort(model_path, inputs, save, threads=1):
    cmd = ["node", os.path.join(SRC, "tools", "ort", "ort_run.js"), model_path,
           "--inputs", inputs, "--save", save, "--threads", str(threads)]
    res = subprocess.run(cmd, capture_output=True, text=True, env=ort_env())
    if res.returncode != 0:
        raise SystemExit("corpus: ORT failed on %s: %s" % (model_path, res.stderr.strip()))


def ort_evaluate(model, arrays):
    """Runs ORT on a ModelProto with the given input arrays (graph-input
    order); returns the outputs as numpy arrays (graph-output order). Used
    to calibrate the statically quantized models."""
    with tempfile.TemporaryDirectory() as t:
        path = os.path.join(t, "m.onnx")
        onnx.save(model, path)
        ind = os.path.join(t, "in")
        os.makedirs(ind)
        names = [i.name for i in model.graph.input
                 if i.name not in {x.name for x in model.graph.initializer}]
        for i, (n, a) in enumerate(zip(names, arrays)):
            with open(os.path.join(ind, "input_%d.pb" % i), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())
        out = os.path.join(t, "out")
        run_ort(path, ind, out)
        return [read_pb(os.path.join(out, "output_%d.pb" % k))
                for k in range(len(model.graph.output))]


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def generate(m, d, dynamic, ort, cache):
    stamp = json.dumps({"sources": sources_stamp(m), "name": m.name, "dynamic": dynamic,
                        "ort": ort})
    stamp_file = os.path.join(d, "stamp.json")
    if cache and os.path.exists(stamp_file):
        with open(stamp_file) as f:
            if f.read() == stamp:
                return
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    model = m.build(dynamic)
    # The batch of the dynamic model must be symbolic, that of the static
    # model fixed: the generators decide, this checks.
    first = model.graph.input[0].type.tensor_type.shape.dim
    if dynamic and not any(x.dim_param == "N" for x in first):
        raise SystemExit("corpus: %s --dynamic has no dim 'N' in its first input" % m.name)
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)
    sets = [(1, 1, None)] + [(1, 1, v) for v in m.variants] + (
        [(2, 2, None)] if dynamic else [])
    if tolerance(m.cls).get("reference") and not m.reference:
        raise SystemExit("corpus: %s: a model of class %s needs its fp32 reference" % (
            m.name, m.cls))
    ref_path = None
    if m.reference and ort:
        ref_path = os.path.join(d, "reference.onnx")
        ref_model = m.reference(dynamic)
        onnx.save(ref_model, ref_path)
    for k, (batch, seed, overrides) in enumerate(sets):
        sd = os.path.join(d, "test_data_set_%d" % k)
        write_inputs(model, sd, batch, seed, overrides)
        if ort:
            run_ort(path, sd, sd)
            check_outputs(m, sd)
        if ref_path:
            # ORT's outputs of the fp32 model (reference_<k>.pb), for the
            # int8 comparison.
            with tempfile.TemporaryDirectory() as t:
                run_ort(ref_path, inputs_as(ref_model, sd, t), t)
                j = 0
                while os.path.exists(os.path.join(t, "output_%d.pb" % j)):
                    shutil.move(os.path.join(t, "output_%d.pb" % j),
                                os.path.join(sd, "reference_%d.pb" % j))
                    j += 1
    with open(stamp_file, "w") as f:
        f.write(stamp)


def inputs_as(model, d, t):
    """d's inputs converted to model's input types (an fp16-I/O model's
    float16 inputs for its fp32 reference), in t/in; d itself when they
    already are."""
    types = [i.type.tensor_type.elem_type for i in model.graph.input
             if i.name not in {x.name for x in model.graph.initializer}]
    out, changed, k = os.path.join(t, "in"), False, 0
    os.makedirs(out)
    while os.path.exists(os.path.join(d, "input_%d.pb" % k)):
        proto = onnx.TensorProto()
        with open(os.path.join(d, "input_%d.pb" % k), "rb") as f:
            proto.ParseFromString(f.read())
        if k < len(types) and proto.data_type != types[k]:
            a = numpy_helper.to_array(proto).astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[types[k]])
            proto = numpy_helper.from_array(a, proto.name)
            changed = True
        with open(os.path.join(out, "input_%d.pb" % k), "wb") as f:
            f.write(proto.SerializeToString())
        k += 1
    return out if changed else d


def check_outputs(m, d):
    """A guard on the generators: a float output whose elements are all
    equal (a zero-initialized head, a saturated activation) would let any
    kernel pass the comparison."""
    k = 0
    while os.path.exists(os.path.join(d, "output_%d.pb" % k)):
        a = read_pb(os.path.join(d, "output_%d.pb" % k))
        if np.issubdtype(a.dtype, np.floating) and a.size > 1 and np.ptp(a) == 0:
            raise SystemExit("corpus: %s: ORT's output %d is constant (%s): the model does "
                             "not depend on its input" % (m.name, k, a.ravel()[0]))
        k += 1


# --- Compare -----------------------------------------------------------------------

def quant_step(model_path, k):
    """The quantization step of graph output k: the scale of the
    DequantizeLinear that produces it (a constant), else None."""
    model = onnx.load(model_path)
    out = model.graph.output[k].name
    consts = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == "Constant":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    for n in model.graph.node:
        if out in n.output and n.op_type == "DequantizeLinear" and n.input[1] in consts:
            return float(np.max(consts[n.input[1]]))
    return None


def compare(m, got_dir, exp_dir, model_path=None, quiet_verdict=False, stats=None):
    """True when every output is within the class tolerance. stats (a
    list) receives one short string per output: the largest error as a
    share of the output's largest magnitude (float classes) or in
    quantization steps (int8)."""
    tol = tolerance(m.cls)
    stats = stats if stats is not None else []
    ok = True
    k = 0
    while os.path.exists(os.path.join(exp_dir, "output_%d.pb" % k)):
        ref = read_pb(os.path.join(exp_dir, "output_%d.pb" % k))
        gp = os.path.join(got_dir, "output_%d.pb" % k)
        if not os.path.exists(gp):
            print("output %d: missing in %s" % (k, got_dir))
            ok = False
            k += 1
            continue
        got = read_pb(gp)
        if got.shape != ref.shape or got.dtype != ref.dtype:
            print("output %d: %s%s, expected %s%s" % (k, got.dtype, list(got.shape),
                                                      ref.dtype, list(ref.shape)))
            ok = False
            k += 1
            continue
        r = ref.astype(np.float64)
        g = got.astype(np.float64)
        if not np.issubdtype(ref.dtype, np.floating):
            bad = int(np.count_nonzero(r != g))
            print("output %d: %s%s, %d of %d elements differ (exact)" % (
                k, ref.dtype, list(ref.shape), bad, r.size))
            ok = ok and bad == 0
            k += 1
            continue
        finite = np.isfinite(r)
        if not np.array_equal(finite, np.isfinite(g)) or not np.array_equal(
                r[~finite], g[~finite]):
            print("output %d: non-finite values differ" % k)
            ok = False
            k += 1
            continue
        r, g = r[finite], g[finite]
        err = np.abs(g - r)
        scale = float(np.max(np.abs(r))) if r.size else 0.0
        if tol.get("reference"):
            refp = os.path.join(exp_dir, "reference_%d.pb" % k)
            if not os.path.exists(refp):
                print("output %d: no fp32 reference (%s)" % (k, refp))
                ok = False
                k += 1
                continue
            f = read_pb(refp).astype(np.float64).ravel()[finite.ravel()]
            rms = lambda a: float(np.sqrt(np.mean(a * a))) if a.size else 0.0
            floor = 1e-6 * scale
            e_ort, e_got = r - f, g - f
            rms_q = (rms(e_got) + floor) / (rms(e_ort) + floor)
            max_q = (float(np.max(np.abs(e_got))) + floor) / (float(np.max(np.abs(e_ort))) + floor)
            passed = rms_q <= tol["rms_ratio"] and max_q <= tol["max_ratio"]
            if m.cls == "int8":  # the elementwise difference, in output steps
                step = quant_step(model_path, k) if model_path else None
                step = step or ((float(r.max() - r.min()) / 255.0) if r.size else 0.0)
                vs_ort = "%.1f steps of %.3g" % (
                    float(err.max()) / step if err.size and step else 0.0, step)
            else:
                vs_ort = "%.3g of max |ort|" % (float(err.max()) / scale if scale else 0.0)
            print("output %d: %s%s, against fp32: rms err %.3g (ORT %.3g, x%.2f), max err %.3g "
                  "(ORT %.3g, x%.2f); against ORT: max %.3g (%s) %s" % (
                      k, ref.dtype, list(ref.shape), rms(e_got), rms(e_ort), rms_q,
                      float(np.max(np.abs(e_got))), float(np.max(np.abs(e_ort))), max_q,
                      float(err.max()) if err.size else 0.0, vs_ort,
                      "ok" if passed else "FAILED"))
            stats.append("x%.2f rms, x%.2f max" % (rms_q, max_q))
        else:
            bound = tol["atol"] * scale + tol["rtol"] * np.abs(r)
            n_beyond = int(np.count_nonzero(err > bound))
            passed = n_beyond == 0
            print("output %d: %s%s, max abs err %.3g (%.3g of max |ort| %.3g), %d of %d "
                  "beyond tolerance %s" % (
                      k, ref.dtype, list(ref.shape), float(err.max()) if err.size else 0.0,
                      float(err.max()) / scale if scale else 0.0, scale, n_beyond, r.size,
                      "ok" if passed else "FAILED"))
            stats.append("%.1e" % (float(err.max()) / scale if scale else 0.0))
        ok = ok and passed
        k += 1
    if k == 0:
        print("no output_*.pb in %s" % exp_dir)
        ok = False
    if not quiet_verdict:
        print("%s: %s (class %s)" % (m.name, "OK" if ok else "FAILED", m.cls))
    return ok


# --- Check: the lit tests' one command ----------------------------------------------

def data_sets(d):
    k, out = 0, []
    while os.path.isdir(os.path.join(d, "test_data_set_%d" % k)):
        out.append(os.path.join(d, "test_data_set_%d" % k))
        k += 1
    return out


def check(m, dynamic, cache, work, tools):
    """Generates (cached) the model with ORT's outputs, compiles it with
    onnxc, runs every data set with onnxc-run and compares with the class
    tolerance. Prints each step; True when everything passed."""
    d = os.path.join(cache, m.name + ("-dynamic" if dynamic else ""))
    generate(m, d, dynamic, ort=True, cache=True)
    os.makedirs(work, exist_ok=True)
    lib = os.path.join(work, "model.so")
    res = tools.compile(os.path.join(d, "model.onnx"), lib)
    if not res.ok:
        print("onnxc: FAILED (%.1f s): %s" % (res.seconds, res.why()))
        sys.stdout.write(res.err)
        print("%s: FAILED (class %s)" % (m.name, m.cls))
        return False
    print("onnxc: compiled in %.1f s" % res.seconds)
    ok = True
    for sd in data_sets(d):
        save = os.path.join(work, os.path.basename(sd))
        if os.path.exists(save):
            shutil.rmtree(save)
        os.makedirs(save)
        res = tools.run(lib, sd, save)
        print("%s: onnxc-run %s" % (os.path.basename(sd), "ok" if res.ok else
                                     "FAILED: " + res.why()))
        if not res.ok:
            sys.stdout.write(res.err)
            ok = False
            continue
        ok = compare(m, save, sd, os.path.join(d, "model.onnx"), quiet_verdict=True) and ok
    print("%s: %s (class %s%s)" % (m.name, "OK" if ok else "FAILED", m.cls,
                                   ", symbolic batch" if dynamic else ""))
    return ok


# --- Main ---------------------------------------------------------------------------

def main(argv):
    p = argparse.ArgumentParser(prog="corpus.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("list", help="the models")
    pl.add_argument("--names", action="store_true", help="names only")
    sub.add_parser("classes", help="the tolerance table")
    pm = sub.add_parser("model", help="write a model and its test data")
    pm.add_argument("name")
    pm.add_argument("-o", "--output", required=True, metavar="DIR")
    pm.add_argument("--dynamic", action="store_true", help="batch dim symbolic (N)")
    pm.add_argument("--ort", action="store_true", help="ORT's outputs beside the inputs")
    pm.add_argument("--cache", action="store_true", help="keep DIR when up to date")
    pc = sub.add_parser("compare", help="onnxc's outputs against ORT's")
    pc.add_argument("name")
    pc.add_argument("got")
    pc.add_argument("expected")
    pc.add_argument("--model", help="the model (for the quantization step of int8 outputs)")
    pk = sub.add_parser("check", help="generate, compile, run, compare (the lit test)")
    pk.add_argument("name")
    pk.add_argument("--dynamic", action="store_true")
    pk.add_argument("--build", default=os.environ.get("ONNXC_BUILD_DIR",
                                                      os.path.join(SRC, "build")))
    pk.add_argument("--cache", help="generated models (default BUILD/corpus)")
    pk.add_argument("--work", required=True, help="scratch folder (the library, outputs)")
    pk.add_argument("--timeout", type=float, default=600, help="seconds per tool run")
    pk.add_argument("--memory-kb", type=int, default=8000000,
                    help="address-space limit of onnxc, KB")
    args = p.parse_args(argv)

    if args.cmd == "list":
        load_all()
        for m in MODELS:
            if args.names:
                print(m.name)
            else:
                print("%-20s %-5s %s%s" % (m.name, m.cls, m.what,
                                           "  [heavy]" if m.heavy else ""))
        return 0
    if args.cmd == "classes":
        for cls, t in TOLERANCES.items():
            print("%s: %s\n  %s" % (cls, ", ".join("%s %s" % (k, v) for k, v in t.items()
                                                  if k != "why"), t["why"]))
        return 0
    m = by_name(args.name)
    if args.cmd == "model":
        generate(m, os.path.abspath(args.output), args.dynamic, args.ort, args.cache)
        return 0
    if args.cmd == "check":
        from runner import Tools
        build = os.path.abspath(args.build)
        tools = Tools(build, args.timeout, args.memory_kb)
        return 0 if check(m, args.dynamic, args.cache or os.path.join(build, "corpus"),
                          args.work, tools) else 1
    model_path = args.model or os.path.join(os.path.dirname(os.path.abspath(args.expected)),
                                            "model.onnx")
    return 0 if compare(m, args.got, args.expected,
                        model_path if os.path.exists(model_path) else None) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

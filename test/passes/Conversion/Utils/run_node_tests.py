#!/usr/bin/python3
"""Runs ONNX node tests through onnxc --emit=onnx, --convert-onnx-to-linalg and
the MLIR JIT (mlir-runner), and compares the outputs with the expected ones.

A development aid for the onnx -> linalg conversion until the native pipeline
and its conformance runner exist; not part of the lit suite.

    run_node_tests.py [-j N] [--build DIR] [-v] PATTERN...

PATTERN is a regular expression matched against the test names under
/usr/share/libonnx-testdata/data/node (e.g. '^test_add' or 'relu').
Prints one line per test: PASS, FAIL (wrong values), RUNFAIL (lowering to
LLVM or running failed), UNSUPPORTED (the conversion rejected an op) or
IMPORTFAIL, then a summary.
"""
import argparse
import glob
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

NODE_DIR = "/usr/share/libonnx-testdata/data/node"
LLVM_BIN = "/usr/lib/llvm-22/bin"
LIBS = ",".join(["/usr/lib/llvm-22/lib/libmlir_runner_utils.so",
                 "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"])
PIPELINE = ["--convert-elementwise-to-linalg",
            "--one-shot-bufferize=bufferize-function-boundaries",
            "--buffer-deallocation-pipeline", "--convert-bufferization-to-memref",
            "--convert-linalg-to-loops",
            "--expand-strided-metadata", "--lower-affine", "--convert-scf-to-cf",
            "--convert-math-to-funcs", "--convert-math-to-libm",
            "--convert-to-llvm", "--reconcile-unrealized-casts"]

MLIR_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
              np.dtype(np.float16): "f16", np.dtype(np.int8): "i8",
              np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
              np.dtype(np.int64): "i64", np.dtype(np.uint8): "i8",
              np.dtype(np.uint16): "i16", np.dtype(np.uint32): "i32",
              np.dtype(np.uint64): "i64", np.dtype(np.bool_): "i1"}


def run(cmd, stdin=None, timeout=120):
    p = subprocess.run(["sh", "-c", 'ulimit -v 4000000 && exec "$0" "$@"'] + cmd,
                       input=stdin, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def tensor_type(shape, elt):
    return "tensor<" + "".join("%dx" % d for d in shape) + elt + ">"


def elt_type(arr):
    return "bf16" if isinstance(arr, BF16) else MLIR_TYPES[arr.dtype]


def dense(arr):
    elt = elt_type(arr)
    if arr.dtype == np.bool_:
        body = "[" + ", ".join("true" if v else "false" for v in arr.flatten()) + "]"
        if arr.ndim == 0:
            body = "true" if arr.item() else "false"
        elif arr.size:
            body = str(np.array(["true" if v else "false" for v in arr.flatten()]
                                ).reshape(arr.shape).tolist()).replace("'", "")
        return "dense<%s> : %s" % (body, tensor_type(arr.shape, elt))
    if arr.size == 0:
        return "dense<> : %s" % tensor_type(arr.shape, elt)
    raw = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
    return 'dense<"0x%s"> : %s' % (raw.hex().upper(), tensor_type(arr.shape, elt))


def split_types(s):
    """Splits a comma-separated list of types at depth 0."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def driver(lowered, inputs, outputs):
    sig = re.search(r"func\.func @main_graph\(.*", lowered).group(0)
    sig = re.sub(r' \{[^{}]*\}(?=[,)])', "", sig)  # argument/result attributes
    m = re.search(r"func\.func @main_graph\((.*?)\)(?: -> (.*?))? (?:attributes .*)?\{$", sig)
    if not m:
        raise RuntimeError("no main_graph")
    arg_types = [a.split(":", 1)[1].strip() for a in split_types(m.group(1))]
    res = (m.group(2) or "").strip()
    if res.startswith("("):
        res = res[1:-1]
    res_types = split_types(res)
    lines = ["func.func @main() {"]
    args = []
    for i, (arr, at) in enumerate(zip(inputs, arg_types)):
        ct = tensor_type(arr.shape, elt_type(arr))
        lines.append("  %%in%d = arith.constant %s" % (i, dense(arr)))
        if ct != at:
            lines.append("  %%inc%d = tensor.cast %%in%d : %s to %s" % (i, i, ct, at))
            args.append("%%inc%d" % i)
        else:
            args.append("%%in%d" % i)
    names = ", ".join("%%r%d" % i for i in range(len(res_types)))
    call = "func.call @main_graph(%s) : (%s) -> (%s)" % (
        ", ".join(args), ", ".join(arg_types), ", ".join(res_types))
    lines.append("  %s = %s" % (names, call) if res_types else "  " + call)
    for i, (rt, exp) in enumerate(zip(res_types, outputs)):
        elt = rt[rt.rindex("x") + 1:-1] if "x" in rt else rt[7:-1]
        shape = rt[7:len(rt) - len(elt) - 1]
        isf = elt in ("f16", "bf16", "f32", "f64")
        tgt = "f64" if isf else "i64"
        wide = "tensor<%s%s>" % (shape, tgt)
        src = "%%r%d" % i
        if elt != tgt:
            if isf:
                op = "arith.extf"
            elif exp.dtype.kind == "u" or exp.dtype == np.bool_:
                op = "arith.extui"
            else:
                op = "arith.extsi"
            lines.append("  %%w%d = %s %s : %s to %s" % (i, op, src, rt, wide))
            src = "%%w%d" % i
        mt = "memref<%s%s>" % (shape, tgt)
        lines.append("  %%m%d = bufferization.to_buffer %s : %s to %s" % (i, src, wide, mt))
        lines.append("  %%u%d = memref.cast %%m%d : %s to memref<*x%s>" % (i, i, mt, tgt))
        lines.append("  func.call @printMemref%s(%%u%d) : (memref<*x%s>) -> ()" % (
            "F64" if isf else "I64", i, tgt))
    lines.append("  return\n}")
    lines.append("func.func private @printMemrefF64(memref<*xf64>)")
    lines.append("func.func private @printMemrefI64(memref<*xi64>)")
    body = lowered.rstrip()
    assert body.endswith("}")
    return body[:-1] + "\n".join(lines) + "\n}\n"


NUM = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def parse_outputs(text):
    outs = []
    for chunk in text.split("Unranked Memref")[1:]:
        head, data = chunk.split("data =", 1)
        sizes = re.search(r"sizes = \[([^\]]*)\]", head).group(1)
        if any(int(x) == 0 for x in sizes.split(",") if x.strip()):
            outs.append([])  # printMemref prints junk for empty memrefs
            continue
        vals = [float(t) for t in NUM.findall(data)]
        outs.append(vals)
    return outs


def compare(expected, got):
    if isinstance(expected, BF16):
        expected = (np.asarray(expected).astype(np.uint32) << 16).view(np.float32)
    exp = expected.astype(np.float64).flatten() if expected.dtype != np.bool_ \
        else expected.astype(np.float64).flatten()
    got = np.array(got, dtype=np.float64)
    if exp.shape != got.shape:
        return "shape: expected %d values, got %d" % (exp.size, got.size)
    if expected.dtype.kind in "iub":
        if expected.dtype.kind == "u" and expected.dtype.itemsize == 8:
            got = np.where(got < 0, got + 2.0**64, got)
        ok = np.array_equal(exp, got)
    else:
        rtol = 1e-2 if expected.dtype == np.float16 else 1e-4
        if isinstance(expected, BF16):
            rtol = 1e-2
        ok = np.allclose(got, exp, rtol=rtol, atol=1e-5, equal_nan=True)
    if ok:
        return None
    bad = np.argwhere(~np.isclose(got, exp, rtol=1e-4, atol=1e-5, equal_nan=True))
    i = int(bad[0][0]) if len(bad) else 0
    return "value[%d]: expected %r, got %r" % (i, exp[i], got[i])


class BF16(np.ndarray):
    """Raw bfloat16 bits (uint16) of a tensor."""


def load(paths, value_infos=()):
    out = []
    for i, p in enumerate(paths):
        t = onnx.TensorProto()
        with open(p, "rb") as f:
            t.ParseFromString(f.read())
        a = numpy_helper.to_array(t)
        declared = (value_infos[i].type.tensor_type.elem_type
                    if i < len(value_infos) else t.data_type)
        if onnx.TensorProto.BFLOAT16 in (t.data_type, declared):
            a = np.asarray(a).astype(np.uint16).view(BF16)
        out.append(a)
    return out


def run_test(args):
    name, build, verbose = args
    d = os.path.join(NODE_DIR, name)
    data = os.path.join(d, "test_data_set_0")
    try:
        model = onnx.load(os.path.join(d, "model.onnx"))
        inits = {i.name for i in model.graph.initializer}
        graph_inputs = [v for v in model.graph.input if v.name not in inits]
        inputs = load(sorted(glob.glob(os.path.join(data, "input_*.pb")),
                             key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])),
                      graph_inputs)
        outputs = load(sorted(glob.glob(os.path.join(data, "output_*.pb")),
                              key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])),
                       model.graph.output)
    except Exception as e:  # sequences, optionals
        return name, "SKIP", "data: %s" % e
    if any(a.dtype not in MLIR_TYPES for a in inputs + outputs):
        return name, "SKIP", "dtype"
    rc, onnx_ir, err = run([os.path.join(build, "bin/onnxc"), "--emit=onnx",
                            os.path.join(d, "model.onnx")])
    if rc:
        return name, "IMPORTFAIL", err.strip().splitlines()[-1] if err.strip() else ""
    rc, lowered, err = run([os.path.join(build, "bin/onnxc-opt"),
                            "--convert-onnx-to-linalg"], stdin=onnx_ir)
    if rc:
        first = [l for l in err.splitlines() if "error" in l]
        return name, "UNSUPPORTED", first[0] if first else err[-300:]
    try:
        prog = driver(lowered, inputs, outputs)
    except Exception as e:
        return name, "RUNFAIL", "driver: %s" % e
    rc, llvm, err = run([os.path.join(LLVM_BIN, "mlir-opt")] + PIPELINE, stdin=prog)
    if rc:
        if verbose:
            with open("/tmp/node_%s.mlir" % name, "w") as f:
                f.write(prog)
        return name, "RUNFAIL", "mlir-opt: " + (err.strip().splitlines() or [""])[0][:300]
    rc, out, err = run([os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                        "-entry-point-result=void", "-shared-libs=" + LIBS], stdin=llvm)
    if rc:
        return name, "RUNFAIL", "runner: " + err.strip()[-300:]
    got = parse_outputs(out)
    if len(got) != len(outputs):
        return name, "FAIL", "expected %d outputs, got %d" % (len(outputs), len(got))
    for i, (e, g) in enumerate(zip(outputs, got)):
        msg = compare(e, g)
        if msg:
            if verbose:
                with open("/tmp/node_%s.mlir" % name, "w") as f:
                    f.write(prog)
            return name, "FAIL", "output %d: %s" % (i, msg)
    return name, "PASS", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--build", default=os.path.join(
        os.path.dirname(__file__), "../../../../build"))
    ap.add_argument("-v", action="store_true")
    ap.add_argument("-q", action="store_true", help="only print non-passing")
    ap.add_argument("patterns", nargs="+")
    a = ap.parse_args()
    names = sorted(n for n in os.listdir(NODE_DIR)
                   if any(re.search(p, n) for p in a.patterns))
    counts = {}
    with multiprocessing.Pool(a.j) as pool:
        for name, status, msg in pool.imap(run_test, [(n, os.path.abspath(a.build), a.v) for n in names]):
            counts[status] = counts.get(status, 0) + 1
            if not (a.q and status == "PASS"):
                print("%-11s %s %s" % (status, name, msg), flush=True)
    print("summary:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()

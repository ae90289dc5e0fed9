#!/usr/bin/python3
"""Compiles and runs the ONNX backend test models with onnxc and onnxc-run.

For every case under /usr/share/libonnx-testdata/data/<suite>/<case>/:
  onnxc model.onnx -o <tmp>/<case>.so
  onnxc-run <tmp>/<case>.so --inputs test_data_set_N --expect test_data_set_N
            --rtol 1e-3 --atol 1e-5          (for every test_data_set_N)
and classifies it: pass, compile-fail, run-fail or mismatch.

--dynamic rewrites the model first so that every graph input dim is a
symbolic dim (dim_param), then does the same: one compiled library must run
at the sizes of the test data.

Expected failures are data (conformance_xfail.json):
  {"static": {"<suite>/<case>": "reason", ...},
   "dynamic": {...},
   "tolerance": {"<suite>/<case>": {"rtol": R, "atol": A, "reason": "..."}}}
A failure not listed, a listed case that passes, or an entry without a
reason fails the run (exit 1). The closing line reads
  conformance: N passed, M failed
where M counts only unexpected results.

--json FILE writes every case's status ({"mode": "static", "cases":
{"<suite>/<case>": {"status": "pass", "detail": "", "expected": false}}}),
the input of supported_ops.py.

Needs /usr/bin/python3 (python3-onnx for --dynamic). Standard library
otherwise.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator"]


def first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:300]
    return ""


def make_dynamic(src, dst):
    """Copies model `src` to `dst` with every graph-input dim symbolic."""
    import onnx
    model = onnx.load(src)
    inits = {t.name for t in model.graph.initializer}
    for i, inp in enumerate(model.graph.input):
        if inp.name in inits or not inp.type.HasField("tensor_type"):
            continue
        for j, d in enumerate(inp.type.tensor_type.shape.dim):
            d.Clear()
            d.dim_param = "d%d_%d" % (i, j)
    # Declared intermediate and output shapes would pin the sizes again.
    del model.graph.value_info[:]
    for out in model.graph.output:
        if out.type.HasField("tensor_type"):
            out.type.tensor_type.ClearField("shape")
    onnx.save(model, dst)


def run_case(args, suite, case, tmp):
    name = "%s/%s" % (suite, case)
    case_dir = os.path.join(args.data, suite, case)
    model = os.path.join(case_dir, "model.onnx")
    work = os.path.join(tmp, suite + "__" + case)
    os.makedirs(work, exist_ok=True)
    if args.dynamic:
        dyn = os.path.join(work, "model.onnx")
        try:
            make_dynamic(model, dyn)
        except Exception as e:  # a model python-onnx cannot rewrite
            return name, "compile-fail", "cannot make dynamic: %s" % e
        model = dyn
    lib = os.path.join(work, "m.so")
    try:
        p = subprocess.run([args.onnxc, model, "-o", lib] + args.onnxc_arg,
                           capture_output=True,
                           text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return name, "compile-fail", "onnxc timed out after %ds" % args.timeout
    if p.returncode != 0:
        detail = first_line(p.stderr) or "exit code %d" % p.returncode
        if p.returncode < 0:
            detail = "onnxc crashed (signal %d): %s" % (-p.returncode, detail)
        return name, "compile-fail", detail
    tol = args.tolerance.get(name, {})
    rtol = str(tol.get("rtol", 1e-3))
    atol = str(tol.get("atol", 1e-5))
    sets = sorted(glob.glob(os.path.join(case_dir, "test_data_set_*")))
    if not sets:
        return name, "run-fail", "no test_data_set"
    # Random ops without a seed draw from a per-process seed: a fixed one
    # (unless the caller set one) makes every run the same, so that a
    # case expected to fail for its random values (numpy's generator)
    # cannot pass by chance (test_bernoulli's 10 draws did, about one run
    # in a few hundred).
    env = dict(os.environ)
    env.setdefault("ONNXC_RANDOM_SEED", "1")
    for s in sets:
        cmd = [args.onnxc_run, lib, "--inputs", s, "--expect", s,
               "--rtol", rtol, "--atol", atol]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=args.timeout, env=env)
        except subprocess.TimeoutExpired:
            return name, "run-fail", "onnxc-run timed out"
        if r.returncode == 1:
            return name, "mismatch", first_line(r.stdout + "\n" + r.stderr)
        if r.returncode != 0:
            detail = first_line(r.stderr + "\n" + r.stdout) or "exit %d" % r.returncode
            if r.returncode < 0:
                detail = "onnxc-run crashed (signal %d)" % -r.returncode
            return name, "run-fail", detail
    return name, "pass", ""


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--onnxc", required=True)
    p.add_argument("--onnxc-run", required=True)
    p.add_argument("--xfail", required=True)
    p.add_argument("--summary", help="write a Markdown summary here")
    p.add_argument("--json", help="write every case's result here (JSON; "
                   "test/numeric/conformance/supported_ops.py reads it)")
    p.add_argument("--data", default=DATA,
                   help="root of the suites (default: libonnx-testdata); "
                        "generated cases use the same layout")
    p.add_argument("--suites", default=",".join(SUITES))
    p.add_argument("--filter", default="", help="only cases whose name contains this")
    p.add_argument("--dynamic", action="store_true")
    p.add_argument("--onnxc-arg", action="append", default=[],
                   help="an extra argument for onnxc (e.g. -O0); repeatable")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--write-xfail", action="store_true",
                   help="record every current failure in the xfail file (review the diff!)")
    args = p.parse_args(argv)

    with open(args.xfail) as f:
        xfail_data = json.load(f)
    mode = "dynamic" if args.dynamic else "static"
    xfail = xfail_data.get(mode, {})
    args.tolerance = xfail_data.get("tolerance", {})
    bad = [k for k, v in xfail.items() if not isinstance(v, str) or not v.strip()]
    bad += [k for k, v in args.tolerance.items()
            if not isinstance(v, dict) or not str(v.get("reason", "")).strip()]
    if bad:
        print("conformance: entries without a reason: %s" % ", ".join(bad))
        print("conformance: 0 passed, %d failed" % len(bad))
        return 1

    cases = []
    for suite in args.suites.split(","):
        for d in sorted(glob.glob(os.path.join(args.data, suite, "*", "model.onnx"))):
            case = os.path.basename(os.path.dirname(d))
            if args.filter in "%s/%s" % (suite, case):
                cases.append((suite, case))
    unknown = [k for k in xfail if tuple(k.split("/", 1)) not in set(cases)
               and args.filter in k and k.split("/", 1)[0] in args.suites.split(",")]

    results = []
    with tempfile.TemporaryDirectory(prefix="onnxc-conformance-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_case, args, s, c, tmp) for s, c in cases]
            for fut in concurrent.futures.as_completed(futures):
                results.append(fut.result())
    results.sort()

    counts = {}
    unexpected_fail, unexpected_pass, expected = [], [], []
    for name, status, detail in results:
        suite = name.split("/", 1)[0]
        c = counts.setdefault(suite, {"pass": 0, "compile-fail": 0, "run-fail": 0,
                                      "mismatch": 0, "xfail": 0})
        if status == "pass":
            c["pass"] += 1
            if name in xfail:
                unexpected_pass.append(name)
        else:
            c[status] += 1
            if name in xfail:
                c["xfail"] += 1
                expected.append((name, status, xfail[name]))
            else:
                unexpected_fail.append((name, status, detail))

    if args.write_xfail:
        for name, status, detail in unexpected_fail:
            xfail[name] = "%s: %s" % (status, detail)
        for name in unexpected_pass:
            del xfail[name]
        xfail_data[mode] = dict(sorted(xfail.items()))
        with open(args.xfail, "w") as f:
            json.dump(xfail_data, f, indent=1, sort_keys=True)
            f.write("\n")

    lines = ["# onnxc conformance (%s shapes)" % mode, "",
             "rtol 1e-3, atol 1e-5 unless a tolerance entry says otherwise.", "",
             "| suite | cases | pass | compile-fail | run-fail | mismatch | of which expected |",
             "|---|---|---|---|---|---|---|"]
    for suite in args.suites.split(","):
        c = counts.get(suite)
        if not c:
            continue
        total = sum(c[k] for k in ("pass", "compile-fail", "run-fail", "mismatch"))
        lines.append("| %s | %d | %d | %d | %d | %d | %d |" % (
            suite, total, c["pass"], c["compile-fail"], c["run-fail"],
            c["mismatch"], c["xfail"]))
    if unexpected_fail:
        lines += ["", "## Unexpected failures", ""]
        lines += ["- `%s` (%s): %s" % f for f in unexpected_fail]
    if unexpected_pass:
        lines += ["", "## Listed as expected failures but pass (remove them)", ""]
        lines += ["- `%s`" % n for n in unexpected_pass]
    if unknown:
        lines += ["", "## xfail entries naming no test case", ""]
        lines += ["- `%s`" % n for n in unknown]
    summary = "\n".join(lines) + "\n"
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"mode": mode, "suites": args.suites.split(","),
                       "data": os.path.abspath(args.data),
                       "filter": args.filter,
                       "cases": {name: {"status": status, "detail": detail,
                                        "expected": name in xfail}
                                 for name, status, detail in results}},
                      f, indent=1, sort_keys=True)
            f.write("\n")
    if args.summary:
        with open(args.summary, "w") as f:
            f.write(summary)
    print(summary)
    passed = sum(c["pass"] for c in counts.values())
    failed = len(unexpected_fail) + len(unexpected_pass) + len(unknown)
    print("conformance: %d passed, %d failed" % (passed, failed))
    return 1 if failed and not args.write_xfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

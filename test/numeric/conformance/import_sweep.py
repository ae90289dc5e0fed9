#!/usr/bin/python3
"""Imports every ONNX test model with `onnxc --emit=onnx` and checks the result
against the expected failures in import_xfail.json.

For each <data>/{node,simple,pytorch-converted,pytorch-operator}/*/model.onnx:
    onnxc MODEL --emit=onnx -o /dev/null [--require-static]
`--require-static` is added when every graph input (initializers excluded) is
a tensor with a fully static shape (decided with python3-onnx). Each model
runs with a time and a memory limit, two at a time.

Writes a Markdown summary (per suite: passed / failed / expected failures;
every failure with its one-line error) and ends with the line
    import-sweep: N passed, M failed
Exit status 1 when a model fails that import_xfail.json does not list, when a
listed model passes (remove it from the list), or when the list is malformed.

import_xfail.json maps a model directory name to the reason it fails:
    {"test_ai_onnx_ml_tree_ensemble": "ml.TreeEnsemble: tensor attributes not imported"}
`--write-xfail` rewrites it from the current failures (keeping existing
reasons, using the error line for new entries): review the diff.

Standard library plus python3-onnx only; run with /usr/bin/python3.
"""

import argparse
import concurrent.futures
import json
import os
import resource
import signal
import subprocess
import sys
import time

SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator"]
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--onnxc", default=os.path.join(REPO, "build", "bin", "onnxc"),
                   help="the onnxc binary (default: build/bin/onnxc)")
    p.add_argument("--data", default="/usr/share/libonnx-testdata/data",
                   help="the ONNX test data directory")
    p.add_argument("--suites", default=",".join(SUITES),
                   help="comma-separated suites (default: all four)")
    p.add_argument("--filter", default="",
                   help="only models whose directory name contains this")
    p.add_argument("--xfail", default=os.path.join(HERE, "import_xfail.json"),
                   help="expected failures (default: beside this script)")
    p.add_argument("--summary", default="import-sweep-summary.md",
                   help="where to write the Markdown summary")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per model (default 60)")
    p.add_argument("--memory-mb", type=int, default=4000,
                   help="address-space limit per model (default 4000 MB)")
    p.add_argument("--write-xfail", action="store_true",
                   help="rewrite the xfail file from this run's failures")
    return p.parse_args(argv)


def load_xfail(path):
    """Returns (dict, errors). Every entry needs a non-empty string reason."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        return {}, ["%s: %s" % (path, e)]
    if not isinstance(data, dict):
        return {}, ["%s: expected a JSON object of model name -> reason" % path]
    errors = ["%s: '%s' has no reason" % (path, k)
              for k, v in data.items() if not isinstance(v, str) or not v.strip()]
    return data, errors


def has_static_inputs(model_path):
    """True if every non-initializer graph input is a fully static tensor."""
    try:
        import onnx
    except ImportError:
        return False
    try:
        model = onnx.load(model_path, load_external_data=False)
    except Exception:  # a model onnx cannot read: let onnxc report it
        return False
    inits = {t.name for t in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        t = vi.type
        if t.WhichOneof("value") != "tensor_type":
            return False
        if not t.tensor_type.HasField("shape"):
            return False
        for d in t.tensor_type.shape.dim:
            if d.WhichOneof("value") != "dim_value" or d.dim_value < 0:
                return False
    return True


def limit_memory(mb):
    def apply():
        # Not under ASan (ONNXC_SANITIZED, test/lit.cfg.py): its shadow
        # memory needs the address space.
        if os.environ.get("ONNXC_SANITIZED"):
            return
        limit = mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def error_line(stderr, returncode):
    lines = [l for l in stderr.splitlines() if l.strip()]
    for l in lines:
        if l.startswith("onnxc: error:"):
            return l
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        tail = (": " + lines[-1]) if lines else ""
        return "crashed (%s)%s" % (name, tail)
    if lines:
        return lines[-1]
    return "exit code %d without a message" % returncode


def run_one(args, suite, name, model):
    cmd = [args.onnxc, model, "--emit=onnx", "-o", os.devnull]
    static = has_static_inputs(model)
    if static:
        cmd.append("--require-static")
    start = time.time()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=args.timeout, preexec_fn=limit_memory(args.memory_mb))
        ok = proc.returncode == 0
        err = "" if ok else error_line(proc.stderr.decode("utf-8", "replace"),
                                       proc.returncode)
    except subprocess.TimeoutExpired:
        ok, err = False, "timed out after %gs" % args.timeout
    except OSError as e:
        ok, err = False, "could not run onnxc: %s" % e
    return {"suite": suite, "name": name, "ok": ok, "error": err,
            "static": static, "seconds": time.time() - start}


def collect(args):
    models = []
    for suite in [s for s in args.suites.split(",") if s]:
        root = os.path.join(args.data, suite)
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            model = os.path.join(root, name, "model.onnx")
            if args.filter in name and os.path.isfile(model):
                models.append((suite, name, model))
    return models


def write_summary(path, results, xfail, unexpected, xpass, stale):
    lines = ["# onnxc import sweep", "",
             "`onnxc MODEL --emit=onnx` over the ONNX test models "
             "(`--require-static` where every input is static).", "",
             "| suite | models | passed | failed | expected failures |",
             "|---|---|---|---|---|"]
    suites = []
    for r in results:
        if r["suite"] not in suites:
            suites.append(r["suite"])
    for s in suites:
        rs = [r for r in results if r["suite"] == s]
        passed = sum(r["ok"] for r in rs)
        xf = sum(1 for r in rs if not r["ok"] and r["name"] in xfail)
        lines.append("| %s | %d | %d | %d | %d |" % (s, len(rs), passed,
                                                      len(rs) - passed, xf))
    if unexpected:
        lines += ["", "## Unexpected failures", ""]
        lines += ["- `%s/%s`: %s" % (r["suite"], r["name"], r["error"]) for r in unexpected]
    if xpass:
        lines += ["", "## Unexpected passes (remove them from import_xfail.json)", ""]
        lines += ["- `%s/%s` (listed: %s)" % (r["suite"], r["name"], xfail[r["name"]])
                  for r in xpass]
    if stale:
        lines += ["", "## import_xfail.json entries without a model", ""]
        lines += ["- `%s`" % n for n in stale]
    expected = [r for r in results if not r["ok"] and r["name"] in xfail]
    if expected:
        lines += ["", "## Expected failures", ""]
        lines += ["- `%s/%s`: %s (reason: %s)" % (r["suite"], r["name"], r["error"],
                                                  xfail[r["name"]]) for r in expected]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv):
    args = parse_args(argv)
    xfail, problems = load_xfail(args.xfail)
    if not os.access(args.onnxc, os.X_OK):
        print("import-sweep: error: %s is not an executable" % args.onnxc, file=sys.stderr)
        print("import-sweep: 0 passed, 0 failed")
        return 1
    models = collect(args)
    if not models:
        print("import-sweep: error: no models under %s" % args.data, file=sys.stderr)
        print("import-sweep: 0 passed, 0 failed")
        return 1

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, args, *m) for m in models]
        for f in futures:
            results.append(f.result())

    names = {r["name"] for r in results}
    unexpected = [r for r in results if not r["ok"] and r["name"] not in xfail]
    xpass = [r for r in results if r["ok"] and r["name"] in xfail]
    # Entries for models this run did not see are stale only on a full run.
    stale = [] if args.filter or args.suites != ",".join(SUITES) else \
        sorted(n for n in xfail if n not in names)

    broken = [r for r in results if r["error"].startswith("could not run onnxc")]
    if broken:  # the binary vanished mid-run (a rebuild?): no verdict
        print("import-sweep: error: %s" % broken[0]["error"], file=sys.stderr)
        print("import-sweep: %d passed, %d failed" % (0, len(results)))
        return 1

    if args.write_xfail:
        def reason(r):  # the error without "onnxc: error: <model path>: "
            prefix = "onnxc: error: "
            e = r["error"]
            if e.startswith(prefix):
                e = e[len(prefix):]
                head, sep, tail = e.partition("model.onnx: ")
                e = tail if sep else e
            return e
        new = {r["name"]: xfail.get(r["name"], reason(r))
               for r in results if not r["ok"]}
        keep = {n: v for n, v in xfail.items() if n not in names}
        new.update(keep)
        with open(args.xfail, "w") as f:
            json.dump(dict(sorted(new.items())), f, indent=2)
            f.write("\n")
        print("import-sweep: wrote %d entries to %s" % (len(new), args.xfail))

    write_summary(args.summary, results, xfail, unexpected, xpass, stale)

    # Problems go to stderr: lit shows it when the test fails.
    def report(line):
        print(line, file=sys.stderr)
    for p in problems:
        report("import-sweep: error: " + p)
    for r in unexpected:
        report("import-sweep: FAIL %s/%s: %s" % (r["suite"], r["name"], r["error"]))
    for r in xpass:
        report("import-sweep: XPASS %s/%s (listed as: %s)" % (r["suite"], r["name"],
                                                             xfail[r["name"]]))
    for n in stale:
        report("import-sweep: error: %s lists '%s', which is not a test model"
               % (args.xfail, n))
    sys.stderr.flush()
    passed = sum(r["ok"] for r in results)
    failed = len(results) - passed
    print("import-sweep: %d unexpected failures, %d expected failures, "
          "%d unexpected passes; summary in %s"
          % (len(unexpected), failed - len(unexpected), len(xpass), args.summary))
    print("import-sweep: %d passed, %d failed" % (passed, failed))
    bad = unexpected or xpass or stale or problems
    if args.write_xfail:
        bad = problems
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

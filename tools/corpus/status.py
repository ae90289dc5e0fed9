#!/usr/bin/python3
"""status.py - where onnxc stands on the corpus: docs/corpus-status.md.

    status.py [--models a,b] [--build B] [-o FILE] [--json FILE] [--seconds S]

For every model (default: all; --models a subset, merged into the
previous results of --json): generate it (cached in BUILD/corpus, with
ORT's outputs), compile it with onnxc, static and with the symbolic
batch, run every data set and compare with the class tolerance
(corpus.py compare), then a quick latency: `onnxc-run LIB --inputs SET0
--runs N --threads 1` against `ort_run.js MODEL --inputs SET0 --runs N
--threads 1` (N for about --seconds of runs each, medians; one batch each,
not the bench's alternation: a first look, the bench is the measure).
Writes the Markdown table (and the error of every failure) to -o; a
section of that file from a line `## Findings` on (written by hand) is kept.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
import runner  # noqa: E402


def ort_timing(model, inputs, runs):
    res = runner.run(["node", os.path.join(corpus.SRC, "tools", "ort", "ort_run.js"), model,
                      "--inputs", inputs, "--runs", str(runs), "--warmup",
                      str(max(1, runs // 10)), "--threads", "1"], 600, None, corpus.ort_env())
    return runner.parse_timing(res)


def plan(first_ms, seconds):
    return max(3, min(500, int(seconds * 1000.0 / max(first_ms, 0.01))))


def one_mode(m, dynamic, cache, work, tools):
    """{'compile': s or None, 'error': line, 'match': 'ok'/'FAILED'/None,
    'err': worst error string, 'run_error': line}."""
    d = os.path.join(cache, m.name + ("-dynamic" if dynamic else ""))
    corpus.generate(m, d, dynamic, ort=True, cache=True)
    os.makedirs(work, exist_ok=True)
    lib = os.path.join(work, "model.so")
    r = {"compile": None, "error": None, "match": None, "err": None, "lib": lib, "dir": d}
    res = tools.compile(os.path.join(d, "model.onnx"), lib)
    if not res.ok:
        r["error"] = res.why()
        return r
    r["compile"] = res.seconds
    ok, stats = True, []
    for sd in corpus.data_sets(d):
        save = os.path.join(work, os.path.basename(sd))
        if os.path.exists(save):
            shutil.rmtree(save)
        os.makedirs(save)
        run = tools.run(lib, sd, save)
        if not run.ok:
            r["match"], r["error"] = "run-fail", run.why()
            return r
        with open(os.devnull, "w") as devnull:
            old = sys.stdout
            sys.stdout = devnull
            try:
                ok = corpus.compare(m, save, sd, os.path.join(d, "model.onnx"), True,
                                    stats) and ok
            finally:
                sys.stdout = old
    r["match"] = "ok" if ok else "FAILED"
    r["err"] = max(stats, key=lambda s: float(s.split()[0].strip("x,"))) if stats else None
    return r


def measure(m, cache, work, tools, seconds):
    entry = {"class": m.cls, "heavy": m.heavy}
    for dynamic in (False, True):
        key = "dynamic" if dynamic else "static"
        sys.stderr.write("status: %s %s\n" % (m.name, key))
        try:
            r = one_mode(m, dynamic, cache, os.path.join(work, m.name, key), tools)
        except SystemExit as e:  # generation or ORT failed
            r = {"compile": None, "error": "generation: %s" % e, "match": None, "err": None}
        entry[key] = {k: v for k, v in r.items() if k not in ("lib", "dir")}
        if not dynamic:
            static = r
    entry["onnxc_ms"] = entry["ort_ms"] = None
    sd = os.path.join(static.get("dir", ""), "test_data_set_0")
    model = os.path.join(static.get("dir", ""), "model.onnx")
    if os.path.isdir(sd):
        first = ort_timing(model, sd, 1)
        if first:
            t = ort_timing(model, sd, plan(first[0], seconds))
            entry["ort_ms"] = t[0] if t else None
        if static["compile"] is not None and static["match"] in ("ok", "FAILED"):
            first = runner.parse_timing(tools.run(static["lib"], sd, runs=1, warmup=1))
            if first:
                t = runner.parse_timing(tools.run(static["lib"], sd,
                                                  runs=plan(first[0], seconds)))
                entry["onnxc_ms"] = t[0] if t else None
    return entry


def cell(r):
    if r is None:
        return "-", "-"
    if r["compile"] is None:
        return "**no**", "-"
    comp = "yes (%.0f s)" % r["compile"]
    if r["match"] == "run-fail":
        return comp, "**run fails**"
    if r["match"] == "FAILED":
        return comp, "**no** (%s)" % r["err"]
    return comp, "yes (%s)" % r["err"]


def markdown(results, order, header):
    lines = header + [
        "| model | class | compiles static | matches ORT static (max err) | compiles "
        "symbolic batch | matches (max err) | onnxc ms | ORT ms | onnxc/ORT |",
        "|---|---|---|---|---|---|--:|--:|--:|"]
    errors = []
    for name in order:
        e = results.get(name)
        if e is None:
            continue
        sc, sm = cell(e.get("static"))
        dc, dm = cell(e.get("dynamic"))
        o, r = e.get("onnxc_ms"), e.get("ort_ms")
        q = "%.2f" % (o / r) if o and r else "-"
        lines.append("| %s%s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, " (heavy)" if corpus.by_name(name).heavy else "", e["class"], sc, sm, dc, dm,
            "%.3g" % o if o else "-", "%.3g" % r if r else "-", q))
        for key in ("static", "dynamic"):
            err = (e.get(key) or {}).get("error")
            if err:
                errors.append("- `%s` (%s): `%s`" % (name, key, err.replace("`", "'")))
    lines += ["", "Max err: fp32, the largest |onnxc - ORT| over the outputs and data sets as a "
              "share of the output's largest magnitude (tolerance 1e-4 plus 1e-3 relative); "
              "fp16 and int8, onnxc's error against the fp32 source model as a multiple of "
              "ORT's (rms, largest element; tolerances x2, x2 for fp16 and x1.25, x1.5 for "
              "int8). tools/corpus/corpus.py TOLERANCES says why."]
    if errors:
        lines += ["", "## Errors (exact, first line)", ""] + errors
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(prog="status.py", description=__doc__.split("\n")[0])
    p.add_argument("--models", help="comma-separated names (default all)")
    p.add_argument("--build", default=os.environ.get("ONNXC_BUILD_DIR",
                                                     os.path.join(corpus.SRC, "build")))
    p.add_argument("-o", "--output", help="the Markdown table (default stdout)")
    p.add_argument("--json", help="results to merge into and update")
    p.add_argument("--seconds", type=float, default=1.0, help="timed seconds per engine")
    p.add_argument("--timeout", type=float, default=900)
    args = p.parse_args(argv)
    corpus.load_all()
    names = args.models.split(",") if args.models else [m.name for m in corpus.MODELS]
    build = os.path.abspath(args.build)
    tools = runner.Tools(build, args.timeout)
    results = {}
    if args.json and os.path.exists(args.json):
        with open(args.json) as f:
            results = json.load(f)
    for name in names:
        m = corpus.by_name(name)
        results[name] = measure(m, os.path.join(build, "corpus"),
                                os.path.join(build, "corpus-status"), tools, args.seconds)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
    commit = subprocess.run(["git", "-C", corpus.SRC, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    header = ["# Corpus status", "",
              "Generated by `tools/corpus/status.py` (%s, onnxc at %s, %s, %s; load: %s)." % (
                  datetime.date.today().isoformat(), commit, cpu, platform.machine(),
                  open("/proc/loadavg").read().split()[0]),
              "Latency: 1 thread, one batch of about %.1f s per engine, medians: a first "
              "look, not the bench (bench/run --corpus). The machine is shared: ratios "
              "are noisy to +-20%%." % args.seconds, ""]
    text = markdown(results, [m.name for m in corpus.MODELS], header)
    # Hand-written findings (from a line "## Findings" on) are kept.
    if args.output and os.path.exists(args.output):
        with open(args.output) as f:
            old = f.read()
        if "\n## Findings" in old:
            text += "\n" + old[old.index("\n## Findings") + 1:]
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Writes docs/supported-ops.md: per ONNX op, whether it imports, whether it
lowers to native code, and its node-test pass counts (static and dynamic
shapes), from docs/dialect-ops.md (every op of the dialect) and the
conformance results that run_conformance.py --json writes.

  /usr/bin/python3 test/numeric/conformance/run_conformance.py ... --json static.json
  /usr/bin/python3 test/numeric/conformance/run_conformance.py ... --dynamic --json dynamic.json
  /usr/bin/python3 test/numeric/conformance/supported_ops.py --static static.json \\
      --dynamic dynamic.json -o docs/supported-ops.md

After a whole-suite run (bash .ci/test), every result is in the build tree:

  /usr/bin/python3 test/numeric/conformance/supported_ops.py --from-build build \\
      -o docs/supported-ops.md

Generated suites (ONNX Runtime as the oracle, e.g. test/numeric/ort/Inputs/
gen_ml_ops.py) add their own data directory and results: --data,
--static and --dynamic may be given several times (the first --data is the
ONNX test data unless given); a case's model is looked up in each data
directory in turn.

How a case counts for an op:
  - Node tests: a case of the `node` suite, or of a generated suite (any
    data directory but the first), counts for every op of its main graph
    (`Constant` only when it is the only op). Cases named `*_expanded*`
    (the op replaced by its function body) count for no op: they test the
    body's ops, not the op. A Scan in a model importing ai.onnx before
    opset 9 is onnxc's ScanV8 (errors name it so) and counts for it.
  - Lowers: `yes` when the op appears (anywhere, subgraphs included) in a
    model of any suite that compiled, static or dynamic, and no compile
    error names it; `partial` when it appears in a compiled model and some
    compile error also names it (a form it does not lower yet); `no` when
    compile errors name it and no compiled model contains it; `untested`
    when neither (no test model, or every one failed on another op first).

Needs python3-onnx (/usr/bin/python3) to read the models' op types.
"""
import argparse
import glob
import json
import os
import re
import sys

DATA = "/usr/share/libonnx-testdata/data"
DOMAINS = {"": "ai.onnx", "ai.onnx": "ai.onnx", "ai.onnx.ml": "ai.onnx.ml",
           "ai.onnx.preview.training": "ai.onnx.preview.training"}
# How the driver's error line names an op of each domain: "(Conv)",
# "(ml.Scaler)", "(training.Adam)".
REGION_OPS = ("If", "Loop", "Scan", "SequenceMap")
ERROR_PREFIX = {"ai.onnx": "", "ai.onnx.ml": "ml.",
                "ai.onnx.preview.training": "training."}


def read_ops(path):
    """(domain, op) rows of docs/dialect-ops.md, in its order."""
    ops = []
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or cells[0] in ("domain", "") or cells[0].startswith("---"):
                continue
            ops.append((cells[0], cells[1]))
    return ops


def model_ops(path):
    """(top-level ops, all ops including subgraphs) of a model, as sets of
    (domain, op)."""
    import onnx
    model = onnx.load(path, load_external_data=False)
    opset = {o.domain or "ai.onnx": o.version for o in model.opset_import}

    def key(n):
        # Scan before opset 9 is the dialect's onnx.ScanV8 (errors name it so).
        if n.op_type == "Scan" and n.domain in ("", "ai.onnx") and \
                opset.get("ai.onnx", 99) < 9:
            return ("ai.onnx", "ScanV8")
        return (DOMAINS.get(n.domain, n.domain), n.op_type)
    top = {key(n) for n in model.graph.node}
    every = set()
    stack = [model.graph]
    while stack:  # iterative: nesting depth comes from the model
        g = stack.pop()
        for n in g.node:
            every.add(key(n))
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    stack.append(a.g)
                elif a.type == onnx.AttributeProto.GRAPHS:
                    stack.extend(a.graphs)
    for f in model.functions:  # model-local functions: their bodies' ops
        for n in f.node:
            every.add(key(n))
    return top, every


def load_results(path):
    if not path:
        return None
    with open(path) as f:
        return json.load(f)["cases"]


def failing_ops(detail, every):
    """The ops a compile error line names ("node 'x' (Conv): ..."). An error
    at a region terminator (onnx.Yield) names the model's control-flow ops."""
    m = re.search(r"node '[^']*' \(([A-Za-z0-9_.]+)\): ", detail)
    if m and m.group(1) != "Yield":
        return [m.group(1)]
    if m or re.search(r": Yield: ", detail):
        return [op for d, op in every if d == "ai.onnx" and op in REGION_OPS]
    return []


def from_build(build):
    """(static, dynamic, data) results of the last lit run in `build`: the
    run_conformance.py --json files under test/numeric that name their data
    directory, the ONNX test data first. Fails when the conformance runs are
    missing (a partial lit run would give a partial table)."""
    static, dynamic, datas = [], [], [DATA]
    pattern = os.path.join(build, "test", "numeric", "**", "*.json")
    for path in sorted(glob.glob(pattern, recursive=True)):
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(d, dict) or not {"mode", "cases", "data"} <= set(d) \
                or d.get("filter"):
            continue
        (dynamic if d["mode"] == "dynamic" else static).append(path)
        if os.path.abspath(d["data"]) not in map(os.path.abspath, datas):
            datas.append(d["data"])
    for mode, paths in (("static", static), ("dynamic", dynamic)):
        if not any(json.load(open(q))["data"] == os.path.abspath(DATA)
                   for q in paths):
            sys.exit("supported_ops.py: no %s conformance run over %s under %s "
                     "(run the whole suite first)" % (mode, DATA, build))
    return static, dynamic, datas


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                 "..", "docs", "dialect-ops.md"))
    p.add_argument("--static", action="append",
                   help="run_conformance.py --json output (repeatable)")
    p.add_argument("--dynamic", action="append",
                   help="run_conformance.py --dynamic --json output (repeatable)")
    p.add_argument("--data", action="append",
                   help="test data (suites as folders; repeatable; default: "
                        "the ONNX test data)")
    p.add_argument("--from-build", metavar="BUILD",
                   help="take every result the last lit run wrote under "
                        "BUILD/test/numeric (the conformance runs and the "
                        "ONNX Runtime suites, each with its data directory) "
                        "instead of --static/--dynamic/--data")
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args(argv)
    if args.from_build:
        args.static, args.dynamic, args.data = from_build(args.from_build)
    elif not args.static:
        p.error("--static (or --from-build) is required")

    ops = read_ops(args.ops)
    datas = args.data or [DATA]

    def merged(paths):
        if not paths:
            return None
        out = {}
        for path in paths:
            out.update(load_results(path))
        return out
    static = merged(args.static)
    dynamic = merged(args.dynamic)
    runs = [r for r in (static, dynamic) if r is not None]

    cases = sorted(set().union(*[set(r) for r in runs]))
    node_cases = {}   # (domain, op) -> [case]
    compiled = set()  # ops that appear in a model that compiled
    named = set()     # ops a compile error names
    for case in cases:
        suite, name = case.split("/", 1)
        found = [d for d in datas
                 if os.path.exists(os.path.join(d, suite, name, "model.onnx"))]
        if not found:
            continue
        model = os.path.join(found[0], suite, name, "model.onnx")
        generated = found[0] != datas[0]
        top, every = model_ops(model)
        for r in runs:
            res = r.get(case)
            if res is None:
                continue
            if res["status"] == "compile-fail":
                named.update(failing_ops(res["detail"], every))
            else:
                compiled.update(every)
        if (suite == "node" or generated) and "_expanded" not in name:
            counted = top - {("ai.onnx", "Constant")} or top
            for op in counted:
                node_cases.setdefault(op, []).append(case)

    def counts(results, op):
        if results is None:
            return "not run"
        mine = [c for c in node_cases.get(op, []) if c in results]
        if not mine:
            return "-"
        passed = sum(results[c]["status"] == "pass" for c in mine)
        mark = " partial" if 0 < passed < len(mine) else ""
        return "%d/%d%s" % (passed, len(mine), mark)

    rows = []
    tally = {"yes": 0, "partial": 0, "no": 0, "untested": 0}
    for domain, op in ops:
        error_name = ERROR_PREFIX.get(domain, domain + ".") + op
        in_compiled = (domain, op) in compiled
        in_errors = error_name in named
        lowers = ("partial" if in_errors else "yes") if in_compiled else \
                 ("no" if in_errors else "untested")
        tally[lowers] += 1
        rows.append("| %s | %s | yes | %s | %s | %s |" % (
            domain, op, lowers, counts(static, (domain, op)),
            counts(dynamic, (domain, op))))

    def suite_line(results, label):
        if results is None:
            return "- %s: not run" % label
        passed = sum(v["status"] == "pass" for v in results.values())
        return "- %s: %d of %d cases pass (all suites)" % (label, passed, len(results))

    lines = [
        "# Supported ops",
        "",
        "<!-- Generated by test/numeric/conformance/supported_ops.py; do not edit. -->",
        "",
        "Generated by `test/numeric/conformance/supported_ops.py` from",
        "[dialect-ops.md](dialect-ops.md) and the results of",
        "`test/numeric/conformance/run_conformance.py --json` over the ONNX test data and",
        "the suites generated with ONNX Runtime as the oracle (see",
        "[testing.md](testing.md)). Every op imports (the dialect has one op per",
        "ONNX operator); [ml-ops.md](ml-ops.md) says which forms of the",
        "ai.onnx.ml ops lower.",
        "",
        "- **lowers**: `yes` when the op appears in a test model that compiled to",
        "  a library and no compile error names it; `partial` when some forms",
        "  compile and a compile error names others (an attribute, a dtype, a",
        "  non-constant input not handled yet); `no` when it never compiled;",
        "  `untested` when no test model tells (none contains it, or each one",
        "  failed on another op first).",
        "- **static**, **dynamic**: node tests (and generated cases compared",
        "  with ONNX Runtime, test/numeric/ort/) that pass / those of the op,",
        "  with static shapes and with every graph input dim made symbolic",
        "  (`--dynamic`); `partial` where some fail, `-` where the op has no node",
        "  test. A node test counts for each op of its graph (`Constant` only when",
        "  alone); the `*_expanded` variants count for no op.",
        "",
        suite_line(static, "static shapes"),
        suite_line(dynamic, "dynamic shapes"),
        "- lowering: %d ops yes, %d partial, %d no, %d untested (of %d)" % (
            tally["yes"], tally["partial"], tally["no"], tally["untested"], len(ops)),
        "",
        "| domain | op | imports | lowers | static | dynamic |",
        "|---|---|---|---|---|---|",
    ] + rows
    with open(args.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("supported-ops: %d ops: %d lower, %d partially, %d not, %d untested" % (
        len(ops), tally["yes"], tally["partial"], tally["no"], tally["untested"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Checks a trace of a library compiled with onnxc --profile.

    check_profile.py TRACE MODEL.onnx --runs N [--loops]

The trace parses as JSON (Chrome Trace Event format: traceEvents, each
complete event with name, ph "X", ts, dur, pid, tid). Its summary names
every node of the model's main graph in exactly one site (fused nodes share
one, "a+b (A+B)"), except nodes that compile to no work of their own (views:
Flatten, Reshape, Squeeze, Unsqueeze, Identity; Constant), and each site of
the main graph ran once per run: N calls and N complete events. With
--loops, the Loop/Scan nodes also have iteration events, numbered 0..k-1
within each run, whose count is the calls of the iteration site, and the
events of their bodies' nodes carry the iteration they ran in.
Prints one line per finding and "OK: ..." when all hold.
"""
import argparse
import collections
import json
import sys

import onnx

VIEWS = {"Flatten", "Reshape", "Squeeze", "Unsqueeze", "Identity", "Constant"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("model")
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--loops", action="store_true")
    a = p.parse_args()
    with open(a.trace, encoding="utf-8") as f:
        trace = json.load(f)
    graph = onnx.load(a.model).graph
    nodes = {n.name: n.op_type for n in graph.node}
    errors = []
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    for e in events:
        for k in ("name", "ts", "dur", "pid", "tid", "cat"):
            if k not in e:
                errors.append("event without %s: %r" % (k, e))
    per_name = collections.Counter(e["name"] for e in events)
    summary = trace["onnxcSummary"]["nodes"]
    if trace["onnxcSummary"]["droppedEvents"]:
        errors.append("dropped events")
    seen = collections.Counter()
    main_sites = 0
    for s in summary:
        names = s["node"].split("+")
        ops = s["op"].split("+")
        label = "%s (%s)%s" % (s["node"], s["op"],
                               " iteration" if s["kind"] == "iteration" else "")
        if s["name"] != label:
            errors.append("site %r is named %r" % (label, s["name"]))
        if per_name[s["name"]] != s["calls"]:
            errors.append("site %r: %d calls but %d events" %
                          (label, s["calls"], per_name[s["name"]]))
        if s["kind"] == "iteration":
            continue
        in_main = [n in nodes for n in names]
        if any(in_main) and not all(in_main):
            errors.append("site %r mixes main-graph and body nodes" % label)
        if not any(in_main):
            if not a.loops:
                errors.append("site %r names no node of the graph" % label)
            continue
        main_sites += 1
        for n, op in zip(names, ops):
            if nodes[n] != op:
                errors.append("node %r is a %s, the site says %s" % (n, nodes[n], op))
            seen[n] += 1
        if s["calls"] != a.runs:
            errors.append("site %r ran %d times in %d runs" % (label, s["calls"], a.runs))
    for n, op in nodes.items():
        if seen[n] > 1:
            errors.append("node %r is in %d sites" % (n, seen[n]))
        if seen[n] == 0 and op not in VIEWS:
            errors.append("node %r (%s) has no site" % (n, op))
    iterations = 0
    if a.loops:
        loops = [n for n in graph.node if n.op_type in ("Loop", "Scan")]
        if not loops:
            errors.append("--loops: the model has no Loop or Scan")
        for n in loops:
            name = "%s (%s) iteration" % (n.name, n.op_type)
            its = [e for e in events if e["name"] == name]
            if not its:
                errors.append("loop %r has no iteration event" % n.name)
                continue
            iterations += len(its)
            per_run = len(its) // a.runs
            got = sorted(e["args"]["iteration"] for e in its)
            want = sorted(list(range(per_run)) * a.runs)
            if got != want:
                errors.append("loop %r: iterations %r" % (n.name, got))
            # The body's node events inside an iteration carry its number
            # (a body node's work hoisted out of the loop runs outside).
            inside = 0
            for e in events:
                if e["cat"] != "node" or e["args"]["node"] in nodes:
                    continue
                around = [i for i in its if i["tid"] == e["tid"] and
                          i["ts"] <= e["ts"] and
                          e["ts"] + e["dur"] <= i["ts"] + i["dur"]]
                if not around:
                    continue
                inside += 1
                if e["args"].get("iteration") != around[0]["args"]["iteration"]:
                    errors.append("loop %r: event %r in iteration %d says %r" % (
                        n.name, e["name"], around[0]["args"]["iteration"],
                        e["args"].get("iteration")))
            if not inside:
                errors.append("loop %r: no body event inside an iteration" % n.name)
    for e in errors:
        print(e)
    if errors:
        return 1
    print("OK: %d sites cover the %d nodes of the graph (%d without work: %s); "
          "%d complete events%s" % (
              main_sites, len(nodes), len(nodes) - sum(1 for n in nodes if seen[n]),
              ", ".join(sorted({nodes[n] for n in nodes if not seen[n]})) or "none",
              len(events), ", %d iteration events" % iterations if a.loops else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Replaces the generic reasons ("compile-fail: <error line>") that
run_conformance.py --write-xfail writes with specific ones, by the category
of the error. Exits 1 if a generic reason is left (add a rule or write the
reason by hand).
  refine_xfail.py test/numeric/conformance/conformance_xfail.json   (both modes, in place)
Needs /usr/bin/python3 with python3-onnx."""
import json, os, re, sys
import onnx

DATA = "/usr/share/libonnx-testdata/data"
_ops = {}

def ops_of(case):
    if case not in _ops:
        m = onnx.load(os.path.join(DATA, case, "model.onnx"), load_external_data=False)
        _ops[case] = [n.op_type for n in m.graph.node]
    return _ops[case]

def main_op(case):
    ops = [o for o in ops_of(case) if o != "Constant"] or ops_of(case)
    return ops[0] if len(set(ops)) == 1 else "/".join(sorted(set(ops)))

def reason(case, mode, old):
    m = re.match(r"(compile-fail|run-fail|mismatch): (.*)", old)
    if not m:
        return old  # already specific
    status, detail = m.groups()
    detail = re.sub(r"^onnxc: error: \S+?\.onnx: ", "", detail)
    dyn = mode == "dynamic"
    if re.match(r"(node '[^']*' \()?Yield\)?: is not supported", detail):
        return "control flow (%s) has no lowering yet: its body's onnx.Yield is not converted" % (
            "/".join(o for o in ("If", "Loop", "Scan") if o in ops_of(case)) or main_op(case))
    if m2 := re.match(r"node '[^']*' \((?:ml\.|training\.)?(\w+)\): is not supported by convert-onnx-to-linalg", detail):
        op = m2.group(1)
        if op == "Yield":
            return "control flow (%s) has no lowering yet: its body's onnx.Yield is not converted" % main_op(case)
        return "%s has no lowering to linalg yet" % op
    if m2 := re.match(r"(input|output) '([^']*)' has the element type '!onnx.string'", detail):
        return "string tensors do not cross the C API (%s '%s' is a string tensor)" % m2.groups()
    if m2 := re.match(r"(input|output) '([^']*)' has the type '(!onnx\.(seq|opt|map)[^']*)'", detail):
        kind = {"seq": "a sequence", "opt": "an optional", "map": "a map"}[m2.group(4)]
        return "only tensors cross the C API: %s '%s' is %s (%s)" % (m2.group(1), m2.group(2), kind, m2.group(3))
    if m2 := re.match(r"(input|output) '([^']*)' has the type 'tensor<\*x", detail):
        op = main_op(case)
        # Ops whose result rank is the length of a 1-D input (shape, axes,
        # indices' last dim), which --dynamic makes symbolic.
        rank_from_input = {"Reshape", "Expand", "ConstantOfShape", "Unsqueeze", "Squeeze",
                           "ReduceSum", "GatherND"}
        keepdims = 1
        if op == "ReduceSum":
            m = onnx.load(os.path.join(DATA, case, "model.onnx"), load_external_data=False)
            keepdims = {a.name: a.i for a in m.graph.node[0].attribute}.get("keepdims", 1)
        if dyn and (op in rank_from_input or "/" in op) and not (op == "ReduceSum" and keepdims):
            return ("--dynamic: %s '%s' of %s has unknown rank (it depends on the length of a "
                    "1-D input that --dynamic made symbolic); unranked tensors do not cross the C API"
                    % (m2.group(1), m2.group(2), op))
        return ("inference: %s '%s' of %s gets no rank%s although its rank is fixed by the op; "
                "unranked tensors do not cross the C API"
                % (m2.group(1), m2.group(2), op, " from --dynamic's symbolic dims" if dyn else ""))
    if "non-constant axes are not supported" in detail:
        return "ReduceSum with axes as a run-time input (not a constant) is not lowered yet"
    if "ReduceMean over dynamic dims is not supported" in detail:
        return "ReduceMean over dynamic (symbolic) dims is not lowered yet"
    if "dynamic batch dims that may broadcast" in detail:
        return "MatMul with dynamic batch dims that may broadcast is not lowered yet"
    if "(input 'like'): rank 1, the model expects 2" in detail:
        return ("test data: ONNX 1.12 stores CastLike's 'like' input as uint16[1] while the model "
                "declares bfloat16[3, 4]; onnxc-run rejects the rank")
    if status == "mismatch" and re.search(r"FLOAT_to_BFLOAT16", case):
        return ("test data: ONNX 1.12's expected output truncates float to bfloat16; onnxc rounds "
                "to nearest even, as ONNX Runtime and ONNX >= 1.14 do")
    if "offset 0 is out-of-bounds: 0 >= 0" in detail:
        return "bug: Split lowering with a zero-size split emits an out-of-bounds tensor.extract_slice"
    if "rank-reduced version. (size mismatch)" in detail:
        return ("bug: Split lowering with dynamic shapes builds a tensor.extract_slice whose result "
                "type does not match its sizes")
    if dyn and "StringNormalizer" in detail and "Input shape must have" in detail:
        return ("inference: libonnx's StringNormalizer shape inference rejects the symbolic dims "
                "--dynamic gives its input")
    if m2 := re.match(r"onnxc-run: error: \w+ failed \(runtime error\): (.+)", detail):
        return "the model rejects this case at run time (ONNXC_ERROR_RUNTIME): %s" % m2.group(1)
    if m2 := re.match(r"node '[^']*' \((?:ml\.|training\.)?(\w+)\): (.+)", detail):
        return "%s lowering: %s%s" % (m2.group(1), m2.group(2),
                                      " (with --dynamic's symbolic dims)" if dyn else "")
    return None

def main():
    path = sys.argv[1]
    d = json.load(open(path))
    left = []
    for mode in ("static", "dynamic"):
        for case, old in d.get(mode, {}).items():
            r = reason(case, mode, old)
            if r is None:
                left.append((mode, case, old))
            else:
                d[mode][case] = r
    with open(path, "w") as f:
        json.dump(d, f, indent=1, sort_keys=True)
        f.write("\n")
    for l in left:
        print("generic reason left: %s %s: %s" % l)
    return 1 if left else 0

sys.exit(main())

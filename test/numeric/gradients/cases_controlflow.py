"""gradcheck cases: If, Loop, Scan and their nesting (RulesControlFlow.cpp).
Bodies read outer values (captures), which are differentiated too; the
float inputs are the xs, conditions, trip counts and limits are plain
inputs or initializers."""
import numpy as np
from onnx import TensorProto, helper

from gradcheck import Case, In, X, normal, uniform

CASES = []
D = TensorProto.DOUBLE


def add(*a, **k):
    # The bodies are typed float64; gradcheck.retyped gives the float32
    # models their float32 twins.
    CASES.append(Case(*a, **k))


def vi(name, elem=D, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


def node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, **attrs)


def graph(nodes, name, ins, outs):
    return helper.make_graph(nodes, name, ins, outs)


# --- If: y = If(c) then a * b + bias, else exp(a) (captures a, b, bias;
# bias broadcast). Each branch taken, static and symbolic batch.
def if_nodes(ins, outs):
    c, a, b, bias = ins
    then = graph([node("Mul", [a, b], ["tm"]),
                  node("Add", ["tm", bias], ["t"])], "then", [], [vi("t")])
    els = graph([node("Exp", [a], ["e"])], "else", [], [vi("e")])
    return [node("If", [c], outs, then_branch=then, else_branch=els)]


for taken in (True, False):
    add("if_%s" % ("then" if taken else "else"), "If",
        [In(np.array(taken)), X([3, 4]), X([3, 4]), X([4])],
        nodes=if_nodes, sym={1: {0: "N"}, 2: {0: "N"}})


# An If whose branches yield a capture directly and a value of both
# captures; two results, one of them unused by y.
def if2_nodes(ins, outs):
    c, a, b = ins
    then = graph([node("Sin", [a], ["s"])], "then", [],
                 [vi("s"), vi(b)])
    els = graph([node("Mul", [a, a], ["m"]), node("Identity", [b], ["bi"])],
                "else", [], [vi("m"), vi("bi")])
    return [node("If", [c], outs, then_branch=then, else_branch=els)]


for taken in (True, False):
    add("if_two_results_%s" % ("then" if taken else "else"), "If",
        [In(np.array(taken)), X([2, 3]), X([2, 3])], nout=2, yout=(0, 1),
        nodes=if2_nodes, sym={1: {0: "N"}, 2: {0: "N"}})
add("if_one_result_used", "If",
    [In(np.array(False)), X([2, 3]), X([2, 3])], nout=2, yout=(0,),
    nodes=if2_nodes, sym={1: {0: "N"}, 2: {0: "N"}})


# --- Loop: a recurrence h' = tanh(h W + x), the per-iteration h' also a
# scan output. W and x are captures, h0 the carried value's initial value.
def rnn_body(extra_nodes=(), cond_out="cond_in", extra_ins=()):
    nodes = [node("MatMul", ["h", "W_"], ["hw"]),
             node("Add", ["hw", "x_"], ["hx"]),
             node("Tanh", ["hx"], ["h2"]),
             node("Identity", ["h2"], ["hs"])] + list(extra_nodes)
    return graph(nodes, "body",
                 [vi("iter", TensorProto.INT64, []),
                  vi("cond_in", TensorProto.BOOL, []), vi("h")],
                 [vi(cond_out, TensorProto.BOOL, []), vi("h2"), vi("hs")])


def loop_nodes(m_value=None, m_input=False, cond=None, body_nodes=(),
               cond_out="cond_in"):
    def nodes(ins, outs):
        h0, w, x = ins[:3]
        rest = list(ins[3:])
        ren = {"W_": w, "x_": x}
        if rest:
            ren["lim_"] = rest[-1]
        body = rnn_body(body_nodes, cond_out)
        for n in body.node:
            n.input[:] = [ren.get(i, i) for i in n.input]
        pre = []
        mname = ""
        if m_value is not None:
            pre.append(node("Constant", [], ["mm"], value=helper.make_tensor(
                "mm", TensorProto.INT64, [], [m_value])))
            mname = "mm"
        elif m_input:
            mname = rest[0]
        cname = ""
        if cond is not None:
            pre.append(node("Constant", [], ["cc"], value=helper.make_tensor(
                "cc", TensorProto.BOOL, [], [cond])))
            cname = "cc"
        return pre + [node("Loop", [mname, cname, h0], outs, body=body)]
    return nodes


LOOP_INS = [X([2, 3]), X([3, 3], normal(0.5)), X([2, 3])]
LSYM = {0: {0: "N"}, 2: {0: "N"}}

# Trip count only (cond absent).
add("loop_trip_count", "Loop", LOOP_INS, nodes=loop_nodes(m_value=3),
    nout=2, yout=(0, 1), sym=LSYM)
# Trip count from a graph input (known at run time only).
add("loop_trip_count_input", "Loop", LOOP_INS + [In(np.array(4, np.int64))],
    nodes=loop_nodes(m_input=True), nout=2, yout=(0, 1), sym=LSYM)
# Condition only: the body stops after iteration lim - 1 (lim an input).
COND_NODES = [node("Add", ["iter", "one_"], ["it1"]),
              node("Less", ["it1", "lim_"], ["cond_out"])]


def with_one(nodes):
    return [node("Constant", [], ["one_"], value=helper.make_tensor(
        "one_", TensorProto.INT64, [], [1]))] + list(nodes)


add("loop_condition_only", "Loop", LOOP_INS + [In(np.array(3, np.int64))],
    nodes=loop_nodes(cond=True, body_nodes=with_one(COND_NODES),
                     cond_out="cond_out"),
    nout=2, yout=(0, 1), sym=LSYM)
# Both: the trip count (5) ends it before the condition (limit 9) would,
# and the condition (limit 2) before the trip count.
for lim_v in (9, 2):
    add("loop_trip_and_condition_%d" % lim_v, "Loop",
        LOOP_INS + [In(np.array(lim_v, np.int64))],
        nodes=loop_nodes(m_value=5, cond=True,
                         body_nodes=with_one(COND_NODES), cond_out="cond_out"),
        nout=2, yout=(0, 1), sym=LSYM)
# A data-dependent exit: continue while sum(h') < lim (a float input, not
# differentiated). With these values sum(h') is 1.28, 2.14, 2.80, 3.26:
# 4 iterations, each sum at least 0.2 from lim = 3, so that the differences
# do not change the number of iterations.
DATA_NODES = [node("ReduceSum", ["h2"], ["hsum"], keepdims=0),
              node("Less", ["hsum", "lim_"], ["cond_out"])]


add("loop_data_dependent_exit", "Loop",
    [X([2, 3], uniform(0, 0.1)),
     X([3, 3], lambda r, s: np.eye(3) * 0.9 + r.uniform(0, 0.02, s)),
     X([2, 3], uniform(0.1, 0.2)), In(np.array(3.0))],
    nodes=loop_nodes(m_value=50, cond=True, body_nodes=DATA_NODES,
                     cond_out="cond_out"),
    nout=2, yout=(0, 1), sym=LSYM)


# Loop in Loop: the outer body runs an inner Loop (2 iterations) on its h.
def nested_loop_nodes(ins, outs):
    h0, w, x = ins
    inner = graph([node("MatMul", ["g", w], ["gw"]),
                   node("Add", ["gw", x], ["gx"]),
                   node("Tanh", ["gx"], ["g2"])], "inner",
                  [vi("j", TensorProto.INT64, []),
                   vi("ci", TensorProto.BOOL, []), vi("g")],
                  [vi("ci", TensorProto.BOOL, []), vi("g2")])
    outer = graph([node("Constant", [], ["two"], value=helper.make_tensor(
                       "two", TensorProto.INT64, [], [2])),
                   node("Loop", ["two", "", "h"], ["hin"], body=inner),
                   node("Mul", ["hin", "h"], ["h2"]),
                   node("Identity", ["h2"], ["hs"])], "outer",
                  [vi("iter", TensorProto.INT64, []),
                   vi("cond_in", TensorProto.BOOL, []), vi("h")],
                  [vi("cond_in", TensorProto.BOOL, []), vi("h2"), vi("hs")])
    return [node("Constant", [], ["mm"], value=helper.make_tensor(
                "mm", TensorProto.INT64, [], [3])),
            node("Loop", ["mm", "", h0], outs, body=outer)]


add("loop_in_loop", "Loop", LOOP_INS, nodes=nested_loop_nodes, nout=2,
    yout=(0, 1), sym=LSYM)


# If in Loop: iterations 0 and 2 take tanh(h W + x), the others h * x.
def if_in_loop_nodes(ins, outs):
    h0, w, x = ins
    then = graph([node("MatMul", ["h", w], ["hw"]),
                  node("Add", ["hw", x], ["hx"]),
                  node("Tanh", ["hx"], ["t"])], "then", [], [vi("t")])
    els = graph([node("Mul", ["h", x], ["e"])], "else", [], [vi("e")])
    body = graph([node("Constant", [], ["two"], value=helper.make_tensor(
                     "two", TensorProto.INT64, [], [2])),
                  node("Mod", ["iter", "two"], ["par"]),
                  node("Constant", [], ["zero"], value=helper.make_tensor(
                      "zero", TensorProto.INT64, [], [0])),
                  node("Equal", ["par", "zero"], ["even"]),
                  node("If", ["even"], ["h2"], then_branch=then,
                       else_branch=els),
                  node("Identity", ["h2"], ["hs"])], "body",
                 [vi("iter", TensorProto.INT64, []),
                  vi("cond_in", TensorProto.BOOL, []), vi("h")],
                 [vi("cond_in", TensorProto.BOOL, []), vi("h2"), vi("hs")])
    return [node("Constant", [], ["mm"], value=helper.make_tensor(
                "mm", TensorProto.INT64, [], [4])),
            node("Loop", ["mm", "", h0], outs, body=body)]


add("if_in_loop", "Loop", LOOP_INS, nodes=if_in_loop_nodes, nout=2,
    yout=(0, 1), sym=LSYM, rules=["Loop", "If"])


# --- Scan: state h [B,3], scan input xs (axis `ax`), h' = tanh(h * w + x),
# scan output 2 h' + h (axis `oax`); w [3] captured.
def scan_nodes(in_dir, out_dir, in_axis, out_axis):
    def nodes(ins, outs):
        h0, xs, w = ins
        body = graph([node("Mul", ["h", w], ["hw"]),
                      node("Add", ["hw", "x"], ["hx"]),
                      node("Tanh", ["hx"], ["h2"]),
                      node("Add", ["h2", "h2"], ["d"]),
                      node("Add", ["d", "h"], ["o"])], "body",
                     [vi("h"), vi("x")], [vi("h2"), vi("o")])
        return [node("Scan", [h0, xs], outs, body=body, num_scan_inputs=1,
                     scan_input_directions=[in_dir],
                     scan_output_directions=[out_dir],
                     scan_input_axes=[in_axis], scan_output_axes=[out_axis])]
    return nodes


for in_dir in (0, 1):
    for out_dir in (0, 1):
        add("scan_in%d_out%d" % (in_dir, out_dir), "Scan",
            [X([2, 3]), X([4, 2, 3]), X([3])],
            nodes=scan_nodes(in_dir, out_dir, 0, 0), nout=2, yout=(0, 1),
            sym={0: {0: "N"}, 1: {1: "N"}})
add("scan_axes", "Scan", [X([2, 3]), X([2, 5, 3]), X([3])],
    nodes=scan_nodes(1, 0, 1, 1), nout=2, yout=(0, 1),
    sym={0: {0: "N"}, 1: {0: "N"}})
# Only the final state reaches y; only the scan output does.
add("scan_state_only", "Scan", [X([2, 3]), X([4, 2, 3]), X([3])],
    nodes=scan_nodes(0, 0, 0, 0), nout=2, yout=(0,),
    sym={0: {0: "N"}, 1: {1: "N"}})
add("scan_output_only", "Scan", [X([2, 3]), X([4, 2, 3]), X([3])],
    nodes=scan_nodes(1, 1, 0, 0), nout=2, yout=(1,),
    sym={0: {0: "N"}, 1: {1: "N"}})


# Scan in If: the then branch scans, the else branch is a product.
def scan_in_if_nodes(ins, outs):
    c, h0, xs, w = ins
    body = graph([node("Mul", ["h", w], ["hw"]),
                  node("Add", ["hw", "x"], ["hx"]),
                  node("Tanh", ["hx"], ["h2"])], "body",
                 [vi("h"), vi("x")], [vi("h2")])
    then = graph([node("Scan", [h0, xs], ["hT"], body=body,
                       num_scan_inputs=1)], "then", [], [vi("hT")])
    els = graph([node("Mul", [h0, w], ["e"])], "else", [], [vi("e")])
    return [node("If", [c], outs, then_branch=then, else_branch=els)]


for taken in (True, False):
    add("scan_in_if_%s" % ("then" if taken else "else"), "If",
        [In(np.array(taken)), X([2, 3]), X([4, 2, 3]), X([3])],
        nodes=scan_in_if_nodes, sym={1: {0: "N"}, 2: {1: "N"}},
        rules=["If", "Scan"])



# Loop in If: the then branch runs a Loop (3 iterations) on a; the else
# branch a product.
def loop_in_if_nodes(ins, outs):
    c, h0, w, x = ins
    body = graph([node("MatMul", ["h", w], ["hw"]),
                  node("Add", ["hw", x], ["hx"]),
                  node("Tanh", ["hx"], ["h2"])], "body",
                 [vi("iter", TensorProto.INT64, []),
                  vi("cond_in", TensorProto.BOOL, []), vi("h")],
                 [vi("cond_in", TensorProto.BOOL, []), vi("h2")])
    then = graph([node("Constant", [], ["three"], value=helper.make_tensor(
                      "three", TensorProto.INT64, [], [3])),
                  node("Loop", ["three", "", h0], ["hT"], body=body)],
                 "then", [], [vi("hT")])
    els = graph([node("Mul", [h0, x], ["e"])], "else", [], [vi("e")])
    return [node("If", [c], outs, then_branch=then, else_branch=els)]


for taken in (True, False):
    add("loop_in_if_%s" % ("then" if taken else "else"), "If",
        [In(np.array(taken)), X([2, 3]), X([3, 3], normal(0.5)), X([2, 3])],
        nodes=loop_in_if_nodes, sym={1: {0: "N"}, 3: {0: "N"}},
        rules=["If", "Loop"])


# Scan in Loop: each iteration scans xs with state h (the Loop's carried
# value) and a weight the Loop body computes from w and the iteration
# number (a capture of the Scan body defined in the Loop body).
def scan_in_loop_nodes(ins, outs):
    h0, xs, w = ins
    sbody = graph([node("Mul", ["s", "wi"], ["sw"]),
                   node("Add", ["sw", "xt"], ["sx"]),
                   node("Tanh", ["sx"], ["s2"])], "sbody",
                  [vi("s"), vi("xt")], [vi("s2")])
    body = graph([node("Cast", ["iter"], ["itf"], to=TensorProto.DOUBLE),
                  node("Mul", [w, "itf"], ["wit"]),
                  node("Add", ["wit", w], ["wi"]),
                  node("Scan", ["h", xs], ["h2"], body=sbody,
                       num_scan_inputs=1),
                  node("Identity", ["h2"], ["hs"])], "body",
                 [vi("iter", TensorProto.INT64, []),
                  vi("cond_in", TensorProto.BOOL, []), vi("h")],
                 [vi("cond_in", TensorProto.BOOL, []), vi("h2"), vi("hs")])
    return [node("Constant", [], ["mm"], value=helper.make_tensor(
                "mm", TensorProto.INT64, [], [2])),
            node("Loop", ["mm", "", h0], outs, body=body)]


add("scan_in_loop", "Loop", [X([2, 3]), X([3, 2, 3]), X([3], normal(0.5))],
    nodes=scan_in_loop_nodes, nout=2, yout=(0, 1),
    sym={0: {0: "N"}, 1: {1: "N"}}, rules=["Loop", "Scan"])


# Scan in Scan: the outer step scans the rows of its scan input slice.
def scan_in_scan_nodes(ins, outs):
    h0, xs, w = ins
    inner = graph([node("Mul", ["g", w], ["gw"]),
                   node("Add", ["gw", "r"], ["gr"]),
                   node("Sin", ["gr"], ["g2"])], "inner",
                  [vi("g"), vi("r")], [vi("g2"), vi("g2")])
    outer = graph([node("Scan", ["h", "xt"], ["h2", "rows"], body=inner,
                        num_scan_inputs=1, scan_input_directions=[1]),
                   node("ReduceSum", ["rows"], ["o"], axes=[0], keepdims=0)],
                  "outer", [vi("h"), vi("xt")], [vi("h2"), vi("o")])
    return [node("Scan", [h0, xs], outs, body=outer, num_scan_inputs=1,
                 scan_input_axes=[1])]


add("scan_in_scan", "Scan", [X([3]), X([2, 3, 3]), X([3], normal(0.5))],
    nodes=scan_in_scan_nodes, nout=2, yout=(0, 1), sym={},
    opset=12)


# Integer carried values beside float ones: a Loop counting its own
# iterations (the count scales h), a Scan with an integer state and two
# scan inputs and outputs.
def loop_int_state_nodes(ins, outs):
    h0, w = ins
    body = graph([node("Constant", [], ["one"], value=helper.make_tensor(
                     "one", TensorProto.INT64, [], [1])),
                  node("Add", ["k", "one"], ["k2"]),
                  node("Cast", ["k2"], ["kf"], to=TensorProto.DOUBLE),
                  node("Mul", ["h", w], ["hw"]),
                  node("Sin", ["hw"], ["sh"]),
                  node("Mul", ["sh", "kf"], ["h2"])], "body",
                 [vi("iter", TensorProto.INT64, []),
                  vi("cond_in", TensorProto.BOOL, []),
                  vi("k", TensorProto.INT64, []), vi("h")],
                 [vi("cond_in", TensorProto.BOOL, []),
                  vi("k2", TensorProto.INT64, []), vi("h2")])
    return [node("Constant", [], ["mm"], value=helper.make_tensor(
                "mm", TensorProto.INT64, [], [3])),
            node("Constant", [], ["k0"], value=helper.make_tensor(
                "k0", TensorProto.INT64, [], [0])),
            node("Loop", ["mm", "", "k0", h0], ["kT"] + outs, body=body)]


add("loop_int_state", "Loop", [X([2, 3]), X([3])],
    nodes=loop_int_state_nodes, sym={0: {0: "N"}})


def scan_two_nodes(ins, outs):
    h0, xs, zs = ins
    body = graph([node("Constant", [], ["one"], value=helper.make_tensor(
                     "one", TensorProto.INT64, [], [1])),
                  node("Add", ["k", "one"], ["k2"]),
                  node("Mul", ["h", "x"], ["hx"]),
                  node("Add", ["hx", "z"], ["hz"]),
                  node("Sin", ["hz"], ["h2"]),
                  node("Mul", ["z", "z"], ["zz"])], "body",
                 [vi("k", TensorProto.INT64, []), vi("h"), vi("x"), vi("z")],
                 [vi("k2", TensorProto.INT64, []), vi("h2"), vi("zz"),
                  vi("hx")])
    return [node("Constant", [], ["k0"], value=helper.make_tensor(
                "k0", TensorProto.INT64, [], [0])),
            node("Scan", ["k0", h0, xs, zs], ["kT"] + outs, body=body,
                 num_scan_inputs=2, scan_input_directions=[0, 1],
                 scan_output_directions=[1, 0], scan_input_axes=[0, 1],
                 scan_output_axes=[1, 0])]


add("scan_two_inputs_outputs", "Scan",
    [X([2, 3]), X([4, 2, 3]), X([2, 4, 3])], nodes=scan_two_nodes, nout=3,
    yout=(0, 1, 2), sym={0: {0: "N"}, 1: {1: "N"}, 2: {0: "N"}})

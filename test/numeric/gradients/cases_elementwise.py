"""gradcheck cases: elementwise ops (RulesElementwise.cpp)."""
import numpy as np
from onnx import TensorProto, helper

from gradcheck import (C, Case, In, X, avoiding, away, distinct, normal,
                       uniform)

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


# Binary arithmetic, with broadcasting both ways (static and symbolic: the
# second input's dim may be 1 only at run time).
for op in ["Add", "Sub", "Mul", "Div"]:
    g1 = away(0.5, 2.0) if op == "Div" else normal()
    add(op.lower() + "_same", op, [X([3, 4]), X([3, 4], g1)])
    add(op.lower() + "_bcast", op, [X([2, 3, 4]), X([3, 1], g1)])
    add(op.lower() + "_bcast_first", op, [X([4]), X([3, 4], g1)],
        sym={1: {0: "N"}})
    add(op.lower() + "_bcast_runtime", op, [X([3, 4]), X([1, 4], g1)],
        sym={0: {0: "N"}, 1: {0: "M"}})
    add(op.lower() + "_scalar", op, [X([5, 2]), X([], g1)])

add("pow", "Pow", [X([3, 4], uniform(0.5, 2.0)), X([3, 4], uniform(-1.5, 2.0))])
add("pow_bcast", "Pow", [X([2, 3], uniform(0.5, 2.0)), X([3], uniform(-1, 2))])
add("pow_const_exponent", "Pow", [X([2, 5], normal()), C(np.array(3.0))])
add("pow_int_exponent", "Pow", [X([2, 5], normal()),
                                C(np.array(2, np.int64))])

# Unary ops: inputs inside the domain, away from kinks.
UNARY = [
    ("neg", "Neg", normal(), {}),
    ("identity", "Identity", normal(), {}),
    ("abs", "Abs", away(0.1, 2.0), {}),
    ("exp", "Exp", uniform(-2, 2), {}),
    ("log", "Log", uniform(0.3, 3), {}),
    ("sqrt", "Sqrt", uniform(0.3, 3), {}),
    ("reciprocal", "Reciprocal", away(0.5, 2.0), {}),
    ("tanh", "Tanh", normal(), {}),
    ("sigmoid", "Sigmoid", normal(2), {}),
    ("relu", "Relu", away(0.05, 2.0), {}),
    ("leakyrelu", "LeakyRelu", away(0.05, 2.0), {"alpha": 0.2}),
    ("leakyrelu_default", "LeakyRelu", away(0.05, 2.0), {}),
    ("elu", "Elu", away(0.05, 2.0), {"alpha": 0.7}),
    ("selu", "Selu", away(0.05, 2.0), {}),
    ("selu_attrs", "Selu", away(0.05, 2.0), {"alpha": 1.5, "gamma": 0.8}),
    ("softplus", "Softplus", normal(2), {}),
    # HardSigmoid's kinks: alpha x + beta in {0, 1}.
    ("hardsigmoid", "HardSigmoid", avoiding([-4 / 3, 2], -3, 3),
     {"alpha": 0.3, "beta": 0.4}),
    ("hardsigmoid_default", "HardSigmoid", avoiding([-2.5, 2.5], -4, 4), {}),
    ("erf", "Erf", normal(), {}),
]
for name, op, gen, attrs in UNARY:
    add(name, op, [X([3, 4], gen)], attrs)

# Trigonometric, hyperbolic and their inverses, inside their domains.
for name, gen in [("Sin", normal()), ("Cos", normal()),
                  ("Tan", uniform(-1.2, 1.2)), ("Asin", uniform(-0.8, 0.8)),
                  ("Acos", uniform(-0.8, 0.8)), ("Atan", normal(2)),
                  ("Sinh", normal()), ("Cosh", normal()), ("Asinh", normal(2)),
                  ("Acosh", uniform(1.2, 3)), ("Atanh", uniform(-0.8, 0.8))]:
    add(name.lower(), name, [X([3, 4], gen)])

# Activations (their rules in RulesElementwise.cpp).
add("softsign", "Softsign", [X([3, 4], away(0.05, 3))])
add("mish", "Mish", [X([3, 4], normal(2))], opset=18)
add("hardswish", "HardSwish", [X([3, 5], avoiding([-3, 3], -5, 5))])
add("thresholdedrelu", "ThresholdedRelu", [X([3, 4], avoiding([0.3]))],
    {"alpha": 0.3})
add("thresholdedrelu_default", "ThresholdedRelu",
    [X([3, 4], avoiding([1.0], -3, 3))])
# Celu is typed float32 only: checked in float32 against its expansion.
add("celu", "Celu", [X([3, 4], away(0.05, 2))], {"alpha": 0.8}, f32="only",
    ref=lambda i, o: [
        helper.make_node("Constant", [], ["a"], value=helper.make_tensor(
            "a", TensorProto.DOUBLE, [], [np.float32(0.8)])),
        helper.make_node("Div", [i[0], "a"], ["xa"]),
        helper.make_node("Elu", ["xa"], ["e"], alpha=1.0),
        helper.make_node("Mul", ["a", "e"], o)])
add("shrink", "Shrink", [X([3, 4], avoiding([-0.4, 0.4]))],
    {"lambd": 0.4, "bias": 0.2})
add("shrink_default", "Shrink", [X([3, 4], avoiding([-0.5, 0.5]))])
add("prelu", "PRelu", [X([3, 4], away(0.05, 2)), X([4], uniform(0.1, 0.5))])
add("prelu_scalar_slope", "PRelu", [X([2, 3, 4], away(0.05, 2)),
                                    X([1], uniform(0.1, 0.5))])
add("prelu_full_slope", "PRelu", [X([3, 4], away(0.05, 2)),
                                  X([3, 4], uniform(-0.5, 0.5))],
    sym={0: {0: "N"}, 1: {0: "N"}})
add("prelu_const_slope", "PRelu", [X([2, 3, 2], away(0.05, 2)),
                                   C(np.array([[0.1], [0.2], [0.3]]))])
# Piecewise-constant ops: zero gradients, away from the steps; and one
# through a product, where the other factor's gradient must stay intact.
STEPS = avoiding([-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2], -2.4, 2.4)
for name in ["Sign", "Floor", "Ceil", "Round"]:
    add(name.lower(), name, [X([3, 4], STEPS)])
add("floor_times_x", "Floor", [X([3, 4], STEPS)], rules=["Floor", "Mul"],
    nodes=lambda i, o: [helper.make_node("Floor", i, ["f"]),
                        helper.make_node("Mul", ["f", i[0]], o)])
# log1p as exporters write it.
add("log1p", "Log", [X([3, 4], uniform(-0.5, 2))],
    rules=["Log", "Add", "CastLike"],
    nodes=lambda i, o: [helper.make_node("Constant", [], ["one"],
                                         value_float=1.0),
                        helper.make_node("CastLike", ["one", i[0]], ["c"]),
                        helper.make_node("Add", [i[0], "c"], ["p"]),
                        helper.make_node("Log", ["p"], o)])

add("gelu", "Gelu", [X([3, 4], normal(2))], opset=20)
add("gelu_tanh", "Gelu", [X([3, 4], normal(2))], {"approximate": "tanh"},
    opset=20)

# Clip: bounds as inputs (then differentiated too) or constants; x away
# from them.
clip_gen = avoiding([-0.5, 0.5])
add("clip", "Clip", [X([3, 4], clip_gen), C(np.array(-0.5)), C(np.array(0.5))])
add("clip_min_only", "Clip", [X([3, 4], clip_gen), C(np.array(-0.5))])
add("clip_max_only", "Clip", [X([3, 4], clip_gen), None, C(np.array(0.5))])
add("clip_none", "Clip", [X([3, 4])])
add("clip_bounds_x", "Clip", [X([3, 4], clip_gen), X([], uniform(-0.5, -0.5)),
                              X([], uniform(0.5, 0.5))])

# Min / Max (variadic, broadcasting): distinct values, no ties.
for op in ["Min", "Max"]:
    add(op.lower() + "2", op, [X([3, 4], distinct(-2, 0)),
                               X([3, 4], distinct(-1, 1))])
    add(op.lower() + "3_bcast", op, [X([2, 3], distinct(-2, 0)),
                                     X([3], distinct(-1, 1)),
                                     X([2, 1], distinct(-0.9, 0.9))])
    add(op.lower() + "1", op, [X([4, 2])])

add("where", "Where", [C(np.array([[True, False, True], [False, False, True]])),
                       X([2, 3]), X([2, 3])], sym={1: {0: "N"}})
add("where_bcast", "Where", [C(np.array([True, False, True])), X([2, 3]),
                             X([1])], sym={1: {0: "N"}})

add("cast_f64", "Cast", [X([3, 4])], {"to": TensorProto.DOUBLE}, f32=False)
# Through float32 and back: y is linear in x, and with x on a 2^-10 grid and
# h = 2^-10 float32 holds x +- h exactly, so the difference is exact.
add("cast_f32", "Cast", [X([3, 4], lambda rng, s: np.round(
    rng.uniform(-2, 2, s) * 1024) / 1024)], h=2.0 ** -10, f32=False,
    nodes=lambda i, o: [helper.make_node("Cast", i, ["c"], to=TensorProto.FLOAT),
                        helper.make_node("Cast", ["c"], o,
                                         to=TensorProto.DOUBLE)])
add("sum1", "Sum", [X([3, 2])])
add("sum3", "Sum", [X([3, 2]), X([2]), X([3, 1])])
add("mean3", "Mean", [X([3, 2]), X([2]), X([3, 1])])
add("mean1", "Mean", [X([3, 2])])

# Fan-out: one x read twice by one op and by two (the sums of autodiff).
add("mul_self", "Mul", [X([3, 4])],
    nodes=lambda i, o: [helper.make_node("Mul", [i[0], i[0]], o)])
add("fanout_chain", "Tanh", [X([3, 4]), X([4])], rules=["Tanh", "Mul", "Add"],
    nodes=lambda i, o: [helper.make_node("Tanh", [i[0]], ["t"]),
                        helper.make_node("Mul", ["t", i[1]], ["m"]),
                        helper.make_node("Add", ["m", i[0]], ["a"]),
                        helper.make_node("Mul", ["a", "t"], o)])

# A large input: checked along random directions.
add("tanh_large", "Tanh", [X([16, 40])])

# Ops that read only their input's shape and type: zero gradients, beside
# another path from the same x.
add("eyelike_times_x", "EyeLike", [X([3, 4])], rules=["EyeLike", "Mul"],
    nodes=lambda i, o: [helper.make_node("EyeLike", i, ["e"], k=1),
                        helper.make_node("Mul", ["e", i[0]], o)])
for op in ["RandomUniformLike", "RandomNormalLike"]:
    add(op.lower() + "_plus_x", op, [X([3, 4])], rules=[op, "Add"],
        nodes=lambda i, o, op=op: [helper.make_node(op, i, ["r"], seed=3.0),
                                   helper.make_node("Add", ["r", i[0]], o)],
        xfail="each run draws new random numbers (the call index advances), so "
        "the finite differences compare different samples")

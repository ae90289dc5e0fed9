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

add("cast_f64", "Cast", [X([3, 4])], {"to": TensorProto.DOUBLE})
# Through float32 and back: y is linear in x, and with x on a 2^-10 grid and
# h = 2^-10 float32 holds x +- h exactly, so the difference is exact.
add("cast_f32", "Cast", [X([3, 4], lambda rng, s: np.round(
    rng.uniform(-2, 2, s) * 1024) / 1024)], h=2.0 ** -10,
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

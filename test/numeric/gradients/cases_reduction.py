"""gradcheck cases: the Reduce* ops (RulesReduction.cpp)."""
import numpy as np

from gradcheck import C, Case, X, distinct, normal, uniform

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


GEN = {"ReduceSum": normal(), "ReduceMean": normal(),
       "ReduceSumSquare": normal(), "ReduceL1": distinct(-2, 2),
       "ReduceL2": normal(), "ReduceLogSumExp": normal(),
       "ReduceLogSum": uniform(0.5, 2), "ReduceMax": distinct(),
       "ReduceMin": distinct()}
for op, gen in GEN.items():
    lo = op[len("Reduce"):].lower()
    # Opset 18 and up: axes is an input (ReduceSum from 13).
    add(lo + "_axes", op, [X([2, 3, 4], gen), C(np.array([1], np.int64))],
        opset=18)
    add(lo + "_axes_nokeep", op, [X([2, 3, 4], gen),
                                  C(np.array([0, -1], np.int64))],
        {"keepdims": 0}, opset=18)
    add(lo + "_all", op, [X([3, 4], gen)], opset=18)
    add(lo + "_all_nokeep", op, [X([3, 4], gen)], {"keepdims": 0}, opset=18)
    add(lo + "_noop", op, [X([3, 4], gen), C(np.array([], np.int64))],
        {"noop_with_empty_axes": 1}, opset=18)
    if op != "ReduceSum":
        # Opset 17: axes is an attribute (the importer upgrades it).
        add(lo + "_attr", op, [X([2, 3, 4], gen)],
            {"axes": [2, 0], "keepdims": 0})
add("reducesum_large", "ReduceSum", [X([6, 40, 5]),
                                     C(np.array([1], np.int64))])
add("reducemean_large", "ReduceMean", [X([6, 40, 5])], {"axes": [1, 2]})

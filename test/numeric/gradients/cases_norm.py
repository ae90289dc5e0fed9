"""gradcheck cases: the normalizations (RulesNormalization.cpp)."""
import numpy as np
from onnx import helper, numpy_helper

from gradcheck import Case, X, away, uniform

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


POS = uniform(0.5, 2.0)  # variances
# BatchNormalization, training mode: Y, and the running statistics.
for name, shape in [("bn_train", [4, 3]), ("bn_train_2d", [2, 3, 3, 2]),
                    ("bn_train_1d", [3, 2, 5])]:
    c = shape[1]
    add(name, "BatchNormalization",
        [X(shape), X([c]), X([c]), X([c]), X([c], POS)],
        {"training_mode": 1, "epsilon": 1e-3}, nout=3, yout=[0], opset=15)
    add(name + "_running", "BatchNormalization",
        [X(shape), X([c]), X([c]), X([c]), X([c], POS)],
        {"training_mode": 1, "momentum": 0.7}, nout=3, yout=[0, 1, 2],
        opset=15)
add("bn_train_running_only", "BatchNormalization",
    [X([3, 2, 4]), X([2]), X([2]), X([2]), X([2], POS)],
    {"training_mode": 1}, nout=3, yout=[1, 2], opset=15)
add("bn_train_large", "BatchNormalization",
    [X([4, 8, 5, 5]), X([8]), X([8]), X([8]), X([8], POS)],
    {"training_mode": 1}, nout=3, yout=[0], opset=15)
# Inference mode: every input.
add("bn_infer", "BatchNormalization",
    [X([2, 3, 4]), X([3]), X([3]), X([3]), X([3], POS)], {"epsilon": 1e-2})
add("bn_infer_4d", "BatchNormalization",
    [X([2, 3, 2, 2]), X([3]), X([3]), X([3]), X([3], POS)])

# LayerNormalization: axis, Scale/B shapes, the Mean and InvStdDev outputs.
add("layernorm", "LayerNormalization", [X([3, 5]), X([5]), X([5])])
add("layernorm_axis1", "LayerNormalization", [X([2, 3, 4]), X([3, 4]),
                                              X([3, 4])], {"axis": 1})
add("layernorm_neg_axis", "LayerNormalization", [X([2, 3, 4]), X([3, 4]),
                                                 X([4])],
    {"axis": -2, "epsilon": 1e-3})
add("layernorm_no_bias", "LayerNormalization", [X([4, 6]), X([6])])


def layernorm_ref(axis, eps=1e-5):
    """LayerNormalization with its Mean and InvStdDev outputs in float64
    ops (the outputs are float32 by stash_type: checked in float32)."""
    def nodes(i, o):
        def c(name, v):
            return helper.make_node("Constant", [], [name],
                                    value=numpy_helper.from_array(
                                        np.array(v), name))
        return [c("eps", eps), c("axes", np.arange(axis, 3, dtype=np.int64)),
                helper.make_node("ReduceMean", [i[0]], [o[1]],
                                 axes=list(range(axis, 3))),
                helper.make_node("Sub", [i[0], o[1]], ["xc"]),
                helper.make_node("Mul", ["xc", "xc"], ["sq"]),
                helper.make_node("ReduceMean", ["sq"], ["var"],
                                 axes=list(range(axis, 3))),
                helper.make_node("Add", ["var", "eps"], ["ve"]),
                helper.make_node("Sqrt", ["ve"], ["sd"]),
                helper.make_node("Reciprocal", ["sd"], [o[2]]),
                helper.make_node("Mul", ["xc", o[2]], ["xh"]),
                helper.make_node("Mul", ["xh", i[1]], ["xs"]),
                helper.make_node("Add", ["xs", i[2]], [o[0]])]
    return nodes


# Mean and InvStdDev are float32 (stash_type 1): checked in float32
# against a float64 expansion.
add("layernorm_stats", "LayerNormalization", [X([2, 3, 4]), X([4]), X([4])],
    {"axis": 2}, nout=3, yout=[0, 1, 2], f32="only", ref=layernorm_ref(2))
add("layernorm_stats_only", "LayerNormalization",
    [X([2, 3, 4]), X([3, 4]), X([3, 4])], {"axis": 1}, nout=3, yout=[1, 2],
    f32="only", ref=layernorm_ref(1))
add("layernorm_large", "LayerNormalization", [X([6, 7, 32]), X([32]),
                                              X([32])])

add("instancenorm", "InstanceNormalization", [X([2, 3, 4]), X([3]), X([3])])
add("instancenorm_2d", "InstanceNormalization",
    [X([2, 2, 3, 3]), X([2]), X([2])], {"epsilon": 1e-3})

add("groupnorm", "GroupNormalization", [X([2, 4, 3]), X([4]), X([4])],
    {"num_groups": 2}, opset=21)
add("groupnorm_2d", "GroupNormalization", [X([2, 6, 2, 3]), X([6]), X([6])],
    {"num_groups": 3, "epsilon": 1e-3}, opset=21)
add("groupnorm_one_group", "GroupNormalization",
    [X([3, 4, 5]), X([4]), X([4])], {"num_groups": 1}, opset=21)

add("lpnorm2", "LpNormalization", [X([3, 4])])
add("lpnorm2_axis0", "LpNormalization", [X([3, 4])], {"axis": 0})
add("lpnorm1", "LpNormalization", [X([3, 4], away(0.1, 2))], {"p": 1})

"""gradcheck cases: Softmax, LogSoftmax and the losses (RulesLoss.cpp)."""
import numpy as np

from gradcheck import C, Case, In, X, normal

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


for op in ["Softmax", "LogSoftmax"]:
    lo = op.lower()
    add(lo, op, [X([3, 5], normal(2))])
    add(lo + "_axis0", op, [X([4, 3], normal(2))], {"axis": 0})
    add(lo + "_axis1_3d", op, [X([2, 4, 3], normal(2))], {"axis": 1})
    add(lo + "_large", op, [X([6, 40], normal(2))])
    # Before opset 13: the input coerced to 2-D at axis.
    add(lo + "_opset11", op, [X([2, 3, 4], normal(2))], {"axis": 1},
        opset=11)


def labels(*shape, classes=4, ignore=None):
    def gen(rng):
        v = rng.integers(0, classes, shape).astype(np.int64)
        if ignore is not None:
            v.reshape(-1)[::3] = ignore
        return v
    return gen


W = C(np.array([0.5, 1.5, 1.0, 2.0]))
for op in ["SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss"]:
    lo = "sce" if op.startswith("Softmax") else "nll"
    # NLL reads log-probabilities: any values differentiate the same way.
    for red in ["none", "sum", "mean"]:
        add("%s_%s" % (lo, red), op, [X([5, 4]), In(labels(5))],
            {"reduction": red}, sym={0: {0: "N"}, 1: {0: "N"}})
        add("%s_%s_weights" % (lo, red), op, [X([5, 4]), In(labels(5)), W],
            {"reduction": red}, sym={0: {0: "N"}, 1: {0: "N"}})
        add("%s_%s_ignore" % (lo, red), op,
            [X([6, 4]), In(labels(6, ignore=-1))],
            {"reduction": red, "ignore_index": -1},
            sym={0: {0: "N"}, 1: {0: "N"}})
        add("%s_%s_weights_ignore_in_range" % (lo, red), op,
            [X([6, 4]), In(labels(6, ignore=2)), W],
            {"reduction": red, "ignore_index": 2},
            sym={0: {0: "N"}, 1: {0: "N"}})
        add("%s_%s_3d" % (lo, red), op, [X([2, 4, 3]), In(labels(2, 3))],
            {"reduction": red}, sym={0: {0: "N"}, 1: {0: "N"}})
    add("%s_4d_weights_i32" % lo, op,
        [X([2, 4, 2, 3]), In(lambda rng: labels(2, 2, 3)(rng).astype(np.int32)),
         W], sym={0: {0: "N"}, 1: {0: "N"}})
# The log_prob output: alone, and with the loss.
add("sce_log_prob", "SoftmaxCrossEntropyLoss", [X([5, 4]), In(labels(5))],
    nout=2, yout=[0, 1], sym={0: {0: "N"}, 1: {0: "N"}})
add("sce_log_prob_only", "SoftmaxCrossEntropyLoss",
    [X([3, 4, 2]), In(labels(3, 2))], {"reduction": "none"}, nout=2, yout=[1],
    sym={0: {0: "N"}, 1: {0: "N"}})
add("sce_loss_with_log_prob", "SoftmaxCrossEntropyLoss",
    [X([5, 4]), In(labels(5, ignore=-5)), W],
    {"ignore_index": -5}, nout=2, yout=[0], sym={0: {0: "N"}, 1: {0: "N"}})

"""gradcheck cases: Dropout, CumSum, Resize, TopK (RulesNNMisc.cpp)."""
import numpy as np

from gradcheck import C, Case, In, X, distinct

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def f(*v):
    """A float32 constant: a scalar for one value."""
    return C(np.array(v[0] if len(v) == 1 else v, np.float32))


def i64(*v):
    return C(np.array(v, np.int64))


# Dropout: inference (no training_mode, or false) is the identity; training
# mode reuses the forward's mask (the mask output present or not).
add("dropout_inference", "Dropout", [X([3, 4])])
add("dropout_ratio_inference", "Dropout", [X([3, 4]), f(0.3)])
add("dropout_training_false", "Dropout",
    [X([3, 4]), f(0.3), C(np.array(False))], nout=2)
add("dropout_training_zero_ratio", "Dropout",
    [X([3, 4]), f(0.0), C(np.array(True))], nout=2)
add("dropout_training_zero_ratio_no_mask", "Dropout",
    [X([3, 4]), f(0.0), C(np.array(True))])
add("dropout_training_runtime", "Dropout",
    [X([3, 4]), f(0.0), In(np.array(False))], nout=2)
add("dropout_training_random", "Dropout",
    [X([4, 5]), f(0.5), C(np.array(True))], {"seed": 7}, nout=2,
    xfail="random dropout (training mode, ratio > 0) draws a new mask each "
    "run (the call index advances), so the finite differences compare "
    "different masks")

# CumSum: both directions, exclusive or not, any axis.
for ex in (0, 1):
    for rev in (0, 1):
        add("cumsum_ex%d_rev%d" % (ex, rev), "CumSum",
            [X([3, 5]), C(np.array(1, np.int64))],
            {"exclusive": ex, "reverse": rev})
add("cumsum_axis0", "CumSum", [X([4, 3]), C(np.array(-2, np.int32))])

# Resize: nearest, linear, cubic; up and down; scales or sizes; axes.
def resize(name, shape, scales=None, sizes=None, opset=17, **attrs):
    # `sizes` fixes every dim (the batch too): no symbolic run then.
    ins = [X(shape), None, None, None]
    if scales is not None:
        ins[2] = f(*scales)
    if sizes is not None:
        ins[3] = i64(*sizes)
    while ins[-1] is None:
        ins.pop()
    add(name, "Resize", ins, attrs, opset=opset,
        sym={} if sizes is not None else None)


resize("resize_nearest_up", [1, 2, 3, 4], scales=[1, 1, 2, 2])
resize("resize_nearest_up_frac", [1, 1, 3, 4], scales=[1, 1, 1.7, 2.5],
       coordinate_transformation_mode="half_pixel", nearest_mode="floor")
resize("resize_nearest_down", [2, 1, 6, 5], scales=[1, 1, 0.5, 0.6],
       nearest_mode="round_prefer_ceil")
resize("resize_nearest_sizes", [1, 2, 3, 3], sizes=[1, 2, 7, 5],
       coordinate_transformation_mode="asymmetric", nearest_mode="ceil")
resize("resize_linear_up", [1, 2, 3, 4], scales=[1, 1, 2, 2], mode="linear")
resize("resize_linear_align_corners", [1, 1, 3, 4], sizes=[1, 1, 5, 7],
       mode="linear", coordinate_transformation_mode="align_corners")
resize("resize_linear_pytorch_half_pixel", [2, 1, 4, 3],
       scales=[1, 1, 1.5, 2], mode="linear",
       coordinate_transformation_mode="pytorch_half_pixel")
resize("resize_linear_down", [1, 2, 6, 6], scales=[1, 1, 0.5, 0.5],
       mode="linear")
resize("resize_linear_1d", [2, 3, 5], scales=[1, 1, 1.6], mode="linear")
resize("resize_cubic", [1, 1, 4, 4], scales=[1, 1, 2, 1.5], mode="cubic")
resize("resize_cubic_exclude", [1, 1, 4, 5], sizes=[1, 1, 6, 3],
       mode="cubic", cubic_coeff_a=-0.5, exclude_outside=1)
resize("resize_axes", [1, 2, 3, 4], scales=[2.0, 2.0], mode="linear",
       axes=[3, 2], opset=18)
add("resize_axes_sizes", "Resize", [X([2, 2, 3, 4]), None, None, i64(5, 3)],
    {"axes": [2, 3], "mode": "linear"}, opset=18)

add("topk", "TopK", [X([3, 6], distinct()), i64(3)], nout=2)
add("topk_smallest_axis0", "TopK", [X([5, 3], distinct()), i64(2)],
    {"axis": 0, "largest": 0}, nout=2)

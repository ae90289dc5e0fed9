"""gradcheck cases: the pooling ops (RulesPooling.cpp). MaxPool inputs have
distinct values (no ties: the maximum of each window is unique)."""
from gradcheck import Case, X, distinct

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def maxpool(name, x, nout=1, **attrs):
    add(name, "MaxPool", [X(x, distinct())], attrs, nout=nout)


maxpool("maxpool2d", [2, 2, 4, 4], kernel_shape=[2, 2], strides=[2, 2])
maxpool("maxpool2d_overlap", [1, 2, 5, 5], kernel_shape=[3, 3])
maxpool("maxpool2d_pads", [2, 1, 5, 4], kernel_shape=[3, 3], strides=[2, 2],
        pads=[1, 1, 1, 0])
maxpool("maxpool2d_dilation", [1, 2, 6, 6], kernel_shape=[2, 2],
        dilations=[2, 2])
maxpool("maxpool2d_ceil", [1, 2, 5, 6], kernel_shape=[2, 3], strides=[2, 2],
        ceil_mode=1)
maxpool("maxpool2d_same_upper", [1, 2, 5, 5], kernel_shape=[2, 2],
        strides=[2, 2], auto_pad="SAME_UPPER")
maxpool("maxpool2d_same_lower", [1, 1, 5, 4], kernel_shape=[3, 2],
        strides=[2, 1], auto_pad="SAME_LOWER")
maxpool("maxpool1d", [2, 3, 9], kernel_shape=[3], strides=[2], pads=[1, 1])
maxpool("maxpool3d", [1, 2, 4, 4, 4], kernel_shape=[2, 2, 2],
        strides=[2, 2, 2])
maxpool("maxpool2d_large", [2, 4, 12, 12], kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1])
# With the Indices output (an int64 output: not in y), row- and
# column-major.
maxpool("maxpool2d_indices", [2, 2, 4, 5], nout=2, kernel_shape=[2, 2],
        strides=[1, 2])
maxpool("maxpool2d_indices_colmajor", [2, 2, 4, 5], nout=2,
        kernel_shape=[2, 3], storage_order=1)
maxpool("maxpool3d_indices_colmajor", [1, 2, 3, 4, 3], nout=2,
        kernel_shape=[2, 2, 2], storage_order=1)


def avgpool(name, x, opset=17, **attrs):
    add(name, "AveragePool", [X(x)], attrs, opset=opset)


avgpool("avgpool2d", [2, 2, 4, 4], kernel_shape=[2, 2], strides=[2, 2])
avgpool("avgpool2d_overlap", [1, 2, 5, 5], kernel_shape=[3, 3])
for inc in (0, 1):
    avgpool("avgpool2d_pads_inc%d" % inc, [2, 1, 5, 4], kernel_shape=[3, 3],
            strides=[2, 2], pads=[1, 1, 1, 0], count_include_pad=inc)
    avgpool("avgpool2d_ceil_inc%d" % inc, [1, 2, 5, 6], kernel_shape=[2, 3],
            strides=[2, 2], ceil_mode=1, count_include_pad=inc)
    avgpool("avgpool2d_ceil_pads_inc%d" % inc, [1, 1, 6, 7],
            kernel_shape=[3, 3], strides=[2, 3], pads=[1, 0, 1, 1],
            ceil_mode=1, count_include_pad=inc)
    avgpool("avgpool2d_same_upper_inc%d" % inc, [1, 2, 5, 5],
            kernel_shape=[2, 3], strides=[2, 2], auto_pad="SAME_UPPER",
            count_include_pad=inc)
    avgpool("avgpool2d_same_lower_inc%d" % inc, [1, 1, 5, 4],
            kernel_shape=[3, 2], strides=[2, 1], auto_pad="SAME_LOWER",
            count_include_pad=inc)
avgpool("avgpool2d_dilation", [1, 2, 6, 6], kernel_shape=[2, 2],
        dilations=[2, 2], pads=[1, 1, 0, 0], opset=19)
avgpool("avgpool1d", [2, 3, 9], kernel_shape=[3], strides=[2], pads=[1, 1])
avgpool("avgpool3d", [1, 2, 4, 4, 4], kernel_shape=[2, 2, 2],
        strides=[2, 2, 2])
avgpool("avgpool2d_large", [2, 4, 12, 12], kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1])
avgpool("avgpool2d_valid", [1, 2, 7, 6], kernel_shape=[3, 2],
        strides=[2, 2], auto_pad="VALID")

add("globalavgpool", "GlobalAveragePool", [X([2, 3, 4, 5])])
add("globalavgpool1d", "GlobalAveragePool", [X([2, 3, 7])],
    sym={0: {0: "N", 2: "L"}})
add("globalmaxpool", "GlobalMaxPool", [X([2, 3, 4, 5], distinct())])
add("globalmaxpool3d", "GlobalMaxPool", [X([1, 2, 3, 2, 3], distinct())],
    sym={0: {0: "N", 3: "H"}})

"""gradcheck cases: Conv and ConvTranspose (RulesConv.cpp): every attribute
(groups, depthwise, strides, pads, auto_pad, dilations), 1-D/2-D/3-D, with
and without bias; X, W and B all differentiated."""
from gradcheck import Case, X

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def conv(name, x, w, bias=True, **attrs):
    ins = [X(x), X(w)] + ([X([w[0]])] if bias else [])
    add(name, "Conv", ins, attrs)


conv("conv2d", [2, 3, 5, 5], [4, 3, 3, 3])
conv("conv2d_nobias", [2, 3, 5, 4], [2, 3, 2, 3], bias=False)
conv("conv2d_pads", [2, 2, 5, 5], [3, 2, 3, 3], pads=[1, 1, 1, 1])
conv("conv2d_pads_asym", [1, 2, 5, 6], [3, 2, 3, 3], pads=[0, 2, 1, 1])
conv("conv2d_stride", [2, 2, 7, 7], [3, 2, 3, 3], strides=[2, 2])
conv("conv2d_stride_remainder", [1, 2, 8, 7], [2, 2, 3, 2], strides=[3, 2],
     pads=[1, 0, 0, 1])
conv("conv2d_dilation", [1, 2, 7, 7], [2, 2, 3, 3], dilations=[2, 2])
conv("conv2d_dilation_stride_pad", [2, 2, 9, 8], [3, 2, 3, 2],
     dilations=[2, 1], strides=[2, 3], pads=[2, 1, 1, 0])
conv("conv2d_group", [2, 4, 5, 5], [6, 2, 3, 3], group=2, pads=[1, 1, 1, 1])
conv("conv2d_group_stride", [1, 6, 7, 6], [3, 2, 3, 3], group=3,
     strides=[2, 2])
conv("conv2d_depthwise", [2, 3, 6, 6], [3, 1, 3, 3], group=3,
     pads=[1, 1, 1, 1])
conv("conv2d_depthwise_mult", [1, 2, 6, 5], [4, 1, 3, 3], group=2,
     strides=[2, 1], pads=[1, 0, 1, 1])
conv("conv2d_1x1", [2, 4, 3, 3], [5, 4, 1, 1])
conv("conv2d_same_upper", [1, 2, 7, 6], [2, 2, 3, 4], auto_pad="SAME_UPPER",
     strides=[2, 2])
conv("conv2d_same_lower", [1, 2, 7, 6], [2, 2, 4, 3], auto_pad="SAME_LOWER",
     strides=[2, 1])
conv("conv2d_valid", [1, 2, 6, 5], [3, 2, 3, 3], auto_pad="VALID",
     strides=[2, 2])
conv("conv2d_kernel_shape", [1, 2, 5, 5], [3, 2, 2, 3], kernel_shape=[2, 3])
conv("conv1d", [2, 3, 9], [4, 3, 3], pads=[1, 2], strides=[2])
conv("conv1d_dilation_group", [2, 4, 10], [4, 2, 3], dilations=[3], group=2)
conv("conv3d", [1, 2, 4, 5, 4], [3, 2, 2, 3, 2], pads=[1, 0, 1, 0, 1, 1])
conv("conv3d_stride", [2, 2, 5, 5, 5], [2, 2, 3, 3, 3], strides=[2, 2, 2])
conv("conv2d_large", [2, 8, 12, 12], [8, 8, 3, 3], pads=[1, 1, 1, 1])
# The weight gradient's convolution (kernel: the output gradient) has few
# output positions: in the float32 build the runtime packs its "weights"
# for the indirect GEMM (gemm.c, onnxc_rt_sconv2d_pack_weights); here with
# a depth of 8 x 20 x 20 = 3200 (more than one 2304-deep block), and
# grouped with strides (the gradient's dilations).
conv("conv2d_wgrad_deep", [8, 2, 20, 20], [4, 2, 3, 3], pads=[1, 1, 1, 1])
conv("conv2d_wgrad_group_stride", [6, 4, 13, 13], [6, 2, 3, 3], group=2,
     strides=[2, 2], pads=[1, 1, 1, 1])
# Spatial dims symbolic too (run-time output padding).
add("conv2d_sym_spatial", "Conv", [X([2, 2, 7, 6]), X([3, 2, 3, 3]), X([3])],
    {"strides": [2, 2], "pads": [1, 0, 0, 1]},
    sym={0: {0: "N", 2: "H", 3: "W"}})


def convt(name, x, w, bias=True, **attrs):
    group = attrs.get("group", 1)
    ins = [X(x), X(w)] + ([X([w[1] * group])] if bias else [])
    add(name, "ConvTranspose", ins, attrs)


convt("convt2d", [2, 3, 4, 4], [3, 2, 3, 3])
convt("convt2d_nobias", [1, 2, 3, 4], [2, 3, 2, 2], bias=False)
convt("convt2d_stride", [2, 2, 3, 3], [2, 3, 3, 3], strides=[2, 2])
convt("convt2d_stride_pads", [1, 2, 4, 3], [2, 2, 3, 3], strides=[2, 2],
      pads=[1, 0, 1, 1])
convt("convt2d_output_padding", [1, 2, 3, 3], [2, 2, 3, 3], strides=[2, 3],
      output_padding=[1, 2])
convt("convt2d_dilation", [1, 2, 3, 4], [2, 2, 2, 3], dilations=[2, 2],
      strides=[1, 2])
convt("convt2d_group", [2, 4, 3, 3], [4, 2, 3, 3], group=2, strides=[2, 1])
convt("convt2d_depthwise", [1, 3, 4, 4], [3, 1, 3, 3], group=3,
      strides=[2, 2], pads=[1, 1, 1, 1])
convt("convt2d_output_shape", [1, 2, 3, 3], [2, 2, 3, 3], strides=[2, 2],
      output_shape=[8, 7])
convt("convt2d_output_shape_large", [1, 2, 3, 3], [2, 2, 2, 2],
      strides=[2, 2], output_shape=[9, 7])
convt("convt2d_same_upper", [1, 2, 3, 4], [2, 2, 3, 3], strides=[2, 2],
      auto_pad="SAME_UPPER")
convt("convt2d_same_lower", [1, 2, 3, 4], [2, 2, 3, 2], strides=[2, 2],
      auto_pad="SAME_LOWER")
convt("convt1d", [2, 3, 5], [3, 2, 3], strides=[2], pads=[1, 0])
convt("convt3d", [1, 2, 3, 2, 3], [2, 2, 2, 2, 2], strides=[2, 1, 2])
add("convt2d_sym_spatial", "ConvTranspose",
    [X([1, 2, 3, 4]), X([2, 2, 3, 3]), X([2])],
    {"strides": [2, 2], "pads": [1, 0, 0, 1]},
    sym={0: {0: "N", 2: "H", 3: "W"}})

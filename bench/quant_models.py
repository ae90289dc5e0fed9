"""Quantized models for the bench, in the forms onnxruntime's quantizer
writes (python3-onnx and numpy only, seeded weights, nothing downloaded).

- unet_dynq: the U-Net of issue 10's table (tools/corpus's unet.py
  architecture: double 3x3 conv blocks with BN folded, MaxPool 2, dilated
  blocks at the bottom, Resize x2 nearest and bilinear in turn, skip
  Concat, 1x1 head, Sigmoid) after `quantize_dynamic` (QInt8 weights,
  symmetric, per tensor): every Conv is DynamicQuantizeLinear of its input,
  ConvInteger, Cast to float, Mul by the product of the two scales (its own
  Mul node), Reshape of the bias to [1, -1, 1, 1] and Add; Relu, MaxPool,
  Resize, Concat and Sigmoid stay float. `u8`: QUInt8 weights (asymmetric,
  a zero point), the other weight type quantize_dynamic offers, for which
  ONNX Runtime's ConvInteger is much faster than for int8.
- qlinear_vgg: a VGG-style conv net after static quantization in QOperator
  form: QuantizeLinear of the input, QLinearConv (uint8 activations, int8
  symmetric weights, int32 bias; the Relu folded into the output range, so
  y_zero_point 0) twice per stage, MaxPool on uint8 between stages,
  DequantizeLinear and GlobalAveragePool at the end. Calibrated in numpy on
  a small image of the same statistics (each layer's output scale = its
  largest output / 255).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = 0

    def name(self, base):
        self.count += 1
        return "%s_%d" % (base, self.count)

    def init(self, base, array):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def node(self, op, ins, outs=1, **attrs):
        names = [self.name(op.lower()) for _ in range(outs)]
        self.nodes.append(helper.make_node(op, ins, names, name=names[0], **attrs))
        return names[0] if outs == 1 else names

    def conv_weights(self, cin, cout, k):
        std = np.sqrt(2.0 / (cin * k * k))
        w = (self.rng.standard_normal((cout, cin, k, k)) * std).astype(np.float32)
        b = (self.rng.standard_normal(cout) * 0.05).astype(np.float32)
        return w, b


def quantize_weights(w):
    """QInt8, symmetric, per tensor (quantize_dynamic's default)."""
    scale = np.float32(np.abs(w).max() / 127.0)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale


def quantize_weights_u8(w):
    """QUInt8, asymmetric over [min(w, 0), max(w, 0)], per tensor."""
    lo, hi = min(float(w.min()), 0.0), max(float(w.max()), 0.0)
    scale = np.float32((hi - lo) / 255.0)
    zp = np.uint8(np.clip(round(-lo / scale), 0, 255))
    q = np.clip(np.round(w / scale) + zp, 0, 255).astype(np.uint8)
    return q, scale, zp


def dyn_conv(g, x, cin, cout, k=3, dilation=1, u8=False):
    """A Conv as quantize_dynamic writes it (ConvInteger + dequantization)."""
    w, b = g.conv_weights(cin, cout, k)
    if u8:
        q, scale, wzp = quantize_weights_u8(w)
    else:
        (q, scale), wzp = quantize_weights(w), np.int8(0)
    xq, xs, xz = g.node("DynamicQuantizeLinear", [x], outs=3)
    pad = dilation * (k // 2)
    acc = g.node("ConvInteger", [xq, g.init("W_quantized", q), xz,
                                 g.init("W_zero_point", wzp)],
                 dilations=[dilation, dilation], pads=[pad] * 4,
                 kernel_shape=[k, k])
    f = g.node("Cast", [acc], to=F)
    s = g.node("Mul", [xs, g.init("W_scale", scale)])
    y = g.node("Mul", [f, s])
    br = g.node("Reshape", [g.init("B", b), g.init("B_shape", np.array([1, -1, 1, 1], np.int64))])
    return g.node("Add", [y, br])


def unet_dynq(size=256, channels=(16, 32, 64, 128), seed=0, opset=13,
              u8=False):
    g = Builder(seed)

    def block(x, cin, cout, dilation=1):
        x = g.node("Relu", [dyn_conv(g, x, cin, cout, 3, dilation, u8)])
        return g.node("Relu", [dyn_conv(g, x, cout, cout, 3, dilation, u8)])

    x, c, skips = "input", 3, []
    for i, co in enumerate(channels):
        x = block(x, c, co, 2 if i == len(channels) - 1 else 1)
        skips.append(x)
        x = g.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
        c = co
    x = block(x, c, 2 * c, 2)
    x = block(x, 2 * c, 2 * c, 4)
    c = 2 * c
    scales = g.init("scales", np.array([1, 1, 2, 2], np.float32))
    for i, (co, s) in enumerate(zip(reversed(channels), reversed(skips))):
        if i % 2 == 0:
            x = g.node("Resize", [x, "", scales], mode="nearest",
                       coordinate_transformation_mode="asymmetric",
                       nearest_mode="floor")
        else:
            x = g.node("Resize", [x, "", scales], mode="linear",
                       coordinate_transformation_mode="pytorch_half_pixel")
        x = g.node("Concat", [x, s], axis=1)
        x = block(x, c + co, co)
        c = co
    y = g.node("Sigmoid", [dyn_conv(g, x, c, 1, 1, 1, u8)])
    g.nodes[-1].output[0] = "mask"
    graph = helper.make_graph(
        g.nodes, "unet_dynq",
        [helper.make_tensor_value_info("input", F, [1, 3, size, size])],
        [helper.make_tensor_value_info("mask", F, [1, 1, size, size])], g.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def unet_macs(size=256, channels=(16, 32, 64, 128)):
    """Multiply-adds of the convolutions (3 x 3 kernels, 'same' padding)."""
    macs, s, c = 0, size, 3
    for co in channels:
        macs += s * s * 9 * (c * co + co * co)
        c, s = co, s // 2
    macs += s * s * 9 * (c * 2 * c + 3 * (2 * c) ** 2)
    c = 2 * c
    for co in reversed(channels):
        s *= 2
        macs += s * s * 9 * ((c + co) * co + co * co)
        c = co
    return macs + s * s * c


# ---- QOperator (static) ----------------------------------------------------

def conv_ref(x, w, b):
    """fp32 3x3 'same' convolution in numpy (float64 sums), + bias."""
    n, c, h, wd = x.shape
    m, _, k, _ = w.shape
    p = k // 2
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p, p), (p, p)))
    cols = np.stack([xp[:, :, i:i + h, j:j + wd] for i in range(k) for j in range(k)], 2)
    cols = cols.reshape(n, c * k * k, h * wd)
    wm = w.astype(np.float64).reshape(m, c, k * k).reshape(m, c * k * k)
    y = np.einsum("mk,nkp->nmp", wm, cols).reshape(n, m, h, wd)
    return y + b.reshape(1, -1, 1, 1)


def qlinear_vgg(size=224, channels=(32, 64, 128, 256), seed=0, opset=13,
                calib=32):
    g = Builder(seed)
    rng = np.random.default_rng(seed + 1)
    # Calibration: the float network on a small image of standard normal
    # values (the bench's inputs are standard normal too).
    xc = rng.standard_normal((1, 3, calib, calib))
    x_scale = np.float32(np.abs(xc).max() * 1.2 / 127.0)
    x_zp = np.uint8(128)
    xq = g.node("QuantizeLinear", ["input", g.init("x_scale", x_scale),
                                   g.init("x_zp", x_zp)])
    cur, cur_scale, cur_zp, c = xq, x_scale, x_zp, 3
    for stage, co in enumerate(channels):
        for _ in range(2):
            w, b = g.conv_weights(c, co, 3)
            q, w_scale = quantize_weights(w)
            yc = np.maximum(conv_ref(xc, w, b), 0.0)
            y_scale = np.float32(max(yc.max(), 1e-3) / 255.0)
            bias = np.round(b / (np.float64(cur_scale) * np.float64(w_scale))).astype(np.int32)
            cur = g.node("QLinearConv",
                         [cur, g.init("x_scale", cur_scale), g.init("x_zp", cur_zp),
                          g.init("w", q), g.init("w_scale", w_scale),
                          g.init("w_zp", np.int8(0)), g.init("y_scale", y_scale),
                          g.init("y_zp", np.uint8(0)), g.init("bias", bias)],
                         pads=[1, 1, 1, 1], kernel_shape=[3, 3])
            xc, cur_scale, cur_zp, c = yc, y_scale, np.uint8(0), co
        if stage < len(channels) - 1:
            cur = g.node("MaxPool", [cur], kernel_shape=[2, 2], strides=[2, 2])
            xc = xc.reshape(xc.shape[0], xc.shape[1], xc.shape[2] // 2, 2,
                            xc.shape[3] // 2, 2).max(axis=(3, 5))
    y = g.node("DequantizeLinear", [cur, g.init("y_scale", cur_scale),
                                    g.init("y_zp", cur_zp)])
    g.node("GlobalAveragePool", [y])
    g.nodes[-1].output[0] = "features"
    graph = helper.make_graph(
        g.nodes, "qlinear_vgg",
        [helper.make_tensor_value_info("input", F, [1, 3, size, size])],
        [helper.make_tensor_value_info("features", F, [1, channels[-1], 1, 1])],
        g.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def vgg_macs(size=224, channels=(32, 64, 128, 256)):
    macs, s, c = 0, size, 3
    for co in channels:
        macs += s * s * 9 * (c * co + co * co)
        c, s = co, s // 2
    return macs


FAMILIES = dict(unet_dynq=unet_dynq, qlinear_vgg=qlinear_vgg)

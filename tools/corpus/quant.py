"""Quantized models as ONNX Runtime's quantization tool writes them, with
standard ai.onnx ops only (no com.microsoft contrib ops).

- dynamic(): `quantize_dynamic`. Per Conv: DynamicQuantizeLinear on the
  activation (`X_QuantizeLinear` -> X_quantized, X_scale, X_zero_point),
  ConvInteger with the quantized weight initializer and both zero points,
  Cast(int32 -> float), Mul(X_scale, W_scale), Mul, and for a bias a
  Reshape to [1, -1, 1, 1] and an Add. Per MatMul with a constant B the
  same with MatMulInteger (the bias Add of the export stays). Weights
  uint8 (asymmetric, zero point) or int8 (symmetric, zero point 0).
- qoperator(): `quantize_static(quant_format=QOperator)` without contrib
  ops. QuantizeLinear at the input, QLinearConv (uint8 activations, int8
  weights per tensor or per output channel, int32 bias at scale sx*sw),
  Relu/Clip after a conv dropped (the conv's output takes the
  activation's range, zero point 0 saturates as Relu does), MaxPool on
  uint8, a residual Add as DequantizeLinear -> Add -> QuantizeLinear, the
  head DequantizeLinear -> GlobalAveragePool -> Flatten -> QuantizeLinear
  -> QLinearMatMul -> DequantizeLinear -> Add(bias).
- qdq(): `quantize_static(quant_format=QDQ)`. QuantizeLinear ->
  DequantizeLinear pairs on the activations around each Conv, Gemm, Add,
  MaxPool and GlobalAveragePool; weights int8 initializers (per channel on
  axis 0 for convs) behind a DequantizeLinear, biases int32 behind one;
  Relu/Clip after a conv removed as ORT's QDQ quantizer removes them.

Activation ranges: min/max calibration (ORT's default) on ORT's own
outputs for every intermediate tensor of the fp32 model, over a few
random inputs."""

import numpy as np
import onnx
from onnx import helper, numpy_helper

from common import F, I8, U8, check, register


# --- Quantization parameters (ORT's quant_utils) -----------------------------------

def act_params(rmin, rmax):
    """uint8 asymmetric: the range widened to contain 0, scale = range/255,
    zero point round(-rmin/scale)."""
    rmin, rmax = min(float(rmin), 0.0), max(float(rmax), 0.0)
    scale = (rmax - rmin) / 255.0
    if scale == 0.0:
        return np.float32(1.0), np.uint8(0)
    zp = int(round(0 - rmin / scale))
    return np.float32(scale), np.uint8(min(255, max(0, zp)))


def quant_weight(w, qtype, axis=None):
    """int8: symmetric in [-127, 127], zero point 0; uint8: asymmetric over
    [min(w, 0), max(w, 0)]. Per tensor (axis None) or per channel."""
    w = np.asarray(w, np.float32)
    if axis is None:
        chans = [w]
    else:
        chans = [np.take(w, c, axis=axis) for c in range(w.shape[axis])]
    scales, zps, qs = [], [], []
    for c in chans:
        if qtype == I8:
            amax = float(np.max(np.abs(c)))
            s = amax / 127.0 if amax > 0 else 1.0
            q = np.clip(np.round(c / np.float32(s)), -127, 127).astype(np.int8)
            zp = 0
        else:
            s, zp = act_params(c.min(), c.max())
            s = float(s)
            q = np.clip(np.round(c / np.float32(s)) + int(zp), 0, 255).astype(np.uint8)
        scales.append(np.float32(s))
        zps.append(zp)
        qs.append(q)
    zdtype = np.int8 if qtype == I8 else np.uint8
    if axis is None:
        return qs[0], np.float32(scales[0]), np.asarray(zps[0], zdtype)
    return (np.stack(qs, axis=axis), np.asarray(scales, np.float32),
            np.asarray(zps, zdtype))


# --- Graph bookkeeping -------------------------------------------------------------

class Rewriter:
    def __init__(self, model):
        self.model = model
        g = model.graph
        self.inits = {t.name: t for t in g.initializer}
        self.consts = {n.output[0]: n for n in g.node if n.op_type == "Constant"}
        self.new_inits = []
        self.nodes = []

    def value(self, name):
        if name in self.inits:
            return numpy_helper.to_array(self.inits[name])
        if name in self.consts:
            return numpy_helper.to_array(self.consts[name].attribute[0].t)
        return None

    def init(self, name, array):
        self.new_inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def add(self, op, ins, outs, name, **attrs):
        self.nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        return outs[0]

    def finish(self, drop_inits=()):
        g = self.model.graph
        used = {x for n in self.nodes for x in n.input}
        keep = [t for t in g.initializer if t.name in used and t.name not in drop_inits]
        del g.initializer[:]
        g.initializer.extend(keep + self.new_inits)
        del g.node[:]
        g.node.extend(self.nodes)
        del g.value_info[:]
        # ORT's quantization tool always imports its contrib domain, used
        # or not (runtimes must ignore an unused opset import).
        if not any(o.domain == "com.microsoft" for o in self.model.opset_import):
            self.model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        return check(self.model)


def consumers(model):
    out = {}
    for n in model.graph.node:
        for x in n.input:
            out.setdefault(x, []).append(n)
    for o in model.graph.output:
        out.setdefault(o.name, []).append(None)
    return out


def conv_attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


# --- Dynamic quantization ----------------------------------------------------------

def dynamic(model, weight_type=U8, ops=("Conv", "MatMul")):
    r = Rewriter(model)
    quantized = {}  # activation -> (q, scale, zp)
    for n in model.graph.node:
        w = r.value(n.input[1]) if n.op_type in ops and len(n.input) > 1 else None
        if w is None:
            r.nodes.append(n)
            continue
        x = n.input[0]
        if x not in quantized:
            quantized[x] = (x + "_quantized", x + "_scale", x + "_zero_point")
            r.add("DynamicQuantizeLinear", [x], list(quantized[x]), x + "_QuantizeLinear")
        xq, xs, xzp = quantized[x]
        wn = n.input[1]
        q, s, zp = quant_weight(w, weight_type)
        wq = r.init(wn + "_quantized", q)
        ws = r.init(wn + "_scale", s)
        wzp = r.init(wn + "_zero_point", zp)
        out = n.output[0]
        iop = "ConvInteger" if n.op_type == "Conv" else "MatMulInteger"
        acc = r.add(iop, [xq, wq, xzp, wzp], [out + "_output_quantized"], n.name + "_quant",
                    **(conv_attrs(n) if n.op_type == "Conv" else {}))
        cast = r.add("Cast", [acc], [acc + "_cast_output"], acc + "_cast", to=F)
        scales = r.add("Mul", [xs, ws], [n.name + "_quant_scales_mul:0"],
                       n.name + "_quant_scales_mul")
        has_bias = n.op_type == "Conv" and len(n.input) > 2 and n.input[2]
        scaled = out + "quant_scaled_output" if has_bias else out
        r.add("Mul", [cast, scales], [scaled], n.name + "_quant_output_scale_mul")
        if has_bias:
            shape = r.init(out + "_bias_reshape_shape",
                           np.array([1, -1] + [1] * (w.ndim - 2), np.int64))
            b = r.add("Reshape", [n.input[2], shape], [out + "_bias_reshape_output"],
                      out + "_bias_reshape")
            r.add("Add", [scaled, b], [out], out + "_bias_add")
    return r.finish(drop_inits={n.input[1] for n in model.graph.node
                                if n.op_type in ops and len(n.input) > 1})


# --- Calibration ---------------------------------------------------------------------

def calibrate(model, feeds):
    """{tensor: (min, max)} over the float tensors of the model, from ORT's
    values on each input set of `feeds` (lists of arrays)."""
    from corpus import ort_evaluate
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {vi.name: vi.type.tensor_type.elem_type for vi in
             list(inferred.graph.value_info) + list(inferred.graph.input) +
             list(inferred.graph.output)}
    names = [o for n in model.graph.node if n.op_type != "Constant" for o in n.output
             if types.get(o) == F]
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    outs = {o.name for o in probe.graph.output}
    for nm in names:
        if nm not in outs:
            probe.graph.output.append(helper.make_tensor_value_info(nm, F, None))
    order = [o.name for o in probe.graph.output]
    ranges = {}
    for feed in feeds:
        for vi, v in zip(model.graph.input, feed):
            a, b = ranges.get(vi.name, (float(v.min()), float(v.max())))
            ranges[vi.name] = (min(a, float(v.min())), max(b, float(v.max())))
        for nm, v in zip(order, ort_evaluate(probe, feed)):
            lo, hi = float(v.min()), float(v.max())
            a, b = ranges.get(nm, (lo, hi))
            ranges[nm] = (min(a, lo), max(b, hi))
    return ranges


def image_feeds(model, n=2, seed=100):
    rng = np.random.default_rng(seed)
    shape = [d.dim_value or 1 for d in model.graph.input[0].type.tensor_type.shape.dim]
    return [[rng.standard_normal(shape).astype(np.float32)] for _ in range(n)]


# --- Static quantization --------------------------------------------------------------

class Static(Rewriter):
    """Shared by qoperator() and qdq(): activation parameters from the
    calibrated ranges, and the activation fused into a conv."""

    def __init__(self, model, ranges):
        super().__init__(model)
        self.ranges = ranges
        self.uses = consumers(model)
        self.dropped = set()  # Relu/Clip nodes folded into their producer

    def params(self, x):
        """(scale, zp) initializers of activation x."""
        s, zp = act_params(*self.ranges[x])
        if x + "_scale" not in {t.name for t in self.new_inits}:
            self.init(x + "_scale", s)
            self.init(x + "_zero_point", zp)
        return x + "_scale", x + "_zero_point"

    def fused_activation(self, node):
        """The Relu or Clip(0, ...) that is the only consumer of node's
        output: quantization to uint8 with the activation's range does its
        clamping (ORT drops it). Returns its output name, or None."""
        uses = self.uses.get(node.output[0], [])
        if len(uses) != 1 or uses[0] is None or uses[0].op_type not in ("Relu", "Clip"):
            return None
        act = uses[0]
        if act.op_type == "Clip":
            lo = self.value(act.input[1]) if len(act.input) > 1 and act.input[1] else None
            if lo is None or float(lo) != 0.0:
                return None
        self.dropped.add(act.name)
        return act.output[0]


def qoperator(model, ranges, per_channel=False):
    r = Static(model, ranges)
    q = {}  # float tensor -> its uint8 version (same scale/zp names as params(x))

    def quantize(x):
        if x not in q:
            s, zp = r.params(x)
            q[x] = r.add("QuantizeLinear", [x, s, zp], [x + "_quantized"], x + "_QuantizeLinear")
        return q[x]

    def dequantize(x):
        """The float value of x (x itself when it was never quantized away)."""
        if x in floats:
            return x
        s, zp = r.params(x)
        floats.add(x)
        return r.add("DequantizeLinear", [q[x], s, zp], [x], x + "_DequantizeLinear")

    floats = {i.name for i in model.graph.input}
    for n in model.graph.node:
        if n.name in r.dropped or n.op_type == "Constant":
            if n.op_type == "Constant":
                r.nodes.append(n)
            continue
        if n.op_type == "Conv":
            out = r.fused_activation(n) or n.output[0]
            xq = quantize(n.input[0])
            xs, _ = r.params(n.input[0])
            w = r.value(n.input[1])
            wq, ws, wzp = quant_weight(w, I8, axis=0 if per_channel else None)
            wn = n.input[1]
            ins = [xq, xs, n.input[0] + "_zero_point",
                   r.init(wn + "_quantized", wq), r.init(wn + "_scale", ws),
                   r.init(wn + "_zero_point", wzp)]
            ys, yzp = r.params(out)
            ins += [ys, yzp]
            if len(n.input) > 2 and n.input[2]:
                bscale = float(act_params(*ranges[n.input[0]])[0]) * ws.astype(np.float64)
                b = np.round(r.value(n.input[2]) / bscale).astype(np.int32)
                ins.append(r.init(n.input[2] + "_quantized", b))
            q[out] = r.add("QLinearConv", ins, [out + "_quantized"], n.name + "_quant",
                           **conv_attrs(n))
        elif n.op_type == "MaxPool":
            xq = quantize(n.input[0])
            # Same parameters in and out (a max commutes with the map).
            q[n.output[0]] = r.add("MaxPool", [xq], [n.output[0] + "_quantized"],
                                   n.name + "_quant", **conv_attrs(n))
            r.ranges[n.output[0]] = r.ranges[n.input[0]]
        elif n.op_type == "Add" and all(x in q or x in floats for x in n.input):
            out = r.fused_activation(n) or n.output[0]
            a, b = dequantize(n.input[0]), dequantize(n.input[1])
            r.add("Add", [a, b], [out + "_float"], n.name)
            s, zp = r.params(out)
            q[out] = r.add("QuantizeLinear", [out + "_float", s, zp], [out + "_quantized"],
                           out + "_QuantizeLinear")
        elif n.op_type == "Gemm" and r.value(n.input[1]) is not None:
            attrs = conv_attrs(n)
            w = r.value(n.input[1])
            if attrs.get("transB", 0):
                w = w.T
            x = n.input[0]
            xq = quantize(x)
            xs, xzp = r.params(x)
            wq, ws, wzp = quant_weight(w, I8)
            wn = n.input[1]
            mm = n.output[0] + "_MatMul"
            ys, yzp = r.params(n.output[0])
            r.add("QLinearMatMul", [xq, xs, xzp, r.init(wn + "_T_quantized", wq),
                                    r.init(wn + "_T_scale", ws), r.init(wn + "_T_zero_point", wzp),
                                    ys, yzp], [mm + "_quantized"], n.name + "_quant")
            r.add("DequantizeLinear", [mm + "_quantized", ys, yzp], [mm], mm + "_DequantizeLinear")
            r.add("Add", [mm, n.input[2]], [n.output[0]], n.name + "_bias_add")
            floats.add(n.output[0])
        else:
            ins = [dequantize(x) if x in q else x for x in n.input]
            del n.input[:]
            n.input.extend(ins)
            r.nodes.append(n)
            floats.update(n.output)
    for o in model.graph.output:
        dequantize(o.name)
    return r.finish(drop_inits={n.input[1] for n in model.graph.node
                                if n.op_type in ("Conv", "Gemm")})


def qdq(model, ranges, per_channel=True):
    r = Static(model, ranges)
    qdq_of = {}  # float tensor -> its DequantizeLinear output

    def qd(x):
        """x through QuantizeLinear -> DequantizeLinear (once per tensor)."""
        if x not in qdq_of:
            s, zp = r.params(x)
            ql = r.add("QuantizeLinear", [x, s, zp], [x + "_QuantizeLinear_Output"],
                       x + "_QuantizeLinear")
            qdq_of[x] = r.add("DequantizeLinear", [ql, s, zp],
                              [x + "_DequantizeLinear_Output"], x + "_DequantizeLinear")
        return qdq_of[x]

    def weight(name, array, axis):
        wq, ws, wzp = quant_weight(array, I8, axis=axis)
        attrs = {"axis": axis} if axis is not None else {}
        return r.add("DequantizeLinear", [r.init(name + "_quantized", wq),
                                          r.init(name + "_scale", ws),
                                          r.init(name + "_zero_point", wzp)],
                     [name + "_DequantizeLinear_Output"], name + "_DequantizeLinear", **attrs)

    def bias(name, x, wscale, axis):
        b = r.value(name)
        xs = float(act_params(*ranges[x])[0])
        bs = (xs * np.asarray(wscale, np.float64)).astype(np.float32)
        bq = np.round(b / bs.astype(np.float64)).astype(np.int32)
        attrs = {"axis": 0} if np.ndim(bs) else {}
        return r.add("DequantizeLinear", [r.init(name + "_quantized", bq),
                                          r.init(name + "_quantized_scale", bs),
                                          r.init(name + "_quantized_zero_point",
                                                 np.zeros(np.shape(bs), np.int32))],
                     [name + "_quantized_DequantizeLinear_Output"],
                     name + "_quantized_DequantizeLinear", **attrs)

    renamed = {}  # a conv output that takes its dropped activation's name

    def src(x):
        return qdq_of.get(x, x)

    outputs = {o.name for o in model.graph.output}
    for n in model.graph.node:
        if n.name in r.dropped:
            continue
        ins = [renamed.get(x, x) for x in n.input]
        if n.op_type in ("Conv", "Gemm") and r.value(n.input[1]) is not None:
            out = n.output[0]
            if n.op_type == "Conv":
                out = r.fused_activation(n) or out
            w = r.value(n.input[1])
            axis = 0 if per_channel and n.op_type == "Conv" else None
            _, ws, _ = quant_weight(w, I8, axis=axis)
            new_ins = [qd(ins[0]), weight(n.input[1], w, axis)]
            if len(ins) > 2 and ins[2]:
                new_ins.append(bias(n.input[2], ins[0], ws, axis))
            node = helper.make_node(n.op_type, new_ins, [out], name=n.name)
            node.attribute.extend(n.attribute)
            r.nodes.append(node)
            if out in outputs:  # the graph output itself behind a Q/DQ pair
                pre = out + "_QuantizeLinear_Input"
                node.output[0] = pre
                r.ranges[pre] = r.ranges[out]
                s, zp = r.params(pre)
                ql = r.add("QuantizeLinear", [pre, s, zp], [pre + "_Output"],
                           pre + "_QuantizeLinear")
                r.add("DequantizeLinear", [ql, s, zp], [out], out + "_DequantizeLinear")
        elif n.op_type in ("Add", "GlobalAveragePool"):
            new = [qd(x) for x in ins]
            del n.input[:]
            n.input.extend(new)
            r.nodes.append(n)
        elif n.op_type == "MaxPool":
            r.ranges[n.output[0]] = r.ranges[ins[0]]
            del n.input[:]
            n.input.extend([qd(ins[0])])
            r.nodes.append(n)
        else:
            del n.input[:]
            n.input.extend(ins)
            r.nodes.append(n)
    return r.finish(drop_inits={n.input[1] for n in model.graph.node
                                if n.op_type in ("Conv", "Gemm")} |
                    {n.input[2] for n in model.graph.node
                     if n.op_type in ("Conv", "Gemm") and len(n.input) > 2})


def opset_at_least(model, v):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx") and o.version < v:
            o.version = v
    return model


# --- The models -----------------------------------------------------------------------

@register("unet_dynq", "int8", "the U-Net dynamically quantized (ORT quantize_dynamic form): "
          "DynamicQuantizeLinear + ConvInteger (uint8 weights, zero points) + Cast + Mul "
          "scales + Reshape/Add bias per conv", reference=lambda d: _unet(d),
          heavy=True)
def unet_dynq(dynamic_):
    from unet import unet_model
    return dynamic(unet_model(dynamic_), U8)


@register("unet_dynq_s8", "int8", "the U-Net at 128x128 dynamically quantized with int8 "
          "symmetric weights (ConvInteger uint8 x int8; ORT's kernel for it is ~8x slower "
          "than for uint8 x uint8, hence the smaller image)",
          reference=lambda d: _unet(d, 128), heavy=True)
def unet_dynq_s8(dynamic_):
    return dynamic(_unet(dynamic_, 128), I8)


def _unet(dynamic_, size=256):
    from unet import unet_model
    return unet_model(dynamic_, size=size)


def _tv(name, dynamic_):
    import torchnets
    return getattr(torchnets, name)(dynamic_)


def _bert(dynamic_):
    import gen_models
    m = gen_models.transformer(batch=1, seq=128, hidden=256, heads=4, ffn=1024, layers=4,
                               vocab=1000, max_positions=128, dynamic=dynamic_, opset=14)
    if dynamic_:
        for vi in list(m.graph.input) + list(m.graph.output):
            for d in vi.type.tensor_type.shape.dim:
                if d.dim_param == "batch":
                    d.dim_param = "N"
                elif d.dim_param in ("seq", "sequence"):
                    d.dim_value = 128
    return m


@register("bert_dynq", "int8", "BERT encoder (gen_models.transformer: 4 layers, d 256, 4 "
          "heads, FFN 1024, seq 128) dynamically quantized: DynamicQuantizeLinear + "
          "MatMulInteger (int8 weights) + Cast + Mul scales per MatMul",
          reference=lambda d: _bert(d))
def bert_dynq(dynamic_):
    return dynamic(_bert(dynamic_), I8, ops=("MatMul",))


def _static(build, fmt, per_channel, dynamic_):
    m = build(dynamic_)
    m = opset_at_least(m, 13)
    ranges = calibrate(m, image_feeds(m))
    return qoperator(m, ranges, per_channel) if fmt == "qop" else qdq(m, ranges, per_channel)


@register("resnet18_qop", "int8", "torchvision resnet18 statically quantized, QOperator "
          "form: QuantizeLinear, QLinearConv (int8 weights per tensor, Relu folded), uint8 "
          "MaxPool, DequantizeLinear/Add/QuantizeLinear residuals, QLinearMatMul head",
          reference=lambda d: _tv("resnet18", d),
          heavy=True)
def resnet18_qop(dynamic_):
    from torchnets import resnet18
    return _static(resnet18, "qop", False, dynamic_)


@register("resnet18_qop_pc", "int8", "resnet18 QOperator form with per-channel weight "
          "scales (QLinearConv with a scale and zero point per output channel)",
          reference=lambda d: _tv("resnet18", d),
          heavy=True)
def resnet18_qop_pc(dynamic_):
    from torchnets import resnet18
    return _static(resnet18, "qop", True, dynamic_)


@register("resnet18_qdq", "int8", "resnet18 statically quantized, QDQ form: "
          "QuantizeLinear/DequantizeLinear pairs around every Conv, Add, MaxPool, "
          "GlobalAveragePool and the Gemm; int8 per-channel weights behind a "
          "DequantizeLinear, int32 biases",
          reference=lambda d: _tv("resnet18", d))
def resnet18_qdq(dynamic_):
    from torchnets import resnet18
    return _static(resnet18, "qdq", True, dynamic_)


@register("mobilenet_v2_qdq", "int8", "torchvision mobilenet_v2 statically quantized, QDQ "
          "form (per-channel int8 weights, Clip(0, 6) folded into the conv's output range)",
          reference=lambda d: _tv("mobilenet_v2", d))
def mobilenet_v2_qdq(dynamic_):
    from torchnets import mobilenet_v2
    return _static(mobilenet_v2, "qdq", True, dynamic_)


@register("mobilenet_v2_qop", "int8", "torchvision mobilenet_v2 QOperator form, per-channel "
          "weights: QLinearConv everywhere (depthwise included), residual Add through "
          "DequantizeLinear/QuantizeLinear",
          reference=lambda d: _tv("mobilenet_v2", d),
          heavy=True)
def mobilenet_v2_qop(dynamic_):
    from torchnets import mobilenet_v2
    return _static(mobilenet_v2, "qop", True, dynamic_)


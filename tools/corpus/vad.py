"""A stateful voice-activity model shaped like the popular Silero VAD (v4),
written with onnx.helper as torch's exporter writes a scripted model:

    inputs  input [N, 512] float, sr int64 scalar, h [2, N, 64], c [2, N, 64]
    outputs output [N, 1] (speech probability), hn, cn (the next state)

Main graph: If_12 on rank(input) == 1 (then Unsqueeze, else Identity: the
branches' ranks differ, so the result's rank is known only by evaluating
the condition), then If_33 on sr == 16000: the 16 kHz model; else If_47
on sr == 8000: the 8 kHz model, else a zero probability and the state
unchanged. Each model is a branch holding the STFT as a Conv1d with a
constant cos/sin basis (reflect Pad, Slice, magnitude), a log and a
moving-average normalization, a Conv1d encoder, two LSTM layers (one LSTM
node each, states sliced from h and c, outer-scope weights) and a Conv1d +
Sigmoid decoder averaged over time. The 8 kHz branch nests two more Ifs
(padding the chunk to a multiple of the hop, and inside it a choice of
pad mode): four levels in all.

What exporters leave and onnxc must handle:
- branch outputs without a type: an empty TypeProto (`type {}`) on the
  model branches' `out_*` and `hn_*`, no type field at all on their
  `cn_*` and on the padding branches' outputs;
- If results that no single branch types: If_12 (ranks differ), and the
  Ifs whose branches end in untyped outputs.
`vad_typed` is the same model with every branch output typed as torch
types them (If_12's branches each with their own rank), so that only the
If-rank problem remains.
"""

import math

import numpy as np
import onnx
from onnx import helper, numpy_helper

from common import F, I64, check, const_node, register

HIDDEN = 64
CHUNK = 512


class Sub:
    """Nodes of one (sub)graph, with unique value names."""

    def __init__(self, prefix):
        self.prefix, self.nodes, self.k = prefix, [], 0

    def node(self, op, ins, n_out=1, **attrs):
        self.k += 1
        name = "%s%s_%d" % (self.prefix, op, self.k)
        outs = ["%s_out%d" % (name, i) for i in range(n_out)]
        self.nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, array):
        self.k += 1
        name = "%sConstant_%d" % (self.prefix, self.k)
        self.nodes.append(const_node(name, np.asarray(array)))
        return name


def vi(name, elem=None, shape=None, typed=True, empty=False):
    """A ValueInfoProto. typed=False leaves the type out, as exporters do for
    some If branch outputs: no type field at all, or (empty=True) an empty
    TypeProto, with none of tensor/sequence/map/optional set."""
    if not typed:
        v = onnx.ValueInfoProto()
        v.name = name
        if empty:
            v.type.SetInParent()
        return v
    return helper.make_tensor_value_info(name, elem, shape)


def stft_basis(n_fft):
    bins = n_fft // 2 + 1
    n = np.arange(n_fft)
    window = 0.5 - 0.5 * np.cos(2 * math.pi * n / n_fft)
    k = np.arange(bins)[:, None]
    return np.concatenate([np.cos(2 * math.pi * k * n / n_fft) * window,
                           -np.sin(2 * math.pi * k * n / n_fft) * window])[:, None, :] \
        .astype(np.float32)


class Weights:
    """Outer-scope initializers (the branches read them by name)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.inits = []

    def add(self, name, shape, fan_in, scale=1.0):
        bound = scale * math.sqrt(6.0 / fan_in)
        a = self.rng.uniform(-bound, bound, shape).astype(np.float32)
        self.inits.append(numpy_helper.from_array(a, name))
        return name


def model_branch(name, w, tag, n_fft, hop, batch, typed, x_name):
    """The VAD network for one sample rate, as a branch graph. Reads x_name
    (the chunk), h, c and the weights `tag.*` from the outer scope."""
    s = Sub("/%s/" % tag)
    bins = n_fft // 2 + 1
    # STFT: reflect pad of n_fft/4 at the end, Conv1d with the basis.
    x = s.node("Unsqueeze", [x_name, s.const(np.array([1], np.int64))])
    x = s.node("Pad", [x, s.const(np.array([0, 0, 0, 0, 0, hop], np.int64))], mode="reflect")
    spec = s.node("Conv", [x, s.const(stft_basis(n_fft))], strides=[hop], kernel_shape=[n_fft])
    re = s.node("Slice", [spec, s.const(np.array([0], np.int64)),
                          s.const(np.array([bins], np.int64)), s.const(np.array([1], np.int64))])
    im = s.node("Slice", [spec, s.const(np.array([bins], np.int64)),
                          s.const(np.array([2 * bins], np.int64)),
                          s.const(np.array([1], np.int64))])
    two = s.const(np.array(2.0, np.float32))
    mag = s.node("Sqrt", [s.node("Add", [s.node("Pow", [re, two]), s.node("Pow", [im, two])])])
    # Adaptive normalization: log, mean over frequency, a moving average
    # over time (Conv1d with a constant kernel), subtract.
    lg = s.node("Log", [s.node("Add", [s.node("Mul", [mag, s.const(np.float32(1048576.0))]),
                                       s.const(np.float32(1.0))])])
    mean = s.node("ReduceMean", [lg], axes=[1], keepdims=1)
    mean = s.node("Pad", [mean, s.const(np.array([0, 0, 3, 0, 0, 3], np.int64))],
                  mode="reflect")
    mean = s.node("Conv", [mean, s.const(np.full((1, 1, 7), 1.0 / 7, np.float32))],
                  kernel_shape=[7])
    mean = s.node("ReduceMean", [mean], axes=[-1], keepdims=1)
    x = s.node("Sub", [lg, mean])
    # Encoder: Conv1d 3 (strides 1, 2, 2, 1) + ReLU.
    for i, (cout, stride) in enumerate(((128, 1), (64, 2), (64, 2), (128, 1))):
        x = s.node("Conv", [x, "%s.enc%d.weight" % (tag, i), "%s.enc%d.bias" % (tag, i)],
                   kernel_shape=[3], pads=[1, 1], strides=[stride])
        x = s.node("Relu", [x])
    # Two LSTM layers over [T, N, 128], states from h and c [2, N, 64].
    x = s.node("Transpose", [x], perm=[2, 0, 1])
    hs, cs = [], []
    for layer in range(2):
        lo = s.const(np.array([layer], np.int64))
        hi = s.const(np.array([layer + 1], np.int64))
        zero = s.const(np.array([0], np.int64))
        h0 = s.node("Slice", ["h", lo, hi, zero])
        c0 = s.node("Slice", ["c", lo, hi, zero])
        y, yh, yc = s.node("LSTM", [x, "%s.lstm%d.W" % (tag, layer), "%s.lstm%d.R" % (tag, layer),
                                    "%s.lstm%d.B" % (tag, layer), "", h0, c0], n_out=3,
                           hidden_size=HIDDEN)
        x = s.node("Squeeze", [y, s.const(np.array([1], np.int64))])
        hs.append(yh)
        cs.append(yc)
    hn = s.node("Concat", hs, axis=0)
    cn = s.node("Concat", cs, axis=0)
    # Decoder: ReLU, Conv1d 1x1 to one channel, Sigmoid, mean over time.
    x = s.node("Relu", [s.node("Transpose", [x], perm=[1, 2, 0])])
    x = s.node("Conv", [x, "%s.dec.weight" % tag, "%s.dec.bias" % tag], kernel_shape=[1])
    x = s.node("Sigmoid", [x])
    out = s.node("ReduceMean", [x], axes=[2], keepdims=0)
    s.nodes.append(helper.make_node("Identity", [out], ["out_" + tag], name="/%s/out" % tag))
    s.nodes.append(helper.make_node("Identity", [hn], ["hn_" + tag], name="/%s/hn" % tag))
    s.nodes.append(helper.make_node("Identity", [cn], ["cn_" + tag], name="/%s/cn" % tag))
    outs = [vi("out_" + tag, F, [batch, 1], typed, empty=True),
            vi("hn_" + tag, F, [2, batch, HIDDEN], typed, empty=True),
            vi("cn_" + tag, F, [2, batch, HIDDEN], typed)]
    return helper.make_graph(s.nodes, name, [], outs)


def weights(w, tag, bins):
    cin = bins
    for i, cout in enumerate((128, 64, 64, 128)):
        w.add("%s.enc%d.weight" % (tag, i), (cout, cin, 3), cin * 3)
        w.add("%s.enc%d.bias" % (tag, i), (cout,), cin * 3, 0.1)
        cin = cout
    for layer in range(2):
        n_in = 128 if layer == 0 else HIDDEN
        w.add("%s.lstm%d.W" % (tag, layer), (1, 4 * HIDDEN, n_in), n_in, 0.5)
        w.add("%s.lstm%d.R" % (tag, layer), (1, 4 * HIDDEN, HIDDEN), HIDDEN, 0.5)
        w.add("%s.lstm%d.B" % (tag, layer), (1, 8 * HIDDEN), HIDDEN, 0.1)
    w.add("%s.dec.weight" % tag, (1, HIDDEN, 1), HIDDEN)
    w.add("%s.dec.bias" % tag, (1,), HIDDEN, 0.1)


def pad_branches(batch, typed, x_name):
    """The 8 kHz path's chunk handling (levels 3 and 4): If_52 on
    len % 32 == 0 (then Identity, else If_55 on len < 256: constant pad,
    else reflect pad to the next multiple)."""
    def ident(name, src, out):
        return helper.make_graph([helper.make_node("Identity", [src], [out], name=name)],
                                 name, [], [vi(out, F, [batch, None], typed)])

    s = Sub("/pad/")
    length = s.node("Gather", [s.node("Shape", [x_name]), s.const(np.array(1, np.int64))],
                    axis=0)
    rem = s.node("Mod", [length, s.const(np.array(32, np.int64))])
    padn = s.node("Sub", [s.const(np.array(32, np.int64)), rem])
    pads = s.node("Concat", [s.const(np.array([0], np.int64)), s.const(np.array([0], np.int64)),
                             s.const(np.array([0], np.int64)),
                             s.node("Unsqueeze", [padn, s.const(np.array([0], np.int64))])],
                  axis=0)
    const_pad = helper.make_graph(
        [helper.make_node("Pad", [x_name, pads], ["x_cpad"], name="/pad/Pad_c", mode="constant")],
        "sub_graph57", [], [vi("x_cpad", F, [batch, None], typed)])
    refl_pad = helper.make_graph(
        [helper.make_node("Pad", [x_name, pads], ["x_rpad"], name="/pad/Pad_r", mode="reflect")],
        "sub_graph58", [], [vi("x_rpad", F, [batch, None], typed)])
    short = s.node("Less", [length, s.const(np.array(256, np.int64))])
    inner = helper.make_graph(
        s.nodes[:] + [helper.make_node("If", [short], ["x_padded"], name="If_55",
                                       then_branch=const_pad, else_branch=refl_pad)],
        "sub_graph56", [], [vi("x_padded", F, [batch, None], typed)])
    s2 = Sub("/pad2/")
    length2 = s2.node("Gather", [s2.node("Shape", [x_name]), s2.const(np.array(1, np.int64))],
                      axis=0)
    aligned = s2.node("Equal", [s2.node("Mod", [length2, s2.const(np.array(32, np.int64))]),
                                s2.const(np.array(0, np.int64))])
    s2.nodes.append(helper.make_node("If", [aligned], ["x8"], name="If_52",
                                     then_branch=ident("sub_graph53", x_name, "x_same"),
                                     else_branch=inner))
    return s2.nodes


def vad_model(dynamic, typed):
    batch = "N" if dynamic else 1
    w = Weights(0)
    weights(w, "m16", 129)
    weights(w, "m8", 65)
    main = Sub("/")
    # Level 1: rank(input) == 1 -> Unsqueeze (what `if x.dim() == 1` exports).
    rank = main.node("Size", [main.node("Shape", ["input"])])
    is1d = main.node("Equal", [rank, main.const(np.array(1, np.int64))])
    then_u = helper.make_graph(
        [const_node("/unsq_axes", np.array([0], np.int64)),
         helper.make_node("Unsqueeze", ["input", "/unsq_axes"], ["x_unsq"], name="/Unsqueeze")],
        "sub_graph13", [], [vi("x_unsq", F, [1, batch, CHUNK], typed)])
    else_u = helper.make_graph(
        [helper.make_node("Identity", ["input"], ["x_id"], name="/Identity")],
        "sub_graph14", [], [vi("x_id", F, [batch, CHUNK], typed)])
    main.nodes.append(helper.make_node("If", [is1d], ["x"], name="If_12", then_branch=then_u,
                                       else_branch=else_u))
    # Level 2: the model for the sample rate.
    is16 = main.node("Equal", ["sr", main.const(np.array(16000, np.int64))])
    m16 = model_branch("sub_graph34", w, "m16", 256, 64, batch, typed, "x")
    # 8 kHz: levels 3-4 pad the chunk, then the 8 kHz model.
    m8 = model_branch("sub_graph49", w, "m8", 128, 32, batch, typed, "x8")
    m8 = helper.make_graph(pad_branches(batch, typed, "x") + list(m8.node), "sub_graph49", [],
                           list(m8.output))
    zero = helper.make_graph(
        [const_node("/zero_p", np.zeros((1, 1), np.float32)),
         helper.make_node("Shape", ["x"], ["/x_shape"], name="/Shape_z"),
         const_node("/z_idx", np.array([0], np.int64)),
         helper.make_node("Gather", ["/x_shape", "/z_idx"], ["/n"], name="/Gather_z", axis=0),
         const_node("/one", np.array([1], np.int64)),
         helper.make_node("Concat", ["/n", "/one"], ["/p_shape"], name="/Concat_z", axis=0),
         helper.make_node("Expand", ["/zero_p", "/p_shape"], ["p0"], name="/Expand_z"),
         helper.make_node("Identity", ["h"], ["h_same"], name="/Identity_h"),
         helper.make_node("Identity", ["c"], ["c_same"], name="/Identity_c")],
        "sub_graph50", [], [vi("p0", F, [batch, 1]), vi("h_same", F, [2, batch, HIDDEN]),
                            vi("c_same", F, [2, batch, HIDDEN])])
    is8 = helper.make_node("Equal", ["sr", "/sr8"], ["/is8"], name="/Equal_8")
    other = helper.make_graph(
        [const_node("/sr8", np.array(8000, np.int64)), is8,
         helper.make_node("If", ["/is8"], ["p8", "h8", "c8"], name="If_47", then_branch=m8,
                          else_branch=zero)],
        "sub_graph48", [], [vi("p8", F, [batch, 1], typed), vi("h8", F, [2, batch, HIDDEN], typed),
                            vi("c8", F, [2, batch, HIDDEN], typed)])
    main.nodes.append(helper.make_node("If", [is16], ["output", "hn", "cn"], name="If_33",
                                       then_branch=m16, else_branch=other))
    graph = helper.make_graph(
        main.nodes, "torch-jit-export",
        [vi("input", F, [batch, CHUNK]), vi("sr", I64, []),
         vi("h", F, [2, batch, HIDDEN]), vi("c", F, [2, batch, HIDDEN])],
        [vi("output", F, [batch, 1]), vi("hn", F, [2, batch, HIDDEN]),
         vi("cn", F, [2, batch, HIDDEN])],
        initializer=w.inits)
    m = helper.make_model(graph, producer_name="pytorch", producer_version="1.12.1",
                          opset_imports=[helper.make_opsetid("", 15)])
    m.ir_version = 8
    helper.set_model_props(m, {"onnxc.gen.inputs": '{"sr": {"int_range": [16000, 16001]}}'})
    # The checker would reject the untyped branch outputs: check the typed
    # model only (the untyped one differs in those ValueInfos alone).
    return check(m) if typed else m


@register("vad", "fp32", "Silero-VAD-shaped stateful model (input [N,512], sr, h/c [2,N,64] "
          "-> prob, hn, cn): If on rank, If on sr 16000/8000 selecting a branch with STFT "
          "as Conv1d, Conv1d encoder, 2 LSTMs, decoder; nested Ifs 4 deep; branch outputs "
          "without a type, as exporters leave them; opset 15; run at sr 16000 and 8000",
          variants=[{"sr": np.array(8000, np.int64)}])
def vad(dynamic):
    return vad_model(dynamic, typed=False)


@register("vad_typed", "fp32", "the same VAD with every If branch output typed (If_12's "
          "branches of different ranks remain: its result is unranked by inference)",
          variants=[{"sr": np.array(8000, np.int64)}])
def vad_typed(dynamic):
    return vad_model(dynamic, typed=True)


# --- Minimal reproducers of the two failures ---------------------------------

def _tiny_if(typed):
    """Y = If(cond, then: X + 1, else: X * 2) * 0.5, X [N, 4]. typed=False: the
    then branch's output has an empty TypeProto; typed=True with the
    branches of different ranks (then Unsqueeze), as If_12 of the VAD."""
    then_nodes = [const_node("one", np.ones((1, 4), np.float32)),
                  helper.make_node("Add", ["X", "one"], ["t"], name="/then/Add")]
    then_out = vi("t", typed=False, empty=True)
    if typed:
        then_nodes.append(const_node("ax", np.array([0], np.int64)))
        then_nodes.append(helper.make_node("Unsqueeze", ["t", "ax"], ["tu"], name="/then/Unsq"))
        then_out = vi("tu", F, [1, "N", 4])
    else_g = helper.make_graph(
        [const_node("two", np.full((1, 4), 2.0, np.float32)),
         helper.make_node("Mul", ["X", "two"], ["e"], name="/else/Mul")],
        "sub_graph2", [], [vi("e", F, ["N", 4])])
    then_g = helper.make_graph(then_nodes, "sub_graph1", [], [then_out])
    return helper.make_graph(
        [helper.make_node("If", ["cond"], ["y_if"], name="If_0", then_branch=then_g,
                          else_branch=else_g),
         const_node("half", np.full((1, 4), 0.5, np.float32)),
         helper.make_node("Mul", ["y_if", "half"], ["Y"], name="/Mul")],
        "tiny_if", [vi("X", F, ["N", 4]), vi("cond", onnx.TensorProto.BOOL, [])],
        [vi("Y", F, ["N", 4])])


def tiny_if_model(dynamic, typed):
    g = _tiny_if(typed)
    if not dynamic:
        for v in list(g.input) + list(g.output):
            for d in v.type.tensor_type.shape.dim:
                if d.dim_param == "N":
                    d.dim_value = 1
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])
    m.ir_version = 8
    helper.set_model_props(m, {"onnxc.gen.inputs": '{"cond": {"int_range": [0, 1]}}'})
    return m


@register("if_untyped", "fp32", "reproducer of the VAD's first failure: an If whose then "
          "branch output has an empty TypeProto (Y = If(cond, X + 1, X * 2) * 0.5); cond false",
          variants=[{"cond": np.array(True)}], bench=False)
def if_untyped(dynamic):
    return tiny_if_model(dynamic, typed=False)


@register("if_rank", "fp32", "reproducer of vad_typed's failure: an If whose branches "
          "have different ranks (then Unsqueeze [1,N,4], else [N,4]), run with cond false",
          bench=False)
def if_rank(dynamic):
    return tiny_if_model(dynamic, typed=True)

#!/usr/bin/python3
"""The transformer ops of opsets 23-25 (Attention, RMSNormalization,
RotaryEmbedding, TensorScatter, Swish) with ONNX Runtime 1.30 as the
oracle, in the layout of gen_vision_ops.py (write DIR, then oracle DIR
CMD...).

Attention: MHA, GQA and MQA; 3-D and 4-D inputs; boolean and additive
masks of every rank with broadcasting, a fully masked row; is_causal
(square, with a KV cache, cross attention); past_key/past_value with
present_key/present_value; softcap; scale; qk_matmul_output in its four
modes; softmax_precision; float16. RMSNormalization: axis, epsilon, scale
broadcasting, float16 and double. RotaryEmbedding: half-split and
interleaved, partial rotation, position_ids given or not, 3-D with
num_heads and 4-D, float16. TensorScatter: linear and circular, with and
without write_indices, axes 1 and -2, int64 data. Swish: alpha, float16,
double.

Variants ORT 1.30 does not run are compared with numpy ports of the ONNX
reference implementation instead (`numpy_reference` in the case
directory, "NAME: numpy reference" in the oracle's log): a 1-D mask
(ORT takes ranks 2-4), Attention-24's masks shorter than the keys (ORT
wants the full length), float16 Attention (ORT keeps float16
intermediates, several ulp off; the reference is float64 rounded once), Attention-25's sliding windows (ORT 1.30 stops at
Attention-24), and the
double cases of ops ORT registers for float and float16 only.

`decoder_2layer_kv_cache` is a whole model: a 2-layer decoder as the
PyTorch 2.x exporter writes it at opset 23 (token embedding Gather,
RMSNormalization, MatMul projections, Reshape/Transpose into heads,
RotaryEmbedding on Q and K with position_ids, Attention with GQA,
is_causal and the KV cache, the output projection and residual Adds, a
SiLU MLP as Sigmoid + Mul), the caches graph inputs and outputs.
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402

NP_TO_ONNX = {np.dtype(np.float32): T.FLOAT, np.dtype(np.float64): T.DOUBLE,
              np.dtype(np.float16): T.FLOAT16, np.dtype(np.int64): T.INT64,
              np.dtype(np.bool_): T.BOOL}


def model(name, op, inputs, attrs, outputs, opset, inits=()):
    """One node `op`: `inputs` [(name, array or None)] (None: absent;
    names in `inits` become initializers), `outputs` [(name, elem type)]
    (a None name: the output is not requested)."""
    node_inputs = [n if a is not None else "" for n, a in inputs]
    while node_inputs and node_inputs[-1] == "":
        node_inputs.pop()
    node_outputs = [n or "" for n, _ in outputs]
    while node_outputs and node_outputs[-1] == "":
        node_outputs.pop()
    graph_inputs = [helper.make_tensor_value_info(n, NP_TO_ONNX[a.dtype], a.shape)
                    for n, a in inputs if a is not None and n not in inits]
    node = helper.make_node(op, node_inputs, node_outputs, **attrs)
    graph = helper.make_graph(
        [node], name, graph_inputs,
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs if n],
        [numpy_helper.from_array(a, n) for n, a in inputs if n in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    return m, [a for n, a in inputs if a is not None and n not in inits]


# --- numpy references (ports of the spec's semantics) -----------------------

def ref_attention(q, k, v, mask=None, past_k=None, past_v=None, nonpad=None,
                  scale=None, is_causal=0, q_num_heads=None, kv_num_heads=None,
                  softcap=0.0, mode=0, left=-1, right=-1):
    """Y, present_key, present_value, qk_matmul_output, in float64."""
    dt = q.dtype
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    three_d = q.ndim == 3
    if three_d:
        def heads(a, h):
            b, s, hid = a.shape
            return a.reshape(b, s, h, hid // h).transpose(0, 2, 1, 3)
        q, k, v = heads(q, q_num_heads), heads(k, kv_num_heads), heads(v, kv_num_heads)
    if past_k is not None:
        k = np.concatenate([past_k.astype(np.float64), k], axis=2)
        v = np.concatenate([past_v.astype(np.float64), v], axis=2)
    present_k, present_v = k, v
    b, hq, sq, d = q.shape
    hkv, t = k.shape[1], k.shape[2]
    if scale is None:
        scale = 1 / np.sqrt(d)
    rep = hq // hkv
    kk, vv = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    scores = (q * np.sqrt(scale)) @ (kk * np.sqrt(scale)).transpose(0, 1, 3, 2)
    capped = softcap * np.tanh(scores / softcap) if softcap > 0 else scores
    bias = np.zeros((b, hq, sq, t))
    if mask is not None:
        m = mask
        pad = t - m.shape[-1]
        if pad > 0:
            m = np.concatenate(
                [m, np.full(m.shape[:-1] + (pad,), False if m.dtype == np.bool_
                            else -np.inf, m.dtype)], axis=-1)
        m = np.where(m, 0.0, -np.inf) if m.dtype == np.bool_ else m.astype(np.float64)
        bias = bias + m
    if is_causal or left >= 0 or right >= 0 or nonpad is not None:
        if past_k is not None:
            offset = np.full(b, past_k.shape[2])
        elif nonpad is not None:
            offset = nonpad - sq
        else:
            offset = np.zeros(b, np.int64)
        i = np.arange(sq).reshape(1, sq, 1)
        j = np.arange(t).reshape(1, 1, t)
        diff = i + offset.reshape(b, 1, 1) - j
        ok = np.ones((b, sq, t), bool)
        if is_causal:
            ok &= diff >= 0
        if left >= 0:
            ok &= diff <= left
        if right >= 0:
            ok &= -diff <= right
        if nonpad is not None:
            ok &= j < nonpad.reshape(b, 1, 1)
        bias = bias + np.where(ok, 0.0, -np.inf)[:, None]
    z = capped + bias
    zmax = z.max(axis=-1, keepdims=True)
    e = np.exp(z - np.where(np.isneginf(zmax), 0, zmax))
    s = e.sum(axis=-1, keepdims=True)
    p = e / np.where(s == 0, 1, s)
    p = np.where(np.isneginf(bias.max(axis=-1, keepdims=True)), 0, p)
    y = p @ vv
    if three_d:
        y = y.transpose(0, 2, 1, 3).reshape(b, sq, -1)
    qk = [scores, capped, z, p][mode]
    return [a.astype(dt) for a in (y, present_k, present_v, qk)]


def ref_rms(x, scale, axis=-1, epsilon=1e-5):
    axes = tuple(range(axis % x.ndim, x.ndim))
    xf = x.astype(np.float64)
    rms = np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    return ((xf / rms) * scale.astype(np.float64)).astype(scale.dtype)


def ref_swish(x, alpha=1.0):
    xf = x.astype(np.float64)
    return (xf / (1 + np.exp(-alpha * xf))).astype(x.dtype)


# --- cases --------------------------------------------------------------------

def swish_cases(rng):
    for name, dt, alpha, opset in [("f32", np.float32, None, 24),
                                   ("f32_alpha", np.float32, 0.375, 24),
                                   ("f16", np.float16, 1.5, 24),
                                   ("f64", np.float64, 0.5, 25)]:
        x = (rng.standard_normal((3, 4, 7)) * 3).astype(dt)
        attrs = {} if alpha is None else {"alpha": alpha}
        m, ins = model("swish_" + name, "Swish", [("x", x)], attrs,
                       [("y", NP_TO_ONNX[x.dtype])], opset)
        ref = [ref_swish(x, 1.0 if alpha is None else alpha)] if dt == np.float64 else None
        yield "swish_" + name, m, ins, ref


def rms_cases(rng):
    specs = [  # name, x shape, scale shape, attrs, dtype
        ("last_axis", (2, 5, 16), (16,), {}, np.float32),
        ("axis1_eps", (2, 3, 4, 5), (3, 4, 5), {"axis": 1, "epsilon": 1e-3}, np.float32),
        ("scale_broadcast", (2, 3, 4, 6), (1, 6), {"axis": -2}, np.float32),
        ("f16", (2, 4, 32), (32,), {}, np.float16),
        ("f64", (3, 10), (10,), {"axis": 0}, np.float64),
    ]
    for name, xs, ss, attrs, dt in specs:
        x = (rng.standard_normal(xs) * 2 + 0.5).astype(dt)
        s = rng.uniform(0.5, 1.5, ss).astype(dt)
        m, ins = model("rms_" + name, "RMSNormalization", [("x", x), ("scale", s)],
                       attrs, [("y", NP_TO_ONNX[x.dtype])], 23)
        ref = [ref_rms(x, s, attrs.get("axis", -1), attrs.get("epsilon", 1e-5))] \
            if dt == np.float64 else None
        yield "rms_" + name, m, ins, ref


def rope_cache(max_pos, half, dt):
    inv = 1.0 / (10000 ** (np.arange(half) / half))
    ang = np.arange(max_pos)[:, None] * inv[None, :]
    return np.cos(ang).astype(dt), np.sin(ang).astype(dt)


def rope_cases(rng):
    # name, x shape, attrs, position ids?, dtype
    specs = [
        ("4d_half", (2, 3, 5, 8), {}, True, np.float32),
        ("4d_interleaved", (2, 3, 5, 8), {"interleaved": 1}, True, np.float32),
        ("3d_num_heads", (2, 5, 24), {"num_heads": 3}, True, np.float32),
        ("partial", (1, 2, 4, 16), {"rotary_embedding_dim": 8}, True, np.float32),
        ("partial_interleaved_3d", (2, 3, 32),
         {"rotary_embedding_dim": 4, "interleaved": 1, "num_heads": 2}, True, np.float32),
        ("no_position_ids", (2, 2, 6, 8), {}, False, np.float32),
        ("f16", (1, 4, 6, 16), {}, True, np.float16),
    ]
    for name, xs, attrs, with_pos, dt in specs:
        x = rng.standard_normal(xs).astype(dt)
        b = xs[0]
        s = xs[2] if len(xs) == 4 else xs[1]
        head = xs[3] if len(xs) == 4 else xs[2] // attrs["num_heads"]
        half = attrs.get("rotary_embedding_dim", 0) // 2 or head // 2
        cos, sin = rope_cache(16, half, dt)
        if with_pos:
            pos = rng.integers(0, 16, (b, s)).astype(np.int64)
            ins = [("x", x), ("cos", cos), ("sin", sin), ("pos", pos)]
        else:
            pos = rng.integers(0, 16, (b, s))
            ins = [("x", x), ("cos", cos[pos]), ("sin", sin[pos])]
        m, arrs = model("rope_" + name, "RotaryEmbedding", ins, attrs,
                        [("y", NP_TO_ONNX[x.dtype])], 23)
        yield "rope_" + name, m, arrs, None


def scatter_cases(rng):
    f = np.float32
    # name, cache shape, update shape, attrs, write indices
    specs = [
        ("linear_prefill", (2, 3, 8, 4), (2, 3, 5, 4), {}, None),
        ("linear_decode", (2, 3, 8, 4), (2, 3, 1, 4), {}, [3, 7]),
        ("linear_axis1", (3, 6, 5), (3, 2, 5), {"axis": 1}, [0, 2, 4]),
        ("circular_wrap", (2, 2, 6, 3), (2, 2, 4, 3), {"mode": "circular"}, [4, 1]),
        ("circular_big_index", (2, 5, 2), (2, 3, 2), {"mode": "circular", "axis": 1},
         [13, 5]),
    ]
    for name, cs, us, attrs, w in specs:
        past = rng.standard_normal(cs).astype(f)
        upd = rng.standard_normal(us).astype(f)
        ins = [("past", past), ("update", upd)]
        if w is not None:
            ins.append(("w", np.array(w, np.int64)))
        m, arrs = model("tensorscatter_" + name, "TensorScatter", ins, attrs,
                        [("y", T.FLOAT)], 24)
        yield "tensorscatter_" + name, m, arrs, None
    past = rng.integers(-9, 9, (2, 4, 3)).astype(np.int64)
    upd = rng.integers(-9, 9, (2, 2, 3)).astype(np.int64)
    m, arrs = model("tensorscatter_int64", "TensorScatter",
                    [("past", past), ("update", upd), ("w", np.array([1, 2], np.int64))],
                    {"axis": 1}, [("y", T.INT64)], 24)
    yield "tensorscatter_int64", m, arrs, None


def attention_cases(rng):
    f = np.float32

    def arr(*shape, dt=f):
        return rng.standard_normal(shape).astype(dt)

    # (name, inputs dict, attrs, outputs requested (of y, pk, pv, qk), opset,
    #  numpy reference?)
    b, s, t = 2, 4, 6
    causal_rows = np.tril(np.ones((s, t), bool), 2)
    bool_mask_row_off = np.ones((b, 1, s, t), bool)
    bool_mask_row_off[1, 0, 2, :] = False  # a fully masked query row
    specs = [
        ("mha_4d", dict(Q=arr(b, 3, s, 8), K=arr(b, 3, t, 8), V=arr(b, 3, t, 8)),
         {}, 1, 23),
        ("mha_3d_bool_mask_2d",
         dict(Q=arr(b, s, 24), K=arr(b, t, 24), V=arr(b, t, 24),
              attn_mask=causal_rows), {"q_num_heads": 3, "kv_num_heads": 3}, 1, 23),
        ("gqa_4d_float_mask_causal",
         dict(Q=arr(b, 4, s, 8), K=arr(b, 2, s, 8), V=arr(b, 2, s, 6),
              attn_mask=arr(b, 1, s, s)), {"is_causal": 1}, 1, 23),
        ("mqa_3d_causal_kv_cache",
         dict(Q=arr(b, 1, 32), K=arr(b, 1, 8), V=arr(b, 1, 8),
              past_key=arr(b, 1, 5, 8), past_value=arr(b, 1, 5, 8)),
         {"q_num_heads": 4, "kv_num_heads": 1, "is_causal": 1}, 3, 23),
        ("gqa_4d_kv_cache_prefill_causal",
         dict(Q=arr(1, 4, 3, 8), K=arr(1, 2, 3, 8), V=arr(1, 2, 3, 8),
              past_key=arr(1, 2, 2, 8), past_value=arr(1, 2, 2, 8)),
         {"is_causal": 1}, 3, 23),
        ("cross_3d", dict(Q=arr(b, 3, 16), K=arr(b, 7, 16), V=arr(b, 7, 12)),
         {"q_num_heads": 2, "kv_num_heads": 2}, 1, 23),
        ("bool_mask_4d_masked_row",
         dict(Q=arr(b, 1, s, 8), K=arr(b, 1, t, 8), V=arr(b, 1, t, 8),
              attn_mask=bool_mask_row_off), {}, 1, 23),
        ("mask_3d_heads", dict(Q=arr(1, 2, s, 4), K=arr(1, 2, t, 4),
                               V=arr(1, 2, t, 4), attn_mask=arr(2, s, t)), {}, 1, 23),
        ("scale_softcap", dict(Q=arr(b, 2, s, 8) * 4, K=arr(b, 2, t, 8) * 4,
                               V=arr(b, 2, t, 8)),
         {"scale": 0.3, "softcap": 5.0}, 1, 23),
    ]
    for mode in range(4):
        specs.append((
            "qk_output_mode%d" % mode,
            dict(Q=arr(b, 2, s, 8) * 3, K=arr(b, 2, t, 8) * 3, V=arr(b, 2, t, 8),
                 attn_mask=arr(b, 1, s, t)),
            {"qk_matmul_output_mode": mode, "softcap": 4.0} if mode else
            {"qk_matmul_output_mode": mode}, 4, 23))
    specs.append(("softmax_precision_f32",
                  dict(Q=arr(b, 2, s, 8), K=arr(b, 2, t, 8), V=arr(b, 2, t, 8)),
                  {"softmax_precision": 1}, 1, 23))
    for name, ins, attrs, nout, opset in specs:
        yield attention_case(name, ins, attrs, nout, opset, None)
    # float16: ORT 1.30 keeps float16 intermediates (its Y is up to 4.6 ulp
    # from the float64 result here); the reference is computed in float64
    # and rounded once.
    yield attention_case(
        "f16_causal_3d",
        dict(Q=arr(b, s, 16, dt=np.float16), K=arr(b, s, 16, dt=np.float16),
             V=arr(b, s, 16, dt=np.float16)),
        {"q_num_heads": 2, "kv_num_heads": 2, "is_causal": 1}, 1, 23,
        dict(is_causal=1))
    nonpad = np.array([5, 3], np.int64)
    yield attention_case(
        "nonpad_causal_opset24",
        dict(Q=arr(b, 2, 2, 8), K=arr(b, 2, t, 8), V=arr(b, 2, t, 8),
             nonpad_kv_seqlen=nonpad), {"is_causal": 1}, 1, 24, None)
    # Numpy references: what ORT 1.30 does not run.
    m1 = arr(t)  # ORT 1.30 takes masks of rank 2 to 4 only
    yield attention_case(
        "mask_1d", dict(Q=arr(1, 2, s, 4), K=arr(1, 2, t, 4), V=arr(1, 2, t, 4),
                        attn_mask=m1), {}, 1, 23, dict(mask=m1))
    short = rng.standard_normal((b, 1, s, 4)).astype(f)
    yield attention_case(
        "short_mask_opset24",
        dict(Q=arr(b, 2, s, 8), K=arr(b, 2, t, 8), V=arr(b, 2, t, 8),
             attn_mask=short), {}, 1, 24, dict(mask=short))
    yield attention_case(
        "window_opset25",
        dict(Q=arr(b, 2, s, 8), K=arr(b, 2, s + 2, 8), V=arr(b, 2, s + 2, 8)),
        {"left_window_size": 1, "right_window_size": 2}, 1, 25,
        dict(left=1, right=2))
    yield attention_case(
        "window_causal_cache_opset25",
        dict(Q=arr(b, 4, 2, 8), K=arr(b, 2, 2, 8), V=arr(b, 2, 2, 8),
             past_key=arr(b, 2, 4, 8), past_value=arr(b, 2, 4, 8)),
        {"left_window_size": 2, "is_causal": 1}, 3, 25,
        dict(left=2, is_causal=1))


ATT_INPUTS = ["Q", "K", "V", "attn_mask", "past_key", "past_value",
              "nonpad_kv_seqlen"]
ATT_OUTPUTS = ["Y", "present_key", "present_value", "qk_matmul_output"]


def attention_case(name, ins, attrs, nout, opset, ref_args):
    elt = NP_TO_ONNX[ins["Q"].dtype]
    inputs = [(n, ins.get(n)) for n in ATT_INPUTS]
    outputs = [(n if i < nout else None, elt) for i, n in enumerate(ATT_OUTPUTS)]
    if nout == 4 and "past_key" not in ins:
        outputs[1] = outputs[2] = (None, elt)
    m, arrs = model("attention_" + name, "Attention", inputs, attrs, outputs, opset)
    ref = None
    if ref_args is not None:
        kw = dict(ref_args)
        kw.pop("nonpad", None), kw.pop("mask", None)
        r = ref_attention(ins["Q"], ins["K"], ins["V"], mask=ins.get("attn_mask"),
                          past_k=ins.get("past_key"), past_v=ins.get("past_value"),
                          nonpad=ins.get("nonpad_kv_seqlen"),
                          q_num_heads=attrs.get("q_num_heads"),
                          kv_num_heads=attrs.get("kv_num_heads"),
                          scale=attrs.get("scale"), softcap=attrs.get("softcap", 0.0),
                          mode=attrs.get("qk_matmul_output_mode", 0), **kw)
        ref = [r[i] for i, (n, _) in enumerate(outputs) if n]
    return "attention_" + name, m, arrs, ref


# --- the whole model ------------------------------------------------------------

def decoder_model(rng, layers=2, vocab=50, hidden=32, heads=4, kv_heads=2,
                  ffn=64, max_pos=64):
    """A decoder as torch.onnx (dynamo, opset 23) writes a Llama-style
    block: B and S and the past length symbolic."""
    f = np.float32
    d = hidden // heads
    nodes, inits = [], []

    def init(name, a):
        inits.append(numpy_helper.from_array(a.astype(a.dtype), name))
        return name

    def w(name, *shape):
        return init(name, (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(f))

    def node(op, ins, outs, **kw):
        nodes.append(helper.make_node(op, ins, outs, name=outs[0] + "_node", **kw))
        return outs[0]

    cos, sin = rope_cache(max_pos, d // 2, f)
    init("cos_cache", cos)
    init("sin_cache", sin)
    init("emb", rng.standard_normal((vocab, hidden)).astype(f))
    init("shape_heads", np.array([0, 0, heads, d], np.int64))
    init("shape_kv", np.array([0, 0, kv_heads, d], np.int64))
    init("shape_hidden", np.array([0, 0, hidden], np.int64))
    x = node("Gather", ["emb", "input_ids"], ["embed"])
    graph_inputs = [
        helper.make_tensor_value_info("input_ids", T.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("position_ids", T.INT64, ["batch", "seq"])]
    graph_outputs = []
    for li in range(layers):
        p = "layers.%d." % li
        for kind in ("key", "value"):
            graph_inputs.append(helper.make_tensor_value_info(
                "past_%s.%d" % (kind, li), T.FLOAT, ["batch", kv_heads, "past", d]))
        init(p + "input_layernorm.weight", rng.uniform(0.8, 1.2, hidden).astype(f))
        init(p + "post_attention_layernorm.weight", rng.uniform(0.8, 1.2, hidden).astype(f))
        h = node("RMSNormalization", [x, p + "input_layernorm.weight"],
                 [p + "rms_1"], epsilon=1e-6, axis=-1)
        qp = node("MatMul", [h, w(p + "q_proj.weight", hidden, hidden)], [p + "q_proj"])
        kp = node("MatMul", [h, w(p + "k_proj.weight", hidden, kv_heads * d)], [p + "k_proj"])
        vp = node("MatMul", [h, w(p + "v_proj.weight", hidden, kv_heads * d)], [p + "v_proj"])
        q4 = node("Transpose", [node("Reshape", [qp, "shape_heads"], [p + "q_view"])],
                  [p + "q_t"], perm=[0, 2, 1, 3])
        k4 = node("Transpose", [node("Reshape", [kp, "shape_kv"], [p + "k_view"])],
                  [p + "k_t"], perm=[0, 2, 1, 3])
        v4 = node("Transpose", [node("Reshape", [vp, "shape_kv"], [p + "v_view"])],
                  [p + "v_t"], perm=[0, 2, 1, 3])
        qr = node("RotaryEmbedding", [q4, "cos_cache", "sin_cache", "position_ids"],
                  [p + "q_rope"])
        kr = node("RotaryEmbedding", [k4, "cos_cache", "sin_cache", "position_ids"],
                  [p + "k_rope"])
        att = node("Attention", [qr, kr, v4, "", "past_key.%d" % li,
                                 "past_value.%d" % li],
                   [p + "attn", "present_key.%d" % li, "present_value.%d" % li],
                   is_causal=1)
        for kind in ("key", "value"):
            graph_outputs.append(helper.make_tensor_value_info(
                "present_%s.%d" % (kind, li), T.FLOAT,
                ["batch", kv_heads, "total", d]))
        a = node("Reshape", [node("Transpose", [att], [p + "attn_t"], perm=[0, 2, 1, 3]),
                             "shape_hidden"], [p + "attn_flat"])
        o = node("MatMul", [a, w(p + "o_proj.weight", hidden, hidden)], [p + "o_proj"])
        x = node("Add", [x, o], [p + "residual_1"])
        h = node("RMSNormalization", [x, p + "post_attention_layernorm.weight"],
                 [p + "rms_2"], epsilon=1e-6, axis=-1)
        g = node("MatMul", [h, w(p + "gate_proj.weight", hidden, ffn)], [p + "gate"])
        u = node("MatMul", [h, w(p + "up_proj.weight", hidden, ffn)], [p + "up"])
        silu = node("Mul", [g, node("Sigmoid", [g], [p + "gate_sigmoid"])], [p + "silu"])
        m = node("Mul", [silu, u], [p + "gated"])
        dn = node("MatMul", [m, w(p + "down_proj.weight", ffn, hidden)], [p + "down"])
        x = node("Add", [x, dn], [p + "residual_2"])
    init("norm.weight", rng.uniform(0.8, 1.2, hidden).astype(f))
    y = node("RMSNormalization", [x, "norm.weight"], ["last_hidden_state"],
             epsilon=1e-6, axis=-1)
    graph_outputs.insert(0, helper.make_tensor_value_info(
        y, T.FLOAT, ["batch", "seq", hidden]))
    graph = helper.make_graph(nodes, "decoder", graph_inputs, graph_outputs, inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)],
                          producer_name="pytorch", producer_version="2.9.0")
    m.ir_version = 10
    b, s, past = 2, 3, 5
    inputs = [rng.integers(0, vocab, (b, s)).astype(np.int64),
              np.tile(np.arange(past, past + s, dtype=np.int64), (b, 1))]
    for _ in range(layers):
        for _ in ("key", "value"):
            inputs.append(rng.standard_normal((b, kv_heads, past, d)).astype(f))
    return m, inputs


def cases():
    rng = np.random.default_rng(23)
    for gen in [swish_cases, rms_cases, rope_cases, scatter_cases, attention_cases]:
        yield from gen(rng)
    m, ins = decoder_model(rng)
    yield "decoder_2layer_kv_cache", m, ins, None


def write(root):
    for name, m, ins, ref in cases():
        testcases.save_model_case(root, "transformer", name, m, ins)
        if ref is not None:
            d = os.path.join(root, "transformer", name)
            for i, r in enumerate(ref):
                t = numpy_helper.from_array(r, m.graph.output[i].name)
                with open(os.path.join(d, "test_data_set_0", "output_%d.pb" % i),
                          "wb") as fh:
                    fh.write(t.SerializeToString())
            open(os.path.join(d, "numpy_reference"), "w").close()


if __name__ == "__main__":
    testcases.generator_main(sys.argv, write, "transformer", __doc__,
                             per_line=True)

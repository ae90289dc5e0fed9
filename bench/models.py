"""The bench set: which models bench/run times, and the families that
tools/ort/gen_models.py does not have (a Loop RNN, a Scan, an LSTM, a GRU,
an RNN, an SGEMM). Generated here, nothing downloaded.

The MLP, ResNet, MobileNet and transformer come from gen_models.py (the
models test/numeric/ort checks against ONNX Runtime, in the form torch 1.13's
exporter writes them) at bench sizes. The families below are written the
same way (python3-onnx and numpy only, seeded weights) and keep to what an
exporter emits: weights as initializers, inputs as graph inputs.

CORPUS is the second set, `bench/run --corpus`: every model of
tools/corpus (realistic models shaped as the published ones: torchvision
nets, fp16 and int8 forms, Paddle-style OCR, audio front ends, a VAD),
generated and cached by tools/corpus/corpus.py and checked with the
tolerance of its class.
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools", "ort"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools", "corpus"))
import gen_models  # noqa: E402  (tools/ort, found through the path above)
import quant_models  # noqa: E402  (bench/quant_models.py: the int8 models)

F = TensorProto.FLOAT
I64 = TensorProto.INT64
B = TensorProto.BOOL


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def loop_rnn(steps=256, batch=1, inputs=128, hidden=128, seed=0, opset=17):
    """An RNN cell stepped by an ONNX Loop (what a scripted torch loop
    exports): trip count = steps, body h = Tanh(Gather(X, i) W + h R + b),
    h loop-carried and scanned. X is the graph input [steps, batch, inputs];
    W, R, b are outer-scope initializers read by the body."""
    g = gen_models.Graph(seed)
    w = g.weight("W", g.uniform((inputs, hidden), gen_models.linear_bound(hidden)))
    r = g.weight("R", g.uniform((hidden, hidden), gen_models.linear_bound(hidden)))
    b = g.weight("b", g.uniform((hidden,), gen_models.linear_bound(hidden)))
    body = helper.make_graph(
        [
            helper.make_node("Gather", ["X", "i"], ["xt"], axis=0),
            helper.make_node("MatMul", ["xt", w], ["xw"]),
            helper.make_node("MatMul", ["h_in", r], ["hr"]),
            helper.make_node("Add", ["xw", "hr"], ["s"]),
            helper.make_node("Add", ["s", b], ["pre"]),
            helper.make_node("Tanh", ["pre"], ["h_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Identity", ["h_out"], ["h_scan"]),
        ],
        "rnn_body",
        [vi("i", I64, []), vi("cond_in", B, []), vi("h_in", F, [batch, hidden])],
        [vi("cond_out", B, []), vi("h_out", F, [batch, hidden]),
         vi("h_scan", F, [batch, hidden])])
    # Scalars as Constant nodes, as torch emits them (Graph.weight would
    # make them rank 1: np.ascontiguousarray).
    trip = g.const("/rnn", np.array(steps, np.int64))
    cond = g.const("/rnn", np.array(True))
    h0 = g.weight("h0", np.zeros((batch, hidden), np.float32))
    g.nodes.append(helper.make_node("Loop", [trip, cond, h0], ["h", "hs"],
                                    name="/rnn/Loop", body=body))
    return g.model("loop_rnn", [vi("X", F, [steps, batch, inputs])],
                   [vi("h", F, [batch, hidden]), vi("hs", F, [steps, batch, hidden])],
                   opset)


def scan_cumsum(rows=1000, cols=64, opset=17):
    """Cumulative sum of the rows of X [rows, cols] with Scan (opset 9+
    form): state s [cols] = s + X[t], scanned. One Add per step: the cost
    is the per-iteration overhead of each engine's loop."""
    g = gen_models.Graph(0)
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "x_t"], ["s_out"]),
         helper.make_node("Identity", ["s_out"], ["y_t"])],
        "cumsum_body",
        [vi("s_in", F, [cols]), vi("x_t", F, [cols])],
        [vi("s_out", F, [cols]), vi("y_t", F, [cols])])
    s0 = g.weight("s0", np.zeros((cols,), np.float32))
    g.nodes.append(helper.make_node("Scan", [s0, "X"], ["s", "Y"], name="/cumsum/Scan",
                                    body=body, num_scan_inputs=1))
    return g.model("scan_cumsum", [vi("X", F, [rows, cols])],
                   [vi("s", F, [cols]), vi("Y", F, [rows, cols])], opset)


def lstm(steps=256, batch=1, inputs=128, hidden=128, seed=0, opset=14):
    """One ONNX LSTM op, forward, as torch's nn.LSTM exports it: W, R and
    B initializers (gates iofc), initial_h and initial_c as zero
    initializers, outputs Y [steps, 1, batch, hidden], Y_h and Y_c."""
    g = gen_models.Graph(seed)
    bound = gen_models.linear_bound(hidden)
    w = g.weight("W", g.uniform((1, 4 * hidden, inputs), bound))
    r = g.weight("R", g.uniform((1, 4 * hidden, hidden), bound))
    b = g.weight("B", g.uniform((1, 8 * hidden), bound))
    h0 = g.weight("initial_h", np.zeros((1, batch, hidden), np.float32))
    c0 = g.weight("initial_c", np.zeros((1, batch, hidden), np.float32))
    g.nodes.append(helper.make_node(
        "LSTM", ["X", w, r, b, "", h0, c0], ["Y", "Y_h", "Y_c"], name="/lstm/LSTM",
        hidden_size=hidden))
    return g.model("lstm", [vi("X", F, [steps, batch, inputs])],
                   [vi("Y", F, [steps, 1, batch, hidden]), vi("Y_h", F, [1, batch, hidden]),
                    vi("Y_c", F, [1, batch, hidden])], opset)


def sgemm(m=1024, n=1024, k=1024, opset=17):
    """C = A B as one ONNX MatMul of two graph inputs (no constant weight
    that an engine could pack ahead of time): 2 m n k flop."""
    g = gen_models.Graph(0)
    g.nodes.append(helper.make_node("MatMul", ["A", "B"], ["C"], name="/MatMul"))
    return g.model("sgemm", [vi("A", F, [m, k]), vi("B", F, [k, n])],
                   [vi("C", F, [m, n])], opset)


def gru(steps=256, batch=1, inputs=128, hidden=128, seed=0, opset=14):
    """One ONNX GRU op, forward, as torch's nn.GRU exports it: W, R and B
    initializers (gates zrh), linear_before_reset = 1, initial_h a zero
    initializer, outputs Y [steps, 1, batch, hidden] and Y_h."""
    g = gen_models.Graph(seed)
    bound = gen_models.linear_bound(hidden)
    w = g.weight("W", g.uniform((1, 3 * hidden, inputs), bound))
    r = g.weight("R", g.uniform((1, 3 * hidden, hidden), bound))
    b = g.weight("B", g.uniform((1, 6 * hidden), bound))
    h0 = g.weight("initial_h", np.zeros((1, batch, hidden), np.float32))
    g.nodes.append(helper.make_node(
        "GRU", ["X", w, r, b, "", h0], ["Y", "Y_h"], name="/gru/GRU",
        hidden_size=hidden, linear_before_reset=1))
    return g.model("gru", [vi("X", F, [steps, batch, inputs])],
                   [vi("Y", F, [steps, 1, batch, hidden]), vi("Y_h", F, [1, batch, hidden])],
                   opset)


def rnn(steps=256, batch=1, inputs=128, hidden=128, seed=0, opset=14):
    """One ONNX RNN op (Tanh), forward, as torch's nn.RNN exports it: W, R
    and B initializers, initial_h a zero initializer, outputs Y and Y_h."""
    g = gen_models.Graph(seed)
    bound = gen_models.linear_bound(hidden)
    w = g.weight("W", g.uniform((1, hidden, inputs), bound))
    r = g.weight("R", g.uniform((1, hidden, hidden), bound))
    b = g.weight("B", g.uniform((1, 2 * hidden), bound))
    h0 = g.weight("initial_h", np.zeros((1, batch, hidden), np.float32))
    g.nodes.append(helper.make_node(
        "RNN", ["X", w, r, b, "", h0], ["Y", "Y_h"], name="/rnn/RNN",
        hidden_size=hidden, activations=["Tanh"]))
    return g.model("rnn", [vi("X", F, [steps, batch, inputs])],
                   [vi("Y", F, [steps, 1, batch, hidden]), vi("Y_h", F, [1, batch, hidden])],
                   opset)


def tree_ensemble(trees=100, depth=8, features=100, batch=1000, seed=0):
    """ai.onnx.ml TreeEnsembleRegressor as skl2onnx writes a gradient-boosted
    regressor: `trees` full binary trees of `depth` (BRANCH_LEQ on a random
    feature, thresholds from the inputs' normal distribution, nodes
    numbered breadth first), one weight per leaf, SUM, a base value."""
    rng = np.random.default_rng(seed)
    a = {k: [] for k in ["nodes_treeids", "nodes_nodeids", "nodes_featureids",
                         "nodes_modes", "nodes_values", "nodes_truenodeids",
                         "nodes_falsenodeids", "target_treeids", "target_nodeids",
                         "target_ids", "target_weights"]}
    inner = 2 ** depth - 1
    for t in range(trees):
        for n in range(2 * inner + 1):
            leaf = n >= inner
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(n)
            a["nodes_featureids"].append(0 if leaf else int(rng.integers(features)))
            a["nodes_modes"].append("LEAF" if leaf else "BRANCH_LEQ")
            a["nodes_values"].append(0.0 if leaf else float(rng.standard_normal()))
            a["nodes_truenodeids"].append(0 if leaf else 2 * n + 1)
            a["nodes_falsenodeids"].append(0 if leaf else 2 * n + 2)
            if leaf:
                a["target_treeids"].append(t)
                a["target_nodeids"].append(n)
                a["target_ids"].append(0)
                a["target_weights"].append(float(rng.standard_normal() * 0.1))
    node = helper.make_node("TreeEnsembleRegressor", ["X"], ["Y"],
                            domain="ai.onnx.ml", name="TreeEnsembleRegressor",
                            n_targets=1, aggregate_function="SUM",
                            base_values=[0.5], **a)
    graph = helper.make_graph([node], "tree_ensemble",
                              [vi("X", F, [batch, features])],
                              [vi("Y", F, [batch, 1])])
    m = helper.make_model(graph, producer_name="skl2onnx", opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)])
    m.ir_version = 8
    return m


def tree_ensemble5(trees=100, depth=8, features=100, batch=1000, seed=0):
    """The same ensemble as tree_ensemble (same seed: same trees, weights and
    base value) written as ai.onnx.ml 5's TreeEnsemble: interior nodes in
    nodes_* (breadth first), leaves in leaf_*; the base value is the weight
    of one more tree that is a single leaf."""
    rng = np.random.default_rng(seed)
    a = {k: [] for k in ["nodes_featureids", "nodes_splits", "nodes_truenodeids",
                         "nodes_trueleafs", "nodes_falsenodeids",
                         "nodes_falseleafs", "tree_roots", "leaf_weights"]}
    inner = 2 ** depth - 1
    for t in range(trees):
        base, leaf0 = len(a["nodes_featureids"]), len(a["leaf_weights"])
        a["tree_roots"].append(base)
        for n in range(2 * inner + 1):
            if n >= inner:
                a["leaf_weights"].append(float(rng.standard_normal() * 0.1))
                continue
            a["nodes_featureids"].append(int(rng.integers(features)))
            a["nodes_splits"].append(float(rng.standard_normal()))
            for side, c in (("true", 2 * n + 1), ("false", 2 * n + 2)):
                leaf = c >= inner
                a["nodes_%snodeids" % side].append(
                    leaf0 + c - inner if leaf else base + c)
                a["nodes_%sleafs" % side].append(int(leaf))
    # The base value: a one-leaf tree (both children of a node one leaf).
    a["leaf_weights"].append(0.5)
    a["tree_roots"].append(len(a["nodes_featureids"]))
    a["nodes_featureids"].append(0)
    a["nodes_splits"].append(0.0)
    for side in ("true", "false"):
        a["nodes_%snodeids" % side].append(len(a["leaf_weights"]) - 1)
        a["nodes_%sleafs" % side].append(1)
    n_nodes, n_leaves = len(a["nodes_featureids"]), len(a["leaf_weights"])
    node = helper.make_node(
        "TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml", name="TreeEnsemble",
        n_targets=1, aggregate_function=1, leaf_targetids=[0] * n_leaves,
        leaf_weights=numpy_helper.from_array(
            np.array(a.pop("leaf_weights"), np.float32)),
        nodes_splits=numpy_helper.from_array(
            np.array(a.pop("nodes_splits"), np.float32)),
        nodes_modes=numpy_helper.from_array(np.zeros(n_nodes, np.uint8)), **a)
    graph = helper.make_graph([node], "tree_ensemble5",
                              [vi("X", F, [batch, features])],
                              [vi("Y", F, [batch, 1])])
    m = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 5)])
    m.ir_version = 10
    return m


def decoder(layers=2, hidden=512, heads=8, kv_heads=2, ffn=1408, vocab=1000,
            max_pos=512, batch=1, seq=1, past=128, seed=0):
    """The decoder of test/numeric/ort/transformer-ops.test
    (gen_transformer_ops.decoder_model: a Llama-style block as the PyTorch
    2.x exporter writes it at opset 23: Gather embedding, RMSNormalization,
    MatMul projections, Reshape/Transpose to heads, RotaryEmbedding on Q and
    K with position_ids, Attention with GQA, is_causal and the KV cache
    (past_key/past_value in, present_key/present_value out), SiLU MLP as
    Sigmoid + Mul) at bench sizes, with the exporter's symbolic dims fixed
    to `batch`, `seq` and `past`: seq 1 is a decode step, past 0 a prefill.
    position_ids are past, past + 1, ...; input_ids in [0, vocab)."""
    import json
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "test", "numeric", "ort", "Inputs"))
    import gen_transformer_ops  # noqa: E402
    m, _ = gen_transformer_ops.decoder_model(
        np.random.default_rng(seed), layers=layers, vocab=vocab, hidden=hidden,
        heads=heads, kv_heads=kv_heads, ffn=ffn, max_pos=max_pos)
    dims = {"batch": batch, "seq": seq, "past": past, "total": past + seq}
    for v in list(m.graph.input) + list(m.graph.output):
        for d in v.type.tensor_type.shape.dim:
            if d.dim_param:
                d.dim_value = dims[d.dim_param]
    helper.set_model_props(m, {gen_models.INPUTS_KEY: json.dumps(
        {"input_ids": {"int_range": [0, vocab]},
         "position_ids": {"positions": past}})})
    return m


def decoder_flop(layers, hidden, heads, kv_heads, ffn, seq, past, **_):
    """2 flop per multiply-add of the projections, the MLP and attention's
    two products (causal: query i sees past + i + 1 keys)."""
    d = hidden // heads
    proj = seq * hidden * (2 * hidden + 2 * kv_heads * d + 3 * ffn)
    keys = sum(past + i + 1 for i in range(seq))
    return 2 * layers * (proj + 2 * heads * d * keys)


FAMILIES = dict(gen_models.FAMILIES, loop_rnn=loop_rnn, scan_cumsum=scan_cumsum,
                lstm=lstm, gru=gru, rnn=rnn, sgemm=sgemm, decoder=decoder,
                tree_ensemble=tree_ensemble, tree_ensemble5=tree_ensemble5,
                **quant_models.FAMILIES)

# MobileNetV2 as torchvision builds it (width 1.0): (expansion, channels,
# repeats, stride).
MOBILENET_V2 = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1))


def mlp_flop(sizes, batch):
    """2 flop per multiply-add of the Gemms (bias and Relu not counted)."""
    return 2 * batch * sum(a * b for a, b in zip(sizes[:-1], sizes[1:]))


class Bench:
    """One model of the bench set. quick: in `bench/run --quick` too.
    flop: per run, where it is simple to count, for a GFLOP/s figure;
    int8_ops: likewise the int8 operations (2 per multiply-add), for GOPS
    against the VNNI peak.
    corpus: the tools/corpus model (bench/run generates it with corpus.py
    and checks it with its class tolerance), else None."""

    def __init__(self, name, family, params, what, quick=True, flop=None,
                 int8_ops=None, check=None, corpus=None):
        self.name, self.family, self.params = name, family, params
        self.what, self.quick, self.flop = what, quick, flop
        self.int8_ops = int8_ops
        # (rtol, atol, why) of the check against ORT, when not bench/run's.
        self.check = check
        self.corpus = corpus

    def build(self):
        return FAMILIES[self.family](**self.params)


DECODER_STEP = {"layers": 2, "hidden": 512, "heads": 8, "kv_heads": 2, "ffn": 1408,
                "batch": 1, "seq": 1, "past": 128}
DECODER_PREFILL = dict(DECODER_STEP, seq=128, past=0)

BENCH = [
    Bench("mlp_b1", "mlp", {"sizes": (784, 512, 512, 10), "batch": 1},
          "MLP 784-512-512-10 (Gemm+Relu), batch 1",
          flop=mlp_flop((784, 512, 512, 10), 1)),
    Bench("mlp_b64", "mlp", {"sizes": (784, 512, 512, 10), "batch": 64},
          "MLP 784-512-512-10 (Gemm+Relu), batch 64",
          flop=mlp_flop((784, 512, 512, 10), 64)),
    Bench("resnet224", "resnet",
          {"image": 224, "stem_channels": 32, "channels": (32, 64, 128, 256), "blocks": 1,
           "classes": 1000},
          "ResNet, BasicBlocks, 224x224x3, channels 32-64-128-256, 1 block per stage, "
          "BN folded", quick=False),
    Bench("mobilenet224", "mobilenet",
          {"image": 224, "stem_channels": 32, "blocks": MOBILENET_V2, "last_channels": 1280,
           "classes": 1000},
          "MobileNetV2 (torchvision layout, width 1.0), 224x224x3", quick=False),
    Bench("bert4", "transformer",
          {"batch": 1, "seq": 128, "hidden": 256, "heads": 4, "ffn": 1024, "layers": 4,
           "vocab": 1000, "max_positions": 128},
          "BERT encoder, 4 layers, d=256, 4 heads, FFN 1024, seq 128, batch 1, "
          "with mask and pooler", quick=False),
    Bench("decoder_step", "decoder", DECODER_STEP,
          "2-layer Llama-style decoder, opset 23 as the PyTorch exporter writes "
          "it (RMSNormalization, RotaryEmbedding, Attention with GQA and a KV "
          "cache), d=512, 8 query / 2 KV heads, FFN 1408 (SiLU), one decode "
          "step: 1 token after a cache of 128", flop=decoder_flop(**DECODER_STEP)),
    Bench("decoder_prefill", "decoder", DECODER_PREFILL,
          "the same decoder, prefill: 128 tokens, empty cache (past 0), causal",
          quick=False, flop=decoder_flop(**DECODER_PREFILL)),
    Bench("loop_rnn", "loop_rnn", {"steps": 256, "hidden": 128, "inputs": 128},
          "ONNX Loop, 256 steps, RNN cell (Gather, MatMul W, MatMul R, Add, Tanh), "
          "hidden 128, input 128, batch 1"),
    Bench("scan_cumsum", "scan_cumsum", {"rows": 1000, "cols": 64},
          "ONNX Scan over [1000, 64]: running sum (Add), state and scan output"),
    Bench("lstm", "lstm", {"steps": 256, "hidden": 128, "inputs": 128},
          "ONNX LSTM, forward, 256 steps, hidden 128, input 128, batch 1"),
    Bench("gru", "gru", {"steps": 256, "hidden": 128, "inputs": 128},
          "ONNX GRU, forward, linear_before_reset 1, 256 steps, hidden 128, input 128, "
          "batch 1"),
    Bench("rnn", "rnn", {"steps": 256, "hidden": 128, "inputs": 128},
          "ONNX RNN (Tanh), forward, 256 steps, hidden 128, input 128, batch 1"),
    Bench("trees_b1", "tree_ensemble",
          {"trees": 500, "depth": 8, "features": 100, "batch": 1},
          "ai.onnx.ml TreeEnsembleRegressor, 500 trees of depth 8, 100 features, "
          "batch 1"),
    Bench("trees_b1000", "tree_ensemble",
          {"trees": 500, "depth": 8, "features": 100, "batch": 1000},
          "ai.onnx.ml TreeEnsembleRegressor, 500 trees of depth 8, 100 features, "
          "batch 1000", quick=False),
    Bench("trees5_b1", "tree_ensemble5",
          {"trees": 100, "depth": 8, "features": 100, "batch": 1},
          "ai.onnx.ml 5 TreeEnsemble, 100 trees of depth 8, 100 features, "
          "batch 1", quick=False),
    Bench("trees5_b1000", "tree_ensemble5",
          {"trees": 100, "depth": 8, "features": 100, "batch": 1000},
          "ai.onnx.ml 5 TreeEnsemble, 100 trees of depth 8, 100 features, "
          "batch 1000", quick=False),
    Bench("sgemm", "sgemm", {"m": 1024, "n": 1024, "k": 1024},
          "ONNX MatMul [1024, 1024] x [1024, 1024], both graph inputs",
          quick=False, flop=2 * 1024 ** 3),
    Bench("unet_dynq", "unet_dynq", {"size": 256, "channels": (16, 32, 64, 128)},
          "U-Net 1x3x256x256 (channels 16-32-64-128, 256 at the bottom, dilated "
          "blocks, Resize nearest/bilinear, skip Concat) dynamically quantized "
          "as onnxruntime's quantize_dynamic writes it (DynamicQuantizeLinear, "
          "ConvInteger, Cast, Mul by the scale product, Reshape + Add bias; "
          "int8 symmetric weights)", quick=False,
          int8_ops=2 * quant_models.unet_macs(256, (16, 32, 64, 128)),
          check=("0", "0.03", "onnxc's bilinear Resize rounds differently from "
                 "ORT's (1e-6 relative; onnxc -O0 and -O2 agree bit for bit), "
                 "which moves some roundings of the next DynamicQuantizeLinear "
                 "by a step; the output is a Sigmoid in [0, 1]")),
    Bench("unet_dynq_u8", "unet_dynq", {"size": 256, "channels": (16, 32, 64, 128),
                                        "u8": True},
          "the same U-Net dynamically quantized with uint8 weights (asymmetric, "
          "zero point)", quick=False,
          int8_ops=2 * quant_models.unet_macs(256, (16, 32, 64, 128)),
          check=("0", "0.03", "as unet_dynq")),
    Bench("qlinear_vgg", "qlinear_vgg", {"size": 224, "channels": (32, 64, 128, 256)},
          "VGG-style net 1x3x224x224 (two 3x3 convs per stage, channels "
          "32-64-128-256, MaxPool) statically quantized in QOperator form "
          "(QuantizeLinear, QLinearConv with Relu folded, MaxPool on uint8, "
          "DequantizeLinear, GlobalAveragePool)", quick=False,
          int8_ops=2 * quant_models.vgg_macs(224, (32, 64, 128, 256))),
]
BY_NAME = {b.name: b for b in BENCH}


def corpus_set():
    """The corpus as bench entries (tools/corpus/corpus.py list), in its
    order, without the minimal reproducers. quick: the models that ORT and
    onnxc both run in under ~10 and ~100 ms (on the machine of
    docs/corpus-status.md)."""
    import corpus  # noqa: E402  (tools/corpus, found through the path above)
    corpus.load_all()
    slow = {"resnet18", "resnet18_bn", "resnext_small", "efficientnet_b0", "deeplab_aspp",
            "vit_tiny", "conv_autoencoder", "unet", "unet_fp16", "unet_fp16_io", "unet_dynq",
            "unet_dynq_s8", "ocr_det", "dcgan", "mobilenet_v2_fp16", "bert_dynq",
            "resnet18_qop", "resnet18_qop_pc", "resnet18_qdq", "mobilenet_v2_qop"}
    return [Bench(m.name, "corpus", {}, "[%s] %s" % (m.cls, m.what), quick=m.name not in slow,
                  corpus=m) for m in corpus.MODELS if m.bench]


CORPUS_NAMES = None


def corpus_by_name():
    global CORPUS_NAMES
    if CORPUS_NAMES is None:
        CORPUS_NAMES = {b.name: b for b in corpus_set()}
    return CORPUS_NAMES

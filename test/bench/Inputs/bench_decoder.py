"""test/bench/bench-decoder.test: the decoder family of bench/models.py,
small."""
import collections
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import models  # noqa: E402
import gen_models  # noqa: E402  (tools/ort, put on the path by models)

small = {"layers": 2, "hidden": 32, "heads": 4, "kv_heads": 2, "ffn": 64,
         "vocab": 50, "max_pos": 64}
for name, batch, seq, past in (("decode", 1, 1, 5), ("prefill", 2, 3, 0)):
    m = models.decoder(batch=batch, seq=seq, past=past, **small)
    ins = dict(gen_models.make_inputs(m, {}, seed=1))
    assert ins["input_ids"].min() >= 0 and ins["input_ids"].max() < 50
    outs = {o.name: [d.dim_value for d in o.type.tensor_type.shape.dim]
            for o in m.graph.output}
    # Every dim static (the prefill's empty cache is the only 0).
    assert all(not d.dim_param for v in list(m.graph.input) + list(m.graph.output)
               for d in v.type.tensor_type.shape.dim)
    print("%s: input_ids %s position_ids %s past_key.0 %s present_key.1 %s" % (
        name, list(ins["input_ids"].shape), "; ".join(" ".join(map(str, r)) for r in ins["position_ids"].tolist()),
        list(ins["past_key.0"].shape), outs["present_key.1"]))
ops = collections.Counter(n.op_type for n in m.graph.node)
print("ops: Attention %d, RMSNormalization %d, RotaryEmbedding %d, opset %d" % (
    ops["Attention"], ops["RMSNormalization"], ops["RotaryEmbedding"],
    m.opset_import[0].version))
print("flop: 2 layers, d 32, seq 1, past 5: %d" % models.decoder_flop(
    layers=2, hidden=32, heads=4, kv_heads=2, ffn=64, seq=1, past=5))

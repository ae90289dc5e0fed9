"""The onnxc Python package end to end (test/embed/python.test).

python_api.py DIR ONNXC_LOG: DIR holds make_models.py's models and
linear_train.onnx; $ONNXC is a wrapper of onnxc that appends a line to
ONNXC_LOG per call (to count compilations); $ONNXC_CACHE_DIR is empty.
Prints one line per check; the numbers are compared with numpy here.
"""
import os
import sys
import threading

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.parser

import onnxc

root, log = sys.argv[1], sys.argv[2]
src = os.environ["ONNXC_SRC_ROOT"]
mlp_path = os.path.join(src, "examples", "mlp", "mlp.onnxtxt")


def calls():
    if not os.path.exists(log):
        return 0
    with open(log) as f:
        return len(f.readlines())


def show_error(what, fn):
    try:
        fn()
        print("%s: no error" % what)
    except onnxc.Error as e:
        print("%s: %s (status %d): %s" % (what, type(e).__name__, e.status, e))


# The example MLP against numpy (the weights from the text model).
m = onnxc.compile(mlp_path, opt=3)
print("compile: %r, %d onnxc call(s)" % (m.name, calls()))
print("inputs: %s" % [(s.name, str(s.dtype), s.shape) for s in m.inputs])
print("outputs: %s" % [(s.name, str(s.dtype), s.shape) for s in m.outputs])
graph = onnx.parser.parse_model(open(mlp_path).read()).graph
w = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}


def mlp_ref(x):
    h = np.maximum(x @ w["fc1_weight"] + w["fc1_bias"], 0)
    z = h @ w["fc2_weight"] + w["fc2_bias"]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


rng = np.random.default_rng(0)
for n in (1, 7, 64):
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = m(x)
    print("N=%d: %s %s, matches numpy: %s" % (n, y.shape, y.dtype,
                                               np.allclose(y, mlp_ref(x), atol=1e-5)))
x = rng.standard_normal((5, 4)).astype(np.float32)
out = m.run({"features": x})
print("run(): %s, same as m(x): %s" % (sorted(out), np.array_equal(out["probabilities"], m(x))))
print("keyword: %s" % np.array_equal(m(features=x), m(x)))
print("lists are converted: %s" % np.allclose(m(x.tolist()), m(x)))
print("Fortran order: %s" % np.array_equal(m(np.asfortranarray(x)), m(x)))
print("N=0: %s" % (m(np.zeros((0, 4), np.float32)).shape,))

# The cache: keyed on the model's bytes and the options.
onnxc.compile(mlp_path, opt=3)
print("same model, same options: %d onnxc call(s)" % calls())
onnxc.compile(mlp_path, opt=1)
print("opt=1: %d onnxc call(s)" % calls())
proto = onnx.parser.parse_model(open(mlp_path).read())
from_proto = onnxc.compile(proto, opt=3, name="mlp")
print("a ModelProto: %d onnxc call(s), matches: %s"
      % (calls(), np.allclose(from_proto(x), m(x))))
proto.graph.initializer[3].float_data[2] += 4.0   # fc2_bias of class 2
changed = onnxc.compile(proto, opt=3, name="mlp")
print("changed bytes: %d onnxc call(s), class 2 grows: %s"
      % (calls(), bool((changed(x)[:, 2] > m(x)[:, 2]).all())))
onnxc.compile(proto.SerializeToString(), opt=3, name="mlp")
print("the same bytes again: %d onnxc call(s)" % calls())
print("cache entries: %d" % len(os.listdir(os.environ["ONNXC_CACHE_DIR"])))

# Wrong inputs raise, with the runtime's message; nothing crashes.
show_error("float64", lambda: m(x.astype(np.float64)))
show_error("int32", lambda: m(x.astype(np.int32)))
show_error("dim", lambda: m(np.zeros((2, 5), np.float32)))
show_error("rank", lambda: m(np.zeros(4, np.float32)))
show_error("rank 17", lambda: m(np.zeros((1,) * 17, np.float32)))
show_error("strings", lambda: m(np.array([["a"] * 4])))
show_error("ragged", lambda: m([[1, 2, 3, 4], [1]]))
show_error("None", lambda: m(None))
show_error("two inputs", lambda: m(x, x))
show_error("no input", lambda: m())
show_error("unknown name", lambda: m.run({"feature": x}))
show_error("twice", lambda: m(x, features=x))
show_error("not a dict", lambda: m.run([x]))
try:
    m(x.astype(np.float64))
except TypeError:
    print("DTypeError is a TypeError")
try:
    m(np.zeros((2, 5), np.float32))
except ValueError:
    print("ShapeError is a ValueError")

# Compile errors: onnxc's line.
bad = os.path.join(root, "bad.onnxtxt")
with open(bad, "w") as f:
    f.write("<ir_version: 8, opset_import: [\"\" : 17]>\n"
            "bad (float[2] x) => (float[2] y) { y = NoSuchOp(x) }\n")
show_error("compile", lambda: onnxc.compile(bad))
show_error("missing file", lambda: onnxc.compile(os.path.join(root, "none.onnx")))
show_error("opt=7", lambda: onnxc.compile(mlp_path, opt=7))
show_error("bytes", lambda: onnxc.compile(b"not a model"))

# Sequences and optionals.
s = onnxc.compile(os.path.join(root, "seqs.onnx"))
print("seqs inputs: %s" % s.inputs)
print("seqs outputs: %s" % s.outputs)
xs = np.arange(16, dtype=np.float32).reshape(4, 4)
parts, sums, joined, has_scale, maybe = s(
    xs, [1, 2, 1], [np.ones((2, 4), np.float32), np.full((1, 4), -2, np.float32)],
    np.array([3], np.float32))
print("parts: %s, equal to np.split: %s" % (
    [p.shape for p in parts],
    all(np.array_equal(a, b) for a, b in zip(parts, np.split(xs, [1, 3])))))
print("sums %s, joined %s, has_scale %s, maybe %s" % (
    sums.tolist(), joined.shape, has_scale.item(), maybe.tolist()))
outs = s.run({"x": xs, "lens": np.array([4]), "extra": [np.zeros((1, 4), np.float32)]})
print("absent scale: has_scale %s, one part %s" % (outs["has_scale"].item(),
                                                   outs["parts"][0].shape))
show_error("sequence of a tensor", lambda: s(xs, [4], np.zeros((1, 4), np.float32)))
show_error("item dtype", lambda: s(xs, [4], [np.zeros((1, 4), np.float64)]))
show_error("item dim", lambda: s(xs, [4], [np.zeros((1, 3), np.float32)]))
show_error("empty sequence", lambda: s(xs, [4], []))

# Threads: the GIL is released while the model runs; results as alone.
onnxc.set_num_threads(2)
xb = rng.standard_normal((256, 4)).astype(np.float32)
want = m(xb)
results = []


def worker():
    for _ in range(20):
        results.append(np.array_equal(m(xb), want))


threads = [threading.Thread(target=worker) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("4 threads x 20 runs: %d/%d equal" % (sum(results), len(results)))

# Training (onnxc-make-trainable: mse loss, SGD lr 0.1).
t = onnxc.compile(os.path.join(root, "linear_train.onnx"))
print("trainable: %s %s" % (t.trainable, m.trainable))
p0 = t.params
xt = rng.standard_normal((8, 3)).astype(np.float32)
lt = rng.standard_normal((8, 2)).astype(np.float32)
loss = t.train_step(xt, lt)
d = xt @ p0["W"] + p0["b"] - lt
g = 2 * d / d.size
p1 = t.params
print("step 1: loss %s matches numpy: %s, W: %s, b: %s" % (
    loss.shape, np.isclose(loss, (d * d).mean(), rtol=1e-5),
    np.allclose(p1["W"], p0["W"] - 0.1 * xt.T @ g, atol=1e-6),
    np.allclose(p1["b"], p0["b"] - 0.1 * g.sum(axis=0), atol=1e-6)))
for _ in range(100):
    last = t.train_step(x=xt, label=lt)
print("100 more steps: loss lower: %s" % (last < loss))
print("train_infer uses the trained W: %s, m(x) the file's: %s" % (
    np.allclose(t.train_infer(xt), xt @ t.params["W"] + t.params["b"], atol=1e-5),
    np.allclose(t(xt), xt @ p0["W"] + p0["b"], atol=1e-5)))
state = os.path.join(root, "state.bin")
trained = t.params["W"]
t.save_state(state)
t.set_param("W", np.zeros((3, 2), np.float32))
zeroed = t.params["W"]
t.load_state(state)
print("save, set_param, load: %s %s" % (not zeroed.any(),
                                        np.array_equal(t.params["W"], trained)))
show_error("set_param shape", lambda: t.set_param("W", np.zeros((2, 3), np.float32)))
show_error("set_param name", lambda: t.set_param("V", np.zeros((2, 3), np.float32)))
show_error("step label", lambda: t.train_step(xt))
show_error("step shape", lambda: t.train_step(xt, lt[:4]))
show_error("not trainable", lambda: m.train_step(x))
trainer = t.trainer()
print("a second state starts from the file: %s" % np.array_equal(trainer.get_param("W"), p0["W"]))

# onnxc.load: a library the CLI wrote, found by its stem (a 'lib' prefix
# dropped) or by name=.
lib = os.path.join(root, "cli", "libmlp.so")
loaded = onnxc.load(lib, name="libmlp")
print("load(name=): %r, same results: %s" % (loaded.name, np.array_equal(loaded(x), m(x))))
print("load(): %r" % onnxc.load(os.path.join(root, "cli", "libmlp2.so")).name)
show_error("load wrong name", lambda: onnxc.load(lib, name="other"))
show_error("load missing", lambda: onnxc.load(os.path.join(root, "none.so")))
show_error("load not onnxc", lambda: onnxc.load(os.path.join(root, "notamodel.so")))
print("OK")

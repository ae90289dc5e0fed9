"""The ai.onnx.ml map ops: ZipMap, DictVectorizer, CastMap.

    gen_ml_map_ops.py write DIR           writes DIR/mlmap/NAME cases
    gen_ml_map_ops.py oracle DIR CMD...   writes the expected outputs
    gen_ml_map_ops.py bad-input|big-key FILE   a map with a key twice /
                                          a key of 12 (CastMap's errors)

ONNX Runtime's Node binding neither takes nor returns maps
(tools/ort/ort_run.js refuses non-tensor values), so:
  - ZipMap after a LinearClassifier (skl2onnx's classifier shape: label and
    output_probability): ORT runs the model without the ZipMap (oracle
    `ort_nozipmap`), and the expected sequence of maps is built here from
    ORT's probabilities and the class labels;
  - ZipMap alone, DictVectorizer, CastMap: the spec's result computed here
    with numpy (marker `numpy_reference`), ONNX Runtime's choices where the
    spec is silent (DictVectorizer's [1, V] shape and zero for a missing
    key; CastMap's pad 0 and "0.f" and float-to-int64 truncation).
Needs python3-onnx (/usr/bin/python3)."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx import TensorProto as T

SUITE = "mlmap"


def map_type(key, value):
    """The TypeProto map(key, tensor(value))."""
    tp = onnx.TypeProto()
    tp.map_type.key_type = key
    tp.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(value, None))
    return tp


def seq_type(elem):
    tp = onnx.TypeProto()
    tp.sequence_type.elem_type.CopyFrom(elem)
    return tp


def map_proto(keys, values, dtype):
    """A MapProto as onnx.numpy_helper.from_dict writes it (its values a
    SequenceProto of 0-D tensors); from_dict itself fails on onnx 1.12 with
    this numpy."""
    m = onnx.MapProto()
    if keys and isinstance(keys[0], str):
        m.key_type = T.STRING
        m.string_keys.extend(k.encode() for k in keys)
    else:
        m.key_type = T.INT64
        m.keys.extend(int(k) for k in keys)
    m.values.elem_type = onnx.SequenceProto.TENSOR
    for v in values:
        m.values.tensor_values.append(
            numpy_helper.from_array(np.array(v, dtype=dtype)))
    return m


def maps_proto(labels, probs):
    """ZipMap's output: one map per row of `probs`."""
    s = onnx.SequenceProto()
    s.elem_type = onnx.SequenceProto.MAP
    for row in probs:
        s.map_values.append(map_proto(list(labels), list(row), np.float32))
    return s


def model(nodes, inputs, outputs):
    """`inputs`/`outputs`: (name, TypeProto or (elem, shape))."""
    def vi(name, t):
        if isinstance(t, onnx.TypeProto):
            return helper.make_value_info(name, t)
        return helper.make_tensor_value_info(name, t[0], t[1])
    g = helper.make_graph(nodes, "g", [vi(n, t) for n, t in inputs],
                          [vi(n, t) for n, t in outputs])
    m = helper.make_model(g, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)])
    m.ir_version = 8
    return m


def ml(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, domain="ai.onnx.ml", **attrs)


def save(root, name, m, inputs, outputs=None, nozipmap=None):
    """The case; `outputs` (protos) for a numpy reference, or `nozipmap`
    (the model without its ZipMap, its labels) for the ORT oracle."""
    d = os.path.join(root, SUITE, name)
    s = os.path.join(d, "test_data_set_0")
    os.makedirs(s, exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    for i, v in enumerate(inputs):
        if isinstance(v, np.ndarray):
            v = numpy_helper.from_array(v)
        with open(os.path.join(s, "input_%d.pb" % i), "wb") as f:
            f.write(v.SerializeToString())
    if outputs is not None:
        for k, v in enumerate(outputs):
            if isinstance(v, np.ndarray):
                v = numpy_helper.from_array(v)
            with open(os.path.join(s, "output_%d.pb" % k), "wb") as f:
                f.write(v.SerializeToString())
        open(os.path.join(d, "numpy_reference"), "w").close()
    else:
        nz, labels = nozipmap
        onnx.save(nz, os.path.join(d, "model_nozipmap.onnx"))
        with open(os.path.join(d, "zipmap_labels"), "w") as f:
            f.write("\n".join(str(l) for l in labels))


def zipmap_cases(root, rng):
    x = rng.random((4, 3)).astype(np.float32)
    for name, attr, labels, key in [
            ("zipmap_int64", "classlabels_int64s", [10, -20, 30], T.INT64),
            ("zipmap_strings", "classlabels_strings", ["a", "bb", "ccc"],
             T.STRING)]:
        m = model([ml("ZipMap", ["x"], ["z"], **{attr: labels})],
                  [("x", (T.FLOAT, [4, 3]))],
                  [("z", seq_type(map_type(key, T.FLOAT)))])
        save(root, name, m, [x], [maps_proto(labels, x)])
    x1 = rng.random((1, 5)).astype(np.float32)
    m = model([ml("ZipMap", ["x"], ["z"], classlabels_int64s=[0, 1, 2, 3, 4])],
              [("x", (T.FLOAT, [1, 5]))],
              [("z", seq_type(map_type(T.INT64, T.FLOAT)))])
    save(root, "zipmap_batch1", m, [x1], [maps_proto(range(5), x1)])
    # skl2onnx's classifier: LinearClassifier -> label, probabilities ->
    # ZipMap -> output_probability.
    xf = rng.standard_normal((6, 4)).astype(np.float32)
    coef = [float(v) for v in rng.standard_normal(12).round(4)]
    for name, labels, post in [
            ("linclf_zipmap_int64", [0, 1, 2], "SOFTMAX"),
            ("linclf_zipmap_strings", ["cat", "dog", "eel"], "LOGISTIC")]:
        strings = isinstance(labels[0], str)
        clf = ml("LinearClassifier", ["x"], ["label", "probabilities"],
                 coefficients=coef, intercepts=[0.1, -0.2, 0.3],
                 post_transform=post,
                 **({"classlabels_strings": labels} if strings
                    else {"classlabels_ints": labels}))
        zm = ml("ZipMap", ["probabilities"], ["output_probability"],
                **({"classlabels_strings": labels} if strings
                   else {"classlabels_int64s": labels}))
        key = T.STRING if strings else T.INT64
        label = ("label", (key, [6]))
        m = model([clf, zm], [("x", (T.FLOAT, [6, 4]))],
                  [label, ("output_probability",
                           seq_type(map_type(key, T.FLOAT)))])
        nz = model([clf], [("x", (T.FLOAT, [6, 4]))],
                   [label, ("probabilities", (T.FLOAT, [6, 3]))])
        save(root, name, m, [xf], nozipmap=(nz, labels))


DV_TYPES = {np.float32: T.FLOAT, np.float64: T.DOUBLE, np.int64: T.INT64,
            object: T.STRING}


def dictvectorizer_cases(root, rng):
    # (keys of the map, vocabulary, value dtype): the ORT kernels' six types.
    for name, keys, vocab, vt in [
            ("dv_int64_float", [7, 3, 12, -1], [3, 12, 5, 7], np.float32),
            ("dv_int64_double", [2, 40], [40, 1, 2], np.float64),
            ("dv_int64_string", [1, 2, 3], [3, 9, 1], object),
            ("dv_string_int64", ["b", "a", "zz"], ["a", "c", "b"], np.int64),
            ("dv_string_float", ["x", "yy"], ["yy", "x", "q", "r"],
             np.float32),
            ("dv_string_double", ["k1", "k2", "k3"], ["k3", "k1"],
             np.float64)]:
        if vt is object:
            values = ["v%d" % i for i in range(len(keys))]
        elif vt is np.int64:
            values = list(rng.integers(-100, 100, len(keys)))
        else:
            values = list(rng.standard_normal(len(keys)).round(3))
        strings = isinstance(keys[0], str)
        attr = "string_vocabulary" if strings else "int64_vocabulary"
        vtype = DV_TYPES[vt]
        m = model([ml("DictVectorizer", ["m"], ["y"], **{attr: vocab})],
                  [("m", map_type(T.STRING if strings else T.INT64, vtype))],
                  [("y", (vtype, None))])
        table = dict(zip(keys, values))
        zero = "" if vt is object else 0
        ref = np.array([[table.get(k, zero) for k in vocab]], dtype=vt)
        save(root, name, m, [map_proto(keys, values, vt)], [ref])
    # An empty map.
    m = model([ml("DictVectorizer", ["m"], ["y"], int64_vocabulary=[1, 2])],
              [("m", map_type(T.INT64, T.FLOAT))], [("y", (T.FLOAT, None))])
    save(root, "dv_empty_map", m, [map_proto([], [], np.float32)],
         [np.zeros((1, 2), np.float32)])


def fmt(v):
    """Cast's float-to-string formatting (docs/strings.md): the ONNX
    reference's, numpy's str() of the float32 ("7.0", "-2.75")."""
    return str(np.float32(v))


def castmap_cases(root, rng):
    keys = [5, 0, 2, 9]
    fvals = [1.5, -2.75, 0.125, 7.0]
    svals = ["3.5", "-1", "42", "0.25"]
    order = np.argsort(keys)
    for vname, vals, vt in [("float", fvals, np.float32),
                            ("string", svals, object)]:
        for to, ot in [("TO_FLOAT", np.float32), ("TO_INT64", np.int64),
                       ("TO_STRING", object)]:
            def conv(v):
                if ot is object:
                    return v if isinstance(v, str) else fmt(v)
                f = float(v)
                return np.float32(f) if ot is np.float32 else int(f)
            for form, max_map in [("DENSE", 1), ("SPARSE", 12)]:
                if form == "DENSE":
                    ref = [conv(vals[i]) for i in order]
                else:
                    pad = "0.f" if ot is object else 0
                    ref = [pad] * max_map
                    for k, v in zip(keys, vals):
                        ref[k] = conv(v)
                otype = {np.float32: T.FLOAT, np.int64: T.INT64,
                         object: T.STRING}[ot]
                m = model([ml("CastMap", ["m"], ["y"], cast_to=to,
                              map_form=form, max_map=max_map)],
                          [("m", map_type(T.INT64, T.FLOAT if vt is np.float32
                                          else T.STRING))],
                          [("y", (otype, None))])
                name = "castmap_%s_%s_%s" % (vname, to[3:].lower(),
                                             form.lower())
                save(root, name, m, [map_proto(keys, vals, vt)],
                     [np.array([ref], dtype=ot)])


def write(root):
    rng = np.random.default_rng(14)
    zipmap_cases(root, rng)
    dictvectorizer_cases(root, rng)
    castmap_cases(root, rng)


def oracle(root, cmd):
    """ORT on model_nozipmap.onnx; output_probability built from its
    probabilities; the label as ORT wrote it."""
    base = os.path.join(root, SUITE)
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        s = os.path.join(d, "test_data_set_0")
        if os.path.exists(os.path.join(d, "numpy_reference")):
            print("%s: numpy reference" % name)
            continue
        r = subprocess.run(cmd + [os.path.join(d, "model_nozipmap.onnx"),
                                  "--inputs", s, "--save", s],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s: %s" % (name, (r.stderr or r.stdout).strip()))
        labels = open(os.path.join(d, "zipmap_labels")).read().split("\n")
        if labels[0].lstrip("-").isdigit():
            labels = [int(l) for l in labels]
        t = onnx.TensorProto()
        with open(os.path.join(s, "output_1.pb"), "rb") as f:
            t.ParseFromString(f.read())
        probs = numpy_helper.to_array(t)
        with open(os.path.join(s, "output_1.pb"), "wb") as f:
            f.write(maps_proto(labels, probs).SerializeToString())
        print("%s: ORT without ZipMap: %s; maps of probabilities%s" %
              (name, r.stdout.strip().replace("\n", "; "), list(probs.shape)))


def bad_input(path, keys, values):
    with open(path, "wb") as f:
        f.write(map_proto(keys, values, np.float32).SerializeToString())


def main(argv):
    if len(argv) == 3 and argv[1] == "write":
        write(argv[2])
    elif len(argv) == 3 and argv[1] == "bad-input":  # a key listed twice
        bad_input(argv[2], [3, 1, 3], [1.0, 2.0, 3.0])
    elif len(argv) == 3 and argv[1] == "big-key":  # CastMap: key >= max_map
        bad_input(argv[2], [1, 12], [1.0, 2.0])
    elif len(argv) >= 4 and argv[1] == "oracle":
        oracle(argv[2], " ".join(argv[3:]).split())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/python3
"""train_state.py gen DIR | load LIB.so: the training state's loader
(onnxc_train_load_buffer) fed bytes that are not what onnxc_train_save_buffer
wrote. `gen` writes DIR/tr.onnx (y = x W + b, W and b trainable once
onnxc-make-trainable has run); `load` creates the state of the compiled
model, saves it and loads variants of the bytes, printing each status and
onnxc_last_error(). Every bad buffer must fail and leave the state as it
was; the saved bytes load."""
import ctypes
import os
import struct
import sys


def gen(d):
    import numpy as np
    import onnx
    from onnx import TensorProto as T, helper as h, numpy_helper as nh
    g = h.make_graph(
        [h.make_node("MatMul", ["x", "w"], ["m"]),
         h.make_node("Add", ["m", "b"], ["y"])], "tr",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
        [h.make_tensor_value_info("y", T.FLOAT, [2, 2])],
        [nh.from_array(np.ones((3, 2), np.float32), "w"),
         nh.from_array(np.zeros(2, np.float32), "b")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, os.path.join(d, "tr.onnx"))


def records(b):
    """The saved tensors: (name, their bytes from the name length on)."""
    pos, out = 16, []
    for _ in range(struct.unpack_from("<I", b, 12)[0]):
        start = pos
        n = struct.unpack_from("<I", b, pos)[0]
        pos += 4
        name = b[pos:pos + n].decode()
        pos += n
        rank = struct.unpack_from("<ii", b, pos)[1]
        pos += 8 + 8 * rank
        pos += 8 + struct.unpack_from("<Q", b, pos)[0]
        out.append((name, b[start:pos]))
    return out


def load(path):
    lib = ctypes.CDLL(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    info = getattr(lib, stem + "_train_info")
    info.restype = ctypes.c_void_p
    lib.onnxc_last_error.restype = ctypes.c_char_p
    st = ctypes.c_void_p()
    assert lib.onnxc_train_create(ctypes.c_void_p(info()), ctypes.byref(st)) == 0
    data, size = ctypes.c_void_p(), ctypes.c_size_t()
    assert lib.onnxc_train_save_buffer(st, ctypes.byref(data),
                                       ctypes.byref(size)) == 0
    saved = ctypes.string_at(data, size.value)
    recs = records(saved)
    head = saved[:16]
    w, b = recs[0][1], recs[1][1]
    cases = [
        ("saved", saved),
        ("w twice, b left out", head + w + w),
        ("b then w", head + b + w),
        ("truncated", saved[:-1]),
        ("one tensor", saved[:12] + struct.pack("<I", 1) + w),
        ("bad magic", b"x" + saved[1:]),
    ]
    for what, buf in cases:
        s = lib.onnxc_train_load_buffer(st, buf, len(buf))
        print("%s: %s" % (what, "OK" if s == 0 else
                          "status %d: %s" % (s, lib.onnxc_last_error().decode())))
    # Nothing changed: the state saves the same bytes.
    assert lib.onnxc_train_save_buffer(st, ctypes.byref(data),
                                       ctypes.byref(size)) == 0
    print("unchanged:", ctypes.string_at(data, size.value) == saved)


if __name__ == "__main__":
    gen(sys.argv[2]) if sys.argv[1] == "gen" else load(sys.argv[2])

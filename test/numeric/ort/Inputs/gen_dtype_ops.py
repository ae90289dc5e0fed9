#!/usr/bin/python3
"""The element types newer than libonnx 1.12 and blocked quantization
(opsets 19-23), against ONNX Runtime 1.30 and a numpy port of the ONNX
reference implementation (onnx/reference/ops/op_quantize_linear.py,
op_dequantize_linear.py, op_cast.py, custom_element_types.py):

  write DIR           the cases under DIR/dtype, each with its numpy
                      reference as output_N.pb
  oracle DIR CMD...   runs ORT (CMD MODEL --inputs SET --save SET) on the
                      cases it supports, checks that ORT agrees with the
                      numpy reference (exactly), and keeps ORT's outputs

Blocked quantization (block_size > 0 on `axis`; the scale and zero point of
x's rank with ceil(dim / block_size) along axis, the last block partial) for
int8, uint8, int16, uint16: x / scale lands on ties (round half to even)
and beyond the type's range (saturation). Models built with onnx 1.12's
helper; newer type codes (17-23) are written as integers directly.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

from opmodel import ONNX_TYPE, testcases  # noqa: F401

SUITE = "dtype"


# --- TensorProtos of any type ----------------------------------------------

def tensor(name, array, dtype=None):
    """A TensorProto of `array`; `dtype` (an ONNX code) for the types onnx
    1.12 lacks: float8 (17-20) and float4e2m1 (23) take uint8 codes, int4
    (22) / uint4 (21) the values, packed two per byte (low nibble first)."""
    if dtype is None:
        return numpy_helper.from_array(np.asarray(array), name)
    a = np.asarray(array)
    t = T()
    t.name = name
    t.data_type = dtype
    t.dims.extend(a.shape)
    flat = a.reshape(-1).astype(np.int64)
    if dtype in (21, 22, 23):
        nib = (flat & 0xF).astype(np.uint8)
        if nib.size % 2:
            nib = np.append(nib, np.uint8(0))
        t.raw_data = (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8).tobytes()
    else:
        t.raw_data = (flat & 0xFF).astype(np.uint8).tobytes()
    return t


def value_info(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def make_model(name, nodes, inputs, outputs, opset, inits=()):
    """`inputs` [(name, array, code or None)], `outputs` [(name, code)]."""
    graph = helper.make_graph(
        nodes, name,
        [value_info(n, c if c is not None else ONNX_TYPE[np.asarray(a).dtype],
                    np.asarray(a).shape) for n, a, c in inputs],
        [value_info(n, c, None) for n, c in outputs],
        [tensor(n, a, c) for n, a, c in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10 if opset >= 21 else 9
    return m


# --- numpy ports of the reference ops --------------------------------------

INT_RANGE = {np.int8: (-128, 127), np.uint8: (0, 255),
             np.int16: (-32768, 32767), np.uint16: (0, 65535)}


def expand_blocked(p, axis, block, n):
    """The reference's reshape_input: p repeated block times along axis,
    cut to x's length n."""
    return np.repeat(p, block, axis=axis).take(np.arange(n), axis=axis)


def quantize_int(x, scale, zp, dt, axis=1, block=0):
    if block:
        scale = expand_blocked(scale, axis, block, x.shape[axis])
        zp = expand_blocked(zp, axis, block, x.shape[axis])
    lo, hi = INT_RANGE[dt]
    y = np.rint(x.astype(np.float32) / scale) + zp.astype(np.float32)
    return np.clip(y, lo, hi).astype(dt)


def dequantize_int(x, scale, zp, axis=1, block=0):
    if block:
        scale = expand_blocked(scale, axis, block, x.shape[axis])
        zp = expand_blocked(zp, axis, block, x.shape[axis])
    return ((x.astype(np.float32) - zp.astype(np.float32)) * scale).astype(
        np.float32)


# --- the cases --------------------------------------------------------------

def int_values(rng, dt, shape):
    lo, hi = INT_RANGE[dt]
    v = rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
    flat = v.reshape(-1)
    flat[:3] = [lo, hi, 0]
    return v


def blocked_cases(rng):
    """Quantize/DequantizeLinear-21 blocked on axis 1 (7 = 3 + 3 + 1) and on
    axis 0 of a 3-D tensor (5 = 2 + 2 + 1, axis -3)."""
    for dt in (np.int8, np.uint8, np.int16, np.uint16):
        code = ONNX_TYPE[np.dtype(dt)]
        tname = np.dtype(dt).name
        lo, hi = INT_RANGE[dt]
        for shape, axis, block in (((3, 7), 1, 3), ((5, 2, 3), -3, 2)):
            ax = axis % len(shape)
            pshape = list(shape)
            pshape[ax] = -(-shape[ax] // block)
            # Powers of two: x / scale is exact, so the ties are ties.
            scale = (2.0 ** rng.integers(-3, 3, size=pshape)).astype(np.float32)
            zp = rng.integers(lo // 4, hi // 4 + 1, size=pshape).astype(dt)
            k = rng.integers(-(hi - lo), hi - lo, size=shape)
            frac = rng.choice([0.0, 0.5, -0.5, 0.25, 1.5], size=shape)
            x = ((k + frac) * expand_blocked(scale, ax, block, shape[ax])
                 ).astype(np.float32)
            x.reshape(-1)[:2] = [1e6, -1e6]  # saturation
            suffix = "%s_%dd_axis%d_b%d" % (tname, len(shape), axis, block)
            name = "quantize_blocked_" + suffix
            m = make_model(name, [helper.make_node(
                "QuantizeLinear", ["x", "s", "z"], ["y"], axis=axis,
                block_size=block)], [("x", x, None), ("s", scale, None),
                                     ("z", zp, None)], [("y", code)], 21)
            yield name, m, [x, scale, zp], [quantize_int(x, scale, zp, dt,
                                                         ax, block)], True
            q = int_values(rng, dt, shape)
            fscale = rng.uniform(0.01, 2, size=pshape).astype(np.float32)
            name = "dequantize_blocked_" + suffix
            m = make_model(name, [helper.make_node(
                "DequantizeLinear", ["x", "s", "z"], ["y"], axis=axis,
                block_size=block)], [("x", q, None), ("s", fscale, None),
                                     ("z", zp, None)], [("y", T.FLOAT)], 21)
            yield name, m, [q, fscale, zp], [dequantize_int(q, fscale, zp, ax,
                                                            block)], True


def huge_case():
    """Beyond int32's range: ORT 1.30 wraps -4e9 to 32767 for int16 (it
    converts through int32 before saturating); the reference saturates."""
    x = np.array([[1e9, -1e9, np.inf, -np.inf, 3e4, -4e4]], np.float32)
    s = np.array([[0.25, 0.5]], np.float32)
    z = np.array([[1, -1]], np.int16)
    m = make_model("quantize_blocked_int16_beyond_int32", [helper.make_node(
        "QuantizeLinear", ["x", "s", "z"], ["y"], axis=1, block_size=3)],
        [("x", x, None), ("s", s, None), ("z", z, None)], [("y", T.INT16)], 21)
    yield ("quantize_blocked_int16_beyond_int32", m, [x, s, z],
           [quantize_int(x, s, z, np.int16, 1, 3)], False)


def cases(rng):
    yield from blocked_cases(rng)
    yield from huge_case()


# --- write and oracle -------------------------------------------------------

def write(root):
    """Also writes ROOT/xfail.json: no expected failures, every case exact
    (rtol = atol = 0)."""
    exact = {}
    for name, m, inputs, refs, ort in cases(np.random.default_rng(0)):
        exact["%s/%s" % (SUITE, name)] = {
            "rtol": 0, "atol": 0, "reason": "exact: integer and float8 codes"}
        d = os.path.join(root, SUITE, name)
        s = os.path.join(d, "test_data_set_0")
        os.makedirs(s, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        for k, a in enumerate(inputs):
            t = a if isinstance(a, T) else tensor(m.graph.input[k].name, a)
            with open(os.path.join(s, "input_%d.pb" % k), "wb") as f:
                f.write(t.SerializeToString())
        for k, r in enumerate(refs):
            t = r if isinstance(r, T) else tensor(m.graph.output[k].name, r)
            with open(os.path.join(s, "output_%d.pb" % k), "wb") as f:
                f.write(t.SerializeToString())
        if not ort:
            open(os.path.join(d, "numpy_reference"), "w").close()
    import json
    with open(os.path.join(root, "xfail.json"), "w") as f:
        json.dump({"static": {}, "dynamic": {}, "tolerance": exact}, f,
                  indent=1, sort_keys=True)


def same(a, b):
    """Exact equality of two TensorProtos' values (NaN equal to NaN)."""
    if a.data_type != b.data_type or list(a.dims) != list(b.dims):
        return False
    if a.data_type >= 17:
        return a.raw_data == b.raw_data
    x, y = numpy_helper.to_array(a), numpy_helper.to_array(b)
    if x.dtype.kind == "f":
        return np.array_equal(x, y, equal_nan=True)
    return np.array_equal(x, y)


def oracle(root, cmd):
    base = os.path.join(root, SUITE)
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        s = os.path.join(d, "test_data_set_0")
        if os.path.exists(os.path.join(d, "numpy_reference")):
            print("%s: numpy reference" % name)
            continue
        outs = sorted(f for f in os.listdir(s) if f.startswith("output_"))
        refs = {}
        for f in outs:
            refs[f] = T()
            with open(os.path.join(s, f), "rb") as fh:
                refs[f].ParseFromString(fh.read())
        r = subprocess.run(cmd + [os.path.join(d, "model.onnx"), "--inputs", s,
                                  "--save", s], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s: %s" % (name, (r.stderr or r.stdout).strip()))
        for f in outs:
            got = T()
            with open(os.path.join(s, f), "rb") as fh:
                got.ParseFromString(fh.read())
            if not same(got, refs[f]):
                sys.exit("%s: ORT and the numpy reference differ in %s" % (name, f))
        print("%s: ORT agrees with numpy (%s)" % (name, r.stdout.strip().replace("\n", "; ")))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "oracle":
        oracle(sys.argv[2], " ".join(sys.argv[3:]).split())
    else:
        sys.exit(__doc__)

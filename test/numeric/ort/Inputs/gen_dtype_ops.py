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
and beyond the type's range (saturation).

int4/uint4 (21, 22): as graph inputs and outputs (packed two per byte, odd
counts), Quantize/DequantizeLinear per axis and blocked, Cast/CastLike,
Constant and initializers, Identity, Reshape, Shape, Transpose, Squeeze,
Unsqueeze, Flatten.

float8 (17-20) and float4e2m1 (23): every code decoded (Cast to float), a
dense sweep of floats encoded (Cast with saturate 1 and 0: every
representable value, the ties between neighbours and one f32 ulp either
side, the overflow boundary, subnormals, NaN, infinities, random values),
casts between the formats, Quantize/DequantizeLinear, Constant and the
data-movement ops. ORT 1.30's Node binding has no float8 tensors, so ORT
checks the float8 cases through float32 models (Cast f32 -> f8 -> f32 and
QDQ); float4e2m1 ORT does not run (no Cast-23): numpy only.

Cast and CastLike from STRING to every float8 format (saturate 1 and 0),
float4e2m1, int4 and uint4 (string_cases).

Models built with onnx 1.12's helper; newer type codes (17-23) are written
as integers directly.
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
    if isinstance(array, Coded):
        array, dtype = array.a, array.code
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
                    a.shape if isinstance(a, Coded) else np.asarray(a).shape)
         for n, a, c in inputs],
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


# Float8 and float4e2m1: exponent bits, mantissa bits, bias, largest finite
# magnitude code, fnuz (no -0, NaN 0x80), infinity (e5m2), always
# saturating (float4e2m1: no NaN or infinity; NaN gives +6, code 7).
SMALL = {17: (4, 3, 7, 0x7E, False, False, False),
         18: (4, 3, 8, 0x7F, True, False, False),
         19: (5, 2, 15, 0x7B, False, True, False),
         20: (5, 2, 16, 0x7F, True, False, False),
         23: (2, 1, 1, 0x7, False, False, True)}
NAMES = {17: "e4m3fn", 18: "e4m3fnuz", 19: "e5m2", 20: "e5m2fnuz",
         23: "f4e2m1"}


def magnitudes(code):
    """The non-negative values of magnitude codes 0..max, and one more: the
    value the next code would have (what rounding past max reaches)."""
    e_bits, m_bits, bias, maxc = SMALL[code][:4]
    vals = []
    for c in range(maxc + 1):
        e, m = c >> m_bits, c & ((1 << m_bits) - 1)
        vals.append(m * 2.0 ** (1 - bias - m_bits) if e == 0 else
                    (1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias))
    vals.append(2 * vals[-1] - vals[-2])
    return np.array(vals)


def small_decode(codes, code):
    """Codes (uint8) -> float32: the ONNX reference's to-float32."""
    e_bits, m_bits, bias, maxc, fnuz, inf, _ = SMALL[code]
    vals = magnitudes(code)
    sbit = 1 << (e_bits + m_bits)
    out = []
    for c in np.asarray(codes).reshape(-1).astype(int):
        neg, mag = bool(c & sbit), c & (sbit - 1)
        if fnuz and c == 0x80:
            v = np.nan
        elif code == 17 and mag == 0x7F:
            v = -np.nan if neg else np.nan
        elif code == 19 and mag >= 0x7C:
            v = np.inf if mag == 0x7C else np.nan
            v = -v if neg else v
        else:
            v = -vals[mag] if neg else vals[mag]
        out.append(v)
    return np.array(out, np.float32).reshape(np.shape(codes))


def small_encode(x, code, saturate=True):
    """float32 -> codes (uint8): round to nearest even; beyond the largest
    value (after rounding) and infinities saturate or become NaN / inf as
    the Cast spec's tables say; NaN keeps its sign (fnuz: 0x80)."""
    e_bits, m_bits, bias, maxc, fnuz, inf, always = SMALL[code]
    saturate = saturate or always
    vals = magnitudes(code)
    sbit = 1 << (e_bits + m_bits)
    out = []
    for v in np.asarray(x, np.float32).reshape(-1):
        neg = bool(np.signbit(v))
        if np.isnan(v):
            out.append(0x80 if fnuz else 0x7 if always else
                       (0x7F | (sbit if neg else 0)))
            continue
        a = abs(float(v))
        if a >= vals[-1]:
            i = maxc + 1
        else:
            i = int(np.searchsorted(vals, a, side="right")) - 1
            lo, hi = a - vals[i], vals[i + 1] - a
            if hi < lo or (hi == lo and i % 2):
                i += 1
        if i > maxc:  # overflow
            if saturate:
                i = maxc
            elif fnuz:
                out.append(0x80)
                continue
            else:
                i = 0x7C if inf else 0x7F
        if fnuz and i == 0:
            out.append(0)
        else:
            out.append(i | (sbit if neg else 0))
    return np.array(out, np.uint8).reshape(np.shape(x))


def sweep(code, rng):
    """Floats that probe every rounding decision of `code` (float32)."""
    vals = magnitudes(code)
    f32 = lambda a: np.asarray(a, np.float32)  # noqa: E731
    mids = (vals[:-1] + vals[1:]) / 2
    pts = [vals, mids, np.nextafter(f32(mids), f32(np.inf)),
           np.nextafter(f32(mids), f32(0)), vals[-1:] * [1.0, 1.01, 2, 1e6],
           [1e30, 3e38, 1e-30, 1e-40, vals[1] / 4, vals[1] / 2 * 1.0001],
           np.exp(rng.uniform(np.log(vals[1] / 8), np.log(vals[-1] * 4),
                              size=200))]
    pos = np.unique(np.concatenate([f32(p).reshape(-1) for p in pts]))
    return np.concatenate([pos, -pos, f32([0.0, -0.0, np.inf, -np.inf,
                                          np.nan, -np.nan])]).astype(np.float32)


def int4_params(x, scale, zp, axis, block):
    """scale and zp broadcastable against x: per-tensor, per-axis (1-D) or
    blocked along `axis`."""
    if block:
        scale = expand_blocked(scale, axis, block, x.shape[axis])
        zp = expand_blocked(zp, axis, block, x.shape[axis])
    elif np.ndim(scale) == 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return scale, zp


def int4_quantize(x, scale, zp, signed, axis=1, block=0):
    scale, zp = int4_params(x, scale, zp, axis, block)
    lo, hi = (-8, 7) if signed else (0, 15)
    y = np.rint(x / scale) + zp.astype(np.float32)
    return np.clip(y, lo, hi).astype(np.int8 if signed else np.uint8)


def int4_dequantize(x, scale, zp, axis=1, block=0):
    scale, zp = int4_params(x, scale, zp, axis, block)
    return ((x.astype(np.float32) - zp.astype(np.float32)) * scale).astype(
        np.float32)


class Coded:
    """An array of codes (int4 values, float8/float4 bit patterns) of ONNX
    type `code`: written with tensor(..., code)."""

    def __init__(self, a, code):
        self.a, self.code = np.asarray(a), code
        self.shape, self.dtype = self.a.shape, self.a.dtype


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


def n(op, ins, outs, **kw):
    return helper.make_node(op, ins, outs, **kw)


def int4_cases(rng):
    for code, signed in ((22, True), (21, False)):
        t = "int4" if signed else "uint4"
        lo, hi = (-8, 7) if signed else (0, 15)
        dt = np.int8 if signed else np.uint8
        # QuantizeLinear per axis, int4 output (3 x 5: an odd count).
        s = (2.0 ** rng.integers(-2, 2, size=5)).astype(np.float32)
        z = rng.integers(lo + 2, hi - 1, size=5).astype(dt)
        k = rng.integers(lo - 4, hi + 4, size=(3, 5))
        x = ((k + rng.choice([0, 0.5, -0.5, 0.25], size=(3, 5))) * s
             ).astype(np.float32)
        name = "quantize_%s_axis" % t
        m = make_model(name, [n("QuantizeLinear", ["x", "s", "z"], ["y"],
                                axis=1)],
                       [("x", x, None)], [("y", code)], 21,
                       inits=[("s", s, None), ("z", z, code)])
        yield name, m, [x], [Coded(int4_quantize(x, s, z, signed), code)], False
        name = "qdq_%s_axis" % t
        m = make_model(name, [n("QuantizeLinear", ["x", "s", "z"], ["q"],
                                axis=1),
                              n("DequantizeLinear", ["q", "s", "z"], ["y"],
                                axis=1)],
                       [("x", x, None)], [("y", T.FLOAT)], 21,
                       inits=[("s", s, None), ("z", z, code)])
        yield name, m, [x], [int4_dequantize(
            int4_quantize(x, s, z, signed), s, z)], True
        # Blocked (block 4 along axis 1 of 3 x 6: 2 blocks, the last partial),
        # then dequantized: int4 never crosses the API.
        s = (2.0 ** rng.integers(-2, 2, size=(3, 2))).astype(np.float32)
        z = rng.integers(lo + 2, hi - 1, size=(3, 2)).astype(dt)
        x = (rng.integers(lo - 4, hi + 4, size=(3, 6)) *
             expand_blocked(s, 1, 4, 6)).astype(np.float32)
        name = "qdq_%s_blocked" % t
        q = int4_quantize(x, s, z, signed, 1, 4)
        m = make_model(name, [n("QuantizeLinear", ["x", "s", "z"], ["q"],
                                axis=1, block_size=4),
                              n("DequantizeLinear", ["q", "s", "z"], ["y"],
                                axis=1, block_size=4)],
                       [("x", x, None)], [("y", T.FLOAT)], 21,
                       inits=[("s", s, None), ("z", z, code)])
        yield name, m, [x], [int4_dequantize(q, s, z, 1, 4)], True
        # DequantizeLinear of an int4 input (odd count), blocked on axis 0.
        q = rng.integers(lo, hi, size=(5, 3), endpoint=True).astype(dt)
        s = rng.uniform(0.1, 2, size=(3, 3)).astype(np.float32)
        z = rng.integers(lo, hi, size=(3, 3), endpoint=True).astype(dt)
        name = "dequantize_%s_blocked_input" % t
        m = make_model(name, [n("DequantizeLinear", ["q", "s", "z"], ["y"],
                                axis=0, block_size=2)],
                       [("q", Coded(q, code), code), ("s", s, None),
                        ("z", Coded(z, code), code)], [("y", T.FLOAT)], 21)
        yield (name, m, [Coded(q, code), s, Coded(z, code)],
               [int4_dequantize(q, s, z, 0, 2)], False)
        # The data-movement ops on int4 (3 x 1 x 5 = 15 elements).
        q = rng.integers(lo, hi, size=(3, 1, 5), endpoint=True).astype(dt)
        name = "movement_%s" % t
        shape15 = np.array([5, 3], np.int64)
        m = make_model(name, [
            n("Transpose", ["q"], ["tr"], perm=[2, 1, 0]),
            n("Reshape", ["tr", "shape"], ["re"]),
            n("Squeeze", ["q", "ax1"], ["sq"]),
            n("Unsqueeze", ["sq", "ax0"], ["un"]),
            n("Flatten", ["q"], ["fl"], axis=2),
            n("Identity", ["q"], ["id"]),
            n("Shape", ["q"], ["sh"])],
            [("q", Coded(q, code), code)],
            [("tr", code), ("re", code), ("sq", code), ("un", code),
             ("fl", code), ("id", code), ("sh", T.INT64)], 21,
            inits=[("shape", shape15, None),
                   ("ax1", np.array([1], np.int64), None),
                   ("ax0", np.array([0], np.int64), None)])
        tr = q.transpose(2, 1, 0)
        yield name, m, [Coded(q, code)], [
            Coded(tr, code), Coded(tr.reshape(5, 3), code),
            Coded(q.reshape(3, 5), code), Coded(q.reshape(1, 3, 5), code),
            Coded(q.reshape(3, 5), code), Coded(q, code),
            np.array([3, 1, 5], np.int64)], False
        # The same ops between a QuantizeLinear and DequantizeLinear (float
        # at the API, so ORT runs it; ORT 1.30 has no int4 Flatten).
        x = (q.astype(np.float32) * 0.5).astype(np.float32)
        name = "movement_%s_qdq" % t
        zero = np.zeros((), dt)
        m = make_model(name, [
            n("QuantizeLinear", ["x", "half", "zero"], ["q"]),
            n("Transpose", ["q"], ["tr"], perm=[2, 1, 0]),
            n("Reshape", ["tr", "shape"], ["re"]),
            n("Squeeze", ["re", "ax1"], ["sq"]),
            n("Unsqueeze", ["sq", "ax0"], ["un"]),
            n("Identity", ["un"], ["id"]),
            n("DequantizeLinear", ["id", "half", "zero"], ["y"]),
            n("Shape", ["q"], ["sh"])],
            [("x", x, None)], [("y", T.FLOAT), ("sh", T.INT64)], 21,
            inits=[("shape", np.array([5, 1, 3], np.int64), None),
                   ("ax1", np.array([1], np.int64), None),
                   ("ax0", np.array([0], np.int64), None),
                   ("half", np.float32(0.5), None), ("zero", zero, code)])
        yield name, m, [x], [
            tr.reshape(1, 5, 3).astype(np.float32) * 0.5,
            np.array([3, 1, 5], np.int64)], True
        # Cast: int4 -> float, int32, the other 4-bit type (wraps), and
        # CastLike; int32 -> int4 keeps the low 4 bits (ORT agrees).
        other = 21 if signed else 22
        wrap = (q.astype(np.int64) & 0xF)
        wrap = wrap if signed else np.where(wrap >= 8, wrap - 16, wrap)
        i32 = rng.integers(-40, 40, size=(3, 1, 5)).astype(np.int32)
        low = i32.astype(np.int64) & 0xF
        low = np.where(low >= 8, low - 16, low) if signed else low
        name = "cast_%s" % t
        m = make_model(name, [
            n("Cast", ["q"], ["f"], to=T.FLOAT),
            n("Cast", ["q"], ["i"], to=T.INT32),
            n("Cast", ["q"], ["o"], to=other),
            n("CastLike", ["i32", "q"], ["l"]),
            n("Cast", ["i32"], ["c"], to=code)],
            [("q", Coded(q, code), code), ("i32", i32, None)],
            [("f", T.FLOAT), ("i", T.INT32), ("o", other), ("l", code),
             ("c", code)], 21)
        yield name, m, [Coded(q, code), i32], [
            q.astype(np.float32), q.astype(np.int32), Coded(wrap, other),
            Coded(low, code), Coded(low, code)], False
        # Through int4 and back (float and int32 at the API: ORT runs it).
        name = "cast_%s_roundtrip" % t
        f = rng.integers(lo, hi, size=(7,), endpoint=True).astype(np.float32)
        m = make_model(name, [
            n("Cast", ["i32"], ["c"], to=code),
            n("Cast", ["c"], ["ci"], to=T.INT32),
            n("Cast", ["c"], ["cf"], to=T.FLOAT),
            n("Cast", ["f"], ["d"], to=code),
            n("CastLike", ["d", "f"], ["df"])],
            [("i32", i32, None), ("f", f, None)],
            [("ci", T.INT32), ("cf", T.FLOAT), ("df", T.FLOAT)], 21)
        yield name, m, [i32, f], [low.astype(np.int32), low.astype(np.float32),
                                  f], True
        # float -> int4: integers in range (ORT agrees) ...
        f = rng.integers(lo, hi, size=(7,), endpoint=True).astype(np.float32)
        name = "cast_float_to_%s" % t
        m = make_model(name, [n("Cast", ["f"], ["y"], to=code)],
                       [("f", f, None)], [("y", code)], 21)
        yield name, m, [f], [Coded(f.astype(dt), code)], False
        # ... and ties and values beyond the range: the opset-21 reference
        # rounds half to even and saturates (ORT 1.30 rounds half away from
        # zero and wraps: 2.5 -> 3, 20 -> 4).
        f = np.array([2.5, 3.5, -2.5, 0.5, 1.7, -1.2, 100, -100, 7.5, 15.5],
                     np.float32)
        name = "cast_float_to_%s_ties_range" % t
        m = make_model(name, [n("Cast", ["f"], ["y"], to=code)],
                       [("f", f, None)], [("y", code)], 21)
        yield name, m, [f], [Coded(np.clip(np.rint(f), lo, hi).astype(dt),
                                   code)], False
        # A Constant (odd count) and an initializer of int4.
        c = rng.integers(lo, hi, size=(3,), endpoint=True).astype(dt)
        w = rng.integers(lo, hi, size=(5,), endpoint=True).astype(dt)
        cst = tensor("cv", c, code)
        for out_int4 in (False, True):
            name = "constant_%s%s" % (t, "_output" if out_int4 else "")
            m = make_model(name, [
                n("Constant", [], ["k"], value=cst),
                n("Cast", ["k"], ["kc"], to=T.INT32),
                n("DequantizeLinear", ["w", "one"], ["wd"]),
                n("Identity", ["w"], ["wi"])],
                [], [("kc", T.INT32), ("wd", T.FLOAT)] +
                [("wi", code)] * out_int4, 21,
                inits=[("w", w, code), ("one", np.float32(0.5), None)])
            yield name, m, [], [c.astype(np.int32),
                                (w.astype(np.float32) * 0.5).astype(np.float32)
                                ] + [Coded(w, code)] * out_int4, not out_int4


def float8_cases(rng):
    for code in (17, 18, 19, 20, 23):
        t = NAMES[code]
        opset = 23 if code == 23 else 21
        count = 16 if code == 23 else 256
        every = np.arange(count, dtype=np.uint8)
        if code == 23:
            every = np.append(every, np.uint8(9))  # an odd count
        # Every code to float.
        name = "%s_decode_all" % t
        m = make_model(name, [n("Cast", ["c"], ["y"], to=T.FLOAT)],
                       [("c", Coded(every, code), code)], [("y", T.FLOAT)],
                       opset)
        yield name, m, [Coded(every, code)], [small_decode(every, code)], False
        x = sweep(code, rng)
        for sat in ((1,) if code == 23 else (1, 0)):
            # The sweep to codes.
            name = "%s_encode_sweep_sat%d" % (t, sat)
            m = make_model(name, [n("Cast", ["x"], ["y"], to=code,
                                    saturate=sat)],
                           [("x", x, None)], [("y", code)], opset)
            yield name, m, [x], [Coded(small_encode(x, code, sat), code)], False
            if code == 23:
                continue
            # Through the float8 type and back: float32 at the API, so ORT
            # runs it. Without saturation ORT 1.30 departs from the spec
            # ("[x] > FLT_MAX -> NaN / Inf", [x] rounded to the mantissa
            # width) in two ranges, which stay in the numpy-checked encode
            # sweep only: e4m3fn 480 <= |x| < 496 gives 448 (the spec: NaN),
            # e5m2 61440 <= |x| < 65536 gives NaN (the spec: Inf).
            lo, hi = {17: (480, 496), 19: (61440, 65536)}.get(code, (0, 0))
            if not sat:
                x = x[~((np.abs(x) >= lo) & (np.abs(x) < hi))]
            name = "%s_roundtrip_sweep_sat%d" % (t, sat)
            m = make_model(name, [n("Cast", ["x"], ["c"], to=code,
                                    saturate=sat),
                                  n("Cast", ["c"], ["y"], to=T.FLOAT)],
                           [("x", x, None)], [("y", T.FLOAT)], opset)
            yield name, m, [x], [small_decode(small_encode(x, code, sat),
                                              code)], True
        if code == 23:
            continue
        # Every code to the other float8 formats (saturating).
        for other in (17, 18, 19, 20):
            if other == code:
                continue
            name = "%s_to_%s_all" % (t, NAMES[other])
            m = make_model(name, [n("Cast", ["c"], ["y"], to=other)],
                           [("c", Coded(every, code), code)], [("y", other)],
                           opset)
            yield name, m, [Coded(every, code)], [Coded(small_encode(
                small_decode(every, code), other), other)], False
        # QuantizeLinear / DequantizeLinear per axis with a float8 zero point
        # (0), saturate 1 and 0.
        s = np.array([0.5, 2.0, 0.125], np.float32)
        z = np.zeros(3, np.uint8)
        xq = (rng.choice(magnitudes(code)[:-1], size=(4, 3)) *
              rng.choice([-1, 1], size=(4, 3)) * s *
              rng.choice([1, 1.03, 0.97, 3], size=(4, 3))).astype(np.float32)
        xq[0, 0] = 1e30
        for sat in (1, 0):
            q = small_encode(xq / s, code, sat)
            name = "qdq_%s_sat%d" % (t, sat)
            m = make_model(name, [
                n("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1,
                  saturate=sat),
                n("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)],
                [("x", xq, None)], [("y", T.FLOAT)], opset,
                inits=[("s", s, None), ("z", z, code)])
            yield name, m, [xq], [(small_decode(q, code) * s).astype(
                np.float32)], True
            name = "quantize_%s_sat%d" % (t, sat)
            m = make_model(name, [
                n("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1,
                  saturate=sat)], [("x", xq, None)], [("q", code)], opset,
                inits=[("s", s, None), ("z", z, code)])
            yield name, m, [xq], [Coded(q, code)], False
        # The data-movement ops and a Constant.
        c = rng.integers(0, 256, size=(3, 1, 5)).astype(np.uint8)
        k = np.arange(0, 256, 37, dtype=np.uint8)
        name = "movement_%s" % t
        m = make_model(name, [
            n("Transpose", ["c"], ["tr"], perm=[2, 1, 0]),
            n("Reshape", ["tr", "shape"], ["re"]),
            n("Squeeze", ["c", "ax1"], ["sq"]),
            n("Unsqueeze", ["sq", "ax0"], ["un"]),
            n("Flatten", ["c"], ["fl"], axis=2),
            n("Identity", ["c"], ["id"]),
            n("Shape", ["c"], ["sh"]),
            n("Constant", [], ["k"], value=tensor("kv", k, code)),
            n("Cast", ["k"], ["kf"], to=T.FLOAT)],
            [("c", Coded(c, code), code)],
            [("tr", code), ("re", code), ("sq", code), ("un", code),
             ("fl", code), ("id", code), ("sh", T.INT64), ("kf", T.FLOAT)],
            opset, inits=[("shape", np.array([5, 3], np.int64), None),
                          ("ax1", np.array([1], np.int64), None),
                          ("ax0", np.array([0], np.int64), None)])
        tr = c.transpose(2, 1, 0)
        yield name, m, [Coded(c, code)], [
            Coded(tr, code), Coded(tr.reshape(5, 3), code),
            Coded(c.reshape(3, 5), code), Coded(c.reshape(1, 3, 5), code),
            Coded(c.reshape(3, 5), code), Coded(c, code),
            np.array([3, 1, 5], np.int64), small_decode(k, code)], False


def padflow_cases(rng):
    """Pad (constant with its default and a given value, edge, reflect,
    wrap, negative pads) on float8, int4 and float4e2m1 tensors, and the same values
    carried through If, Loop and Scan (opsets 19, 21, 23 widen those four;
    Concat and Gather, whose newest version is 13, have none of these
    types): numpy references. Then the control flow between a Cast
    (float8, for ORT) or a QuantizeLinear (int4) from float32 and the way
    back."""
    for code in (17, 19, 22, 21, 23):
        t = NAMES.get(code, "int4" if code == 22 else "uint4")
        f8 = code in (17, 19, 23)  # through Cast (float4e2m1 too)
        opset = 23 if code == 23 else 21
        if f8:
            # Any code but NaN, so that references compare bit for bit.
            ok = np.array([c for c in range(16 if code == 23 else 256)
                           if not np.isnan(small_decode(
                               np.array([c], np.uint8), code)[0])], np.uint8)
            vals = lambda shape: rng.choice(ok, size=shape)
            kv = small_encode(np.array([1.5], np.float32), code)
        else:
            lo, hi = (-8, 7) if code == 22 else (0, 15)
            vals = lambda shape: rng.integers(lo, hi, size=shape,
                                              endpoint=True).astype(np.int8)
            kv = np.array([5], np.int8)
        a, a2 = vals((3, 4)), vals((3, 4))
        pads = np.array([1, 0, 0, 2], np.int64)
        crop = np.array([0, 1, 0, -1], np.int64)
        name = "pad_%s" % t
        m = make_model(name, [
            n("Pad", ["a", "pads"], ["pc"]),
            n("Pad", ["a", "pads", "kv"], ["pk"]),
            n("Pad", ["a", "pads"], ["pe"], mode="edge"),
            n("Pad", ["a", "pads"], ["pr"], mode="reflect"),
            n("Pad", ["a", "pads"], ["pw"], mode="wrap"),
            n("Pad", ["a", "crop"], ["ps"])],
            [("a", Coded(a, code), code)],
            [(o, code) for o in ("pc", "pk", "pe", "pr", "pw", "ps")], opset,
            inits=[("pads", pads, None), ("crop", crop, None),
                   ("kv", Coded(kv.reshape(()), code), code)])
        pw = ((1, 0), (0, 2))
        shift = lambda v: np.pad(v, ((0, 0), (1, 0)))[:, :4]
        yield name, m, [Coded(a, code)], [Coded(x, code) for x in (
            np.pad(a, pw), np.pad(a, pw, constant_values=kv[0]),
            np.pad(a, pw, mode="edge"), np.pad(a, pw, mode="reflect"),
            np.pad(a, pw, mode="wrap"), shift(a))], False
        # If picks a (then) or a2 (else); a Loop of 3 trips shifts its
        # carried value right by a column (Pad with a negative end) and
        # emits each carried value; a Scan emits the previous row.
        vi = value_info
        then_g = helper.make_graph([n("Identity", ["a"], ["t"])], "then", [],
                                   [vi("t", code, [3, 4])])
        else_g = helper.make_graph([n("Identity", ["a2"], ["e"])], "else", [],
                                   [vi("e", code, [3, 4])])
        def loop_g(step):  # `step` the op that moves the carried value
            return helper.make_graph(
                [n("Identity", ["cond"], ["cond2"]), step,
                 n("Identity", ["v"], ["out"])], "loop",
                [vi("i", T.INT64, []), vi("cond", T.BOOL, []),
                 vi("v", code, [3, 4])],
                [vi("cond2", T.BOOL, []), vi("v2", code, [3, 4]),
                 vi("out", code, [3, 4])])
        scan_g = helper.make_graph(
            [n("Identity", ["row"], ["s2"]), n("Identity", ["s"], ["y"])],
            "scan", [vi("s", code, [4]), vi("row", code, [4])],
            [vi("s2", code, [4]), vi("y", code, [4])])
        def flow(step):
            return [
                n("If", ["c"], ["ia"], then_branch=then_g,
                  else_branch=else_g),
                n("Loop", ["trips", "", "a"], ["lv", "ls"],
                  body=loop_g(step)),
                n("Scan", ["s0", "a"], ["sf", "sy"], body=scan_g,
                  num_scan_inputs=1)]
        s0 = a2[0]
        loop_vals = [a, shift(a), shift(shift(a))]
        refs = [a2, shift(loop_vals[2]), np.stack(loop_vals), a[-1],
                np.concatenate([s0[None], a[:-1]], 0)]
        outs = ("ia", "lv", "ls", "sf", "sy")
        inits = [("crop", crop, None), ("trips", np.array(3, np.int64), None)]
        name = "controlflow_%s" % t
        m = make_model(name, flow(n("Pad", ["v", "crop"], ["v2"])),
                       [("c", np.array(False), None),
                        ("a", Coded(a, code), code),
                        ("a2", Coded(a2, code), code),
                        ("s0", Coded(s0, code), code)],
                       [(o, code) for o in outs], opset, inits=inits)
        yield name, m, [np.array(False), Coded(a, code), Coded(a2, code),
                        Coded(s0, code)], [Coded(r, code) for r in refs], False
        # The control flow from float32 and back: float8 through Cast (ORT
        # runs it; ORT 1.30 has no Pad-21 of these types, so the Loop body
        # moves its value with Identity), int4 through QuantizeLinear /
        # DequantizeLinear (scale 0.5, zero point 0), float4e2m1 through
        # Cast (numpy only: ORT 1.30 has no int4 If-21 and no Cast-23).
        if f8:
            x, x2 = small_decode(a, code), small_decode(a2, code)
            into = lambda i, o: [n("Cast", [i], [o], to=code)]
            back = lambda i, o: [n("Cast", [i], [o], to=T.FLOAT)]
            dec = lambda v: small_decode(v, code)
            q_inits = []
        else:
            x = (a.astype(np.float32) * 0.5).astype(np.float32)
            x2 = (a2.astype(np.float32) * 0.5).astype(np.float32)
            into = lambda i, o: [n("QuantizeLinear", [i, "half", "zero"], [o])]
            back = lambda i, o: [n("DequantizeLinear", [i, "half", "zero"],
                                   [o])]
            dec = lambda v: (v.astype(np.float32) * 0.5).astype(np.float32)
            q_inits = [("half", np.float32(0.5), None),
                       ("zero", np.zeros((), np.int8 if code == 22
                                         else np.uint8), code)]
        nodes = (into("x", "a") + into("x2", "a2") +
                 [n("Gather", ["x2", "zi"], ["x20"], axis=0)] +  # float32
                 into("x20", "s0") + flow(n("Identity", ["v"], ["v2"])))
        fouts = outs
        for o in fouts:
            nodes += back(o, o + "_f")
        name = "controlflow_%s_f32" % t
        m = make_model(name, nodes,
                       [("c", np.array(False), None), ("x", x, None),
                        ("x2", x2, None)],
                       [(o + "_f", T.FLOAT) for o in fouts], opset,
                       inits=inits[1:] + q_inits + [
                           ("zi", np.array(0, np.int64), None)])
        yield name, m, [np.array(False), x, x2], [
            dec(a2), dec(a), dec(np.stack([a, a, a])), dec(a[-1]),
            dec(np.concatenate([s0[None], a[:-1]], 0))], code in (17, 19)


def string_cases(rng):
    """Cast and CastLike from STRING to the float8 formats (saturate 1 and
    0), float4e2m1, int4 and uint4. The numpy port of the reference parses
    each string to a double (Python's float(), what strtod reads for these
    strings), rounds it to float32 (as ONNX Runtime parses to float) and
    encodes that as Cast from float32 does; the integers keep their low 4
    bits (Cast from int64: the spec's "discard higher bits"). The strings:
    the float sweep of each format written with repr() (every rounding
    decision), and special spellings (INF, +Inf, -inf, NaN, -0, leading
    spaces, exponents). ORT checks them through float32 / int32 models
    (string -> f8 / int4 -> float32 / int32); the float8 / int4 tensors at
    the API and float4e2m1 (no Cast-23 in ORT 1.30) keep the numpy
    reference."""
    special = ["1.5", "-3", "100", "0.3", "1e9", "-1E9", "INF", "+Inf",
               "-inf", "NaN", "nan", "-0", "0", "0.0001", "460", " 7",
               "1E-3", "2.5e1", "3.4028235e38", "1e-40"]
    for code in (17, 18, 19, 20, 23):
        t = NAMES[code]
        opset = 23 if code == 23 else 21
        x = sweep(code, rng)
        strs = np.array(special + [repr(float(v)) for v in x], dtype=object)
        f = np.array([float(v) for v in strs]).astype(np.float32)
        for sat in ((1,) if code == 23 else (1, 0)):
            name = "cast_string_to_%s_sat%d" % (t, sat)
            m = make_model(name, [n("Cast", ["s"], ["y"], to=code,
                                    saturate=sat)],
                           [("s", strs, T.STRING)], [("y", code)], opset)
            yield name, m, [strs], [Coded(small_encode(f, code, sat),
                                          code)], False
            if code == 23:
                continue
            # ORT 1.30's two departures without saturation (float8_cases).
            lo, hi = {17: (480, 496), 19: (61440, 65536)}.get(code, (0, 0))
            keep = ~((np.abs(f) >= lo) & (np.abs(f) < hi) & (sat == 0))
            name = "cast_string_%s_f32_sat%d" % (t, sat)
            m = make_model(name, [n("Cast", ["s"], ["c"], to=code,
                                    saturate=sat),
                                  n("Cast", ["c"], ["y"], to=T.FLOAT)],
                           [("s", strs[keep], T.STRING)], [("y", T.FLOAT)],
                           opset)
            yield name, m, [strs[keep]], [small_decode(
                small_encode(f[keep], code, sat), code)], True
        # CastLike: the target type from a float8 / float4 constant.
        name = "castlike_string_to_%s" % t
        m = make_model(name, [n("CastLike", ["s", "like"], ["c"],
                                saturate=0 if code != 23 else 1),
                              n("Cast", ["c"], ["y"], to=T.FLOAT)],
                       [("s", strs[:20], T.STRING)], [("y", T.FLOAT)], opset,
                       inits=[("like", np.zeros(1, np.uint8), code)])
        yield name, m, [strs[:20]], [small_decode(small_encode(
            f[:20], code, code == 23), code)], code != 23
    ints = np.array(["0", "1", "-1", "7", "-8", "8", "-9", "15", "16", "-3",
                     "100", "255", "-129", "+5", " 6", "9223372036854775807",
                     "-9223372036854775808"], dtype=object)
    v = np.array([int(s) for s in ints], dtype=object)
    for code, signed in ((22, True), (21, False)):
        t = "int4" if signed else "uint4"
        low = np.array([int(i) & 0xF for i in v], np.int64)
        ref = np.where(low >= 8, low - 16, low) if signed else low
        name = "cast_string_to_%s" % t
        m = make_model(name, [n("Cast", ["s"], ["y"], to=code)],
                       [("s", ints, T.STRING)], [("y", code)], 21)
        yield name, m, [ints], [Coded(ref, code)], False
        # ORT 1.30 gives 0 for the int64 extremes (the last two; the spec
        # leaves no room: "discard higher bits"), so they stay numpy-only.
        name = "cast_string_%s_int32" % t
        m = make_model(name, [n("Cast", ["s"], ["c"], to=code),
                              n("Cast", ["c"], ["y"], to=T.INT32)],
                       [("s", ints[:-2], T.STRING)], [("y", T.INT32)], 21)
        yield name, m, [ints[:-2]], [ref[:-2].astype(np.int32)], True
        name = "castlike_string_to_%s" % t
        m = make_model(name, [n("CastLike", ["s", "like"], ["c"]),
                              n("Cast", ["c"], ["y"], to=T.INT32)],
                       [("s", ints[:-2], T.STRING)], [("y", T.INT32)], 21,
                       inits=[("like", np.zeros(1, np.int8), code)])
        yield name, m, [ints[:-2]], [ref[:-2].astype(np.int32)], True


def cases(rng):
    yield from blocked_cases(rng)
    yield from huge_case()
    yield from int4_cases(rng)
    yield from float8_cases(rng)
    yield from padflow_cases(rng)
    yield from string_cases(rng)


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
        # NaN where the other has NaN, every other value bit for bit (-0).
        nan = np.isnan(x)
        return (np.array_equal(nan, np.isnan(y)) and
                x[~nan].tobytes() == y[~nan].tobytes())
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

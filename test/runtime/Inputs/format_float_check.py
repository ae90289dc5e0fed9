#!/usr/bin/python3
"""Cast-to-string float formatting (runtime/src/strings.c) against numpy.

    format_float_check.py PROGRAM [--count N]

PROGRAM is onnxc-format-float-test. The ONNX reference's Cast to string is
x.astype(numpy.str_): numpy's str() of each element. Compared here:
float64 and float32 with numpy's str() over edge cases (zeros, nan, inf,
the extremes, subnormals, powers of two and of ten and their neighbours,
the 1e-4 and 1e16 switches between positional and scientific notation,
decimals at a rounding tie such as float32 3e10, integers, short decimals)
and N random bit patterns each; float16 over all 65536 values with numpy;
bfloat16 (which numpy lacks) over all 65536 values with `shortest()`
below, an exact search with Fractions written with numpy's rules, itself
checked first against numpy on every float16. Prints one line per type,
"KIND: N values, M differ", the first differences, and exits 1 if any.
"""
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np


def f32_bits(a):
    return np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)


def edge_f32():
    v = [0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, 0.1, 0.5, 2.0, 3e10,
         1e-4, 1e16, 1e15, 9.999e15, 1.0001e-4, 123456789.0, 16777216.0,
         16777217.0, 3.4028235e38, 1.17549435e-38, 1e-45, 1.4e-45, 1e-40,
         0.6048455, 1e7, 1e8, 1e9, 65504.0, 0.3, 2.5, 1.5e-5]
    a = np.array(v, np.float32)
    bits = [f32_bits(a)]
    # Every power of two and its neighbours (the narrow interval below).
    p2 = (np.arange(0, 255, dtype=np.uint64) << np.uint64(23))
    for d in (-2, -1, 0, 1, 2):
        bits.append((p2.astype(np.int64) + d).clip(0).astype(np.uint64))
    # Powers of ten and the thresholds' neighbours.
    p10 = np.array([10.0 ** k for k in range(-45, 39)], np.float32)
    b10 = f32_bits(p10[np.isfinite(p10) & (p10 > 0)]).astype(np.int64)
    for d in (-1, 0, 1):
        bits.append((b10 + d).astype(np.uint64))
    # Subnormals, integers, short decimals.
    bits.append(np.arange(1, 4096, dtype=np.uint64))
    bits.append(f32_bits(np.arange(-2000, 2000, dtype=np.float32) * 0.5))
    rng = np.random.default_rng(3)
    dec = rng.uniform(-1000, 1000, 20000)
    dec = np.round(dec * 10.0 ** (k := rng.integers(0, 7, 20000))) / 10.0 ** k
    bits.append(f32_bits(dec.astype(np.float32)))
    bits.append(f32_bits(dec.astype(np.float32) * np.float32(1e-6)))
    return np.concatenate(bits)


def edge_f64():
    v = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, 0.1, 1e-4, 1e16,
         9999999999999998.0, 1e-5, 5e-324, 2.2250738585072014e-308,
         1.7976931348623157e308, 1e23, 9007199254740993.0, 0.6048455238342285,
         123456789.0, 3e10, 1e300, 1e-300]
    bits = [np.array(v, np.float64).view(np.uint64)]
    p2 = (np.arange(0, 2047, dtype=np.uint64) << np.uint64(52)).astype(np.int64)
    for d in (-1, 0, 1):
        bits.append((p2 + d).clip(0).astype(np.uint64))
    p10 = np.array([10.0 ** k for k in range(-323, 309)], np.float64)
    b10 = p10[p10 > 0].view(np.uint64).astype(np.int64)
    for d in (-1, 0, 1):
        bits.append((b10 + d).astype(np.uint64))
    bits.append(np.arange(1, 2048, dtype=np.uint64))
    rng = np.random.default_rng(4)
    dec = rng.uniform(-1e6, 1e6, 20000)
    dec = np.round(dec * 10.0 ** (k := rng.integers(0, 12, 20000))) / 10.0 ** k
    bits.append(dec.view(np.uint64))
    return np.concatenate(bits)


def numpy_str(kind, bits):
    dt = {"f64": (np.uint64, np.float64), "f32": (np.uint32, np.float32),
          "f16": (np.uint16, np.float16)}[kind]
    vals = bits.astype(dt[0]).view(dt[1])
    return [str(x) for x in vals]


# ---- an independent reference for bfloat16 (and float16, to check it) ----

def decode(bits, mant, ebits):
    """The value of a binary float with `mant` fraction bits and `ebits`
    exponent bits: Fraction, or a string for nan/inf."""
    bias = (1 << (ebits - 1)) - 1
    sign = -1 if bits >> (mant + ebits) else 1
    e = (bits >> mant) & ((1 << ebits) - 1)
    m = bits & ((1 << mant) - 1)
    if e == (1 << ebits) - 1:
        return "nan" if m else ("-inf" if sign < 0 else "inf")
    if e == 0:
        return sign * Fraction(m, 1 << (mant + bias - 1)), sign
    return sign * Fraction((1 << mant) + m) * Fraction(2) ** (e - bias - mant), sign


def rounds_to(c, bits, mant, ebits):
    """Whether the positive rational c rounds (to nearest, ties to even) to
    the positive float `bits`."""
    v, _ = decode(bits, mant, ebits)
    up, _ = decode(bits + 1, mant, ebits) if ((bits + 1) >> mant) < (1 << ebits) - 1 \
        else (v + (v - decode(bits - 1, mant, ebits)[0]), 1)
    if bits == 0:
        return False
    dn = decode(bits - 1, mant, ebits)[0]
    hi, lo = (v + up) / 2, (v + dn) / 2
    if bits & 1:
        return lo < c < hi
    return lo <= c <= hi


def shortest(bits, mant, ebits, numpy_thresholds=True):
    v = decode(bits, mant, ebits)
    if isinstance(v, str):
        return v
    v, sign = v
    neg = sign < 0 or bits >> (mant + ebits)
    a = abs(v)
    pos = bits & ((1 << (mant + ebits)) - 1)
    if a == 0:
        return "-0.0" if neg else "0.0"
    for p in range(1, 20):
        e = math.floor(math.log10(a))
        best = None
        for ee in (e - 1, e, e + 1):
            scale = Fraction(10) ** (ee - p + 1)
            q = a / scale
            for n in (math.floor(q), math.ceil(q)):
                if n <= 0 or len(str(n)) != p:
                    continue
                c = n * scale
                if rounds_to(c, pos, mant, ebits):
                    # The closest; of two as close, the even last digit
                    # (numpy's Dragon4, as printf rounds an exact tie).
                    if best is None or (abs(c - a), n % 2) < \
                            (abs(best[0] - a), best[1] % 2):
                        best = (c, n, ee)
        if best:
            break
    _, n, ee = best
    digits = str(n).rstrip("0") or "0"
    s = "-" if neg else ""
    if Fraction(1, 10000) <= a < 10 ** 16:  # numpy compares in double
        if ee >= 0:
            ip = (digits + "0" * (ee + 1))[:ee + 1]
            fp = digits[ee + 1:] or "0"
            return s + ip + "." + fp
        return s + "0." + "0" * (-ee - 1) + digits
    m = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return s + m + "e%s%02d" % ("-" if ee < 0 else "+", abs(ee))


def run(program, kind, bits):
    lines = "".join("%s %x\n" % (kind, int(b)) for b in bits)
    r = subprocess.run([program], input=lines, capture_output=True, text=True,
                       check=True)
    return r.stdout.split("\n")[:len(bits)]


def report(kind, bits, got, want):
    bad = [(int(b), g, w) for b, g, w in zip(bits, got, want) if g != w]
    print("%s: %d values, %d differ" % (kind, len(bits), len(bad)))
    for b, g, w in bad[:10]:
        print("  %s bits 0x%x: got %r, want %r" % (kind, b, g, w))
    return len(bad)


def main(argv):
    program = argv[1]
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 200000
    rng = np.random.default_rng(11)
    bad = 0
    b64 = np.concatenate([edge_f64(), rng.integers(0, 2 ** 64, count,
                                                   dtype=np.uint64)])
    bad += report("f64", b64, run(program, "f64", b64), numpy_str("f64", b64))
    b32 = np.concatenate([edge_f32(), rng.integers(0, 2 ** 32, count,
                                                   dtype=np.uint64)])
    bad += report("f32", b32, run(program, "f32", b32), numpy_str("f32", b32))
    b16 = np.arange(0, 1 << 16, dtype=np.uint64)
    want16 = numpy_str("f16", b16)
    bad += report("f16", b16, run(program, "f16", b16), want16)
    # The exact reference agrees with numpy on float16 ...
    ref16 = [shortest(int(b), 10, 5) for b in b16]
    bad += report("reference-f16", b16, ref16, want16)
    # ... and gives bfloat16's.
    refbf = [shortest(int(b), 7, 8) for b in b16]
    bad += report("bf16", b16, run(program, "bf16", b16), refbf)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

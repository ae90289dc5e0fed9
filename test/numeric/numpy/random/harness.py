"""Shared by the random-op tests: build models with onnx.helper, compile them
with onnxc, run them in process through ctypes (M_run on onnxc_tensor
structs, runtime/include/onnxc/runtime.h), and a reference Philox4x32-10 with
the stream layout of docs/codegen.md#random-numbers.

Not a test by itself."""

import ctypes
import math
import os
import subprocess

import numpy as np
import onnx
from onnx import helper, TensorProto

MAX_RANK = 16

DTYPES = {TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64,
          TensorProto.FLOAT16: np.float16, TensorProto.BOOL: np.bool_,
          TensorProto.INT8: np.int8, TensorProto.UINT8: np.uint8,
          TensorProto.INT16: np.int16, TensorProto.UINT16: np.uint16,
          TensorProto.INT32: np.int32, TensorProto.UINT32: np.uint32,
          TensorProto.INT64: np.int64, TensorProto.UINT64: np.uint64,
          TensorProto.BFLOAT16: np.uint16}
CODES = {np.dtype(v): k for k, v in DTYPES.items() if k != TensorProto.BFLOAT16}


class Tensor(ctypes.Structure):
    pass


Tensor._fields_ = [("data", ctypes.c_void_p),
                   ("shape", ctypes.c_int64 * MAX_RANK),
                   ("rank", ctypes.c_int32), ("dtype", ctypes.c_int32),
                   ("owner", ctypes.c_void_p), ("kind", ctypes.c_int32),
                   ("num_items", ctypes.c_int64),
                   ("items", ctypes.POINTER(Tensor))]


def save_model(path, nodes, inputs, outputs, opset=17):
    """A model of `nodes`; inputs/outputs are (name, TensorProto type,
    shape) triples."""
    vi = lambda t: helper.make_tensor_value_info(*t)
    graph = helper.make_graph(nodes, os.path.basename(path),
                              [vi(t) for t in inputs], [vi(t) for t in outputs])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, path)


def compile_model(onnxc, path, out_dir, name, extra=()):
    lib = os.path.join(out_dir, name + ".so")
    subprocess.run([onnxc, path, "-o", lib, "--name", name] + list(extra),
                   check=True)
    return lib


class Model:
    """A compiled model library, run in this process."""

    def __init__(self, lib, name):
        self.lib = ctypes.CDLL(os.path.abspath(lib))
        self.run_fn = getattr(self.lib, name + "_run")
        self.run_fn.restype = ctypes.c_int
        self.run_fn.argtypes = [ctypes.POINTER(Tensor), ctypes.c_int32,
                                ctypes.POINTER(Tensor), ctypes.c_int32]
        info = getattr(self.lib, name + "_info")
        info.restype = ctypes.c_void_p
        # onnxc_model_info: const char *name; int32 num_inputs, num_outputs.
        self.num_outputs = ctypes.c_int32.from_address(info() + 12).value
        self.lib.onnxc_last_error.restype = ctypes.c_char_p
        self.lib.onnxc_tensor_release.argtypes = [ctypes.POINTER(Tensor)]
        self.lib.onnxc_set_random_seed.argtypes = [ctypes.c_uint64]
        self.lib.onnxc_get_random_seed.restype = ctypes.c_uint64

    def set_seed(self, seed):
        self.lib.onnxc_set_random_seed(seed)

    def get_seed(self):
        return self.lib.onnxc_get_random_seed()

    def run(self, *inputs):
        """Runs on numpy arrays; returns the outputs as numpy arrays, or
        raises RuntimeError(status, message)."""
        arrays = [np.require(a, requirements="C") for a in inputs]
        ins = (Tensor * max(1, len(arrays)))()
        for t, a in zip(ins, arrays):
            t.data = a.ctypes.data
            t.rank = a.ndim
            for d, n in enumerate(a.shape):
                t.shape[d] = n
            t.dtype = CODES[a.dtype]
        outs = (Tensor * self.num_outputs)()
        st = self.run_fn(ins, len(arrays), outs, self.num_outputs)
        if st != 0:
            raise RuntimeError(st, self.lib.onnxc_last_error().decode())
        result = []
        for t in outs:
            shape = tuple(t.shape[d] for d in range(t.rank))
            dt = np.dtype(DTYPES[t.dtype])
            n = int(np.prod(shape)) if shape else 1
            buf = (ctypes.c_char * (n * dt.itemsize)).from_address(t.data) \
                if n else b""
            result.append(np.frombuffer(bytes(buf), dt).reshape(shape).copy())
            self.lib.onnxc_tensor_release(ctypes.byref(t))
        return result


# Reference Philox4x32-10 and the stream layout (Random.cpp, random.c).
M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK32, MASK64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def philox(ctr, key):
    """Philox4x32-10 of one counter (4 words) under key (2 words)."""
    c = list(ctr)
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK32, (k1 + W1) & MASK32
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & MASK32, (p0 >> 32) ^ c[3] ^ k1,
             p0 & MASK32]
    return c


def philox_np(i, k, key):
    """The words w0..w3 of elements i (uint64 array) of call k under key."""
    u64 = np.uint64
    c0 = (i & u64(MASK32)).astype(np.uint64)
    c1 = (i >> u64(32)).astype(np.uint64)
    c2 = np.full_like(c0, k & MASK32)
    c3 = np.full_like(c0, k >> 32)
    k0, k1 = key & MASK32, key >> 32
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK32, (k1 + W1) & MASK32
        p0, p1 = u64(M0) * c0, u64(M1) * c2
        c0, c1, c2, c3 = ((p1 >> u64(32)) ^ c1 ^ u64(k0), p1 & u64(MASK32),
                          (p0 >> u64(32)) ^ c3 ^ u64(k1), p0 & u64(MASK32))
    return c0, c1, c2, c3


KATS = [((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
        ((MASK32,) * 4, (MASK32, MASK32),
         (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
        ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
         (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1))]


def check_reference_kat():
    """The reference passes Random123's published philox4x32 10 vectors."""
    for ctr, key, want in KATS:
        assert philox(ctr, key) == list(want), (ctr, key)
        w = philox_np(np.array([ctr[0] | ctr[1] << 32], np.uint64),
                      ctr[2] | ctr[3] << 32, key[0] | key[1] << 32)
        assert [int(x[0]) for x in w] == list(want), (ctr, key)


def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def seeded_key(seed):
    """The key of a node with a float seed attribute (random.c)."""
    bits = int(np.array([seed], np.float64).view(np.uint64)[0])
    return mix64(bits ^ 0x6F6E6E78635F7364)


def seeded_key_int(seed):
    """The key of a Dropout with an int seed attribute."""
    return mix64((seed & MASK64) ^ 0x6F6E6E78635F7364)


def uniform24(w, open_at_zero=False):
    x = (w >> np.uint64(8)).astype(np.float64) + (1 if open_at_zero else 0)
    return (x * 2.0 ** -24).astype(np.float32)


def uniform53(hi, lo, open_at_zero=False):
    x = (hi << np.uint64(21)) | (lo >> np.uint64(11))
    return (x.astype(np.float64) + (1 if open_at_zero else 0)) * 2.0 ** -53


# Statistics: bounds with their false-failure probabilities.
Z = 6.0  # two-sided normal tail beyond 6 sigma: 2.0e-9


def mean_var_check(name, x, mean, var, m4):
    """|sample mean - mean| < Z * sqrt(var / n) and |sample variance - var|
    < Z * sqrt((m4 - var^2) / n) (m4: the fourth central moment): each
    fails with probability ~2e-9 for a correct generator (CLT)."""
    x = np.asarray(x, np.float64).ravel()
    n = x.size
    m, v = x.mean(), x.var()
    tol_m = Z * math.sqrt(var / n)
    tol_v = Z * math.sqrt((m4 - var * var) / n)
    ok = abs(m - mean) < tol_m and abs(v - var) < tol_v
    print("%s: n=%d mean %.6f (expect %.6f +- %.2g) var %.6f (expect %.6f +- %.2g) %s"
          % (name, n, m, mean, tol_m, v, var, tol_v, "ok" if ok else "FAIL"))
    return ok


def chi2_z(stat, dof):
    """Wilson-Hilferty: chi-square(dof) as a standard normal z."""
    return ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))


def chi2_check(name, counts, expected):
    """Pearson chi-square; fails when its Wilson-Hilferty z exceeds Z
    (upper tail ~1e-9), or when a cell of probability 0 has a count. Cells
    expecting fewer than 5 are pooled (with the next smallest cells until
    the pool expects 5), as the chi-square approximation needs."""
    counts = np.asarray(counts, np.float64)
    expected = np.asarray(expected, np.float64)
    impossible = counts[expected == 0].sum()
    order = [i for i in np.argsort(expected) if expected[i] > 0]
    cells, pool_c, pool_e = [], 0.0, 0.0
    for i in order:
        if pool_e < 5:
            pool_c, pool_e = pool_c + counts[i], pool_e + expected[i]
        else:
            cells.append((counts[i], expected[i]))
    cells.append((pool_c, pool_e))
    c, e = np.array(cells).T
    stat = float(((c - e) ** 2 / e).sum())
    dof = len(cells) - 1
    z = chi2_z(stat, dof)
    ok = z < Z and impossible == 0
    print("%s: chi2 %.1f with %d dof (z %.2f < %.0f)%s %s"
          % (name, stat, dof, z, Z,
             "" if impossible == 0 else ", draws of zero-probability cells",
             "ok" if ok else "FAIL"))
    return ok


KS_T = 3.0  # P(sqrt(n) D_n > 3) ~ 2 exp(-18) = 3.0e-8 (Kolmogorov)


def ks_check(name, x, cdf):
    """Kolmogorov-Smirnov against `cdf` (vectorized): fails when
    sqrt(n) * D_n > KS_T."""
    x = np.sort(np.asarray(x, np.float64).ravel())
    n = x.size
    f = cdf(x)
    i = np.arange(1, n + 1)
    d = max((i / n - f).max(), (f - (i - 1) / n).max())
    ok = math.sqrt(n) * d < KS_T
    print("%s: KS sqrt(n)*D = %.3f (< %.1f) %s" % (name, math.sqrt(n) * d, KS_T,
                                                   "ok" if ok else "FAIL"))
    return ok


def proportion_check(name, hits, n, p):
    """|hits/n - p| < Z * sqrt(p (1 - p) / n)."""
    tol = Z * math.sqrt(p * (1 - p) / n)
    ok = abs(hits / n - p) <= tol
    print("%s: %d of %d = %.5f (expect %.5f +- %.2g) %s"
          % (name, hits, n, hits / n, p, tol, "ok" if ok else "FAIL"))
    return ok

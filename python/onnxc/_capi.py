"""The C API of a model library (runtime/include/onnxc/runtime.h) in ctypes:
the structs, the dtypes, and the conversions between numpy arrays and
onnxc_tensor values."""

import ctypes

import numpy as np

from . import errors

MAX_RANK = 16

# onnxc_value_kind
TENSOR, SEQUENCE, OPTIONAL, MAP = 0, 1, 2, 3
KIND_NAMES = {TENSOR: "tensor", SEQUENCE: "sequence", OPTIONAL: "optional",
              MAP: "map"}
# The layout of the structs below (ONNXC_ABI_VERSION, runtime_abi.h).
ABI_VERSION = 2


class Tensor(ctypes.Structure):
    """struct onnxc_tensor."""


Tensor._fields_ = [
    ("data", ctypes.c_void_p),
    ("shape", ctypes.c_int64 * MAX_RANK),
    ("rank", ctypes.c_int32),
    ("dtype", ctypes.c_int32),
    ("owner", ctypes.c_void_p),
    ("kind", ctypes.c_int32),
    ("num_items", ctypes.c_int64),
    ("items", ctypes.POINTER(Tensor)),
]


class ValueInfo(ctypes.Structure):
    """struct onnxc_value_info."""
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("dims", ctypes.POINTER(ctypes.c_int64)),
        ("symbols", ctypes.POINTER(ctypes.c_int32)),
        ("kind", ctypes.c_int32),
        ("payload_kind", ctypes.c_int32),
        ("key_dtype", ctypes.c_int32),
    ]


class ModelInfo(ctypes.Structure):
    """struct onnxc_model_info."""
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("num_inputs", ctypes.c_int32),
        ("num_outputs", ctypes.c_int32),
        ("inputs", ctypes.POINTER(ValueInfo)),
        ("outputs", ctypes.POINTER(ValueInfo)),
        ("num_symbols", ctypes.c_int32),
        ("symbol_names", ctypes.POINTER(ctypes.c_char_p)),
    ]


# ONNX TensorProto.DataType -> numpy. float16 is numpy's float16; bfloat16,
# which numpy lacks, crosses as its uint16 bits; bool is one byte.
DTYPES = {
    1: np.dtype(np.float32), 2: np.dtype(np.uint8), 3: np.dtype(np.int8),
    4: np.dtype(np.uint16), 5: np.dtype(np.int16), 6: np.dtype(np.int32),
    7: np.dtype(np.int64), 9: np.dtype(np.bool_), 10: np.dtype(np.float16),
    11: np.dtype(np.float64), 12: np.dtype(np.uint32), 13: np.dtype(np.uint64),
    14: np.dtype(np.complex64), 15: np.dtype(np.complex128),
    16: np.dtype(np.uint16),
    # Strings: numpy object arrays of str (UTF-8 across the API).
    8: np.dtype(object),
}
STRING = 8
DTYPE_NAMES = {1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16",
               6: "int32", 7: "int64", 8: "string", 9: "bool", 10: "float16",
               11: "double", 12: "uint32", 13: "uint64", 14: "complex64",
               15: "complex128", 16: "bfloat16"}

ModelInfoPtr = ctypes.POINTER(ModelInfo)
TensorPtr = ctypes.POINTER(Tensor)
RunFn = ctypes.CFUNCTYPE(ctypes.c_int32, TensorPtr, ctypes.c_int32, TensorPtr,
                         ctypes.c_int32)


def bind(lib, name, restype, *argtypes):
    """lib.name with its prototype, or None when the library lacks it."""
    try:
        fn = getattr(lib, name)
    except AttributeError:
        return None
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


class Runtime:
    """The runtime functions of one loaded library (each library loaded
    RTLD_LOCAL carries its own runtime, with its own last error)."""

    def __init__(self, lib):
        self.lib = lib
        self.last_error = bind(lib, "onnxc_last_error", ctypes.c_char_p)
        self.release = bind(lib, "onnxc_tensor_release", None, TensorPtr)
        self.set_num_threads = bind(lib, "onnxc_set_num_threads",
                                    ctypes.c_int32, ctypes.c_int32)
        self.get_num_threads = bind(lib, "onnxc_get_num_threads",
                                    ctypes.c_int32)
        if not (self.last_error and self.release):
            raise errors.InvalidArgumentError(
                "not an onnxc model library (no onnxc runtime)",
                errors.INVALID_ARGUMENT)
        # Libraries before ABI version 2 export no onnxc_abi_version.
        abi = bind(lib, "onnxc_abi_version", ctypes.c_int32)
        version = abi() if abi else 1
        if version != ABI_VERSION:
            raise errors.InvalidArgumentError(
                "the library was built for runtime ABI version %d, this "
                "package reads version %d: compile the model again"
                % (version, ABI_VERSION), errors.INVALID_ARGUMENT)
        vp = ctypes.c_void_p
        self.train_create = bind(lib, "onnxc_train_create", ctypes.c_int32, vp,
                                 ctypes.POINTER(vp))
        self.train_destroy = bind(lib, "onnxc_train_destroy", None, vp)
        self.train_step = bind(lib, "onnxc_train_step", ctypes.c_int32, vp,
                               TensorPtr, ctypes.c_int32, TensorPtr,
                               ctypes.c_int32)
        self.train_infer = bind(lib, "onnxc_train_infer", ctypes.c_int32, vp,
                                TensorPtr, ctypes.c_int32, TensorPtr,
                                ctypes.c_int32)
        self.train_step_info = bind(lib, "onnxc_train_step_info", ModelInfoPtr,
                                    vp)
        self.train_infer_info = bind(lib, "onnxc_train_infer_info",
                                     ModelInfoPtr, vp)
        self.train_num_params = bind(lib, "onnxc_train_num_params",
                                     ctypes.c_int32, vp)
        self.train_param_name = bind(lib, "onnxc_train_param_name",
                                     ctypes.c_char_p, vp, ctypes.c_int32)
        self.train_get_param = bind(lib, "onnxc_train_get_param",
                                    ctypes.c_int32, vp, ctypes.c_char_p,
                                    TensorPtr)
        self.train_set_param = bind(lib, "onnxc_train_set_param",
                                    ctypes.c_int32, vp, ctypes.c_char_p,
                                    TensorPtr)
        self.train_save = bind(lib, "onnxc_train_save", ctypes.c_int32, vp,
                               ctypes.c_char_p)
        self.train_load = bind(lib, "onnxc_train_load", ctypes.c_int32, vp,
                               ctypes.c_char_p)

    def check(self, status):
        """Raises the error of a failed call (status != 0)."""
        if status != errors.OK:
            message = self.last_error()
            raise errors.from_status(
                status, message.decode("utf-8", "replace") if message else "")


class ValueSpec:
    """A graph input or output as the library describes it: `name`,
    `dtype` (numpy), `shape` (a tuple: an int per static dim, the symbol's
    name for a symbolic one, None for an unknown one; None when a
    sequence's items have no declared rank), `kind` ("tensor", "sequence",
    "optional" or "map") and, for optionals, `payload_kind` (for a sequence
    of maps "map"). Maps: `dtype` is the values', `key_dtype` the keys'
    (int64 or str; None otherwise)."""

    __slots__ = ("name", "dtype", "dtype_code", "shape", "kind",
                 "payload_kind", "key_dtype_code")

    def __init__(self, info, symbols):
        self.name = info.name.decode("utf-8", "replace")
        self.dtype_code = info.dtype
        self.dtype = DTYPES.get(info.dtype)
        self.kind = KIND_NAMES.get(info.kind, "tensor")
        self.payload_kind = (KIND_NAMES.get(info.payload_kind, "tensor")
                             if info.kind == OPTIONAL or
                             info.payload_kind == MAP else None)
        self.key_dtype_code = info.key_dtype
        if info.rank < 0:
            self.shape = None
        else:
            dims = []
            for d in range(info.rank):
                s = info.symbols[d] if info.symbols else -1
                if info.dims[d] >= 0:
                    dims.append(int(info.dims[d]))
                elif 0 <= s < len(symbols):
                    dims.append(symbols[s])
                else:
                    dims.append(None)
            self.shape = tuple(dims)

    @property
    def content_kind(self):
        return self.payload_kind if self.kind == "optional" else self.kind

    @property
    def key_dtype(self):
        return DTYPES.get(self.key_dtype_code) if self.key_dtype_code else None

    def __repr__(self):
        dims = ("[*]" if self.shape is None else "[%s]" % ", ".join(
            "?" if d is None else str(d) for d in self.shape))
        what = DTYPE_NAMES.get(self.dtype_code, "?") + dims
        if self.key_dtype_code:
            what = "map<%s, %s>" % (DTYPE_NAMES.get(self.key_dtype_code, "?"),
                                    DTYPE_NAMES.get(self.dtype_code, "?"))
        if self.content_kind == "sequence":
            what = "sequence<%s>" % what
        if self.kind == "optional":
            what = "optional<%s>" % what
        return "%s: %s" % (self.name, what)


def describe(info_ptr):
    """(name, inputs, outputs) of an onnxc_model_info pointer."""
    info = info_ptr.contents
    symbols = [info.symbol_names[i].decode("utf-8", "replace")
               for i in range(info.num_symbols)]
    inputs = [ValueSpec(info.inputs[i], symbols)
              for i in range(info.num_inputs)]
    outputs = [ValueSpec(info.outputs[i], symbols)
               for i in range(info.num_outputs)]
    return info.name.decode("utf-8", "replace"), inputs, outputs


class StringArray:
    """A string tensor's pointer array (docs/strings.md): one c_char_p per
    element, row-major, with the encoded strings kept alive."""

    def __init__(self, array, what):
        self.shape = array.shape
        self.ndim = array.ndim
        self.size = array.size
        self.encoded = []
        for v in array.reshape(-1):
            if isinstance(v, bytes):
                b = v
            elif isinstance(v, str):
                b = v.encode("utf-8", "surrogateescape")
            else:
                raise errors.DTypeError("%s: expected strings, got %s"
                                        % (what, type(v).__name__), errors.DTYPE)
            if b"\0" in b:
                raise errors.InvalidArgumentError(
                    "%s: a string holds a NUL byte" % what,
                    errors.INVALID_ARGUMENT)
            self.encoded.append(b)
        self.pointers = (ctypes.c_char_p * max(self.size, 1))(*self.encoded)
        self.data = ctypes.addressof(self.pointers)


def _strings_for(value, what):
    """`value` (a numpy array of str, bytes or object, a str, a list) as a
    StringArray."""
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind not in "USO":
            raise errors.DTypeError("%s: expected dtype string, got %s"
                                    % (what, value.dtype), errors.DTYPE)
        array = np.asarray(value, dtype=object)
    else:
        array = np.empty((), dtype=object)
        array[()] = value
        if not isinstance(value, (str, bytes)):
            array = np.array(value, dtype=object)
    if array.ndim > MAX_RANK:
        raise errors.ShapeError("%s: rank %d is above %d"
                                % (what, array.ndim, MAX_RANK), errors.SHAPE)
    return StringArray(array, what)


def _array_for(spec, value, what):
    """`value` as a C-contiguous array of spec's dtype. numpy arrays (and
    numpy scalars) must have that dtype already; Python numbers and lists
    are converted to it. Strings: a StringArray."""
    if spec.dtype_code == STRING:
        return _strings_for(value, what)
    want = spec.dtype
    if want is None:
        raise errors.DTypeError(
            "%s: dtype %s does not cross the Python API"
            % (what, DTYPE_NAMES.get(spec.dtype_code, spec.dtype_code)),
            errors.DTYPE)
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype != want:
            raise errors.DTypeError("%s: expected dtype %s, got %s"
                                    % (what, want, value.dtype), errors.DTYPE)
        array = np.ascontiguousarray(value)
    else:
        try:
            array = np.ascontiguousarray(np.asarray(value, dtype=want))
        except (TypeError, ValueError, OverflowError) as e:
            raise errors.DTypeError("%s: cannot convert to %s: %s"
                                    % (what, want, e), errors.DTYPE) from None
    if array.ndim > MAX_RANK:
        raise errors.ShapeError("%s: rank %d is above %d"
                                % (what, array.ndim, MAX_RANK), errors.SHAPE)
    return array


def _fill_tensor(t, array, dtype_code):
    if isinstance(array, StringArray):
        t.data = array.data
    else:
        t.data = array.ctypes.data if array.size else None
    t.rank = array.ndim
    t.dtype = dtype_code
    for d, n in enumerate(array.shape):
        t.shape[d] = n
    t.kind = TENSOR


class Inputs:
    """The onnxc_tensor inputs of one call, with everything they point to
    kept alive until the call returns."""

    def __init__(self, specs, values, label="input"):
        self.keep = []
        self.array = (Tensor * max(len(specs), 1))()
        for i, (spec, value) in enumerate(zip(specs, values)):
            self._set(self.array[i], spec, spec.kind, value,
                      "%s '%s'" % (label, spec.name))

    def _set(self, t, spec, kind, value, what):
        if kind == "map":
            # A dict: its keys (int64 or str) and values, in its order.
            if not isinstance(value, dict):
                raise errors.DTypeError("%s: expected a map (a dict), got %s"
                                        % (what, type(value).__name__),
                                        errors.DTYPE)
            key_spec = ValueSpec.__new__(ValueSpec)
            key_spec.dtype_code = spec.key_dtype_code
            key_spec.dtype = DTYPES.get(spec.key_dtype_code)
            keys = _array_for(key_spec, list(value.keys()), what + " keys")
            vals = _array_for(spec, list(value.values()), what + " values")
            items = (Tensor * 2)()
            _fill_tensor(items[0], keys, spec.key_dtype_code)
            _fill_tensor(items[1], vals, spec.dtype_code)
            self.keep.extend([keys, vals, items])
            t.kind = MAP
            t.dtype = spec.dtype_code
            t.num_items = 2
            t.items = ctypes.cast(items, TensorPtr)
            return
        if kind == "sequence" and spec.payload_kind == "map":
            if isinstance(value, dict) or not hasattr(value, "__iter__"):
                raise errors.DTypeError(
                    "%s: expected a sequence of maps (a list of dicts), got %s"
                    % (what, type(value).__name__), errors.DTYPE)
            value = list(value)
            maps = (Tensor * max(len(value), 1))()
            for k, v in enumerate(value):
                self._set(maps[k], spec, "map", v, "%s item %d" % (what, k))
            self.keep.append(maps)
            t.kind = SEQUENCE
            t.dtype = spec.dtype_code
            t.num_items = len(value)
            t.items = ctypes.cast(maps, TensorPtr)
            return
        if kind == "optional":
            t.kind = OPTIONAL
            t.dtype = spec.dtype_code
            if value is None:
                return
            payload = (Tensor * 1)()
            self.keep.append(payload)
            self._set(payload[0], spec, spec.payload_kind, value, what)
            t.num_items = 1
            t.items = ctypes.cast(payload, TensorPtr)
            return
        if kind == "sequence":
            if isinstance(value, (np.ndarray, np.generic)) or not hasattr(
                    value, "__iter__"):
                raise errors.DTypeError(
                    "%s: expected a sequence (a list of arrays), got %s"
                    % (what, type(value).__name__), errors.DTYPE)
            arrays = [_array_for(spec, v, "%s item %d" % (what, k))
                      for k, v in enumerate(value)]
            items = (Tensor * max(len(arrays), 1))()
            for k, a in enumerate(arrays):
                _fill_tensor(items[k], a, spec.dtype_code)
            self.keep.extend(arrays)
            self.keep.append(items)
            t.kind = SEQUENCE
            t.dtype = spec.dtype_code
            t.num_items = len(arrays)
            t.items = ctypes.cast(items, TensorPtr)
            return
        if value is None:
            raise errors.InvalidArgumentError("%s: a tensor is needed, got None"
                                              % what, errors.INVALID_ARGUMENT)
        array = _array_for(spec, value, what)
        self.keep.append(array)
        _fill_tensor(t, array, spec.dtype_code)


def to_numpy(t):
    """A copy of an output onnxc_tensor as numpy: an array, a list of
    arrays (a sequence), None / the value (an optional), or a dict (a map;
    a sequence of maps is a list of dicts)."""
    if t.kind == OPTIONAL:
        return to_numpy(t.items[0]) if t.num_items > 0 else None
    if t.kind == MAP:
        # A dict of Python keys (int or str) to Python values.
        return dict(zip(to_numpy(t.items[0]).tolist(),
                        to_numpy(t.items[1]).tolist()))
    if t.kind == SEQUENCE:
        return [to_numpy(t.items[k]) for k in range(t.num_items)]
    dtype = DTYPES.get(t.dtype)
    if dtype is None:
        raise errors.DTypeError("an output of dtype %s does not cross the "
                                "Python API" % DTYPE_NAMES.get(t.dtype, t.dtype),
                                errors.DTYPE)
    shape = tuple(t.shape[d] for d in range(t.rank))
    if t.dtype == STRING:
        n = int(np.prod(shape, dtype=np.int64))
        ptrs = ctypes.cast(t.data, ctypes.POINTER(ctypes.c_char_p))
        array = np.empty(n, dtype=object)
        for i in range(n):
            array[i] = ptrs[i].decode("utf-8", "surrogateescape")
        return array.reshape(shape)
    array = np.empty(shape, dtype=dtype)
    if array.nbytes:
        ctypes.memmove(array.ctypes.data, t.data, array.nbytes)
    return array

"""Model libraries loaded with ctypes: Model (inference) and Trainer (the
training API of models with training info)."""

import ctypes
import os
import re
import threading

from . import _capi
from . import errors

_MISSING = object()

# Every loaded library's runtime (each has its own copy: libraries are
# loaded RTLD_LOCAL), for set_num_threads.
_runtimes = []
_runtimes_lock = threading.Lock()
_num_threads = None


def set_num_threads(n):
    """Sets the thread count of every loaded model library and of those
    loaded later (onnxc_set_num_threads: 0 is one per CPU, at most 64)."""
    global _num_threads
    n = int(n)
    if n < 0:
        raise errors.InvalidArgumentError("a thread count is >= 0, got %d" % n,
                                          errors.INVALID_ARGUMENT)
    with _runtimes_lock:
        _num_threads = n
        for rt in _runtimes:
            if rt.set_num_threads:
                rt.check(rt.set_num_threads(n))


def _register(rt):
    with _runtimes_lock:
        _runtimes.append(rt)
        if _num_threads is not None and rt.set_num_threads:
            rt.check(rt.set_num_threads(_num_threads))


def _c_identifier(s):
    s = re.sub(r"[^A-Za-z0-9_]", "_", s)
    return "_" + s if not s or s[0].isdigit() else s


def _bind_values(model_name, specs, args, kwargs):
    """The values of `specs` from positional and keyword arguments; absent
    optionals are None."""
    if len(args) > len(specs):
        raise errors.InvalidArgumentError(
            "model '%s': expected %d inputs, got %d"
            % (model_name, len(specs), len(args)), errors.INVALID_ARGUMENT)
    values = list(args) + [_MISSING] * (len(specs) - len(args))
    index = {s.name: i for i, s in enumerate(specs)}
    for key, value in kwargs.items():
        i = index.get(key)
        if i is None:
            raise errors.InvalidArgumentError(
                "model '%s' has no input '%s' (its inputs: %s)"
                % (model_name, key, ", ".join(s.name for s in specs)),
                errors.INVALID_ARGUMENT)
        if values[i] is not _MISSING:
            raise errors.InvalidArgumentError(
                "model '%s': input '%s' given twice" % (model_name, key),
                errors.INVALID_ARGUMENT)
        values[i] = value
    for i, spec in enumerate(specs):
        if values[i] is _MISSING:
            if spec.kind != "optional":
                raise errors.InvalidArgumentError(
                    "model '%s': input '%s' is missing" % (model_name, spec.name),
                    errors.INVALID_ARGUMENT)
            values[i] = None
    return values


def _invoke(rt, fn, in_specs, values, num_outputs):
    """Calls fn(inputs, n, outputs, m); returns the outputs as numpy."""
    inputs = _capi.Inputs(in_specs, values)
    outputs = (_capi.Tensor * max(num_outputs, 1))()
    status = fn(inputs.array, len(in_specs), outputs, num_outputs)
    try:
        rt.check(status)
        return [_capi.to_numpy(outputs[k]) for k in range(num_outputs)]
    finally:
        for k in range(num_outputs):
            rt.release(ctypes.byref(outputs[k]))


def _as_result(values):
    return values[0] if len(values) == 1 else tuple(values)


class Model:
    """A compiled model library (onnxc.compile or onnxc.load).

    m(x, ...) runs it on positional (graph order) or keyword inputs and
    returns the output (one) or a tuple of outputs; m.run({"name": x})
    returns {"name": output}. Tensors are numpy arrays (copies the caller
    owns); sequences lists of arrays; absent optionals None. numpy inputs
    must have the model's dtype; lists and Python numbers are converted to
    it. Errors raise onnxc.Error subclasses with the runtime's message.
    Calls are thread-safe (the GIL is released while the model runs).
    """

    def __init__(self, path, name=None):
        self.path = os.path.abspath(os.fspath(path))
        if not os.path.isfile(self.path):
            raise errors.InvalidArgumentError(
                "'%s' is not a file" % self.path, errors.INVALID_ARGUMENT)
        try:
            self._lib = ctypes.CDLL(self.path)
        except OSError as e:
            raise errors.InvalidArgumentError(
                "cannot load '%s': %s" % (self.path, e),
                errors.INVALID_ARGUMENT) from None
        self._rt = _capi.Runtime(self._lib)
        stem = os.path.basename(self.path).split(".")[0]
        candidates = [name] if name else [_c_identifier(stem)]
        if not name and stem.startswith("lib"):
            candidates.append(_c_identifier(stem[3:]))
        for c in candidates:
            info = _capi.bind(self._lib, c + "_info", _capi.ModelInfoPtr)
            run = _capi.bind(self._lib, c + "_run", ctypes.c_int32,
                             _capi.TensorPtr, ctypes.c_int32, _capi.TensorPtr,
                             ctypes.c_int32)
            if info and run:
                break
        else:
            raise errors.InvalidArgumentError(
                "'%s' exports no model %s (%s_info, %s_run): pass name="
                % (self.path, " or ".join("'%s'" % c for c in candidates),
                   candidates[0], candidates[0]), errors.INVALID_ARGUMENT)
        self._run = run
        self.name, self.inputs, self.outputs = _capi.describe(info())
        self._train_info = _capi.bind(self._lib, c + "_train_info",
                                      ctypes.c_void_p)
        self._trainer = None
        _register(self._rt)

    @property
    def input_names(self):
        return [s.name for s in self.inputs]

    @property
    def output_names(self):
        return [s.name for s in self.outputs]

    def __call__(self, *args, **kwargs):
        values = _bind_values(self.name, self.inputs, args, kwargs)
        return _as_result(_invoke(self._rt, self._run, self.inputs, values,
                                  len(self.outputs)))

    def run(self, feeds):
        """Runs on {"input name": value}; returns {"output name": value}."""
        if not hasattr(feeds, "items"):
            raise errors.InvalidArgumentError(
                "run() takes a dict of inputs by name, got %s"
                % type(feeds).__name__, errors.INVALID_ARGUMENT)
        values = _bind_values(self.name, self.inputs, (), dict(feeds))
        results = _invoke(self._rt, self._run, self.inputs, values,
                          len(self.outputs))
        return {s.name: r for s, r in zip(self.outputs, results)}

    # Training (models with training info; docs/training.md).

    @property
    def trainable(self):
        """True when the library has the training API (M_train_info)."""
        return self._train_info is not None

    def trainer(self):
        """A new training state (parameters initialized by the model)."""
        return Trainer(self)

    def _default_trainer(self):
        if self._trainer is None:
            self._trainer = Trainer(self)
        return self._trainer

    def train_step(self, *args, **kwargs):
        """One training step on the model's own state (created on first
        use): the main graph's inputs, then the algorithm's (a label, ...);
        returns the step's outputs (the loss, ...) like m(...)."""
        return self._default_trainer().step(*args, **kwargs)

    def train_infer(self, *args, **kwargs):
        """Inference with the trained parameters of the model's state (m(...)
        runs with the parameters the model file holds)."""
        return self._default_trainer().infer(*args, **kwargs)

    @property
    def params(self):
        """{name: array}: copies of the state's parameters."""
        return self._default_trainer().params

    def set_param(self, name, value):
        self._default_trainer().set_param(name, value)

    def save_state(self, path):
        self._default_trainer().save(path)

    def load_state(self, path):
        self._default_trainer().load(path)

    def __repr__(self):
        return "<onnxc.Model '%s' (%s) -> (%s) from %s>" % (
            self.name, ", ".join(map(repr, self.inputs)),
            ", ".join(map(repr, self.outputs)), self.path)


class Trainer:
    """A training state of a model with training info: step(), infer(),
    the parameters by name, save() and load(). One thread at a time."""

    def __init__(self, model):
        if not model.trainable:
            raise errors.InvalidArgumentError(
                "model '%s' has no training info (compile a model with a "
                "TrainingInfoProto, e.g. from onnxc-make-trainable)" % model.name,
                errors.INVALID_ARGUMENT)
        self.model = model
        rt = self._rt = model._rt
        self._state = ctypes.c_void_p()
        rt.check(rt.train_create(model._train_info(), ctypes.byref(self._state)))
        _, self.step_inputs, self.step_outputs = _capi.describe(
            rt.train_step_info(self._state))
        _, self.infer_inputs, self.infer_outputs = _capi.describe(
            rt.train_infer_info(self._state))
        state = self._state

        def step(inputs, n, outputs, m):
            return rt.train_step(state, inputs, n, outputs, m)

        def infer(inputs, n, outputs, m):
            return rt.train_infer(state, inputs, n, outputs, m)

        self._step, self._infer = step, infer

    def close(self):
        if self._state:
            self._rt.train_destroy(self._state)
            self._state = ctypes.c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def _check_open(self):
        if not self._state:
            raise errors.InvalidArgumentError("the training state is closed",
                                              errors.INVALID_ARGUMENT)

    def step(self, *args, **kwargs):
        """One step: all or nothing (after an error the state is unchanged)."""
        self._check_open()
        values = _bind_values(self.model.name, self.step_inputs, args, kwargs)
        return _as_result(_invoke(self._rt, self._step, self.step_inputs,
                                  values, len(self.step_outputs)))

    def infer(self, *args, **kwargs):
        self._check_open()
        values = _bind_values(self.model.name, self.infer_inputs, args, kwargs)
        return _as_result(_invoke(self._rt, self._infer, self.infer_inputs,
                                  values, len(self.infer_outputs)))

    @property
    def param_names(self):
        self._check_open()
        rt = self._rt
        return [rt.train_param_name(self._state, i).decode("utf-8", "replace")
                for i in range(rt.train_num_params(self._state))]

    def _param(self, name):
        self._check_open()
        t = _capi.Tensor()
        self._rt.check(self._rt.train_get_param(self._state, name.encode(),
                                                ctypes.byref(t)))
        return t

    def get_param(self, name):
        """A copy of the parameter `name`."""
        return _capi.to_numpy(self._param(name))

    @property
    def params(self):
        return {n: self.get_param(n) for n in self.param_names}

    def set_param(self, name, value):
        """Copies `value` (the parameter's dtype and shape) into `name`."""
        current = self._param(name)

        class Spec:  # what _capi.Inputs needs of a ValueSpec
            pass
        spec = Spec()
        spec.name, spec.kind, spec.payload_kind = name, "tensor", None
        spec.dtype_code = current.dtype
        spec.dtype = _capi.DTYPES.get(current.dtype)
        inputs = _capi.Inputs([spec], [value], "parameter")
        self._rt.check(self._rt.train_set_param(self._state, name.encode(),
                                                inputs.array))

    def save(self, path):
        self._check_open()
        self._rt.check(self._rt.train_save(self._state,
                                           os.fsencode(os.fspath(path))))

    def load(self, path):
        self._check_open()
        self._rt.check(self._rt.train_load(self._state,
                                           os.fsencode(os.fspath(path))))

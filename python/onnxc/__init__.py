"""onnxc from Python: compile ONNX models to native libraries and run them
(docs/embedding.md). Pure Python over ctypes and numpy.

    import onnxc
    m = onnxc.compile("model.onnx", opt=3)     # cached by model bytes + options
    y = m(x)                                    # numpy in, numpy out
    out = m.run({"x": x})                       # {"y": array}
    m.inputs, m.outputs                         # names, dtypes, dims
    m = onnxc.load("model.so")                  # a library onnxc wrote
    loss = m.train_step(x, label)               # models with training info

Errors raise onnxc.Error (CompileError, DTypeError, ShapeError, ...) with
onnxc's one-line message.
"""

from . import errors
from ._compile import VERSION as __version__
from ._compile import compile_library, default_cache_dir, find_onnxc
from ._model import Model, Trainer, set_num_threads
from .errors import (CompileError, DTypeError, Error, InvalidArgumentError,
                     ModelRuntimeError, OutOfMemoryError, ShapeError)

__all__ = ["compile", "load", "Model", "Trainer", "set_num_threads",
           "find_onnxc", "default_cache_dir", "Error", "CompileError",
           "DTypeError", "ShapeError", "InvalidArgumentError",
           "OutOfMemoryError", "ModelRuntimeError", "__version__"]


def compile(model, opt=None, name=None, mcpu=None, flags=(), output=None,
            cache=True, cache_dir=None, onnxc=None):
    """Compiles `model` (a path to .onnx or .onnxtxt, bytes, or an
    onnx.ModelProto) and loads it.

    opt: 0-3 (None: onnxc's default, 2); name: the C prefix of its symbols
    (default: the file's stem); mcpu: the target CPU (default: the host's);
    flags: more onnxc options; output: where to write the library (else the
    cache: $ONNXC_CACHE_DIR, ~/.cache/onnxc, keyed on the model's bytes, the
    options and onnxc itself); onnxc: the onnxc executable (default:
    find_onnxc()). Raises CompileError with onnxc's message."""
    path, name = compile_library(model, output=output, opt=opt, name=name,
                                 mcpu=mcpu, flags=flags, cache=cache,
                                 cache_dir=cache_dir, onnxc=onnxc)
    return Model(path, name)


def load(path, name=None):
    """Loads a model library onnxc wrote. `name` is its C prefix (default:
    the file's stem, without a leading 'lib' if need be)."""
    return Model(path, name)

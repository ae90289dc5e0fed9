"""Errors of the onnxc package: each carries onnxc's one-line message and,
for calls into a model library, the runtime's onnxc_status."""

# onnxc_status (runtime/include/onnxc/runtime.h).
OK = 0
INVALID_ARGUMENT = 1
DTYPE = 2
SHAPE = 3
OUT_OF_MEMORY = 4
RUNTIME = 5


class Error(Exception):
    """Every error of the package. `status` is the onnxc_status (0 for a
    compile error)."""

    def __init__(self, message, status=RUNTIME):
        super().__init__(message)
        self.status = status


class CompileError(Error):
    """onnxc failed: the message is its error line."""

    def __init__(self, message):
        super().__init__(message, OK)


class InvalidArgumentError(Error, ValueError):
    """A wrong input count or name, a missing input, a bad argument."""


class DTypeError(Error, TypeError):
    """An input of the wrong dtype."""


class ShapeError(Error, ValueError):
    """An input of the wrong rank or dims (static or symbolic)."""


class OutOfMemoryError(Error, MemoryError):
    """An allocation failed in the model."""


class ModelRuntimeError(Error, RuntimeError):
    """A check inside the model failed (an index out of range, ...)."""


_BY_STATUS = {
    INVALID_ARGUMENT: InvalidArgumentError,
    DTYPE: DTypeError,
    SHAPE: ShapeError,
    OUT_OF_MEMORY: OutOfMemoryError,
    RUNTIME: ModelRuntimeError,
}


def from_status(status, message):
    """The exception for a failed call's status and message."""
    return _BY_STATUS.get(status, ModelRuntimeError)(message, status)

"""Compiling models with the onnxc executable, with a cache keyed on the
model's bytes and the options."""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from . import errors

VERSION = "0.1.0"


def find_onnxc(onnxc=None):
    """The onnxc executable: `onnxc`, else $ONNXC, else bin/onnxc of the
    prefix this package is installed in (P/lib/python3/site-packages/onnxc),
    else build/bin/onnxc of the source tree (python/onnxc), else onnxc on
    PATH. Raises onnxc.Error when there is none."""
    def usable(path):
        return os.path.isfile(path) and os.access(path, os.X_OK)

    given = onnxc or os.environ.get("ONNXC")
    if given:
        if not usable(given):
            raise errors.CompileError("onnxc: '%s' is not an executable" % given)
        return os.path.abspath(given)
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "..", "..", "..", "..", "bin", "onnxc"),
                  os.path.join(here, "..", "..", "build", "bin", "onnxc"),
                  shutil.which("onnxc")]
    for c in candidates:
        if c and usable(c):
            return os.path.abspath(c)
    raise errors.CompileError(
        "onnxc: the onnxc executable was not found (set $ONNXC, put it on "
        "PATH, or pass onnxc=)")


def default_cache_dir():
    """$ONNXC_CACHE_DIR, else $XDG_CACHE_HOME/onnxc, else ~/.cache/onnxc."""
    if os.environ.get("ONNXC_CACHE_DIR"):
        return os.environ["ONNXC_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "onnxc")


def _identity(path):
    """What changes when a file is rebuilt: its path, size and mtime."""
    st = os.stat(path)
    return "%s:%d:%d" % (os.path.realpath(path), st.st_size, st.st_mtime_ns)


def _model_bytes(model):
    """(bytes, suffix, path) of a model given as a path (compiled from
    there: its external data files stay next to it), bytes or a ModelProto
    (path None)."""
    if hasattr(model, "SerializeToString"):
        return model.SerializeToString(), ".onnx", None
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), ".onnx", None
    path = os.fspath(model)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise errors.CompileError("onnxc: error: %s: cannot read the model: %s"
                                  % (path, e.strerror)) from None
    return data, os.path.splitext(path)[1], os.path.abspath(path)


def compile_library(model, output=None, opt=None, name=None, mcpu=None,
                    flags=(), cache=True, cache_dir=None, onnxc=None):
    """Compiles `model` to a shared library; returns (path, name).

    With `output`, writes it there (and its headers beside it). Otherwise,
    with `cache`, the library lives in the cache under a key of the model's
    bytes, the options, onnxc's identity (path, size, mtime) and its
    runtime's: compiling the same model with the same options again reuses
    it. Raises onnxc.CompileError with onnxc's error line."""
    exe = find_onnxc(onnxc)
    data, suffix, path = _model_bytes(model)
    if name is None:
        stem = (os.path.splitext(os.path.basename(os.fspath(model)))[0]
                if isinstance(model, (str, os.PathLike)) else "model")
        name = re.sub(r"[^A-Za-z0-9_]", "_", stem)
        if not name or name[0].isdigit():
            name = "_" + name
    args = ["--name=" + name]
    if opt is not None:
        if opt not in (0, 1, 2, 3):
            raise errors.CompileError("onnxc: error: opt must be 0, 1, 2 or "
                                      "3, got %r" % (opt,))
        args.append("-O%d" % opt)
    if mcpu:
        args.append("--mcpu=" + mcpu)
    args.extend(flags)

    if output is None and not cache:
        raise errors.CompileError("onnxc: compile() needs output= when "
                                  "cache=False")
    if output is not None:
        _run_onnxc(exe, data, path, os.path.abspath(os.fspath(output)), args)
        return os.path.abspath(os.fspath(output)), name

    runtime = os.path.join(os.path.dirname(exe), "..", "lib",
                           "libonnxc_runtime.a")
    key = hashlib.sha256()
    for part in (VERSION, _identity(exe),
                 _identity(runtime) if os.path.exists(runtime) else "",
                 suffix, "\0".join(args)):
        key.update(part.encode() + b"\0")
    key.update(data)
    root = os.path.abspath(cache_dir or default_cache_dir())
    entry = os.path.join(root, key.hexdigest()[:32])
    lib = os.path.join(entry, name + ".so")
    if os.path.isfile(lib):
        return lib, name
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=root)
    try:
        _run_onnxc(exe, data, path, os.path.join(tmp, name + ".so"), args)
        try:
            os.rename(tmp, entry)  # atomic: another process may win
        except OSError:
            if not os.path.isfile(lib):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return lib, name


def _run_onnxc(exe, data, path, output, args):
    """onnxc on `path`, or on `data` written to a temporary model.onnx."""
    os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="onnxc-") as d:
        src = path
        if src is None:
            src = os.path.join(d, "model.onnx")
            with open(src, "wb") as f:
                f.write(data)
        p = subprocess.run([exe, src, "-o", output] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        lines = [l for l in p.stderr.decode("utf-8", "replace").splitlines()
                 if l.strip()]
        error = next((l for l in lines if "error:" in l),
                     lines[0] if lines else "onnxc: exit code %d" % p.returncode)
        if path is None:
            error = error.replace(src, "<model bytes>")
        raise errors.CompileError(error)

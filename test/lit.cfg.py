# -*- Python -*-
# The onnxc lit suite. Run through `ninja -C build check-onnxc`, or
# `lit -sv build/test` after a build (the site config carries the paths).

import os
import shutil

import lit.formats

config.name = "onnxc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onnxc_obj_root, "test")

# Only the build's tools and LLVM's test utilities; keep the user's PATH last
# so that `ulimit`, `timeout`, `diff` and friends resolve.
path = [config.onnxc_tools_dir, config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(path + [os.environ.get("PATH", "")])
config.environment["ONNXC_SRC_ROOT"] = config.onnxc_src_root

# Tools that run compiler code get a memory and a time limit: some MLIR
# pattern mixes loop forever and grow without bound (see docs/testing.md).
# One command (no `&&`), so that `not %onnxc-opt ...` and pipes compose;
# timeout re-raises a crash signal, so `not` still reports crashes.
def limited(tool):
    return ("timeout 120 sh -c 'ulimit -v 4000000 && exec \"$0\" \"$@\"' "
            + os.path.join(config.onnxc_tools_dir, tool))

# Longest names first: lit substitutes in order.
config.substitutions.append(("%onnxc_src_root", config.onnxc_src_root))
config.substitutions.append(("%onnxc_obj_root", config.onnxc_obj_root))
config.substitutions.append(("%onnxc-opt", limited("onnxc-opt")))
config.substitutions.append(("%onnxc", limited("onnxc")))
config.substitutions.append(("%python", config.python_executable))

# Features.
for tool in ("onnxc", "onnxc-opt"):
    if os.path.exists(os.path.join(config.onnxc_tools_dir, tool)):
        config.available_features.add(tool)
if config.onnx_testdata_dir and os.path.isdir(config.onnx_testdata_dir):
    config.available_features.add("testdata")
if config.onnxc_fuzzer_built:
    config.available_features.add("fuzzer")
# python3-onnx (only with /usr/bin/python3): tests that build binary models.
import subprocess
try:
    subprocess.run([config.python_executable, "-c", "import onnx"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    config.available_features.add("python-onnx")
except (OSError, subprocess.CalledProcessError):
    pass
# python3-torch and torchvision (Debian's, 1.13 and 0.14): the corpus
# generators (tools/corpus).
try:
    subprocess.run([config.python_executable, "-c", "import torch, torchvision"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    config.available_features.add("torch")
except (OSError, subprocess.SubprocessError):
    pass
config.substitutions.insert(0, ("%onnxtxt2onnx", "%s %s" % (
    config.python_executable,
    os.path.join(config.onnxc_src_root, "test", "Utils", "onnxtxt2onnx.py"))))
if shutil.which("diff"):
    config.available_features.add("diff")

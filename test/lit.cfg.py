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
# ONNXC_ISA=portable|avx2|avx512 (runtime/src/kernels/dispatch.c) reaches the
# tests, so `ONNXC_ISA=avx2 lit build/test/numeric` checks the tier that a
# machine without AVX-512 (or with other extensions) would run.
if os.environ.get("ONNXC_ISA"):
    config.environment["ONNXC_ISA"] = os.environ["ONNXC_ISA"]

# Tools that run compiler code get a memory and a time limit: some MLIR
# pattern mixes loop forever and grow without bound (see docs/testing.md).
# One command (no `&&`), so that `not %onnxc-opt ...` and pipes compose;
# timeout re-raises a crash signal, so `not` still reports crashes.
# A sanitized build (-DONNXC_BUILD_FUZZER=ON: ASan + UBSan on onnxc,
# onnxc-opt, onnxc-run; .ci/asan) keeps the time limit (doubled: ASan runs
# slower) but not the address-space one: ASan reserves terabytes of shadow
# address space at start and aborts under `ulimit -v`. ONNXC_SANITIZED tells
# the Python runners (tools/corpus/runner.py, the import sweep,
# e2e/hostile/run_sets.py) the same.
sanitized = bool(config.onnxc_fuzzer_built)
if sanitized:
    config.environment["ONNXC_SANITIZED"] = "1"

def limited(tool):
    if sanitized:
        return "timeout 240 " + os.path.join(config.onnxc_tools_dir, tool)
    return ("timeout 120 sh -c 'ulimit -v 4000000 && exec \"$0\" \"$@\"' "
            + os.path.join(config.onnxc_tools_dir, tool))

# Longest names first: lit substitutes in order.
config.substitutions.append(("%onnxc_src_root", config.onnxc_src_root))
config.substitutions.append(("%onnxc_obj_root", config.onnxc_obj_root))
config.substitutions.append(("%onnxc-opt", limited("onnxc-opt")))
config.substitutions.append(("%onnxc", limited("onnxc")))
config.substitutions.append(("%python", config.python_executable))
# Builds a program from the runtime's sources as runtime/CMakeLists.txt
# does (the kernels' ISA files with their flags): OUT CC [FLAGS] -- SOURCES.
config.substitutions.append(("%cc-runtime", "sh " + os.path.join(
    config.onnxc_src_root, "test", "Utils", "cc-runtime.sh")))

# Features.
for tool in ("onnxc", "onnxc-opt"):
    if os.path.exists(os.path.join(config.onnxc_tools_dir, tool)):
        config.available_features.add(tool)
if config.onnx_testdata_dir and os.path.isdir(config.onnx_testdata_dir):
    config.available_features.add("testdata")
if config.onnxc_fuzzer_built:
    config.available_features.add("fuzzer")
    # The whole-pipeline harness is built only on request (.ci/fuzz with
    # ONNXC_FUZZ_PIPELINE=1): it is the whole compiler under ASan.
    if os.path.exists(os.path.join(config.onnxc_obj_root, "bin",
                                   "onnxc-fuzz-pipeline")):
        config.available_features.add("fuzzer-pipeline")
# python3-onnx (only with /usr/bin/python3): tests that build binary models.
import subprocess
# debug-only: onnxc-opt takes -debug-only=<DEBUG_TYPE> (an LLVM and an
# onnxc built with assertions; Debian's LLVM 22 has none, so the passes'
# LLVM_DEBUG traces are compiled out and the option does not exist).
try:
    help_text = subprocess.run(
        [os.path.join(config.onnxc_tools_dir, "onnxc-opt"), "--help-hidden"],
        capture_output=True, text=True, timeout=60).stdout
    if "--debug-only" in help_text:
        config.available_features.add("debug-only")
except (OSError, subprocess.SubprocessError):
    pass
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
# cpu-avx2, cpu-avx512: this CPU (and the kernel, which lists only the
# features it enables) supports the runtime's kernel tier of that name
# (runtime/src/kernels/dispatch.c), so ONNXC_ISA=<tier> really runs it.
try:
    with open("/proc/cpuinfo") as f:
        cpu_flags = set()
        for line in f:
            if line.startswith("flags"):
                cpu_flags = set(line.split(":", 1)[1].split())
                break
except OSError:
    cpu_flags = set()
if {"avx2", "fma"} <= cpu_flags:
    config.available_features.add("cpu-avx2")
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= cpu_flags:
        config.available_features.add("cpu-avx512")
# cpu-vnni: int8 dot products (AVX512-VNNI or AVX-VNNI), where ONNX Runtime's
# uint8 x int8 products are exact. On x86 CPUs without (an AMD EPYC Zen 3)
# they sum pairs of products in int16 with saturation: 30 of
# numeric/ort/quant-ops.test's cases then came out of ORT off by up to 26990
# from the exact integers (numpy), which onnxc computes on every tier.
if cpu_flags & {"avx512_vnni", "avx_vnni"}:
    config.available_features.add("cpu-vnni")
if shutil.which("diff"):
    config.available_features.add("diff")
# valgrind: memcheck's leak check over the default (g++, unsanitized) build,
# for leaks found by the sanitized fuzz harness (tools/onnxc-fuzz).
if shutil.which("valgrind") and not sanitized:
    config.available_features.add("valgrind")

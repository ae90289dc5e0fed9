"""Compiling and running corpus models with onnxc, for `corpus.py check`
(the lit tests) and status.py (docs/corpus-status.md). Every tool runs under a
time and address-space limit, as the lit suite's %onnxc does."""

import os
import re
import resource
import subprocess
import time

TIMING = re.compile(r"^(\S+): (\d+) runs \((\d+) warm-up\): median ([0-9.]+) ms, "
                    r"min ([0-9.]+) ms$", re.M)


class Result:
    def __init__(self, rc, out, err, seconds, timed_out):
        self.rc, self.out, self.err = rc, out, err
        self.seconds, self.timed_out = seconds, timed_out

    @property
    def ok(self):
        return self.rc == 0 and not self.timed_out

    def why(self):
        """The tool's error: its first line naming an error, else its last
        line (one line, for tables and XFAIL reasons)."""
        if self.timed_out:
            return "timed out after %.0f s" % self.seconds
        lines = [ln.strip() for ln in (self.err + "\n" + self.out).splitlines() if ln.strip()]
        errors = [ln for ln in lines if "error" in ln.lower()]
        line = errors[0] if errors else lines[-1] if lines else ""
        if self.rc < 0:
            return "killed by signal %d%s" % (-self.rc, ": " + line if line else "")
        return line or "exit %d" % self.rc


def run(cmd, timeout, mem_kb=None, env=None):
    def limit():
        os.setsid()
        # Not under ASan (ONNXC_SANITIZED, test/lit.cfg.py): its shadow
        # memory needs the address space.
        if mem_kb and not os.environ.get("ONNXC_SANITIZED"):
            resource.setrlimit(resource.RLIMIT_AS, (mem_kb * 1024, mem_kb * 1024))
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=limit, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        timed_out = True
    return Result(p.returncode, out, err, time.monotonic() - start, timed_out)


class Tools:
    """Where onnxc and onnxc-run are, and their limits."""

    def __init__(self, build, timeout=600, mem_kb=8000000, env=None):
        self.onnxc = os.path.join(build, "bin", "onnxc")
        self.onnxc_run = os.path.join(build, "bin", "onnxc-run")
        self.timeout, self.mem_kb, self.env = timeout, mem_kb, env

    def compile(self, model, lib):
        if os.path.exists(lib):
            os.unlink(lib)
        return run([self.onnxc, model, "-o", lib], self.timeout, self.mem_kb, self.env)

    def run(self, lib, inputs, save=None, threads=1, runs=None, warmup=None):
        cmd = [self.onnxc_run, lib, "--inputs", inputs, "--threads", str(threads)]
        if save:
            cmd += ["--save", save]
        if runs:
            cmd += ["--runs", str(runs), "--warmup", str(warmup or max(1, runs // 10))]
        return run(cmd, self.timeout, None, self.env)


def parse_timing(res):
    m = TIMING.search(res.out)
    if not res.ok or not m:
        return None
    return float(m.group(4)), float(m.group(5))

#!/usr/bin/python3
"""run_sets.py ONNXC_RUN LIBDIR DATAROOT CASE...: runs every test_data_set_N
of each case's library (LIBDIR/CASE.so) with onnxc-run, in a process
limited to 4 GB of address space (a model that trusted a size from data
would otherwise try to fill terabytes), and prints one line per data set:

    CASE[N]: exit CODE: LAST LINE OF OUTPUT

Data sets with outputs are compared (--expect). A crash shows as a
negative exit code (the signal)."""
import os
import resource
import subprocess
import sys


def limit():
    # Not under ASan (ONNXC_SANITIZED, test/lit.cfg.py): its shadow memory
    # needs the address space.
    if os.environ.get("ONNXC_SANITIZED"):
        return
    four_gb = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (four_gb, four_gb))


def main():
    onnxc_run, libdir, root = sys.argv[1:4]
    for case in sys.argv[4:]:
        d = os.path.join(root, case)
        sets = sorted((s for s in os.listdir(d) if s.startswith("test_data_set_")),
                      key=lambda s: int(s.rsplit("_", 1)[1]))
        for s in sets:
            path = os.path.join(d, s)
            cmd = [onnxc_run, os.path.join(libdir, case + ".so"), "--inputs", path]
            if os.path.exists(os.path.join(path, "output_0.pb")):
                cmd += ["--expect", path]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=limit, timeout=120)
            lines = p.stdout.decode(errors="replace").strip().splitlines()
            print("%s[%s]: exit %d: %s" % (case, s.rsplit("_", 1)[1], p.returncode,
                                          lines[-1] if lines else ""))


if __name__ == "__main__":
    main()

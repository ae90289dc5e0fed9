#!/usr/bin/python3
"""node_slice.py RUN_CONFORMANCE ARGS...: runs run_conformance.py once per
op family of the sanitized slice (slice.test) over the ONNX node tests
(--suites node --filter FAMILY), passing ARGS through; prints each run's
output (its closing "conformance: N passed, M failed" line included) and
exits 1 if any run failed."""
import subprocess
import sys

FAMILIES = ["test_conv", "pool", "test_gather", "test_scatter", "test_slice",
            "_pad", "test_resize", "test_reduce", "test_matmul", "test_gemm",
            "test_concat", "test_split", "test_expand", "test_tile", "test_where",
            "normalization"]


def main():
    script, args = sys.argv[1], sys.argv[2:]
    status = 0
    for f in FAMILIES:
        p = subprocess.run([sys.executable, script, "--suites", "node", "--filter", f] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(p.stdout)
        sys.stdout.flush()
        status |= p.returncode != 0
    return status


if __name__ == "__main__":
    sys.exit(main())

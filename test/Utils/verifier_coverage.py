#!/usr/bin/env python3
"""Checks that every emitOpError in the given C++ sources has a diagnostic test.

For each `emitOpError(...) << "..." << ...;` statement, the longest string
literal of the statement must occur in an `expected-error` line of the test
file. Prints the statements without one and exits 1 if there are any.

usage: verifier_coverage.py TEST.mlir SOURCE.cpp...
"""
import re
import sys


def literals(stmt):
    return [m.group(1) for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', stmt)]


def statements(text):
    """Yields (line, statement) for every statement that calls emitOpError."""
    for m in re.finditer(r"emitOpError\(", text):
        end = text.find(";", m.start())
        line = text.count("\n", 0, m.start()) + 1
        yield line, text[m.start():end]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    expected = "\n".join(l for l in open(argv[1]) if "expected-error" in l)
    missing, total = [], 0
    for path in argv[2:]:
        for line, stmt in statements(open(path).read()):
            total += 1
            lits = [l for l in literals(stmt) if l.strip()]
            key = max(lits, key=len) if lits else None
            if key is None or key not in expected:
                missing.append("%s:%d: no expected-error for %r" % (path, line, key))
    for m in missing:
        print(m)
    print("verifier-coverage: %d emitOpError sites, %d without a test" % (total, len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

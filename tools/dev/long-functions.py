#!/usr/bin/env python3
"""Lists the functions of onnxc's C and C++ sources longer than a limit.

    tools/dev/long-functions.py [--limit 150] [--src .] [DIR...]

One line per function, longest first: `LINES path:line name`, then the
count. Lambdas are counted within the function that holds them. The
function bodies come from universal-ctags (`ctags-universal`, Debian's
universal-ctags: start and end line of each definition); a declaration
without a body is not listed. Default directories: the compiler side and
the runtime (compiler dialects lib passes runtime tools).
"""
import argparse
import os
import subprocess
import sys

DEFAULT_DIRS = ["compiler", "dialects", "lib", "passes", "runtime", "tools"]


def functions(src, dirs):
    out = subprocess.run(
        ["ctags-universal", "-R", "--languages=C,C++", "--map-C++=+.h",
         "--kinds-C=f", "--kinds-C++=f", "--fields=+ne", "-o", "-"] + dirs,
        cwd=src, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, path, rest = line.split("\t", 2)
        fields = dict(f.split(":", 1) for f in rest.split("\t")[1:] if ":" in f)
        if name.startswith("__anon") or "line" not in fields or "end" not in fields:
            continue  # lambdas: part of the function around them
        scope = fields.get("class") or fields.get("struct") or fields.get(
            "namespace") or ""
        scope = "::".join(s for s in scope.split("::") if not s.startswith("__anon"))
        full = scope + "::" + name if scope else name
        start, end = int(fields["line"]), int(fields["end"])
        yield end - start + 1, path, start, full


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--limit", type=int, default=150)
    p.add_argument("--src", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    p.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    a = p.parse_args(argv)
    dirs = [d for d in a.dirs if os.path.exists(os.path.join(a.src, d))]
    long = sorted((f for f in functions(a.src, dirs) if f[0] > a.limit),
                  reverse=True)
    for n, path, line, name in long:
        print("%5d %s:%d %s" % (n, path, line, name))
    print("%d functions over %d lines" % (len(long), a.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

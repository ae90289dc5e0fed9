"""python3 -m onnxc MODEL [onnxc options]: the onnxc command line (the same
options, outputs, messages and exit code), with the onnxc executable found as
onnxc.compile finds it ($ONNXC, the installed prefix, the source tree's
build, PATH)."""

import os
import sys

from . import errors
from ._compile import find_onnxc


def main(argv):
    try:
        exe = find_onnxc()
    except errors.Error as e:
        sys.stderr.write("%s\n" % e)
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(exe, [exe] + argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

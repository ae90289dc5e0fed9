"""exitcode.py CODE CMD...: runs CMD, forwards its stdout and stderr (both
to stdout), and succeeds only when CMD exits with CODE."""
import subprocess
import sys

want = int(sys.argv[1])
p = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(p.stdout.decode(errors="replace"))
if p.returncode != want:
    print("exitcode.py: exit code %d, expected %d" % (p.returncode, want))
    sys.exit(1)

"""Runs each chain case (gen_kernel_cases.py ROOT chains) with the runtime's
banded chains off and on (ONNXC_CONV_CHAIN=0 / 1), at 1 and 2 threads, and
prints whether the outputs are the same bytes: the bands compute every
element as the calls one by one do, on any number of threads.

usage: check_chain_bits.py ONNXC ONNXC_RUN ROOT NAME..."""
import filecmp
import os
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    onnxc, run, root = argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        for name in argv[4:]:
            case = os.path.join(root, "chains", name)
            lib = os.path.join(tmp, name + ".so")
            subprocess.run([onnxc, os.path.join(case, "model.onnx"), "-o", lib], check=True)
            saved = []
            for chain in ("0", "1"):
                for threads in ("1", "2"):
                    out = os.path.join(tmp, "%s_%s_%s" % (name, chain, threads))
                    os.mkdir(out)
                    env = dict(os.environ, ONNXC_CONV_CHAIN=chain)
                    subprocess.run([run, lib, "--inputs", os.path.join(case, "test_data_set_0"),
                                    "--save", out, "--threads", threads],
                                   check=True, env=env, stdout=subprocess.DEVNULL)
                    saved.append(out)
            files = sorted(os.listdir(saved[0]))
            same = files and all(
                sorted(os.listdir(d)) == files and
                all(filecmp.cmp(os.path.join(saved[0], f), os.path.join(d, f), shallow=False)
                    for f in files)
                for d in saved[1:])
            print("%s: %s" % (name, "identical" if same else "DIFFERENT"))


if __name__ == "__main__":
    main(sys.argv)

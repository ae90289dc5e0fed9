"""Writing generated test cases in the ONNX backend-test layout, shared by
the generators under test/e2e/: ROOT/SUITE/NAME/model.onnx and
test_data_set_N/{input,output}_M.pb, which run_conformance.py --data ROOT
--suites SUITE compiles and runs. Needs python3-onnx (/usr/bin/python3)."""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper


def vi(name, elem, shape):
    """A tensor value_info."""
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, value):
    """A Constant node producing `name` from a numpy value."""
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(value), name))


def _proto(value):
    """A numpy value as a TensorProto; protobuf messages (TensorProto,
    SequenceProto, OptionalProto) as they are."""
    if hasattr(value, "SerializeToString"):
        return value
    return numpy_helper.from_array(np.asarray(value))


def save_case(root, suite, name, graph, datasets, opset=17, ir_version=None,
              check=True):
    """Checks and writes `graph` as ROOT/SUITE/NAME/model.onnx and every
    (inputs, outputs) pair of `datasets` as test_data_set_N (`check`
    False: unchecked, for ops newer than onnx 1.12's checker knows)."""
    d = os.path.join(root, suite, name)
    os.makedirs(d, exist_ok=True)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="onnxc-test")
    if ir_version is not None:
        model.ir_version = ir_version
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for n, (inputs, outputs) in enumerate(datasets):
        s = os.path.join(d, "test_data_set_%d" % n)
        os.makedirs(s, exist_ok=True)
        for kind, values in (("input", inputs), ("output", outputs)):
            for i, v in enumerate(values):
                with open(os.path.join(s, "%s_%d.pb" % (kind, i)), "wb") as f:
                    f.write(_proto(v).SerializeToString())


def save_model_case(root, suite, name, model, inputs, reference=None):
    """Writes a ready `model` as ROOT/SUITE/NAME/model.onnx (unchecked: the
    generators under test/numeric/ort write ops newer than onnx 1.12's checker
    knows) and its `inputs` as test_data_set_0/input_N.pb, named after the
    graph inputs. With a numpy `reference`, also output_0.pb and a
    `numpy_reference` marker that ort_oracle leaves alone."""
    d = os.path.join(root, suite, name)
    s = os.path.join(d, "test_data_set_0")
    os.makedirs(s, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for i, a in enumerate(inputs):
        t = numpy_helper.from_array(a, model.graph.input[i].name)
        with open(os.path.join(s, "input_%d.pb" % i), "wb") as f:
            f.write(t.SerializeToString())
    if reference is not None:
        t = numpy_helper.from_array(reference, model.graph.output[0].name)
        with open(os.path.join(s, "output_0.pb"), "wb") as f:
            f.write(t.SerializeToString())
        open(os.path.join(d, "numpy_reference"), "w").close()


def ort_oracle(root, suite, cmd, per_line=False):
    """Runs the oracle `cmd` (ort_run.js: CMD MODEL --inputs SET --save SET)
    on every case of ROOT/SUITE, which saves the expected outputs; prints
    "NAME: " and what it printed (one line a case, its lines joined by
    "; ", or with `per_line` one line each). Cases with a numpy reference
    keep it ("NAME: numpy reference"). Exits with the case's error line
    when the oracle fails."""
    import subprocess
    import sys
    base = os.path.join(root, suite)
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        s = os.path.join(d, "test_data_set_0")
        if os.path.exists(os.path.join(d, "numpy_reference")):
            print("%s: numpy reference" % name)
            continue
        r = subprocess.run(cmd + [os.path.join(d, "model.onnx"), "--inputs", s,
                                  "--save", s], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s: %s" % (name, (r.stderr or r.stdout).strip()))
        if per_line:
            for line in r.stdout.splitlines():
                print("%s: %s" % (name, line))
        else:
            print("%s: %s" % (name, r.stdout.strip().replace("\n", "; ")))


def generator_main(argv, write, suite, doc, per_line=False):
    """The command line of a test/numeric/ort generator: `write DIR` calls
    write(DIR); `oracle DIR CMD...` runs ort_oracle over DIR/SUITE."""
    import sys
    if len(argv) >= 3 and argv[1] == "write":
        write(argv[2])
    elif len(argv) >= 4 and argv[1] == "oracle":
        ort_oracle(argv[2], suite, " ".join(argv[3:]).split(), per_line)
    else:
        sys.exit(doc)

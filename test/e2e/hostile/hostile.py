"""What the hostile-input generators (gen_hostile.py, gen_ops.py) share: the
list of cases each keeps, the writer of a case in their layout
(OUT/hostile/<case>/model.onnx, test_data_set_N; testcases.save_case), and
the small constructors their cases use. Node names are the case names, so
that messages can be checked."""
import os
import sys

import numpy as np

from onnx import TensorProto, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Utils"))
from testcases import const, vi  # noqa: E402,F401 (the generators' imports)
import testcases  # noqa: E402

F = TensorProto.FLOAT
I64 = TensorProto.INT64
I32 = TensorProto.INT32


def collector():
    """A generator's list of cases and the decorator that adds to it."""
    cases = []

    def case(fn):
        cases.append(fn)
        return fn
    return cases, case


def save(root, name, nodes, inputs, outputs, datasets, inits=(), opset=17,
         check=True):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              initializer=list(inits))
    testcases.save_case(root, "hostile", name, graph, datasets, opset=opset,
                        check=check)


def node(op, ins, outs, name, **attrs):
    return helper.make_node(op, ins, outs, name=name, **attrs)


def i64(*v):
    return np.array(v, dtype=np.int64)


def f32(*v):
    return np.array(v, dtype=np.float32)


def main(cases, argv):
    """Writes every case under argv[1]."""
    root = argv[1]
    for fn in cases:
        fn(root)

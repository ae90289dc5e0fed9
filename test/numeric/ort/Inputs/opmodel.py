"""Small pieces shared by the op-family generators of test/ort/Inputs
(gen_bitwise_ops.py, gen_activation_ops.py, ...): one-graph models built
from numpy arrays, written in the layout run_conformance.py --data reads
(testcases.save_model_case). python3-onnx and numpy only."""
import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Utils"))
import testcases  # noqa: E402,F401  (re-exported for the generators)

ONNX_TYPE = {np.dtype(k): v for k, v in [
    (np.float32, T.FLOAT), (np.float64, T.DOUBLE), (np.float16, T.FLOAT16),
    (np.int8, T.INT8), (np.int16, T.INT16), (np.int32, T.INT32),
    (np.int64, T.INT64), (np.uint8, T.UINT8), (np.uint16, T.UINT16),
    (np.uint32, T.UINT32), (np.uint64, T.UINT64), (np.bool_, T.BOOL)]}


def model(name, nodes, inputs, outputs, opset, inits=(), ir_version=8):
    """A model of `nodes`: `inputs` [(name, array)] as graph inputs of the
    arrays' shapes, `outputs` [(name, elem type)] of unknown shape,
    `inits` [(name, array)] as initializers. Returns (model, input arrays)
    as testcases.save_model_case takes them."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype], a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = ir_version
    return m, [a for _, a in inputs]


def write_all(root, suite, cases):
    """Writes every (name, (model, inputs)) of `cases` under ROOT/SUITE;
    a case (name, (model, inputs), reference) carries its numpy reference
    (for what ORT 1.30 lacks; a list: one per output), which the oracle
    step keeps."""
    for case in cases:
        name, (m, inputs) = case[:2]
        ref = case[2] if len(case) > 2 else None
        if isinstance(ref, (list, tuple)):  # one reference per output
            testcases.save_model_case(root, suite, name, m, inputs, ref[0])
            s = os.path.join(root, suite, name, "test_data_set_0")
            for k, r in enumerate(ref[1:], 1):
                t = numpy_helper.from_array(np.asarray(r), m.graph.output[k].name)
                with open(os.path.join(s, "output_%d.pb" % k), "wb") as f:
                    f.write(t.SerializeToString())
        else:
            testcases.save_model_case(root, suite, name, m, inputs, ref)

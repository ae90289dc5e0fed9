"""What the corpus generators share: the registry, the torch export with
its settings, random BatchNorm statistics, and graph rewrites that turn a
torch export into the form another producer writes (weights in Constant
nodes, a symbolic batch)."""

import io
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Model:
    """A corpus model. build(dynamic) -> ModelProto, with the batch dim
    named "N" (dim_param) when dynamic. cls: a key of corpus.TOLERANCES.
    heavy: left out of the default lit suite (compile or ORT run too slow
    there; run with ONNXC_CORPUS=full). variants: more input sets, each a
    {input name: value} that replaces that input of set 0 (e.g. another
    sample rate, to run the other branch of an If). reference:
    fn(dynamic) -> the fp32 model this one was converted from (the int8
    class is judged against it). bench: in bench/run's corpus set (not
    the minimal reproducers)."""

    def __init__(self, name, build, cls, what, heavy, variants, reference, bench):
        self.name, self.build, self.cls, self.what, self.heavy = (
            name, build, cls, what, heavy)
        self.variants, self.reference, self.bench = variants or [], reference, bench


MODELS = []


def register(name, cls, what, heavy=False, variants=None, reference=None, bench=True):
    """Decorator: fn(dynamic) -> ModelProto becomes corpus model NAME."""
    def deco(fn):
        MODELS.append(Model(name, fn, cls, what, heavy, variants, reference, bench))
        return fn
    return deco


# --- torch -----------------------------------------------------------------------

def torch():
    import torch as t  # imported on use: the helper-only models need no torch
    return t


def seed(n):
    t = torch()
    t.manual_seed(n)
    np.random.seed(n)


def randomize_bn(module, calib, seed_=0):
    """Random BatchNorm affine parameters (gamma in [0.5, 1.5], beta ~ N(0,
    0.2)), then running statistics measured on `calib` (a forward pass in
    training mode with a cumulative average): every BN folds to a
    non-trivial scale and shift, as in a trained network, and activations
    keep their scale layer after layer (torch's defaults, mean 0 and var 1,
    would make folding a no-op). Leaves the module in eval mode."""
    t = torch()
    g = t.Generator().manual_seed(seed_)
    bns = [m for m in module.modules() if isinstance(m, t.nn.modules.batchnorm._BatchNorm)]
    with t.no_grad():
        for bn in bns:
            if bn.affine:
                bn.weight.copy_(0.5 + t.rand(bn.weight.shape, generator=g))
                bn.bias.copy_(0.2 * t.randn(bn.bias.shape, generator=g))
            bn.reset_running_stats()
            bn.momentum = None
        module.train()
        for x in calib:
            module(*x) if isinstance(x, tuple) else module(x)
    module.eval()
    return module


def export(module, args, opset, dynamic, input_names, output_names, keep_bn=False,
           dynamic_axes=None):
    """torch.onnx.export as a user calls it: eval mode, constant folding
    (the default), the given opset. dynamic: the batch (dim 0 of every
    input and output) named "N", unless dynamic_axes says otherwise.
    keep_bn: BatchNormalization stays a node (TrainingMode.PRESERVE on an
    eval-mode module: the exporter's eval peephole, which folds BN into
    the Conv before it, runs only for TrainingMode.EVAL)."""
    t = torch()
    module.eval()
    axes = None
    if dynamic:
        axes = dynamic_axes or {n: {0: "N"} for n in list(input_names) + list(output_names)}
    buf = io.BytesIO()
    with t.no_grad(), warnings.catch_warnings():
        # PRESERVE warns about constant folding in training mode; the
        # module is in eval mode, where folding is what users get.
        warnings.simplefilter("ignore", UserWarning)
        t.onnx.export(module, args, buf, opset_version=opset, input_names=input_names,
                      output_names=output_names, dynamic_axes=axes,
                      training=(t.onnx.TrainingMode.PRESERVE if keep_bn
                                else t.onnx.TrainingMode.EVAL))
    return onnx.load_from_string(buf.getvalue())


# --- Graph rewrites -----------------------------------------------------------------

def initializers_to_constants(model, names=None):
    """Every initializer (or those in `names`) becomes a Constant node at
    the head of the graph, as Paddle2ONNX and some scripted exports write
    weights. The initializer's value_info/graph input entries go."""
    g = model.graph
    keep, consts = [], []
    for t in g.initializer:
        if names is None or t.name in names:
            consts.append(helper.make_node("Constant", [], [t.name], value=t))
        else:
            keep.append(t)
    del g.initializer[:]
    g.initializer.extend(keep)
    moved = {c.output[0] for c in consts}
    inputs = [i for i in g.input if i.name not in moved]
    del g.input[:]
    g.input.extend(inputs)
    nodes = consts + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    return model


def const_node(name, array):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(array), name))


def clear_value_info(model):
    """Drops the inferred shapes of intermediates (converters that change
    types rewrite or drop them; stale ones would be wrong)."""
    del model.graph.value_info[:]
    return model


def check(model, full=True):
    """onnx's checker; full=False for a graph whose nodes are not in
    topological order (the checker's graph check requires the order)."""
    if full:
        onnx.checker.check_model(model, full_check=True)
    return model


def shape_of(vi):
    return [d.dim_value if d.HasField("dim_value") else d.dim_param
            for d in vi.type.tensor_type.shape.dim]


F = TensorProto.FLOAT
F16 = TensorProto.FLOAT16
I64 = TensorProto.INT64
U8 = TensorProto.UINT8
I8 = TensorProto.INT8
I32 = TensorProto.INT32

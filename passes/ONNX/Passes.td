//===- Passes.td - Passes on the onnx dialect --------------*- tablegen -*-===//

#ifndef ONNXC_PASSES_ONNX_PASSES_TD
#define ONNXC_PASSES_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXShapeInference : Pass<"onnx-shape-inference", "func::FuncOp"> {
  let summary = "Infer the element types and shapes of onnx op results";
  let description = [{
    Runs onnxc's type and shape inference (the one the importer runs on each
    node) over the function body, in order: libonnx's inference functions for
    the ops it knows, onnxc's rules for opset 18-21 signatures. Integer
    tensors computed from shapes (Shape -> Gather -> Concat -> Reshape) are
    propagated, so such chains give static dims when the inputs are static,
    and keep named symbolic dims (`#onnx.dims<["N"]>`) when they are not.
    Small float and int scalars computed from constants (Cast, Add, Sub, Mul,
    Div, ...) are known too, so Range of them has a static length; sequences
    built in ways inference follows (SequenceConstruct, SequenceInsert at
    known positions, ...) keep the type of each element.
    Bodies of If, Loop, Scan and SequenceMap are inferred through their op.
    A Loop body is inferred to a fixed point: a carried value whose type the
    body changes is generalized (differing dims dynamic, differing ranks
    unranked) and the body inferred again, a bounded number of times.
    The function's result types are then taken from its `func.return`.

    Input invariant: onnx ops whose result types may be `!onnx.unknown`,
    unranked or less refined than their operands allow; absent optional
    operands are `none` values.

    Output IR: every result type refined as far as the operands determine it
    (unknown -> inferred, unranked -> ranked, `?` -> static, dim names kept).
    Ops that violate ONNX semantics (e.g. MatMul with mismatched inner dims)
    get an error and the pass fails.

    ```mlir
    %0 = "onnx.Add"(%a, %b) : (tensor<?x3xf32, #onnx.dims<["N"]>>,
                               tensor<3xf32>) -> !onnx.unknown
    // becomes
    %0 = "onnx.Add"(%a, %b) : (...) -> tensor<?x3xf32, #onnx.dims<["N"]>>
    ```
  }];
}

def ONNXGraphOptimize : Pass<"onnx-graph-optimize", "func::FuncOp"> {
  let summary = "Graph-level rewrites before the lowering";
  let description = [{
    Folds an inference-mode BatchNormalization into the Conv before it when
    both have constant parameters (weights scaled per output channel, bias
    (B - mean) * s + beta with s = scale / sqrt(var + eps)); folds Transpose
    of a constant into a constant; composes Transpose of Transpose and
    removes identity Transposes; composes Reshape of Reshape when the outer
    shape is a constant without 0 entries, and removes a Reshape to its own
    static type. Moves loop-invariant row products out of loops: in a Loop
    body, MatMul(Gather(X, i), W) (i the iteration number, X and W defined
    outside) becomes Gather(MatMul(X, W), i) with the product computed once
    before the loop, when the loop visits every row of X (docs/pipeline.md
    gives the conditions); likewise Gemm, a Scan input's slice (the product
    becomes a new scan input), and a loop-invariant bias Add of such a row.
    A ConvTranspose with constant weights, one group, explicit pads and
    static spatial sizes becomes MatMul(W', Reshape(X, [N, C, L])) with the
    weights transposed at compile time, then Col2Im (and the bias Add): the
    products run in the GEMM kernel, where the direct lowering convolves an
    input dilated with zeros (s^r times the work). A Conv's outer kernel
    taps that read only padding are dropped with the pads they spanned; a
    dilated stride-1 2-D Conv whose taps read padding for most output
    positions (at most 70% of its products reading the input) is split into
    the output regions where the same taps read the input, each a Conv
    without pads over its slice of X, concatenated back (ConvTaps.cpp).
    On static shapes (LayoutSimplify.cpp): a Transpose that moves only dims
    of size 1 becomes a Reshape (no element moves); a MatMul of an A of
    rank >= 3 by a 2-D B becomes one 2-D product of all of A's rows between
    two Reshapes, and a bias Add over the last dim after that Reshape moves
    before it, next to the product (PyTorch's MultiheadAttention export:
    [L, 1, E] x [E, 3E] was L one-row products).
    Runs after shape inference: every rewrite keeps the result types.
  }];
}

def ONNXPromoteF16 : Pass<"onnx-promote-f16", "func::FuncOp"> {
  let summary = "Compute float16 ops in float32";
  let description = [{
    CPUs without native half arithmetic (and the lowering, which has no
    half kernels) compute f16 one element at a time, converting each
    operand and result. This pass makes every f16 op compute in f32, as
    ONNX Runtime's CPU provider does for models converted to float16: the
    op's f16 operands are replaced by f32 twins (a constant's twin is the
    converted constant, folded at compile time; any other value gets one
    Cast after its definition), its f16 results become f32, and a Cast back
    to f16 follows for the users that still want f16 (function results,
    ops that stay f16). A Cast from f16 to f32 of a promoted value reads its
    f32 twin. So a chain of f16 ops keeps its intermediates in f32: results
    are rounded to f16 where the graph hands them out, not between ops
    (more precise than per-op f16 rounding; ONNX Runtime drops the same
    Cast pairs). Conv, MatMul and the rest then take the fp32 kernels.

    Kept in f16: ops whose element type comes from an attribute or enters
    their arithmetic (Cast, CastLike, Constant, ConstantOfShape, EyeLike,
    Range, the random ops, Quantize/DequantizeLinear), Shape and Size, ops
    with regions (If, Loop, Scan: the ops in their bodies are promoted one
    by one), ops on sequences or optionals, and the ai.onnx.ml and training
    domains.

    Input invariant: inferred onnx ops. Output IR: the same graph with f32
    arithmetic and Casts at the f16 boundaries. Runs from -O1 up, before
    onnx-graph-optimize.

    ```mlir
    %y = "onnx.Relu"(%x) : (tensor<4xf16>) -> tensor<4xf16>
    // becomes
    %0 = "onnx.Cast"(%x) <{to = 1 : i64}> : (tensor<4xf16>) -> tensor<4xf32>
    %1 = "onnx.Relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %y = "onnx.Cast"(%1) <{to = 10 : i64}> : (tensor<4xf32>) -> tensor<4xf16>
    ```
  }];
}

def ONNXAutodiff : Pass<"onnx-autodiff", "func::FuncOp"> {
  let summary = "Replace Gradient ops by the ONNX ops that compute them";
  let description = [{
    Reverse-mode differentiation of `ai.onnx.preview.training.Gradient`
    (`onnx.training.Gradient`, whose last operand is the tensor its `y`
    names). In the Gradient's block, the active ops are those that depend on
    one of its `xs` (through operands, or through outer values their
    regions read) and that `y` depends on. From dy = ones of y's shape (the
    spec's gradient of a non-scalar y is that of the sum of its elements),
    the active ops are visited in reverse order; each op's gradient rule
    (passes/ONNX/Autodiff/Rules*.cpp, one file per op category) gets the
    gradients of its results and builds, out of ONNX ops, the gradients of
    its inputs, which are summed where a value has several users.
    Broadcasting is summed back to each input's shape (statically where the
    types tell, at run time for a dynamic dim that may be 1). Before the
    reverse pass, ops with an expansion that depend on an x are rewritten
    into it (RNN, GRU, LSTM: their cell's ops unrolled over a static
    sequence length), and the rules differentiate the expansion. A few
    rules make their forward op output what the backward reads (MaxPool's
    Indices, Dropout's mask in training mode). If, Loop and Scan are
    differentiated by ops of the same kind whose bodies recompute the
    forward body and run the same reverse sweep over it (nesting included);
    a forward Loop or Scan is made to also output each iteration's carried
    values, which its backward reads in reverse. The
    Gradient's results become the gradients of its xs, and the op goes.
    The backward ops are ordinary onnx ops: inference, folding, fusion, the
    kernels and buffer planning apply to them as to the forward ones, and
    the forward values they read stay alive only as long as they need.

    Errors (one line, naming the Gradient node or the op): an x that is not
    a graph input or initializer, or not a float tensor; y not depending on
    an x; an op on a path from an x to y with no rule, or whose rule gives
    no gradient for an input that depends on an x (never a silent zero); a
    form a rule does not cover (a recurrent op with a symbolic sequence
    length, Resize with tf_crop_and_resize, a random op in a subgraph the
    backward recomputes, ...).

    Input invariant: inferred onnx ops. Output IR: no onnx.training.Gradient.
    Runs first in the pipeline, at every optimization level.

    ```mlir
    %y = "onnx.Mul"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %g:2 = "onnx.training.Gradient"(%a, %b, %y) <{xs = ["a", "b"], y = "y"}>
    // becomes (dy = 1)
    %da = "onnx.Mul"(%one, %b)    // dy * b
    %db = "onnx.Mul"(%one, %a)    // dy * a
    ```
  }];
}

def ONNXDecomposeOptimizers : Pass<"onnx-decompose-optimizers", "func::FuncOp"> {
  let summary = "Expand Adagrad, Momentum and Adam into elementwise onnx ops";
  let description = [{
    The ai.onnx.preview.training optimizers become the elementwise ops of
    their definition (onnx-graph-optimize and the elementwise fusion then
    make each tensor's update one loop). Inputs R (learning rate), T (the
    update count, int64), then n tensors X, n gradients G and the states;
    for each tensor, with G' = norm_coefficient * X + G:
      - Adagrad (states H): r = R / (1 + T * decay_factor),
        H' = H + G'^2, X' = X - r * G' / (sqrt(H') + epsilon);
      - Momentum (states V): beta' = beta if T > 0 else 1,
        V' = alpha * V + beta' * G', X' = X - R * V' ("standard") or
        X - R * (G' + alpha * V') ("nesterov");
      - Adam (states V, H): V' = alpha * V + (1 - alpha) * G',
        H' = beta * H + (1 - beta) * G'^2, r = R * sqrt(1 - beta^T) /
        (1 - alpha^T) if T > 0 else R,
        X' = (1 - norm_coefficient_post) * (X - r * V' / (sqrt(H') + epsilon)).
    Results: the new X's, then the new states in input order. Errors: input
    counts that do not divide into groups, an unknown Momentum mode.

    Input invariant: inferred onnx ops. Output IR: no optimizer ops. Runs
    after onnx-autodiff, at every optimization level.
  }];
}

#endif // ONNXC_PASSES_ONNX_PASSES_TD

"""The fourth attack on onnxc (2026-11-26; run by adversarial.py): bad models
of the classes adversarial.py's own cases cover, other instances. Names
start with the class: t- malformed text, a- wrong attributes, s- shape
mismatches at compile time, h- huge dims and overflowing sizes, d- deep
nesting, n- bad names, p- malformed protobuf, q- sequences, maps and
strings. "any" marks cases the spec leaves open or that a compiled model
checks at run time (test/e2e/hostile/attack.test runs those)."""
from onnx import TensorProto as TP
from onnx import helper

HEAD18 = '<ir_version: 8, opset_import: ["" : 18]>\n'


def _ld(field, payload):
    """A length-delimited protobuf field."""
    n, v = len(payload), b""
    while True:
        b = n & 0x7f
        n >>= 7
        v += bytes([b | (0x80 if n else 0)])
        if not n:
            break
    return bytes([(field << 3) | 2]) + v + payload


def _tensor(name, elt, dims, field=None, values=()):
    """A TensorProto as written, whatever its dims and values say."""
    t = TP()
    t.name, t.data_type = name, elt
    t.dims.extend(dims)
    if field:
        getattr(t, field).extend(values)
    return t


def _nested_graph_bytes(depth):
    """A ModelProto whose graph holds a node whose attribute holds a graph
    ... `depth` graphs deep, written by hand (onnx's Python refuses)."""
    g = b""
    for _ in range(depth):
        attr = _ld(1, b"g") + b"\x50\x05" + _ld(6, g)  # name, type GRAPH, g
        g = _ld(1, _ld(4, b"If") + _ld(5, attr))       # node: op_type, attribute
    return b"\x08\x08" + _ld(7, g) + _ld(8, b"\x10\x11")


def add(a):
    """Adds the cases to adversarial.py (module `a`)."""
    case, bcase, text, model, vi, relu, binary = (
        a.case, a.bcase, a.text, a.model, a.vi, a.relu, a.binary)
    # Malformed text.
    case("t-int-literal-overflow", "error",
         text("g (float[99999999999999999999] x) => (float[2] y) {\n  y = Relu(x)\n}\n"))
    case("t-attr-int-overflow", "error",
         text("g (float[2, 3] x) => (float[?] y) {\n"
              "  y = Flatten<axis = 99999999999999999999>(x)\n}\n"))
    case("t-attr-float-overflow", "any",
         text("g (float[2] x) => (float[2] y) {\n"
              "  y = LeakyRelu<alpha = 1e999>(x)\n}\n"))
    case("t-unterminated-string", "error",
         text("g (float[2] x) => (float[2] y) {\n"
              "  y = Einsum<equation = \"i->i>(x)\n}\n"))
    case("t-deep-brackets", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Relu(" + "(" * 100000 + "x)\n}\n"))
    case("t-deep-types", "error",
         text("g (" + "seq(" * 20000 + "float[2]" + ")" * 20000 +
              " x) => (float[2] y) {\n  y = Relu(x)\n}\n"))
    case("t-nested-loops-200", "any",
         text("g (float[2] x, int64 n, bool c) => (float[2] y) {\n  y = " +
              "".join("Loop(n, c, x) <body = b%d (int64 i, bool ci, float[2] v) => "
                      "(bool co, float[2] w) { co = Identity(ci)\n w = " % k
                      for k in range(200)) + "Relu(v)" + " }>" * 200 + "\n}\n"))
    case("t-nul-in-name", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Re\x00lu(x)\n}\n"))
    case("t-empty-graph-name", "any",
         text("(float[2] x) => (float[2] y) {\n  y = Relu(x)\n}\n"))
    case("t-tensor-too-many-values", "error",
         text("g (float[2] x) => (float[2] y) <float[2] w = {1.0, 2.0, 3.0}> {\n"
              "  y = Add(x, w)\n}\n"))
    # Wrong attributes.
    case("a-softmax-axis-huge", "error",
         text("g (float[2, 3] x) => (float[2, 3] y) {\n"
              "  y = Softmax<axis = 9223372036854775807>(x)\n}\n"))
    case("a-softmax-axis-min", "error",
         text("g (float[2, 3] x) => (float[2, 3] y) {\n"
              "  y = Softmax<axis = -9223372036854775808>(x)\n}\n"))
    case("a-flatten-axis-neg", "error",
         text("g (float[2, 3] x) => (float[?, ?] y) {\n"
              "  y = Flatten<axis = -5>(x)\n}\n"))
    case("a-transpose-perm-short", "error",
         text("g (float[2, 3, 4] x) => (float[?, ?, ?] y) {\n"
              "  y = Transpose<perm = [1, 0]>(x)\n}\n"))
    case("a-transpose-perm-neg", "error",
         text("g (float[2, 3] x) => (float[?, ?] y) {\n"
              "  y = Transpose<perm = [-1, 0]>(x)\n}\n"))
    case("a-transpose-perm-float", "error",
         text("g (float[2, 3] x) => (float[?, ?] y) {\n"
              "  y = Transpose<perm = [1.0, 0.0]>(x)\n}\n"))
    case("a-gemm-transa-5", "any",
         text("g (float[2, 3] x, float[3, 4] w) => (float[2, 4] y) {\n"
              "  y = Gemm<transA = 5>(x, w)\n}\n"))
    case("a-depthtospace-block-0", "error",
         text("g (float[1, 4, 2, 2] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = DepthToSpace<blocksize = 0>(x)\n}\n"))
    case("a-spacetodepth-block-neg", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = SpaceToDepth<blocksize = -2>(x)\n}\n"))
    case("a-spacetodepth-block-huge", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = SpaceToDepth<blocksize = 4294967296>(x)\n}\n"))
    case("a-maxpool-kernel-0", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = MaxPool<kernel_shape = [0, 0]>(x)\n}\n"))
    case("a-maxpool-kernel-neg", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = MaxPool<kernel_shape = [-2, 2]>(x)\n}\n"))
    case("a-maxpool-stride-huge", "any",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = MaxPool<kernel_shape = [2, 2], strides = [9223372036854775807, 1]>(x)\n}\n"))
    case("a-maxpool-dilation-0", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = MaxPool<kernel_shape = [2, 2], dilations = [0, 1]>(x)\n}\n"))
    case("a-maxpool-pads-neg", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = MaxPool<kernel_shape = [2, 2], pads = [-3, 0, 0, 0]>(x)\n}\n"))
    case("a-avgpool-kernel-rank", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = AveragePool<kernel_shape = [2, 2, 2]>(x)\n}\n"))
    case("a-conv-dilation-neg", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 2, 2] w) => (float[?, ?, ?, ?] y) {\n"
              "  y = Conv<dilations = [-1, 1]>(x, w)\n}\n"))
    case("a-conv-kernel-shape-wrong", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 2, 2] w) => (float[?, ?, ?, ?] y) {\n"
              "  y = Conv<kernel_shape = [3, 3]>(x, w)\n}\n"))
    case("a-lrn-size-0", "error",
         text("g (float[1, 2, 4, 4] x) => (float[1, 2, 4, 4] y) {\n"
              "  y = LRN<size = 0>(x)\n}\n"))
    case("a-lstm-hidden-0", "error",
         text("g (float[2, 1, 3] x, float[1, 0, 3] w, float[1, 0, 0] r) => (float[?, ?, ?, ?] y) {\n"
              "  y = LSTM<hidden_size = 0>(x, w, r)\n}\n"))
    case("a-lstm-hidden-neg", "error",
         text("g (float[2, 1, 3] x, float[1, 8, 3] w, float[1, 8, 2] r) => (float[?, ?, ?, ?] y) {\n"
              "  y = LSTM<hidden_size = -2>(x, w, r)\n}\n"))
    case("a-gru-hidden-mismatch", "error",
         text("g (float[2, 1, 3] x, float[1, 6, 3] w, float[1, 6, 2] r) => (float[?, ?, ?, ?] y) {\n"
              "  y = GRU<hidden_size = 5>(x, w, r)\n}\n"))
    case("a-split-num-outputs-0", "error",
         text("g (float[6] x) => (float[?] a) {\n"
              "  a = Split<axis = 0, num_outputs = 0>(x)\n}\n", HEAD18))
    case("a-split-num-outputs-wrong", "error",
         text("g (float[6] x) => (float[?] a, float[?] b) {\n"
              "  a, b = Split<axis = 0, num_outputs = 3>(x)\n}\n", HEAD18))
    case("a-topk-k-neg", "error",
         text("g (float[6] x) => (float[?] v, int64[?] i) {\n"
              "  k = Constant<value = int64[1] {-1}>()\n"
              "  v, i = TopK(x, k)\n}\n"))
    case("a-topk-k-big", "error",
         text("g (float[6] x) => (float[?] v, int64[?] i) {\n"
              "  k = Constant<value = int64[1] {7}>()\n"
              "  v, i = TopK(x, k)\n}\n"))
    case("a-argmax-keepdims-2", "any",
         text("g (float[2, 3] x) => (int64[?] y) {\n"
              "  y = ArgMax<axis = 1, keepdims = 2>(x)\n}\n"))
    case("a-reducesum-axes-dup", "any",  # ORT and onnx accept 1 and -1 (one axis)
         text("g (float[2, 3] x) => (float[?] y) {\n"
              "  a = Constant<value = int64[2] {1, -1}>()\n"
              "  y = ReduceSum<keepdims = 0>(x, a)\n}\n"))
    case("a-reducesum-axes-huge", "error",
         text("g (float[2, 3] x) => (float[?] y) {\n"
              "  a = Constant<value = int64[1] {-9223372036854775808}>()\n"
              "  y = ReduceSum<keepdims = 0>(x, a)\n}\n"))
    case("a-unsqueeze-axes-dup", "error",
         text("g (float[2, 3] x) => (float[?, ?, ?, ?] y) {\n"
              "  a = Constant<value = int64[2] {0, 0}>()\n"
              "  y = Unsqueeze(x, a)\n}\n"))
    case("a-trilu-k-huge", "any",
         text("g (float[3, 3] x) => (float[3, 3] y) {\n"
              "  k = Constant<value = int64 {-9223372036854775808}>()\n"
              "  y = Trilu(x, k)\n}\n"))
    case("a-onehot-axis-huge", "error",
         text("g (int64[3] i) => (float[?, ?] y) {\n"
              "  d = Constant<value = int64 {4}>()\n"
              "  v = Constant<value = float[2] {0.0, 1.0}>()\n"
              "  y = OneHot<axis = 5>(i, d, v)\n}\n"))
    case("a-cumsum-axis-huge", "any",  # refused at run time, naming the node
         text("g (float[3] x) => (float[3] y) {\n"
              "  a = Constant<value = int64 {7}>()\n"
              "  y = CumSum(x, a)\n}\n"))
    case("a-cast-to-neg", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = Cast<to = -1>(x)\n}\n"))
    case("a-eyelike-dtype-bad", "error",
         text("g (float[2, 2] x) => (float[2, 2] y) {\n  y = EyeLike<dtype = 77>(x)\n}\n"))
    case("a-constant-sparse-bad", "error",
         text("g (float[2] x) => (float[2] y) {\n"
              "  c = Constant<value_ints = []>()\n  y = Add(x, c)\n}\n"))
    case("a-gathernd-batch-dims-big", "error",
         text("g (float[2, 3] x, int64[2, 1] i) => (float[?] y) {\n"
              "  y = GatherND<batch_dims = 3>(x, i)\n}\n"))
    case("a-einsum-many-letters", "error",
         text("g (float[2] x) => (float y) {\n"
              "  y = Einsum<equation = \"" + "abcdefghijklmnopqrstuvwxyz" * 4 + "->\">(x)\n}\n"))
    case("a-randomnormal-shape-huge", "any",
         text("g (float[2] x) => (float[?, ?] y) {\n"
              "  y = RandomNormal<shape = [4294967296, 4294967296]>()\n}\n"))
    case("a-randomnormal-shape-neg", "error",
         text("g (float[2] x) => (float[?] y) {\n"
              "  y = RandomNormal<shape = [-4]>()\n}\n"))
    case("a-resize-mode-bogus", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  s = Constant<value = float[4] {1.0, 1.0, 2.0, 2.0}>()\n"
              "  y = Resize<mode = \"evil\">(x, , s)\n}\n"))
    case("a-resize-scales-short", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  s = Constant<value = float[2] {2.0, 2.0}>()\n"
              "  y = Resize(x, , s)\n}\n"))
    case("a-resize-nan-scale", "error",
         text("g (float[1, 1, 4, 4] x) => (float[?, ?, ?, ?] y) {\n"
              "  s = Constant<value = float[4] {1.0, 1.0, 2.0, NaN}>()\n"
              "  y = Resize(x, , s)\n}\n"))
    # Shape mismatches at compile time.
    case("s-matmul-k", "error",
         text("g (float[2, 3] x, float[4, 5] w) => (float[?, ?] y) {\n  y = MatMul(x, w)\n}\n"))
    case("s-add-broadcast", "error",
         text("g (float[2, 3] x, float[4] z) => (float[?, ?] y) {\n  y = Add(x, z)\n}\n"))
    case("s-where-broadcast", "error",
         text("g (bool[2] c, float[3] x, float[3] z) => (float[?] y) {\n  y = Where(c, x, z)\n}\n"))
    case("s-gemm-c", "error",
         text("g (float[2, 3] x, float[3, 4] w, float[3] c) => (float[?, ?] y) {\n"
              "  y = Gemm(x, w, c)\n}\n"))
    case("s-conv-channels", "error",
         text("g (float[1, 3, 4, 4] x, float[2, 2, 3, 3] w) => (float[?, ?, ?, ?] y) {\n"
              "  y = Conv(x, w)\n}\n"))
    case("s-batchnorm-channels", "error",
         text("g (float[1, 3, 4] x, float[2] s, float[2] b, float[2] m, float[2] v) => "
              "(float[?, ?, ?] y) {\n  y = BatchNormalization(x, s, b, m, v)\n}\n"))
    case("s-declared-output-wrong", "ok",  # a warning: the inferred type is kept
         text("g (float[2, 3] x) => (float[5, 7] y) {\n  y = Relu(x)\n}\n"))
    case("s-declared-output-rank", "ok",  # the same
         text("g (float[2, 3] x) => (float[6] y) {\n  y = Relu(x)\n}\n"))
    case("s-declared-output-dtype", "any",
        
         text("g (float[2, 3] x) => (int32[2, 3] y) {\n  y = Relu(x)\n}\n"))
    case("s-expand-incompatible", "error",
         text("g (float[3] x) => (float[?] y) {\n"
              "  s = Constant<value = int64[1] {4}>()\n  y = Expand(x, s)\n}\n"))
    case("s-depthtospace-indivisible", "error",
         text("g (float[1, 3, 2, 2] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = DepthToSpace<blocksize = 2>(x)\n}\n"))
    case("s-spacetodepth-indivisible", "error",
         text("g (float[1, 1, 3, 3] x) => (float[?, ?, ?, ?] y) {\n"
              "  y = SpaceToDepth<blocksize = 2>(x)\n}\n"))
    case("s-reshape-zero-beyond-rank", "error",
         text("g (float[2, 3] x) => (float[?, ?, ?] y) {\n"
              "  s = Constant<value = int64[3] {0, 0, 0}>()\n  y = Reshape(x, s)\n}\n"))
    case("s-pad-negative-past", "error",
         text("g (float[2] x) => (float[?] y) {\n"
              "  p = Constant<value = int64[2] {-3, 0}>()\n  y = Pad(x, p)\n}\n"))
    case("s-compress-cond-long", "any",  # the spec: the excess is discarded
         text("g (float[3] x) => (float[?] y) {\n"
              "  c = Constant<value = bool[5] {1, 1, 1, 1, 1}>()\n"
              "  y = Compress<axis = 0>(x, c)\n}\n"))
    case("s-tile-repeats-rank", "error",
         text("g (float[2, 3] x) => (float[?, ?] y) {\n"
              "  r = Constant<value = int64[1] {2}>()\n  y = Tile(x, r)\n}\n"))
    case("s-tile-repeats-neg", "error",
         text("g (float[2] x) => (float[?] y) {\n"
              "  r = Constant<value = int64[1] {-2}>()\n  y = Tile(x, r)\n}\n"))
    case("s-gather-index-const-oob", "any",  # refused at run time
         text("g (float[2, 3] x) => (float[?] y) {\n"
              "  i = Constant<value = int64 {7}>()\n  y = Gather<axis = 1>(x, i)\n}\n"))
    case("s-slice-starts-ends-len", "error",
         text("g (float[6] x) => (float[?] y) {\n"
              "  s = Constant<value = int64[2] {0, 1}>()\n"
              "  e = Constant<value = int64[1] {6}>()\n  y = Slice(x, s, e)\n}\n"))
    case("s-scatternd-static-oob", "any",  # refused at run time
         text("g (float[4] x) => (float[4] y) {\n"
              "  i = Constant<value = int64[1, 1] {9}>()\n"
              "  u = Constant<value = float[1] {1.0}>()\n  y = ScatterND(x, i, u)\n}\n"))
    case("s-nonzero-scalar", "any",
         text("g (float x) => (int64[?, ?] y) {\n  y = NonZero(x)\n}\n"))
    # Huge dims, negative and overflowing sizes.
    case("h-static-product-overflow", "error",
         text("g (float[4294967296, 4294967296, 4] x) => (float[?] y) {\n"
              "  y = Flatten<axis = 0>(x)\n}\n"))
    case("h-concat-overflow", "error",
         text("g (float[4611686018427387904] x) => (float[?] y) {\n"
              "  y = Concat<axis = 0>(x, x, x)\n}\n"))
    case("h-pad-overflow", "any",  # refused at run time (the dim overflows)
         text("g (float[2] x) => (float[?] y) {\n"
              "  p = Constant<value = int64[2] {9223372036854775807, 9223372036854775807}>()\n"
              "  y = Pad(x, p)\n}\n"))
    case("h-conv-pads-min", "error",
         text("g (float[1, 1, 4, 4] x, float[1, 1, 3, 3] w) => (float[?, ?, ?, ?] y) {\n"
              "  y = Conv<pads = [-9223372036854775808, 0, 0, 0]>(x, w)\n}\n"))
    case("h-constant-huge-dims", "error",
         text("g (float[2] x) => (float[2] y) {\n"
              "  c = Constant<value = float[1099511627776] {1.0}>()\n  y = Add(x, x)\n}\n"))
    case("h-range-float-inf", "error",
         text("g (float[1] x) => (float[?] y) {\n"
              "  a = Constant<value = float {0.0}>()\n"
              "  b = Constant<value = float {Infinity}>()\n"
              "  d = Constant<value = float {1.0}>()\n  y = Range(a, b, d)\n}\n"))
    case("h-matmul-huge-static", "any",
         text("g (float[1048576, 1048576] x, float[1048576, 1048576] w) => (float[?, ?] y) {\n"
              "  y = MatMul(x, w)\n}\n"))
    case("h-slice-min-max", "ok",
         text("g (float[6] x) => (float[?] y) {\n"
              "  s = Constant<value = int64[1] {-9223372036854775808}>()\n"
              "  e = Constant<value = int64[1] {9223372036854775807}>()\n"
              "  a = Constant<value = int64[1] {0}>()\n"
              "  p = Constant<value = int64[1] {-9223372036854775808}>()\n"
              "  y = Slice(x, s, e, a, p)\n}\n"))
    case("h-unsqueeze-rank-17", "any",
         text("g (float[2] x) => (float[?] y) {\n"
              "  a = Constant<value = int64[16] {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}>()\n"
              "  y = Unsqueeze(x, a)\n}\n"))
    case("h-input-rank-40", "any",
         text("g (float[" + ", ".join(["1"] * 40) + "] x) => (float[?] y) {\n"
              "  y = Relu(x)\n}\n"))
    # Deep nesting.
    case("d-functions-chain-500", "any",
         text("g (float[2] x) => (float[2] y) {\n  y = local.f0(x)\n}\n" +
              "".join('<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
                      "f%d (a) => (b) {\n  b = local.f%d(a)\n}\n" % (k, k + 1)
                      for k in range(500)) +
              '<domain: "local", opset_import: ["" : 17]>\n'
              "f500 (a) => (b) {\n  b = Relu(a)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "local" : 1]>\n'))
    case("d-mutual-recursion", "error",
         text("g (float[2] x) => (float[2] y) {\n  y = local.f(x)\n}\n"
              '<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
              "f (a) => (b) {\n  b = local.h(a)\n}\n"
              '<domain: "local", opset_import: ["" : 17, "local" : 1]>\n'
              "h (a) => (b) {\n  b = local.f(a)\n}\n",
              '<ir_version: 8, opset_import: ["" : 17, "local" : 1]>\n'))
    # Bad names.
    case("n-unicode-names", "any",  # libonnx's text parser takes ASCII names
         text("g (float[2] \u00e9\u00e8) => (float[2] \u4f60) {\n  \u4f60 = Relu(\u00e9\u00e8)\n}\n"))
    case("n-input-output-same-sanitized", "any",
         text("g (float[2] a_b, float[2] a__b) => (float[2] y) {\n  y = Add(a_b, a__b)\n}\n"))
    # Bad names, binary (the text parser refuses these characters).
    for nm, data in (("n-names-collide", ["a-b", "a.b"]), ("n-names-keywords", ["int", "return"]),
                     ("n-names-runtime", ["onnxc_tensor", "ONNXC_OK"]),
                     ("n-names-empty-ish", [" ", "\t"]), ("n-names-digits", ["1", "2"]),
                     ("n-names-invalid-utf8", ["\udcff", "ok"])):
        try:
            m = model([helper.make_node("Add", data, ["y"], name="add")],
                      [vi(data[0], [2]), vi(data[1], [2])], [vi("y", [2])])
            bcase(nm, "any", binary(m))
        except Exception:
            pass
    m = model([helper.make_node("Relu", ["x"], ["y"], name="r\u202eevil")],
              [vi("x", [2])], [vi("y", [2])])
    bcase("n-bidi-node-name", "ok", binary(m))
    m = model([helper.make_node("Relu", ["x"], ["x"], name="self")],
              [vi("x", [2])], [vi("x", [2])])
    bcase("n-node-writes-input", "error", binary(m))
    m = model([helper.make_node("Relu", ["x"], [""], name="r")],
              [vi("x", [2])], [vi("y", [2])])
    bcase("n-empty-output-name", "error", binary(m))
    # Malformed protobuf.
    data = binary(relu())
    bcase("p-length-huge", "error", b"\x3a\xff\xff\xff\xff\x0f" + data)
    bcase("p-varint-11-bytes", "error", b"\x08" + b"\xff" * 10 + b"\x01" + data)
    bcase("p-group-tag", "error", b"\x0b" + data + b"\x0c")
    bcase("p-deep-groups", "error", b"\x0b" * 50000)
    bcase("p-deep-graph-msgs", "error", _nested_graph_bytes(3000))
    bcase("p-tail-junk", "error", data + b"\xff\xff\xff")
    m = relu()
    m.graph.node[0].attribute.add().CopyFrom(helper.make_attribute("alpha", 1.0))
    m.graph.node[0].attribute.add().CopyFrom(helper.make_attribute("alpha", 2.0))
    bcase("p-attribute-twice", "error", binary(m))
    m = relu()
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    w.raw_data = b"\x00" * 8
    m.graph.initializer.append(w)
    bcase("p-initializer-raw-and-floats", "any",  # raw_data wins, as in onnx
          binary(m))
    m = relu()
    w = helper.make_tensor("w", TP.FLOAT, [2], [1.0, 2.0])
    m.graph.initializer.append(w)
    m.graph.initializer.append(w)
    bcase("p-initializer-twice", "error", binary(m))
    m = relu()
    w = _tensor("w", TP.FLOAT, [4611686018427387904, 4])
    m.graph.initializer.append(w)
    bcase("p-initializer-wrapping-dims", "error", binary(m))
    m = relu()
    w = _tensor("w", TP.STRING, [2], "string_data", [b"a"])
    m.graph.initializer.append(w)
    bcase("p-initializer-string-short", "error", binary(m))
    m = relu()
    w = _tensor("w", TP.INT64, [3], "int64_data", [1, 2])
    m.graph.node[0].attribute.add().CopyFrom(helper.make_attribute("t", w))
    bcase("p-attr-tensor-short", "any", binary(m))
    m = model([helper.make_node("Constant", [], ["c"], name="c",
                                value=_tensor("v", TP.FLOAT, [3], "float_data", [1.0])),
               helper.make_node("Add", ["x", "c"], ["y"], name="a")],
              [vi("x", [3])], [vi("y", [3])])
    bcase("p-constant-short", "error", binary(m))
    m = model([helper.make_node("Constant", [], ["c"], name="c",
                                value=_tensor("v", TP.FLOAT, [-1])),
               helper.make_node("Add", ["x", "c"], ["y"], name="a")],
              [vi("x", [3])], [vi("y", [3])])
    bcase("p-constant-neg-dim", "error", binary(m))
    m = model([helper.make_node("Relu", ["x"], ["y"], name="r")],
              [vi("x", [2])], [vi("y", [2])])
    m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -7
    bcase("p-input-neg-dim", "error", binary(m))
    m = model([helper.make_node("Relu", ["x"], ["y"], name="r")],
              [vi("x", [2])], [vi("y", [2])])
    m.graph.input[0].type.ClearField("tensor_type")
    m.graph.input[0].type.map_type.key_type = TP.FLOAT
    bcase("p-input-map-float-key", "error", binary(m))
    m = model([helper.make_node("Relu", ["x"], ["y"], name="r")],
              [vi("x", [2])], [vi("y", [2])])
    m.graph.input[0].type.ClearField("tensor_type")
    m.graph.input[0].type.sparse_tensor_type.elem_type = TP.FLOAT
    bcase("p-input-sparse", "error", binary(m))
    # Sequences, maps and strings.
    m = model([helper.make_node("SequenceAt", ["s", "i"], ["y"], name="at")],
              [helper.make_value_info("s", helper.make_sequence_type_proto(
                  helper.make_tensor_type_proto(TP.STRING, [2]))), vi("i", [], TP.INT64)],
              [vi("y", [2], TP.STRING)])
    bcase("q-string-sequence-input", "any", binary(m))
    m = model([helper.make_node("Add", ["x", "x"], ["y"], name="addstr")],
              [vi("x", [2], TP.STRING)], [vi("y", [2], TP.STRING)])
    bcase("q-add-strings", "error", binary(m))
    m = model([helper.make_node("ConcatFromSequence", ["s"], ["y"], name="cfs", axis=5)],
              [helper.make_value_info("s", helper.make_sequence_type_proto(
                  helper.make_tensor_type_proto(TP.FLOAT, [2])))], [vi("y", [None])])
    bcase("q-concatfromseq-axis-huge", "error", binary(m))
    m = model([helper.make_node("SequenceAt", ["x", "i"], ["y"], name="at")],
              [vi("x", [2]), vi("i", [], TP.INT64)], [vi("y", [2])])
    bcase("q-sequenceat-on-tensor", "error", binary(m))
    m = model([helper.make_node("Relu", ["s"], ["y"], name="relu-seq")],
              [helper.make_value_info("s", helper.make_sequence_type_proto(
                  helper.make_tensor_type_proto(TP.FLOAT, [2])))], [vi("y", [2])])
    bcase("q-relu-on-sequence", "error", binary(m))

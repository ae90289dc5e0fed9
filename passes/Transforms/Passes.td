//===- Passes.td - Optimizations of the linalg stage -------*- tablegen -*-===//

#ifndef ONNXC_PASSES_TRANSFORMS_PASSES_TD
#define ONNXC_PASSES_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StripONNXAttributes : Pass<"onnxc-strip-onnx-attributes", "ModuleOp"> {
  let summary = "Drop the onnx.* attributes; keep the entry's inputs read-only";
  let description = [{
    The first pass of the to-LLVM pipeline (onnxc-lower-to-llvm). LLVM
    translation does not know the importer's `onnx.*` attributes (value
    names, opset imports): they go from the module, the functions and
    their arguments and results. The arguments of a function with
    `llvm.emit_c_interface` (the model's entry points) are the caller's
    input buffers: they get `bufferization.writable = false`, so that
    bufferization copies before writing in place into them (a
    loop-carried initial value, an op whose result reuses its operand's
    buffer).

    Input invariant: the linalg stage (after onnxc-lower-to-linalg), the
    signature already read. Output IR: the same without `onnx.*`
    attributes.
  }];
}

def FuseElementwise : Pass<"onnxc-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse elementwise linalg producers into their consumers";
  let description = [{
    Runs linalg's elementwise fusion on tensors: a `linalg.generic` whose
    loops are all parallel is fused into the generic that consumes its only
    result, so chains such as bias add + ReLU, the GELU or softmax
    arithmetic become one loop nest and their intermediates are never
    stored. `linalg.transpose` and `linalg.broadcast` are generalized first
    so that a transpose feeding a matrix product folds into the product's
    indexing map.

    A producer with more than one use is not fused (it would be computed
    twice). Into a contraction (a generic with a reduction whose body is a
    multiply-add, the form onnxc-linalg-to-ukernel turns into a call) only
    pure data movement (a generic that yields an input unchanged) is fused,
    so the product keeps its multiply-add body.

    Input invariant: linalg on tensors. Output IR: the same, with fewer
    generics.

    ```mlir
    %0 = linalg.generic {...} ins(%mm, %bias) { addf }
    %1 = linalg.generic {...} ins(%0) { maximumf }
    // becomes
    %1 = linalg.generic {...} ins(%mm, %bias) { addf; maximumf }
    ```

    With `residuals-in-place` (the default), an elementwise generic
    whose two inputs are a convolution's result and another value R of
    the same type whose other users all come before it, and whose body sums them (then
    maybe clamps: a residual Add + Relu), writes R's buffer instead of a
    new one (its init becomes R), so that onnxc-linalg-to-ukernel can run
    the convolution from R's values in place (ONNXC_CONV_BIAS_ADD) and
    drop the Add. R must be an op's result (a function argument is
    read-only: bufferization would copy it).
  }];
  let options = [
    Option<"residualsInPlace", "residuals-in-place", "bool", "true",
           "Point a residual Add after a convolution at its other operand's "
           "buffer">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ApproximateMath : Pass<"onnxc-approximate-math", "func::FuncOp"> {
  let summary = "Inline polynomial approximations of f32 exp, log, tanh, erf";
  let description = [{
    Replaces the f32 `math` ops whose libm calls dominate transformer and
    activation-heavy models (`exp`, `expm1`, `log`, `log1p`, `log2`, `tanh`,
    `erf`) by MLIR's polynomial approximations, built from arith ops only:
    the loops around them then vectorize, and no call is made per element.
    Measured against libm over their whole f32 range (2 million points
    each, test/passes/Transforms has the check): at most 3.1e-7 relative
    error where the result exceeds 1e-7 in magnitude; NaN, infinities and
    signed zeros as libm, except that results below the smallest normal
    float flush to zero. `sin`, `cos` and `atan` are left to libm (their
    approximations lose accuracy far from 0). `math.powf` by the constant 2
    becomes one multiplication (exact).

    Input invariant: any IR with `math` ops. Output IR: the same with those
    ops expanded; f64 and other types untouched.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def FlattenGlobals : Pass<"onnxc-flatten-globals", "ModuleOp"> {
  let summary = "Make constant globals one-dimensional";
  let description = [{
    Gives every `memref.global` of rank 2 or more the 1-D type of its
    elements (the initializer keeps its data: a dense_resource keeps its
    blob) and turns each `memref.get_global` of it into a get_global of the
    1-D global and a `memref.expand_shape` back to the original type. The
    LLVM translation makes one flat constant array of a 1-D global, instead
    of one nested constant per innermost row (a 960x1x3x3 convolution
    weight became 2880 constants of 3 floats, each uniqued in the
    LLVMContext and visited by LLVM's passes): compile time, not run time.

    Input invariant: bufferized IR. Output IR: the same, globals 1-D.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PadToCopy : Pass<"onnxc-pad-to-copy", "func::FuncOp"> {
  let summary = "Turn padding gathers into a fill and a copy";
  let description = [{
    convert-onnx-to-linalg pads convolution and pooling inputs with a
    generic that computes every element of the padded buffer as
    `select(inside, src[i - low], pad)` (Window.cpp, padSpatial), which LLVM
    can only vectorize with gathers. On buffers, this pass rewrites such a
    generic (no inputs, identity output, one `memref.load` of the source
    whose indices are the loop indices, shifted by `low` and clamped where
    padded; or the constant 0 for a dim of static size 1 in both, such as
    the batch of 1, where canonicalization folds `linalg.index`) into a
    `linalg.fill` of the pad value and a `linalg.copy` of the
    source into the interior subview, whose loops are contiguous and
    vectorize. The interior is computed at run time (clamped to the buffer),
    so dynamic sizes work. Generics of any other form, e.g. with input
    dilation, stay.

    Input invariant: bufferized IR. Output IR: the same with fills, subviews
    and copies in place of the matched generics.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ParallelCopies : Pass<"onnxc-parallel-copies", "func::FuncOp"> {
  let summary = "Large buffer copies as calls of the runtime's split copy";
  let description = [{
    A `memref.copy` or `linalg.copy` on buffers of a static shape and
    `min-bytes` bytes or more (a Concat input copied into its slice of the
    result, the interior of a padded buffer) becomes a call of
    `onnxc_rt_copy(params, src, dst)` (runtime_abi.h; runtime/src/copy.c),
    which splits the copy over the model's threads when it is large enough
    (onnxc_rt_threads_for). LLVM would make it one `memcpy` or a loop nest
    on the calling thread. The parameter block (rank, element bytes, sizes,
    the source's and the destination's element strides) is an alloca at the
    function's entry. Copies of other element types (i1, complex) and
    dynamic shapes stay.

    Input invariant: bufferized IR. Output IR: the same with calls in place
    of the matched copies. Runs at -O1 and above after
    onnxc-linalg-to-ukernel (whose matchers read the copies of fused
    paddings).

    ```mlir
    memref.copy %a, %sub : memref<1x256x32x32xf32>
                        to memref<1x256x32x32xf32, strided<[393216, 1024, 32, 1]>>
    // becomes
    memref.store %c4_i64, %params[%c0] : memref<14xi64>   // rank, bytes, ...
    call @onnxc_rt_copy(%block, %src, %dst) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"262144",
           "Copies of fewer bytes stay (LLVM's memcpy or loop)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ReassociateReductions : Pass<"onnxc-reassociate-reductions", "func::FuncOp"> {
  let summary = "Allow reassociation in the float arithmetic of reductions";
  let description = [{
    Adds the `reassoc` fast-math flag to the floating-point add, mul,
    maximum and minimum ops that combine into the running value (read an
    output block argument) in the body of every `linalg.generic` with a
    reduction loop. Without it, LLVM must keep a sum in order (one add per
    element, each waiting for the last) and cannot vectorize Softmax's,
    LayerNormalization's or ReduceSum's loops; with it, it splits the sum
    into vector lanes. The result changes by rounding only (the order of
    the additions), within the tolerance of every test.

    Input invariant: linalg on tensors or buffers. Output IR: the same with
    fast-math flags on reduction bodies.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MarkAllocator : Pass<"onnxc-mark-allocator", "ModuleOp"> {
  let summary = "Allocate through the runtime, naming the node; mark the "
                "allocator's result noalias";
  let description = [{
    Models allocate through the runtime (runtime/src/alloc.c), not
    `malloc`: memref-to-LLVM with use-generic-functions calls
    `_mlir_memref_to_llvm_alloc(size)`. Each call becomes
    `onnxc_rt_alloc(size, site)`, `site` the label of the ONNX node the
    allocation comes from (lib/Support/NodeLocation.h: "node 'c'
    (ConstantOfShape)", from the call's location; null when it names
    none), so that an allocation that fails (out of memory, over the
    memory limit) fails the call with a message naming the node.

    LLVM knows that `malloc` returns memory no other pointer aliases; the
    allocators' results get the same `noalias` attribute, so that LLVM
    still keeps a running sum in a register instead of storing it to its
    buffer every iteration.

    Input invariant: the LLVM dialect (after memref-to-LLVM). Output IR: the
    same, calling `onnxc_rt_alloc`, with `llvm.noalias` on the allocators'
    results.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ProfileNodes : Pass<"onnxc-profile-nodes", "ModuleOp"> {
  let summary = "Time each ONNX node: runtime calls around its ops";
  let description = [{
    `onnxc --profile` (docs/profiling.md). Groups the ops of every block
    by the ONNX nodes their locations name (the importer's
    `NameLoc(node, FusedLoc<"Op">)`; fusion combines the locations of the
    ops it merges, so a fused kernel names all its nodes: "conv1+relu1"
    with the op types "Conv+Relu") and wraps each run of consecutive ops
    of one group with `onnxc_rt_prof_begin(site)` before its first op and
    `onnxc_rt_prof_end(site)` after its last (runtime/src/profile.c).
    `site` is a constant string: `N`, the names, NUL, the op types, NUL.

    Ops that take no time of their own (allocations, deallocations, views,
    constants, ops without memory effects) neither start nor end a group.
    A loop (`scf.for`, `scf.while`, `scf.parallel`) or `scf.if` is timed
    as its node, and the ops of its regions that belong to other nodes (the
    nodes of a Loop, Scan or If body) get their own, nested, events; ops of
    the loop's own node inside it do not. The body of a loop whose node
    holds other nodes is wrapped too, with an `I` (iteration) site: one
    event per iteration.

    Only in the pipeline with `--profile`: without it the library holds no
    profiling call and no profiling code.

    Input invariant: buffers (after bufferization and the kernel calls),
    before the loops are lowered. Output IR: the same with the calls.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect"];
}

def CheckAllocSizes : Pass<"onnxc-check-alloc-sizes", "ModuleOp"> {
  let summary = "Check the size of every buffer before it is allocated";
  let description = [{
    memref-to-LLVM computes a buffer's byte size as the product of its dims
    and its element size, wrapping on overflow, and a negative dim (a size
    computed from data) gives a nonsense size: the model would then write
    past a small block. Before every `memref.alloc` and `memref.alloca`
    with dynamic dims, this pass checks that no dim is negative and that
    the bytes fit in 2^63 - 1 (products by `arith.mului_extended`: the
    high half must stay 0); otherwise the call fails through
    `onnxc_rt_fail_alloc_size` with the dims and the node's label
    ("node 'c' (ConstantOfShape): a buffer of [2147483648, 2147483648]
    elements of 4 bytes holds more than 2^63 - 1 bytes"). A static shape
    is checked at compile time: too large, it is an error naming the node.
    Statically shaped buffers get no run-time check.

    Input invariant: bufferized IR (memrefs), before memref-to-LLVM.
    Output IR: the same, with `scf.if` checks calling the runtime.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def OrderSliceInserts : Pass<"onnxc-order-slice-inserts", "func::FuncOp"> {
  let summary = "Insert a Concat's inputs in the order they are computed";
  let description = [{
    A Concat lowers to a chain of `tensor.insert_slice` ops into a
    `tensor.empty`, in input order, where the Concat is. Empty-tensor
    elimination computes a source in its slice of the destination only when
    the destination is defined before the source's producer: the chain's
    first source, and only when it is computed after the Concat's empty. A
    U-Net's skip connection, computed first and concatenated at the end
    behind the decoder's upsampled map, was always copied.

    For a chain of insert_slice ops with static offsets and sizes, unit
    strides and pairwise disjoint slices, rooted at a `tensor.empty` without
    operands (each op the only user of the one before it, all in one
    block), this pass rebuilds the chain in the order its sources are first
    produced in the block (sources from outside the block first), and moves
    the `tensor.empty` before the earliest producer: the op that defines the
    source, or, back along destination-style inits that are not
    `tensor.empty`, the first op writing the buffer that becomes it. The
    slices are disjoint, so the order gives the same tensor.

    Input invariant: linalg/tensor on tensors, before
    `eliminate-empty-tensors`. Output IR: the same; chains reordered, their
    empty moved up. Runs at -O1 and above.

    ```mlir
    %a = linalg.exp ins(%x) outs(%e0)           // computed first
    %b = ...                                     // computed later
    %e = tensor.empty() : tensor<8x8xf32>
    %i0 = tensor.insert_slice %b into %e[0, 0] [4, 8] [1, 1]
    %i1 = tensor.insert_slice %a into %i0[4, 0] [4, 8] [1, 1]
    // becomes
    %e = tensor.empty() : tensor<8x8xf32>       // before %a's producer
    %a = linalg.exp ins(%x) outs(%e0)
    %b = ...
    %i0 = tensor.insert_slice %a into %e[4, 0] [4, 8] [1, 1]
    %i1 = tensor.insert_slice %b into %i0[0, 0] [4, 8] [1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def GuardEmptyLoops : Pass<"onnxc-guard-empty-loops", "ModuleOp"> {
  let summary = "Skip a loop nest whose inner loop is empty";
  let description = [{
    A loop nest over an empty buffer with large leading dims (a
    ConstantOfShape of [2^30, 2^30, 0] from data) runs its outer loops
    2^60 times around an inner loop that never runs: the model hangs with
    nothing to do. For each perfect nest of `scf.for` loops (each body only
    the next loop, the outermost without results), the inner loops whose
    bounds are defined outside the nest and not known non-empty are tested
    before it, and an `scf.if` skips the nest when one of them is empty.

    Input invariant: `scf.for` loops (after linalg -> loops).
    Output IR: the same, some nests under an `scf.if`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BoolBytes : Pass<"onnxc-bool-bytes", "ModuleOp"> {
  let summary = "Load and store bools as bytes, so that their loops vectorize";
  let description = [{
    Bool tensors hold one byte per element, 0 or 1 (runtime.h), which the
    lowered code loads and stores as `i1`. LLVM does not turn such accesses
    into vector ones (an `i1` vector in memory is packed bits), so a loop
    that writes a bool output (a comparison, Dropout's mask) stays scalar.
    This pass stores `zext(v) : i8` instead of an `i1` `v`, and loads an
    `i8` and truncates it: the same bytes, and LLVM vectorizes the loop.

    Input invariant: the LLVM dialect. Output IR: the same, with no `i1`
    load or store left.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PlanBuffers : Pass<"onnxc-plan-buffers", "func::FuncOp"> {
  let summary = "Place a function's statically shaped buffers in one arena";
  let description = [{
    Static memory planning. The ownership-based deallocation pipeline frees
    buffers at the end of the function. Here the buffers a function
    allocates (`memref.alloc` with a static shape and identity layout) and
    frees (`memref.dealloc`, once) in its top-level block get lifetimes:
    from the alloc to the last top-level op that uses the buffer or a value
    derived from it (views, extracted pointers, address arithmetic, results
    of region ops). Those that only calls and linalg ops without reduction
    loops access become `memref.view`s at fixed offsets of one arena
    (`memref<N x i8>`, 64-byte aligned), allocated at the function's start
    and freed before its return; buffers whose lifetimes do not overlap
    share bytes. The others keep their allocation (LLVM needs a distinct
    noalias pointer to keep a reduction's sum in a register) and their
    dealloc moves right after their last use. Placement is
    greedy by size: largest first, at the lowest 64-byte aligned offset that
    overlaps no placed buffer live at the same time.

    What stays as it was: dynamically shaped buffers, buffers
    allocated inside loops and branches, buffers freed conditionally or not
    at all (returned), and functions whose body has more than one block.

    Input invariant: bufferized IR with deallocations placed (the buffer
    deallocation pipeline and convert-bufferization-to-memref have run).
    Output IR: the same, with one alloc/dealloc pair for the planned buffers.
  }];
  let options = [
    Option<"minBuffers", "min-buffers", "unsigned", "2",
           "Plan only when at least this many buffers qualify">,
    Option<"arena", "arena", "bool", "true",
           "Place the buffers in one arena (else only free each right after "
           "its last use)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LinalgToUkernel : Pass<"onnxc-linalg-to-ukernel", "ModuleOp"> {
  let summary = "Replace fp32 matrix products and convolutions by calls to "
                "the runtime's kernels";
  let description = [{
    Rewrites, on buffers, the fp32 linalg ops that onnxc's runtime computes
    much faster than the loops linalg lowers to (runtime/src/gemm.c,
    contract in runtime_abi.h):

    - contractions: `linalg.matmul`, `linalg.batch_matmul` and any
      `linalg.generic` whose body is `out + a * b` with one reduction loop,
      operand maps made of loop dims and constant 0 (transposed operands,
      broadcast batch dims, a missing M or N dim for vector operands) become
      `onnxc_rt_sgemm` or `onnxc_rt_sgemm_batched` calls with the element
      strides of each operand; batch dims beyond the innermost one become
      `scf.for` loops around the call;
    - the grouped direct convolution convert-onnx-to-linalg emits for 1-D and
      2-D Conv (loops n, g, m, o..., c, k..., input indexed o * s + k * d)
      becomes an `onnxc_rt_sconv2d` call with an `onnxc_conv2d_params` array
      (34 int64 fields) built in an alloca at the top of the function. When
      its input is a buffer that was zero-filled and then had a source
      copied into a window of it, whole along batch and channels (the
      fill + copy of onnxc-pad-to-copy, or the padding gather itself, which
      is rewritten so first): the call reads the source in place with the
      window's offsets as pads and its sizes as the input's
      (`ONNXC_CONV_PADDED`), and the fill, the copy and the padded buffer
      go once nothing else reads them. Not when something writes the
      source between the copy and the convolution (its deallocation moves
      after the call), or the convolution writes it.
    - the fp32 2-D max pool convert-onnx-to-linalg emits (loops n, c, oh, ow,
      kh, kw; input indexed oh * sh + kh * dh; a kernel-shaped operand for
      the bounds; body `maximumf(x, y)`) whose output was just filled with
      -inf becomes an `onnxc_rt_smaxpool2d` call (runtime/src/pool.c,
      `onnxc_maxpool2d_params`: 22 int64 fields in an alloca); the fill
      goes, and so does a -inf padding in front (fill + copy, as for the
      convolution): the kernel clips windows to the source.

    When B is a constant global with static K x N, it is packed at compile
    time into the kernel's panel layout (a new private global,
    `ONNXC_SGEMM_B_PACKED`); so are constant convolution weights with more
    than one input channel per group (`ONNXC_CONV_W_PACKED`, the layout of
    the runtime's indirect-GEMM convolution, which then needs no im2col
    copy). A global that packing leaves unused is erased. When the output buffer was just zero-filled
    (`linalg.fill` of 0, possibly copied in with `memref.copy`) and nothing
    writes it in between, the kernel overwrites the output instead of
    accumulating, and the fill or copy is dropped unless something read
    it in between. A product that overwrites its output then takes the
    elementwise generic that reads that output next as its epilogue when
    the generic is `clamp(C + bias)` with identity maps on C and its
    output, the bias (optional) broadcast along C's M or N dim with a unit
    stride, the clamp (optional) a Relu or Clip with constant bounds (a
    Gemm or MatMul + Add with a Relu / Clip after it): the call becomes
    `onnxc_rt_sgemm_ep` / `onnxc_rt_sgemm_batched_ep`
    (`ONNXC_SGEMM_BIAS_ROW` / `_COL`, `ONNXC_SGEMM_CLAMP`) writing the
    generic's output, and the generic and C's own buffer go. Not when that
    output may alias an operand of the product (it must be C or an
    allocation of the same block) or C is read again. Likewise for a
    convolution: the bias broadcast (or zero fill) that initialized its
    output goes into the call (`ONNXC_CONV_BIAS`, the bias pointer in the
    parameters), also when it reaches the output through a copy of a
    shared buffer (CSE merges equal initializations; a bias must then be
    a global), and a Relu or Clip (`min(max(y, lo), hi)` with constant
    bounds) that reads the output next (or its NCHW collapse) and is its
    last reader becomes the kernel's epilogue (`ONNXC_CONV_CLAMP`): the
    kernel writes the clamp's output buffer, through its strides when it
    is a slice (a Concat's, its views moved before the call), and the
    convolution's own buffer goes. An activation of the output alone in
    the same place becomes the kernel's epilogue likewise
    (`ONNXC_CONV_ACT(kind)`, alpha and beta in the parameters): Sigmoid
    `1 / (1 + exp(-y))`, Swish `y / (1 + exp(-a y))` or
    `y * (1 / (1 + exp(-a y)))` (the Swish op, Mul(x, Sigmoid(x)) as
    onnxc-fuse-elementwise fuses it), HardSigmoid
    `max(min(a y + b, 1), 0)` and HardSwish `y * max(min(a y + b, 1), 0)`
    (operands of commutative ops in either order; `exp(c y)` stands for
    `exp(-(-c) y)`); exp must still be `math.exp` (the pipeline runs
    onnxc-approximate-math after this pass). A clamp or activation that
    writes the fused padding's source back (bufferization reuses the
    input's buffer) is fused only into a depthwise convolution whose
    output has exactly the input's layout (`ONNXC_CONV_IN_PLACE`).
    With `fuse-residuals`, a residual Add that reads Y next and writes its
    other operand R in place (onnxc-fuse-elementwise's
    `residuals-in-place`), maybe with a clamp after the sum, goes into the
    call instead: it starts from R's values plus the bias
    (`ONNXC_CONV_BIAS_ADD`) and writes R, when nothing between the
    convolution and the Add touches R, R is not the convolution's input,
    and Y is not read after the Add.

    Input invariant: bufferized IR (memrefs) with deallocations placed; the
    rewritten ops are erased in place, so the deallocations stay after the
    kernel calls. Other element types, shapes and bodies are left alone.

    Output IR: `func.call`s to private declarations of the runtime functions,
    with pointers as `!llvm.ptr` (from memref.extract_aligned_pointer_as_index
    and the offset) and sizes and strides as i64.
  }];
  let options = [
    Option<"packConstants", "pack-constants", "bool", "true",
           "Pack constant B operands at compile time">,
    Option<"convolutions", "convolutions", "bool", "true",
           "Also rewrite convolutions">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", "true",
           "Fuse a convolution's bias initialization, a product's bias add, "
           "and a following Relu / Clip into the kernel call">,
    Option<"fuseResiduals", "fuse-residuals", "bool", "true",
           "With fuse-epilogues, run a residual Add (and a Relu / Clip after "
           "it) that reads a convolution's output next and writes its other "
           "operand in place inside the call (ONNXC_CONV_BIAS_ADD)">,
    Option<"fuseActivations", "fuse-activations", "bool", "false",
           "With fuse-epilogues, also fold a Sigmoid, Swish, HardSigmoid or "
           "HardSwish after a convolution into its call (off by default: "
           "measured no faster, docs/performance.md)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

def CollapseDims : Pass<"onnxc-collapse-dims", "func::FuncOp"> {
  let summary = "Collapse contiguous loop dims of elementwise generics";
  let description = [{
    An elementwise generic over (N, C, 7, 7), or a per-channel scale
    broadcast over H x W, has an innermost loop of a few iterations, which
    LLVM leaves scalar. This pass collapses each maximal run of two or more
    consecutive loop dims that every indexing map keeps contiguous, or does
    not read at all (`linalg::areDimSequencesPreserved`), into one dim:
    operands become `memref.collapse_shape` views and the innermost loop
    spans the whole run (H * W = 49 elements, or everything for a plain
    elementwise op), which vectorizes.

    Only all-parallel `linalg.generic` ops without `linalg.index`, with
    projected-permutation maps and identity-layout memrefs (the views are
    then guaranteed to collapse) are touched; contractions, convolutions
    and reductions are left to the kernels and to LLVM.

    Input invariant: bufferized linalg. Output IR: the same with fewer loop
    dims in elementwise generics. Runs at -O1 and above after
    onnxc-linalg-to-ukernel.

    ```mlir
    linalg.generic {indexing_maps = [(n, c, h, w) -> (n, c, h, w),
                                     (n, c, h, w) -> (n, c, 0, 0), ...]}
    // becomes, with (h, w) collapsed into one dim of 49:
    linalg.generic {indexing_maps = [(n, c, p) -> (n, c, p),
                                     (n, c, p) -> (n, c, 0), ...]}
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // ONNXC_PASSES_TRANSFORMS_PASSES_TD

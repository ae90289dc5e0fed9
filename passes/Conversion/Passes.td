//===- Passes.td - Conversions out of the onnx dialect -----*- tablegen -*-===//

#ifndef ONNXC_PASSES_CONVERSION_PASSES_TD
#define ONNXC_PASSES_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalg : Pass<"convert-onnx-to-linalg", "ModuleOp"> {
  let summary = "Lower onnx ops to linalg/tensor/arith/math/scf on tensors";
  let description = [{
    Converts every function of the module from the onnx dialect to builtin
    tensors of signless element types and linalg, tensor, arith, math and scf
    ops (a full conversion: signatures and returns included).

    Input invariant: functions in the onnx dialect after shape inference:
    every value is a ranked tensor (dynamic dims possibly named by
    `#onnx.dims<[...]>`), absent optional operands are `none` values from
    `onnx.NoValue`, weights are `onnx.Constant` with a `value` attribute.

    Output IR: the same functions on builtin tensors (the `#onnx.dims`
    encoding dropped; `uiN` becomes `iN`, `i1` and float types stay), using
    only func, linalg, tensor, arith, math, scf and bufferization ops, plus
    the run-time checks of broadcasts between dynamic dims: an `scf.if` that
    calls `onnxc_rt_fail(i32, !llvm.ptr)` (declared by the pass) with a
    message from an `llvm.mlir.global`. Signedness is taken from the onnx
    types (`arith.divui` for `ui32`, ...). An op, element type or attribute
    value the conversion does not support is an error on that op, and the
    pass fails.

    ```mlir
    %0 = "onnx.Relu"(%x) : (tensor<?x4xf32, #onnx.dims<["N"]>>)
                         -> tensor<?x4xf32, #onnx.dims<["N"]>>
    // becomes
    %0 = linalg.generic {...} ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %m = arith.maximumf %in, %zero : f32
        linalg.yield %m : f32
    } -> tensor<?x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"];
}

def ConvertONNXCustomToCall : Pass<"convert-onnx-custom-to-call", "ModuleOp"> {
  let summary = "Lower onnx.Custom (ops of unknown domains) to calls of the "
                "user's kernels";
  let description = [{
    Input invariant: the onnx dialect, before convert-onnx-to-linalg (the
    backend runs it first at every -O level). Each `onnx.Custom` becomes a
    call of `onnxc_rt_custom_call` with an int64 block describing the call
    (runtime_abi.h) and the address of the user's kernel
    `onnxc_custom_<domain>_<op>` (an external `llvm.func`); when a result
    has a dynamic dim, `onnxc_rt_custom_shape` with the address of
    `onnxc_custom_<domain>_<op>_shape` first, whose dims size the result's
    allocation. Inputs are read through read-only `bufferization.to_buffer`,
    results are fresh `memref.alloc`s returned by `bufferization.to_tensor`
    (restrict, writable). docs/custom-ops.md has the kernels' ABI.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect"];
}

def InsertDebugDumps : Pass<"onnxc-insert-debug-dumps", "ModuleOp"> {
  let summary = "Write every node's tensor outputs at run time (--debug-dump)";
  let description = [{
    `onnxc --debug-dump` (docs/profiling.md). Input invariant: the onnx
    dialect, before any graph rewrite (the driver runs the MLIR stages at
    -O0 with it, so that no rewrite or fusion removes an intermediate).
    After every onnx op but `onnx.Constant`, each tensor result is read
    through a read-only `bufferization.to_buffer` and passed to
    `onnxc_rt_dump_tensor(site, block)`: `site` the node's name and op
    type, `block` an int64 alloca at the function's entry holding the
    buffer's address, the dtype, the rank, the result's index and the dims
    (`tensor.dim` for the dynamic ones: the run's actual shape). A result
    no `.npy` holds (a sequence, an optional, an element type without
    onnxc_dtype) becomes `onnxc_rt_dump_skip(site, index, reason)`; none
    results are left out. Public functions (the model's entry points) call
    `onnxc_rt_dump_begin(name)` first and `onnxc_rt_dump_end()` before
    each return. unrealized_conversion_casts bridge the onnx and builtin
    tensor types, as in convert-onnx-custom-to-call.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect"];
}

def ConvertONNXQuantizedToUkernel
    : Pass<"convert-onnx-quantized-to-ukernel", "ModuleOp"> {
  let summary = "Lower int8 convolutions, products and DynamicQuantizeLinear "
                "to calls of the runtime's int8 kernels";
  let description = [{
    Replaces, on the onnx dialect (before convert-onnx-to-linalg; the
    driver runs it at -O1 and above), the quantized ops by calls of the
    runtime's int8 kernels (runtime/src/kernels/qgemm*.c, contract in
    runtime_abi.h):

    - `ConvInteger` and `QLinearConv` (1-D and 2-D: any groups, strides,
      dilations, pads, auto_pad; zero points and QLinearConv's scales per
      tensor or per output channel; QLinearConv's int32 bias) become
      `onnxc_rt_qconv2d` with an `onnxc_qconv2d_params` block (25 int64
      fields, an alloca at the function's entry);
    - `MatMulInteger` and `QLinearMatMul` (A of rank >= 2 times a 2-D B, A's
      leading dims folded into its rows, or operands with the same static
      batch dims; a_zero_point per tensor or per row, b's per tensor or per
      column) become `onnxc_rt_qgemm` (14 fields);
    - `DynamicQuantizeLinear` becomes `onnxc_rt_dynamic_quantize`;
    - an fp32 `Col2Im` of one or two spatial dims with constant shapes
      (what onnx-graph-optimize makes of a ConvTranspose) becomes
      `onnxc_rt_col2im` (15 fields), reading through a Transpose (perm 0,
      2, 1) of its input when there is one (ONNXC_COL2IM_TRANSPOSED);
    - an fp32 `Resize` of rank 4 over H and W (dims 0 and 1 keep their
      size) with static sizes and constant scales or sizes, in a mode with
      tap tables (nearest, linear, antialias) becomes `onnxc_rt_resize2d`
      (7 fields) with the tables as constants (ResizeToUkernel.cpp; the
      runtime computes it separably, runtime/src/resize.c).

    A convolution in QDQ form (onnxruntime's quantize_static with
    QuantFormat.QDQ: `QuantizeLinear(Conv(DequantizeLinear(x),
    DequantizeLinear(w), [DequantizeLinear(bias)]) [-> Relu])`, constant
    weights per tensor or per output channel on axis 0, per-tensor
    activations, an int32 bias at exactly x_scale * w_scale and zero point
    0, the Conv and Relu used only there) is rewritten as onnxruntime fuses
    it: the QLinearConv call, which requantizes the exact int32 sums (a
    Relu clamps at the zero point) instead of convolving dequantized floats
    (`qdq`). A product in QDQ form, `QuantizeLinear(Gemm(DequantizeLinear(x),
    DequantizeLinear(w), [DequantizeLinear(bias)]))` (alpha = beta = 1,
    transA = 0, any transB) or `QuantizeLinear(MatMul(DequantizeLinear(a),
    DequantizeLinear(w)))`, with w a constant matrix (per tensor or per
    output column) and the same conditions on the rest, becomes the
    QLinearMatMul call with the weights (transposed for transB) packed at
    compile time, as onnxruntime fuses it into QGemm.

    The chain that dynamic quantization (onnxruntime's quantize_dynamic)
    puts after ConvInteger or MatMulInteger, each op the only user of the
    one before, is fused into the call's epilogue (`fuse-epilogues`):
    `Cast(to = FLOAT)`, `Mul` by a scale of one element or one per output
    channel, then optionally `Add` of a bias with one element per output
    channel (a `Reshape`d Conv bias, a MatMul bias) and `Relu` or `Clip`
    with constant bounds; the kernel then writes the last op's float result.
    Constant weights (an `onnx.Constant`) are packed at compile time into
    the kernels' layout, with their row or column sums, as a private
    `memref.global` (`pack-constants`, ONNXC_Q_B_PACKED); zero points,
    scales and biases are passed by address.

    Every call works on buffers bridged into the tensor IR: a read-only
    `bufferization.to_buffer` (identity layout) of each tensor it reads,
    right before the call, and a fresh `memref.alloc` per result handed
    back by `bufferization.to_tensor restrict writable`, with
    `builtin.unrealized_conversion_cast`s between the onnx and the builtin
    tensor types, which convert-onnx-to-linalg folds away. An op that does
    not fit (3-D, weights of dynamic shape, zero points along another axis)
    is left as it is, for the plain lowering.

    Input invariant: the onnx dialect after shape inference. Output IR: the
    same, with `func.call`s to private declarations of the runtime
    functions (arguments `!llvm.ptr` and i64) in place of the rewritten ops.

    ```mlir
    %y = "onnx.ConvInteger"(%xq, %w, %xzp, %wzp) {pads = array<i64: 1, 1, 1, 1>} : ...
    %f = "onnx.Cast"(%y) {to = 1 : si64} : ...
    %o = "onnx.Mul"(%f, %s) : ...
    // becomes
    %buf = memref.alloc(...) {alignment = 64 : i64} : memref<?x16x12x12xf32>
    ... memref.store ... %params[...]   // sizes, flags, addresses of %xzp, %wzp, %s
    func.call @onnxc_rt_qconv2d(%p, %x, %wpacked, %out) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
    %t = bufferization.to_tensor %buf restrict writable : ...
    %o = builtin.unrealized_conversion_cast %t : tensor<?x16x12x12xf32> to tensor<?x16x12x12xf32, #onnx.dims<["N"]>>
    ```
  }];
  let options = [
    Option<"packConstants", "pack-constants", "bool", "true",
           "Pack constant weights at compile time">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", "true",
           "Fuse the dequantizing Cast / Mul / Add / Relu chain into the "
           "kernel call">,
    Option<"qdq", "qdq", "bool", "true",
           "Also rewrite convolutions and products in QDQ form (DequantizeLinear -> Conv / Gemm / MatMul "
           "-> QuantizeLinear) as QLinearConv / QLinearMatMul calls">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect"];
}

def TestPhilox : Pass<"onnxc-test-philox", "ModuleOp"> {
  let summary = "Test only: expand calls to @onnxc_test_philox into the "
                "inline Philox4x32-10 block of the random ops";
  let description = [{
    Replaces every `func.call @onnxc_test_philox(c0, c1, c2, c3, k0, k1)`
    (six i32, returning four i32) with the arith ops that the random ops'
    lowering (convert-onnx-to-linalg, Random.cpp) emits for one Philox4x32-10
    block of counter (c0..c3) under key (k0, k1), and erases the function's
    declaration. The known-answer test
    (test/passes/Conversion/philox-kat.mlir) checks the published vectors
    with it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // ONNXC_PASSES_CONVERSION_PASSES_TD

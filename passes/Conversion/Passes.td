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

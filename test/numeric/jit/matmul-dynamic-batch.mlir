// onnxc's pipelines at -O0 (loops) and -O2 (fusion, runtime kernels):
// RUN: %onnxc-opt --onnxc-lower-to-linalg=opt-level=0 --onnxc-lower-to-llvm=opt-level=0 %s | %run-jit | FileCheck %s
// RUN: %onnxc-opt --onnxc-lower-to-linalg --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s
// MatMul batch dims whose broadcasting only the run time decides (every dim
// symbolic, as with --dynamic): a batch of 1 broadcasts against either
// operand; batches 2 and 3 do not broadcast and fail the run-time check.
// Expected values computed with numpy.matmul. onnxc_rt_fail is defined here
// to print the code and exit, as the runtime's would return to
// onnxc_run_model.

func.func @main_graph(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

func.func @onnxc_rt_fail(%code: i32, %msg: !llvm.ptr) {
  %c = arith.extsi %code : i32 to i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  %z = arith.constant 0 : i32
  call @exit(%z) : (i32) -> ()
  return
}

// The checks that report run-time values (onnxc_rt_fail_values) likewise.
func.func @onnxc_rt_fail_values(%code: i32, %msg: !llvm.ptr, %a: i64, %b: i64,
                                %c: i64) {
  call @onnxc_rt_fail(%code, %msg) : (i32, !llvm.ptr) -> ()
  return
}

func.func @run(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) {
  %r = func.call @main_graph(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %u = tensor.cast %r : tensor<?x?x?xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // A (1x2x3) broadcast against B (2x3x2).
  %a1 = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  %b2 = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]]]> : tensor<2x3x2xf32>
  %a1d = tensor.cast %a1 : tensor<1x2x3xf32> to tensor<?x?x?xf32>
  %b2d = tensor.cast %b2 : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  call @run(%a1d, %b2d) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  // A (2x1x3) against B (1x3x1) broadcast.
  %a2 = arith.constant dense<[[[1.0, 2.0, 3.0]], [[-1.0, 0.5, 2.0]]]> : tensor<2x1x3xf32>
  %b1 = arith.constant dense<[[[1.0], [10.0], [100.0]]]> : tensor<1x3x1xf32>
  %a2d = tensor.cast %a2 : tensor<2x1x3xf32> to tensor<?x?x?xf32>
  %b1d = tensor.cast %b1 : tensor<1x3x1xf32> to tensor<?x?x?xf32>
  call @run(%a2d, %b1d) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  // Batches 2 and 3: onnxc_rt_fail(5, ...).
  %b3 = arith.constant dense<1.0> : tensor<3x3x1xf32>
  %b3d = tensor.cast %b3 : tensor<3x3x1xf32> to tensor<?x?x?xf32>
  call @run(%a2d, %b3d) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> ()
  return
}
// CHECK: sizes = [2, 2, 2]
// CHECK: {{\[\[\[}}4,    5],
// CHECK-NEXT: [10,    11]],
// CHECK-NEXT: {{\[\[}}2,    4],
// CHECK-NEXT: [8,    10]]]
// CHECK: sizes = [2, 1, 1]
// CHECK: {{\[\[\[}}321]],
// CHECK-NEXT: {{\[\[}}204]]]
// CHECK-NEXT: 5
// CHECK-NOT: sizes

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @exit(i32)

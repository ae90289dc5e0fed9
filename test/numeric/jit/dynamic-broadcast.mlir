// onnxc's pipelines at -O0 (loops) and -O2 (fusion, runtime kernels):
// RUN: %onnxc-opt --onnxc-lower-to-linalg=opt-level=0 --onnxc-lower-to-llvm=opt-level=0 %s | %run-jit | FileCheck %s
// RUN: %onnxc-opt --onnxc-lower-to-linalg --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s
// Broadcasting between dynamic dims, checked at run time; onnxc_rt_fail is
// defined here (the pass uses an existing definition) to print the code and
// exit, as the runtime's would return to onnxc_run_model.

func.func @main_graph(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.Transpose"(%0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

func.func @onnxc_rt_fail(%code: i32, %msg: !llvm.ptr) {
  %c = arith.extsi %code : i32 to i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  %z = arith.constant 0 : i32
  call @exit(%z) : (i32) -> ()
  return
}

func.func @main() {
  %a = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %ad = tensor.cast %a : tensor<2x1xf32> to tensor<?x?xf32>
  %bd = tensor.cast %b : tensor<3xf32> to tensor<?xf32>
  // (2x1) + (3) -> 2x3, transposed to 3x2.
  %r = func.call @main_graph(%ad, %bd) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  // (3x2) + (3) do not broadcast: onnxc_rt_fail(5, ...).
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %cd = tensor.cast %c : tensor<3x2xf32> to tensor<?x?xf32>
  %r2 = func.call @main_graph(%cd, %bd) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return
}
// CHECK: sizes = [3, 2]
// CHECK: {{\[}}[11,   12],
// CHECK-NEXT: [21,   22],
// CHECK-NEXT: [31,   32]]
// CHECK-NEXT: 5

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @exit(i32)

// onnxc's pipelines at -O0 (loops) and -O2 (fusion, runtime kernels):
// RUN: %onnxc-opt --onnxc-lower-to-linalg=opt-level=0 --onnxc-lower-to-llvm=opt-level=0 %s | %run-jit | FileCheck %s
// RUN: %onnxc-opt --onnxc-lower-to-linalg --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s
// Expected values computed with numpy.

func.func @main_graph(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>, %x: tensor<1x2x3xf32>, %y: tensor<2x3x2xf32>)
    -> (tensor<2x4xf32>, tensor<2x2x2xf32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2xi64>, tensor<f32>) {
  // Gemm(A, B^T) * 0.5 + 2 * C.
  %0 = "onnx.Gemm"(%a, %b, %c) {alpha = 0.5 : f32, beta = 2.0 : f32, transB = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // MatMul with a broadcast batch dim.
  %1 = "onnx.MatMul"(%x, %y) : (tensor<1x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  %ax = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %2 = "onnx.ReduceLogSumExp"(%a, %ax) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %3 = "onnx.Softmax"(%a) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "onnx.ArgMin"(%a) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  %n = "onnx.NoValue"() : () -> none
  %5 = "onnx.ReduceL2"(%a, %n) {keepdims = 0 : i64} : (tensor<2x3xf32>, none) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x4xf32>, tensor<2x2x2xf32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2xi64>, tensor<f32>
}

func.func @main() {
  %a = arith.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %x = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  %y = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]]]> : tensor<2x3x2xf32>
  %r:6 = func.call @main_graph(%a, %b, %c, %x, %y) : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<1x2x3xf32>, tensor<2x3x2xf32>)
      -> (tensor<2x4xf32>, tensor<2x2x2xf32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<2xi64>, tensor<f32>)
  %u0 = tensor.cast %r#0 : tensor<2x4xf32> to tensor<*xf32>
  call @printF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x2x2xf32> to tensor<*xf32>
  call @printF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x1xf32> to tensor<*xf32>
  call @printF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<2x3xf32> to tensor<*xf32>
  call @printF32(%u3) : (tensor<*xf32>) -> ()
  %m4 = bufferization.to_buffer %r#4 : tensor<2xi64> to memref<2xi64>
  %u4 = memref.cast %m4 : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%u4) : (memref<*xi64>) -> ()
  %u5 = tensor.cast %r#5 : tensor<f32> to tensor<*xf32>
  call @printF32(%u5) : (tensor<*xf32>) -> ()
  return
}
// Gemm:
// CHECK: {{\[}}[2.5,   3,   7.5,   9],
// CHECK-NEXT: [2.25,   4.125,   5.5,   7.875]]
// MatMul, batch 1 broadcast against 2:
// CHECK: {{\[}}{{\[}}[4,    5],
// CHECK-NEXT: [10,    11]],
// CHECK-NEXT: {{\[}}[2,    4],
// CHECK-NEXT: [8,    10]]]
// ReduceLogSumExp over axis 1, keepdims:
// CHECK: {{\[}}[3.13285],
// CHECK-NEXT: [1.19411]]
// Softmax over axis 1:
// CHECK: {{\[}}[0.1185,   0.00589975,   0.875601],
// CHECK-NEXT: [0.499518,   0.389025,   0.111457]]
// ArgMin over axis 1:
// CHECK: [1,  2]
// ReduceL2 over everything:
// CHECK: [3.91312]

func.func @printF32(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)

// onnxc's pipelines at -O0 (loops) and -O2 (fusion, runtime kernels):
// RUN: %onnxc-opt --onnxc-lower-to-linalg=opt-level=0 --onnxc-lower-to-llvm=opt-level=0 %s | %run-jit | FileCheck %s
// RUN: %onnxc-opt --onnxc-lower-to-linalg --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s

func.func @main_graph(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xi32>) {
  // 200 / 3 = 66 (as signed i8, 200 would be -56), 250 / 250 = 1, 9 / 2 = 4.
  %u = "onnx.Constant"() {value = dense<[200, 250, 9, 0]> : tensor<4xui8>} : () -> tensor<4xui8>
  %v = "onnx.Constant"() {value = dense<[3, 250, 2, 7]> : tensor<4xui8>} : () -> tensor<4xui8>
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Sigmoid"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = "onnx.Div"(%u, %v) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = "onnx.Cast"(%q) {to = 6 : i64} : (tensor<4xui8>) -> tensor<4xi32>
  %3 = "onnx.Mod"(%i, %j) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = "onnx.Div"(%i, %j) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = "onnx.Round"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "onnx.Cast"(%a) {to = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xi32>
}

// Integer Div and Mod check their divisors (zero, INT_MIN / -1) and call
// the runtime on a failure: defined here (the pass uses an existing
// definition), never called with these inputs.
func.func @onnxc_rt_fail(%code: i32, %msg: !llvm.ptr) {
  return
}
func.func @onnxc_rt_fail_values(%code: i32, %msg: !llvm.ptr, %a: i64,
                                %b: i64, %c: i64) {
  return
}

func.func @main() {
  %a = arith.constant dense<[[0.5, 1.5, 2.5], [-0.5, -1.5, -2.7]]> : tensor<2x3xf32>
  %b = arith.constant dense<[1.0, 0.0, -3.0]> : tensor<3xf32>
  %i = arith.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %j = arith.constant dense<[3, 3, -3, -3]> : tensor<4xi32>
  %r:7 = func.call @main_graph(%a, %b, %i, %j)
      : (tensor<2x3xf32>, tensor<3xf32>, tensor<4xi32>, tensor<4xi32>)
      -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xi32>)
  call @printF32(%r#0) : (tensor<2x3xf32>) -> ()
  call @printF32(%r#1) : (tensor<2x3xf32>) -> ()
  %w = tensor.cast %r#2 : tensor<4xi32> to tensor<?xi32>
  call @printI32(%w) : (tensor<?xi32>) -> ()
  %m3 = tensor.cast %r#3 : tensor<4xi32> to tensor<?xi32>
  call @printI32(%m3) : (tensor<?xi32>) -> ()
  %m4 = tensor.cast %r#4 : tensor<4xi32> to tensor<?xi32>
  call @printI32(%m4) : (tensor<?xi32>) -> ()
  call @printF32(%r#5) : (tensor<2x3xf32>) -> ()
  %c = tensor.collapse_shape %r#6 [[0, 1]] : tensor<2x3xi32> into tensor<6xi32>
  %c6 = tensor.cast %c : tensor<6xi32> to tensor<?xi32>
  call @printI32(%c6) : (tensor<?xi32>) -> ()
  return
}
// Add with a broadcast row:
// CHECK: {{\[}}[1.5,   1.5,   -0.5],
// CHECK-NEXT: [0.5,   -1.5,   -5.7]]
// Sigmoid of it:
// CHECK: {{\[}}[0.817574,   0.817574,   0.377541],
// CHECK-NEXT: [0.622459,   0.182426,   0.00333481]]
// ui8 division:
// CHECK: [66,  1,  4,  0]
// Mod (Python sign rule) and Div (truncation) on i32:
// CHECK: [1,  2,  -2,  -1]
// CHECK: [2,  -2,  -2,  2]
// Round halves to even:
// CHECK: {{\[}}[0,   2,   2],
// CHECK-NEXT: [-0,   -2,   -3]]
// Cast f32 -> i32 truncates toward zero:
// CHECK: [0,  1,  2,  0,  -1,  -2]

func.func @printF32(%t: tensor<2x3xf32>) {
  %m = bufferization.to_buffer %t : tensor<2x3xf32> to memref<2x3xf32>
  %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @printI32(%t: tensor<?xi32>) {
  %m = bufferization.to_buffer %t : tensor<?xi32> to memref<?xi32>
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

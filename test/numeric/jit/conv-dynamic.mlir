// onnxc's pipelines at -O0 (loops) and -O2 (fusion, runtime kernels):
// RUN: %onnxc-opt --onnxc-lower-to-linalg=opt-level=0 --onnxc-lower-to-llvm=opt-level=0 %s | %run-jit | FileCheck %s
// RUN: %onnxc-opt --onnxc-lower-to-linalg --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s
// ConvTranspose with every dim symbolic (as with --dynamic): 2 groups,
// strides, asymmetric pads, output_padding, a bias; the kernel sizes, the
// output sizes and the kernel flip come from the run-time shapes. Then
// input channels that do not match the weights fail the run-time check.
// Expected values computed with a direct numpy loop over ONNX's definition.
// onnxc_rt_fail is defined here to print the code and exit, as the
// runtime's would return to onnxc_run_model.

func.func @main_graph(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.ConvTranspose"(%x, %w, %b) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 1, 0>, output_padding = array<i64: 1, 0>} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
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

func.func @run(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %b: tensor<?xf32>) {
  %r = func.call @main_graph(%x, %w, %b) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  %u = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // x = arange(18).reshape(1, 2, 3, 3) - 5
  %x = arith.constant dense<[[[[-5.0, -4.0, -3.0], [-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]],
                              [[4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]]> : tensor<1x2x3x3xf32>
  %w = arith.constant dense<[[[[1.0, 2.0], [-1.0, 0.5]]], [[[0.0, 1.0], [3.0, -2.0]]]]> : tensor<2x1x2x2xf32>
  %b = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %xd = tensor.cast %x : tensor<1x2x3x3xf32> to tensor<?x?x?x?xf32>
  %wd = tensor.cast %w : tensor<2x1x2x2xf32> to tensor<?x?x?x?xf32>
  %bd = tensor.cast %b : tensor<2xf32> to tensor<?xf32>
  call @run(%xd, %wd, %bd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> ()
  // 4 input channels for weights made for 2: onnxc_rt_fail(5, ...).
  %x4 = arith.constant dense<1.0> : tensor<1x4x3x3xf32>
  %x4d = tensor.cast %x4 : tensor<1x4x3x3xf32> to tensor<?x?x?x?xf32>
  call @run(%x4d, %wd, %bd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> ()
  return
}
// CHECK: sizes = [1, 2, 6, 5]
// CHECK: {{\[\[\[\[}}-9.5,   -3.5,   -7.5,   -2.5,   -5.5],
// CHECK-NEXT: [-2,   4.5,   -1.5,   3.5,   -1],
// CHECK-NEXT: [-3.5,   -0.5,   -1.5,   0.5,   0.5],
// CHECK-NEXT: [-0.5,   1.5,   0,   0.5,   0.5],
// CHECK-NEXT: [2.5,   2.5,   4.5,   3.5,   6.5],
// CHECK-NEXT: [1,   -1.5,   1.5,   -2.5,   2]],
// CHECK-NEXT: {{\[\[}}3,   -1,   4,   -1,   5],
// CHECK-NEXT: [-9,   14,   -11,   17,   -13],
// CHECK-NEXT: [6,   -1,   7,   -1,   8],
// CHECK-NEXT: [-15,   23,   -17,   26,   -19],
// CHECK-NEXT: [9,   -1,   10,   -1,   11],
// CHECK-NEXT: [-21,   32,   -23,   35,   -25]]]]
// CHECK-NEXT: 5
// CHECK-NOT: sizes

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @exit(i32)

// RUN: %onnxc-opt --convert-onnx-quantized-to-ukernel --split-input-file %s | FileCheck %s
// An fp32 Resize of rank 4 over H and W with constant scales or sizes
// (ResizeToUkernel.cpp) -> onnxc_rt_resize2d with a 7-slot
// onnxc_resize2d_params block (planes = N * C, in_h, in_w, out_h, out_w,
// h_taps, w_taps) and constant tap tables: indices (i64) and, for linear,
// weights (f32), a null pointer where a dim has none (nearest, or a dim
// that keeps its size). What has no tables or is not 4-D fp32 over H and W
// stays for convert-onnx-to-linalg. The numbers: test/numeric/ort/resize-ops.test.

// Linear x2 (half_pixel): two taps per output row and column, the first
// ones clamped to 0 with weights 0.25 / 0.75.
// CHECK-LABEL: func.func @linear_x2
// CHECK: %[[P:.+]] = memref.alloca() : memref<7xi64>
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0
// CHECK: %[[PL:.+]] = arith.muli %[[N]], %c3
// CHECK: %[[PI:.+]] = arith.index_cast %[[PL]] : index to i64
// CHECK: memref.store %[[PI]], %[[P]][%c0{{.*}}]
// CHECK: memref.store %c4_i64, %[[P]][%c1{{.*}}]
// CHECK: memref.store %c5_i64, %[[P]][%c2{{.*}}]
// CHECK: memref.store %c8_i64, %[[P]][%c3{{.*}}]
// CHECK: memref.store %c10_i64, %[[P]][%c4{{.*}}]
// CHECK: memref.store %c2_i64{{.*}}, %[[P]][%c5{{.*}}]
// CHECK: memref.store %c2_i64{{.*}}, %[[P]][%c6{{.*}}]
// CHECK: %[[Y:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3x8x10xf32>
// CHECK: arith.constant dense<[0, 0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 2, 3, 3, 3]> : tensor<16xi64>
// CHECK: arith.constant dense<[2.500000e-01, 7.500000e-01, 7.500000e-01, 2.500000e-01,
// CHECK: arith.constant dense<[0, 0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 2, 3, 3, 4, 3, 4, 4, 4]> : tensor<20xi64>
// CHECK: bufferization.to_buffer %{{.+}} read_only : tensor<?x3x4x5xf32>
// CHECK: call @onnxc_rt_resize2d(
// CHECK: bufferization.to_tensor %[[Y]] restrict writable
// CHECK-NOT: onnx.Resize
func.func @linear_x2(%x: tensor<?x3x4x5xf32>) -> tensor<?x3x8x10xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %y = "onnx.Resize"(%x, %none, %s, %none) <{mode = "linear"}> : (tensor<?x3x4x5xf32>, none, tensor<4xf32>, none) -> tensor<?x3x8x10xf32>
  return %y : tensor<?x3x8x10xf32>
}

// -----

// Nearest by sizes on W only (axes [3]): H keeps its size (one tap, its
// own index), W reads round_prefer_floor taps; no weight tables.
// CHECK-LABEL: func.func @nearest_w_sizes
// CHECK: memref.store %c1_i64{{.*}}, %{{.+}}[%c5{{.*}}]
// CHECK: memref.store %c1_i64{{.*}}, %{{.+}}[%c6{{.*}}]
// CHECK: arith.constant dense<[0, 1, 2]> : tensor<3xi64>
// CHECK: llvm.mlir.zero : !llvm.ptr
// CHECK: arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK: llvm.mlir.zero : !llvm.ptr
// CHECK: call @onnxc_rt_resize2d(
func.func @nearest_w_sizes(%x: tensor<2x2x3x2xf32>) -> tensor<2x2x3x4xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[4]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %y = "onnx.Resize"(%x, %none, %none, %s) <{mode = "nearest", axes = array<i64: 3>}> : (tensor<2x2x3x2xf32>, none, none, tensor<1xi64>) -> tensor<2x2x3x4xf32>
  return %y : tensor<2x2x3x4xf32>
}

// -----

// Left to convert-onnx-to-linalg: cubic without antialias (no tables),
// scales from data, a resized channel dim, f64, rank 3.
// CHECK-LABEL: func.func @left
// CHECK-NOT: onnxc_rt_resize2d
// CHECK-COUNT-5: onnx.Resize
func.func @left(%x: tensor<1x2x4x4xf32>, %sc: tensor<4xf32>, %d: tensor<1x2x4x4xf64>, %r: tensor<2x4x4xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x2x8x8xf64>, tensor<2x8x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c = "onnx.Constant"() <{value = dense<[1.0, 2.0, 1.0, 1.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %s3 = "onnx.Constant"() <{value = dense<[1.0, 2.0, 2.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %y0 = "onnx.Resize"(%x, %none, %s, %none) <{mode = "cubic"}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x2x8x8xf32>
  %y1 = "onnx.Resize"(%x, %none, %sc, %none) <{mode = "linear"}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x2x8x8xf32>
  %y2 = "onnx.Resize"(%x, %none, %c, %none) <{mode = "nearest"}> : (tensor<1x2x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x4x4x4xf32>
  %y3 = "onnx.Resize"(%d, %none, %s, %none) <{mode = "linear"}> : (tensor<1x2x4x4xf64>, none, tensor<4xf32>, none) -> tensor<1x2x8x8xf64>
  %y4 = "onnx.Resize"(%r, %none, %s3, %none) <{mode = "linear"}> : (tensor<2x4x4xf32>, none, tensor<3xf32>, none) -> tensor<2x8x8xf32>
  return %y0, %y1, %y2, %y3, %y4 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x2x8x8xf64>, tensor<2x8x8xf32>
}

// -----

// A scale of 1e9 (a static result of 4e9 x 4e9): no tables, left to the
// generic, which reports the sizes (tools/onnxc/adversarial.test,
// resize-scale-huge, ran the compiler out of memory building them).
// CHECK-LABEL: func.func @huge
// CHECK-NOT: onnxc_rt_resize2d
// CHECK: onnx.Resize
func.func @huge(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4000000000x4000000000xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() <{value = dense<[1.0, 1.0, 1.0e9, 1.0e9]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %y = "onnx.Resize"(%x, %none, %s, %none) <{mode = "linear"}> : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4000000000x4000000000xf32>
  return %y : tensor<1x1x4000000000x4000000000xf32>
}

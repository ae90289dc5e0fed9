// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Resize (linear, half_pixel) with run-time scales: N and C keep their size
// (a run-time check that their scale is 1), H and W read 2 x 2 taps.
// CHECK-LABEL: func.func @resize_linear
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4xf32>)
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
func.func @resize_linear(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Resize (linear, half_pixel) with constant scales [1, 1, 2, 2]: the taps
// and weights of H and W are tables computed at compile time (index i of a
// 2 -> 4 half-pixel resize reads x at (i + 0.5) / 2 - 0.5 = -0.25, 0.25,
// 0.75, 1.25: taps floor and floor + 1 clamped into [0, 1], weights 1 - t
// and t of the fraction t), read by the body instead of the coordinate math.
// CHECK-LABEL: func.func @resize_linear_constant_scales
// CHECK-DAG: arith.constant dense<{{\[\[}}0, 0], [0, 1], [0, 1], [1, 1]]> : tensor<4x2xi64>
// CHECK-DAG: arith.constant dense<{{\[\[}}2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01]]> : tensor<4x2xf64>
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4xf32>)
// CHECK-NOT: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
func.func @resize_linear_constant_scales(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Resize with antialias (linear, scale 0.5): ORT's filter stretched by 2,
// five-tap tables per resized dim. Row 0 (center 1.0) reads -1, 0, 1, 2
// with weights .25 .75 .75 .25 (sum 2); tap -1 is outside and its weight
// moves to tap 0: [1, .75, .25] / 2; unused slots read tap 0 with weight 0.
// CHECK-LABEL: func.func @resize_antialias
// CHECK-DAG: arith.constant dense<{{\[\[}}0, 1, 2, 0, 0], [1, 2, 3, 0, 0]]> : tensor<2x5xi64>
// CHECK-DAG: arith.constant dense<{{\[\[}}5.000000e-01, 3.750000e-01, 1.250000e-01, 0.000000e+00, 0.000000e+00], [1.250000e-01, 3.750000e-01, 5.000000e-01, 0.000000e+00, 0.000000e+00]]> : tensor<2x5xf64>
// CHECK-DAG: arith.constant dense<{{.+}}> : tensor<4x5xi64>
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x2x4xf32>)
// CHECK-NOT: math.floor
// CHECK-COUNT-25: tensor.extract %arg0
func.func @resize_antialias(%x: tensor<1x1x4x8xf32>) -> tensor<1x1x2x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear", antialias = 1 : i64} : (tensor<1x1x4x8xf32>, none, tensor<4xf32>, none) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
}

// -----

// antialias over a dim of run-time size: its table (taps and weights, of a
// width known at run time) comes from the runtime, read as inputs of a
// generic with one reduction dim that sums in f64, then converted to f32;
// the static dim keeps its constant table, unrolled (9 cubic taps).
// CHECK-LABEL: func.func @resize_antialias_runtime
// CHECK-DAG: arith.constant dense<{{.+}}> : tensor<2x9xi64>
// CHECK: %[[W:.+]] = call @onnxc_rt_resize_aa_width(%{{.+}}) : (i32, f64, i64) -> i64
// CHECK: call @onnxc_rt_resize_aa_table(%{{.+}}) : (i32, i32, f64, i32, i64, i64, f64, i64, i64, i64) -> ()
// CHECK: %[[TI:.+]] = bufferization.to_tensor %{{.+}} : memref<?x?xi64> to tensor<?x?xi64>
// CHECK: %[[TW:.+]] = bufferization.to_tensor %{{.+}} : memref<?x?xf64> to tensor<?x?xf64>
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[TI]], %[[TW]] : tensor<?x?xi64>, tensor<?x?xf64>) outs(%{{.+}} : tensor<1x1x2x?xf64>)
// CHECK-COUNT-9: tensor.extract %arg0
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x1x2x?xf64>) outs(%{{.+}} : tensor<1x1x2x?xf32>)
func.func @resize_antialias_runtime(%x: tensor<1x1x4x?xf32>) -> tensor<1x1x2x?xf32> {
  %n = "onnx.NoValue"() : () -> none
  %c = "onnx.Constant"() {value = dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %c, %n) {mode = "cubic", antialias = 1 : i64} : (tensor<1x1x4x?xf32>, none, tensor<4xf32>, none) -> tensor<1x1x2x?xf32>
  return %0 : tensor<1x1x2x?xf32>
}

// -----

// antialias with windows of 101 and 61 taps (scales 0.02 and 1/30): the
// first dim's constant table is unrolled, the second's (6161 taps in all,
// past 4096) is read in a reduction dim.
// CHECK-LABEL: func.func @resize_antialias_wide
// CHECK-DAG: %[[T1:.+]] = arith.constant dense<{{.+}}> : tensor<4x61xi64>
// CHECK-DAG: %[[W1:.+]] = arith.constant dense<{{.+}}> : tensor<4x61xf64>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[T1]], %[[W1]] : tensor<4x61xi64>, tensor<4x61xf64>)
// CHECK-COUNT-101: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
func.func @resize_antialias_wide(%x: tensor<1x1x150x120xf32>) -> tensor<1x1x3x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %c = "onnx.Constant"() {value = dense<[1.0, 1.0, 0.02, 0.0333333351]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %c, %n) {mode = "linear", antialias = 1 : i64} : (tensor<1x1x150x120xf32>, none, tensor<4xf32>, none) -> tensor<1x1x3x4xf32>
  return %0 : tensor<1x1x3x4xf32>
}

// -----

// Resize (nearest, asymmetric, floor) with constant sizes: one tap per
// resized dim from a table (i / 2 floored).
// CHECK-LABEL: func.func @resize_nearest_constant_sizes
// CHECK: arith.constant dense<{{\[\[}}0], [0], [1], [1], [2], [2]]> : tensor<6x1xi64>
// CHECK: linalg.generic
// CHECK-NOT: math.floor
// CHECK: linalg.yield
func.func @resize_nearest_constant_sizes(%x: tensor<1x3x3xf32>) -> tensor<1x3x6xf32> {
  %n = "onnx.NoValue"() : () -> none
  %sz = "onnx.Constant"() {value = dense<[1, 3, 6]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "onnx.Resize"(%x, %n, %n, %sz) {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x3x3xf32>, none, none, tensor<3xi64>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg %s | FileCheck %s

// One module: the message globals come first.
// CHECK-DAG: llvm.mlir.global internal constant @[[BATCH:__onnxc_msg[0-9]+]]("GridSample: X and grid must have the same batch size
// CHECK-DAG: llvm.mlir.global internal constant @[[LAST:__onnxc_msg[0-9]+]]("GridSample: the last dim of grid must be the number of spatial dims
// CHECK-DAG: llvm.mlir.global internal constant @[[EMPTY:__onnxc_msg[0-9]+]]("GridSample: the spatial dims of X must not be empty

// GridSample, bilinear, zeros, static: one generic over Y, no run-time
// check. Per spatial dim, the coordinate (grid's last dim holds x first,
// so H reads component 1) is denormalized and floored; two taps each;
// taps outside X read 0 (a select after an in-bounds read).
// CHECK-LABEL: func.func @gridsample_bilinear_zeros
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x4x5xf32>, %[[G:.+]]: tensor<1x3x6x2xf32>)
// CHECK-NOT: call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x3x6xf32>)
// CHECK: %[[N:.+]] = linalg.index 0
// CHECK: %[[C:.+]] = linalg.index 1
// CHECK: %[[OH:.+]] = linalg.index 2
// CHECK: %[[OW:.+]] = linalg.index 3
// CHECK: tensor.extract %[[G]][%[[N]], %[[OH]], %[[OW]], %c1{{.*}}]
// CHECK: math.floor
// CHECK: tensor.extract %[[G]][%[[N]], %[[OH]], %[[OW]], %c0{{.*}}]
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %[[X]][%[[N]], %[[C]], %{{.+}}, %{{.+}}] : tensor<1x2x4x5xf32>
// CHECK: %[[V:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: linalg.yield
func.func @gridsample_bilinear_zeros(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x6x2xf32>) -> tensor<1x2x3x6xf32> {
  %0 = "onnx.GridSample"(%x, %g) {mode = "bilinear", padding_mode = "zeros", align_corners = 0 : i64} : (tensor<1x2x4x5xf32>, tensor<1x3x6x2xf32>) -> tensor<1x2x3x6xf32>
  return %0 : tensor<1x2x3x6xf32>
}

// Nearest rounds half to even; reflection folds every tap index back
// (floor of the fold count, its parity by halving); one read, no select.
// f64 data computes in f64.
// CHECK-LABEL: func.func @gridsample_nearest_reflection
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf64>,
// CHECK: linalg.generic
// CHECK: math.roundeven %{{.+}} : f64
// CHECK: math.floor %{{.+}} : f64
// CHECK: arith.cmpf oeq
// CHECK: math.roundeven %{{.+}} : f64
// CHECK: %[[V:.+]] = tensor.extract %[[X]]
// CHECK-NEXT: linalg.yield %[[V]] : f64
func.func @gridsample_nearest_reflection(%x: tensor<2x3x4x5xf64>, %g: tensor<2x6x7x2xf64>) -> tensor<2x3x6x7xf64> {
  %0 = "onnx.GridSample"(%x, %g) {mode = "nearest", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<2x3x4x5xf64>, tensor<2x6x7x2xf64>) -> tensor<2x3x6x7xf64>
  return %0 : tensor<2x3x6x7xf64>
}

// Dynamic shapes: the batch sizes, grid's last dim and X's spatial dims
// are checked at run time; Y is [N, C] of X and the spatial dims of grid.
// Bicubic (opset 16's name) reads 4 x 4 taps, clamped into X (border).
// CHECK-LABEL: func.func @gridsample_bicubic_border_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>, %[[G:.+]]: tensor<?x?x?x?xf32>)
// CHECK-DAG: %[[XN:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[XC:.+]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[GN:.+]] = tensor.dim %[[G]], %c0
// CHECK-DAG: %[[GH:.+]] = tensor.dim %[[G]], %c1
// CHECK-DAG: %[[GW:.+]] = tensor.dim %[[G]], %c2
// CHECK: arith.cmpi eq, %[[GN]], %[[XN]]
// CHECK: llvm.mlir.addressof @[[BATCH]]
// CHECK: llvm.mlir.addressof @[[LAST]]
// CHECK: llvm.mlir.addressof @[[EMPTY]]
// CHECK: tensor.empty(%[[XN]], %[[XC]], %[[GH]], %[[GW]]) : tensor<?x?x?x?xf32>
// CHECK: linalg.generic
// CHECK: math.absf
// CHECK: arith.maxsi
// CHECK-COUNT-16: tensor.extract %[[X]]
// CHECK-NOT: tensor.extract %[[X]]
// CHECK: linalg.yield
func.func @gridsample_bicubic_border_dynamic(%x: tensor<?x?x?x?xf32>, %g: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.GridSample"(%x, %g) {mode = "bicubic", padding_mode = "border"} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// Opset 20's N-d form: 3 spatial dims, linear: 2 x 2 x 2 taps.
// CHECK-LABEL: func.func @gridsample_3d_linear
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x3x4x5xf32>,
// CHECK: linalg.generic
// CHECK-COUNT-8: tensor.extract %[[X]]
// CHECK-NOT: tensor.extract %[[X]]
// CHECK: linalg.yield
func.func @gridsample_3d_linear(%x: tensor<1x2x3x4x5xf32>, %g: tensor<1x6x7x8x3xf32>) -> tensor<1x2x6x7x8xf32> {
  %0 = "onnx.GridSample"(%x, %g) {mode = "linear"} : (tensor<1x2x3x4x5xf32>, tensor<1x6x7x8x3xf32>) -> tensor<1x2x6x7x8xf32>
  return %0 : tensor<1x2x6x7x8xf32>
}

// AffineGrid: one generic over the grid; theta[n, k, 2] (the translation)
// plus theta[n, k, 0] * x + theta[n, k, 1] * y.
// CHECK-LABEL: func.func @affinegrid
// CHECK-SAME: (%[[T:.+]]: tensor<2x2x3xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<2x4x5x2xf32>)
// CHECK: tensor.extract %[[T]][%{{.+}}, %{{.+}}, %c2{{.*}}]
// CHECK: tensor.extract %[[T]][%{{.+}}, %{{.+}}, %c0{{.*}}]
// CHECK: tensor.extract %[[T]][%{{.+}}, %{{.+}}, %c1{{.*}}]
// CHECK: linalg.yield
func.func @affinegrid(%t: tensor<2x2x3xf32>) -> tensor<2x4x5x2xf32> {
  %s = "onnx.Constant"() {value = dense<[2, 1, 4, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.AffineGrid"(%t, %s) {align_corners = 1 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x4x5x2xf32>
  return %0 : tensor<2x4x5x2xf32>
}

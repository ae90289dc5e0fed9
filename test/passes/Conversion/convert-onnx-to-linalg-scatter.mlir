// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// ScatterElements with add: a copy of the data, then an scf.for nest over
// the updates accumulating into out[i, norm(indices[i, j])].
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK-SAME: (%[[X:.+]]: tensor<1x5xf32>, %[[I:.+]]: tensor<1x2xi64>, %[[U:.+]]: tensor<1x2xf32>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: %[[COPY:.+]] = linalg.copy ins(%[[X]] : tensor<1x5xf32>)
// CHECK: scf.for %[[A:.+]] = {{.+}} iter_args(%[[T0:.+]] = %[[COPY]])
// CHECK: scf.for %[[B:.+]] = {{.+}} iter_args(%[[T:.+]] = %[[T0]])
// CHECK: tensor.extract %[[I]][%[[A]], %[[B]]]
// CHECK: %[[P:.+]] = arith.select
// CHECK: %[[UV:.+]] = tensor.extract %[[U]][%[[A]], %[[B]]]
// CHECK: %[[OLD:.+]] = tensor.extract %[[T]][%[[A]], %[[P]]]
// CHECK: %[[NEW:.+]] = arith.addf %[[OLD]], %[[UV]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[T]][%[[A]], %[[P]]]
func.func @scatter_elements_add(%x: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<1x5xf32> {
  %0 = "onnx.ScatterElements"(%x, %i, %u) {axis = 1 : i64, reduction = "add"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// ScatterND with max on ui8: unsigned max into out[indices[i, 0], j].
// CHECK-LABEL: func.func @scatternd_max
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xi8>, %[[I:.+]]: tensor<2x1xi64>, %[[U:.+]]: tensor<2x4xi8>)
// CHECK: linalg.copy ins(%[[X]] : tensor<4x4xi8>)
// CHECK: scf.for
// CHECK: scf.for %[[J:[^ ]+]] =
// CHECK: %[[P:.+]] = arith.select
// CHECK: %[[OLD:.+]] = tensor.extract %{{.+}}[%[[P]], %[[J]]]
// CHECK: arith.maxui %[[OLD]], %{{.+}} : i8
func.func @scatternd_max(%x: tensor<4x4xui8>, %i: tensor<2x1xi64>, %u: tensor<2x4xui8>) -> tensor<4x4xui8> {
  %0 = "onnx.ScatterND"(%x, %i, %u) {reduction = "max"} : (tensor<4x4xui8>, tensor<2x1xi64>, tensor<2x4xui8>) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

// TensorScatter, circular: no index check (indices wrap); position j of the
// cache takes update[(j - w[b]) mod 8] when that is below 3.
// CHECK-LABEL: func.func @scatter_circular
// CHECK-NOT: onnxc_rt_fail
// CHECK: linalg.generic
// CHECK: arith.remsi %{{.+}}, %c8
// CHECK: scf.if
// CHECK: tensor.extract %arg1
func.func @scatter_circular(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %0 = "onnx.TensorScatter"(%c, %u, %w) {axis = 1 : i64, mode = "circular"} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// Linear: the write indices are checked first.
// CHECK-LABEL: func.func @scatter_linear
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic
func.func @scatter_linear(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %0 = "onnx.TensorScatter"(%c, %u, %w) {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

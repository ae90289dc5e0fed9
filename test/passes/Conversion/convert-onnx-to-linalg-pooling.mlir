// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// MaxPool with Indices: a two-result window reduction; the first strictly
// greater element wins.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @maxpool_indices
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<2x2xf32>
// CHECK: %[[R:.+]]:2 = linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}}, %[[WINDOW]] : tensor<1x1x4x4xf32>, tensor<2x2xf32>)
// CHECK: arith.cmpf ogt
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @maxpool_indices(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %0#0, %0#1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

// AveragePool with pads (count_include_pad = 0): the sum and the count of
// taps inside X accumulate together, then divide.
// CHECK-LABEL: func.func @avgpool_pads
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x6x6xf32>)
// CHECK: %[[R:.+]]:2 = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[R]]#0, %[[R]]#1 : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>)
// CHECK: arith.divf
func.func @avgpool_pads(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// GlobalAveragePool: the whole spatial extent as the window.
// CHECK-LABEL: func.func @global_avgpool
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<2x3x4x5xf32>, tensor<4x5xf32>) outs(%{{.+}} : tensor<2x3x1x1xf32>)
// CHECK: arith.divf
func.func @global_avgpool(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

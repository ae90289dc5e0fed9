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

// GlobalAveragePool: the spatial dims collapsed into one (H * W = 20), one
// reduction over it into (N, C), the sum divided by 20, and the unit dims
// back (a window over H and W would loop 5 long innermost).
// CHECK-LABEL: func.func @global_avgpool
// CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<2x3x20xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[F]] : tensor<2x3x20xf32>) outs(%[[Z]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x3xf32>)
// CHECK: arith.divf %{{.+}}, %cst{{.*}} : f32
// CHECK: tensor.expand_shape %[[A]] {{\[}}[0], [1, 2, 3]] output_shape [2, 3, 1, 1]
func.func @global_avgpool(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

// GlobalMaxPool with symbolic spatial dims: the same collapse (dynamic),
// the reduction starts at -inf and takes arith.maximumf (NaN wins).
// CHECK-LABEL: func.func @global_maxpool_dynamic
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<1x3x?x?xf32> into tensor<1x3x?xf32>
// CHECK: linalg.fill ins(%cst{{.*}} : f32)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK-NOT: arith.divf
// CHECK: tensor.expand_shape
func.func @global_maxpool_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32> {
  %0 = "onnx.GlobalMaxPool"(%x) : (tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// GlobalAveragePool with symbolic spatial dims divides by their product,
// converted to a float at run time.
// CHECK-LABEL: func.func @global_avgpool_dynamic
// CHECK: arith.muli
// CHECK: arith.uitofp
// CHECK: arith.divf
func.func @global_avgpool_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32> {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// MaxRoiPool: the batch indices checked first (column 0 of rois), then one
// generic over Y: the corners rounded after spatial_scale, the bin edges
// floored and ceiled, the max over the bin in two nested loops.
// CHECK-LABEL: func.func @maxroipool
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x6x6xf32>, %[[R:.+]]: tensor<3x5xf32>)
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<3x2x2x2xf32>)
// CHECK-COUNT-4: math.round
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %[[X]]
// CHECK: arith.cmpf ogt
func.func @maxroipool(%x: tensor<1x2x6x6xf32>, %r: tensor<3x5xf32>) -> tensor<3x2x2x2xf32> {
  %0 = "onnx.MaxRoiPool"(%x, %r) {pooled_shape = array<i64: 2, 2>, spatial_scale = 0.5 : f32} : (tensor<1x2x6x6xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  return %0 : tensor<3x2x2x2xf32>
}

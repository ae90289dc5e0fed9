// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// BatchNormalization (inference): one elementwise generic, the four
// per-channel operands read along dim 1.
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @batchnorm
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[CH]], #[[CH]], #[[CH]], #[[CH]], #{{.+}}]
// CHECK: math.sqrt
// CHECK-NOT: linalg.generic
func.func @batchnorm(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0:3 = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, none, none)
  return %0#0 : tensor<2x3x4xf32>
}

// -----

// LayerNormalization over the last axis: mean and centered variance as
// reductions into (2, 3); Mean and InvStdDev get their unit dim back.
// CHECK-LABEL: func.func @layernorm
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3xf32>)
// CHECK: %[[SQ:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<2x3xf32>)
// CHECK: %[[INV:.+]] = linalg.generic {{.*}} ins(%[[VAR]] : tensor<2x3xf32>)
// CHECK: math.sqrt
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MEAN]], %[[INV]], %{{.+}} : tensor<2x3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>)
// CHECK: %[[M:.+]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0], [1, 2]] output_shape [2, 3, 1]
// CHECK: %[[I:.+]] = tensor.expand_shape %[[INV]]
// CHECK: return %[[Y]], %[[M]], %[[I]]
func.func @layernorm(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %0:3 = "onnx.LayerNormalization"(%x, %s, %n) {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, none) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
}

// -----

// GroupNormalization: statistics and the normalization over the grouped
// view (N, G, C/G, ...), the per-channel scale and bias read as (G, C/G),
// the result collapsed back.
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[P:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @groupnorm
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 2, 2, 3]
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[S]], #[[S]], #[[P]], #[[P]], #{{.+}}]
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] : tensor<2x2x2x3xf32> into tensor<2x4x3xf32>
func.func @groupnorm(%x: tensor<2x4x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3xf32> {
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// A symbolic channel count: C / num_groups computed at run time, which
// checks that num_groups divides C and that the scale has C entries.
// CHECK-LABEL: func.func @groupnorm_dynamic_channels
// CHECK: %[[C:.+]] = tensor.dim %{{.+}}, %c1
// CHECK: arith.remui %[[C]], %c3
// CHECK: call @onnxc_rt_fail
// CHECK: %[[PER:.+]] = arith.divui %[[C]], %c3
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] output_shape [%{{.+}}, 3, %[[PER]], %{{.+}}]
// CHECK: tensor.collapse_shape
func.func @groupnorm_dynamic_channels(%x: tensor<?x?x?xf32>, %s: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 3 : i64} : (tensor<?x?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// stash_type 11 on f32 data: the statistics in f64.
// CHECK-LABEL: func.func @groupnorm_stash_double
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2xf64>)
// CHECK: arith.extf %{{.+}} : f32 to f64
func.func @groupnorm_stash_double(%x: tensor<1x4x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4x3xf32> {
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 2 : i64, stash_type = 11 : i64} : (tensor<1x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}

// -----

// LRN: the square sum over a window of channels (a reduction loop bounded
// by a tensor of the window size), then x / (bias + alpha/size * s)^beta.
// CHECK-LABEL: func.func @lrn
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<3xf32>)
// CHECK: math.powf
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = "onnx.LRN"(%x) {size = 3 : i64} : (tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

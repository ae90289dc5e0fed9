// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// ReduceSum over axis 1 with keepdims: a reduction generic into the reduced
// shape, then expand_shape restores the unit dim.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @reduce_sum_keepdims
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.+}} : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x4xf32>)
// CHECK: arith.addf
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0], [1, 2]] output_shape [2, 1, 4] : tensor<2x4xf32> into tensor<2x1x4xf32>
func.func @reduce_sum_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %a = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceSum"(%x, %a) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// ReduceMean without axes reduces everything and divides by the count.
// CHECK-LABEL: func.func @reduce_mean_all
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.constant 6.000000e+00 : f32
// CHECK: arith.divf
func.func @reduce_mean_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ReduceMean"(%x, %n) {keepdims = 0 : i64} : (tensor<2x3xf32>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// ReduceMax on unsigned integers starts at 0 and uses maxui.
// CHECK-LABEL: func.func @reduce_max_uint
// CHECK: arith.constant 0 : i8
// CHECK: arith.maxui
func.func @reduce_max_uint(%x: tensor<2x3xui8>) -> tensor<2xui8> {
  %a = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceMax"(%x, %a) {keepdims = 0 : i64} : (tensor<2x3xui8>, tensor<1xi64>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

// noop_with_empty_axes and no axes: the input itself.
// CHECK-LABEL: func.func @reduce_noop
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reduce_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ReduceSum"(%x, %n) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ArgMax with select_last_index: a two-result reduction comparing with >=.
// CHECK-LABEL: func.func @argmax_last
// CHECK: %[[R:.+]]:2 = linalg.generic
// CHECK: arith.cmpf oge
// CHECK: tensor.expand_shape %[[R]]#1
func.func @argmax_last(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// ReduceSum with run-time axes: the reduced-dim mask is built from the axes,
// one generic over the keepdims shape loops over the reduced elements, and
// keepdims = 0 reshapes to the inferred type.
// CHECK-LABEL: func.func @reduce_sum_runtime_axes
// CHECK-SAME: (%[[X:.+]]: tensor<3x2x2xf32>, %[[A:.+]]: tensor<1xi64>)
// CHECK: %[[M:.+]]:3 = scf.for {{.+}} -> (i1, i1, i1)
// CHECK: tensor.extract %[[A]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: %[[R:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.+}} : tensor<?x?x?xf32>)
// CHECK: scf.for {{.+}} -> (f32)
// CHECK: tensor.extract %[[X]]
// CHECK: arith.addf
// CHECK: %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %[[R]](%[[S]]) : (tensor<?x?x?xf32>, tensor<2xindex>) -> tensor<3x2xf32>
func.func @reduce_sum_runtime_axes(%x: tensor<3x2x2xf32>, %a: tensor<1xi64>) -> tensor<3x2xf32> {
  %0 = "onnx.ReduceSum"(%x, %a) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ReduceMean over a dynamic dim divides by the run-time count.
// CHECK-LABEL: func.func @reduce_mean_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[N64:.+]] = arith.index_castui %{{.+}} : index to i64
// CHECK: %[[NF:.+]] = arith.sitofp %[[N64]] : i64 to f32
// CHECK: linalg.generic {{.+}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK: arith.divf %{{.+}}, %[[NF]] : f32
func.func @reduce_mean_dynamic(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceMean"(%x, %a) {keepdims = 0 : i64} : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

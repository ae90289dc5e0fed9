// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Shape of a symbolic dim: tensor.dim cast to i64.
// CHECK-LABEL: func.func @shape
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[D64:.+]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[C3:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: tensor.from_elements %[[D64]], %[[C3]] : tensor<2xi64>
func.func @shape(%x: tensor<?x3xf32, #onnx.dims<["N"]>>) -> tensor<2xi64> {
  %0 = "onnx.Shape"(%x) : (tensor<?x3xf32, #onnx.dims<["N"]>>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Static Reshape: tensor.reshape with a constant shape.
// CHECK-LABEL: func.func @reshape_static
// CHECK: %[[S:.+]] = arith.constant dense<[2, 12]> : tensor<2xindex>
// CHECK: tensor.reshape %{{.+}}(%[[S]]) : (tensor<2x3x4xf32>, tensor<2xindex>) -> tensor<2x12xf32>
func.func @reshape_static(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %s = "onnx.Constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// Squeeze and Unsqueeze are collapse/expand_shape.
// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<1x3x4xf32> into tensor<3x4xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2]] output_shape [3, 4, 1] : tensor<3x4xf32> into tensor<3x4x1xf32>
func.func @squeeze_unsqueeze(%y: tensor<1x3x4xf32>) -> tensor<3x4x1xf32> {
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "onnx.Squeeze"(%y, %ax) : (tensor<1x3x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  %ax2 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %2 = "onnx.Unsqueeze"(%1, %ax2) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>
  return %2 : tensor<3x4x1xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: linalg.transpose ins(%{{.+}} : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "onnx.Transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Concat: insert_slice at running offsets along the axis.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<2x5xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[R1:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %[[B]] into %[[R1]][0, 3] [2, 5] [1, 1]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = "onnx.Concat"(%a, %b) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A Concat of more than 16 inputs is a tree of concatenations of at most 16
// (one chain of hundreds of insert_slices made bufferization superlinear:
// 250 inputs took more than 100 s to compile): here 16 into a tensor<16>,
// then that and the 17th into the result.
// CHECK-LABEL: func.func @concat_tree
// CHECK: %[[G:.+]] = tensor.empty() : tensor<16xf32>
// CHECK-COUNT-16: tensor.insert_slice %{{.+}} into %{{.+}}[{{.+}}] [1] [1] : tensor<1xf32> into tensor<16xf32>
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0] [16] [1] : tensor<16xf32> into tensor<17xf32>
// CHECK-NEXT: tensor.insert_slice %{{.+}} into %{{.+}}[16] [1] [1] : tensor<1xf32> into tensor<17xf32>
// CHECK-NEXT: return
func.func @concat_tree(%x: tensor<1xf32>) -> tensor<17xf32> {
  %0 = "onnx.Concat"(%x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x) {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<17xf32>
  return %0 : tensor<17xf32>
}

// -----

// Identity whose declared result is more static than its input (a subgraph
// output declared [3, 4] for an outer value of symbolic dims): a cast to
// the declared type, checked at run time.
// CHECK-LABEL: func.func @identity_declared_shape
// CHECK: %[[D0:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x?xf32>
// CHECK: arith.cmpi eq, %[[D0]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: tensor.cast %arg0 : tensor<?x?xf32> to tensor<3x4xf32>
func.func @identity_declared_shape(%x: tensor<?x?xf32>) -> tensor<3x4xf32> {
  %0 = "onnx.Identity"(%x) : (tensor<?x?xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

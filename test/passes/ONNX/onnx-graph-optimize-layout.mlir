// RUN: %onnxc-opt --onnx-graph-optimize --split-input-file %s | FileCheck %s

// A Transpose that moves only dims of size 1 moves no element: a Reshape.
// [1, 5, 4] by perm [1, 0, 2] is [5, 1, 4] with the same bytes; [2, 1, 3]
// by perm [1, 0, 2] also keeps 2 before 3. [2, 3, 1] by perm [1, 0, 2]
// swaps 2 and 3 and stays a Transpose.
// CHECK-LABEL: func.func @unit_transposes
// CHECK-DAG: %[[S1:.+]] = "onnx.Constant"() <{value = dense<[5, 1, 4]> : tensor<3xi64>}>
// CHECK-DAG: %[[S2:.+]] = "onnx.Constant"() <{value = dense<[1, 2, 3]> : tensor<3xi64>}>
// CHECK-DAG: %[[R1:.+]] = "onnx.Reshape"(%arg0, %[[S1]])
// CHECK-DAG: %[[R2:.+]] = "onnx.Reshape"(%arg1, %[[S2]])
// CHECK-DAG: %[[T:.+]] = "onnx.Transpose"(%arg2) <{perm = array<i64: 1, 0, 2>}>
// CHECK: return %[[R1]], %[[R2]], %[[T]]
func.func @unit_transposes(%x: tensor<1x5x4xf32>, %y: tensor<2x1x3xf32>, %z: tensor<2x3x1xf32>) -> (tensor<5x1x4xf32>, tensor<1x2x3xf32>, tensor<3x2x1xf32>) {
  %a = "onnx.Transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<1x5x4xf32>) -> tensor<5x1x4xf32>
  %b = "onnx.Transpose"(%y) {perm = array<i64: 1, 0, 2>} : (tensor<2x1x3xf32>) -> tensor<1x2x3xf32>
  %c = "onnx.Transpose"(%z) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x1xf32>) -> tensor<3x2x1xf32>
  return %a, %b, %c : tensor<5x1x4xf32>, tensor<1x2x3xf32>, tensor<3x2x1xf32>
}

// -----

// MatMul of a [5, 1, 4] A by a 2-D [4, 6] B: one 2-D product of 5 rows
// between Reshapes; the bias Add over the last dim moves before the
// Reshape back, next to the product. A 3-D B keeps its batched MatMul.
// CHECK-LABEL: func.func @batched_by_matrix
// CHECK-DAG: %[[S2:.+]] = "onnx.Constant"() <{value = dense<[-1, 4]> : tensor<2xi64>}>
// CHECK: %[[A:.+]] = "onnx.Reshape"(%arg0, %[[S2]]) {{.*}} -> tensor<5x4xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[A]], %arg1) : (tensor<5x4xf32>, tensor<4x6xf32>) -> tensor<5x6xf32>
// CHECK: %[[S:.+]] = "onnx.Add"(%arg2, %[[P]]) : (tensor<6xf32>, tensor<5x6xf32>) -> tensor<5x6xf32>
// CHECK: %[[S3:.+]] = "onnx.Constant"() <{value = dense<[5, 1, 6]> : tensor<3xi64>}>
// CHECK: %[[Y:.+]] = "onnx.Reshape"(%[[S]], %[[S3]]) {{.*}} -> tensor<5x1x6xf32>
// CHECK: %[[K:.+]] = "onnx.MatMul"(%arg0, %arg3) : (tensor<5x1x4xf32>, tensor<5x4x6xf32>) -> tensor<5x1x6xf32>
// CHECK: return %[[Y]], %[[K]]
func.func @batched_by_matrix(%a: tensor<5x1x4xf32>, %b: tensor<4x6xf32>, %bias: tensor<6xf32>, %b3: tensor<5x4x6xf32>) -> (tensor<5x1x6xf32>, tensor<5x1x6xf32>) {
  %p = "onnx.MatMul"(%a, %b) : (tensor<5x1x4xf32>, tensor<4x6xf32>) -> tensor<5x1x6xf32>
  %y = "onnx.Add"(%bias, %p) : (tensor<6xf32>, tensor<5x1x6xf32>) -> tensor<5x1x6xf32>
  %k = "onnx.MatMul"(%a, %b3) : (tensor<5x1x4xf32>, tensor<5x4x6xf32>) -> tensor<5x1x6xf32>
  return %y, %k : tensor<5x1x6xf32>, tensor<5x1x6xf32>
}

// -----

// Dynamic shapes are left alone: the Reshape's constant shape needs them.
// CHECK-LABEL: func.func @dynamic_kept
// CHECK: "onnx.Transpose"
// CHECK: "onnx.MatMul"(%arg1, %arg2) : (tensor<?x1x4xf32>, tensor<4x6xf32>)
func.func @dynamic_kept(%x: tensor<1x?x4xf32>, %a: tensor<?x1x4xf32>, %b: tensor<4x6xf32>) -> (tensor<?x1x4xf32>, tensor<?x1x6xf32>) {
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<1x?x4xf32>) -> tensor<?x1x4xf32>
  %p = "onnx.MatMul"(%a, %b) : (tensor<?x1x4xf32>, tensor<4x6xf32>) -> tensor<?x1x6xf32>
  return %t, %p : tensor<?x1x4xf32>, tensor<?x1x6xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Expand.cpp.

// Expand to a symbolic batch: the input dim is read through a select.
// CHECK-LABEL: func.func @expand_dynamic
// CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<2xi64>
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: tensor.extract
func.func @expand_dynamic(%x: tensor<?x1xf32>, %s: tensor<2xi64>) -> tensor<?x4xf32> {
  %0 = "onnx.Expand"(%x, %s) : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Expand of symbolic input dims to a static result: either input dim may be
// 1 at run time ([1, 3] to [2, 2, 3]), so both are read through a select on
// "is the dim 1", not mapped to the result dims (which failed with
// "operand sizes disagree: 1 and 2 along loop 1").
// CHECK-LABEL: func.func @expand_static_result
// CHECK: tensor.empty() : tensor<2x2x3xf32>
// CHECK: %[[D0:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x?xf32>
// CHECK-NEXT: %[[ONE0:.+]] = arith.cmpi eq, %[[D0]], %{{.+}} : index
// CHECK: %[[D1:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x?xf32>
// CHECK-NEXT: %[[ONE1:.+]] = arith.cmpi eq, %[[D1]], %{{.+}} : index
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2x3xf32>)
// CHECK: %[[I1:.+]] = linalg.index 1
// CHECK-NEXT: %[[S1:.+]] = arith.select %[[ONE0]], %{{.+}}, %[[I1]]
// CHECK: %[[I2:.+]] = linalg.index 2
// CHECK-NEXT: %[[S2:.+]] = arith.select %[[ONE1]], %{{.+}}, %[[I2]]
// CHECK: tensor.extract %arg0[%[[S1]], %[[S2]]]
func.func @expand_static_result(%x: tensor<?x?xf32>) -> tensor<2x2x3xf32> {
  %s = "onnx.Constant"() {value = dense<[2, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "onnx.Expand"(%x, %s) : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

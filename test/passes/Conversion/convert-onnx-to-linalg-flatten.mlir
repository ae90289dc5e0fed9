// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Flatten.cpp.

// Flatten is a collapse_shape.
// CHECK-LABEL: func.func @flatten
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
func.func @flatten(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = "onnx.Flatten"(%x) {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

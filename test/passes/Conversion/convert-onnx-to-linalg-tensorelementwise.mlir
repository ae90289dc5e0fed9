// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// TensorElementwise.cpp.

// Where broadcasts all three operands; Cast to bool compares with zero.
// CHECK-LABEL: func.func @where_cast
// CHECK: arith.cmpf une
// CHECK: arith.select
func.func @where_cast(%c: tensor<2x1xf32>, %x: tensor<3xf32>, %y: tensor<f32>) -> tensor<2x3xf32> {
  %b = "onnx.Cast"(%c) {to = 9 : i64} : (tensor<2x1xf32>) -> tensor<2x1xi1>
  %0 = "onnx.Where"(%b, %x, %y) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Cast from an unsigned type converts as unsigned.
// CHECK-LABEL: func.func @cast_unsigned
// CHECK-SAME: (%[[A:.+]]: tensor<4xi8>) -> tensor<4xf32>
// CHECK: arith.uitofp {{.*}} : i8 to f32
func.func @cast_unsigned(%a: tensor<4xui8>) -> tensor<4xf32> {
  %0 = "onnx.Cast"(%a) {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

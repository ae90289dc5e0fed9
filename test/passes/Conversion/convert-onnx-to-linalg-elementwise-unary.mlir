// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Unary float op: one linalg.generic with identity maps; the #onnx.dims
// encoding is dropped from the signature.
// CHECK-LABEL: func.func @relu_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: arith.maximumf
func.func @relu_dynamic(%x: tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>> {
  %0 = "onnx.Relu"(%x) : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>>
  return %0 : tensor<?x4xf32, #onnx.dims<["N"]>>
}

// -----

// Transcendental functions on f16 are computed in f32.
// CHECK-LABEL: func.func @tanh_f16
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: math.tanh {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @tanh_f16(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = "onnx.Tanh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// Where broadcasts all three operands; Cast to bool compares with zero.
// CHECK-LABEL: func.func @where_cast
// CHECK: arith.cmpf une
// CHECK: arith.select
func.func @where_cast(%c: tensor<2x1xf32>, %x: tensor<3xf32>, %y: tensor<f32>) -> tensor<2x3xf32> {
  %b = "onnx.Cast"(%c) {to = 9 : i64} : (tensor<2x1xf32>) -> tensor<2x1xi1>
  %0 = "onnx.Where"(%b, %x, %y) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

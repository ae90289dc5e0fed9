// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// MathUnary.cpp (the broadcasting generic around the bodies: -elementwise.mlir).

// Transcendental functions on f16 are computed in f32.
// CHECK-LABEL: func.func @tanh_f16
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: math.tanh {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @tanh_f16(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = "onnx.Tanh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s
//
// Logical.cpp's errors.

func.func @bitshift_direction(%a: tensor<2xui8>, %b: tensor<2xui8>) -> tensor<2xui8> {
  // expected-error @+1 {{'onnx.BitShift' op direction must be LEFT or RIGHT, not 'UP'}}
  %0 = "onnx.BitShift"(%a, %b) {direction = "UP"} : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

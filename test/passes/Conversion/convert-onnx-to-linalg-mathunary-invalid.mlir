// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s
//
// MathUnary.cpp's errors.

func.func @gelu_approximate(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Gelu' op approximate 'erf' is not supported}}
  %0 = "onnx.Gelu"(%x) {approximate = "erf"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

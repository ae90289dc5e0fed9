// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s
//
// TopK.cpp's errors.

func.func @topk_bad_axis(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>) {
  // expected-error @+1 {{'onnx.TopK' op axis 2 is out of range}}
  %v, %i = "onnx.TopK"(%x, %k) {axis = 2 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  return %v, %i : tensor<3x3xf32>, tensor<3x3xi64>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s
//
// CumSum.cpp's errors.

func.func @cumsum_scalar(%x: tensor<f32>, %a: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.CumSum' op a 0-D input is not supported}}
  %0 = "onnx.CumSum"(%x, %a) : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CumSum's axis is one element (ORT refuses two; the first was taken).
func.func @cumsum_axis_two(%x: tensor<3xf32>, %a: tensor<2xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.CumSum' op axis must have one element}}
  %0 = "onnx.CumSum"(%x, %a) : (tensor<3xf32>, tensor<2xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

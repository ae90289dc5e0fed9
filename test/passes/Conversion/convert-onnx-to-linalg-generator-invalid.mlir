// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @constant_of_shape_value(%s: tensor<1xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.ConstantOfShape' op value must be a one-element dense tensor}}
  %0 = "onnx.ConstantOfShape"(%s) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @eyelike_3d(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'onnx.EyeLike' op input must be 2-D}}
  %0 = "onnx.EyeLike"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

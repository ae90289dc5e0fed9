// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @centercroppad_axis_repeated(%x: tensor<4x5xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.CenterCropPad' op axis -1 repeated}}
  %0 = "onnx.CenterCropPad"(%x, %s) {axes = array<i64: 1, -1>} : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @centercroppad_shape_length(%x: tensor<4x5xf32>, %s: tensor<2xi64>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'onnx.CenterCropPad' op shape must have 1 entries}}
  %0 = "onnx.CenterCropPad"(%x, %s) {axes = array<i64: 0>} : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @deformconv_3d(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x2x2x2xf32>, %o: tensor<1x24x3x3x3xf32>) -> tensor<1x1x3x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DeformConv' op only 2-D DeformConv (X of rank 4) is supported}}
  %0 = "onnx.DeformConv"(%x, %w, %o, %n, %n) : (tensor<1x1x4x4x4xf32>, tensor<1x1x2x2x2xf32>, tensor<1x24x3x3x3xf32>, none, none) -> tensor<1x1x3x3x3xf32>
  return %0 : tensor<1x1x3x3x3xf32>
}

// -----

func.func @deformconv_offset_group(%x: tensor<1x2x4x4xf32>, %w: tensor<1x2x2x2xf32>, %o: tensor<1x8x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DeformConv' op group and offset_group must be positive}}
  %0 = "onnx.DeformConv"(%x, %w, %o, %n, %n) {offset_group = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>, tensor<1x8x3x3xf32>, none, none) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

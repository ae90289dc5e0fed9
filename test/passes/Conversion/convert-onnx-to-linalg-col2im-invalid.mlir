// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @col2im_blocks(%x: tensor<1x8x9xf32>) -> tensor<1x2x5x5xf32> {
  %im = "onnx.Constant"() <{value = dense<[5, 5]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Col2Im' op input has 9 columns, the sliding blocks are 4}}
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<1x8x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x5x5xf32>
  return %y : tensor<1x2x5x5xf32>
}

// -----

func.func @col2im_shape_input(%x: tensor<1x8x4xf32>, %im: tensor<2xi64>) -> tensor<1x2x?x?xf32> {
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Col2Im' op image_shape and block_shape must be constants}}
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<1x8x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x?x?xf32>
  return %y : tensor<1x2x?x?xf32>
}

// -----

func.func @col2im_channels(%x: tensor<1x6x4xf32>) -> tensor<1x1x5x5xf32> {
  %im = "onnx.Constant"() <{value = dense<[5, 5]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Col2Im' op input channels must be a multiple of prod(block_shape) = 4}}
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<1x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x5x5xf32>
  return %y : tensor<1x1x5x5xf32>
}

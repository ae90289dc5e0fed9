// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// A pool over a spatial dim of 0 has no input value in any window (the
// average would be 0 / 0, the max the lowest value): refused when the dim
// is static, as ORT refuses it ("Only N can be zero"). With pads the window
// would fit: the error is the empty input, not the window.

func.func @avgpool_empty_pads(%x: tensor<1x1x0xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op X is empty in spatial dim 0: there is no value to pool}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x0xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

func.func @avgpool_empty_count_pads(%x: tensor<1x1x3x0xf32>) -> tensor<1x1x3x1xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op X is empty in spatial dim 1: there is no value to pool}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 1>, count_include_pad = 1 : i64} : (tensor<1x1x3x0xf32>) -> tensor<1x1x3x1xf32>
  return %0 : tensor<1x1x3x1xf32>
}

// -----

func.func @maxpool_empty(%x: tensor<1x1x0xf32>) -> tensor<1x1x1xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxPool' op X is empty in spatial dim 0: there is no value to pool}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x0xf32>) -> (tensor<1x1x1xf32>, none)
  return %0#0 : tensor<1x1x1xf32>
}

// -----

func.func @lppool_empty(%x: tensor<1x1x0xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'onnx.LpPool' op X is empty in spatial dim 0: there is no value to pool}}
  %0 = "onnx.LpPool"(%x) {kernel_shape = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x0xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

func.func @global_avgpool_empty(%x: tensor<1x1x0xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'onnx.GlobalAveragePool' op X is empty in spatial dim 0: there is no value to pool}}
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<1x1x0xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

func.func @global_maxpool_empty(%x: tensor<2x3x4x0xf32>) -> tensor<2x3x1x1xf32> {
  // expected-error @+1 {{'onnx.GlobalMaxPool' op X is empty in spatial dim 1: there is no value to pool}}
  %0 = "onnx.GlobalMaxPool"(%x) : (tensor<2x3x4x0xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

func.func @global_lppool_empty(%x: tensor<1x1x0xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'onnx.GlobalLpPool' op X is empty in spatial dim 0: there is no value to pool}}
  %0 = "onnx.GlobalLpPool"(%x) : (tensor<1x1x0xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

func.func @maxroipool_pooled_shape(%x: tensor<1x1x4x4xf32>, %r: tensor<2x5xf32>) -> tensor<2x1x2x2xf32> {
  // expected-error @+1 {{'onnx.MaxRoiPool' op pooled_shape must be two positive sizes}}
  %0 = "onnx.MaxRoiPool"(%x, %r) {pooled_shape = array<i64: 2, 0>} : (tensor<1x1x4x4xf32>, tensor<2x5xf32>) -> tensor<2x1x2x2xf32>
  return %0 : tensor<2x1x2x2xf32>
}

// -----

func.func @maxroipool_rois(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>) -> tensor<2x1x2x2xf32> {
  // expected-error @+1 {{'onnx.MaxRoiPool' op rois must have shape [num_rois, 5]}}
  %0 = "onnx.MaxRoiPool"(%x, %r) {pooled_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>) -> tensor<2x1x2x2xf32>
  return %0 : tensor<2x1x2x2xf32>
}

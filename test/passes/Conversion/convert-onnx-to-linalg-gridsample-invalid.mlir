// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// GridSample, RoiAlign and NonMaxSuppression: the dialect verifier checks
// neither attribute values nor ranks; the lowering rejects what it cannot
// compute.

func.func @gridsample_mode(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op unsupported mode 'area'}}
  %0 = "onnx.GridSample"(%x, %g) {mode = "area"} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @gridsample_padding(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op unsupported padding_mode 'wrap'}}
  %0 = "onnx.GridSample"(%x, %g) {padding_mode = "wrap"} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @gridsample_align_corners(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op align_corners must be 0 or 1}}
  %0 = "onnx.GridSample"(%x, %g) {align_corners = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @gridsample_rank(%x: tensor<1x4xf32>, %g: tensor<1x2xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.GridSample' op X must have rank 3 or more (N, C, spatial dims)}}
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x4xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @gridsample_grid_rank(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op grid and Y must have the rank of X}}
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @gridsample_grid_last_dim(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op the last dim of grid must be 2 (one coordinate per spatial dim)}}
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// Cubic over 7 spatial dims would read 4^7 taps per element.
func.func @gridsample_taps(%x: tensor<1x1x2x2x2x2x2x2x2xf32>, %g: tensor<1x1x1x1x1x1x1x1x7xf32>) -> tensor<1x1x1x1x1x1x1x1x1xf32> {
  // expected-error @+1 {{'onnx.GridSample' op too many interpolation taps per element (4^7)}}
  %0 = "onnx.GridSample"(%x, %g) {mode = "cubic"} : (tensor<1x1x2x2x2x2x2x2x2xf32>, tensor<1x1x1x1x1x1x1x1x7xf32>) -> tensor<1x1x1x1x1x1x1x1x1xf32>
  return %0 : tensor<1x1x1x1x1x1x1x1x1xf32>
}

// -----

func.func @gridsample_int_grid(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xi32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.GridSample' op grid must have a float element type}}
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xi32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @affinegrid_theta(%t: tensor<2x2x4xf32>, %s: tensor<4xi64>) -> tensor<2x3x5x2xf32> {
  // expected-error @+1 {{'onnx.AffineGrid' op theta must be [N, 2, 3] for a 2-D grid}}
  %0 = "onnx.AffineGrid"(%t, %s) : (tensor<2x2x4xf32>, tensor<4xi64>) -> tensor<2x3x5x2xf32>
  return %0 : tensor<2x3x5x2xf32>
}

// -----

func.func @affinegrid_size(%t: tensor<2x2x3xf32>, %s: tensor<5xi64>) -> tensor<2x3x5x2xf32> {
  // expected-error @+1 {{'onnx.AffineGrid' op size must have 4 entries}}
  %0 = "onnx.AffineGrid"(%t, %s) : (tensor<2x2x3xf32>, tensor<5xi64>) -> tensor<2x3x5x2xf32>
  return %0 : tensor<2x3x5x2xf32>
}

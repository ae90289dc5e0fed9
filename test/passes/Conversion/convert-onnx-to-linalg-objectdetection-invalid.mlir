// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @roialign_mode(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op unsupported mode 'min'}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) {mode = "min"} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_ctm(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op unsupported coordinate_transformation_mode 'asymmetric'}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) {coordinate_transformation_mode = "asymmetric"} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_output_size(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x0x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op output_height and output_width must be positive}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) {output_height = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x0x1xf32>
  return %0 : tensor<2x1x0x1xf32>
}

// -----

func.func @roialign_sampling_ratio(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op sampling_ratio must not be negative}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) {sampling_ratio = -1 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_x_rank(%x: tensor<1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op X must have rank 4 (N, C, H, W)}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) : (tensor<1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_rois(%x: tensor<1x1x4x4xf32>, %r: tensor<2x5xf32>, %b: tensor<2xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op rois must have shape [num_rois, 4]}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) : (tensor<1x1x4x4xf32>, tensor<2x5xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_batch_indices(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2x1xi64>) -> tensor<2x1x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op batch_indices must be 1-D}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2x1xi64>) -> tensor<2x1x1x1xf32>
  return %0 : tensor<2x1x1x1xf32>
}

// -----

func.func @roialign_y_rank(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op Y must have rank 4}}
  %0 = "onnx.RoiAlign"(%x, %r, %b) : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

func.func @nms_center_point_box(%bx: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NonMaxSuppression' op center_point_box must be 0 or 1}}
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %n, %n, %n) {center_point_box = 2 : i64} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_boxes(%bx: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NonMaxSuppression' op boxes must have shape [num_batches, spatial_dimension, 4]}}
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %n, %n, %n) : (tensor<1x6x5xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_scores(%bx: tensor<1x6x4xf32>, %s: tensor<1x6xf32>) -> tensor<?x3xi64> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NonMaxSuppression' op scores must have shape [num_batches, num_classes, spatial_dimension]}}
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %n, %n, %n) : (tensor<1x6x4xf32>, tensor<1x6xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_result(%bx: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x2xi64> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NonMaxSuppression' op selected_indices must have shape [?, 3]}}
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %n, %n, %n) : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

func.func @nms_max_output(%bx: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<2xi64>) -> tensor<?x3xi64> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NonMaxSuppression' op max_output_boxes_per_class must have one element}}
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %m, %n, %n) : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<2xi64>, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @scan_direction(%s0: tensor<3xf32>, %a: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  // expected-error @+1 {{'onnx.Scan' op scan_input_directions[0] = 2 is not 0 (forward) or 1 (reverse)}}
  %0:2 = "onnx.Scan"(%s0, %a) ({
  ^bb0(%s: tensor<3xf32>, %x: tensor<3xf32>):
    onnx.Yield %s, %x : tensor<3xf32>, tensor<3xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 2>} : (tensor<3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<4x3xf32>
}

// -----

func.func @scan_lengths_differ(%s0: tensor<3xf32>, %a: tensor<4x3xf32>, %b: tensor<5x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  // expected-error @+1 {{'onnx.Scan' op the scan inputs differ in sequence length (4 and 5)}}
  %0:2 = "onnx.Scan"(%s0, %a, %b) ({
  ^bb0(%s: tensor<3xf32>, %x: tensor<3xf32>, %z: tensor<3xf32>):
    onnx.Yield %s, %x : tensor<3xf32>, tensor<3xf32>
  }) {num_scan_inputs = 2 : i64} : (tensor<3xf32>, tensor<4x3xf32>, tensor<5x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<4x3xf32>
}

// -----

func.func @scan8_lens_rank(%l: tensor<2x1xi64>, %s0: tensor<2x3xf32>, %a: tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>) {
  // expected-error @+1 {{'onnx.ScanV8' op sequence_lens must be a 1-D int64 tensor, got 'tensor<2x1xi64>'}}
  %0:2 = "onnx.ScanV8"(%l, %s0, %a) ({
  ^bb0(%s: tensor<3xf32>, %x: tensor<3xf32>):
    onnx.Yield %s, %x : tensor<3xf32>, tensor<3xf32>
  }) {num_scan_inputs = 1 : i64} : (tensor<2x1xi64>, tensor<2x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x4x3xf32>
}

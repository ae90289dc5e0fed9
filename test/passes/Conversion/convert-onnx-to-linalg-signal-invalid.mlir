// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @window_rank(%n: tensor<i64>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.HannWindow' op result must have rank 1}}
  %0 = "onnx.HannWindow"(%n) : (tensor<i64>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @window_periodic(%n: tensor<i64>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.HammingWindow' op periodic must be 0 or 1, not 2}}
  %0 = "onnx.HammingWindow"(%n) {periodic = 2 : i64} : (tensor<i64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @window_size_mismatch() -> tensor<5xf32> {
  %n = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.BlackmanWindow' op result dim 0 is 5 but the inputs give 4}}
  %0 = "onnx.BlackmanWindow"(%n) : (tensor<i64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @dft_input_rank(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op input must have rank 2 or more, not 1}}
  %0 = "onnx.DFT"(%x, %none, %none) : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dft_result_rank(%x: tensor<1x4x1xf32>) -> tensor<4x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op result must have the input's rank 3}}
  %0 = "onnx.DFT"(%x, %none, %none) : (tensor<1x4x1xf32>, none, none) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @dft_result_last(%x: tensor<1x4x1xf32>) -> tensor<1x4x1xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op the last dim of the result must be 2}}
  %0 = "onnx.DFT"(%x, %none, %none) : (tensor<1x4x1xf32>, none, none) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// -----

func.func @dft_inverse(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op inverse must be 0 or 1, not 2}}
  %0 = "onnx.DFT"(%x, %none, %none) {inverse = 2 : i64} : (tensor<1x4x1xf32>, none, none) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @dft_onesided(%x: tensor<1x4x1xf32>) -> tensor<1x3x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op onesided must be 0 or 1, not 3}}
  %0 = "onnx.DFT"(%x, %none, %none) {onesided = 3 : i64} : (tensor<1x4x1xf32>, none, none) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// -----

func.func @dft_axis_not_constant(%x: tensor<1x4x1xf32>, %axis: tensor<i64>) -> tensor<?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op axis must be a constant scalar}}
  %0 = "onnx.DFT"(%x, %none, %axis) : (tensor<1x4x1xf32>, none, tensor<i64>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

func.func @dft_axis_range(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %axis = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.DFT' op axis -1 is out of range for an input of rank 3}}
  %0 = "onnx.DFT"(%x, %none, %axis) : (tensor<1x4x1xf32>, none, tensor<i64>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @dft_components(%x: tensor<1x4x3xf32>) -> tensor<1x4x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.DFT' op the last dim of the input must be 1 (real) or 2 (complex), not 3}}
  %0 = "onnx.DFT"(%x, %none, %none) : (tensor<1x4x3xf32>, none, none) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @dft_length_zero(%x: tensor<1x4x1xf32>) -> tensor<1x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %n = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.DFT' op the DFT length must be positive}}
  %0 = "onnx.DFT"(%x, %n, %none) : (tensor<1x4x1xf32>, tensor<i64>, none) -> tensor<1x?x2xf32>
  return %0 : tensor<1x?x2xf32>
}

// -----

func.func @dft_bins_mismatch(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %n = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.DFT' op result dim 1 is 4 but the inputs give 5}}
  %0 = "onnx.DFT"(%x, %n, %none) {onesided = 1 : i64} : (tensor<1x4x1xf32>, tensor<i64>, none) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @stft_signal_rank(%x: tensor<16x1xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op signal must have rank 3 ([batch, length, 1 or 2]), not 2}}
  %0 = "onnx.STFT"(%x, %s, %none, %none) : (tensor<16x1xf32>, tensor<i64>, none, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_result_rank(%x: tensor<1x16x1xf32>, %s: tensor<i64>) -> tensor<?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op result must have rank 4}}
  %0 = "onnx.STFT"(%x, %s, %none, %none) : (tensor<1x16x1xf32>, tensor<i64>, none, none) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

func.func @stft_onesided(%x: tensor<1x16x1xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op onesided must be 0 or 1, not 2}}
  %0 = "onnx.STFT"(%x, %s, %none, %none) {onesided = 2 : i64} : (tensor<1x16x1xf32>, tensor<i64>, none, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_window_rank(%x: tensor<1x16x1xf32>, %s: tensor<i64>, %w: tensor<2x4xf32>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op window must have rank 1}}
  %0 = "onnx.STFT"(%x, %s, %w, %none) : (tensor<1x16x1xf32>, tensor<i64>, tensor<2x4xf32>, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_components(%x: tensor<1x16x3xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op the last dim of the signal must be 1 (real) or 2 (complex), not 3}}
  %0 = "onnx.STFT"(%x, %s, %none, %none) : (tensor<1x16x3xf32>, tensor<i64>, none, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_step_zero(%x: tensor<1x16x1xf32>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.STFT' op frame_step must be positive}}
  %0 = "onnx.STFT"(%x, %s, %none, %none) : (tensor<1x16x1xf32>, tensor<i64>, none, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_frame_length_zero(%x: tensor<1x16x1xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %n = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.STFT' op frame_length must be positive}}
  %0 = "onnx.STFT"(%x, %s, %none, %n) : (tensor<1x16x1xf32>, tensor<i64>, none, tensor<i64>) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

// A frame longer than the signal (ONNX Runtime refuses it; it returned an
// empty result).
func.func @stft_frame_longer_than_signal(%x: tensor<1x16x1xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %n = "onnx.Constant"() {value = dense<17> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.STFT' op the frame length must not exceed the signal's length}}
  %0 = "onnx.STFT"(%x, %s, %none, %n) : (tensor<1x16x1xf32>, tensor<i64>, none, tensor<i64>) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

// A negative window size (ONNX Runtime refuses it; it returned an empty
// window).
func.func @window_negative_size() -> tensor<?xf32> {
  %n = "onnx.Constant"() {value = dense<-4> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.BlackmanWindow' op size must not be negative}}
  %0 = "onnx.BlackmanWindow"(%n) : (tensor<i64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @mel_rank(%m: tensor<i64>, %n: tensor<i64>, %r: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.MelWeightMatrix' op result must have rank 2}}
  %0 = "onnx.MelWeightMatrix"(%m, %n, %r, %lo, %hi) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @mel_bins_negative(%n: tensor<i64>, %r: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<?x?xf32> {
  %m = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.MelWeightMatrix' op num_mel_bins must not be negative}}
  %0 = "onnx.MelWeightMatrix"(%m, %n, %r, %lo, %hi) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @mel_dft_length_zero(%m: tensor<i64>, %r: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<?x?xf32> {
  %n = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.MelWeightMatrix' op dft_length must be positive}}
  %0 = "onnx.MelWeightMatrix"(%m, %n, %r, %lo, %hi) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @mel_sample_rate_zero(%m: tensor<i64>, %n: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<?x?xf32> {
  %r = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.MelWeightMatrix' op sample_rate must be positive}}
  %0 = "onnx.MelWeightMatrix"(%m, %n, %r, %lo, %hi) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @uniform_int_dtype() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.RandomUniform' op dtype 7 is not float16 (10), float (1) or double (11)}}
  %0 = "onnx.RandomUniform"() {dtype = 7 : i64, shape = array<i64: 2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----

func.func @uniform_dtype_mismatch() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.RandomUniform' op dtype 11 does not match the result type 'f32'}}
  %0 = "onnx.RandomUniform"() {dtype = 11 : i64, shape = array<i64: 2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----

func.func @normal_negative_shape() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.RandomNormal' op shape has a negative dim -2}}
  %0 = "onnx.RandomNormal"() {shape = array<i64: -2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----

func.func @normal_like_bool_dtype(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.RandomNormalLike' op dtype 9 is not float16 (10), float (1) or double (11)}}
  %0 = "onnx.RandomNormalLike"(%x) {dtype = 9 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----

func.func @uniform_like_int_input(%x: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.RandomUniformLike' op the input's element type 'i64' is not a float type and no dtype is given}}
  %0 = "onnx.RandomUniformLike"(%x) : (tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----

func.func @bernoulli_string_dtype(%p: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Bernoulli' op dtype 8 is not a numeric or bool type}}
  %0 = "onnx.Bernoulli"(%p) {dtype = 8 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----

func.func @bernoulli_dtype_mismatch(%p: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Bernoulli' op dtype 7 does not match the result type 'f32'}}
  %0 = "onnx.Bernoulli"(%p) {dtype = 7 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----

func.func @multinomial_negative_sample_size(%x: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{'onnx.Multinomial' op sample_size must be non-negative, got -1}}
  %0 = "onnx.Multinomial"(%x) {sample_size = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}
// -----

func.func @multinomial_float_dtype(%x: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{'onnx.Multinomial' op dtype 1 is not int32 (6) or int64 (7)}}
  %0 = "onnx.Multinomial"(%x) {dtype = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}
// -----

func.func @multinomial_rank(%x: tensor<3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{'onnx.Multinomial' op input must be 2-D [batch_size, class_size]}}
  %0 = "onnx.Multinomial"(%x) : (tensor<3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

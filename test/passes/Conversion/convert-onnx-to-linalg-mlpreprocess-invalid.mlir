// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// The ai.onnx.ml preprocessing ops: attribute values and combinations the
// dialect verifier does not check, refused as ONNX Runtime refuses them.

func.func @normalizer_norm(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.ml.Normalizer' op norm must be MAX, L1 or L2, not 'L3'}}
  %0 = "onnx.ml.Normalizer"(%x) {norm = "L3"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @scaler_sizes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.ml.Scaler' op offset and scale must have as many values (3 and 1)}}
  %0 = "onnx.ml.Scaler"(%x) {offset = array<f32: 1.0, 2.0, 3.0>, scale = array<f32: 2.0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @scaler_columns(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.ml.Scaler' op offset has 2 values, X has 3 columns}}
  %0 = "onnx.ml.Scaler"(%x) {offset = array<f32: 1.0, 2.0>, scale = array<f32: 2.0, 1.0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @imputer_values(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.ml.Imputer' op a float X needs imputed_value_floats}}
  %0 = "onnx.ml.Imputer"(%x) {imputed_value_int64s = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @onehot_strings(%x: tensor<2xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.ml.OneHotEncoder' op a string X takes cats_strings, a numeric X cats_int64s}}
  %0 = "onnx.ml.OneHotEncoder"(%x) {cats_strings = ["a", "b"]} : (tensor<2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @labelencoder_lengths(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op has 3 keys and 2 values: they must be as many}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_int64s = array<i64: 1, 2, 3>, values_int64s = array<i64: 10, 20>} : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// 0.0 and -0.0 are the same key (ORT's hash map compares them equal).
func.func @labelencoder_duplicate(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op key -0.000000 is listed twice}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_floats = array<f32: 0.0, 1.0, -0.0>, values_int64s = array<i64: 10, 20, 30>} : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @labelencoder_no_values(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op exactly one of values_floats, values_int64s, values_strings and values_tensor must be given}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// ai.onnx.ml 4: a default_tensor of another type than the values.
func.func @labelencoder_default_tensor(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op default_tensor must hold one element of the values' type}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_tensor = dense<[1.0, 2.0]> : tensor<2xf64>, values_tensor = dense<[3.0, 4.0]> : tensor<2xf64>, default_tensor = dense<[5.0]> : tensor<1xf32>} : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// A 2-D keys_tensor.
func.func @labelencoder_keys_tensor_rank(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op keys_tensor must be a 1-D tensor of float, double, int16, int32, int64 or string}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_tensor = dense<[[1, 2]]> : tensor<1x2xi64>, values_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// keys_floats and keys_tensor both given.
func.func @labelencoder_two_keys(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op exactly one of keys_floats, keys_int64s, keys_strings and keys_tensor must be given}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_floats = array<f32: 1.0, 2.0>, keys_tensor = dense<[1.0, 2.0]> : tensor<2xf32>, values_int64s = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// int32 keys against an int64 X.
func.func @labelencoder_key_type(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op the keys' type must be X's element type}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_tensor = dense<[1, 2]> : tensor<2xi32>, values_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @featurevectorizer_dims(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.ml.FeatureVectorizer' op inputdimensions must have one entry per input (2)}}
  %0 = "onnx.ml.FeatureVectorizer"(%a, %b) {inputdimensions = array<i64: 5>} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @categorymapper_lengths(%x: tensor<3x!onnx.string>) -> tensor<3xi64> {
  // expected-error @+1 {{'onnx.ml.CategoryMapper' op has 2 cats_strings and 1 cats_int64s: they must be as many}}
  %0 = "onnx.ml.CategoryMapper"(%x) {cats_strings = ["a", "b"], cats_int64s = array<i64: 1>} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

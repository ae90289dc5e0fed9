// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// LinearRegressor, LinearClassifier, SVMRegressor, SVMClassifier: the
// weights' shapes and the forms ONNX Runtime leaves undefined.

func.func @linreg_coefficients(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.ml.LinearRegressor' op coefficients must hold targets (2) rows of features, it has 5 values}}
  %0 = "onnx.ml.LinearRegressor"(%x) {coefficients = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0>, targets = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @linreg_features(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.LinearRegressor' op X has 4 features, the model 3}}
  %0 = "onnx.ml.LinearRegressor"(%x) {coefficients = array<f32: 1.0, 2.0, 3.0>, targets = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @linreg_post(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.LinearRegressor' op post_transform must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, not 'RELU'}}
  %0 = "onnx.ml.LinearRegressor"(%x) {coefficients = array<f32: 1.0, 2.0, 3.0>, post_transform = "RELU", targets = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @linclf_intercepts(%x: tensor<2x3xf32>) -> (tensor<2xi64>, tensor<2x2xf32>) {
  // expected-error @+1 {{'onnx.ml.LinearClassifier' op intercepts is required (one per class score)}}
  %y, %z = "onnx.ml.LinearClassifier"(%x) {classlabels_ints = array<i64: 0, 1>, coefficients = array<f32: 1.0, 2.0, 3.0>} : (tensor<2x3xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x2xf32>
}

// -----

func.func @linclf_labels(%x: tensor<2x1xf32>) -> (tensor<2xi64>, tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ml.LinearClassifier' op has 3 class scores but 2 labels}}
  %y, %z = "onnx.ml.LinearClassifier"(%x) {classlabels_ints = array<i64: 0, 1>, coefficients = array<f32: 1.0, 2.0, 3.0>, intercepts = array<f32: 0.0, 0.0, 0.0>} : (tensor<2x1xf32>) -> (tensor<2xi64>, tensor<2x3xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x3xf32>
}

// -----

func.func @svmreg_post(%x: tensor<2x2xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.SVMRegressor' op post_transform must be NONE (ONNX Runtime applies none to SVMRegressor), not 'LOGISTIC'}}
  %0 = "onnx.ml.SVMRegressor"(%x) {coefficients = array<f32: 1.0, 2.0>, post_transform = "LOGISTIC", rho = array<f32: 0.0>} : (tensor<2x2xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @svm_kernel(%x: tensor<2x2xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.SVMRegressor' op kernel_type must be LINEAR, POLY, RBF or SIGMOID, not 'LAPLACE'}}
  %0 = "onnx.ml.SVMRegressor"(%x) {coefficients = array<f32: 1.0, 2.0>, kernel_type = "LAPLACE", rho = array<f32: 0.0>} : (tensor<2x2xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @svmclf_proba(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>) {
  // expected-error @+1 {{'onnx.ml.SVMClassifier' op prob_a and prob_b must have as many values (1 and 2)}}
  %y, %z = "onnx.ml.SVMClassifier"(%x) {classlabels_ints = array<i64: 0, 1>, coefficients = array<f32: 1.0, 2.0>, prob_a = array<f32: 1.0>, prob_b = array<f32: 0.0, 1.0>, rho = array<f32: 0.0>, support_vectors = array<f32: 1.0, 2.0, 3.0, 4.0>, vectors_per_class = array<i64: 1, 1>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x2xf32>
}

// -----

func.func @svmclf_rho(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ml.SVMClassifier' op rho must hold one value per pair of classes (3)}}
  %y, %z = "onnx.ml.SVMClassifier"(%x) {classlabels_ints = array<i64: 0, 1, 2>, coefficients = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, rho = array<f32: 0.0>, support_vectors = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, vectors_per_class = array<i64: 1, 1, 1>} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x3xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x3xf32>
}

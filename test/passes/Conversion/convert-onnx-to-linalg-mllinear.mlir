// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// LinearClassifier, 2 classes: per row a dot product per class over the
// constant coefficient table plus the intercept, the label of the first
// largest score, then the softmax of the row.
// CHECK-LABEL: func.func @linear_classifier
// CHECK-DAG: %[[COEF:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[LABELS:.+]] = arith.constant dense<[5, 6]> : tensor<2xi64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %[[COEF]]
// CHECK: arith.mulf
// CHECK: arith.cmpf ogt
// CHECK: tensor.extract %[[LABELS]]
// CHECK: math.exp
func.func @linear_classifier(%x: tensor<3x2xf32>) -> (tensor<3xi64>, tensor<3x2xf32>) {
  %y, %z = "onnx.ml.LinearClassifier"(%x) {classlabels_ints = array<i64: 5, 6>, coefficients = array<f32: 1.0, 2.0, 3.0, 4.0>, intercepts = array<f32: 0.5, -0.5>, post_transform = "SOFTMAX"} : (tensor<3x2xf32>) -> (tensor<3xi64>, tensor<3x2xf32>)
  return %y, %z : tensor<3xi64>, tensor<3x2xf32>
}

// -----

// SVMRegressor with an RBF kernel over 2 support vectors: per row and
// vector exp(-gamma * |x - sv|^2), weighted by the coefficients, plus rho.
// CHECK-LABEL: func.func @svm_rbf
// CHECK-DAG: %[[SV:.+]] = arith.constant dense<[1.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]> : tensor<4xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %[[SV]]
// CHECK: arith.subf
// CHECK: arith.constant -5.000000e-01 : f32
// CHECK: math.exp
// CHECK: arith.constant 2.500000e-01 : f32
func.func @svm_rbf(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  %0 = "onnx.ml.SVMRegressor"(%x) {coefficients = array<f32: 1.0, -1.0>, kernel_params = array<f32: 0.5, 0.0, 0.0>, kernel_type = "RBF", n_supports = 2 : i64, rho = array<f32: 0.25>, support_vectors = array<f32: 1.0, 0.0, 0.0, 1.0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// RUN: %onnxc-opt --onnx-shape-inference --split-input-file %s | FileCheck %s
//
// The ai.onnx.ml ops whose libonnx 1.12 schema infers no shape (RulesML.cpp).

// TreeEnsembleRegressor: [N, n_targets] float, N from X's first dim.
// TreeEnsembleClassifier: labels [N] (int64 with classlabels_int64s),
// scores [N, classes].
// CHECK-LABEL: func.func @tree_ensembles
// CHECK: "onnx.ml.TreeEnsembleRegressor"{{.*}} -> tensor<?x3xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.ml.TreeEnsembleClassifier"{{.*}} -> (tensor<?xi64, #onnx.dims<["N"]>>, tensor<?x4xf32, #onnx.dims<["N"]>>)
func.func @tree_ensembles(%x: tensor<?x5xf32, #onnx.dims<["N"]>>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {n_targets = 3 : i64, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = ["LEAF"], nodes_nodeids = array<i64: 0>, nodes_treeids = array<i64: 0>, nodes_truenodeids = array<i64: 0>, nodes_values = array<f32: 0.0>} : (tensor<?x5xf32, #onnx.dims<["N"]>>) -> tensor<*xf32>
  %y, %z = "onnx.ml.TreeEnsembleClassifier"(%x) {classlabels_int64s = array<i64: 1, 2, 3, 4>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = ["LEAF"], nodes_nodeids = array<i64: 0>, nodes_treeids = array<i64: 0>, nodes_truenodeids = array<i64: 0>, nodes_values = array<f32: 0.0>} : (tensor<?x5xf32, #onnx.dims<["N"]>>) -> (tensor<*xi64>, tensor<*xf32>)
  return %0, %y, %z : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

// -----

// LinearClassifier: one score per intercept, two for one score and two
// labels. SVMClassifier with support vectors and no probabilities: one
// score per pair of classes (3 classes: 3).
// CHECK-LABEL: func.func @classifiers
// CHECK: "onnx.ml.LinearClassifier"{{.*}} -> (tensor<4xi64>, tensor<4x2xf32>)
// CHECK: "onnx.ml.SVMClassifier"{{.*}} -> (tensor<4xi64>, tensor<4x3xf32>)
func.func @classifiers(%x: tensor<4x2xf32>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %y, %z = "onnx.ml.LinearClassifier"(%x) {classlabels_ints = array<i64: 0, 1>, coefficients = array<f32: 1.0, 2.0>, intercepts = array<f32: 0.5>} : (tensor<4x2xf32>) -> (tensor<*xi64>, tensor<*xf32>)
  %y2, %z2 = "onnx.ml.SVMClassifier"(%x) {classlabels_ints = array<i64: 0, 1, 2>, coefficients = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, rho = array<f32: 0.0, 0.0, 0.0>, support_vectors = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>, vectors_per_class = array<i64: 1, 1, 1>} : (tensor<4x2xf32>) -> (tensor<*xi64>, tensor<*xf32>)
  return %y, %z, %y2, %z2 : tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

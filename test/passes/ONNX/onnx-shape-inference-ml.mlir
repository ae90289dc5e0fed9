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

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// TreeEnsembleRegressor and TreeEnsembleClassifier: the dialect verifier
// checks none of the tree attributes; the lowering reads them into tables
// at compile time and rejects ensembles that are not well-formed forests.

// Inconsistent nodes_* lengths.
func.func @lengths(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op nodes_featureids has 2 entries, nodes_nodeids 3}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A child id that is no node of the tree.
func.func @child_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op node 0 of tree 0: true child 7 is not a node of the tree}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 7, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A cycle: node 1 branches back to the root.
func.func @cycle(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op tree 0 is not a tree: node 0 is reached twice (a cycle or a shared child)}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 3, 0, 0>, nodes_featureids = array<i64: 1, 0, 0, 0>, nodes_modes = ["BRANCH_LEQ", "BRANCH_LT", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2, 3>, nodes_treeids = array<i64: 0, 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 2, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A node id listed twice.
func.func @duplicate_node(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op node 1 of tree 0 is listed twice}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 1>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// An unknown post_transform.
func.func @post_transform(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op post_transform must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, not 'SIGMOID'}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "SIGMOID", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// An unknown aggregate_function.
func.func @aggregate(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op aggregate_function must be SUM, AVERAGE, MIN or MAX, not 'MEDIAN'}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "MEDIAN", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// An unknown node mode.
func.func @mode(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op nodes_modes[0] must be BRANCH_LEQ, BRANCH_LT, BRANCH_GTE, BRANCH_GT, BRANCH_EQ, BRANCH_NEQ or LEAF}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_MEMBER", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A target id past n_targets.
func.func @target_id(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op target_ids[1] = 1 is out of range [0, 1)}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 1>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A weight on a node that does not exist.
func.func @weight_node(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op target_nodeids[1]: node 5 of tree 0 does not exist}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 5>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Weights of inconsistent lengths.
func.func @weight_lengths(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op target_ids, target_treeids, target_nodeids and target_weights must have the same length (2, 2, 2, 1)}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A feature id past X's features.
func.func @feature(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op feature id 3 is out of range: X has 3 features}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 3, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Base values that are not one per target.
func.func @base_values(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleRegressor' op base_values has 2 entries, n_targets is 1}}
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", base_values = array<f32: 1.0, 2.0>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "NONE", target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Both int64 and string labels.
func.func @both_labels(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleClassifier' op has both classlabels_int64s and classlabels_strings}}
  %y, %z = "onnx.ml.TreeEnsembleClassifier"(%x) {class_ids = array<i64: 0, 1>, class_nodeids = array<i64: 1, 2>, class_treeids = array<i64: 0, 0>, class_weights = array<f32: 1.0, 2.0>, classlabels_int64s = array<i64: 4, 5>, classlabels_strings = ["a", "b"], nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>} : (tensor<2x3xf32>) -> (tensor<2x!onnx.string>, tensor<2x2xf32>)
  return %z : tensor<2x2xf32>
}

// -----

// Three classes take 0 or 3 base values.
func.func @class_base_values(%x: tensor<2x3xf32>) -> (tensor<2xi64>, tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ml.TreeEnsembleClassifier' op base_values has 1 entries, there are 3 classes}}
  %y, %z = "onnx.ml.TreeEnsembleClassifier"(%x) {base_values = array<f32: 1.0>, class_ids = array<i64: 0, 1>, class_nodeids = array<i64: 1, 2>, class_treeids = array<i64: 0, 0>, class_weights = array<f32: 1.0, 2.0>, classlabels_int64s = array<i64: 1, 2, 3>, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>} : (tensor<2x3xf32>) -> (tensor<2xi64>, tensor<2x3xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x3xf32>
}

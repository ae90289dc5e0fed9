// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// TreeEnsemble (ai.onnx.ml 5): the lowering expands the nodes_* / leaf_*
// attributes into the opset-3 form at compile time and rejects ensembles
// that are not well-formed forests, each with one error on the op.

// A mode other than 0-6.
func.func @mode(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op nodes_modes[0] = 7 is not a mode (0-6)}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 1>, nodes_modes = dense<7> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A false child that is no leaf.
func.func @leaf_index(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op node 0: false child 5 is not a leaf (there are 2)}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 5>, nodes_featureids = array<i64: 1>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A cycle: node 1's true child is node 0.
func.func @cycle(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op node 0 is its own descendant (a cycle)}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1, 1>, nodes_falsenodeids = array<i64: 1, 1>, nodes_featureids = array<i64: 1, 0>, nodes_modes = dense<0> : tensor<2xui8>, nodes_splits = dense<0.5> : tensor<2xf32>, nodes_trueleafs = array<i64: 0, 0>, nodes_truenodeids = array<i64: 1, 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Two BRANCH_MEMBER nodes, one set.
func.func @member_sets(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op membership_values has 1 sets, there are 2 BRANCH_MEMBER nodes}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, membership_values = dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 0, 1>, nodes_falsenodeids = array<i64: 1, 1>, nodes_featureids = array<i64: 1, 0>, nodes_modes = dense<6> : tensor<2xui8>, nodes_splits = dense<0.0> : tensor<2xf32>, nodes_trueleafs = array<i64: 1, 1>, nodes_truenodeids = array<i64: 0, 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A BRANCH_MEMBER node without membership_values.
func.func @member_missing(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op membership_values must be given for the BRANCH_MEMBER nodes}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 1>, nodes_modes = dense<6> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A leaf's target out of range.
func.func @target(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op leaf_targetids[1] = 3 is out of range [0, 1)}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 3>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 1>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @aggregate(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op aggregate_function must be 0 (AVERAGE), 1 (SUM), 2 (MIN) or 3 (MAX), not 4}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {aggregate_function = 4 : i64, leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 1>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// A feature X does not have.
func.func @feature(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op feature id 5 is out of range: X has 3 features}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 5>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @no_targets(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ml.TreeEnsemble' op n_targets must be given and positive}}
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 1>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

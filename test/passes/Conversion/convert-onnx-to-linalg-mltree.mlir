// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// One tree: node 0 tests feature 2 < 1.5 (BRANCH_LT is mode 1), nodes 1
// and 2 are leaves (mode 6). One row of 4 x i32 per node: mode | feature
// << 4 (33), the threshold's f32 bits (1.5 = 1069547520), true and false
// child; a leaf's child slots hold its weight range ([0, 1) and [1, 2)).
// Rows go in blocks of 64, trees within a block, rows within a tree; each
// row walks the tree with an scf.while from the root until a leaf, whose
// weights are added into the accumulator; then the base value 0.5 is
// added per row and target.
// CHECK-LABEL: func.func @regressor
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>)
// CHECK-DAG: %[[NODES:.+]] = arith.constant dense<{{\[\[}}33, 1069547520, 1, 2], [6, 0, 0, 1], [6, 0, 1, 2]]> : tensor<3x4xi32>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[BLOCK:.+]] = arith.constant 64 : index
// CHECK: %[[ACC:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[BLOCK]]
// CHECK: scf.for
// CHECK: scf.for %[[ROW:[a-z0-9_]+]] = 
// CHECK: %[[LEAF:[a-z0-9_]+]] = scf.while
// CHECK: tensor.extract %[[NODES]]
// CHECK: arith.cmpi ne, %{{.+}}, %{{.+}} : i32
// CHECK: } do {
// CHECK: arith.shrui
// CHECK: tensor.extract %[[X]][%[[ROW]], %{{.+}}] : tensor<4x3xf32>
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: tensor.extract %[[NODES]][%[[LEAF]], %{{.+}}]
// CHECK: tensor.extract %[[NODES]][%[[LEAF]], %{{.+}}]
// CHECK: scf.for
// CHECK: tensor.extract %[[W]]
// CHECK: arith.addf
// CHECK: tensor.insert
// CHECK: %[[BASE:.+]] = arith.constant dense<5.000000e-01> : tensor<1xf32>
// CHECK: %[[Y:.+]] = scf.for
// CHECK: tensor.extract %[[ACC]]
// CHECK: tensor.extract %[[BASE]]
// CHECK: arith.addf
// CHECK: return %[[Y]] : tensor<4x1xf32>
func.func @regressor(%x: tensor<4x3xf32>) -> tensor<4x1xf32> {
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "SUM", base_values = array<f32: 0.5>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 2, 0, 0>, nodes_modes = ["BRANCH_LT", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 1.5, 0.0, 0.0>, target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<4x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Mixed modes and missing_value_tracks_true: the mode is read per node
// (bit 3 set: NaN goes the true way), each comparison selected by the low
// bits; MAX starts from -inf. The feature count is dynamic: a run-time
// check that X has more than 1 feature.
// CHECK-LABEL: func.func @mixed_modes_max
// CHECK-DAG: arith.constant dense<{{\[\[}}12, 0, 1, 2], [19, 1065353216, 3, 4], [6, 0, 0, 1], [6, 0, 1, 2], [6, 0, 2, 3]]> : tensor<5x4xi32>
// CHECK-DAG: arith.constant 0xFF800000 : f32
// CHECK: scf.while
// CHECK: arith.cmpf une
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: arith.ori
// CHECK: arith.cmpf ogt
func.func @mixed_modes_max(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %0 = "onnx.ml.TreeEnsembleRegressor"(%x) {aggregate_function = "MAX", n_targets = 1 : i64, nodes_falsenodeids = array<i64: 2, 4, 0, 0, 0>, nodes_featureids = array<i64: 0, 1, 0, 0, 0>, nodes_missing_value_tracks_true = array<i64: 1, 0, 0, 0, 0>, nodes_modes = ["BRANCH_EQ", "BRANCH_GT", "LEAF", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2, 3, 4>, nodes_treeids = array<i64: 0, 0, 0, 0, 0>, nodes_truenodeids = array<i64: 1, 3, 0, 0, 0>, nodes_values = array<f32: 0.0, 1.0, 0.0, 0.0, 0.0>, target_ids = array<i64: 0, 0, 0>, target_nodeids = array<i64: 2, 3, 4>, target_treeids = array<i64: 0, 0, 0>, target_weights = array<f32: 1.0, 2.0, 3.0>} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// A binary classifier (one class id, boosting logits): the per-row
// finalization picks the label from the positive score and writes the two
// scores with the logistic.
// CHECK-LABEL: func.func @binary_classifier
// CHECK: scf.while
// CHECK: arith.constant dense<[3, 5]> : tensor<2xi64>
// CHECK: math.exp
// CHECK: scf.if
// CHECK: return %{{.+}}, %{{.+}} : tensor<2xi64>, tensor<2x2xf32>
func.func @binary_classifier(%x: tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>) {
  %y, %z = "onnx.ml.TreeEnsembleClassifier"(%x) {class_ids = array<i64: 1, 1>, class_nodeids = array<i64: 1, 2>, class_treeids = array<i64: 0, 0>, class_weights = array<f32: -1.0, 2.0>, classlabels_int64s = array<i64: 3, 5>, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_featureids = array<i64: 1, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_values = array<f32: 0.0, 0.0, 0.0>, post_transform = "LOGISTIC"} : (tensor<2x2xf32>) -> (tensor<2xi64>, tensor<2x2xf32>)
  return %y, %z : tensor<2xi64>, tensor<2x2xf32>
}

// -----

// TreeEnsemble (ai.onnx.ml 5): one BRANCH_MEMBER node (mode 6) testing
// feature 2 against {1.0, 3.0}, true leaf 0 (weight 1.0), false leaf 1
// (2.0). It becomes the opset-3 form: a chain of two BRANCH_EQ nodes (mode
// 4 | 2 << 4 = 36; 1.0 and 3.0 as f32 bits), both with true child 3 (leaf
// 0, shared), the first's false child the second, the second's leaf 1
// (node 2); then the same walk as TreeEnsembleRegressor.
// CHECK-LABEL: func.func @tree_ensemble_member
// CHECK-DAG: arith.constant dense<{{\[\[}}36, 1065353216, 3, 1], [36, 1077936128, 3, 2], [6, 0, 0, 1], [6, 0, 1, 2]]> : tensor<4x4xi32>
// CHECK-DAG: arith.constant dense<[2.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK: scf.while
// CHECK: arith.cmpf oeq
// CHECK: return %{{.+}} : tensor<4x1xf32>
func.func @tree_ensemble_member(%x: tensor<4x3xf32>) -> tensor<4x1xf32> {
  %0 = "onnx.ml.TreeEnsemble"(%x) {leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, membership_values = dense<[1.0, 3.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 2>, nodes_modes = dense<6> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<4x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

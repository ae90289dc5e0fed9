// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// ZipMap: the sequence of N maps becomes its keys (the labels repeated N
// times), its values (X flattened) and the maps' sizes (N times C).
// CHECK-LABEL: func.func @zipmap
// CHECK-SAME: -> (tensor<?xi64>, tensor<?xf32>, tensor<?xi64>)
// CHECK-DAG: %[[LABELS:.+]] = arith.constant dense<[10, 20, 30]> : tensor<3xi64>
// CHECK: %[[KEYS:.+]] = linalg.generic
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[COL:.+]] = arith.remui %[[I]]
// CHECK: tensor.extract %[[LABELS]][%[[COL]]]
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]]
// CHECK: %[[VALUES:.+]] = tensor.cast %[[FLAT]] : tensor<6xf32> to tensor<?xf32>
// CHECK: %[[C:.+]] = arith.constant 3 : i64
// CHECK: %[[SIZES:.+]] = linalg.fill ins(%[[C]] : i64)
// CHECK: return %[[KEYS]], %[[VALUES]], %[[SIZES]]
func.func @zipmap(%x: tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>> {
  %0 = "onnx.ml.ZipMap"(%x) {classlabels_int64s = array<i64: 10, 20, 30>} : (tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
  return %0 : !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
}

// -----

// A map argument is its keys and values. DictVectorizer: the vocabulary
// sorted at compile time (7, -2, 3 -> -2, 3, 7, at positions 1, 2, 0); per
// map entry a binary search, the value stored at the entry's position.
// CHECK-LABEL: func.func @dictvectorizer
// CHECK-SAME: (%[[K:.+]]: tensor<?xi64>, %[[V:.+]]: tensor<?xf32>) -> tensor<1x3xf32>
// CHECK-DAG: %[[VOCAB:.+]] = arith.constant dense<[-2, 3, 7]> : tensor<3xi64>
// CHECK-DAG: %[[POS:.+]] = arith.constant dense<[1, 2, 0]> : tensor<3xi64>
// CHECK: %[[ZERO:.+]] = linalg.fill
// CHECK: scf.for %[[E:.+]] = {{.+}} iter_args(%[[Y:.+]] = %[[ZERO]])
// CHECK: %[[KEY:.+]] = tensor.extract %[[K]][%[[E]]]
// CHECK: scf.while
// CHECK: tensor.extract %[[VOCAB]]
// CHECK: scf.if
// CHECK: tensor.extract %[[POS]]
// CHECK: %[[VAL:.+]] = tensor.extract %[[V]][%[[E]]]
// CHECK: tensor.insert %[[VAL]] into %[[Y]]
func.func @dictvectorizer(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x3xf32> {
  %0 = "onnx.ml.DictVectorizer"(%m) {int64_vocabulary = array<i64: 7, -2, 3>} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// CastMap SPARSE: Y[0, key] = int64(value), the key checked against
// [0, max_map) at run time.
// CHECK-LABEL: func.func @castmap_sparse
// CHECK: scf.for
// CHECK: %[[KEY:.+]] = tensor.extract
// CHECK: arith.cmpi slt, %[[KEY]]
// CHECK: arith.cmpi sge, %[[KEY]]
// CHECK: scf.if
// CHECK: call @onnxc_rt_fail_values
// CHECK: %[[AT:.+]] = arith.index_cast %[[KEY]] : i64 to index
// CHECK: %[[F:.+]] = tensor.extract
// CHECK: %[[I:.+]] = arith.fptosi %[[F]] : f32 to i64
// CHECK: tensor.insert %[[I]] into %{{.+}}[%{{.+}}, %[[AT]]] : tensor<1x4xi64>
func.func @castmap_sparse(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x4xi64> {
  %0 = "onnx.ml.CastMap"(%m) {cast_to = "TO_INT64", map_form = "SPARSE", max_map = 4 : i64} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x4xi64>
  return %0 : tensor<1x4xi64>
}

// -----

// CastMap DENSE: each value at its key's rank (how many keys are smaller).
// CHECK-LABEL: func.func @castmap_dense
// CHECK-SAME: -> tensor<1x?xf32>
// CHECK: scf.for
// CHECK: %[[KEY:.+]] = tensor.extract
// CHECK: %[[RANK:.+]] = scf.for
// CHECK: arith.cmpi slt, %{{.+}}, %[[KEY]] : i64
// CHECK: tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %[[RANK]]] : tensor<1x?xf32>
func.func @castmap_dense(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32> {
  %0 = "onnx.ml.CastMap"(%m) {cast_to = "TO_FLOAT", map_form = "DENSE"} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

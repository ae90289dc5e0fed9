// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// OneHot: depth read at run time, checked to be a size (a float depth:
// finite, in [0, 2^63)) and against the static dim 10;
// out[i, d] = (norm(indices[i]) == d) ? on : off.
// CHECK-DAG: llvm.mlir.global internal constant @[[SIZE:__onnxc_msg[0-9]+]]("OneHot: depth is not a size
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("OneHot: depth does not match the result type
// CHECK-LABEL: func.func @onehot
// CHECK-SAME: (%[[I:.+]]: tensor<3xi64>, %[[D:.+]]: tensor<f32>, %[[V:.+]]: tensor<2xf32>)
// CHECK: %[[DF:.+]] = tensor.extract %[[D]][] : tensor<f32>
// CHECK: %[[DF64:.+]] = arith.extf %[[DF]] : f32 to f64
// CHECK: llvm.mlir.addressof @[[SIZE]]
// CHECK: %[[SAFE:.+]] = arith.select %{{.+}}, %[[DF64]], %{{.+}} : f64
// CHECK: %[[DI:.+]] = arith.fptosi %[[SAFE]] : f64 to i64
// CHECK: %[[DIDX:.+]] = arith.index_cast %[[DI]] : i64 to index
// CHECK: %[[DEPTH:.+]] = arith.index_cast %[[DIDX]] : index to i64
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: %[[OFF:.+]] = tensor.extract %[[V]][%{{.+}}] : tensor<2xf32>
// CHECK: %[[ON:.+]] = tensor.extract %[[V]][%{{.+}}] : tensor<2xf32>
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<3xi64>) outs(%{{.+}} : tensor<3x10xf32>)
// CHECK: arith.addi %{{.+}}, %[[DEPTH]] : i64
// CHECK: %[[HIT:.+]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]] : f32
func.func @onehot(%i: tensor<3xi64>, %d: tensor<f32>, %v: tensor<2xf32>) -> tensor<3x10xf32> {
  %0 = "onnx.OneHot"(%i, %d, %v) {axis = 1 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

// NonZero: a loop nest counts, then a second one fills [2, count].
// CHECK-LABEL: func.func @nonzero
// CHECK-SAME: (%[[X:.+]]: tensor<2x2xi1>)
// CHECK: %[[N:.+]] = scf.for {{.+}} -> (index)
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<2x?xi64>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[E]], %{{.+}} = %{{.+}}) -> (tensor<2x?xi64>, index)
// CHECK: scf.if %{{.+}} -> (tensor<2x?xi64>, index)
// CHECK: tensor.insert
// CHECK: tensor.insert
func.func @nonzero(%x: tensor<2x2xi1>) -> tensor<2x?xi64> {
  %0 = "onnx.NonZero"(%x) : (tensor<2x2xi1>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// Trilu (lower): keep x[i, j] where j - i <= k.
// CHECK-LABEL: func.func @trilu
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xi64>, %[[K:.+]]: tensor<i64>)
// CHECK: %[[KV:.+]] = tensor.extract %[[K]][] : tensor<i64>
// CHECK: %[[KI:.+]] = arith.index_cast %[[KV]] : i64 to index
// CHECK: linalg.generic {{.+}} ins(%[[X]] : tensor<4x5xi64>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: %[[D:.+]] = arith.subi %[[J]], %[[I]] : index
// CHECK: %[[KEEP:.+]] = arith.cmpi sle, %[[D]], %[[KI]] : index
// CHECK: arith.select %[[KEEP]]
func.func @trilu(%x: tensor<4x5xi64>, %k: tensor<i64>) -> tensor<4x5xi64> {
  %0 = "onnx.Trilu"(%x, %k) {upper = 0 : i64} : (tensor<4x5xi64>, tensor<i64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// -----

// Compress: count the true conditions, then copy the selected slices.
// CHECK-LABEL: func.func @compress
// CHECK-SAME: (%[[X:.+]]: tensor<3x2xf32>, %[[C:.+]]: tensor<3xi1>)
// CHECK: %[[N:.+]] = scf.for {{.+}} -> (index)
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x2xf32>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[E]], %{{.+}} = %{{.+}}) -> (tensor<?x2xf32>, index)
// CHECK: scf.if
// CHECK: tensor.extract %[[X]]
// CHECK: tensor.insert
func.func @compress(%x: tensor<3x2xf32>, %c: tensor<3xi1>) -> tensor<?x2xf32> {
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// ReverseSequence: out[b, t] = x[b, t < len[b] ? len[b] - 1 - t : t].
// CHECK-LABEL: func.func @reverse_sequence
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xf32>, %[[L:.+]]: tensor<4xi64>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<4x4xf32>)
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[T:.+]] = linalg.index 1
// CHECK: tensor.extract %[[L]][%[[B]]] : tensor<4xi64>
// CHECK: %[[S:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[S]]] : tensor<4x4xf32>
func.func @reverse_sequence(%x: tensor<4x4xf32>, %l: tensor<4xi64>) -> tensor<4x4xf32> {
  %0 = "onnx.ReverseSequence"(%x, %l) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Gather: one pass checks every index against [-5, 5) (onnxc_rt_fail
// otherwise), then a generic reads data[norm(indices[i]), j].
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("Gather: index out of range
// CHECK-LABEL: func.func @gather_checked
// CHECK-SAME: (%[[X:.+]]: tensor<5x3xf32>, %[[I:.+]]: tensor<2xi64>)
// CHECK: %[[OK:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[I]] : tensor<2xi64>) outs(%{{.+}} : tensor<i1>)
// CHECK: %[[ALL:.+]] = tensor.extract %[[OK]][] : tensor<i1>
// CHECK: scf.if
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2xi64>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: arith.cmpi slt
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[N]], %{{.+}}] : tensor<5x3xf32>
func.func @gather_checked(%x: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A single (rank-0) index is checked as a scalar (no i1 tensor) and read
// once, outside the generic, which reads the row at that loop-invariant
// offset (a Gather by a loop's iteration number: once per iteration, and
// the row's loop vectorizes).
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK-SAME: (%[[X:.+]]: tensor<5x3xf32>, %[[I:.+]]: tensor<i64>)
// CHECK-NOT: tensor<i1>
// CHECK: %[[V:.+]] = tensor.extract %[[I]][] : tensor<i64>
// CHECK: %[[IV:.+]] = arith.index_cast %[[V]] : i64 to index
// CHECK: arith.cmpi sge, %[[IV]]
// CHECK: arith.cmpi slt, %[[IV]]
// CHECK: scf.if
// CHECK: func.call @onnxc_rt_fail
// CHECK-NOT: tensor<i1>
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[J:.+]], %{{.+}} : index
// CHECK: %[[N:.+]] = arith.select %[[NEG]], %{{.+}}, %[[J]] : index
// CHECK: linalg.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel"]} outs(%{{.+}} : tensor<3xf32>)
// CHECK: %[[K:.+]] = linalg.index 0 : index
// CHECK: tensor.extract %[[X]][%[[N]], %[[K]]] : tensor<5x3xf32>
func.func @gather_scalar_index(%x: tensor<5x3xf32>, %i: tensor<i64>) -> tensor<3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<i64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// GatherElements: out[i, j] = data[i, norm(indices[i, j])].
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.+]]: tensor<3x3xf32>, %[[I:.+]]: tensor<2x3xi32>)
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<i1>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[R:.+]] = linalg.index 0
// CHECK: tensor.extract %[[X]][%[[R]], %{{.+}}] : tensor<3x3xf32>
func.func @gather_elements(%x: tensor<3x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = "onnx.GatherElements"(%x, %i) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// GatherND with batch_dims = 1: out[b, j] = data[b, indices[b, 0], j].
// CHECK-LABEL: func.func @gathernd_batch
// CHECK-SAME: (%[[X:.+]]: tensor<2x2x2xi32>, %[[I:.+]]: tensor<2x1xi64>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2xi32>)
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: tensor.extract %[[I]][%[[B]], %{{.+}}] : tensor<2x1xi64>
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[N]], %[[J]]] : tensor<2x2x2xi32>
func.func @gathernd_batch(%x: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %0 = "onnx.GatherND"(%x, %i) {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Gather: the index operand goes through the generic; negative indices wrap.
// CHECK-DAG: #[[IDX:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.+}}]
// CHECK: arith.index_cast %{{.+}} : i64 to index
// CHECK: arith.cmpi slt
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : tensor<2x5x3xf32>
func.func @gather(%x: tensor<2x5x3xf32>, %i: tensor<4xi64>) -> tensor<2x4x3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<4xi64>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

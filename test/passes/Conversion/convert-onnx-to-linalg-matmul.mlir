// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// 2-D MatMul: a zero-filled linalg.matmul.
// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.+]]: tensor<?x8xf32>, %[[B:.+]]: tensor<8x16xf32>)
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x8xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x16xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x16xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8x16xf32>) outs(%[[Z]] : tensor<?x16xf32>)
func.func @matmul_2d(%a: tensor<?x8xf32, #onnx.dims<["M"]>>, %b: tensor<8x16xf32>) -> tensor<?x16xf32, #onnx.dims<["M"]>> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x8xf32, #onnx.dims<["M"]>>, tensor<8x16xf32>) -> tensor<?x16xf32, #onnx.dims<["M"]>>
  return %0 : tensor<?x16xf32, #onnx.dims<["M"]>>
}

// -----

// Equal static batches: linalg.batch_matmul.
// CHECK-LABEL: func.func @matmul_batch
// CHECK: linalg.batch_matmul
func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A broadcast batch dim: a generic contraction indexing it by a constant.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[Y:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_bcast
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul_bcast(%a: tensor<1x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<1x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  return %0 : tensor<4x2x5xf32>
}

// -----

// A 1-D B is a column vector whose unit dim is dropped.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[Y:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_vec
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[Y]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @matmul_vec(%a: tensor<2x3x4xi32>, %b: tensor<4xi32>) -> tensor<2x3xi32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3x4xi32>, tensor<4xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// Gemm with transB, alpha and a broadcast C: a transposed contraction, then
// alpha * Y + beta * C elementwise.
// CHECK-DAG: #[[TB:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @gemm_transb
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[TB]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @gemm_transb(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = "onnx.Gemm"(%a, %b, %c) {alpha = 2.0 : f32, transB = 1 : i64} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// MatMulInteger: operands widened to i32 (unsigned: extui) minus the zero
// points, accumulated in i32.
// CHECK-LABEL: func.func @matmul_integer
// CHECK: linalg.generic
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %azp: tensor<ui8>) -> tensor<4x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.MatMulInteger"(%a, %b, %azp, %n) : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// A zero point of run-time length is 1 or one per row: checked, then
// broadcast to the rows (indexing it per row unchecked would read past a
// one-element buffer).
// CHECK-LABEL: func.func @matmulinteger_runtime_zero_point
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xi8>, %[[B:.+]]: tensor<3x2xi8>, %[[ZP:.+]]: tensor<?xi8>)
// CHECK: %[[LEN:.+]] = tensor.dim %[[ZP]]
// CHECK: %[[ONE:.+]] = arith.cmpi eq, %[[LEN]]
// CHECK: scf.if
// CHECK: call @onnxc_rt_fail
// CHECK: %[[FULL:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?xi8>)
// CHECK: arith.select %[[ONE]]
// CHECK: tensor.extract %[[ZP]]
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]], %[[FULL]]
func.func @matmulinteger_runtime_zero_point(%a: tensor<4x3xui8>, %b: tensor<3x2xui8>, %zp: tensor<?xui8>) -> tensor<4x2xi32> {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.MatMulInteger"(%a, %b, %zp, %none) : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<?xui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// Batch dims that may broadcast only at run time (no name ties them to the
// result's): the inner dims checked equal, the result's batch size is the
// checked broadcast of A's and B's (select on a 1), and each operand is
// broadcast to it by a gather (index 0 where its dim is 1) so that the
// contraction keeps identity maps for the batch dim.
// CHECK-DAG: llvm.mlir.global internal constant @[[INNER:.+]]("MatMul: the inner dims of A and B differ\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[BCAST:.+]]("MatMul: the batch dims of A and B do not broadcast\00")
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[Y:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_runtime_broadcast
// CHECK-SAME: (%[[AA:.+]]: tensor<?x?x?xf32>, %[[BB:.+]]: tensor<?x?x?xf32>)
// CHECK: %[[KA:.+]] = tensor.dim %[[AA]], %c2
// CHECK: %[[KB:.+]] = tensor.dim %[[BB]], %c1
// CHECK: arith.cmpi eq, %[[KA]], %[[KB]]
// CHECK: llvm.mlir.addressof @[[INNER]]
// CHECK: %[[NA:.+]] = tensor.dim %[[AA]], %c0
// CHECK: %[[NB:.+]] = tensor.dim %[[BB]], %c0
// CHECK: %[[AONE:.+]] = arith.cmpi eq, %[[NA]], %{{.+}}
// CHECK: %[[N:.+]] = arith.select %[[AONE]], %[[NB]], %[[NA]]
// CHECK: llvm.mlir.addressof @[[BCAST]]
// CHECK: %[[ISONE:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}}
// CHECK: %[[EA:.+]] = tensor.empty(%[[N]], %{{.+}}, %{{.+}})
// CHECK: %[[A2:.+]] = linalg.generic {{.*}} outs(%[[EA]] : tensor<?x?x?xf32>)
// CHECK: arith.select %[[ISONE]], %{{.+}}, %{{.+}}
// CHECK: tensor.extract %[[AA]]
// CHECK: %[[B2:.+]] = linalg.generic
// CHECK: tensor.extract %[[BB]]
// CHECK: tensor.empty(%[[N]], %{{.+}}, %{{.+}})
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[Y]]], {{.*}} ins(%[[A2]], %[[B2]] :
func.func @matmul_runtime_broadcast(%a: tensor<?x?x?xf32, #onnx.dims<["a0", "m", "ka"]>>, %b: tensor<?x?x?xf32, #onnx.dims<["b0", "kb", "n"]>>) -> tensor<?x?x?xf32, #onnx.dims<["", "m", "n"]>> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x?x?xf32, #onnx.dims<["a0", "m", "ka"]>>, tensor<?x?x?xf32, #onnx.dims<["b0", "kb", "n"]>>) -> tensor<?x?x?xf32, #onnx.dims<["", "m", "n"]>>
  return %0 : tensor<?x?x?xf32, #onnx.dims<["", "m", "n"]>>
}

// -----

// A dynamic batch dim against a static one: the result's is the static
// size, only the dynamic operand is checked (1 or 4) and broadcast, and
// inner dims with the same name need no check.
// CHECK-LABEL: func.func @matmul_runtime_broadcast_static
// CHECK-SAME: (%[[AA:.+]]: tensor<?x2x3xf32>, %[[BB:.+]]: tensor<4x3x5xf32>)
// CHECK-NOT: the inner dims
// CHECK: %[[NA:.+]] = tensor.dim %[[AA]], %c0
// CHECK: arith.cmpi eq, %[[NA]], %c4
// CHECK: call @onnxc_rt_fail
// CHECK: %[[A2:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x2x3xf32>)
// CHECK: tensor.extract %[[AA]]
// CHECK: linalg.generic {{.*}} ins(%[[A2]], %[[BB]] : tensor<4x2x3xf32>, tensor<4x3x5xf32>)
func.func @matmul_runtime_broadcast_static(%a: tensor<?x2x3xf32, #onnx.dims<["n"]>>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x2x3xf32, #onnx.dims<["n"]>>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  return %0 : tensor<4x2x5xf32>
}

// -----

// 2-D MatMul with inner dims of different names: checked equal at run time
// before the linalg.matmul.
// CHECK-DAG: llvm.mlir.global internal constant @[[INNER:.+]]("MatMul: the inner dims of A and B differ\00")
// CHECK-LABEL: func.func @matmul_inner_check
// CHECK-SAME: (%[[AA:.+]]: tensor<3x?xf32>, %[[BB:.+]]: tensor<?x4xf32>)
// CHECK: %[[KA:.+]] = tensor.dim %[[AA]], %c1
// CHECK: %[[KB:.+]] = tensor.dim %[[BB]], %c0
// CHECK: arith.cmpi eq, %[[KA]], %[[KB]]
// CHECK: llvm.mlir.addressof @[[INNER]]
// CHECK: linalg.matmul ins(%[[AA]], %[[BB]]
func.func @matmul_inner_check(%a: tensor<3x?xf32, #onnx.dims<["k1"]>>, %b: tensor<?x4xf32, #onnx.dims<["k2"]>>) -> tensor<3x4xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<3x?xf32, #onnx.dims<["k1"]>>, tensor<?x4xf32, #onnx.dims<["k2"]>>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Inner dims with the same name are equal by construction: no check.
// CHECK-LABEL: func.func @matmul_inner_same_name
// CHECK-NOT: onnxc_rt_fail
// CHECK: linalg.matmul
func.func @matmul_inner_same_name(%a: tensor<3x?xf32, #onnx.dims<["k"]>>, %b: tensor<?x4xf32, #onnx.dims<["k"]>>) -> tensor<3x4xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<3x?xf32, #onnx.dims<["k"]>>, tensor<?x4xf32, #onnx.dims<["k"]>>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// QLinearMatMul: an i32 contraction of the zero-point-shifted operands,
// then requantization in f64.
// CHECK-LABEL: func.func @qlinearmatmul
// CHECK: %[[ACC:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} {{.+}} outs(%{{.+}} : tensor<2x3xi32>)
// CHECK: arith.subi
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: linalg.generic {{.+}} ins(%[[ACC]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3xi8>)
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK: math.roundeven %{{.+}} : f64
// CHECK: arith.fptoui %{{.+}} : f64 to i8
func.func @qlinearmatmul(%a: tensor<2x4xui8>, %as: tensor<1xf32>, %az: tensor<1xui8>, %b: tensor<4x3xui8>, %bs: tensor<1xf32>, %bz: tensor<1xui8>, %ys: tensor<1xf32>, %yz: tensor<1xui8>) -> tensor<2x3xui8> {
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>, tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

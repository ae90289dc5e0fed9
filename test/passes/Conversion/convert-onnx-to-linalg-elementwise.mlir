// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Elementwise.cpp: the broadcasting linalg.generic every elementwise op
// lowers to (shown with math ops; their bodies: -mathunary.mlir,
// -mathbinary.mlir, -logical.mlir, -tensorelementwise.mlir).

// Unary float op: one linalg.generic with identity maps; the #onnx.dims
// encoding is dropped from the signature.
// CHECK-LABEL: func.func @relu_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: arith.maximumf
func.func @relu_dynamic(%x: tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>> {
  %0 = "onnx.Relu"(%x) : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>>
  return %0 : tensor<?x4xf32, #onnx.dims<["N"]>>
}

// -----

// Static broadcasting: unit dims use constant-0 map results.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[ID]]]
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x1x3xf32>, %b: tensor<4x1xf32>) -> tensor<2x4x3xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// Dims with the same symbolic name are equal: identity maps, no check.
// CHECK-LABEL: func.func @mul_same_name
// CHECK-NOT: onnxc_rt_fail
// CHECK: linalg.generic
// CHECK: arith.mulf
func.func @mul_same_name(%a: tensor<?xf32, #onnx.dims<["N"]>>, %b: tensor<?xf32, #onnx.dims<["N"]>>) -> tensor<?xf32, #onnx.dims<["N"]>> {
  %0 = "onnx.Mul"(%a, %b) : (tensor<?xf32, #onnx.dims<["N"]>>, tensor<?xf32, #onnx.dims<["N"]>>) -> tensor<?xf32, #onnx.dims<["N"]>>
  return %0 : tensor<?xf32, #onnx.dims<["N"]>>
}

// -----

// Unrelated dynamic dims: the result dim is (a == 1 ? b : a), checked at run
// time through onnxc_rt_fail; the operands are read with tensor.extract at
// a selected index.
// CHECK-DAG: func.func private @onnxc_rt_fail(i32, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("Sub: operands do not broadcast
// CHECK-LABEL: func.func @sub_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: %[[DA:.+]] = tensor.dim %[[A]]
// CHECK: %[[DB:.+]] = tensor.dim %[[B]]
// CHECK: %[[AONE:.+]] = arith.cmpi eq, %[[DA]], %[[C1:.+]] : index
// CHECK: %[[SIZE:.+]] = arith.select %[[AONE]], %[[DB]], %[[DA]] : index
// CHECK: scf.if
// CHECK: %[[PTR:.+]] = llvm.mlir.addressof @[[MSG]]
// CHECK: func.call @onnxc_rt_fail(%{{.+}}, %[[PTR]]) : (i32, !llvm.ptr) -> ()
// CHECK: tensor.empty(%[[SIZE]])
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: tensor.extract %[[A]]
// CHECK: arith.subf
func.func @sub_dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "onnx.Sub"(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

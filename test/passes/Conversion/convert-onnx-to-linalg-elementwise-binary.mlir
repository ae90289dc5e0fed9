// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

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

// -----

// Unsigned types become signless; the arithmetic stays unsigned.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>)
// CHECK: arith.divui
// CHECK: arith.cmpi ult
// CHECK: arith.maxui
// CHECK: arith.uitofp {{.*}} : i8 to f32
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xf32>) {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = "onnx.Less"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = "onnx.Max"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = "onnx.Cast"(%a) {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xf32>
}

// -----

// Signed integer ops: Div truncates (divsi), Mod follows Python's sign rule.
// CHECK-LABEL: func.func @signed_int
// CHECK: arith.divsi
// CHECK: %[[R:.+]] = arith.remsi
// CHECK: arith.xori
// CHECK: %[[FIX:.+]] = arith.addi %[[R]]
// CHECK: arith.select %{{.+}}, %[[FIX]], %[[R]] : i32
func.func @signed_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "onnx.Mod"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// Clip with an absent min: only the max bound applies; onnx.NoValue is gone.
// CHECK-LABEL: func.func @clip_max_only
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>, %[[HI:.+]]: tensor<f32>)
// CHECK-NOT: onnx.NoValue
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[HI]] : tensor<3xf32>, tensor<f32>)
// CHECK-NOT: arith.maximumf
// CHECK: arith.minimumf
func.func @clip_max_only(%x: tensor<3xf32>, %hi: tensor<f32>) -> tensor<3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Clip"(%x, %n, %hi) : (tensor<3xf32>, none, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Pow(float, int): the exponent is converted to the base type.
// CHECK-LABEL: func.func @pow_mixed
// CHECK: arith.sitofp {{.*}} : i64 to f32
// CHECK: math.powf
func.func @pow_mixed(%x: tensor<3xf32>, %y: tensor<3xi64>) -> tensor<3xf32> {
  %0 = "onnx.Pow"(%x, %y) : (tensor<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

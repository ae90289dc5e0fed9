// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// ConstantOfShape: a linalg.fill sized by the shape operand.
// CHECK-LABEL: func.func @constant_of_shape
// CHECK-SAME: (%[[S:.+]]: tensor<2xi64>)
// CHECK: %[[D0:.+]] = tensor.extract %[[S]][%{{.+}}] : tensor<2xi64>
// CHECK: %[[I0:.+]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[E:.+]] = tensor.empty(%[[I0]]) : tensor<?x4xi32>
// CHECK: %[[V:.+]] = arith.constant 7 : i32
// CHECK: linalg.fill ins(%[[V]] : i32) outs(%[[E]] : tensor<?x4xi32>)
func.func @constant_of_shape(%s: tensor<2xi64>) -> tensor<?x4xi32> {
  %0 = "onnx.ConstantOfShape"(%s) {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}

// -----

// EyeLike: ones where j - i == k, in the dtype's element type.
// CHECK-LABEL: func.func @eyelike
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<3x4xf64>)
// CHECK: arith.subi
// CHECK: arith.cmpi eq
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f64
func.func @eyelike(%x: tensor<3x4xi32>) -> tensor<3x4xf64> {
  %0 = "onnx.EyeLike"(%x) {dtype = 11 : i64, k = 1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// Range (integers): the count max(ceil((limit - start) / delta), 0) in
// unsigned 64-bit arithmetic, checked (a delta of 0, more than 2^63 - 1
// elements), sizes the result; element i is start + i * delta.
// CHECK-DAG: llvm.mlir.global internal constant @[[ZERO:__onnxc_msg[0-9]+]]("Range: delta is 0\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[BIG:__onnxc_msg[0-9]+]]("Range: more than 2^63 - 1 elements\00")
// CHECK-LABEL: func.func @range_int
// CHECK-SAME: (%[[S:.+]]: tensor<i64>, %[[L:.+]]: tensor<i64>, %[[D:.+]]: tensor<i64>)
// CHECK-DAG: %[[START:.+]] = tensor.extract %[[S]][] : tensor<i64>
// CHECK-DAG: %[[DELTA:.+]] = tensor.extract %[[D]][] : tensor<i64>
// CHECK: arith.cmpi ne, %[[DELTA]], %{{.+}} : i64
// CHECK: llvm.mlir.addressof @[[ZERO]]
// CHECK: arith.divui
// CHECK: llvm.mlir.addressof @[[BIG]]
// CHECK: %[[N:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: linalg.generic {{.+}} outs(%[[E]] : tensor<?xi64>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[IV:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[M:.+]] = arith.muli %[[IV]], %[[DELTA]] : i64
// CHECK: %[[R:.+]] = arith.addi %[[START]], %[[M]] : i64
// CHECK: linalg.yield %[[R]] : i64
func.func @range_int(%s: tensor<i64>, %l: tensor<i64>, %d: tensor<i64>) -> tensor<?xi64> {
  %0 = "onnx.Range"(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// Weights: onnx.Constant becomes arith.constant of the signless type.
// CHECK-LABEL: func.func @constants
// CHECK: arith.constant dense<[1, 2, -1]> : tensor<3xi8>
// CHECK: arith.constant dense_resource<blob> : tensor<2xf32>
func.func @constants() -> (tensor<3xui8>, tensor<2xf32>) {
  %0 = "onnx.Constant"() {value = dense<[1, 2, 255]> : tensor<3xui8>} : () -> tensor<3xui8>
  %1 = "onnx.Constant"() {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0, %1 : tensor<3xui8>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

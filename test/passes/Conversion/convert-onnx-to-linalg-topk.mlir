// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// TopK.cpp.

// TopK: per row, K scans for the best element ordered after the previous
// pick (value, then lower index).
// CHECK-DAG: llvm.mlir.global internal constant @{{__onnxc_msg[0-9]+}}("TopK: K is out of range
// CHECK-LABEL: func.func @topk
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xf32>, %[[K:.+]]: tensor<1xi64>)
// CHECK: %[[KV:.+]] = tensor.extract %[[K]]
// CHECK: %[[KI:.+]] = arith.index_cast %[[KV]] : i64 to index
// CHECK: scf.for {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>)
// CHECK: scf.for {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>)
// CHECK: scf.for {{.+}} to %[[KI]] {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>, f32, index)
// CHECK: scf.for {{.+}} -> (f32, index)
// CHECK-DAG: arith.cmpf ogt
// CHECK-DAG: arith.cmpf oeq
func.func @topk(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>) {
  %v, %i = "onnx.TopK"(%x, %k) {axis = 1 : i64, largest = 1 : i64, sorted = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  return %v, %i : tensor<3x3xf32>, tensor<3x3xi64>
}

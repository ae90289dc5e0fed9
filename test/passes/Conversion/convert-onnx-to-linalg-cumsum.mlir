// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// CumSum.cpp.

// CumSum with a run-time axis, exclusive and reverse: [outer, len, inner]
// loops; the sum before the element is stored.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf64>, %[[A:.+]]: tensor<i32>)
// CHECK: tensor.extract %[[A]][] : tensor<i32>
// CHECK: func.call @onnxc_rt_fail
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for {{.+}} iter_args(%[[T:.+]] = %{{.+}}, %[[ACC:.+]] = %{{.+}}) -> (tensor<2x3xf64>, f64)
// CHECK: %[[V:.+]] = tensor.extract %[[X]]
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[V]] : f64
// CHECK: %[[INS:.+]] = tensor.insert %[[ACC]] into %[[T]]
// CHECK: scf.yield %[[INS]], %[[SUM]]
func.func @cumsum(%x: tensor<2x3xf64>, %a: tensor<i32>) -> tensor<2x3xf64> {
  %0 = "onnx.CumSum"(%x, %a) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x3xf64>, tensor<i32>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

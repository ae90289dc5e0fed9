// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Pad (reflect) with run-time pads: the pads are extracted, the result is
// one gather generic with the mirrored source index.
// CHECK-LABEL: func.func @pad_reflect
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xi32>, %[[P:.+]]: tensor<4xi64>)
// CHECK: tensor.extract %[[P]]
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<5x7xi32>)
// CHECK: arith.remsi
// CHECK: tensor.extract %[[X]]
func.func @pad_reflect(%x: tensor<3x4xi32>, %p: tensor<4xi64>) -> tensor<5x7xi32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Pad"(%x, %p, %n, %n) {mode = "reflect"} : (tensor<3x4xi32>, tensor<4xi64>, none, none) -> tensor<5x7xi32>
  return %0 : tensor<5x7xi32>
}

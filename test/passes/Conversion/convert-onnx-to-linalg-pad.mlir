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

// -----

// CenterCropPad: one generic over the result reading the input at the
// result index shifted by the crop (5 -> 3 rows: +1) or the pad (4 -> 6
// columns: -1); reads outside the input give 0.
// CHECK-LABEL: func.func @centercroppad
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<3x6xf32>)
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.if
// CHECK: tensor.extract %{{.+}} : tensor<5x4xf32>
// CHECK: } else {
// CHECK: scf.yield %[[Z]]
func.func @centercroppad(%x: tensor<5x4xf32>) -> tensor<3x6xf32> {
  %s = "onnx.Constant"() {value = dense<[3, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "onnx.CenterCropPad"(%x, %s) : (tensor<5x4xf32>, tensor<2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

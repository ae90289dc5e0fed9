// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Logical.cpp.

// Unsigned types become signless; the comparison stays unsigned.
// CHECK-LABEL: func.func @less_unsigned
// CHECK-SAME: (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xi8>) -> tensor<4xi1>
// CHECK: arith.cmpi ult
func.func @less_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  %0 = "onnx.Less"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Not is x xor true; BitShift RIGHT is a logical shift, and a shift by the
// bit width or more gives 0.
// CHECK-LABEL: func.func @not_bitshift
// CHECK: arith.xori %{{.+}}, %{{.+}} : i1
// CHECK: %[[S:.+]] = arith.shrui %[[X:.+]], %[[Y:.+]] : i8
// CHECK: %[[BIG:.+]] = arith.cmpi uge, %[[Y]], %{{.+}} : i8
// CHECK: arith.select %[[BIG]], %{{.+}}, %[[S]] : i8
func.func @not_bitshift(%b: tensor<3xi1>, %x: tensor<3xui8>, %y: tensor<3xui8>) -> (tensor<3xi1>, tensor<3xui8>) {
  %0 = "onnx.Not"(%b) : (tensor<3xi1>) -> tensor<3xi1>
  %1 = "onnx.BitShift"(%x, %y) {direction = "RIGHT"} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0, %1 : tensor<3xi1>, tensor<3xui8>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// MathBinary.cpp.

// Unsigned types become signless; the arithmetic stays unsigned.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>)
// CHECK: arith.divui
// CHECK: arith.maxui
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xui8>) {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = "onnx.Max"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0, %1 : tensor<4xui8>, tensor<4xui8>
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

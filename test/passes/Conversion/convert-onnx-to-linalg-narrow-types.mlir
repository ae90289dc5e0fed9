// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// int4 is one i8 per element: float -> int4 rounds half to even and
// saturates to [-8, 7]; int4 -> float converts the sign-extended i8.
// CHECK-LABEL: func.func @cast_int4
// CHECK-SAME: (%{{.+}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK: math.roundeven %{{.+}} : f32
// CHECK: arith.maximumf %{{.+}}, %cst{{.*}} : f32
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.+}} : f32 to i8
// CHECK: arith.sitofp %{{.+}} : i8 to f32
func.func @cast_int4(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "onnx.Cast"(%x) {to = 22 : i64} : (tensor<3xf32>) -> tensor<3xi4>
  %1 = "onnx.Cast"(%0) {to = 1 : i64} : (tensor<3xi4>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// int32 -> uint4 keeps the low 4 bits (trunci to i8, andi 15).
// CHECK-LABEL: func.func @cast_int_to_uint4
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK: arith.andi %{{.+}}, %c15_i8 : i8
func.func @cast_int_to_uint4(%x: tensor<3xi32>) -> tensor<3xui4> {
  %0 = "onnx.Cast"(%x) {to = 21 : i64} : (tensor<3xi32>) -> tensor<3xui4>
  return %0 : tensor<3xui4>
}

// -----

// A Constant of int4 is an i8 constant of the sign-extended values; Reshape
// moves the i8 elements.
// CHECK-LABEL: func.func @constant_int4
// CHECK-SAME: -> tensor<3xi8>
// CHECK: arith.constant dense<[-8, 7, -1]> : tensor<3xi8>
func.func @constant_int4() -> tensor<3xi4> {
  %0 = "onnx.Constant"() {value = dense<[-8, 7, -1]> : tensor<3xi4>} : () -> tensor<3xi4>
  return %0 : tensor<3xi4>
}

// -----

// A float8 Constant holds its codes: 1.0 is 0x38 in e4m3fn, 0x3C in e5m2.
// CHECK-LABEL: func.func @constant_float8
// CHECK: arith.constant dense<[56, -72]> : tensor<2xi8>
// CHECK: arith.constant dense<[60, -68]> : tensor<2xi8>
func.func @constant_float8() -> (tensor<2xf8E4M3FN>, tensor<2xf8E5M2>) {
  %0 = "onnx.Constant"() {value = dense<[1.0, -1.0]> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN>
  %1 = "onnx.Constant"() {value = dense<[1.0, -1.0]> : tensor<2xf8E5M2>} : () -> tensor<2xf8E5M2>
  return %0, %1 : tensor<2xf8E4M3FN>, tensor<2xf8E5M2>
}

// -----

// float -> float8 is integer work on the f32 bits (no truncf to an f8
// type): the rounding add, the shift, the overflow compare with the largest
// code (0x7E = 126 for e4m3fn), then a trunci to the i8 code.
// CHECK-LABEL: func.func @cast_float8
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.cmpi sgt, %{{.+}}, %c126_i32 : i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK-NOT: arith.truncf
func.func @cast_float8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = "onnx.Cast"(%x) {to = 17 : i64, saturate = 0 : i64} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

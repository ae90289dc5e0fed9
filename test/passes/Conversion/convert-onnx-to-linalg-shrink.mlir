// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Shrink.cpp.

// Shrink on floats: x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
// CHECK-LABEL: func.func @shrink
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.+]]: f32,
// CHECK-DAG: %[[SUB:.+]] = arith.subf %[[X]], %[[BIAS:.+]] : f32
// CHECK-DAG: %[[GT:.+]] = arith.cmpf ogt, %[[X]], %{{.+}} : f32
// CHECK: %[[R:.+]] = arith.select %[[GT]], %[[SUB]], %{{.+}} : f32
// CHECK-DAG: %[[ADD:.+]] = arith.addf %[[X]], %[[BIAS]] : f32
// CHECK-DAG: %[[LT:.+]] = arith.cmpf olt, %[[X]], %{{.+}} : f32
// CHECK: arith.select %[[LT]], %[[ADD]], %[[R]] : f32
func.func @shrink(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "onnx.Shrink"(%x) {bias = 1.5 : f32, lambd = 1.5 : f32} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Shrink on integers compares in f64; the bias is truncated to the type.
// CHECK-LABEL: func.func @shrink_int
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK-DAG: %[[SUB:.+]] = arith.subi
// CHECK-DAG: %[[GT:.+]] = arith.cmpf ogt, %{{.+}} : f64
// CHECK: arith.select %[[GT]], %[[SUB]]
// CHECK: arith.addi
func.func @shrink_int(%x: tensor<5xi32>) -> tensor<5xi32> {
  %0 = "onnx.Shrink"(%x) {bias = 1.0 : f32, lambd = 1.5 : f32} : (tensor<5xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

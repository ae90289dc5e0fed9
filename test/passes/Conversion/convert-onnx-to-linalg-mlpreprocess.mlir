// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// Scaler: one generic, (float(x) - offset[col]) * scale[col], the per-column
// values as constant tables indexed by the column.
// CHECK-LABEL: func.func @scaler
// CHECK-DAG: %[[OFF:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[SC:.+]] = arith.constant dense<[5.000000e-01, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK: linalg.generic
// CHECK: %[[COL:.+]] = linalg.index 1 : index
// CHECK-DAG: tensor.extract %[[SC]][%[[COL]]]
// CHECK-DAG: tensor.extract %[[OFF]][%[[COL]]]
// CHECK: arith.sitofp %{{.+}} : i64 to f32
// CHECK: arith.subf
// CHECK: arith.mulf
func.func @scaler(%x: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = "onnx.ml.Scaler"(%x) {offset = array<f32: 1.0, 2.0, 3.0>, scale = array<f32: 0.5, 1.0, 2.0>} : (tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// LabelEncoder: keys sorted at compile time with their values (7 -> 1.0,
// -2 -> 2.0, 3 -> 3.0 become [-2, 3, 7] -> [2.0, 3.0, 1.0]); per element a
// binary search (scf.while) for the first key not below it, then the
// value where the key matches, else the default.
// CHECK-LABEL: func.func @labelencoder
// CHECK-DAG: %[[KEYS:.+]] = arith.constant dense<[-2, 3, 7]> : tensor<3xi64>
// CHECK-DAG: %[[VALUES:.+]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[DEFAULT:.+]] = arith.constant -1.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: scf.while
// CHECK: tensor.extract %[[KEYS]]
// CHECK: arith.cmpi slt
// CHECK: %[[KEY:.+]] = tensor.extract %[[KEYS]]
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[KEY]]
// CHECK: %[[V:.+]] = tensor.extract %[[VALUES]]
// CHECK: arith.select %[[EQ]], %[[V]], %[[DEFAULT]] : f32
func.func @labelencoder(%x: tensor<4xi64>) -> tensor<4xf32> {
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_int64s = array<i64: 7, -2, 3>, values_floats = array<f32: 1.0, 2.0, 3.0>, default_float = -1.0 : f32} : (tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// LabelEncoder (ai.onnx.ml 4): double keys_tensor with a NaN key, int32
// values_tensor, default_tensor. The NaN key sorts last and is not
// searched: a NaN X takes its value (8) by an unordered compare; the other
// keys ([-1.0, 2.5] -> [9, 7]) are searched in f64; the values are kept as
// i64 and truncated to i32.
// CHECK-LABEL: func.func @labelencoder_tensors
// CHECK-DAG: %[[KEYS:.+]] = arith.constant dense<[-1.000000e+00, 2.500000e+00]> : tensor<2xf64>
// CHECK-DAG: %[[VALUES:.+]] = arith.constant dense<[9, 7, 8]> : tensor<3xi64>
// CHECK-DAG: %[[DEFAULT:.+]] = arith.constant 5 : i32
// CHECK: linalg.generic
// CHECK: tensor.extract %[[VALUES]]
// CHECK: %[[NANV:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[ISNAN:.+]] = arith.cmpf uno
// CHECK: arith.select %[[ISNAN]], %[[NANV]], %[[DEFAULT]] : i32
// CHECK: scf.while
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf oeq
// CHECK: -> tensor<4xi32>
func.func @labelencoder_tensors(%x: tensor<4xf64>) -> tensor<4xi32> {
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_tensor = dense<[2.5, 0x7FF8000000000000, -1.0]> : tensor<3xf64>, values_tensor = dense<[7, 8, 9]> : tensor<3xi32>, default_tensor = dense<5> : tensor<1xi32>} : (tensor<4xf64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Normalizer L2: per row, the sum of squares, then sign(x) sqrt(x^2 / sum)
// unless the sum is 0.
// CHECK-LABEL: func.func @normalizer_l2
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.cmpf une
// CHECK: scf.for
// CHECK: math.sqrt
// CHECK: arith.negf
// CHECK: tensor.insert
func.func @normalizer_l2(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "onnx.ml.Normalizer"(%x) {norm = "L2"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

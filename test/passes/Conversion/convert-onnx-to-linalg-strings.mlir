// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// Cast to string from a float type: the runtime formats the value as the
// ONNX reference does (the shortest digits that round-trip in the source
// type), so it is passed widened to f64 with the source type's kind
// (runtime_abi.h ONNXC_RT_FLOAT_*: f64 0, f32 1, f16 2, bf16 3).

// CHECK-LABEL: func.func @cast_f32
// CHECK: %[[D:.+]] = arith.extf %{{.+}} : f32 to f64
// CHECK: %[[K:.+]] = arith.constant 1 : i32
// CHECK: call @onnxc_rt_str_from_float(%[[D]], %[[K]], %{{.+}}) : (f64, i32, !llvm.ptr) -> i64
func.func @cast_f32(%x: tensor<3xf32>) -> tensor<3x!onnx.string> {
  %0 = "onnx.Cast"(%x) {to = 8 : i64} : (tensor<3xf32>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// CHECK-LABEL: func.func @cast_f64
// CHECK: %[[K:.+]] = arith.constant 0 : i32
// CHECK: call @onnxc_rt_str_from_float(%{{.+}}, %[[K]], %{{.+}})
func.func @cast_f64(%x: tensor<3xf64>) -> tensor<3x!onnx.string> {
  %0 = "onnx.Cast"(%x) {to = 8 : i64} : (tensor<3xf64>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// CHECK-LABEL: func.func @cast_f16
// CHECK: arith.extf %{{.+}} : f16 to f64
// CHECK: %[[K:.+]] = arith.constant 2 : i32
// CHECK: call @onnxc_rt_str_from_float(%{{.+}}, %[[K]], %{{.+}})
func.func @cast_f16(%x: tensor<3xf16>) -> tensor<3x!onnx.string> {
  %0 = "onnx.Cast"(%x) {to = 8 : i64} : (tensor<3xf16>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// CHECK-LABEL: func.func @castlike_bf16
// CHECK: arith.extf %{{.+}} : bf16 to f64
// CHECK: %[[K:.+]] = arith.constant 3 : i32
// CHECK: call @onnxc_rt_str_from_float(%{{.+}}, %[[K]], %{{.+}})
func.func @castlike_bf16(%x: tensor<3xbf16>, %l: tensor<1x!onnx.string>) -> tensor<3x!onnx.string> {
  %0 = "onnx.CastLike"(%x, %l) : (tensor<3xbf16>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// float8 (an i8 in the lowered code) is decoded first and formatted as the
// float32 of its value.
// CHECK-LABEL: func.func @cast_f8
// CHECK: arith.extf %{{.+}} : f32 to f64
// CHECK: %[[K:.+]] = arith.constant 1 : i32
// CHECK: call @onnxc_rt_str_from_float(%{{.+}}, %[[K]], %{{.+}})
func.func @cast_f8(%x: tensor<3xf8E4M3FN>) -> tensor<3x!onnx.string> {
  %0 = "onnx.Cast"(%x) {to = 8 : i64} : (tensor<3xf8E4M3FN>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// Cast from string to float8 (an i8 code): strtod's double, to float, then
// encoded as from float with the node's `saturate` (0 here: e5m2 overflows
// to the code of Inf, 124, not the largest finite one, 123).
// CHECK-LABEL: func.func @cast_string_f8_sat0
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: i8):
// CHECK: %[[D:.+]] = func.call @onnxc_rt_str_to_f64(%[[IN]], %{{.+}}) : (i64, !llvm.ptr) -> f64
// CHECK: arith.truncf %[[D]] : f64 to f32
// CHECK: %[[INF:.+]] = arith.constant 124 : i32
// CHECK: arith.select %{{.+}}, %[[INF]], %{{.+}} : i32
// CHECK: %[[C:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: linalg.yield %[[C]] : i8
func.func @cast_string_f8_sat0(%x: tensor<3x!onnx.string>) -> tensor<3xf8E5M2> {
  %0 = "onnx.Cast"(%x) {to = 19 : i64, saturate = 0 : i64} : (tensor<3x!onnx.string>) -> tensor<3xf8E5M2>
  return %0 : tensor<3xf8E5M2>
}

// -----

// CastLike from string to int4 (an i8 holding the value): strtoll, then the
// low 4 bits sign-extended (as Cast from int64).
// CHECK-LABEL: func.func @castlike_string_i4
// CHECK: %[[R:.+]] = func.call @onnxc_rt_str_to_i64(%{{.+}}, %{{.+}}) : (i64, !llvm.ptr) -> i64
// CHECK: %[[T:.+]] = arith.trunci %[[R]] : i64 to i8
// CHECK: %[[S:.+]] = arith.shli %[[T]], %[[FOUR:.+]] : i8
// CHECK: %[[V:.+]] = arith.shrsi %[[S]], %[[FOUR]] : i8
// CHECK: linalg.yield %[[V]] : i8
func.func @castlike_string_i4(%x: tensor<3x!onnx.string>, %l: tensor<1xi4>) -> tensor<3xi4> {
  %0 = "onnx.CastLike"(%x, %l) : (tensor<3x!onnx.string>, tensor<1xi4>) -> tensor<3xi4>
  return %0 : tensor<3xi4>
}

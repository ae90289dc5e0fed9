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

// RUN: %onnxc-opt --onnx-promote-f16 --split-input-file %s | FileCheck %s

// A chain of f16 ops computes in f32: the input is cast once, the constant
// weight is converted at compile time (1.5, -2, 65504 and the subnormal
// 2^-24 are exact in f32), the intermediate stays f32 and only the
// function's result is cast back to f16.
// CHECK-LABEL: func.func @chain
// CHECK-DAG:  %[[X:.+]] = "onnx.Cast"(%arg0) <{{{.*}}to = 1 : i64}> : (tensor<2x2xf16>) -> tensor<2x2xf32>
// CHECK-DAG:  %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[}}[1.500000e+00, -2.000000e+00], [6.550400e+04, 5.96046448E-8]]> : tensor<2x2xf32>}>
// CHECK:      %[[M:.+]] = "onnx.MatMul"(%[[X]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT:  "onnx.Cast"(%[[M]])
// CHECK:      %[[R:.+]] = "onnx.Relu"(%[[M]]) : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:      %[[Y:.+]] = "onnx.Cast"(%[[R]]) <{{{.*}}to = 10 : i64}> : (tensor<2x2xf32>) -> tensor<2x2xf16>
// CHECK:      return %[[Y]]
func.func @chain(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  %w = "onnx.Constant"() <{value = dense<[[1.5, -2.0], [65504.0, 5.96046448E-8]]> : tensor<2x2xf16>}> : () -> tensor<2x2xf16>
  %m = "onnx.MatMul"(%x, %w) : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  %r = "onnx.Relu"(%m) : (tensor<2x2xf16>) -> tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}

// -----

// A model with f32 inputs and outputs around an f16 body, as converters
// write it (keep_io_types): the model's own Cast to f16 stays (the input is
// rounded to f16 as the model says), the Cast back to f32 reads the f32
// result of the body directly. Dim names are kept.
// CHECK-LABEL: func.func @keep_io_types
// CHECK:      %[[H:.+]] = "onnx.Cast"(%arg0) <{{{.*}}to = 10 : i64}> : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf16, #onnx.dims<["N"]>>
// CHECK:      %[[F:.+]] = "onnx.Cast"(%[[H]]) <{{{.*}}to = 1 : i64}> : (tensor<?x4xf16, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>>
// CHECK:      %[[S:.+]] = "onnx.Sigmoid"(%[[F]]) : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>>
// CHECK-NEXT: return %[[S]]
func.func @keep_io_types(%x: tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>> {
  %h = "onnx.Cast"(%x) <{to = 10 : i64}> : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf16, #onnx.dims<["N"]>>
  %s = "onnx.Sigmoid"(%h) : (tensor<?x4xf16, #onnx.dims<["N"]>>) -> tensor<?x4xf16, #onnx.dims<["N"]>>
  %y = "onnx.Cast"(%s) <{to = 1 : i64}> : (tensor<?x4xf16, #onnx.dims<["N"]>>) -> tensor<?x4xf32, #onnx.dims<["N"]>>
  return %y : tensor<?x4xf32, #onnx.dims<["N"]>>
}

// -----

// Kept in f16: EyeLike (its element type is its own business) and Shape.
// A value both kept and promoted ops read is cast once; a promoted op's
// result that a kept op reads is cast back for it.
// CHECK-LABEL: func.func @kept
// CHECK:      %[[E:.+]] = "onnx.EyeLike"(%arg0) {{.*}}: (tensor<3x3xf16>) -> tensor<3x3xf16>
// CHECK:      %[[EF:.+]] = "onnx.Cast"(%[[E]]) <{{{.*}}to = 1 : i64}>
// CHECK:      %[[N:.+]] = "onnx.Neg"(%[[EF]]) : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK:      %[[NH:.+]] = "onnx.Cast"(%[[N]]) <{{{.*}}to = 10 : i64}> : (tensor<3x3xf32>) -> tensor<3x3xf16>
// CHECK:      %[[S:.+]] = "onnx.Shape"(%[[NH]])
// CHECK:      %[[A:.+]] = "onnx.Abs"(%[[EF]]) : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK:      "onnx.Cast"(%[[A]]) <{{{.*}}to = 10 : i64}>
func.func @kept(%a: tensor<3x3xf16>) -> (tensor<2xi64>, tensor<3x3xf16>) {
  %e = "onnx.EyeLike"(%a) : (tensor<3x3xf16>) -> tensor<3x3xf16>
  %n = "onnx.Neg"(%e) : (tensor<3x3xf16>) -> tensor<3x3xf16>
  %s = "onnx.Shape"(%n) <{start = 0 : i64}> : (tensor<3x3xf16>) -> tensor<2xi64>
  %m = "onnx.Abs"(%e) : (tensor<3x3xf16>) -> tensor<3x3xf16>
  return %s, %m : tensor<2xi64>, tensor<3x3xf16>
}

// -----

// An If keeps its f16 results; the ops in its branches are promoted one by
// one, and a branch reads the f32 twin of an outer value.
// CHECK-LABEL: func.func @if_body
// CHECK:      %[[T:.+]] = "onnx.Tanh"(%{{.+}}) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:      "onnx.If"
// CHECK:        %[[E:.+]] = "onnx.Exp"(%[[T]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:        %[[EH:.+]] = "onnx.Cast"(%[[E]]) <{{{.*}}to = 10 : i64}>
// CHECK:        onnx.Yield %[[EH]] : tensor<3xf16>
// CHECK:      }) : (tensor<i1>) -> tensor<3xf16>
func.func @if_body(%c: tensor<i1>, %x: tensor<3xf16>) -> tensor<3xf16> {
  %t = "onnx.Tanh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %y = "onnx.If"(%c) ({
    %e = "onnx.Exp"(%t) : (tensor<3xf16>) -> tensor<3xf16>
    onnx.Yield %e : tensor<3xf16>
  }, {
    onnx.Yield %t : tensor<3xf16>
  }) : (tensor<i1>) -> tensor<3xf16>
  return %y : tensor<3xf16>
}

// RUN: %onnxc-opt --mlir-very-unsafe-disable-verifier-on-parsing --onnx-shape-inference --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Results start as !onnx.unknown (as the importer creates them) or less
// refined than their operands allow: the verifier cannot check the input, so
// parsing does not verify it (the pass's output is verified).

// CHECK-LABEL: func.func @broadcast_named
// CHECK-SAME: -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Add"{{.*}} -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Mul"{{.*}} -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
func.func @broadcast_named(%a: tensor<?x1x3xf32, #onnx.dims<["N"]>>, %b: tensor<4x1xf32>) -> !onnx.unknown {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x1x3xf32, #onnx.dims<["N"]>>, tensor<4x1xf32>) -> !onnx.unknown
  %1 = "onnx.Mul"(%0, %a) : (!onnx.unknown, tensor<?x1x3xf32, #onnx.dims<["N"]>>) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// -----

// CHECK-LABEL: func.func @conv_pool
// CHECK: "onnx.Conv"{{.*}} -> tensor<1x16x32x32xf32>
// CHECK: "onnx.MaxPool"{{.*}} -> (tensor<1x16x16x16xf32>, none)
func.func @conv_pool(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<*xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> !onnx.unknown
  %1:2 = "onnx.MaxPool"(%0) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!onnx.unknown) -> (!onnx.unknown, none)
  return %1#0 : !onnx.unknown
}

// -----

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape: static.
// CHECK-LABEL: func.func @reshape_static_chain
// CHECK: "onnx.Shape"{{.*}} -> tensor<3xi64>
// CHECK: "onnx.Gather"{{.*}} -> tensor<i64>
// CHECK: "onnx.Unsqueeze"{{.*}} -> tensor<1xi64>
// CHECK: "onnx.Concat"{{.*}} -> tensor<2xi64>
// CHECK: "onnx.Reshape"{{.*}} -> tensor<2x12xf32>
func.func @reshape_static_chain(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> !onnx.unknown
  %i = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> !onnx.unknown
  %g = "onnx.Gather"(%s, %i) {axis = 0 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> !onnx.unknown
  %u = "onnx.Unsqueeze"(%g, %ax) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %m = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> !onnx.unknown
  %c = "onnx.Concat"(%u, %m) {axis = 0 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %r = "onnx.Reshape"(%x, %c) : (tensor<2x3x4xf32>, !onnx.unknown) -> !onnx.unknown
  return %r : !onnx.unknown
}

// -----

// The same chain on a symbolic batch keeps "N"; Shape -> Slice and
// ConstantOfShape(Shape(x)) too.
// CHECK-LABEL: func.func @symbolic_chain
// CHECK: "onnx.Reshape"{{.*}} -> tensor<?x12xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Slice"{{.*}} -> tensor<2xi64>
// CHECK: "onnx.Expand"{{.*}} -> tensor<?x3x4xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.ConstantOfShape"{{.*}} -> tensor<?x3x4xf32, #onnx.dims<["N"]>>
func.func @symbolic_chain(%x: tensor<?x3x4xf32, #onnx.dims<["N"]>>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %s = "onnx.Shape"(%x) : (tensor<?x3x4xf32, #onnx.dims<["N"]>>) -> !onnx.unknown
  %i = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> !onnx.unknown
  %g = "onnx.Gather"(%s, %i) {axis = 0 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> !onnx.unknown
  %u = "onnx.Unsqueeze"(%g, %ax) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %m = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> !onnx.unknown
  %c = "onnx.Concat"(%u, %m) {axis = 0 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %r = "onnx.Reshape"(%x, %c) : (tensor<?x3x4xf32, #onnx.dims<["N"]>>, !onnx.unknown) -> !onnx.unknown
  %st = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> !onnx.unknown
  %en = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> !onnx.unknown
  %sl = "onnx.Slice"(%s, %st, %en, %ax, %st) : (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<1x1x1xf32>} : () -> !onnx.unknown
  %e = "onnx.Expand"(%one, %s) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %z = "onnx.ConstantOfShape"(%s) : (!onnx.unknown) -> !onnx.unknown
  return %r, %e, %z : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// Opset-18 Reduce: axes is a constant input.
// CHECK-LABEL: func.func @reduce_axes_input
// CHECK: "onnx.ReduceMean"{{.*}} -> tensor<2x1x5xf32>
// CHECK: "onnx.ReduceMax"{{.*}} -> tensor<2x5xf32>
// CHECK: "onnx.ReduceL2"{{.*}} -> tensor<1x1x1xf32>
func.func @reduce_axes_input(%x: tensor<2x4x5xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %ax = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> !onnx.unknown
  %0 = "onnx.ReduceMean"(%x, %ax) : (tensor<2x4x5xf32>, !onnx.unknown) -> !onnx.unknown
  %1 = "onnx.ReduceMax"(%x, %ax) {keepdims = 0 : i64} : (tensor<2x4x5xf32>, !onnx.unknown) -> !onnx.unknown
  %none = "onnx.NoValue"() : () -> none
  %2 = "onnx.ReduceL2"(%x, %none) : (tensor<2x4x5xf32>, none) -> !onnx.unknown
  return %0, %1, %2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// Split-18 with num_outputs: chunks of ceil(10 / 3) = 4, the last smaller.
// CHECK-LABEL: func.func @split_uneven
// CHECK: "onnx.Split"{{.*}} -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x2xf32>)
func.func @split_uneven(%x: tensor<10x2xf32>) -> !onnx.unknown {
  %none = "onnx.NoValue"() : () -> none
  %0:3 = "onnx.Split"(%x, %none) {num_outputs = 3 : i64} : (tensor<10x2xf32>, none) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#2 : !onnx.unknown
}

// -----

// CHECK-LABEL: func.func @if_branches
// CHECK: "onnx.If"
// CHECK: "onnx.Relu"{{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Yield {{.*}} : tensor<2x3xf32>
// CHECK: "onnx.Neg"{{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Yield {{.*}} : tensor<2x3xf32>
// CHECK: }) : (tensor<i1>) -> tensor<2x3xf32>
func.func @if_branches(%c: tensor<i1>, %x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = "onnx.If"(%c) ({
    %1 = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> !onnx.unknown
    onnx.Yield %1 : !onnx.unknown
  }, {
    %2 = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> !onnx.unknown
    onnx.Yield %2 : !onnx.unknown
  }) : (tensor<i1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Loop body arguments (iteration number, condition, carried value) take their
// types from the Loop's operands (libonnx drops the shape of carried values:
// it may change across iterations); the scan output gets a leading dim.
// CHECK-LABEL: func.func @loop_body
// CHECK: "onnx.Loop"
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<*xf32>):
// CHECK: "onnx.Add"{{.*}} -> tensor<*xf32>
// CHECK: "onnx.Identity"{{.*}} -> tensor<i1>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<*xf32>, tensor<?x3xf32>)
func.func @loop_body(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>, %d: tensor<3xf32>) -> !onnx.unknown {
  %0:2 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: !onnx.unknown, %acc: !onnx.unknown):
    %1 = "onnx.Add"(%acc, %d) : (!onnx.unknown, tensor<3xf32>) -> !onnx.unknown
    %2 = "onnx.Identity"(%cond) : (!onnx.unknown) -> !onnx.unknown
    onnx.Yield %2, %1, %d : !onnx.unknown, !onnx.unknown, tensor<3xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#1 : !onnx.unknown
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: "onnx.Constant"() {{.*}} -> tensor<2x2xi32>
// CHECK: "onnx.Cast"{{.*}} -> tensor<2x2xf32>
func.func @constant() -> !onnx.unknown {
  %0 = "onnx.Constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> !onnx.unknown
  %1 = "onnx.Cast"(%0) {to = 1 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// -----

// Less refined types are refined; named dims are kept.
// CHECK-LABEL: func.func @refine_partial
// CHECK: "onnx.MatMul"{{.*}} -> tensor<?x5xf32, #onnx.dims<["B"]>>
func.func @refine_partial(%a: tensor<?x4xf32, #onnx.dims<["B"]>>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4xf32, #onnx.dims<["B"]>>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// onnxc's own rules for opset 18-21 ops.
// CHECK-LABEL: func.func @new_ops
// CHECK: "onnx.BitwiseAnd"{{.*}} -> tensor<?x4xi32, #onnx.dims<["N"]>>
// CHECK: "onnx.Gelu"{{.*}} -> tensor<2x4xf32>
// CHECK: "onnx.Pad"{{.*}} -> tensor<2x7xf32>
// CHECK: "onnx.RegexFullMatch"{{.*}} -> tensor<3xi1>
func.func @new_ops(%a: tensor<?x1xi32, #onnx.dims<["N"]>>, %b: tensor<4xi32>, %x: tensor<2x4xf32>, %s: tensor<3x!onnx.string>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = "onnx.BitwiseAnd"(%a, %b) : (tensor<?x1xi32, #onnx.dims<["N"]>>, tensor<4xi32>) -> !onnx.unknown
  %1 = "onnx.Gelu"(%x) : (tensor<2x4xf32>) -> !onnx.unknown
  %p = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> !onnx.unknown
  %ax = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> !onnx.unknown
  %none = "onnx.NoValue"() : () -> none
  %2 = "onnx.Pad"(%x, %p, %none, %ax) : (tensor<2x4xf32>, !onnx.unknown, none, !onnx.unknown) -> !onnx.unknown
  %3 = "onnx.RegexFullMatch"(%s) {pattern = "a.*"} : (tensor<3x!onnx.string>) -> !onnx.unknown
  return %0, %1, %2, %3 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// RUN: %onnxc-opt --onnx-shape-inference --split-input-file --verify-diagnostics %s | FileCheck %s
//
// Results start less refined than their operands allow (unranked, or with
// dynamic dims): the pass refines them.

// CHECK-LABEL: func.func @broadcast_named
// CHECK-SAME: -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Add"{{.*}} -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Mul"{{.*}} -> tensor<?x4x3xf32, #onnx.dims<["N"]>>
func.func @broadcast_named(%a: tensor<?x1x3xf32, #onnx.dims<["N"]>>, %b: tensor<4x1xf32>) -> tensor<*xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x1x3xf32, #onnx.dims<["N"]>>, tensor<4x1xf32>) -> tensor<*xf32>
  %1 = "onnx.Mul"(%0, %a) : (tensor<*xf32>, tensor<?x1x3xf32, #onnx.dims<["N"]>>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @conv_pool
// CHECK: "onnx.Conv"{{.*}} -> tensor<1x16x32x32xf32>
// CHECK: "onnx.MaxPool"{{.*}} -> (tensor<1x16x16x16xf32>, none)
func.func @conv_pool(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<*xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<*xf32>
  %1:2 = "onnx.MaxPool"(%0) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<*xf32>) -> (tensor<*xf32>, none)
  return %1#0 : tensor<*xf32>
}

// -----

// ceil_mode: along H (4 rows, kernel 1, stride 2, no pads) the windows start
// at 0 and 2; a third would start at row 4, past the input, and is dropped
// (as ONNX Runtime does and the lowering computes), although libonnx 1.12's
// formula counts it. Along W (7, kernel 3, stride 2, pads 1 and 1) every
// window starts inside: 4. AveragePool and Indices the same.
// CHECK-LABEL: func.func @pool_ceil_mode
// CHECK: "onnx.MaxPool"{{.*}} -> (tensor<2x3x2x4xf32>, tensor<2x3x2x4xi64>)
// CHECK: "onnx.AveragePool"{{.*}} -> tensor<2x3x2x4xf32>
// Without a dropped window, libonnx's result: H with kernel 2 and a begin
// pad of 1 gives ceil(3 / 2) + 1 = 3 (floor would give 2), the last window
// starting at row 4 - 1 = 3, inside the input.
// CHECK: "onnx.MaxPool"{{.*}} -> (tensor<2x3x3x4xf32>, none)
func.func @pool_ceil_mode(%x: tensor<2x3x4x7xf32>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "onnx.MaxPool"(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x7xf32>) -> (tensor<*xf32>, tensor<*xi64>)
  %1 = "onnx.AveragePool"(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x7xf32>) -> tensor<*xf32>
  %2:2 = "onnx.MaxPool"(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 3>, pads = array<i64: 1, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x7xf32>) -> (tensor<*xf32>, none)
  return %0#0, %0#1, %1, %2#0 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape: static.
// CHECK-LABEL: func.func @reshape_static_chain
// CHECK: "onnx.Shape"{{.*}} -> tensor<3xi64>
// CHECK: "onnx.Gather"{{.*}} -> tensor<i64>
// CHECK: "onnx.Unsqueeze"{{.*}} -> tensor<1xi64>
// CHECK: "onnx.Concat"{{.*}} -> tensor<2xi64>
// CHECK: "onnx.Reshape"{{.*}} -> tensor<2x12xf32>
func.func @reshape_static_chain(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<?xi64>
  %i = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %g = "onnx.Gather"(%s, %i) {axis = 0 : i64} : (tensor<?xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%g, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %c = "onnx.Concat"(%u, %m) {axis = 0 : i64} : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %c) : (tensor<2x3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// The same chain on a symbolic batch keeps "N"; Shape -> Slice and
// ConstantOfShape(Shape(x)) too.
// CHECK-LABEL: func.func @symbolic_chain
// CHECK: "onnx.Reshape"{{.*}} -> tensor<?x12xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.Slice"{{.*}} -> tensor<2xi64>
// CHECK: "onnx.Expand"{{.*}} -> tensor<?x3x4xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.ConstantOfShape"{{.*}} -> tensor<?x3x4xf32, #onnx.dims<["N"]>>
func.func @symbolic_chain(%x: tensor<?x3x4xf32, #onnx.dims<["N"]>>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %s = "onnx.Shape"(%x) : (tensor<?x3x4xf32, #onnx.dims<["N"]>>) -> tensor<*xi64>
  %i = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %g = "onnx.Gather"(%s, %i) {axis = 0 : i64} : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%g, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %c = "onnx.Concat"(%u, %m) {axis = 0 : i64} : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %c) : (tensor<?x3x4xf32, #onnx.dims<["N"]>>, tensor<*xi64>) -> tensor<*xf32>
  %st = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %en = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %sl = "onnx.Slice"(%s, %st, %en, %ax, %st) : (tensor<*xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %e = "onnx.Expand"(%one, %s) : (tensor<1x1x1xf32>, tensor<*xi64>) -> tensor<*xf32>
  %z = "onnx.ConstantOfShape"(%s) : (tensor<*xi64>) -> tensor<*xf32>
  return %r, %e, %z : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Opset-18 Reduce: axes is a constant input.
// CHECK-LABEL: func.func @reduce_axes_input
// CHECK: "onnx.ReduceMean"{{.*}} -> tensor<2x1x5xf32>
// CHECK: "onnx.ReduceMax"{{.*}} -> tensor<2x5xf32>
// CHECK: "onnx.ReduceL2"{{.*}} -> tensor<1x1x1xf32>
func.func @reduce_axes_input(%x: tensor<2x4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %ax = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceMean"(%x, %ax) : (tensor<2x4x5xf32>, tensor<1xi64>) -> tensor<*xf32>
  %1 = "onnx.ReduceMax"(%x, %ax) {keepdims = 0 : i64} : (tensor<2x4x5xf32>, tensor<1xi64>) -> tensor<*xf32>
  %none = "onnx.NoValue"() : () -> none
  %2 = "onnx.ReduceL2"(%x, %none) : (tensor<2x4x5xf32>, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Split-18 with num_outputs: chunks of ceil(10 / 3) = 4, the last smaller.
// CHECK-LABEL: func.func @split_uneven
// CHECK: "onnx.Split"{{.*}} -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x2xf32>)
func.func @split_uneven(%x: tensor<10x2xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %0:3 = "onnx.Split"(%x, %none) {num_outputs = 3 : i64} : (tensor<10x2xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#2 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @if_branches
// CHECK: "onnx.If"
// CHECK: "onnx.Relu"{{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Yield {{.*}} : tensor<2x3xf32>
// CHECK: "onnx.Neg"{{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Yield {{.*}} : tensor<2x3xf32>
// CHECK: }) : (tensor<i1>) -> tensor<2x3xf32>
func.func @if_branches(%c: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  %0 = "onnx.If"(%c) ({
    %1 = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<*xf32>
    onnx.Yield %1 : tensor<*xf32>
  }, {
    %2 = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<*xf32>
    onnx.Yield %2 : tensor<*xf32>
  }) : (tensor<i1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Loop body arguments (iteration number, condition, carried value) take their
// types from the Loop's operands; a carried value whose type the body keeps
// stays static (the fixed point is reached at once); the scan output gets a
// leading dim (dynamic: the trip count is not known).
// CHECK-LABEL: func.func @loop_body
// CHECK: "onnx.Loop"
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<3xf32>):
// CHECK: "onnx.Add"{{.*}} -> tensor<3xf32>
// CHECK: "onnx.Identity"{{.*}} -> tensor<i1>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>)
func.func @loop_body(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>, %d: tensor<3xf32>) -> tensor<*xf32> {
  %0:2 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<*xi1>, %acc: tensor<*xf32>):
    %1 = "onnx.Add"(%acc, %d) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
    %2 = "onnx.Identity"(%cond) : (tensor<*xi1>) -> tensor<*xi1>
    onnx.Yield %2, %1, %d : tensor<*xi1>, tensor<*xf32>, tensor<3xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: "onnx.Constant"() {{.*}} -> tensor<2x2xi32>
// CHECK: "onnx.Cast"{{.*}} -> tensor<2x2xf32>
func.func @constant() -> tensor<*xf32> {
  %0 = "onnx.Constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<*xi32>
  %1 = "onnx.Cast"(%0) {to = 1 : i64} : (tensor<*xi32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
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
func.func @new_ops(%a: tensor<?x1xi32, #onnx.dims<["N"]>>, %b: tensor<4xi32>, %x: tensor<2x4xf32>, %s: tensor<3x!onnx.string>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>) {
  %0 = "onnx.BitwiseAnd"(%a, %b) : (tensor<?x1xi32, #onnx.dims<["N"]>>, tensor<4xi32>) -> tensor<*xi32>
  %1 = "onnx.Gelu"(%x) : (tensor<2x4xf32>) -> tensor<*xf32>
  %p = "onnx.Constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ax = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = "onnx.NoValue"() : () -> none
  %2 = "onnx.Pad"(%x, %p, %none, %ax) : (tensor<2x4xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<*xf32>
  %3 = "onnx.RegexFullMatch"(%s) {pattern = "a.*"} : (tensor<3x!onnx.string>) -> tensor<*xi1>
  return %0, %1, %2, %3 : tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>
}

// -----

// Small float and int scalars computed from constants (Cast, Sub, Div) are
// known: Range of known start, limit and delta is static,
// max(ceil((limit - start) / delta), 0) elements; an int Range's values are
// known too (here, a Reshape target).
// CHECK-LABEL: func.func @range_computed_scalars
// CHECK: "onnx.Cast"{{.*}} -> tensor<f32>
// CHECK: "onnx.Sub"{{.*}} -> tensor<f32>
// CHECK: "onnx.Div"{{.*}} -> tensor<f32>
// CHECK: "onnx.Range"{{.*}} -> tensor<18xf32>
// CHECK: "onnx.Range"{{.*}} -> tensor<0xf32>
// CHECK: "onnx.Range"{{.*}} -> tensor<4xi64>
// CHECK: "onnx.Range"{{.*}} -> tensor<3xi64>
// CHECK: "onnx.Reshape"{{.*}} -> tensor<2x3x4xf32>
func.func @range_computed_scalars(%x: tensor<24xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %n = "onnx.Constant"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %nf = "onnx.Cast"(%n) {to = 1 : i64} : (tensor<i32>) -> tensor<*xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "onnx.Sub"(%nf, %one) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %delta = "onnx.Div"(%one, %two) : (tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %r0 = "onnx.Range"(%zero, %limit, %delta) : (tensor<f32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %r1 = "onnx.Range"(%limit, %one, %one) : (tensor<*xf32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %i10 = "onnx.Constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %im3 = "onnx.Constant"() {value = dense<-3> : tensor<i64>} : () -> tensor<i64>
  %r2 = "onnx.Range"(%i10, %i0, %im3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  %i2 = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %i5 = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %i1 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %r3 = "onnx.Range"(%i2, %i5, %i1) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  %y = "onnx.Reshape"(%x, %r3) : (tensor<24xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r0, %r1, %r2, %y : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

// -----

// Range of a value known only at run time stays dynamic.
// CHECK-LABEL: func.func @range_runtime_limit
// CHECK: "onnx.Range"{{.*}} -> tensor<?xf32>
func.func @range_runtime_limit(%limit: tensor<f32>) -> tensor<*xf32> {
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "onnx.Range"(%zero, %limit, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Slice with starts and ends known only at run time keeps the rank of its
// data, and the dims its axes do not name.
// CHECK-LABEL: func.func @slice_ranked
// CHECK: "onnx.Slice"{{.*}} -> tensor<?x4xf32>
// CHECK: "onnx.Slice"{{.*}} -> tensor<5x?xf32>
// CHECK: "onnx.Slice"{{.*}} -> tensor<?x?xf32>
func.func @slice_ranked(%x: tensor<5x4xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %a: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Slice"(%x, %s, %e, %none, %none) : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<*xf32>
  %ax = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "onnx.Slice"(%x, %s, %e, %ax, %none) : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<*xf32>
  %2 = "onnx.Slice"(%x, %s, %e, %a, %none) : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Loop fixed point: a carried value that grows (Concat) gets a dynamic dim,
// one that gains a dim (Unsqueeze) becomes unranked, one the body keeps stays
// static. With a known trip count and no condition the scan output is
// static.
// CHECK-LABEL: func.func @loop_fixed_point
// CHECK: "onnx.Loop"
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<?xf32>, %{{.*}}: tensor<*xf32>, %{{.*}}: tensor<3xf32>):
// CHECK: "onnx.Concat"{{.*}} -> tensor<?xf32>
// CHECK: "onnx.Unsqueeze"{{.*}} -> tensor<*xf32>
// CHECK: "onnx.Add"{{.*}} -> tensor<3xf32>
// CHECK: }) : (tensor<i64>, none, tensor<1xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?xf32>, tensor<*xf32>, tensor<3xf32>, tensor<5x3xf32>)
func.func @loop_fixed_point(%v: tensor<1xf32>, %w: tensor<3xf32>, %d: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %m = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %none = "onnx.NoValue"() : () -> none
  %0:4 = "onnx.Loop"(%m, %none, %v, %w, %d) ({
  ^bb0(%i: tensor<*xi64>, %cond: tensor<*xi1>, %grow: tensor<*xf32>, %rank: tensor<*xf32>, %keep: tensor<*xf32>):
    %1 = "onnx.Concat"(%grow, %grow) {axis = 0 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
    %2 = "onnx.Unsqueeze"(%rank, %ax) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
    %3 = "onnx.Add"(%keep, %d) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
    onnx.Yield %cond, %1, %2, %3, %3 : tensor<*xi1>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }) : (tensor<i64>, none, tensor<1xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// A Loop-16 body may yield a plain T for an optional carried value: the
// carried value stays optional (the join of optional<T> and U is
// optional<T join U>), the result is the body's T.
// CHECK-LABEL: func.func @loop_optional_carried
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: !onnx.opt<tensor<?xf32>>):
// CHECK: }) : (tensor<i64>, tensor<i1>, !onnx.opt<tensor<2xf32>>) -> tensor<?xf32>
func.func @loop_optional_carried(%m: tensor<i64>, %c: tensor<i1>, %v: !onnx.opt<tensor<2xf32>>, %d: tensor<3xf32>) -> tensor<*xf32> {
  %0 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: !onnx.opt<tensor<*xf32>>):
    onnx.Yield %cond, %d : tensor<i1>, tensor<3xf32>
  }) : (tensor<i64>, tensor<i1>, !onnx.opt<tensor<2xf32>>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A body input declared as a sequence of scalars that the body appends 1-D
// slices to (ONNX's test_loop16_seq_none): the declaration is dropped with
// what the body inferred from it, and the carried value, the If result and
// the OptionalGetElement become sequences of unranked items.
// CHECK-LABEL: func.func @loop_broken_sequence_declaration
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: !onnx.opt<!onnx.seq<tensor<*xf32>>>):
// CHECK: "onnx.SequenceConstruct"{{.*}} -> !onnx.seq<tensor<f32>>
// CHECK: "onnx.OptionalGetElement"{{.*}} -> !onnx.seq<tensor<*xf32>>
// CHECK: }) : (tensor<i1>) -> !onnx.seq<tensor<*xf32>>
// CHECK: "onnx.SequenceInsert"{{.*}} -> !onnx.seq<tensor<*xf32>>
// CHECK: }) : (tensor<i64>, tensor<i1>, !onnx.opt<!onnx.seq<tensor<f32>>>) -> !onnx.seq<tensor<*xf32>>
func.func @loop_broken_sequence_declaration(%m: tensor<i64>, %c: tensor<i1>, %v: !onnx.opt<!onnx.seq<tensor<f32>>>, %x: tensor<?xf32>, %z: tensor<f32>) -> !onnx.seq<tensor<*xf32>> {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: !onnx.opt<!onnx.seq<tensor<f32>>>):
    %has = "onnx.OptionalHasElement"(%acc) : (!onnx.opt<!onnx.seq<tensor<f32>>>) -> tensor<i1>
    %empty = "onnx.Not"(%has) : (tensor<i1>) -> tensor<i1>
    %s = "onnx.If"(%empty) ({
      %new = "onnx.SequenceConstruct"(%z) : (tensor<f32>) -> !onnx.seq<tensor<f32>>
      onnx.Yield %new : !onnx.seq<tensor<f32>>
    }, {
      %got = "onnx.OptionalGetElement"(%acc) : (!onnx.opt<!onnx.seq<tensor<f32>>>) -> !onnx.seq<tensor<f32>>
      onnx.Yield %got : !onnx.seq<tensor<f32>>
    }) : (tensor<i1>) -> !onnx.seq<tensor<f32>>
    %s2 = "onnx.SequenceInsert"(%s, %x, %none) : (!onnx.seq<tensor<f32>>, tensor<?xf32>, none) -> !onnx.seq<tensor<*xf32>>
    onnx.Yield %cond, %s2 : tensor<i1>, !onnx.seq<tensor<*xf32>>
  }) : (tensor<i64>, tensor<i1>, !onnx.opt<!onnx.seq<tensor<f32>>>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

// If: a sequence result is the join of the branches' (libonnx 1.12 would
// take the then branch's scalars over the else branch's unranked items);
// tensor results are libonnx's.
// CHECK-LABEL: func.func @if_sequence_join
// CHECK: }) : (tensor<i1>) -> (!onnx.seq<tensor<*xf32>>, tensor<?xf32>)
func.func @if_sequence_join(%c: tensor<i1>, %z: tensor<f32>, %s: !onnx.seq<tensor<*xf32>>, %a: tensor<2xf32>, %b: tensor<3xf32>) -> (!onnx.seq<tensor<*xf32>>, tensor<*xf32>) {
  %0:2 = "onnx.If"(%c) ({
    %t = "onnx.SequenceConstruct"(%z) : (tensor<f32>) -> !onnx.seq<tensor<f32>>
    onnx.Yield %t, %a : !onnx.seq<tensor<f32>>, tensor<2xf32>
  }, {
    onnx.Yield %s, %b : !onnx.seq<tensor<*xf32>>, tensor<3xf32>
  }) : (tensor<i1>) -> (!onnx.seq<tensor<*xf32>>, tensor<*xf32>)
  return %0#0, %0#1 : !onnx.seq<tensor<*xf32>>, tensor<*xf32>
}

// -----

// Gradient: output i has the type of input i (the value of xs[i]); the
// tensor y names is the last operand.
// CHECK-LABEL: func.func @gradient
// CHECK: "onnx.training.Gradient"{{.*}} -> (tensor<2x3xf32>, tensor<3xf32>)
// CHECK: "onnx.training.Gradient"{{.*}} -> tensor<2x3xf32>
func.func @gradient(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "onnx.training.Gradient"(%a, %b, %c) {xs = ["a", "b"], y = "c"} : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>)
  %1 = "onnx.training.Gradient"(%a, %b, %c) {xs = ["a"], zs = ["b"], y = "c"} : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<*xf32>
  return %0#0, %0#1, %1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Sequences built in ways inference follows keep the type of each element:
// the sequence type is their join, SequenceAt at a known position gets its
// element's type ([x, z, y]; erasing z leaves y last).
// CHECK-LABEL: func.func @sequence_elements
// CHECK: "onnx.SequenceInsert"{{.*}} -> !onnx.seq<tensor<2x3x4xf32>>
// CHECK: "onnx.SequenceInsert"{{.*}} -> !onnx.seq<tensor<?x3x4xf32>>
// CHECK: "onnx.SequenceInsert"{{.*}} -> !onnx.seq<tensor<?x3x4xf32>>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<1x3x4xf32>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<3x3x4xf32>
// CHECK: "onnx.SequenceErase"{{.*}} -> !onnx.seq<tensor<?x3x4xf32>>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<1x3x4xf32>
func.func @sequence_elements(%x: tensor<2x3x4xf32>, %y: tensor<1x3x4xf32>, %z: tensor<3x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %s0 = "onnx.SequenceEmpty"() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  %s1 = "onnx.SequenceInsert"(%s0, %x, %none) : (!onnx.seq<tensor<*xf32>>, tensor<2x3x4xf32>, none) -> !onnx.seq<tensor<*xf32>>
  %s2 = "onnx.SequenceInsert"(%s1, %y, %none) : (!onnx.seq<tensor<*xf32>>, tensor<1x3x4xf32>, none) -> !onnx.seq<tensor<*xf32>>
  %s3 = "onnx.SequenceInsert"(%s2, %z, %one) : (!onnx.seq<tensor<*xf32>>, tensor<3x3x4xf32>, tensor<i64>) -> !onnx.seq<tensor<*xf32>>
  %a = "onnx.SequenceAt"(%s3, %two) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  %b = "onnx.SequenceAt"(%s3, %one) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  %s4 = "onnx.SequenceErase"(%s3, %one) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> !onnx.seq<tensor<*xf32>>
  %c = "onnx.SequenceAt"(%s4, %last) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  return %a, %b, %c : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// ConcatFromSequence of a sequence of known length: the elements' dims along
// the axis add up (new_axis = 1 stacks them); SplitToSequence of known
// sizes gives elements of known shapes.
// CHECK-LABEL: func.func @sequence_concat
// CHECK: "onnx.SequenceConstruct"{{.*}} -> !onnx.seq<tensor<2x3x4xf32>>
// CHECK: "onnx.ConcatFromSequence"{{.*}} -> tensor<2x9x4xf32>
// CHECK: "onnx.ConcatFromSequence"{{.*}} -> tensor<3x2x3x4xf32>
// CHECK: "onnx.SplitToSequence"{{.*}} -> !onnx.seq<tensor<?x4xf32>>
// CHECK: "onnx.SequenceLength"{{.*}} -> tensor<i64>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<2x4xf32>
// CHECK: "onnx.ConcatFromSequence"{{.*}} -> tensor<6x4xf32>
func.func @sequence_concat(%x: tensor<2x3x4xf32>, %w: tensor<6x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %s = "onnx.SequenceConstruct"(%x, %x, %x) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> !onnx.seq<tensor<*xf32>>
  %0 = "onnx.ConcatFromSequence"(%s) {axis = 1 : i64} : (!onnx.seq<tensor<*xf32>>) -> tensor<*xf32>
  %1 = "onnx.ConcatFromSequence"(%s) {axis = 0 : i64, new_axis = 1 : i64} : (!onnx.seq<tensor<*xf32>>) -> tensor<*xf32>
  %four = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %t = "onnx.SplitToSequence"(%w, %four) : (tensor<6x4xf32>, tensor<i64>) -> !onnx.seq<tensor<*xf32>>
  %n = "onnx.SequenceLength"(%t) : (!onnx.seq<tensor<*xf32>>) -> tensor<*xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %k = "onnx.Sub"(%n, %one) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %2 = "onnx.SequenceAt"(%t, %k) : (!onnx.seq<tensor<*xf32>>, tensor<*xi64>) -> tensor<*xf32>
  %3 = "onnx.ConcatFromSequence"(%t) {axis = 0 : i64} : (!onnx.seq<tensor<*xf32>>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// MaxUnpool: an output_shape of unknown values still gives X's rank (libonnx
// leaves it unranked); without it, libonnx's (in - 1) * stride + kernel.
// CHECK-LABEL: func.func @maxunpool_rank
// CHECK: "onnx.MaxUnpool"{{.*}} -> tensor<?x?x?x?xf32>
// CHECK: "onnx.MaxUnpool"{{.*}} -> tensor<1x3x6x6xf32>
func.func @maxunpool_rank(%x: tensor<1x3x3x3xf32>, %i: tensor<1x3x3x3xi64>, %s: tensor<4xi64>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.MaxUnpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xi64>, tensor<4xi64>) -> tensor<*xf32>
  %n = "onnx.NoValue"() : () -> none
  %1 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xi64>, none) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Convolutions whose kernel shape is unknown (W's spatial dims symbolic, no
// kernel_shape): libonnx gives up, the result still has X's rank with N from
// X and the output channels from W.
// CHECK-LABEL: func.func @conv_symbolic_kernel
// CHECK: "onnx.ConvInteger"{{.*}} -> tensor<?x?x?x?xi32, #onnx.dims<["N", "M", "", ""]>>
// CHECK: "onnx.Conv"{{.*}} -> tensor<?x8x?x?xf32, #onnx.dims<["N", "H", "W"]>>
// CHECK: "onnx.Conv"{{.*}} -> tensor<?x8x3x5xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.QLinearConv"{{.*}} -> tensor<?x?x?xui8, #onnx.dims<["N", "M", ""]>>
func.func @conv_symbolic_kernel(%x: tensor<?x?x?x?xui8, #onnx.dims<["N", "C", "H", "W"]>>, %w: tensor<?x?x?x?xui8, #onnx.dims<["M", "C", "KH", "KW"]>>,
                                %xf: tensor<?x3x?x?xf32, #onnx.dims<["N", "H", "W"]>>, %wf: tensor<8x3x?x?xf32, #onnx.dims<["KH", "KW"]>>,
                                %xs: tensor<?x3x5x9xf32, #onnx.dims<["N"]>>,
                                %x1: tensor<?x?x?xui8, #onnx.dims<["N", "C", "L"]>>, %w1: tensor<?x?x?xui8, #onnx.dims<["M", "C", "K"]>>,
                                %sf: tensor<f32>, %zp: tensor<ui8>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xui8>) {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvInteger"(%x, %w, %n, %n) : (tensor<?x?x?x?xui8, #onnx.dims<["N", "C", "H", "W"]>>, tensor<?x?x?x?xui8, #onnx.dims<["M", "C", "KH", "KW"]>>, none, none) -> tensor<*xi32>
  // SAME with stride 1 keeps the spatial dims (and their names).
  %1 = "onnx.Conv"(%xf, %wf, %n) {auto_pad = "SAME_UPPER"} : (tensor<?x3x?x?xf32, #onnx.dims<["N", "H", "W"]>>, tensor<8x3x?x?xf32, #onnx.dims<["KH", "KW"]>>, none) -> tensor<*xf32>
  // SAME with stride 2 on static dims: ceil(in / 2).
  %2 = "onnx.Conv"(%xs, %wf, %n) {auto_pad = "SAME_LOWER", strides = array<i64: 2, 2>} : (tensor<?x3x5x9xf32, #onnx.dims<["N"]>>, tensor<8x3x?x?xf32, #onnx.dims<["KH", "KW"]>>, none) -> tensor<*xf32>
  %3 = "onnx.QLinearConv"(%x1, %sf, %zp, %w1, %sf, %zp, %sf, %zp, %n) : (tensor<?x?x?xui8, #onnx.dims<["N", "C", "L"]>>, tensor<f32>, tensor<ui8>, tensor<?x?x?xui8, #onnx.dims<["M", "C", "K"]>>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, none) -> tensor<*xui8>
  return %0, %1, %2, %3 : tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xui8>
}

// -----

// ConvTranspose with an unknown kernel shape: output channels are W's dim 1
// times group; output_shape gives the spatial dims; SAME with stride 1 keeps
// X's.
// CHECK-LABEL: func.func @conv_transpose_symbolic_kernel
// CHECK: "onnx.ConvTranspose"{{.*}} -> tensor<?x?x?x?xf32, #onnx.dims<["N", "M", "", ""]>>
// CHECK: "onnx.ConvTranspose"{{.*}} -> tensor<?x6x10x8xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.ConvTranspose"{{.*}} -> tensor<?x?x?x?xf32, #onnx.dims<["N", "", "H", "W"]>>
func.func @conv_transpose_symbolic_kernel(%x: tensor<?x?x?x?xf32, #onnx.dims<["N", "C", "H", "W"]>>, %w: tensor<?x?x?x?xf32, #onnx.dims<["C", "M", "KH", "KW"]>>,
                                          %w3: tensor<?x3x?x?xf32, #onnx.dims<["C", "KH", "KW"]>>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvTranspose"(%x, %w, %n) : (tensor<?x?x?x?xf32, #onnx.dims<["N", "C", "H", "W"]>>, tensor<?x?x?x?xf32, #onnx.dims<["C", "M", "KH", "KW"]>>, none) -> tensor<*xf32>
  %1 = "onnx.ConvTranspose"(%x, %w3, %n) {group = 2 : i64, output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>} : (tensor<?x?x?x?xf32, #onnx.dims<["N", "C", "H", "W"]>>, tensor<?x3x?x?xf32, #onnx.dims<["C", "KH", "KW"]>>, none) -> tensor<*xf32>
  // group 2 with a symbolic W dim 1: the channel count is unknown.
  %2 = "onnx.ConvTranspose"(%x, %w, %n) {auto_pad = "SAME_UPPER", group = 2 : i64} : (tensor<?x?x?x?xf32, #onnx.dims<["N", "C", "H", "W"]>>, tensor<?x?x?x?xf32, #onnx.dims<["C", "M", "KH", "KW"]>>, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Compress: 1-D without axis, the input's shape with the axis dim dynamic
// with one (libonnx gives no shape).
// CHECK-LABEL: func.func @compress_rank
// CHECK: "onnx.Compress"{{.*}} -> tensor<?xf32>
// CHECK: "onnx.Compress"{{.*}} -> tensor<?x?x4xf32, #onnx.dims<["N", ""]>>
func.func @compress_rank(%x: tensor<?x3x4xf32, #onnx.dims<["N"]>>, %c: tensor<?xi1, #onnx.dims<["K"]>>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.Compress"(%x, %c) : (tensor<?x3x4xf32, #onnx.dims<["N"]>>, tensor<?xi1, #onnx.dims<["K"]>>) -> tensor<*xf32>
  %1 = "onnx.Compress"(%x, %c) {axis = -2 : i64} : (tensor<?x3x4xf32, #onnx.dims<["N"]>>, tensor<?xi1, #onnx.dims<["K"]>>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// ReduceSum-13 with axes of unknown values: keepdims keeps the rank (dims
// of 1 stay 1); without keepdims the rank is unknown.
// CHECK-LABEL: func.func @reduce_sum_unknown_axes
// CHECK: "onnx.ReduceSum"{{.*}} -> tensor<?x1x?xf32>
// CHECK: "onnx.ReduceSum"{{.*}} -> tensor<?x1x?xf32>
// CHECK: "onnx.ReduceSum"{{.*}} -> tensor<*xf32>
// CHECK: "onnx.ReduceMax"{{.*}} -> tensor<?x1x?xf32>
func.func @reduce_sum_unknown_axes(%x: tensor<?x1x4xf32, #onnx.dims<["N"]>>, %a: tensor<?xi64, #onnx.dims<["K"]>>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.ReduceSum"(%x, %a) : (tensor<?x1x4xf32, #onnx.dims<["N"]>>, tensor<?xi64, #onnx.dims<["K"]>>) -> tensor<*xf32>
  %1 = "onnx.ReduceSum"(%x, %a) {noop_with_empty_axes = 1 : i64} : (tensor<?x1x4xf32, #onnx.dims<["N"]>>, tensor<?xi64, #onnx.dims<["K"]>>) -> tensor<*xf32>
  %2 = "onnx.ReduceSum"(%x, %a) {keepdims = 0 : i64} : (tensor<?x1x4xf32, #onnx.dims<["N"]>>, tensor<?xi64, #onnx.dims<["K"]>>) -> tensor<*xf32>
  %3 = "onnx.ReduceMax"(%x, %a) : (tensor<?x1x4xf32, #onnx.dims<["N"]>>, tensor<?xi64, #onnx.dims<["K"]>>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Reshape, Expand and ConstantOfShape whose shape operand has unknown
// values but a static length: the rank. Expand keeps x's static dims other
// than 1.
// CHECK-LABEL: func.func @shape_operand_length
// CHECK: "onnx.Reshape"{{.*}} -> tensor<?x?x?xf32>
// CHECK: "onnx.Expand"{{.*}} -> tensor<?x4x?xf32>
// CHECK: "onnx.ConstantOfShape"{{.*}} -> tensor<?x?xf32>
func.func @shape_operand_length(%x: tensor<?x4x1xf32, #onnx.dims<["N"]>>, %s: tensor<3xi64>, %t: tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x4x1xf32, #onnx.dims<["N"]>>, tensor<3xi64>) -> tensor<*xf32>
  %1 = "onnx.Expand"(%x, %s) : (tensor<?x4x1xf32, #onnx.dims<["N"]>>, tensor<3xi64>) -> tensor<*xf32>
  %2 = "onnx.ConstantOfShape"(%t) {value = dense<0.0> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// An empty 1-D int tensor has known (no) values: the expanded
// LayerNormalization's Concat(Slice(Shape(X), 0, 0), ones) is known, so its
// Reshape is static although X's dims are symbolic.
// CHECK-LABEL: func.func @empty_shape_piece
// CHECK: "onnx.Slice"{{.*}} -> tensor<0xi64>
// CHECK: "onnx.Concat"{{.*}} -> tensor<3xi64>
// CHECK: "onnx.Reshape"{{.*}} -> tensor<1x1x1xf32>
func.func @empty_shape_piece(%x: tensor<?x?x?xf32, #onnx.dims<["A", "B", "C"]>>, %m: tensor<1x1xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<?x?x?xf32, #onnx.dims<["A", "B", "C"]>>) -> tensor<*xi64>
  %r = "onnx.Size"(%s) : (tensor<*xi64>) -> tensor<*xi64>
  %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "onnx.NoValue"() : () -> none
  %prefix = "onnx.Slice"(%s, %zero, %zero, %n, %n) : (tensor<*xi64>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<*xi64>
  %k = "onnx.Sub"(%r, %zero) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %ones = "onnx.ConstantOfShape"(%k) {value = dense<[1]> : tensor<1xi64>} : (tensor<*xi64>) -> tensor<*xi64>
  %shape = "onnx.Concat"(%prefix, %ones) {axis = 0 : i64} : (tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
  %0 = "onnx.Reshape"(%m, %shape) : (tensor<1x1xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Window functions are 1-D whether or not `size` is known; MelWeightMatrix
// is 2-D with each dim from its own input.
// CHECK-LABEL: func.func @signal_generators
// CHECK: "onnx.HannWindow"{{.*}} -> tensor<?xf32>
// CHECK: "onnx.BlackmanWindow"{{.*}} -> tensor<10xf64>
// CHECK: "onnx.HammingWindow"{{.*}} -> tensor<?xf32>
// CHECK: "onnx.MelWeightMatrix"{{.*}} -> tensor<9x?xf32>
func.func @signal_generators(%size: tensor<i64>, %bins: tensor<i64>, %rate: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<*xf32>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.HannWindow"(%size) : (tensor<i64>) -> tensor<*xf32>
  %ten = "onnx.Constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %1 = "onnx.BlackmanWindow"(%ten) {output_datatype = 11 : i64} : (tensor<i64>) -> tensor<*xf64>
  %2 = "onnx.HammingWindow"(%size) {periodic = 0 : i64} : (tensor<i64>) -> tensor<*xf32>
  %dft = "onnx.Constant"() {value = dense<16> : tensor<i64>} : () -> tensor<i64>
  %3 = "onnx.MelWeightMatrix"(%bins, %dft, %rate, %lo, %hi) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>
}

// -----

// STFT: [batch, frames, bins, 2]; frames = (length - frame_length) /
// frame_step + 1, bins = frame_length / 2 + 1 when onesided (the default).
// A symbolic batch stays named (libonnx would make it 0).
// CHECK-LABEL: func.func @stft
// CHECK: "onnx.STFT"{{.*}} -> tensor<?x15x9x2xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.STFT"{{.*}} -> tensor<?x15x16x2xf32, #onnx.dims<["N"]>>
// CHECK: "onnx.STFT"{{.*}} -> tensor<?x?x?x2xf32, #onnx.dims<["N", "", ""]>>
func.func @stft(%x: tensor<?x128x1xf32, #onnx.dims<["N"]>>, %w: tensor<16xf32>, %y: tensor<?x?x?xf32, #onnx.dims<["N", "L", "C"]>>, %step: tensor<i64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %eight = "onnx.Constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %sixteen = "onnx.Constant"() {value = dense<16> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.STFT"(%x, %eight, %w, %n) : (tensor<?x128x1xf32, #onnx.dims<["N"]>>, tensor<i64>, tensor<16xf32>, none) -> tensor<*xf32>
  %1 = "onnx.STFT"(%x, %eight, %n, %sixteen) {onesided = 0 : i64} : (tensor<?x128x1xf32, #onnx.dims<["N"]>>, tensor<i64>, none, tensor<i64>) -> tensor<*xf32>
  %2 = "onnx.STFT"(%y, %step, %n, %n) : (tensor<?x?x?xf32, #onnx.dims<["N", "L", "C"]>>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// StringNormalizer: [C] -> [?]; [1, C] and [?, C] -> [1, ?] (libonnx 1.12's
// rule refused the symbolic first dim; the lowering checks it is 1).
// CHECK-LABEL: func.func @string_normalizer
// CHECK: "onnx.StringNormalizer"{{.*}} -> tensor<?x!onnx.string>
// CHECK: "onnx.StringNormalizer"{{.*}} -> tensor<1x?x!onnx.string>
// CHECK: "onnx.StringNormalizer"{{.*}} -> tensor<1x?x!onnx.string>
func.func @string_normalizer(%a: tensor<3x!onnx.string>, %b: tensor<1x3x!onnx.string>, %c: tensor<?x?x!onnx.string>) -> (tensor<*x!onnx.string>, tensor<*x!onnx.string>, tensor<*x!onnx.string>) {
  %0 = "onnx.StringNormalizer"(%a) : (tensor<3x!onnx.string>) -> tensor<*x!onnx.string>
  %1 = "onnx.StringNormalizer"(%b) : (tensor<1x3x!onnx.string>) -> tensor<*x!onnx.string>
  %2 = "onnx.StringNormalizer"(%c) : (tensor<?x?x!onnx.string>) -> tensor<*x!onnx.string>
  return %0, %1, %2 : tensor<*x!onnx.string>, tensor<*x!onnx.string>, tensor<*x!onnx.string>
}

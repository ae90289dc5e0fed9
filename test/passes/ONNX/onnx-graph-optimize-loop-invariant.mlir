// RUN: %onnxc-opt --onnx-graph-optimize --split-input-file %s | FileCheck %s

// The bench RNN loop: the body's MatMul(Gather(X, i), W) becomes one 2-D
// product of every row before the loop ([4*1, 8] x [8, 6], reshaped back
// to [4, 1, 6]) and the body gathers its row i. The recurrent MatMul (of
// the loop-carried h) stays; so do the Adds (the bias is added after h R:
// moving it would reassociate the sums).
// CHECK-LABEL: func.func @loop_rnn
// CHECK: %[[W:.+]] = "onnx.Constant"() <{value = dense<1.000000e+00> : tensor<8x6xf32>}>
// CHECK: %[[S1:.+]] = "onnx.Constant"() <{value = dense<[-1, 8]> : tensor<2xi64>}>
// CHECK: %[[XF:.+]] = "onnx.Reshape"(%arg0, %[[S1]]) {{.*}} -> tensor<4x8xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[XF]], %[[W]]) : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
// CHECK: %[[S2:.+]] = "onnx.Constant"() <{value = dense<[4, 1, 6]> : tensor<3xi64>}>
// CHECK: %[[XW:.+]] = "onnx.Reshape"(%[[P]], %[[S2]]) {{.*}} -> tensor<4x1x6xf32>
// CHECK: "onnx.Loop"
// CHECK-NEXT: ^bb0(%[[I:.+]]: tensor<i64>, %{{.+}}: tensor<i1>, %[[H:.+]]: tensor<1x6xf32>):
// CHECK-NOT: onnx.Gather"(%arg0
// CHECK: %[[ROW:.+]] = "onnx.Gather"(%[[XW]], %[[I]]) <{axis = 0 : i64}> : (tensor<4x1x6xf32>, tensor<i64>) -> tensor<1x6xf32>
// CHECK: %[[HR:.+]] = "onnx.MatMul"(%[[H]], %{{.+}}) : (tensor<1x6xf32>, tensor<6x6xf32>)
// CHECK: "onnx.Add"(%[[ROW]], %[[HR]])
// CHECK-NOT: onnx.MatMul
// CHECK: onnx.Yield
func.func @loop_rnn(%x: tensor<4x1x8xf32>) -> (tensor<1x6xf32>, tensor<4x1x6xf32>) {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<8x6xf32>}> : () -> tensor<8x6xf32>
  %r = "onnx.Constant"() <{value = dense<0.5> : tensor<6x6xf32>}> : () -> tensor<6x6xf32>
  %b = "onnx.Constant"() <{value = dense<0.25> : tensor<6xf32>}> : () -> tensor<6xf32>
  %h0 = "onnx.Constant"() <{value = dense<0.0> : tensor<1x6xf32>}> : () -> tensor<1x6xf32>
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %c = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %0:2 = "onnx.Loop"(%m, %c, %h0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %h: tensor<1x6xf32>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x1x8xf32>, tensor<i64>) -> tensor<1x8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<1x8xf32>, tensor<8x6xf32>) -> tensor<1x6xf32>
    %hr = "onnx.MatMul"(%h, %r) : (tensor<1x6xf32>, tensor<6x6xf32>) -> tensor<1x6xf32>
    %s = "onnx.Add"(%xw, %hr) : (tensor<1x6xf32>, tensor<1x6xf32>) -> tensor<1x6xf32>
    %p = "onnx.Add"(%s, %b) : (tensor<1x6xf32>, tensor<6xf32>) -> tensor<1x6xf32>
    %t = "onnx.Tanh"(%p) : (tensor<1x6xf32>) -> tensor<1x6xf32>
    %co = "onnx.Identity"(%ci) : (tensor<i1>) -> tensor<i1>
    onnx.Yield %co, %t, %t : tensor<i1>, tensor<1x6xf32>, tensor<1x6xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<1x6xf32>) -> (tensor<1x6xf32>, tensor<4x1x6xf32>)
  return %0#0, %0#1 : tensor<1x6xf32>, tensor<4x1x6xf32>
}

// -----

// A 2-D X (vector rows), no condition, a trip count past the rows (the
// Gather fails at iteration 3 either way), W a constant inside the body
// (cloned before the loop); the bias Add of the row then moves too: the
// body reads one row of X W + b.
// CHECK-LABEL: func.func @vector_rows_bias
// CHECK: %[[W:.+]] = "onnx.Constant"() <{value = dense<2.000000e+00> : tensor<5x2xf32>}>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%arg0, %[[W]]) : (tensor<3x5xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
// CHECK: %[[PB:.+]] = "onnx.Add"(%[[P]], %arg1) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK: "onnx.Loop"
// CHECK-NEXT: ^bb0(%[[I:.+]]: tensor<i64>,
// CHECK-NEXT: %[[ROW:.+]] = "onnx.Gather"(%[[PB]], %[[I]]) <{axis = 0 : i64}> : (tensor<3x2xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NEXT: onnx.Yield %{{.+}}, %[[ROW]]
func.func @vector_rows_bias(%x: tensor<3x5xf32>, %b: tensor<2xf32>) -> tensor<3x2xf32> {
  %m = "onnx.Constant"() <{value = dense<5> : tensor<i64>}> : () -> tensor<i64>
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %w = "onnx.Constant"() <{value = dense<2.0> : tensor<5x2xf32>}> : () -> tensor<5x2xf32>
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<3x5xf32>, tensor<i64>) -> tensor<5xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<5xf32>, tensor<5x2xf32>) -> tensor<2xf32>
    %y = "onnx.Add"(%xw, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %ci, %y : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, none) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// The rows along axis 1 (a batch axis of the product, not the contracted
// one); the trip count is dim 1 of a run-time X read with Shape + Gather
// (what `for t in range(x.size(1))` exports), so it is every row: X
// reshaped to [-1, 4], multiplied, reshaped to [2, -1, 3], row i gathered
// along axis 1.
// CHECK-LABEL: func.func @dynamic_rows_axis1
// CHECK: %[[XF:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) {{.*}} -> tensor<?x4xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[XF]], %arg1) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
// CHECK: %[[XW:.+]] = "onnx.Reshape"(%[[P]], %{{.+}}) {{.*}} -> tensor<2x?x3xf32>
// CHECK: "onnx.Loop"
// CHECK: "onnx.Gather"(%[[XW]], %{{.+}}) <{axis = 1 : i64}> : (tensor<2x?x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NOT: onnx.MatMul
// CHECK: onnx.Yield
func.func @dynamic_rows_axis1(%x: tensor<2x?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x2x3xf32> {
  %shape = "onnx.Shape"(%x) : (tensor<2x?x4xf32>) -> tensor<3xi64>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %m = "onnx.Gather"(%shape, %one) <{axis = 0 : i64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 1 : i64}> : (tensor<2x?x4xf32>, tensor<i64>) -> tensor<2x4xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    onnx.Yield %ci, %xw : tensor<i1>, tensor<2x3xf32>
  }) : (tensor<i64>, none) -> tensor<?x2x3xf32>
  return %0 : tensor<?x2x3xf32>
}

// -----

// Rows and batch both known only at run time, the trip count from
// Squeeze(Shape(X, 0, 1)) (examples/rnn_loop): the product's shape is
// Concat(Shape(X, end = 2), [3]).
// CHECK-LABEL: func.func @dynamic_rows_and_batch
// CHECK: %[[XF:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) {{.*}} -> tensor<?x4xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[XF]], %arg1) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
// CHECK: %[[LEAD:.+]] = "onnx.Shape"(%arg0) <{end = 2 : i64, start = 0 : i64}> : (tensor<?x?x4xf32>) -> tensor<2xi64>
// CHECK: %[[N:.+]] = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}>
// CHECK: %[[SHAPE:.+]] = "onnx.Concat"(%[[LEAD]], %[[N]]) <{axis = 0 : i64}> : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK: %[[XW:.+]] = "onnx.Reshape"(%[[P]], %[[SHAPE]]) <{allowzero = 1 : i64}> : {{.*}} -> tensor<?x?x3xf32>
// CHECK: "onnx.Loop"
// CHECK: "onnx.Gather"(%[[XW]], %{{.+}}) <{axis = 0 : i64}> : (tensor<?x?x3xf32>, tensor<i64>) -> tensor<?x3xf32>
// CHECK-NOT: onnx.MatMul
// CHECK: onnx.Yield
func.func @dynamic_rows_and_batch(%x: tensor<?x?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x?x3xf32> {
  %shape = "onnx.Shape"(%x) <{start = 0 : i64, end = 1 : i64}> : (tensor<?x?x4xf32>) -> tensor<1xi64>
  %none = onnx.NoValue
  %m = "onnx.Squeeze"(%shape, %none) : (tensor<1xi64>, none) -> tensor<i64>
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<?x?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    onnx.Yield %ci, %xw : tensor<i1>, tensor<?x3xf32>
  }) : (tensor<i64>, none) -> tensor<?x?x3xf32>
  return %0 : tensor<?x?x3xf32>
}

// -----

// Gemm (transB, a per-column bias C): one Gemm of every row, before the
// loop, on X reshaped to [4*2, 8].
// CHECK-LABEL: func.func @gemm_rows
// CHECK: %[[XF:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) {{.*}} -> tensor<8x8xf32>
// CHECK: %[[P:.+]] = "onnx.Gemm"(%[[XF]], %arg1, %arg2) <{alpha = 5.000000e-01 : f32, beta = 1.000000e+00 : f32, transA = 0 : i64, transB = 1 : i64}> : (tensor<8x8xf32>, tensor<6x8xf32>, tensor<6xf32>) -> tensor<8x6xf32>
// CHECK: %[[XW:.+]] = "onnx.Reshape"(%[[P]], %{{.+}}) {{.*}} -> tensor<4x2x6xf32>
// CHECK: "onnx.Loop"
// CHECK: "onnx.Gather"(%[[XW]], %{{.+}}) <{axis = 0 : i64}> : (tensor<4x2x6xf32>, tensor<i64>) -> tensor<2x6xf32>
// CHECK-NOT: onnx.Gemm
// CHECK: onnx.Yield
func.func @gemm_rows(%x: tensor<4x2x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x2x6xf32> {
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %c = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %0 = "onnx.Loop"(%m, %c) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x2x8xf32>, tensor<i64>) -> tensor<2x8xf32>
    %y = "onnx.Gemm"(%xt, %w, %b) {alpha = 0.5 : f32, transB = 1 : i64} : (tensor<2x8xf32>, tensor<6x8xf32>, tensor<6xf32>) -> tensor<2x6xf32>
    onnx.Yield %ci, %y : tensor<i1>, tensor<2x6xf32>
  }) : (tensor<i64>, tensor<i1>) -> tensor<4x2x6xf32>
  return %0 : tensor<4x2x6xf32>
}

// -----

// Scan: MatMul of a scan input's slice becomes a new scan input X W (same
// axis and direction); the old input, read by nothing else, goes.
// CHECK-LABEL: func.func @scan_rows
// CHECK: %[[P:.+]] = "onnx.MatMul"(%arg1, %arg2) : (tensor<5x3xf32>, tensor<3x2xf32>) -> tensor<5x2xf32>
// CHECK: "onnx.Scan"(%arg0, %[[P]]) <{num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>}>
// CHECK-NEXT: ^bb0(%[[S:.+]]: tensor<2xf32>, %[[R:.+]]: tensor<2xf32>):
// CHECK-NEXT: %[[A:.+]] = "onnx.Add"(%[[S]], %[[R]])
// CHECK-NEXT: onnx.Yield %[[A]], %[[A]]
// CHECK-NEXT: }) : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
func.func @scan_rows(%s0: tensor<2xf32>, %x: tensor<5x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  %0:2 = "onnx.Scan"(%s0, %x) ({
  ^bb0(%s: tensor<2xf32>, %xt: tensor<3xf32>):
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
    %1 = "onnx.Add"(%s, %xw) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %1, %1 : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>} : (tensor<2xf32>, tensor<5x3xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<5x2xf32>
}

// -----

// Scan whose slice has another reader: the product is a second scan input
// (axis 1, as the first), the first stays.
// CHECK-LABEL: func.func @scan_rows_shared
// CHECK: %[[XF:.+]] = "onnx.Reshape"(%arg1, %{{.+}}) {{.*}} -> tensor<8x3xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[XF]], %arg2)
// CHECK: %[[XW:.+]] = "onnx.Reshape"(%[[P]], %{{.+}}) {{.*}} -> tensor<2x4x2xf32>
// CHECK: "onnx.Scan"(%arg0, %arg1, %[[XW]]) <{num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 1, 1>}>
// CHECK-NEXT: ^bb0(%[[S:.+]]: tensor<2x2xf32>, %[[XT:.+]]: tensor<2x3xf32>, %[[R:.+]]: tensor<2x2xf32>):
// CHECK-NEXT: "onnx.Add"(%[[S]], %[[R]])
// CHECK: "onnx.ReduceSum"(%[[XT]]
func.func @scan_rows_shared(%s0: tensor<2x2xf32>, %x: tensor<2x4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<4x2x1xf32>) {
  %0:2 = "onnx.Scan"(%s0, %x) ({
  ^bb0(%s: tensor<2x2xf32>, %xt: tensor<2x3xf32>):
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %1 = "onnx.Add"(%s, %xw) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %none = onnx.NoValue
    %2 = "onnx.ReduceSum"(%xt, %none) {keepdims = 1 : i64, noop_with_empty_axes = 0 : i64} : (tensor<2x3xf32>, none) -> tensor<2x1xf32>
    onnx.Yield %1, %2 : tensor<2x2xf32>, tensor<2x1xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>} : (tensor<2x2xf32>, tensor<2x4x3xf32>) -> (tensor<2x2xf32>, tensor<4x2x1xf32>)
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<4x2x1xf32>
}

// -----

// Not hoisted: X defined in the body (it changes per iteration).
// CHECK-LABEL: func.func @x_in_body
// CHECK: "onnx.Loop"
// CHECK: %[[X:.+]] = "onnx.Add"
// CHECK: %[[XT:.+]] = "onnx.Gather"(%[[X]],
// CHECK: "onnx.MatMul"(%[[XT]], %arg1)
func.func @x_in_body(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %none = onnx.NoValue
  %0:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<4x8xf32>):
    %v2 = "onnx.Add"(%v, %v) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %xt = "onnx.Gather"(%v2, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %v2, %xw : tensor<i1>, tensor<4x8xf32>, tensor<6xf32>
  }) : (tensor<i64>, none, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x6xf32>)
  return %0#1 : tensor<4x6xf32>
}

// -----

// Not hoisted: the index is not the iteration number (a loop-carried
// value), nor is a Gather by a constant.
// CHECK-LABEL: func.func @index_not_iteration
// CHECK: "onnx.Loop"
// CHECK: %[[XT:.+]] = "onnx.Gather"(%arg0, %{{.+}})
// CHECK: "onnx.MatMul"(%[[XT]], %arg1)
// CHECK: %[[XC:.+]] = "onnx.Gather"(%arg0, %{{.+}})
// CHECK: "onnx.MatMul"(%[[XC]], %arg1)
func.func @index_not_iteration(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %j0: tensor<i64>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %none = onnx.NoValue
  %0:3 = "onnx.Loop"(%m, %none, %j0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %j: tensor<i64>):
    %xt = "onnx.Gather"(%x, %j) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    %two = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
    %xc = "onnx.Gather"(%x, %two) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xcw = "onnx.MatMul"(%xc, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %j, %xw, %xcw : tensor<i1>, tensor<i64>, tensor<6xf32>, tensor<6xf32>
  }) : (tensor<i64>, none, tensor<i64>) -> (tensor<i64>, tensor<4x6xf32>, tensor<4x6xf32>)
  return %0#1, %0#2 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Not hoisted: the gathered axis is the contracted one (axis 1 of a 2-D X,
// also written -1).
// CHECK-LABEL: func.func @gather_contracted_axis
// CHECK: "onnx.Loop"
// CHECK: %[[XT:.+]] = "onnx.Gather"(%arg0, %{{.+}}) <{axis = 1 : i64}>
// CHECK: "onnx.MatMul"(%[[XT]], %arg1)
// CHECK: %[[XN:.+]] = "onnx.Gather"(%arg0, %{{.+}}) <{axis = -1 : i64}>
// CHECK: "onnx.MatMul"(%[[XN]], %arg1)
func.func @gather_contracted_axis(%x: tensor<8x4xf32>, %w: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %none = onnx.NoValue
  %0:2 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 1 : i64}> : (tensor<8x4xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    %xn = "onnx.Gather"(%x, %i) <{axis = -1 : i64}> : (tensor<8x4xf32>, tensor<i64>) -> tensor<8xf32>
    %xnw = "onnx.MatMul"(%xn, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %xw, %xnw : tensor<i1>, tensor<6xf32>, tensor<6xf32>
  }) : (tensor<i64>, none) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Not hoisted: a trip count known only at run time (not X's dim), a
// constant one below the rows (X W would compute rows never read), a
// condition the body computes (the loop may stop early), W defined in the
// body.
// CHECK-LABEL: func.func @not_every_row
// CHECK-NOT: "onnx.MatMul"(%arg0
// CHECK-COUNT-4: "onnx.MatMul"(%{{.+}}) : (tensor<8xf32>, tensor<8x6xf32>)
// CHECK-NOT: "onnx.MatMul"(%arg0
func.func @not_every_row(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %m: tensor<i64>, %c: tensor<i1>) -> (tensor<?x6xf32>, tensor<3x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %xw : tensor<i1>, tensor<6xf32>
  }) : (tensor<i64>, none) -> tensor<?x6xf32>
  %three = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %1 = "onnx.Loop"(%three, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %xw : tensor<i1>, tensor<6xf32>
  }) : (tensor<i64>, none) -> tensor<3x6xf32>
  %four = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %2 = "onnx.Loop"(%four, %c) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    %r = "onnx.ReduceSum"(%xw, %none) {keepdims = 0 : i64} : (tensor<6xf32>, none) -> tensor<f32>
    %z = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %go = "onnx.Greater"(%r, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    onnx.Yield %go, %xw : tensor<i1>, tensor<6xf32>
  }) : (tensor<i64>, tensor<i1>) -> tensor<4x6xf32>
  %3 = "onnx.Loop"(%four, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %wb = "onnx.Add"(%w, %w) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
    %xw = "onnx.MatMul"(%xt, %wb) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
    onnx.Yield %ci, %xw : tensor<i1>, tensor<6xf32>
  }) : (tensor<i64>, none) -> tensor<4x6xf32>
  return %0, %1, %2, %3 : tensor<?x6xf32>, tensor<3x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Not hoisted: the product inside an If of the body (it may not run at
// every iteration).
// CHECK-LABEL: func.func @in_branch
// CHECK: "onnx.Loop"
// CHECK: "onnx.If"
// CHECK: "onnx.MatMul"(%{{.+}}, %arg1) : (tensor<8xf32>, tensor<8x6xf32>)
func.func @in_branch(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %p: tensor<i1>) -> tensor<4x6xf32> {
  %m = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    %xt = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
    %y = "onnx.If"(%p) ({
      %xw = "onnx.MatMul"(%xt, %w) : (tensor<8xf32>, tensor<8x6xf32>) -> tensor<6xf32>
      onnx.Yield %xw : tensor<6xf32>
    }, {
      %z = "onnx.Constant"() <{value = dense<0.0> : tensor<6xf32>}> : () -> tensor<6xf32>
      onnx.Yield %z : tensor<6xf32>
    }) : (tensor<i1>) -> tensor<6xf32>
    onnx.Yield %ci, %y : tensor<i1>, tensor<6xf32>
  }) : (tensor<i64>, none) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

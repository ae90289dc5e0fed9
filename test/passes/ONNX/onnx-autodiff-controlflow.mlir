// RUN: %onnxc-opt --onnx-autodiff --split-input-file %s | FileCheck %s

// If: the backward is an If on the same condition; each branch recomputes
// its forward ops and differentiates them with respect to the captures
// (a, b), zeros where a branch does not read one. Recomputed values no
// gradient reads are dropped (a * b in the then branch).
// CHECK-LABEL: func.func @if_grad
// CHECK:      %[[F:.+]] = "onnx.If"(%arg0) ({
// CHECK:        "onnx.Mul"(%arg1, %arg2)
// CHECK:      }, {
// CHECK:        "onnx.Exp"(%arg1)
// CHECK:      }) : (tensor<i1>) -> tensor<3xf32>
// CHECK:      %[[DY:.+]] = "onnx.Expand"
// CHECK:      %[[B:.+]]:2 = "onnx.If"(%arg0) ({
// CHECK-NOT:    "onnx.Mul"(%arg1, %arg2)
// CHECK-DAG:    %[[DA:.+]] = "onnx.Mul"(%[[DY]], %arg2)
// CHECK-DAG:    %[[DB:.+]] = "onnx.Mul"(%[[DY]], %arg1)
// CHECK:        onnx.Yield %[[DA]], %[[DB]] : tensor<3xf32>, tensor<3xf32>
// CHECK:      }, {
// CHECK:        %[[E:.+]] = "onnx.Exp"(%arg1)
// CHECK:        %[[DE:.+]] = "onnx.Mul"(%[[DY]], %[[E]])
// CHECK:        %[[Z:.+]] = "onnx.Constant"() <{value = dense<0.000000e+00> : tensor<3xf32>}>
// CHECK:        onnx.Yield %[[DE]], %[[Z]] : tensor<3xf32>, tensor<3xf32>
// CHECK:      }) : (tensor<i1>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NOT:  onnx.training.Gradient
// CHECK:      return %[[B]]#0, %[[B]]#1
func.func @if_grad(%c: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r = "onnx.If"(%c) ({
    %m = "onnx.Mul"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %m : tensor<3xf32>
  }, {
    %e = "onnx.Exp"(%a) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %e : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.ReduceSum"(%r, %none) <{keepdims = 0 : i64}> : (tensor<3xf32>, none) -> tensor<f32>
  %g:2 = "onnx.training.Gradient"(%a, %b, %y) <{xs = ["a", "b"], y = "y"}> : (tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %g#0, %g#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Scan: the forward Scan also outputs each step's input state (a third
// result, axis 0, forward order). The backward Scan carries (d state,
// d w), scans the records and the gradient of the scan output in reverse
// and the scan input (read in reverse by the forward) forward, and outputs
// d xs in the forward's layout. The body is linear in h: its recomputation
// is dropped.
// CHECK-LABEL: func.func @scan_grad
// CHECK:      %[[F:.+]]:3 = "onnx.Scan"(%arg0, %arg1) <{num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>, scan_output_axes = array<i64: 0, 0>, scan_output_directions = array<i64: 0, 0>}> ({
// CHECK:      ^bb0(%[[H:.+]]: tensor<2xf32>, %{{.+}}: tensor<2xf32>):
// CHECK:        onnx.Yield %{{.+}}, %{{.+}}, %[[H]] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK:      }) : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>, tensor<5x2xf32>)
// CHECK:      %[[DY:.+]] = "onnx.Expand"
// CHECK:      %[[B:.+]]:3 = "onnx.Scan"(%{{.+}}, %{{.+}}, %[[F]]#2, %arg1, %[[DY]]) <{num_scan_inputs = 3 : i64, scan_input_axes = array<i64: 0, 0, 0>, scan_input_directions = array<i64: 1, 0, 1>, scan_output_axes = array<i64: 0>, scan_output_directions = array<i64: 0>}> ({
// CHECK:      ^bb0(%[[DH:.+]]: tensor<2xf32>, %[[DW:.+]]: tensor<2xf32>, %[[HT:.+]]: tensor<2xf32>, %[[XT:.+]]: tensor<2xf32>, %[[DO:.+]]: tensor<2xf32>):
// CHECK-NOT:    "onnx.Mul"(%[[HT]], %arg2)
// CHECK:        %[[DS:.+]] = "onnx.Add"(%[[DH]], %[[DO]])
// CHECK-DAG:    %[[DHP:.+]] = "onnx.Mul"(%[[DS]], %arg2)
// CHECK-DAG:    %[[DWT:.+]] = "onnx.Mul"(%[[DS]], %[[HT]])
// CHECK:        %[[DW2:.+]] = "onnx.Add"(%[[DW]], %[[DWT]])
// CHECK:        onnx.Yield %[[DHP]], %[[DW2]], %[[DS]]
// CHECK:      return %[[B]]#0, %[[B]]#2, %[[B]]#1
func.func @scan_grad(%h0: tensor<2xf32>, %xs: tensor<5x2xf32>, %w: tensor<2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>, tensor<2xf32>) {
  %r:2 = "onnx.Scan"(%h0, %xs) ({
  ^bb0(%h: tensor<2xf32>, %x: tensor<2xf32>):
    %m = "onnx.Mul"(%h, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s = "onnx.Add"(%m, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %s, %s : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.ReduceSum"(%r#1, %none) <{keepdims = 0 : i64}> : (tensor<5x2xf32>, none) -> tensor<f32>
  %g:3 = "onnx.training.Gradient"(%h0, %xs, %w, %y) <{xs = ["h0", "xs", "w"], y = "y"}> : (tensor<2xf32>, tensor<5x2xf32>, tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<5x2xf32>, tensor<2xf32>)
  return %g#0, %g#1, %g#2 : tensor<2xf32>, tensor<5x2xf32>, tensor<2xf32>
}

// -----

// Loop: the forward Loop also outputs each iteration's number and carried
// value (scan outputs: their length is the number of iterations run). The
// backward Loop runs that many iterations, iteration j reading record
// N-1-j, and carries (d h, d w). Tanh's gradient reads its result, which is
// the carried value the iteration yields: the record of the next iteration
// (the Loop's result for the last), read from the records shifted by one,
// so the backward body does not recompute Mul and Tanh.
// CHECK-LABEL: func.func @loop_grad
// CHECK:      %[[F:.+]]:3 = "onnx.Loop"(%arg0, %{{.+}}, %arg1) ({
// CHECK:      ^bb0(%[[IT:.+]]: tensor<i64>, %[[C:.+]]: tensor<i1>, %[[H:.+]]: tensor<2xf32>):
// CHECK:        onnx.Yield %[[C]], %{{.+}}, %[[IT]], %[[H]] : tensor<i1>, tensor<2xf32>, tensor<i64>, tensor<2xf32>
// CHECK:      }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?xi64>, tensor<?x2xf32>)
// CHECK:      %[[DY:.+]] = "onnx.Expand"
// CHECK:      %[[S:.+]] = "onnx.Shape"(%[[F]]#1)
// CHECK:      %[[N:.+]] = "onnx.Gather"(%[[S]], %{{.+}}) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
// CHECK:      %[[NONE:.+]] = onnx.NoValue
// CHECK:      %[[REST:.+]] = "onnx.Slice"(%[[F]]#2,
// CHECK:      %[[LAST:.+]] = "onnx.Unsqueeze"(%[[F]]#0,
// CHECK:      %[[NEXT:.+]] = "onnx.Concat"(%[[REST]], %[[LAST]]) <{axis = 0 : i64}>
// CHECK:      %[[B:.+]]:2 = "onnx.Loop"(%[[N]], %[[NONE]], %[[DY]], %{{.+}}) ({
// CHECK:      ^bb0(%[[J:.+]]: tensor<i64>, %{{.+}}: tensor<i1>, %[[DH:.+]]: tensor<2xf32>, %[[DW:.+]]: tensor<2xf32>):
// CHECK:        %[[NJ:.+]] = "onnx.Sub"(%[[N]], %[[J]])
// CHECK:        %[[IDX:.+]] = "onnx.Sub"(%[[NJ]], %{{.+}})
// CHECK:        %[[T:.+]] = "onnx.Gather"(%[[NEXT]], %[[IDX]]) <{axis = 0 : i64}> : (tensor<?x2xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK:        %[[TRUE:.+]] = "onnx.Constant"() <{value = dense<true> : tensor<i1>}>
// CHECK:        %[[HT:.+]] = "onnx.Gather"(%[[F]]#2, %[[IDX]]) <{axis = 0 : i64}> : (tensor<?x2xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK-NOT:    "onnx.Tanh"
// CHECK:        "onnx.Mul"(%[[T]], %[[T]])
// CHECK:        %[[DM:.+]] = "onnx.Mul"(%[[DH]], %{{.+}})
// CHECK-DAG:    %[[DHP:.+]] = "onnx.Mul"(%[[DM]], %arg2)
// CHECK-DAG:    %[[DWT:.+]] = "onnx.Mul"(%[[DM]], %[[HT]])
// CHECK:        %[[DW2:.+]] = "onnx.Add"(%[[DW]], %[[DWT]])
// CHECK:        onnx.Yield %[[TRUE]], %[[DHP]], %[[DW2]]
// CHECK:      return %[[B]]#0, %[[B]]#1
func.func @loop_grad(%n: tensor<i64>, %h0: tensor<2xf32>, %w: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %r = "onnx.Loop"(%n, %none, %h0) ({
  ^bb0(%it: tensor<i64>, %c: tensor<i1>, %h: tensor<2xf32>):
    %m = "onnx.Mul"(%h, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %t = "onnx.Tanh"(%m) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %c, %t : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  %y = "onnx.ReduceSum"(%r, %none) <{keepdims = 0 : i64}> : (tensor<2xf32>, none) -> tensor<f32>
  %g:2 = "onnx.training.Gradient"(%h0, %w, %y) <{xs = ["h0", "w"], y = "y"}> : (tensor<2xf32>, tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %g#0, %g#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Nested: an If in a Loop body. The backward Loop's body differentiates
// the If of the recomputed body with an If (which recomputes the branch;
// the recomputed forward If itself is dropped: no gradient reads it).
// CHECK-LABEL: func.func @if_in_loop
// CHECK:      "onnx.Loop"
// CHECK:        "onnx.If"
// CHECK:      "onnx.Loop"
// CHECK:        %[[C:.+]] = "onnx.Gather"(%arg3, %{{.+}})
// CHECK:        %[[BI:.+]]:2 = "onnx.If"(%[[C]]) ({
// CHECK:          "onnx.Tanh"
// CHECK:        }, {
// CHECK:          "onnx.Mul"
// CHECK:        }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NOT:    "onnx.If"
// CHECK:        onnx.Yield
func.func @if_in_loop(%n: tensor<i64>, %h0: tensor<2xf32>, %w: tensor<2xf32>, %cs: tensor<5xi1>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %r = "onnx.Loop"(%n, %none, %h0) ({
  ^bb0(%it: tensor<i64>, %c: tensor<i1>, %h: tensor<2xf32>):
    %ci = "onnx.Gather"(%cs, %it) <{axis = 0 : i64}> : (tensor<5xi1>, tensor<i64>) -> tensor<i1>
    %t = "onnx.If"(%ci) ({
      %m = "onnx.Tanh"(%h) : (tensor<2xf32>) -> tensor<2xf32>
      onnx.Yield %m : tensor<2xf32>
    }, {
      %m = "onnx.Mul"(%h, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.Yield %m : tensor<2xf32>
    }) : (tensor<i1>) -> tensor<2xf32>
    onnx.Yield %c, %t : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  %y = "onnx.ReduceSum"(%r, %none) <{keepdims = 0 : i64}> : (tensor<2xf32>, none) -> tensor<f32>
  %g = "onnx.training.Gradient"(%w, %y) <{xs = ["w"], y = "y"}> : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

// -----

// An LSTM with a symbolic sequence length expands into a Scan of its cell
// (carrying H and C, scanning X W^T, the recurrent product in the body),
// which the Scan rule then differentiates: a forward Scan recording the
// states and a backward Scan in the opposite direction.
// CHECK-LABEL: func.func @lstm_symbolic_sequence
// CHECK-NOT:  "onnx.LSTM"
// CHECK:      "onnx.Scan"({{.+}}) <{num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 0>, {{.*}}scan_output_directions = array<i64: 0{{.*}}}> ({
// CHECK:      ^bb0(%[[H:.+]]: tensor<2x4xf32>, %[[C:.+]]: tensor<2x4xf32>, %[[X:.+]]: tensor<2x16xf32>):
// CHECK:        "onnx.MatMul"(%[[H]],
// CHECK:        "onnx.Sigmoid"
// CHECK:        onnx.Yield
// CHECK:      "onnx.Scan"({{.+}}) <{num_scan_inputs = {{[0-9]+}} : i64, {{.*}}scan_input_directions = array<i64: 1,
// CHECK-NOT:  "onnx.LSTM"
// CHECK:      return
func.func @lstm_symbolic_sequence(%x: tensor<?x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x16x3xf32> {
  %none = onnx.NoValue
  %y, %yh, %yc = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) <{hidden_size = 4 : i64}> : (tensor<?x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, none, none, none, none, none) -> (tensor<?x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  %g = "onnx.training.Gradient"(%w, %yh) <{xs = ["w"], y = "yh"}> : (tensor<1x16x3xf32>, tensor<1x2x4xf32>) -> tensor<1x16x3xf32>
  return %g : tensor<1x16x3xf32>
}

// RUN: %onnxc-opt --onnx-autodiff --split-input-file --verify-diagnostics %s

func.func @no_path(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %y = "onnx.Neg"(%a) : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'onnx.training.Gradient' op y does not depend on x 'b'}}
  %g:2 = "onnx.training.Gradient"(%a, %b, %y) <{xs = ["a", "b"], y = "y"}> : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %g#1 : tensor<f32>
}

// -----

func.func @not_an_input(%a: tensor<f32>) -> tensor<f32> {
  %h = "onnx.Neg"(%a) : (tensor<f32>) -> tensor<f32>
  %y = "onnx.Exp"(%h) : (tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{'onnx.training.Gradient' op x 'h' is not a graph input or initializer}}
  %g = "onnx.training.Gradient"(%h, %y) <{xs = ["h"], y = "y"}> : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

func.func @no_rule(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Hardmax' op has no gradient rule (it is on the path from an x to y of node 'g' (training.Gradient))}}
  %y = "onnx.Hardmax"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %g = "onnx.training.Gradient"(%a, %y) <{xs = ["a"], y = "y"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#g)
  return %g : tensor<4xf32>
}
#g = loc("g"("file.mlir":1:1))

// -----

// LSTM's input_forget (coupled input and forget gates) has no expansion.
func.func @lstm_input_forget(%x: tensor<3x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x16x3xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.LSTM' op autodiff: LSTM with input_forget has no rule}}
  %y, %yh, %yc = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) <{hidden_size = 4 : i64, input_forget = 1 : i64}> : (tensor<3x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, none, none, none, none, none) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  %g = "onnx.training.Gradient"(%w, %yh) <{xs = ["w"], y = "yh"}> : (tensor<1x16x3xf32>, tensor<1x2x4xf32>) -> tensor<1x16x3xf32>
  return %g : tensor<1x16x3xf32>
}

// -----

// An op with no rule in a subgraph: the error names it (the backward
// recomputes the branch, where the sweep meets it).
func.func @no_rule_in_branch(%c: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "onnx.If"(%c) ({
    // expected-error @+1 {{'onnx.Hardmax' op has no gradient rule (it is on the path from an x to y of node 'g' (training.Gradient))}}
    %h = "onnx.Hardmax"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    onnx.Yield %h : tensor<4xf32>
  }, {
    onnx.Yield %a : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %g = "onnx.training.Gradient"(%a, %r) <{xs = ["a"], y = "r"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#g)
  return %g : tensor<4xf32>
}
#g = loc("g"("file.mlir":1:1))

// -----

// A random op in a Loop body: the backward would draw again.
func.func @random_in_loop(%n: tensor<i64>, %h0: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() : () -> none
  %r = "onnx.Loop"(%n, %none, %h0) ({
  ^bb0(%it: tensor<i64>, %c: tensor<i1>, %h: tensor<2xf32>):
    // expected-error @+1 {{'onnx.RandomUniformLike' op autodiff: a random op in a subgraph is not differentiated (the backward recomputes the subgraph, which would draw again)}}
    %u = "onnx.RandomUniformLike"(%h) : (tensor<2xf32>) -> tensor<2xf32>
    %m = "onnx.Mul"(%h, %u) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %c, %m : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  %g = "onnx.training.Gradient"(%h0, %r) <{xs = ["h0"], y = "r"}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

// -----

// The activations are parsed as the lowering parses them
// (dialects/ONNX/IR/RecurrentActivations): the same errors.
func.func @rnn_unknown_activation(%x: tensor<3x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x4x3xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.RNN' op activation 'Gelu' is not supported (expected one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)}}
  %y, %yh = "onnx.RNN"(%x, %w, %r, %none, %none, %none) <{hidden_size = 4 : i64, activations = ["Gelu"]}> : (tensor<3x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  %g = "onnx.training.Gradient"(%w, %yh) <{xs = ["w"], y = "yh"}> : (tensor<1x4x3xf32>, tensor<1x2x4xf32>) -> tensor<1x4x3xf32>
  return %g : tensor<1x4x3xf32>
}

// -----

func.func @rnn_alpha_left_over(%x: tensor<3x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x4x3xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.RNN' op activation_alpha has 1 values, but its activations take 0}}
  %y, %yh = "onnx.RNN"(%x, %w, %r, %none, %none, %none) <{hidden_size = 4 : i64, activations = ["Tanh"], activation_alpha = array<f32: 0.5>}> : (tensor<3x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<3x1x2x4xf32>, tensor<1x2x4xf32>)
  %g = "onnx.training.Gradient"(%w, %yh) <{xs = ["w"], y = "yh"}> : (tensor<1x4x3xf32>, tensor<1x2x4xf32>) -> tensor<1x4x3xf32>
  return %g : tensor<1x4x3xf32>
}

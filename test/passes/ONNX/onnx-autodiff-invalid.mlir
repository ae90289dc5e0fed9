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

// RNN, GRU and LSTM are differentiated through their cell unrolled over a
// static sequence length; a symbolic one needs Scan's gradient.
func.func @lstm_symbolic_sequence(%x: tensor<?x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x16x3xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.LSTM' op autodiff: a symbolic sequence length needs the recurrence as a Scan, whose gradient rule is not there yet}}
  %y, %yh, %yc = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) <{hidden_size = 4 : i64}> : (tensor<?x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, none, none, none, none, none) -> (tensor<?x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  %g = "onnx.training.Gradient"(%w, %yh) <{xs = ["w"], y = "yh"}> : (tensor<1x16x3xf32>, tensor<1x2x4xf32>) -> tensor<1x16x3xf32>
  return %g : tensor<1x16x3xf32>
}

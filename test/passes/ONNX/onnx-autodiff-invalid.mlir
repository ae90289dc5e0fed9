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

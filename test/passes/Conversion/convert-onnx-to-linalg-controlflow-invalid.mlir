// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// Control-flow errors the dialect verifier leaves to the lowering (a
// non-scalar If condition and scan axes out of range are verifier errors:
// test/dialects/ONNX/IR/invalid.mlir).

func.func @loop_m_not_single(%m: tensor<3xi64>, %y0: tensor<2xf32>) -> tensor<2xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.Loop' op M must hold a single int64, not 'tensor<3xi64>'}}
  %0 = "onnx.Loop"(%m, %none, %y0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %y: tensor<2xf32>):
    onnx.Yield %ci, %y : tensor<i1>, tensor<2xf32>
  }) : (tensor<3xi64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @dropout_ratio_one(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{'onnx.Dropout' op ratio 1 is outside [0, 1)}}
  %0:2 = "onnx.Dropout"(%x, %r, %t) : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, none)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @dropout_ratio_negative(%x: tensor<2x3xf32>, %t: tensor<i1>) -> tensor<2x3xf32> {
  %r = "onnx.Constant"() {value = dense<-0.5> : tensor<f32>} : () -> tensor<f32>
  // expected-error @+1 {{'onnx.Dropout' op ratio -0.5 is outside [0, 1)}}
  %0:2 = "onnx.Dropout"(%x, %r, %t) : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, none)
  return %0#0 : tensor<2x3xf32>
}

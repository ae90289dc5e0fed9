// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s
//
// Errors of Attention.cpp and Transformer.cpp that inference does not
// report first (types it leaves alone, attributes it does not read).

func.func @attention_int_mask(%q: tensor<1x2x3x4xf32>, %m: tensor<3x3xi32>) -> tensor<1x2x3x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op attn_mask must be bool or a float type, got 'i32'}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %m, %n, %n, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<3x3xi32>, none, none, none) -> (tensor<1x2x3x4xf32>, none, none, none)
  return %0#0 : tensor<1x2x3x4xf32>
}

// -----

func.func @rms_stash(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.RMSNormalization' op only stash_type 1 (float) is supported}}
  %0 = "onnx.RMSNormalization"(%x, %s) {stash_type = 11 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @quantize_precision(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op precision 10 is not supported (the division runs in float)}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {precision = 10 : i64} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

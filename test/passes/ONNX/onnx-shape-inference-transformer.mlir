// RUN: %onnxc-opt --onnx-shape-inference --split-input-file %s | FileCheck %s
//
// onnxc's rules for the opset 23-24 transformer ops (RulesTransformer.cpp):
// result shapes, symbolic dims kept.

// 3-D GQA with a KV cache: Y (B, S, Hq * Dv), the caches (B, Hkv, P + S, D),
// qk_matmul_output (B, Hq, S, P + S).
// CHECK-LABEL: func.func @attention_3d_cache
// CHECK: "onnx.Attention"{{.*}} -> (tensor<?x3x12xf32, #onnx.dims<["B"]>>, tensor<?x2x8x4xf32, #onnx.dims<["B"]>>, tensor<?x2x8x3xf32, #onnx.dims<["B"]>>, tensor<?x4x3x8xf32, #onnx.dims<["B"]>>)
func.func @attention_3d_cache(%q: tensor<?x3x16xf32, #onnx.dims<["B"]>>, %k: tensor<?x3x8xf32, #onnx.dims<["B"]>>, %v: tensor<?x3x6xf32, #onnx.dims<["B"]>>, %pk: tensor<?x2x5x4xf32, #onnx.dims<["B"]>>, %pv: tensor<?x2x5x3xf32, #onnx.dims<["B"]>>) {
  %n = "onnx.NoValue"() : () -> none
  %0:4 = "onnx.Attention"(%q, %k, %v, %n, %pk, %pv, %n) {q_num_heads = 4 : i64, kv_num_heads = 2 : i64, is_causal = 1 : i64} : (tensor<?x3x16xf32, #onnx.dims<["B"]>>, tensor<?x3x8xf32, #onnx.dims<["B"]>>, tensor<?x3x6xf32, #onnx.dims<["B"]>>, none, tensor<?x2x5x4xf32, #onnx.dims<["B"]>>, tensor<?x2x5x3xf32, #onnx.dims<["B"]>>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

// 4-D, symbolic sequences: the total length of an unknown past is unknown;
// without a past it is K's.
// CHECK-LABEL: func.func @attention_4d_symbolic
// CHECK: "onnx.Attention"{{.*}} -> (tensor<1x8x?x64xf16, #onnx.dims<["S"]>>, none, none, tensor<1x8x?x?xf16, #onnx.dims<["S", "T"]>>)
func.func @attention_4d_symbolic(%q: tensor<1x8x?x64xf16, #onnx.dims<["S"]>>, %k: tensor<1x1x?x64xf16, #onnx.dims<["T"]>>, %m: tensor<?x?xi1, #onnx.dims<["S", "T"]>>) {
  %n = "onnx.NoValue"() : () -> none
  %0:4 = "onnx.Attention"(%q, %k, %k, %m, %n, %n, %n) {qk_matmul_output_mode = 3 : i64} : (tensor<1x8x?x64xf16, #onnx.dims<["S"]>>, tensor<1x1x?x64xf16, #onnx.dims<["T"]>>, tensor<1x1x?x64xf16, #onnx.dims<["T"]>>, tensor<?x?xi1, #onnx.dims<["S", "T"]>>, none, none, none) -> (tensor<*xf16>, none, none, tensor<*xf16>)
  return
}

// -----

// CHECK-LABEL: func.func @norm_rope_scatter_swish
// CHECK: "onnx.RMSNormalization"{{.*}} -> tensor<?x5x16xf16, #onnx.dims<["B"]>>
// CHECK: "onnx.RotaryEmbedding"{{.*}} -> tensor<?x5x16xf32, #onnx.dims<["B"]>>
// CHECK: "onnx.TensorScatter"{{.*}} -> tensor<?x2x32x8xf32, #onnx.dims<["B"]>>
// CHECK: "onnx.Swish"{{.*}} -> tensor<?x5x16xf32, #onnx.dims<["B"]>>
func.func @norm_rope_scatter_swish(%x: tensor<?x5x16xf32, #onnx.dims<["B"]>>, %s: tensor<16xf16>, %c: tensor<64x4xf32>, %p: tensor<?x5xi64, #onnx.dims<["B"]>>, %cache: tensor<?x2x32x8xf32, #onnx.dims<["B"]>>, %u: tensor<?x2x5x8xf32, #onnx.dims<["B"]>>) {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<?x5x16xf32, #onnx.dims<["B"]>>, tensor<16xf16>) -> tensor<*xf16>
  %1 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) {num_heads = 2 : i64, rotary_embedding_dim = 8 : i64} : (tensor<?x5x16xf32, #onnx.dims<["B"]>>, tensor<64x4xf32>, tensor<64x4xf32>, tensor<?x5xi64, #onnx.dims<["B"]>>) -> tensor<*xf32>
  %2 = "onnx.TensorScatter"(%cache, %u, %n) : (tensor<?x2x32x8xf32, #onnx.dims<["B"]>>, tensor<?x2x5x8xf32, #onnx.dims<["B"]>>, none) -> tensor<*xf32>
  %3 = "onnx.Swish"(%x) {alpha = 0.5 : f32} : (tensor<?x5x16xf32, #onnx.dims<["B"]>>) -> tensor<*xf32>
  return
}

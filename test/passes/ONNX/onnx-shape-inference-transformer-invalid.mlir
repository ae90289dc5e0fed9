// RUN: %onnxc-opt --onnx-shape-inference --split-input-file --verify-diagnostics %s
//
// onnxc's rules for the opset 23-24 transformer ops (RulesTransformer.cpp):
// what the spec forbids and the shapes show, one error each.

func.func @att_past_alone(%q: tensor<1x2x3x4xf32>, %p: tensor<1x2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op past_key and past_value must be given together}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %p, %n, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, tensor<1x2x5x4xf32>, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_nonpad_past(%q: tensor<1x2x3x4xf32>, %p: tensor<1x2x5x4xf32>, %l: tensor<1xi64>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op nonpad_kv_seqlen cannot be combined with past_key/past_value}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %p, %p, %l) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1xi64>) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_mode(%q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op qk_matmul_output_mode is 4, expected 0 to 3}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {qk_matmul_output_mode = 4 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_precision(%q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op softmax_precision is 7, expected 1 (float), 10 (float16), 11 (double) or 16 (bfloat16)}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {softmax_precision = 7 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_window(%q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op left_window_size is -2, expected -1 or a nonnegative size}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {left_window_size = -2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_heads_positive(%q: tensor<1x3x8xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op q_num_heads and kv_num_heads must be positive}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {q_num_heads = 0 : i64, kv_num_heads = 1 : i64} : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_ranks(%a: tensor<1x3x8xf32>, %q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op Q, K and V must all have rank 3 or all rank 4, they have ranks 3, 4 and 4}}
  %0:4 = "onnx.Attention"(%a, %q, %q, %n, %n, %n, %n) : (tensor<1x3x8xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_mask_rank(%q: tensor<1x2x3x4xf32>, %m: tensor<1x1x1x3x3xi1>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op attn_mask has rank 5, at most 4 allowed}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %m, %n, %n, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x1x1x3x3xi1>, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_3d_no_heads(%q: tensor<1x3x8xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op 3-D Q, K and V need the q_num_heads and kv_num_heads attributes}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_hidden(%a: tensor<1x3x9xf32>, %q: tensor<1x3x8xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op the hidden size of K (8) is not a multiple of its number of heads (3)}}
  %0:4 = "onnx.Attention"(%a, %q, %q, %n, %n, %n, %n) {q_num_heads = 3 : i64, kv_num_heads = 3 : i64} : (tensor<1x3x9xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_q_heads_4d(%q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op q_num_heads is 3 but Q has 2 heads}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {q_num_heads = 3 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_kv_heads_4d(%q: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op kv_num_heads is 1 but K has 2 heads}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %n, %n, %n) {kv_num_heads = 1 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_head_size_4d(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x3x5xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op the head size of K (5) differs from Q's (4)}}
  %0:4 = "onnx.Attention"(%q, %k, %q, %n, %n, %n, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_v_heads(%q: tensor<1x2x3x4xf32>, %v: tensor<1x1x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op V has 1 heads, K has 2}}
  %0:4 = "onnx.Attention"(%q, %q, %v, %n, %n, %n, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_gqa_divisible(%q: tensor<1x3x3x4xf32>, %k: tensor<1x2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op q_num_heads (3) is not a multiple of kv_num_heads (2)}}
  %0:4 = "onnx.Attention"(%q, %k, %k, %n, %n, %n, %n) : (tensor<1x3x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_gqa_divisible_3d(%q: tensor<1x3x16xf32>, %k: tensor<1x3x12xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op q_num_heads (4) is not a multiple of kv_num_heads (3)}}
  %0:4 = "onnx.Attention"(%q, %k, %k, %n, %n, %n, %n) {q_num_heads = 4 : i64, kv_num_heads = 3 : i64} : (tensor<1x3x16xf32>, tensor<1x3x12xf32>, tensor<1x3x12xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_head_size_3d(%q: tensor<1x3x8xf32>, %k: tensor<1x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op the head size of K (2) differs from Q's (4)}}
  %0:4 = "onnx.Attention"(%q, %k, %k, %n, %n, %n, %n) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64} : (tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, none, none, none, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @att_past_rank(%q: tensor<1x2x3x4xf32>, %p: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Attention' op past_key and past_value must have rank 4}}
  %0:4 = "onnx.Attention"(%q, %q, %q, %n, %p, %p, %n) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, none, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> (tensor<*xf32>, none, none, none)
  return
}

// -----

func.func @rms_stash(%x: tensor<2x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.RMSNormalization' op stash_type is 10, only 1 (float) is supported}}
  %0 = "onnx.RMSNormalization"(%x, %s) {stash_type = 10 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @rms_axis(%x: tensor<2x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.RMSNormalization' op axis 2 is out of range for an input of rank 2}}
  %0 = "onnx.RMSNormalization"(%x, %s) {axis = 2 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @rms_scale_rank(%x: tensor<2x4xf32>, %s: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'onnx.RMSNormalization' op scale has rank 3, more than the input's 2}}
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<2x4xf32>, tensor<1x2x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @rms_scale_dims(%x: tensor<2x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.RMSNormalization' op dim 0 of scale (3) does not broadcast to the input's (4)}}
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @rope_rank(%x: tensor<2x8xf32>, %c: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op input must have rank 3 or 4, it has 2}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) : (tensor<2x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_3d_heads(%x: tensor<2x5x8xf32>, %c: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op a 3-D input needs the num_heads attribute}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) : (tensor<2x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_heads_positive(%x: tensor<2x5x8xf32>, %c: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op num_heads is 0, expected a positive count}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) {num_heads = 0 : i64} : (tensor<2x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_rot_odd(%x: tensor<2x1x5x8xf32>, %c: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op rotary_embedding_dim is 3, expected an even size (or 0: all)}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) {rotary_embedding_dim = 3 : i64} : (tensor<2x1x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_hidden(%x: tensor<2x5x9xf32>, %c: tensor<2x5x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op the hidden size (9) is not a multiple of num_heads (2)}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) {num_heads = 2 : i64} : (tensor<2x5x9xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_odd_head(%x: tensor<2x1x5x7xf32>, %c: tensor<2x5x3xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op the head size (7) is odd}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) : (tensor<2x1x5x7xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_rot_large(%x: tensor<2x1x5x8xf32>, %c: tensor<2x5x5xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RotaryEmbedding' op rotary_embedding_dim (10) is larger than the head size (8)}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %n) {rotary_embedding_dim = 10 : i64} : (tensor<2x1x5x8xf32>, tensor<2x5x5xf32>, tensor<2x5x5xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @rope_cache_rank(%x: tensor<2x1x5x8xf32>, %c: tensor<2x5x4xf32>, %p: tensor<2x5xi64>) {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op cos_cache must have rank 2 with position_ids, it has 3}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) : (tensor<2x1x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<2x5xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @rope_cache_last(%x: tensor<2x1x5x8xf32>, %c: tensor<16x3xf32>, %p: tensor<2x5xi64>) {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op the last dim of cos_cache is 3, expected 4 (half the rotated size)}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) : (tensor<2x1x5x8xf32>, tensor<16x3xf32>, tensor<16x3xf32>, tensor<2x5xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @rope_pos_rank(%x: tensor<2x1x5x8xf32>, %c: tensor<16x4xf32>, %p: tensor<5xi64>) {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op position_ids must have rank 2, it has 1}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) : (tensor<2x1x5x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<5xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_mode(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op mode 'ring' is not 'linear' or 'circular'}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) {mode = "ring"} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_axis_range(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op axis 3 is out of range for a cache of rank 3}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) {axis = 3 : i64} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_axis_batch(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op axis is the batch dim 0}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) {axis = -3 : i64} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_rank(%c: tensor<2x8x4xf32>, %u: tensor<2x3xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op update has rank 2, the cache 3}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) : (tensor<2x8x4xf32>, tensor<2x3xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_too_long(%c: tensor<2x8x4xf32>, %u: tensor<2x9x4xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op the update's sequence length (9) exceeds the cache's (8)}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x9x4xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_dims(%c: tensor<2x8x4xf32>, %u: tensor<2x3x5xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.TensorScatter' op dim 2 of the update (5) differs from the cache's (4)}}
  %0 = "onnx.TensorScatter"(%c, %u, %n) {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x3x5xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_indices_rank(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2x1xi64>) {
  // expected-error @+1 {{'onnx.TensorScatter' op write_indices must have rank 1, it has 2}}
  %0 = "onnx.TensorScatter"(%c, %u, %w) {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  return
}

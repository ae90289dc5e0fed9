// RUN: %onnxc-opt %s --split-input-file --verify-diagnostics

// One case per user-facing verifier error of the onnx dialect
// (dialects/ONNX/IR/Verify.cpp and ops/*.cpp), then the ODS constraints that
// the generated ops check (element types, required attributes and inputs).

//===----------------------------------------------------------------------===//
// Verify.cpp: arity of variadic inputs/outputs, region terminators
//===----------------------------------------------------------------------===//

func.func @variadic_input_arity() {
  // expected-error @+1 {{'onnx.Concat' op expects at least 1 'inputs' input(s), got 0}}
  %0 = "onnx.Concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @variadic_input_arity_after_fixed(%r: tensor<f32>, %t: tensor<i64>) {
  // expected-error @+1 {{'onnx.training.Adagrad' op expects at least 1 'inputs' input(s), got 0}}
  %0 = "onnx.training.Adagrad"(%r, %t) : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @variadic_output_arity(%x: tensor<2x4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Split' op expects at least 1 'outputs' output(s), got 0}}
  "onnx.Split"(%x, %none) : (tensor<2x4xf32>, none) -> ()
  return
}

// -----

func.func @region_without_yield(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op region must end in onnx.Yield}}
  %0 = "onnx.If"(%c) ({
    func.return %x : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @region_ends_in_non_terminator(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op region must end in onnx.Yield}}
  %0 = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2xf32>
  }, {
    %r = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// Shared helpers: checkRank (three wordings), checkBool, checkOneOf, checkAxis
//===----------------------------------------------------------------------===//

// -----

func.func @rank_exact(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Gemm' op input 0 has rank 3, expected 2}}
  %0 = "onnx.Gemm"(%a, %b, %none) : (tensor<2x3x4xf32>, tensor<4x5xf32>, none) -> tensor<2x5xf32>
  return
}

// -----

func.func @rank_at_least(%a: tensor<f32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'onnx.MatMul' op input 0 has rank 0, expected at least 1}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<f32>, tensor<4x5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @rank_range(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>, %c: tensor<1x2x5xf32>) {
  // expected-error @+1 {{'onnx.Gemm' op input 2 has rank 3, expected 0 to 2}}
  %0 = "onnx.Gemm"(%a, %b, %c) : (tensor<2x4xf32>, tensor<4x5xf32>, tensor<1x2x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @bool_attr(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Gemm' op attribute 'transA' must be 0 or 1, got 2}}
  %0 = "onnx.Gemm"(%a, %b, %none) {transA = 2 : i64} : (tensor<2x4xf32>, tensor<4x5xf32>, none) -> tensor<2x5xf32>
  return
}

// -----

func.func @gemm_transB(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Gemm' op attribute 'transB' must be 0 or 1, got -1}}
  %0 = "onnx.Gemm"(%a, %b, %none) {transB = -1 : i64} : (tensor<2x4xf32>, tensor<4x5xf32>, none) -> tensor<2x5xf32>
  return
}

// -----

func.func @gemm_rank_b(%a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Gemm' op input 1 has rank 1, expected 2}}
  %0 = "onnx.Gemm"(%a, %b, %none) : (tensor<2x4xf32>, tensor<4xf32>, none) -> tensor<2x5xf32>
  return
}

// -----

// C of [3] against N = 4 (reported by the lowering in linalg's terms
// before: "inferred input/output operand #1 has shape's dimension #0 to be
// 4, but found 3"); with transA, M is A's dim 1.

func.func @gemm_c_broadcast(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Gemm' op C has 3 in dim 0, which does not broadcast to N = 4}}
  %0 = "onnx.Gemm"(%a, %b, %c) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gemm_c_broadcast_m(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<3x1xf32>) {
  // expected-error @+1 {{'onnx.Gemm' op C has 3 in dim 0, which does not broadcast to M = 2}}
  %0 = "onnx.Gemm"(%a, %b, %c) {transA = 1 : i64} : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @one_of_attr(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op attribute 'auto_pad' is 'SAME', expected one of 'NOTSET' 'SAME_UPPER' 'SAME_LOWER' 'VALID'}}
  %0 = "onnx.Conv"(%x, %w, %none) {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Softmax' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.Softmax"(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @axis_negative_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.LogSoftmax' op axis -3 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.LogSoftmax"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// ops/Math.cpp
//===----------------------------------------------------------------------===//

// -----

func.func @hardmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Hardmax' op axis 5 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.Hardmax"(%x) {axis = 5 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @lp_normalization_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.LpNormalization' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.LpNormalization"(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matmul_integer_rank(%a: tensor<ui8>, %b: tensor<4x5xui8>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MatMulInteger' op input 0 has rank 0, expected at least 1}}
  %0 = "onnx.MatMulInteger"(%a, %b, %none, %none) : (tensor<ui8>, tensor<4x5xui8>, none, none) -> tensor<5xi32>
  return
}

// -----

func.func @reduce_keepdims(%x: tensor<2x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ReduceSum' op attribute 'keepdims' must be 0 or 1, got 3}}
  %0 = "onnx.ReduceSum"(%x, %none) {keepdims = 3 : i64} : (tensor<2x3xf32>, none) -> tensor<f32>
  return
}

// -----

func.func @reduce_noop_with_empty_axes(%x: tensor<2x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ReduceMax' op attribute 'noop_with_empty_axes' must be 0 or 1, got 2}}
  %0 = "onnx.ReduceMax"(%x, %none) {noop_with_empty_axes = 2 : i64} : (tensor<2x3xf32>, none) -> tensor<f32>
  return
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMax' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.ArgMax"(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3x1xi64>
  return
}

// -----

func.func @argmin_keepdims(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMin' op attribute 'keepdims' must be 0 or 1, got 7}}
  %0 = "onnx.ArgMin"(%x) {keepdims = 7 : i64} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return
}

// -----

func.func @argmax_select_last_index(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.ArgMax' op attribute 'select_last_index' must be 0 or 1, got 2}}
  %0 = "onnx.ArgMax"(%x) {select_last_index = 2 : i64} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return
}

// -----

func.func @mod_float_needs_fmod(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Mod' op fmod must be 1 for floating-point inputs}}
  %0 = "onnx.Mod"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @mod_fmod_bool(%a: tensor<3xi32>) {
  // expected-error @+1 {{'onnx.Mod' op attribute 'fmod' must be 0 or 1, got 2}}
  %0 = "onnx.Mod"(%a, %a) {fmod = 2 : i64} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @einsum_bad_character(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Einsum' op equation 'ij*->ji' has an invalid character '*'}}
  %0 = "onnx.Einsum"(%a) {equation = "ij*->ji"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// ArgMax over an empty axis has no index to return (the re-audit: it
// returned -1 with OK).
func.func @argmax_empty_axis(%a: tensor<2x0xf32>) {
  // expected-error @+1 {{'onnx.ArgMax' op axis 1 is empty (dim 0): there is no index to return}}
  %0 = "onnx.ArgMax"(%a) {axis = 1 : i64} : (tensor<2x0xf32>) -> tensor<2x1xi64>
  return
}

// -----

// A repeated output subscript (the attacker re-audit of issue 12: it
// crashed the lowering).
func.func @einsum_repeated_output(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'onnx.Einsum' op equation 'ij,jk->kk': output subscript 'k' appears more than once}}
  %0 = "onnx.Einsum"(%a, %b) {equation = "ij,jk->kk"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// ops/NN.cpp
//===----------------------------------------------------------------------===//

// -----

func.func @window_input_rank(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op input 0 has rank 2, expected at least 3}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2>} : (tensor<3x8xf32>) -> (tensor<3x4xf32>, none)
  return
}

// -----

func.func @window_list_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'strides' has 1 values, expected 2}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, none)
  return
}

// -----

func.func @window_kernel_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.AveragePool' op attribute 'kernel_shape' has 3 values, expected 2}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 2, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @window_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op attribute 'pads' has 2 values, expected 4}}
  %0 = "onnx.Conv"(%x, %w, %none) {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @window_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op attribute 'strides' has value 0, expected >= 1}}
  %0 = "onnx.Conv"(%x, %w, %none) {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @window_dilation_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'dilations' has value 0, expected >= 1}}
  %0 = "onnx.ConvTranspose"(%x, %w, %none) {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x3x10x10xf32>
  return
}

// -----

func.func @window_negative_pad(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'pads' has value -1, expected >= 0}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, -1, 0, 0>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x7x7xf32>, none)
  return
}

// -----

// A pool's pads are smaller than its kernel (ORT: "Pad should be smaller
// than kernel"; the re-audit: MaxPool returned -inf windows).
func.func @pool_pad_ge_kernel(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op pad 3 of spatial dim 1 must be smaller than the kernel (3)}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 2, 3>} : (tensor<1x1x2x2xf32>) -> (tensor<1x1x2x3xf32>, none)
  return
}

// -----

func.func @lppool_pad_ge_kernel(%x: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'onnx.LpPool' op pad 2 of spatial dim 0 must be smaller than the kernel (2)}}
  %0 = "onnx.LpPool"(%x) {kernel_shape = array<i64: 2>, pads = array<i64: 2, 0>} : (tensor<1x1x4xf32>) -> tensor<1x1x5xf32>
  return
}

// -----

func.func @window_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.AveragePool' op attribute 'kernel_shape' has value 0, expected >= 1}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x4xf32>
  return
}

// -----

func.func @window_pads_with_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op 'pads' cannot be used with auto_pad 'SAME_UPPER'}}
  %0 = "onnx.Conv"(%x, %w, %none) {auto_pad = "SAME_UPPER", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return
}

// -----

// kernel_shape is required by the ODS signature of MaxPool; the same message
// comes from the window checks for ops whose ODS leaves it optional.
func.func @pool_requires_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op requires attribute 'kernel_shape'}}
  %0:2 = "onnx.MaxPool"(%x) : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, none)
  return
}

// -----

func.func @conv_group(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op attribute 'group' must be >= 1}}
  %0 = "onnx.Conv"(%x, %w, %none) {group = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_rank_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op input X has rank 4 but W has rank 3}}
  %0 = "onnx.Conv"(%x, %w, %none) : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_ceil_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.AveragePool' op attribute 'ceil_mode' must be 0 or 1, got 2}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 2, 2>, ceil_mode = 2 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @lppool_p(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.LpPool' op attribute 'p' must be >= 1}}
  %0 = "onnx.LpPool"(%x) {kernel_shape = array<i64: 2, 2>, p = 0 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @batchnorm_x_rank(%x: tensor<8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'onnx.BatchNormalization' op input 0 has rank 1, expected at least 2}}
  %0:3 = "onnx.BatchNormalization"(%x, %s, %s, %s, %s) : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, none, none)
  return
}

// -----

func.func @batchnorm_scale_rank(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %m: tensor<1x8xf32>) {
  // expected-error @+1 {{'onnx.BatchNormalization' op input 3 has rank 2, expected 1}}
  %0:3 = "onnx.BatchNormalization"(%x, %s, %s, %m, %s) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, none, none)
  return
}

// -----

func.func @batchnorm_training_mode(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'onnx.BatchNormalization' op attribute 'training_mode' must be 0 or 1, got 2}}
  %0:3 = "onnx.BatchNormalization"(%x, %s, %s, %s, %s) {training_mode = 2 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, none, none)
  return
}

// -----

func.func @lrn_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.LRN' op attribute 'size' must be >= 1}}
  %0 = "onnx.LRN"(%x) {size = 0 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @lrn_rank(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'onnx.LRN' op input 0 has rank 2, expected at least 3}}
  %0 = "onnx.LRN"(%x) {size = 3 : i64} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @layernorm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LayerNormalization' op axis 2 is out of range [-2, 1] for rank 2}}
  %0:3 = "onnx.LayerNormalization"(%x, %s, %none) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, none) -> (tensor<2x3xf32>, none, none)
  return
}

// -----

func.func @rnn_direction(%x: tensor<5x2x4xf32>, %w: tensor<1x8x4xf32>, %r: tensor<1x8x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.RNN' op attribute 'direction' is 'backward', expected one of 'forward' 'reverse' 'bidirectional'}}
  %0:2 = "onnx.RNN"(%x, %w, %r, %none, %none, %none) {direction = "backward", hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>, none, none, none) -> (none, tensor<1x2x8xf32>)
  return
}

// -----

func.func @gru_layout(%x: tensor<5x2x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.GRU' op attribute 'layout' must be 0 or 1, got 2}}
  %0:2 = "onnx.GRU"(%x, %w, %r, %none, %none, %none) {layout = 2 : i64, hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<1x24x4xf32>, tensor<1x24x8xf32>, none, none, none) -> (none, tensor<1x2x8xf32>)
  return
}

// -----

func.func @lstm_input_rank(%x: tensor<5x4xf32>, %w: tensor<1x32x4xf32>, %r: tensor<1x32x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LSTM' op input 0 has rank 2, expected 3}}
  %0:3 = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) {hidden_size = 8 : i64} : (tensor<5x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (none, none, none)
  return
}

// -----

func.func @lstm_weight_rank(%x: tensor<5x2x4xf32>, %w: tensor<32x4xf32>, %r: tensor<1x32x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LSTM' op input 1 has rank 2, expected 3}}
  %0:3 = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) {hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (none, none, none)
  return
}

// -----

func.func @lstm_recurrence_rank(%x: tensor<5x2x4xf32>, %w: tensor<1x32x4xf32>, %r: tensor<32x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LSTM' op input 2 has rank 2, expected 3}}
  %0:3 = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) {hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<1x32x4xf32>, tensor<32x8xf32>, none, none, none, none, none) -> (none, none, none)
  return
}

// -----

func.func @lstm_hidden_size(%x: tensor<5x2x4xf32>, %w: tensor<1x32x4xf32>, %r: tensor<1x32x8xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LSTM' op attribute 'hidden_size' must be >= 1}}
  %0:3 = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %none) {hidden_size = 0 : i64} : (tensor<5x2x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (none, none, none)
  return
}

// -----

func.func @depth_to_space_blocksize(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'onnx.DepthToSpace' op attribute 'blocksize' must be >= 1}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 0 : i64} : (tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return
}

// -----

func.func @depth_to_space_mode(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'onnx.DepthToSpace' op attribute 'mode' is 'RCD', expected one of 'DCR' 'CRD'}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64, mode = "RCD"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @space_to_depth_rank(%x: tensor<8x2x2xf32>) {
  // expected-error @+1 {{'onnx.SpaceToDepth' op input 0 has rank 3, expected 4}}
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : i64} : (tensor<8x2x2xf32>) -> tensor<32x1x1xf32>
  return
}

//===----------------------------------------------------------------------===//
// ops/Tensor.cpp
//===----------------------------------------------------------------------===//

// -----

func.func @concat_ranks(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+1 {{'onnx.Concat' op inputs have different ranks 2 and 3}}
  %0 = "onnx.Concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  return
}

// -----

// The ODS signature requires 'axis' (the Concat verifier's own check of it
// reports the same message).
func.func @concat_requires_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Concat' op requires attribute 'axis'}}
  %0 = "onnx.Concat"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Concat' op axis -3 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.Concat"(%a, %a) {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @transpose_perm_length(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Transpose' op 'perm' has 3 entries for an input of rank 2}}
  %0 = "onnx.Transpose"(%a) {perm = array<i64: 2, 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_not_permutation(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Transpose' op 'perm' is not a permutation}}
  %0 = "onnx.Transpose"(%a) {perm = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Transpose' op 'perm' is not a permutation}}
  %0 = "onnx.Transpose"(%a) {perm = array<i64: 0, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Flatten's axis may equal the rank.
func.func @flatten_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Flatten' op axis 3 is out of range [-3, 2] for rank 2}}
  %0 = "onnx.Flatten"(%a) {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @gather_axis(%a: tensor<2x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Gather' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.Gather"(%a, %i) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_elements_axis(%a: tensor<2x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.GatherElements' op axis -5 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.GatherElements"(%a, %i) {axis = -5 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @compress_axis(%a: tensor<2x3xf32>, %c: tensor<3xi1>) {
  // expected-error @+1 {{'onnx.Compress' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.Compress"(%a, %c) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<2x?xf32>
  return
}

// -----

func.func @cast_to(%a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Cast' op attribute 'to' is 0, not an ONNX tensor data type}}
  %0 = "onnx.Cast"(%a) {to = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @cast_to_too_large(%a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Cast' op attribute 'to' is 27, not an ONNX tensor data type}}
  %0 = "onnx.Cast"(%a) {to = 27 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @cast_to_e8m0(%a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Cast' op attribute 'to' is 24 (FLOAT8E8M0), an ONNX data type onnxc does not support}}
  %0 = "onnx.Cast"(%a) {to = 24 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @cast_saturate(%a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Cast' op attribute 'saturate' must be 0 or 1, got 5}}
  %0 = "onnx.Cast"(%a) {to = 1 : i64, saturate = 5 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reshape_allowzero(%a: tensor<2x3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Reshape' op attribute 'allowzero' must be 0 or 1, got 2}}
  %0 = "onnx.Reshape"(%a, %s) {allowzero = 2 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @reshape_shape_rank(%a: tensor<2x3xf32>, %s: tensor<1x2xi64>) {
  // expected-error @+1 {{'onnx.Reshape' op input 1 has rank 2, expected 1}}
  %0 = "onnx.Reshape"(%a, %s) : (tensor<2x3xf32>, tensor<1x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @split_axis(%a: tensor<2x4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Split' op axis 2 is out of range [-2, 1] for rank 2}}
  %0:2 = "onnx.Split"(%a, %none) {axis = 2 : i64, num_outputs = 2 : i64} : (tensor<2x4xf32>, none) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

func.func @split_num_outputs_positive(%a: tensor<2x4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Split' op attribute 'num_outputs' must be >= 1}}
  %0 = "onnx.Split"(%a, %none) {num_outputs = 0 : i64} : (tensor<2x4xf32>, none) -> tensor<2x4xf32>
  return
}

// -----

func.func @split_num_outputs_mismatch(%a: tensor<2x4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Split' op num_outputs is 2 but the op has 3 outputs}}
  %0:3 = "onnx.Split"(%a, %none) {num_outputs = 2 : i64} : (tensor<2x4xf32>, none) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<0x4xf32>)
  return
}

// -----

func.func @split_exclusive(%a: tensor<2x4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Split' op 'split' and 'num_outputs' are exclusive}}
  %0:2 = "onnx.Split"(%a, %s) {num_outputs = 2 : i64} : (tensor<2x4xf32>, tensor<2xi64>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  return
}

// -----

func.func @split_sizes_count(%a: tensor<2x4xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.Split' op 'split' has 3 sizes for 2 outputs}}
  %0:2 = "onnx.Split"(%a, %s) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<3xi64>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  return
}

// -----

func.func @split_sizes_rank(%a: tensor<2x4xf32>, %s: tensor<1x2xi64>) {
  // expected-error @+1 {{'onnx.Split' op input 1 has rank 2, expected 1}}
  %0:2 = "onnx.Split"(%a, %s) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<1x2xi64>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  return
}

// -----

func.func @split_output_rank(%a: tensor<6xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Split' op output 1 has rank 0, expected 1 (the input's)}}
  %0:2 = "onnx.Split"(%a, %s) : (tensor<6xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<f32>)
  return
}

// -----

func.func @resize_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'mode' is 'bilinear', expected one of 'nearest' 'linear' 'cubic'}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {mode = "bilinear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @resize_coordinate_transformation_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'coordinate_transformation_mode' is 'corners', expected one of 'half_pixel' 'half_pixel_symmetric' 'pytorch_half_pixel' 'align_corners' 'asymmetric' 'tf_half_pixel_for_nn' 'tf_crop_and_resize'}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {coordinate_transformation_mode = "corners"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'nearest_mode' is 'round', expected one of 'round_prefer_floor' 'round_prefer_ceil' 'floor' 'ceil'}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {nearest_mode = "round"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @resize_keep_aspect_ratio_policy(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'keep_aspect_ratio_policy' is 'fit', expected one of 'stretch' 'not_larger' 'not_smaller'}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {keep_aspect_ratio_policy = "fit"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @resize_exclude_outside(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'exclude_outside' must be 0 or 1, got 2}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {exclude_outside = 2 : i64} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @resize_antialias(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op attribute 'antialias' must be 0 or 1, got -1}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {antialias = -1 : i64} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<2x3xf32>, %p: tensor<4xi64>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Pad' op attribute 'mode' is 'mirror', expected one of 'constant' 'reflect' 'edge' 'wrap'}}
  %0 = "onnx.Pad"(%x, %p, %none, %none) {mode = "mirror"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  return
}

// -----

// Resize with an axis listed twice (ONNX's inference refuses it; it
// resized the axis once with the second scale).
func.func @resize_duplicate_axes(%x: tensor<1x1x2x2xf32>, %s: tensor<2xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op axis -2 is referred to more than once}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) {axes = array<i64: 2, -2>} : (tensor<1x1x2x2xf32>, none, tensor<2xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @scatter_elements_reduction(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.ScatterElements' op attribute 'reduction' is 'sum', expected one of 'none' 'add' 'mul' 'max' 'min'}}
  %0 = "onnx.ScatterElements"(%x, %i, %x) {reduction = "sum"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_elements_axis(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'onnx.ScatterElements' op axis 2 is out of range [-2, 1] for rank 2}}
  %0 = "onnx.ScatterElements"(%x, %i, %x) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_nd_reduction(%x: tensor<2x3xf32>, %i: tensor<1x1xi64>, %u: tensor<1x3xf32>) {
  // expected-error @+1 {{'onnx.ScatterND' op attribute 'reduction' is 'avg', expected one of 'none' 'add' 'mul' 'max' 'min'}}
  %0 = "onnx.ScatterND"(%x, %i, %u) {reduction = "avg"} : (tensor<2x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @topk_largest(%x: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'onnx.TopK' op attribute 'largest' must be 0 or 1, got 2}}
  %0:2 = "onnx.TopK"(%x, %k) {largest = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @topk_sorted(%x: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'onnx.TopK' op attribute 'sorted' must be 0 or 1, got 2}}
  %0:2 = "onnx.TopK"(%x, %k) {sorted = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @topk_axis(%x: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'onnx.TopK' op axis 2 is out of range [-2, 1] for rank 2}}
  %0:2 = "onnx.TopK"(%x, %k) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @cumsum_exclusive(%x: tensor<2x3xf32>, %a: tensor<i64>) {
  // expected-error @+1 {{'onnx.CumSum' op attribute 'exclusive' must be 0 or 1, got 2}}
  %0 = "onnx.CumSum"(%x, %a) {exclusive = 2 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cumsum_reverse(%x: tensor<2x3xf32>, %a: tensor<i64>) {
  // expected-error @+1 {{'onnx.CumSum' op attribute 'reverse' must be 0 or 1, got 2}}
  %0 = "onnx.CumSum"(%x, %a) {reverse = 2 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cumsum_axis_rank(%x: tensor<2x3xf32>, %a: tensor<1x1xi64>) {
  // expected-error @+1 {{'onnx.CumSum' op input 1 has rank 2, expected 0 to 1}}
  %0 = "onnx.CumSum"(%x, %a) : (tensor<2x3xf32>, tensor<1x1xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @trilu_upper(%x: tensor<2x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Trilu' op attribute 'upper' must be 0 or 1, got 2}}
  %0 = "onnx.Trilu"(%x, %none) {upper = 2 : i64} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Trilu' op input 0 has rank 1, expected at least 2}}
  %0 = "onnx.Trilu"(%x, %none) : (tensor<3xf32>, none) -> tensor<3xf32>
  return
}

// -----

// OneHot's axis may equal the rank of the indices.
func.func @onehot_axis(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.OneHot' op axis 2 is out of range [-2, 1] for rank 1}}
  %0 = "onnx.OneHot"(%i, %d, %v) {axis = 2 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// ops/ControlFlow.cpp
//===----------------------------------------------------------------------===//

// -----

func.func @if_condition_elements(%c: tensor<2xi1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op condition must hold one element, it has 2}}
  %0 = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<2xi1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_branch_inputs(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op branches take no inputs}}
  %0 = "onnx.If"(%c) ({
  ^bb0(%a: tensor<2xf32>):
    onnx.Yield %a : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_branch_yield_count(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op a branch yields 1 values for 2 results}}
  %0:2 = "onnx.If"(%c) ({
    onnx.Yield %x, %x : tensor<2xf32>, tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @loop_body_inputs(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op body takes 2 inputs, expected 3 (iteration number, condition and 1 loop-carried values)}}
  %0 = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>):
    onnx.Yield %cond, %x : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @loop_body_yields_too_few(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op body yields 1 values, expected at least 2}}
  %0 = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    onnx.Yield %cond : tensor<i1>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @loop_results(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op has 1 results but its body yields 2 values after the condition}}
  %0 = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    onnx.Yield %cond, %v, %v : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @scan_num_scan_inputs(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op num_scan_inputs is 3, expected 1 to 2}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 3 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_fewer_results_than_state(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op has fewer results than state variables}}
  %0 = "onnx.Scan"(%s, %s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a : tensor<2xf32>
  }) {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<5x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @scan_input_axes_length(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op 'scan_input_axes' has 2 entries, expected 1}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0, 0>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_input_directions_length(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op 'scan_input_directions' has 0 entries, expected 1}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_output_axes_length(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op 'scan_output_axes' has 2 entries, expected 1}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_output_axes = array<i64: 0, 1>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_output_directions_length(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op 'scan_output_directions' has 3 entries, expected 1}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_output_directions = array<i64: 0, 1, 0>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_input_axis_range(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op scan_input_axes entry 2 is out of range [-2, 1] for rank 2}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 2>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_body_inputs(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op body takes 1 inputs, expected 2}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>):
    onnx.Yield %a, %a : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @scan_body_yields(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op body yields 1 values for 2 results}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a : tensor<2xf32>
  }) {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @sequence_map_body_inputs(%s: !onnx.seq<tensor<2xf32>>) {
  // expected-error @+1 {{'onnx.SequenceMap' op body takes 2 inputs, expected 1}}
  %0 = "onnx.SequenceMap"(%s) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    onnx.Yield %a : tensor<2xf32>
  }) : (!onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>>
  return
}

// -----

func.func @sequence_map_body_yields(%s: !onnx.seq<tensor<2xf32>>) {
  // expected-error @+1 {{'onnx.SequenceMap' op body yields 0 values for 1 results}}
  %0 = "onnx.SequenceMap"(%s) ({
  ^bb0(%a: tensor<2xf32>):
    onnx.Yield
  }) : (!onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>>
  return
}

//===----------------------------------------------------------------------===//
// ODS constraints of the generated ops
//===----------------------------------------------------------------------===//

// -----

func.func @wrong_element_type(%x: tensor<2xi1>) {
  // expected-error @+1 {{'onnx.Relu' op operand #0 must be tensor of}}
  %0 = "onnx.Relu"(%x) : (tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

// ONNX int64 is a signless i64; a signed si64 tensor is not an ONNX type.
func.func @signed_integer_element_type(%x: tensor<2xsi64>) {
  // expected-error @+1 {{'onnx.Abs' op operand #0 must be tensor of}}
  %0 = "onnx.Abs"(%x) : (tensor<2xsi64>) -> tensor<2xsi64>
  return
}

// -----

func.func @wrong_result_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Shape' op result #0 must be tensor of 64-bit signless integer values}}
  %0 = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @missing_required_attribute(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'onnx.LRN' op requires attribute 'size'}}
  %0 = "onnx.LRN"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @missing_required_attribute_cast(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Cast' op requires attribute 'to'}}
  %0 = "onnx.Cast"(%x) : (tensor<2xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @missing_required_attribute_scan(%s: tensor<2xf32>, %xs: tensor<5x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op requires attribute 'num_scan_inputs'}}
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    onnx.Yield %a, %e : tensor<2xf32>, tensor<2xf32>
  }) : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

// -----

func.func @wrong_attribute_type(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Gemm' op attribute 'transB' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "onnx.Gemm"(%a, %b, %none) {transB = 0 : si64} : (tensor<2x4xf32>, tensor<4x5xf32>, none) -> tensor<2x5xf32>
  return
}

// -----

func.func @wrong_attribute_kind(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Transpose' op attribute 'perm' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @required_input_given_none(%x: tensor<2x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Reshape' op operand #1 must be tensor of 64-bit signless integer values, but got 'none'}}
  %0 = "onnx.Reshape"(%x, %none) : (tensor<2x3xf32>, none) -> tensor<6xf32>
  return
}

// -----

func.func @required_output_given_none(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'onnx.Relu' op result #0 must be tensor of}}
  %0 = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> none
  return
}

// -----

func.func @sequence_element_type(%s: !onnx.seq<tensor<2xbf16>>, %p: tensor<i64>) {
  // expected-error @+1 {{'onnx.SequenceAt' op operand #0 must be sequence of}}
  %0 = "onnx.SequenceAt"(%s, %p) : (!onnx.seq<tensor<2xbf16>>, tensor<i64>) -> tensor<2xbf16>
  return
}

// -----

func.func @tensor_where_sequence_expected(%x: tensor<2xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'onnx.SequenceAt' op operand #0 must be sequence of}}
  %0 = "onnx.SequenceAt"(%x, %p) : (tensor<2xf32>, tensor<i64>) -> tensor<2xf32>
  return
}

// -----

func.func @optional_result_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Optional' op result #0 must be optional of}}
  %0 = "onnx.Optional"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unknown_type_rejected(%x: !onnx.unknown) {
  // expected-error @+1 {{'onnx.Relu' op operand #0 must be tensor of}}
  %0 = "onnx.Relu"(%x) : (!onnx.unknown) -> tensor<2xf32>
  return
}

// -----

func.func @ml_map_operand(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.ml.DictVectorizer' op operand #0 must be}}
  %0 = "onnx.ml.DictVectorizer"(%x) : (tensor<2xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @training_required_attributes(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'onnx.training.Momentum' op requires attribute 'alpha'}}
  %0:2 = "onnx.training.Momentum"(%r, %t, %x, %x, %x) {beta = 1.0 : f32, mode = "standard", norm_coefficient = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @if_requires_two_regions(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op expected 2 regions}}
  %0 = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @novalue_type() {
  // expected-error @+1 {{'onnx.NoValue' op result #0 must be none type}}
  %0 = "onnx.NoValue"() : () -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// If conditions and Loop bodies: the iteration number is int64, the
// condition bool, holding one element (the ops' own operand types are
// checked by ODS first; the importer's messages for them are in
// test/compiler/Import/spec-errors.test)
//===----------------------------------------------------------------------===//

func.func @if_condition_elements_overflow(%c: tensor<281474976710656x281474976710656xi1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op condition must hold one element, it is 'tensor<281474976710656x281474976710656xi1>'}}
  %0 = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<281474976710656x281474976710656xi1>) -> tensor<2xf32>
  return
}

// -----

func.func @loop_body_float_condition(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op body output 0 (the condition) must be a bool tensor, it is 'tensor<f32>'}}
  %0 = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %f = "onnx.Cast"(%cond) {to = 1 : i64} : (tensor<i1>) -> tensor<f32>
    onnx.Yield %f, %v : tensor<f32>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @loop_body_iteration_type(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op body input 0 (the iteration number) must be a int64 tensor, it is 'tensor<i32>'}}
  %0 = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i32>, %cond: tensor<i1>, %v: tensor<2xf32>):
    onnx.Yield %cond, %v : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// ConvTranspose output_padding: smaller than the stride or the dilation
//===----------------------------------------------------------------------===//

func.func @conv_transpose_output_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op output_padding 2 of spatial dim 1 must be less than its stride (2) or its dilation (1)}}
  %0 = "onnx.ConvTranspose"(%x, %w, %none) {strides = array<i64: 2, 2>, output_padding = array<i64: 1, 2>} : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>, none) -> tensor<*xf32>
  return
}

// -----

func.func @conv_transpose_output_padding_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'output_padding' has value -1, expected >= 0}}
  %0 = "onnx.ConvTranspose"(%x, %w, %none) {output_padding = array<i64: 0, -1>} : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>, none) -> tensor<*xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Inputs bound to one type parameter have one element type
//===----------------------------------------------------------------------===//

func.func @type_param_mismatch(%a: tensor<2xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'onnx.Add' op input 0 ('A') and input 1 ('B') must have one element type (type parameter T), got 'f32' and 'i64'}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @type_param_mismatch_variadic(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xi32>) {
  // expected-error @+1 {{'onnx.Concat' op input 0 ('inputs') and input 2 ('inputs') must have one element type (type parameter T), got 'f32' and 'i32'}}
  %0 = "onnx.Concat"(%a, %b, %c) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) -> tensor<6xf32>
  return
}

//===----------------------------------------------------------------------===//
// ONNXCoreOps.cpp: onnx.Custom (a node of a domain onnxc does not know)
//===----------------------------------------------------------------------===//

// -----

func.func @custom_no_domain(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Custom' op needs a domain and an op type}}
  %0 = "onnx.Custom"(%x) {domain = "", op_type = "Swish", node_attrs = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_attr_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Custom' op attribute 'beta' is not an int, float, string, ints or floats}}
  %0 = "onnx.Custom"(%x) {domain = "com.example", op_type = "Swish", node_attrs = {beta = 1.5 : f64}} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Concat-13 (its newest version) has no float8 or int4 (ops.mlir: Pad,
// If, Loop and Scan do).
func.func @concat_float8(%x: tensor<2xf8E4M3FN>) {
  // expected-error @+1 {{'onnx.Concat' op operand #0 must be variadic of tensor of}}
  %0 = "onnx.Concat"(%x, %x) {axis = 0 : i64} : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return
}

// -----

func.func @slice_starts_rank(%x: tensor<4xf32>, %s: tensor<i64>, %e: tensor<1xi64>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Slice' op input 1 has rank 0, expected 1}}
  %0 = "onnx.Slice"(%x, %s, %e, %none, %none) : (tensor<4xf32>, tensor<i64>, tensor<1xi64>, none, none) -> tensor<?xf32>
  return
}

// -----

func.func @layernorm_scale_rank(%x: tensor<2x3xf32>, %s: tensor<2x3x4xf32>) {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LayerNormalization' op Scale has rank 3, more than the 1 normalized dims of X (axis -1)}}
  %y, %m, %i = "onnx.LayerNormalization"(%x, %s, %none) : (tensor<2x3xf32>, tensor<2x3x4xf32>, none) -> (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

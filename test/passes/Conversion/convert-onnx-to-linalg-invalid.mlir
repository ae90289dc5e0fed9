// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// An op no pattern of this pass roots on (onnx-decompose-optimizers
// rewrites the optimizers before it in onnxc's pipeline).
func.func @unsupported_op(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<4xf32>, %g: tensor<4xf32>, %h: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.training.Adagrad' op is not supported by convert-onnx-to-linalg}}
  %0:2 = "onnx.training.Adagrad"(%r, %t, %x, %g, %h) : (tensor<f32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

// Complex tensors have no conversion (int4, float8 and float4e2m1 do:
// one i8 per element, convert-onnx-to-linalg-narrow-types.mlir).
// expected-error @+1 {{'func.func' op signature type 'tensor<2xcomplex<f32>>' is not supported by convert-onnx-to-linalg}}
func.func @unsupported_type(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{'onnx.Identity' op type 'tensor<2xcomplex<f32>>' is not supported by convert-onnx-to-linalg}}
  %0 = "onnx.Identity"(%x) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// expected-error @+1 {{'func.func' op signature type 'tensor<2xcomplex<f32>>' is not supported by convert-onnx-to-linalg}}
func.func @unsupported_signature(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  return %x : tensor<2xcomplex<f32>>
}

// -----

func.func @sparse_constant() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Constant' op sparse_value is not supported}}
  %0 = "onnx.Constant"() {sparse_value = sparse<[[1]], [1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @string_constant() -> tensor<f32> {
  // expected-error @+1 {{'onnx.Constant' op a string value needs a string result}}
  %0 = "onnx.Constant"() {value_string = "x"} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @matmul_integer_zero_point(%a: tensor<4x3xui8>, %b: tensor<3x2xui8>, %zp: tensor<2x2xui8>) -> tensor<4x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MatMulInteger' op a_zero_point must be a scalar or a 1-D tensor}}
  %0 = "onnx.MatMulInteger"(%a, %b, %zp, %n) : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<2x2xui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @unsqueeze_runtime_axes(%x: tensor<?xf32>, %a: tensor<1xi64>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'onnx.Unsqueeze' op non-constant axes with ambiguous types are not supported}}
  %0 = "onnx.Unsqueeze"(%x, %a) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

func.func @squeeze_runtime_axes(%x: tensor<?x?x?xf32>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.Squeeze' op non-constant axes with ambiguous types are not supported}}
  %0 = "onnx.Squeeze"(%x, %a) : (tensor<?x?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'onnx.Slice' op steps must not be 0}}
  %0 = "onnx.Slice"(%x, %s, %e, %a, %st) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_bad_axis(%x: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Gather' op axis 2 is out of range}}
  %0 = "onnx.Gather"(%x, %i) {axis = 2 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_elements_rank(%x: tensor<3x3xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.GatherElements' op data and indices must have the same rank >= 1}}
  %0 = "onnx.GatherElements"(%x, %i) {axis = 0 : i64} : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_elements_bad_axis(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.GatherElements' op axis -3 is out of range}}
  %0 = "onnx.GatherElements"(%x, %i) {axis = -3 : i64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gathernd_scalar_indices(%x: tensor<2x2xf32>, %i: tensor<i64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.GatherND' op data and indices must have rank >= 1}}
  %0 = "onnx.GatherND"(%x, %i) : (tensor<2x2xf32>, tensor<i64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @gathernd_depth(%x: tensor<2x2xf32>, %i: tensor<2x3xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.GatherND' op batch_dims 0, the indices and the result rank do not fit the data rank 2}}
  %0 = "onnx.GatherND"(%x, %i) : (tensor<2x2xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scatter_elements_rank(%x: tensor<1x5xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<1x5xf32> {
  // expected-error @+1 {{'onnx.ScatterElements' op data, indices and updates must have the same rank >= 1}}
  %0 = "onnx.ScatterElements"(%x, %i, %u) {axis = 1 : i64} : (tensor<1x5xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

func.func @scatter_bad_axis(%x: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<1x5xf32> {
  // expected-error @+1 {{'onnx.Scatter' op axis 2 is out of range}}
  %0 = "onnx.Scatter"(%x, %i, %u) {axis = 2 : i64} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

func.func @scatternd_scalar_indices(%x: tensor<4xf32>, %i: tensor<i64>, %u: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.ScatterND' op data and indices must have rank >= 1}}
  %0 = "onnx.ScatterND"(%x, %i, %u) : (tensor<4xf32>, tensor<i64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatternd_ranks(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'onnx.ScatterND' op the ranks of data, indices and updates do not fit together}}
  %0 = "onnx.ScatterND"(%x, %i, %u) : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @onehot_bad_axis(%i: tensor<3xi64>, %d: tensor<f32>, %v: tensor<2xf32>) -> tensor<3x10xf32> {
  // expected-error @+1 {{'onnx.OneHot' op axis 5 is out of range}}
  %0 = "onnx.OneHot"(%i, %d, %v) {axis = 5 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

func.func @nonzero_scalar(%x: tensor<f32>) -> tensor<0x?xi64> {
  // expected-error @+1 {{'onnx.NonZero' op a 0-D input is not supported}}
  %0 = "onnx.NonZero"(%x) : (tensor<f32>) -> tensor<0x?xi64>
  return %0 : tensor<0x?xi64>
}

// -----

func.func @compress_scalar(%x: tensor<f32>, %c: tensor<1xi1>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.Compress' op a 0-D input is not supported}}
  %0 = "onnx.Compress"(%x, %c) : (tensor<f32>, tensor<1xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @compress_condition_rank(%x: tensor<3x2xf32>, %c: tensor<3x1xi1>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'onnx.Compress' op condition must be 1-D}}
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3x1xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @compress_bad_axis(%x: tensor<3x2xf32>, %c: tensor<3xi1>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'onnx.Compress' op axis 2 is out of range}}
  %0 = "onnx.Compress"(%x, %c) {axis = 2 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @compress_result_rank(%x: tensor<3x2xf32>, %c: tensor<3xi1>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'onnx.Compress' op result rank does not match the input}}
  %0 = "onnx.Compress"(%x, %c) : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @reverse_sequence_axes(%x: tensor<4x4x2xf32>, %l: tensor<4xi64>) -> tensor<4x4x2xf32> {
  // expected-error @+1 {{'onnx.ReverseSequence' op batch_axis and time_axis must be 0 and 1 (in either order) of an input of rank >= 2}}
  %0 = "onnx.ReverseSequence"(%x, %l) {batch_axis = 2 : i64, time_axis = 0 : i64} : (tensor<4x4x2xf32>, tensor<4xi64>) -> tensor<4x4x2xf32>
  return %0 : tensor<4x4x2xf32>
}

// -----

func.func @quantize_blocked_dim(%x: tensor<4x5xf32>, %s: tensor<4x2xf32>) -> tensor<4x5xui8> {
  %z = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.QuantizeLinear' op y_scale dim 1 is 2, expected 3 (ceil(x dim / block_size))}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<4x5xf32>, tensor<4x2xf32>, none) -> tensor<4x5xui8>
  return %0 : tensor<4x5xui8>
}

// -----

func.func @quantize_blocked_other_dim(%x: tensor<4x4xf32>, %s: tensor<3x2xf32>) -> tensor<4x4xui8> {
  %z = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.QuantizeLinear' op y_scale dim 0 is 3, expected 4 (x's dim)}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<4x4xf32>, tensor<3x2xf32>, none) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

func.func @quantize_blocked_rank(%x: tensor<4x4xf32>, %s: tensor<2xf32>) -> tensor<4x4xui8> {
  %z = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.QuantizeLinear' op y_scale must have the rank of x (2) for blocked quantization, it has rank 1}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<4x4xf32>, tensor<2xf32>, none) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

func.func @quantize_2d_scale(%x: tensor<4x4xf32>, %s: tensor<4x2xf32>) -> tensor<4x4xui8> {
  %z = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.QuantizeLinear' op y_scale must be a scalar or 1-D along axis (or have the rank of x with block_size > 0)}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64} : (tensor<4x4xf32>, tensor<4x2xf32>, none) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

func.func @dequantize_blocked_zero_point(%x: tensor<4x4xi8>, %s: tensor<4x2xf32>, %z: tensor<4x1xi8>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op x_zero_point dim 1 is 1, expected 2 (ceil(x dim / block_size))}}
  %0 = "onnx.DequantizeLinear"(%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<4x4xi8>, tensor<4x2xf32>, tensor<4x1xi8>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @dequantize_2d_zero_point(%x: tensor<4x4xi8>, %s: tensor<4xf32>, %z: tensor<4x2xi8>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op x_zero_point must be a scalar or 1-D along axis (or have the rank of x with block_size > 0)}}
  %0 = "onnx.DequantizeLinear"(%x, %s, %z) {axis = 1 : i64} : (tensor<4x4xi8>, tensor<4xf32>, tensor<4x2xi8>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @qlinearmatmul_1d(%a: tensor<4xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<3xui8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op 1-D operands are not supported}}
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// -----

func.func @qlinearmatmul_rank(%a: tensor<2x4xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<1x2x3xui8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op result rank does not match the operands}}
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3xui8>
  return %0 : tensor<1x2x3xui8>
}

// -----

func.func @qlinearmatmul_per_row(%a: tensor<2x4xui8>, %as: tensor<2xf32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x3xui8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op only per-tensor scales and zero points are supported}}
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x4xui8>, tensor<2xf32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @reduce_runtime_axes_rank(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<2x1x1xf32> {
  // expected-error @+1 {{'onnx.ReduceSum' op result rank does not match the input}}
  %0 = "onnx.ReduceSum"(%x, %a) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

func.func @reduce_bad_axis(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %a = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'onnx.ReduceSum' op axis 2 is out of range}}
  %0 = "onnx.ReduceSum"(%x, %a) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @matmulinteger_zero_point_length(%a: tensor<4x3xui8>, %b: tensor<3x2xui8>, %zp: tensor<3xui8>) -> tensor<4x2xi32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{a_zero_point has 3 entries for 4 rows/columns}}
  %0 = "onnx.MatMulInteger"(%a, %b, %zp, %none) : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<3xui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// NN operators (Conv.cpp, Pooling.cpp, Normalization.cpp, Pad.cpp,
// Resize.cpp, DepthToSpace.cpp).

func.func @conv_group_mismatch(%x: tensor<1x3x5x5xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op input channels 3 do not match group 2 x 1 weight channels}}
  %0 = "onnx.Conv"(%x, %w, %n) {group = 2 : i64} : (tensor<1x3x5x5xf32>, tensor<2x1x3x3xf32>, none) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @conv_group_out(%x: tensor<1x2x5x5xf32>, %w: tensor<3x1x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op output channels must be a multiple of group}}
  %0 = "onnx.Conv"(%x, %w, %n) {group = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<3x1x3x3xf32>, none) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op kernel_shape does not match the weights}}
  %0 = "onnx.Conv"(%x, %w, %n) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @conv_bias_length(%x: tensor<1x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+1 {{'onnx.Conv' op B has 3 entries for 4 output channels}}
  %0 = "onnx.Conv"(%x, %w, %b) : (tensor<1x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv_result_mismatch(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x4x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op result spatial dim 0 is 4 but the window gives 3}}
  %0 = "onnx.Conv"(%x, %w, %n) : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x4x3xf32>
  return %0 : tensor<1x1x4x3xf32>
}

// -----

func.func @conv_window_too_big(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op the window does not fit the input (output size 0 in spatial dim 0)}}
  %0 = "onnx.Conv"(%x, %w, %n) : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @convinteger_zero_point(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %zp: tensor<2xui8>) -> tensor<1x1x2x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvInteger' op x_zero_point must be a scalar}}
  %0 = "onnx.ConvInteger"(%x, %w, %zp, %n) : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<2xui8>, none) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

func.func @convinteger_w_zero_point(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %zp: tensor<2x2xui8>) -> tensor<1x1x2x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvInteger' op w_zero_point must be a scalar or a 1-D tensor}}
  %0 = "onnx.ConvInteger"(%x, %w, %n, %zp) : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, none, tensor<2x2xui8>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x2x3x3xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op input channels must equal the weights' first dim, a multiple of group}}
  %0 = "onnx.ConvTranspose"(%x, %w, %n) : (tensor<1x2x3x3xf32>, tensor<3x2x3x3xf32>, none) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op output_padding must have one entry per spatial dim}}
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {output_padding = array<i64: 0>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, none) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op output_shape must have one entry per spatial dim}}
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {output_shape = array<i64: 5>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, none) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

func.func @conv_transpose_empty(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.ConvTranspose' op output spatial dim 0 is empty}}
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {pads = array<i64: 3, 0, 3, 0>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, none) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// -----

func.func @maxpool_storage_order(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op storage_order must be 0 or 1}}
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2, 2>, storage_order = 2 : i64} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, none)
  return %0#0 : tensor<1x1x3x3xf32>
}

// -----

func.func @global_lppool_p(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+1 {{'onnx.GlobalLpPool' op p must be positive}}
  %0 = "onnx.GlobalLpPool"(%x) {p = -1 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @instancenorm_rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.InstanceNormalization' op input must have rank 3 or more (N, C, D1...)}}
  %0 = "onnx.InstanceNormalization"(%x, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layernorm_stash(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.LayerNormalization' op only stash_type 1 (float) is supported}}
  %0:3 = "onnx.LayerNormalization"(%x, %s, %n) {stash_type = 11 : i64} : (tensor<2x3xf32>, tensor<3xf32>, none) -> (tensor<2x3xf32>, none, none)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @groupnorm_groups(%x: tensor<2x4x3xf32>, %s: tensor<4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op the channel count 4 is not a multiple of num_groups 3}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 3 : i64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @groupnorm_scale_rank(%x: tensor<2x4x3xf32>, %s: tensor<2x2xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op scale and bias must be 1-D}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 2 : i64} : (tensor<2x4x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @groupnorm_rank(%x: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op input must have rank 2 or more (N, C, ...)}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 2 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @groupnorm_stash(%x: tensor<2x4x3xf32>, %s: tensor<4xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op stash_type 7 is not a float type (1, 10, 11, 16)}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 2 : i64, stash_type = 7 : i64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @mvn_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.MeanVarianceNormalization' op axis 5 out of range}}
  %0 = "onnx.MeanVarianceNormalization"(%x) {axes = array<i64: 5>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @lpnorm_p(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.LpNormalization' op p must be 1 or 2}}
  %0 = "onnx.LpNormalization"(%x) {p = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pad_axes(%x: tensor<3xf32>, %p: tensor<2xi64>, %a: tensor<1xi64>) -> tensor<5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Pad' op non-constant axes are not supported}}
  %0 = "onnx.Pad"(%x, %p, %n, %a) : (tensor<3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pad_axis_range(%x: tensor<3xf32>, %p: tensor<2xi64>) -> tensor<5xf32> {
  %n = "onnx.NoValue"() : () -> none
  %a = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'onnx.Pad' op axis 3 out of range}}
  %0 = "onnx.Pad"(%x, %p, %n, %a) : (tensor<3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pad_pads_size(%x: tensor<3xf32>, %p: tensor<4xi64>) -> tensor<5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Pad' op pads must be 1-D with two entries per axis}}
  %0 = "onnx.Pad"(%x, %p, %n, %n) : (tensor<3xf32>, tensor<4xi64>, none, none) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pad_constant_value(%x: tensor<3xf32>, %p: tensor<2xi64>, %v: tensor<2xf32>) -> tensor<5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Pad' op constant_value must have one element}}
  %0 = "onnx.Pad"(%x, %p, %v, %n) : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>, none) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @resize_antialias(%x: tensor<1x1x4x4xf32>, %r: tensor<8xf32>, %s: tensor<4xf32>) -> tensor<1x1x2x2xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op antialias with tf_crop_and_resize is not lowered (the filter tables take no roi)}}
  %0 = "onnx.Resize"(%x, %r, %s, %n) {antialias = 1 : i64, mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x4x4xf32>, tensor<8xf32>, tensor<4xf32>, none) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @resize_axes(%x: tensor<1x1x2x2xf32>, %s: tensor<1xf32>) -> tensor<1x1x2x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op axis 4 out of range}}
  %0 = "onnx.Resize"(%x, %n, %s, %n) {axes = array<i64: 4>} : (tensor<1x1x2x2xf32>, none, tensor<1xf32>, none) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
}

// -----

func.func @resize_both(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op exactly one of scales and sizes must be given}}
  %0 = "onnx.Resize"(%x, %n, %s, %z) : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_int_linear(%x: tensor<1x1x2x2xi32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xi32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op linear and cubic modes need a float element type}}
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear"} : (tensor<1x1x2x2xi32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xi32>
  return %0 : tensor<1x1x4x4xi32>
}

// -----

func.func @resize_scales_size(%x: tensor<1x1x2x2xf32>, %s: tensor<3xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op scales must be 1-D with one entry per axis}}
  %0 = "onnx.Resize"(%x, %n, %s, %n) : (tensor<1x1x2x2xf32>, none, tensor<3xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_crop_roi(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op tf_crop_and_resize needs roi}}
  %0 = "onnx.Resize"(%x, %n, %s, %n) {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_roi_size(%x: tensor<1x1x2x2xf32>, %r: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op roi must be 1-D with two entries per axis}}
  %0 = "onnx.Resize"(%x, %r, %s, %n) {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_taps(%x: tensor<2x2x2x2x2x2x2xf32>, %s: tensor<7xf32>) -> tensor<4x4x4x4x4x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Resize' op too many interpolation taps (16384) per element}}
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "cubic"} : (tensor<2x2x2x2x2x2x2xf32>, none, tensor<7xf32>, none) -> tensor<4x4x4x4x4x4x4xf32>
  return %0 : tensor<4x4x4x4x4x4x4xf32>
}

// -----

func.func @upsample_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'onnx.Upsample' op unsupported mode 'cubic'}}
  %0 = "onnx.Upsample"(%x, %s) {mode = "cubic"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x3xf32>) -> tensor<1x1x4x6xf32> {
  // expected-error @+1 {{'onnx.DepthToSpace' op the channel dim must be a multiple of blocksize^2}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64} : (tensor<1x6x2x3xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// -----

func.func @space_to_depth_multiple(%x: tensor<1x1x5x4xf32>) -> tensor<1x4x2x2xf32> {
  // expected-error @+1 {{'onnx.SpaceToDepth' op spatial dims must be multiples of blocksize}}
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : i64} : (tensor<1x1x5x4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Einsum' op equation has 2 operand terms for 1 operands}}
  %0 = "onnx.Einsum"(%a) {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @einsum_malformed(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Einsum' op malformed equation term 'ijk'}}
  %0 = "onnx.Einsum"(%a) {equation = "ijk->ij"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @einsum_output_rank(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Einsum' op output term does not match the result rank}}
  %0 = "onnx.Einsum"(%a) {equation = "ij->i"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @einsum_output_label(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Einsum' op output label without an operand dim}}
  %0 = "onnx.Einsum"(%a) {equation = "ij->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @nll_reduction(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op reduction must be 'none', 'sum' or 'mean', not 'max'}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %n) {reduction = "max"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_input_rank(%x: tensor<5xf32>, %t: tensor<i64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op input must have rank 2 or more (N, C, d1, ...)}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %n) : (tensor<5xf32>, tensor<i64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_target_rank(%x: tensor<3x5x2xf32>, %t: tensor<3xi64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op target must have rank 2 (the rank of input without C), not 1}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %n) : (tensor<3x5x2xf32>, tensor<3xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_target_dim(%x: tensor<3x5x2xf32>, %t: tensor<3x4xi64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op target dim 1 (4) differs from input dim 2 (2)}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %n) : (tensor<3x5x2xf32>, tensor<3x4xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_weight_rank(%x: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<1x5xf32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op weights must be 1-D (one per class)}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<1x5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_weight_size(%x: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op weights have 4 elements for 5 classes}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nll_result_rank(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<3xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.NegativeLogLikelihoodLoss' op result must have rank 0 for this reduction, not 1}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %n) {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @sce_reduction(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.SoftmaxCrossEntropyLoss' op reduction must be 'none', 'sum' or 'mean', not 'avg'}}
  %0, %1 = "onnx.SoftmaxCrossEntropyLoss"(%x, %t, %n) {reduction = "avg"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> (tensor<f32>, none)
  return %0 : tensor<f32>
}

// -----

func.func @sce_labels_rank(%x: tensor<3x5xf32>, %t: tensor<3x1xi64>) -> tensor<f32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.SoftmaxCrossEntropyLoss' op labels must have rank 1 (the rank of scores without C), not 2}}
  %0, %1 = "onnx.SoftmaxCrossEntropyLoss"(%x, %t, %n) : (tensor<3x5xf32>, tensor<3x1xi64>, none) -> (tensor<f32>, none)
  return %0 : tensor<f32>
}

// -----

func.func @det_rank(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Det' op input must have rank 2 or more ([*, M, M])}}
  %0 = "onnx.Det"(%x) : (tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @det_result_rank(%x: tensor<2x3x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Det' op result must have rank 1}}
  %0 = "onnx.Det"(%x) : (tensor<2x3x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @det_not_square(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Det' op matrices must be square, not 2x3}}
  %0 = "onnx.Det"(%x) : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @maxunpool_rank(%x: tensor<1x4xf32>, %i: tensor<1x4xi64>) -> tensor<1x8xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxUnpool' op X must have rank 3 or more (N, C, D1, ...)}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2>} : (tensor<1x4xf32>, tensor<1x4xi64>, none) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @maxunpool_i_rank(%x: tensor<1x1x4xf32>, %i: tensor<1x4xi64>) -> tensor<1x1x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxUnpool' op I must have the rank of X}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xf32>, tensor<1x4xi64>, none) -> tensor<1x1x5xf32>
  return %0 : tensor<1x1x5xf32>
}

// -----

func.func @maxunpool_result_rank(%x: tensor<1x1x4xf32>, %i: tensor<1x1x4xi64>) -> tensor<5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxUnpool' op result must have the rank of X}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xf32>, tensor<1x1x4xi64>, none) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @maxunpool_i_shape(%x: tensor<1x1x4xf32>, %i: tensor<1x1x3xi64>) -> tensor<1x1x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxUnpool' op I must have the shape of X}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xf32>, tensor<1x1x3xi64>, none) -> tensor<1x1x5xf32>
  return %0 : tensor<1x1x5xf32>
}

// -----

func.func @maxunpool_kernel(%x: tensor<1x1x4xf32>, %i: tensor<1x1x4xi64>) -> tensor<1x1x5xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MaxUnpool' op kernel_shape, strides and pads must have one value per spatial dim (pads two)}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4xf32>, tensor<1x1x4xi64>, none) -> tensor<1x1x5xf32>
  return %0 : tensor<1x1x5xf32>
}

// -----

func.func @maxunpool_output_shape(%x: tensor<1x1x4xf32>, %i: tensor<1x1x4xi64>, %s: tensor<2xi64>) -> tensor<1x1x8xf32> {
  // expected-error @+1 {{'onnx.MaxUnpool' op output_shape must be 1-D with one value per dim of X}}
  %0 = "onnx.MaxUnpool"(%x, %i, %s) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xf32>, tensor<1x1x4xi64>, tensor<2xi64>) -> tensor<1x1x8xf32>
  return %0 : tensor<1x1x8xf32>
}

// -----

func.func @unique_axis(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'onnx.Unique' op axis 2 is out of range}}
  %0:4 = "onnx.Unique"(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> (tensor<2x?xf32>, none, none, none)
  return %0#0 : tensor<2x?xf32>
}

// -----

func.func @unique_y_rank(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'onnx.Unique' op result Y must have rank 1}}
  %0:4 = "onnx.Unique"(%x) : (tensor<2x3xf32>) -> (tensor<2x?xf32>, none, none, none)
  return %0#0 : tensor<2x?xf32>
}

// -----

func.func @unique_indices_rank(%x: tensor<6xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.Unique' op indices, inverse_indices and counts must be 1-D}}
  %0:4 = "onnx.Unique"(%x) : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?x1xi64>, none, none)
  return %0#0 : tensor<?xf32>
}

// -----

// A sequence whose items may have any rank stores each item's dims in a
// row of fixed width: an item of rank 17 does not fit (at most 16).
func.func @sequence_item_rank_too_high(%x: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> !onnx.seq<tensor<*xf32>> {
  %none = "onnx.NoValue"() : () -> none
  %e = "onnx.SequenceEmpty"() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  // expected-error @+1 {{a sequence item has rank 17, above 16}}
  %s = "onnx.SequenceInsert"(%e, %x, %none) : (!onnx.seq<tensor<*xf32>>, tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>, none) -> !onnx.seq<tensor<*xf32>>
  return %s : !onnx.seq<tensor<*xf32>>
}

// -----

// A sequence of 1-D items takes no 2-D tensor.
func.func @sequence_item_rank_mismatch(%s: !onnx.seq<tensor<?xf32>>, %x: tensor<2x2xf32>) -> !onnx.seq<tensor<?xf32>> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{a tensor of rank 2 does not fit items of rank 1}}
  %r = "onnx.SequenceInsert"(%s, %x, %none) : (!onnx.seq<tensor<?xf32>>, tensor<2x2xf32>, none) -> !onnx.seq<tensor<?xf32>>
  return %r : !onnx.seq<tensor<?xf32>>
}

// -----

// A static shape whose bytes exceed 2^63 - 1 (they would wrap).
func.func @too_large(%s: tensor<2xi64>) -> tensor<4398046511104x2199023255552xf32> {
  // expected-error @+1 {{'onnx.ConstantOfShape' op result 0 has [4398046511104, 2199023255552] elements of 4 bytes: more than 2^63 - 1 bytes}}
  %0 = "onnx.ConstantOfShape"(%s) : (tensor<2xi64>) -> tensor<4398046511104x2199023255552xf32>
  return %0 : tensor<4398046511104x2199023255552xf32>
}

// -----

func.func @input_too_large(%x: tensor<2305843009213693952x4xf32>) -> tensor<2305843009213693952x4xf32> {
  // expected-error @-1 {{input '#0' has [2305843009213693952, 4] elements of 4 bytes: more than 2^63 - 1 bytes}}
  return %x : tensor<2305843009213693952x4xf32>
}

// -----

func.func @slice_axis(%x: tensor<4xf32>) -> tensor<2xf32> {
  %s = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "onnx.Constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Slice' op axis 5 is out of range for rank 1}}
  %0 = "onnx.Slice"(%x, %s, %e, %a, %n) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_axis_twice(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %s = "onnx.Constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "onnx.Constant"() {value = dense<[3, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "onnx.Constant"() {value = dense<[0, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Slice' op axis -2 appears twice}}
  %0 = "onnx.Slice"(%x, %s, %e, %a, %n) : (tensor<4x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, none) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Window attributes near the int64 wrap (index arithmetic on sizes).
func.func @conv_huge_pads(%x: tensor<1x1x?x4xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x?x?xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Conv' op kernel sizes, strides, dilations, pads and the window's extent must be at most 2^62}}
  %0 = "onnx.Conv"(%x, %w, %n) {pads = array<i64: 9223372036854775807, 0, 9223372036854775807, 0>} : (tensor<1x1x?x4xf32>, tensor<1x1x1x1xf32>, none) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @trilu_k_two(%x: tensor<3x3xf32>, %k: tensor<2xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'onnx.Trilu' op k must have one element}}
  %0 = "onnx.Trilu"(%x, %k) : (tensor<3x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @range_start_two(%s: tensor<2xi64>, %l: tensor<i64>, %d: tensor<i64>) -> tensor<?xi64> {
  // expected-error @+1 {{'onnx.Range' op start must have one element}}
  %0 = "onnx.Range"(%s, %l, %d) : (tensor<2xi64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// Squeeze without axes whose result rank neither keeps nor drops every
// dim known at run time only.
func.func @squeeze_no_axes_rank(%x: tensor<2x?x?xf32>) -> tensor<?x?xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Squeeze' op without axes the result has rank 2, but the input has 0 dims of size 1 and 2 dims known at run time only: give axes}}
  %0 = "onnx.Squeeze"(%x, %n) : (tensor<2x?x?xf32>, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

func.func @unsupported_op(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op is not supported by convert-onnx-to-linalg}}
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @unsupported_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Cast' op type 'tensor<2x!onnx.string>' is not supported by convert-onnx-to-linalg}}
  %0 = "onnx.Cast"(%x) {to = 8 : i64} : (tensor<2xf32>) -> tensor<2x!onnx.string>
  // expected-error @+1 {{'onnx.Cast' op type 'tensor<2x!onnx.string>' is not supported by convert-onnx-to-linalg}}
  %1 = "onnx.Cast"(%0) {to = 1 : i64} : (tensor<2x!onnx.string>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// expected-error @+1 {{'func.func' op signature type 'tensor<2xcomplex<f32>>' is not supported by convert-onnx-to-linalg}}
func.func @unsupported_signature(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  return %x : tensor<2xcomplex<f32>>
}

// -----

func.func @identity_sequence(%x: !onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>> {
  // expected-error @+1 {{'onnx.Identity' op only tensor inputs are supported}}
  %0 = "onnx.Identity"(%x) : (!onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>>
  return %0 : !onnx.seq<tensor<2xf32>>
}

// -----

func.func @sparse_constant() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Constant' op sparse_value is not supported}}
  %0 = "onnx.Constant"() {sparse_value = sparse<[[1]], [1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @string_constant() -> tensor<f32> {
  // expected-error @+1 {{'onnx.Constant' op string constants are not supported}}
  %0 = "onnx.Constant"() {value_string = "x"} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gelu_approximate(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Gelu' op approximate 'erf' is not supported}}
  %0 = "onnx.Gelu"(%x) {approximate = "erf"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bitshift_direction(%a: tensor<2xui8>, %b: tensor<2xui8>) -> tensor<2xui8> {
  // expected-error @+1 {{'onnx.BitShift' op direction must be LEFT or RIGHT, not 'UP'}}
  %0 = "onnx.BitShift"(%a, %b) {direction = "UP"} : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

func.func @matmul_dynamic_batch(%a: tensor<?x2x3xf32>, %b: tensor<?x3x4xf32>) -> tensor<?x2x4xf32> {
  // expected-error @+1 {{'onnx.MatMul' op dynamic batch dims that may broadcast are not supported}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x2x3xf32>, tensor<?x3x4xf32>) -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

func.func @matmul_integer_zero_point(%a: tensor<4x3xui8>, %b: tensor<3x2xui8>, %zp: tensor<2x2xui8>) -> tensor<4x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.MatMulInteger' op a_zero_point must be a scalar or a 1-D tensor}}
  %0 = "onnx.MatMulInteger"(%a, %b, %zp, %n) : (tensor<4x3xui8>, tensor<3x2xui8>, tensor<2x2xui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @constant_of_shape_value(%s: tensor<1xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.ConstantOfShape' op value must be a one-element dense tensor}}
  %0 = "onnx.ConstantOfShape"(%s) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
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

func.func @reduce_runtime_axes(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'onnx.ReduceSum' op non-constant axes are not supported}}
  %0 = "onnx.ReduceSum"(%x, %a) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_mean_dynamic(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'onnx.ReduceMean' op ReduceMean over dynamic dims is not supported}}
  %0 = "onnx.ReduceMean"(%x, %a) {keepdims = 0 : i64} : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

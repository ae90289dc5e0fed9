// RUN: %onnxc-opt --onnx-shape-inference --split-input-file --verify-diagnostics %s
//
// Ops that violate ONNX semantics: errors from libonnx's inference functions
// (prefix stripped), from onnxc's rules, and from merging inferred types into
// declared ones.

func.func @matmul_inner_dims(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.MatMul' op Incompatible dimensions for matrix multiplication}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape_infer_impossible(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{Dimension could not be inferred: incompatible shapes}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{cannot reshape 6 elements into a shape of 8 elements}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Can't merge shape info. Both source and target dimension have values but they differ}}
  %0 = "onnx.Concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Add' op Incompatible dimensions}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @element_type_conflict(%a: tensor<2x3xf32>) -> tensor<*xi32> {
  // expected-error @+1 {{result #0: inferred element type f32 conflicts with i32}}
  %0 = "onnx.Relu"(%a) : (tensor<2x3xf32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @rank_conflict(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{result #0: inferred rank 2 conflicts with rank 1 of tensor<2xf32>}}
  %0 = "onnx.Relu"(%a) : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @split_too_many_chunks(%x: tensor<5xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{cannot split dim 0 of size 5 into 4 chunks}}
  %0:4 = "onnx.Split"(%x, %none) {num_outputs = 4 : i64} : (tensor<5xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @bitwise_broadcast(%a: tensor<3xi32>, %b: tensor<4xi32>) -> tensor<*xi32> {
  // expected-error @+1 {{incompatible dimensions 3 and 4 in broadcasting}}
  %0 = "onnx.BitwiseOr"(%a, %b) : (tensor<3xi32>, tensor<4xi32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @if_branch_types(%c: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{Mismatched tensor element type}}
  %0 = "onnx.If"(%c) ({
    onnx.Yield %x : tensor<2x3xf32>
  }, {
    onnx.Yield %y : tensor<2x3xi64>
  }) : (tensor<i1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An error inside a branch is reported on the op in the branch.
func.func @nested_error(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  %0 = "onnx.If"(%c) ({
    // expected-error @+1 {{Incompatible dimensions for matrix multiplication}}
    %1 = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
    onnx.Yield %1 : tensor<*xf32>
  }, {
    onnx.Yield %a : tensor<2x3xf32>
  }) : (tensor<i1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A loop-carried value must keep its element type.
func.func @loop_carried_element_type(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Loop' op loop-carried value #0 changes type in the body: element type i64 differs from f32}}
  %0 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: tensor<*xf32>):
    %1 = "onnx.Cast"(%acc) {to = 7 : i64} : (tensor<*xf32>) -> tensor<*xi64>
    onnx.Yield %cond, %1 : tensor<i1>, tensor<*xi64>
  }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A body input's declared type must cover the Loop's operand.
func.func @loop_body_input_conflict(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Loop' op body input #2: inferred type tensor<3xf32> conflicts with tensor<2xf32> in dim 0}}
  %0 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: tensor<2xf32>):
    onnx.Yield %cond, %acc : tensor<i1>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The dialect's Gradient takes the tensor `y` names as a last operand.
func.func @gradient_inputs(%a: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.training.Gradient' op has 1 inputs but 'xs' and 'zs' name 2 tensors}}
  %0 = "onnx.training.Gradient"(%a, %y) {xs = ["a", "b"], y = "c"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gradient_outputs(%a: tensor<2xf32>, %b: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.training.Gradient' op has 1 outputs but 'xs' names 2 tensors}}
  %0 = "onnx.training.Gradient"(%a, %b, %y) {xs = ["a", "b"], y = "c"} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @stft_signal_rank(%x: tensor<4x128xf32>, %step: tensor<i64>) -> tensor<*xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op signal must have rank 3, it has 2}}
  %0 = "onnx.STFT"(%x, %step, %n, %n) : (tensor<4x128xf32>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @stft_window_rank(%x: tensor<4x128x1xf32>, %step: tensor<i64>, %w: tensor<4x4xf32>) -> tensor<*xf32> {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.STFT' op window must have rank 1, it has 2}}
  %0 = "onnx.STFT"(%x, %step, %w, %n) : (tensor<4x128x1xf32>, tensor<i64>, tensor<4x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @stft_frame_length(%x: tensor<4x128x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) -> tensor<*xf32> {
  %len = "onnx.Constant"() {value = dense<32> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.STFT' op frame_length 32 differs from the length 16 of the window}}
  %0 = "onnx.STFT"(%x, %step, %w, %len) : (tensor<4x128x1xf32>, tensor<i64>, tensor<16xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Resize scales must be finite and > 0 (a zero scale made an empty output
// whose sampling divided by zero).
func.func @resize_zero_scale(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 0.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op scale 2 is 0, expected a finite number > 0}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_negative_scale(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, -2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op scale 2 is -2, expected a finite number > 0}}
  %0 = "onnx.Resize"(%x, %none, %s, %none) : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_negative_size(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1, 1, -8, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'onnx.Resize' op size 2 is -8, expected > 0}}
  %0 = "onnx.Resize"(%x, %none, %none, %s) : (tensor<1x1x4x4xf32>, none, none, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A size of 0 is a scale of 0 (ORT: "Scale value should be greater than 0").
func.func @resize_zero_size(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1, 1, 0, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'onnx.Resize' op size 2 is 0, expected > 0}}
  %0 = "onnx.Resize"(%x, %none, %none, %s) : (tensor<1x1x4x4xf32>, none, none, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Pad: an axis listed twice (ONNX's inference refuses it; it padded the
// axis twice).
func.func @pad_duplicate_axes(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %p = "onnx.Constant"() {value = dense<[1, 1, 1, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %a = "onnx.Constant"() {value = dense<[0, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Pad' op axis -2 is referred to more than once}}
  %0 = "onnx.Pad"(%x, %p, %none, %a) : (tensor<2x3xf32>, tensor<4xi64>, none, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Pad reflect mirrors once: a side pads by at most the dim - 1 (ORT:
// "pre-pad exceeds maximum allowed"); it returned numpy's repeated
// reflection.
func.func @pad_reflect_too_far(%x: tensor<3x2xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %p = "onnx.Constant"() {value = dense<[3, 0, 0, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'onnx.Pad' op mode reflect pads dim 0 by 3: at most 2 (its size after the crops - 1)}}
  %0 = "onnx.Pad"(%x, %p, %none, %none) {mode = "reflect"} : (tensor<3x2xf32>, tensor<4xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The same after a crop of the other side: 2 rows are left.
func.func @pad_reflect_after_crop(%x: tensor<3x2xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %p = "onnx.Constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Pad' op mode reflect pads dim 0 by 2: at most 1 (its size after the crops - 1)}}
  %0 = "onnx.Pad"(%x, %p, %none, %a) {mode = "reflect"} : (tensor<3x2xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Edge (and reflect, wrap) of a dim cropped to nothing has nothing to
// repeat (ORT: "zero effective input extent").
func.func @pad_edge_cropped_away(%x: tensor<3x2xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %p = "onnx.Constant"() {value = dense<[-3, 0, 2, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'onnx.Pad' op mode edge pads dim 0 of size 0 (after the crops) to 2}}
  %0 = "onnx.Pad"(%x, %p, %none, %none) {mode = "edge"} : (tensor<3x2xf32>, tensor<4xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// MaxUnpool's indices must have X's shape (libonnx 1.12 read dim 1 of a
// 1-D I past its end: a crash the whole-pipeline fuzzer found).
func.func @maxunpool_indices_rank(%x: tensor<1x1x2x2xf32>, %i: tensor<4xi64>) -> tensor<*xf32> {
  %n = onnx.NoValue
  // expected-error @+1 {{'onnx.MaxUnpool' op indices I have rank 1; they must have the shape of X (rank >= 2)}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<4xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @maxunpool_indices_rank_mismatch(%x: tensor<1x1x2x2xf32>, %i: tensor<1x4xi64>) -> tensor<*xf32> {
  %n = onnx.NoValue
  // expected-error @+1 {{'onnx.MaxUnpool' op indices I have rank 2; they must have the shape of X (rank 4)}}
  %0 = "onnx.MaxUnpool"(%x, %i, %n) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x4xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @string_normalizer_batch(%x: tensor<2x3x!onnx.string>) -> tensor<*x!onnx.string> {
  // expected-error @+1 {{'onnx.StringNormalizer' op Input shape must have either [C] or [1,C] dimensions where C > 0}}
  %0 = "onnx.StringNormalizer"(%x) : (tensor<2x3x!onnx.string>) -> tensor<*x!onnx.string>
  return %0 : tensor<*x!onnx.string>
}

// -----

// A constant output_shape smaller than the unpooled shape ((2 - 1) * 2 + 2
// = 4): ONNX Runtime refuses it; compiled, it returned OK (the fourth
// attack). With output_shape from data the lowering checks it at run time.
func.func @maxunpool_output_shape_small(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[1, 1, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'onnx.MaxUnpool' op output_shape has 3 in dim 2, smaller than the unpooled 4}}
  %0 = "onnx.MaxUnpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

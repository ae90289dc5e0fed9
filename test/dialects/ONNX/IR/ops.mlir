// RUN: %onnxc-opt %s | %onnxc-opt | FileCheck %s
// RUN: %onnxc-opt %s --mlir-print-op-generic | %onnxc-opt | FileCheck %s

// Round trip of the onnx dialect: ops of every category in their generic
// form, absent optionals as none, graph attributes as regions, the
// !onnx.seq/opt/map/string types and the #onnx.dims encoding.

//===----------------------------------------------------------------------===//
// Types and the #onnx.dims encoding
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @types
// CHECK-SAME: tensor<?x?x3xf32, #onnx.dims<["N", ""]>>
// CHECK-SAME: tensor<2x!onnx.string>
// CHECK-SAME: !onnx.seq<tensor<?xf32>>
// CHECK-SAME: !onnx.opt<tensor<4xi64>>
// CHECK-SAME: !onnx.opt<!onnx.seq<tensor<2xui8>>>
// CHECK-SAME: !onnx.seq<!onnx.map<i64, f32>>
// CHECK-SAME: !onnx.map<!onnx.string, tensor<f64>>
func.func @types(%a: tensor<?x?x3xf32, #onnx.dims<["N", ""]>>,
                 %b: tensor<2x!onnx.string>,
                 %c: !onnx.seq<tensor<?xf32>>,
                 %d: !onnx.opt<tensor<4xi64>>,
                 %e: !onnx.opt<!onnx.seq<tensor<2xui8>>>,
                 %f: !onnx.seq<!onnx.map<i64, f32>>,
                 %g: !onnx.map<!onnx.string, tensor<f64>>) {
  return
}

// CHECK-LABEL: func.func @same_dim_name
// CHECK-SAME: (%{{.*}}: tensor<?x4xf32, #onnx.dims<["batch"]>>) -> tensor<?x4xf32, #onnx.dims<["batch"]>>
// CHECK: "onnx.Relu"(%{{.*}}) : (tensor<?x4xf32, #onnx.dims<["batch"]>>) -> tensor<?x4xf32, #onnx.dims<["batch"]>>
func.func @same_dim_name(%x: tensor<?x4xf32, #onnx.dims<["batch"]>>) -> tensor<?x4xf32, #onnx.dims<["batch"]>> {
  %0 = "onnx.Relu"(%x) : (tensor<?x4xf32, #onnx.dims<["batch"]>>) -> tensor<?x4xf32, #onnx.dims<["batch"]>>
  return %0 : tensor<?x4xf32, #onnx.dims<["batch"]>>
}

// CHECK-LABEL: func.func @unknown_type
// CHECK-SAME: !onnx.unknown
func.func @unknown_type(%x: !onnx.unknown) {
  return
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @math
func.func @math(%a: tensor<?x4xf32, #onnx.dims<["N"]>>, %w: tensor<4x8xf32>, %b: tensor<8xf32>,
                %i: tensor<3x4xi32>, %u: tensor<3x4xui8>, %q: tensor<2x3xi8>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Gemm"(%{{.*}}, %{{.*}}, %{{.*}}) <{alpha = 5.000000e-01 : f32, beta = 1.000000e+00 : f32, transA = 0 : i64, transB = 0 : i64}>
  %0 = "onnx.Gemm"(%a, %w, %b) {alpha = 0.5 : f32} : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<?x8xf32, #onnx.dims<["N"]>>
  // CHECK: "onnx.Gemm"(%{{.*}}, %{{.*}}, %[[NONE]]) {{.*}} : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<4x8xf32>, none) -> tensor<?x8xf32, #onnx.dims<["N"]>>
  %1 = "onnx.Gemm"(%a, %w, %none) : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<4x8xf32>, none) -> tensor<?x8xf32, #onnx.dims<["N"]>>
  // CHECK: "onnx.MatMul"
  %2 = "onnx.MatMul"(%a, %w) : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<4x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Add"
  %3 = "onnx.Add"(%2, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Softmax"(%{{.*}}) <{axis = 1 : i64}>
  %4 = "onnx.Softmax"(%3) {axis = 1 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.LogSoftmax"
  %5 = "onnx.LogSoftmax"(%3) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.ReduceSum"(%{{.*}}, %[[NONE]]) <{keepdims = 0 : i64, noop_with_empty_axes = 0 : i64}>
  %6 = "onnx.ReduceSum"(%3, %none) {keepdims = 0 : i64} : (tensor<?x8xf32>, none) -> tensor<f32>
  %axes = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "onnx.ReduceMean"(%{{.*}}, %{{.*}}) {{.*}} : (tensor<?x8xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %7 = "onnx.ReduceMean"(%3, %axes) : (tensor<?x8xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  // CHECK: "onnx.ArgMax"(%{{.*}}) <{axis = 1 : i64, keepdims = 1 : i64, select_last_index = 1 : i64}>
  %8 = "onnx.ArgMax"(%3) {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<?x8xf32>) -> tensor<?x1xi64>
  // CHECK: "onnx.Mod"(%{{.*}}, %{{.*}}) <{fmod = 1 : i64}> : (tensor<?x8xf32>, tensor<8xf32>)
  %9 = "onnx.Mod"(%3, %b) {fmod = 1 : i64} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Mod"(%{{.*}}, %{{.*}}) <{fmod = 0 : i64}> : (tensor<3x4xi32>, tensor<3x4xi32>)
  %10 = "onnx.Mod"(%i, %i) : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  // CHECK: "onnx.Einsum"(%{{.*}}, %{{.*}}) <{equation = "ij,jk->ik"}>
  %11 = "onnx.Einsum"(%a, %w) {equation = "ij,jk->ik"} : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<4x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Sum"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x8xf32>, tensor<?x8xf32>, tensor<8xf32>)
  %12 = "onnx.Sum"(%3, %4, %b) : (tensor<?x8xf32>, tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Abs"(%{{.*}}) : (tensor<3x4xui8>) -> tensor<3x4xui8>
  %13 = "onnx.Abs"(%u) : (tensor<3x4xui8>) -> tensor<3x4xui8>
  // CHECK: "onnx.MatMulInteger"(%{{.*}}, %{{.*}}, %[[NONE]], %[[NONE]]) : (tensor<3x4xui8>, tensor<3x4xui8>, none, none) -> tensor<3x4xi32>
  %14 = "onnx.MatMulInteger"(%u, %u, %none, %none) : (tensor<3x4xui8>, tensor<3x4xui8>, none, none) -> tensor<3x4xi32>
  // CHECK: "onnx.Hardmax"
  %15 = "onnx.Hardmax"(%3) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Sigmoid"
  %16 = "onnx.Sigmoid"(%3) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.Where"
  %c = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %17 = "onnx.Where"(%c, %3, %4) : (tensor<i1>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: "onnx.QuantizeLinear"(%{{.*}}, %{{.*}}, %[[NONE]]) {{.*}} -> tensor<?x8xi8>
  %s = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %18 = "onnx.QuantizeLinear"(%3, %s, %none) : (tensor<?x8xf32>, tensor<f32>, none) -> tensor<?x8xi8>
  // CHECK: "onnx.DequantizeLinear"
  %19 = "onnx.DequantizeLinear"(%q, %s, %none) : (tensor<2x3xi8>, tensor<f32>, none) -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// NN
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %s: tensor<8xf32>,
              %seq: tensor<5x2x4xf32>, %lw: tensor<1x32x4xf32>, %lr: tensor<1x32x8xf32>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Conv"(%{{.*}}, %{{.*}}, %[[NONE]]) <{auto_pad = "NOTSET", dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, none) -> tensor<1x8x32x32xf32>
  %0 = "onnx.Conv"(%x, %w, %none) {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, none) -> tensor<1x8x32x32xf32>
  // CHECK: "onnx.ConvTranspose"{{.*}}auto_pad = "SAME_UPPER"
  %1 = "onnx.ConvTranspose"(%0, %w, %s) {auto_pad = "SAME_UPPER"} : (tensor<1x8x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x3x32x32xf32>
  // CHECK: %[[Y:.+]], %[[IDX:.+]] = "onnx.MaxPool"(%{{.*}}) <{{.*}}kernel_shape = array<i64: 2, 2>{{.*}} -> (tensor<1x8x16x16xf32>, tensor<1x8x16x16xi64>)
  %2:2 = "onnx.MaxPool"(%0) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> (tensor<1x8x16x16xf32>, tensor<1x8x16x16xi64>)
  // CHECK: "onnx.MaxPool"(%{{.*}}) {{.*}} -> (tensor<1x8x16x16xf32>, none)
  %3:2 = "onnx.MaxPool"(%0) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> (tensor<1x8x16x16xf32>, none)
  // CHECK: "onnx.AveragePool"{{.*}}ceil_mode = 1 : i64
  %4 = "onnx.AveragePool"(%0) {kernel_shape = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<1x8x32x32xf32>) -> tensor<1x8x31x31xf32>
  // CHECK: "onnx.GlobalAveragePool"
  %5 = "onnx.GlobalAveragePool"(%0) : (tensor<1x8x32x32xf32>) -> tensor<1x8x1x1xf32>
  // CHECK: "onnx.BatchNormalization"{{.*}} -> (tensor<1x8x32x32xf32>, none, none)
  %6:3 = "onnx.BatchNormalization"(%0, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32} : (tensor<1x8x32x32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<1x8x32x32xf32>, none, none)
  // CHECK: "onnx.LayerNormalization"
  %7:3 = "onnx.LayerNormalization"(%seq, %seq, %none) {axis = 0 : i64} : (tensor<5x2x4xf32>, tensor<5x2x4xf32>, none) -> (tensor<5x2x4xf32>, none, none)
  // CHECK: "onnx.InstanceNormalization"
  %8 = "onnx.InstanceNormalization"(%0, %s, %s) : (tensor<1x8x32x32xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>
  // CHECK: "onnx.LRN"{{.*}}size = 3 : i64
  %9 = "onnx.LRN"(%0) {size = 3 : i64} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  // CHECK: "onnx.LSTM"({{.*}}) <{{.*}}direction = "forward"{{.*}}hidden_size = 8 : i64{{.*}}}> : (tensor<5x2x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, none)
  %10:3 = "onnx.LSTM"(%seq, %lw, %lr, %none, %none, %none, %none, %none) {hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, none)
  // CHECK: "onnx.GRU"{{.*}}activations = ["Sigmoid", "Tanh"]
  %11:2 = "onnx.GRU"(%seq, %lw, %lr, %none, %none, %none) {activations = ["Sigmoid", "Tanh"], hidden_size = 8 : i64} : (tensor<5x2x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none) -> (none, tensor<1x2x8xf32>)
  // CHECK: "onnx.DepthToSpace"{{.*}}mode = "CRD"
  %12 = "onnx.DepthToSpace"(%0) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x32x32xf32>) -> tensor<1x2x64x64xf32>
  // CHECK: "onnx.Resize"(%{{.*}}, %[[NONE]], %{{.*}}, %[[NONE]]) <{{.*}}mode = "linear"
  %sc = "onnx.Constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %13 = "onnx.Resize"(%x, %none, %sc, %none) {mode = "linear"} : (tensor<1x3x32x32xf32>, none, tensor<4xf32>, none) -> tensor<1x3x64x64xf32>
  // CHECK: "onnx.Dropout"
  %14:2 = "onnx.Dropout"(%x, %none, %none) {seed = 7 : i64} : (tensor<1x3x32x32xf32>, none, none) -> (tensor<1x3x32x32xf32>, none)
  return
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @tensor
func.func @tensor(%a: tensor<2x3xf32>, %b: tensor<?x3xf32, #onnx.dims<["M"]>>, %i: tensor<4xi64>, %str: tensor<2x!onnx.string>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Constant"() <{value = dense<[2, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %shape = "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: "onnx.Constant"() <{value_ints = array<i64: 1, 2>}>
  %ints = "onnx.Constant"() {value_ints = array<i64: 1, 2>} : () -> tensor<2xi64>
  // CHECK: "onnx.Constant"() <{value_strings = ["a", "b"]}> : () -> tensor<2x!onnx.string>
  %strs = "onnx.Constant"() {value_strings = ["a", "b"]} : () -> tensor<2x!onnx.string>
  // CHECK: "onnx.Concat"(%{{.*}}, %{{.*}}) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<?x3xf32, #onnx.dims<["M"]>>) -> tensor<?x3xf32>
  %0 = "onnx.Concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<?x3xf32, #onnx.dims<["M"]>>) -> tensor<?x3xf32>
  // CHECK: "onnx.Reshape"(%{{.*}}, %{{.*}}) <{allowzero = 0 : i64}>
  %1 = "onnx.Reshape"(%0, %shape) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: "onnx.Transpose"(%{{.*}}) <{perm = array<i64: 1, 0>}>
  %2 = "onnx.Transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: "onnx.Flatten"
  %3 = "onnx.Flatten"(%a) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  // CHECK: %{{.*}}:3 = "onnx.Split"(%{{.*}}, %[[NONE]]) <{axis = 1 : i64, num_outputs = 3 : i64}>
  %4:3 = "onnx.Split"(%a, %none) {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<2x3xf32>, none) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  // CHECK: "onnx.Gather"
  %idx = "onnx.Constant"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %5 = "onnx.Gather"(%b, %idx) {axis = 0 : i64} : (tensor<?x3xf32, #onnx.dims<["M"]>>, tensor<2xi32>) -> tensor<2x3xf32>
  // CHECK: "onnx.Slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, none, none)
  %6 = "onnx.Slice"(%a, %shape, %shape, %none, %none) : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, none, none) -> tensor<?x?xf32>
  // CHECK: "onnx.Shape"(%{{.*}}) <{end = -1 : i64, start = 0 : i64}>
  %7 = "onnx.Shape"(%b) {end = -1 : i64} : (tensor<?x3xf32, #onnx.dims<["M"]>>) -> tensor<1xi64>
  // CHECK: "onnx.Pad"{{.*}}mode = "reflect"
  %8 = "onnx.Pad"(%a, %i, %none, %none) {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  // CHECK: "onnx.Cast"(%{{.*}}) <{round_mode = "up", saturate = 1 : i64, to = 7 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xi64>
  %9 = "onnx.Cast"(%a) {to = 7 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  // CHECK: "onnx.Cast"(%{{.*}}) {{.*}} : (tensor<2x!onnx.string>) -> tensor<2xf32>
  %10 = "onnx.Cast"(%str) {to = 1 : i64} : (tensor<2x!onnx.string>) -> tensor<2xf32>
  // CHECK: "onnx.Unsqueeze"
  %11 = "onnx.Unsqueeze"(%a, %ints) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x1x1x3xf32>
  // CHECK: "onnx.Squeeze"(%{{.*}}, %[[NONE]])
  %12 = "onnx.Squeeze"(%11, %none) : (tensor<2x1x1x3xf32>, none) -> tensor<2x3xf32>
  // CHECK: "onnx.Expand"
  %13 = "onnx.Expand"(%a, %shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: "onnx.ConstantOfShape"(%{{.*}}) <{value = dense<0> : tensor<1xi32>}>
  %14 = "onnx.ConstantOfShape"(%shape) {value = dense<0> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x3xi32>
  // CHECK: "onnx.TopK"
  %k = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %15:2 = "onnx.TopK"(%a, %k) {largest = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  // CHECK: "onnx.ScatterElements"{{.*}}reduction = "add"
  %ii = "onnx.Constant"() {value = dense<0> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
  %16 = "onnx.ScatterElements"(%a, %ii, %a) {reduction = "add"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "onnx.Trilu"
  %17 = "onnx.Trilu"(%a, %none) {upper = 0 : i64} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  // CHECK: "onnx.NonZero"
  %18 = "onnx.NonZero"(%a) : (tensor<2x3xf32>) -> tensor<2x?xi64>
  // CHECK: "onnx.Identity"(%{{.*}}) : (tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  %19 = "onnx.Identity"(%str) : (tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  // CHECK: "onnx.StringNormalizer"{{.*}}case_change_action = "LOWER"
  %20 = "onnx.StringNormalizer"(%str) {case_change_action = "LOWER"} : (tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  return
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%c: tensor<i1>, %x: tensor<2xf32>, %n: tensor<i64>, %xs: tensor<5x2xf32>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.If"(%{{.*}}) ({
  // CHECK:   "onnx.Relu"
  // CHECK:   onnx.Yield %{{.*}} : tensor<2xf32>
  // CHECK: }, {
  // CHECK:   onnx.Yield %{{.*}} : tensor<2xf32>
  // CHECK: }) : (tensor<i1>) -> tensor<2xf32>
  %0 = "onnx.If"(%c) ({
    %r = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %r : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  // Nested If: an If in a branch of an If.
  // CHECK: "onnx.If"
  // CHECK:   "onnx.If"
  %1 = "onnx.If"(%c) ({
    %inner = "onnx.If"(%c) ({
      onnx.Yield %x : tensor<2xf32>
    }, {
      onnx.Yield %0 : tensor<2xf32>
    }) : (tensor<i1>) -> tensor<2xf32>
    onnx.Yield %inner : tensor<2xf32>
  }, {
    onnx.Yield %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  // Loop body (iter, cond, v) -> (cond, v, scan): one carried value, one scan output.
  // CHECK: %{{.*}}:2 = "onnx.Loop"(%{{.*}}, %[[NONE]], %{{.*}}) ({
  // CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<2xf32>):
  // CHECK:   onnx.Yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  // CHECK: }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  %2:2 = "onnx.Loop"(%n, %none, %x) ({
  ^bb0(%it: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %s = "onnx.Add"(%v, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %cond, %s, %s : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  // Scan body (state, scan_in) -> (state, scan_out).
  // CHECK: "onnx.Scan"(%{{.*}}, %{{.*}}) <{num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0>}> ({
  // CHECK: ^bb0(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>):
  // CHECK: }) : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  %3:2 = "onnx.Scan"(%x, %xs) ({
  ^bb0(%acc: tensor<2xf32>, %e: tensor<2xf32>):
    %s = "onnx.Add"(%acc, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %s, %s : tensor<2xf32>, tensor<2xf32>
  }) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0>} : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Sequences and optionals
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sequence_optional
func.func @sequence_optional(%x: tensor<2xf32>, %y: tensor<3xf32>, %pos: tensor<i64>, %o: !onnx.opt<tensor<2xf32>>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.SequenceConstruct"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
  %0 = "onnx.SequenceConstruct"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
  // CHECK: "onnx.SequenceAt"
  %1 = "onnx.SequenceAt"(%0, %pos) : (!onnx.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
  // CHECK: "onnx.SequenceInsert"(%{{.*}}, %{{.*}}, %{{.*}}) : (!onnx.seq<tensor<?xf32>>, tensor<2xf32>, none)
  %2 = "onnx.SequenceInsert"(%0, %x, %none) : (!onnx.seq<tensor<?xf32>>, tensor<2xf32>, none) -> !onnx.seq<tensor<?xf32>>
  // CHECK: "onnx.SequenceLength"
  %3 = "onnx.SequenceLength"(%2) : (!onnx.seq<tensor<?xf32>>) -> tensor<i64>
  // CHECK: "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.seq<tensor<*xf32>>
  %4 = "onnx.SequenceEmpty"() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  // CHECK: "onnx.SplitToSequence"
  %5 = "onnx.SplitToSequence"(%x, %none) : (tensor<2xf32>, none) -> !onnx.seq<tensor<1xf32>>
  // CHECK: "onnx.ConcatFromSequence"{{.*}}axis = 0 : i64
  %6 = "onnx.ConcatFromSequence"(%5) {axis = 0 : i64} : (!onnx.seq<tensor<1xf32>>) -> tensor<2xf32>
  // CHECK: "onnx.SequenceMap"(%{{.*}}) ({
  // CHECK: ^bb0(%{{.*}}: tensor<?xf32>):
  // CHECK: }) : (!onnx.seq<tensor<?xf32>>) -> !onnx.seq<tensor<?xf32>>
  %7 = "onnx.SequenceMap"(%0) ({
  ^bb0(%t: tensor<?xf32>):
    %r = "onnx.Relu"(%t) : (tensor<?xf32>) -> tensor<?xf32>
    onnx.Yield %r : tensor<?xf32>
  }) : (!onnx.seq<tensor<?xf32>>) -> !onnx.seq<tensor<?xf32>>
  // CHECK: "onnx.Optional"(%{{.*}}) : (tensor<2xf32>) -> !onnx.opt<tensor<2xf32>>
  %8 = "onnx.Optional"(%x) : (tensor<2xf32>) -> !onnx.opt<tensor<2xf32>>
  // CHECK: "onnx.Optional"(%{{.*}}) <{type = tensor<2xf32>}> : (none) -> !onnx.opt<tensor<2xf32>>
  %9 = "onnx.Optional"(%none) {type = tensor<2xf32>} : (none) -> !onnx.opt<tensor<2xf32>>
  // CHECK: "onnx.OptionalHasElement"(%{{.*}}) : (!onnx.opt<tensor<2xf32>>) -> tensor<i1>
  %10 = "onnx.OptionalHasElement"(%o) : (!onnx.opt<tensor<2xf32>>) -> tensor<i1>
  // CHECK: "onnx.OptionalGetElement"(%{{.*}}) : (!onnx.opt<tensor<2xf32>>) -> tensor<2xf32>
  %11 = "onnx.OptionalGetElement"(%o) : (!onnx.opt<tensor<2xf32>>) -> tensor<2xf32>
  // CHECK: "onnx.Identity"(%{{.*}}) : (!onnx.seq<tensor<?xf32>>) -> !onnx.seq<tensor<?xf32>>
  %12 = "onnx.Identity"(%0) : (!onnx.seq<tensor<?xf32>>) -> !onnx.seq<tensor<?xf32>>
  return
}

//===----------------------------------------------------------------------===//
// ai.onnx.ml
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @ml
func.func @ml(%x: tensor<?x4xf32, #onnx.dims<["N"]>>, %m: !onnx.map<i64, f32>, %s: tensor<3x!onnx.string>, %idx: tensor<1xi64>) {
  // CHECK: "onnx.ml.Scaler"(%{{.*}}) <{offset = array<f32: 1.000000e+00>, scale = array<f32: 2.000000e+00>}>
  %0 = "onnx.ml.Scaler"(%x) {offset = array<f32: 1.0>, scale = array<f32: 2.0>} : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4xf32>
  // CHECK: "onnx.ml.ZipMap"(%{{.*}}) <{classlabels_int64s = array<i64: 0, 1, 2, 3>}> : (tensor<?x4xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
  %1 = "onnx.ml.ZipMap"(%0) {classlabels_int64s = array<i64: 0, 1, 2, 3>} : (tensor<?x4xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
  // CHECK: "onnx.ml.DictVectorizer"(%{{.*}}) <{int64_vocabulary = array<i64: 1, 2>}> : (!onnx.map<i64, f32>) -> tensor<1x2xf32>
  %2 = "onnx.ml.DictVectorizer"(%m) {int64_vocabulary = array<i64: 1, 2>} : (!onnx.map<i64, f32>) -> tensor<1x2xf32>
  // CHECK: "onnx.ml.CastMap"(%{{.*}}) <{cast_to = "TO_FLOAT", map_form = "DENSE", max_map = 1 : i64}>
  %3 = "onnx.ml.CastMap"(%m) : (!onnx.map<i64, f32>) -> tensor<1x?xf32>
  // CHECK: "onnx.ml.LabelEncoder"(%{{.*}}) <{{.*}}keys_strings = ["a", "b"]{{.*}}values_int64s = array<i64: 1, 2>}> : (tensor<3x!onnx.string>) -> tensor<3xi64>
  %4 = "onnx.ml.LabelEncoder"(%s) {keys_strings = ["a", "b"], values_int64s = array<i64: 1, 2>} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  // CHECK: "onnx.ml.LinearClassifier"{{.*}}coefficients = array<f32:
  %5:2 = "onnx.ml.LinearClassifier"(%x) {coefficients = array<f32: 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0>, classlabels_ints = array<i64: 0, 1>} : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> (tensor<?xi64>, tensor<?x2xf32>)
  // CHECK: "onnx.ml.TreeEnsembleRegressor"{{.*}}nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"]
  %6 = "onnx.ml.TreeEnsembleRegressor"(%x) {n_targets = 1 : i64, nodes_featureids = array<i64: 0, 0, 0>, nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = array<i64: 0, 1, 2>, nodes_treeids = array<i64: 0, 0, 0>, nodes_truenodeids = array<i64: 1, 0, 0>, nodes_falsenodeids = array<i64: 2, 0, 0>, nodes_values = array<f32: 0.5, 0.0, 0.0>, target_ids = array<i64: 0, 0>, target_nodeids = array<i64: 1, 2>, target_treeids = array<i64: 0, 0>, target_weights = array<f32: 1.0, 2.0>} : (tensor<?x4xf32, #onnx.dims<["N"]>>) -> tensor<?x1xf32>
  // CHECK: "onnx.ml.ArrayFeatureExtractor"
  %7 = "onnx.ml.ArrayFeatureExtractor"(%x, %idx) : (tensor<?x4xf32, #onnx.dims<["N"]>>, tensor<1xi64>) -> tensor<?x1xf32>
  // CHECK: "onnx.ml.CategoryMapper"{{.*}}cats_strings = ["a", "b"]
  %8 = "onnx.ml.CategoryMapper"(%s) {cats_int64s = array<i64: 1, 2>, cats_strings = ["a", "b"]} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  return
}

//===----------------------------------------------------------------------===//
// ai.onnx.preview.training
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @training
func.func @training(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<4xf32>, %g: tensor<4xf32>, %h: tensor<4xf32>) {
  // CHECK: %{{.*}}:2 = "onnx.training.Adagrad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{decay_factor = 1.000000e-01 : f32, epsilon = {{.*}} : f32, norm_coefficient = 0.000000e+00 : f32}>
  %0:2 = "onnx.training.Adagrad"(%r, %t, %x, %g, %h) {decay_factor = 0.1 : f32} : (tensor<f32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  // CHECK: "onnx.training.Adam"
  %1:3 = "onnx.training.Adam"(%r, %t, %x, %g, %h, %h) : (tensor<f32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  // CHECK: "onnx.training.Momentum"{{.*}}mode = "nesterov"
  %2:2 = "onnx.training.Momentum"(%r, %t, %x, %g, %h) {alpha = 0.9 : f32, beta = 1.0 : f32, mode = "nesterov", norm_coefficient = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  // CHECK: "onnx.training.Gradient"(%{{.*}}) <{xs = ["X"], y = "Y"}> : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "onnx.training.Gradient"(%x) {xs = ["X"], y = "Y"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// Type parameters: a heterogeneous variadic (Loop's carried values) and
// GridSample's grid (libonnx 1.12 binds it to X's T1, the spec does not)
// take other element types.
// CHECK-LABEL: func @type_params_unbound
func.func @type_params_unbound(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>, %k: tensor<3xi64>, %img: tensor<1x1x4x4xf16>, %g: tensor<1x2x2x2xf32>) {
  // CHECK: "onnx.Loop"
  %0:2 = "onnx.Loop"(%n, %c, %x, %k) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %a: tensor<2xf32>, %b: tensor<3xi64>):
    onnx.Yield %cond, %a, %b : tensor<i1>, tensor<2xf32>, tensor<3xi64>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>, tensor<3xi64>) -> (tensor<2xf32>, tensor<3xi64>)
  // CHECK: "onnx.GridSample"
  %1 = "onnx.GridSample"(%img, %g) : (tensor<1x1x4x4xf16>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf16>
  return
}

// onnx.Custom: a node of a domain onnxc does not know, with its attributes.
// CHECK-LABEL: func.func @custom
// CHECK: "onnx.Custom"(%{{.+}}) <{domain = "com.example", node_attrs = {beta = 1.500000e+00 : f32, idx = array<i64: 1, 2>, tag = "t"}, op_type = "Swish"}> : (tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>>
func.func @custom(%x: tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>> {
  %y = "onnx.Custom"(%x) {domain = "com.example", op_type = "Swish", node_attrs = {beta = 1.5 : f32, idx = array<i64: 1, 2>, tag = "t"}} : (tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>>
  return %y : tensor<?x8xf32, #onnx.dims<["N"]>>
}

// The transformer ops of opsets 23-25 (Patches.cpp): Attention's absent
// optionals, its attributes and defaults.
// CHECK-LABEL: func.func @transformer_ops
// CHECK: "onnx.Attention"({{.*}}) <{is_causal = 1 : i64, kv_num_heads = 2 : i64, left_window_size = -1 : i64, q_num_heads = 4 : i64, qk_matmul_output_mode = 0 : i64, right_window_size = -1 : i64, softcap = 0.000000e+00 : f32}>
// CHECK: "onnx.RMSNormalization"({{.*}}) <{axis = -1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64}>
// CHECK: "onnx.RotaryEmbedding"({{.*}}) <{interleaved = 0 : i64, num_heads = 2 : i64, rotary_embedding_dim = 0 : i64}>
// CHECK: "onnx.TensorScatter"({{.*}}) <{axis = -2 : i64, mode = "circular"}>
// CHECK: "onnx.Swish"({{.*}}) <{alpha = 1.000000e+00 : f32}>
func.func @transformer_ops(%x: tensor<1x3x16xf32>, %c: tensor<8x4xf32>, %p: tensor<1x3xi64>, %kc: tensor<1x2x8x4xf32>, %u: tensor<1x2x3x4xf32>, %st: tensor<3xi64>) -> (tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1x2x8x4xf32>, tensor<1x3x16xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %k = "onnx.Slice"(%x, %st, %st, %n, %n) : (tensor<1x3x16xf32>, tensor<3xi64>, tensor<3xi64>, none, none) -> tensor<1x3x8xf32>
  %0:4 = "onnx.Attention"(%x, %k, %k, %n, %n, %n, %n) {is_causal = 1 : i64, q_num_heads = 4 : i64, kv_num_heads = 2 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, none, none) -> (tensor<1x3x16xf32>, none, none, none)
  %s = "onnx.Slice"(%x, %st, %st, %n, %n) : (tensor<1x3x16xf32>, tensor<3xi64>, tensor<3xi64>, none, none) -> tensor<16xf32>
  %1 = "onnx.RMSNormalization"(%x, %s) : (tensor<1x3x16xf32>, tensor<16xf32>) -> tensor<1x3x16xf32>
  %2 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) {num_heads = 2 : i64} : (tensor<1x3x16xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<1x3xi64>) -> tensor<1x3x16xf32>
  %3 = "onnx.TensorScatter"(%kc, %u, %n) {mode = "circular"} : (tensor<1x2x8x4xf32>, tensor<1x2x3x4xf32>, none) -> tensor<1x2x8x4xf32>
  %4 = "onnx.Swish"(%x) : (tensor<1x3x16xf32>) -> tensor<1x3x16xf32>
  return %0#0, %1, %2, %3, %4 : tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1x2x8x4xf32>, tensor<1x3x16xf32>
}

// Pad, If, Loop and Scan take float8, int4 and float4e2m1 tensors
// (opsets 19, 21, 23); Concat and Gather do not (their newest version is
// 13: invalid.mlir).
// CHECK-LABEL: func.func @narrow_types
// CHECK: "onnx.Pad"({{.*}}) <{mode = "constant"}> : (tensor<3x4xf8E4M3FN>, tensor<4xi64>, none, none) -> tensor<4x6xf8E4M3FN>
// CHECK: "onnx.If"
// CHECK: -> tensor<3x4xi4>
func.func @narrow_types(%x: tensor<3x4xf8E4M3FN>, %p: tensor<4xi64>, %c: tensor<i1>, %q: tensor<3x4xi4>) -> (tensor<4x6xf8E4M3FN>, tensor<3x4xi4>) {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Pad"(%x, %p, %n, %n) : (tensor<3x4xf8E4M3FN>, tensor<4xi64>, none, none) -> tensor<4x6xf8E4M3FN>
  %1 = "onnx.If"(%c) ({
    onnx.Yield %q : tensor<3x4xi4>
  }, {
    onnx.Yield %q : tensor<3x4xi4>
  }) : (tensor<i1>) -> tensor<3x4xi4>
  return %0, %1 : tensor<4x6xf8E4M3FN>, tensor<3x4xi4>
}

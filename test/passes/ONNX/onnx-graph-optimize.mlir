// RUN: %onnxc-opt --onnx-graph-optimize --split-input-file %s | FileCheck %s

// Conv + inference BatchNormalization with constant parameters: one Conv
// with W' = W * s and B' = (B - mean) * s + beta, s = scale / sqrt(var + eps).
// Channel 0: s = 2 / sqrt(3 + 1) = 1; channel 1: s = 1 / sqrt(0 + 1) = 1
// (eps = 1): W' = W; B' = (B - mean) * s + beta = (1 - 1) * 1 + 5 = 5 and
// (2 - 0) * 1 - 1 = 1.
// CHECK-LABEL: func.func @conv_bn
// CHECK-DAG: %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[}}{{\[}}[1.000000e+00]], {{\[}}[2.000000e+00]]]> : tensor<2x1x1xf32>}>
// CHECK-DAG: %[[B:.+]] = "onnx.Constant"() <{value = dense<[5.000000e+00, 1.000000e+00]> : tensor<2xf32>}>
// CHECK: %[[Y:.+]] = "onnx.Conv"(%arg0, %[[W]], %[[B]])
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[Y]]
func.func @conv_bn(%x: tensor<1x1x4xf32>) -> tensor<1x2x4xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %b = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %scale = "onnx.Constant"() <{value = dense<[2.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %beta = "onnx.Constant"() <{value = dense<[5.0, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "onnx.Constant"() <{value = dense<[1.0, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %var = "onnx.Constant"() <{value = dense<[3.0, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = "onnx.Conv"(%x, %w, %b) : (tensor<1x1x4xf32>, tensor<2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4xf32>
  %y, %rm, %rv = "onnx.BatchNormalization"(%c, %scale, %beta, %mean, %var) {epsilon = 1.0 : f32} : (tensor<1x2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x4xf32>, none, none)
  return %y : tensor<1x2x4xf32>
}

// -----

// A Conv with another user keeps its BatchNormalization.
// CHECK-LABEL: func.func @conv_bn_shared
// CHECK: onnx.BatchNormalization
func.func @conv_bn_shared(%x: tensor<1x1x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %w = "onnx.Constant"() <{value = dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %p = "onnx.Constant"() <{value = dense<[1.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %none = onnx.NoValue
  %c = "onnx.Conv"(%x, %w, %none) : (tensor<1x1x4xf32>, tensor<2x1x1xf32>, none) -> tensor<1x2x4xf32>
  %y, %rm, %rv = "onnx.BatchNormalization"(%c, %p, %p, %p, %p) : (tensor<1x2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x4xf32>, none, none)
  return %y, %c : tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// A constant transposed at compile time; Transpose of Transpose composed;
// an identity Transpose removed.
// CHECK-LABEL: func.func @transposes
// CHECK: %[[C:.+]] = "onnx.Constant"() <{value = dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi64>}>
// CHECK: %[[T:.+]] = "onnx.Transpose"(%arg0) <{perm = array<i64: 2, 0, 1>}>
// CHECK: return %[[C]], %[[T]], %arg1
func.func @transposes(%x: tensor<2x3x4xf32>, %y: tensor<5xf32>) -> (tensor<2x2xi64>, tensor<4x2x3xf32>, tensor<5xf32>) {
  %c = "onnx.Constant"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>}> : () -> tensor<2x2xi64>
  %ct = "onnx.Transpose"(%c) : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %t1 = "onnx.Transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %t2 = "onnx.Transpose"(%t1) {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %t3 = "onnx.Transpose"(%y) {perm = array<i64: 0>} : (tensor<5xf32>) -> tensor<5xf32>
  return %ct, %t2, %t3 : tensor<2x2xi64>, tensor<4x2x3xf32>, tensor<5xf32>
}

// -----

// Reshape of Reshape with a constant outer shape: one Reshape. A 0 in the
// outer shape (copy a dim of the inner result) keeps both; a Reshape to
// its own static type goes.
// CHECK-LABEL: func.func @reshapes
// CHECK: %[[S2:.+]] = "onnx.Constant"() <{value = dense<[4, 6]> : tensor<2xi64>}>
// CHECK: %[[S3:.+]] = "onnx.Constant"() <{value = dense<[0, 2, -1]> : tensor<3xi64>}>
// CHECK: %[[R:.+]] = "onnx.Reshape"(%arg0, %[[S2]])
// CHECK: %[[K1:.+]] = "onnx.Reshape"(%arg0, %{{.+}})
// CHECK: %[[K2:.+]] = "onnx.Reshape"(%[[K1]], %[[S3]])
// CHECK: return %[[R]], %[[K2]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<6x2x2xf32>) {
  %s1 = "onnx.Constant"() <{value = dense<[6, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s2 = "onnx.Constant"() <{value = dense<[4, 6]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s3 = "onnx.Constant"() <{value = dense<[0, 2, -1]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %r1 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %r2 = "onnx.Reshape"(%r1, %s2) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %k1 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %k2 = "onnx.Reshape"(%k1, %s3) : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
  return %r2, %k2 : tensor<4x6xf32>, tensor<6x2x2xf32>
}

// -----

// ConvTranspose with constant weights: the input's positions times the
// weights, then Col2Im places each column (and the bias). Under 32 input
// positions (here 9) the product is X' W: X (N, 2, 9) transposed to
// (N, 9, 2) times W as (C=2, M*K=4) as it is, and Col2Im reads the result
// through a Transpose back to (N, 4, 9).
// CHECK-LABEL: func.func @convtranspose
// CHECK-DAG:  %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]> : tensor<2x4xf32>}>
// CHECK-DAG:  %[[S:.+]] = "onnx.Constant"() <{value = dense<[0, 2, 9]> : tensor<3xi64>}>
// CHECK:      %[[X:.+]] = "onnx.Reshape"(%arg0, %[[S]]) <{allowzero = 0 : i64}> : (tensor<?x2x3x3xf32, #onnx.dims<["N"]>>, tensor<3xi64>) -> tensor<?x2x9xf32, #onnx.dims<["N"]>>
// CHECK:      %[[XT:.+]] = "onnx.Transpose"(%[[X]]) <{perm = array<i64: 0, 2, 1>}> : (tensor<?x2x9xf32, #onnx.dims<["N"]>>) -> tensor<?x9x2xf32, #onnx.dims<["N"]>>
// CHECK:      %[[PT:.+]] = "onnx.MatMul"(%[[XT]], %[[W]]) : (tensor<?x9x2xf32, #onnx.dims<["N"]>>, tensor<2x4xf32>) -> tensor<?x9x4xf32, #onnx.dims<["N"]>>
// CHECK:      %[[P:.+]] = "onnx.Transpose"(%[[PT]]) <{perm = array<i64: 0, 2, 1>}> : (tensor<?x9x4xf32, #onnx.dims<["N"]>>) -> tensor<?x4x9xf32, #onnx.dims<["N"]>>
// CHECK:      %[[Y:.+]] = "onnx.Col2Im"(%[[P]], %{{.+}}, %{{.+}}) <{dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}>
// CHECK:      %[[B:.+]] = "onnx.Reshape"(%arg1
// CHECK:      %[[R:.+]] = "onnx.Add"(%[[Y]], %[[B]])
// CHECK-NOT:  onnx.ConvTranspose
// CHECK:      return %[[R]]
func.func @convtranspose(%x: tensor<?x2x3x3xf32, #onnx.dims<["N"]>>, %b: tensor<1xf32>) -> tensor<?x1x6x6xf32, #onnx.dims<["N"]>> {
  %w = "onnx.Constant"() <{value = dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>}> : () -> tensor<2x1x2x2xf32>
  %y = "onnx.ConvTranspose"(%x, %w, %b) <{strides = array<i64: 2, 2>}> : (tensor<?x2x3x3xf32, #onnx.dims<["N"]>>, tensor<2x1x2x2xf32>, tensor<1xf32>) -> tensor<?x1x6x6xf32, #onnx.dims<["N"]>>
  return %y : tensor<?x1x6x6xf32, #onnx.dims<["N"]>>
}

// -----

// 36 input positions: W' X, W' the weights transposed to (M*K=4, C=2)
// (W'[j, i] = W[i, j]) times X as (N, 2, 36), and Col2Im of the product.
// CHECK-LABEL: func.func @convtranspose_many_positions
// CHECK-DAG:  %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]> : tensor<4x2xf32>}>
// CHECK:      %[[X:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) <{allowzero = 0 : i64}> : (tensor<1x2x6x6xf32>, tensor<3xi64>) -> tensor<1x2x36xf32>
// CHECK:      %[[P:.+]] = "onnx.MatMul"(%[[W]], %[[X]]) : (tensor<4x2xf32>, tensor<1x2x36xf32>) -> tensor<1x4x36xf32>
// CHECK-NOT:  onnx.Transpose
// CHECK:      "onnx.Col2Im"(%[[P]], %{{.+}}, %{{.+}})
func.func @convtranspose_many_positions(%x: tensor<1x2x6x6xf32>) -> tensor<1x1x12x12xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>}> : () -> tensor<2x1x2x2xf32>
  %n = onnx.NoValue
  %y = "onnx.ConvTranspose"(%x, %w, %n) <{strides = array<i64: 2, 2>}> : (tensor<1x2x6x6xf32>, tensor<2x1x2x2xf32>, none) -> tensor<1x1x12x12xf32>
  return %y : tensor<1x1x12x12xf32>
}

// -----

// Two groups: left to the direct lowering.
// CHECK-LABEL: func.func @convtranspose_groups
// CHECK: onnx.ConvTranspose
func.func @convtranspose_groups(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x1x2x2xf32>}> : () -> tensor<2x1x2x2xf32>
  %n = onnx.NoValue
  %y = "onnx.ConvTranspose"(%x, %w, %n) <{group = 2 : i64, strides = array<i64: 2, 2>}> : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>, none) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}

// -----

// A 3x3 convolution with dilation 6 and pads 6 on a 4x4 map: the outer
// taps read only padding for every output position, so only the center tap
// is kept (W[:, :, 1, 1]) and the pads it no longer spans go.
// CHECK-LABEL: func.func @conv_padding_only_taps
// CHECK:      %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[\[\[\[}}5.000000e+00]]], {{\[\[\[}}1.400000e+01]]]]> : tensor<2x1x1x1xf32>}>
// CHECK:      "onnx.Conv"(%arg0, %[[W]], %arg1) <{auto_pad = "NOTSET", dilations = array<i64: 6, 6>, group = 1 : i64, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>
// CHECK-SAME: -> tensor<1x2x4x4xf32>
func.func @conv_padding_only_taps(%x: tensor<1x1x4x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]> : tensor<2x1x3x3xf32>}> : () -> tensor<2x1x3x3xf32>
  %y = "onnx.Conv"(%x, %w, %b) <{dilations = array<i64: 6, 6>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 6, 6, 6, 6>}> : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// Asymmetric: 1-D, pads (3, 1), dilation 3 on a 4-wide map (2 outputs):
// tap 0 (offsets -3, -2) only reads padding, taps 1 and 2 read the input;
// W keeps [2, 3], the begin pad loses the 3 that tap 0 spanned, the end
// pad stays 1.
// CHECK-LABEL: func.func @conv_padding_only_taps_1d
// CHECK:      %[[W:.+]] = "onnx.Constant"() <{value = dense<{{\[\[\[}}2.000000e+00, 3.000000e+00]]]> : tensor<1x1x2xf32>}>
// CHECK:      "onnx.Conv"(%arg0, %[[W]], %{{.+}}) <{auto_pad = "NOTSET", dilations = array<i64: 3>, group = 1 : i64, pads = array<i64: 0, 1>}>
// CHECK-SAME: -> tensor<1x1x2xf32>
func.func @conv_padding_only_taps_1d(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %n = onnx.NoValue
  %y = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 3>, pads = array<i64: 3, 1>}> : (tensor<1x1x4xf32>, tensor<1x1x3xf32>, none) -> tensor<1x1x2xf32>
  return %y : tensor<1x1x2xf32>
}

// -----

// The kept taps would need a negative pad (tap 1 alone, begin pad 1 < 3):
// unchanged.
// CHECK-LABEL: func.func @conv_padding_only_taps_negative_pad
// CHECK: pads = array<i64: 1, 2>
func.func @conv_padding_only_taps_negative_pad(%x: tensor<1x1x4xf32>) -> tensor<1x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %n = onnx.NoValue
  %y = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 3>, pads = array<i64: 1, 2>}> : (tensor<1x1x4xf32>, tensor<1x1x3xf32>, none) -> tensor<1x1x1xf32>
  return %y : tensor<1x1x1xf32>
}

// Every tap reads the input somewhere: unchanged.
// CHECK-LABEL: func.func @conv_all_taps_used
// CHECK: kernel_shape = array<i64: 3, 3>, pads = array<i64: 2, 2, 2, 2>
func.func @conv_all_taps_used(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<1x1x3x3xf32>}> : () -> tensor<1x1x3x3xf32>
  %n = onnx.NoValue
  %y = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 2, 2>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 2, 2, 2, 2>}> : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// A 3x3 convolution with dilation 12 and pads 12 on a 16x16 map: the
// outer taps read the input on 4 of the 16 rows or columns only (25% of
// the products are by input values). Split into the 3 x 3 regions where
// the same taps read the input (rows and columns [0, 4): taps 1-2, [4, 12):
// tap 1, [12, 16): taps 0-1), each a Conv without pads over the slice of X
// its taps read, concatenated along W then H. The center region is a 1x1
// Conv over X[:, :, 4:12, 4:12].
// CHECK-LABEL: func.func @conv_region_split
// CHECK:      "onnx.Conv"(%arg0, %{{.+}}, %arg1) <{auto_pad = "NOTSET", dilations = array<i64: 12, 12>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<?x32x16x16xf32>, tensor<32x32x2x2xf32>, tensor<32xf32>) -> tensor<?x32x4x4xf32>
// CHECK:      "onnx.Slice"(%arg0, {{.+}}) : {{.+}} -> tensor<?x32x16x8xf32>
// CHECK:      kernel_shape = array<i64: 2, 1>{{.+}} -> tensor<?x32x4x8xf32>
// CHECK:      kernel_shape = array<i64: 2, 2>{{.+}} -> tensor<?x32x4x4xf32>
// CHECK:      "onnx.Concat"({{.+}}) <{axis = 3 : i64}> : {{.+}} -> tensor<?x32x4x16xf32>
// CHECK:      kernel_shape = array<i64: 1, 2>{{.+}} -> tensor<?x32x8x4xf32>
// CHECK:      "onnx.Slice"(%arg0, {{.+}}) : {{.+}} -> tensor<?x32x8x8xf32>
// CHECK:      kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<?x32x8x8xf32>, tensor<32x32x1x1xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
// CHECK:      "onnx.Concat"({{.+}}) <{axis = 3 : i64}> : {{.+}} -> tensor<?x32x8x16xf32>
// CHECK:      "onnx.Concat"({{.+}}) <{axis = 3 : i64}> : {{.+}} -> tensor<?x32x4x16xf32>
// CHECK:      %[[Y:.+]] = "onnx.Concat"({{.+}}) <{axis = 2 : i64}> : (tensor<?x32x4x16xf32>, tensor<?x32x8x16xf32>, tensor<?x32x4x16xf32>) -> tensor<?x32x16x16xf32>
// CHECK:      return %[[Y]]
func.func @conv_region_split(%x: tensor<?x32x16x16xf32>, %b: tensor<32xf32>) -> tensor<?x32x16x16xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<32x32x3x3xf32>}> : () -> tensor<32x32x3x3xf32>
  %y = "onnx.Conv"(%x, %w, %b) <{dilations = array<i64: 12, 12>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 12, 12, 12, 12>}> : (tensor<?x32x16x16xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<?x32x16x16xf32>
  return %y : tensor<?x32x16x16xf32>
}

// Unchanged: dilation 2 on the same map (96% of the products read the
// input) and 3 input channels (too few products saved to pay for 9 calls).
// CHECK-LABEL: func.func @conv_region_split_not
// CHECK:     "onnx.Conv"(%arg0, %{{.+}}, %arg2) <{auto_pad = "NOTSET", dilations = array<i64: 2, 2>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 2, 2, 2, 2>
// CHECK:     "onnx.Conv"(%arg1, %{{.+}}, %arg2) <{auto_pad = "NOTSET", dilations = array<i64: 12, 12>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 12, 12, 12, 12>
// CHECK-NOT: "onnx.Concat"
func.func @conv_region_split_not(%x: tensor<1x32x16x16xf32>, %x3: tensor<1x3x16x16xf32>, %b: tensor<32xf32>) -> (tensor<1x32x16x16xf32>, tensor<1x32x16x16xf32>) {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<32x32x3x3xf32>}> : () -> tensor<32x32x3x3xf32>
  %w3 = "onnx.Constant"() <{value = dense<1.0> : tensor<32x3x3x3xf32>}> : () -> tensor<32x3x3x3xf32>
  %y = "onnx.Conv"(%x, %w, %b) <{dilations = array<i64: 2, 2>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 2, 2, 2, 2>}> : (tensor<1x32x16x16xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %y3 = "onnx.Conv"(%x3, %w3, %b) <{dilations = array<i64: 12, 12>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 12, 12, 12, 12>}> : (tensor<1x3x16x16xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  return %y, %y3 : tensor<1x32x16x16xf32>, tensor<1x32x16x16xf32>
}

// A BatchNormalization after the Conv folds into it first; the folded Conv
// is then split.
// Dilation 4 and pads 4 on a 16x16 map drop 31% of the products (kept:
// 69% <= 70%). With 32 input and output channels and the pads and sides
// multiples of 4, the runtime's Winograd path over the dilation's phases
// takes it whole (faster than the regions): unchanged. With 40 input
// channels it does not: split.
// CHECK-LABEL: func.func @conv_region_split_winograd
// CHECK:     %[[Y:.+]] = "onnx.Conv"(%arg0, %{{.+}}, %{{.+}}) <{auto_pad = "NOTSET", dilations = array<i64: 4, 4>, group = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 4, 4, 4, 4>
// CHECK-NOT: "onnx.Concat"
// CHECK:     return %[[Y]]
// CHECK-LABEL: func.func @conv_region_split_winograd_not
// CHECK:     kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<1x40x8x8xf32>, tensor<64x40x2x2xf32>
// CHECK:     "onnx.Concat"({{.+}}) <{axis = 2 : i64}>
func.func @conv_region_split_winograd(%x: tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<32x32x3x3xf32>}> : () -> tensor<32x32x3x3xf32>
  %n = onnx.NoValue
  %y = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 4, 4>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 4, 4, 4, 4>}> : (tensor<1x32x16x16xf32>, tensor<32x32x3x3xf32>, none) -> tensor<1x32x16x16xf32>
  return %y : tensor<1x32x16x16xf32>
}
func.func @conv_region_split_winograd_not(%x: tensor<1x40x16x16xf32>) -> tensor<1x64x16x16xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<64x40x3x3xf32>}> : () -> tensor<64x40x3x3xf32>
  %n = onnx.NoValue
  %y = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 4, 4>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 4, 4, 4, 4>}> : (tensor<1x40x16x16xf32>, tensor<64x40x3x3xf32>, none) -> tensor<1x64x16x16xf32>
  return %y : tensor<1x64x16x16xf32>
}

// CHECK-LABEL: func.func @conv_region_split_after_bn_fold
// CHECK-NOT: onnx.BatchNormalization
// CHECK: kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>
// CHECK: "onnx.Concat"({{.+}}) <{axis = 2 : i64}>
func.func @conv_region_split_after_bn_fold(%x: tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<32x32x3x3xf32>}> : () -> tensor<32x32x3x3xf32>
  %s = "onnx.Constant"() <{value = dense<2.0> : tensor<32xf32>}> : () -> tensor<32xf32>
  %m = "onnx.Constant"() <{value = dense<0.5> : tensor<32xf32>}> : () -> tensor<32xf32>
  %n = onnx.NoValue
  %c = "onnx.Conv"(%x, %w, %n) <{dilations = array<i64: 12, 12>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 12, 12, 12, 12>}> : (tensor<1x32x16x16xf32>, tensor<32x32x3x3xf32>, none) -> tensor<1x32x16x16xf32>
  %y, %rm, %rv = "onnx.BatchNormalization"(%c, %s, %m, %m, %s) {epsilon = 1.0e-5 : f32} : (tensor<1x32x16x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x16x16xf32>, none, none)
  return %y : tensor<1x32x16x16xf32>
}

// -----

// A sum of products of computed operands (the gradient of a weight used at
// every step of an unrolled recurrence): one product over the concatenated
// depths, the Concats flat however long the chain.
// CHECK-LABEL: func.func @sum_of_products
// CHECK-SAME: (%[[A1:.+]]: tensor<4x2xf32>, %[[B1:.+]]: tensor<2x5xf32>, %[[A2:.+]]: tensor<4x3xf32>, %[[B2:.+]]: tensor<3x5xf32>, %[[A3:.+]]: tensor<4x1xf32>, %[[B3:.+]]: tensor<1x5xf32>)
// CHECK-DAG: %[[A:.+]] = "onnx.Concat"(%[[A1]], %[[A2]], %[[A3]]) <{axis = 1 : i64}> : (tensor<4x2xf32>, tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
// CHECK-DAG: %[[B:.+]] = "onnx.Concat"(%[[B1]], %[[B2]], %[[B3]]) <{axis = 0 : i64}> : (tensor<2x5xf32>, tensor<3x5xf32>, tensor<1x5xf32>) -> tensor<6x5xf32>
// CHECK: %[[Y:.+]] = "onnx.MatMul"(%[[A]], %[[B]]) : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
// CHECK-NOT: onnx.Add
// CHECK-NOT: onnx.MatMul
// CHECK: return %[[Y]]
func.func @sum_of_products(%a1: tensor<4x2xf32>, %b1: tensor<2x5xf32>, %a2: tensor<4x3xf32>, %b2: tensor<3x5xf32>, %a3: tensor<4x1xf32>, %b3: tensor<1x5xf32>) -> tensor<4x5xf32> {
  %p1 = "onnx.MatMul"(%a1, %b1) : (tensor<4x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  %p2 = "onnx.MatMul"(%a2, %b2) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %p3 = "onnx.MatMul"(%a3, %b3) : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  %s = "onnx.Add"(%p1, %p2) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = "onnx.Add"(%s, %p3) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// Not merged: a constant operand (read prepacked by the product alone; a
// Concat would copy it at every call), a product with another reader, a
// batched product.
// CHECK-LABEL: func.func @sum_of_products_kept
// CHECK-COUNT-2: "onnx.Add"
// CHECK-NOT: onnx.Concat
func.func @sum_of_products_kept(%a: tensor<4x2xf32>, %b: tensor<2x5xf32>, %c: tensor<3x4x2xf32>, %d: tensor<3x2x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>) {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x5xf32>}> : () -> tensor<2x5xf32>
  %p1 = "onnx.MatMul"(%a, %b) : (tensor<4x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  %p2 = "onnx.MatMul"(%a, %w) : (tensor<4x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  %s = "onnx.Add"(%p1, %p2) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %q1 = "onnx.MatMul"(%c, %d) : (tensor<3x4x2xf32>, tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
  %q2 = "onnx.MatMul"(%c, %d) : (tensor<3x4x2xf32>, tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
  %t = "onnx.Add"(%q1, %q2) : (tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %s, %p1, %t : tensor<4x5xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>
}

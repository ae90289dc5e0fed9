// RUN: %onnxc-opt --convert-onnx-quantized-to-ukernel --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --convert-onnx-quantized-to-ukernel=fuse-epilogues=false --split-input-file %s | FileCheck %s --check-prefix=NOFUSE
// RUN: %onnxc-opt --convert-onnx-quantized-to-ukernel --convert-onnx-to-linalg --split-input-file %s | FileCheck %s --check-prefix=LINALG
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul and
// DynamicQuantizeLinear become calls of the runtime's int8 kernels
// (runtime_abi.h); the chain of dynamic quantization after ConvInteger
// (Cast, Mul by the scale, Add of the reshaped bias, Relu) goes into the
// call (flags 838 = F32 | BIAS | CLAMP | B_PACKED | B_SIGNED); constant
// weights are packed into a global (rows of 4 * ceil(k / 4) int8, then the
// int32 row sums); operands are read through to_buffer, results come back
// through to_tensor, bridged by unrealized_conversion_casts that
// convert-onnx-to-linalg folds.

// CHECK-DAG: memref.global "private" constant @onnxc_qconv_weights : memref<36xi8> = dense_resource<onnxc_qpacked> {alignment = 64 : i64}
// CHECK-DAG: func.func private @onnxc_rt_qconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_dynamic_quantize(!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @conv_chain
// CHECK: %[[PARAMS:.+]] = memref.alloca() : memref<25xi64>
// CHECK: %[[X:.+]] = builtin.unrealized_conversion_cast %arg0 : tensor<?x2x5x6xf32, #onnx.dims<["N"]>> to tensor<?x2x5x6xf32>
// CHECK: %[[Q:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x2x5x6xi8>
// CHECK: %[[XB:.+]] = bufferization.to_buffer %[[X]] read_only
// CHECK: call @onnxc_rt_dynamic_quantize
// CHECK: bufferization.to_tensor %[[Q]] restrict writable
// CHECK: %[[SCALE:.+]] = "onnx.Mul"
// CHECK: %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x3x5x6xf32>
// CHECK: %[[FLAGS:.+]] = arith.constant 838 : i64
// CHECK-NEXT: %[[I16:.+]] = arith.constant 16 : index
// CHECK-NEXT: memref.store %[[FLAGS]], %[[PARAMS]][%[[I16]]] : memref<25xi64>
// CHECK: bufferization.to_buffer %[[SCALE]] read_only : tensor<f32> to memref<f32>
// CHECK: %[[W:.+]] = memref.get_global @onnxc_qconv_weights : memref<36xi8>
// CHECK: call @onnxc_rt_qconv2d
// CHECK: %[[OUT:.+]] = bufferization.to_tensor %[[Y]] restrict writable : memref<?x3x5x6xf32> to tensor<?x3x5x6xf32>
// CHECK: %[[R:.+]] = builtin.unrealized_conversion_cast %[[OUT]] : tensor<?x3x5x6xf32> to tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
// CHECK-NOT: onnx.Cast
// CHECK-NOT: onnx.Relu
// CHECK: return %[[R]]
// CHECK: onnxc_qpacked: "0x0100000001FE03040506F90801010101020202020000000000000080120000000C00000080FFFFFF"

// Without fusion: ConvInteger alone (flags 6: I32 | B_PACKED | B_SIGNED),
// the chain stays.
// NOFUSE-LABEL: func.func @conv_chain
// NOFUSE: arith.constant 6 : i64
// NOFUSE: call @onnxc_rt_qconv2d
// NOFUSE: "onnx.Cast"
// NOFUSE: "onnx.Relu"

// LINALG-LABEL: func.func @conv_chain
// LINALG-NOT: onnx.
// LINALG-NOT: unrealized_conversion_cast
// LINALG: call @onnxc_rt_dynamic_quantize
// LINALG: call @onnxc_rt_qconv2d
// LINALG: return
func.func @conv_chain(%x: tensor<?x2x5x6xf32, #onnx.dims<["N"]>>) -> tensor<?x3x5x6xf32, #onnx.dims<["N"]>> {
  %w = "onnx.Constant"() <{value = dense<[[[[1, -2], [3, 4]], [[5, 6], [-7, 8]]], [[[1, 1], [1, 1]], [[2, 2], [2, 2]]], [[[0, 0], [0, 0]], [[0, 0], [0, -128]]]]> : tensor<3x2x2x2xi8>}> : () -> tensor<3x2x2x2xi8>
  %ws = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %wz = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %b = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %shape = "onnx.Constant"() <{value = dense<[1, -1, 1, 1]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %q, %s, %z = "onnx.DynamicQuantizeLinear"(%x) : (tensor<?x2x5x6xf32, #onnx.dims<["N"]>>) -> (tensor<?x2x5x6xui8, #onnx.dims<["N"]>>, tensor<f32>, tensor<ui8>)
  %acc = "onnx.ConvInteger"(%q, %w, %z, %wz) <{auto_pad = "NOTSET", group = 1 : i64, pads = array<i64: 0, 0, 1, 1>}> : (tensor<?x2x5x6xui8, #onnx.dims<["N"]>>, tensor<3x2x2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<?x3x5x6xi32, #onnx.dims<["N"]>>
  %f = "onnx.Cast"(%acc) <{saturate = 1 : i64, to = 1 : i64}> : (tensor<?x3x5x6xi32, #onnx.dims<["N"]>>) -> tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
  %sw = "onnx.Mul"(%s, %ws) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %m = "onnx.Mul"(%f, %sw) : (tensor<?x3x5x6xf32, #onnx.dims<["N"]>>, tensor<f32>) -> tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
  %br = "onnx.Reshape"(%b, %shape) <{allowzero = 0 : i64}> : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
  %a = "onnx.Add"(%m, %br) : (tensor<?x3x5x6xf32, #onnx.dims<["N"]>>, tensor<1x3x1x1xf32>) -> tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
  %r = "onnx.Relu"(%a) : (tensor<?x3x5x6xf32, #onnx.dims<["N"]>>) -> tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
  return %r : tensor<?x3x5x6xf32, #onnx.dims<["N"]>>
}

// -----

// MatMulInteger: A's leading dims folded into its rows (2 x 4 = 8), B
// packed into one panel of ceil(3 / 4) x 32 x 4 bytes (int8 + 128) and its
// 2 column sums (136 bytes); flags 6 (I32 | B_PACKED | B_SIGNED). The
// result has two users: no chain.
// CHECK: memref.global "private" constant @onnxc_qgemm_weights : memref<136xi8>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[P:.+]] = memref.alloca() : memref<14xi64>
// CHECK: %[[C:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x2xi32>
// CHECK: %[[ROWS:.+]] = arith.constant 8 : i64
// CHECK-NEXT: %[[I1:.+]] = arith.constant 1 : index
// CHECK-NEXT: memref.store %[[ROWS]], %[[P]][%[[I1]]] : memref<14xi64>
// CHECK: %[[FL:.+]] = arith.constant 6 : i64
// CHECK-NEXT: %[[I5:.+]] = arith.constant 5 : index
// CHECK-NEXT: memref.store %[[FL]], %[[P]][%[[I5]]] : memref<14xi64>
// CHECK: call @onnxc_rt_qgemm
// CHECK: "onnx.Cast"
func.func @matmul(%a: tensor<2x4x3xui8>) -> (tensor<2x4x2xi32>, tensor<2x4x2xf32>) {
  %b = "onnx.Constant"() <{value = dense<[[1, 2], [3, 4], [5, -6]]> : tensor<3x2xi8>}> : () -> tensor<3x2xi8>
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.MatMulInteger"(%a, %b, %none, %none) : (tensor<2x4x3xui8>, tensor<3x2xi8>, none, none) -> tensor<2x4x2xi32>
  %f = "onnx.Cast"(%y) <{saturate = 1 : i64, to = 1 : i64}> : (tensor<2x4x2xi32>) -> tensor<2x4x2xf32>
  return %y, %f : tensor<2x4x2xi32>, tensor<2x4x2xf32>
}

// -----

// QLinearConv, per-channel weights, int32 bias, uint8 output: flags
// 438 = U8 | BIAS | B_SCALE_PER_CHANNEL | B_ZP_PER_CHANNEL | B_PACKED |
// B_SIGNED; 1-D: in_h = out_h = kernel_h = 1.
// CHECK-LABEL: func.func @qlinearconv_1d
// CHECK: arith.constant 438 : i64
// CHECK: call @onnxc_rt_qconv2d
// CHECK-NOT: onnx.QLinearConv
func.func @qlinearconv_1d(%x: tensor<1x2x7xui8>) -> tensor<1x2x7xui8> {
  %w = "onnx.Constant"() <{value = dense<[[[1, 2, 3], [4, 5, 6]], [[-1, -2, -3], [-4, -5, -6]]]> : tensor<2x2x3xi8>}> : () -> tensor<2x2x3xi8>
  %xs = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %xz = "onnx.Constant"() <{value = dense<3> : tensor<ui8>}> : () -> tensor<ui8>
  %ws = "onnx.Constant"() <{value = dense<[0.01, 0.02]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %wz = "onnx.Constant"() <{value = dense<[0, 0]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %ys = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<128> : tensor<ui8>}> : () -> tensor<ui8>
  %bias = "onnx.Constant"() <{value = dense<[100, -100]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %y = "onnx.QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %bias) <{auto_pad = "NOTSET", group = 1 : i64, pads = array<i64: 1, 1>}> : (tensor<1x2x7xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x7xui8>
  return %y : tensor<1x2x7xui8>
}

// -----

// QLinearConv over 8 input channels with a 1 x 2 kernel: the weights packed
// in HWC order (ONNXC_Q_W_HWC: the channels of a tap together), flags
// 1158 = W_HWC | U8 | B_PACKED | B_SIGNED. Row 0 is W[0, c, 0, kw] =
// 2 c + kw + 1: (c, kw) order 1 2 3 .. 16, HWC order 1 3 5 .. 15 then
// 2 4 6 .. 16; row 1 its negation; then the sums 136 and -136.
// CHECK-LABEL: func.func @qlinearconv_hwc
// CHECK: arith.constant 1158 : i64
// CHECK: call @onnxc_rt_qconv2d
// CHECK: onnxc_qpacked: "0x0100000001030507090B0D0F020406080A0C0E10FFFDFBF9F7F5F3F1FEFCFAF8F6F4F2F08800000078FFFFFF"
func.func @qlinearconv_hwc(%x: tensor<1x8x3x5xui8>) -> tensor<1x2x3x4xui8> {
  %w = "onnx.Constant"() <{value = dense<[[[[1, 2]], [[3, 4]], [[5, 6]], [[7, 8]], [[9, 10]], [[11, 12]], [[13, 14]], [[15, 16]]], [[[-1, -2]], [[-3, -4]], [[-5, -6]], [[-7, -8]], [[-9, -10]], [[-11, -12]], [[-13, -14]], [[-15, -16]]]]> : tensor<2x8x1x2xi8>}> : () -> tensor<2x8x1x2xi8>
  %xs = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %xz = "onnx.Constant"() <{value = dense<3> : tensor<ui8>}> : () -> tensor<ui8>
  %ws = "onnx.Constant"() <{value = dense<0.01> : tensor<f32>}> : () -> tensor<f32>
  %wz = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %ys = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<128> : tensor<ui8>}> : () -> tensor<ui8>
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %none) <{auto_pad = "NOTSET", group = 1 : i64}> : (tensor<1x8x3x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x8x1x2xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x3x4xui8>
  return %y : tensor<1x2x3x4xui8>
}

// -----

// QLinearMatMul with int8 output: S8 (192) | B_SIGNED; B is a graph input
// (packed by the runtime).
// CHECK-LABEL: func.func @qlinearmatmul
// CHECK: arith.constant 194 : i64
// CHECK: call @onnxc_rt_qgemm
func.func @qlinearmatmul(%a: tensor<3x4xui8>, %b: tensor<4x5xi8>) -> tensor<3x5xi8> {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %za = "onnx.Constant"() <{value = dense<3> : tensor<ui8>}> : () -> tensor<ui8>
  %zb = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %y = "onnx.QLinearMatMul"(%a, %s, %za, %b, %s, %zb, %s, %zb) : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<3x5xi8>
  return %y : tensor<3x5xi8>
}

// -----

// What the kernels do not take stays for the plain lowering: a 3-D
// convolution; a zero point whose length is known only at run time.
// CHECK-LABEL: func.func @left_alone
// CHECK: "onnx.ConvInteger"
// CHECK: "onnx.MatMulInteger"
// CHECK-NOT: call
func.func @left_alone(%x: tensor<1x1x3x3x3xui8>, %w: tensor<1x1x2x2x2xui8>, %a: tensor<?x3xui8>, %b: tensor<3x4xui8>, %za: tensor<?xui8>) -> (tensor<1x1x2x2x2xi32>, tensor<?x4xi32>) {
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.ConvInteger"(%x, %w, %none, %none) <{auto_pad = "NOTSET", group = 1 : i64}> : (tensor<1x1x3x3x3xui8>, tensor<1x1x2x2x2xui8>, none, none) -> tensor<1x1x2x2x2xi32>
  %m = "onnx.MatMulInteger"(%a, %b, %za, %none) : (tensor<?x3xui8>, tensor<3x4xui8>, tensor<?xui8>, none) -> tensor<?x4xi32>
  return %y, %m : tensor<1x1x2x2x2xi32>, tensor<?x4xi32>
}

// -----

// The QDQ form: DequantizeLinear -> Conv -> Relu -> QuantizeLinear with an
// int32 bias at exactly x_scale * w_scale (0.5 * 0.25) becomes the
// requantizing call (flags 902 = CLAMP (the Relu) | BIAS | U8 | B_PACKED |
// B_SIGNED); the Conv, Relu and QuantizeLinear go.
// CHECK-LABEL: func.func @qdq_conv
// CHECK: arith.constant 902 : i64
// CHECK: call @onnxc_rt_qconv2d
// CHECK-NOT: onnx.Conv"
// CHECK-NOT: onnx.QuantizeLinear
// NOFUSE-LABEL: func.func @qdq_conv
// NOFUSE: call @onnxc_rt_qconv2d
func.func @qdq_conv(%x: tensor<1x1x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %xz = "onnx.Constant"() <{value = dense<10> : tensor<ui8>}> : () -> tensor<ui8>
  %w = "onnx.Constant"() <{value = dense<[[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]], [[[-1, -2, -3], [-4, -5, -6], [-7, -8, -9]]]]> : tensor<2x1x3x3xi8>}> : () -> tensor<2x1x3x3xi8>
  %ws = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %wz = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %b = "onnx.Constant"() <{value = dense<[7, -7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %bs = "onnx.Constant"() <{value = dense<0.125> : tensor<f32>}> : () -> tensor<f32>
  %ys = "onnx.Constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<5> : tensor<ui8>}> : () -> tensor<ui8>
  %none = "onnx.NoValue"() : () -> none
  %xf = "onnx.DequantizeLinear"(%x, %xs, %xz) <{axis = 1 : i64, block_size = 0 : i64}> : (tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x1x4x4xf32>
  %wf = "onnx.DequantizeLinear"(%w, %ws, %wz) <{axis = 0 : i64, block_size = 0 : i64}> : (tensor<2x1x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x1x3x3xf32>
  %bf = "onnx.DequantizeLinear"(%b, %bs, %none) <{axis = 0 : i64, block_size = 0 : i64}> : (tensor<2xi32>, tensor<f32>, none) -> tensor<2xf32>
  %c = "onnx.Conv"(%xf, %wf, %bf) <{auto_pad = "NOTSET", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = "onnx.Relu"(%c) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = "onnx.QuantizeLinear"(%r, %ys, %yz) <{axis = 1 : i64, block_size = 0 : i64, output_dtype = 0 : i64, saturate = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// The QDQ form of a product: DequantizeLinear -> Gemm (transB) ->
// QuantizeLinear with an int32 bias at x_scale * w_scale becomes the
// requantizing onnxc_rt_qgemm call (flags 390 = BIAS | U8 | B_PACKED |
// B_SIGNED; batch 1, rows 2, n 2, k 3), the weights transposed and packed
// into a global; the Gemm and QuantizeLinear go. With transA the Gemm stays.
// CHECK-LABEL: func.func @qdq_gemm
// CHECK: memref.store %c1_i64{{.*}}, %{{.+}}[%c0
// CHECK: memref.store %c2_i64{{.*}}, %{{.+}}[%c1
// CHECK: memref.store %c2_i64{{.*}}, %{{.+}}[%c2
// CHECK: memref.store %c3_i64{{.*}}, %{{.+}}[%c3
// CHECK: arith.constant 390 : i64
// CHECK: call @onnxc_rt_qgemm
// CHECK-NOT: onnx.Gemm"
// CHECK-NOT: onnx.QuantizeLinear
// CHECK-LABEL: func.func @qdq_gemm_transa
// CHECK-NOT: call
// CHECK: onnx.Gemm"
func.func @qdq_gemm(%x: tensor<2x3xui8>) -> tensor<2x2xui8> {
  %xs = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %xz = "onnx.Constant"() <{value = dense<10> : tensor<ui8>}> : () -> tensor<ui8>
  %w = "onnx.Constant"() <{value = dense<[[1, 2, 3], [-4, -5, -6]]> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
  %ws = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %wz = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %b = "onnx.Constant"() <{value = dense<[7, -7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %bs = "onnx.Constant"() <{value = dense<0.125> : tensor<f32>}> : () -> tensor<f32>
  %ys = "onnx.Constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<5> : tensor<ui8>}> : () -> tensor<ui8>
  %none = "onnx.NoValue"() : () -> none
  %xf = "onnx.DequantizeLinear"(%x, %xs, %xz) <{axis = 1 : i64, block_size = 0 : i64}> : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %wf = "onnx.DequantizeLinear"(%w, %ws, %wz) <{axis = 0 : i64, block_size = 0 : i64}> : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %bf = "onnx.DequantizeLinear"(%b, %bs, %none) <{axis = 0 : i64, block_size = 0 : i64}> : (tensor<2xi32>, tensor<f32>, none) -> tensor<2xf32>
  %g = "onnx.Gemm"(%xf, %wf, %bf) <{alpha = 1.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %y = "onnx.QuantizeLinear"(%g, %ys, %yz) <{axis = 1 : i64, block_size = 0 : i64, output_dtype = 0 : i64, saturate = 1 : i64}> : (tensor<2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x2xui8>
  return %y : tensor<2x2xui8>
}
func.func @qdq_gemm_transa(%x: tensor<3x2xui8>) -> tensor<2x2xui8> {
  %xs = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %xz = "onnx.Constant"() <{value = dense<10> : tensor<ui8>}> : () -> tensor<ui8>
  %w = "onnx.Constant"() <{value = dense<[[1, 2, 3], [-4, -5, -6]]> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
  %ws = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %wz = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %ys = "onnx.Constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<5> : tensor<ui8>}> : () -> tensor<ui8>
  %none = "onnx.NoValue"() : () -> none
  %xf = "onnx.DequantizeLinear"(%x, %xs, %xz) <{axis = 1 : i64, block_size = 0 : i64}> : (tensor<3x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x2xf32>
  %wf = "onnx.DequantizeLinear"(%w, %ws, %wz) <{axis = 0 : i64, block_size = 0 : i64}> : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %g = "onnx.Gemm"(%xf, %wf, %none) <{alpha = 1.0 : f32, beta = 1.0 : f32, transA = 1 : i64, transB = 1 : i64}> : (tensor<3x2xf32>, tensor<2x3xf32>, none) -> tensor<2x2xf32>
  %y = "onnx.QuantizeLinear"(%g, %ys, %yz) <{axis = 1 : i64, block_size = 0 : i64, output_dtype = 0 : i64, saturate = 1 : i64}> : (tensor<2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x2xui8>
  return %y : tensor<2x2xui8>
}

// -----

// An fp32 Col2Im (what onnx-graph-optimize makes of a ConvTranspose) ->
// onnxc_rt_col2im with a 15-slot onnxc_col2im_params block: batch from the
// input's dim 0, channels 3 (12 rows / 2x2 blocks), blocks 3 x 4, image 6 x
// 8, block 2 x 2, strides 2 x 2, dilations 1 x 1, pads 0 0, flags 0; the
// result is a fresh buffer handed back through to_tensor.
// CHECK-LABEL: func.func @col2im
// CHECK: %[[P:.+]] = memref.alloca() : memref<15xi64>
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0
// CHECK: %[[NI:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: memref.store %[[NI]], %[[P]][%c0{{.*}}]
// CHECK: memref.store %c3_i64, %[[P]][%c1{{.*}}]
// CHECK: memref.store %c6_i64, %[[P]][%c4{{.*}}]
// CHECK: memref.store %c8_i64, %[[P]][%c5{{.*}}]
// CHECK: memref.store %c0_i64{{.*}}, %[[P]][%c14{{.*}}]
// CHECK: %[[Y:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3x6x8xf32>
// CHECK: bufferization.to_buffer %{{.+}} read_only : tensor<?x12x12xf32>
// CHECK: call @onnxc_rt_col2im(
// CHECK: bufferization.to_tensor %[[Y]] restrict writable
// CHECK-NOT: onnx.Col2Im
func.func @col2im(%x: tensor<?x12x12xf32>) -> tensor<?x3x6x8xf32> {
  %im = "onnx.Constant"() <{value = dense<[6, 8]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<?x12x12xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x3x6x8xf32>
  return %y : tensor<?x3x6x8xf32>
}

// -----

// Col2Im of a Transpose (perm 0, 2, 1) of the product: the call reads the
// product itself (flags 1 = ONNXC_COL2IM_TRANSPOSED) and the Transpose
// goes. 1-D: in_h, out_h and kernel_h 1, pads (1, 1) as pad_top 0 and
// pad_left 1.
// CHECK-LABEL: func.func @col2im_transposed_1d
// CHECK-SAME: (%[[T:.+]]: tensor<2x5x6xf32>)
// CHECK-NOT: onnx.Transpose
// CHECK: memref.store %c1_i64{{.*}}, %[[P:.+]][%c14{{.*}}]
// CHECK: bufferization.to_buffer %[[T]] read_only : tensor<2x5x6xf32>
// CHECK: call @onnxc_rt_col2im(
func.func @col2im_transposed_1d(%t: tensor<2x5x6xf32>) -> tensor<2x2x10xf32> {
  %im = "onnx.Constant"() <{value = dense<[10]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %bl = "onnx.Constant"() <{value = dense<[3]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %x = "onnx.Transpose"(%t) <{perm = array<i64: 0, 2, 1>}> : (tensor<2x5x6xf32>) -> tensor<2x6x5xf32>
  %y = "onnx.Col2Im"(%x, %im, %bl) <{pads = array<i64: 1, 1>, strides = array<i64: 2>}> : (tensor<2x6x5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2x10xf32>
  return %y : tensor<2x2x10xf32>
}

// -----

// Not fp32, or 3-D: left to convert-onnx-to-linalg.
// CHECK-LABEL: func.func @col2im_left
// CHECK: onnx.Col2Im
// CHECK: onnx.Col2Im
func.func @col2im_left(%x: tensor<1x8x12xf64>, %z: tensor<1x8x8xf32>) -> (tensor<1x2x6x8xf64>, tensor<1x1x3x4x4xf32>) {
  %im = "onnx.Constant"() <{value = dense<[6, 8]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<1x8x12xf64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x6x8xf64>
  %im3 = "onnx.Constant"() <{value = dense<[3, 4, 4]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %bl3 = "onnx.Constant"() <{value = dense<[2, 2, 2]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %y3 = "onnx.Col2Im"(%z, %im3, %bl3) <{strides = array<i64: 1, 2, 2>}> : (tensor<1x8x8xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x1x3x4x4xf32>
  return %y, %y3 : tensor<1x2x6x8xf64>, tensor<1x1x3x4x4xf32>
}

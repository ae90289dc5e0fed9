// RUN: %onnxc-opt --convert-onnx-quantized-to-ukernel --split-input-file %s | FileCheck %s
// An fp32 Softmax / LogSoftmax along the last axis (SoftmaxToUkernel.cpp)
// -> onnxc_rt_softmax(rows, n, x, y, flags): rows the product of the dims
// before the last, n the last, flags 1 for LogSoftmax. Another axis, or
// another element type, stays for convert-onnx-to-linalg. The numbers:
// the ONNX backend's softmax and logsoftmax cases
// (test/numeric/conformance) and test/numeric/ort/softmax-tiers.test.

// Static: 3 x 4 = 12 rows of 5.
// CHECK-LABEL: func.func @softmax_last
// CHECK: %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<3x4x5xf32>
// CHECK: bufferization.to_buffer %{{.+}} read_only : tensor<3x4x5xf32>
// CHECK: call @onnxc_rt_softmax(%c12_i64, %c5_i64, %{{.+}}, %{{.+}}, %c0_i64)
// CHECK: bufferization.to_tensor %[[Y]] restrict writable
// CHECK-NOT: onnx.Softmax
func.func @softmax_last(%x: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
  %y = "onnx.Softmax"(%x) <{axis = -1 : i64}> : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %y : tensor<3x4x5xf32>
}

// -----

// LogSoftmax with axis given as rank - 1 and a dynamic batch: rows = N * 4.
// CHECK-LABEL: func.func @logsoftmax_dynamic
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c0
// CHECK: %[[R:.+]] = arith.muli %[[N]], %c4
// CHECK: %[[RI:.+]] = arith.index_cast %[[R]] : index to i64
// CHECK: call @onnxc_rt_softmax(%[[RI]], %c7_i64, %{{.+}}, %{{.+}}, %c1_i64)
// CHECK-NOT: onnx.LogSoftmax
func.func @logsoftmax_dynamic(%x: tensor<?x4x7xf32>) -> tensor<?x4x7xf32> {
  %y = "onnx.LogSoftmax"(%x) <{axis = 2 : i64}> : (tensor<?x4x7xf32>) -> tensor<?x4x7xf32>
  return %y : tensor<?x4x7xf32>
}

// -----

// Not along the last axis, or not fp32: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: onnxc_rt_softmax
// CHECK: onnx.Softmax
// CHECK: onnx.Softmax
func.func @left_alone(%x: tensor<3x4x5xf32>, %h: tensor<3x5xf16>) -> (tensor<3x4x5xf32>, tensor<3x5xf16>) {
  %y = "onnx.Softmax"(%x) <{axis = 1 : i64}> : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %z = "onnx.Softmax"(%h) <{axis = -1 : i64}> : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %y, %z : tensor<3x4x5xf32>, tensor<3x5xf16>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// Run-time checks name the node: the pass tags each op's location with its
// op type, and a message is "node 'name' (Op): reason" ("{}" in a reason are
// run-time values: the \01 placeholders of onnxc_rt_fail_values). A
// tensor.cast that a lowering makes from a dynamic dim to a static one is
// checked (here Squeeze's axis, 1 only if the data says so).
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("node 'sq' (Squeeze): dim \01 is \01 at run time where \01 is required\00")
// CHECK-DAG: func.func private @onnxc_rt_fail_values(i32, !llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @squeeze
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<2x?xf32>
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[D]], %{{.+}} : index
// CHECK: scf.if
// CHECK: %[[P:.+]] = llvm.mlir.addressof @[[MSG]]
// CHECK: func.call @onnxc_rt_fail_values(%{{.+}}, %[[P]],
// CHECK: tensor.cast %[[X]] : tensor<2x?xf32> to tensor<2x1xf32>
func.func @squeeze(%x: tensor<2x?xf32>) -> tensor<2xf32> {
  %a = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Squeeze"(%x, %a) : (tensor<2x?xf32>, tensor<1xi64>) -> tensor<2xf32> loc("sq")
  return %0 : tensor<2xf32>
}

// -----

// Reshape to a shape from data: its entries, the -1 rule and the element
// count are checked before tensor.reshape reads the data.
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'r' (Reshape): shape entry \01 is \01\00")
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'r' (Reshape): the shape has \01 entries of -1\00")
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'r' (Reshape): \01 elements do not fit the shape (its entries other than -1 multiply to \01)\00")
// CHECK-LABEL: func.func @reshape
// CHECK: arith.mului_extended
// CHECK: tensor.reshape
func.func @reshape(%x: tensor<?x4xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32> loc("r")
  return %0 : tensor<?x?xf32>
}

// -----

// Integer Div checks each divisor inside the loop (0, and INT_MIN / -1),
// dividing by 1 where a check failed; a constant divisor without 0 or -1
// needs no check.
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'd' (Div): integer division by zero\00")
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'd' (Div): integer division overflows: \01 / -1\00")
// CHECK-LABEL: func.func @div
// CHECK: linalg.generic
// CHECK: ^bb0(%[[A:.+]]: i32, %[[B:.+]]: i32, %{{.+}}: i32):
// CHECK: scf.if
// CHECK: func.call @onnxc_rt_fail(
// CHECK: scf.if
// CHECK: func.call @onnxc_rt_fail_values(
// CHECK: %[[SAFE:.+]] = arith.select %{{.+}}, %{{.+}}, %[[B]] : i32
// CHECK: arith.divsi %[[A]], %[[SAFE]] : i32
// CHECK-LABEL: func.func @div_const
// CHECK-NOT: scf.if
// CHECK: arith.divsi
func.func @div(%a: tensor<?xi32, #onnx.dims<["N"]>>, %b: tensor<?xi32, #onnx.dims<["N"]>>) -> tensor<?xi32, #onnx.dims<["N"]>> {
  %0 = "onnx.Div"(%a, %b) : (tensor<?xi32, #onnx.dims<["N"]>>, tensor<?xi32, #onnx.dims<["N"]>>) -> tensor<?xi32, #onnx.dims<["N"]>> loc("d")
  return %0 : tensor<?xi32, #onnx.dims<["N"]>>
}
func.func @div_const(%a: tensor<4xi32>) -> tensor<4xi32> {
  %c = "onnx.Constant"() {value = dense<[2, 3, -2, 7]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "onnx.Div"(%a, %c) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// ArgMax over an axis that may be empty at run time: an error unless the
// result is empty too (ORT); with static dims the check folds away.
// CHECK-DAG: @{{__onnxc_msg[0-9]+}}("node 'am' (ArgMax): axis 1 is empty (dim 0): there is no index to return\00")
// CHECK-LABEL: func.func @argmax_dynamic
// CHECK: scf.if
// CHECK: func.call @onnxc_rt_fail(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @argmax_static
// CHECK-NOT: scf.if
// CHECK: linalg.generic
func.func @argmax_dynamic(%x: tensor<2x?xf32>) -> tensor<2xi64> {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x?xf32>) -> tensor<2xi64> loc("am")
  return %0 : tensor<2xi64>
}
func.func @argmax_static(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xi64> loc("am2")
  return %0 : tensor<2xi64>
}

// -----

// A pool over a dynamic spatial dim checks at run time that it is not 0
// (the static case is an error, convert-onnx-to-linalg-pooling-invalid.mlir).
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("node 'ap' (AveragePool): X is empty in spatial dim 1: there is no value to pool\00")
// CHECK-LABEL: func.func @avgpool_dynamic_spatial
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x4x?xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x1x4x?xf32>
// CHECK: arith.cmpi ne, %[[D]], %{{.+}} : index
// CHECK: scf.if
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: linalg.generic
func.func @avgpool_dynamic_spatial(%x: tensor<1x1x4x?xf32>) -> tensor<1x1x4x?xf32> {
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 1>} : (tensor<1x1x4x?xf32>) -> tensor<1x1x4x?xf32> loc("ap")
  return %0 : tensor<1x1x4x?xf32>
}

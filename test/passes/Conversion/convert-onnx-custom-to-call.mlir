// RUN: %onnxc-opt --convert-onnx-custom-to-call --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --convert-onnx-custom-to-call --convert-onnx-to-linalg --split-input-file %s | FileCheck %s --check-prefix=LINALG
// onnx.Custom becomes a call of onnxc_rt_custom_call with an int64 block
// (runtime_abi.h: strings, attributes, counts, then data/dtype/rank/dims per
// input and output) and the kernel's address (an external llvm.func); a
// dynamic result dim is -1 in the block, filled by onnxc_rt_custom_shape
// with the user's shape function, and read back to size the allocation.
// Operands go through read-only to_buffer, results come back through
// to_tensor (restrict, writable); convert-onnx-to-linalg folds the casts.

// CHECK-DAG: llvm.func @onnxc_custom_com_example_Swish(!llvm.ptr) -> i32
// CHECK-DAG: llvm.func @onnxc_custom_com_example_Swish_shape(!llvm.ptr) -> i32
// CHECK-DAG: func.func private @onnxc_rt_custom_shape(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_custom_call(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[NAMES:.+]]("swish\00com.example\00Swish\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[ATTRS:.+]]("\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00beta\00\00\00\C0?\00")
// CHECK-LABEL: func.func @swish
// CHECK: %[[BLOCK:.+]] = memref.alloca() : memref<14xi64>
// CHECK: llvm.mlir.addressof @[[NAMES]]
// CHECK: llvm.mlir.addressof @[[ATTRS]]
// CHECK: %[[X:.+]] = builtin.unrealized_conversion_cast %arg0 : tensor<?x8xf32, #onnx.dims<["N"]>> to tensor<?x8xf32>
// CHECK: bufferization.to_buffer %[[X]] read_only : tensor<?x8xf32> to memref<?x8xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
// CHECK: %[[N64:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: memref.store %[[N64]], %[[BLOCK]][%{{.+}}] : memref<14xi64>
// CHECK: %[[MINUS1:.+]] = arith.constant -1 : i64
// CHECK: %[[C12:.+]] = arith.constant 12 : index
// CHECK: memref.store %[[MINUS1]], %[[BLOCK]][%[[C12]]] : memref<14xi64>
// CHECK: %[[PTR:.+]] = llvm.inttoptr %{{.+}} : i64 to !llvm.ptr
// CHECK: %[[SHAPE:.+]] = llvm.mlir.addressof @onnxc_custom_com_example_Swish_shape : !llvm.ptr
// CHECK: call @onnxc_rt_custom_shape(%[[PTR]], %[[SHAPE]])
// CHECK: %[[DIM:.+]] = memref.load %[[BLOCK]][%{{.+}}] : memref<14xi64>
// CHECK: %[[DIMX:.+]] = arith.index_cast %[[DIM]] : i64 to index
// CHECK: %[[Y:.+]] = memref.alloc(%[[DIMX]]) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK: %[[KERNEL:.+]] = llvm.mlir.addressof @onnxc_custom_com_example_Swish : !llvm.ptr
// CHECK: call @onnxc_rt_custom_call(%[[PTR]], %[[KERNEL]])
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[Y]] restrict writable : memref<?x8xf32> to tensor<?x8xf32>
// CHECK: builtin.unrealized_conversion_cast %[[T]] : tensor<?x8xf32> to tensor<?x8xf32, #onnx.dims<["N"]>>
// CHECK-NOT: onnx.Custom
// LINALG-LABEL: func.func @swish
// LINALG-NOT: unrealized_conversion_cast
// LINALG: call @onnxc_rt_custom_call
// LINALG: return %{{.+}} : tensor<?x8xf32>
func.func @swish(%x: tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>> {
  %y = "onnx.Custom"(%x) {domain = "com.example", op_type = "Swish", node_attrs = {beta = 1.5 : f32}} : (tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>> loc(#swish)
  return %y : tensor<?x8xf32, #onnx.dims<["N"]>>
}
#swish = loc(fused<"com.example.Swish">["swish"])

// -----

// Static results: no shape function; two inputs and two outputs, in order.
// CHECK-LABEL: func.func @two
// CHECK-NOT: onnxc_rt_custom_shape
// CHECK: %[[BLOCK:.+]] = memref.alloca() : memref<22xi64>
// CHECK: bufferization.to_buffer %arg0 read_only : tensor<2x3xf32> to memref<2x3xf32>
// CHECK: bufferization.to_buffer %arg1 read_only : tensor<3xi64> to memref<3xi64>
// CHECK: %[[A:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK: %[[B:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1xi64>
// CHECK: call @onnxc_rt_custom_call
// CHECK: bufferization.to_tensor %[[A]] restrict writable
// CHECK: bufferization.to_tensor %[[B]] restrict writable
func.func @two(%x: tensor<2x3xf32>, %k: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<1xi64>) {
  %y:2 = "onnx.Custom"(%x, %k) {domain = "test", op_type = "Mix", node_attrs = {}} : (tensor<2x3xf32>, tensor<3xi64>) -> (tensor<2x3xf32>, tensor<1xi64>)
  return %y#0, %y#1 : tensor<2x3xf32>, tensor<1xi64>
}

// RUN: %onnxc-opt --onnxc-mark-allocator %s | FileCheck %s

// Calls of the generic allocator become onnxc_rt_alloc with the allocating
// node's label (from the call's location, tagged with the op type by
// convert-onnx-to-linalg), or null when the location names none; the
// allocators' results are noalias. Other functions are untouched.
// CHECK-DAG: llvm.mlir.global internal constant @[[SITE:__onnxc_msg[0-9]+]]("node 'conv1' (Conv)\00")
// CHECK-DAG: llvm.func @onnxc_rt_alloc(i64, !llvm.ptr) -> (!llvm.ptr {llvm.noalias})
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> (!llvm.ptr {llvm.noalias})
// CHECK-DAG: llvm.func @other(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @f
// CHECK-SAME: (%[[N:.+]]: i64)
// CHECK: %[[P:.+]] = llvm.mlir.addressof @[[SITE]]
// CHECK: llvm.call @onnxc_rt_alloc(%[[N]], %[[P]])
// CHECK: %[[Z:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @onnxc_rt_alloc(%[[N]], %[[Z]])
// CHECK: llvm.call @other(%[[N]])
// CHECK-NOT: _mlir_memref_to_llvm_alloc(
llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
llvm.func @other(i64) -> !llvm.ptr
llvm.func @f(%n: i64) {
  %0 = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr loc(fused<"Conv">["conv1"])
  %1 = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
  %2 = llvm.call @other(%n) : (i64) -> !llvm.ptr
  llvm.return
}

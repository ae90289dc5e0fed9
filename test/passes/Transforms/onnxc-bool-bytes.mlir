// RUN: %onnxc-opt --onnxc-bool-bytes --split-input-file %s | FileCheck %s

// An i1 store becomes a store of its zext to i8; an i1 load a load of an i8
// truncated to i1. Other accesses are untouched.
// CHECK-LABEL: llvm.func @copy_bool
// CHECK-SAME: (%[[SRC:.+]]: !llvm.ptr, %[[DST:.+]]: !llvm.ptr, %[[F:.+]]: !llvm.ptr)
// CHECK: %[[BYTE:.+]] = llvm.load %[[SRC]] : !llvm.ptr -> i8
// CHECK: %[[BIT:.+]] = llvm.trunc %[[BYTE]] : i8 to i1
// CHECK: %[[NOT:.+]] = llvm.xor %[[BIT]], %{{.+}} : i1
// CHECK: %[[W:.+]] = llvm.zext %[[NOT]] : i1 to i8
// CHECK: llvm.store %[[W]], %[[DST]] : i8, !llvm.ptr
// CHECK: %[[X:.+]] = llvm.load %[[F]] : !llvm.ptr -> f32
// CHECK: llvm.store %[[X]], %[[F]] : f32, !llvm.ptr
// CHECK-NOT: i1, !llvm.ptr
llvm.func @copy_bool(%src: !llvm.ptr, %dst: !llvm.ptr, %f: !llvm.ptr) {
  %t = llvm.mlir.constant(true) : i1
  %b = llvm.load %src : !llvm.ptr -> i1
  %n = llvm.xor %b, %t : i1
  llvm.store %n, %dst : i1, !llvm.ptr
  %x = llvm.load %f : !llvm.ptr -> f32
  llvm.store %x, %f : f32, !llvm.ptr
  llvm.return
}

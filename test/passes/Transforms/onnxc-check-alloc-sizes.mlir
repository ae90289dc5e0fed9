// RUN: %onnxc-opt --onnxc-check-alloc-sizes --split-input-file %s | FileCheck %s

// A dynamically shaped buffer: every dynamic dim non-negative and the bytes
// (4 * 3 * d0 * d1, the static part folded) within 2^63 - 1, products by
// mului_extended (the high half must stay 0); otherwise the runtime fails
// the call with the dims and the node.
// CHECK-DAG: llvm.mlir.global internal constant @[[SITE:__onnxc_msg[0-9]+]]("node 'c' (ConstantOfShape)\00")
// CHECK-DAG: llvm.func @onnxc_rt_fail_alloc_size(!llvm.ptr, i64, i64, ...)
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.+]]: index, %[[B:.+]]: index)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[STATIC:.+]] = arith.constant 12 : i64
// CHECK: %[[A64:.+]] = arith.index_cast %[[A]] : index to i64
// CHECK: arith.cmpi slt, %[[A64]], %[[ZERO]]
// CHECK: %[[LO1:.+]], %[[HI1:.+]] = arith.mului_extended %[[STATIC]], %[[A64]]
// CHECK: arith.cmpi ne, %[[HI1]], %[[ZERO]]
// CHECK: %[[B64:.+]] = arith.index_cast %[[B]] : index to i64
// CHECK: %[[LO2:.+]], %[[HI2:.+]] = arith.mului_extended %[[LO1]], %[[B64]]
// CHECK: %[[OVER:.+]] = arith.cmpi slt, %[[LO2]], %[[ZERO]]
// An overflowing product is no error when a dim is 0 (the buffer is empty:
// [2^32, 3, 2^32, 0] was refused).
// CHECK: %[[NONEMPTY:.+]] = arith.xori
// CHECK: arith.andi %{{.+}}, %[[NONEMPTY]] : i1
// CHECK: scf.if
// CHECK: %[[P:.+]] = llvm.mlir.addressof @[[SITE]]
// CHECK: llvm.call @onnxc_rt_fail_alloc_size(%[[P]], %{{.+}}, %{{.+}}, %[[A64]], %{{.+}}, %[[B64]]) vararg
// CHECK: memref.alloc(%[[A]], %[[B]]) : memref<?x3x?xf32>
func.func @dynamic(%a: index, %b: index) {
  %0 = memref.alloc(%a, %b) : memref<?x3x?xf32> loc(fused<"ConstantOfShape">["c"])
  memref.dealloc %0 : memref<?x3x?xf32>
  return
}

// -----

// Static shapes need no run-time check; an empty one none at all.
// CHECK-LABEL: func.func @static
// CHECK-NOT: scf.if
// CHECK: memref.alloc() : memref<4x3xf32>
func.func @static(%a: index) {
  %0 = memref.alloc() : memref<4x3xf32>
  %1 = memref.alloc(%a) : memref<0x?xf32>
  memref.dealloc %0 : memref<4x3xf32>
  memref.dealloc %1 : memref<0x?xf32>
  return
}


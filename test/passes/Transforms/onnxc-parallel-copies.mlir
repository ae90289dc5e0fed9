// RUN: %onnxc-opt --onnxc-parallel-copies --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --onnxc-parallel-copies=min-bytes=1048577 --split-input-file %s | FileCheck %s --check-prefix=LARGE

// A Concat input copied into its slice of the result (1 MiB): the
// parameter block at the function's entry (rank 4, 4-byte elements, the
// sizes, the source's strides, the destination's), then the call with the
// destination's offset (256 x 32 x 32 elements) in its address. Above
// min-bytes, the copy stays.
// CHECK-LABEL: func.func @concat_slice
// CHECK-SAME: (%[[SRC:.+]]: memref<1x256x32x32xf32>, %[[DST:.+]]: memref<1x512x32x32xf32>)
// CHECK: %[[P:.+]] = memref.alloca() : memref<14xi64>
// CHECK: %[[SUB:.+]] = memref.subview %[[DST]][0, 256, 0, 0]
// CHECK: %[[RANK:.+]] = arith.constant 4 : i64
// CHECK: %[[BYTES:.+]] = arith.constant 4 : i64
// CHECK: memref.extract_strided_metadata %[[SRC]]
// CHECK: memref.extract_strided_metadata %[[SUB]]
// CHECK: %[[DST_PTR:.+]] = llvm.inttoptr
// CHECK: memref.store %[[RANK]], %[[P]][%{{.+}}] : memref<14xi64>
// CHECK: memref.store %[[BYTES]], %[[P]][%{{.+}}] : memref<14xi64>
// CHECK-COUNT-12: memref.store %{{.+}}, %[[P]][%{{.+}}] : memref<14xi64>
// CHECK: call @onnxc_rt_copy(%{{.+}}, %{{.+}}, %[[DST_PTR]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT: memref.copy
// LARGE-LABEL: func.func @concat_slice
// LARGE: memref.copy
// LARGE-NEXT: return
func.func @concat_slice(%src: memref<1x256x32x32xf32>, %dst: memref<1x512x32x32xf32>) {
  %sub = memref.subview %dst[0, 256, 0, 0] [1, 256, 32, 32] [1, 1, 1, 1] : memref<1x512x32x32xf32> to memref<1x256x32x32xf32, strided<[524288, 1024, 32, 1], offset: 262144>>
  memref.copy %src, %sub : memref<1x256x32x32xf32> to memref<1x256x32x32xf32, strided<[524288, 1024, 32, 1], offset: 262144>>
  return
}

// -----

// A padded buffer's interior (linalg.copy, as onnxc-pad-to-copy writes it)
// inside a loop: the block is allocated at the function's entry, not in
// the loop.
// CHECK-LABEL: func.func @interior_in_loop
// CHECK: %[[P:.+]] = memref.alloca() : memref<14xi64>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: call @onnxc_rt_copy
// CHECK-NOT: linalg.copy
func.func @interior_in_loop(%src: memref<1x128x64x64xf32>, %out: memref<1x128x66x66xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %to = memref.subview %out[0, 0, 1, 1] [1, 128, 64, 64] [1, 1, 1, 1] : memref<1x128x66x66xf32> to memref<1x128x64x64xf32, strided<[557568, 4356, 66, 1], offset: 67>>
    linalg.copy ins(%src : memref<1x128x64x64xf32>) outs(%to : memref<1x128x64x64xf32, strided<[557568, 4356, 66, 1], offset: 67>>)
  }
  return
}

// -----

// Copies the pass leaves: below 256 KiB, of a dynamic shape, of i1.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: memref.copy
// CHECK-NOT: onnxc_rt_copy
func.func @kept(%a: memref<16x1024xf32>, %b: memref<16x1024xf32>,
                %c: memref<?x65536xf32>, %d: memref<?x65536xf32>,
                %e: memref<1048576xi1>, %f: memref<1048576xi1>) {
  memref.copy %a, %b : memref<16x1024xf32> to memref<16x1024xf32>
  memref.copy %c, %d : memref<?x65536xf32> to memref<?x65536xf32>
  memref.copy %e, %f : memref<1048576xi1> to memref<1048576xi1>
  return
}

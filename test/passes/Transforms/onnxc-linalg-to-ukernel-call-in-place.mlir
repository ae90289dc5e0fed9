// RUN: %onnxc-opt --onnxc-linalg-to-ukernel --split-input-file %s | FileCheck %s

// A resize call's output buffer copied whole into a contiguous channel
// slice of a Concat's buffer right after the call (bufferization's copy of
// the Concat's input): the call writes the slice (the Concat's buffer's
// address plus the slice's offset: 32 channels x 8 x 8 floats x 4 bytes =
// 8192), the copy and the buffer go.
// CHECK-LABEL: func.func @resize_into_concat
// CHECK-SAME: (%[[X:.+]]: memref<1x16x4x4xf32>, %[[Y:.+]]: memref<1x48x8x8xf32>)
// CHECK: %[[CAT:.+]] = memref.alloc() : memref<1x48x8x8xf32>
// CHECK-NOT: memref.alloc()
// CHECK: %[[SV:.+]] = memref.subview %[[CAT]][0, 32, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1]
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[SV]]
// CHECK: %[[ADDR:.+]] = arith.addi %[[BASE]], %c8192
// CHECK: %[[I:.+]] = arith.index_cast %[[ADDR]]
// CHECK: %[[P:.+]] = llvm.inttoptr %[[I]]
// CHECK: call @onnxc_rt_resize2d(%{{.+}}, %{{.+}}, %[[P]],
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x8xf32>
// CHECK: memref.copy %[[CAT]], %[[Y]]
// CHECK: return
func.func private @onnxc_rt_resize2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @resize_into_concat(%x: memref<1x16x4x4xf32>, %y: memref<1x48x8x8xf32>) {
  %params = memref.alloca() : memref<7xi64>
  %null = llvm.mlir.zero : !llvm.ptr
  %cat = memref.alloc() : memref<1x48x8x8xf32>
  %up = memref.alloc() {alignment = 64 : i64} : memref<1x16x8x8xf32>
  %ip = memref.extract_aligned_pointer_as_index %params : memref<7xi64> -> index
  %i0 = arith.index_cast %ip : index to i64
  %p0 = llvm.inttoptr %i0 : i64 to !llvm.ptr
  %ix = memref.extract_aligned_pointer_as_index %x : memref<1x16x4x4xf32> -> index
  %i1 = arith.index_cast %ix : index to i64
  %p1 = llvm.inttoptr %i1 : i64 to !llvm.ptr
  %iu = memref.extract_aligned_pointer_as_index %up : memref<1x16x8x8xf32> -> index
  %i2 = arith.index_cast %iu : index to i64
  %p2 = llvm.inttoptr %i2 : i64 to !llvm.ptr
  call @onnxc_rt_resize2d(%p0, %p1, %p2, %null, %null, %null, %null) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %slice = memref.subview %cat[0, 32, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x48x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 2048>>
  memref.copy %up, %slice : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 2048>>
  memref.dealloc %up : memref<1x16x8x8xf32>
  memref.copy %cat, %y : memref<1x48x8x8xf32> to memref<1x48x8x8xf32>
  memref.dealloc %cat : memref<1x48x8x8xf32>
  return
}

// -----

// Left as they are: a slice that is not contiguous (columns 0-3 of 8), a
// read of the Concat's buffer between the call and the copy, and a call
// that reads the Concat's buffer (each copy of 16 x 8 x 8 or 8 x 8 x 4
// floats stays).
// CHECK-LABEL: func.func @not_in_place
// CHECK: call @onnxc_rt_resize2d
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x4xf32> to memref<1x16x8x4xf32, strided<[1024, 64, 8, 1]>>
// CHECK: call @onnxc_rt_resize2d
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<1x48x8x8xf32> to
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 1024>>
// CHECK: call @onnxc_rt_resize2d
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 2048>>
// CHECK: return
func.func private @onnxc_rt_resize2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @not_in_place(%x: memref<1x16x4x4xf32>, %y: memref<1x48x8x8xf32>, %z: memref<1x48x8x8xf32>, %w: memref<1x16x8x8xf32>) {
  %params = memref.alloca() : memref<7xi64>
  %null = llvm.mlir.zero : !llvm.ptr
  %ip = memref.extract_aligned_pointer_as_index %params : memref<7xi64> -> index
  %i0 = arith.index_cast %ip : index to i64
  %p0 = llvm.inttoptr %i0 : i64 to !llvm.ptr
  %ix = memref.extract_aligned_pointer_as_index %x : memref<1x16x4x4xf32> -> index
  %i1 = arith.index_cast %ix : index to i64
  %p1 = llvm.inttoptr %i1 : i64 to !llvm.ptr
  // Columns 0-3 of each row: not contiguous.
  %wide = memref.alloc() : memref<1x16x8x8xf32>
  %a = memref.alloc() : memref<1x16x8x4xf32>
  %ia = memref.extract_aligned_pointer_as_index %a : memref<1x16x8x4xf32> -> index
  %ja = arith.index_cast %ia : index to i64
  %pa = llvm.inttoptr %ja : i64 to !llvm.ptr
  call @onnxc_rt_resize2d(%p0, %p1, %pa, %null, %null, %null, %null) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %sa = memref.subview %wide[0, 0, 0, 0] [1, 16, 8, 4] [1, 1, 1, 1] : memref<1x16x8x8xf32> to memref<1x16x8x4xf32, strided<[1024, 64, 8, 1]>>
  memref.copy %a, %sa : memref<1x16x8x4xf32> to memref<1x16x8x4xf32, strided<[1024, 64, 8, 1]>>
  // The Concat's buffer read between the call and the copy.
  %cat = memref.alloc() : memref<1x48x8x8xf32>
  %b = memref.alloc() : memref<1x16x8x8xf32>
  %ib = memref.extract_aligned_pointer_as_index %b : memref<1x16x8x8xf32> -> index
  %jb = arith.index_cast %ib : index to i64
  %pb = llvm.inttoptr %jb : i64 to !llvm.ptr
  call @onnxc_rt_resize2d(%p0, %p1, %pb, %null, %null, %null, %null) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.copy %cat, %y : memref<1x48x8x8xf32> to memref<1x48x8x8xf32>
  %sb = memref.subview %cat[0, 16, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x48x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 1024>>
  memref.copy %b, %sb : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 1024>>
  // A call that reads the Concat's buffer (its input is a slice of it).
  %c = memref.alloc() : memref<1x16x8x8xf32>
  %ic = memref.extract_aligned_pointer_as_index %c : memref<1x16x8x8xf32> -> index
  %jc = arith.index_cast %ic : index to i64
  %pc = llvm.inttoptr %jc : i64 to !llvm.ptr
  %icat = memref.extract_aligned_pointer_as_index %cat : memref<1x48x8x8xf32> -> index
  %jcat = arith.index_cast %icat : index to i64
  %pcat = llvm.inttoptr %jcat : i64 to !llvm.ptr
  call @onnxc_rt_resize2d(%p0, %pcat, %pc, %null, %null, %null, %null) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %sc = memref.subview %cat[0, 32, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x48x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 2048>>
  memref.copy %c, %sc : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[3072, 64, 8, 1], offset: 2048>>
  memref.copy %cat, %z : memref<1x48x8x8xf32> to memref<1x48x8x8xf32>
  memref.copy %wide, %w : memref<1x16x8x8xf32> to memref<1x16x8x8xf32>
  return
}

// -----

// Between the call and the copy: a copy into another, disjoint slice of
// the Concat's buffer (its other input), and a convolution call summing
// into the buffer through a view of it (ConvIntoAdd's): both calls
// address the slice (offset 0 here: channels 0-15), the copy goes.
// CHECK-LABEL: func.func @resize_conv_into_concat
// CHECK: %[[CAT:.+]] = memref.alloc() : memref<1x32x8x8xf32>
// CHECK-NOT: memref.alloc()
// CHECK: %[[SV:.+]] = memref.subview %[[CAT]][0, 0, 0, 0] [1, 16, 8, 8]
// CHECK: %[[A:.+]] = memref.extract_aligned_pointer_as_index %[[SV]]
// CHECK: %[[IA:.+]] = arith.index_cast %[[A]]
// CHECK: %[[PA:.+]] = llvm.inttoptr %[[IA]]
// CHECK: call @onnxc_rt_resize2d(%{{.+}}, %{{.+}}, %[[PA]],
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: 1024>>
// CHECK: %[[SV2:.+]] = memref.subview %[[CAT]][0, 0, 0, 0] [1, 16, 8, 8]
// CHECK: %[[B:.+]] = memref.extract_aligned_pointer_as_index %[[SV2]]
// CHECK: %[[IB:.+]] = arith.index_cast %[[B]]
// CHECK: %[[PB:.+]] = llvm.inttoptr %[[IB]]
// CHECK: call @onnxc_rt_sconv2d(%{{.+}}, %{{.+}}, %{{.+}}, %[[PB]])
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1]>>
// CHECK: return
func.func private @onnxc_rt_resize2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @resize_conv_into_concat(%x: memref<1x16x4x4xf32>, %s: memref<1x16x8x8xf32>, %w: memref<256xf32>, %y: memref<1x32x8x8xf32>) {
  %params = memref.alloca() : memref<7xi64>
  %cparams = memref.alloca() : memref<35xi64>
  %null = llvm.mlir.zero : !llvm.ptr
  %cat = memref.alloc() : memref<1x32x8x8xf32>
  %up = memref.alloc() {alignment = 64 : i64} : memref<1x16x8x8xf32>
  %ip = memref.extract_aligned_pointer_as_index %params : memref<7xi64> -> index
  %i0 = arith.index_cast %ip : index to i64
  %p0 = llvm.inttoptr %i0 : i64 to !llvm.ptr
  %ix = memref.extract_aligned_pointer_as_index %x : memref<1x16x4x4xf32> -> index
  %i1 = arith.index_cast %ix : index to i64
  %p1 = llvm.inttoptr %i1 : i64 to !llvm.ptr
  %iu = memref.extract_aligned_pointer_as_index %up : memref<1x16x8x8xf32> -> index
  %i2 = arith.index_cast %iu : index to i64
  %p2 = llvm.inttoptr %i2 : i64 to !llvm.ptr
  call @onnxc_rt_resize2d(%p0, %p1, %p2, %null, %null, %null, %null) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %other = memref.subview %cat[0, 16, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x32x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: 1024>>
  memref.copy %s, %other : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: 1024>>
  %ue = memref.expand_shape %up [[0], [1, 2], [3], [4]] output_shape [1, 1, 16, 8, 8] : memref<1x16x8x8xf32> into memref<1x1x16x8x8xf32>
  %ic = memref.extract_aligned_pointer_as_index %cparams : memref<35xi64> -> index
  %j0 = arith.index_cast %ic : index to i64
  %q0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %iw = memref.extract_aligned_pointer_as_index %w : memref<256xf32> -> index
  %j1 = arith.index_cast %iw : index to i64
  %q1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %iy = memref.extract_aligned_pointer_as_index %ue : memref<1x1x16x8x8xf32> -> index
  %j2 = arith.index_cast %iy : index to i64
  %q2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%q0, %p1, %q1, %q2) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %slice = memref.subview %cat[0, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x32x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1]>>
  memref.copy %up, %slice : memref<1x16x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1]>>
  memref.dealloc %up : memref<1x16x8x8xf32>
  memref.copy %cat, %y : memref<1x32x8x8xf32> to memref<1x32x8x8xf32>
  memref.dealloc %cat : memref<1x32x8x8xf32>
  return
}

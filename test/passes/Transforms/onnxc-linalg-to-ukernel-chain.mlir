// RUN: %onnxc-opt --onnxc-linalg-to-ukernel --split-input-file %s | FileCheck %s

// Two convolution calls in a row, the second reading the first's output
// (only parameter stores and pure ops in between): one
// onnxc_rt_sconv2d_chain call with their operands in a block on the stack
// (5 slots a call: params, x, w, y as integers, then the chain flags);
// the map in between of 1 MB (ONNXC_CONV_CHAIN_MIN_BYTES).
// The map in between is deallocated after the chain: ONNXC_CONV_CHAIN_DEAD
// (1) for the first call, 0 for the last.
// CHECK-LABEL: func.func @chain_dead
// CHECK: %[[BLOCK:.+]] = memref.alloca() : memref<10xi64>
// CHECK-NOT: call @onnxc_rt_sconv2d(
// CHECK: memref.store %{{.+}}, %[[BLOCK]][%c3]
// CHECK-NEXT: %[[DEAD:.+]] = arith.constant 1 : i64
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: memref.store %[[DEAD]], %[[BLOCK]][%c4]
// CHECK: %[[LIVE:.+]] = arith.constant 0 : i64
// CHECK-NEXT: %c9 = arith.constant 9 : index
// CHECK-NEXT: memref.store %[[LIVE]], %[[BLOCK]][%c9]
// CHECK: %[[N:.+]] = arith.constant 2 : i64
// CHECK-NEXT: call @onnxc_rt_sconv2d_chain(%[[N]], %{{.+}}) : (i64, !llvm.ptr) -> ()
// CHECK-NOT: call @onnxc_rt_sconv2d(
// CHECK: memref.dealloc
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @chain_dead(%x: memref<262144xf32>, %w: memref<262144xf32>, %y: memref<262144xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<262144xf32>
  %c27 = arith.constant 27 : index
  %bias = arith.constant 2 : i64
  memref.store %bias, %pa[%c27] : memref<35xi64>
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<262144xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<262144xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.store %bias, %pb[%c27] : memref<35xi64>
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i5 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j5 = arith.index_cast %i5 : index to i64
  %p5 = llvm.inttoptr %j5 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<262144xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p5, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.dealloc %t : memref<262144xf32>
  return
}

// -----

// The map in between is copied out after the chain (read after it): the
// first call's flags are 0.
// CHECK-LABEL: func.func @chain_read_after
// CHECK: %[[BLOCK:.+]] = memref.alloca() : memref<10xi64>
// CHECK: %[[F0:.+]] = arith.constant 0 : i64
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: memref.store %[[F0]], %[[BLOCK]][%c4]
// CHECK: call @onnxc_rt_sconv2d_chain(
// CHECK-NEXT: memref.copy
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @chain_read_after(%x: memref<262144xf32>, %w: memref<262144xf32>, %y: memref<262144xf32>, %o: memref<262144xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<262144xf32>
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<262144xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<262144xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<262144xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p3, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.copy %t, %o : memref<262144xf32> to memref<262144xf32>
  memref.dealloc %t : memref<262144xf32>
  return
}

// -----

// After the chain a third convolution writes the whole map's buffer
// (bufferization's reuse; ONNXC_CONV_BIAS: its old contents ignored) from
// another input: dead (1). The third call reads another buffer: no chain.
// CHECK-LABEL: func.func @chain_overwritten_after
// CHECK: %[[BLOCK:.+]] = memref.alloca() : memref<10xi64>
// CHECK: %[[DEAD:.+]] = arith.constant 1 : i64
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: memref.store %[[DEAD]], %[[BLOCK]][%c4]
// CHECK: call @onnxc_rt_sconv2d_chain(
// CHECK: call @onnxc_rt_sconv2d(
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @chain_overwritten_after(%x: memref<262144xf32>, %w: memref<262144xf32>, %y: memref<262144xf32>, %z: memref<262144xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %pc = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<262144xf32>
  %c27 = arith.constant 27 : index
  %bias = arith.constant 2 : i64
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<262144xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<262144xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<262144xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p3, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.store %bias, %pc[%c27] : memref<35xi64>
  %i7 = memref.extract_aligned_pointer_as_index %pc : memref<35xi64> -> index
  %j7 = arith.index_cast %i7 : index to i64
  %p7 = llvm.inttoptr %j7 : i64 to !llvm.ptr
  %i8 = memref.extract_aligned_pointer_as_index %z : memref<262144xf32> -> index
  %j8 = arith.index_cast %i8 : index to i64
  %p8 = llvm.inttoptr %j8 : i64 to !llvm.ptr
  %i9 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j9 = arith.index_cast %i9 : index to i64
  %p9 = llvm.inttoptr %j9 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p7, %p8, %p2, %p9) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.copy %t, %z : memref<262144xf32> to memref<262144xf32>
  memref.dealloc %t : memref<262144xf32>
  return
}

// -----

// A map in between under ONNXC_CONV_CHAIN_MIN_BYTES (1 MB: 64 floats here),
// which the runtime would not run in bands: the calls stay apart (a
// profile keeps a site each).
// CHECK-LABEL: func.func @small_map
// CHECK-NOT: onnxc_rt_sconv2d_chain
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: call @onnxc_rt_sconv2d(
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @small_map(%x: memref<64xf32>, %w: memref<64xf32>, %y: memref<64xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<64xf32>
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<64xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<64xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<64xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<64xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p3, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// The first call a Winograd one (its parameter block: one group, 32 -> 32
// channels, 3 x 3, stride 1, constant packed weights), which the runtime
// runs whole: the calls stay apart.
// CHECK-LABEL: func.func @winograd_first
// CHECK-NOT: onnxc_rt_sconv2d_chain
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: call @onnxc_rt_sconv2d(
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @winograd_first(%x: memref<262144xf32>, %w: memref<64xf32>, %y: memref<262144xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<262144xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c27 = arith.constant 27 : index
  %one = arith.constant 1 : i64
  %three = arith.constant 3 : i64
  %ch = arith.constant 32 : i64
  %flags = arith.constant 515 : i64
  memref.store %one, %pa[%c1] : memref<35xi64>
  memref.store %ch, %pa[%c2] : memref<35xi64>
  memref.store %ch, %pa[%c3] : memref<35xi64>
  memref.store %three, %pa[%c6] : memref<35xi64>
  memref.store %three, %pa[%c7] : memref<35xi64>
  memref.store %one, %pa[%c8] : memref<35xi64>
  memref.store %one, %pa[%c9] : memref<35xi64>
  memref.store %flags, %pa[%c27] : memref<35xi64>
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<262144xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<64xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<262144xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p3, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.dealloc %t : memref<262144xf32>
  return
}

// -----

// Left as they are: a copy between the two calls (it may read or write
// what they do), and a second call that reads another buffer.
// CHECK-LABEL: func.func @no_chain
// CHECK-NOT: onnxc_rt_sconv2d_chain
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.copy
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: onnxc_rt_sconv2d_chain
func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @no_chain(%x: memref<262144xf32>, %w: memref<262144xf32>, %y: memref<262144xf32>, %o: memref<262144xf32>) {
  %pa = memref.alloca() : memref<35xi64>
  %pb = memref.alloca() : memref<35xi64>
  %pc = memref.alloca() : memref<35xi64>
  %t = memref.alloc() : memref<262144xf32>
  %i0 = memref.extract_aligned_pointer_as_index %pa : memref<35xi64> -> index
  %j0 = arith.index_cast %i0 : index to i64
  %p0 = llvm.inttoptr %j0 : i64 to !llvm.ptr
  %i1 = memref.extract_aligned_pointer_as_index %x : memref<262144xf32> -> index
  %j1 = arith.index_cast %i1 : index to i64
  %p1 = llvm.inttoptr %j1 : i64 to !llvm.ptr
  %i2 = memref.extract_aligned_pointer_as_index %w : memref<262144xf32> -> index
  %j2 = arith.index_cast %i2 : index to i64
  %p2 = llvm.inttoptr %j2 : i64 to !llvm.ptr
  %i3 = memref.extract_aligned_pointer_as_index %t : memref<262144xf32> -> index
  %j3 = arith.index_cast %i3 : index to i64
  %p3 = llvm.inttoptr %j3 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p0, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.copy %x, %o : memref<262144xf32> to memref<262144xf32>
  %i4 = memref.extract_aligned_pointer_as_index %pb : memref<35xi64> -> index
  %j4 = arith.index_cast %i4 : index to i64
  %p4 = llvm.inttoptr %j4 : i64 to !llvm.ptr
  %i6 = memref.extract_aligned_pointer_as_index %y : memref<262144xf32> -> index
  %j6 = arith.index_cast %i6 : index to i64
  %p6 = llvm.inttoptr %j6 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p4, %p3, %p2, %p6) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %i7 = memref.extract_aligned_pointer_as_index %pc : memref<35xi64> -> index
  %j7 = arith.index_cast %i7 : index to i64
  %p7 = llvm.inttoptr %j7 : i64 to !llvm.ptr
  call @onnxc_rt_sconv2d(%p7, %p1, %p2, %p3) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.dealloc %t : memref<262144xf32>
  return
}

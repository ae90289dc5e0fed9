// RUN: %onnxc-opt --onnxc-plan-buffers --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --onnxc-plan-buffers=arena=false --split-input-file %s | FileCheck %s --check-prefix=NOARENA

// Three buffers that only runtime calls and a copy (a linalg op without
// reduction loops) touch, freed at the end as the
// deallocation pipeline leaves them. %a (4096 B) is dead once %b is
// computed, so %c (4096 B) takes its bytes; %b (2048 B) overlaps both
// lifetimes and goes after them: a 6144-byte arena instead of 10240.
// CHECK-LABEL: func.func @chain
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<6144xi8>
// CHECK: %[[OA:.+]] = arith.constant 0 : index
// CHECK: %[[A:.+]] = memref.view %[[ARENA]][%[[OA]]][] : memref<6144xi8> to memref<1024xf32>
// CHECK: %[[OB:.+]] = arith.constant 4096 : index
// CHECK: %[[B:.+]] = memref.view %[[ARENA]][%[[OB]]][] : memref<6144xi8> to memref<512xf32>
// CHECK: call @kernel(%[[A]], %[[B]])
// CHECK: %[[OC:.+]] = arith.constant 0 : index
// CHECK: %[[C:.+]] = memref.view %[[ARENA]][%[[OC]]][] : memref<6144xi8> to memref<1024xf32>
// CHECK: call @kernel2(%[[B]], %[[C]])
// CHECK: linalg.copy ins(%[[C]] : memref<1024xf32>) outs(%arg1 : memref<1024xf32>)
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[ARENA]] : memref<6144xi8>
// CHECK-NEXT: return
// Without the arena, each buffer is freed after its last use.
// NOARENA-LABEL: func.func @chain
// NOARENA-NOT: xi8>
// NOARENA: %[[A:.+]] = memref.alloc() : memref<1024xf32>
// NOARENA: %[[B:.+]] = memref.alloc() : memref<512xf32>
// NOARENA: call @kernel(%[[A]], %[[B]])
// NOARENA-NEXT: memref.dealloc %[[A]]
// NOARENA: %[[C:.+]] = memref.alloc() : memref<1024xf32>
// NOARENA: call @kernel2(%[[B]], %[[C]])
// NOARENA-NEXT: memref.dealloc %[[B]]
// NOARENA: linalg.copy ins(%[[C]] : memref<1024xf32>)
// NOARENA-NEXT: memref.dealloc %[[C]]
// NOARENA-NEXT: return
func.func private @kernel(memref<1024xf32>, memref<512xf32>)
func.func private @kernel2(memref<512xf32>, memref<1024xf32>)
func.func @chain(%arg0: memref<1024xf32>, %arg1: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  call @kernel(%a, %b) : (memref<1024xf32>, memref<512xf32>) -> ()
  %c = memref.alloc() : memref<1024xf32>
  call @kernel2(%b, %c) : (memref<512xf32>, memref<1024xf32>) -> ()
  linalg.copy ins(%c : memref<1024xf32>) outs(%arg1 : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<512xf32>
  memref.dealloc %c : memref<1024xf32>
  return
}

// -----

// A buffer that a loop of generated code reads keeps its own allocation
// (LLVM's alias analysis needs distinct noalias pointers), freed right
// after the loop, its last use through the view %v; the pointer extracted
// for a call is a use too. Neither this nor the call-only %t is planned
// alone: an arena needs two buffers (min-buffers=2).
// CHECK-LABEL: func.func @loop_reader
// CHECK-NOT: xi8>
// CHECK: %[[S:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK: %[[V:.+]] = memref.collapse_shape %[[S]]
// CHECK: scf.for
// CHECK: memref.load %[[V]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[S]]
// CHECK: %[[T:.+]] = memref.alloc() : memref<16xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: call @ptr_kernel
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK: return
func.func private @fill_kernel(memref<4x8xf32>)
func.func private @ptr_kernel(index)
func.func @loop_reader(%out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %s = memref.alloc() : memref<4x8xf32>
  call @fill_kernel(%s) : (memref<4x8xf32>) -> ()
  %v = memref.collapse_shape %s [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %x = memref.load %v[%i] : memref<32xf32>
    memref.store %x, %out[%i] : memref<32xf32>
  }
  %t = memref.alloc() : memref<16xf32>
  %p = memref.extract_aligned_pointer_as_index %t : memref<16xf32> -> index
  call @ptr_kernel(%p) : (index) -> ()
  memref.dealloc %s : memref<4x8xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// Left alone: a returned buffer (no dealloc), a dynamically shaped one, and
// one freed inside a branch.
// CHECK-LABEL: func.func @unplanned
// CHECK-NOT: xi8>
// CHECK: %[[R:.+]] = memref.alloc() : memref<8xf32>
// CHECK: %[[D:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: %[[K:.+]] = memref.alloc() : memref<8xf32>
// CHECK: scf.if
// CHECK-NEXT: memref.dealloc %[[K]]
// CHECK: memref.dealloc %[[D]]
// CHECK: return %[[R]]
func.func private @k8(memref<8xf32>)
func.func private @kd(memref<?xf32>)
func.func @unplanned(%n: index, %cond: i1) -> memref<8xf32> {
  %r = memref.alloc() : memref<8xf32>
  call @k8(%r) : (memref<8xf32>) -> ()
  %d = memref.alloc(%n) : memref<?xf32>
  call @kd(%d) : (memref<?xf32>) -> ()
  %k = memref.alloc() : memref<8xf32>
  call @k8(%k) : (memref<8xf32>) -> ()
  scf.if %cond {
    memref.dealloc %k : memref<8xf32>
  }
  memref.dealloc %d : memref<?xf32>
  return %r : memref<8xf32>
}

// -----

// A buffer that a reduction reads stays out of the arena too, as does the
// other, call-only, buffer then (one is too few for an arena).
// CHECK-LABEL: func.func @reduction_reader
// CHECK-NOT: xi8>
// CHECK: %[[X:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]] : memref<4x8xf32>)
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[X]]
// CHECK: %[[Y:.+]] = memref.alloc() : memref<4xf32>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func private @k48(memref<4x8xf32>)
func.func private @k4(memref<4xf32>)
func.func @reduction_reader(%sum: memref<4xf32>) {
  %x = memref.alloc() : memref<4x8xf32>
  call @k48(%x) : (memref<4x8xf32>) -> ()
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  %y = memref.alloc() : memref<4xf32>
  call @k4(%y) : (memref<4xf32>) -> ()
  memref.dealloc %x : memref<4x8xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

// -----

// A buffer whose address goes into a parameter block (how a convolution's
// bias reaches the kernel) lives until the call that reads the block, not
// only until the store.
// CHECK-LABEL: func.func @address_in_params
// CHECK: %[[B:.+]] = memref.alloc() : memref<8xf32>
// CHECK: memref.store %{{.+}}, %[[P:.+]][%{{.+}}] : memref<4xi64>
// CHECK-NOT: memref.dealloc %[[B]]
// CHECK: call @params_kernel
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK: return
func.func private @k8b(memref<8xf32>)
func.func private @params_kernel(!llvm.ptr)
func.func @address_in_params() {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<8xf32>
  call @k8b(%b) : (memref<8xf32>) -> ()
  %params = memref.alloca() : memref<4xi64>
  %p = memref.extract_aligned_pointer_as_index %b : memref<8xf32> -> index
  %pi = arith.index_cast %p : index to i64
  memref.store %pi, %params[%c0] : memref<4xi64>
  %q = memref.extract_aligned_pointer_as_index %params : memref<4xi64> -> index
  %qi = arith.index_cast %q : index to i64
  %ptr = llvm.inttoptr %qi : i64 to !llvm.ptr
  call @params_kernel(%ptr) : (!llvm.ptr) -> ()
  memref.dealloc %b : memref<8xf32>
  return
}

// RUN: %onnxc-opt --onnxc-guard-empty-loops --split-input-file %s | FileCheck %s

// A perfect nest whose inner loop may be empty: the nest runs only when
// every inner loop has an iteration (a fill of [2^30, 2^30, 0] ran 2^60
// empty iterations of its outer loops).
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[M:.+]]: memref<?x?x?xf32>, %[[A:.+]]: index, %[[B:.+]]: index, %[[C:.+]]: index)
// CHECK: %[[NB:.+]] = arith.cmpi slt, %[[ZERO:.+]], %[[B]] : index
// CHECK: %[[NC:.+]] = arith.cmpi slt, %[[ZERO]], %[[C]] : index
// CHECK: %[[BOTH:.+]] = arith.andi %[[NB]], %[[NC]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: scf.for %{{.+}} = %[[ZERO]] to %[[A]]
// CHECK-NEXT: scf.for %{{.+}} = %[[ZERO]] to %[[B]]
// CHECK-NEXT: scf.for %{{.+}} = %[[ZERO]] to %[[C]]
func.func @nest(%m: memref<?x?x?xf32>, %a: index, %b: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.5 : f32
  scf.for %i = %c0 to %a step %c1 {
    scf.for %j = %c0 to %b step %c1 {
      scf.for %k = %c0 to %c step %c1 {
        memref.store %f, %m[%i, %j, %k] : memref<?x?x?xf32>
      }
    }
  }
  return
}

// -----

// Inner loops known non-empty, a single loop, an inner bound computed in
// the nest, and a loop with results need no guard.
// CHECK-LABEL: func.func @no_guard
// CHECK-NOT: scf.if
// CHECK: return
func.func @no_guard(%m: memref<?x4xf32>, %a: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.5 : f32
  scf.for %i = %c0 to %a step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %f, %m[%i, %j] : memref<?x4xf32>
    }
  }
  scf.for %i = %c0 to %a step %c1 {
    memref.store %f, %m[%i, %c0] : memref<?x4xf32>
  }
  scf.for %i = %c0 to %a step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      memref.store %f, %m[%i, %j] : memref<?x4xf32>
    }
  }
  %s = scf.for %i = %c0 to %a step %c1 iter_args(%acc = %f) -> f32 {
    %t = scf.for %j = %c0 to %a step %c1 iter_args(%acc2 = %acc) -> f32 {
      %u = arith.addf %acc2, %f : f32
      scf.yield %u : f32
    }
    scf.yield %t : f32
  }
  return %s : f32
}

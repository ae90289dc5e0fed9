// RUN: %onnxc-opt --onnxc-clone-shared-inits --split-input-file %s | FileCheck %s

// One zero fill (CSE merged them) initializes two products through one
// expand_shape: each product gets its own expand_shape, fill and
// tensor.empty, so that bufferization writes each in place instead of
// copying the shared buffer.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[F1:.+]] = linalg.fill {{.*}} outs(%[[E1]] : tensor<4x8xf32>)
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[F2:.+]] = linalg.fill {{.*}} outs(%[[E2]] : tensor<4x8xf32>)
// CHECK-DAG: %[[X2:.+]] = tensor.expand_shape %[[F2]]
// CHECK-DAG: %[[X1:.+]] = tensor.expand_shape %[[F1]]
// CHECK: linalg.batch_matmul {{.*}} outs(%[[X1]]
// CHECK: linalg.batch_matmul {{.*}} outs(%[[X2]]
func.func @shared_fill(%a: tensor<1x4x3xf32>, %b: tensor<1x3x8xf32>, %c: tensor<1x4x3xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = tensor.expand_shape %f [[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
  %p = linalg.batch_matmul ins(%a, %b : tensor<1x4x3xf32>, tensor<1x3x8xf32>) outs(%x : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %q = linalg.batch_matmul ins(%c, %b : tensor<1x4x3xf32>, tensor<1x3x8xf32>) outs(%x : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %p, %q : tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// A tensor.empty shared by two writers gets one per use; a static one moves
// to the start of the block (empty-tensor elimination needs a Concat's
// destination to dominate the ops that fill its slices).
// CHECK-LABEL: func.func @shared_empty
// CHECK-NEXT: tensor.empty() : tensor<16xf32>
// CHECK-NEXT: %[[E1:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[E2:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[A:.+]] = linalg.generic {{.*}} outs(%[[E1]] : tensor<8xf32>)
// CHECK: %[[B:.+]] = linalg.generic {{.*}} outs(%[[E2]] : tensor<8xf32>)
// CHECK: tensor.insert_slice %[[A]]
#id = affine_map<(i) -> (i)>
func.func @shared_empty(%x: tensor<8xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %d = tensor.empty() : tensor<16xf32>
  %i = tensor.insert_slice %a into %d[0] [8] [1] : tensor<8xf32> into tensor<16xf32>
  %j = tensor.insert_slice %b into %i[8] [8] [1] : tensor<8xf32> into tensor<16xf32>
  return %j : tensor<16xf32>
}

// -----

// A fill read by an op (not written into) as well as initializing one: the
// reader keeps the original, the writer gets a clone.
// CHECK-LABEL: func.func @fill_read_and_written
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[G:.+]] = linalg.fill
// CHECK: linalg.batch_matmul {{.*}} outs(%[[G]]
// CHECK: return %[[F]],
func.func @fill_read_and_written(%a: tensor<1x4x3xf32>, %b: tensor<1x3x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %p = linalg.batch_matmul ins(%a, %b : tensor<1x4x3xf32>, tensor<1x3x8xf32>) outs(%f : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %f, %p : tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// RUN: %onnxc-opt --onnxc-order-slice-inserts --split-input-file %s | FileCheck %s

// A Concat of a late value (%b, inserted first) and an early one (%a, read
// by something else before the Concat, as a U-Net's skip): the chain is
// rebuilt with %a first, and the Concat's empty moves before %a's producer,
// so that empty-tensor elimination can compute %a in its slice.
// CHECK-LABEL: func.func @skip
// CHECK: tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT: %[[A:.+]] = linalg.exp
// CHECK: %[[B:.+]] = linalg.abs
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][4, 0] [4, 8] [1, 1]
// CHECK-NEXT: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][0, 0] [4, 8] [1, 1]
// CHECK-NEXT: return %[[I1]]
func.func @skip(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.exp ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.abs ins(%a : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %i0 = tensor.insert_slice %b into %e[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  %i1 = tensor.insert_slice %a into %i0[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %i1 : tensor<8x8xf32>
}

// -----

// The earliest producer of a source is the first op writing the buffer it
// becomes (a fill, then an op in its destination): the empty goes before
// the fill. A function argument comes first of all.
// CHECK-LABEL: func.func @through_inits
// CHECK: %[[E:.+]] = tensor.empty() : tensor<12x8xf32>
// CHECK-NEXT: %[[F:.+]] = linalg.fill
// CHECK: %[[A:.+]] = linalg.exp ins(%{{.+}} : tensor<4x8xf32>) outs(%[[F]]
// CHECK: %[[I0:.+]] = tensor.insert_slice %arg1 into %[[E]][8, 0]
// CHECK-NEXT: %[[I1:.+]] = tensor.insert_slice %[[A]] into %[[I0]][4, 0]
// CHECK-NEXT: tensor.insert_slice %{{.+}} into %[[I1]][0, 0]
func.func @through_inits(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<12x8xf32> {
  %c = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%c : f32) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.exp ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.abs ins(%a : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<12x8xf32>
  %i0 = tensor.insert_slice %b into %e[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<12x8xf32>
  %i1 = tensor.insert_slice %a into %i0[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<12x8xf32>
  %i2 = tensor.insert_slice %y into %i1[8, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<12x8xf32>
  return %i2 : tensor<12x8xf32>
}

// -----

// Overlapping slices (not a Concat): their order decides the result, so
// the chain stays as it is, and so does the empty.
// CHECK-LABEL: func.func @overlap
// CHECK: linalg.exp
// CHECK: linalg.abs
// CHECK: tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [5, 8]
// CHECK-NEXT: tensor.insert_slice %{{.+}} into %{{.+}}[4, 0] [4, 8]
func.func @overlap(%x: tensor<4x8xf32>, %y: tensor<5x8xf32>) -> tensor<8x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.exp ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<5x8xf32>
  %b = linalg.abs ins(%y : tensor<5x8xf32>) outs(%e1 : tensor<5x8xf32>) -> tensor<5x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %i0 = tensor.insert_slice %b into %e[0, 0] [5, 8] [1, 1] : tensor<5x8xf32> into tensor<8x8xf32>
  %i1 = tensor.insert_slice %a into %i0[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %i1 : tensor<8x8xf32>
}

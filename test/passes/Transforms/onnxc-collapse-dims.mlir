// RUN: %onnxc-opt --onnxc-collapse-dims --split-input-file %s | FileCheck %s

// A per-channel scale broadcast over H x W (a squeeze-excitation Mul): the
// scale's unit dims fold away (1x8x1x1 read at (n, c, 0, 0) becomes 1x8 at
// (n, c)), then (n, c) and (h, w) each collapse into one dim: 8 x 49.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BC:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @scale
// CHECK-DAG:  %[[S1:.+]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<1x8x1x1xf32> into memref<1x8xf32>
// CHECK-DAG:  %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x8x7x7xf32> into memref<8x49xf32>
// CHECK-DAG:  %[[S:.+]] = memref.collapse_shape %[[S1]] {{\[}}[0, 1]] : memref<1x8xf32> into memref<8xf32>
// CHECK-DAG:  %[[Y:.+]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2, 3]] : memref<1x8x7x7xf32> into memref<8x49xf32>
// CHECK:      linalg.generic {indexing_maps = [#[[ID]], #[[BC]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:   ins(%[[X]], %[[S]] : memref<8x49xf32>, memref<8xf32>) outs(%[[Y]] : memref<8x49xf32>)
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#bc = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
func.func @scale(%x: memref<1x8x7x7xf32>, %s: memref<1x8x1x1xf32>, %y: memref<1x8x7x7xf32>) {
  linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : memref<1x8x7x7xf32>, memref<1x8x1x1xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Plain elementwise: one dim of everything.
// CHECK-LABEL: func.func @relu
// CHECK:      memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<2x3x5xf32> into memref<30xf32>
// CHECK:      linalg.generic {{.*}} iterator_types = ["parallel"]
func.func @relu(%x: memref<2x3x5xf32>, %y: memref<2x3x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x5xf32>) outs(%y : memref<2x3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left alone: a reduction, a transposing map, a strided view.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:  memref.collapse_shape
func.func @untouched(%x: memref<4x8xf32>, %r: memref<4xf32>, %t: memref<8x4xf32>,
                     %v: memref<4x4xf32, strided<[8, 1]>>, %w: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%t : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<4x4xf32, strided<[8, 1]>>) outs(%w : memref<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// RUN: %onnxc-opt --convert-onnx-to-linalg %s | FileCheck %s

// DeformConv: the accumulator filled with 0 (no bias), one generic over
// (n, m, oh, ow) reducing over (c, i, j) that reads W through its map and
// extracts the two offsets, the four bilinear corners of X and the mask.
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[Y:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @deformconv
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x5x5xf32>, %[[WT:.+]]: tensor<3x2x3x3xf32>, %[[O:.+]]: tensor<1x18x3x3xf32>, %[[M:.+]]: tensor<1x9x3x3xf32>)
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[W]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[WT]] : tensor<3x2x3x3xf32>)
// CHECK-COUNT-2: tensor.extract %[[O]]
// CHECK-COUNT-4: tensor.extract %[[X]]
// CHECK: tensor.extract %[[M]]
// CHECK: linalg.yield
func.func @deformconv(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %o: tensor<1x18x3x3xf32>, %m: tensor<1x9x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.DeformConv"(%x, %w, %o, %n, %m) : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<1x18x3x3xf32>, none, tensor<1x9x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

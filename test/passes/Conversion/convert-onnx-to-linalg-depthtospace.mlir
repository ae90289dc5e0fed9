// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
// DepthToSpace.cpp: DepthToSpace and SpaceToDepth.

// DepthToSpace (CRD): one copy whose input map splits the channel dim.
// CHECK-DAG: #[[MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 4 + (d2 mod 2) * 2 + d3 mod 2, d2 floordiv 2, d3 floordiv 2)>
// CHECK-LABEL: func.func @depth_to_space
// CHECK: linalg.generic {indexing_maps = [#[[MAP]], #{{.+}}]
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// DepthToSpace (DCR) with a dynamic channel dim: C % 4 == 0 checked at run
// time, X split as (N, 2, 2, C/4, H, W) by expand_shape and copied with an
// affine map.
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:.+]]("DepthToSpace: the channel dim must be a multiple of blocksize^2\00")
// CHECK-DAG: #[[MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2 mod 2, d3 mod 2, d1, d2 floordiv 2, d3 floordiv 2)>
// CHECK-LABEL: func.func @depth_to_space_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>)
// CHECK: %[[C:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[R:.+]] = arith.remsi %[[C]], %c4
// CHECK: arith.cmpi eq, %[[R]], %c0
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: %[[C4:.+]] = arith.divsi %[[C]], %c4
// CHECK: %[[X6:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2, 3], [4], [5]] output_shape [%{{.+}}, 2, 2, %[[C4]], %{{.+}}, %{{.+}}] : tensor<?x?x?x?xf32> into tensor<?x2x2x?x?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[MAP]], #{{.+}}], {{.*}} ins(%[[X6]] :
func.func @depth_to_space_dynamic(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64, mode = "DCR"} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// SpaceToDepth with dynamic dims: the spatial dims checked to be multiples
// of the blocksize at run time; the copy runs over the output split as
// (N, 2, 2, C, H/2, W/2), whose channel dims a collapse_shape merges.
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:.+]]("SpaceToDepth: spatial dims must be multiples of blocksize\00")
// CHECK-DAG: #[[MAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4 * 2 + d1, d5 * 2 + d2)>
// CHECK-LABEL: func.func @space_to_depth_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>)
// CHECK: arith.remsi
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: arith.remsi
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: %[[Y6:.+]] = linalg.generic {indexing_maps = [#[[MAP]], #{{.+}}], {{.*}} ins(%[[X]] : tensor<?x?x?x?xf32>) outs(%{{.+}} : tensor<?x2x2x?x?x?xf32>)
// CHECK: %[[Y:.+]] = tensor.collapse_shape %[[Y6]] {{\[\[}}0], [1, 2, 3], [4], [5]] : tensor<?x2x2x?x?x?xf32> into tensor<?x?x?x?xf32>
// CHECK: return %[[Y]]
func.func @space_to_depth_dynamic(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : i64} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg %s | FileCheck %s

// One module: the message globals come first.
// CHECK-DAG: llvm.mlir.global internal constant @[[BIDX:__onnxc_msg[0-9]+]]("RoiAlign: batch_indices must be in [0, N)
// CHECK-DAG: llvm.mlir.global internal constant @[[IOUMSG:__onnxc_msg[0-9]+]]("NonMaxSuppression: iou_threshold must be in [0, 1]
// CHECK-DAG: llvm.mlir.global internal constant @[[COUNT:__onnxc_msg[0-9]+]]("NonMaxSuppression: the number of selected boxes does not match the result type

// RoiAlign, avg, output_half_pixel: batch_indices are checked before the
// generic; per result element a loop nest over the sampling grid (2 x 2
// here) sums the bilinear samples, divided by their count. Rois smaller
// than a pixel become 1 x 1 (the olt/select before the bin sizes).
// CHECK-LABEL: func.func @roialign_avg
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32>, %[[R:.+]]: tensor<5x4xf32>, %[[B:.+]]: tensor<5xi64>)
// CHECK: linalg.generic {{.+}} ins(%[[B]] : tensor<5xi64>)
// CHECK: llvm.mlir.addressof @[[BIDX]]
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<5x3x2x3xf32>)
// CHECK: %[[BATCH:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: %[[SUM:.+]]:2 = scf.for
// CHECK: scf.for
// CHECK-COUNT-4: tensor.extract %[[X]][%[[BATCH]],
// CHECK: arith.divf %[[SUM]]#0
// CHECK: linalg.yield
func.func @roialign_avg(%x: tensor<2x3x8x8xf32>, %r: tensor<5x4xf32>, %b: tensor<5xi64>) -> tensor<5x3x2x3xf32> {
  %0 = "onnx.RoiAlign"(%x, %r, %b) {coordinate_transformation_mode = "output_half_pixel", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64} : (tensor<2x3x8x8xf32>, tensor<5x4xf32>, tensor<5xi64>) -> tensor<5x3x2x3xf32>
  return %0 : tensor<5x3x2x3xf32>
}

// max mode, adaptive sampling (ceil(roi size / output size) points per
// bin), f16 data computed in f32: the largest weighted corner value.
// CHECK-LABEL: func.func @roialign_max_adaptive
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<?x3x2x2xf16>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: math.ceil
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.cmpf olt
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @roialign_max_adaptive(%x: tensor<?x3x8x8xf16>, %r: tensor<?x4xf16>, %b: tensor<?xi64>) -> tensor<?x3x2x2xf16> {
  %0 = "onnx.RoiAlign"(%x, %r, %b) {mode = "max", output_height = 2 : i64, output_width = 2 : i64, spatial_scale = 0.5 : f32} : (tensor<?x3x8x8xf16>, tensor<?x4xf16>, tensor<?xi64>) -> tensor<?x3x2x2xf16>
  return %0 : tensor<?x3x2x2xf16>
}

// NonMaxSuppression: per (batch, class) the boxes above score_threshold
// are compacted, merge-sorted by score (scf.while over run widths), then
// selected greedily against the rows already selected for the class; the
// rows fill a scratch tensor whose first `count` rows are the result (the
// static count of the result type is checked at run time).
// CHECK-LABEL: func.func @nms
// CHECK-SAME: (%[[BOXES:.+]]: tensor<1x6x4xf32>, %[[SCORES:.+]]: tensor<1x2x6xf32>, %{{.+}}: tensor<1xi64>, %[[IOU:.+]]: tensor<1xf32>, %[[THR:.+]]: tensor<1xf32>)
// CHECK: %[[IOUV:.+]] = tensor.extract %[[IOU]]
// CHECK: llvm.mlir.addressof @[[IOUMSG]]
// CHECK: %[[THRV:.+]] = tensor.extract %[[THR]]
// CHECK: %[[SCRATCH:.+]] = tensor.empty(%{{.+}}) : tensor<?x3xi64>
// CHECK: %[[ALL:.+]]:2 = scf.for {{.+}} iter_args({{.+}} = %[[SCRATCH]], {{.+}}) -> (tensor<?x3xi64>, index)
// CHECK: scf.for
// CHECK: tensor.extract %[[SCORES]]
// CHECK: arith.cmpf ogt, %{{.+}}, %[[THRV]]
// CHECK: scf.while
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.cmpf ogt
// CHECK: scf.while
// CHECK: scf.for
// CHECK: tensor.extract %[[BOXES]]
// CHECK: arith.divf
// CHECK: arith.cmpf ogt, %{{.+}}, %[[IOUV]]
// CHECK: tensor.insert
// CHECK: arith.cmpi eq, %[[ALL]]#1, %c4
// CHECK: llvm.mlir.addressof @[[COUNT]]
// CHECK: %[[Y:.+]] = tensor.extract_slice %[[ALL]]#0[0, 0] [%[[ALL]]#1, 3] [1, 1]
// CHECK: %[[CAST:.+]] = tensor.cast %[[Y]] : tensor<?x3xi64> to tensor<4x3xi64>
// CHECK: return %[[CAST]]
func.func @nms(%bx: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<4x3xi64> {
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %m, %i, %t) {center_point_box = 1 : i64} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// Without the optional inputs nothing can be selected (the limit is 0):
// no score comparison before the sort, no iou_threshold check.
// CHECK-LABEL: func.func @nms_no_optionals
// CHECK-NOT: cmpf
// CHECK: scf.while
// CHECK-NOT: llvm.mlir.addressof @[[IOUMSG]]
// CHECK: tensor.extract_slice
// CHECK-SAME: to tensor<?x3xi64>
func.func @nms_no_optionals(%bx: tensor<?x?x4xf32>, %s: tensor<?x?x?xf32>) -> tensor<?x3xi64> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.NonMaxSuppression"(%bx, %s, %n, %n, %n) : (tensor<?x?x4xf32>, tensor<?x?x?xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

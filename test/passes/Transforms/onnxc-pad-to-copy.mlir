// RUN: %onnxc-opt --onnxc-pad-to-copy --split-input-file %s | FileCheck %s

// The padding gather of convert-onnx-to-linalg (pads 1 on h and w of an
// NCHW input): a fill of the pad value, then a copy of the source into the
// interior [1, 1 + 4) x [1, 1 + 5).
// CHECK-LABEL: func.func @pad_hw
// CHECK-SAME: (%[[SRC:.+]]: memref<1x2x4x5xf32>, %[[OUT:.+]]: memref<1x2x6x7xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[OUT]] : memref<1x2x6x7xf32>)
// CHECK: %[[FROM:.+]] = memref.subview %[[SRC]][0, 0, 0, 0] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: %[[TO:.+]] = memref.subview %[[OUT]][0, 0, 1, 1] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[FROM]] : {{.+}}) outs(%[[TO]] : {{.+}})
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pad_hw(%src: memref<1x2x4x5xf32>, %out: memref<1x2x6x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %pad = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%out : memref<1x2x6x7xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %jh = arith.subi %h, %c1 : index
    %lth = arith.cmpi slt, %jh, %c4 : index
    %geh = arith.cmpi sge, %jh, %c0 : index
    %okh = arith.andi %geh, %lth : i1
    %ih = arith.select %okh, %jh, %c0 : index
    %w = linalg.index 3 : index
    %jw = arith.subi %w, %c1 : index
    %ltw = arith.cmpi slt, %jw, %c5 : index
    %gew = arith.cmpi sge, %jw, %c0 : index
    %okw = arith.andi %gew, %ltw : i1
    %ok = arith.andi %okh, %okw : i1
    %iw = arith.select %okw, %jw, %c0 : index
    %v = memref.load %src[%n, %c, %ih, %iw] : memref<1x2x4x5xf32>
    %r = arith.select %ok, %v, %pad : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Canonicalization folds linalg.index 0 of the batch dim of size 1 to the
// constant 0: still an untouched dim when both sides have size 1 there.
// CHECK-LABEL: func.func @pad_batch1_const_index
// CHECK: linalg.fill
// CHECK: %[[FROM:.+]] = memref.subview %arg0[0, 0, 0, 0] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: %[[TO:.+]] = memref.subview %arg1[0, 0, 1, 1] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[FROM]] : {{.+}}) outs(%[[TO]] : {{.+}})
// CHECK-NOT: linalg.generic
#idb = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pad_batch1_const_index(%src: memref<1x2x4x5xf32>, %out: memref<1x2x6x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %pad = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#idb], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%out : memref<1x2x6x7xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %jh = arith.subi %h, %c1 : index
    %lth = arith.cmpi slt, %jh, %c4 : index
    %geh = arith.cmpi sge, %jh, %c0 : index
    %okh = arith.andi %geh, %lth : i1
    %ih = arith.select %okh, %jh, %c0 : index
    %w = linalg.index 3 : index
    %jw = arith.subi %w, %c1 : index
    %ltw = arith.cmpi slt, %jw, %c5 : index
    %gew = arith.cmpi sge, %jw, %c0 : index
    %okw = arith.andi %gew, %ltw : i1
    %ok = arith.andi %okh, %okw : i1
    %iw = arith.select %okw, %jw, %c0 : index
    %v = memref.load %src[%c0, %c, %ih, %iw] : memref<1x2x4x5xf32>
    %r = arith.select %ok, %v, %pad : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The constant 0 for a dim of size 2 reads one row for all: a broadcast,
// not a pad; left alone.
// CHECK-LABEL: func.func @const_index_not_size1
// CHECK-NOT: linalg.copy
// CHECK: linalg.generic
#idc = affine_map<(d0, d1) -> (d0, d1)>
func.func @const_index_not_size1(%src: memref<2x4xf32>, %out: memref<2x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#idc], iterator_types = ["parallel", "parallel"]} outs(%out : memref<2x6xf32>) {
  ^bb0(%o: f32):
    %w = linalg.index 1 : index
    %jw = arith.subi %w, %c1 : index
    %ltw = arith.cmpi slt, %jw, %c4 : index
    %gew = arith.cmpi sge, %jw, %c0 : index
    %okw = arith.andi %gew, %ltw : i1
    %iw = arith.select %okw, %jw, %c0 : index
    %v = memref.load %src[%c0, %iw] : memref<2x4xf32>
    %r = arith.select %okw, %v, %pad : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Dynamic sizes and pads: the interior is computed at run time.
// CHECK-LABEL: func.func @pad_dynamic
// CHECK: linalg.fill
// CHECK: %[[FROM:.+]] = memref.subview %arg0[0, %{{.+}}] [%{{.+}}, %{{.+}}] [1, 1]
// CHECK: %[[TO:.+]] = memref.subview %arg1[0, %{{.+}}] [%{{.+}}, %{{.+}}] [1, 1]
// CHECK: linalg.copy
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @pad_dynamic(%src: memref<?x?xf32>, %out: memref<?x?xf32>, %low: index, %span: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant -1.0 : f32
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%out : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %w = linalg.index 1 : index
    %j = arith.subi %w, %low : index
    %lt = arith.cmpi slt, %j, %span : index
    %ge = arith.cmpi sge, %j, %c0 : index
    %ok = arith.andi %ge, %lt : i1
    %iw = arith.select %ok, %j, %c0 : index
    %v = memref.load %src[%i, %iw] : memref<?x?xf32>
    %r = arith.select %ok, %v, %pad : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Input dilation (ConvTranspose: j % 2 == 0, then j / 2) is another form:
// left alone.
// CHECK-LABEL: func.func @dilated
// CHECK-NOT: linalg.copy
// CHECK: linalg.generic
func.func @dilated(%src: memref<4xf32>, %out: memref<9xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %pad = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%out : memref<9xf32>) {
  ^bb0(%o: f32):
    %w = linalg.index 0 : index
    %j = arith.subi %w, %c1 : index
    %lt = arith.cmpi slt, %j, %c7 : index
    %ge = arith.cmpi sge, %j, %c0 : index
    %ok0 = arith.andi %ge, %lt : i1
    %rem = arith.remsi %j, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %ok = arith.andi %ok0, %even : i1
    %half = arith.divsi %j, %c2 : index
    %iw = arith.select %ok, %half, %c0 : index
    %v = memref.load %src[%iw] : memref<4xf32>
    %r = arith.select %ok, %v, %pad : f32
    linalg.yield %r : f32
  }
  return
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s
//
// Transformer.cpp and Attention.cpp (the numbers: test/ort/transformer-ops.test).

// RMSNormalization over dims [1, 3) of f16: the sum of squares in f32 into
// the kept dim, then one elementwise generic; X / RMS rounded to f16 before
// the scale (read along the last dim).
// CHECK-DAG: #[[KEPT:.+]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @rms
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[KEPT]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[KEPT]], #[[LAST]], #{{.+}}]
// CHECK: math.sqrt
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.mulf
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @rms(%x: tensor<2x3x4xf16>, %s: tensor<4xf16>) -> tensor<2x3x4xf16> {
  %0 = "onnx.RMSNormalization"(%x, %s) {axis = 1 : i64} : (tensor<2x3x4xf16>, tensor<4xf16>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

// RotaryEmbedding, interleaved: position ids checked against the caches'
// length, then one generic over Y reading the pair (2i, 2i + 1) and
// cos/sin at [position_ids[b, s], i].
// CHECK-LABEL: func.func @rope
// CHECK: scf.if
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = arith.divsi %{{.+}}, %{{.+}} : index
// CHECK: %[[X1:.+]] = arith.muli %[[I]], %{{.+}} : index
// CHECK: %[[X2:.+]] = arith.addi %[[X1]], %{{.+}} : index
// CHECK: tensor.extract %arg0[%{{.+}}, %{{.+}}, %{{.+}}, %[[X1]]]
// CHECK: tensor.extract %arg0[%{{.+}}, %{{.+}}, %{{.+}}, %[[X2]]]
// CHECK: %[[P:.+]] = tensor.extract %arg2
// CHECK: %[[PI:.+]] = arith.index_cast %[[P]] : i64 to index
// CHECK: tensor.extract %arg1[%[[PI]], %[[I]]]
func.func @rope(%x: tensor<1x2x3x8xf32>, %c: tensor<16x4xf32>, %p: tensor<1x3xi64>) -> tensor<1x2x3x8xf32> {
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c, %p) {interleaved = 1 : i64} : (tensor<1x2x3x8xf32>, tensor<16x4xf32>, tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x2x3x8xf32>
  return %0 : tensor<1x2x3x8xf32>
}

// -----

// TensorScatter, circular: no index check (indices wrap); position j of the
// cache takes update[(j - w[b]) mod 8] when that is below 3.
// CHECK-LABEL: func.func @scatter_circular
// CHECK-NOT: onnxc_rt_fail
// CHECK: linalg.generic
// CHECK: arith.remsi %{{.+}}, %c8
// CHECK: scf.if
// CHECK: tensor.extract %arg1
func.func @scatter_circular(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %0 = "onnx.TensorScatter"(%c, %u, %w) {axis = 1 : i64, mode = "circular"} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// Linear: the write indices are checked first.
// CHECK-LABEL: func.func @scatter_linear
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic
func.func @scatter_linear(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %w: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %0 = "onnx.TensorScatter"(%c, %u, %w) {axis = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// Swish: x / (1 + exp(-alpha x)).
// CHECK-LABEL: func.func @swish
// CHECK: linalg.generic
// CHECK: %[[AX:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: %[[N:.+]] = arith.negf %[[AX]]
// CHECK: %[[E:.+]] = math.exp %[[N]]
// CHECK: %[[D:.+]] = arith.addf %{{.+}}, %[[E]]
// CHECK: arith.divf %{{.+}}, %[[D]]
func.func @swish(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "onnx.Swish"(%x) {alpha = 0.5 : f32} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

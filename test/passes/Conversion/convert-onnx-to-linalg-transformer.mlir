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

// -----

// Attention, GQA (4 query heads, 2 KV heads), a boolean mask, is_causal,
// softcap: Q viewed as (B, Hkv, 2, Sq, D), Q K^T a plain contraction (the
// KV head is a batch dim, the 2 query heads of a group a batch K does not
// move in), the bias a generic reading the mask, softcap's tanh, the row
// max of z and of the bias, the sum of exponentials, the probabilities,
// and P V the same contraction form.
// CHECK-DAG: #[[QMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[KMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[SMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[VMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>
// CHECK-LABEL: func.func @attention_gqa
// CHECK: %[[QG:.+]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 8]
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[QMAP]], #[[KMAP]], #[[SMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[QG]], %arg1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x2x3x5xf32> into tensor<1x4x3x5xf32>
// CHECK: tensor.extract %arg3
// CHECK: math.tanh
// The row maxima of z and of the bias are two one-output reductions (LLVM
// vectorizes those, not one with two outputs), then the sum.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{[^,]+}} : tensor<1x4x3x5xf32>) outs(%{{[^,]+}} : tensor<1x4x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{[^,]+}} : tensor<1x4x3x5xf32>) outs(%{{[^,]+}} : tensor<1x4x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: math.exp
// CHECK: %[[PG:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 5]
// CHECK: linalg.generic {indexing_maps = [#[[QMAP]], #[[VMAP]], #[[SMAP]]], {{.*}} ins(%[[PG]], %arg2
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x2x2x3x6xf32> into tensor<1x4x3x6xf32>
func.func @attention_gqa(%q: tensor<1x4x3x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x6xf32>, %m: tensor<3x5xi1>) -> tensor<1x4x3x6xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0:4 = "onnx.Attention"(%q, %k, %v, %m, %n, %n, %n) {is_causal = 1 : i64, softcap = 2.0 : f32} : (tensor<1x4x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x6xf32>, tensor<3x5xi1>, none, none, none) -> (tensor<1x4x3x6xf32>, none, none, none)
  return %0#0 : tensor<1x4x3x6xf32>
}

// -----

// 3-D inputs with a KV cache: Q, K, V expanded and transposed to (B, H,
// S, D); the past concatenated in front of K and V (present_key and
// present_value); Y written as (B, Sq, Hkv, r, Dv) and collapsed to
// (B, Sq, Hq * Dv).
// CHECK-LABEL: func.func @attention_3d_cache
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1], [2, 3]] output_shape [2, 1, 4, 8]
// CHECK: linalg.transpose
// CHECK: tensor.insert_slice %arg3 into %{{.+}}[0, 0, 0, 0] [2, 1, 5, 8]
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 5, 0] [2, 1, 1, 8]
// is_causal alone masks no row fully (key 0 is visible to every query):
// one row max (of z), no max of the bias, then the sum.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{[^,]+}} : tensor<2x4x1x6xf32>) outs(%{{[^,]+}} : tensor<2x4x1xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{[^,]+}}, %{{[^,]+}} : tensor<2x4x1x6xf32>, tensor<2x4x1xf32>)
// CHECK-NOT: arith.maximumf
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[YMAP:.+]]]
// CHECK: %[[Y:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4]] : tensor<2x1x1x4x8xf32> into tensor<2x1x32xf32>
// CHECK: return %[[Y]], %{{.+}}, %{{.+}} : tensor<2x1x32xf32>, tensor<2x1x6x8xf32>, tensor<2x1x6x8xf32>
func.func @attention_3d_cache(%q: tensor<2x1x32xf32>, %k: tensor<2x1x8xf32>, %v: tensor<2x1x8xf32>, %pk: tensor<2x1x5x8xf32>, %pv: tensor<2x1x5x8xf32>) -> (tensor<2x1x32xf32>, tensor<2x1x6x8xf32>, tensor<2x1x6x8xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %0:4 = "onnx.Attention"(%q, %k, %v, %n, %pk, %pv, %n) {is_causal = 1 : i64, q_num_heads = 4 : i64, kv_num_heads = 1 : i64} : (tensor<2x1x32xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>, none, tensor<2x1x5x8xf32>, tensor<2x1x5x8xf32>, none) -> (tensor<2x1x32xf32>, tensor<2x1x6x8xf32>, tensor<2x1x6x8xf32>, none)
  return %0#0, %0#1, %0#2 : tensor<2x1x32xf32>, tensor<2x1x6x8xf32>, tensor<2x1x6x8xf32>
}

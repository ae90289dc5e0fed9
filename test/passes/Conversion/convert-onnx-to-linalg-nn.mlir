// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Conv with pads and bias: a padding generic (extract + select), the bias
// broadcast into the init, then one grouped direct convolution over
// (n, g, m, oh, ow, c, kh, kw) on expand_shape'd operands, collapsed back.
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[OMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_pads_bias
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x5x5xf32>, %[[W:.+]]: tensor<4x2x3x3xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[P:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x7x7xf32>)
// CHECK: tensor.extract %[[X]]
// CHECK: %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[B]] : tensor<4xf32>) outs(%{{.+}} : tensor<1x4x5x5xf32>)
// CHECK: %[[XG:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 1, 2, 7, 7]
// CHECK: %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [1, 4, 2, 3, 3]
// CHECK: %[[OG:.+]] = tensor.expand_shape %[[INIT]]
// CHECK: %[[C:.+]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #[[OMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XG]], %[[WG]] : {{.*}}) outs(%[[OG]] : tensor<1x1x4x5x5xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x1x4x5x5xf32> into tensor<1x4x5x5xf32>
// CHECK: return %[[R]]
func.func @conv_pads_bias(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x5x5xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  return %0 : tensor<1x4x5x5xf32>
}

// -----

// Depthwise strided Conv: 4 groups, strides in the input map, no padding
// generic, a zero-filled init.
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-LABEL: func.func @conv_depthwise_strided
// CHECK: linalg.fill
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 4, 1, 7, 7]
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], {{.*}} outs(%{{.+}} : tensor<1x4x1x3x3xf32>)
func.func @conv_depthwise_strided(%x: tensor<1x4x7x7xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Conv"(%x, %w, %n) {group = 4 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x7x7xf32>, tensor<4x1x3x3xf32>, none) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// ConvTranspose with strides: the input spread 2 apart and padded by
// (k-1) (remsi/divsi in the padding generic: 3x3 -> 9x9), the kernel
// flipped, its channel dims swapped per group ((C, M/G, k) -> (M, C/G, k),
// a copy), then a stride-1 convolution with W read as (g, m, c, k), as
// Conv's: the form onnxc-linalg-to-ukernel maps to the runtime's kernel.
// CHECK-DAG: #[[FLIP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-DAG: #[[SWAP:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3, d4)>
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-LABEL: func.func @conv_transpose_strided
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x9x9xf32>)
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: %[[FLIPPED:.+]] = linalg.generic {indexing_maps = [#[[FLIP]], {{.*}} ins(%{{.+}} : tensor<1x2x3x3xf32>)
// CHECK: %[[SPLIT:.+]] = tensor.expand_shape %[[FLIPPED]] {{.*}} into tensor<1x1x2x3x3xf32>
// CHECK: %[[SWAPPED:.+]] = linalg.generic {indexing_maps = [#[[SWAP]], {{.*}} ins(%[[SPLIT]] : tensor<1x1x2x3x3xf32>) outs(%{{.+}} : tensor<1x2x1x3x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[WC:.+]] = tensor.collapse_shape %[[SWAPPED]] {{.*}} into tensor<2x1x3x3xf32>
// CHECK: %[[WG:.+]] = tensor.expand_shape %[[WC]] {{.*}} into tensor<1x2x1x3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[WMAP]], #{{.+}}], {{.*}} ins(%{{.+}}, %[[WG]] : {{.*}}) outs(%{{.+}} : tensor<1x1x2x7x7xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x2x7x7xf32>
func.func @conv_transpose_strided(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x7x7xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, none) -> tensor<1x2x7x7xf32>
  return %0 : tensor<1x2x7x7xf32>
}

// -----

// ConvInteger: x - x_zero_point in i32 (unsigned: extui), then an i32
// convolution.
// CHECK-LABEL: func.func @conv_integer
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x3x3xi32>)
// CHECK: arith.extui
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
func.func @conv_integer(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %zp: tensor<ui8>) -> tensor<1x1x2x2xi32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvInteger"(%x, %w, %zp, %n) : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<ui8>, none) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

// QLinearConv with per-channel w_scale: the i32 convolution, then a
// requantizing generic (scale per output channel, round half to even,
// saturate to ui8's range).
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @qlinear_conv
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x2x4x4xi32>
// CHECK: linalg.generic {{.*}} #[[CH]]
// CHECK: math.roundeven
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptoui
func.func @qlinear_conv(%x: tensor<1x1x4x4xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %w: tensor<2x1x1x1xi8>, %ws: tensor<2xf32>, %wz: tensor<2xi8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<1x2x4x4xui8> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %n) : (tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x1x1xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x4x4xui8>
  return %0 : tensor<1x2x4x4xui8>
}

// -----

// MaxPool with Indices: a two-result window reduction; the first strictly
// greater element wins.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @maxpool_indices
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<2x2xf32>
// CHECK: %[[R:.+]]:2 = linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}}, %[[WINDOW]] : tensor<1x1x4x4xf32>, tensor<2x2xf32>)
// CHECK: arith.cmpf ogt
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @maxpool_indices(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %0:2 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %0#0, %0#1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

// AveragePool with pads (count_include_pad = 0): the sum and the count of
// taps inside X accumulate together, then divide.
// CHECK-LABEL: func.func @avgpool_pads
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x6x6xf32>)
// CHECK: %[[R:.+]]:2 = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[R]]#0, %[[R]]#1 : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>)
// CHECK: arith.divf
func.func @avgpool_pads(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %0 = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// GlobalAveragePool: the spatial dims collapsed into one (H * W = 20), one
// reduction over it into (N, C), the sum divided by 20, and the unit dims
// back (a window over H and W would loop 5 long innermost).
// CHECK-LABEL: func.func @global_avgpool
// CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<2x3x20xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[F]] : tensor<2x3x20xf32>) outs(%[[Z]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x3xf32>)
// CHECK: arith.divf %{{.+}}, %cst{{.*}} : f32
// CHECK: tensor.expand_shape %[[A]] {{\[}}[0], [1, 2, 3]] output_shape [2, 3, 1, 1]
func.func @global_avgpool(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

// GlobalMaxPool with symbolic spatial dims: the same collapse (dynamic),
// the reduction starts at -inf and takes arith.maximumf (NaN wins).
// CHECK-LABEL: func.func @global_maxpool_dynamic
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<1x3x?x?xf32> into tensor<1x3x?xf32>
// CHECK: linalg.fill ins(%cst{{.*}} : f32)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK-NOT: arith.divf
// CHECK: tensor.expand_shape
func.func @global_maxpool_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32> {
  %0 = "onnx.GlobalMaxPool"(%x) : (tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// GlobalAveragePool with symbolic spatial dims divides by their product,
// converted to a float at run time.
// CHECK-LABEL: func.func @global_avgpool_dynamic
// CHECK: arith.muli
// CHECK: arith.uitofp
// CHECK: arith.divf
func.func @global_avgpool_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32> {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<1x3x?x?xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// BatchNormalization (inference): one elementwise generic, the four
// per-channel operands read along dim 1.
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @batchnorm
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[CH]], #[[CH]], #[[CH]], #[[CH]], #{{.+}}]
// CHECK: math.sqrt
// CHECK-NOT: linalg.generic
func.func @batchnorm(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0:3 = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, none, none)
  return %0#0 : tensor<2x3x4xf32>
}

// -----

// LayerNormalization over the last axis: mean and centered variance as
// reductions into (2, 3); Mean and InvStdDev get their unit dim back.
// CHECK-LABEL: func.func @layernorm
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3xf32>)
// CHECK: %[[SQ:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<2x3xf32>)
// CHECK: %[[INV:.+]] = linalg.generic {{.*}} ins(%[[VAR]] : tensor<2x3xf32>)
// CHECK: math.sqrt
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MEAN]], %[[INV]], %{{.+}} : tensor<2x3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>)
// CHECK: %[[M:.+]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0], [1, 2]] output_shape [2, 3, 1]
// CHECK: %[[I:.+]] = tensor.expand_shape %[[INV]]
// CHECK: return %[[Y]], %[[M]], %[[I]]
func.func @layernorm(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %0:3 = "onnx.LayerNormalization"(%x, %s, %n) {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, none) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
}

// -----

// GroupNormalization: statistics over the grouped view, read back per
// channel through c floordiv (C / num_groups).
// CHECK-DAG: #[[G:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 2)>
// CHECK-LABEL: func.func @groupnorm
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 2, 2, 3]
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[G]], #[[G]],
func.func @groupnorm(%x: tensor<2x4x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3xf32> {
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// LRN: the square sum over a window of channels (a reduction loop bounded
// by a tensor of the window size), then x / (bias + alpha/size * s)^beta.
// CHECK-LABEL: func.func @lrn
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<3xf32>)
// CHECK: math.powf
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = "onnx.LRN"(%x) {size = 3 : i64} : (tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

// -----

// Pad (reflect) with run-time pads: the pads are extracted, the result is
// one gather generic with the mirrored source index.
// CHECK-LABEL: func.func @pad_reflect
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xi32>, %[[P:.+]]: tensor<4xi64>)
// CHECK: tensor.extract %[[P]]
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<5x7xi32>)
// CHECK: arith.remsi
// CHECK: tensor.extract %[[X]]
func.func @pad_reflect(%x: tensor<3x4xi32>, %p: tensor<4xi64>) -> tensor<5x7xi32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Pad"(%x, %p, %n, %n) {mode = "reflect"} : (tensor<3x4xi32>, tensor<4xi64>, none, none) -> tensor<5x7xi32>
  return %0 : tensor<5x7xi32>
}

// -----

// Resize (linear, half_pixel) with run-time scales: N and C keep their size
// (a run-time check that their scale is 1), H and W read 2 x 2 taps.
// CHECK-LABEL: func.func @resize_linear
// CHECK: call @onnxc_rt_fail
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4xf32>)
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
func.func @resize_linear(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Resize (linear, half_pixel) with constant scales [1, 1, 2, 2]: the taps
// and weights of H and W are tables computed at compile time (index i of a
// 2 -> 4 half-pixel resize reads x at (i + 0.5) / 2 - 0.5 = -0.25, 0.25,
// 0.75, 1.25: taps floor and floor + 1 clamped into [0, 1], weights 1 - t
// and t of the fraction t), read by the body instead of the coordinate math.
// CHECK-LABEL: func.func @resize_linear_constant_scales
// CHECK-DAG: arith.constant dense<{{\[\[}}0, 0], [0, 1], [0, 1], [1, 1]]> : tensor<4x2xi64>
// CHECK-DAG: arith.constant dense<{{\[\[}}2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01]]> : tensor<4x2xf64>
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4xf32>)
// CHECK-NOT: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
func.func @resize_linear_constant_scales(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %n = "onnx.NoValue"() : () -> none
  %s = "onnx.Constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %s, %n) {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Resize (nearest, asymmetric, floor) with constant sizes: one tap per
// resized dim from a table (i / 2 floored).
// CHECK-LABEL: func.func @resize_nearest_constant_sizes
// CHECK: arith.constant dense<{{\[\[}}0], [0], [1], [1], [2], [2]]> : tensor<6x1xi64>
// CHECK: linalg.generic
// CHECK-NOT: math.floor
// CHECK: linalg.yield
func.func @resize_nearest_constant_sizes(%x: tensor<1x3x3xf32>) -> tensor<1x3x6xf32> {
  %n = "onnx.NoValue"() : () -> none
  %sz = "onnx.Constant"() {value = dense<[1, 3, 6]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "onnx.Resize"(%x, %n, %n, %sz) {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x3x3xf32>, none, none, tensor<3xi64>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// -----

// DepthToSpace (CRD): one copy whose input map splits the channel dim.
// CHECK-DAG: #[[MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 4 + (d2 mod 2) * 2 + d3 mod 2, d2 floordiv 2, d3 floordiv 2)>
// CHECK-LABEL: func.func @depth_to_space
// CHECK: linalg.generic {indexing_maps = [#[[MAP]], #{{.+}}]
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// Dropout (inference): the input itself and an all-true mask.
// CHECK-LABEL: func.func @dropout
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK: %[[M:.+]] = linalg.fill ins(%true : i1)
// CHECK: return %[[X]], %[[M]]
func.func @dropout(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %n = "onnx.NoValue"() : () -> none
  %0:2 = "onnx.Dropout"(%x, %n, %n) : (tensor<2x3xf32>, none, none) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Einsum: a loop per label, the output labels first.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[O:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @einsum_batch_matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @einsum_batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "onnx.Einsum"(%a, %b) {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Conv whose weights and bias have symbolic dims (the weights a graph
// input): the kernel sizes are read from W and checked positive, the
// channels and the group checked, a bias of run-time length checked (1 or
// one per output channel) and broadcast to the channels; the convolution is
// the same grouped generic as for static shapes.
// CHECK-DAG: llvm.mlir.global internal constant @[[CH:.+]]("Conv: the input channels do not match group x the weights' channels\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[GRP:.+]]("Conv: output channels must be a multiple of group\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[KPOS:.+]]("Conv: kernel sizes must be positive\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FIT:.+]]("Conv: the window does not fit the input\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[BLEN:.+]]("Conv: B must have 1 entry or one per output channel\00")
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[OMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_dynamic_kernel
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>, %[[W:.+]]: tensor<?x?x?x?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: llvm.mlir.addressof @[[CH]]
// CHECK: arith.remsi
// CHECK: llvm.mlir.addressof @[[GRP]]
// CHECK: %[[KH:.+]] = tensor.dim %[[W]], %c2
// CHECK: arith.cmpi sgt, %[[KH]]
// CHECK: llvm.mlir.addressof @[[KPOS]]
// CHECK: %[[KW:.+]] = tensor.dim %[[W]], %c3
// CHECK: arith.cmpi sgt, %[[KW]]
// CHECK: llvm.mlir.addressof @[[KPOS]]
// SAME_UPPER's total padding uses the run-time kernel size.
// CHECK: arith.maxsi
// CHECK: arith.floordivsi
// CHECK: llvm.mlir.addressof @[[FIT]]
// CHECK: %[[BL:.+]] = tensor.dim %[[B]], %c0
// CHECK: %[[BONE:.+]] = arith.cmpi eq, %[[BL]]
// CHECK: llvm.mlir.addressof @[[BLEN]]
// CHECK: %[[BF:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?xf32>)
// CHECK: arith.select %[[BONE]]
// CHECK: tensor.extract %[[B]]
// CHECK: linalg.generic {{.*}} ins(%[[BF]] : tensor<?xf32>)
// CHECK: tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, {{.*}} into tensor<2x?x?x?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], #[[WMAP]], #[[OMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} {{.*}} outs(%{{.+}} : tensor<?x2x?x?x?xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<?x?x?x?xf32>
func.func @conv_dynamic_kernel(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {group = 2 : i64, auto_pad = "SAME_UPPER"} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// ConvTranspose with a kernel of run-time size: the channels and kernel
// sizes checked, the output sizes s*(in-1) + 1 + (k-1) checked non-empty,
// and the kernel flipped by a gather (k' = K-1-k is no affine map for a
// run-time K) before the usual stride-1 convolution.
// CHECK-DAG: llvm.mlir.global internal constant @[[CH:.+]]("ConvTranspose: input channels must equal the weights' first dim\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[KPOS:.+]]("ConvTranspose: kernel sizes must be positive\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[EMPTY:.+]]("ConvTranspose: an output spatial dim is empty\00")
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-LABEL: func.func @conv_transpose_dynamic_kernel
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>, %[[W:.+]]: tensor<?x?x?x?xf32>)
// CHECK: %[[XC:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[C:.+]] = tensor.dim %[[W]], %c0
// CHECK: arith.cmpi eq, %[[XC]], %[[C]]
// CHECK: llvm.mlir.addressof @[[CH]]
// CHECK: %[[KH:.+]] = tensor.dim %[[W]], %c2
// CHECK: llvm.mlir.addressof @[[KPOS]]
// CHECK: llvm.mlir.addressof @[[KPOS]]
// CHECK: llvm.mlir.addressof @[[EMPTY]]
// CHECK: llvm.mlir.addressof @[[EMPTY]]
// CHECK: %[[XP:.+]] = linalg.generic
// CHECK: arith.remsi
// CHECK: %[[KH1:.+]] = arith.subi %[[KH]], %c1
// CHECK: %[[FLIP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?x?x?x?xf32>)
// CHECK: %[[I2:.+]] = linalg.index 2
// CHECK: %[[K2:.+]] = arith.subi %[[KH1]], %[[I2]]
// CHECK: tensor.extract %[[W]][%{{.+}}, %{{.+}}, %[[K2]], %{{.+}}]
// CHECK: tensor.expand_shape %[[FLIP]]
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[WMAP]], #{{.+}}]
func.func @conv_transpose_dynamic_kernel(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {strides = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// ConvTranspose whose kernel_shape fixes the kernel that the weights' type
// leaves dynamic: W checked against it at run time, the flip stays affine.
// CHECK-DAG: llvm.mlir.global internal constant @[[KS:.+]]("ConvTranspose: kernel_shape does not match the weights\00")
// CHECK-DAG: #[[FLIP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-LABEL: func.func @conv_transpose_kernel_shape
// CHECK-SAME: %[[W:[^:]+]]: tensor<?x?x?x?xf32>) -> tensor<?x?x10x8xf32>
// CHECK: %[[KH:.+]] = tensor.dim %[[W]], %c2
// CHECK: arith.cmpi eq, %[[KH]], %c3
// CHECK: llvm.mlir.addressof @[[KS]]
// CHECK: llvm.mlir.addressof @[[KS]]
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]], {{.*}} ins(%[[W]] : tensor<?x?x?x?xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<?x?x10x8xf32>
func.func @conv_transpose_kernel_shape(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>) -> tensor<?x?x10x8xf32> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.ConvTranspose"(%x, %w, %n) {kernel_shape = array<i64: 3, 3>, output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, none) -> tensor<?x?x10x8xf32>
  return %0 : tensor<?x?x10x8xf32>
}

// -----

// ConvInteger with zero points of run-time length: x_zero_point checked to
// hold one entry, w_zero_point checked (1 or one per output channel) and
// broadcast to the output channels before it is subtracted per channel.
// CHECK-DAG: llvm.mlir.global internal constant @[[XZ:.+]]("ConvInteger: x_zero_point must be a scalar\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WZ:.+]]("ConvInteger: w_zero_point must have 1 entry or one per output channel\00")
// CHECK-DAG: #[[CH0:.+]] = affine_map<(d0, d1, d2, d3) -> (d0)>
// CHECK-LABEL: func.func @conv_integer_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xi8>, %[[W:.+]]: tensor<?x?x?x?xi8>, %[[XZP:.+]]: tensor<?xi8>, %[[WZP:.+]]: tensor<?xi8>)
// CHECK: %[[XL:.+]] = tensor.dim %[[XZP]], %c0
// CHECK: arith.cmpi eq, %[[XL]], %c1
// CHECK: llvm.mlir.addressof @[[XZ]]
// CHECK: %[[M:.+]] = tensor.dim %[[W]], %c0
// CHECK: %[[WL:.+]] = tensor.dim %[[WZP]], %c0
// CHECK: arith.cmpi eq, %[[WL]], %[[M]]
// CHECK: llvm.mlir.addressof @[[WZ]]
// CHECK: %[[WZF:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?xi8>)
// CHECK: tensor.extract %[[WZP]]
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[XZP]] :
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[CH0]], #{{.+}}], {{.*}} ins(%[[W]], %[[WZF]] :
func.func @conv_integer_dynamic(%x: tensor<?x?x?x?xui8>, %w: tensor<?x?x?x?xui8>, %xz: tensor<?xui8>, %wz: tensor<?xui8>) -> tensor<?x?x?x?xi32> {
  %0 = "onnx.ConvInteger"(%x, %w, %xz, %wz) : (tensor<?x?x?x?xui8>, tensor<?x?x?x?xui8>, tensor<?xui8>, tensor<?xui8>) -> tensor<?x?x?x?xi32>
  return %0 : tensor<?x?x?x?xi32>
}

// -----

// QLinearConv with per-channel w_scale of run-time length: broadcast to the
// output channels, then read per channel by the requantizing generic.
// CHECK-DAG: llvm.mlir.global internal constant @[[WS:.+]]("QLinearConv: w_scale must have 1 entry or one per output channel\00")
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @qlinear_conv_dynamic
// CHECK-SAME: %[[WS_ARG:[^:]+]]: tensor<?xf32>, %{{[^:]+}}: tensor<?xi8>, %{{[^:]+}}: tensor<f32>
// CHECK: llvm.mlir.addressof @[[WS]]
// CHECK: %[[WSF:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?xf32>)
// CHECK: tensor.extract %[[WS_ARG]]
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[CH]], {{.*}} ins(%{{.+}}, %{{.+}}, %[[WSF]], %{{.+}}, %{{.+}} :
// CHECK: math.roundeven
func.func @qlinear_conv_dynamic(%x: tensor<?x?x?x?xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %w: tensor<?x?x?x?xui8>, %ws: tensor<?xf32>, %wz: tensor<?xui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<?x?x?x?xui8> {
  %n = "onnx.NoValue"() : () -> none
  %0 = "onnx.QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %n) : (tensor<?x?x?x?xui8>, tensor<f32>, tensor<ui8>, tensor<?x?x?x?xui8>, tensor<?xf32>, tensor<?xui8>, tensor<f32>, tensor<ui8>, none) -> tensor<?x?x?x?xui8>
  return %0 : tensor<?x?x?x?xui8>
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

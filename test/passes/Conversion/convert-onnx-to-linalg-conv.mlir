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

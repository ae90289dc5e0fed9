// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Gather: one pass checks every index against [-5, 5) (onnxc_rt_fail
// otherwise), then a generic reads data[norm(indices[i]), j].
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("Gather: index out of range
// CHECK-LABEL: func.func @gather_checked
// CHECK-SAME: (%[[X:.+]]: tensor<5x3xf32>, %[[I:.+]]: tensor<2xi64>)
// CHECK: %[[OK:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[I]] : tensor<2xi64>) outs(%{{.+}} : tensor<i1>)
// CHECK: %[[ALL:.+]] = tensor.extract %[[OK]][] : tensor<i1>
// CHECK: scf.if
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2xi64>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: arith.cmpi slt
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[N]], %{{.+}}] : tensor<5x3xf32>
func.func @gather_checked(%x: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A single (rank-0) index is checked as a scalar (no i1 tensor) and read
// once, outside the generic, which reads the row at that loop-invariant
// offset (a Gather by a loop's iteration number: once per iteration, and
// the row's loop vectorizes).
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK-SAME: (%[[X:.+]]: tensor<5x3xf32>, %[[I:.+]]: tensor<i64>)
// CHECK-NOT: tensor<i1>
// CHECK: %[[V:.+]] = tensor.extract %[[I]][] : tensor<i64>
// CHECK: %[[IV:.+]] = arith.index_cast %[[V]] : i64 to index
// CHECK: arith.cmpi sge, %[[IV]]
// CHECK: arith.cmpi slt, %[[IV]]
// CHECK: scf.if
// CHECK: func.call @onnxc_rt_fail
// CHECK-NOT: tensor<i1>
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[J:.+]], %{{.+}} : index
// CHECK: %[[N:.+]] = arith.select %[[NEG]], %{{.+}}, %[[J]] : index
// CHECK: linalg.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel"]} outs(%{{.+}} : tensor<3xf32>)
// CHECK: %[[K:.+]] = linalg.index 0 : index
// CHECK: tensor.extract %[[X]][%[[N]], %[[K]]] : tensor<5x3xf32>
func.func @gather_scalar_index(%x: tensor<5x3xf32>, %i: tensor<i64>) -> tensor<3xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<i64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// GatherElements: out[i, j] = data[i, norm(indices[i, j])].
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.+]]: tensor<3x3xf32>, %[[I:.+]]: tensor<2x3xi32>)
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<i1>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[R:.+]] = linalg.index 0
// CHECK: tensor.extract %[[X]][%[[R]], %{{.+}}] : tensor<3x3xf32>
func.func @gather_elements(%x: tensor<3x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = "onnx.GatherElements"(%x, %i) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// GatherND with batch_dims = 1: out[b, j] = data[b, indices[b, 0], j].
// CHECK-LABEL: func.func @gathernd_batch
// CHECK-SAME: (%[[X:.+]]: tensor<2x2x2xi32>, %[[I:.+]]: tensor<2x1xi64>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2xi32>)
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: tensor.extract %[[I]][%[[B]], %{{.+}}] : tensor<2x1xi64>
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[N]], %[[J]]] : tensor<2x2x2xi32>
func.func @gathernd_batch(%x: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %0 = "onnx.GatherND"(%x, %i) {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// ScatterElements with add: a copy of the data, then an scf.for nest over
// the updates accumulating into out[i, norm(indices[i, j])].
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK-SAME: (%[[X:.+]]: tensor<1x5xf32>, %[[I:.+]]: tensor<1x2xi64>, %[[U:.+]]: tensor<1x2xf32>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: %[[COPY:.+]] = linalg.copy ins(%[[X]] : tensor<1x5xf32>)
// CHECK: scf.for %[[A:.+]] = {{.+}} iter_args(%[[T0:.+]] = %[[COPY]])
// CHECK: scf.for %[[B:.+]] = {{.+}} iter_args(%[[T:.+]] = %[[T0]])
// CHECK: tensor.extract %[[I]][%[[A]], %[[B]]]
// CHECK: %[[P:.+]] = arith.select
// CHECK: %[[UV:.+]] = tensor.extract %[[U]][%[[A]], %[[B]]]
// CHECK: %[[OLD:.+]] = tensor.extract %[[T]][%[[A]], %[[P]]]
// CHECK: %[[NEW:.+]] = arith.addf %[[OLD]], %[[UV]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[T]][%[[A]], %[[P]]]
func.func @scatter_elements_add(%x: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<1x5xf32> {
  %0 = "onnx.ScatterElements"(%x, %i, %u) {axis = 1 : i64, reduction = "add"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// ScatterND with max on ui8: unsigned max into out[indices[i, 0], j].
// CHECK-LABEL: func.func @scatternd_max
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xi8>, %[[I:.+]]: tensor<2x1xi64>, %[[U:.+]]: tensor<2x4xi8>)
// CHECK: linalg.copy ins(%[[X]] : tensor<4x4xi8>)
// CHECK: scf.for
// CHECK: scf.for %[[J:[^ ]+]] =
// CHECK: %[[P:.+]] = arith.select
// CHECK: %[[OLD:.+]] = tensor.extract %{{.+}}[%[[P]], %[[J]]]
// CHECK: arith.maxui %[[OLD]], %{{.+}} : i8
func.func @scatternd_max(%x: tensor<4x4xui8>, %i: tensor<2x1xi64>, %u: tensor<2x4xui8>) -> tensor<4x4xui8> {
  %0 = "onnx.ScatterND"(%x, %i, %u) {reduction = "max"} : (tensor<4x4xui8>, tensor<2x1xi64>, tensor<2x4xui8>) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

// OneHot: depth read at run time and checked against the static dim 10;
// out[i, d] = (norm(indices[i]) == d) ? on : off.
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:__onnxc_msg[0-9]+]]("OneHot: depth does not match the result type
// CHECK-LABEL: func.func @onehot
// CHECK-SAME: (%[[I:.+]]: tensor<3xi64>, %[[D:.+]]: tensor<f32>, %[[V:.+]]: tensor<2xf32>)
// CHECK: %[[DF:.+]] = tensor.extract %[[D]][] : tensor<f32>
// CHECK: %[[DEPTH:.+]] = arith.fptosi %[[DF]] : f32 to i64
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: %[[OFF:.+]] = tensor.extract %[[V]][%{{.+}}] : tensor<2xf32>
// CHECK: %[[ON:.+]] = tensor.extract %[[V]][%{{.+}}] : tensor<2xf32>
// CHECK: linalg.generic {{.+}} ins(%[[I]] : tensor<3xi64>) outs(%{{.+}} : tensor<3x10xf32>)
// CHECK: arith.addi %{{.+}}, %[[DEPTH]] : i64
// CHECK: %[[HIT:.+]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]] : f32
func.func @onehot(%i: tensor<3xi64>, %d: tensor<f32>, %v: tensor<2xf32>) -> tensor<3x10xf32> {
  %0 = "onnx.OneHot"(%i, %d, %v) {axis = 1 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

// NonZero: a loop nest counts, then a second one fills [2, count].
// CHECK-LABEL: func.func @nonzero
// CHECK-SAME: (%[[X:.+]]: tensor<2x2xi1>)
// CHECK: %[[N:.+]] = scf.for {{.+}} -> (index)
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<2x?xi64>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[E]], %{{.+}} = %{{.+}}) -> (tensor<2x?xi64>, index)
// CHECK: scf.if %{{.+}} -> (tensor<2x?xi64>, index)
// CHECK: tensor.insert
// CHECK: tensor.insert
func.func @nonzero(%x: tensor<2x2xi1>) -> tensor<2x?xi64> {
  %0 = "onnx.NonZero"(%x) : (tensor<2x2xi1>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// TopK: per row, K scans for the best element ordered after the previous
// pick (value, then lower index).
// CHECK-DAG: llvm.mlir.global internal constant @{{__onnxc_msg[0-9]+}}("TopK: K is out of range
// CHECK-LABEL: func.func @topk
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xf32>, %[[K:.+]]: tensor<1xi64>)
// CHECK: %[[KV:.+]] = tensor.extract %[[K]]
// CHECK: %[[KI:.+]] = arith.index_cast %[[KV]] : i64 to index
// CHECK: scf.for {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>)
// CHECK: scf.for {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>)
// CHECK: scf.for {{.+}} to %[[KI]] {{.+}} -> (tensor<3x3xf32>, tensor<3x3xi64>, f32, index)
// CHECK: scf.for {{.+}} -> (f32, index)
// CHECK-DAG: arith.cmpf ogt
// CHECK-DAG: arith.cmpf oeq
func.func @topk(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>) {
  %v, %i = "onnx.TopK"(%x, %k) {axis = 1 : i64, largest = 1 : i64, sorted = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  return %v, %i : tensor<3x3xf32>, tensor<3x3xi64>
}

// -----

// CumSum with a run-time axis, exclusive and reverse: [outer, len, inner]
// loops; the sum before the element is stored.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf64>, %[[A:.+]]: tensor<i32>)
// CHECK: tensor.extract %[[A]][] : tensor<i32>
// CHECK: func.call @onnxc_rt_fail
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for {{.+}} iter_args(%[[T:.+]] = %{{.+}}, %[[ACC:.+]] = %{{.+}}) -> (tensor<2x3xf64>, f64)
// CHECK: %[[V:.+]] = tensor.extract %[[X]]
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[V]] : f64
// CHECK: %[[INS:.+]] = tensor.insert %[[ACC]] into %[[T]]
// CHECK: scf.yield %[[INS]], %[[SUM]]
func.func @cumsum(%x: tensor<2x3xf64>, %a: tensor<i32>) -> tensor<2x3xf64> {
  %0 = "onnx.CumSum"(%x, %a) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x3xf64>, tensor<i32>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// Trilu (lower): keep x[i, j] where j - i <= k.
// CHECK-LABEL: func.func @trilu
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xi64>, %[[K:.+]]: tensor<i64>)
// CHECK: %[[KV:.+]] = tensor.extract %[[K]][] : tensor<i64>
// CHECK: %[[KI:.+]] = arith.index_cast %[[KV]] : i64 to index
// CHECK: linalg.generic {{.+}} ins(%[[X]] : tensor<4x5xi64>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: %[[D:.+]] = arith.subi %[[J]], %[[I]] : index
// CHECK: %[[KEEP:.+]] = arith.cmpi sle, %[[D]], %[[KI]] : index
// CHECK: arith.select %[[KEEP]]
func.func @trilu(%x: tensor<4x5xi64>, %k: tensor<i64>) -> tensor<4x5xi64> {
  %0 = "onnx.Trilu"(%x, %k) {upper = 0 : i64} : (tensor<4x5xi64>, tensor<i64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// -----

// Compress: count the true conditions, then copy the selected slices.
// CHECK-LABEL: func.func @compress
// CHECK-SAME: (%[[X:.+]]: tensor<3x2xf32>, %[[C:.+]]: tensor<3xi1>)
// CHECK: %[[N:.+]] = scf.for {{.+}} -> (index)
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x2xf32>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[E]], %{{.+}} = %{{.+}}) -> (tensor<?x2xf32>, index)
// CHECK: scf.if
// CHECK: tensor.extract %[[X]]
// CHECK: tensor.insert
func.func @compress(%x: tensor<3x2xf32>, %c: tensor<3xi1>) -> tensor<?x2xf32> {
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// ReverseSequence: out[b, t] = x[b, t < len[b] ? len[b] - 1 - t : t].
// CHECK-LABEL: func.func @reverse_sequence
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xf32>, %[[L:.+]]: tensor<4xi64>)
// CHECK: func.call @onnxc_rt_fail
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<4x4xf32>)
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[T:.+]] = linalg.index 1
// CHECK: tensor.extract %[[L]][%[[B]]] : tensor<4xi64>
// CHECK: %[[S:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[S]]] : tensor<4x4xf32>
func.func @reverse_sequence(%x: tensor<4x4xf32>, %l: tensor<4xi64>) -> tensor<4x4xf32> {
  %0 = "onnx.ReverseSequence"(%x, %l) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// EyeLike: ones where j - i == k, in the dtype's element type.
// CHECK-LABEL: func.func @eyelike
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<3x4xf64>)
// CHECK: arith.subi
// CHECK: arith.cmpi eq
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f64
func.func @eyelike(%x: tensor<3x4xi32>) -> tensor<3x4xf64> {
  %0 = "onnx.EyeLike"(%x) {dtype = 11 : i64, k = 1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// QuantizeLinear per axis: scale and zero point indexed by d1;
// saturate(roundeven(x / s) + zp) to [0, 255].
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[AX:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @quantize_axis
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[AX]], #[[AX]], #[[ID]]]
// CHECK: %[[Q:.+]] = arith.divf
// CHECK: %[[R:.+]] = math.roundeven %[[Q]] : f32
// CHECK: %[[Z:.+]] = arith.addf %[[R]]
// CHECK: arith.maximumf %[[Z]], %{{.+}} : f32
// CHECK: arith.minimumf
// CHECK: arith.fptoui %{{.+}} : f32 to i8
func.func @quantize_axis(%x: tensor<1x3x2xf32>, %s: tensor<3xf32>, %z: tensor<3xui8>) -> tensor<1x3x2xui8> {
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64} : (tensor<1x3x2xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x2xui8>
  return %0 : tensor<1x3x2xui8>
}

// -----

// DequantizeLinear: (x - zp) * scale in f32 (signed i8).
// CHECK-LABEL: func.func @dequantize
// CHECK: linalg.generic
// CHECK: %[[X:.+]] = arith.sitofp %{{.+}} : i8 to f32
// CHECK: %[[Z:.+]] = arith.sitofp %{{.+}} : i8 to f32
// CHECK: %[[D:.+]] = arith.subf %[[X]], %[[Z]] : f32
// CHECK: arith.mulf %[[D]], %{{.+}} : f32
func.func @dequantize(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  %0 = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// DynamicQuantizeLinear: min and max (from 0) in one reduction, then the
// scale (1 when both are 0, as ONNX Runtime), the zero point and the
// quantized tensor.
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: %[[MM:.+]]:2 = linalg.generic {{.+}} iterator_types = ["reduction"]
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[LO:.+]] = tensor.extract %[[MM]]#0[]
// CHECK: %[[HI:.+]] = tensor.extract %[[MM]]#1[]
// CHECK: %[[RANGE:.+]] = arith.subf %[[HI]], %[[LO]] : f32
// CHECK: %[[DIV:.+]] = arith.divf %[[RANGE]]
// CHECK: %[[EQ:.+]] = arith.cmpf oeq, %[[HI]], %[[LO]] : f32
// CHECK: %[[SCALE:.+]] = arith.select %[[EQ]], %{{.+}}, %[[DIV]] : f32
// CHECK: math.roundeven
// CHECK: linalg.generic
// CHECK: arith.divf %{{.+}}, %[[SCALE]] : f32
// CHECK: tensor.from_elements %[[SCALE]] : tensor<f32>
func.func @dynamic_quantize(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = "onnx.DynamicQuantizeLinear"(%x) : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

// -----

// QLinearMatMul: an i32 contraction of the zero-point-shifted operands,
// then requantization in f64.
// CHECK-LABEL: func.func @qlinearmatmul
// CHECK: %[[ACC:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} {{.+}} outs(%{{.+}} : tensor<2x3xi32>)
// CHECK: arith.subi
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: linalg.generic {{.+}} ins(%[[ACC]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3xi8>)
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK: math.roundeven %{{.+}} : f64
// CHECK: arith.fptoui %{{.+}} : f64 to i8
func.func @qlinearmatmul(%a: tensor<2x4xui8>, %as: tensor<1xf32>, %az: tensor<1xui8>, %b: tensor<4x3xui8>, %bs: tensor<1xf32>, %bz: tensor<1xui8>, %ys: tensor<1xf32>, %yz: tensor<1xui8>) -> tensor<2x3xui8> {
  %0 = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>, tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// ReduceSum with run-time axes: the reduced-dim mask is built from the axes,
// one generic over the keepdims shape loops over the reduced elements, and
// keepdims = 0 reshapes to the inferred type.
// CHECK-LABEL: func.func @reduce_sum_runtime_axes
// CHECK-SAME: (%[[X:.+]]: tensor<3x2x2xf32>, %[[A:.+]]: tensor<1xi64>)
// CHECK: %[[M:.+]]:3 = scf.for {{.+}} -> (i1, i1, i1)
// CHECK: tensor.extract %[[A]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: %[[R:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.+}} : tensor<?x?x?xf32>)
// CHECK: scf.for {{.+}} -> (f32)
// CHECK: tensor.extract %[[X]]
// CHECK: arith.addf
// CHECK: %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %[[R]](%[[S]]) : (tensor<?x?x?xf32>, tensor<2xindex>) -> tensor<3x2xf32>
func.func @reduce_sum_runtime_axes(%x: tensor<3x2x2xf32>, %a: tensor<1xi64>) -> tensor<3x2xf32> {
  %0 = "onnx.ReduceSum"(%x, %a) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ReduceMean over a dynamic dim divides by the run-time count.
// CHECK-LABEL: func.func @reduce_mean_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[N64:.+]] = arith.index_castui %{{.+}} : index to i64
// CHECK: %[[NF:.+]] = arith.sitofp %[[N64]] : i64 to f32
// CHECK: linalg.generic {{.+}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK: arith.divf %{{.+}}, %[[NF]] : f32
func.func @reduce_mean_dynamic(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.ReduceMean"(%x, %a) {keepdims = 0 : i64} : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

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

// Blocked QuantizeLinear (block_size 3 on axis 1): the scale and zero point
// of x's rank are indexed by d1 floordiv 3; a dynamic x dim is checked
// against the parameter's at run time (ceil(dim / 3)).
// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 3)>
// CHECK-DAG: @[[MSG:.+]]("QuantizeLinear: blocked quantization parameter shape does not match x and block_size\00")
// CHECK-LABEL: func.func @quantize_blocked
// CHECK: %[[DIM:.+]] = tensor.dim %arg0, %c1
// CHECK: %[[BLOCKS:.+]] = arith.ceildivui %[[DIM]], %c3
// CHECK: arith.cmpi eq, %{{.+}}, %[[BLOCKS]]
// CHECK: scf.if
// CHECK: @[[MSG]]
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[BLK]], #[[BLK]], #[[ID2]]]
// CHECK: math.roundeven
// CHECK: arith.fptosi %{{.+}} : f32 to i16
func.func @quantize_blocked(%x: tensor<2x?xf32>, %s: tensor<2x3xf32>, %z: tensor<2x3xi16>) -> tensor<2x?xi16> {
  %0 = "onnx.QuantizeLinear"(%x, %s, %z) {axis = 1 : i64, block_size = 3 : i64} : (tensor<2x?xf32>, tensor<2x3xf32>, tensor<2x3xi16>) -> tensor<2x?xi16>
  return %0 : tensor<2x?xi16>
}

// -----

// Blocked DequantizeLinear on axis 0 of a 3-D x (block_size 2).
// CHECK-DAG: #[[BLK0:.+]] = affine_map<(d0, d1, d2) -> (d0 floordiv 2, d1, d2)>
// CHECK-LABEL: func.func @dequantize_blocked
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[BLK0]], #[[BLK0]], #{{.+}}]
// CHECK: arith.subf
// CHECK: arith.mulf
func.func @dequantize_blocked(%x: tensor<5x2x3xui8>, %s: tensor<3x2x3xf32>, %z: tensor<3x2x3xui8>) -> tensor<5x2x3xf32> {
  %0 = "onnx.DequantizeLinear"(%x, %s, %z) {axis = 0 : i64, block_size = 2 : i64} : (tensor<5x2x3xui8>, tensor<3x2x3xf32>, tensor<3x2x3xui8>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

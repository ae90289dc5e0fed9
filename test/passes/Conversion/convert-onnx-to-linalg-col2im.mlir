// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// Col2Im: a gather over the output (n, c, o1, o2) with the block offsets
// (b1, b2) as reductions; each output element reads the column of the
// sliding position l_i = (o_i + pad_i - b_i * d_i) / s_i where that divides
// and lands in range (2 positions per dim here: (5 + 0 - 1 - 1) / 2 + 1).
// CHECK-LABEL: func.func @col2im
// CHECK:      %[[Z:.+]] = linalg.fill
// CHECK:      linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:   outs(%[[Z]] : tensor<1x2x5x5xf32>)
// CHECK:        arith.remui
// CHECK:        %[[V:.+]] = tensor.extract %arg0
// CHECK:        arith.select %{{.+}}, %[[V]]
// CHECK:        arith.addf
func.func @col2im(%x: tensor<1x8x4xf32>) -> tensor<1x2x5x5xf32> {
  %im = "onnx.Constant"() <{value = dense<[5, 5]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %bl = "onnx.Constant"() <{value = dense<[2, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %y = "onnx.Col2Im"(%x, %im, %bl) <{strides = array<i64: 2, 2>}> : (tensor<1x8x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x5x5xf32>
  return %y : tensor<1x2x5x5xf32>
}

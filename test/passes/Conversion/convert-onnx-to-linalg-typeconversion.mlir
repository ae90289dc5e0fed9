// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Weights: onnx.Constant becomes arith.constant of the signless type.
// CHECK-LABEL: func.func @constants
// CHECK: arith.constant dense<[1, 2, -1]> : tensor<3xi8>
// CHECK: arith.constant dense_resource<blob> : tensor<2xf32>
func.func @constants() -> (tensor<3xui8>, tensor<2xf32>) {
  %0 = "onnx.Constant"() {value = dense<[1, 2, 255]> : tensor<3xui8>} : () -> tensor<3xui8>
  %1 = "onnx.Constant"() {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0, %1 : tensor<3xui8>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Identity whose declared result is more static than its input (a subgraph
// output declared [3, 4] for an outer value of symbolic dims): a cast to
// the declared type, checked at run time.
// CHECK-LABEL: func.func @identity_declared_shape
// CHECK: %[[D0:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x?xf32>
// CHECK: arith.cmpi eq, %[[D0]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: tensor.cast %arg0 : tensor<?x?xf32> to tensor<3x4xf32>
func.func @identity_declared_shape(%x: tensor<?x?xf32>) -> tensor<3x4xf32> {
  %0 = "onnx.Identity"(%x) : (tensor<?x?xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

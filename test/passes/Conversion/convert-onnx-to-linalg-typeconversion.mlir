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

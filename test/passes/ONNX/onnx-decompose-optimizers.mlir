// RUN: %onnxc-opt --onnx-decompose-optimizers --split-input-file --verify-diagnostics %s | FileCheck %s

// Momentum, nesterov: V' = alpha V + beta' G', X' = X - R (G' + alpha V'),
// beta' = beta where T > 0, else 1; G' = G (norm_coefficient 0).
// CHECK-LABEL: func.func @nesterov
// CHECK:      %[[POS:.+]] = "onnx.Greater"(%arg1, %{{.+}})
// CHECK:      %[[BETA:.+]] = "onnx.Where"(%[[POS]], %{{.+}}, %{{.+}})
// CHECK-DAG:  %[[AV:.+]] = "onnx.Mul"(%{{.+}}, %arg4)
// CHECK-DAG:  %[[BG:.+]] = "onnx.Mul"(%[[BETA]], %arg3)
// CHECK:      %[[V:.+]] = "onnx.Add"(%[[AV]], %[[BG]])
// CHECK:      %[[AV2:.+]] = "onnx.Mul"(%{{.+}}, %[[V]])
// CHECK:      %[[D:.+]] = "onnx.Add"(%arg3, %[[AV2]])
// CHECK:      %[[RD:.+]] = "onnx.Mul"(%arg0, %[[D]])
// CHECK:      %[[X:.+]] = "onnx.Sub"(%arg2, %[[RD]])
// CHECK-NOT:  onnx.training
// CHECK:      return %[[X]], %[[V]]
func.func @nesterov(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %o:2 = "onnx.training.Momentum"(%r, %t, %x, %g, %v) <{alpha = 0.9 : f32, beta = 0.5 : f32, mode = "nesterov", norm_coefficient = 0.0 : f32}> : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %o#0, %o#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

func.func @bad_groups(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.training.Adam' op has 2 inputs after R and T, not a multiple of 4 (X, G, V, H per tensor)}}
  %o = "onnx.training.Adam"(%r, %t, %x, %g) : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %o : tensor<3xf32>
}

// -----

func.func @bad_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.training.Momentum' op mode 'heavy' is not 'standard' or 'nesterov'}}
  %o:2 = "onnx.training.Momentum"(%r, %t, %x, %g, %v) <{alpha = 0.9 : f32, beta = 0.5 : f32, mode = "heavy", norm_coefficient = 0.0 : f32}> : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %o#0 : tensor<3xf32>
}

// RUN: %onnxc-opt --onnx-autodiff --split-input-file %s | FileCheck %s

// d = (a + b) * a: dd/da = dy * a + (dy * c) (fan-out summed), dd/db = dy * a.
// CHECK-LABEL: func.func @add_mul
// CHECK:      %[[C:.+]] = "onnx.Add"(%arg0, %arg1)
// CHECK:      %[[D:.+]] = "onnx.Mul"(%[[C]], %arg0)
// CHECK:      %[[ONE:.+]] = "onnx.Constant"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-DAG:  %[[DC:.+]] = "onnx.Mul"(%[[ONE]], %arg0)
// CHECK-DAG:  %[[DA1:.+]] = "onnx.Mul"(%[[ONE]], %[[C]])
// CHECK:      %[[DA:.+]] = "onnx.Add"(%[[DA1]], %[[DC]])
// CHECK-NOT:  onnx.training.Gradient
// CHECK:      return %[[D]], %[[DA]], %[[DC]]
func.func @add_mul(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %c = "onnx.Add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %d = "onnx.Mul"(%c, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %g:2 = "onnx.training.Gradient"(%a, %b, %d) <{xs = ["a", "b"], y = "d"}> : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %d, %g#0, %g#1 : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// A broadcast bias: its gradient is summed over the batch dim (static axes).
// The MatMul's weight gradient is X^T G. Symbolic batch dims stay.
// CHECK-LABEL: func.func @linear
// CHECK:      %[[G:.+]] = "onnx.ConstantOfShape"
// CHECK-DAG:  %[[WT:.+]] = "onnx.Transpose"(%arg0)
// CHECK-DAG:  %[[DW:.+]] = "onnx.MatMul"(%[[WT]], %[[G]]) : (tensor<3x?xf32, #onnx.dims<["N"]>>, tensor<?x2xf32, #onnx.dims<["N"]>>) -> tensor<3x2xf32>
// CHECK-DAG:  %[[DB1:.+]] = "onnx.ReduceSum"(%[[G]], %{{.+}}) <{keepdims = 1 : i64
// CHECK-DAG:  %[[DB:.+]] = "onnx.Reshape"(%[[DB1]], %{{.+}}) {{.*}} -> tensor<2xf32>
// CHECK:      return %[[DW]], %[[DB]]
func.func @linear(%x: tensor<?x3xf32, #onnx.dims<["N"]>>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> (tensor<3x2xf32>, tensor<2xf32>) {
  %xw = "onnx.MatMul"(%x, %w) : (tensor<?x3xf32, #onnx.dims<["N"]>>, tensor<3x2xf32>) -> tensor<?x2xf32, #onnx.dims<["N"]>>
  %y = "onnx.Add"(%xw, %b) : (tensor<?x2xf32, #onnx.dims<["N"]>>, tensor<2xf32>) -> tensor<?x2xf32, #onnx.dims<["N"]>>
  %g:2 = "onnx.training.Gradient"(%w, %b, %y) <{xs = ["w", "b"], y = "y"}> : (tensor<3x2xf32>, tensor<2xf32>, tensor<?x2xf32, #onnx.dims<["N"]>>) -> (tensor<3x2xf32>, tensor<2xf32>)
  return %g#0, %g#1 : tensor<3x2xf32>, tensor<2xf32>
}

// -----

// An op that does not depend on an x is not differentiated (Relu of c), and
// a value on no path to y gets nothing: only Exp's rule runs.
// CHECK-LABEL: func.func @inactive
// CHECK:      %[[E:.+]] = "onnx.Exp"(%arg0)
// CHECK-NOT:  "onnx.Where"
// CHECK:      %[[DX:.+]] = "onnx.Mul"(%{{.+}}, %[[E]])
// CHECK:      return %[[DX]]
func.func @inactive(%x: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = "onnx.Relu"(%c) : (tensor<4xf32>) -> tensor<4xf32>
  %e = "onnx.Exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y = "onnx.Add"(%e, %r) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = "onnx.Tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %g = "onnx.training.Gradient"(%x, %y) <{xs = ["x"], y = "y"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

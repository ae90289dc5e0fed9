// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Dropout in training mode with a constant ratio 0.25 and an int seed
// (passed as is): keep iff w0 >= ceil(0.25 * 2^32) = 2^30, y = x * (keep ?
// 1 / 0.75 : 0), the mask the comparison; one generic for both outputs.
// CHECK-LABEL: func.func @dropout_training
// CHECK-DAG: %[[THR:.+]] = arith.constant 1073741824 : i32
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 1.33333337 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SEED:.+]] = arith.constant 7 : i64
// CHECK: call @onnxc_rt_random_key(%{{.+}}, %{{.+}}, %[[SEED]])
// CHECK: %[[R:.+]]:2 = linalg.generic {{.*}} ins(%{{.+}} : tensor<2x3xf32>) outs(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<2x3xi1>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32, %{{.+}}: i1):
// CHECK-COUNT-20: arith.mului_extended
// CHECK: %[[KEEP:.+]] = arith.cmpi uge, %{{.+}}, %[[THR]] : i32
// CHECK: %[[F:.+]] = arith.select %[[KEEP]], %[[SCALE]], %[[ZERO]] : f32
// CHECK: %[[Y:.+]] = arith.mulf %[[IN]], %[[F]] : f32
// CHECK: linalg.yield %[[Y]], %[[KEEP]] : f32, i1
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @dropout_training(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %r = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0:2 = "onnx.Dropout"(%x, %r, %t) {seed = 7 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Dropout with training_mode and ratio given at run time: an scf.if on
// training_mode; in training, ratio checked in [0, 1), the threshold and
// scale computed from it, the random generic; otherwise the input itself.
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:.+]]("Dropout: ratio must be in [0, 1)\00")
// CHECK-LABEL: func.func @dropout_runtime
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[RT:.+]]: tensor<f32>, %[[TT:.+]]: tensor<i1>)
// CHECK: %[[T:.+]] = tensor.extract %[[TT]][]
// CHECK: %[[Y:.+]] = scf.if %[[T]] -> (tensor<2x3xf32>) {
// CHECK: %[[R32:.+]] = tensor.extract %[[RT]][]
// CHECK: %[[R:.+]] = arith.extf %[[R32]] : f32 to f64
// CHECK: llvm.mlir.addressof @[[MSG]]
// CHECK: call @onnxc_rt_fail
// CHECK: %[[SCALED:.+]] = arith.mulf %[[R]], %cst{{.*}} : f64
// CHECK: math.ceil %[[SCALED]]
// CHECK: arith.fptoui
// CHECK: arith.minui
// CHECK: %[[THR:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: call @onnxc_rt_random_key
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: arith.cmpi uge, %{{.+}}, %[[THR]] : i32
// CHECK: scf.yield %[[G]]
// CHECK: } else {
// CHECK: scf.yield %[[X]]
// CHECK: return %[[Y]]
func.func @dropout_runtime(%x: tensor<2x3xf32>, %r: tensor<f32>, %t: tensor<i1>) -> tensor<2x3xf32> {
  %0:2 = "onnx.Dropout"(%x, %r, %t) : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, none)
  return %0#0 : tensor<2x3xf32>
}

// -----

// Dropout with a constant ratio of 0 in training mode: the identity and an
// all-true mask, no random numbers.
// CHECK-LABEL: func.func @dropout_zero_ratio
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT: onnxc_rt_random
// CHECK: %[[M:.+]] = linalg.fill ins(%true : i1)
// CHECK: return %[[X]], %[[M]]
func.func @dropout_zero_ratio(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %r = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0:2 = "onnx.Dropout"(%x, %r, %t) : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi1>
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

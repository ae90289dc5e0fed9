// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// An optional: a flag and a payload; getting the element checks the flag.
// CHECK-LABEL: func.func @optional
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[X:.+]]: tensor<3xf32>) -> (tensor<i1>, tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[R:.+]]:2 = scf.if %{{.+}} -> (tensor<i1>, tensor<3xf32>)
// CHECK: %[[T:.+]] = arith.constant dense<true> : tensor<i1>
// CHECK: scf.yield %[[T]], %[[X]] : tensor<i1>, tensor<3xf32>
// CHECK: %[[F:.+]] = arith.constant dense<false> : tensor<i1>
// CHECK: scf.yield %[[F]], %{{.+}} : tensor<i1>, tensor<3xf32>
// CHECK: %[[HAS:.+]] = tensor.extract %[[R]]#0[] : tensor<i1>
// CHECK: scf.if %{{.+}} {
// CHECK: func.call @onnxc_rt_fail
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#1
func.func @optional(%c: tensor<i1>, %x: tensor<3xf32>) -> (!onnx.opt<tensor<3xf32>>, tensor<3xf32>) {
  %0 = "onnx.If"(%c) ({
    %1 = "onnx.Optional"(%x) : (tensor<3xf32>) -> !onnx.opt<tensor<3xf32>>
    onnx.Yield %1 : !onnx.opt<tensor<3xf32>>
  }, {
    %none = onnx.NoValue
    %2 = "onnx.Optional"(%none) {type = tensor<3xf32>} : (none) -> !onnx.opt<tensor<3xf32>>
    onnx.Yield %2 : !onnx.opt<tensor<3xf32>>
  }) : (tensor<i1>) -> !onnx.opt<tensor<3xf32>>
  %3 = "onnx.OptionalGetElement"(%0) : (!onnx.opt<tensor<3xf32>>) -> tensor<3xf32>
  return %0, %3 : !onnx.opt<tensor<3xf32>>, tensor<3xf32>
}

// -----

// A Loop-16 body that takes an optional sequence and yields a sequence: the
// loop carries the optional (its flag, then the sequence), the body's
// sequence becomes a present optional, and the result is the sequence,
// checked to be present (a loop of no iteration returns the initial value).
// CHECK-LABEL: func.func @loop_optional_sequence
// CHECK: %[[W:.+]]:5 = scf.while ({{.+}}) : (i64, i1, tensor<i1>, tensor<?xf32>, tensor<?xi64>)
// CHECK: %[[B:.+]]:3 = scf.execute_region -> (tensor<i1>, tensor<?xf32>, tensor<?xi64>)
// CHECK: %[[T:.+]] = arith.constant dense<true> : tensor<i1>
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[T]], %[[B]]#1, %[[B]]#2 : i64, i1, tensor<i1>, tensor<?xf32>, tensor<?xi64>
// CHECK: %[[HAS:.+]] = tensor.extract %[[W]]#2[] : tensor<i1>
// CHECK: arith.xori %[[HAS]]
// CHECK: func.call @onnxc_rt_fail
// CHECK: return %[[W]]#3, %[[W]]#4 : tensor<?xf32>, tensor<?xi64>
func.func @loop_optional_sequence(%m: tensor<i64>, %c: tensor<i1>, %v: !onnx.opt<!onnx.seq<tensor<*xf32>>>, %x: tensor<?xf32>) -> !onnx.seq<tensor<*xf32>> {
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%m, %c, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: !onnx.opt<!onnx.seq<tensor<*xf32>>>):
    %s = "onnx.OptionalGetElement"(%acc) : (!onnx.opt<!onnx.seq<tensor<*xf32>>>) -> !onnx.seq<tensor<*xf32>>
    %s2 = "onnx.SequenceInsert"(%s, %x, %none) : (!onnx.seq<tensor<*xf32>>, tensor<?xf32>, none) -> !onnx.seq<tensor<*xf32>>
    onnx.Yield %cond, %s2 : tensor<i1>, !onnx.seq<tensor<*xf32>>
  }) : (tensor<i64>, tensor<i1>, !onnx.opt<!onnx.seq<tensor<*xf32>>>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

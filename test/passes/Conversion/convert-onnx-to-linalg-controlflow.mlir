// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// If -> scf.if, Loop -> scf.while, Scan -> scf.for (or scf.while when a
// scan output's row shape is only known at run time). Bodies are inlined
// into scf.execute_region; onnx.Yield becomes scf.yield.

// CHECK-LABEL: func.func @if_shapes
// CHECK: %[[C:.+]] = tensor.extract %{{.+}}[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<?xf32>)
// CHECK: %[[T:.+]] = tensor.cast %{{.+}} : tensor<3xf32> to tensor<?xf32>
// CHECK: scf.yield %[[T]] : tensor<?xf32>
// CHECK: } else {
// CHECK: tensor.cast %{{.+}} : tensor<5xf32> to tensor<?xf32>
// CHECK-NOT: onnx.
func.func @if_shapes(%c: tensor<i1>, %x: tensor<5xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  %0 = "onnx.If"(%c) ({
    %1 = "onnx.Neg"(%y) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %1 : tensor<3xf32>
  }, {
    onnx.Yield %x : tensor<5xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A Loop with a scan output is two scf.while loops carrying (i, cond, y,
// accumulator, pending row, pending flag). The inner one tests
// !pending && cond && i < M, runs the body in an scf.execute_region and
// writes the row in place when it fits the capacity, else ends with the
// row pending (no tensor is created in it: one-shot bufferization then
// writes the accumulator in place instead of copying it per iteration).
// The outer one continues while pending || cond && i < M: it grows the
// accumulator and writes the pending row as row i - 1, then runs the
// inner loop again.
// CHECK-LABEL: func.func @loop
// CHECK: %[[M:.+]] = tensor.extract %{{.+}}[] : tensor<i64>
// CHECK: %[[NO:.+]] = arith.constant false
// CHECK: %[[ACC0:.+]] = bufferization.alloc_tensor(%{{.+}}) : tensor<?x2xf32>
// CHECK: %[[ROW0:.+]] = bufferization.alloc_tensor() : tensor<2xf32>
// CHECK: %[[W:.+]]:6 = scf.while (%[[I:.+]] = %{{.+}}, %[[CND:.+]] = %{{.+}}, %[[Y:.+]] = %{{.+}}, %[[ACC:.+]] = %[[ACC0]], %[[ROW:.+]] = %[[ROW0]], %[[PEND:.+]] = %[[NO]]) : (i64, i1, tensor<2xf32>, tensor<?x2xf32>, tensor<2xf32>, i1)
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[I]], %[[M]] : i64
// CHECK: %[[GO:.+]] = arith.andi %[[CND]], %[[LT]] : i1
// CHECK: %[[GO2:.+]] = arith.ori %[[PEND]], %[[GO]] : i1
// CHECK: scf.condition(%[[GO2]])
// CHECK: } do {
// CHECK: ^bb0(%[[OI:.+]]: i64, %[[OC:.+]]: i1, %[[OY:.+]]: tensor<2xf32>, %[[OACC:.+]]: tensor<?x2xf32>, %[[OROW:.+]]: tensor<2xf32>, %[[OPEND:.+]]: i1):
// CHECK: %[[PREV:.+]] = arith.subi %[[OI]], %{{.+}} : i64
// CHECK: %[[PPOS:.+]] = arith.index_cast %[[PREV]] : i64 to index
// CHECK: %[[PLACED:.+]] = scf.if %[[OPEND]] -> (tensor<?x2xf32>) {
// CHECK: %[[FRESH:.+]] = tensor.empty(%{{.+}}) : tensor<?x2xf32>
// CHECK: %[[COPIED:.+]] = tensor.insert_slice %{{.+}} into %[[FRESH]]
// CHECK: tensor.insert_slice %[[OROW]] into %[[COPIED]][%[[PPOS]], 0] [1, 2] [1, 1]
// CHECK: } else {
// CHECK: scf.yield %[[OACC]] : tensor<?x2xf32>
// CHECK: %[[IN:.+]]:6 = scf.while ({{.+}} = %[[OI]], {{.+}} = %[[OC]], {{.+}} = %[[OY]], {{.+}} = %[[PLACED]], {{.+}} = %[[OROW]], {{.+}} = %[[NO]])
// CHECK: scf.condition
// CHECK: } do {
// CHECK: ^bb0(%[[II:.+]]: i64, %{{.+}}: i1, %{{.+}}: tensor<2xf32>, %[[IACC:.+]]: tensor<?x2xf32>, %{{.+}}: tensor<2xf32>, %{{.+}}: i1):
// CHECK: %[[EX:.+]]:3 = scf.execute_region -> (tensor<i1>, tensor<2xf32>, tensor<2xf32>) {
// CHECK: linalg.generic
// CHECK: scf.yield
// CHECK: }
// CHECK: %[[NEXT:.+]] = tensor.extract %[[EX]]#0[] : tensor<i1>
// CHECK: %[[POS:.+]] = arith.index_cast %[[II]] : i64 to index
// CHECK: %[[CAP:.+]] = tensor.dim %[[IACC]], %{{.+}} : tensor<?x2xf32>
// CHECK: %[[FITS:.+]] = arith.cmpi ult, %[[POS]], %[[CAP]] : index
// CHECK-NOT: tensor.empty
// CHECK: %[[WRITTEN:.+]] = scf.if %[[FITS]] -> (tensor<?x2xf32>) {
// CHECK: tensor.insert_slice %[[EX]]#2 into %[[IACC]][%[[POS]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<?x2xf32>
// CHECK: } else {
// CHECK: scf.yield %[[IACC]] : tensor<?x2xf32>
// CHECK: %[[NOFIT:.+]] = arith.xori %[[FITS]], %{{.+}} : i1
// CHECK: scf.yield %{{.+}}, %[[NEXT]], %[[EX]]#1, %[[WRITTEN]], %[[EX]]#2, %[[NOFIT]] : i64, i1, tensor<2xf32>, tensor<?x2xf32>, tensor<2xf32>, i1
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1, %[[IN]]#2, %[[IN]]#3, %[[IN]]#4, %[[IN]]#5
// CHECK: %[[N:.+]] = arith.index_cast %[[W]]#0 : i64 to index
// CHECK: tensor.extract_slice %[[W]]#3[0, 0] [%[[N]], 2] [1, 1]
// CHECK-NOT: onnx.
func.func @loop(%m: tensor<i64>, %c: tensor<i1>, %y0: tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>) {
  %0:2 = "onnx.Loop"(%m, %c, %y0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %y: tensor<2xf32>):
    %1 = "onnx.Add"(%y, %y0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %ci, %1, %1 : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<?x2xf32>
}

// -----

// No trip count: the loop test is the carried condition alone. The
// carried value changes shape (the body's input type is dynamic); the
// initial value is cast to it.
// CHECK-LABEL: func.func @loop_carried_shape
// CHECK: scf.while ({{.+}}) : (i64, i1, tensor<?xf32>)
// CHECK-NOT: arith.cmpi slt
// CHECK: scf.condition
func.func @loop_carried_shape(%c: tensor<i1>, %y0: tensor<1xf32>) -> tensor<?xf32> {
  %none = onnx.NoValue
  %0 = "onnx.Loop"(%none, %c, %y0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %y: tensor<?xf32>):
    %1 = "onnx.Concat"(%y, %y) {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    onnx.Yield %ci, %1 : tensor<i1>, tensor<?xf32>
  }) : (none, tensor<i1>, tensor<1xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A constant trip count and a constant true condition the body passes
// through: a for loop (scf.for, no scf.while), the scan output
// preallocated to its 3 rows and written in place; the iteration number's
// tensor carried and overwritten (tensor.insert: one buffer for the loop,
// not a tensor.from_elements per iteration).
// CHECK-LABEL: func.func @loop_counted
// CHECK: %[[ACC:.+]] = bufferization.alloc_tensor() : tensor<3x2xf32>
// CHECK: %[[IT0:.+]] = bufferization.alloc_tensor() : tensor<i64>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[A:.+]] = %[[ACC]], %[[ITA:.+]] = %[[IT0]]) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<i64>)
// CHECK: %[[IT:.+]] = tensor.insert %{{.+}} into %[[ITA]][] : tensor<i64>
// CHECK-NOT: tensor.from_elements {{.+}} : tensor<i64>
// CHECK: scf.execute_region
// CHECK: %[[ROW:.+]] = tensor.insert_slice %{{.+}} into %[[A]][%[[I]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x2xf32>
// CHECK: scf.yield %{{.+}}, %[[ROW]], %[[IT]] : tensor<2xf32>, tensor<3x2xf32>, tensor<i64>
// CHECK-NOT: scf.while
func.func @loop_counted(%y0: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %m = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %c = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %0:2 = "onnx.Loop"(%m, %c, %y0) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %y: tensor<2xf32>):
    %co = "onnx.Identity"(%ci) : (tensor<i1>) -> tensor<i1>
    %1 = "onnx.Add"(%y, %y0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.Yield %co, %1, %1 : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<3x2xf32>
}

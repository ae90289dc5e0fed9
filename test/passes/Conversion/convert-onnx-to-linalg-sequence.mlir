// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// A sequence becomes two tensors (the items' elements concatenated, one row
// of dims per item); an optional a tensor<i1> flag and its payload. They
// cross function boundaries, If results and Loop-carried values as those
// several values.

// CHECK-LABEL: func.func @construct_at
// CHECK-SAME: -> (tensor<?xf32>, tensor<?x2xi64>, tensor<2x3xf32>, tensor<i64>)
// Two items inserted: 6 elements each, dims rows [2, 3].
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.from_elements %{{.+}}, %{{.+}} : tensor<1x2xi64>
// The position is checked, the item found by summing the sizes before it
// and reshaped from its dims row.
// CHECK: func.call @onnxc_rt_fail
// CHECK: scf.for
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: tensor.cast %{{.+}} : tensor<?x?xf32> to tensor<2x3xf32>
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x2xi64>
// CHECK: tensor.from_elements %{{.+}} : tensor<i64>
// CHECK-NOT: onnx.
func.func @construct_at(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %p: tensor<i64>) -> (!onnx.seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<i64>) {
  %s = "onnx.SequenceConstruct"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.seq<tensor<2x3xf32>>
  %t = "onnx.SequenceAt"(%s, %p) : (!onnx.seq<tensor<2x3xf32>>, tensor<i64>) -> tensor<2x3xf32>
  %n = "onnx.SequenceLength"(%s) : (!onnx.seq<tensor<2x3xf32>>) -> tensor<i64>
  return %s, %t, %n : !onnx.seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<i64>
}

// -----

// A sequence carried by a Loop is two carried values; it grows, so it is
// an scf.while.
// CHECK-LABEL: func.func @loop_seq
// CHECK: scf.while ({{.+}}) : (i64, i1, tensor<?xf32>, tensor<?x1xi64>)
// CHECK: scf.execute_region -> (tensor<i1>, tensor<?xf32>, tensor<?x1xi64>)
func.func @loop_seq(%m: tensor<i64>, %x: tensor<4xf32>) -> !onnx.seq<tensor<?xf32>> {
  %none = onnx.NoValue
  %e = "onnx.SequenceEmpty"() {dtype = 1 : i64} : () -> !onnx.seq<tensor<?xf32>>
  %0 = "onnx.Loop"(%m, %none, %e) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %s: !onnx.seq<tensor<?xf32>>):
    %s2 = "onnx.SequenceInsert"(%s, %x, %none) : (!onnx.seq<tensor<?xf32>>, tensor<4xf32>, none) -> !onnx.seq<tensor<?xf32>>
    onnx.Yield %c, %s2 : tensor<i1>, !onnx.seq<tensor<?xf32>>
  }) : (tensor<i64>, none, !onnx.seq<tensor<?xf32>>) -> !onnx.seq<tensor<?xf32>>
  return %0 : !onnx.seq<tensor<?xf32>>
}

// -----

// Items of no static rank keep their own: shapes are rows of 17 (the rank,
// the dims, zeros). Inserting a scalar then a vector writes a row each;
// SequenceAt checks the item's rank against the result's.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: -> (tensor<?xf32>, tensor<?xi64>, tensor<?xf32>)
// CHECK: %[[R0:.+]] = arith.constant 0 : i64
// CHECK: %[[ROW0:.+]] = tensor.from_elements %[[R0]], {{.+}} : tensor<17xi64>
// CHECK: tensor.insert_slice %[[ROW0]] into %{{.+}}[%{{.+}}] [17] [1] : tensor<17xi64> into tensor<?xi64>
// CHECK: %[[R1:.+]] = arith.constant 1 : i64
// CHECK: %[[D0:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: %[[ROW1:.+]] = tensor.from_elements %[[R1]], %[[D0]], {{.+}} : tensor<17xi64>
// CHECK: tensor.insert_slice %[[ROW1]] into
// The item's rank is at the start of its row.
// CHECK: %[[AT:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[RANK:.+]] = tensor.extract %{{.+}}[%[[AT]]] : tensor<?xi64>
// CHECK: %[[RANKI:.+]] = arith.index_cast %[[RANK]] : i64 to index
// CHECK: arith.cmpi eq, %[[RANKI]], %{{.+}} : index
// CHECK: func.call @onnxc_rt_fail
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?xf32>
func.func @rows(%z: tensor<f32>, %x: tensor<?xf32>, %p: tensor<i64>) -> (!onnx.seq<tensor<*xf32>>, tensor<?xf32>) {
  %none = onnx.NoValue
  %e = "onnx.SequenceEmpty"() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  %s1 = "onnx.SequenceInsert"(%e, %z, %none) : (!onnx.seq<tensor<*xf32>>, tensor<f32>, none) -> !onnx.seq<tensor<*xf32>>
  %s2 = "onnx.SequenceInsert"(%s1, %x, %none) : (!onnx.seq<tensor<*xf32>>, tensor<?xf32>, none) -> !onnx.seq<tensor<*xf32>>
  %t = "onnx.SequenceAt"(%s2, %p) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<?xf32>
  return %s2, %t : !onnx.seq<tensor<*xf32>>, tensor<?xf32>
}

// -----

// Where the layouts meet (If results here) the shapes are converted: a
// table of rank-0 items becomes rows; rows become a table of rank-1 items,
// each row's rank checked.
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%{{.+}}: tensor<i1>, %{{.+}}: tensor<?xf32>, %[[S:.+]]: tensor<?x0xi64>, %{{.+}}: tensor<?xf32>, %[[U:.+]]: tensor<?xi64>)
// CHECK-SAME: -> (tensor<?xf32>, tensor<?xi64>, tensor<?xf32>, tensor<?x1xi64>)
// CHECK: scf.if %{{.+}} -> (tensor<?xf32>, tensor<?xi64>)
// CHECK: %[[N:.+]] = tensor.dim %[[S]], %{{.+}} : tensor<?x0xi64>
// CHECK: %[[SIZE:.+]] = arith.muli %[[N]], %{{.+}} : index
// CHECK: %[[INIT:.+]] = bufferization.alloc_tensor(%[[SIZE]]) : tensor<?xi64>
// CHECK: scf.for {{.+}} to %[[N]] {{.+}} iter_args(%{{.+}} = %[[INIT]]) -> (tensor<?xi64>)
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%{{.+}}] [17] [1] : tensor<17xi64> into tensor<?xi64>
// CHECK: scf.if %{{.+}} -> (tensor<?xf32>, tensor<?x1xi64>)
// CHECK: %[[SZ:.+]] = tensor.dim %[[U]], %{{.+}} : tensor<?xi64>
// CHECK: %[[NU:.+]] = arith.divui %[[SZ]], %{{.+}} : index
// CHECK: bufferization.alloc_tensor(%[[NU]]) : tensor<?x1xi64>
// CHECK: scf.for {{.+}} to %[[NU]]
// CHECK: %[[RK:.+]] = tensor.extract %[[U]][%{{.+}}] : tensor<?xi64>
// CHECK: %[[RKI:.+]] = arith.index_cast %[[RK]] : i64 to index
// CHECK: arith.cmpi eq, %[[RKI]], %{{.+}} : index
// CHECK: func.call @onnxc_rt_fail
// CHECK: tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x1xi64>
func.func @layouts(%c: tensor<i1>, %s: !onnx.seq<tensor<f32>>, %u: !onnx.seq<tensor<*xf32>>) -> (!onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<?xf32>>) {
  %0 = "onnx.If"(%c) ({
    onnx.Yield %s : !onnx.seq<tensor<f32>>
  }, {
    onnx.Yield %u : !onnx.seq<tensor<*xf32>>
  }) : (tensor<i1>) -> !onnx.seq<tensor<*xf32>>
  %1 = "onnx.If"(%c) ({
    onnx.Yield %u : !onnx.seq<tensor<*xf32>>
  }, {
    onnx.Yield %u : !onnx.seq<tensor<*xf32>>
  }) : (tensor<i1>) -> !onnx.seq<tensor<?xf32>>
  return %0, %1 : !onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<?xf32>>
}

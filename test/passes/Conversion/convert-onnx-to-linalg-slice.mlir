// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// Slice with constant operands and positive steps: tensor.extract_slice;
// out-of-range ends are clamped.
// CHECK-LABEL: func.func @slice_static
// CHECK: tensor.extract_slice %{{.+}}[0, 1] [2, 2] [1, 2] : tensor<2x5xf32> to tensor<2x2xf32>
func.func @slice_static(%x: tensor<2x5xf32>) -> tensor<2x2xf32> {
  %s = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Constant"() {value = dense<[100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e, %a, %st) : (tensor<2x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A negative step reads input[start + i * step].
// CHECK-LABEL: func.func @slice_reverse
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[M:.+]] = arith.muli %[[I]], %{{.+}} : index
// CHECK: %[[O:.+]] = arith.addi %[[M]], %{{.+}} : index
// CHECK: tensor.extract %{{.+}}[%[[O]]] : tensor<5xf32>
func.func @slice_reverse(%x: tensor<5xf32>) -> tensor<5xf32> {
  %s = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Constant"() {value = dense<[-100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e, %a, %st) : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Split into equal static parts: extract_slice at increasing offsets.
// CHECK-LABEL: func.func @split
// CHECK: tensor.extract_slice %{{.+}}[0, 0] [2, 3] [1, 1]
// CHECK: tensor.extract_slice %{{.+}}[0, 3] [2, 3] [1, 1]
func.func @split(%x: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %n = "onnx.NoValue"() : () -> none
  %0:2 = "onnx.Split"(%x, %n) {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x6xf32>, none) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Slice whose starts/ends/axes have a run-time length: the entries are
// walked by an scf.for (a static loop over `?` entries would run zero times
// and return the data unsliced).
// CHECK-LABEL: func.func @slice_runtime_entries
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>, %[[S:.+]]: tensor<?xi64>, %[[E:.+]]: tensor<?xi64>)
// CHECK: %[[N:.+]] = tensor.dim %[[S]], %{{.+}} : tensor<?xi64>
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]] step %{{.+}} iter_args
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]] step %{{.+}} iter_args
// CHECK: linalg.generic
// CHECK: tensor.extract %[[X]]
func.func @slice_runtime_entries(%x: tensor<?x?xf32>, %s: tensor<?xi64>, %e: tensor<?xi64>) -> tensor<?x?xf32> {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Slice"(%x, %s, %e, %none, %none) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A zero-size piece is an empty tensor: a size-0 extract_slice at
// offset == dim does not verify.
// CHECK-LABEL: func.func @split_zero_size
// CHECK: %[[A:.+]] = tensor.extract_slice %{{.+}}[0] [2] [1] : tensor<2xf32> to tensor<2xf32>
// CHECK: %[[B:.+]] = tensor.empty() : tensor<0xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split_zero_size(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<0xf32>) {
  %s = "onnx.Constant"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0:2 = "onnx.Split"(%x, %s) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<0xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<0xf32>
}

// -----

// A piece whose inferred type is static in a dim the input has dynamic
// (inference knew more): the slice takes the type its sizes give and a
// tensor.cast gives the inferred one (a mismatched slice type would not
// verify).
// CHECK-LABEL: func.func @split_dynamic_input
// CHECK: %[[P:.+]] = tensor.extract_slice {{.+}} : tensor<2x?xf32> to tensor<1x?xf32>
// CHECK: tensor.cast %[[P]] : tensor<1x?xf32> to tensor<1x4xf32>
func.func @split_dynamic_input(%x: tensor<2x?xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %s = "onnx.Constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0:2 = "onnx.Split"(%x, %s) {axis = 0 : i64} : (tensor<2x?xf32>, tensor<2xi64>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  return %0#0, %0#1 : tensor<1x4xf32>, tensor<1x4xf32>
}

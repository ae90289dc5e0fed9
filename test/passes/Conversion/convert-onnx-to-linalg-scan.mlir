// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file %s | FileCheck %s

// A Scan with static rows: the outputs are preallocated (alloc_tensor: a
// tensor.empty would be merged by CSE with others of its type, and the
// loop-carried values would then share a buffer) and the loop is an
// scf.for; the first scan input is read in reverse (L - 1 - t).
// CHECK-LABEL: func.func @scan
// CHECK: %[[A0:.+]] = bufferization.alloc_tensor() : tensor<4x3xf32>
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[S:.+]] = %{{.+}}, %[[ACC:.+]] = %[[A0]]) -> (tensor<3xf32>, tensor<4x3xf32>)
// CHECK: %[[REV:.+]] = arith.subi %{{.+}}, %[[T]] : index
// CHECK: tensor.extract_slice %{{.+}}[0, %[[REV]]] [3, 1] [1, 1] : tensor<3x4xf32> to tensor<3xf32>
// CHECK: tensor.extract_slice %{{.+}}[%[[T]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
// CHECK: scf.execute_region
// CHECK: tensor.insert_slice %{{.+}} into %[[ACC]][%[[T]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x3xf32>
// CHECK-NOT: scf.while
// CHECK-NOT: onnx.
func.func @scan(%s0: tensor<3xf32>, %a: tensor<3x4xf32>, %b: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  %0:2 = "onnx.Scan"(%s0, %a, %b) ({
  ^bb0(%s: tensor<3xf32>, %x: tensor<3xf32>, %z: tensor<3xf32>):
    %1 = "onnx.Add"(%x, %z) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %2 = "onnx.Add"(%s, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %2, %1 : tensor<3xf32>, tensor<3xf32>
  }) {num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 1, 0>, scan_input_directions = array<i64: 1, 0>} : (tensor<3xf32>, tensor<3x4xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<4x3xf32>
}

// -----

// Rows of a run-time shape: the accumulator starts empty and the loop is an
// scf.while (scf.for's canonicalization would pin the empty shape).
// CHECK-LABEL: func.func @scan_dynamic_rows
// CHECK: scf.while
// CHECK: scf.execute_region
// CHECK: scf.if
func.func @scan_dynamic_rows(%s0: tensor<?xf32>, %a: tensor<4x?xf32>) -> (tensor<?xf32>, tensor<4x?xf32>) {
  %0:2 = "onnx.Scan"(%s0, %a) ({
  ^bb0(%s: tensor<?xf32>, %x: tensor<?xf32>):
    %1 = "onnx.Add"(%s, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    onnx.Yield %1, %1 : tensor<?xf32>, tensor<?xf32>
  }) {num_scan_inputs = 1 : i64} : (tensor<?xf32>, tensor<4x?xf32>) -> (tensor<?xf32>, tensor<4x?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<4x?xf32>
}

// -----

// ScanV8 with sequence_lens: entry b runs lens[b] steps (checked to be in
// [1, 4]), a reverse scan input is read from element lens[b] - 1 down, and
// the scan output's rows past lens[b] are zeros.
// CHECK-LABEL: func.func @scan8_sequence_lens
// CHECK: scf.for %[[B:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[LEN:.+]] = tensor.extract %{{.+}}[%[[B]]] : tensor<2xi64>
// CHECK: arith.cmpi sle, %[[LEN]]
// CHECK: arith.cmpi sgt, %[[LEN]]
// CHECK: func.call @onnxc_rt_fail_values
// CHECK: %[[N:.+]] = arith.index_cast %[[LEN]] : i64 to index
// CHECK: %[[LAST:.+]] = arith.subi %[[N]], %{{.+}} : index
// CHECK: %[[LOOP:.+]]:2 = scf.for %[[T:.+]] = %{{.+}} to %[[N]] step
// CHECK: %[[REV:.+]] = arith.subi %[[LAST]], %[[T]] : index
// CHECK: tensor.extract_slice %{{.+}}[%[[REV]], 0] [1, 3]
// CHECK: %[[PAD:.+]] = arith.subi %{{.+}}, %[[N]] : index
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x3xf32>)
// CHECK: tensor.insert_slice %[[Z]] into %[[LOOP]]#1[%[[N]], 0] [%[[PAD]], 3]
func.func @scan8_sequence_lens(%l: tensor<2xi64>, %s0: tensor<2x3xf32>, %a: tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>) {
  %0:2 = "onnx.ScanV8"(%l, %s0, %a) ({
  ^bb0(%s: tensor<3xf32>, %x: tensor<3xf32>):
    %y = "onnx.Add"(%s, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %y, %x : tensor<3xf32>, tensor<3xf32>
  }) {num_scan_inputs = 1 : i64, directions = array<i64: 1>} : (tensor<2xi64>, tensor<2x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x4x3xf32>
}

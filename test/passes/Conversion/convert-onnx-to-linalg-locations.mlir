// RUN: %onnxc-opt --convert-onnx-to-linalg --mlir-print-debuginfo %s | FileCheck %s --implicit-check-not="loc(unknown)"

// The ops a node lowers to keep its location: the importer's
// NameLoc("node", FusedLoc<"OpType">[file]) (GraphImporter::nodeLoc). The
// driver reads the node's name and ONNX op type from it, so that an error
// of a lowered op reads "node 'conv1' (Conv): linalg.generic: ..." and not
// "node 'conv1' (linalg.generic): ..." (onnxc's formatDiagnostic).

// (The aliases print first.)
// CHECK-DAG: #[[FILE:loc[0-9]*]] = loc("m.onnx":0:0)
// CHECK-DAG: #[[CONV_OP:loc[0-9]+]] = loc(fused<"Conv">[#[[FILE]]])
// CHECK-DAG: #[[CONV:loc[0-9]+]] = loc("conv1"(#[[CONV_OP]]))
// CHECK-DAG: #[[SOFTMAX_OP:loc[0-9]+]] = loc(fused<"Softmax">[#[[FILE]]])
// CHECK-DAG: #[[SOFTMAX:loc[0-9]+]] = loc("sm"(#[[SOFTMAX_OP]]))
// CHECK-DAG: #[[GATHER_OP:loc[0-9]+]] = loc(fused<"Gather">[#[[FILE]]])
// CHECK-DAG: #[[GATHER:loc[0-9]+]] = loc("#2"(#[[GATHER_OP]]))
// CHECK: func.func @lowered_ops_keep_the_node
// CHECK: tensor.empty() : tensor<1x4x6x6xf32> loc(#[[CONV]])
// CHECK: } -> tensor<1x1x4x6x6xf32> loc(#[[CONV]])
// CHECK: tensor.empty() : tensor<1x6x6xf32> loc(#[[SOFTMAX]])
// CHECK: } -> tensor<1x6x6xf32> loc(#[[SOFTMAX]])
// CHECK: } -> tensor<2x4x6x6xf32> loc(#[[GATHER]])
func.func @lowered_ops_keep_the_node(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<2xi64>) -> tensor<2x4x6x6xf32> {
  %none = "onnx.NoValue"() : () -> none
  %c = "onnx.Conv"(%x, %w, %none) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32> loc("conv1"(fused<"Conv">["m.onnx":0:0]))
  %s = "onnx.Softmax"(%c) {axis = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> loc("sm"(fused<"Softmax">["m.onnx":0:0]))
  %g = "onnx.Gather"(%s, %i) : (tensor<1x4x6x6xf32>, tensor<2xi64>) -> tensor<2x4x6x6xf32> loc("#2"(fused<"Gather">["m.onnx":0:0]))
  return %g : tensor<2x4x6x6xf32>
}

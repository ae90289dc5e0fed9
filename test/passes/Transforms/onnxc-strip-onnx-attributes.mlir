// RUN: %onnxc-opt --onnxc-strip-onnx-attributes %s | FileCheck %s

// The importer's onnx.* attributes go from the module, the functions, their
// arguments and results; other attributes stay. The entry point's (C
// interface) arguments become read-only for bufferization; a helper's do not.

// CHECK: module attributes {test.keep = 1 : i64} {
module attributes {onnx.ir_version = 8 : i64, test.keep = 1 : i64} {
  // CHECK: func.func @m_main_graph(%{{.*}}: tensor<2xf32> {bufferization.writable = false}) -> tensor<2xf32>
  // CHECK-SAME: attributes {llvm.emit_c_interface}
  func.func @m_main_graph(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"})
      attributes {llvm.emit_c_interface, onnx.doc = "d"} {
    return %x : tensor<2xf32>
  }
  // CHECK: func.func @helper(%{{.*}}: tensor<2xf32>) -> tensor<2xf32> {
  func.func @helper(%x: tensor<2xf32> {onnx.name = "x"}) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}
// CHECK-NOT: onnx.

// The passes trace what they decide with LLVM_DEBUG, DEBUG_TYPE being the
// pass's flag: `onnxc-opt -debug-only=<flag>` prints the trace on stderr.
// That needs an LLVM and an onnxc built with assertions: Debian's LLVM 22
// has none (onnxc-opt has no -debug-only there and the traces are compiled
// out), so this test is UNSUPPORTED in the default build (feature
// debug-only, test/lit.cfg.py).
// REQUIRES: debug-only
// RUN: %onnxc-opt --onnxc-fuse-elementwise -debug-only=onnxc-fuse-elementwise %s 2>&1 >/dev/null | FileCheck %s

// CHECK: onnxc-fuse-elementwise: 2 generics before fusion
// CHECK: onnxc-fuse-elementwise: 1 generics after fusion
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%a: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%add : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %relu : tensor<4x8xf32>
}

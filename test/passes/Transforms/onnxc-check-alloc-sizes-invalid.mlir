// RUN: not %onnxc-opt --onnxc-check-alloc-sizes %s 2>&1 | FileCheck %s

// A static shape over 2^63 - 1 bytes is an error naming the node (the
// location carries no file position, so this test reads stderr instead of
// using --verify-diagnostics).
// CHECK: error: {{.*}}node 'big' (ConstantOfShape): a buffer of [4398046511104, 2199023255552] elements of 4 bytes holds more than 2^63 - 1 bytes
func.func @too_large() {
  %0 = memref.alloc() : memref<4398046511104x2199023255552xf32> loc(fused<"ConstantOfShape">["big"])
  return
}

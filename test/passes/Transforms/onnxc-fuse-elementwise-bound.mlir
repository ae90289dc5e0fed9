// A chain of 600 elementwise nodes is fused into loops of at most 256
// ops in the body and 256 locations on the op: three loops (of 92, 254 and
// 254 adds, the greedy driver's order). Fusing the whole chain into one loop cost
// O(n^2) (every fusion clones both bodies and hashes all the merged
// locations): a 20,000-node chain took 7 s to compile, 1.6 s with the
// bound, and 100,000 nodes 9.7 s.
// RUN: %python %S/Inputs/gen_chain.py 600 > %t.mlir
// RUN: %onnxc-opt --onnxc-fuse-elementwise %t.mlir | FileCheck %s
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return

// RUN: %onnxc-opt --onnxc-profile-nodes --split-input-file %s | FileCheck %s

// Each run of consecutive ops of one node is wrapped with begin/end calls of
// the node's site ("N", names, NUL, op types, NUL). Allocations, views,
// deallocations and pure ops join the group around them without starting
// one. An op whose location fuses two nodes (the kernel call of a Conv with
// its Relu) makes the two one site, which every op of either node uses: a
// node is in exactly one site.
// CHECK-DAG: llvm.mlir.global internal constant @[[CR:__onnxc_msg[0-9]+]]("Nconv1+relu1\00Conv+Relu\00\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[ADD:__onnxc_msg[0-9]+]]("Nadd1\00Add\00\00")
// CHECK-DAG: func.func private @onnxc_rt_prof_begin(!llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_prof_end(!llvm.ptr)
// CHECK-LABEL: func.func @f
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: %[[P0:.+]] = llvm.mlir.addressof @[[CR]]
// CHECK-NEXT: call @onnxc_rt_prof_begin(%[[P0]])
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: call @kernel
// CHECK-NEXT: %[[P1:.+]] = llvm.mlir.addressof @[[CR]]
// CHECK-NEXT: call @onnxc_rt_prof_end(%[[P1]])
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: %[[P2:.+]] = llvm.mlir.addressof @[[ADD]]
// CHECK-NEXT: call @onnxc_rt_prof_begin(%[[P2]])
// CHECK-NEXT: linalg.add
// CHECK-NEXT: %[[P3:.+]] = llvm.mlir.addressof @[[ADD]]
// CHECK-NEXT: call @onnxc_rt_prof_end(%[[P3]])
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: return
#conv = loc("conv1"(fused<"Conv">["m.onnx":0:0]))
#relu = loc("relu1"(fused<"Relu">["m.onnx":0:0]))
#add = loc("add1"(fused<"Add">["m.onnx":0:0]))
func.func private @kernel(memref<4xf32>)
func.func @f(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0.0 : f32 loc(#conv)
  %a = memref.alloc() : memref<4xf32> loc(#conv)
  linalg.fill ins(%c0 : f32) outs(%a : memref<4xf32>) loc(#conv)
  func.call @kernel(%a) : (memref<4xf32>) -> () loc(fused[#relu, #conv])
  %b = memref.alloc() : memref<4xf32> loc(#add)
  linalg.add ins(%a, %x : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>) loc(#add)
  memref.dealloc %a : memref<4xf32> loc(#conv)
  // No node: not timed.
  linalg.copy ins(%b : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// A loop of a Loop node is timed as the node; the ops of its body's nodes
// get their own events inside, and the body, one per iteration (an "I"
// site). The loop node's own ops inside the body get no event of their own.
// CHECK-DAG: llvm.mlir.global internal constant @[[LOOP:__onnxc_msg[0-9]+]]("Nloop\00Loop\00\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[ITER:__onnxc_msg[0-9]+]]("Iloop\00Loop\00\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[BODY:__onnxc_msg[0-9]+]]("Nbody/mul\00Mul\00\00")
// CHECK-LABEL: func.func @g
// CHECK: %[[L0:.+]] = llvm.mlir.addressof @[[LOOP]]
// CHECK-NEXT: call @onnxc_rt_prof_begin(%[[L0]])
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[I0:.+]] = llvm.mlir.addressof @[[ITER]]
// CHECK-NEXT: call @onnxc_rt_prof_begin(%[[I0]])
// CHECK-NEXT: memref.subview
// CHECK-NEXT: %[[B0:.+]] = llvm.mlir.addressof @[[BODY]]
// CHECK-NEXT: call @onnxc_rt_prof_begin(%[[B0]])
// CHECK-NEXT: linalg.mul
// CHECK-NEXT: %[[B1:.+]] = llvm.mlir.addressof @[[BODY]]
// CHECK-NEXT: call @onnxc_rt_prof_end(%[[B1]])
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: %[[I1:.+]] = llvm.mlir.addressof @[[ITER]]
// CHECK-NEXT: call @onnxc_rt_prof_end(%[[I1]])
// CHECK-NEXT: }
// CHECK-NEXT: %[[L1:.+]] = llvm.mlir.addressof @[[LOOP]]
// CHECK-NEXT: call @onnxc_rt_prof_end(%[[L1]])
#loop = loc("loop"(fused<"Loop">["m.onnx":0:0]))
#mul = loc("body/mul"(fused<"Mul">["m.onnx":0:0]))
func.func @g(%x: memref<8x4xf32>, %acc: memref<4xf32>) {
  %c0 = arith.constant 0 : index loc(#loop)
  %c1 = arith.constant 1 : index loc(#loop)
  %c8 = arith.constant 8 : index loc(#loop)
  scf.for %i = %c0 to %c8 step %c1 {
    %row = memref.subview %x[%i, 0] [1, 4] [1, 1] : memref<8x4xf32> to memref<4xf32, strided<[1], offset: ?>> loc(#loop)
    linalg.mul ins(%row, %acc : memref<4xf32, strided<[1], offset: ?>>, memref<4xf32>) outs(%acc : memref<4xf32>) loc(#mul)
    linalg.copy ins(%acc : memref<4xf32>) outs(%acc : memref<4xf32>) loc(#loop)
  } loc(#loop)
  return
}

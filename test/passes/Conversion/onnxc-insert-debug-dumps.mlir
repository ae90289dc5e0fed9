// RUN: %onnxc-opt --onnxc-insert-debug-dumps --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --onnxc-insert-debug-dumps --convert-onnx-to-linalg --split-input-file %s | FileCheck %s --check-prefix=LINALG

// After every onnx op but onnx.Constant, each tensor result goes to
// onnxc_rt_dump_tensor(site, block): the node's name and op type, and an
// int64 block (an alloca at the entry) with the buffer's address (a
// read-only to_buffer), dtype, rank, result index and dims (tensor.dim for
// a symbolic one). A sequence is declared with onnxc_rt_dump_skip. A
// public function calls onnxc_rt_dump_begin(its name) first and
// onnxc_rt_dump_end before it returns.
// CHECK-DAG: llvm.mlir.global internal constant @[[SITE:__onnxc_msg[0-9]+]]("relu1\00Relu\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[SEQ:__onnxc_msg[0-9]+]]("seq1\00SequenceConstruct\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WHY:__onnxc_msg[0-9]+]]("its type !onnx.seq<tensor<?x8xf32>> is not a tensor\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__onnxc_msg[0-9]+]]("f\00")
// CHECK-DAG: func.func private @onnxc_rt_dump_begin(!llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_dump_tensor(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_dump_skip(!llvm.ptr, i64, !llvm.ptr)
// CHECK-DAG: func.func private @onnxc_rt_dump_end()
// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[N:.+]] = llvm.mlir.addressof @[[NAME]]
// CHECK-NEXT: call @onnxc_rt_dump_begin(%[[N]])
// CHECK-NEXT: %[[BLOCK:.+]] = memref.alloca() : memref<6xi64>
// CHECK-NEXT: "onnx.Constant"
// CHECK-NEXT: %[[Y:.+]] = "onnx.Relu"
// CHECK-NEXT: %[[YB:.+]] = builtin.unrealized_conversion_cast %[[Y]] : tensor<?x8xf32, #onnx.dims<["N"]>> to tensor<?x8xf32>
// CHECK-NEXT: %[[BUF:.+]] = bufferization.to_buffer %[[YB]] read_only : tensor<?x8xf32> to memref<?x8xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[C1:.+]] = arith.constant 1 : i64
// CHECK: memref.store %[[C1]], %[[BLOCK]]
// CHECK: %[[C2:.+]] = arith.constant 2 : i64
// CHECK: memref.store %[[C2]], %[[BLOCK]]
// CHECK: %[[C0:.+]] = arith.constant 0 : i64
// CHECK: memref.store %[[C0]], %[[BLOCK]]
// CHECK: %[[DIM:.+]] = tensor.dim %[[YB]], %{{.+}} : tensor<?x8xf32>
// CHECK: %[[DIM64:.+]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: memref.store %[[DIM64]], %[[BLOCK]]
// CHECK: %[[C8:.+]] = arith.constant 8 : i64
// CHECK: memref.store %[[C8]], %[[BLOCK]]
// CHECK: %[[PTR:.+]] = llvm.inttoptr
// CHECK: %[[S:.+]] = llvm.mlir.addressof @[[SITE]]
// CHECK: call @onnxc_rt_dump_tensor(%[[S]], %[[PTR]])
// CHECK: "onnx.SequenceConstruct"
// CHECK: %[[S2:.+]] = llvm.mlir.addressof @[[SEQ]]
// CHECK: %[[I:.+]] = arith.constant 0 : i64
// CHECK: %[[W:.+]] = llvm.mlir.addressof @[[WHY]]
// CHECK: call @onnxc_rt_dump_skip(%[[S2]], %[[I]], %[[W]])
// CHECK: call @onnxc_rt_dump_end()
// CHECK-NEXT: return
// LINALG-LABEL: func.func @f
// LINALG-NOT: onnx.
// LINALG: call @onnxc_rt_dump_tensor
// LINALG: call @onnxc_rt_dump_skip
func.func @f(%x: tensor<?x8xf32, #onnx.dims<["N"]>>) -> (tensor<?x8xf32, #onnx.dims<["N"]>>, !onnx.seq<tensor<?x8xf32>>) {
  %c = "onnx.Constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32> loc(#c)
  %y = "onnx.Relu"(%x) : (tensor<?x8xf32, #onnx.dims<["N"]>>) -> tensor<?x8xf32, #onnx.dims<["N"]>> loc(#relu)
  %s = "onnx.SequenceConstruct"(%x) : (tensor<?x8xf32, #onnx.dims<["N"]>>) -> !onnx.seq<tensor<?x8xf32>> loc(#seq)
  return %y, %s : tensor<?x8xf32, #onnx.dims<["N"]>>, !onnx.seq<tensor<?x8xf32>>
}
#c = loc("c1"(fused<"Constant">["m.onnx":0:0]))
#relu = loc("relu1"(fused<"Relu">["m.onnx":0:0]))
#seq = loc("seq1"(fused<"SequenceConstruct">["m.onnx":0:0]))

// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s
//
// TypeConversion.cpp: the signatures it converts (the ops' own lowerings,
// such as Constant's and Identity's, are tested with their files).

// Unsigned elements become signless, the #onnx.dims encoding is dropped, a
// sequence is two tensors (its items' data and one row of dims per item),
// an optional its presence flag and its payload.
// CHECK-LABEL: func.func @signature
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xi8>, %[[D:.+]]: tensor<?xf32>, %[[S:.+]]: tensor<?x1xi64>, %[[P:.+]]: tensor<i1>, %[[V:.+]]: tensor<2xf16>)
// CHECK-SAME: -> (tensor<?x4xi8>, tensor<?xf32>, tensor<?x1xi64>, tensor<i1>, tensor<2xf16>)
// CHECK: return %[[A]], %[[D]], %[[S]], %[[P]], %[[V]]
func.func @signature(%a: tensor<?x4xui8, #onnx.dims<["N"]>>, %s: !onnx.seq<tensor<?xf32>>, %o: !onnx.opt<tensor<2xf16>>) -> (tensor<?x4xui8, #onnx.dims<["N"]>>, !onnx.seq<tensor<?xf32>>, !onnx.opt<tensor<2xf16>>) {
  return %a, %s, %o : tensor<?x4xui8, #onnx.dims<["N"]>>, !onnx.seq<tensor<?xf32>>, !onnx.opt<tensor<2xf16>>
}

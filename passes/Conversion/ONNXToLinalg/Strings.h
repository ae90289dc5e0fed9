//===- Strings.h - String tensors in the lowering ---------------*- C++ -*-===//
//
// A tensor<... x !onnx.string> lowers to a tensor<... x i64> whose elements
// are addresses of NUL-terminated UTF-8 strings (0 reads as ""): the
// caller's strings, a constant of the library, or strings the model makes
// through the runtime (runtime_abi.h, "String tensors"; docs/codegen.md).
// Ops that only move elements (Reshape, Transpose, Concat, Gather, Slice,
// Where, ...) need nothing more; these helpers serve the ops that read or
// make strings.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_STRINGS_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_STRINGS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::onnxc::linalg_conv {

/// True for !onnx.string (an element type) or a tensor of it.
bool isStringType(Type t);

/// A tensor of `type` (shape, i64 elements) holding the addresses of
/// `strings` (row-major), kept in one constant global of the module of
/// `anchor`.
Value buildStringConstant(OpBuilder &b, Location loc, Operation *anchor,
                          RankedTensorType type, ArrayRef<StringRef> strings);

/// The address (i64) of the constant string `s`.
Value stringAddress(OpBuilder &b, Location loc, Operation *anchor, StringRef s);

/// The address (i64) of the dense data of tensor `t` (builtin type), read
/// only from here on. Bufferization does not see the address: emit it right
/// before the runtime call that reads it, after every tensor op that
/// allocates (a later one may reuse the buffer).
Value tensorAddress(OpBuilder &b, Location loc, Value t);

/// Calls runtime function `name` (declared in the module of `anchor` on
/// first use) with `args`, returning its results.
SmallVector<Value> callRuntime(OpBuilder &b, Location loc, Operation *anchor,
                               StringRef name, TypeRange results,
                               ValueRange args);

/// The site string ("node 'c' (Cast)") of `loc` as an !llvm.ptr.
Value siteString(OpBuilder &b, Location loc, Operation *anchor);

/// Cast of one element from or to a string (`fromOnnx`, `toOnnx` the onnx
/// element types, one of them !onnx.string): ONNX Runtime's formatting and
/// parsing (runtime_abi.h). `saturate`: Cast's attribute, for a float8
/// target (a string parsed to a number, then encoded as from float).
Value castStringScalar(OpBuilder &b, Location loc, Operation *anchor, Value v,
                       Type fromOnnx, Type toOnnx, bool saturate = true);

/// The index (i64) of string `key` in `keys`, a tensor<n x i64> of strings
/// sorted bytewise, or -1: a binary search reading `keys` in the IR (so that
/// bufferization keeps it alive) and comparing with the runtime's strcmp.
Value stringLookup(OpBuilder &b, Location loc, Operation *anchor, Value keys,
                   int64_t n, Value key);

/// Equal on two string elements (i1).
Value stringEqual(OpBuilder &b, Location loc, Operation *anchor, Value x,
                  Value y);

/// A classifier's `classlabels_strings` (empty when it has none). The
/// lowerings pick label indices 0..n-1 in their place, then
/// mapStringLabels turns Y's indices into the strings' addresses.
SmallVector<StringRef> getStringLabels(Operation *op);
SmallVector<int64_t> labelIndices(size_t n);
Value mapStringLabels(OpBuilder &b, Location loc, Operation *op, Value y,
                      ArrayRef<StringRef> labels);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_STRINGS_H

//===- ONNXDialect.h - The onnx dialect, its types and attributes -*- C++ -*-===//
//
// Light header: the dialect, !onnx.* types, #onnx.dims and type helpers. The
// op classes (about 220 of them) are in ONNXOps.h; code that builds ops by
// name (the importer) needs only this one.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_H
#define ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/ONNX/IR/ONNXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/ONNX/IR/ONNXTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ONNX/IR/ONNXAttrs.h.inc"

namespace mlir::onnxc::ONNX {

/// Generic checks of every ONNX op (ops from the generated ODS carry the
/// ONNXOpTrait): variadic arity, attribute values and ranks. Verify.cpp.
LogicalResult verifyONNXOp(Operation *op);

template <typename ConcreteType>
class ONNXOpTrait : public OpTrait::TraitBase<ConcreteType, ONNXOpTrait> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyONNXOp(op); }
};

/// A tensor type whose dynamic dims carry the given names (one per dim of
/// `shape`; names of static dims are ignored, "" leaves a dim unnamed).
RankedTensorType getTensorType(ArrayRef<int64_t> shape, Type elementType,
                               ArrayRef<StringRef> dimNames = {});

/// The symbolic name of dim `dim` of `type`, or "" if it is static or unnamed.
StringRef getDimName(RankedTensorType type, unsigned dim);

/// `type` without its #onnx.dims encoding.
Type stripDimNames(Type type);

/// True for a type whose shape and nested shapes are fully static.
bool isStaticType(Type type);

} // namespace mlir::onnxc::ONNX

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_H

//===- ONNXDialect.cpp - The onnx dialect ---------------------------------===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX;

#include "dialects/ONNX/IR/ONNXDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/ONNX/IR/ONNXTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ONNX/IR/ONNXAttrs.cpp.inc"

void ONNXDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/ONNX/IR/ONNXTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/ONNX/IR/ONNXAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/ONNX/IR/ONNXCoreOps.cpp.inc"
      >();
  registerONNXDialectOperations(this);
}

RankedTensorType mlir::onnxc::ONNX::getTensorType(ArrayRef<int64_t> shape,
                                                  Type elementType,
                                                  ArrayRef<StringRef> dimNames) {
  MLIRContext *ctx = elementType.getContext();
  SmallVector<Attribute> names;
  bool anyNamed = false;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(d))
      continue;
    StringRef n = i < dimNames.size() ? dimNames[i] : StringRef();
    anyNamed |= !n.empty();
    names.push_back(StringAttr::get(ctx, n));
  }
  if (!anyNamed)
    return RankedTensorType::get(shape, elementType);
  return RankedTensorType::get(shape, elementType,
                               DimsAttr::get(ctx, ArrayAttr::get(ctx, names)));
}

StringRef mlir::onnxc::ONNX::getDimName(RankedTensorType type, unsigned dim) {
  auto dims = llvm::dyn_cast_or_null<DimsAttr>(type.getEncoding());
  if (!dims || !type.isDynamicDim(dim))
    return {};
  unsigned dynIndex = 0;
  for (unsigned i = 0; i < dim; ++i)
    dynIndex += type.isDynamicDim(i);
  ArrayRef<Attribute> names = dims.getNames().getValue();
  if (dynIndex >= names.size())
    return {};
  auto s = llvm::dyn_cast<StringAttr>(names[dynIndex]);
  return s ? s.getValue() : StringRef();
}

Type mlir::onnxc::ONNX::stripDimNames(Type type) {
  if (auto t = llvm::dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(t.getShape(), t.getElementType());
  if (auto s = llvm::dyn_cast<SeqType>(type))
    return SeqType::get(type.getContext(), stripDimNames(s.getElementType()));
  if (auto o = llvm::dyn_cast<OptType>(type))
    return OptType::get(type.getContext(), stripDimNames(o.getElementType()));
  return type;
}

bool mlir::onnxc::ONNX::isStaticType(Type type) {
  if (auto t = llvm::dyn_cast<TensorType>(type))
    return t.hasStaticShape();
  if (auto s = llvm::dyn_cast<SeqType>(type))
    return isStaticType(s.getElementType());
  if (auto o = llvm::dyn_cast<OptType>(type))
    return isStaticType(o.getElementType());
  return true;
}

//===- ONNXCoreOps.cpp - Hand-written onnx ops ----------------------------===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX;

#define GET_OP_CLASSES
#include "dialects/ONNX/IR/ONNXCoreOps.cpp.inc"

/// The attribute kinds of the custom-op ABI (runtime/include/onnxc/custom_op.h).
LogicalResult CustomOp::verify() {
  if (getDomain().empty() || getOpType().empty())
    return emitOpError() << "needs a domain and an op type";
  for (NamedAttribute a : getNodeAttrs()) {
    Attribute v = a.getValue();
    bool ok = isa<StringAttr, DenseI64ArrayAttr, DenseF32ArrayAttr>(v) ||
              (isa<IntegerAttr>(v) &&
               cast<IntegerAttr>(v).getType().isInteger(64)) ||
              (isa<FloatAttr>(v) && cast<FloatAttr>(v).getType().isF32());
    if (!ok)
      return emitOpError() << "attribute '" << a.getName().getValue()
                           << "' is not an int, float, string, ints or floats";
  }
  return success();
}

std::string CustomOp::getKernelName(llvm::StringRef domain,
                                    llvm::StringRef opType) {
  std::string name = "onnxc_custom_";
  auto append = [&](llvm::StringRef part) {
    for (char c : part)
      name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  };
  append(domain);
  name.push_back('_');
  append(opType);
  return name;
}

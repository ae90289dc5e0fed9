//===- OpInfo.cpp - The generated ONNX signature table --------------------===//

#include "dialects/ONNX/IR/OpInfo.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX;

namespace {
#include "dialects/ONNX/IR/ONNXOpInfo.inc"

struct Index {
  llvm::StringMap<const OpInfo *> byOpName;
  Index() {
    for (const OpInfo &info : kOpInfos)
      byOpName[info.opName] = &info;
  }
};
const Index &getIndex() {
  static const Index index;
  return index;
}
} // namespace

const AttrInfo *OpInfo::findAttr(llvm::StringRef name) const {
  for (const AttrInfo &a : getAttrs())
    if (name == a.name)
      return &a;
  return nullptr;
}

unsigned OpInfo::getNumRegions() const {
  unsigned n = 0;
  for (const AttrInfo &a : getAttrs())
    n += a.kind == kAttrGraph;
  return n;
}

llvm::StringRef mlir::onnxc::ONNX::canonicalDomain(llvm::StringRef domain) {
  return domain == "ai.onnx" ? llvm::StringRef() : domain;
}

const OpInfo *mlir::onnxc::ONNX::lookupOpInfo(llvm::StringRef opName) {
  return getIndex().byOpName.lookup(opName);
}

const OpInfo *mlir::onnxc::ONNX::lookupOpInfo(llvm::StringRef domain,
                                              llvm::StringRef onnxName) {
  domain = canonicalDomain(domain);
  std::string prefix = "onnx.";
  if (domain == "ai.onnx.ml")
    prefix += "ml.";
  else if (domain == "ai.onnx.preview.training")
    prefix += "training.";
  else if (!domain.empty())
    return nullptr;
  return lookupOpInfo(prefix + onnxName.str());
}

const OpInfo *mlir::onnxc::ONNX::lookupOpInfo(Operation *op) {
  return lookupOpInfo(op->getName().getStringRef());
}

llvm::ArrayRef<OpInfo> mlir::onnxc::ONNX::getAllOpInfos() { return kOpInfos; }

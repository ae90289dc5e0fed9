//===- StripONNXAttributes.cpp - The --onnxc-strip-onnx-attributes pass ---===//
//
// onnx.* attributes (names, opsets) go; the entry points' arguments become
// read-only for bufferization (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_STRIPONNXATTRIBUTES
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

void stripDiscardable(Operation *op) {
  SmallVector<StringAttr> names;
  for (NamedAttribute a : op->getDiscardableAttrs())
    if (a.getName().getValue().starts_with("onnx."))
      names.push_back(a.getName());
  for (StringAttr n : names)
    op->removeDiscardableAttr(n);
}

struct StripONNXAttributesPass
    : public onnxc::impl::StripONNXAttributesBase<StripONNXAttributesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    stripDiscardable(module);
    module.walk([&](func::FuncOp f) {
      stripDiscardable(f);
      for (unsigned i = 0; i < f.getNumArguments(); ++i)
        f.removeArgAttr(i, "onnx.name");
      for (unsigned i = 0; i < f.getNumResults(); ++i)
        f.removeResultAttr(i, StringAttr::get(ctx, "onnx.name"));
      if (f->hasAttr("llvm.emit_c_interface"))
        for (unsigned i = 0; i < f.getNumArguments(); ++i)
          f.setArgAttr(i, "bufferization.writable", BoolAttr::get(ctx, false));
    });
  }
};

} // namespace

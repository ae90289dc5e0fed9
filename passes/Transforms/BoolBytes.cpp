//===- BoolBytes.cpp - The --onnxc-bool-bytes pass ------------------------===//
//
// A bool tensor holds one byte per element (0 or 1), and the lowered code
// loads and stores its elements as i1. LLVM cannot widen an i1 access into
// a vector one (a <16 x i1> in memory is 2 bytes of bits, not 16 bytes), so
// a loop writing a bool output (a comparison, Dropout's mask) stays scalar.
// Storing zext(v) as an i8, and loading an i8 and truncating it, is the
// same memory and vectorizes.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_BOOLBYTES
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

struct BoolBytesPass : public onnxc::impl::BoolBytesBase<BoolBytesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Type i1 = IntegerType::get(ctx, 1), i8 = IntegerType::get(ctx, 8);
    SmallVector<LLVM::StoreOp> stores;
    SmallVector<LLVM::LoadOp> loads;
    getOperation().walk([&](Operation *op) {
      if (auto s = dyn_cast<LLVM::StoreOp>(op)) {
        if (s.getValue().getType() == i1)
          stores.push_back(s);
      } else if (auto l = dyn_cast<LLVM::LoadOp>(op)) {
        if (l.getType() == i1)
          loads.push_back(l);
      }
    });
    for (LLVM::StoreOp s : stores) {
      OpBuilder b(s);
      Value byte = LLVM::ZExtOp::create(b, s.getLoc(), i8, s.getValue());
      s.getValueMutable().assign(byte);
    }
    for (LLVM::LoadOp l : loads) {
      OpBuilder b(l);
      b.setInsertionPointAfter(l);
      l.getResult().setType(i8);
      auto bit = LLVM::TruncOp::create(b, l.getLoc(), i1, l.getResult());
      l.getResult().replaceAllUsesExcept(bit, bit);
    }
  }
};

} // namespace

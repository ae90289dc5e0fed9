//===- MarkAllocator.cpp - The --onnxc-mark-allocator pass ----------------===//
//
// _mlir_memref_to_llvm_alloc(size) -> onnxc_rt_alloc(size, "node 'n' (Op)"):
// a failed allocation names its node. The runtime's allocators return
// fresh memory, as malloc does: say so to LLVM (noalias result), which
// knows it of malloc by name only.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_MARKALLOCATOR
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

constexpr StringLiteral kGenericAlloc = "_mlir_memref_to_llvm_alloc";
constexpr StringLiteral kSiteAlloc = "onnxc_rt_alloc";

struct MarkAllocatorPass
    : public onnxc::impl::MarkAllocatorBase<MarkAllocatorPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    SmallVector<LLVM::CallOp> calls;
    module.walk([&](LLVM::CallOp call) {
      if (call.getCallee() == kGenericAlloc && call.getNumOperands() == 1)
        calls.push_back(call);
    });
    if (!calls.empty() && !module.lookupSymbol(kSiteAlloc)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto fnTy = LLVM::LLVMFunctionType::get(
          ptrTy, {calls.front().getOperand(0).getType(), ptrTy});
      LLVM::LLVMFuncOp::create(b, module.getLoc(), kSiteAlloc, fnTy);
    }
    for (LLVM::CallOp call : calls) {
      OpBuilder b(call);
      Location loc = call.getLoc();
      std::string label = nodeLabel(loc);
      Value site = label.empty() ? Value(LLVM::ZeroOp::create(b, loc, ptrTy))
                                 : createMessageGlobal(b, loc, label);
      auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kSiteAlloc);
      auto alloc = LLVM::CallOp::create(
          b, loc, fn, ValueRange{call.getOperand(0), site});
      call.getResult().replaceAllUsesWith(alloc.getResult());
      call.erase();
    }
    for (StringRef name :
         {kGenericAlloc.data(), "_mlir_memref_to_llvm_aligned_alloc",
          kSiteAlloc.data()})
      if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
        if (fn.getNumResults() == 1)
          fn.setResultAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(),
                           UnitAttr::get(ctx));
  }
};

} // namespace

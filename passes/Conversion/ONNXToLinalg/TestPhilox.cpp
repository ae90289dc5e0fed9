//===- TestPhilox.cpp - The --onnxc-test-philox pass (test only) ----------===//
//
// Expands `func.call @onnxc_test_philox(c0, c1, c2, c3, k0, k1)` into the
// Philox4x32-10 block that the random ops' lowering emits (Random.cpp), so
// that a lit test can check the block function against published vectors.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Random.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_TESTPHILOX
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;

namespace {

struct TestPhiloxPass : onnxc::impl::TestPhiloxBase<TestPhiloxPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp c) {
      if (c.getCallee() == "onnxc_test_philox")
        calls.push_back(c);
    });
    for (func::CallOp c : calls) {
      if (c.getNumOperands() != 6 || c.getNumResults() != 4) {
        c.emitOpError("@onnxc_test_philox takes 6 i32 and returns 4 i32");
        return signalPassFailure();
      }
      OpBuilder b(c);
      SmallVector<Value> ctr(c.getOperands().take_front(4));
      SmallVector<Value> keys = onnxc::linalg_conv::philoxRoundKeys(
          b, c.getLoc(), c.getOperand(4), c.getOperand(5));
      SmallVector<Value> out =
          onnxc::linalg_conv::buildPhilox4x32(b, c.getLoc(), ctr, keys);
      c.replaceAllUsesWith(out);
      c.erase();
    }
    if (auto decl = module.lookupSymbol<func::FuncOp>("onnxc_test_philox"))
      if (decl.isDeclaration())
        decl.erase();
  }
};

} // namespace

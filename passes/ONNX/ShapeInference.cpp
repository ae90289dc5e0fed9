//===- ShapeInference.cpp - The onnx-shape-inference pass -----------------===//

#include "passes/ONNX/Passes.h"

#include "passes/ONNX/Inference/Inference.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCE
#include "passes/ONNX/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnx-shape-inference"

namespace {
struct ShapeInferencePass
    : public onnxc::impl::ONNXShapeInferenceBase<ShapeInferencePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    std::unique_ptr<InferenceState> state = createInferenceState();
    if (failed(inferRegionTypes(func.getBody(), *state)))
      return signalPassFailure();
    // The function returns what its body now computes.
    auto ret = llvm::dyn_cast<func::ReturnOp>(func.getBody().back().back());
    if (!ret)
      return;
    func.setType(FunctionType::get(&getContext(),
                                   func.getFunctionType().getInputs(),
                                   ret.getOperandTypes()));
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << func.getSymName()
                            << " returns " << func.getFunctionType() << "\n");
  }
};
} // namespace

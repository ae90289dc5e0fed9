//===- RulesTraining.cpp - onnxc's inference rules: training ops ----------===//
//
// ai.onnx.preview.training ops whose libonnx schema has no inference
// function.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::onnxc;

static size_t getNumStrings(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<ArrayAttr>(name);
  return a ? a.size() : 0;
}

/// Gradient-1: the inputs are the values of the tensors named by `xs`, then
/// `zs`; output i is the gradient of `y` with respect to xs[i] and has the
/// type of input i. In the dialect the tensor `y` follows as the last operand
/// (the importer adds it).
static LogicalResult inferGradient(Operation *op, const ONNX::OpInfo &,
                                   InferenceState &) {
  size_t numXs = getNumStrings(op, "xs");
  size_t numZs = getNumStrings(op, "zs");
  if (op->getNumOperands() != numXs + numZs + 1)
    return op->emitOpError()
           << "has " << op->getNumOperands() - 1
           << " inputs but 'xs' and 'zs' name " << numXs + numZs << " tensors";
  if (op->getNumResults() != numXs)
    return op->emitOpError()
           << "has " << op->getNumResults() << " outputs but 'xs' names "
           << numXs << " tensors";
  for (unsigned i = 0; i < numXs; ++i)
    if (failed(refineResult(op, i, op->getOperand(i).getType())))
      return failure();
  return success();
}

void mlir::onnxc::registerTrainingRules(llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.training.Gradient"] = inferGradient;
}

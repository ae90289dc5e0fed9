//===- Math.cpp - Checks of the math ops (matmul, softmax, reductions) ----===//

#include "dialects/ONNX/IR/VerifyUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX::verify;

static LogicalResult verifyGemm(Operation *op) {
  if (failed(checkBool(op, "transA", 0)) || failed(checkBool(op, "transB", 0)) ||
      failed(checkRank(op, 0, 2, 2)) || failed(checkRank(op, 1, 2, 2)) ||
      failed(checkRank(op, 2, 0, 2)))
    return failure();
  // C broadcasts to [M, N] in one direction (the lowering's operands would
  // otherwise disagree, reported in linalg's terms).
  auto ranked = [&](unsigned i) {
    return op->getNumOperands() > i
               ? llvm::dyn_cast<RankedTensorType>(op->getOperand(i).getType())
               : RankedTensorType();
  };
  RankedTensorType a = ranked(0), b = ranked(1), c = ranked(2);
  if (!a || !b || !c)
    return success();
  int64_t mn[2] = {a.getDimSize(getInt(op, "transA", 0) ? 1 : 0),
                   b.getDimSize(getInt(op, "transB", 0) ? 0 : 1)};
  for (int64_t d = 0; d < c.getRank(); ++d) {
    int64_t got = c.getDimSize(d), want = mn[2 - c.getRank() + d];
    if (got != 1 && !ShapedType::isDynamic(got) && !ShapedType::isDynamic(want) &&
        got != want)
      return op->emitOpError()
             << "C has " << got << " in dim " << d << ", which does not broadcast to "
             << (2 - c.getRank() + d == 0 ? "M = " : "N = ") << want;
  }
  return success();
}

static LogicalResult verifyMatMul(Operation *op) {
  if (failed(checkRank(op, 0, 1, INT64_MAX)) ||
      failed(checkRank(op, 1, 1, INT64_MAX)))
    return failure();
  return success();
}

/// Softmax, LogSoftmax, Hardmax, CumSum-like ops with an `axis` over input 0.
static LogicalResult verifyAxisOfInput0(Operation *op) {
  std::optional<int64_t> rank = getRank(op->getOperand(0));
  int64_t dflt = op->getName().getStringRef() == "onnx.Softmax" ||
                         op->getName().getStringRef() == "onnx.LogSoftmax" ||
                         op->getName().getStringRef() == "onnx.Hardmax"
                     ? -1
                     : 0;
  if (!rank || !op->hasAttr("axis"))
    return success();
  return checkAxis(op, "axis", getInt(op, "axis", dflt), std::max<int64_t>(*rank, 1));
}

static LogicalResult verifyReduce(Operation *op) {
  // Axes are an input (opset 18 form): their range is checked by inference
  // once they are known.
  // The axes input is 1-D (a 0-D one crashed the lowering: the fuzzer's
  // campaign of 2026-11-26).
  if (failed(checkBool(op, "keepdims", 1)) ||
      failed(checkBool(op, "noop_with_empty_axes", 0)) ||
      failed(checkRank(op, 1, 1, 1)))
    return failure();
  return success();
}

static LogicalResult verifyArgMinMax(Operation *op) {
  if (failed(checkBool(op, "keepdims", 1)) ||
      failed(checkBool(op, "select_last_index", 0)))
    return failure();
  if (std::optional<int64_t> rank = getRank(op->getOperand(0))) {
    int64_t axis = getInt(op, "axis", 0);
    if (failed(checkAxis(op, "axis", axis, std::max<int64_t>(*rank, 1))))
      return failure();
    // An empty axis has no index to return (ONNX Runtime refuses it too,
    // unless the result is empty: another dim of 0). With another dim
    // dynamic the lowering checks it at run time.
    auto t = llvm::dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    int64_t a = axis < 0 ? axis + *rank : axis;
    bool resultNonEmpty = true;
    if (t)
      for (int64_t d = 0; d < *rank; ++d)
        if (d != a && (t.isDynamicDim(d) || t.getDimSize(d) == 0))
          resultNonEmpty = false;
    if (t && *rank > 0 && !t.isDynamicDim(a) && t.getDimSize(a) == 0 &&
        resultNonEmpty)
      return op->emitOpError() << "axis " << axis
                               << " is empty (dim 0): there is no index to return";
  }
  return success();
}

static LogicalResult verifyMod(Operation *op) {
  if (failed(checkBool(op, "fmod", 0)))
    return failure();
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (t && llvm::isa<FloatType>(t.getElementType()) && getInt(op, "fmod", 0) == 0)
    return op->emitOpError() << "fmod must be 1 for floating-point inputs";
  return success();
}

static LogicalResult verifyEinsum(Operation *op) {
  StringRef eq = getStr(op, "equation", "");
  for (char c : eq)
    if (!(std::isalpha((unsigned char)c) || c == ',' || c == '-' || c == '>' ||
          c == '.' || c == ' '))
      return op->emitOpError() << "equation '" << eq
                               << "' has an invalid character '" << c << "'";
  // An explicit output names each of its letters once (numpy refuses a
  // repeated output subscript: the result would be a diagonal to write).
  size_t arrow = eq.find("->");
  if (arrow != StringRef::npos) {
    bool seen[256] = {};
    for (char c : eq.drop_front(arrow + 2)) {
      if (!std::isalpha((unsigned char)c))
        continue;
      if (seen[(unsigned char)c])
        return op->emitOpError() << "equation '" << eq << "': output subscript '"
                                 << c << "' appears more than once";
      seen[(unsigned char)c] = true;
    }
  }
  return success();
}

void mlir::onnxc::ONNX::verify::registerMathVerifiers(VerifierTable &t) {
  t.add("onnx.Gemm", verifyGemm);
  t.add("onnx.MatMul", verifyMatMul);
  t.add("onnx.MatMulInteger", verifyMatMul);
  for (StringRef n : {"onnx.Softmax", "onnx.LogSoftmax", "onnx.Hardmax",
                      "onnx.LpNormalization"})
    t.add(n, verifyAxisOfInput0);
  for (StringRef n :
       {"onnx.ReduceL1", "onnx.ReduceL2", "onnx.ReduceLogSum",
        "onnx.ReduceLogSumExp", "onnx.ReduceMax", "onnx.ReduceMean",
        "onnx.ReduceMin", "onnx.ReduceProd", "onnx.ReduceSum",
        "onnx.ReduceSumSquare"})
    t.add(n, verifyReduce);
  t.add("onnx.ArgMax", verifyArgMinMax);
  t.add("onnx.ArgMin", verifyArgMinMax);
  t.add("onnx.Mod", verifyMod);
  t.add("onnx.Einsum", verifyEinsum);
}

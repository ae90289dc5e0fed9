//===- RulesLinalg.cpp - Gradients of MatMul and Gemm ---------------------===//
//
// MatMul: Y = A B (batched, broadcast): dA = G B^T, dB = A^T G, summed over
// the batch dims broadcasting stretched; a 1-D operand is a row (A) or a
// column (B) and its gradient is made 1-D again.
// Gemm: Y = alpha A' B' + beta C with A' = A or A^T (transA), B' likewise:
// dA' = alpha G B'^T and dB' = alpha A'^T G, each written as one Gemm of
// the operands as they are stored; dC = beta G summed to C's shape.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

int64_t rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }

/// `v` with its last two dims swapped.
Value transposeLast2(GradientBuilder &gb, Value v) {
  int64_t r = rankOf(v);
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < r; ++i)
    perm.push_back(i);
  std::swap(perm[r - 1], perm[r - 2]);
  return gb.op("Transpose", {v}, {gb.attr("perm", perm)});
}

LogicalResult gradMatMul(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  Value a = op->getOperand(0), b = op->getOperand(1), g = dy[0];
  if (!isa<RankedTensorType>(a.getType()) || !isa<RankedTensorType>(b.getType()))
    return op->emitError("autodiff: MatMul of unranked operands");
  bool a1 = rankOf(a) == 1, b1 = rankOf(b) == 1;
  if (a1 && b1) { // a dot product: g is a scalar
    accumulate(gb, grads, a, gb.mul(g, b));
    accumulate(gb, grads, b, gb.mul(g, a));
    return success();
  }
  Value a2 = a, b2 = b, g2 = g;
  if (a1) {
    a2 = gb.op("Unsqueeze", {a, gb.i64s({0})});
    g2 = gb.op("Unsqueeze", {g2, gb.i64s({-2})});
  }
  if (b1) {
    b2 = gb.op("Unsqueeze", {b, gb.i64s({1})});
    g2 = gb.op("Unsqueeze", {g2, gb.i64s({-1})});
  }
  Value da = gb.op("MatMul", {g2, transposeLast2(gb, b2)});
  Value db = gb.op("MatMul", {transposeLast2(gb, a2), g2});
  // Summed over the batch dims broadcasting added, then a 1-D operand's
  // unit dim dropped again.
  da = gb.sumToShapeOf(da, a2);
  db = gb.sumToShapeOf(db, b2);
  if (a1)
    da = gb.op("Squeeze", {da, gb.i64s({0})});
  if (b1)
    db = gb.op("Squeeze", {db, gb.i64s({1})});
  accumulate(gb, grads, a, da);
  accumulate(gb, grads, b, db);
  return success();
}

LogicalResult gradGemm(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                       InputGrads &grads) {
  Value a = op->getOperand(0), b = op->getOperand(1), g = dy[0];
  int64_t transA = getIntAttr(op, "transA", 0);
  int64_t transB = getIntAttr(op, "transB", 0);
  auto alphaAttr = op->getAttrOfType<FloatAttr>("alpha");
  auto betaAttr = op->getAttrOfType<FloatAttr>("beta");
  float alpha = alphaAttr ? alphaAttr.getValueAsDouble() : 1.0f;
  float beta = betaAttr ? betaAttr.getValueAsDouble() : 1.0f;
  auto gemm = [&](Value p, Value q, int64_t tp, int64_t tq) {
    return gb.op("Gemm", {p, q, gb.none()},
                 {gb.attr("alpha", alpha), gb.attr("transA", tp),
                  gb.attr("transB", tq)});
  };
  // dA = alpha G B'^T (transA = 0) or alpha B' G^T (transA = 1).
  Value da = transA ? gemm(b, g, transB, 1) : gemm(g, b, 0, 1 - transB);
  // dB = alpha A'^T G (transB = 0) or alpha G^T A' (transB = 1).
  Value db = transB ? gemm(g, a, 1, transA) : gemm(a, g, 1 - transA, 0);
  accumulate(gb, grads, a, da);
  accumulate(gb, grads, b, db);
  if (op->getNumOperands() > 2 && !isa<NoneType>(op->getOperand(2).getType())) {
    Value c = op->getOperand(2);
    Value dc = beta == 1.0f ? g
                            : gb.mul(g, gb.scalar(beta, getElementTypeOrSelf(
                                                            g.getType())));
    accumulate(gb, grads, c, gb.sumToShapeOf(dc, c));
  }
  return success();
}

} // namespace

void autodiff::registerLinalgGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.MatMul"] = gradMatMul;
  rules["onnx.Gemm"] = gradGemm;
}

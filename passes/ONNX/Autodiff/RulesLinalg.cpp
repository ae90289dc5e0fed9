//===- RulesLinalg.cpp - Gradients of MatMul and Gemm ---------------------===//
//
// MatMul: Y = A B (batched, broadcast): dA = G B^T, dB = A^T G, summed over
// the batch dims broadcasting stretched; a 1-D operand is a row (A) or a
// column (B) and its gradient is made 1-D again.
// Gemm: Y = alpha A' B' + beta C with A' = A or A^T (transA), B' likewise:
// dA' = alpha G B'^T and dB' = alpha A'^T G, each written as one Gemm of
// the operands as they are stored; dC = beta G summed to C's shape.
// Einsum "t_0,...,t_n->o": the gradient of operand k is the Einsum
// "o,t_j (j != k)->t_k" of G and the other operands, where t_k drops the
// labels no other term has (summed within operand k alone: the gradient is
// broadcast along them, Unsqueeze + Expand); "..." is kept, and the
// broadcasting it did is summed back (sumToShapeOf). An operand whose term
// repeats a label (a diagonal) gets no gradient (an error when it needs one).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

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

/// One einsum term: its labels in order, "..." as '.'.
SmallVector<char> parseTerm(StringRef term) {
  SmallVector<char> labels;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.substr(i).starts_with("...")) {
      labels.push_back('.');
      i += 2;
    } else if (term[i] != ' ') {
      labels.push_back(term[i]);
    }
  }
  return labels;
}

std::string termString(ArrayRef<char> labels) {
  std::string s;
  for (char c : labels)
    s += c == '.' ? std::string("...") : std::string(1, c);
  return s;
}

LogicalResult gradEinsum(Operation *op, ArrayRef<Value> dy, GradientBuilder &gb,
                         InputGrads &grads) {
  auto eq = op->getAttrOfType<StringAttr>("equation");
  if (!eq)
    return op->emitError("autodiff: Einsum without an equation");
  StringRef lhs = eq.getValue(), rhs;
  bool explicitOut = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.substr(arrow + 2);
    lhs = lhs.substr(0, arrow);
    explicitOut = true;
  }
  SmallVector<SmallVector<char>> terms;
  SmallVector<StringRef> parts;
  lhs.split(parts, ',');
  for (StringRef t : parts)
    terms.push_back(parseTerm(t));
  if (terms.size() != op->getNumOperands())
    return op->emitError("autodiff: Einsum equation and operands differ");
  SmallVector<char> out;
  if (explicitOut) {
    out = parseTerm(rhs);
  } else {
    // "..." first, then the labels seen once, sorted (as the lowering).
    std::map<char, int> count;
    bool ellipsis = false;
    for (auto &t : terms)
      for (char c : t)
        c == '.' ? (void)(ellipsis = true) : (void)++count[c];
    if (ellipsis)
      out.push_back('.');
    for (auto [c, n] : count)
      if (n == 1)
        out.push_back(c);
  }
  // Ranks: "..." spans rank - letters dims; the widest is the result's.
  int64_t ellipsisRank = 0;
  for (auto [k, t] : llvm::enumerate(terms)) {
    auto tt = dyn_cast<RankedTensorType>(op->getOperand(k).getType());
    if (!tt)
      return op->emitError("autodiff: Einsum of an unranked operand");
    if (llvm::is_contained(t, '.'))
      ellipsisRank = std::max<int64_t>(ellipsisRank,
                                       tt.getRank() - (int64_t)t.size() + 1);
  }
  for (auto [k, t] : llvm::enumerate(terms)) {
    Value x = op->getOperand(k);
    if (!isa<FloatType>(getElementTypeOrSelf(x.getType())))
      continue;
    // A diagonal (a label repeated in t_k) gets no gradient: autodiff
    // reports the operand if it needs one.
    llvm::SmallDenseSet<char> seen, elsewhere(out.begin(), out.end());
    if (llvm::any_of(t, [&](char c) { return c != '.' && !seen.insert(c).second; }))
      continue;
    for (auto [j, u] : llvm::enumerate(terms))
      if (j != k)
        elsewhere.insert(u.begin(), u.end());
    // t_k without its lonely labels; their positions in the full layout
    // (with "..." as ellipsisRank dims) for the Unsqueeze.
    SmallVector<char> kept;
    SmallVector<int64_t> lonely;
    int64_t pos = 0;
    for (char c : t) {
      if (c == '.') {
        kept.push_back(c);
        pos += ellipsisRank;
        continue;
      }
      if (elsewhere.contains(c))
        kept.push_back(c);
      else
        lonely.push_back(pos);
      ++pos;
    }
    std::string geq = termString(out);
    SmallVector<Value> operands{dy[0]};
    for (auto [j, u] : llvm::enumerate(terms)) {
      if (j == k)
        continue;
      geq += "," + termString(u);
      operands.push_back(op->getOperand(j));
    }
    geq += "->" + termString(kept);
    Value d = gb.op("Einsum", operands,
                    {gb.b.getNamedAttr("equation", gb.b.getStringAttr(geq))});
    if (!lonely.empty())
      d = gb.op("Expand", {gb.op("Unsqueeze", {d, gb.i64s(lonely)}),
                           gb.shapeOf(x)});
    accumulate(gb, grads, x, gb.sumToShapeOf(d, x));
  }
  return success();
}

} // namespace

void autodiff::registerLinalgGradients(llvm::StringMap<GradientRule> &rules) {
  rules["onnx.MatMul"] = gradMatMul;
  rules["onnx.Gemm"] = gradGemm;
  rules["onnx.Einsum"] = gradEinsum;
}

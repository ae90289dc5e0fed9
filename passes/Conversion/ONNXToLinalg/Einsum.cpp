//===- Einsum.cpp - Einsum -> linalg --------------------------------------===//
//
// Einsum is one contraction generic with a loop per label (output labels
// parallel, the others reductions).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <map>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Parses one einsum term into labels ('a'..'z', 'A'..'Z' as themselves,
/// the dims of "..." as 256 + j, right-aligned to `ellipsisRank`). `rank` is
/// the operand's rank (-1 for the output, whose "..." has ellipsisRank
/// dims). Returns false on a malformed term.
bool parseTerm(StringRef term, int64_t rank, int64_t ellipsisRank,
               SmallVectorImpl<int> &labels, int64_t &ellipsisDims) {
  size_t dots = term.find("...");
  int64_t letters = 0;
  for (char ch : term)
    if (ch != '.' && ch != ' ') {
      if (!llvm::isAlpha(ch))
        return false;
      ++letters;
    }
  ellipsisDims = 0;
  if (dots != StringRef::npos) {
    if (term.find("...", dots + 3) != StringRef::npos)
      return false;
    ellipsisDims = rank < 0 ? ellipsisRank : rank - letters;
    if (ellipsisDims < 0)
      return false;
  } else if (rank >= 0 && letters != rank) {
    return false;
  }
  for (size_t i = 0; i < term.size(); ++i) {
    char ch = term[i];
    if (ch == ' ')
      continue;
    if (ch == '.') {
      if (i != dots)
        continue;
      for (int64_t j = 0; j < ellipsisDims; ++j)
        labels.push_back(256 + (int)(ellipsisRank - ellipsisDims + j));
      i += 2;
      continue;
    }
    labels.push_back(ch);
  }
  return true;
}

/// Einsum: Output[out labels] = sum over the other labels of the product of
/// the operands at their labels; "..." dims broadcast; a label repeated in
/// one operand takes its diagonal; without "->" the output is "..." then the
/// labels seen once, sorted.
struct EinsumLowering : OpConversionPattern<ONNX::EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    ValueRange inputs = adaptor.getInputs();
    StringRef eq = op.getEquation();
    auto [lhs, rhs] = eq.split("->");
    bool explicitOut = eq.contains("->");
    SmallVector<StringRef> terms;
    lhs.split(terms, ',');
    if (terms.size() != inputs.size())
      return op.emitOpError("equation has ")
             << terms.size() << " operand terms for " << inputs.size()
             << " operands";
    // Operand labels; the ellipsis rank is the largest over the operands.
    SmallVector<SmallVector<int>> labels(inputs.size());
    int64_t ellipsisRank = 0;
    for (auto [i, term] : llvm::enumerate(terms)) {
      int64_t rank = cast<RankedTensorType>(inputs[i].getType()).getRank();
      int64_t letters = llvm::count_if(term, llvm::isAlpha);
      if (term.contains("..."))
        ellipsisRank = std::max(ellipsisRank, rank - letters);
    }
    for (auto [i, term] : llvm::enumerate(terms)) {
      int64_t rank = cast<RankedTensorType>(inputs[i].getType()).getRank();
      int64_t e;
      if (!parseTerm(term, rank, ellipsisRank, labels[i], e))
        return op.emitOpError("malformed equation term '") << term << "'";
    }
    SmallVector<int> outLabels;
    if (explicitOut) {
      int64_t e;
      if (!parseTerm(rhs, -1, ellipsisRank, outLabels, e))
        return op.emitOpError("malformed output term '") << rhs << "'";
    } else {
      for (int64_t j = 0; j < ellipsisRank; ++j)
        outLabels.push_back(256 + j);
      std::map<int, int> counts;
      for (auto &ls : labels)
        for (int l : ls)
          if (l < 256)
            ++counts[l];
      for (auto [l, n] : counts)
        if (n == 1)
          outLabels.push_back(l);
    }
    if ((int64_t)outLabels.size() != type.getRank())
      return op.emitOpError("output term does not match the result rank");
    // Loops: the output labels, then the others in order of appearance.
    SmallVector<int> loops(outLabels);
    for (auto &ls : labels)
      for (int l : ls)
        if (!llvm::is_contained(loops, l))
          loops.push_back(l);
    auto loopOf = [&](int l) {
      return (unsigned)(llvm::find(loops, l) - loops.begin());
    };
    // The size of each label: from an operand dim that is not a static 1.
    DenseMap<int, std::pair<unsigned, unsigned>> source;
    DenseMap<int, int64_t> staticSize;
    for (auto [i, ls] : llvm::enumerate(labels)) {
      auto t = cast<RankedTensorType>(inputs[i].getType());
      for (auto [d, l] : llvm::enumerate(ls)) {
        int64_t s = t.getDimSize(d);
        if (!source.count(l) || (staticSize[l] == 1 && s != 1)) {
          source[l] = {(unsigned)i, (unsigned)d};
          staticSize[l] = s;
        }
      }
    }
    for (int l : outLabels)
      if (!source.count(l))
        return op.emitOpError("output label without an operand dim");
    SmallVector<AffineMap> maps;
    for (auto [i, ls] : llvm::enumerate(labels)) {
      auto t = cast<RankedTensorType>(inputs[i].getType());
      SmallVector<AffineExpr> e;
      for (auto [d, l] : llvm::enumerate(ls))
        e.push_back(t.getDimSize(d) == 1 && staticSize[l] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(loopOf(l), ctx));
      maps.push_back(AffineMap::get(loops.size(), 0, e, ctx));
    }
    SmallVector<AffineExpr> oe;
    for (int l : outLabels)
      oe.push_back(getAffineDimExpr(loopOf(l), ctx));
    maps.push_back(AffineMap::get(loops.size(), 0, oe, ctx));
    SmallVector<Value> sizes;
    for (int l : outLabels) {
      auto [i, d] = source[l];
      sizes.push_back(getDimValue(rewriter, loc, inputs[i], d));
    }
    Type elt = type.getElementType();
    Value empty = createEmpty(rewriter, loc, type, sizes);
    Value zero = createScalarConstant(rewriter, loc, elt, 0);
    Value init =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    SmallVector<utils::IteratorType> iters =
        parallelIterators(outLabels.size());
    iters.append(loops.size() - outLabels.size(),
                 utils::IteratorType::reduction);
    bool f = isFloat(elt);
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{type}, inputs, ValueRange{init},
                  maps, iters,
                  [&](OpBuilder &b, Location l, ValueRange args) {
                    Value p = args[0];
                    for (Value a : args.drop_front().drop_back())
                      p = f ? Value(arith::MulFOp::create(b, l, p, a))
                            : Value(arith::MulIOp::create(b, l, p, a));
                    Value r =
                        f ? Value(arith::AddFOp::create(b, l, args.back(), p))
                          : Value(arith::AddIOp::create(b, l, args.back(), p));
                    linalg::YieldOp::create(b, l, r);
                  })
                  .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateEinsumPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<EinsumLowering>(tc, patterns.getContext());
}

//===- NNMisc.cpp - DepthToSpace, SpaceToDepth, Einsum -> linalg ---------===//
//
// DepthToSpace and SpaceToDepth are one copy generic each whose input map
// splits and merges dims with floordiv/mod (by the channel count too, for
// SpaceToDepth); with a dynamic channel dim the channels are split by an
// expand_shape (DepthToSpace) or merged by a collapse_shape (SpaceToDepth)
// instead, so that the maps stay affine, and the sizes that static shapes
// check at compile time are checked at run time. Einsum is one contraction
// generic with a loop per label (output labels parallel, the others
// reductions). Dropout is in Random.cpp.
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

/// A generic copying `input` into `type` through the input map `map`.
Value copyWithMap(OpBuilder &b, Location loc, Value input,
                  RankedTensorType type, ArrayRef<Value> sizes, AffineMap map) {
  int64_t rank = type.getRank();
  Value init = createEmpty(b, loc, type, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
             SmallVector<AffineMap>{map, b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// The checks DepthToSpace and SpaceToDepth share: a 4-D input and a
/// positive blocksize.
LogicalResult checkBlockInput(Operation *op, RankedTensorType xt, int64_t bs) {
  if (xt.getRank() != 4)
    return op->emitOpError("input must be 4-D (N, C, H, W)");
  if (bs <= 0)
    return op->emitOpError("blocksize must be positive");
  return success();
}

/// DepthToSpace (N, C, H, W) -> (N, C/b^2, H*b, W*b):
///   DCR: Y[n, c, h, w] = X[n, ((h%b)*b + w%b)*C/b^2 + c, h/b, w/b];
///   CRD: Y[n, c, h, w] = X[n, c*b^2 + (h%b)*b + w%b, h/b, w/b].
struct DepthToSpaceLowering : OpConversionPattern<ONNX::DepthToSpaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DepthToSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t bs = op.getBlocksize();
    if (failed(checkBlockInput(op, xt, bs)))
      return failure();
    StringRef mode = op.getMode();
    if (mode != "DCR" && mode != "CRD")
      return op.emitOpError("unsupported mode '") << mode << "'";
    int64_t c = xt.getDimSize(1);
    if (!ShapedType::isDynamic(c) && c % (bs * bs) != 0)
      return op.emitOpError("the channel dim must be a multiple of "
                            "blocksize^2");
    AffineExpr n = getAffineDimExpr(0, ctx), co = getAffineDimExpr(1, ctx),
               h = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
    if (ShapedType::isDynamic(c)) {
      // C = b*b*C' checked at run time; X split into (N, b, b, C', H, W)
      // (DCR) or (N, C', b, b, H, W) (CRD) and read with affine maps.
      Value cv = getDimValue(rewriter, loc, x, 1);
      Value bb = createIndexConstant(rewriter, loc, bs * bs);
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                arith::RemSIOp::create(rewriter, loc, cv, bb),
                                createIndexConstant(rewriter, loc, 0)),
          "DepthToSpace: the channel dim must be a multiple of blocksize^2");
      Value cOut = arith::DivSIOp::create(rewriter, loc, cv, bb);
      if (!type.isDynamicDim(1))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq, cOut,
                createIndexConstant(rewriter, loc, type.getDimSize(1))),
            "DepthToSpace: the result dims do not match the inferred type");
      bool dcr = mode == "DCR";
      int64_t dyn = ShapedType::kDynamic;
      SmallVector<int64_t> shape = {xt.getDimSize(0)};
      SmallVector<OpFoldResult> outShape = {getDimOFR(rewriter, loc, x, 0)};
      SmallVector<int64_t> split = dcr ? SmallVector<int64_t>{bs, bs, dyn}
                                       : SmallVector<int64_t>{dyn, bs, bs};
      for (int64_t v : split) {
        shape.push_back(v);
        outShape.push_back(ShapedType::isDynamic(v)
                               ? OpFoldResult(cOut)
                               : OpFoldResult(rewriter.getIndexAttr(v)));
      }
      for (int64_t i = 2; i < 4; ++i) {
        shape.push_back(xt.getDimSize(i));
        outShape.push_back(getDimOFR(rewriter, loc, x, i));
      }
      Value x6 = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, xt.getElementType()), x,
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}},
          outShape);
      SmallVector<AffineExpr> in = {n};
      if (dcr)
        in.append({h % bs, w % bs, co});
      else
        in.append({co, h % bs, w % bs});
      in.append({h.floorDiv(bs), w.floorDiv(bs)});
      SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0), cOut};
      for (int64_t i = 2; i < 4; ++i)
        sizes.push_back(arith::MulIOp::create(
            rewriter, loc, getDimValue(rewriter, loc, x, i),
            createIndexConstant(rewriter, loc, bs)));
      rewriter.replaceOp(op, copyWithMap(rewriter, loc, x6, type, sizes,
                                         AffineMap::get(4, 0, in, ctx)));
      return success();
    }
    int64_t cOut = c / (bs * bs);
    AffineExpr block = (h % bs) * bs + (w % bs);
    AffineExpr ci = mode == "DCR" ? block * cOut + co : co * (bs * bs) + block;
    AffineMap map =
        AffineMap::get(4, 0, {n, ci, h.floorDiv(bs), w.floorDiv(bs)}, ctx);
    SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0),
                                createIndexConstant(rewriter, loc, cOut)};
    for (int64_t i = 2; i < 4; ++i)
      sizes.push_back(
          arith::MulIOp::create(rewriter, loc, getDimValue(rewriter, loc, x, i),
                                createIndexConstant(rewriter, loc, bs)));
    rewriter.replaceOp(op, copyWithMap(rewriter, loc, x, type, sizes, map));
    return success();
  }
};

/// SpaceToDepth (N, C, H, W) -> (N, C*b^2, H/b, W/b):
///   Y[n, (bh*b + bw)*C + c, h, w] = X[n, c, h*b + bh, w*b + bw].
struct SpaceToDepthLowering : OpConversionPattern<ONNX::SpaceToDepthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SpaceToDepthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t bs = op.getBlocksize();
    if (failed(checkBlockInput(op, xt, bs)))
      return failure();
    int64_t c = xt.getDimSize(1);
    for (int64_t i = 2; i < 4; ++i)
      if (!xt.isDynamicDim(i) && xt.getDimSize(i) % bs != 0)
        return op.emitOpError("spatial dims must be multiples of blocksize");
    for (int64_t i = 2; i < 4; ++i)
      if (xt.isDynamicDim(i))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq,
                arith::RemSIOp::create(rewriter, loc,
                                       getDimValue(rewriter, loc, x, i),
                                       createIndexConstant(rewriter, loc, bs)),
                createIndexConstant(rewriter, loc, 0)),
            "SpaceToDepth: spatial dims must be multiples of blocksize");
    AffineExpr n = getAffineDimExpr(0, ctx), co = getAffineDimExpr(1, ctx),
               h = getAffineDimExpr(2, ctx), w = getAffineDimExpr(3, ctx);
    if (ShapedType::isDynamic(c)) {
      // Y6[n, bh, bw, c, h, w] = X[n, c, h*b + bh, w*b + bw] over the
      // output split as (N, b, b, C, H/b, W/b), its channel dims merged.
      AffineExpr bh = getAffineDimExpr(1, ctx), bw = getAffineDimExpr(2, ctx),
                 ci = getAffineDimExpr(3, ctx), h6 = getAffineDimExpr(4, ctx),
                 w6 = getAffineDimExpr(5, ctx);
      AffineMap map =
          AffineMap::get(6, 0, {n, ci, h6 * bs + bh, w6 * bs + bw}, ctx);
      auto dimOrDyn = [&](int64_t i, bool div) {
        int64_t d = xt.getDimSize(i);
        return ShapedType::isDynamic(d) ? d : (div ? d / bs : d);
      };
      int64_t dyn = ShapedType::kDynamic;
      auto type6 = RankedTensorType::get({dimOrDyn(0, false), bs, bs, dyn,
                                          dimOrDyn(2, true), dimOrDyn(3, true)},
                                         xt.getElementType());
      SmallVector<Value> sizes = {getDimValue(rewriter, loc, x, 0), Value(),
                                  Value(), getDimValue(rewriter, loc, x, 1)};
      for (int64_t i = 2; i < 4; ++i)
        sizes.push_back(arith::DivSIOp::create(
            rewriter, loc, getDimValue(rewriter, loc, x, i),
            createIndexConstant(rewriter, loc, bs)));
      Value y6 = copyWithMap(rewriter, loc, x, type6, sizes, map);
      Value y = tensor::CollapseShapeOp::create(
          rewriter, loc, y6,
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}});
      if (!type.isDynamicDim(1))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq,
                tensor::DimOp::create(rewriter, loc, y, 1),
                createIndexConstant(rewriter, loc, type.getDimSize(1))),
            "SpaceToDepth: the result dims do not match the inferred type");
      if (y.getType() != type)
        y = tensor::CastOp::create(rewriter, loc, type, y);
      rewriter.replaceOp(op, y);
      return success();
    }
    AffineExpr block = co.floorDiv(c);
    AffineMap map = AffineMap::get(
        4, 0, {n, co % c, h * bs + block.floorDiv(bs), w * bs + block % bs},
        ctx);
    SmallVector<Value> sizes = {
        getDimValue(rewriter, loc, x, 0),
        createIndexConstant(rewriter, loc, c * bs * bs)};
    for (int64_t i = 2; i < 4; ++i)
      sizes.push_back(arith::DivSIOp::create(
          rewriter, loc, getDimValue(rewriter, loc, x, i),
          createIndexConstant(rewriter, loc, bs)));
    rewriter.replaceOp(op, copyWithMap(rewriter, loc, x, type, sizes, map));
    return success();
  }
};

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

void mlir::onnxc::populateNNMiscPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<DepthToSpaceLowering, SpaceToDepthLowering, EinsumLowering>(
      tc, patterns.getContext());
}

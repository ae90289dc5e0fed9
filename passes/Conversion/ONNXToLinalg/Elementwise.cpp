//===- Elementwise.cpp - Broadcasting elementwise ops -> linalg -----------===//
//
// One linalg.generic per op: operands whose dims are known to match the
// result (static, or the same symbolic name) are indexed by affine maps
// (constant 0 for a static broadcast dim); an operand with a dynamic dim
// that may be 1 at run time is read with tensor.extract through a select,
// after a run-time check that the dims broadcast.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace mlir::onnxc::linalg_conv {

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

namespace {
/// How one operand dim maps to the iteration space.
enum class DimKind { Identity, Broadcast, Dynamic };
} // namespace

/// The operand dim aligned (from the right) with result dim `k`, or -1.
static int64_t alignedDim(Value in, int64_t k, int64_t resultRank) {
  if (!in)
    return -1;
  int64_t j = k - (resultRank - cast<RankedTensorType>(in.getType()).getRank());
  return j;
}

static DimKind classify(ArrayRef<Value> inputs, ArrayRef<Value> origInputs,
                        Value origResult, RankedTensorType resultType,
                        unsigned i, int64_t k, bool explicitSizes) {
  int64_t rank = resultType.getRank();
  auto t = cast<RankedTensorType>(inputs[i].getType());
  int64_t j = alignedDim(inputs[i], k, rank);
  int64_t out = resultType.getDimSize(k);
  if (!t.isDynamicDim(j))
    return (t.getDimSize(j) == 1 && out != 1) ? DimKind::Broadcast
                                               : DimKind::Identity;
  if (out == 1)
    return DimKind::Identity;
  StringRef name = dimName(origInputs[i], j);
  if (!name.empty() && name == dimName(origResult, k))
    return DimKind::Identity;
  if (explicitSizes)
    return DimKind::Dynamic;
  // Alone in setting the result dim: the result dim is this dim.
  for (unsigned o = 0; o < inputs.size(); ++o) {
    if (o == i || !inputs[o])
      continue;
    int64_t jo = alignedDim(inputs[o], k, rank);
    if (jo < 0)
      continue;
    auto to = cast<RankedTensorType>(inputs[o].getType());
    if (to.getDimSize(jo) == 1)
      continue;
    StringRef other = dimName(origInputs[o], jo);
    if (to.isDynamicDim(jo) && !name.empty() && other == name)
      continue; // the same symbolic dim
    return DimKind::Dynamic;
  }
  return DimKind::Identity;
}

SmallVector<Value> broadcastSizes(OpBuilder &b, Location loc,
                                  ArrayRef<Value> inputs,
                                  ArrayRef<Value> origInputs, Value origResult,
                                  RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  SmallVector<Value> sizes;
  for (int64_t k = 0; k < rank; ++k) {
    if (!resultType.isDynamicDim(k)) {
      sizes.push_back(Value());
      continue;
    }
    // Candidates: operand dims that are not static 1.
    SmallVector<std::pair<unsigned, int64_t>> cands;
    StringRef outName = dimName(origResult, k);
    Value named;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      int64_t j = alignedDim(inputs[i], k, rank);
      if (j < 0)
        continue;
      auto t = cast<RankedTensorType>(inputs[i].getType());
      if (t.getDimSize(j) == 1)
        continue;
      cands.push_back({i, j});
      if (!named && !outName.empty() && dimName(origInputs[i], j) == outName)
        named = tensor::DimOp::create(b, loc, inputs[i], j);
    }
    if (cands.empty()) {
      sizes.push_back(createIndexConstant(b, loc, 1));
      continue;
    }
    // Dims with the result's name are equal to it; others are checked.
    Value size = named ? named
                       : getDimValue(b, loc, inputs[cands[0].first],
                                     cands[0].second);
    Value one = createIndexConstant(b, loc, 1);
    for (auto [n, cand] : llvm::enumerate(cands)) {
      auto [i, j] = cand;
      if ((!named && n == 0) ||
          (!outName.empty() && dimName(origInputs[i], j) == outName))
        continue;
      Value d = getDimValue(b, loc, inputs[i], j);
      Value sizeIsOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
      size = arith::SelectOp::create(b, loc, sizeIsOne, d, size);
      Value dIsOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, one);
      Value same =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, size);
      Value ok = arith::OrIOp::create(b, loc, dIsOne, same);
      emitRuntimeCheck(b, loc, ok,
                       "operands do not broadcast: incompatible dims");
    }
    sizes.push_back(size);
  }
  return sizes;
}

Value buildElementwise(OpBuilder &b, Location loc, Operation *op,
                       ArrayRef<Value> inputs, ArrayRef<Value> origInputs,
                       Value origResult, RankedTensorType resultType,
                       const ScalarFn &fn, ArrayRef<Value> resultSizes) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = resultType.getRank();
  SmallVector<Value> sizes =
      resultSizes.empty()
          ? broadcastSizes(b, loc, inputs, origInputs, origResult, resultType)
          : SmallVector<Value>(resultSizes);
  Value init = createEmpty(b, loc, resultType, sizes);

  // Operands indexed by affine maps go in `ins`; those with a dim that may
  // be 1 at run time are read with tensor.extract inside the body.
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  SmallVector<int> insIndex(inputs.size(), -1);
  SmallVector<SmallVector<DimKind>> kinds(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (!inputs[i])
      continue;
    auto t = cast<RankedTensorType>(inputs[i].getType());
    bool dynamic = false;
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < t.getRank(); ++j) {
      int64_t k = j + rank - t.getRank();
      DimKind kind = classify(inputs, origInputs, origResult, resultType, i, k,
                              !resultSizes.empty());
      kinds[i].push_back(kind);
      dynamic |= kind == DimKind::Dynamic;
      exprs.push_back(kind == DimKind::Broadcast ? getAffineConstantExpr(0, ctx)
                                                 : getAffineDimExpr(k, ctx));
    }
    if (dynamic)
      continue;
    insIndex[i] = ins.size();
    ins.push_back(inputs[i]);
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));

  // Per dynamic-kind dim: whether the operand dim is 1 (computed outside).
  SmallVector<SmallVector<Value>> isOne(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (!inputs[i] || insIndex[i] >= 0)
      continue;
    for (auto [j, kind] : llvm::enumerate(kinds[i])) {
      Value v;
      if (kind == DimKind::Dynamic) {
        // Sequenced, not as call arguments: the IR's order must not depend
        // on the C++ compiler's order of evaluating them.
        Value one = createIndexConstant(b, loc, 1);
        Value dim = tensor::DimOp::create(b, loc, inputs[i], j);
        v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim, one);
      }
      isOne[i].push_back(v);
    }
  }

  SmallVector<Type> onnxTypes;
  for (Value v : origInputs)
    onnxTypes.push_back(v ? getElementType(v) : Type());
  Type onnxResultType = getElementType(origResult);

  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ins, ValueRange{init}, maps,
      parallelIterators(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange blockArgs) {
        SmallVector<Value> args;
        for (unsigned i = 0; i < inputs.size(); ++i) {
          if (!inputs[i]) {
            args.push_back(Value());
            continue;
          }
          if (insIndex[i] >= 0) {
            args.push_back(blockArgs[insIndex[i]]);
            continue;
          }
          auto t = cast<RankedTensorType>(inputs[i].getType());
          SmallVector<Value> idx;
          Value zero = createIndexConstant(nb, nloc, 0);
          for (int64_t j = 0; j < t.getRank(); ++j) {
            int64_t k = j + rank - t.getRank();
            if (kinds[i][j] == DimKind::Broadcast) {
              idx.push_back(zero);
              continue;
            }
            Value iv = linalg::IndexOp::create(nb, nloc, k);
            if (kinds[i][j] == DimKind::Dynamic)
              iv = arith::SelectOp::create(nb, nloc, isOne[i][j], zero, iv);
            idx.push_back(iv);
          }
          args.push_back(tensor::ExtractOp::create(nb, nloc, inputs[i], idx));
        }
        ScalarContext sc{nb,        nloc,           op,
                         args,      onnxTypes,      onnxResultType,
                         resultType.getElementType()};
        Value r = fn(sc);
        linalg::YieldOp::create(nb, nloc, r);
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// ElementwiseLowering
//===----------------------------------------------------------------------===//

ElementwiseLowering::ElementwiseLowering(TypeConverter &tc, MLIRContext *ctx,
                                         StringRef opName, ScalarFn fn,
                                         CheckFn check, unsigned numInputs)
    : ConversionPattern(tc, opName, /*benefit=*/1, ctx), fn(std::move(fn)),
      check(std::move(check)), numInputs(numInputs) {}

LogicalResult ElementwiseLowering::matchAndRewrite(
    Operation *op, ArrayRef<Value> operands,
    ConversionPatternRewriter &rewriter) const {
  if (check && failed(check(op)))
    return failure();
  auto resultType = dyn_cast_or_null<RankedTensorType>(
      getTypeConverter()->convertType(op->getResult(0).getType()));
  if (!resultType)
    return op->emitOpError("result type has no conversion");
  SmallVector<Value> inputs, origInputs;
  for (auto [orig, conv] :
       llvm::zip(op->getOperands().take_front(
                     std::min<unsigned>(numInputs, op->getNumOperands())),
                 operands)) {
    bool absent = isa<NoneType>(orig.getType());
    inputs.push_back(absent ? Value() : conv);
    origInputs.push_back(absent ? Value() : orig);
  }
  Value result = buildElementwise(rewriter, op->getLoc(), op, inputs,
                                  origInputs, op->getResult(0), resultType, fn);
  rewriter.replaceOp(op, result);
  return success();
}

void ElementwisePatterns::add(StringRef opName, ScalarFn fn,
                              ElementwiseLowering::CheckFn check,
                              unsigned numInputs) {
  patterns.add<ElementwiseLowering>(tc, patterns.getContext(), opName,
                                    std::move(fn), std::move(check), numInputs);
}

//===----------------------------------------------------------------------===//
// Scalar pieces of the bodies
//===----------------------------------------------------------------------===//

Value applyKind(const BinaryKinds &k, ScalarContext &c, Type onnxType, Value x,
                Value y) {
  if (isFloat(x.getType()))
    return k.f(c.b, c.loc, x, y);
  if (isUnsignedInt(onnxType))
    return k.ui(c.b, c.loc, x, y);
  return k.si(c.b, c.loc, x, y);
}

ScalarFn foldAll(BinaryKinds k) {
  return [k](ScalarContext &c) -> Value {
    Value r = c.args[0];
    for (Value v : c.args.drop_front())
      r = applyKind(k, c, c.onnxTypes[0], r, v);
    return r;
  };
}

double floatAttr(Operation *op, StringRef name, double dflt) {
  if (auto a = op->getAttrOfType<FloatAttr>(name))
    return a.getValueAsDouble();
  return dflt;
}

} // namespace mlir::onnxc::linalg_conv

//===- Loss.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ------===//
//
// Both losses end in the same gather (buildNLL): for input [N, C, d1..dk]
// and labels [N, d1..dk], loss[n, d] = -input[n, label[n, d], d] *
// weight[label[n, d]] (weight 1 without the weight input), 0 where the label
// is ignore_index. A first pass over the labels checks that every label
// other than ignore_index lies in [0, C) and calls onnxc_rt_fail otherwise,
// so no read leaves the input or the weights. reduction "none" makes the
// gather one parallel linalg.generic over the labels' shape; "sum" and
// "mean" make it one all-reduction generic into two scalars (the summed
// loss and the summed applied weights, in f32 for half types), and "mean"
// divides the first by the second: ignored labels count in neither.
// SoftmaxCrossEntropyLoss feeds the gather with LogSoftmax over axis 1
// (in f32 for half types), created as an onnx.LogSoftmax that this
// conversion then lowers with the Softmax family's pattern, and returns
// that tensor as log_prob.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

enum class LossReduction { None, Sum, Mean };

/// What a loss op hands to the shared gather; the names are the op's own
/// operand names, for its messages.
struct LossOperands {
  StringRef opName;
  StringRef inputName, targetName;
  Value input;  // [N, C, d1..dk], float
  Value target; // [N, d1..dk], i32 or i64
  Value weight; // [C] or null
  std::optional<int64_t> ignoreIndex;
  LossReduction reduction;
};

FailureOr<LossReduction> parseReduction(Operation *op, StringRef r) {
  if (r == "none")
    return LossReduction::None;
  if (r == "sum")
    return LossReduction::Sum;
  if (r == "mean")
    return LossReduction::Mean;
  return op->emitOpError("reduction must be 'none', 'sum' or 'mean', not '")
         << r << "'";
}

/// The checks that need no run time: ranks, static dims that disagree and
/// the result rank. Done before anything is built.
LogicalResult verifyLoss(Operation *op, const LossOperands &l,
                         RankedTensorType resultType) {
  auto in = cast<RankedTensorType>(l.input.getType());
  auto tt = cast<RankedTensorType>(l.target.getType());
  int64_t rank = in.getRank();
  if (rank < 2)
    return op->emitOpError() << l.inputName
                             << " must have rank 2 or more (N, C, d1, ...)";
  if (tt.getRank() != rank - 1)
    return op->emitOpError() << l.targetName << " must have rank " << rank - 1
                             << " (the rank of " << l.inputName
                             << " without C), not " << tt.getRank();
  for (int64_t j = 0; j < rank - 1; ++j) {
    int64_t d = j == 0 ? 0 : j + 1;
    if (!tt.isDynamicDim(j) && !in.isDynamicDim(d) &&
        tt.getDimSize(j) != in.getDimSize(d))
      return op->emitOpError() << l.targetName << " dim " << j << " ("
                               << tt.getDimSize(j) << ") differs from "
                               << l.inputName << " dim " << d << " ("
                               << in.getDimSize(d) << ")";
  }
  if (l.weight) {
    auto wt = cast<RankedTensorType>(l.weight.getType());
    if (wt.getRank() != 1)
      return op->emitOpError("weights must be 1-D (one per class)");
    if (!wt.isDynamicDim(0) && !in.isDynamicDim(1) &&
        wt.getDimSize(0) != in.getDimSize(1))
      return op->emitOpError() << "weights have " << wt.getDimSize(0)
                               << " elements for " << in.getDimSize(1)
                               << " classes";
  }
  int64_t want = l.reduction == LossReduction::None ? rank - 1 : 0;
  if (resultType.getRank() != want)
    return op->emitOpError() << "result must have rank " << want
                             << " for this reduction, not "
                             << resultType.getRank();
  return success();
}

/// NLL's reads: whether a label is ignore_index, and the gathered loss and
/// weight at the current position of a generic over the target.
struct NLLReader {
  const LossOperands &l;
  int64_t rank;

  /// `label == ignore_index`, compared in i64 (an i32 label never equals an
  /// ignore_index outside the i32 range); null without ignore_index.
  Value isIgnored(OpBuilder &nb, Location nl, Value label) const {
    if (!l.ignoreIndex)
      return Value();
    Type i64 = nb.getI64Type();
    Value wide = label.getType() == i64
                     ? label
                     : Value(arith::ExtSIOp::create(nb, nl, i64, label));
    return arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, wide,
                                 createIntConstant(nb, nl, i64,
                                                   *l.ignoreIndex));
  }

  /// The gathered loss and the applied weight at the current position, in
  /// type `t`. An ignored label reads nothing (C may be 0 then).
  std::pair<Value, Value> lossAt(OpBuilder &nb, Location nl, Value label,
                                 Type t) const {
    Value input = l.input, weight = l.weight;
    // linalg.index must sit directly in the generic, outside the scf.if.
    SmallVector<Value> ivs;
    for (int64_t j = 0; j < rank; ++j)
      ivs.push_back(linalg::IndexOp::create(nb, nl, j));
    auto read = [&](OpBuilder &rb, Location rl) -> SmallVector<Value> {
      Value c = toIndex(rb, rl, label);
      SmallVector<Value> pos = {ivs[0], c};
      pos.append(ivs.begin() + 1, ivs.end());
      Value x = convertFloat(
          rb, rl, tensor::ExtractOp::create(rb, rl, input, pos), t);
      Value loss = arith::NegFOp::create(rb, rl, x);
      if (!weight)
        return {loss, createScalarConstant(rb, rl, t, 1)};
      Value w = convertFloat(
          rb, rl, tensor::ExtractOp::create(rb, rl, weight, ValueRange{c}), t);
      return {arith::MulFOp::create(rb, rl, w, loss), w};
    };
    Value ignored = isIgnored(nb, nl, label);
    if (!ignored) {
      SmallVector<Value> r = read(nb, nl);
      return {r[0], r[1]};
    }
    Value zero = createScalarConstant(nb, nl, t, 0);
    auto ifOp = scf::IfOp::create(nb, nl, TypeRange{t, t}, ignored,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(nb);
      nb.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(nb, nl, ValueRange{zero, zero});
      nb.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(nb, nl, read(nb, nl));
    }
    return {ifOp.getResult(0), ifOp.getResult(1)};
  }
};

/// NLL's run-time checks: equal dims where shape inference could not tell,
/// one weight per class, then the labels themselves in [0, C) (or
/// ignore_index).
void checkNLLOperands(OpBuilder &b, Location loc, const LossOperands &l,
                      const NLLReader &rd) {
  Value input = l.input, target = l.target, weight = l.weight;
  auto tt = cast<RankedTensorType>(target.getType());
  int64_t rank = tt.getRank();
  for (int64_t j = 0; j < rank; ++j) {
    int64_t d = j == 0 ? 0 : j + 1;
    if (!tt.isDynamicDim(j) &&
        !cast<RankedTensorType>(input.getType()).isDynamicDim(d))
      continue;
    // One builder call per statement: the IR order must not depend on the
    // compiler's order of evaluating arguments.
    Value inputDim = getDimValue(b, loc, input, d);
    Value targetDim = getDimValue(b, loc, target, j);
    emitRuntimeCheck(b, loc,
                     arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           targetDim, inputDim),
                     (l.opName + ": " + l.targetName + " and " + l.inputName +
                      " dims differ")
                         .str());
  }
  Value classes = getDimValue(b, loc, input, 1);
  if (weight && (cast<RankedTensorType>(weight.getType()).isDynamicDim(0) ||
                 cast<RankedTensorType>(input.getType()).isDynamicDim(1)))
    emitRuntimeCheck(b, loc,
                     arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           getDimValue(b, loc, weight, 0),
                                           classes),
                     (l.opName + ": weights do not have one element per "
                                 "class")
                         .str());
  checkEveryElement(
      b, loc, target,
      (l.opName + ": " + l.targetName + " out of range [0, C)").str(),
      [&](OpBuilder &nb, Location nl, Value label, ValueRange) -> Value {
        Value i = toIndex(nb, nl, label);
        Value below = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt,
                                            i, classes);
        Value zero = createIndexConstant(nb, nl, 0);
        Value nonNegative =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge, i, zero);
        Value ok = arith::AndIOp::create(nb, nl, nonNegative, below);
        if (Value ignored = rd.isIgnored(nb, nl, label))
          ok = arith::OrIOp::create(nb, nl, ok, ignored);
        return ok;
      });
}

/// Sum or mean of the loss over the target: one pass accumulating the loss
/// (and, for mean, the applied weights) in the accumulation type.
Value reduceNLL(OpBuilder &b, Location loc, const LossOperands &l,
                const NLLReader &rd, RankedTensorType resultType) {
  MLIRContext *ctx = b.getContext();
  Value target = l.target;
  int64_t rank = rd.rank;
  Type elt = resultType.getElementType(), acc = floatAccType(elt);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  bool mean = l.reduction == LossReduction::Mean;
  unsigned numSums = mean ? 2 : 1;
  auto scalarType = RankedTensorType::get({}, acc);
  Value zero = createScalarConstant(b, loc, acc, 0);
  Value zeros = linalg::FillOp::create(
                    b, loc, zero,
                    tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, acc)
                        .getResult())
                    .getResult(0);
  SmallVector<AffineMap> maps = {id};
  maps.append(numSums, AffineMap::get(rank, 0, {}, ctx));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  auto sums = linalg::GenericOp::create(
      b, loc, SmallVector<Type>(numSums, scalarType), ValueRange{target},
      SmallVector<Value>(numSums, zeros), maps, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        auto [loss, w] = rd.lossAt(nb, nl, args[0], acc);
        SmallVector<Value> next = {
            arith::AddFOp::create(nb, nl, args[1], loss)};
        if (mean)
          next.push_back(arith::AddFOp::create(nb, nl, args[2], w));
        linalg::YieldOp::create(nb, nl, next);
      });
  Value r = sums.getResult(0);
  if (mean || acc != elt) {
    AffineMap scalar = b.getMultiDimIdentityMap(0);
    Value out = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, elt);
    r = linalg::GenericOp::create(
            b, loc, TypeRange{out.getType()}, sums.getResults(),
            ValueRange{out}, SmallVector<AffineMap>(numSums + 1, scalar),
            ArrayRef<utils::IteratorType>{},
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              Value v = mean ? Value(arith::DivFOp::create(nb, nl, args[0],
                                                           args[1]))
                             : args[0];
              linalg::YieldOp::create(nb, nl, convertFloat(nb, nl, v, elt));
            })
            .getResult(0);
  }
  if (r.getType() != resultType)
    r = tensor::CastOp::create(b, loc, resultType, r);
  return r;
}

/// The loss of `l` as a tensor of `resultType` (see the file comment).
/// verifyLoss must have succeeded.
Value buildNLL(OpBuilder &b, Location loc, const LossOperands &l,
               RankedTensorType resultType) {
  Value target = l.target;
  int64_t rank = cast<RankedTensorType>(target.getType()).getRank();
  Type elt = resultType.getElementType();
  NLLReader rd{l, rank};
  checkNLLOperands(b, loc, l, rd);
  if (l.reduction != LossReduction::None)
    return reduceNLL(b, loc, l, rd, resultType);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<Value> sizes(rank);
  for (int64_t j = 0; j < rank; ++j)
    if (resultType.isDynamicDim(j))
      sizes[j] = getDimValue(b, loc, target, j);
  Value init = createEmpty(b, loc, resultType, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{target},
             ValueRange{init}, SmallVector<AffineMap>{id, id},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       rd.lossAt(nb, nl, args[0], elt).first);
             })
      .getResult(0);
}

std::optional<int64_t> ignoreIndexOf(IntegerAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

/// NegativeLogLikelihoodLoss (opset 13).
struct NLLLowering : OpConversionPattern<ONNX::NegativeLogLikelihoodLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::NegativeLogLikelihoodLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto reduction = parseReduction(op, op.getReduction());
    if (failed(reduction))
      return failure();
    auto type = convertedTensorType(getTypeConverter(), op.getLoss());
    bool hasWeight = !isa<NoneType>(op.getWeight().getType());
    LossOperands l{"NegativeLogLikelihoodLoss",
                   "input",
                   "target",
                   adaptor.getInput(),
                   adaptor.getTarget(),
                   hasWeight ? adaptor.getWeight() : Value(),
                   ignoreIndexOf(op.getIgnoreIndexAttr()),
                   *reduction};
    if (failed(verifyLoss(op, l, type)))
      return failure();
    rewriter.replaceOp(op, buildNLL(rewriter, op.getLoc(), l, type));
    return success();
  }
};

/// SoftmaxCrossEntropyLoss (opset 13): log_prob = LogSoftmax(scores, axis
/// 1), output = NLL(log_prob, labels, weights).
struct SCELowering : OpConversionPattern<ONNX::SoftmaxCrossEntropyLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SoftmaxCrossEntropyLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto reduction = parseReduction(op, op.getReduction());
    if (failed(reduction))
      return failure();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    bool hasWeight = !isa<NoneType>(op.getWeights().getType());
    Value scores = adaptor.getScores();
    LossOperands l{"SoftmaxCrossEntropyLoss",
                   "scores",
                   "labels",
                   scores,
                   adaptor.getLabels(),
                   hasWeight ? adaptor.getWeights() : Value(),
                   ignoreIndexOf(op.getIgnoreIndexAttr()),
                   *reduction};
    if (failed(verifyLoss(op, l, type)))
      return failure();
    // An onnx op again: the conversion lowers it with LogSoftmax's pattern,
    // in f32 for half types (whose log_prob is then rounded once).
    Type elt = type.getElementType(), acc = floatAccType(elt);
    Value wide = convertTensor(rewriter, loc, scores, acc);
    l.input = ONNX::LogSoftmaxOp::create(rewriter, loc, wide.getType(), wide,
                                         rewriter.getI64IntegerAttr(1));
    Value loss = buildNLL(rewriter, loc, l, type);
    Value logProb;
    if (isa<NoneType>(op.getLogProb().getType())) {
      logProb = ONNX::NoValueOp::create(rewriter, loc, rewriter.getNoneType());
    } else {
      auto lpType = convertedTensorType(getTypeConverter(), op.getLogProb());
      logProb = convertTensor(rewriter, loc, l.input, lpType.getElementType());
      if (logProb.getType() != lpType)
        logProb = tensor::CastOp::create(rewriter, loc, lpType, logProb);
    }
    rewriter.replaceOp(op, {loss, logProb});
    return success();
  }
};

} // namespace

void mlir::onnxc::populateLossPatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<NLLLowering, SCELowering>(tc, patterns.getContext());
}

//===- Scatter.cpp - ScatterElements, ScatterND, Scatter, TensorScatter ---===//
//
// The scatters of onnx/defs/tensor.
//
// A scatter copies the data, then walks the updates in order with an scf.for
// nest carrying the result tensor: each update is read, combined with the
// element it lands on (reduction none/add/mul/max/min) and inserted.
// Duplicate indices are applied in order (for `none` the last one wins).
// Before the walk, one pass over the indices checks that each is in
// [-dim, dim) and calls onnxc_rt_fail otherwise.
//
// TensorScatter (opset 24: a KV cache's update, linear or circular) is one
// linalg.generic over the cache instead: each position reads the update or
// keeps the past value.
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

enum class Reduction { None, Add, Mul, Max, Min };

/// The `reduction` attribute, or an error on the op.
FailureOr<Reduction> parseReduction(Operation *op, StringRef r) {
  if (r == "none")
    return Reduction::None;
  if (r == "add")
    return Reduction::Add;
  if (r == "mul")
    return Reduction::Mul;
  if (r == "max")
    return Reduction::Max;
  if (r == "min")
    return Reduction::Min;
  return op->emitOpError("unsupported reduction '") << r << "'";
}

/// Combines the old element `x` with the update `u` (bool: add = or,
/// mul = and, max = or, min = and).
Value combine(OpBuilder &b, Location l, Reduction r, Value x, Value u,
              bool isUnsigned) {
  Type t = x.getType();
  bool f = isFloat(t), isBool = t.isInteger(1);
  switch (r) {
  case Reduction::None:
    return u;
  case Reduction::Add:
    if (f)
      return arith::AddFOp::create(b, l, x, u);
    if (isBool)
      return arith::OrIOp::create(b, l, x, u);
    return arith::AddIOp::create(b, l, x, u);
  case Reduction::Mul:
    if (f)
      return arith::MulFOp::create(b, l, x, u);
    if (isBool)
      return arith::AndIOp::create(b, l, x, u);
    return arith::MulIOp::create(b, l, x, u);
  case Reduction::Max:
    if (f)
      return arith::MaximumFOp::create(b, l, x, u);
    if (isBool)
      return arith::OrIOp::create(b, l, x, u);
    return isUnsigned ? Value(arith::MaxUIOp::create(b, l, x, u))
                      : Value(arith::MaxSIOp::create(b, l, x, u));
  case Reduction::Min:
    if (f)
      return arith::MinimumFOp::create(b, l, x, u);
    if (isBool)
      return arith::AndIOp::create(b, l, x, u);
    return isUnsigned ? Value(arith::MinUIOp::create(b, l, x, u))
                      : Value(arith::MinSIOp::create(b, l, x, u));
  }
  llvm_unreachable("unknown reduction");
}

/// ScatterElements (and the deprecated Scatter): for every position p of
/// the updates, out[p with p[axis] = indices[p]] = f(out[...], updates[p]).
template <typename OpTy>
struct ScatterElementsLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Reduction red = Reduction::None;
    if constexpr (std::is_same_v<OpTy, ONNX::ScatterElementsOp>) {
      auto r = parseReduction(op, op.getReduction());
      if (failed(r))
        return failure();
      red = *r;
    }
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    if (rank == 0 ||
        cast<RankedTensorType>(indices.getType()).getRank() != rank ||
        cast<RankedTensorType>(updates.getType()).getRank() != rank)
      return op.emitOpError(
          "data, indices and updates must have the same rank >= 1");
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis < 0 || axis >= rank)
      return op.emitOpError("axis ") << op.getAxis() << " is out of range";
    bool isUnsigned = isUnsignedInt(getElementType(op.getData()));
    Value axisDim = getDimValue(rewriter, loc, data, axis);
    // The updates have the shape of the indices and fit inside the data.
    for (int64_t d = 0; d < rank; ++d) {
      Value id = getDimValue(rewriter, loc, indices, d);
      Value same = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, id,
          getDimValue(rewriter, loc, updates, d));
      emitRuntimeCheck(rewriter, loc, same,
                       "Scatter: updates and indices shapes differ");
      if (d == axis)
        continue;
      Value fits =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, id,
                                getDimValue(rewriter, loc, data, d));
      emitRuntimeCheck(rewriter, loc, fits,
                       "Scatter: indices larger than the data");
    }
    checkEveryElement(rewriter, loc, indices, "Scatter: index out of range",
                      [&](OpBuilder &b, Location l, Value i, ValueRange) {
                        return indexInRange(b, l, toIndex(b, l, i), axisDim);
                      });
    Value out = copyTensor(rewriter, loc, data);
    SmallVector<Value> results = buildLoops(
        rewriter, loc, dimValues(rewriter, loc, indices), ValueRange{out},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          Value i = toIndex(b, l, tensor::ExtractOp::create(b, l, indices, ivs));
          SmallVector<Value> pos(ivs);
          pos[axis] = normalizeIndex(b, l, i, axisDim);
          Value u = tensor::ExtractOp::create(b, l, updates, ivs);
          if (red != Reduction::None)
            u = combine(b, l, red,
                        tensor::ExtractOp::create(b, l, args[0], pos), u,
                        isUnsigned);
          return {tensor::InsertOp::create(b, l, u, args[0], pos)};
        });
    rewriter.replaceOp(op, results[0]);
    return success();
  }
};

/// ScatterND: with k = indices.shape[-1], for every index tuple i of
/// indices.shape[:-1] and slice position s of data.shape[k:],
/// out[indices[i]..., s...] = f(out[...], updates[i..., s...]).
struct ScatterNDLowering : OpConversionPattern<ONNX::ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto red = parseReduction(op, op.getReduction());
    if (failed(red))
      return failure();
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    auto idxType = cast<RankedTensorType>(indices.getType());
    int64_t r = cast<RankedTensorType>(data.getType()).getRank();
    int64_t q = idxType.getRank();
    int64_t ur = cast<RankedTensorType>(updates.getType()).getRank();
    if (q < 1 || r < 1)
      return op.emitOpError("data and indices must have rank >= 1");
    // The index depth k follows from the ranks (ur = q - 1 + r - k).
    int64_t k = q - 1 + r - ur;
    if (k < 0 || k > r ||
        (!idxType.isDynamicDim(q - 1) && idxType.getDimSize(q - 1) != k))
      return op.emitOpError(
          "the ranks of data, indices and updates do not fit together");
    if (idxType.isDynamicDim(q - 1))
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                getDimValue(rewriter, loc, indices, q - 1),
                                createIndexConstant(rewriter, loc, k)),
          "ScatterND: the last dim of indices does not match the ranks");
    bool isUnsigned = isUnsignedInt(getElementType(op.getData()));
    // updates.shape == indices.shape[:-1] ++ data.shape[k:].
    for (int64_t d = 0; d < ur; ++d) {
      Value want = d < q - 1 ? getDimValue(rewriter, loc, indices, d)
                             : getDimValue(rewriter, loc, data, d - (q - 1) + k);
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, want,
                                getDimValue(rewriter, loc, updates, d)),
          "ScatterND: updates shape does not match indices and data");
    }
    SmallVector<Value> bounds;
    for (int64_t j = 0; j < k; ++j)
      bounds.push_back(getDimValue(rewriter, loc, data, j));
    if (k > 0)
      checkEveryElement(
          rewriter, loc, indices, "ScatterND: index out of range",
          [&](OpBuilder &b, Location l, Value i, ValueRange pos) {
            Value bound = bounds[0];
            for (int64_t j = 1; j < k; ++j) {
              Value is = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                               pos.back(),
                                               createIndexConstant(b, l, j));
              bound = arith::SelectOp::create(b, l, is, bounds[j], bound);
            }
            return indexInRange(b, l, toIndex(b, l, i), bound);
          });
    Value out = copyTensor(rewriter, loc, data);
    SmallVector<Value> results = buildLoops(
        rewriter, loc, dimValues(rewriter, loc, updates), ValueRange{out},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          SmallVector<Value> ipos(ivs.begin(), ivs.begin() + (q - 1));
          ipos.push_back(Value());
          SmallVector<Value> pos;
          for (int64_t j = 0; j < k; ++j) {
            ipos.back() = createIndexConstant(b, l, j);
            Value i =
                toIndex(b, l, tensor::ExtractOp::create(b, l, indices, ipos));
            pos.push_back(normalizeIndex(b, l, i, bounds[j]));
          }
          pos.append(ivs.begin() + (q - 1), ivs.end());
          Value u = tensor::ExtractOp::create(b, l, updates, ivs);
          if (*red != Reduction::None)
            u = combine(b, l, *red,
                        tensor::ExtractOp::create(b, l, args[0], pos), u,
                        isUnsigned);
          return {tensor::InsertOp::create(b, l, u, args[0], pos)};
        });
    rewriter.replaceOp(op, results[0]);
    return success();
  }
};

using CmpI = arith::CmpIPredicate;

//===----------------------------------------------------------------------===//
// TensorScatter
//===----------------------------------------------------------------------===//

/// TensorScatter: present = past with update[..., u, ...] written at
/// sequence position write_indices[b] + u (linear: checked to stay inside
/// the cache; circular: modulo the cache length). One generic over the
/// cache: position j takes update[j - w] (linear) or update[(j - w) mod M]
/// (circular) when that index is below the update's length.
struct TensorScatterLowering : OpConversionPattern<ONNX::TensorScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TensorScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getPresentCache());
    Value past = adaptor.getPastCache(), upd = adaptor.getUpdate();
    int64_t rank = cast<RankedTensorType>(past.getType()).getRank();
    if (cast<RankedTensorType>(upd.getType()).getRank() != rank)
      return op.emitOpError("update and past_cache have different ranks");
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    if (axis <= 0 || axis >= rank)
      return op.emitOpError("axis must name a dim other than the batch dim 0");
    StringRef mode = op.getMode();
    if (mode != "linear" && mode != "circular")
      return op.emitOpError("mode '") << mode << "' is not supported";
    bool circular = mode == "circular";
    SmallVector<Value> ps = dimValues(b, loc, past), us = dimValues(b, loc, upd);
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis)
        checkEqual(b, loc, us[i], ps[i],
                   "update and past_cache differ outside the sequence dim");
    Value maxLen = ps[axis], len = us[axis];
    emitRuntimeCheck(b, loc, cmpI(b, loc, CmpI::sle, len, maxLen),
                     "the update's {} positions exceed the cache's {}",
                     ValueRange{len, maxLen});
    bool hasW = !isa<NoneType>(op.getWriteIndices().getType());
    Value w = hasW ? adaptor.getWriteIndices() : Value();
    if (hasW) {
      if (cast<RankedTensorType>(w.getType()).getRank() != 1)
        return op.emitOpError("write_indices must be 1-D");
      checkEqual(b, loc, getDimValue(b, loc, w, 0), ps[0],
                 "write_indices has one index per batch entry");
      // Linear writes stay inside the cache; circular ones wrap (any index,
      // modulo the cache length, as the reference's np.mod).
      if (!circular)
        checkEveryElement(
            b, loc, w,
            "a write index is negative or plus the update's length exceeds "
            "the cache",
            [&](OpBuilder &nb, Location l, Value v, ValueRange) {
              Value i = toIndex(nb, l, v);
              return andI(
                  nb, l, cmpI(nb, l, CmpI::sge, i, idx(nb, l, 0)),
                  cmpI(nb, l, CmpI::sle, addI(nb, l, i, len), maxLen));
            });
    }
    Value init = emptyTensor(b, loc, ps, type.getElementType());
    Value y =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ValueRange{past},
            ValueRange{init},
            SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank),
                                   b.getMultiDimIdentityMap(rank)},
            parallelIterators(rank),
            [&](OpBuilder &nb, Location l, ValueRange a) {
              SmallVector<Value> iv;
              for (int64_t i = 0; i < rank; ++i)
                iv.push_back(linalg::IndexOp::create(nb, l, i));
              Value start = hasW ? toIndex(nb, l, tensor::ExtractOp::create(
                                                      nb, l, w, iv[0]))
                                 : idx(nb, l, 0);
              Value u = subI(nb, l, iv[axis], start);
              if (circular) {
                // (j - w) mod M in [0, M).
                Value r = remI(nb, l, u, maxLen);
                u = select(nb, l, cmpI(nb, l, CmpI::slt, r, idx(nb, l, 0)),
                           addI(nb, l, r, maxLen), r);
              }
              Value hit = andI(nb, l, cmpI(nb, l, CmpI::sge, u, idx(nb, l, 0)),
                               cmpI(nb, l, CmpI::slt, u, len));
              SmallVector<Value> p(iv.begin(), iv.end());
              p[axis] = select(nb, l, hit, u, idx(nb, l, 0));
              // An update of length 0 is never read.
              Value v = scf::IfOp::create(
                            nb, l, hit,
                            [&](OpBuilder &tb, Location tl) {
                              scf::YieldOp::create(
                                  tb, tl,
                                  ValueRange{tensor::ExtractOp::create(
                                      tb, tl, upd, p)});
                            },
                            [&](OpBuilder &eb, Location el) {
                              scf::YieldOp::create(eb, el, ValueRange{a[0]});
                            })
                            .getResult(0);
              linalg::YieldOp::create(nb, l, ValueRange{v});
            })
            .getResult(0);
    rewriter.replaceOp(op, castTo(b, loc, y, type));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateScatterPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<ScatterElementsLowering<ONNX::ScatterElementsOp>,
               ScatterElementsLowering<ONNX::ScatterOp>, ScatterNDLowering,
               TensorScatterLowering>(tc, patterns.getContext());
}

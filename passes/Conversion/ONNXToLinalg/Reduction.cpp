//===- Reduction.cpp - Reduce*, ArgMax, ArgMin -> linalg ------------------===//
//
// A reduction is one linalg.generic over the input with reduction iterators
// on the reduced axes and a result without those dims (an expand_shape adds
// the unit dims back for keepdims), optionally followed by an elementwise
// finalization (Mean, L2, LogSum...). Axes that are not constants go
// through runtimeAxesReduce: a per-dim "reduced?" mask read from the axes
// at run time drives one generic over the keepdims-shaped result.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Reduction.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

Value mlir::onnxc::linalg_conv::reduce(OpBuilder &b, Location loc, Value input,
                                      ArrayRef<bool> reduced, Type accType,
                                      TypedAttr init, ReduceBodyFn body) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dyn;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    iters.push_back(reduced[d] ? utils::IteratorType::reduction
                               : utils::IteratorType::parallel);
    if (reduced[d])
      continue;
    shape.push_back(inType.getDimSize(d));
    if (inType.isDynamicDim(d))
      dyn.push_back(tensor::DimOp::create(b, loc, input, d));
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  auto outType = RankedTensorType::get(shape, accType);
  Value empty = tensor::EmptyOp::create(b, loc, shape, accType, dyn);
  Value initV = arith::ConstantOp::create(b, loc, init);
  Value filled = linalg::FillOp::create(b, loc, initV, empty).getResult(0);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, outExprs, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{input}, ValueRange{filled},
             maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args[0], args[1]));
             })
      .getResult(0);
}

namespace {

/// Adds the reduced dims back as unit dims when `keep`, then casts to `type`.
Value finishShape(OpBuilder &b, Location loc, Value v, ArrayRef<bool> reduced,
                  bool keep, RankedTensorType type) {
  if (keep) {
    SmallVector<ReassociationIndices> re;
    ReassociationIndices pending;
    SmallVector<OpFoldResult> outShape;
    int64_t src = 0;
    for (int64_t d = 0, e = reduced.size(); d < e; ++d) {
      pending.push_back(d);
      if (reduced[d]) {
        outShape.push_back(b.getIndexAttr(1));
      } else {
        outShape.push_back(getDimOFR(b, loc, v, src++));
        re.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty() && !re.empty())
      re.back().append(pending.begin(), pending.end());
    SmallVector<int64_t> shape;
    for (OpFoldResult o : outShape) {
      auto c = getConstantIntValue(o);
      shape.push_back(c ? *c : ShapedType::kDynamic);
    }
    auto t = RankedTensorType::get(
        shape, cast<RankedTensorType>(v.getType()).getElementType());
    v = tensor::ExpandShapeOp::create(b, loc, t, v, re, outShape);
  }
  if (v.getType() != type)
    v = tensor::CastOp::create(b, loc, type, v);
  return v;
}

} // namespace

Value mlir::onnxc::linalg_conv::mapTensor(
    OpBuilder &b, Location loc, Value v, Type to,
    function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto t = cast<RankedTensorType>(v.getType());
  auto outType = RankedTensorType::get(t.getShape(), to);
  Value init = createEmptyLike(b, loc, outType, v);
  int64_t rank = t.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{v}, ValueRange{init},
             SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0]));
             })
      .getResult(0);
}

namespace {

/// True when the axes operand is present, not a constant and not
/// statically empty: its values are only known at run time.
bool hasRuntimeAxes(Value origAxes, Value convAxes) {
  if (!origAxes || isa<NoneType>(origAxes.getType()))
    return false;
  auto t = cast<RankedTensorType>(origAxes.getType());
  if (t.getRank() == 1 && t.getDimSize(0) == 0)
    return false;
  return !getConstantInts(origAxes, convAxes);
}

/// The reduced dims from constant (or statically empty) axes (std::nullopt:
/// no-op).
FailureOr<std::optional<SmallVector<bool>>>
reducedDims(Operation *op, Value origAxes, Value convAxes, int64_t rank,
            bool noopWithEmptyAxes) {
  SmallVector<int64_t> axes;
  if (origAxes && !isa<NoneType>(origAxes.getType())) {
    auto c = getConstantInts(origAxes, convAxes);
    if (!c)
      c = SmallVector<int64_t>(); // statically empty (hasRuntimeAxes)
    for (int64_t a : *c)
      if (a < -rank || a >= rank)
        return op->emitOpError("axis ") << a << " is out of range";
    axes.assign(c->begin(), c->end());
  }
  if (axes.empty()) {
    if (noopWithEmptyAxes)
      return std::optional<SmallVector<bool>>();
    return std::optional<SmallVector<bool>>(SmallVector<bool>(rank, true));
  }
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : axes)
    reduced[normalizeAxis(a, rank)] = true;
  return std::optional<SmallVector<bool>>(reduced);
}

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

Value addV(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x.getType()) ? Value(arith::AddFOp::create(b, l, x, y))
                              : Value(arith::AddIOp::create(b, l, x, y));
}
Value mulV(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x.getType()) ? Value(arith::MulFOp::create(b, l, x, y))
                              : Value(arith::MulIOp::create(b, l, x, y));
}

/// The mask of Reduce* axes known only at run time: mask[d] is "dim d of a
/// rank-`rank` input is reduced", from the 1-D `axes` (all true for empty
/// axes unless noop_with_empty_axes), each axis checked in [-rank, rank);
/// with the index constants 0 and 1 it built.
struct AxesMask {
  SmallVector<Value> mask;
  Value zero, one;
};

AxesMask runtimeAxesMask(OpBuilder &rewriter, Location loc, Value axes,
                         int64_t rank, bool noop) {
  Value r = createIndexConstant(rewriter, loc, rank);
  Value zero = createIndexConstant(rewriter, loc, 0);
  Value one = createIndexConstant(rewriter, loc, 1);
  Value nAxes = getDimValue(rewriter, loc, axes, 0);

  // The mask, starting from "empty axes" and or-ing in every axis.
  Value empty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      nAxes, zero);
  Value all = noop ? Value(arith::ConstantOp::create(
                         rewriter, loc, rewriter.getBoolAttr(false)))
                   : empty;
  SmallVector<Value> mask(rank, all);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, nAxes, one, mask,
      [&](OpBuilder &b, Location l, Value i, ValueRange m) {
        Value a = arith::IndexCastOp::create(
            b, l, b.getIndexType(), tensor::ExtractOp::create(b, l, axes, i));
        Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a,
                                          createIndexConstant(b, l, 0));
        a = arith::SelectOp::create(b, l, neg,
                                    arith::AddIOp::create(b, l, a, r), a);
        SmallVector<Value> next;
        for (int64_t d = 0; d < rank; ++d) {
          Value is = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, a,
                                           createIndexConstant(b, l, d));
          next.push_back(arith::OrIOp::create(b, l, m[d], is));
        }
        scf::YieldOp::create(b, l, next);
      });
  mask.assign(loop.getResults().begin(), loop.getResults().end());
  // Every axis in [-rank, rank).
  Value ok =
      arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
  {
    auto check = scf::ForOp::create(
        rewriter, loc, zero, nAxes, one, ValueRange{ok},
        [&](OpBuilder &b, Location l, Value i, ValueRange st) {
          Value a = arith::IndexCastOp::create(
              b, l, b.getIndexType(), tensor::ExtractOp::create(b, l, axes, i));
          Value lo = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, a,
              arith::SubIOp::create(b, l, createIndexConstant(b, l, 0), r));
          Value hi =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a, r);
          scf::YieldOp::create(
              b, l,
              ValueRange{arith::AndIOp::create(
                  b, l, st[0], arith::AndIOp::create(b, l, lo, hi))});
        });
    emitRuntimeCheck(rewriter, loc, check.getResult(0),
                     "Reduce: axis out of range");
  }
  return {mask, zero, one};
}

/// keepdims = 0: the reduction `result` (keepdims-shaped) reshaped to
/// `type`, whose dim j is the j-th kept dim of `data`; checked at run time
/// against `type`'s static dims.
Value reshapeToKept(OpBuilder &rewriter, Location loc, Value data,
                    const AxesMask &m, Value result, RankedTensorType type) {
  ArrayRef<Value> mask = m.mask;
  int64_t rank = mask.size();
  Value zero = m.zero, one = m.one;
  // keepdims = 0: result dim j is the j-th kept input dim.
  int64_t outRank = type.getRank();
  SmallVector<Value> shape(outRank, one);
  Value kept = zero;
  for (int64_t d = 0; d < rank; ++d) {
    Value isKept = arith::XOrIOp::create(
        rewriter, loc, mask[d],
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    for (int64_t j = 0; j < outRank; ++j) {
      Value here = arith::AndIOp::create(
          rewriter, loc, isKept,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, kept,
                                createIndexConstant(rewriter, loc, j)));
      shape[j] = arith::SelectOp::create(
          rewriter, loc, here, getDimValue(rewriter, loc, data, d), shape[j]);
    }
    kept = arith::AddIOp::create(
        rewriter, loc, kept,
        arith::SelectOp::create(rewriter, loc, isKept, one, zero));
  }
  Value match =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, kept,
                            createIndexConstant(rewriter, loc, outRank));
  for (int64_t j = 0; j < outRank; ++j)
    if (!type.isDynamicDim(j))
      match = arith::AndIOp::create(
          rewriter, loc, match,
          arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, shape[j],
              createIndexConstant(rewriter, loc, type.getDimSize(j))));
  emitRuntimeCheck(rewriter, loc, match,
                   "Reduce: the axes do not match the result type");
  Value shapeT = tensor::FromElementsOp::create(
      rewriter, loc, RankedTensorType::get({outRank}, rewriter.getIndexType()),
      shape);
  return tensor::ReshapeOp::create(rewriter, loc, type, result, shapeT);
}

/// The Reduce* ops: Sum, Mean = Sum / n, Max, Min, Prod, L1 = sum |x|,
/// L2 = sqrt(sum x^2), LogSum = log(sum x), LogSumExp = log(sum exp x),
/// SumSquare = sum x^2; keepdims keeps the reduced dims as 1;
/// without axes every dim is reduced, unless noop_with_empty_axes.
template <typename OpTy, ReduceKind Kind>
struct ReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    Value data = adaptor.getData();
    Type onnxElt = getElementType(op.getData());
    bool isUnsigned = isUnsignedInt(onnxElt);
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    Type elt = type.getElementType();
    bool f = isFloat(elt);
    // Ints for the float-valued kinds are computed in f64.
    bool viaF64 = !f && (Kind == ReduceKind::L2 || Kind == ReduceKind::LogSum ||
                         Kind == ReduceKind::LogSumExp);
    Type acc = viaF64 ? rewriter.getF64Type() : elt;
    if (hasRuntimeAxes(op.getAxes(), adaptor.getAxes())) {
      Value r = runtimeAxesReduce(rewriter, op, data, adaptor.getAxes(), type,
                                  acc, viaF64);
      if (!r)
        return failure();
      rewriter.replaceOp(op, r);
      return success();
    }
    auto reducedOr = reducedDims(op, op.getAxes(), adaptor.getAxes(), rank,
                                 op.getNoopWithEmptyAxes() != 0);
    if (failed(reducedOr))
      return failure();
    if (!*reducedOr) {
      // noop_with_empty_axes: the input with the kind's elementwise part.
      Value r = data;
      if (Kind == ReduceKind::L1 || Kind == ReduceKind::L2 ||
          Kind == ReduceKind::SumSquare || Kind == ReduceKind::LogSumExp ||
          Kind == ReduceKind::LogSum)
        r = mapTensor(rewriter, loc, data, elt, [&](OpBuilder &b, Location l,
                                                      Value x) -> Value {
          Value y = viaF64 ? convertScalar(b, l, x, onnxElt, acc) : x;
          y = pre(b, l, y, isUnsigned);
          return post(b, l, y, acc, createScalarConstant(b, l, acc, 1),
                      onnxElt, elt);
        });
      rewriter.replaceOp(op, finishShape(rewriter, loc, r, {}, false, type));
      return success();
    }
    SmallVector<bool> reduced = **reducedOr;
    TypedAttr init = initValue(rewriter, acc, isUnsigned);
    Value r = reduce(rewriter, loc, data, reduced, acc, init,
                     [&](OpBuilder &b, Location l, Value x, Value a) -> Value {
                       if (viaF64)
                         x = convertScalar(b, l, x, onnxElt, acc);
                       return combine(b, l, pre(b, l, x, isUnsigned), a,
                                      isUnsigned);
                     });
    // Finalization: Mean divides by the count (a run-time product over
    // dynamic dims); L2/LogSum take sqrt/log.
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t staticCount = 1;
    bool countStatic = true;
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d]) {
        countStatic &= !inType.isDynamicDim(d);
        staticCount *= inType.isDynamicDim(d) ? 1 : inType.getDimSize(d);
      }
    Value count;
    Value countIdx = createIndexConstant(rewriter, loc, staticCount);
    if (countStatic) {
      count = createScalarConstant(rewriter, loc, acc, staticCount);
    } else {
      countIdx = createIndexConstant(rewriter, loc, 1);
      for (int64_t d = 0; d < rank; ++d)
        if (reduced[d])
          countIdx = arith::MulIOp::create(rewriter, loc, countIdx,
                                           getDimValue(rewriter, loc, data, d));
      count = indexToScalar(rewriter, loc, countIdx, acc);
    }
    checkMeanCount(rewriter, loc, countIdx, acc);
    if (Kind == ReduceKind::Mean || Kind == ReduceKind::L2 ||
        Kind == ReduceKind::LogSum || Kind == ReduceKind::LogSumExp || viaF64)
      r = mapTensor(rewriter, loc, r, elt,
                    [&](OpBuilder &b, Location l, Value a) -> Value {
                      return post(b, l, a, acc, count, onnxElt, elt);
                    });
    rewriter.replaceOp(op, finishShape(rewriter, loc, r, reduced,
                                       op.getKeepdims() != 0, type));
    return success();
  }

  /// Reduce* with axes known only at run time. The mask m[d] ("dim d is
  /// reduced") is computed from the axes (all true for empty axes unless
  /// noop_with_empty_axes); one generic over the keepdims-shaped result
  /// (dim d is m[d] ? 1 : n[d]) walks, per element, the prod(m[d] ? n[d] : 1)
  /// reduced inputs. keepdims = 0 then reshapes to the inferred result type,
  /// whose dims are the kept input dims in order. Returns null after an
  /// error on the op.
  Value runtimeAxesReduce(ConversionPatternRewriter &rewriter, OpTy op,
                          Value data, Value axes, RankedTensorType type,
                          Type acc, bool viaF64) const {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    bool keep = op.getKeepdims() != 0;
    if (keep ? type.getRank() != rank : type.getRank() > rank) {
      op.emitOpError("result rank does not match the input");
      return Value();
    }
    Type onnxElt = getElementType(op.getData());
    bool isUnsigned = isUnsignedInt(onnxElt);
    Type elt = type.getElementType();
    AxesMask m = runtimeAxesMask(rewriter, loc, axes, rank,
                                 op.getNoopWithEmptyAxes() != 0);
    ArrayRef<Value> mask = m.mask;
    Value one = m.one;
    // Sizes: kept dims n[d] (or 1), reduced extents n[d] (or 1).
    SmallVector<Value> outDims, extents;
    Value count = one;
    SmallVector<int64_t> interShape;
    for (int64_t d = 0; d < rank; ++d) {
      Value n = getDimValue(rewriter, loc, data, d);
      outDims.push_back(arith::SelectOp::create(rewriter, loc, mask[d], one, n));
      extents.push_back(arith::SelectOp::create(rewriter, loc, mask[d], n, one));
      count = arith::MulIOp::create(rewriter, loc, count, extents.back());
      int64_t s = inType.getDimSize(d);
      interShape.push_back(keep ? type.getDimSize(d)
                                : (s == 1 ? 1 : ShapedType::kDynamic));
      if (keep && !type.isDynamicDim(d))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq, outDims.back(),
                createIndexConstant(rewriter, loc, type.getDimSize(d))),
            "Reduce: the axes do not match the result type");
    }
    auto interType = RankedTensorType::get(interShape, elt);
    Value init = createEmpty(rewriter, loc, interType, outDims);
    Value countAcc = indexToScalar(rewriter, loc, count, acc);
    checkMeanCount(rewriter, loc, count, acc);
    TypedAttr initAttr = initValue(rewriter, acc, isUnsigned);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{interType}, ValueRange{},
            ValueRange{init},
            SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
            parallelIterators(rank),
            [&](OpBuilder &b, Location l, ValueRange) {
              SmallVector<Value> outIdx;
              for (int64_t d = 0; d < rank; ++d)
                outIdx.push_back(linalg::IndexOp::create(b, l, d));
              Value init0 = arith::ConstantOp::create(b, l, initAttr);
              auto inner = scf::ForOp::create(
                  b, l, createIndexConstant(b, l, 0), count,
                  createIndexConstant(b, l, 1), ValueRange{init0},
                  [&](OpBuilder &ib, Location il, Value k, ValueRange st) {
                    // Delinearize k over the reduced extents.
                    SmallVector<Value> idx(rank);
                    Value rem = k;
                    for (int64_t d = rank - 1; d >= 0; --d) {
                      Value pos = arith::RemUIOp::create(ib, il, rem,
                                                         extents[d]);
                      rem = arith::DivUIOp::create(ib, il, rem, extents[d]);
                      idx[d] = arith::SelectOp::create(ib, il, mask[d], pos,
                                                       outIdx[d]);
                    }
                    Value x = tensor::ExtractOp::create(ib, il, data, idx);
                    if (viaF64)
                      x = convertScalar(ib, il, x, onnxElt, acc);
                    scf::YieldOp::create(
                        ib, il,
                        ValueRange{combine(ib, il, pre(ib, il, x, isUnsigned),
                                           st[0], isUnsigned)});
                  });
              linalg::YieldOp::create(
                  b, l,
                  ValueRange{post(b, l, inner.getResult(0), acc, countAcc,
                                  onnxElt, elt)});
            })
            .getResult(0);
    if (keep) {
      if (result.getType() != type)
        result = tensor::CastOp::create(rewriter, loc, type, result);
      return result;
    }
    return reshapeToKept(rewriter, loc, data, m, result, type);
  }

  static TypedAttr initValue(OpBuilder &b, Type t, bool isUnsigned) {
    if (auto ft = dyn_cast<FloatType>(t)) {
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      if (Kind == ReduceKind::Max)
        return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/true));
      if (Kind == ReduceKind::Min)
        return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/false));
      if (Kind == ReduceKind::Prod)
        return b.getFloatAttr(ft, 1.0);
      return b.getFloatAttr(ft, 0.0);
    }
    unsigned w = t.getIntOrFloatBitWidth();
    APInt v(w, 0);
    if (Kind == ReduceKind::Max)
      v = isUnsigned || w == 1 ? APInt::getMinValue(w) : APInt::getSignedMinValue(w);
    else if (Kind == ReduceKind::Min)
      v = isUnsigned || w == 1 ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w);
    else if (Kind == ReduceKind::Prod)
      v = APInt(w, 1);
    return b.getIntegerAttr(t, v);
  }

  /// The per-element part before the accumulation.
  static Value pre(OpBuilder &b, Location l, Value x, bool isUnsigned) {
    switch (Kind) {
    case ReduceKind::L1:
      if (isFloat(x.getType()))
        return math::AbsFOp::create(b, l, x);
      return isUnsigned ? x : Value(math::AbsIOp::create(b, l, x));
    case ReduceKind::L2:
    case ReduceKind::SumSquare:
      return mulV(b, l, x, x);
    case ReduceKind::LogSumExp:
      return mathF32<math::ExpOp>(b, l, x);
    default:
      return x;
    }
  }

  static Value combine(OpBuilder &b, Location l, Value x, Value a,
                       bool isUnsigned) {
    bool f = isFloat(x.getType());
    switch (Kind) {
    case ReduceKind::Max:
      if (f)
        return arith::MaximumFOp::create(b, l, x, a);
      if (x.getType().isInteger(1))
        return arith::OrIOp::create(b, l, x, a);
      return isUnsigned ? Value(arith::MaxUIOp::create(b, l, x, a))
                        : Value(arith::MaxSIOp::create(b, l, x, a));
    case ReduceKind::Min:
      if (f)
        return arith::MinimumFOp::create(b, l, x, a);
      if (x.getType().isInteger(1))
        return arith::AndIOp::create(b, l, x, a);
      return isUnsigned ? Value(arith::MinUIOp::create(b, l, x, a))
                        : Value(arith::MinSIOp::create(b, l, x, a));
    case ReduceKind::Prod:
      return mulV(b, l, x, a);
    default:
      return addV(b, l, x, a);
    }
  }

  /// An integer mean of no element has no value (a float one is NaN):
  /// the call fails instead of dividing by zero.
  static void checkMeanCount(OpBuilder &b, Location l, Value count, Type acc) {
    if (Kind != ReduceKind::Mean || isFloat(acc))
      return;
    emitRuntimeCheck(b, l,
                     cmpI(b, l, arith::CmpIPredicate::ne, count,
                          createIndexConstant(b, l, 0)),
                     "ReduceMean: an integer mean of no element");
  }

  /// An index value as a scalar of `acc` (float or integer).
  static Value indexToScalar(OpBuilder &b, Location l, Value i, Type acc) {
    Value v = arith::IndexCastUIOp::create(b, l, b.getI64Type(), i);
    return convertScalar(b, l, v, b.getI64Type(), acc);
  }

  /// The finalization of the accumulated value (of type `acc`) into `elt`;
  /// `count` (of type `acc`) is the number of reduced elements.
  static Value post(OpBuilder &b, Location l, Value a, Type acc, Value count,
                    Type onnxElt, Type elt) {
    switch (Kind) {
    case ReduceKind::Mean:
      if (isFloat(acc))
        return arith::DivFOp::create(b, l, a, count);
      // count is 0 only for an empty reduction, which checkMeanCount
      // rejects; divide by 1 then, so that nothing traps.
      count = arith::SelectOp::create(
          b, l,
          cmpI(b, l, arith::CmpIPredicate::eq, count,
               createIntConstant(b, l, count.getType(), 0)),
          createIntConstant(b, l, count.getType(), 1), count);
      return isUnsignedInt(onnxElt)
                 ? Value(arith::DivUIOp::create(b, l, a, count))
                 : Value(arith::DivSIOp::create(b, l, a, count));
    case ReduceKind::L2:
      a = mathF32<math::SqrtOp>(b, l, a);
      break;
    case ReduceKind::LogSum:
    case ReduceKind::LogSumExp:
      a = mathF32<math::LogOp>(b, l, a);
      break;
    default:
      break;
    }
    if (acc != elt)
      a = convertScalar(b, l, a, acc, onnxElt);
    return a;
  }
};

/// ArgMax/ArgMin: the index of the first (last with select_last_index)
/// greatest/smallest element along `axis`, as i64.
template <typename OpTy, bool IsMax>
struct ArgLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool last = op.getSelectLastIndex() != 0;
    bool isUnsigned = isUnsignedInt(getElementType(op.getData()));
    Type elt = inType.getElementType();
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    SmallVector<int64_t> shape;
    SmallVector<Value> dyn;
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iters;
    for (int64_t d = 0; d < rank; ++d) {
      iters.push_back(d == axis ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
      if (d == axis)
        continue;
      shape.push_back(inType.getDimSize(d));
      if (inType.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, data, d));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    // An empty axis has no index to return (the verifier refuses a static
    // one): an error unless the result is empty too, as in ORT.
    {
      Value zero = createIndexConstant(rewriter, loc, 0);
      Value ok = rewriter.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ne,
          getDimValue(rewriter, loc, data, axis), zero);
      for (int64_t d = 0; d < rank; ++d) {
        if (d == axis)
          continue;
        Value empty = rewriter.createOrFold<arith::CmpIOp>(
            loc, arith::CmpIPredicate::eq, getDimValue(rewriter, loc, data, d),
            zero);
        ok = rewriter.createOrFold<arith::OrIOp>(loc, ok, empty);
      }
      emitRuntimeCheck(rewriter, loc, ok,
                       (Twine(IsMax ? "ArgMax" : "ArgMin") + ": axis " +
                        Twine((int64_t)op.getAxis()) +
                        " is empty (dim 0): there is no index to return")
                           .str());
    }
    // Running best value (starting at the first element's position 0 with
    // the worst value) and its index.
    TypedAttr worst;
    if (auto ft = dyn_cast<FloatType>(elt))
      worst = rewriter.getFloatAttr(
          ft, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/IsMax));
    else {
      unsigned w = elt.getIntOrFloatBitWidth();
      worst = rewriter.getIntegerAttr(
          elt, IsMax ? (isUnsigned ? APInt::getMinValue(w)
                                   : APInt::getSignedMinValue(w))
                     : (isUnsigned ? APInt::getMaxValue(w)
                                   : APInt::getSignedMaxValue(w)));
    }
    auto valType = RankedTensorType::get(shape, elt);
    auto idxType = RankedTensorType::get(shape, rewriter.getI64Type());
    Value vInit = linalg::FillOp::create(
                      rewriter, loc,
                      arith::ConstantOp::create(rewriter, loc, worst).getResult(),
                      tensor::EmptyOp::create(rewriter, loc, shape, elt, dyn)
                          .getResult())
                      .getResult(0);
    Value iInit = linalg::FillOp::create(
                      rewriter, loc,
                      createIntConstant(rewriter, loc, rewriter.getI64Type(), -1),
                      tensor::EmptyOp::create(rewriter, loc, shape,
                                              rewriter.getI64Type(), dyn)
                          .getResult())
                      .getResult(0);
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valType, idxType}, ValueRange{data},
        ValueRange{vInit, iInit},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank), outMap,
                               outMap},
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIdx = args[2];
          Value i = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value better;
          if (isFloat(elt))
            better = arith::CmpFOp::create(
                b, l,
                IsMax ? (last ? arith::CmpFPredicate::OGE
                              : arith::CmpFPredicate::OGT)
                      : (last ? arith::CmpFPredicate::OLE
                              : arith::CmpFPredicate::OLT),
                x, best);
          else
            better = arith::CmpIOp::create(
                b, l,
                IsMax ? (isUnsigned ? (last ? arith::CmpIPredicate::uge
                                            : arith::CmpIPredicate::ugt)
                                    : (last ? arith::CmpIPredicate::sge
                                            : arith::CmpIPredicate::sgt))
                      : (isUnsigned ? (last ? arith::CmpIPredicate::ule
                                            : arith::CmpIPredicate::ult)
                                    : (last ? arith::CmpIPredicate::sle
                                            : arith::CmpIPredicate::slt)),
                x, best);
          // The first element always counts (all-worst rows give index 0).
          Value first = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, bestIdx,
              createIntConstant(b, l, b.getI64Type(), 0));
          better = arith::OrIOp::create(b, l, better, first);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, better, x, best),
                         arith::SelectOp::create(b, l, better, i, bestIdx)});
        });
    rewriter.replaceOp(op, finishShape(rewriter, loc, generic.getResult(1),
                                       reduced, op.getKeepdims() != 0, type));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateReductionPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReduceLowering<ONNX::ReduceSumOp, ReduceKind::Sum>,
               ReduceLowering<ONNX::ReduceMeanOp, ReduceKind::Mean>,
               ReduceLowering<ONNX::ReduceMaxOp, ReduceKind::Max>,
               ReduceLowering<ONNX::ReduceMinOp, ReduceKind::Min>,
               ReduceLowering<ONNX::ReduceProdOp, ReduceKind::Prod>,
               ReduceLowering<ONNX::ReduceL1Op, ReduceKind::L1>,
               ReduceLowering<ONNX::ReduceL2Op, ReduceKind::L2>,
               ReduceLowering<ONNX::ReduceLogSumOp, ReduceKind::LogSum>,
               ReduceLowering<ONNX::ReduceLogSumExpOp, ReduceKind::LogSumExp>,
               ReduceLowering<ONNX::ReduceSumSquareOp, ReduceKind::SumSquare>,
               ArgLowering<ONNX::ArgMaxOp, true>,
               ArgLowering<ONNX::ArgMinOp, false>>(tc, ctx);
}

//===- Pad.cpp - Pad, CenterCropPad -> linalg -----------------------------===//
//
// Pad is one linalg.generic over the result that reads the input with
// tensor.extract at a source index computed per dim from the result index
// and the begin pad; the pads may be run-time values (an input tensor), and
// negative pads crop. Out-of-range sources give constant_value (constant),
// the nearest edge element (edge), the mirror image without repeating the
// edge (reflect) or the element one period away (wrap). CenterCropPad is
// the same generic with the begin pad (in < out) or crop (in > out) taken
// from the sizes: the spec's function pads (out - in) / 2 in front and
// crops (in - out) / 2, both rounded down.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

enum class PadMode { Constant, Reflect, Edge, Wrap };

/// The non-negative remainder of a by m (m > 0).
Value positiveRem(OpBuilder &b, Location loc, Value a, Value m) {
  Value r = arith::RemSIOp::create(b, loc, a, m);
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r,
                                    arith::ConstantIndexOp::create(b, loc, 0));
  return arith::SelectOp::create(b, loc, neg,
                                 arith::AddIOp::create(b, loc, r, m), r);
}

FailureOr<PadMode> parsePadMode(ONNX::PadOp op) {
  StringRef m = op.getMode();
  if (m == "constant")
    return PadMode::Constant;
  if (m == "reflect")
    return PadMode::Reflect;
  if (m == "edge")
    return PadMode::Edge;
  if (m == "wrap")
    return PadMode::Wrap;
  return op.emitOpError("unsupported mode '") << m << "'";
}

/// The dims that the pads apply to: `axes` (constant, normalized, checked)
/// or every dim.
FailureOr<SmallVector<int64_t>> padAxes(ONNX::PadOp op, Value axesOperand,
                                        int64_t rank) {
  SmallVector<int64_t> axes;
  if (!isa<NoneType>(op.getAxes().getType())) {
    auto c = getConstantInts(op.getAxes(), axesOperand);
    if (!c)
      return op.emitOpError("non-constant axes are not supported");
    for (int64_t a : *c) {
      int64_t n = normalizeAxis(a, rank);
      if (n < 0 || n >= rank)
        return op.emitOpError("axis ") << a << " out of range";
      if (llvm::is_contained(axes, n))
        return op.emitOpError("axis ") << a << " is referred to more than once";
      axes.push_back(n);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  return axes;
}

/// Begin and end pads per dim (`zero` where no axis pads), as index values
/// (constants when known).
void padAmounts(OpBuilder &b, Location loc, ONNX::PadOp op, Value pads,
                ArrayRef<int64_t> axes, Value zero, SmallVector<Value> &begin,
                SmallVector<Value> &end) {
  int64_t n = axes.size();
  for (size_t i = 0; i < begin.size(); ++i)
    begin[i] = end[i] = zero;
  auto constPads = getConstantInts(op.getPads(), pads);
  for (auto [k, axis] : llvm::enumerate(axes)) {
    for (int side = 0; side < 2; ++side) {
      int64_t pos = k + side * n;
      Value v;
      if (constPads) {
        v = createIndexConstant(b, loc, (*constPads)[pos]);
      } else {
        Value e = tensor::ExtractOp::create(
            b, loc, pads, ValueRange{createIndexConstant(b, loc, pos)});
        v = arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
      }
      (side ? end : begin)[axis] = v;
    }
  }
}

/// Per dim: the result size (in + begin + end, the sums checked; a negative
/// size fails at the allocation), the input size, and the input positions
/// [keptLo, keptHi) left after the negative pads' crops, which edge,
/// reflect and wrap pad (numpy and ONNX Runtime crop first).
struct PadExtents {
  SmallVector<Value> sizes, inSizes, keptLo, keptHi;
};

PadExtents padExtents(OpBuilder &b, Location loc, Value data, PadMode mode,
                      StringRef modeName, ArrayRef<Value> begin,
                      ArrayRef<Value> end, Value zero) {
  PadExtents e;
  int64_t rank = begin.size();
  for (int64_t i = 0; i < rank; ++i) {
    Value in = getDimValue(b, loc, data, i);
    e.inSizes.push_back(in);
    e.keptLo.push_back(arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, zero, begin[i]), zero));
    e.keptHi.push_back(arith::SubIOp::create(
        b, loc, in,
        arith::MaxSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, zero, end[i]), zero)));
    Value size = checkedAdd(
        b, loc,
        checkedAdd(b, loc, in, begin[i],
                   "Pad: a dim of {} padded by {} overflows"),
        end[i], "Pad: a dim of {} padded by {} overflows");
    e.sizes.push_back(size);
    // Edge, reflect and wrap read the input to fill the padding: an
    // empty input dim has nothing to read.
    if (mode != PadMode::Constant) {
      Value kept = arith::SubIOp::create(b, loc, e.keptHi[i], e.keptLo[i]);
      emitRuntimeCheck(
          b, loc,
          arith::OrIOp::create(
              b, loc, cmpI(b, loc, arith::CmpIPredicate::sgt, kept, zero),
              cmpI(b, loc, arith::CmpIPredicate::sle, size, zero)),
          ("Pad: mode " + modeName + " pads dim {} of size 0 to {}").str(),
          {createIndexConstant(b, loc, i), size});
      // Reflect mirrors once (ORT: "pre-pad exceeds maximum allowed";
      // numpy would reflect again): a side pads by at most kept - 1.
      if (mode == PadMode::Reflect)
        for (Value pad : {begin[i], end[i]})
          emitRuntimeCheck(
              b, loc,
              b.createOrFold<arith::OrIOp>(
                  loc, cmpI(b, loc, arith::CmpIPredicate::sle, pad, zero),
                  cmpI(b, loc, arith::CmpIPredicate::slt, pad, kept)),
              "Pad: mode reflect pads dim {} by {}: at most {} (its size "
              "after the crops - 1)",
              {createIndexConstant(b, loc, i), pad,
               arith::SubIOp::create(b, loc, kept,
                                     createIndexConstant(b, loc, 1))});
    }
  }
  return e;
}

/// The source index along dim `i` of result index `dst` in the generic's
/// body; constant mode ANDs whether it is inside into `valid`.
Value padSource(OpBuilder &nb, Location l, PadMode mode, Value dst,
                Value begin, Value in, Value keptLo, Value keptHi, Value zero,
                Value one, Value &valid) {
  Value src = arith::SubIOp::create(nb, l, dst, begin);
  // Edge, reflect, wrap: relative to the kept [lo, hi).
  Value lo = keptLo;
  Value kept = arith::SubIOp::create(nb, l, keptHi, lo);
  Value last = arith::SubIOp::create(nb, l, kept, one);
  if (mode != PadMode::Constant)
    src = arith::SubIOp::create(nb, l, src, lo);
  switch (mode) {
  case PadMode::Constant: {
    Value ok = arith::AndIOp::create(
        nb, l,
        arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, src, zero),
        arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, src, in));
    valid = arith::AndIOp::create(nb, l, valid, ok);
    src = arith::SelectOp::create(nb, l, ok, src, zero);
    break;
  }
  case PadMode::Edge:
    src = arith::MaxSIOp::create(nb, l, src, zero);
    src = arith::MinSIOp::create(nb, l, src, last);
    break;
  case PadMode::Reflect: {
    // Period 2 * (in - 1); a size-1 dim reflects onto itself.
    Value period =
        arith::MulIOp::create(nb, l, last, createIndexConstant(nb, l, 2));
    Value safe = arith::MaxSIOp::create(nb, l, period, one);
    Value t = positiveRem(nb, l, src, safe);
    Value mirrored = arith::SubIOp::create(nb, l, period, t);
    Value inside =
        arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, t, kept);
    src = arith::SelectOp::create(nb, l, inside, t, mirrored);
    Value single =
        arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, kept, one);
    src = arith::SelectOp::create(nb, l, single, zero, src);
    break;
  }
  case PadMode::Wrap:
    src = positiveRem(nb, l, src, kept);
    break;
  }
  if (mode != PadMode::Constant)
    src = arith::AddIOp::create(nb, l, src, lo);
  return src;
}

/// Pad(data, pads, constant_value, axes): pads = [x1_begin, x2_begin, ...,
/// x1_end, x2_end, ...] for `axes` (all dims by default); the result dim is
/// in + begin + end.
struct PadLowering : OpConversionPattern<ONNX::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value data = adaptor.getData();
    int64_t rank = type.getRank();
    FailureOr<PadMode> parsed = parsePadMode(op);
    if (failed(parsed))
      return failure();
    PadMode mode = *parsed;
    FailureOr<SmallVector<int64_t>> axes = padAxes(op, adaptor.getAxes(), rank);
    if (failed(axes))
      return failure();
    auto padsType = cast<RankedTensorType>(adaptor.getPads().getType());
    int64_t n = axes->size();
    if (padsType.getRank() != 1 ||
        (!padsType.isDynamicDim(0) && padsType.getDimSize(0) != 2 * n))
      return op.emitOpError("pads must be 1-D with two entries per axis");

    SmallVector<Value> begin(rank), end(rank);
    Value zero = createIndexConstant(b, loc, 0);
    padAmounts(b, loc, op, adaptor.getPads(), *axes, zero, begin, end);
    PadExtents e =
        padExtents(b, loc, data, mode, op.getMode(), begin, end, zero);
    Value init = createEmpty(b, loc, type, e.sizes);

    Value padValue;
    Type elt = type.getElementType();
    if (mode == PadMode::Constant) {
      if (!isa<NoneType>(op.getConstantValue().getType())) {
        Value cv = adaptor.getConstantValue();
        auto ct = cast<RankedTensorType>(cv.getType());
        if (ct.getNumElements() != 1)
          return op.emitOpError("constant_value must have one element");
        SmallVector<Value> idx(ct.getRank(), zero);
        padValue = tensor::ExtractOp::create(b, loc, cv, idx);
      } else {
        padValue =
            elt.isInteger(1)
                ? Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(false)))
                : createScalarConstant(b, loc, elt, 0);
      }
    }
    Value one = createIndexConstant(b, loc, 1);

    Value result =
        linalg::GenericOp::create(
            b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
            SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
            parallelIterators(rank),
            [&](OpBuilder &nb, Location l, ValueRange) {
              Value valid =
                  arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
              SmallVector<Value> idx;
              for (int64_t i = 0; i < rank; ++i)
                idx.push_back(padSource(
                    nb, l, mode, linalg::IndexOp::create(nb, l, i), begin[i],
                    e.inSizes[i], e.keptLo[i], e.keptHi[i], zero, one, valid));
              Value v = tensor::ExtractOp::create(nb, l, data, idx);
              if (padValue)
                v = arith::SelectOp::create(nb, l, valid, v, padValue);
              linalg::YieldOp::create(nb, l, v);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// CenterCropPad(input, shape, axes): per axis of `axes` (all dims by
/// default) the result dim is shape[k], the input centered in it: cropped
/// by (in - out) / 2 in front, or padded with zeros by (out - in) / 2.
struct CenterCropPadLowering : OpConversionPattern<ONNX::CenterCropPadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::CenterCropPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInputData(), shape = adaptor.getShape();
    auto xt = cast<RankedTensorType>(x.getType());
    auto yt = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutputData().getType()));
    int64_t rank = xt.getRank();
    if (!xt.getElementType().isIntOrFloat())
      return op.emitOpError("type ") << xt << " is not supported";
    SmallVector<int64_t> axes;
    if (auto a = op.getAxes()) {
      for (int64_t v : *a) {
        int64_t d = v < 0 ? v + rank : v;
        if (d < 0 || d >= rank)
          return op.emitOpError("axis ") << v << " out of range";
        if (llvm::is_contained(axes, d))
          return op.emitOpError("axis ") << v << " repeated";
        axes.push_back(d);
      }
    } else {
      for (int64_t d = 0; d < rank; ++d)
        axes.push_back(d);
    }
    auto st = cast<RankedTensorType>(shape.getType());
    int64_t n = axes.size();
    if (st.getRank() != 1 || (!st.isDynamicDim(0) && st.getDimSize(0) != n))
      return op.emitOpError("shape must have ") << n << " entries";
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c2 = arith::ConstantIndexOp::create(rewriter, loc, 2);
    Value nv = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value len = tensor::DimOp::create(rewriter, loc, shape, 0);
    emitRuntimeCheck(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, len, nv),
        "CenterCropPad: shape must have one entry per axis");
    SmallVector<Value> outSizes, offsets; // offset: source = result + offset
    SmallVector<Value> inDims;
    for (int64_t d = 0; d < rank; ++d) {
      Value in = getDimValue(rewriter, loc, x, d);
      inDims.push_back(in);
      auto it = llvm::find(axes, d);
      if (it == axes.end()) {
        outSizes.push_back(in);
        offsets.push_back(c0);
        continue;
      }
      Value k = arith::ConstantIndexOp::create(rewriter, loc, it - axes.begin());
      Value e = tensor::ExtractOp::create(rewriter, loc, shape, ValueRange{k});
      Value out = arith::IndexCastOp::create(rewriter, loc,
                                             rewriter.getIndexType(), e);
      emitRuntimeCheck(rewriter, loc,
                       arith::CmpIOp::create(rewriter, loc,
                                             arith::CmpIPredicate::sge, out, c0),
                       "CenterCropPad: shape must not be negative");
      Value crop = arith::DivSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, in, out), c2);
      Value pad = arith::DivSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, out, in), c2);
      Value cropping = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, in, out);
      offsets.push_back(arith::SelectOp::create(
          rewriter, loc, cropping, crop,
          arith::SubIOp::create(rewriter, loc, c0, pad)));
      outSizes.push_back(out);
    }
    for (int64_t d = 0; d < rank; ++d)
      if (!yt.isDynamicDim(d)) {
        Value want = arith::ConstantIndexOp::create(rewriter, loc,
                                                    yt.getDimSize(d));
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  outSizes[d], want),
            "CenterCropPad: the result shape does not match the result type");
      }
    Value init = createEmpty(rewriter, loc, yt, outSizes);
    Type elt = yt.getElementType();
    auto body = [&](OpBuilder &b, Location l, ValueRange) {
      SmallVector<Value> src;
      Value inside = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
      Value zero = arith::ConstantIndexOp::create(b, l, 0);
      Value one = arith::ConstantIndexOp::create(b, l, 1);
      for (int64_t d = 0; d < rank; ++d) {
        Value i = arith::AddIOp::create(
            b, l, linalg::IndexOp::create(b, l, d), offsets[d]);
        Value in = inDims[d];
        inside = arith::AndIOp::create(
            b, l, inside,
            arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, i, zero),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, in)));
        Value last = arith::SubIOp::create(b, l, in, one);
        i = arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, i, last),
                                   zero);
        src.push_back(i);
      }
      // An empty input dim has no element to read: the result is then all
      // padding, and the read is skipped.
      Value v = buildIf(b, l, inside,
                        ValueRange{createScalarConstant(b, l, elt, 0)},
                        [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
                          return {tensor::ExtractOp::create(nb, nl, x, src)};
                        })[0];
      linalg::YieldOp::create(b, l, v);
    };
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{yt}, ValueRange{}, ValueRange{init},
                  SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
                  parallelIterators(rank), body)
                  .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populatePadPatterns(TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<PadLowering, CenterCropPadLowering>(tc, patterns.getContext());
}

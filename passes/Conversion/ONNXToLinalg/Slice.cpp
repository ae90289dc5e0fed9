//===- Slice.cpp - Tile, Slice, Split -> tensor/linalg --------------------===//
//
// The tensor ops that copy parts of their input: Tile, Slice, Split (Range:
// Generator.cpp). Operands that determine shapes (Slice's starts, Split's
// sizes, ...) are read from constants where the pattern needs them at
// compile time and from the tensor at run time otherwise.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/AxisPieces.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {


/// Tile: output[i] = input[i mod dim] along every axis.
struct TileLowering : OpConversionPattern<ONNX::TileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getInput();
    int64_t rank = type.getRank();
    SmallVector<Value> sizes(rank), inDims;
    for (int64_t d = 0; d < rank; ++d) {
      inDims.push_back(getDimValue(rewriter, loc, data, d));
      if (type.isDynamicDim(d))
        sizes[d] = checkedMul(
            rewriter, loc, inDims[d],
            extractIndex(rewriter, loc, adaptor.getRepeats(), d),
            "Tile: a dim of {} repeated {} times is negative or more than "
            "2^63 - 1");
    }
    Value init = createEmpty(rewriter, loc, type, sizes);
    Value tiled =
        gatherGeneric(rewriter, loc, init, data, [&](OpBuilder &b, Location l) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d)
            idx.push_back(arith::RemUIOp::create(
                b, l, linalg::IndexOp::create(b, l, d), inDims[d]));
          return idx;
        });
    rewriter.replaceOp(op, tiled);
    return success();
  }
};

/// Slice with starts/ends/axes/steps known only at run time: per input
/// dim, the offset and step are selected from the entries whose axis is
/// that dim, clamped as ONNX specifies, and the result is read element by
/// element.
Value runtimeSlice(ConversionPatternRewriter &b, ONNX::SliceOp op,
                   ONNX::SliceOp::Adaptor adaptor, RankedTensorType type) {
  Location loc = op.getLoc();
  Value data = adaptor.getData();
  int64_t rank = type.getRank();
  auto i64 = b.getI64Type();
  bool hasAxes = !isa<NoneType>(op.getAxes().getType());
  bool hasSteps = !isa<NoneType>(op.getSteps().getType());
  auto c = [&](int64_t v) { return createIntConstant(b, loc, i64, v); };
  auto sel = [&](Value p, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, p, x, y);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  using P = arith::CmpIPredicate;
  auto clamp = [&](Value v, Value lo, Value hi) -> Value {
    return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo),
                                  hi);
  };
  // The number of entries may itself be known only at run time: an scf.for
  // walks them, carrying (offset, step, count) of dim d.
  Value numEntries = getDimValue(b, loc, adaptor.getStarts(), 0);
  SmallVector<Value> offs, steps, sizes(rank);
  // First the entries themselves: as many ends, axes and steps as starts,
  // every axis in [-rank, rank), no step 0 (checks fold for constants).
  {
    SmallVector<Value> others{adaptor.getEnds()};
    if (hasAxes)
      others.push_back(adaptor.getAxes());
    if (hasSteps)
      others.push_back(adaptor.getSteps());
    for (Value t : others) {
      Value n = getDimValue(b, loc, t, 0);
      emitRuntimeCheck(b, loc, cmpI(b, loc, P::eq, n, numEntries),
                       "Slice: {} starts but {} ends, axes or steps",
                       {numEntries, n});
    }
    scf::ForOp::create(
        b, loc, createIndexConstant(b, loc, 0), numEntries,
        createIndexConstant(b, loc, 1), ValueRange{},
        [&](OpBuilder &body, Location, Value iv, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(body.getInsertionBlock(), body.getInsertionPoint());
          auto at = [&](Value t) -> Value {
            Value e = tensor::ExtractOp::create(b, loc, t, ValueRange{iv});
            return e.getType() == i64 ? e
                                      : Value(arith::ExtSIOp::create(b, loc, i64, e));
          };
          if (hasAxes) {
            Value axis = at(adaptor.getAxes());
            Value ok = arith::AndIOp::create(b, loc, cmp(P::sge, axis, c(-rank)),
                                             cmp(P::slt, axis, c(rank)));
            emitRuntimeCheck(b, loc, op, ok,
                             "Slice: axis {} is out of range for rank {}",
                             {axis, c(rank)});
          }
          if (hasSteps)
            emitRuntimeCheck(b, loc, op,
                             cmp(P::ne, at(adaptor.getSteps()), c(0)),
                             "Slice: a step is 0");
          scf::YieldOp::create(b, loc);
        });
  }
  for (int64_t d = 0; d < rank; ++d) {
    Value dim = arith::IndexCastOp::create(b, loc, i64,
                                           getDimValue(b, loc, data, d));
    auto loop = scf::ForOp::create(
        b, loc, createIndexConstant(b, loc, 0), numEntries,
        createIndexConstant(b, loc, 1), ValueRange{c(0), c(1), dim, c(0)},
        [&](OpBuilder &body, Location, Value iv, ValueRange carried) {
          // The helpers above build with `b`: point it into the body.
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(body.getInsertionBlock(), body.getInsertionPoint());
          auto at = [&](Value t) -> Value {
            Value e = tensor::ExtractOp::create(b, loc, t, ValueRange{iv});
            return e.getType() == i64 ? e
                                      : Value(arith::ExtSIOp::create(b, loc, i64, e));
          };
          Value i64Iv = arith::IndexCastOp::create(b, loc, i64, iv);
          Value axis = hasAxes ? at(adaptor.getAxes()) : i64Iv;
          axis = sel(cmp(P::slt, axis, c(0)),
                     arith::AddIOp::create(b, loc, axis, c(rank)), axis);
          Value is = cmp(P::eq, axis, c(d));
          Value st = hasSteps ? at(adaptor.getSteps()) : c(1);
          // A step past the dim takes one element, as the dim + 1 does
          // (and e - s + st then cannot overflow).
          Value bound = arith::AddIOp::create(b, loc, dim, c(1));
          st = clamp(st, arith::SubIOp::create(b, loc, c(0), bound), bound);
          Value s = at(adaptor.getStarts()), e = at(adaptor.getEnds());
          s = sel(cmp(P::slt, s, c(0)), arith::AddIOp::create(b, loc, s, dim), s);
          e = sel(cmp(P::slt, e, c(0)), arith::AddIOp::create(b, loc, e, dim), e);
          Value pos = cmp(P::sgt, st, c(0));
          Value dm1 = arith::SubIOp::create(b, loc, dim, c(1));
          s = sel(pos, clamp(s, c(0), dim), clamp(s, c(0), dm1));
          e = sel(pos, clamp(e, c(0), dim), clamp(e, c(-1), dm1));
          // count = max(0, ceil((e - s) / st)) for either sign of st.
          Value diff = arith::SubIOp::create(b, loc, e, s);
          Value adj = sel(pos, arith::SubIOp::create(b, loc, st, c(1)),
                          arith::AddIOp::create(b, loc, st, c(1)));
          Value cnt = arith::DivSIOp::create(
              b, loc, arith::AddIOp::create(b, loc, diff, adj), st);
          cnt = arith::MaxSIOp::create(b, loc, cnt, c(0));
          Value seen = arith::AddIOp::create(
              b, loc, carried[3], sel(is, c(1), c(0)));
          scf::YieldOp::create(b, loc,
                               ValueRange{sel(is, s, carried[0]),
                                          sel(is, st, carried[1]),
                                          sel(is, cnt, carried[2]), seen});
        });
    Value off = loop.getResult(0), step = loop.getResult(1),
          count = loop.getResult(2);
    emitRuntimeCheck(b, loc, cmp(P::sle, loop.getResult(3), c(1)),
                     "Slice: axis {} appears {} times", {c(d), loop.getResult(3)});
    auto idx = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    };
    offs.push_back(idx(off));
    steps.push_back(idx(step));
    if (type.isDynamicDim(d))
      sizes[d] = idx(count);
  }
  Value init = createEmpty(b, loc, type, sizes);
  return gatherGeneric(b, loc, init, data, [&](OpBuilder &nb, Location l) {
    SmallVector<Value> idx;
    for (int64_t d = 0; d < rank; ++d) {
      Value i = linalg::IndexOp::create(nb, l, d);
      i = arith::MulIOp::create(nb, l, i, steps[d]);
      idx.push_back(arith::AddIOp::create(nb, l, i, offs[d]));
    }
    return idx;
  });
}

/// Slice: per axis, elements start, start + step, ... before end (starts and
/// ends clamped as ONNX specifies; negative values count from the end;
/// negative steps walk backwards). Constant operands on static dims give a
/// tensor.extract_slice (positive steps) or a strided read (negative steps);
/// anything else goes through runtimeSlice.
struct SliceLowering : OpConversionPattern<ONNX::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    auto starts = getConstantInts(op.getStarts(), adaptor.getStarts());
    auto ends = getConstantInts(op.getEnds(), adaptor.getEnds());
    bool hasAxes = !isa<NoneType>(op.getAxes().getType());
    bool hasSteps = !isa<NoneType>(op.getSteps().getType());
    std::optional<SmallVector<int64_t>> axesC, stepsC;
    if (hasAxes)
      axesC = getConstantInts(op.getAxes(), adaptor.getAxes());
    if (hasSteps)
      stepsC = getConstantInts(op.getSteps(), adaptor.getSteps());
    bool dynSliced = false;
    if (starts && (!hasAxes || axesC))
      for (int64_t i = 0, e = starts->size(); i < e; ++i) {
        if (hasAxes && i >= (int64_t)axesC->size())
          return op.emitOpError("starts, ends, axes and steps differ in length");
        int64_t d = normalizeAxis(hasAxes ? (*axesC)[i] : i, rank);
        if (d < 0 || d >= rank)
          return op.emitOpError("axis ")
                 << (hasAxes ? (*axesC)[i] : i) << " is out of range for rank "
                 << rank;
        dynSliced |= inType.isDynamicDim(d);
      }
    if (!starts || !ends || (hasAxes && !axesC) || (hasSteps && !stepsC) ||
        dynSliced) {
      rewriter.replaceOp(op, runtimeSlice(rewriter, op, adaptor, type));
      return success();
    }
    SmallVector<int64_t> axes, steps;
    if (hasAxes)
      axes.assign(axesC->begin(), axesC->end());
    else
      for (int64_t i = 0, e = starts->size(); i < e; ++i)
        axes.push_back(i);
    if (hasSteps)
      steps.assign(stepsC->begin(), stepsC->end());
    else
      steps.assign(starts->size(), 1);
    if (axes.size() != starts->size() || ends->size() != starts->size() ||
        steps.size() != starts->size())
      return op.emitOpError("starts, ends, axes and steps differ in length");
    SmallVector<bool> seen(rank, false);
    for (int64_t a : axes) {
      int64_t d = normalizeAxis(a, rank);
      if (d < 0 || d >= rank)
        return op.emitOpError("axis ") << a << " is out of range for rank "
                                       << rank;
      if (seen[d])
        return op.emitOpError("axis ") << a << " appears twice";
      seen[d] = true;
    }
    SmallVector<int64_t> offs(rank, 0), strides(rank, 1);
    SmallVector<OpFoldResult> sizes;
    bool negative = false;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(getDimOFR(rewriter, loc, data, d));
    for (auto [i, axis] : llvm::enumerate(axes)) {
      int64_t d = normalizeAxis(axis, rank);
      int64_t step = steps[i];
      if (step == 0)
        return op.emitOpError("steps must not be 0");
      int64_t dim = inType.getDimSize(d);
      int64_t s = (*starts)[i], e = (*ends)[i];
      s = s < 0 ? s + dim : s;
      e = e < 0 ? e + dim : e;
      if (step > 0) {
        s = std::clamp<int64_t>(s, 0, dim);
        e = std::clamp<int64_t>(e, 0, dim);
      } else {
        s = std::clamp<int64_t>(s, 0, dim - 1);
        e = std::clamp<int64_t>(e, -1, dim - 1);
      }
      // Without overflow for any step (INT64_MIN and INT64_MAX included).
      int64_t span = step > 0 ? e - s : s - e;
      int64_t n = span <= 0 ? 0
                  : step > 0 ? 1 + (span - 1) / step
                  : step == INT64_MIN ? 1
                                      : 1 + (span - 1) / -step;
      offs[d] = s;
      strides[d] = n <= 1 ? 1 : step;
      sizes[d] = rewriter.getIndexAttr(n);
      negative |= strides[d] < 0;
    }
    // An empty result reads nothing. (extract_slice refuses any static
    // offset into a dim of size 0, and the clamped start may be the dim.)
    bool empty = llvm::any_of(sizes, [](OpFoldResult s) {
      std::optional<int64_t> c = getConstantIntValue(s);
      return c && *c == 0;
    });
    if (empty) {
      SmallVector<Value> dyn(rank);
      for (int64_t d = 0; d < rank; ++d)
        if (type.isDynamicDim(d))
          dyn[d] = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, dyn));
      return success();
    }
    if (!negative) {
      SmallVector<OpFoldResult> o, st;
      for (int64_t d = 0; d < rank; ++d) {
        o.push_back(rewriter.getIndexAttr(offs[d]));
        st.push_back(rewriter.getIndexAttr(strides[d]));
      }
      Value r = tensor::ExtractSliceOp::create(rewriter, loc, type, data, o,
                                               sizes, st);
      rewriter.replaceOp(op, r);
      return success();
    }
    // Negative steps: read input[off + i * step] element by element.
    SmallVector<Value> dyn(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        dyn[d] = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
    Value init = createEmpty(rewriter, loc, type, dyn);
    Value sliced =
        gatherGeneric(rewriter, loc, init, data, [&](OpBuilder &b, Location l) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, l, d);
            if (strides[d] != 1)
              i = arith::MulIOp::create(b, l, i,
                                        createIndexConstant(b, l, strides[d]));
            if (offs[d] != 0)
              i = arith::AddIOp::create(b, l, i,
                                        createIndexConstant(b, l, offs[d]));
            idx.push_back(i);
          }
          return idx;
        });
    rewriter.replaceOp(op, sliced);
    return success();
  }
};

/// Split: consecutive slices along `axis`, sized by `split` or equal
/// (the last one smaller when the dim does not divide).
struct SplitLowering : OpConversionPattern<ONNX::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getInput();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t n = op->getNumResults();
    SmallVector<OpFoldResult> splitSizes;
    if (!isa<NoneType>(op.getSplit().getType())) {
      auto s = getConstantInts(op.getSplit(), adaptor.getSplit());
      // One size per output (the verifier checks a static length): the
      // sizes are read by position.
      if (cast<RankedTensorType>(adaptor.getSplit().getType()).isDynamicDim(0)) {
        Value len = getDimValue(rewriter, loc, adaptor.getSplit(), 0);
        Value want = createIndexConstant(rewriter, loc, n);
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::eq, len,
                              want),
                         "Split: 'split' has {} sizes for {} outputs",
                         {len, want});
      }
      bool allStatic = llvm::all_of(op->getResultTypes(), [&](Type t) {
        return !cast<RankedTensorType>(t).isDynamicDim(axis);
      });
      if (allStatic) {
        for (auto [i, t] : llvm::enumerate(op->getResultTypes())) {
          int64_t size = cast<RankedTensorType>(t).getDimSize(axis);
          splitSizes.push_back(rewriter.getIndexAttr(size));
          // Inference took the types from somewhere: the split must agree.
          if (!s) {
            Value v = extractIndex(rewriter, loc, adaptor.getSplit(), i);
            Value want = createIndexConstant(rewriter, loc, size);
            emitRuntimeCheck(
                rewriter, loc,
                cmpI(rewriter, loc, arith::CmpIPredicate::eq, v, want),
                "Split: piece {} has size {} where {} is required",
                {createIndexConstant(rewriter, loc, i), v, want});
          }
        }
      } else if (s) {
        for (int64_t v : *s)
          splitSizes.push_back(rewriter.getIndexAttr(v));
      } else {
        for (int64_t i = 0; i < n; ++i)
          splitSizes.push_back(extractIndex(rewriter, loc, adaptor.getSplit(), i));
      }
    } else {
      // ceil(dim / n) each, the rest for the last.
      Value dim = getDimValue(rewriter, loc, data, axis);
      Value nv = createIndexConstant(rewriter, loc, n);
      Value chunk = arith::CeilDivUIOp::create(rewriter, loc, dim, nv);
      for (int64_t i = 0; i < n; ++i) {
        auto rt = cast<RankedTensorType>(op->getResult(i).getType());
        if (!rt.isDynamicDim(axis)) {
          splitSizes.push_back(rewriter.getIndexAttr(rt.getDimSize(axis)));
          continue;
        }
        Value off = mulIdx(rewriter, loc, chunk, createIndexConstant(rewriter, loc, i));
        Value rest = arith::SubIOp::create(rewriter, loc, dim, off);
        splitSizes.push_back(
            arith::MinUIOp::create(rewriter, loc, chunk, rest).getResult());
      }
    }
    // The pieces tile the dim: no negative size, and they add up to it
    // (checks fold for static sizes).
    {
      Value sum = createIndexConstant(rewriter, loc, 0);
      for (auto [i, size] : llvm::enumerate(splitSizes)) {
        Value v = getValueOrCreateConstantIndexOp(rewriter, loc, size);
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::sge, v,
                              createIndexConstant(rewriter, loc, 0)),
                         "Split: piece {} has size {}",
                         {createIndexConstant(rewriter, loc, i), v});
        sum = checkedAdd(rewriter, loc, sum, v,
                         "Split: the sizes overflow ({} + {})");
      }
      Value dim = getDimValue(rewriter, loc, data, axis);
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, sum, dim),
                       "Split: the pieces add up to {} for a dim of {}",
                       {sum, dim});
    }
    SmallVector<Value> results;
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (int64_t i = 0; i < n; ++i) {
      auto type = convertedTensorType(getTypeConverter(), op->getResult(i));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes;
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(getDimOFR(rewriter, loc, data, d));
      sizes[axis] = splitSizes[i];
      offsets[axis] = offset;
      auto sz = getConstantIntValue(sizes[axis]);
      if (sz && *sz == 0 && !type.isDynamicDim(axis)) {
        // An empty piece: a zero-size slice at offset == dim would not verify.
        SmallVector<Value> dynSizes;
        for (int64_t d = 0; d < rank; ++d)
          if (type.isDynamicDim(d))
            dynSizes.push_back(getDimValue(rewriter, loc, data, d));
        results.push_back(
            tensor::EmptyOp::create(rewriter, loc, type, dynSizes).getResult());
      } else {
        // The slice's own type follows its sizes (static where they are
        // constants); the inferred result type may know more or less.
        Value piece = tensor::ExtractSliceOp::create(rewriter, loc, data,
                                                     offsets, sizes, strides);
        if (piece.getType() != type)
          piece = tensor::CastOp::create(rewriter, loc, type, piece);
        results.push_back(piece);
      }
      offset = nextPieceOffset(rewriter, loc, offset, sizes[axis]);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateSlicePatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<TileLowering, SliceLowering, SplitLowering>(
      tc, patterns.getContext());
}

//===- Unique.cpp - Unique -> scf loops -----------------------------------===//
//
// Unique compares slices: the elements of X (no axis; X is flattened) or
// the slices X[..., i, ...] along `axis`. Three passes, all scf.for nests:
//  1. first[i], the first slice equal to slice i (elementwise ==; NaN equals
//     nothing, so every NaN slice is unique). U, the number of slices with
//     first[i] == i, sizes the results (data-dependent, as for NonZero).
//  2. rank[i] of each first occurrence: its position among them in order
//     of appearance (sorted = 0), or in ascending lexicographic order
//     (sorted = 1; NaN after every number, ties, which only NaNs make,
//     broken by position, so the ranks are a permutation of [0, U)).
//  3. Y[rank[i]] = slice i, indices[rank[i]] = i, inverse_indices[i] =
//     rank[first[i]], counts[rank[first[i]]] += 1.
// Passes 1 and 2 are O(n^2) slice comparisons, as TopK's selection is
// O(K * n): meant for the modest sizes Unique meets in models.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Strings.h"
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

Value indexConst(OpBuilder &b, Location l, int64_t v) {
  return createIndexConstant(b, l, v);
}

/// An scf.if yielding `thenFn()` or `elseValues`.
/// The slices of `data` along `axis`.
struct Slices {
  Value data;
  int64_t axis;
  Type onnxElt; // for signedness
  SmallVector<Value> dims;

  int64_t rank() const { return dims.size(); }
  /// Loops over the positions of one slice (every dim but the axis).
  SmallVector<Value> otherDims() const {
    SmallVector<Value> r;
    for (int64_t d = 0; d < rank(); ++d)
      if (d != axis)
        r.push_back(dims[d]);
    return r;
  }
  /// The full position of element `pos` (a slice position) of slice `i`.
  SmallVector<Value> at(ValueRange pos, Value i) const {
    SmallVector<Value> r(pos.begin(), pos.begin() + axis);
    r.push_back(i);
    r.append(pos.begin() + axis, pos.end());
    return r;
  }
};

/// a < b for one element type: floats with NaN after every number; ints by
/// their onnx signedness (bool unsigned).
Value lessThan(OpBuilder &b, Location l, Value x, Value y, Type onnxElt) {
  if (isFloat(x.getType())) {
    Value lt = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, y);
    Value xNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
    Value yNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, y, y);
    Value numBeforeNaN = arith::AndIOp::create(
        b, l, yNaN,
        arith::XOrIOp::create(
            b, l, xNaN,
            arith::ConstantOp::create(b, l, b.getBoolAttr(true))));
    return arith::OrIOp::create(b, l, lt, numBeforeNaN);
  }
  bool isUnsigned = isUnsignedInt(onnxElt) || x.getType().isInteger(1);
  return cmpI(b, l,
              isUnsigned ? arith::CmpIPredicate::ult
                         : arith::CmpIPredicate::slt,
              x, y);
}

Value equal(OpBuilder &b, Location l, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, y);
  return cmpI(b, l, arith::CmpIPredicate::eq, x, y);
}

/// Whether slices i and j are equal elementwise.
Value slicesEqual(OpBuilder &b, Location l, const Slices &s, Value i,
                  Value j) {
  Value t = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
  return buildLoops(b, l, s.otherDims(), ValueRange{t},
                    [&](OpBuilder &nb, Location nl, ValueRange pos,
                        ValueRange args) -> SmallVector<Value> {
                      Value x = tensor::ExtractOp::create(nb, nl, s.data,
                                                          s.at(pos, i));
                      Value y = tensor::ExtractOp::create(nb, nl, s.data,
                                                          s.at(pos, j));
                      return {arith::AndIOp::create(nb, nl, args[0],
                                                    equal(nb, nl, x, y))};
                    })[0];
}

/// Lexicographic comparison of slices j and i: -1, 0 or 1 (i64).
Value compareSlices(OpBuilder &b, Location l, const Slices &s, Value j,
                    Value i) {
  Type i64 = b.getI64Type();
  Value zero = createIntConstant(b, l, i64, 0);
  return buildLoops(
      b, l, s.otherDims(), ValueRange{zero},
      [&](OpBuilder &nb, Location nl, ValueRange pos,
          ValueRange args) -> SmallVector<Value> {
        Value x = tensor::ExtractOp::create(nb, nl, s.data, s.at(pos, j));
        Value y = tensor::ExtractOp::create(nb, nl, s.data, s.at(pos, i));
        Value c = arith::SelectOp::create(
            nb, nl, lessThan(nb, nl, x, y, s.onnxElt),
            createIntConstant(nb, nl, i64, -1),
            arith::SelectOp::create(nb, nl, lessThan(nb, nl, y, x, s.onnxElt),
                                    createIntConstant(nb, nl, i64, 1),
                                    createIntConstant(nb, nl, i64, 0)));
        // The first difference decides.
        Value undecided = cmpI(nb, nl, arith::CmpIPredicate::eq, args[0],
                               createIntConstant(nb, nl, i64, 0));
        return {arith::SelectOp::create(nb, nl, undecided, c, args[0])};
      })[0];
}

/// Whether first occurrence j sorts before first occurrence i: its slice
/// is lexicographically smaller, or tied (only NaNs tie) and earlier.
Value sortsBefore(OpBuilder &b, Location l, const Slices &s, Value j,
                  Value i) {
  Value cmp = compareSlices(b, l, s, j, i);
  Value zero = createIntConstant(b, l, b.getI64Type(), 0);
  Value tie = arith::AndIOp::create(
      b, l, cmpI(b, l, arith::CmpIPredicate::eq, cmp, zero),
      cmpI(b, l, arith::CmpIPredicate::slt, j, i));
  return arith::OrIOp::create(
      b, l, cmpI(b, l, arith::CmpIPredicate::slt, cmp, zero), tie);
}

/// Whether slice `i` is the first of its kind (`firsts` from
/// firstOccurrences).
Value isFirstAt(OpBuilder &b, Location l, Value firsts, Value i) {
  Value f = tensor::ExtractOp::create(b, l, firsts, ValueRange{i});
  return cmpI(b, l, arith::CmpIPredicate::eq, f, i);
}

/// first[i], the index of the first slice equal to slice i (into `init`,
/// n index values), and U, the number of distinct slices.
std::pair<Value, Value> firstOccurrences(OpBuilder &rewriter, Location loc,
                                         const Slices &s, Value n, Value init,
                                         Value zero) {
  SmallVector<Value> pass1 = buildLoops(
      rewriter, loc, {n}, ValueRange{init, zero},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value i = ivs[0];
        Value first =
            buildLoops(b, l, {i}, ValueRange{i},
                       [&](OpBuilder &jb, Location jl, ValueRange jv,
                           ValueRange f) -> SmallVector<Value> {
                         Value notFound =
                             cmpI(jb, jl, arith::CmpIPredicate::eq, f[0], i);
                         return buildIf(
                             jb, jl, notFound, f,
                             [&](OpBuilder &tb,
                                 Location tl) -> SmallVector<Value> {
                               Value eq = slicesEqual(tb, tl, s, jv[0], i);
                               return {arith::SelectOp::create(tb, tl, eq,
                                                               jv[0], f[0])};
                             });
                       })[0];
        Value isFirst = cmpI(b, l, arith::CmpIPredicate::eq, first, i);
        Value count = arith::AddIOp::create(
            b, l, args[1],
            arith::SelectOp::create(b, l, isFirst, indexConst(b, l, 1),
                                    indexConst(b, l, 0)));
        return {tensor::InsertOp::create(b, l, first, args[0], ivs), count};
      });
  return {pass1[0], pass1[1]};
}

/// rank[i] of every first occurrence i (into `init`): its row in Y, in the
/// order of first occurrence, or sorted (the number of distinct slices
/// that sort before it).
Value firstRanks(OpBuilder &rewriter, Location loc, const Slices &s, Value n,
                 Value firsts, Value init, Value zero, bool sorted) {
  if (!sorted)
    return buildLoops(
        rewriter, loc, {n}, ValueRange{init, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          Value isFirst = isFirstAt(b, l, firsts, ivs[0]);
          Value next = arith::AddIOp::create(
              b, l, args[1],
              arith::SelectOp::create(b, l, isFirst, indexConst(b, l, 1),
                                      indexConst(b, l, 0)));
          return {tensor::InsertOp::create(b, l, args[1], args[0], ivs),
                  next};
        })[0];
  return buildLoops(
      rewriter, loc, {n}, ValueRange{init},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value i = ivs[0];
        return buildIf(
            b, l, isFirstAt(b, l, firsts, i), args,
            [&](OpBuilder &tb, Location tl) -> SmallVector<Value> {
              Value r =
                  buildLoops(
                      tb, tl, {n}, ValueRange{indexConst(tb, tl, 0)},
                      [&](OpBuilder &jb, Location jl, ValueRange jv,
                          ValueRange c) -> SmallVector<Value> {
                        Value j = jv[0];
                        Value other = arith::AndIOp::create(
                            jb, jl, isFirstAt(jb, jl, firsts, j),
                            cmpI(jb, jl, arith::CmpIPredicate::ne, j, i));
                        return buildIf(
                            jb, jl, other, c,
                            [&](OpBuilder &kb,
                                Location kl) -> SmallVector<Value> {
                              Value inc = arith::SelectOp::create(
                                  kb, kl, sortsBefore(kb, kl, s, j, i),
                                  indexConst(kb, kl, 1),
                                  indexConst(kb, kl, 0));
                              return {arith::AddIOp::create(kb, kl, c[0],
                                                            inc)};
                            });
                      })[0];
              return {tensor::InsertOp::create(tb, tl, r, args[0],
                                               ValueRange{i})};
            });
      })[0];
}

/// Y, and the indices, inverse_indices and counts present (in `outs` after
/// Y, in that order), filled in one pass over the slices: slice i goes to
/// Y's row rank[first[i]] when it is a first occurrence.
SmallVector<Value> fillResults(OpBuilder &rewriter, Location loc,
                               const Slices &s, Value n, Value firsts,
                               Value ranks, SmallVector<Value> outs,
                               bool hasIndices, bool hasInverse,
                               bool hasCounts) {
  Type i64 = rewriter.getI64Type();
  return buildLoops(
      rewriter, loc, {n}, outs,
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value i = ivs[0];
        Value first = tensor::ExtractOp::create(b, l, firsts, ValueRange{i});
        Value rFirst =
            tensor::ExtractOp::create(b, l, ranks, ValueRange{first});
        Value i64I = arith::IndexCastOp::create(b, l, i64, i);
        SmallVector<Value> next(args);
        unsigned k = 1;
        // Y and indices, at first occurrences.
        SmallVector<Value> atFirst = {args[0]};
        if (hasIndices)
          atFirst.push_back(args[k]);
        SmallVector<Value> written = buildIf(
            b, l, cmpI(b, l, arith::CmpIPredicate::eq, first, i), atFirst,
            [&](OpBuilder &tb, Location tl) -> SmallVector<Value> {
              Value yv =
                  buildLoops(tb, tl, s.otherDims(), ValueRange{atFirst[0]},
                             [&](OpBuilder &pb, Location pl, ValueRange pos,
                                 ValueRange t) -> SmallVector<Value> {
                               Value v = tensor::ExtractOp::create(
                                   pb, pl, s.data, s.at(pos, i));
                               return {tensor::InsertOp::create(
                                   pb, pl, v, t[0], s.at(pos, rFirst))};
                             })[0];
              SmallVector<Value> r = {yv};
              if (hasIndices)
                r.push_back(tensor::InsertOp::create(tb, tl, i64I,
                                                     atFirst[1],
                                                     ValueRange{rFirst}));
              return r;
            });
        next[0] = written[0];
        if (hasIndices)
          next[k++] = written[1];
        if (hasInverse) {
          Value r64 = arith::IndexCastOp::create(b, l, i64, rFirst);
          next[k] = tensor::InsertOp::create(b, l, r64, args[k], ivs);
          ++k;
        }
        if (hasCounts) {
          Value c = tensor::ExtractOp::create(b, l, args[k],
                                              ValueRange{rFirst});
          c = arith::AddIOp::create(b, l, c,
                                    createIntConstant(b, l, i64, 1));
          next[k] = tensor::InsertOp::create(b, l, c, args[k],
                                             ValueRange{rFirst});
        }
        return next;
      });
}

struct UniqueLowering : OpConversionPattern<ONNX::UniqueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Strings would be sorted by address: not lowered yet.
    if (isStringType(op.getX().getType()))
      return op.emitOpError("on strings is not supported yet");
    auto yType = convertedTensorType(getTypeConverter(), op.getY());
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t xRank = xt.getRank();
    std::optional<int64_t> axis;
    if (auto a = op.getAxisAttr()) {
      int64_t v = normalizeAxis(a.getValue().getSExtValue(), xRank);
      if (v < 0 || v >= xRank)
        return op.emitOpError("axis ")
               << a.getValue().getSExtValue() << " is out of range";
      axis = v;
    }
    int64_t sRank = axis ? xRank : 1;
    if (yType.getRank() != sRank)
      return op.emitOpError("result Y must have rank ") << sRank;
    for (Value r : {op.getIndices(), op.getInverseIndices(), op.getCounts()})
      if (!isa<NoneType>(r.getType()) &&
          cast<RankedTensorType>(r.getType()).getRank() != 1)
        return op.emitOpError("indices, inverse_indices and counts must be "
                              "1-D");

    // Without an axis, the elements of flattened X are the slices.
    Value data = x;
    if (!axis) {
      auto flat = RankedTensorType::get(
          {xt.hasStaticShape() ? xt.getNumElements() : ShapedType::kDynamic},
          xt.getElementType());
      if (xRank == 0) {
        data = tensor::ExpandShapeOp::create(
            rewriter, loc, flat, x, SmallVector<ReassociationIndices>{},
            SmallVector<OpFoldResult>{rewriter.getIndexAttr(1)});
      } else {
        ReassociationIndices all;
        for (int64_t d = 0; d < xRank; ++d)
          all.push_back(d);
        data = tensor::CollapseShapeOp::create(
            rewriter, loc, flat, x, SmallVector<ReassociationIndices>{all});
      }
    }
    Slices s{data, axis.value_or(0), getElementType(op.getX()),
             dimValues(rewriter, loc, data)};
    Value n = s.dims[s.axis];
    Value zero = indexConst(rewriter, loc, 0);
    // Per-slice scratch vectors (of index values).
    int64_t staticN =
        cast<RankedTensorType>(data.getType()).getDimSize(s.axis);
    auto idxVec = [&]() -> Value {
      auto t = RankedTensorType::get({staticN}, rewriter.getIndexType());
      return createEmpty(rewriter, loc, t, {n});
    };

    // 1. first[i] and U.
    std::pair<Value, Value> pass1 =
        firstOccurrences(rewriter, loc, s, n, idxVec(), zero);
    Value firsts = pass1.first, u = pass1.second;

    // 2. rank[i] of the first occurrences.
    Value ranks = firstRanks(rewriter, loc, s, n, firsts, idxVec(), zero,
                             op.getSorted() != 0);

    // 3. The results.
    SmallVector<Value> ySizes(sRank);
    for (int64_t d = 0; d < sRank; ++d)
      ySizes[d] = d == s.axis ? u : s.dims[d];
    auto checkSize = [&](RankedTensorType t, int64_t d, Value size) {
      if (!t.isDynamicDim(d))
        emitRuntimeCheck(rewriter, loc,
                         cmpI(rewriter, loc, arith::CmpIPredicate::eq, size,
                              indexConst(rewriter, loc, t.getDimSize(d))),
                         "Unique: the result size does not match the result "
                         "type");
    };
    for (int64_t d = 0; d < sRank; ++d)
      checkSize(yType, d, ySizes[d]);
    Type i64 = rewriter.getI64Type();
    auto i64Vec = [&](Value orig, Value size) -> Value {
      if (isa<NoneType>(orig.getType()))
        return Value();
      auto t = convertedTensorType(getTypeConverter(), orig);
      checkSize(t, 0, size);
      return createEmpty(rewriter, loc, t, {size});
    };
    Value y = createEmpty(rewriter, loc, yType, ySizes);
    Value indicesOut = i64Vec(op.getIndices(), u);
    Value inverseOut = i64Vec(op.getInverseIndices(), n);
    Value countsOut = i64Vec(op.getCounts(), u);
    if (countsOut)
      countsOut =
          linalg::FillOp::create(rewriter, loc,
                                 createIntConstant(rewriter, loc, i64, 0),
                                 countsOut)
              .getResult(0);
    SmallVector<Value> outs = {y};
    for (Value v : {indicesOut, inverseOut, countsOut})
      if (v)
        outs.push_back(v);
    outs = fillResults(rewriter, loc, s, n, firsts, ranks, outs,
                       (bool)indicesOut, (bool)inverseOut, (bool)countsOut);
    SmallVector<Value> results = {outs[0]};
    unsigned k = 1;
    for (Value v : {indicesOut, inverseOut, countsOut})
      results.push_back(
          v ? outs[k++]
            : Value(ONNX::NoValueOp::create(rewriter, loc,
                                            rewriter.getNoneType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateUniquePatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<UniqueLowering>(tc, patterns.getContext());
}

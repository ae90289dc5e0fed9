//===- Sequence.cpp - Sequence* ops -> tensor/scf ----------------------------===//
//
// A sequence of tensors is two values (TypeConversion.cpp): `data`, a 1-D
// tensor holding every item's elements, item after item, each row-major;
// and `shapes`, the items' dims. When the items' type has a rank r, shapes
// is a tensor<n x r x i64> with one row of dims per item. When it has none,
// the items may differ in rank (a Loop appending 1-D slices to a sequence
// that starts with a scalar): shapes is then a 1-D tensor<? x i64> of rows
// of kSeqRowWidth elements, each an item's rank, its dims and zeros
// (Subgraph.h). Where a sequence of one layout meets a type of the other,
// castChecked converts its shapes; the common case, a static rank, pays
// nothing for the other. Item i starts at the sum of the element counts of
// the items before it. Sequences are values: every op builds new tensors,
// and bufferization decides what is copied.
//
// Optionals: Optional.cpp.
//
// Positions are checked at run time (an error status, never an
// out-of-bounds access); so are the items SequenceAt and ConcatFromSequence
// read against the static dims of their result types.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

Value toI64(OpBuilder &b, Location l, Value v) {
  return arith::IndexCastOp::create(b, l, b.getI64Type(), v);
}

/// Where row `i` of a shapes tensor of rows starts.
Value rowStart(OpBuilder &b, Location l, Value i) {
  return arith::MulIOp::create(b, l, i, idx(b, l, kSeqRowWidth));
}

/// The converted values of one sequence.
struct Seq {
  Value data;   // tensor<?xT>
  Value shapes; // tensor<?xRxi64>, or rows: tensor<?xi64>

  static Seq of(ValueRange values) {
    assert(values.size() == 2 && "a sequence converts to two values");
    return {values[0], values[1]};
  }
  Type elementType() const {
    return cast<RankedTensorType>(data.getType()).getElementType();
  }
  /// Whether every item has its own rank (shapes are rows).
  bool hasRows() const {
    return cast<RankedTensorType>(shapes.getType()).getRank() == 1;
  }
  Value length(OpBuilder &b, Location l) const {
    Value n = getDimValue(b, l, shapes, 0);
    if (hasRows())
      n = arith::DivUIOp::create(b, l, n, idx(b, l, kSeqRowWidth));
    return n;
  }
  /// The static item rank, or nullopt (rows).
  std::optional<int64_t> staticRank() const {
    if (hasRows())
      return std::nullopt;
    return cast<RankedTensorType>(shapes.getType()).getDimSize(1);
  }
};

/// The rank of item `i` (index).
Value itemRank(OpBuilder &b, Location l, const Seq &s, Value i) {
  if (auto r = s.staticRank())
    return idx(b, l, *r);
  return toIndex(
      b, l,
      tensor::ExtractOp::create(b, l, s.shapes, ValueRange{rowStart(b, l, i)}));
}

/// Dim `k` of item `i` (index).
Value itemDim(OpBuilder &b, Location l, const Seq &s, Value i, Value k) {
  if (s.hasRows()) {
    Value at = arith::AddIOp::create(
        b, l, rowStart(b, l, i), arith::AddIOp::create(b, l, k, idx(b, l, 1)));
    return toIndex(b, l, tensor::ExtractOp::create(b, l, s.shapes, at));
  }
  return toIndex(b, l, tensor::ExtractOp::create(b, l, s.shapes, ValueRange{i, k}));
}

/// Checks at run time that every item of `s` has rank `r`.
void checkItemRanks(OpBuilder &b, Location l, const Seq &s, int64_t r,
                    StringRef message) {
  if (!s.hasRows())
    return; // the verifier and inference keep static ranks consistent
  // No body builder: the run-time check needs the loop in the module.
  auto loop =
      scf::ForOp::create(b, l, idx(b, l, 0), s.length(b, l), idx(b, l, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  emitRuntimeCheck(b, l,
                   cmpI(b, l, arith::CmpIPredicate::eq,
                        itemRank(b, l, s, loop.getInductionVar()),
                        idx(b, l, r)),
                   message);
}

/// The element count of item `i`.
Value itemNumel(OpBuilder &b, Location l, const Seq &s, Value i) {
  if (auto r = s.staticRank()) {
    Value n = idx(b, l, 1);
    for (int64_t k = 0; k < *r; ++k)
      n = arith::MulIOp::create(b, l, n, itemDim(b, l, s, i, idx(b, l, k)));
    return n;
  }
  auto loop = scf::ForOp::create(
      b, l, idx(b, l, 0), itemRank(b, l, s, i), idx(b, l, 1),
      ValueRange{idx(b, l, 1)},
      [&](OpBuilder &nb, Location nl, Value k, ValueRange acc) {
        Value n = arith::MulIOp::create(nb, nl, acc[0],
                                        itemDim(nb, nl, s, i, k));
        scf::YieldOp::create(nb, nl, n);
      });
  return loop.getResult(0);
}

/// Where item `i` starts in `data`: the element counts of items [0, i).
Value itemOffset(OpBuilder &b, Location l, const Seq &s, Value i) {
  auto loop = scf::ForOp::create(
      b, l, idx(b, l, 0), i, idx(b, l, 1), ValueRange{idx(b, l, 0)},
      [&](OpBuilder &nb, Location nl, Value j, ValueRange acc) {
        Value n = arith::AddIOp::create(nb, nl, acc[0],
                                        itemNumel(nb, nl, s, j));
        scf::YieldOp::create(nb, nl, n);
      });
  return loop.getResult(0);
}

/// A position operand (int32/int64, one element) in [-n, n) (or [-n, n]
/// with `allowEnd`), made non-negative; checked at run time.
Value normalizePosition(OpBuilder &b, Location l, Value pos, Value n,
                        bool allowEnd, StringRef message) {
  Value p = extractSingle(b, l, pos, message);
  p = arith::IndexCastOp::create(b, l, b.getIndexType(), p);
  Value zero = idx(b, l, 0);
  Value neg = cmpI(b, l, arith::CmpIPredicate::slt, p, zero);
  p = arith::SelectOp::create(b, l, neg, arith::AddIOp::create(b, l, p, n), p);
  Value ge0 = cmpI(b, l, arith::CmpIPredicate::sge, p, zero);
  Value inN = cmpI(b, l,
                   allowEnd ? arith::CmpIPredicate::sle
                            : arith::CmpIPredicate::slt,
                   p, n);
  emitRuntimeCheck(b, l, arith::AndIOp::create(b, l, ge0, inN), message);
  return p;
}

/// `dst` with `src[srcOff : srcOff + len]` written at `dstOff` (1-D).
Value copyRange(OpBuilder &b, Location l, Value src, Value srcOff, Value len,
                Value dst, Value dstOff) {
  auto t = cast<RankedTensorType>(src.getType());
  Value part = tensor::ExtractSliceOp::create(
      b, l, RankedTensorType::get({ShapedType::kDynamic}, t.getElementType()),
      src, ValueRange{srcOff}, ValueRange{len}, ValueRange{idx(b, l, 1)});
  return tensor::InsertSliceOp::create(b, l, part, dst, ValueRange{dstOff},
                                       ValueRange{len},
                                       ValueRange{idx(b, l, 1)});
}

/// `dst` with rows [srcRow, srcRow + rows) of the shapes tensor `src` (r
/// columns) written at row `dstRow`.
Value copyRows(OpBuilder &b, Location l, Value src, Value srcRow, Value rows,
               Value dst, Value dstRow, Value r) {
  auto t = cast<RankedTensorType>(src.getType());
  Value part = tensor::ExtractSliceOp::create(
      b, l,
      RankedTensorType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                            t.getElementType()),
      src, ValueRange{srcRow, idx(b, l, 0)}, ValueRange{rows, r},
      ValueRange{idx(b, l, 1), idx(b, l, 1)});
  return tensor::InsertSliceOp::create(
      b, l, part, dst, ValueRange{dstRow, idx(b, l, 0)}, ValueRange{rows, r},
      ValueRange{idx(b, l, 1), idx(b, l, 1)});
}

/// `dims` (i64) as a row tensor<? x ? x i64> (1 x dims.size()); the type
/// is dynamic to match insert_slice with dynamic sizes.
Value dimsRow(OpBuilder &b, Location l, ValueRange dims) {
  auto rowType = RankedTensorType::get(
      {1, static_cast<int64_t>(dims.size())}, b.getI64Type());
  Value row =
      dims.empty()
          ? tensor::EmptyOp::create(b, l, rowType.getShape(), b.getI64Type())
                .getResult()
          : tensor::FromElementsOp::create(b, l, rowType, dims).getResult();
  return tensor::CastOp::create(
      b, l,
      RankedTensorType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                            b.getI64Type()),
      row);
}

/// The dims of `t` as a row (dimsRow).
Value shapeRow(OpBuilder &b, Location l, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(toI64(b, l, getDimValue(b, l, t, d)));
  return dimsRow(b, l, dims);
}

/// `s` with `t` inserted before item `p` (p in [0, n]). With static ranks,
/// `t` has the items' rank; with rows, any rank up to kSeqMaxItemRank
/// (checkInsertable).
Seq insertItem(OpBuilder &b, Location l, const Seq &s, Value t, Value p) {
  auto tType = cast<RankedTensorType>(t.getType());
  int64_t r = tType.getRank();
  Value n = s.length(b, l);
  Value total = getDimValue(b, l, s.data, 0);
  Value off = itemOffset(b, l, s, p);
  Value tn = numel(b, l, t);
  Value one = idx(b, l, 1);
  Value zero = idx(b, l, 0);

  auto dataType = RankedTensorType::get({ShapedType::kDynamic},
                                        tType.getElementType());
  Value data = tensor::EmptyOp::create(
      b, l, dataType.getShape(), dataType.getElementType(),
      ValueRange{arith::AddIOp::create(b, l, total, tn)});
  data = copyRange(b, l, s.data, zero, off, data, zero);
  data = tensor::InsertSliceOp::create(b, l, flatten(b, l, t), data,
                                       ValueRange{off}, ValueRange{tn},
                                       ValueRange{one});
  data = copyRange(b, l, s.data, off, arith::SubIOp::create(b, l, total, off),
                   data, arith::AddIOp::create(b, l, off, tn));

  if (s.hasRows()) {
    // Rows: the new one is t's rank, its dims, zeros.
    Value w = idx(b, l, kSeqRowWidth);
    Value at = rowStart(b, l, p);
    Value size = getDimValue(b, l, s.shapes, 0);
    Value shapes = tensor::EmptyOp::create(
        b, l, ArrayRef<int64_t>{ShapedType::kDynamic}, b.getI64Type(),
        ValueRange{arith::AddIOp::create(b, l, size, w)});
    shapes = copyRange(b, l, s.shapes, zero, at, shapes, zero);
    SmallVector<Value> row{createIntConstant(b, l, b.getI64Type(), r)};
    for (int64_t d = 0; d < r; ++d)
      row.push_back(toI64(b, l, getDimValue(b, l, t, d)));
    while ((int64_t)row.size() < kSeqRowWidth)
      row.push_back(createIntConstant(b, l, b.getI64Type(), 0));
    Value rowT = tensor::FromElementsOp::create(
        b, l, RankedTensorType::get({kSeqRowWidth}, b.getI64Type()), row);
    shapes = tensor::InsertSliceOp::create(
        b, l, rowT, shapes, ArrayRef<OpFoldResult>{at},
        ArrayRef<OpFoldResult>{b.getIndexAttr(kSeqRowWidth)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    shapes = copyRange(b, l, s.shapes, at,
                       arith::SubIOp::create(b, l, size, at), shapes,
                       arith::AddIOp::create(b, l, at, w));
    return {data, shapes};
  }

  Value rIdx = idx(b, l, r);
  Value shapes = tensor::EmptyOp::create(
      b, l, ArrayRef<int64_t>{ShapedType::kDynamic, r}, b.getI64Type(),
      ValueRange{arith::AddIOp::create(b, l, n, one)});
  shapes = copyRows(b, l, s.shapes, zero, p, shapes, zero, rIdx);
  if (r > 0)
    shapes = tensor::InsertSliceOp::create(
        b, l, shapeRow(b, l, t), shapes, ValueRange{p, zero},
        ValueRange{one, rIdx}, ValueRange{one, one});
  shapes = copyRows(b, l, s.shapes, p, arith::SubIOp::create(b, l, n, p),
                    shapes, arith::AddIOp::create(b, l, p, one), rIdx);
  return {data, shapes};
}

/// Item `i` of `s` as a tensor of `type` (its rank; static dims are
/// checked against the item's).
Value itemAt(OpBuilder &b, Location l, const Seq &s, Value i,
             RankedTensorType type, StringRef message) {
  int64_t r = type.getRank();
  if (s.hasRows())
    emitRuntimeCheck(b, l,
                     cmpI(b, l, arith::CmpIPredicate::eq,
                          itemRank(b, l, s, i), idx(b, l, r)),
                     message);
  Value off = itemOffset(b, l, s, i);
  Value n = itemNumel(b, l, s, i);
  auto flatType =
      RankedTensorType::get({ShapedType::kDynamic}, s.elementType());
  Value flat = tensor::ExtractSliceOp::create(
      b, l, flatType, s.data, ValueRange{off}, ValueRange{n},
      ValueRange{idx(b, l, 1)});
  SmallVector<Value> dims;
  for (int64_t k = 0; k < r; ++k)
    dims.push_back(itemDim(b, l, s, i, idx(b, l, k)));
  auto dynType = RankedTensorType::get(
      SmallVector<int64_t>(r, ShapedType::kDynamic), s.elementType());
  Value item;
  if (r == 0) {
    item = tensor::FromElementsOp::create(
        b, l, dynType,
        ValueRange{tensor::ExtractOp::create(b, l, flat,
                                             ValueRange{idx(b, l, 0)})});
  } else {
    SmallVector<Value> dims64;
    for (Value d : dims)
      dims64.push_back(toI64(b, l, d));
    Value shape = tensor::FromElementsOp::create(
        b, l, RankedTensorType::get({r}, b.getI64Type()), dims64);
    item = tensor::ReshapeOp::create(b, l, dynType, flat, shape);
  }
  return castChecked(b, l, item, type, message);
}

/// An empty sequence of `dataType`/`shapesType` (converted types, either
/// layout).
Seq emptySeq(OpBuilder &b, Location l, Type dataType, Type shapesType) {
  auto dt = cast<RankedTensorType>(dataType);
  auto st = cast<RankedTensorType>(shapesType);
  // Loop inits (SequenceMap's outputs) must not be merged by CSE.
  Value zero = idx(b, l, 0);
  Value data = createLoopInit(b, l, dt, {zero});
  Value shapes = createLoopInit(b, l, st, {zero, zero});
  return {data, shapes};
}



/// `s` in the layout of the converted sequence types `types` (static item
/// ranks must agree: inference keeps them so).
FailureOr<Seq> toLayout(Operation *op, OpBuilder &b, const Seq &s,
                        TypeRange types, StringRef message) {
  auto want = cast<RankedTensorType>(types[1]);
  if (want.getRank() == 2 && s.staticRank() &&
      *s.staticRank() != want.getDimSize(1))
    return op->emitOpError("items of rank ")
           << *s.staticRank() << " where the result's have rank "
           << want.getDimSize(1);
  return Seq{s.data, castChecked(b, op->getLoc(), s.shapes, want, message)};
}

/// Whether a tensor of type `t` can be inserted into `s`: as an item of the
/// same rank, or, with rows, of a rank that fits a row.
LogicalResult checkInsertable(Operation *op, const Seq &s, Type t) {
  int64_t r = cast<RankedTensorType>(t).getRank();
  if (auto sr = s.staticRank(); sr && *sr != r)
    return op->emitOpError("a tensor of rank ")
           << r << " does not fit items of rank " << *sr;
  if (r > kSeqMaxItemRank)
    return op->emitOpError("a sequence item has rank ")
           << r << ", above " << kSeqMaxItemRank;
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct SequenceEmptyLowering : OpConversionPattern<ONNX::SequenceEmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceEmptyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    Seq s = emptySeq(rewriter, op.getLoc(), (*types)[0], (*types)[1]);
    rewriter.replaceOpWithMultiple(op, {{s.data, s.shapes}});
    return success();
  }
};

struct SequenceConstructLowering
    : OpConversionPattern<ONNX::SequenceConstructOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceConstructOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    Seq s = emptySeq(rewriter, l, (*types)[0], (*types)[1]);
    for (auto [k, item] : llvm::enumerate(adaptor.getInputs())) {
      if (failed(checkInsertable(op, s, item.front().getType())))
        return failure();
      s = insertItem(rewriter, l, s, item.front(), idx(rewriter, l, k));
    }
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, l, {s.data, s.shapes}, *types,
                     "SequenceConstruct: item shapes")});
    return success();
  }
};

struct SequenceInsertLowering : OpConversionPattern<ONNX::SequenceInsertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceInsertOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    // The result's layout first: items of a static rank become rows when
    // a tensor of another rank joins them.
    auto s = toLayout(op, rewriter, Seq::of(adaptor.getInputSequence()),
                      *types,
                      "SequenceInsert: the tensor's rank differs from the "
                      "items'");
    Value t = adaptor.getTensor().front();
    if (failed(s) || failed(checkInsertable(op, *s, t.getType())))
      return failure();
    Value n = s->length(rewriter, l);
    Value p = isa<NoneType>(op.getPosition().getType())
                  ? n
                  : normalizePosition(rewriter, l,
                                      adaptor.getPosition().front(), n,
                                      /*allowEnd=*/true,
                                      "SequenceInsert: position out of range");
    Seq r = insertItem(rewriter, l, *s, t, p);
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, l, {r.data, r.shapes}, *types,
                     "SequenceInsert: item shapes")});
    return success();
  }
};

struct SequenceEraseLowering : OpConversionPattern<ONNX::SequenceEraseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceEraseOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    Seq s = Seq::of(adaptor.getInputSequence());
    Value n = s.length(rewriter, l);
    Value one = idx(rewriter, l, 1);
    Value zero = idx(rewriter, l, 0);
    Value p;
    if (isa<NoneType>(op.getPosition().getType())) {
      emitRuntimeCheck(rewriter, l,
                       cmpI(rewriter, l, arith::CmpIPredicate::sgt, n, zero),
                       "SequenceErase: the sequence is empty");
      p = arith::SubIOp::create(rewriter, l, n, one);
    } else {
      p = normalizePosition(rewriter, l, adaptor.getPosition().front(), n,
                            /*allowEnd=*/false,
                            "SequenceErase: position out of range");
    }
    Value total = getDimValue(rewriter, l, s.data, 0);
    Value off = itemOffset(rewriter, l, s, p);
    Value len = itemNumel(rewriter, l, s, p);
    Value end = arith::AddIOp::create(rewriter, l, off, len);
    Value data = tensor::EmptyOp::create(
        rewriter, l, ArrayRef<int64_t>{ShapedType::kDynamic}, s.elementType(),
        ValueRange{arith::SubIOp::create(rewriter, l, total, len)});
    data = copyRange(rewriter, l, s.data, zero, off, data, zero);
    data = copyRange(rewriter, l, s.data, end,
                     arith::SubIOp::create(rewriter, l, total, end), data, off);
    Value shapes;
    if (s.hasRows()) {
      Value at = rowStart(rewriter, l, p);
      Value next = arith::AddIOp::create(rewriter, l, at,
                                         idx(rewriter, l, kSeqRowWidth));
      Value size = getDimValue(rewriter, l, s.shapes, 0);
      shapes = tensor::EmptyOp::create(
          rewriter, l, ArrayRef<int64_t>{ShapedType::kDynamic},
          rewriter.getI64Type(),
          ValueRange{arith::SubIOp::create(rewriter, l, size,
                                           idx(rewriter, l, kSeqRowWidth))});
      shapes = copyRange(rewriter, l, s.shapes, zero, at, shapes, zero);
      shapes = copyRange(rewriter, l, s.shapes, next,
                         arith::SubIOp::create(rewriter, l, size, next), shapes,
                         at);
    } else {
      auto shapesType = cast<RankedTensorType>(s.shapes.getType());
      Value r = getDimValue(rewriter, l, s.shapes, 1);
      shapes = tensor::EmptyOp::create(
          rewriter, l, shapesType.getShape(), shapesType.getElementType(),
          ValueRange{arith::SubIOp::create(rewriter, l, n, one)});
      shapes = copyRows(rewriter, l, s.shapes, zero, p, shapes, zero, r);
      Value next = arith::AddIOp::create(rewriter, l, p, one);
      shapes = copyRows(rewriter, l, s.shapes, next,
                        arith::SubIOp::create(rewriter, l, n, next), shapes, p,
                        r);
    }
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, l, {data, shapes}, *types,
                     "SequenceErase: item shapes")});
    return success();
  }
};

struct SequenceAtLowering : OpConversionPattern<ONNX::SequenceAtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceAtOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("result type ")
             << op.getType() << " is not supported (unranked)";
    Seq s = Seq::of(adaptor.getInputSequence());
    Value p = normalizePosition(rewriter, l, adaptor.getPosition().front(),
                                s.length(rewriter, l), /*allowEnd=*/false,
                                "SequenceAt: position out of range");
    rewriter.replaceOp(op, itemAt(rewriter, l, s, p, type,
                                  "SequenceAt: the item does not fit the "
                                  "result's shape"));
    return success();
  }
};

struct SequenceLengthLowering : OpConversionPattern<ONNX::SequenceLengthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceLengthOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    Seq s = Seq::of(adaptor.getInputSequence());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI64Type()),
        ValueRange{toI64(rewriter, l, s.length(rewriter, l))});
    return success();
  }
};

/// SplitToSequence: item k is input[..., start_k : start_k + size_k, ...]
/// along `axis` (size 1 and squeezed when there is no split and keepdims
/// is 0). The items partition the input, so `data` has its element count.
struct SplitToSequenceLowering
    : OpConversionPattern<ONNX::SplitToSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SplitToSequenceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    Value input = adaptor.getInput().front();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = inType.getRank();
    int64_t axis = op.getAxis();
    if (axis < -rank || axis >= rank)
      return op.emitOpError("axis ") << axis << " is out of range for rank "
                                     << rank;
    axis = normalizeAxis(axis, rank);
    Value zero = idx(rewriter, l, 0);
    Value one = idx(rewriter, l, 1);
    Value dimLen = getDimValue(rewriter, l, input, axis);

    // The number of items and, per item k, its size along the axis.
    bool hasSplit = !isa<NoneType>(op.getSplit().getType());
    Value split = hasSplit ? adaptor.getSplit().front() : Value();
    bool scalarSplit =
        hasSplit && cast<RankedTensorType>(split.getType()).getRank() == 0;
    bool squeeze = !hasSplit && op.getKeepdims() == 0;
    Value count, chunk;
    if (!hasSplit) {
      count = dimLen;
    } else if (scalarSplit) {
      chunk = toIndex(rewriter, l,
                      tensor::ExtractOp::create(rewriter, l, split,
                                                ValueRange{}));
      emitRuntimeCheck(rewriter, l,
                       cmpI(rewriter, l, arith::CmpIPredicate::sgt, chunk, zero),
                       "SplitToSequence: split must be positive");
      count = arith::CeilDivSIOp::create(rewriter, l, dimLen, chunk);
    } else {
      if (cast<RankedTensorType>(split.getType()).getRank() != 1)
        return op.emitOpError("split must be a scalar or a 1-D tensor");
      count = getDimValue(rewriter, l, split, 0);
      // The sizes are non-negative and add up to the axis length.
      // (No body builder: the run-time check needs the loop in the module.)
      auto sum =
          scf::ForOp::create(rewriter, l, zero, count, one, ValueRange{zero});
      {
        OpBuilder::InsertionGuard g(rewriter);
        rewriter.setInsertionPointToStart(sum.getBody());
        Value sz = toIndex(rewriter, l,
                           tensor::ExtractOp::create(
                               rewriter, l, split,
                               ValueRange{sum.getInductionVar()}));
        emitRuntimeCheck(rewriter, l,
                         cmpI(rewriter, l, arith::CmpIPredicate::sge, sz, zero),
                         "SplitToSequence: a split size is negative");
        scf::YieldOp::create(rewriter, l,
                             ValueRange{arith::AddIOp::create(
                                 rewriter, l, sum.getRegionIterArgs()[0], sz)});
      }
      emitRuntimeCheck(rewriter, l,
                       cmpI(rewriter, l, arith::CmpIPredicate::eq,
                            sum.getResult(0), dimLen),
                       "SplitToSequence: the split sizes do not add up to "
                       "the axis length");
    }

    int64_t itemRank = squeeze ? rank - 1 : rank;
    auto dataType = RankedTensorType::get({ShapedType::kDynamic},
                                          inType.getElementType());
    Value data = createLoopInit(rewriter, l, dataType,
                                {numel(rewriter, l, input)});
    Value shapes = createLoopInit(
        rewriter, l,
        RankedTensorType::get({ShapedType::kDynamic, itemRank},
                              rewriter.getI64Type()),
        {count, Value()});
    auto loop = CountedLoop::build(rewriter, l, count,
                                   ValueRange{data, shapes, zero, zero},
                                   /*shapesChange=*/false);
    rewriter.setInsertionPointToStart(loop.body);
    Value k = loop.iv;
    Value start = loop.iterArgs[3], off = loop.iterArgs[2];
    Value size;
    if (!hasSplit)
      size = one;
    else if (scalarSplit)
      size = arith::MinSIOp::create(rewriter, l, chunk,
                                    arith::SubIOp::create(rewriter, l, dimLen,
                                                          start));
    else
      size = toIndex(rewriter, l,
                     tensor::ExtractOp::create(rewriter, l, split,
                                               ValueRange{k}));
    SmallVector<OpFoldResult> offsets, sizes,
        strides(rank, rewriter.getIndexAttr(1));
    SmallVector<int64_t> sliceShape;
    SmallVector<Value> dims64;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        offsets.push_back(start);
        sizes.push_back(size);
        sliceShape.push_back(ShapedType::kDynamic);
        if (!squeeze)
          dims64.push_back(toI64(rewriter, l, size));
        continue;
      }
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(getDimOFR(rewriter, l, input, d));
      sliceShape.push_back(inType.getDimSize(d));
      dims64.push_back(toI64(rewriter, l, getDimValue(rewriter, l, input, d)));
    }
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, l,
        RankedTensorType::get(sliceShape, inType.getElementType()), input,
        offsets, sizes, strides);
    Value flat = flatten(rewriter, l, slice);
    Value len = numel(rewriter, l, slice);
    Value newData = tensor::InsertSliceOp::create(
        rewriter, l, flat, loop.iterArgs[0], ValueRange{off}, ValueRange{len},
        ValueRange{one});
    Value newShapes = loop.iterArgs[1];
    if (itemRank > 0) {
      Value row = dimsRow(rewriter, l, dims64);
      newShapes = tensor::InsertSliceOp::create(
          rewriter, l, row, newShapes, ValueRange{k, zero},
          ValueRange{one, idx(rewriter, l, itemRank)}, ValueRange{one, one});
    }
    loop.finish(rewriter, l,
                {newData, newShapes, arith::AddIOp::create(rewriter, l, off, len),
                 arith::AddIOp::create(rewriter, l, start, size)});
    rewriter.setInsertionPointAfter(loop.op);
    ValueRange res = loop.results();
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, l, {res[0], res[1]}, *types,
                     "SplitToSequence: item shapes")});
    return success();
  }
};

/// ConcatFromSequence: the items joined along `axis` (new_axis = 0) or
/// stacked on a new dim at `axis` (new_axis = 1). Items must agree on the
/// other dims (checked); an empty sequence is an error.
struct ConcatFromSequenceLowering
    : OpConversionPattern<ONNX::ConcatFromSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConcatFromSequenceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("result type ")
             << op.getType() << " is not supported (unranked)";
    bool stack = op.getNewAxis() != 0;
    int64_t outRank = type.getRank();
    int64_t r = stack ? outRank - 1 : outRank;
    int64_t axis = op.getAxis();
    if (axis < -outRank || axis >= outRank)
      return op.emitOpError("axis ") << axis << " is out of range";
    axis = normalizeAxis(axis, outRank);
    Seq s = Seq::of(adaptor.getInputSequence());
    Value n = s.length(rewriter, l);
    Value zero = idx(rewriter, l, 0);
    Value one = idx(rewriter, l, 1);
    emitRuntimeCheck(rewriter, l,
                     cmpI(rewriter, l, arith::CmpIPredicate::sgt, n, zero),
                     "ConcatFromSequence: the sequence is empty");
    checkItemRanks(rewriter, l, s, r,
                   "ConcatFromSequence: the items' rank does not fit");
    // The result's sizes: item 0's dims, with the axis the sum (concat) or
    // n (stack).
    Value axisLen = n;
    if (!stack) {
      auto sum = scf::ForOp::create(
          rewriter, l, zero, n, one, ValueRange{zero},
          [&](OpBuilder &b, Location nl, Value i, ValueRange acc) {
            scf::YieldOp::create(
                b, nl,
                ValueRange{arith::AddIOp::create(
                    b, nl, acc[0], itemDim(b, nl, s, i, idx(b, nl, axis)))});
          });
      axisLen = sum.getResult(0);
    }
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < outRank; ++d) {
      if (d == axis) {
        sizes.push_back(axisLen);
        continue;
      }
      int64_t itemD = stack && d > axis ? d - 1 : d;
      sizes.push_back(itemDim(rewriter, l, s, zero, idx(rewriter, l, itemD)));
    }
    auto dynOut = RankedTensorType::get(
        SmallVector<int64_t>(outRank, ShapedType::kDynamic),
        type.getElementType());
    Value init = createLoopInit(rewriter, l, dynOut, sizes);
    auto loop = scf::ForOp::create(rewriter, l, zero, n, one,
                                   ValueRange{init, zero});
    rewriter.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value acc = loop.getRegionIterArgs()[0];
    Value at = loop.getRegionIterArgs()[1];
    auto itemType = RankedTensorType::get(
        SmallVector<int64_t>(r, ShapedType::kDynamic), type.getElementType());
    Value item = itemAt(rewriter, l, s, i, itemType,
                        "ConcatFromSequence: the items' rank does not fit");
    SmallVector<OpFoldResult> offsets, isizes,
        strides(outRank, rewriter.getIndexAttr(1));
    Value along;
    for (int64_t d = 0; d < outRank; ++d) {
      if (stack && d == axis) {
        offsets.push_back(i);
        isizes.push_back(rewriter.getIndexAttr(1));
        continue;
      }
      int64_t itemD = stack && d > axis ? d - 1 : d;
      Value dim = getDimValue(rewriter, l, item, itemD);
      if (d == axis) {
        offsets.push_back(at);
        along = dim;
      } else {
        offsets.push_back(rewriter.getIndexAttr(0));
        emitRuntimeCheck(rewriter, l,
                         cmpI(rewriter, l, arith::CmpIPredicate::eq, dim,
                              sizes[d]),
                         "ConcatFromSequence: the items differ in a dim "
                         "other than the axis");
      }
      isizes.push_back(dim);
    }
    Value next = tensor::InsertSliceOp::create(rewriter, l, item, acc, offsets,
                                               isizes, strides);
    Value nextAt = stack ? at : arith::AddIOp::create(rewriter, l, at, along);
    scf::YieldOp::create(rewriter, l, ValueRange{next, nextAt});
    rewriter.setInsertionPointAfter(loop);
    rewriter.replaceOp(op, castChecked(rewriter, l, loop.getResult(0), type,
                                       "ConcatFromSequence: the result does "
                                       "not fit its declared shape"));
    return success();
  }
};

/// SequenceMap: the body runs once per item of input_sequence (and of the
/// additional inputs that are sequences, which must be as long); additional
/// tensors are passed whole. Each body output is appended to its output
/// sequence.
struct SequenceMapLowering : OpConversionPattern<ONNX::SequenceMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::SequenceMapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    const TypeConverter &tc = *getTypeConverter();
    Region &body = op.getBody();
    auto yield = cast<ONNX::YieldOp>(body.front().getTerminator());
    unsigned numIn = 1 + op.getAdditionalInputs().size();
    if (body.getNumArguments() != numIn ||
        yield.getValues().size() != op.getNumResults())
      return op.emitOpError("body signature does not match: ")
             << body.getNumArguments() << " inputs and "
             << yield.getValues().size() << " outputs for " << numIn
             << " inputs and " << op.getNumResults() << " results";
    SmallVector<SmallVector<Value>> inputs{
        SmallVector<Value>(adaptor.getInputSequence())};
    for (ValueRange g : adaptor.getAdditionalInputs())
      inputs.emplace_back(g);
    SmallVector<Type> outFlat, rowTypes;
    if (failed(convertFlat(op, tc, op.getResultTypes(), "a result", outFlat)) ||
        failed(convertFlat(op, tc, yield.getValues().getTypes(),
                           "a body output", rowTypes)))
      return failure();
    if (rowTypes.size() != op.getNumResults())
      return op.emitOpError("body outputs must be tensors");

    Seq first = Seq::of(inputs[0]);
    Value n = first.length(rewriter, l);
    for (unsigned j = 1; j < numIn; ++j)
      if (isa<ONNX::SeqType>(body.getArgument(j).getType()) ||
          isa<ONNX::SeqType>(op->getOperand(j).getType()))
        emitRuntimeCheck(rewriter, l,
                         cmpI(rewriter, l, arith::CmpIPredicate::eq,
                              Seq::of(inputs[j]).length(rewriter, l), n),
                         "SequenceMap: the input sequences differ in length");

    // Output sequences start empty with the items' rank.
    SmallVector<Value> inits;
    for (Type row : rowTypes) {
      auto rt = cast<RankedTensorType>(row);
      Seq e = emptySeq(
          rewriter, l,
          RankedTensorType::get({ShapedType::kDynamic}, rt.getElementType()),
          RankedTensorType::get({ShapedType::kDynamic, rt.getRank()},
                                rewriter.getI64Type()));
      inits.push_back(e.data);
      inits.push_back(e.shapes);
    }
    auto loop = CountedLoop::build(rewriter, l, n, inits,
                                   /*shapesChange=*/true);
    rewriter.setInsertionPointToStart(loop.body);
    Value i = loop.iv;
    SmallVector<Value> bodyArgs;
    for (unsigned j = 0; j < numIn; ++j) {
      Type argType = body.getArgument(j).getType();
      bool perItem = isa<ONNX::SeqType>(op->getOperand(j).getType()) &&
                     !isa<ONNX::SeqType>(argType);
      if (!perItem) {
        SmallVector<Type> want;
        if (failed(convertFlat(op, tc, argType, "a body input", want)))
          return failure();
        bodyArgs.append(castAll(rewriter, l, inputs[j], want,
                                "SequenceMap: an input does not fit the "
                                "body's input shape"));
        continue;
      }
      auto itemType =
          dyn_cast_or_null<RankedTensorType>(tc.convertType(argType));
      if (!itemType)
        return op.emitOpError("body input ")
               << j << " of type " << argType << " is not supported";
      bodyArgs.push_back(itemAt(rewriter, l, Seq::of(inputs[j]), i, itemType,
                                "SequenceMap: an item does not fit the "
                                "body's input shape"));
    }
    auto block = convertBody(op, body, tc, rewriter);
    if (failed(block))
      return failure();
    rewriter.setInsertionPointToEnd(loop.body);
    auto exec = inlineBody(rewriter, l, *block, bodyArgs, rowTypes);
    SmallVector<Value> yields;
    for (unsigned k = 0; k < rowTypes.size(); ++k) {
      Seq acc{loop.iterArgs[2 * k], loop.iterArgs[2 * k + 1]};
      Seq next = insertItem(rewriter, l, acc, exec.getResult(k), i);
      yields.push_back(next.data);
      yields.push_back(next.shapes);
    }
    loop.finish(rewriter, l, yields);
    rewriter.setInsertionPointAfter(loop.op);
    SmallVector<Value> outs = castAll(rewriter, l, loop.results(), outFlat,
                                      "SequenceMap: output item shapes");
    rewriter.replaceOpWithMultiple(
        op, regroup(outs, SmallVector<unsigned>(rowTypes.size(), 2)));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Layouts of the shapes (Sequence.h)
//===----------------------------------------------------------------------===//

bool linalg_conv::isSeqShapesLayoutChange(Type from, Type to) {
  auto f = dyn_cast<RankedTensorType>(from);
  auto t = dyn_cast<RankedTensorType>(to);
  if (!f || !t || !f.getElementType().isInteger(64) ||
      !t.getElementType().isInteger(64))
    return false;
  auto isTable = [](RankedTensorType x) {
    return x.getRank() == 2 && !x.isDynamicDim(1);
  };
  return (f.getRank() == 1 && isTable(t)) || (isTable(f) && t.getRank() == 1);
}

Value linalg_conv::seqShapesToRows(OpBuilder &b, Location l, Value table) {
  auto type = cast<RankedTensorType>(table.getType());
  int64_t r = type.getDimSize(1);
  assert(r <= kSeqMaxItemRank && "the type converter keeps ranks in a row");
  Value n = getDimValue(b, l, table, 0);
  Value init = createLoopInit(
      b, l, RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type()),
      {rowStart(b, l, n)});
  auto loop = scf::ForOp::create(
      b, l, idx(b, l, 0), n, idx(b, l, 1), ValueRange{init},
      [&](OpBuilder &nb, Location nl, Value i, ValueRange acc) {
        SmallVector<Value> row{createIntConstant(nb, nl, nb.getI64Type(), r)};
        for (int64_t k = 0; k < r; ++k)
          row.push_back(tensor::ExtractOp::create(
              nb, nl, table, ValueRange{i, idx(nb, nl, k)}));
        while ((int64_t)row.size() < kSeqRowWidth)
          row.push_back(createIntConstant(nb, nl, nb.getI64Type(), 0));
        Value rowT = tensor::FromElementsOp::create(
            nb, nl, RankedTensorType::get({kSeqRowWidth}, nb.getI64Type()),
            row);
        Value next = tensor::InsertSliceOp::create(
            nb, nl, rowT, acc[0], ArrayRef<OpFoldResult>{rowStart(nb, nl, i)},
            ArrayRef<OpFoldResult>{nb.getIndexAttr(kSeqRowWidth)},
            ArrayRef<OpFoldResult>{nb.getIndexAttr(1)});
        scf::YieldOp::create(nb, nl, next);
      });
  return loop.getResult(0);
}

Value linalg_conv::seqShapesFromRows(OpBuilder &b, Location l, Value rows,
                                     int64_t r, StringRef message) {
  Seq s{Value(), rows};
  Value n = s.length(b, l);
  auto tableType =
      RankedTensorType::get({ShapedType::kDynamic, r}, b.getI64Type());
  Value init = createLoopInit(b, l, tableType, {n, Value()});
  // No body builder: the run-time check needs the loop in the module.
  auto loop = scf::ForOp::create(b, l, idx(b, l, 0), n, idx(b, l, 1),
                                 ValueRange{init});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  emitRuntimeCheck(b, l,
                   cmpI(b, l, arith::CmpIPredicate::eq, itemRank(b, l, s, i),
                        idx(b, l, r)),
                   message);
  Value table = loop.getRegionIterArgs()[0];
  for (int64_t k = 0; k < r; ++k)
    table = tensor::InsertOp::create(
        b, l, toI64(b, l, itemDim(b, l, s, i, idx(b, l, k))), table,
        ValueRange{i, idx(b, l, k)});
  scf::YieldOp::create(b, l, table);
  return loop.getResult(0);
}

void mlir::onnxc::populateSequencePatterns(TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<SequenceEmptyLowering, SequenceConstructLowering,
               SequenceInsertLowering, SequenceEraseLowering,
               SequenceAtLowering, SequenceLengthLowering,
               SplitToSequenceLowering, ConcatFromSequenceLowering,
               SequenceMapLowering>(tc, patterns.getContext());
}

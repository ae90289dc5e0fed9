//===- ControlFlow.cpp - If, Loop, Scan -> scf -----------------------------===//
//
// Subgraphs become scf regions: If -> scf.if, Loop -> scf.while, Scan (and
// the opset-8 batched ScanV8) -> scf.for. A body is inlined into an
// scf.execute_region inside the loop, so its onnx.Yield lowers the same way
// everywhere (YieldLowering: scf.yield of the converted values, cast to what
// the parent expects), and the loop-specific work (the condition, the
// iteration number, the scan outputs) is built around it by the loop's own
// pattern. Bodies reach outer-scope values directly: scf regions are not
// isolated from above.
//
// Scan outputs are accumulated in a tensor carried by the loop whose rows
// are written in place with tensor.insert_slice. Its capacity grows on
// demand: for Loop to the trip count M when M is known and small, otherwise
// by doubling (amortized O(1) per row); for Scan to the sequence length at
// the first step. Growth yields a new tensor from the loop, which one-shot
// bufferization accepts with allow-return-allocs-from-loops (Pipeline.cpp),
// and the ownership-based deallocation frees the old buffer.
//
// Every place where a value of a dynamic shape meets a static type (a
// loop-carried value, a branch result, a scan output whose length is only
// known at run time) is checked at run time before the tensor.cast.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

Value linalg_conv::castChecked(OpBuilder &b, Location loc, Value v, Type to,
                               StringRef message) {
  if (v.getType() == to)
    return v;
  if (isSeqShapesLayoutChange(v.getType(), to)) {
    auto toT = cast<RankedTensorType>(to);
    if (toT.getRank() == 1)
      return castChecked(b, loc, seqShapesToRows(b, loc, v), to, message);
    return castChecked(b, loc,
                       seqShapesFromRows(b, loc, v, toT.getDimSize(1), message),
                       to, message);
  }
  auto from = cast<RankedTensorType>(v.getType());
  auto toT = cast<RankedTensorType>(to);
  Value ok;
  for (int64_t d = 0, e = from.getRank(); d < e; ++d) {
    if (!from.isDynamicDim(d) || toT.isDynamicDim(d))
      continue;
    Value same = cmpI(b, loc, arith::CmpIPredicate::eq,
                      getDimValue(b, loc, v, d),
                      createIndexConstant(b, loc, toT.getDimSize(d)));
    ok = ok ? arith::AndIOp::create(b, loc, ok, same).getResult() : same;
  }
  if (ok) {
    if (from.getRank() > 0 && (toT.isDynamicDim(0) || toT.getDimSize(0) == 0))
      ok = arith::OrIOp::create(
          b, loc, ok,
          cmpI(b, loc, arith::CmpIPredicate::eq, getDimValue(b, loc, v, 0),
               createIndexConstant(b, loc, 0)));
    emitRuntimeCheck(b, loc, ok, message);
  }
  return tensor::CastOp::create(b, loc, toT, v);
}

Value linalg_conv::createLoopInit(OpBuilder &b, Location loc,
                                  RankedTensorType type,
                                  ArrayRef<Value> sizes) {
  SmallVector<Value> dyn;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(sizes[i]);
  return bufferization::AllocTensorOp::create(b, loc, type, dyn);
}

Value linalg_conv::extractSingle(OpBuilder &b, Location loc, Value t,
                                StringRef message) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> zeros;
  Value one = createIndexConstant(b, loc, 1);
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (type.isDynamicDim(d))
      emitRuntimeCheck(b, loc,
                       cmpI(b, loc, arith::CmpIPredicate::eq,
                            getDimValue(b, loc, t, d), one),
                       message);
    zeros.push_back(createIndexConstant(b, loc, 0));
  }
  return tensor::ExtractOp::create(b, loc, t, zeros);
}

LogicalResult linalg_conv::convertFlat(Operation *op, const TypeConverter &tc,
                                       TypeRange types, StringRef what,
                                       SmallVectorImpl<Type> &flat,
                                       SmallVectorImpl<unsigned> *counts) {
  for (Type t : types) {
    SmallVector<Type> converted;
    if (failed(tc.convertType(t, converted)) || converted.empty() ||
        !llvm::all_of(converted, llvm::IsaPred<RankedTensorType>))
      return op->emitOpError() << what << " of type " << t
                               << " is not supported (no tensor conversion)";
    flat.append(converted.begin(), converted.end());
    if (counts)
      counts->push_back(converted.size());
  }
  return success();
}

SmallVector<SmallVector<Value>>
linalg_conv::regroup(ValueRange values, ArrayRef<unsigned> counts) {
  SmallVector<SmallVector<Value>> groups;
  unsigned pos = 0;
  for (unsigned c : counts) {
    groups.emplace_back(values.slice(pos, c));
    pos += c;
  }
  return groups;
}

FailureOr<Block *> linalg_conv::convertBody(Operation *op, Region &region,
                                            const TypeConverter &tc,
                                            ConversionPatternRewriter &rewriter) {
  TypeConverter::SignatureConversion sig(region.getNumArguments());
  for (auto [i, t] : llvm::enumerate(region.getArgumentTypes())) {
    SmallVector<Type> converted;
    if (failed(convertFlat(op, tc, t, "a body input", converted)))
      return failure();
    sig.addInputs(i, converted);
  }
  return rewriter.applySignatureConversion(&region.front(), sig, &tc);
}

scf::ExecuteRegionOp
linalg_conv::inlineBody(ConversionPatternRewriter &rewriter, Location loc,
                        Block *body, ValueRange args, TypeRange resultTypes) {
  auto exec = scf::ExecuteRegionOp::create(rewriter, loc, resultTypes);
  Block *block = rewriter.createBlock(&exec.getRegion());
  rewriter.inlineBlockBefore(body, block, block->end(), args);
  rewriter.setInsertionPointAfter(exec);
  return exec;
}

CountedLoop CountedLoop::build(OpBuilder &b, Location loc, Value upper,
                               ValueRange inits, bool shapesChange) {
  Value zero = createIndexConstant(b, loc, 0);
  Value one = createIndexConstant(b, loc, 1);
  if (!shapesChange) {
    auto forOp = scf::ForOp::create(b, loc, zero, upper, one, inits);
    return {forOp, forOp.getBody(), forOp.getInductionVar(),
            SmallVector<Value>(forOp.getRegionIterArgs())};
  }
  SmallVector<Value> all{zero};
  all.append(inits.begin(), inits.end());
  TypeRange types = ValueRange(all).getTypes();
  SmallVector<Location> locs(all.size(), loc);
  auto whileOp = scf::WhileOp::create(b, loc, types, all);
  OpBuilder::InsertionGuard g(b);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  scf::ConditionOp::create(b, loc,
                           cmpI(b, loc, arith::CmpIPredicate::slt,
                                before->getArgument(0), upper),
                           before->getArguments());
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  return {whileOp, after, after->getArgument(0),
          SmallVector<Value>(after->getArguments().drop_front())};
}

void CountedLoop::finish(OpBuilder &b, Location loc, ValueRange yields) {
  SmallVector<Value> all;
  if (isa<scf::WhileOp>(op))
    all.push_back(
        arith::AddIOp::create(b, loc, iv, createIndexConstant(b, loc, 1)));
  all.append(yields.begin(), yields.end());
  scf::YieldOp::create(b, loc, all);
}

ValueRange CountedLoop::results() {
  return isa<scf::WhileOp>(op) ? op->getResults().drop_front()
                               : op->getResults();
}

namespace {

/// Trip counts up to this many rows are preallocated in one step.
constexpr int64_t kMaxPreallocatedRows = 1024;

/// True when every dim of a static `type` is 1, or it has dynamic dims.
bool maySingle(RankedTensorType type) {
  return llvm::all_of(type.getShape(), [](int64_t d) {
    return d == 1 || ShapedType::isDynamic(d);
  });
}

/// The converted types of `types`, or failure (the error is on `op`).
FailureOr<SmallVector<Type>> convertRanked(Operation *op,
                                           const TypeConverter &tc,
                                           TypeRange types, StringRef what) {
  SmallVector<Type> out;
  for (Type t : types) {
    Type c = tc.convertType(t);
    if (!c || !isa<RankedTensorType>(c)) {
      op->emitOpError() << what << " of type " << t
                        << " is not supported (only ranked tensors)";
      return failure();
    }
    out.push_back(c);
  }
  return out;
}

/// The accumulator of one scan output: the per-step slice type with the
/// scan dim (dynamic: it is the capacity) inserted at `axis`.
RankedTensorType accumulatorType(RankedTensorType slice, int64_t axis) {
  SmallVector<int64_t> shape(slice.getShape());
  shape.insert(shape.begin() + axis, ShapedType::kDynamic);
  return RankedTensorType::get(shape, slice.getElementType());
}

/// An empty accumulator (capacity 0; dynamic slice dims are 0 until the
/// first row fixes them).
Value emptyAccumulator(OpBuilder &b, Location loc, RankedTensorType accType) {
  SmallVector<Value> sizes(accType.getRank(), createIndexConstant(b, loc, 0));
  return createLoopInit(b, loc, accType, sizes);
}

/// `slice` inserted as row `pos` (along `axis`) of `acc`.
Value insertRow(OpBuilder &b, Location loc, Value acc, Value slice, Value pos,
                int64_t axis) {
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0, e = accType.getRank(); d < e; ++d) {
    strides.push_back(b.getIndexAttr(1));
    if (d == axis) {
      offsets.push_back(pos);
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(getDimOFR(b, loc, slice, d < axis ? d : d - 1));
  }
  return tensor::InsertSliceOp::create(b, loc, slice, acc, offsets, sizes,
                                       strides);
}

/// Writes `slice` as row `pos` (along `axis`) of the accumulator `acc`,
/// growing it first when `pos` is past its capacity: the new capacity is
/// `newCapacity(capacity)`. Later rows must have the shape of the first
/// (checked at run time). Returns the updated accumulator. Without
/// `newCapacity` the accumulator was preallocated and only gets the row.
Value appendRow(OpBuilder &b, Location loc, Value acc, Value slice, Value pos,
                int64_t axis,
                function_ref<Value(OpBuilder &, Location, Value)> newCapacity,
                StringRef op) {
  auto accType = cast<RankedTensorType>(acc.getType());
  auto sliceType = cast<RankedTensorType>(slice.getType());
  if (!newCapacity)
    return insertRow(b, loc, acc, slice, pos, axis);
  Value cap = tensor::DimOp::create(b, loc, acc, axis);
  Value zero = createIndexConstant(b, loc, 0);

  // Rows after the first match it.
  for (int64_t d = 0, e = sliceType.getRank(); d < e; ++d) {
    if (!sliceType.isDynamicDim(d))
      continue;
    int64_t accDim = d < axis ? d : d + 1;
    Value same = cmpI(b, loc, arith::CmpIPredicate::eq,
                      tensor::DimOp::create(b, loc, acc, accDim),
                      tensor::DimOp::create(b, loc, slice, d));
    Value first = cmpI(b, loc, arith::CmpIPredicate::eq, cap, zero);
    emitRuntimeCheck(b, loc, arith::OrIOp::create(b, loc, first, same),
                     (op + ": scan output rows differ in shape").str());
  }

  Value full = cmpI(b, loc, arith::CmpIPredicate::uge, pos, cap);
  auto grow = scf::IfOp::create(b, loc, TypeRange{accType}, full,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(grow.thenBlock());
    Value newCap = newCapacity(b, loc, cap);
    SmallVector<Value> sizes;
    SmallVector<OpFoldResult> oldSizes;
    for (int64_t d = 0, e = accType.getRank(); d < e; ++d) {
      if (d == axis) {
        sizes.push_back(newCap);
        oldSizes.push_back(cap);
        continue;
      }
      int64_t sd = d < axis ? d : d - 1;
      sizes.push_back(getDimValue(b, loc, slice, sd));
      oldSizes.push_back(getDimOFR(b, loc, slice, sd));
    }
    Value fresh = createEmpty(b, loc, accType, sizes);
    SmallVector<OpFoldResult> zeros(accType.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(accType.getRank(), b.getIndexAttr(1));
    Value old = tensor::ExtractSliceOp::create(b, loc, acc, zeros, oldSizes,
                                               ones);
    Value copied =
        tensor::InsertSliceOp::create(b, loc, old, fresh, zeros, oldSizes, ones);
    scf::YieldOp::create(b, loc, copied);
    b.setInsertionPointToStart(grow.elseBlock());
    scf::YieldOp::create(b, loc, acc);
  }

  return insertRow(b, loc, grow.getResult(0), slice, pos, axis);
}

/// The first `count` rows (along `axis`) of an accumulator, cast to the
/// op's result type.
Value finishAccumulator(OpBuilder &b, Location loc, Value acc, Value count,
                        int64_t axis, Type resultType, StringRef message) {
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<OpFoldResult> zeros(accType.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(accType.getRank(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0, e = accType.getRank(); d < e; ++d)
    sizes.push_back(d == axis ? OpFoldResult(count)
                              : getDimOFR(b, loc, acc, d));
  Value rows = tensor::ExtractSliceOp::create(b, loc, acc, zeros, sizes, ones);
  return castChecked(b, loc, rows, resultType, message);
}

//===----------------------------------------------------------------------===//
// Yield
//===----------------------------------------------------------------------===//

/// onnx.Yield -> scf.yield of the converted values (a sequence or an
/// optional yields several), each cast to the type the parent (scf.if,
/// scf.execute_region) declares for it.
struct YieldLowering : OpConversionPattern<ONNX::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::YieldOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *parent = op->getParentOp();
    if (!isa<scf::IfOp, scf::ExecuteRegionOp>(parent))
      return op.emitOpError("is only lowered inside a lowered If, Loop, Scan "
                            "or SequenceMap body");
    SmallVector<Value> flat;
    for (ValueRange group : adaptor.getValues())
      flat.append(group.begin(), group.end());
    TypeRange expected = parent->getResultTypes();
    if (expected.size() != flat.size())
      return op.emitOpError("yields ")
             << flat.size() << " values where " << expected.size()
             << " are expected";
    SmallVector<Value> values;
    for (auto [v, t] : llvm::zip(flat, expected)) {
      auto vt = dyn_cast<RankedTensorType>(v.getType());
      auto tt = dyn_cast<RankedTensorType>(t);
      if (!vt || !tt ||
          (vt.getRank() != tt.getRank() && !isSeqShapesLayoutChange(vt, tt)) ||
          vt.getElementType() != tt.getElementType())
        return op.emitOpError("yields a value of type ")
               << v.getType() << " where " << t << " is expected";
      values.push_back(castChecked(
          rewriter, op.getLoc(), v, t,
          "subgraph output: a static dim differs at run time"));
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

struct IfLowering : OpConversionPattern<ONNX::IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::IfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value condT = adaptor.getCond().front();
    auto condType = cast<RankedTensorType>(condT.getType());
    if (!maySingle(condType))
      return op.emitOpError("cond must hold a single bool, not ")
             << op.getCond().getType();
    SmallVector<Type> types;
    SmallVector<unsigned> counts;
    if (failed(convertFlat(op, *getTypeConverter(), op.getResultTypes(),
                           "a result", types, &counts)))
      return failure();
    Value cond = extractSingle(rewriter, loc, condT,
                               "If: cond must hold a single element");
    auto ifOp = scf::IfOp::create(rewriter, loc, types, cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOpWithMultiple(op, regroup(ifOp.getResults(), counts));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

/// The loop-carried values of a Loop, flattened: as the body takes them
/// (`in`, what the loop carries), as it yields them and as the loop returns
/// them. Opset-16 bodies may take an optional<T> and yield a T (a present
/// optional), and the result is then a T (test_loop16_seq_none); `in` stays
/// the optional.
struct Carried {
  SmallVector<Type> onnxIn, onnxYield, onnxOut;
  SmallVector<Type> in, yield, out;
  SmallVector<unsigned> inCounts, yieldCounts, outCounts;

  /// Converts the types; fails (with an error on `op`) for a type with no
  /// conversion or kinds that differ other than by an optional.
  LogicalResult init(Operation *op, const TypeConverter &tc, TypeRange bodyIn,
                     TypeRange bodyOut, TypeRange results) {
    onnxIn.assign(bodyIn.begin(), bodyIn.end());
    onnxYield.assign(bodyOut.begin(), bodyOut.end());
    onnxOut.assign(results.begin(), results.end());
    if (failed(convertFlat(op, tc, bodyIn, "a loop-carried value", in,
                           &inCounts)) ||
        failed(convertFlat(op, tc, bodyOut, "a loop-carried value", yield,
                           &yieldCounts)) ||
        failed(convertFlat(op, tc, results, "a result", out, &outCounts)))
      return failure();
    for (unsigned k = 0; k < onnxIn.size(); ++k)
      if (!fits(onnxYield[k], yieldCounts[k], onnxIn[k], inCounts[k]) ||
          !fits(onnxIn[k], inCounts[k], onnxOut[k], outCounts[k]))
        return op->emitOpError("loop-carried value ")
               << k << " is a " << onnxIn[k] << " in the body, yielded as a "
               << onnxYield[k] << " and returned as a " << onnxOut[k];
    return success();
  }

  /// Whether a value of onnx type `from` (`n` converted values) can become
  /// one of type `to` (`m`): the same kind, or an optional more or less.
  static bool fits(Type from, unsigned n, Type to, unsigned m) {
    bool fromOpt = isa<ONNX::OptType>(from), toOpt = isa<ONNX::OptType>(to);
    return n + (toOpt && !fromOpt) == m + (fromOpt && !toOpt);
  }

  /// `values`, converted values of onnx types `from` (grouped by
  /// `counts`), as values of onnx types `to` (converted: `toTypes`, grouped
  /// by `toCounts`): a T becomes a present optional<T>; an optional<T> a T,
  /// checked at run time to be present; every value is cast (checked).
  static SmallVector<Value> adapt(OpBuilder &b, Location loc,
                                  ValueRange values, ArrayRef<Type> from,
                                  ArrayRef<unsigned> counts, ArrayRef<Type> to,
                                  ArrayRef<Type> toTypes,
                                  ArrayRef<unsigned> toCounts,
                                  StringRef message) {
    SmallVector<Value> out;
    unsigned pos = 0, toPos = 0;
    for (unsigned k = 0; k < from.size(); ++k) {
      ValueRange group = values.slice(pos, counts[k]);
      ArrayRef<Type> types = toTypes.slice(toPos, toCounts[k]);
      pos += counts[k];
      toPos += toCounts[k];
      bool fromOpt = isa<ONNX::OptType>(from[k]);
      bool toOpt = isa<ONNX::OptType>(to[k]);
      if (fromOpt && !toOpt) {
        emitRuntimeCheck(
            b, loc, tensor::ExtractOp::create(b, loc, group[0], ValueRange{}),
            "Loop: an empty optional where the loop-carried value must be "
            "present");
        group = group.drop_front();
      } else if (!fromOpt && toOpt) {
        out.push_back(arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(RankedTensorType::get({}, b.getI1Type()),
                                   true)));
        types = types.drop_front();
      }
      for (auto [v, t] : llvm::zip_equal(group, types))
        out.push_back(castChecked(b, loc, v, t, message));
    }
    return out;
  }

  /// The body's yielded values as the loop carries them.
  SmallVector<Value> fromYield(OpBuilder &b, Location loc,
                               ValueRange values) const {
    return adapt(b, loc, values, onnxYield, yieldCounts, onnxIn, in, inCounts,
                 "Loop: a loop-carried value does not fit the body's input "
                 "shape");
  }
  /// The carried values as the loop's results, one group per result.
  SmallVector<SmallVector<Value>> toResults(OpBuilder &b, Location loc,
                                            ValueRange values) const {
    return regroup(adapt(b, loc, values, onnxIn, inCounts, onnxOut, out,
                         outCounts,
                         "Loop: a loop-carried value does not fit the "
                         "output's shape"),
                   outCounts);
  }
};

/// Loop(M, cond, v_initial...) -> scf.while carrying (i, cond, v..., one
/// accumulator per scan output); a sequence or an optional v is carried as
/// its several values. The before region tests `cond && i < M`; the after
/// region runs the body and appends the scan rows.
struct LoopLowering : OpConversionPattern<ONNX::LoopOp> {
  using OpConversionPattern::OpConversionPattern;
  /// Whether the loop always runs M iterations over static shapes.
  static bool isCountedLoop(ONNX::LoopOp op, ArrayRef<Type> carriedIn,
                            ArrayRef<Type> rowTypes);
  /// Lowers such a loop to an scf.for with preallocated scan outputs.
  static void lowerCounted(ONNX::LoopOp op,
                           ConversionPatternRewriter &rewriter, Region &body,
                           const TypeConverter &tc, Value tripCount,
                           ArrayRef<Value> initial, const Carried &carried,
                           ArrayRef<Type> rowTypes, ArrayRef<Type> scanTypes,
                           Type iterNumType, Type condType, Type condOutType);
  LogicalResult
  matchAndRewrite(ONNX::LoopOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &tc = *getTypeConverter();
    Region &body = op.getBody();
    auto yield = cast<ONNX::YieldOp>(body.front().getTerminator());
    unsigned numCarried = op.getVInitial().size();
    unsigned numResults = op.getNumResults();
    unsigned numScan = numResults - numCarried;
    if (body.getNumArguments() != numCarried + 2 ||
        yield.getValues().size() != numResults + 1 || numResults < numCarried)
      return op.emitOpError("body signature does not match the loop: ")
             << body.getNumArguments() << " inputs and "
             << yield.getValues().size() << " outputs for " << numCarried
             << " loop-carried values and " << numResults << " results";

    // Flattened types: the carried values (Carried); the scan rows
    // (tensors) and outputs.
    Carried carried;
    SmallVector<Type> rowTypes, scanTypes;
    SmallVector<unsigned> outCounts;
    TypeRange bodyArgTypes = body.getArgumentTypes();
    TypeRange yieldTypes = yield.getValues().getTypes();
    TypeRange resultTypes = op.getResultTypes();
    if (failed(carried.init(op, tc, bodyArgTypes.drop_front(2),
                            yieldTypes.slice(1, numCarried),
                            resultTypes.take_front(numCarried))) ||
        failed(convertFlat(op, tc, yieldTypes.drop_front(1 + numCarried),
                           "a scan output", rowTypes, &outCounts)) ||
        failed(convertFlat(op, tc, resultTypes.drop_front(numCarried),
                           "a scan output", scanTypes)))
      return failure();
    ArrayRef<Type> carriedIn = carried.in;
    if (rowTypes.size() != numScan || scanTypes.size() != numScan)
      return op.emitOpError("scan outputs must be tensors");
    for (unsigned k = 0; k < numScan; ++k)
      if (cast<RankedTensorType>(scanTypes[k]).getRank() !=
          cast<RankedTensorType>(rowTypes[k]).getRank() + 1)
        return op.emitOpError("scan output ")
               << k << " has type " << op.getResult(numCarried + k).getType()
               << ", not one dim more than the body's "
               << yield.getValues()[1 + numCarried + k].getType();
    SmallVector<Type> iterNumTypes, condTypes, condOutTypes;
    if (failed(convertFlat(op, tc, bodyArgTypes[0], "the iteration number",
                           iterNumTypes)) ||
        failed(convertFlat(op, tc, bodyArgTypes[1], "the condition",
                           condTypes)) ||
        failed(convertFlat(op, tc, yieldTypes[0], "the condition",
                           condOutTypes)))
      return failure();

    Type i64 = rewriter.getI64Type();
    Type i1 = rewriter.getI1Type();
    Value zero64 = createIntConstant(rewriter, loc, i64, 0);
    Value one64 = createIntConstant(rewriter, loc, i64, 1);

    // The trip count and the initial condition.
    bool hasM = !isa<NoneType>(op.getM().getType());
    bool hasCond = !isa<NoneType>(op.getCond().getType());
    Value tripCount;
    if (hasM) {
      Value m = adaptor.getM().front();
      if (!maySingle(cast<RankedTensorType>(m.getType())))
        return op.emitOpError("M must hold a single int64, not ")
               << op.getM().getType();
      tripCount =
          extractSingle(rewriter, loc, m, "Loop: M must hold a single element");
    }
    Value cond0 = createIntConstant(rewriter, loc, i1, 1);
    if (hasCond) {
      Value c = adaptor.getCond().front();
      if (!maySingle(cast<RankedTensorType>(c.getType())))
        return op.emitOpError("cond must hold a single bool, not ")
               << op.getCond().getType();
      cond0 = extractSingle(rewriter, loc, c,
                            "Loop: cond must hold a single element");
    }

    // The initial values as the loop carries them.
    SmallVector<Value> initialFlat;
    SmallVector<unsigned> initialCounts;
    for (ValueRange group : adaptor.getVInitial()) {
      initialFlat.append(group.begin(), group.end());
      initialCounts.push_back(group.size());
    }
    SmallVector<Type> initialTypes(op.getVInitial().getTypes());
    for (unsigned k = 0; k < numCarried; ++k)
      if (!Carried::fits(initialTypes[k], initialCounts[k], carried.onnxIn[k],
                         carried.inCounts[k]))
        return op.emitOpError("initial value ")
               << k << " is a " << initialTypes[k] << ", the body takes a "
               << carried.onnxIn[k];
    SmallVector<Value> initial = Carried::adapt(
        rewriter, loc, initialFlat, initialTypes, initialCounts,
        carried.onnxIn, carried.in, carried.inCounts,
        "Loop: an initial value does not fit the body's input shape");

    // A loop that always runs M iterations (no condition, or one that is
    // constant true and passed through unchanged, as exporters write a
    // for loop) over static-shaped values is an scf.for: scf.while copies
    // every carried tensor whose buffer the body replaces on each
    // iteration, scf.for does not.
    if (hasM && isCountedLoop(op, carriedIn, rowTypes)) {
      lowerCounted(op, rewriter, body, tc, tripCount, initial, carried,
                   rowTypes, scanTypes, iterNumTypes[0], condTypes[0],
                   condOutTypes[0]);
      return success();
    }

    // Initial values: the iteration number, the condition, the carried
    // values (in the body's input types), the empty accumulators.
    SmallVector<Value> inits{zero64, cond0};
    inits.append(initial.begin(), initial.end());
    for (Type row : rowTypes)
      inits.push_back(emptyAccumulator(
          rewriter, loc, accumulatorType(cast<RankedTensorType>(row), 0)));
    TypeRange iterTypes = ValueRange(inits).getTypes();
    SmallVector<Location> locs(inits.size(), loc);
    unsigned numFlatCarried = carriedIn.size();

    auto whileOp = scf::WhileOp::create(rewriter, loc, iterTypes, inits);
    {
      // before: continue while cond && i < M.
      Block *before = rewriter.createBlock(&whileOp.getBefore(), {},
                                           iterTypes, locs);
      Value go = before->getArgument(1);
      if (hasM)
        go = arith::AndIOp::create(
            rewriter, loc, go,
            cmpI(rewriter, loc, arith::CmpIPredicate::slt,
                 before->getArgument(0), tripCount));
      scf::ConditionOp::create(rewriter, loc, go, before->getArguments());
    }

    // after: the body, then the next condition, the scan rows, i + 1.
    Block *after =
        rewriter.createBlock(&whileOp.getAfter(), {}, iterTypes, locs);
    Value iter = after->getArgument(0);
    SmallVector<Value> bodyArgs{
        castChecked(rewriter, loc,
                    tensor::FromElementsOp::create(
                        rewriter, loc, RankedTensorType::get({}, i64), iter),
                    iterNumTypes[0], "Loop: iteration number shape"),
        castChecked(rewriter, loc,
                    tensor::FromElementsOp::create(
                        rewriter, loc, RankedTensorType::get({}, i1),
                        after->getArgument(1)),
                    condTypes[0], "Loop: condition shape")};
    for (unsigned k = 0; k < numFlatCarried; ++k)
      bodyArgs.push_back(after->getArgument(k + 2));
    // The body's outputs: the condition, the carried values and the scan
    // rows as the body produces them.
    SmallVector<Type> execTypes{condOutTypes[0]};
    execTypes.append(carried.yield.begin(), carried.yield.end());
    execTypes.append(rowTypes.begin(), rowTypes.end());
    unsigned numFlatYield = carried.yield.size();

    auto block = convertBody(op, body, tc, rewriter);
    if (failed(block))
      return failure();
    rewriter.setInsertionPointToEnd(after);
    auto exec = inlineBody(rewriter, loc, *block, bodyArgs, execTypes);

    // Without a cond input the body's condition output is ignored.
    Value next = createIntConstant(rewriter, loc, i1, 1);
    if (hasCond) {
      if (!maySingle(cast<RankedTensorType>(execTypes[0])))
        return op.emitOpError("the body's condition output must hold a "
                              "single bool");
      next = extractSingle(rewriter, loc, exec.getResult(0),
                           "Loop: the body's condition must hold a single "
                           "element");
    }
    SmallVector<Value> yields{arith::AddIOp::create(rewriter, loc, iter, one64),
                              next};
    yields.append(carried.fromYield(
        rewriter, loc, exec.getResults().slice(1, numFlatYield)));
    Value pos = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), iter);
    auto newCapacity = [&](OpBuilder &b, Location l, Value cap) -> Value {
      // Twice the capacity (at least 1); the first time, the trip count
      // when it is small; never more than the trip count.
      Value twice = arith::MaxUIOp::create(
          b, l, arith::MulIOp::create(b, l, cap, createIndexConstant(b, l, 2)),
          createIndexConstant(b, l, 1));
      if (!hasM)
        return twice;
      Value m = arith::IndexCastOp::create(b, l, b.getIndexType(), tripCount);
      Value first = arith::MinUIOp::create(
          b, l, m, createIndexConstant(b, l, kMaxPreallocatedRows));
      Value isFirst = cmpI(b, l, arith::CmpIPredicate::eq, cap,
                           createIndexConstant(b, l, 0));
      Value grown = arith::SelectOp::create(
          b, l, isFirst, arith::MaxUIOp::create(b, l, first, twice), twice);
      return arith::MinUIOp::create(b, l, grown, m);
    };
    for (unsigned k = 0; k < numScan; ++k)
      yields.push_back(appendRow(rewriter, loc,
                                 after->getArgument(2 + numFlatCarried + k),
                                 exec.getResult(1 + numFlatYield + k), pos,
                                 0, newCapacity, "Loop"));
    scf::YieldOp::create(rewriter, loc, yields);

    // Results: the carried values, then the filled rows of each scan
    // output.
    rewriter.setInsertionPointAfter(whileOp);
    SmallVector<SmallVector<Value>> results = carried.toResults(
        rewriter, loc, whileOp.getResults().slice(2, numFlatCarried));
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), whileOp.getResult(0));
    for (unsigned k = 0; k < numScan; ++k)
      results.push_back({finishAccumulator(
          rewriter, loc, whileOp.getResult(2 + numFlatCarried + k), count, 0,
          scanTypes[k],
          "Loop: a scan output does not fit the output's shape")});
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// True when `v` is, through onnx.Identity ops, the block argument `arg`.
static bool forwards(Value v, Value arg) {
  while (auto id = v.getDefiningOp<ONNX::IdentityOp>())
    v = id.getInput();
  return v == arg;
}

bool LoopLowering::isCountedLoop(ONNX::LoopOp op, ArrayRef<Type> carriedIn,
                                 ArrayRef<Type> rowTypes) {
  // The condition: absent (the body's is then ignored), or a constant true
  // that the body yields unchanged.
  if (!isa<NoneType>(op.getCond().getType())) {
    auto vals = getConstantInts(op.getCond());
    auto yield = cast<ONNX::YieldOp>(op.getBody().front().getTerminator());
    if (!vals || vals->size() != 1 || (*vals)[0] == 0 ||
        !forwards(yield.getValues()[0], op.getBody().getArgument(1)))
      return false;
  }
  // Static shapes: no value changes shape, nothing for scf.for's cast
  // folding to pin.
  auto isStatic = [](Type t) {
    return cast<RankedTensorType>(t).hasStaticShape();
  };
  if (!llvm::all_of(carriedIn, isStatic) || !llvm::all_of(rowTypes, isStatic))
    return false;
  // Scan outputs are preallocated to M rows: M must be a known, sane count.
  if (!rowTypes.empty()) {
    auto m = getConstantInts(op.getM());
    if (!m || m->size() != 1 || (*m)[0] < 0 || (*m)[0] > (1 << 20))
      return false;
  }
  return true;
}

void LoopLowering::lowerCounted(
    ONNX::LoopOp op, ConversionPatternRewriter &rewriter, Region &body,
    const TypeConverter &tc, Value tripCount, ArrayRef<Value> initial,
    const Carried &carried, ArrayRef<Type> rowTypes, ArrayRef<Type> scanTypes,
    Type iterNumType, Type condType, Type condOutType) {
  Location loc = op.getLoc();
  Type i64 = rewriter.getI64Type();
  Type i1 = rewriter.getI1Type();
  // M < 0 runs no iteration.
  Value m = arith::MaxSIOp::create(rewriter, loc, tripCount,
                                   createIntConstant(rewriter, loc, i64, 0));
  Value count = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), m);
  SmallVector<Value> inits(initial);
  // Scan outputs: M rows (isCountedLoop made sure M is a small constant).
  int64_t rows = 0;
  if (!rowTypes.empty())
    rows = std::max<int64_t>(0, (*getConstantInts(op.getM()))[0]);
  for (Type row : rowTypes) {
    auto rt = cast<RankedTensorType>(row);
    SmallVector<int64_t> shape{rows};
    shape.append(rt.getShape().begin(), rt.getShape().end());
    inits.push_back(createLoopInit(
        rewriter, loc, RankedTensorType::get(shape, rt.getElementType()), {}));
  }
  // The iteration number's tensor, carried last: written with tensor.insert
  // at each step, which bufferizes in place, so the loop allocates it once
  // (a tensor.from_elements is a malloc and a free per iteration).
  inits.push_back(createLoopInit(rewriter, loc,
                                 RankedTensorType::get({}, i64), {}));
  Value zero = createIndexConstant(rewriter, loc, 0);
  Value one = createIndexConstant(rewriter, loc, 1);
  auto forOp = scf::ForOp::create(rewriter, loc, zero, count, one, inits);
  rewriter.setInsertionPointToStart(forOp.getBody());
  Value iv = forOp.getInductionVar();
  Value iter = arith::IndexCastOp::create(rewriter, loc, i64, iv);
  Value iterT = tensor::InsertOp::create(rewriter, loc, iter,
                                         forOp.getRegionIterArgs().back(),
                                         ValueRange{});
  SmallVector<Value> bodyArgs{
      castChecked(rewriter, loc, iterT, iterNumType,
                  "Loop: iteration number shape"),
      castChecked(rewriter, loc,
                  tensor::FromElementsOp::create(
                      rewriter, loc, RankedTensorType::get({}, i1),
                      createIntConstant(rewriter, loc, i1, 1)),
                  condType, "Loop: condition shape")};
  unsigned numFlat = carried.in.size();
  unsigned numFlatYield = carried.yield.size();
  for (unsigned k = 0; k < numFlat; ++k)
    bodyArgs.push_back(forOp.getRegionIterArgs()[k]);
  SmallVector<Type> execTypes{condOutType};
  execTypes.append(carried.yield.begin(), carried.yield.end());
  execTypes.append(rowTypes.begin(), rowTypes.end());
  Block *block = *convertBody(op, body, tc, rewriter);
  rewriter.setInsertionPointToEnd(forOp.getBody());
  auto exec = inlineBody(rewriter, loc, block, bodyArgs, execTypes);
  SmallVector<Value> yields = carried.fromYield(
      rewriter, loc, exec.getResults().slice(1, numFlatYield));
  for (unsigned k = 0; k < rowTypes.size(); ++k)
    yields.push_back(insertRow(rewriter, loc,
                               forOp.getRegionIterArgs()[numFlat + k],
                               exec.getResult(1 + numFlatYield + k), iv, 0));
  yields.push_back(iterT);
  scf::YieldOp::create(rewriter, loc, yields);

  rewriter.setInsertionPointAfter(forOp);
  SmallVector<SmallVector<Value>> results = carried.toResults(
      rewriter, loc, forOp.getResults().take_front(numFlat));
  for (unsigned k = 0; k < rowTypes.size(); ++k)
    results.push_back({castChecked(
        rewriter, loc, forOp.getResult(numFlat + k), scanTypes[k],
        "Loop: a scan output does not fit the output's shape")});
  rewriter.replaceOpWithMultiple(op, results);
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// What a scan loop needs, shared by Scan (opset 9+) and ScanV8 (whose
/// loop runs once per batch entry on the entry's slices).
struct ScanSpec {
  unsigned numStates;
  SmallVector<int64_t> inAxes, inReverse, outAxes, outReverse;
};

/// Builds the scf.for over the scan dim: `states` and `scanInputs` are
/// converted values; `stateTypes`/`outTypes` the result types. Returns the
/// final states then the scan outputs.
FailureOr<SmallVector<Value>>
buildScanLoop(Operation *op, ConversionPatternRewriter &rewriter, Location loc,
              const TypeConverter &tc, Region &body, const ScanSpec &spec,
              ValueRange states, ValueRange scanInputs,
              ArrayRef<Type> stateTypes, ArrayRef<Type> outTypes) {
  auto yield = cast<ONNX::YieldOp>(body.front().getTerminator());
  auto bodyIn = convertRanked(op, tc, body.getArgumentTypes(), "a body input");
  auto bodyOut =
      convertRanked(op, tc, yield.getValues().getTypes(), "a body output");
  if (failed(bodyIn) || failed(bodyOut))
    return failure();
  unsigned numStates = spec.numStates;
  unsigned numOut = outTypes.size();

  // The sequence length: the scan dim of the first scan input; the others
  // must match it.
  Value length;
  std::optional<int64_t> staticLength;
  for (auto [j, in] : llvm::enumerate(scanInputs)) {
    Value l = getDimValue(rewriter, loc, in, spec.inAxes[j]);
    std::optional<int64_t> sl = getConstantIntValue(l);
    if (!length) {
      length = l;
      staticLength = sl;
      continue;
    }
    if (sl && staticLength) {
      if (*sl != *staticLength)
        return op->emitOpError("the scan inputs differ in sequence length (")
               << *staticLength << " and " << *sl << ")";
      continue;
    }
    emitRuntimeCheck(rewriter, loc,
                     cmpI(rewriter, loc, arith::CmpIPredicate::eq, l, length),
                     "Scan: the scan inputs differ in sequence length");
  }

  SmallVector<Value> inits;
  for (auto [k, s] : llvm::enumerate(states))
    inits.push_back(castChecked(rewriter, loc, s, (*bodyIn)[k],
                                "Scan: an initial state does not fit the "
                                "body's input shape"));
  // Scan outputs with a static row shape are preallocated; the others get
  // their row shape from the first step.
  bool grows = false;
  for (unsigned k = 0; k < numOut; ++k) {
    auto slice = cast<RankedTensorType>((*bodyOut)[numStates + k]);
    auto accType = accumulatorType(slice, spec.outAxes[k]);
    if (!slice.hasStaticShape()) {
      grows = true;
      inits.push_back(emptyAccumulator(rewriter, loc, accType));
      continue;
    }
    // Preallocated: the length is static when the input's is.
    SmallVector<int64_t> shape(accType.getShape());
    shape[spec.outAxes[k]] = staticLength.value_or(ShapedType::kDynamic);
    accType = RankedTensorType::get(shape, accType.getElementType());
    SmallVector<Value> sizes(accType.getRank(), length);
    inits.push_back(createLoopInit(rewriter, loc, accType, sizes));
  }
  auto loop = CountedLoop::build(rewriter, loc, length, inits, grows);
  Block *loopBody = loop.body;
  rewriter.setInsertionPointToStart(loopBody);
  Value t = loop.iv;
  Value one = createIndexConstant(rewriter, loc, 1);
  Value last = arith::SubIOp::create(rewriter, loc, length, one);
  Value reversedT = arith::SubIOp::create(rewriter, loc, last, t);

  SmallVector<Value> bodyArgs;
  for (unsigned k = 0; k < numStates; ++k)
    bodyArgs.push_back(loop.iterArgs[k]);
  for (auto [j, in] : llvm::enumerate(scanInputs)) {
    auto inType = cast<RankedTensorType>(in.getType());
    int64_t axis = spec.inAxes[j];
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<int64_t> shape;
    for (int64_t d = 0, e = inType.getRank(); d < e; ++d) {
      strides.push_back(rewriter.getIndexAttr(1));
      if (d == axis) {
        offsets.push_back(spec.inReverse[j] ? reversedT : t);
        sizes.push_back(rewriter.getIndexAttr(1));
        continue;
      }
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(getDimOFR(rewriter, loc, in, d));
      shape.push_back(inType.getDimSize(d));
    }
    auto sliceType = RankedTensorType::get(shape, inType.getElementType());
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, sliceType, in,
                                                 offsets, sizes, strides);
    bodyArgs.push_back(castChecked(rewriter, loc, slice,
                                   (*bodyIn)[numStates + j],
                                   "Scan: a scan input slice does not fit "
                                   "the body's input shape"));
  }
  SmallVector<Type> execTypes;
  for (unsigned k = 0; k < numStates; ++k)
    execTypes.push_back((*bodyIn)[k]);
  for (unsigned k = 0; k < numOut; ++k)
    execTypes.push_back((*bodyOut)[numStates + k]);

  auto block = convertBody(op, body, tc, rewriter);
  if (failed(block))
    return failure();
  rewriter.setInsertionPointToEnd(loopBody);
  auto exec = inlineBody(rewriter, loc, *block, bodyArgs, execTypes);

  SmallVector<Value> yields;
  for (unsigned k = 0; k < numStates; ++k)
    yields.push_back(exec.getResult(k));
  auto toLength = [&](OpBuilder &, Location, Value) { return length; };
  for (unsigned k = 0; k < numOut; ++k) {
    Value acc = loop.iterArgs[numStates + k];
    bool preallocated =
        cast<RankedTensorType>(execTypes[numStates + k]).hasStaticShape();
    yields.push_back(appendRow(
        rewriter, loc, acc, exec.getResult(numStates + k),
        spec.outReverse[k] ? reversedT : t, spec.outAxes[k],
        preallocated ? nullptr
                     : function_ref<Value(OpBuilder &, Location, Value)>(
                           toLength),
        "Scan"));
  }
  loop.finish(rewriter, loc, yields);

  rewriter.setInsertionPointAfter(loop.op);
  ValueRange loopResults = loop.results();
  SmallVector<Value> results;
  for (unsigned k = 0; k < numStates; ++k)
    results.push_back(castChecked(rewriter, loc, loopResults[k],
                                  stateTypes[k],
                                  "Scan: a final state does not fit the "
                                  "output's shape"));
  for (unsigned k = 0; k < numOut; ++k)
    results.push_back(finishAccumulator(
        rewriter, loc, loopResults[numStates + k], length,
        spec.outAxes[k], outTypes[k],
        "Scan: a scan output does not fit the output's shape"));
  return results;
}

/// The attribute `values` (default all 0) of length `n`, each checked to be
/// 0 or 1 (directions) or normalized into [0, rank) (axes).
FailureOr<SmallVector<int64_t>> getScanAttr(Operation *op,
                                            std::optional<ArrayRef<int64_t>> values,
                                            unsigned n, StringRef name,
                                            ArrayRef<int64_t> ranks) {
  SmallVector<int64_t> out(n, 0);
  if (values) {
    if (values->size() != n)
      return op->emitOpError() << name << " has " << values->size()
                               << " entries for " << n << " tensors";
    out.assign(values->begin(), values->end());
  }
  for (unsigned k = 0; k < n; ++k) {
    if (ranks.empty()) {
      if (out[k] != 0 && out[k] != 1)
        return op->emitOpError() << name << "[" << k << "] = " << out[k]
                                 << " is not 0 (forward) or 1 (reverse)";
      continue;
    }
    if (out[k] < -ranks[k] || out[k] >= ranks[k])
      return op->emitOpError() << name << "[" << k << "] = " << out[k]
                               << " is out of range for rank " << ranks[k];
    out[k] = normalizeAxis(out[k], ranks[k]);
  }
  return out;
}

struct ScanLowering : OpConversionPattern<ONNX::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getInitialStateAndScanInputs();
    int64_t numScanIn = op.getNumScanInputs();
    if (numScanIn < 1 || numScanIn > static_cast<int64_t>(operands.size()))
      return op.emitOpError("num_scan_inputs = ")
             << numScanIn << " does not fit " << operands.size() << " inputs";
    unsigned numStates = operands.size() - numScanIn;
    unsigned numOut = op.getNumResults() - numStates;
    Region &body = op.getBody();
    auto yield = cast<ONNX::YieldOp>(body.front().getTerminator());
    if (body.getNumArguments() != operands.size() ||
        yield.getValues().size() != op.getNumResults())
      return op.emitOpError("body signature does not match the scan: ")
             << body.getNumArguments() << " inputs and "
             << yield.getValues().size() << " outputs for " << operands.size()
             << " inputs and " << op.getNumResults() << " results";
    auto resultTypes =
        convertRanked(op, *getTypeConverter(), op.getResultTypes(), "a result");
    if (failed(resultTypes))
      return failure();

    SmallVector<int64_t> inRanks, outRanks;
    for (Value v : operands.drop_front(numStates))
      inRanks.push_back(cast<RankedTensorType>(v.getType()).getRank());
    for (Type t : ArrayRef<Type>(*resultTypes).drop_front(numStates))
      outRanks.push_back(cast<RankedTensorType>(t).getRank());
    ScanSpec spec{numStates, {}, {}, {}, {}};
    auto inAxes = getScanAttr(op, op.getScanInputAxes(), numScanIn,
                              "scan_input_axes", inRanks);
    auto inDirs = getScanAttr(op, op.getScanInputDirections(), numScanIn,
                              "scan_input_directions", {});
    auto outAxes = getScanAttr(op, op.getScanOutputAxes(), numOut,
                               "scan_output_axes", outRanks);
    auto outDirs = getScanAttr(op, op.getScanOutputDirections(), numOut,
                               "scan_output_directions", {});
    if (failed(inAxes) || failed(inDirs) || failed(outAxes) || failed(outDirs))
      return failure();
    spec.inAxes = *inAxes;
    spec.inReverse = *inDirs;
    spec.outAxes = *outAxes;
    spec.outReverse = *outDirs;

    auto results = buildScanLoop(
        op, rewriter, op.getLoc(), *getTypeConverter(), body, spec,
        operands.take_front(numStates), operands.drop_front(numStates),
        ArrayRef<Type>(*resultTypes).take_front(numStates),
        ArrayRef<Type>(*resultTypes).drop_front(numStates));
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
};

/// ScanV8: every input and output has a leading batch dim; the scan inputs'
/// scan dim is 1. An scf.for over the batch runs the scan loop on each
/// entry and inserts its results.
struct ScanV8Lowering : OpConversionPattern<ONNX::ScanV8Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ScanV8Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isa<NoneType>(op.getSequenceLens().getType()))
      return op.emitOpError("sequence_lens is not supported: every batch "
                            "entry scans the full sequence");
    ValueRange operands = adaptor.getInitialStateAndScanInputs();
    int64_t numScanIn = op.getNumScanInputs();
    if (numScanIn < 1 || numScanIn > static_cast<int64_t>(operands.size()))
      return op.emitOpError("num_scan_inputs = ")
             << numScanIn << " does not fit " << operands.size() << " inputs";
    unsigned numStates = operands.size() - numScanIn;
    unsigned numOut = op.getNumResults() - numStates;
    Region &body = op.getBody();
    auto yield = cast<ONNX::YieldOp>(body.front().getTerminator());
    if (body.getNumArguments() != operands.size() ||
        yield.getValues().size() != op.getNumResults())
      return op.emitOpError("body signature does not match the scan");
    auto resultTypes =
        convertRanked(op, *getTypeConverter(), op.getResultTypes(), "a result");
    if (failed(resultTypes))
      return failure();
    for (auto [k, v] : llvm::enumerate(operands))
      if (cast<RankedTensorType>(v.getType()).getRank() <
          (k < numStates ? 1 : 2))
        return op.emitOpError("inputs need a batch dim (and a sequence dim "
                              "for scan inputs)");
    auto dirs = getScanAttr(op, op.getDirections(), numScanIn, "directions",
                            {});
    if (failed(dirs))
      return failure();
    ScanSpec spec{numStates, SmallVector<int64_t>(numScanIn, 0), *dirs,
                  SmallVector<int64_t>(numOut, 0),
                  SmallVector<int64_t>(numOut, 0)};

    // Every result is filled entry by entry.
    Value batch = getDimValue(rewriter, loc, operands[0], 0);
    for (Value v : operands.drop_front())
      emitRuntimeCheck(
          rewriter, loc,
          cmpI(rewriter, loc, arith::CmpIPredicate::eq,
               getDimValue(rewriter, loc, v, 0), batch),
          "Scan: the inputs differ in batch size");
    // A result with a static entry shape is preallocated; the others get
    // their entry shape from the first batch entry.
    SmallVector<Value> inits;
    bool grows = false;
    for (Type t : *resultTypes) {
      auto rt = cast<RankedTensorType>(t);
      auto entryType = RankedTensorType::get(rt.getShape().drop_front(),
                                             rt.getElementType());
      auto accType = accumulatorType(entryType, 0);
      if (!entryType.hasStaticShape()) {
        grows = true;
        inits.push_back(emptyAccumulator(rewriter, loc, accType));
        continue;
      }
      SmallVector<Value> sizes{batch};
      for (int64_t d : entryType.getShape())
        sizes.push_back(createIndexConstant(rewriter, loc, d));
      inits.push_back(createLoopInit(rewriter, loc, accType, sizes));
    }
    auto loop = CountedLoop::build(rewriter, loc, batch, inits, grows);
    rewriter.setInsertionPointToStart(loop.body);
    Value b = loop.iv;

    // The batch entry `b` of `v` (rank reduced).
    auto entry = [&](Value v) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<OpFoldResult> offsets{b}, sizes{rewriter.getIndexAttr(1)},
          strides(type.getRank(), rewriter.getIndexAttr(1));
      for (int64_t d = 1; d < type.getRank(); ++d) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(getDimOFR(rewriter, loc, v, d));
      }
      auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                             type.getElementType());
      return tensor::ExtractSliceOp::create(rewriter, loc, sliceType, v,
                                            offsets, sizes, strides);
    };
    SmallVector<Value> states, scanInputs;
    SmallVector<Type> stateTypes, outTypes;
    for (unsigned k = 0; k < operands.size(); ++k)
      (k < numStates ? states : scanInputs).push_back(entry(operands[k]));
    for (auto [k, t] : llvm::enumerate(*resultTypes)) {
      auto rt = cast<RankedTensorType>(t);
      (k < numStates ? stateTypes : outTypes)
          .push_back(RankedTensorType::get(rt.getShape().drop_front(),
                                           rt.getElementType()));
    }
    auto results = buildScanLoop(op, rewriter, loc, *getTypeConverter(), body,
                                 spec, states, scanInputs, stateTypes,
                                 outTypes);
    if (failed(results))
      return failure();

    // Insert entry `b` of every result (the accumulators get their inner
    // dims from the first entry; later entries must match).
    SmallVector<Value> yields;
    auto toBatch = [&](OpBuilder &, Location, Value) { return batch; };
    for (auto [k, r] : llvm::enumerate(*results)) {
      bool preallocated = cast<RankedTensorType>(r.getType()).hasStaticShape();
      yields.push_back(appendRow(
          rewriter, loc, loop.iterArgs[k], r, b, 0,
          preallocated
              ? nullptr
              : function_ref<Value(OpBuilder &, Location, Value)>(toBatch),
          "Scan"));
    }
    loop.finish(rewriter, loc, yields);
    rewriter.setInsertionPointAfter(loop.op);
    ValueRange loopResults = loop.results();
    SmallVector<Value> finals;
    for (auto [k, t] : llvm::enumerate(*resultTypes))
      finals.push_back(finishAccumulator(
          rewriter, loc, loopResults[k], batch, 0, t,
          "Scan: an output does not fit its declared shape"));
    rewriter.replaceOp(op, finals);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateControlFlowPatterns(TypeConverter &tc,
                                              RewritePatternSet &patterns) {
  patterns.add<YieldLowering, IfLowering, LoopLowering, ScanLowering,
               ScanV8Lowering>(tc, patterns.getContext());
}

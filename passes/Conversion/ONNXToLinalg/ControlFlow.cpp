//===- ControlFlow.cpp - If, Loop -> scf ----------------------------------===//
//
// Subgraphs become scf regions: If -> scf.if, Loop -> scf.while (Scan and
// the opset-8 batched ScanV8 -> scf.for: Scan.cpp; the shared pieces:
// Subgraph.cpp). A body is inlined into an
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

namespace {

/// Trip counts up to this many rows are preallocated in one step.
constexpr int64_t kMaxPreallocatedRows = 1024;

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
      // Errors at the parent (the lowered If, Loop, ...): its location
      // names the node, the yield's does not.
      values.push_back(castChecked(
          rewriter, parent->getLoc(), v, t,
          "a subgraph output does not have its declared shape"));
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

/// The scf.while form of a Loop (LoopLowering, which has checked and
/// converted the types): its test, one step of the body, and the loops
/// without and with scan outputs. Each lowering replaces `op`.
struct WhileLowering {
  ONNX::LoopOp op;
  ConversionPatternRewriter &rewriter;
  Location loc;
  const TypeConverter &tc;
  Region &body;
  const Carried &carried;
  Value tripCount; // null without M
  bool hasCond;
  Type iterNumType, condType;
  /// The body's outputs: the condition, the carried values and the scan
  /// rows as the body produces them.
  SmallVector<Type> execTypes;
  unsigned numScan;

  /// cond && i < M.
  Value test(Value i, Value c) {
    if (!tripCount)
      return c;
    return arith::AndIOp::create(
        rewriter, loc, c,
        cmpI(rewriter, loc, arith::CmpIPredicate::slt, i, tripCount));
  }

  /// The body on the arguments (i, cond, carried...) of the after region
  /// `after`, at its end: returns i + 1, the next condition and the
  /// carried values as the loop carries them; `rows` gets the scan rows.
  FailureOr<SmallVector<Value>> step(Block *after,
                                     SmallVectorImpl<Value> &rows) {
    Type i64 = rewriter.getI64Type();
    Type i1 = rewriter.getI1Type();
    Value iter = after->getArgument(0);
    SmallVector<Value> bodyArgs{
        castChecked(rewriter, loc,
                    tensor::FromElementsOp::create(
                        rewriter, loc, RankedTensorType::get({}, i64), iter),
                    iterNumType, "Loop: iteration number shape"),
        castChecked(rewriter, loc,
                    tensor::FromElementsOp::create(
                        rewriter, loc, RankedTensorType::get({}, i1),
                        after->getArgument(1)),
                    condType, "Loop: condition shape")};
    unsigned numFlatCarried = carried.in.size();
    unsigned numFlatYield = carried.yield.size();
    for (unsigned k = 0; k < numFlatCarried; ++k)
      bodyArgs.push_back(after->getArgument(k + 2));
    auto block = convertBody(op, body, tc, rewriter);
    if (failed(block))
      return failure();
    rewriter.setInsertionPointToEnd(after);
    auto exec = inlineBody(rewriter, loc, *block, bodyArgs, execTypes);
    // Without a cond input the body's condition output is ignored.
    Value next = createIntConstant(rewriter, loc, i1, 1);
    if (hasCond)
      next = extractSingle(rewriter, loc, exec.getResult(0),
                           "Loop: the body's condition must hold a single "
                           "element");
    SmallVector<Value> yields{
        arith::AddIOp::create(rewriter, loc, iter,
                              createIntConstant(rewriter, loc, i64, 1)),
        next};
    yields.append(carried.fromYield(rewriter, loc,
                                    exec.getResults().slice(1, numFlatYield)));
    for (unsigned k = 0; k < numScan; ++k)
      rows.push_back(exec.getResult(1 + numFlatYield + k));
    return yields;
  }

  /// The capacity an accumulator of capacity `cap` grows to: twice it (at
  /// least 1); the first time, the trip count when it is small; never more
  /// than the trip count.
  Value newCapacity(OpBuilder &b, Location l, Value cap) {
    Value twice = arith::MaxUIOp::create(
        b, l, arith::MulIOp::create(b, l, cap, createIndexConstant(b, l, 2)),
        createIndexConstant(b, l, 1));
    if (!tripCount)
      return twice;
    Value m = arith::IndexCastOp::create(b, l, b.getIndexType(), tripCount);
    Value first = arith::MinUIOp::create(
        b, l, m, createIndexConstant(b, l, kMaxPreallocatedRows));
    Value isFirst =
        cmpI(b, l, arith::CmpIPredicate::eq, cap, createIndexConstant(b, l, 0));
    Value grown = arith::SelectOp::create(
        b, l, isFirst, arith::MaxUIOp::create(b, l, first, twice), twice);
    return arith::MinUIOp::create(b, l, grown, m);
  }

  /// Without scan outputs: one scf.while over (i, cond, carried...).
  LogicalResult lower(ValueRange inits) {
    auto whileOp = buildForwardingWhile(
        rewriter, loc, inits, [&](ValueRange a) { return test(a[0], a[1]); });
    SmallVector<Value> rows;
    auto yields = step(&whileOp.getAfter().front(), rows);
    if (failed(yields))
      return failure();
    scf::YieldOp::create(rewriter, loc, *yields);
    rewriter.setInsertionPointAfter(whileOp);
    rewriter.replaceOpWithMultiple(
        op,
        carried.toResults(rewriter, loc,
                          whileOp.getResults().slice(2, carried.in.size())));
    return success();
  }

  LogicalResult lowerWithScans(ValueRange inits, ArrayRef<Type> rowTypes,
                               ArrayRef<Type> scanTypes);
};

// Scan outputs accumulate in tensors whose capacity doubles. Growing one
// inside the loop that carries it (a fresh tensor yielded by one branch of
// an scf.if) makes one-shot bufferization copy the whole accumulator on
// every iteration (the loop's yield is then not equivalent to its
// argument): 400,000 trips took 26 s. So two loops: the inner one runs
// iterations while their rows fit, writing them in place; an iteration
// whose row does not fit ends it with the row pending; the outer one grows
// the accumulators, writes the pending row and runs the inner loop again.
// The outer loop's copies happen once per doubling: amortized linear.
//   outer (i, cond, carried..., acc..., row..., pending) while
//       pending || cond && i < M:
//     if pending: acc = grow(acc) with row as row i - 1
//     inner (the same) while !pending && cond && i < M:
//       body; row fits (i < capacity) ? write it : pending = true
LogicalResult WhileLowering::lowerWithScans(ValueRange inits,
                                            ArrayRef<Type> rowTypes,
                                            ArrayRef<Type> scanTypes) {
  Type i1 = rewriter.getI1Type();
  unsigned numFlatCarried = carried.in.size();
  unsigned accBase = 2 + numFlatCarried, rowBase = accBase + numScan,
           pendingArg = rowBase + numScan;
  Value noPending = createIntConstant(rewriter, loc, i1, 0);
  Value yes = createIntConstant(rewriter, loc, i1, 1);
  SmallVector<Value> outerInits(inits);
  for (Type row : rowTypes)
    outerInits.push_back(emptyAccumulator(
        rewriter, loc, accumulatorType(cast<RankedTensorType>(row), 0)));
  for (Type row : rowTypes) {
    auto rt = cast<RankedTensorType>(row);
    SmallVector<Value> zeros(rt.getRank(),
                             createIndexConstant(rewriter, loc, 0));
    outerInits.push_back(createLoopInit(rewriter, loc, rt, zeros));
  }
  outerInits.push_back(noPending);
  auto grow = [&](OpBuilder &b, Location l, Value cap) {
    return newCapacity(b, l, cap);
  };

  auto outer =
      buildForwardingWhile(rewriter, loc, outerInits, [&](ValueRange a) {
        return arith::OrIOp::create(rewriter, loc, a[pendingArg],
                                    test(a[0], a[1]))
            .getResult();
      });
  Block *outerAfter = &outer.getAfter().front();
  SmallVector<Value> innerInits(outerAfter->getArguments());
  {
    // The pending row is row i - 1: grow, then write it.
    Value pending = outerAfter->getArgument(pendingArg);
    Value pos = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        arith::SubIOp::create(
            rewriter, loc, outerAfter->getArgument(0),
            createIntConstant(rewriter, loc, rewriter.getI64Type(), 1)));
    for (unsigned k = 0; k < numScan; ++k) {
      Value acc = outerAfter->getArgument(accBase + k);
      Value row = outerAfter->getArgument(rowBase + k);
      auto place = scf::IfOp::create(rewriter, loc, TypeRange{acc.getType()},
                                     pending, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(place.thenBlock());
      Value grown = growAccumulator(rewriter, loc, acc, row, 0, grow);
      scf::YieldOp::create(rewriter, loc,
                           insertRow(rewriter, loc, grown, row, pos, 0));
      rewriter.setInsertionPointToStart(place.elseBlock());
      scf::YieldOp::create(rewriter, loc, acc);
      innerInits[accBase + k] = place.getResult(0);
    }
    innerInits[pendingArg] = noPending;
  }
  auto inner =
      buildForwardingWhile(rewriter, loc, innerInits, [&](ValueRange a) {
        Value none = arith::XOrIOp::create(rewriter, loc, a[pendingArg], yes);
        return arith::AndIOp::create(rewriter, loc, none, test(a[0], a[1]))
            .getResult();
      });
  Block *innerAfter = &inner.getAfter().front();
  SmallVector<Value> rows;
  auto yields = step(innerAfter, rows);
  if (failed(yields))
    return failure();
  {
    // Write the rows in place while they fit.
    Value pos = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), innerAfter->getArgument(0));
    Value cap = tensor::DimOp::create(rewriter, loc,
                                      innerAfter->getArgument(accBase), 0);
    Value fits = cmpI(rewriter, loc, arith::CmpIPredicate::ult, pos, cap);
    for (unsigned k = 0; k < numScan; ++k) {
      Value acc = innerAfter->getArgument(accBase + k);
      checkRowShape(rewriter, loc, acc, rows[k], 0, "Loop");
      auto write = scf::IfOp::create(rewriter, loc, TypeRange{acc.getType()},
                                     fits, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(write.thenBlock());
      scf::YieldOp::create(rewriter, loc,
                           insertRow(rewriter, loc, acc, rows[k], pos, 0));
      rewriter.setInsertionPointToStart(write.elseBlock());
      scf::YieldOp::create(rewriter, loc, acc);
      yields->push_back(write.getResult(0));
    }
    yields->append(rows.begin(), rows.end());
    yields->push_back(arith::XOrIOp::create(rewriter, loc, fits, yes));
    scf::YieldOp::create(rewriter, loc, *yields);
  }
  rewriter.setInsertionPointToEnd(outerAfter);
  scf::YieldOp::create(rewriter, loc, inner.getResults());

  // Results: the carried values, then the filled rows of each scan output.
  rewriter.setInsertionPointAfter(outer);
  SmallVector<SmallVector<Value>> results = carried.toResults(
      rewriter, loc, outer.getResults().slice(2, numFlatCarried));
  Value count = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getIndexType(), outer.getResult(0));
  for (unsigned k = 0; k < numScan; ++k)
    results.push_back({finishAccumulator(
        rewriter, loc, outer.getResult(accBase + k), count, 0, scanTypes[k],
        "Loop: a scan output does not fit the output's shape")});
  rewriter.replaceOpWithMultiple(op, results);
  return success();
}

/// Loop(M, cond, v_initial...) -> scf.while carrying (i, cond, v...) (two
/// nested ones with scan outputs: WhileLowering); a sequence or an optional
/// v is carried as its several values. The before region tests
/// `cond && i < M`; the after region runs the body and appends the scan
/// rows. A counted loop over static shapes is an scf.for.
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

    // The loop state: the iteration number, the condition, the carried
    // values (in the body's input types).
    SmallVector<Value> inits{zero64, cond0};
    inits.append(initial.begin(), initial.end());
    WhileLowering w{op,
                    rewriter,
                    loc,
                    tc,
                    body,
                    carried,
                    hasM ? tripCount : Value(),
                    hasCond,
                    iterNumTypes[0],
                    condTypes[0],
                    {condOutTypes[0]},
                    numScan};
    w.execTypes.append(carried.yield.begin(), carried.yield.end());
    w.execTypes.append(rowTypes.begin(), rowTypes.end());
    if (hasCond && !maySingle(cast<RankedTensorType>(condOutTypes[0])))
      return op.emitOpError("the body's condition output must hold a "
                            "single bool");
    return numScan == 0 ? w.lower(inits)
                        : w.lowerWithScans(inits, rowTypes, scanTypes);
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

} // namespace

void mlir::onnxc::populateControlFlowPatterns(TypeConverter &tc,
                                              RewritePatternSet &patterns) {
  patterns.add<YieldLowering, IfLowering, LoopLowering>(tc,
                                                        patterns.getContext());
}

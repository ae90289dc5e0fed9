//===- Scan.cpp - Scan (opset 9+ and the batched opset 8) -> scf.for -----===//
//
// The body is inlined into an scf.execute_region inside an scf.for over the
// scan dim (Subgraph.h); the scan outputs accumulate in tensors carried by
// the loop (Subgraph.cpp), preallocated to the sequence length, or, when
// their row shape is only known at run time, sized by an outer loop when
// the first row comes.
// ScanV8 runs the same loop once per batch entry on the entry's slices.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// What a scan loop needs, shared by Scan (opset 9+) and ScanV8 (whose
/// loop runs once per batch entry on the entry's slices).
struct ScanSpec {
  unsigned numStates;
  SmallVector<int64_t> inAxes, inReverse, outAxes, outReverse;
};

/// The scan loop when some scan outputs get their row shape from the first
/// step (buildScanLoop's `inits`, `execTypes`, `runBody` and `rowPos`):
/// runs `steps` steps (at most `length`, the accumulators' size) and
/// returns the final states and the accumulators. Those outputs start
/// empty and are sized to the sequence length when the first row comes.
/// Sized inside the loop that carries them (a fresh tensor from one branch
/// of an scf.if), one-shot bufferization would copy them whole on every
/// step (200,000 steps took 11.7 s). As for Loop (ControlFlow.cpp), two
/// loops: the inner one runs steps while their rows fit, writing them in
/// place, and ends with the row pending when they do not (the first
/// step); the outer one sizes the accumulators, writes the pending rows
/// and runs the inner one again.
///   outer (t, states..., acc..., row of each growing output..., pending)
///       while pending || t < length:
///     if pending: acc = sized(acc) with row as row t - 1
///     inner (the same) while !pending && t < length:
///       body; row fits (t < capacity) ? write it : pending = true
FailureOr<SmallVector<Value>> buildGrowingScanLoop(
    ConversionPatternRewriter &rewriter, Location loc, const ScanSpec &spec,
    ArrayRef<Value> inits, ArrayRef<Type> execTypes, Value length,
    Value steps, function_ref<FailureOr<scf::ExecuteRegionOp>(Block *, Value, ValueRange)>
        runBody,
    function_ref<Value(unsigned, Value)> rowPos) {
  unsigned numStates = spec.numStates;
  unsigned numOut = execTypes.size() - numStates;
  Value one = createIndexConstant(rewriter, loc, 1);
  SmallVector<unsigned> growing;
  for (unsigned k = 0; k < numOut; ++k)
    if (!cast<RankedTensorType>(execTypes[numStates + k]).hasStaticShape())
      growing.push_back(k);
  unsigned accBase = 1 + numStates, rowBase = accBase + numOut,
           pendingArg = rowBase + growing.size();
  Value zero = createIndexConstant(rewriter, loc, 0);
  Value noPending =
      arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(false));
  Value yes =
      arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
  SmallVector<Value> outerInits{zero};
  outerInits.append(inits.begin(), inits.end());
  for (unsigned k : growing) {
    auto rt = cast<RankedTensorType>(execTypes[numStates + k]);
    SmallVector<Value> zeros(rt.getRank(), zero);
    outerInits.push_back(createLoopInit(rewriter, loc, rt, zeros));
  }
  outerInits.push_back(noPending);
  auto toLength = [&](OpBuilder &, Location, Value) { return length; };

  auto outer = buildForwardingWhile(
      rewriter, loc, outerInits, [&](ValueRange a) -> Value {
        return arith::OrIOp::create(
            rewriter, loc, a[pendingArg],
            cmpI(rewriter, loc, arith::CmpIPredicate::slt, a[0], steps));
      });
  Block *outerAfter = &outer.getAfter().front();
  SmallVector<Value> innerInits(outerAfter->getArguments());
  {
    Value pending = outerAfter->getArgument(pendingArg);
    Value prev =
        arith::SubIOp::create(rewriter, loc, outerAfter->getArgument(0), one);
    for (auto [g, k] : llvm::enumerate(growing)) {
      Value acc = outerAfter->getArgument(accBase + k);
      Value row = outerAfter->getArgument(rowBase + g);
      auto place = scf::IfOp::create(rewriter, loc, TypeRange{acc.getType()},
                                     pending, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(place.thenBlock());
      Value sized =
          growAccumulator(rewriter, loc, acc, row, spec.outAxes[k], toLength);
      scf::YieldOp::create(rewriter, loc,
                           insertRow(rewriter, loc, sized, row, rowPos(k, prev),
                                     spec.outAxes[k]));
      rewriter.setInsertionPointToStart(place.elseBlock());
      scf::YieldOp::create(rewriter, loc, acc);
      innerInits[accBase + k] = place.getResult(0);
    }
    innerInits[pendingArg] = noPending;
  }
  auto inner = buildForwardingWhile(
      rewriter, loc, innerInits, [&](ValueRange a) -> Value {
        Value none = arith::XOrIOp::create(rewriter, loc, a[pendingArg], yes);
        return arith::AndIOp::create(
            rewriter, loc, none,
            cmpI(rewriter, loc, arith::CmpIPredicate::slt, a[0], steps));
      });
  Block *innerAfter = &inner.getAfter().front();
  Value t = innerAfter->getArgument(0);
  auto exec =
      runBody(innerAfter, t, innerAfter->getArguments().slice(1, numStates));
  if (failed(exec))
    return failure();
  unsigned first = growing.front();
  Value cap = tensor::DimOp::create(rewriter, loc,
                                    innerAfter->getArgument(accBase + first),
                                    spec.outAxes[first]);
  Value fits = cmpI(rewriter, loc, arith::CmpIPredicate::ult, t, cap);
  SmallVector<Value> yields{arith::AddIOp::create(rewriter, loc, t, one)};
  for (unsigned k = 0; k < numStates; ++k)
    yields.push_back(exec->getResult(k));
  for (unsigned k = 0; k < numOut; ++k) {
    Value acc = innerAfter->getArgument(accBase + k);
    Value row = exec->getResult(numStates + k);
    int64_t axis = spec.outAxes[k];
    if (!llvm::is_contained(growing, k)) {
      yields.push_back(insertRow(rewriter, loc, acc, row, rowPos(k, t), axis));
      continue;
    }
    checkRowShape(rewriter, loc, acc, row, axis, "Scan");
    auto write = scf::IfOp::create(rewriter, loc, TypeRange{acc.getType()},
                                   fits, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(write.thenBlock());
    scf::YieldOp::create(
        rewriter, loc, insertRow(rewriter, loc, acc, row, rowPos(k, t), axis));
    rewriter.setInsertionPointToStart(write.elseBlock());
    scf::YieldOp::create(rewriter, loc, acc);
    yields.push_back(write.getResult(0));
  }
  for (unsigned k : growing)
    yields.push_back(exec->getResult(numStates + k));
  yields.push_back(arith::XOrIOp::create(rewriter, loc, fits, yes));
  scf::YieldOp::create(rewriter, loc, yields);
  rewriter.setInsertionPointToEnd(outerAfter);
  scf::YieldOp::create(rewriter, loc, inner.getResults());
  rewriter.setInsertionPointAfter(outer);
  return SmallVector<Value>(outer.getResults().slice(1, numStates + numOut));
}

/// Rows [from, length) along `axis` of the accumulator `acc` (of `length`
/// rows) set to zero, or to "" for strings (`isString`).
Value zeroTail(OpBuilder &b, Location loc, Operation *op, Value acc,
               Value from, Value length, int64_t axis, bool isString) {
  auto type = cast<RankedTensorType>(acc.getType());
  Type elt = type.getElementType();
  SmallVector<OpFoldResult> offsets, sizes,
      strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == axis) {
      Value n = arith::SubIOp::create(b, loc, length, from);
      offsets.push_back(from);
      sizes.push_back(n);
      dims.push_back(n);
      continue;
    }
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(getDimOFR(b, loc, acc, d));
    dims.push_back(getDimValue(b, loc, acc, d));
  }
  Value zero = isString ? stringAddress(b, loc, op, "")
                        : createScalarConstant(b, loc, elt, 0);
  Value fill =
      linalg::FillOp::create(b, loc, zero, emptyTensor(b, loc, dims, elt))
          .getResult(0);
  return tensor::InsertSliceOp::create(b, loc, fill, acc, offsets, sizes,
                                       strides);
}

/// Builds the scf.for over the scan dim: `states` and `scanInputs` are
/// converted values; `stateTypes`/`outTypes` the result types. Returns the
/// final states then the scan outputs. With `steps` (ScanV8's
/// sequence_lens), only the first `steps` elements of the sequence are
/// scanned (reverse inputs from element steps - 1); the final states are
/// those after them and the scan outputs' rows past them are zeros
/// (`outIsString`: "").
FailureOr<SmallVector<Value>>
buildScanLoop(Operation *op, ConversionPatternRewriter &rewriter, Location loc,
              const TypeConverter &tc, Region &body, const ScanSpec &spec,
              ValueRange states, ValueRange scanInputs,
              ArrayRef<Type> stateTypes, ArrayRef<Type> outTypes,
              Value steps = nullptr, ArrayRef<bool> outIsString = {}) {
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
  Value one = createIndexConstant(rewriter, loc, 1);
  Value last = arith::SubIOp::create(rewriter, loc, length, one);
  // The last element a reverse scan input starts from.
  Value lastIn = steps ? arith::SubIOp::create(rewriter, loc, steps, one).getResult()
                       : last;
  if (!steps)
    steps = length;
  SmallVector<Type> execTypes;
  for (unsigned k = 0; k < numStates; ++k)
    execTypes.push_back((*bodyIn)[k]);
  for (unsigned k = 0; k < numOut; ++k)
    execTypes.push_back((*bodyOut)[numStates + k]);
  // Where step `t` writes scan output k's row.
  auto rowPos = [&](unsigned k, Value t) -> Value {
    if (!spec.outReverse[k])
      return t;
    return arith::SubIOp::create(rewriter, loc, last, t);
  };
  // The body of step `t` on the states `stateArgs`, inlined at the end of
  // `block` (the insertion point ends after it).
  auto runBody = [&](Block *block, Value t,
                     ValueRange stateArgs) -> FailureOr<scf::ExecuteRegionOp> {
    rewriter.setInsertionPointToEnd(block);
    Value reversedT = arith::SubIOp::create(rewriter, loc, lastIn, t);
    SmallVector<Value> bodyArgs(stateArgs.begin(), stateArgs.end());
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
    auto block2 = convertBody(op, body, tc, rewriter);
    if (failed(block2))
      return failure();
    rewriter.setInsertionPointToEnd(block);
    return inlineBody(rewriter, loc, *block2, bodyArgs, execTypes);
  };
  // The final states and the filled scan outputs.
  auto finish = [&](ValueRange loopResults) {
    SmallVector<Value> results;
    for (unsigned k = 0; k < numStates; ++k)
      results.push_back(castChecked(rewriter, loc, loopResults[k],
                                    stateTypes[k],
                                    "Scan: a final state does not fit the "
                                    "output's shape"));
    for (unsigned k = 0; k < numOut; ++k) {
      Value acc = loopResults[numStates + k];
      if (steps != length)
        acc = zeroTail(rewriter, loc, op, acc, steps, length, spec.outAxes[k],
                       !outIsString.empty() && outIsString[k]);
      results.push_back(finishAccumulator(
          rewriter, loc, acc, length, spec.outAxes[k],
          outTypes[k], "Scan: a scan output does not fit the output's shape"));
    }
    return results;
  };

  if (!grows) {
    auto loop = CountedLoop::build(rewriter, loc, steps, inits, false);
    auto exec = runBody(loop.body, loop.iv,
                        ValueRange(loop.iterArgs).take_front(numStates));
    if (failed(exec))
      return failure();
    SmallVector<Value> yields;
    for (unsigned k = 0; k < numStates; ++k)
      yields.push_back(exec->getResult(k));
    for (unsigned k = 0; k < numOut; ++k)
      yields.push_back(insertRow(rewriter, loc, loop.iterArgs[numStates + k],
                                 exec->getResult(numStates + k),
                                 rowPos(k, loop.iv), spec.outAxes[k]));
    loop.finish(rewriter, loc, yields);
    rewriter.setInsertionPointAfter(loop.op);
    return finish(loop.results());
  }

  auto loopResults = buildGrowingScanLoop(rewriter, loc, spec, inits, execTypes,
                                          length, steps, runBody, rowPos);
  if (failed(loopResults))
    return failure();
  return finish(*loopResults);
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
    Value lens = adaptor.getSequenceLens();
    if (isa<NoneType>(lens.getType()))
      lens = nullptr;
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
    if (lens) {
      auto lt = dyn_cast<RankedTensorType>(lens.getType());
      if (!lt || lt.getRank() != 1 || !lt.getElementType().isInteger(64))
        return op.emitOpError("sequence_lens must be a 1-D int64 tensor, got ")
               << op.getSequenceLens().getType();
      Value n = getDimValue(rewriter, loc, lens, 0);
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, n, batch),
                       "Scan: sequence_lens has {} entries for a batch of {}",
                       {n, batch});
    }
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
    // Entry types (the results without their batch dim).
    SmallVector<Type> stateTypes, outTypes, entryTypes;
    for (auto [k, t] : llvm::enumerate(*resultTypes)) {
      auto rt = cast<RankedTensorType>(t);
      auto et = RankedTensorType::get(rt.getShape().drop_front(),
                                      rt.getElementType());
      (k < numStates ? stateTypes : outTypes).push_back(et);
      entryTypes.push_back(et);
    }
    // The scan of batch entry `b`, its results (the final states and scan
    // outputs of the entry).
    auto scanEntry = [&](Value b) -> FailureOr<SmallVector<Value>> {
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
      for (unsigned k = 0; k < operands.size(); ++k)
        (k < numStates ? states : scanInputs).push_back(entry(operands[k]));
      // sequence_lens: entry b scans its first lens[b] elements, each in
      // [1, the sequence length] (ONNX Runtime refuses 0 too).
      Value steps;
      SmallVector<bool> outIsString;
      if (lens) {
        Value maxLen = getDimValue(rewriter, loc, scanInputs[0], 0);
        Value l = tensor::ExtractOp::create(rewriter, loc, lens, ValueRange{b});
        Value zero64 =
            createIntConstant(rewriter, loc, rewriter.getI64Type(), 0);
        Value max64 = arith::IndexCastOp::create(rewriter, loc,
                                                 rewriter.getI64Type(), maxLen);
        // Sequenced, not as call arguments: the IR's order must not depend
        // on the C++ compiler's order of evaluating them.
        Value inMax = cmpI(rewriter, loc, arith::CmpIPredicate::sle, l, max64);
        Value positive =
            cmpI(rewriter, loc, arith::CmpIPredicate::sgt, l, zero64);
        Value ok = arith::AndIOp::create(rewriter, loc, positive, inMax);
        Value b64 =
            arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), b);
        emitRuntimeCheck(rewriter, loc, ok,
                         "Scan: sequence_lens[{}] = {} is outside [1, {}] (the "
                         "sequence length)",
                         {b64, l, max64});
        steps = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), l);
        for (Value r : op.getResults().drop_front(numStates))
          outIsString.push_back(isStringType(r.getType()));
      }
      return buildScanLoop(op, rewriter, loc, *getTypeConverter(), body, spec,
                           states, scanInputs, stateTypes, outTypes, steps,
                           outIsString);
    };

    SmallVector<Value> loopResults;
    if (!grows) {
      // Every entry shape is static: the results are preallocated and each
      // entry is inserted as it comes.
      auto loop = CountedLoop::build(rewriter, loc, batch, inits, false);
      rewriter.setInsertionPointToStart(loop.body);
      auto results = scanEntry(loop.iv);
      if (failed(results))
        return failure();
      SmallVector<Value> yields;
      for (auto [k, r] : llvm::enumerate(*results))
        yields.push_back(appendRow(rewriter, loc, loop.iterArgs[k], r, loop.iv,
                                   0, nullptr, "Scan"));
      loop.finish(rewriter, loc, yields);
      rewriter.setInsertionPointAfter(loop.op);
      loopResults.assign(loop.results().begin(), loop.results().end());
    } else {
      // Some entry shape comes from the first entry: the accumulators are
      // sized to the batch in an outer loop when that entry's results come
      // (buildGrowingScanLoop, as Scan's rows; sized inside the batch loop
      // they were copied whole on every entry, quadratic in the batch).
      // Later entries must have the first one's shape (checked).
      ScanSpec batchSpec{0, {}, {}, SmallVector<int64_t>(inits.size(), 0),
                         SmallVector<int64_t>(inits.size(), 0)};
      auto runEntry = [&](Block *block, Value b,
                          ValueRange) -> FailureOr<scf::ExecuteRegionOp> {
        rewriter.setInsertionPointToEnd(block);
        auto exec = scf::ExecuteRegionOp::create(rewriter, loc, entryTypes);
        Block *inner = rewriter.createBlock(&exec.getRegion());
        rewriter.setInsertionPointToStart(inner);
        auto results = scanEntry(b);
        if (failed(results))
          return failure();
        scf::YieldOp::create(rewriter, loc, *results);
        rewriter.setInsertionPointAfter(exec);
        return exec;
      };
      auto rowPos = [](unsigned, Value b) { return b; };
      auto r = buildGrowingScanLoop(rewriter, loc, batchSpec, inits,
                                    entryTypes, batch, batch, runEntry,
                                    rowPos);
      if (failed(r))
        return failure();
      loopResults = *r;
    }
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

void mlir::onnxc::populateScanPatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<ScanLowering, ScanV8Lowering>(tc, patterns.getContext());
}

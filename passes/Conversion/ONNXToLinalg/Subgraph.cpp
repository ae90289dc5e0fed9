//===- Subgraph.cpp - Shared by the lowerings of ops with bodies ----------===//
//
// Implements Subgraph.h: checked casts, loop-carried values, body inlining
// and conversion, counted loops, the scan-output accumulators (Loop, Scan)
// and the two layouts of a sequence's shapes (Sequence.cpp).
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
  // Two static dims that differ: no run-time check can hold. A compile
  // error in ONNX terms (tensor.cast's verifier said "cast incompatible"),
  // and a valid cast through the dynamic type so that the IR stays valid.
  if (from.getRank() == toT.getRank())
    for (int64_t d = 0, e = from.getRank(); d < e; ++d) {
      if (from.isDynamicDim(d) || toT.isDynamicDim(d) ||
          from.getDimSize(d) == toT.getDimSize(d))
        continue;
      StringRef reason = message;
      if (size_t colon = reason.find(": "); colon != StringRef::npos &&
                                            reason.take_front(colon).find(' ') ==
                                                StringRef::npos)
        reason = reason.drop_front(colon + 2); // the "Op: " prefix
      emitError(loc) << "a value of type " << from << " where " << toT
                     << " is required: dim " << d << " is "
                     << from.getDimSize(d) << ", not " << toT.getDimSize(d)
                     << " (" << reason << ")";
      Value dyn = tensor::CastOp::create(
          b, loc,
          RankedTensorType::get(
              SmallVector<int64_t>(from.getRank(), ShapedType::kDynamic),
              from.getElementType(), from.getEncoding()),
          v);
      return tensor::CastOp::create(b, loc, toT, dyn);
    }
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

scf::WhileOp
linalg_conv::buildForwardingWhile(OpBuilder &b, Location loc, ValueRange inits,
                                  function_ref<Value(ValueRange)> test) {
  TypeRange types = inits.getTypes();
  SmallVector<Location> locs(inits.size(), loc);
  auto w = scf::WhileOp::create(b, loc, types, inits);
  Block *before = b.createBlock(&w.getBefore(), {}, types, locs);
  scf::ConditionOp::create(b, loc, test(before->getArguments()),
                           before->getArguments());
  b.createBlock(&w.getAfter(), {}, types, locs);
  return w;
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

//===----------------------------------------------------------------------===//
// Scan-output accumulators (Loop, Scan)
//===----------------------------------------------------------------------===//

namespace mlir::onnxc::linalg_conv {


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

/// Checks at run time that `slice` has the row shape of `acc` (unless
/// `acc` has no capacity yet: the first row fixes the shape).
void checkRowShape(OpBuilder &b, Location loc, Value acc, Value slice,
                   int64_t axis, StringRef op) {
  auto sliceType = cast<RankedTensorType>(slice.getType());
  Value cap = tensor::DimOp::create(b, loc, acc, axis);
  Value zero = createIndexConstant(b, loc, 0);
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
}

/// A new accumulator of capacity `newCapacity(capacity of acc)` whose rows
/// have the shape of `slice`, holding the rows of `acc`.
Value growAccumulator(
    OpBuilder &b, Location loc, Value acc, Value slice, int64_t axis,
    function_ref<Value(OpBuilder &, Location, Value)> newCapacity) {
  auto accType = cast<RankedTensorType>(acc.getType());
  Value cap = tensor::DimOp::create(b, loc, acc, axis);
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
  Value old =
      tensor::ExtractSliceOp::create(b, loc, acc, zeros, oldSizes, ones);
  return tensor::InsertSliceOp::create(b, loc, old, fresh, zeros, oldSizes,
                                       ones);
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
  if (!newCapacity)
    return insertRow(b, loc, acc, slice, pos, axis);
  checkRowShape(b, loc, acc, slice, axis, op);
  Value cap = tensor::DimOp::create(b, loc, acc, axis);
  Value full = cmpI(b, loc, arith::CmpIPredicate::uge, pos, cap);
  auto grow = scf::IfOp::create(b, loc, TypeRange{accType}, full,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(grow.thenBlock());
    scf::YieldOp::create(
        b, loc, growAccumulator(b, loc, acc, slice, axis, newCapacity));
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

/// The converted types of `t`, or failure with an error on `op`.
FailureOr<SmallVector<Type>> convertedTypes(Operation *op,
                                            const TypeConverter &tc, Type t) {
  SmallVector<Type> types;
  if (failed(convertFlat(op, tc, t, "a value", types)))
    return failure();
  return types;
}

/// Casts `values` to `types` (checked), element by element.
SmallVector<Value> castAll(OpBuilder &b, Location l, ValueRange values,
                           TypeRange types, StringRef message) {
  SmallVector<Value> out;
  for (auto [v, t] : llvm::zip(values, types))
    out.push_back(castChecked(b, l, v, t, message));
  return out;
}

} // namespace mlir::onnxc::linalg_conv

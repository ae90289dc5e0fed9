//===- Subgraph.h - Shared by the lowerings of ops with bodies --*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Subgraph.cpp: If, Loop
// (ControlFlow.cpp), Scan (Scan.cpp) and SequenceMap (Sequence.cpp) inline
// an onnx body into an scf region and
// carry values, including the several values a sequence or an optional
// converts to (TypeConversion.cpp), through loops.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H

#include "passes/Conversion/ONNXToLinalg/Sequence.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxc::linalg_conv {

/// `v` cast to `to` (a tensor type of the same rank), checking at run time
/// every dim that is dynamic in `v` and static in `to`. A tensor with no
/// rows (dim 0 is 0, and `to` keeps dim 0 dynamic or 0) passes: it holds no
/// elements whatever its other dims say (an empty sequence's shapes).
/// The shapes of a sequence meeting the other layout (isSeqShapesLayoutChange)
/// are converted instead.
Value castChecked(OpBuilder &b, Location loc, Value v, Type to,
                  StringRef message);

/// An uninitialized tensor of `type` (dynamic dims from `sizes`, one per
/// dim) to start a loop-carried value from: a bufferization.alloc_tensor,
/// not a tensor.empty, because CSE merges equal tensor.empty ops and
/// one-shot bufferization then gives every iter_arg they start the same
/// buffer (it ignores conflicts on undefined contents).
Value createLoopInit(OpBuilder &b, Location loc, RankedTensorType type,
                     ArrayRef<Value> sizes);

/// The only element of a single-element tensor (a condition, a trip count,
/// a position), checking at run time that it has one element.
Value extractSingle(OpBuilder &b, Location loc, Value t, StringRef message);

/// The converted types of `types` flattened (a sequence or an optional
/// gives several); `counts` gets how many each type gave. Fails, with an
/// error on `op` naming `what`, when a type has no conversion to tensors.
LogicalResult convertFlat(Operation *op, const TypeConverter &tc,
                          TypeRange types, StringRef what,
                          SmallVectorImpl<Type> &flat,
                          SmallVectorImpl<unsigned> *counts = nullptr);

/// `values` split into consecutive groups of `counts` sizes.
SmallVector<SmallVector<Value>> regroup(ValueRange values,
                                        ArrayRef<unsigned> counts);

/// Converts the signature of the single block of `region` (1:N for
/// sequences and optionals). Failure when a type has no conversion.
FailureOr<Block *> convertBody(Operation *op, Region &region,
                               const TypeConverter &tc,
                               ConversionPatternRewriter &rewriter);

/// Inlines `body` (converted by convertBody) into a new scf.execute_region
/// with `resultTypes`, its arguments replaced by `args`; the insertion point
/// ends after it. Its onnx.Yield becomes the region's scf.yield.
scf::ExecuteRegionOp inlineBody(ConversionPatternRewriter &rewriter,
                                Location loc, Block *body, ValueRange args,
                                TypeRange resultTypes);

/// A loop over [0, upper): an scf.for, or, when a carried value may change
/// shape (a growing accumulator, a sequence), an scf.while carrying the
/// counter first. scf.for's canonicalization folds a tensor.cast of an init
/// value into its iter_arg type, which is unsound for a value that changes
/// shape; scf.while has no such folding.
struct CountedLoop {
  Operation *op;
  Block *body;
  Value iv;
  SmallVector<Value> iterArgs;

  static CountedLoop build(OpBuilder &b, Location loc, Value upper,
                           ValueRange inits, bool shapesChange);
  /// Ends the body (the insertion point is at its end) with `yields`.
  void finish(OpBuilder &b, Location loc, ValueRange yields);
  ValueRange results();
};

/// An scf.while carrying `inits` whose before region continues while
/// `test(its arguments)` and passes them on unchanged; the insertion point
/// ends in its after region, empty, whose arguments have the same types.
scf::WhileOp buildForwardingWhile(OpBuilder &b, Location loc, ValueRange inits,
                                  function_ref<Value(ValueRange)> test);

/// The converted types of `t`, or failure with an error on `op`.
FailureOr<SmallVector<Type>> convertedTypes(Operation *op,
                                            const TypeConverter &tc, Type t);

/// Casts `values` to `types` (checked), element by element.
SmallVector<Value> castAll(OpBuilder &b, Location l, ValueRange values,
                           TypeRange types, StringRef message);

//===----------------------------------------------------------------------===//
// Scan-output accumulators (Loop in ControlFlow.cpp, Scan in Scan.cpp)
//===----------------------------------------------------------------------===//

/// True when every dim of a static `type` is 1, or it has dynamic dims.
bool maySingle(RankedTensorType type);

/// The accumulator of one scan output: the per-step slice type with the
/// scan dim (dynamic: it is the capacity) inserted at `axis`.
RankedTensorType accumulatorType(RankedTensorType slice, int64_t axis);

/// An empty accumulator (capacity 0; dynamic slice dims are 0 until the
/// first row fixes them).
Value emptyAccumulator(OpBuilder &b, Location loc, RankedTensorType accType);

/// `slice` inserted as row `pos` (along `axis`) of `acc`.
Value insertRow(OpBuilder &b, Location loc, Value acc, Value slice, Value pos,
                int64_t axis);

/// Checks at run time that `slice` has the row shape of `acc` (unless
/// `acc` has no capacity yet: the first row fixes the shape); `op` names
/// the op in the message.
void checkRowShape(OpBuilder &b, Location loc, Value acc, Value slice,
                   int64_t axis, StringRef op);

/// A new accumulator of capacity `newCapacity(capacity of acc)` whose rows
/// have the shape of `slice`, holding the rows of `acc` (a fresh tensor:
/// grown inside a loop that carries `acc`, it makes one-shot bufferization
/// copy the whole accumulator on every iteration; LoopLowering grows in an
/// outer loop instead).
Value growAccumulator(
    OpBuilder &b, Location loc, Value acc, Value slice, int64_t axis,
    function_ref<Value(OpBuilder &, Location, Value)> newCapacity);

/// Writes `slice` as row `pos` (along `axis`) of the accumulator `acc`,
/// growing it first when `pos` is past its capacity: the new capacity is
/// `newCapacity(capacity)`. Later rows must have the shape of the first
/// (checked at run time). Returns the updated accumulator. Without
/// `newCapacity` the accumulator was preallocated and only gets the row.
Value appendRow(OpBuilder &b, Location loc, Value acc, Value slice, Value pos,
                int64_t axis,
                function_ref<Value(OpBuilder &, Location, Value)> newCapacity,
                StringRef op);

/// The first `count` rows (along `axis`) of an accumulator, cast to the
/// op's result type.
Value finishAccumulator(OpBuilder &b, Location loc, Value acc, Value count,
                        int64_t axis, Type resultType, StringRef message);

/// The converted types of `types`, or failure (the error is on `op`).
FailureOr<SmallVector<Type>> convertRanked(Operation *op,
                                           const TypeConverter &tc,
                                           TypeRange types, StringRef what);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H

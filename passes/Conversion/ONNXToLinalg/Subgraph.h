//===- Subgraph.h - Shared by the lowerings of ops with bodies --*- C++ -*-===//
//
// Internal to ONNXToLinalg/: If, Loop, Scan (ControlFlow.cpp) and
// SequenceMap (Sequence.cpp) inline an onnx body into an scf region and
// carry values, including the several values a sequence or an optional
// converts to (TypeConversion.cpp), through loops.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H

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

/// The shapes of a sequence (Sequence.cpp) have one of two layouts. Items of
/// a static rank r: a tensor<n x r x i64>, row i item i's dims. Items of no
/// static rank, each with its own: a 1-D tensor<? x i64> of n rows of
/// kSeqRowWidth elements, item i's rank, then its dims, then zeros.
constexpr int64_t kSeqMaxItemRank = 16; // ONNXC_MAX_RANK
constexpr int64_t kSeqRowWidth = 1 + kSeqMaxItemRank;

/// Whether a value of type `from` and one of type `to` are the shapes of a
/// sequence in different layouts (an i64 tensor of rank 1 and one of rank 2;
/// no other values of different ranks meet).
bool isSeqShapesLayoutChange(Type from, Type to);

/// Shapes of items of static rank (n x r) as rows.
Value seqShapesToRows(OpBuilder &b, Location loc, Value table);

/// Rows as shapes of items of rank `r` (n x r), checking at run time that
/// every item has rank r.
Value seqShapesFromRows(OpBuilder &b, Location loc, Value rows, int64_t r,
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

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SUBGRAPH_H

//===- Sequence.h - The layouts of a sequence's shapes ----------*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Sequence.cpp: what the other
// lowerings (castChecked in Subgraph.cpp) need of a lowered sequence.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SEQUENCE_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SEQUENCE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::onnxc::linalg_conv {

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

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_SEQUENCE_H

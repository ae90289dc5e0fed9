//===- AxisPieces.h - Consecutive pieces along one axis ---------*- C++ -*-===//
//
// Internal to ONNXToLinalg/ (header only): Concat (Tensor.cpp) writes its
// inputs, and Split (Slice.cpp) reads its outputs, as consecutive pieces
// along one axis.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_AXISPIECES_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_AXISPIECES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::onnxc::linalg_conv {

/// Where the piece after one at `offset` of `size` starts: an attribute
/// while both are constants, else an arith.addi.
inline OpFoldResult nextPieceOffset(OpBuilder &b, Location loc,
                                    OpFoldResult offset, OpFoldResult size) {
  std::optional<int64_t> o = getConstantIntValue(offset),
                         s = getConstantIntValue(size);
  if (o && s)
    return b.getIndexAttr(*o + *s);
  return arith::AddIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, offset),
                               getValueOrCreateConstantIndexOp(b, loc, size))
      .getResult();
}

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_AXISPIECES_H

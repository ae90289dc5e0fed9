//===- SoftmaxToUkernel.cpp - Softmax -> onnxc_rt_softmax -----------------===//
//
// See SoftmaxToUkernel.h. The call is onnxc_rt_softmax(rows, n, x, y,
// flags) (runtime_abi.h; runtime/src/softmax.c): rows the product of the
// dims before the last, n the last.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToUkernel/SoftmaxToUkernel.h"

#include "runtime/include/onnxc/runtime_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace {
constexpr StringLiteral kSoftmax = "onnxc_rt_softmax";
} // namespace

LogicalResult mlir::onnxc::rewriteSoftmaxToUkernel(RuntimeCallBuilder &rc,
                                                  Operation *op) {
  int64_t axis;
  int64_t flags = 0;
  if (auto s = dyn_cast<ONNX::SoftmaxOp>(op)) {
    axis = s.getAxis();
  } else if (auto s = dyn_cast<ONNX::LogSoftmaxOp>(op)) {
    axis = s.getAxis();
    flags = ONNXC_SOFTMAX_LOG;
  } else {
    return failure();
  }
  Value in = op->getOperand(0), out = op->getResult(0);
  auto xt = dyn_cast<RankedTensorType>(rc.tc.convertType(in.getType()));
  auto yt = dyn_cast<RankedTensorType>(rc.tc.convertType(out.getType()));
  if (!xt || !yt || xt != yt || !xt.getElementType().isF32() ||
      xt.getRank() < 1)
    return failure();
  int64_t rank = xt.getRank();
  if (axis < 0)
    axis += rank;
  if (axis != rank - 1)
    return failure();
  rc.setInsertionPoint(op);
  Value x = rc.builtin(in);
  SmallVector<Value> sizes;
  Value rows = rc.idx(1);
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(rc.dim(x, d));
    if (d < rank - 1)
      rows = rc.b.createOrFold<arith::MulIOp>(rc.loc, rows, sizes.back());
  }
  Value y = rc.alloc(yt, sizes);
  rc.call(kSoftmax, {rc.i64(rows), rc.i64(sizes.back()),
                     rc.pointer(rc.readBuffer(in)), rc.pointer(y),
                     rc.i64c(flags)});
  out.replaceAllUsesWith(rc.result(y, out.getType()));
  op->erase();
  return success();
}

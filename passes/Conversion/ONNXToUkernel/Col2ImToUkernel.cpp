//===- Col2ImToUkernel.cpp - Col2Im -> onnxc_rt_col2im -------------------===//
//
// See Col2ImToUkernel.h. The call's parameter block is onnxc_col2im_params
// (runtime_abi.h; runtime/src/col2im.c): 1-D as 2-D with a unit h
// dim.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToUkernel/Col2ImToUkernel.h"

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "runtime/include/onnxc/runtime_abi.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {
constexpr StringLiteral kCol2Im = "onnxc_rt_col2im";
constexpr int64_t kCol2ImSlots = sizeof(onnxc_col2im_params) / sizeof(int64_t);
} // namespace

LogicalResult mlir::onnxc::rewriteCol2ImToUkernel(RuntimeCallBuilder &rc,
                                                 ONNX::Col2ImOp op) {
  auto xt =
      dyn_cast<RankedTensorType>(rc.tc.convertType(op.getInput().getType()));
  auto yt =
      dyn_cast<RankedTensorType>(rc.tc.convertType(op.getOutput().getType()));
  auto image = getConstantInts(op.getImageShape());
  auto block = getConstantInts(op.getBlockShape());
  if (!xt || !yt || !image || !block || !xt.getElementType().isF32() ||
      yt.getElementType() != xt.getElementType() || xt.getRank() != 3 ||
      image->size() != block->size() || image->empty() || image->size() > 2 ||
      yt.getRank() != 2 + (int64_t)image->size() || xt.isDynamicDim(1) ||
      xt.isDynamicDim(2))
    return failure();
  int64_t r = image->size();
  SmallVector<int64_t> dil(r, 1), str(r, 1), pads(2 * r, 0);
  if (auto a = op.getDilations())
    dil.assign(a->begin(), a->end());
  if (auto a = op.getStrides())
    str.assign(a->begin(), a->end());
  if (auto a = op.getPads())
    pads.assign(a->begin(), a->end());
  if ((int64_t)dil.size() != r || (int64_t)str.size() != r ||
      (int64_t)pads.size() != 2 * r)
    return failure();
  int64_t blockElems = 1, blocks = 1;
  SmallVector<int64_t> nBlocks;
  for (int64_t i = 0; i < r; ++i) {
    if ((*image)[i] <= 0 || (*block)[i] <= 0 || dil[i] <= 0 || str[i] <= 0 ||
        pads[i] < 0 || pads[i + r] < 0 || yt.isDynamicDim(2 + i) ||
        yt.getDimSize(2 + i) != (*image)[i])
      return failure();
    int64_t span = (*image)[i] + pads[i] + pads[i + r] -
                   dil[i] * ((*block)[i] - 1) - 1;
    if (span < 0)
      return failure();
    nBlocks.push_back(span / str[i] + 1);
    blockElems *= (*block)[i];
    blocks *= nBlocks.back();
  }
  int64_t cb = xt.getDimSize(1);
  if (xt.getDimSize(2) != blocks || cb % blockElems != 0 ||
      yt.isDynamicDim(1) || yt.getDimSize(1) != cb / blockElems)
    return failure();
  // 1-D as 2-D with a unit h dim.
  auto at = [&](ArrayRef<int64_t> v, int64_t i, int64_t unit) {
    return r == 1 ? (i == 0 ? unit : v[0]) : v[i];
  };
  rc.setInsertionPoint(op);
  Value cols = op.getInput();
  int64_t flags = 0;
  ONNX::TransposeOp transpose = cols.getDefiningOp<ONNX::TransposeOp>();
  if (transpose) {
    auto perm = transpose.getPerm();
    auto tt = dyn_cast<RankedTensorType>(
        rc.tc.convertType(transpose.getData().getType()));
    if (perm && SmallVector<int64_t>(perm->begin(), perm->end()) ==
                    SmallVector<int64_t>{0, 2, 1} &&
        tt && tt.getRank() == 3) {
      cols = transpose.getData();
      flags |= ONNXC_COL2IM_TRANSPOSED;
    } else {
      transpose = nullptr;
    }
  }
  Value colsT = rc.builtin(cols);
  Value batch = rc.dim(colsT, 0);
  Value params = rc.paramsBlock(op, kCol2ImSlots);
  int64_t fields[] = {
      -1, cb / blockElems, at(nBlocks, 0, 1), at(nBlocks, 1, 1),
      at(*image, 0, 1), at(*image, 1, 1), at(*block, 0, 1), at(*block, 1, 1),
      at(str, 0, 1), at(str, 1, 1), at(dil, 0, 1), at(dil, 1, 1),
      r == 1 ? 0 : pads[0], r == 1 ? pads[0] : pads[1], flags};
  static_assert(sizeof(fields) / sizeof(fields[0]) == kCol2ImSlots,
                "one value per onnxc_col2im_params field");
  for (auto [i, f] : llvm::enumerate(fields))
    rc.store(params, i, i == 0 ? rc.i64(batch) : rc.i64c(f));
  SmallVector<Value> sizes = {batch};
  for (int64_t i = 1; i < yt.getRank(); ++i)
    sizes.push_back(rc.idx(yt.getDimSize(i)));
  Value y = rc.alloc(yt, sizes);
  rc.call(kCol2Im,
          {rc.pointer(params), rc.pointer(rc.readBuffer(cols)), rc.pointer(y)});
  op.getOutput().replaceAllUsesWith(rc.result(y, op.getOutput().getType()));
  op->erase();
  if (transpose && transpose->use_empty())
    transpose->erase();
  return success();
}

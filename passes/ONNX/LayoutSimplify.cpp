//===- LayoutSimplify.cpp - Transposes and products that only regroup -----===//
//
// Part of onnx-graph-optimize (GraphOptimize.cpp), on static shapes:
//   - a Transpose that moves only dims of size 1 (the others keep their
//     order) does not move any element: it becomes a Reshape, which the
//     lowering turns into a view instead of a copy;
//   - a MatMul of an A of rank 3 or more by a 2-D B multiplies every row of
//     A by the same matrix: A's leading dims are folded into its rows, one
//     2-D product [prod(batch) * M, K] x [K, N] and a Reshape back, instead
//     of prod(batch) products of M rows each. PyTorch's MultiheadAttention
//     export is the case met in practice: Transpose [1, L, E] -> [L, 1, E],
//     then MatMul [L, 1, E] x [E, 3E], L products of one row;
//   - an Add of a bias over the last dim after such a Reshape moves before
//     it, next to its product, where the lowering fuses it.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/GraphOptimize.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// `v` reshaped to the static `type`.
Value reshapeTo(PatternRewriter &rewriter, Location loc, Value v,
                RankedTensorType type) {
  return ONNX::ReshapeOp::create(rewriter, loc, type, v,
                                 shapeConstant(rewriter, loc, type.getShape()),
                                 rewriter.getI64IntegerAttr(0));
}

/// Transpose(x, perm) -> Reshape(x, shape) when the dims of size other than
/// 1 appear in the result in their input order.
struct TransposeOfUnitDims : OpRewritePattern<ONNX::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape() || inType.getRank() < 2)
      return failure();
    int64_t rank = inType.getRank();
    SmallVector<int64_t> perm = getPerm(op, rank);
    if ((int64_t)perm.size() != rank)
      return failure();
    bool identity = true;
    int64_t last = -1;
    for (int64_t d = 0; d < rank; ++d) {
      identity &= perm[d] == d;
      if (perm[d] < 0 || perm[d] >= rank)
        return failure();
      if (inType.getDimSize(perm[d]) == 1)
        continue;
      if (perm[d] < last)
        return failure();
      last = perm[d];
    }
    if (identity) // ComposeTranspose removes it
      return failure();
    auto plain = RankedTensorType::get(outType.getShape(),
                                       outType.getElementType());
    if (plain != outType)
      return failure();
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), op.getData(),
                                     outType));
    return success();
  }
};

/// MatMul(A [b..., M, K], B [K, N]) -> Reshape(MatMul(Reshape(A, [b*M, K]),
/// B), [b..., M, N]).
struct FoldMatMulBatch : OpRewritePattern<ONNX::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    auto ta = dyn_cast<RankedTensorType>(op.getA().getType());
    auto tb = dyn_cast<RankedTensorType>(op.getB().getType());
    auto ty = dyn_cast<RankedTensorType>(op.getType());
    if (!ta || !tb || !ty || !ta.hasStaticShape() || !tb.hasStaticShape() ||
        !ty.hasStaticShape() || ta.getRank() < 3 || tb.getRank() != 2 ||
        ty.getRank() != ta.getRank())
      return failure();
    if (RankedTensorType::get(ty.getShape(), ty.getElementType()) != ty ||
        RankedTensorType::get(ta.getShape(), ta.getElementType()) != ta)
      return failure();
    int64_t k = ta.getShape().back();
    int64_t rows = ta.getNumElements() / std::max<int64_t>(k, 1);
    if (k == 0 || tb.getDimSize(0) != k || rows == 0)
      return failure();
    Location loc = op.getLoc();
    Value a2 = flattenRows(rewriter, loc, op.getA());
    auto t2 = RankedTensorType::get({rows, tb.getDimSize(1)},
                                    ty.getElementType());
    Value y2 = ONNX::MatMulOp::create(rewriter, loc, t2, a2, op.getB());
    rewriter.replaceOp(op, unflattenRows(rewriter, loc, y2, op.getA()));
    return success();
  }
};

/// Add(Reshape(y, s), c) -> Reshape(Add(y, c), s) when c is a 1-D tensor
/// of the last dim of y, which the Reshape keeps: a bias then follows its
/// product directly, and the lowering fuses it into the product.
struct AddBeforeReshape : OpRewritePattern<ONNX::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::AddOp op,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      Value r = op->getOperand(side), c = op->getOperand(1 - side);
      auto reshape = r.getDefiningOp<ONNX::ReshapeOp>();
      if (!reshape || !reshape->hasOneUse())
        continue;
      Value y = reshape.getData();
      auto ty = dyn_cast<RankedTensorType>(y.getType());
      auto tr = dyn_cast<RankedTensorType>(r.getType());
      auto tc = dyn_cast<RankedTensorType>(c.getType());
      auto tout = dyn_cast<RankedTensorType>(op.getType());
      if (!ty || !tr || !tc || !tout || !ty.hasStaticShape() ||
          !tr.hasStaticShape() || !tc.hasStaticShape() || tout != tr ||
          tc.getRank() != 1 || ty.getRank() < 1 ||
          tc.getDimSize(0) != ty.getShape().back() ||
          tr.getShape().back() != ty.getShape().back() ||
          tc.getDimSize(0) == 1)
        continue;
      if (RankedTensorType::get(ty.getShape(), ty.getElementType()) != ty)
        continue;
      Value sum = side == 0
                      ? ONNX::AddOp::create(rewriter, op.getLoc(), ty, y, c)
                      : ONNX::AddOp::create(rewriter, op.getLoc(), ty, c, y);
      rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), sum, tr));
      return success();
    }
    return failure();
  }
};

} // namespace

void mlir::onnxc::populateLayoutSimplifyPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeOfUnitDims, FoldMatMulBatch, AddBeforeReshape>(patterns.getContext());
}

//===- GraphOptimize.cpp - The onnx-graph-optimize pass --------------------===//
//
// Graph-level rewrites on the onnx dialect, before the lowering:
//   - Conv followed by an inference-mode BatchNormalization, both with
//     constant parameters, becomes one Conv with scaled weights and bias;
//   - a Conv's outer kernel taps that read only padding (dilations larger
//     than the map) are dropped, with the pads they spanned, and a dilated
//     Conv whose taps read padding for most positions is split into output
//     regions with the taps that read the input there (ConvTaps.cpp);
//   - Transpose of a constant becomes a constant (weights transposed once,
//     at compile time);
//   - Transpose of a Transpose becomes one Transpose, an identity Transpose
//     disappears, and one that moves only dims of size 1 becomes a Reshape
//     (LayoutSimplify.cpp);
//   - a MatMul of an A of rank >= 3 by a 2-D B becomes one 2-D product
//     between two Reshapes (LayoutSimplify.cpp);
//   - Reshape of a Reshape becomes one Reshape when the outer shape is a
//     constant that does not copy dims (no 0 entries), and a Reshape whose
//     result type equals its static input type disappears;
//   - a loop body's product of one row of a loop-invariant tensor (a Loop's
//     Gather(X, i) by the iteration number, a Scan input's slice) with a
//     loop-invariant matrix is computed for every row once before the loop
//     (one 2-D MatMul or Gemm), and the body reads its row; a
//     loop-invariant bias Add of such a row follows it. This is what turns
//     an RNN stepped by a Loop from two matrix-vector products per step
//     into one (Recurrent.cpp does the same for the RNN/GRU/LSTM ops);
//   - a sum of 2-D products of computed (not constant) operands,
//     Add(MatMul(A1, B1), MatMul(A2, B2)), becomes one product over the
//     concatenated depths, MatMul(Concat(A1, A2; 1), Concat(B1, B2; 0)):
//     the gradient of a weight that an unrolled recurrence uses at every
//     step (onnx-autodiff's accumulation of T products of depth `batch`)
//     is then one deep product instead of T shallow ones and their sum.
// Constants are read from dense or resource attributes; folded constants
// above 1 KiB are resource blobs again.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Passes.h"
#include "passes/ONNX/Constants.h"
#include "passes/ONNX/GraphOptimize.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"


#include <algorithm>
#include <cmath>
#include <cstring>
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ONNXGRAPHOPTIMIZE
#include "passes/ONNX/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnx-graph-optimize"

namespace {

/// Conv(X, W, B) -> BatchNormalization(scale, bias, mean, var) with every
/// parameter constant and the Conv used only there:
///   Conv(X, W * s, (B - mean) * s + bias),  s = scale / sqrt(var + eps)
/// per output channel.
struct FoldConvBatchNorm : OpRewritePattern<ONNX::BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    if (bn.getTrainingMode() != 0 ||
        !isa<NoneType>(bn.getRunningMean().getType()) ||
        !isa<NoneType>(bn.getRunningVar().getType()))
      return failure();
    auto conv = bn.getX().getDefiningOp<ONNX::ConvOp>();
    if (!conv || !conv->hasOneUse())
      return failure();
    auto wType = dyn_cast<RankedTensorType>(conv.getW().getType());
    if (!wType || !wType.hasStaticShape() || wType.getRank() < 3)
      return failure();
    Type et = wType.getElementType();
    int64_t m = wType.getDimSize(0);
    auto w = getConstantBytes(conv.getW());
    auto scale = getConstantBytes(bn.getScale());
    auto beta = getConstantBytes(bn.getB());
    auto mean = getConstantBytes(bn.getInputMean());
    auto var = getConstantBytes(bn.getInputVar());
    if (!w || !scale || !beta || !mean || !var)
      return failure();
    auto wd = asDoubles(*w, et), sd = asDoubles(*scale, et),
         bd = asDoubles(*beta, et), md = asDoubles(*mean, et),
         vd = asDoubles(*var, et);
    if (!wd || !sd || !bd || !md || !vd || sd->size() != size_t(m) ||
        bd->size() != size_t(m) || md->size() != size_t(m) ||
        vd->size() != size_t(m) ||
        getElementTypeOrSelf(bn.getScale().getType()) != et)
      return failure();
    std::vector<double> convBias(m, 0.0);
    if (!isa<NoneType>(conv.getB().getType())) {
      auto cb = getConstantBytes(conv.getB());
      auto cbd = cb ? asDoubles(*cb, et) : std::nullopt;
      if (!cbd || cbd->size() != size_t(m))
        return failure();
      convBias = *cbd;
    }
    double eps = bn.getEpsilon().convertToDouble();
    size_t perChannel = wd->size() / m;
    std::vector<double> bias(m);
    for (int64_t c = 0; c < m; ++c) {
      double s = (*sd)[c] / std::sqrt((*vd)[c] + eps);
      for (size_t k = 0; k < perChannel; ++k)
        (*wd)[c * perChannel + k] *= s;
      bias[c] = (convBias[c] - (*md)[c]) * s + (*bd)[c];
    }
    Location loc = conv.getLoc();
    Value newW = createConstant(rewriter, loc, wType, fromDoubles(*wd, et),
                                "conv_bn_weight");
    Value newB = createConstant(rewriter, loc, RankedTensorType::get({m}, et),
                                fromDoubles(bias, et), "conv_bn_bias");
    auto newConv = ONNX::ConvOp::create(
        rewriter, loc, bn.getY().getType(), conv.getX(), newW, newB,
        conv.getAutoPadAttr(), conv.getDilationsAttr(), conv.getGroupAttr(),
        conv.getKernelShapeAttr(), conv.getPadsAttr(), conv.getStridesAttr());
    newConv->setDiscardableAttrs(conv->getDiscardableAttrDictionary());
    rewriter.replaceOp(bn, {newConv.getY(), bn.getRunningMean(),
                            bn.getRunningVar()});
    return success();
  }
};

/// ConvTranspose with constant weights W (C, M, k...), one group, explicit
/// pads (no output_shape, no auto_pad) and static spatial sizes:
///   Y = Col2Im(MatMul(W', Reshape(X, [N, C, L])), out, k) (+ B)
/// with W' = W as (C, M * prod(k)) transposed, folded here: a product over
/// the input positions (the fast GEMM), then each product column added at
/// its place in the output. The direct lowering convolves the input
/// dilated by the strides with zeros, and spends s^r times the work.
struct ConvTransposeToCol2Im : OpRewritePattern<ONNX::ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::ConvTransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto xt = dyn_cast<RankedTensorType>(op.getX().getType());
    auto wt = dyn_cast<RankedTensorType>(op.getW().getType());
    auto yt = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!xt || !wt || !yt || !wt.hasStaticShape() || op.getGroup() != 1 ||
        op.getOutputShape() || op.getAutoPad() != "NOTSET" ||
        xt.getRank() < 3 || wt.getRank() != xt.getRank() ||
        yt.getRank() != xt.getRank())
      return failure();
    int64_t r = xt.getRank() - 2;
    for (int64_t i = 1; i < xt.getRank(); ++i)
      if (xt.isDynamicDim(i) || yt.isDynamicDim(i))
        return failure();
    int64_t c = wt.getDimSize(0), m = wt.getDimSize(1);
    if (xt.getDimSize(1) != c || yt.getDimSize(1) != m)
      return failure();
    SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
    if (auto k = op.getKernelShape())
      if (SmallVector<int64_t>(k->begin(), k->end()) != kernel)
        return failure();
    auto bytes = getConstantBytes(op.getW());
    if (!bytes)
      return failure();
    int64_t mk = wt.getNumElements() / c;
    Location loc = op.getLoc();
    Type et = wt.getElementType();
    auto i64s = [&](ArrayRef<int64_t> v) {
      auto t = RankedTensorType::get({(int64_t)v.size()},
                                     rewriter.getI64Type());
      return ONNX::ConstantOp::create(
                 rewriter, loc, TypeRange{t}, ValueRange{},
                 ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
                     "value", DenseIntElementsAttr::get(t, v))})
          .getResult();
    };
    int64_t l = 1;
    for (int64_t i = 0; i < r; ++i)
      l *= xt.getDimSize(2 + i);
    // Few input positions (a generator's first layers: 1 x 1, 4 x 4): the
    // product as X' W with X' = X transposed to (N, L, C) and W as it is,
    // (C, M*K): its rows are the L positions and its wide side the M*K
    // columns of the constant (the GEMM's efficient orientation; W' X would
    // have L columns of a 32-wide panel). Col2Im then reads the result
    // through a Transpose, which convert-onnx-quantized-to-ukernel folds
    // into its call.
    bool transposed = l < 32;
    Value w;
    if (transposed) {
      w = createConstant(rewriter, loc, RankedTensorType::get({c, mk}, et),
                         *bytes, "convtranspose_weight");
    } else {
      // W (C, M*K) -> W' (M*K, C).
      size_t eb = elementBytes(et);
      std::vector<char> wT(bytes->size());
      for (int64_t i = 0; i < c; ++i)
        for (int64_t j = 0; j < mk; ++j)
          std::memcpy(wT.data() + (j * c + i) * eb,
                      bytes->data() + (i * mk + j) * eb, eb);
      w = createConstant(rewriter, loc, RankedTensorType::get({mk, c}, et), wT,
                         "convtranspose_weight");
    }
    // Batch dims keep their names: N -> (N, C, L) -> (N, M*K, L).
    auto withBatch = [&](ArrayRef<int64_t> rest) {
      SmallVector<int64_t> shape = {xt.getDimSize(0)};
      shape.append(rest.begin(), rest.end());
      StringRef name = ONNX::getDimName(xt, 0);
      SmallVector<StringRef> names(shape.size(), "");
      names[0] = name;
      return ONNX::getTensorType(shape, et, names);
    };
    Value xr = ONNX::ReshapeOp::create(rewriter, loc, withBatch({c, l}),
                                       op.getX(), i64s({0, c, l}),
                                       rewriter.getI64IntegerAttr(0));
    Value cols;
    if (transposed) {
      Value xT = ONNX::TransposeOp::create(rewriter, loc, withBatch({l, c}), xr,
                                           rewriter.getDenseI64ArrayAttr({0, 2, 1}));
      Value colsT = ONNX::MatMulOp::create(rewriter, loc, withBatch({l, mk}),
                                           xT, w);
      cols = ONNX::TransposeOp::create(rewriter, loc, withBatch({mk, l}), colsT,
                                       rewriter.getDenseI64ArrayAttr({0, 2, 1}));
    } else {
      cols = ONNX::MatMulOp::create(rewriter, loc, withBatch({mk, l}), w, xr);
    }
    SmallVector<int64_t> dil(r, 1), str(r, 1), pads(2 * r, 0);
    if (auto a = op.getDilations())
      dil.assign(a->begin(), a->end());
    if (auto a = op.getStrides())
      str.assign(a->begin(), a->end());
    if (auto a = op.getPads())
      pads.assign(a->begin(), a->end());
    SmallVector<int64_t> outPad(r, 0);
    if (auto a = op.getOutputPadding())
      outPad.assign(a->begin(), a->end());
    if ((int64_t)dil.size() != r || (int64_t)str.size() != r ||
        (int64_t)pads.size() != 2 * r || (int64_t)outPad.size() != r)
      return failure();
    SmallVector<int64_t> image(yt.getShape().drop_front(2));
    // The blocks Col2Im counts must be the input's positions: they are,
    // for the output size ConvTranspose gives, when output_padding < stride.
    for (int64_t i = 0; i < r; ++i) {
      int64_t span = image[i] + pads[i] + pads[i + r] -
                     dil[i] * (kernel[i] - 1) - 1;
      if (span < 0 || span / str[i] + 1 != xt.getDimSize(2 + i))
        return failure();
    }
    Value y = ONNX::Col2ImOp::create(
        rewriter, loc, yt, cols, i64s(image), i64s(kernel),
        rewriter.getDenseI64ArrayAttr(dil), rewriter.getDenseI64ArrayAttr(pads),
        rewriter.getDenseI64ArrayAttr(str));
    if (!isa<NoneType>(op.getB().getType())) {
      SmallVector<int64_t> bshape = {m};
      bshape.append(r, 1);
      auto bt = RankedTensorType::get(bshape, et);
      Value b = ONNX::ReshapeOp::create(rewriter, loc, bt, op.getB(),
                                        i64s(bshape),
                                        rewriter.getI64IntegerAttr(0));
      y = ONNX::AddOp::create(rewriter, loc, yt, y, b);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

/// The permutation of a Transpose (default: reversed dims).
SmallVector<int64_t> mlir::onnxc::getPerm(ONNX::TransposeOp op, int64_t rank) {
  if (auto p = op.getPerm())
    return SmallVector<int64_t>(p->begin(), p->end());
  SmallVector<int64_t> perm;
  for (int64_t i = rank - 1; i >= 0; --i)
    perm.push_back(i);
  return perm;
}

namespace {

/// Transpose of a constant -> the transposed constant.
struct FoldConstantTranspose : OpRewritePattern<ONNX::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape())
      return failure();
    auto bytes = getConstantBytes(op.getData());
    if (!bytes)
      return failure();
    size_t eb = elementBytes(inType.getElementType());
    int64_t rank = inType.getRank();
    SmallVector<int64_t> perm = getPerm(op, rank);
    ArrayRef<int64_t> inShape = inType.getShape();
    SmallVector<int64_t> inStrides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * inShape[d + 1];
    std::vector<char> out(bytes->size());
    SmallVector<int64_t> idx(rank, 0);
    int64_t n = outType.getNumElements();
    for (int64_t i = 0; i < n; ++i) {
      // idx: the output index; the source element is at in[perm^-1].
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += idx[d] * inStrides[perm[d]];
      std::memcpy(out.data() + i * eb, bytes->data() + src * eb, eb);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < outType.getDimSize(d))
          break;
        idx[d] = 0;
      }
    }
    auto plain = RankedTensorType::get(outType.getShape(),
                                       inType.getElementType());
    if (plain != outType)
      return failure();
    rewriter.replaceOp(op, createConstant(rewriter, op.getLoc(), plain, out,
                                          "transposed"));
    return success();
  }
};

/// Transpose(Transpose(x, p1), p2) -> Transpose(x, p1 o p2); identity
/// permutations disappear.
struct ComposeTranspose : OpRewritePattern<ONNX::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!type)
      return failure();
    int64_t rank = type.getRank();
    SmallVector<int64_t> perm = getPerm(op, rank);
    bool identity = true;
    for (int64_t d = 0; d < rank; ++d)
      identity &= perm[d] == d;
    if (identity && op.getData().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    auto inner = op.getData().getDefiningOp<ONNX::TransposeOp>();
    if (!inner)
      return failure();
    auto innerType = dyn_cast<RankedTensorType>(inner.getData().getType());
    if (!innerType)
      return failure();
    SmallVector<int64_t> p1 = getPerm(inner, rank);
    SmallVector<int64_t> composed;
    for (int64_t d = 0; d < rank; ++d)
      composed.push_back(p1[perm[d]]);
    rewriter.replaceOpWithNewOp<ONNX::TransposeOp>(
        op, op.getType(), inner.getData(),
        rewriter.getDenseI64ArrayAttr(composed));
    return success();
  }
};

/// Reshape(Reshape(x, s1), s2) -> Reshape(x, s2) when s2 is a constant
/// without 0 entries (a 0 would copy a dim of the inner result); a Reshape
/// to its own static type disappears.
struct ComposeReshape : OpRewritePattern<ONNX::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (inType && outType && inType == outType && inType.hasStaticShape()) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    auto inner = op.getData().getDefiningOp<ONNX::ReshapeOp>();
    if (!inner)
      return failure();
    auto shape = getConstantBytes(op.getShape());
    if (!shape)
      return failure();
    for (size_t i = 0; i < shape->size() / 8; ++i) {
      int64_t v;
      std::memcpy(&v, shape->data() + 8 * i, 8);
      if (v == 0)
        return failure();
    }
    rewriter.replaceOpWithNewOp<ONNX::ReshapeOp>(
        op, op.getType(), inner.getData(), op.getShape(),
        op.getAllowzeroAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Loop-invariant row products
//===----------------------------------------------------------------------===//

/// `v` seen through onnx.Identity ops.
Value skipIdentity(Value v) {
  while (auto id = v.getDefiningOp<ONNX::IdentityOp>())
    v = id.getInput();
  return v;
}

/// Whether `v` is defined inside (a region of) `loop`.
bool definedIn(Value v, Operation *loop) {
  return loop->isAncestor(v.getParentRegion()->getParentOp());
}

/// Whether `v` has the same value at every iteration of `loop` and can be
/// read before it: defined outside, or an operand-free onnx.Constant or
/// onnx.NoValue inside (cloned before the loop by `hoistedValue`).
bool isInvariant(Value v, Operation *loop) {
  if (!definedIn(v, loop))
    return true;
  Operation *def = v.getDefiningOp();
  return def && isa<ONNX::ConstantOp, ONNX::NoValueOp>(def) &&
         def->getNumOperands() == 0;
}

/// `v` (isInvariant) as a value available right before `loop`.
Value hoistedValue(PatternRewriter &rewriter, Value v, Operation *loop) {
  if (!definedIn(v, loop))
    return v;
  OpBuilder::InsertionGuard g(rewriter);
  rewriter.setInsertionPoint(loop);
  return rewriter.clone(*v.getDefiningOp())->getResult(0);
}

/// The single integer of a constant (i64 or i32, any rank, one element).
std::optional<int64_t> getConstantScalar(Value v) {
  auto bytes = getConstantBytes(skipIdentity(v));
  if (!bytes)
    return std::nullopt;
  Type t = getElementTypeOrSelf(skipIdentity(v).getType());
  if (t.isInteger(64) && bytes->size() == 8) {
    int64_t x;
    std::memcpy(&x, bytes->data(), 8);
    return x;
  }
  if (t.isInteger(32) && bytes->size() == 4) {
    int32_t x;
    std::memcpy(&x, bytes->data(), 4);
    return x;
  }
  return std::nullopt;
}

/// Whether `v` is a constant single true bool.
bool isConstantTrue(Value v) {
  auto c = skipIdentity(v).getDefiningOp<ONNX::ConstantOp>();
  auto dense = c && c.getValueAttr()
                   ? dyn_cast<DenseElementsAttr>(c.getValueAttr())
                   : DenseElementsAttr();
  return dense && dense.getNumElements() == 1 &&
         dense.getElementType().isInteger(1) &&
         *dense.getValues<bool>().begin();
}

/// Whether the trip count `m` is, at run time, dim `axis` of `x` (rank
/// `rank`) read with Shape: Gather(Shape(x), axis) or Shape(x, start =
/// axis, end = axis + 1), through Identity, Squeeze and Reshape (the forms
/// `for t in range(x.size(0))` exports to).
bool isDimOf(Value m, Value x, int64_t axis, int64_t rank) {
  for (;;) {
    m = skipIdentity(m);
    if (auto sq = m.getDefiningOp<ONNX::SqueezeOp>())
      m = sq.getData();
    else if (auto re = m.getDefiningOp<ONNX::ReshapeOp>())
      m = re.getData();
    else
      break;
  }
  auto shapeBounds = [&](ONNX::ShapeOp shape, int64_t &start, int64_t &end) {
    auto clampDim = [&](int64_t d) {
      d = d < 0 ? d + rank : d;
      return std::clamp<int64_t>(d, 0, rank);
    };
    start = clampDim(shape.getStartAttr()
                         ? shape.getStartAttr().getValue().getSExtValue()
                         : 0);
    end = clampDim(shape.getEndAttr()
                       ? shape.getEndAttr().getValue().getSExtValue()
                       : rank);
    return skipIdentity(shape.getData()) == skipIdentity(x);
  };
  int64_t start, end;
  if (auto shape = m.getDefiningOp<ONNX::ShapeOp>())
    return shapeBounds(shape, start, end) && start == axis && end == axis + 1;
  auto gather = m.getDefiningOp<ONNX::GatherOp>();
  if (!gather || gather.getAxisAttr().getValue().getSExtValue() != 0)
    return false;
  auto shape = skipIdentity(gather.getData()).getDefiningOp<ONNX::ShapeOp>();
  std::optional<int64_t> index = getConstantScalar(gather.getIndices());
  if (!shape || !index || !shapeBounds(shape, start, end))
    return false;
  int64_t pos = *index < 0 ? *index + (end - start) : *index;
  return pos >= 0 && start + pos < end && start + pos == axis;
}

/// A loop body reading the rows of a loop-invariant tensor one per
/// iteration: at iteration i, `slice` is row i of `source` along `axis`
/// (the dim removed). For Loop, `slice` is Gather(source, i, axis) with i
/// the body's iteration number; for Scan it is the body's argument for a
/// scan input. A function f of the slice with otherwise loop-invariant
/// operands, computed row-wise, is then row i of f(source): replaceRows
/// computes f(source) once before the loop and reads its row i instead.
struct RowAccess {
  Operation *loop;
  Value slice;
  Value source;
  int64_t axis;
  /// Loop: the Gather's index (the iteration number). Scan: null.
  Value index;
  /// Scan: the scan input position of `slice` (0-based among the scan
  /// inputs).
  unsigned scanInput = 0;
};

/// Whether `loop` runs its body on every row of dim `axis` of `x`: it runs
/// exactly M iterations (no condition, or a constant true passed through
/// unchanged) and M is at least that dim (a constant at least its static
/// size, or the dim itself read with Shape). With a larger M the
/// iteration past the last row fails in the Gather either way (an index
/// past dim `axis`, the same check on the same row count), so hoisting
/// changes neither the error nor the work: every row computed before the
/// loop is one the loop reads.
bool visitsEveryRow(ONNX::LoopOp loop, Value x, int64_t axis) {
  Block &body = loop.getBody().front();
  auto yield = cast<ONNX::YieldOp>(body.getTerminator());
  if (!isa<NoneType>(loop.getCond().getType()) &&
      (!isConstantTrue(loop.getCond()) ||
       skipIdentity(yield.getValues()[0]) != body.getArgument(1)))
    return false;
  if (isa<NoneType>(loop.getM().getType()))
    return false;
  auto type = cast<RankedTensorType>(x.getType());
  if (std::optional<int64_t> m = getConstantScalar(loop.getM()))
    return !type.isDynamicDim(axis) && *m >= type.getDimSize(axis);
  return isDimOf(loop.getM(), x, axis, type.getRank());
}

/// The row access `slice` is, if any (see RowAccess), for `user` in the
/// loop's body block itself (not in a nested region, which may not run at
/// every iteration).
std::optional<RowAccess> matchRowAccess(Value slice, Operation *user) {
  if (auto arg = dyn_cast<BlockArgument>(slice)) {
    auto scan = dyn_cast<ONNX::ScanOp>(arg.getOwner()->getParentOp());
    if (!scan || user->getParentOp() != scan)
      return std::nullopt;
    unsigned numInputs = scan->getNumOperands();
    unsigned numScan = scan.getNumScanInputs();
    unsigned pos = arg.getArgNumber();
    if (numScan > numInputs || pos < numInputs - numScan)
      return std::nullopt;
    unsigned k = pos - (numInputs - numScan);
    Value source = scan->getOperand(pos);
    auto type = dyn_cast<RankedTensorType>(source.getType());
    if (!type)
      return std::nullopt;
    int64_t axis = 0;
    if (auto axes = scan.getScanInputAxes())
      axis = (*axes)[k];
    axis = axis < 0 ? axis + type.getRank() : axis;
    if (axis < 0 || axis >= type.getRank())
      return std::nullopt;
    return RowAccess{scan, slice, source, axis, Value(), k};
  }
  auto gather = slice.getDefiningOp<ONNX::GatherOp>();
  if (!gather)
    return std::nullopt;
  auto loop = dyn_cast<ONNX::LoopOp>(gather->getParentOp());
  auto type = dyn_cast<RankedTensorType>(gather.getData().getType());
  auto indexType = dyn_cast<RankedTensorType>(gather.getIndices().getType());
  if (!loop || user->getParentOp() != loop || !type || !indexType ||
      indexType.getRank() != 0 ||
      skipIdentity(gather.getIndices()) != loop.getBody().getArgument(0) ||
      !isInvariant(gather.getData(), loop))
    return std::nullopt;
  int64_t axis = gather.getAxisAttr().getValue().getSExtValue();
  axis = axis < 0 ? axis + type.getRank() : axis;
  if (axis < 0 || axis >= type.getRank() ||
      !visitsEveryRow(loop, gather.getData(), axis))
    return std::nullopt;
  return RowAccess{loop, slice, gather.getData(), axis, gather.getIndices()};
}

/// The slice type of `allRows` with dim `axis` removed.
RankedTensorType rowType(RankedTensorType allRows, int64_t axis) {
  SmallVector<int64_t> shape(allRows.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, allRows.getElementType());
}

/// Replaces `op` (a function of `access.slice`, computed row-wise) by row i
/// of `allRows` (that function of every row, computed before the loop):
/// Gather(allRows, i, axis) in a Loop body; in a Scan, a new scan input
/// with the axis and direction of the slice's, whose body argument
/// replaces `op`. A scan input nothing reads any more is dropped.
void replaceRows(PatternRewriter &rewriter, const RowAccess &access,
                 Operation *op, Value allRows) {
  auto allType = cast<RankedTensorType>(allRows.getType());
  if (auto loop = dyn_cast<ONNX::LoopOp>(access.loop)) {
    rewriter.setInsertionPoint(op);
    Value row = ONNX::GatherOp::create(rewriter, op->getLoc(),
                                       op->getResult(0).getType(), allRows,
                                       access.index, access.axis);
    rewriter.replaceOp(op, row);
    return;
  }
  auto scan = cast<ONNX::ScanOp>(access.loop);
  Block &body = scan.getBody().front();
  unsigned numScan = scan.getNumScanInputs();
  auto axes = scan.getScanInputAxes();
  auto dirs = scan.getScanInputDirections();
  rewriter.modifyOpInPlace(scan, [&] {
    scan->insertOperands(scan->getNumOperands(), allRows);
    scan.setNumScanInputs(numScan + 1);
    if (axes) {
      SmallVector<int64_t> a(axes->begin(), axes->end());
      a.push_back(a[access.scanInput]);
      scan.setScanInputAxes(ArrayRef<int64_t>(a));
    }
    if (dirs) {
      SmallVector<int64_t> d(dirs->begin(), dirs->end());
      d.push_back(d[access.scanInput]);
      scan.setScanInputDirections(ArrayRef<int64_t>(d));
    }
  });
  BlockArgument row =
      body.addArgument(rowType(allType, access.axis), op->getLoc());
  rewriter.replaceOp(op, row);
  if (!access.slice.use_empty())
    return;
  // Nothing reads the old scan input: drop it (there is another now).
  unsigned pos = cast<BlockArgument>(access.slice).getArgNumber();
  auto axes2 = scan.getScanInputAxes();
  auto dirs2 = scan.getScanInputDirections();
  rewriter.modifyOpInPlace(scan, [&] {
    scan->eraseOperand(pos);
    body.eraseArgument(pos);
    scan.setNumScanInputs(numScan);
    if (axes2) {
      SmallVector<int64_t> a(axes2->begin(), axes2->end());
      a.erase(a.begin() + access.scanInput);
      scan.setScanInputAxes(ArrayRef<int64_t>(a));
    }
    if (dirs2) {
      SmallVector<int64_t> d(dirs2->begin(), dirs2->end());
      d.erase(d.begin() + access.scanInput);
      scan.setScanInputDirections(ArrayRef<int64_t>(d));
    }
  });
}

} // namespace

/// An i64 shape constant.
Value mlir::onnxc::shapeConstant(PatternRewriter &rewriter, Location loc,
                    ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get({static_cast<int64_t>(shape.size())},
                                    rewriter.getI64Type());
  return ONNX::ConstantOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{},
      ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
          "value", DenseElementsAttr::get(type, shape))});
}

/// `source` [..., K] (K static and > 0) as [-1, K]; unchanged when 2-D.
Value mlir::onnxc::flattenRows(PatternRewriter &rewriter, Location loc,
                               Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  if (type.getRank() == 2)
    return source;
  int64_t k = type.getShape().back();
  int64_t rows = type.hasStaticShape() ? type.getNumElements() / k
                                       : ShapedType::kDynamic;
  return ONNX::ReshapeOp::create(
      rewriter, loc, RankedTensorType::get({rows, k}, type.getElementType()),
      source, shapeConstant(rewriter, loc, {-1, k}));
}

/// The 2-D product `flat` [rows, N] back to the shape of `source` [..., K]
/// with N for K (unchanged when `source` is 2-D). The shape is a constant
/// with at most one -1 (and no 0: the patterns leave empty static dims
/// alone), or, when several dims are only known at run time,
/// Concat(Shape(source, end = -1), [N]) with allowzero.
Value mlir::onnxc::unflattenRows(PatternRewriter &rewriter, Location loc,
                                 Value flat, Value source) {
  auto flatType = cast<RankedTensorType>(flat.getType());
  auto srcType = cast<RankedTensorType>(source.getType());
  int64_t rank = srcType.getRank();
  if (rank == 2)
    return flat;
  int64_t n = flatType.getShape().back();
  SmallVector<int64_t> shape(srcType.getShape()), spec;
  shape.back() = n;
  for (int64_t d : shape)
    spec.push_back(ShapedType::isDynamic(d) ? -1 : d);
  auto type = RankedTensorType::get(shape, flatType.getElementType());
  Value shapeValue;
  uint64_t allowZero = 0;
  if (llvm::count(spec, -1) <= 1) {
    shapeValue = shapeConstant(rewriter, loc, spec);
  } else {
    // Every dim explicit; a run-time 0 is an empty dim, not a copy.
    allowZero = 1;
    Type i64 = rewriter.getI64Type();
    Value lead = ONNX::ShapeOp::create(
        rewriter, loc, RankedTensorType::get({rank - 1}, i64), source,
        rewriter.getIntegerAttr(i64, rank - 1),
        rewriter.getIntegerAttr(i64, 0));
    shapeValue = ONNX::ConcatOp::create(
        rewriter, loc, RankedTensorType::get({rank}, i64),
        ValueRange{lead, shapeConstant(rewriter, loc, {n})},
        rewriter.getIntegerAttr(i64, 0));
  }
  return ONNX::ReshapeOp::create(rewriter, loc, type, flat, shapeValue,
                                 allowZero);
}

namespace {

/// MatMul(slice, W) with W loop-invariant and 2-D -> row i of
/// MatMul(source, W), computed once before the loop as one 2-D product
/// ([rows, K] x [K, N], reshaped). Only for a slice axis that is a row
/// (batch or M) axis of the product, not the contraction axis.
struct HoistRowMatMul : OpRewritePattern<ONNX::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<RowAccess> access = matchRowAccess(op.getA(), op);
    if (!access || !isInvariant(op.getB(), access->loop))
      return failure();
    auto src = cast<RankedTensorType>(access->source.getType());
    auto w = dyn_cast<RankedTensorType>(op.getB().getType());
    auto y = dyn_cast<RankedTensorType>(op.getType());
    if (!w || !y || w.getRank() != 2 || !w.hasStaticShape() ||
        src.getRank() < 2 || access->axis >= src.getRank() - 1 ||
        llvm::is_contained(src.getShape(), 0) ||
        src.getShape().back() != w.getDimSize(0) || w.getDimSize(0) == 0 ||
        src.getElementType() != w.getElementType())
      return failure();
    SmallVector<int64_t> allShape(src.getShape());
    allShape.back() = w.getDimSize(1);
    auto allType = RankedTensorType::get(allShape, src.getElementType());
    if (rowType(allType, access->axis) != y)
      return failure();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(access->loop);
    Value flat = flattenRows(rewriter, loc, access->source);
    auto flatType = cast<RankedTensorType>(flat.getType());
    Value product = ONNX::MatMulOp::create(
        rewriter, loc,
        RankedTensorType::get({flatType.getDimSize(0), w.getDimSize(1)},
                              src.getElementType()),
        flat, hoistedValue(rewriter, op.getB(), access->loop));
    replaceRows(rewriter, *access, op,
                unflattenRows(rewriter, loc, product, access->source));
    return success();
  }
};

/// Gemm(slice, B, C) (no transA, slice 2-D, B and C loop-invariant, C the
/// same for every row: rank <= 1 or [1, N]) -> row i of the Gemm of every
/// row, computed once before the loop on source reshaped to [rows, K].
struct HoistRowGemm : OpRewritePattern<ONNX::GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::GemmOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<RowAccess> access = matchRowAccess(op.getA(), op);
    if (!access || op.getTransA() != 0 ||
        !isInvariant(op.getB(), access->loop) ||
        !isInvariant(op.getC(), access->loop))
      return failure();
    auto src = cast<RankedTensorType>(access->source.getType());
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    auto y = dyn_cast<RankedTensorType>(op.getType());
    if (!b || !y || b.getRank() != 2 || !b.hasStaticShape() ||
        src.getRank() != 3 || access->axis >= 2 ||
        llvm::is_contained(src.getShape(), 0) ||
        src.getElementType() != b.getElementType())
      return failure();
    int64_t k = op.getTransB() ? b.getDimSize(1) : b.getDimSize(0);
    int64_t n = op.getTransB() ? b.getDimSize(0) : b.getDimSize(1);
    if (src.getShape().back() != k || k == 0)
      return failure();
    if (!isa<NoneType>(op.getC().getType())) {
      auto c = dyn_cast<RankedTensorType>(op.getC().getType());
      if (!c || !c.hasStaticShape() ||
          (c.getRank() == 2 && c.getDimSize(0) != 1) || c.getRank() > 2)
        return failure();
    }
    SmallVector<int64_t> allShape(src.getShape());
    allShape.back() = n;
    auto allType = RankedTensorType::get(allShape, src.getElementType());
    if (rowType(allType, access->axis) != y)
      return failure();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(access->loop);
    Value flat = flattenRows(rewriter, loc, access->source);
    auto flatType = cast<RankedTensorType>(flat.getType());
    Value gemm = ONNX::GemmOp::create(
        rewriter, loc,
        TypeRange{RankedTensorType::get({flatType.getDimSize(0), n},
                                        src.getElementType())},
        flat, hoistedValue(rewriter, op.getB(), access->loop),
        hoistedValue(rewriter, op.getC(), access->loop), op.getAlphaAttr(),
        op.getBetaAttr(), op.getTransAAttr(), op.getTransBAttr());
    replaceRows(rewriter, *access, op,
                unflattenRows(rewriter, loc, gemm, access->source));
    return success();
  }
};

/// Add(slice, c) or Add(c, slice) with c loop-invariant and broadcasting
/// only within a row (its rank at most the number of dims after the slice
/// axis, the result the slice's type) -> row i of Add(source, c), computed
/// once before the loop. Only when the Add is the slice's only reader, so
/// that the loop reads one row instead of two (a hoisted MatMul's Gather
/// plus its bias).
struct HoistRowAdd : OpRewritePattern<ONNX::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::AddOp op,
                                PatternRewriter &rewriter) const override {
    for (unsigned s = 0; s < 2; ++s) {
      Value slice = op->getOperand(s), c = op->getOperand(1 - s);
      if (!slice.hasOneUse() || slice == c)
        continue;
      std::optional<RowAccess> access = matchRowAccess(slice, op);
      if (!access || !isInvariant(c, access->loop))
        continue;
      auto src = cast<RankedTensorType>(access->source.getType());
      auto ct = dyn_cast<RankedTensorType>(c.getType());
      if (!ct || !ct.hasStaticShape() ||
          ct.getRank() > src.getRank() - 1 - access->axis ||
          op.getType() != slice.getType() ||
          rowType(src, access->axis) != op.getType() ||
          ct.getElementType() != src.getElementType())
        continue;
      rewriter.setInsertionPoint(access->loop);
      Value cv = hoistedValue(rewriter, c, access->loop);
      Value all = s == 0 ? ONNX::AddOp::create(rewriter, op.getLoc(), src,
                                               access->source, cv)
                         : ONNX::AddOp::create(rewriter, op.getLoc(), src, cv,
                                               access->source);
      replaceRows(rewriter, *access, op, all);
      return success();
    }
    return failure();
  }
};

/// A 2-D float operand of a product merged by SumOfProducts: computed, not
/// a constant (a constant's concatenation would be a copy at every call,
/// where the product alone reads it prepacked).
bool mergeableOperand(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() == 2 && t.hasStaticShape() &&
         isa<FloatType>(t.getElementType()) && !getConstantBytes(v);
}

/// `v`'s parts along `axis`: the inputs of a Concat on that axis that only
/// this merge reads (an earlier merge's), else `v` itself.
void appendParts(Value v, int64_t axis, SmallVectorImpl<Value> &parts) {
  auto concat = v.getDefiningOp<ONNX::ConcatOp>();
  if (concat && v.hasOneUse() && (int64_t)concat.getAxis() == axis) {
    parts.append(concat->operand_begin(), concat->operand_end());
    return;
  }
  parts.push_back(v);
}

/// Add(MatMul(A1, B1), MatMul(A2, B2)) with 2-D computed operands, each
/// product read only by the Add -> MatMul(Concat(A1, A2; 1),
/// Concat(B1, B2; 0)) (C = sum_i A_i B_i = [A1 A2] [B1; B2]). Repeated on a
/// chain of Adds, the concatenations grow flat (one Concat per side).
struct SumOfProducts : OpRewritePattern<ONNX::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ONNX::AddOp op,
                                PatternRewriter &rewriter) const override {
    auto p = op->getOperand(0).getDefiningOp<ONNX::MatMulOp>();
    auto q = op->getOperand(1).getDefiningOp<ONNX::MatMulOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!p || !q || p == q || !p->hasOneUse() || !q->hasOneUse() || !type ||
        type.getRank() != 2 || !type.hasStaticShape() ||
        p.getType() != type || q.getType() != type)
      return failure();
    for (Value v : {p.getA(), p.getB(), q.getA(), q.getB()})
      if (!mergeableOperand(v) ||
          getElementTypeOrSelf(v.getType()) != type.getElementType())
        return failure();
    SmallVector<Value> as, bs;
    appendParts(p.getA(), 1, as);
    appendParts(q.getA(), 1, as);
    appendParts(p.getB(), 0, bs);
    appendParts(q.getB(), 0, bs);
    int64_t k = 0;
    for (Value a : as)
      k += cast<RankedTensorType>(a.getType()).getDimSize(1);
    Location loc = op.getLoc();
    Type et = type.getElementType();
    Type i64 = rewriter.getI64Type();
    Value a = ONNX::ConcatOp::create(
        rewriter, loc, RankedTensorType::get({type.getDimSize(0), k}, et), as,
        rewriter.getIntegerAttr(i64, 1));
    Value b = ONNX::ConcatOp::create(
        rewriter, loc, RankedTensorType::get({k, type.getDimSize(1)}, et), bs,
        rewriter.getIntegerAttr(i64, 0));
    rewriter.replaceOpWithNewOp<ONNX::MatMulOp>(op, type, a, b);
    return success();
  }
};

struct ONNXGraphOptimizePass
    : public onnxc::impl::ONNXGraphOptimizeBase<ONNXGraphOptimizePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConvBatchNorm, FoldConstantTranspose, ComposeTranspose,
                 ComposeReshape, HoistRowMatMul, HoistRowGemm, HoistRowAdd,
                 ConvTransposeToCol2Im, SumOfProducts>(&getContext());
    populateConvTapPatterns(patterns);
    populateLayoutSimplifyPatterns(patterns);
    GreedyRewriteConfig config;
    config.setMaxIterations(8);
    auto countOps = [&] {
      int64_t n = 0;
      getOperation()->walk([&](Operation *) { ++n; });
      return n;
    };
    (void)countOps;
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << countOps()
                            << " ops before\n");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << countOps()
                            << " ops after\n");
  }
};

} // namespace

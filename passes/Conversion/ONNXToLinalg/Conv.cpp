//===- Conv.cpp - Conv, ConvTranspose, ConvInteger, QLinearConv -----------===//
//
// Every convolution is one grouped direct convolution: a linalg.generic over
// (n, g, m, o1..or, c, k1..kr) reading the padded input (a tensor.pad) as
// X[n, g, c, o*s + k*d] and the weights as W[g, m, c, k], accumulating into
// an init that already holds the bias. The group dim comes from
// expand_shape on X, W and the init (collapsed again on the result), so
// every map stays affine and the op stays fusable.
//
// ConvTranspose is the same convolution over the input dilated by the
// strides (inserted into zeros with a strided insert_slice) and padded by
// (k-1)*d - pad, with the kernel flipped and its channel dims swapped (a
// copy of the weights in Conv's layout, which the ukernel pass maps to the
// runtime's convolution).
// The integer convolutions subtract the zero points first (elementwise
// generics in i32) so that padding with 0 is exact.
//
// Symbolic dims (the weights a graph input, say) leave the kernel, channel
// and output sizes to the run time: the sizes become index arithmetic on
// tensor.dim, what static shapes check at compile time is checked at run
// time, and the generics stay the same (only a dynamic kernel's flip and a
// dynamic-length per-channel operand's broadcast become gathers).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Window.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// Splits dim `dim` of `v` into (groups, dim / groups).
Value splitDim(OpBuilder &b, Location loc, Value v, int64_t dim,
               int64_t groups) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> outShape;
  SmallVector<ReassociationIndices> re;
  IndexMath m{b, loc};
  for (int64_t i = 0; i < t.getRank(); ++i) {
    if (i == dim) {
      re.push_back({(int64_t)shape.size(), (int64_t)shape.size() + 1});
      shape.push_back(groups);
      shape.push_back(t.isDynamicDim(i) ? ShapedType::kDynamic
                                        : t.getDimSize(i) / groups);
      outShape.push_back(b.getIndexAttr(groups));
      outShape.push_back(
          m.floorDiv(getDimOFR(b, loc, v, i), b.getIndexAttr(groups)));
      continue;
    }
    re.push_back({(int64_t)shape.size()});
    shape.push_back(t.getDimSize(i));
    outShape.push_back(getDimOFR(b, loc, v, i));
  }
  auto type = RankedTensorType::get(shape, t.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, v, re, outShape);
}

/// Merges dims `dim` and `dim + 1` of `v` into `type`.
Value mergeDims(OpBuilder &b, Location loc, Value v, int64_t dim,
                RankedTensorType type) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  SmallVector<ReassociationIndices> re;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == dim + 1)
      continue;
    if (i == dim)
      re.push_back({i, i + 1});
    else
      re.push_back({i});
  }
  Value r = tensor::CollapseShapeOp::create(b, loc, v, re);
  if (r.getType() != type)
    r = tensor::CastOp::create(b, loc, type, r);
  return r;
}

/// Checks `x pred y` at run time (message "<Op>: <what>"). Nothing when both
/// are constants: the compile-time checks cover those.
void checkAtRunTime(OpBuilder &b, Location loc, Operation *op,
                    arith::CmpIPredicate pred, OpFoldResult x, OpFoldResult y,
                    const Twine &what) {
  if (getConstantIntValue(x) && getConstantIntValue(y))
    return;
  Value xv = getValueOrCreateConstantIndexOp(b, loc, x);
  Value yv = getValueOrCreateConstantIndexOp(b, loc, y);
  Value cond = arith::CmpIOp::create(b, loc, pred, xv, yv);
  emitRuntimeCheck(b, loc, cond,
                   (op->getName().stripDialect() + ": " + what).str());
}

/// A 1-D per-output-channel operand (bias, w_scale, w_zero_point) whose
/// length only the run time knows: checked to be 1 or `channels`, then
/// broadcast to `channels` entries (so that it is indexed by the channel).
/// Other operands are returned as they are.
Value expandPerChannel(OpBuilder &b, Location loc, Operation *op, Value v,
                       OpFoldResult channels, StringRef name) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() != 1 || !t.isDynamicDim(0))
    return v;
  Value len = tensor::DimOp::create(b, loc, v, 0);
  Value one = createIndexConstant(b, loc, 1);
  Value m = getValueOrCreateConstantIndexOp(b, loc, channels);
  Value isOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, len, one);
  Value isM = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, len, m);
  Value ok = arith::OrIOp::create(b, loc, isOne, isM);
  emitRuntimeCheck(b, loc, ok,
                   (op->getName().stripDialect() + ": " + name +
                    " must have 1 entry or one per output channel")
                       .str());
  auto full = RankedTensorType::get({ShapedType::kDynamic}, t.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{full}, ValueRange{},
             ValueRange{createEmpty(b, loc, full, {m})},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(1)},
             parallelIterators(1),
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value i = linalg::IndexOp::create(nb, l, 0);
               Value at = arith::SelectOp::create(
                   nb, l, isOne, createIndexConstant(nb, l, 0), i);
               linalg::YieldOp::create(nb, l,
                                       ValueRange{tensor::ExtractOp::create(
                                           nb, l, v, ValueRange{at})});
             })
      .getResult(0);
}

/// The output init (N, M, out...): the bias B[m] broadcast, or zeros.
Value biasInit(OpBuilder &b, Location loc, RankedTensorType type,
               ArrayRef<OpFoldResult> sizes, Value bias) {
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[i]));
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dyn);
  if (!bias) {
    Value zero = createScalarConstant(b, loc, type.getElementType(), 0);
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  auto bt = cast<RankedTensorType>(bias.getType());
  AffineExpr e = bt.getDimSize(0) == 1 && type.getDimSize(1) != 1
                     ? getAffineConstantExpr(0, ctx)
                     : getAffineDimExpr(1, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, e),
                                 b.getMultiDimIdentityMap(rank)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{bias}, ValueRange{empty}, maps,
             parallelIterators(rank),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// How the weights are laid out: (M, C/G, k...) for Conv, (C, M/G, k...)
/// for ConvTranspose's (which swapGroupChannels turns into the first, the
/// one the convolution kernel reads).
enum class WeightLayout { OutIn, InOut };

/// `w` with its spatial dims (2..) reversed: W'[a, b, k] = W[a, b, K-1-k]
/// for the kernel sizes `kernel` (read from `w` where they are dynamic).
Value flipKernel(OpBuilder &b, Location loc, Value w,
                 ArrayRef<OpFoldResult> kernel) {
  MLIRContext *ctx = b.getContext();
  auto t = cast<RankedTensorType>(w.getType());
  int64_t rank = t.getRank();
  Value init = createEmptyLike(b, loc, t, w);
  if (llvm::any_of(kernel, [](OpFoldResult k) {
        return !getConstantIntValue(k).has_value();
      })) {
    // K-1-k is no affine map for a run-time K: a gather.
    SmallVector<Value> last;
    for (OpFoldResult k : kernel)
      last.push_back(arith::SubIOp::create(
          b, loc, getValueOrCreateConstantIndexOp(b, loc, k),
          createIndexConstant(b, loc, 1)));
    return gatherGeneric(b, loc, init, w, [&](OpBuilder &nb, Location l) {
      SmallVector<Value> idx;
      for (int64_t i = 0; i < rank; ++i) {
        Value iv = linalg::IndexOp::create(nb, l, i);
        idx.push_back(i < 2 ? iv
                            : Value(arith::SubIOp::create(nb, l, last[i - 2],
                                                          iv)));
      }
      return idx;
    });
  }
  SmallVector<AffineExpr> e;
  for (int64_t i = 0; i < rank; ++i)
    e.push_back(i < 2 ? getAffineDimExpr(i, ctx)
                      : getAffineConstantExpr(
                            *getConstantIntValue(kernel[i - 2]) - 1, ctx) -
                            getAffineDimExpr(i, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, e, ctx),
                                 b.getMultiDimIdentityMap(rank)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{t}, ValueRange{w}, ValueRange{init}, maps,
             parallelIterators(rank),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// ConvTranspose's weights (C, M/G, k...) in a Conv's layout (M, C/G, k...):
/// per group, the two channel dims swapped, W'[g*M/G + m, c, k] =
/// W[g*C/G + c, m, k]. A data-movement generic of its own (a copy of the
/// weights), so that the convolution reads its weights as
/// onnxc-linalg-to-ukernel's convolution kernel does.
Value swapGroupChannels(OpBuilder &b, Location loc, Value w, int64_t groups) {
  MLIRContext *ctx = b.getContext();
  Value wg = splitDim(b, loc, w, 0, groups); // (G, C/G, M/G, k...)
  auto t = cast<RankedTensorType>(wg.getType());
  int64_t rank = t.getRank();
  SmallVector<int64_t> shape(t.getShape());
  std::swap(shape[1], shape[2]);
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < rank; ++i)
    sizes.push_back(getDimValue(b, loc, wg, i == 1 ? 2 : i == 2 ? 1 : i));
  auto outType = RankedTensorType::get(shape, t.getElementType());
  Value init = createEmpty(b, loc, outType, sizes);
  SmallVector<AffineExpr> e;
  for (int64_t i = 0; i < rank; ++i)
    e.push_back(getAffineDimExpr(i == 1 ? 2 : i == 2 ? 1 : i, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, e, ctx),
                                 b.getMultiDimIdentityMap(rank)};
  Value swapped =
      linalg::GenericOp::create(
          b, loc, TypeRange{outType}, ValueRange{wg}, ValueRange{init}, maps,
          parallelIterators(rank),
          [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          })
          .getResult(0);
  SmallVector<int64_t> merged(shape.begin() + 1, shape.end());
  merged[0] = ShapedType::isDynamic(shape[1]) ? ShapedType::kDynamic
                                              : shape[1] * groups;
  return mergeDims(b, loc, swapped, 0,
                   RankedTensorType::get(merged, t.getElementType()));
}

/// The grouped direct convolution of the padded `x` (N, C, sp...) with `w`
/// accumulated into `init` (N, M, out...): stride `strides`, dilation
/// `dilations`, `groups` groups.
Value groupedConv(OpBuilder &b, Location loc, Value x, Value w, Value init,
                  int64_t groups, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations, WeightLayout layout) {
  MLIRContext *ctx = b.getContext();
  auto initType = cast<RankedTensorType>(init.getType());
  int64_t r = initType.getRank() - 2;
  Value xg = splitDim(b, loc, x, 1, groups);
  Value wg = splitDim(b, loc, w, 0, groups);
  Value og = splitDim(b, loc, init, 1, groups);
  // Loops: n, g, m, o1..or, c, k1..kr.
  unsigned numLoops = 4 + 2 * r;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineExpr n = d(0), g = d(1), mm = d(2), c = d(3 + r);
  SmallVector<AffineExpr> xe = {n, g, c}, we, oe = {n, g, mm};
  we = layout == WeightLayout::OutIn ? SmallVector<AffineExpr>{g, mm, c}
                                     : SmallVector<AffineExpr>{g, c, mm};
  for (int64_t i = 0; i < r; ++i) {
    AffineExpr o = d(3 + i), k = d(4 + r + i);
    xe.push_back(o * strides[i] + k * dilations[i]);
    we.push_back(k);
    oe.push_back(o);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, xe, ctx),
                                 AffineMap::get(numLoops, 0, we, ctx),
                                 AffineMap::get(numLoops, 0, oe, ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(3 + r);
  iters.append(1 + r, utils::IteratorType::reduction);
  Value result = linalg::GenericOp::create(
                     b, loc, TypeRange{og.getType()}, ValueRange{xg, wg},
                     ValueRange{og}, maps, iters,
                     [](OpBuilder &nb, Location l, ValueRange args) {
                       Value p, s;
                       if (isFloat(args[0].getType())) {
                         p = arith::MulFOp::create(nb, l, args[0], args[1]);
                         s = arith::AddFOp::create(nb, l, args[2], p);
                       } else {
                         p = arith::MulIOp::create(nb, l, args[0], args[1]);
                         s = arith::AddIOp::create(nb, l, args[2], p);
                       }
                       linalg::YieldOp::create(nb, l, s);
                     })
                     .getResult(0);
  return mergeDims(b, loc, result, 1, initType);
}

/// The kernel shape: the attribute, or the weights' spatial dims
/// (ShapedType::kDynamic where only the run time knows them).
FailureOr<SmallVector<int64_t>> kernelShape(Operation *op, Value w) {
  auto wt = cast<RankedTensorType>(w.getType());
  if (wt.getRank() < 3)
    return op->emitOpError("weights must have rank 3 or more");
  SmallVector<int64_t> k(wt.getShape().drop_front(2));
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape")) {
    if ((int64_t)a.size() != wt.getRank() - 2)
      return op->emitOpError(
          "kernel_shape must have one entry per spatial dim");
    for (auto [i, v] : llvm::enumerate(a.asArrayRef())) {
      if (!ShapedType::isDynamic(k[i]) && k[i] != v)
        return op->emitOpError("kernel_shape does not match the weights");
      k[i] = v;
    }
  }
  return k;
}

/// What readWindowAttrs validates of `kernel`: its static sizes (dynamic
/// ones, checked at run time by kernelSizes, stand in as 1).
SmallVector<int64_t> staticKernel(ArrayRef<int64_t> kernel) {
  SmallVector<int64_t> k(kernel);
  for (int64_t &v : k)
    if (ShapedType::isDynamic(v))
      v = 1;
  return k;
}

/// The kernel sizes: the static ones as constants, the others read from the
/// (converted) weights `w` and checked positive at run time. A size that
/// kernel_shape fixes while `w`'s type leaves it dynamic is checked against
/// `w` at run time.
SmallVector<OpFoldResult> kernelSizes(OpBuilder &b, Location loc, Operation *op,
                                      Value w, ArrayRef<int64_t> kernel) {
  auto wt = cast<RankedTensorType>(w.getType());
  SmallVector<OpFoldResult> sizes;
  for (auto [i, k] : llvm::enumerate(kernel)) {
    if (!ShapedType::isDynamic(k)) {
      if (wt.isDynamicDim(2 + i))
        checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq,
                       getDimOFR(b, loc, w, 2 + i), b.getIndexAttr(k),
                       "kernel_shape does not match the weights");
      sizes.push_back(b.getIndexAttr(k));
      continue;
    }
    OpFoldResult d = getDimOFR(b, loc, w, 2 + i);
    checkAtRunTime(b, loc, op, arith::CmpIPredicate::sgt, d, b.getIndexAttr(0),
                   "kernel sizes must be positive");
    sizes.push_back(d);
  }
  return sizes;
}

/// Checks at run time what the types leave open of the result sizes
/// (N, M, out...): every output spatial size is positive, and equals the
/// result type's dim where that is static.
void checkResultSizes(OpBuilder &b, Location loc, Operation *op,
                      RankedTensorType type, ArrayRef<OpFoldResult> sizes,
                      StringRef emptyMessage) {
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (getConstantIntValue(size))
      continue;
    if (i >= 2)
      checkAtRunTime(b, loc, op, arith::CmpIPredicate::sgt, size,
                     b.getIndexAttr(0), emptyMessage);
    if (!type.isDynamicDim(i))
      checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq, size,
                     b.getIndexAttr(type.getDimSize(i)),
                     "the result dims do not match the inferred type");
  }
}

/// Checks `group` against the channel dims (when static).
LogicalResult checkGroups(Operation *op, int64_t group, int64_t channels,
                          int64_t perGroupChannels) {
  if (group <= 0)
    return op->emitOpError("group must be positive");
  if (!ShapedType::isDynamic(channels) &&
      !ShapedType::isDynamic(perGroupChannels) &&
      channels != group * perGroupChannels)
    return op->emitOpError("input channels ")
           << channels << " do not match group " << group << " x "
           << perGroupChannels << " weight channels";
  return success();
}

/// Applies `fn(v, extra)` elementwise to `v`, with `extra` (a scalar, or 1-D
/// along dim `dim` of `v`) broadcast; the result has element type `to`.
Value mapWith(OpBuilder &b, Location loc, Value v, Value extra, int64_t dim,
              Type to,
              function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  MLIRContext *ctx = b.getContext();
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = t.getRank();
  auto outType = RankedTensorType::get(t.getShape(), to);
  Value init = createEmptyLike(b, loc, outType, v);
  SmallVector<Value> ins = {v};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  if (extra) {
    auto et = cast<RankedTensorType>(extra.getType());
    SmallVector<AffineExpr> e;
    if (et.getRank() == 1)
      e.push_back(et.getDimSize(0) == 1 || dim < 0
                      ? getAffineConstantExpr(0, ctx)
                      : getAffineDimExpr(dim, ctx));
    ins.push_back(extra);
    maps.push_back(AffineMap::get(rank, 0, e, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ins, ValueRange{init}, maps,
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, fn(nb, l, args[0], extra ? args[1] : Value()));
             })
      .getResult(0);
}

/// Checks that a zero point / scale is a scalar or a 1-D tensor, 1-D only
/// when `perChannel` (a 1-D tensor of dynamic length is checked to hold one
/// entry at run time by checkSingleEntry).
LogicalResult checkQuantParam(Operation *op, Value orig, StringRef name,
                              bool perChannel) {
  if (isa<NoneType>(orig.getType()))
    return success();
  auto t = cast<RankedTensorType>(orig.getType());
  if (t.getRank() == 0 || (t.getRank() == 1 && t.getDimSize(0) == 1))
    return success();
  if (t.getRank() == 1 && (perChannel || t.isDynamicDim(0)))
    return success();
  return op->emitOpError(name)
         << " must be a scalar" << (perChannel ? " or a 1-D tensor" : "");
}

/// Checks at run time that a scalar quantization parameter given as a 1-D
/// tensor of dynamic length has one entry.
void checkSingleEntry(OpBuilder &b, Location loc, Operation *op, Value v,
                      StringRef name) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getRank() != 1 || !t.isDynamicDim(0))
    return;
  checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq, getDimOFR(b, loc, v, 0),
                 b.getIndexAttr(1), name + " must be a scalar");
}

/// A per-output-channel operand `v` (a scalar, or 1-D with 1 or `channels`
/// entries) ready to be indexed by the channel: an error when its static
/// length cannot match, a run-time check when only the run time knows, and
/// broadcast to `channels` entries when its length is dynamic.
FailureOr<Value> perChannel(OpBuilder &b, Location loc, Operation *op, Value v,
                            OpFoldResult channels, StringRef name) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() != 1)
    return v;
  if (t.isDynamicDim(0))
    return expandPerChannel(b, loc, op, v, channels, name);
  int64_t len = t.getDimSize(0);
  if (len == 1)
    return v;
  if (auto m = getConstantIntValue(channels)) {
    if (*m != len)
      return op->emitOpError(name)
             << " has " << len << " entries for " << *m << " output channels";
    return v;
  }
  checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq, channels,
                 b.getIndexAttr(len),
                 name + " must have 1 entry or one per output channel");
  return v;
}

/// `v` - `zp` in i32 (zp optional), from onnx element types.
Value subZeroPoint(OpBuilder &b, Location loc, Value v, Type onnxV, Value zp,
                   Type onnxZp, int64_t dim) {
  Type i32 = b.getI32Type();
  return mapWith(b, loc, v, zp, dim, i32,
                 [&](OpBuilder &nb, Location l, Value x, Value z) -> Value {
                   Value r = convertScalar(nb, l, x, onnxV, i32);
                   if (z)
                     r = arith::SubIOp::create(
                         nb, l, r, convertScalar(nb, l, z, onnxZp, i32));
                   return r;
                 });
}

/// The result sizes (N, M, out...) of a convolution.
SmallVector<OpFoldResult> convSizes(OpBuilder &b, Location loc, Value x,
                                    OpFoldResult m,
                                    ArrayRef<OpFoldResult> out) {
  SmallVector<OpFoldResult> s = {getDimOFR(b, loc, x, 0), m};
  s.append(out.begin(), out.end());
  return s;
}

/// Shared by Conv, ConvInteger and QLinearConv: validates the attributes,
/// pads `x` (already zero-point corrected) and convolves into a bias init.
FailureOr<Value> lowerForwardConv(OpBuilder &b, Operation *op, Value x, Value w,
                                  Value bias, Value origW,
                                  RankedTensorType accType) {
  Location loc = op->getLoc();
  auto kernel = kernelShape(op, origW);
  if (failed(kernel))
    return failure();
  auto attrs = readWindowAttrs(op, staticKernel(*kernel));
  if (failed(attrs))
    return failure();
  int64_t group = op->getAttrOfType<IntegerAttr>("group").getInt();
  auto xt = cast<RankedTensorType>(x.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  if (xt.getRank() != wt.getRank())
    return op->emitOpError("input and weights must have the same rank");
  if (failed(checkGroups(op, group, xt.getDimSize(1), wt.getDimSize(1))))
    return failure();
  if (!wt.isDynamicDim(0) && wt.getDimSize(0) % group != 0)
    return op->emitOpError("output channels must be a multiple of group");
  // What the types leave to the run time: channels, group, kernel sizes.
  IndexMath m{b, loc};
  if (xt.isDynamicDim(1) || wt.isDynamicDim(1)) {
    OpFoldResult c = getDimOFR(b, loc, x, 1);
    OpFoldResult gc = m.mul(getDimOFR(b, loc, w, 1), m.cst(group));
    checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq, c, gc,
                   "the input channels do not match group x the weights' "
                   "channels");
  }
  if (wt.isDynamicDim(0) && group != 1)
    checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq,
                   OpFoldResult(arith::RemSIOp::create(
                       b, loc, getDimValue(b, loc, w, 0),
                       createIndexConstant(b, loc, group))),
                   m.cst(0), "output channels must be a multiple of group");
  SmallVector<OpFoldResult> ks = kernelSizes(b, loc, op, w, *kernel);
  WindowGeometry geo = computeWindow(b, loc, x, *attrs, ks);
  if (failed(checkSpatialSizes(op, accType, geo.out)))
    return failure();
  SmallVector<OpFoldResult> sizes =
      convSizes(b, loc, x, getDimOFR(b, loc, w, 0), geo.out);
  checkResultSizes(b, loc, op, accType, sizes,
                   "the window does not fit the input");
  if (bias) {
    FailureOr<Value> bp = perChannel(b, loc, op, bias, sizes[1], "B");
    if (failed(bp))
      return failure();
    bias = *bp;
  }
  Value zero = createScalarConstant(b, loc, xt.getElementType(), 0);
  Value xp = padSpatial(b, loc, x, geo.padBegin, geo.padEnd, zero);
  Value init = biasInit(b, loc, accType, sizes, bias);
  return groupedConv(b, loc, xp, w, init, group, attrs->strides,
                     attrs->dilations, WeightLayout::OutIn);
}

/// Conv: Y[n, m] = B[m] + sum_{c, k} X[n, g*C/G + c, o*s + k*d - pad] *
/// W[m, c, k] for m in group g; 1-D, 2-D and 3-D, auto_pad, groups.
struct ConvLowering : OpConversionPattern<ONNX::ConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value bias = isa<NoneType>(op.getB().getType()) ? Value() : adaptor.getB();
    FailureOr<Value> y = lowerForwardConv(
        rewriter, op, adaptor.getX(), adaptor.getW(), bias, op.getW(), type);
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

/// ConvInteger: Conv over (x - x_zero_point) and (w - w_zero_point) in i32;
/// w_zero_point is a scalar or per output channel.
struct ConvIntegerLowering : OpConversionPattern<ONNX::ConvIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConvIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    if (failed(
            checkQuantParam(op, op.getXZeroPoint(), "x_zero_point", false)) ||
        failed(checkQuantParam(op, op.getWZeroPoint(), "w_zero_point", true)))
      return failure();
    auto opt = [](Value orig, Value conv) {
      return isa<NoneType>(orig.getType()) ? Value() : conv;
    };
    auto elt = [](Value orig) {
      return isa<NoneType>(orig.getType()) ? Type() : getElementType(orig);
    };
    Value xZp = opt(op.getXZeroPoint(), adaptor.getXZeroPoint());
    Value wZp = opt(op.getWZeroPoint(), adaptor.getWZeroPoint());
    if (xZp)
      checkSingleEntry(rewriter, loc, op, xZp, "x_zero_point");
    if (wZp) {
      FailureOr<Value> z = perChannel(
          rewriter, loc, op, wZp, getDimOFR(rewriter, loc, adaptor.getW(), 0),
          "w_zero_point");
      if (failed(z))
        return failure();
      wZp = *z;
    }
    Value x = subZeroPoint(rewriter, loc, adaptor.getX(), elt(op.getX()), xZp,
                           elt(op.getXZeroPoint()), -1);
    Value w = subZeroPoint(rewriter, loc, adaptor.getW(), elt(op.getW()), wZp,
                           elt(op.getWZeroPoint()), 0);
    FailureOr<Value> y =
        lowerForwardConv(rewriter, op, x, w, Value(), op.getW(), type);
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

/// QLinearConv: y = saturate(round_half_even((B + sum (x - x_zp)(w - w_zp))
/// * x_scale * w_scale / y_scale) + y_zp); w_scale and w_zero_point are
/// scalars or per output channel.
struct QLinearConvLowering : OpConversionPattern<ONNX::QLinearConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::QLinearConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    if (failed(
            checkQuantParam(op, op.getXZeroPoint(), "x_zero_point", false)) ||
        failed(checkQuantParam(op, op.getXScale(), "x_scale", false)) ||
        failed(
            checkQuantParam(op, op.getYZeroPoint(), "y_zero_point", false)) ||
        failed(checkQuantParam(op, op.getYScale(), "y_scale", false)) ||
        failed(checkQuantParam(op, op.getWZeroPoint(), "w_zero_point", true)) ||
        failed(checkQuantParam(op, op.getWScale(), "w_scale", true)))
      return failure();
    checkSingleEntry(rewriter, loc, op, adaptor.getXZeroPoint(),
                     "x_zero_point");
    checkSingleEntry(rewriter, loc, op, adaptor.getXScale(), "x_scale");
    checkSingleEntry(rewriter, loc, op, adaptor.getYZeroPoint(),
                     "y_zero_point");
    checkSingleEntry(rewriter, loc, op, adaptor.getYScale(), "y_scale");
    OpFoldResult channels = getDimOFR(rewriter, loc, adaptor.getW(), 0);
    FailureOr<Value> wZp = perChannel(
        rewriter, loc, op, adaptor.getWZeroPoint(), channels, "w_zero_point");
    if (failed(wZp))
      return failure();
    FailureOr<Value> wScale =
        perChannel(rewriter, loc, op, adaptor.getWScale(), channels, "w_scale");
    if (failed(wScale))
      return failure();
    Value x = subZeroPoint(rewriter, loc, adaptor.getX(),
                           getElementType(op.getX()), adaptor.getXZeroPoint(),
                           getElementType(op.getXZeroPoint()), -1);
    Value w =
        subZeroPoint(rewriter, loc, adaptor.getW(), getElementType(op.getW()),
                     *wZp, getElementType(op.getWZeroPoint()), 0);
    Value bias = isa<NoneType>(op.getB().getType()) ? Value() : adaptor.getB();
    auto accType =
        RankedTensorType::get(type.getShape(), rewriter.getI32Type());
    FailureOr<Value> acc =
        lowerForwardConv(rewriter, op, x, w, bias, op.getW(), accType);
    if (failed(acc))
      return failure();
    // Requantize: one generic over (N, M, out...) with the scales and the
    // output zero point broadcast.
    MLIRContext *ctx = op.getContext();
    int64_t rank = accType.getRank();
    auto scalarMap = [&](Value v, bool perChannel) {
      auto t = cast<RankedTensorType>(v.getType());
      SmallVector<AffineExpr> e;
      if (t.getRank() == 1)
        e.push_back(perChannel && t.getDimSize(0) != 1
                        ? getAffineDimExpr(1, ctx)
                        : getAffineConstantExpr(0, ctx));
      return AffineMap::get(rank, 0, e, ctx);
    };
    SmallVector<Value> ins = {*acc, adaptor.getXScale(), *wScale,
                              adaptor.getYScale(), adaptor.getYZeroPoint()};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   scalarMap(adaptor.getXScale(), false),
                                   scalarMap(*wScale, true),
                                   scalarMap(adaptor.getYScale(), false),
                                   scalarMap(adaptor.getYZeroPoint(), false),
                                   rewriter.getMultiDimIdentityMap(rank)};
    Value init = createEmptyLike(rewriter, loc, type, *acc);
    Type onnxY = getElementType(op.getY());
    Type onnxZp = getElementType(op.getYZeroPoint());
    bool isUnsigned = isUnsignedInt(onnxY);
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
    double hi = isUnsigned ? std::ldexp(1.0, width) - 1
                           : std::ldexp(1.0, width - 1) - 1;
    Value y =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ins, ValueRange{init}, maps,
            parallelIterators(rank),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Type f32 = b.getF32Type();
              Value a = arith::SIToFPOp::create(b, l, f32, args[0]);
              Value scale = arith::MulFOp::create(b, l, args[1], args[2]);
              scale = arith::DivFOp::create(b, l, scale, args[3]);
              Value v = arith::MulFOp::create(b, l, a, scale);
              v = math::RoundEvenOp::create(b, l, v);
              Value zp = convertScalar(b, l, args[4], onnxZp, f32);
              v = arith::AddFOp::create(b, l, v, zp);
              v = arith::MaximumFOp::create(
                  b, l, v, createScalarConstant(b, l, f32, lo));
              v = arith::MinimumFOp::create(
                  b, l, v, createScalarConstant(b, l, f32, hi));
              linalg::YieldOp::create(b, l, convertScalar(b, l, v, f32, onnxY));
            })
            .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// ConvTranspose: Y[n, m, i*s + k*d - pad_begin] += X[n, c, i] * W[c, m, k]
/// (+ B[m]), out = s*(in-1) + output_padding + (k-1)*d + 1 - pads; with
/// output_shape (or SAME_*: out = in*s) the total padding max(0, full - out)
/// is split with the odd unit at the end (the begin for SAME_LOWER).
struct ConvTransposeLowering : OpConversionPattern<ONNX::ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value x = adaptor.getX(), w = adaptor.getW();
    auto xt = cast<RankedTensorType>(x.getType());
    auto wt = cast<RankedTensorType>(w.getType());
    auto kernel = kernelShape(op, op.getW());
    if (failed(kernel))
      return failure();
    auto attrs = readWindowAttrs(op, staticKernel(*kernel));
    if (failed(attrs))
      return failure();
    int64_t r = kernel->size();
    int64_t group = op.getGroup();
    if (xt.getRank() != wt.getRank())
      return op.emitOpError("input and weights must have the same rank");
    if (group <= 0 || (!xt.isDynamicDim(1) && !wt.isDynamicDim(0) &&
                       (xt.getDimSize(1) != wt.getDimSize(0) ||
                        wt.getDimSize(0) % group != 0)))
      return op.emitOpError("input channels must equal the weights' first "
                            "dim, a multiple of group");
    SmallVector<int64_t> outPad =
        getI64Array(op, "output_padding", SmallVector<int64_t>(r, 0));
    SmallVector<int64_t> outShape = getI64Array(op, "output_shape", {});
    if ((int64_t)outPad.size() != r)
      return op.emitOpError("output_padding must have one entry per spatial "
                            "dim");
    if (!outShape.empty()) {
      if ((int64_t)outShape.size() == r + 2)
        outShape.erase(outShape.begin(), outShape.begin() + 2);
      if ((int64_t)outShape.size() != r)
        return op.emitOpError("output_shape must have one entry per spatial "
                              "dim");
    }
    // What the types leave to the run time: channels, group, kernel sizes.
    IndexMath m{b, loc};
    if (xt.isDynamicDim(1) || wt.isDynamicDim(0)) {
      OpFoldResult c = getDimOFR(b, loc, x, 1);
      OpFoldResult wc = getDimOFR(b, loc, w, 0);
      checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq, c, wc,
                     "input channels must equal the weights' first dim");
    }
    if (wt.isDynamicDim(0) && group != 1)
      checkAtRunTime(b, loc, op, arith::CmpIPredicate::eq,
                     OpFoldResult(arith::RemSIOp::create(
                         b, loc, getDimValue(b, loc, w, 0),
                         createIndexConstant(b, loc, group))),
                     m.cst(0),
                     "the weights' first dim must be a multiple of group");
    SmallVector<OpFoldResult> ks = kernelSizes(b, loc, op, w, *kernel);
    // Per spatial dim: pads and output size (folded for static inputs).
    SmallVector<OpFoldResult> l, h, outOFR;
    for (int64_t i = 0; i < r; ++i) {
      OpFoldResult in = getDimOFR(b, loc, x, 2 + i);
      int64_t s = attrs->strides[i];
      // extent - 1 = (k-1)*d: a constant for a static kernel.
      OpFoldResult extentM1 =
          m.mul(m.sub(ks[i], m.cst(1)), m.cst(attrs->dilations[i]));
      OpFoldResult span = m.add(m.mul(m.sub(in, m.cst(1)), m.cst(s)), m.cst(1));
      OpFoldResult full = m.add(span, m.add(m.cst(outPad[i]), extentM1));
      OpFoldResult pb, out;
      bool same =
          attrs->autoPad == "SAME_UPPER" || attrs->autoPad == "SAME_LOWER";
      if (!outShape.empty() || same) {
        out = outShape.empty() ? m.mul(in, m.cst(s)) : m.cst(outShape[i]);
        OpFoldResult total = m.max(m.cst(0), m.sub(full, out));
        OpFoldResult half = m.floorDiv(total, m.cst(2));
        pb = attrs->autoPad == "SAME_LOWER" ? m.sub(total, half) : half;
      } else if (attrs->autoPad == "VALID") {
        pb = m.cst(0);
        out = full;
      } else {
        pb = m.cst(attrs->pads[i]);
        out = m.sub(full, m.cst(attrs->pads[i] + attrs->pads[i + r]));
      }
      if (auto c = getConstantIntValue(out); c && *c <= 0)
        return op.emitOpError("output spatial dim ") << i << " is empty";
      outOFR.push_back(out);
      // Convolving the dilated input padded by lo/hi with stride 1 gives
      // lo + span + hi - (extent - 1) = out elements.
      OpFoldResult lo = m.sub(extentM1, pb);
      l.push_back(lo);
      h.push_back(m.sub(m.add(out, extentM1), m.add(lo, span)));
    }
    if (failed(checkSpatialSizes(op, type, outOFR)))
      return failure();
    OpFoldResult channels =
        m.mul(getDimOFR(b, loc, w, 1), b.getIndexAttr(group));
    SmallVector<OpFoldResult> sizes = convSizes(b, loc, x, channels, outOFR);
    checkResultSizes(b, loc, op, type, sizes, "an output spatial dim is empty");
    Value bias = isa<NoneType>(op.getB().getType()) ? Value() : adaptor.getB();
    if (bias) {
      FailureOr<Value> bp = perChannel(b, loc, op, bias, channels, "B");
      if (failed(bp))
        return failure();
      bias = *bp;
    }

    // The input dilated by the strides and padded (negative pads crop).
    Value zero = createScalarConstant(b, loc, xt.getElementType(), 0);
    Value xp = padSpatial(b, loc, x, l, h, zero, attrs->strides);
    Value init = biasInit(b, loc, type, sizes, bias);
    Value wc = swapGroupChannels(b, loc, flipKernel(b, loc, w, ks), group);
    Value y = groupedConv(b, loc, xp, wc, init, group,
                          SmallVector<int64_t>(r, 1), attrs->dilations,
                          WeightLayout::OutIn);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateConvPatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<ConvLowering, ConvIntegerLowering, QLinearConvLowering,
               ConvTransposeLowering>(tc, patterns.getContext());
}

//===- Window.cpp - Sliding-window geometry for Conv and Pool -------------===//
//
// Output sizes and paddings of the ONNX window ops:
//   NOTSET: out = floor((in + pb + pe - ((k-1)*d+1)) / s) + 1 (ceil with
//           ceil_mode, dropping a last window that starts in the end pad);
//   VALID:  the same with zero pads;
//   SAME_UPPER/SAME_LOWER: out = ceil(in / s), total = max(0, (out-1)*s +
//           (k-1)*d + 1 - in), the odd unit at the end (UPPER) or the
//           beginning (LOWER).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Window.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace mlir::onnxc::linalg_conv {

Value IndexMath::value(OpFoldResult x) {
  return getValueOrCreateConstantIndexOp(b, loc, x);
}

/// Folds `f` on constants, else builds `Op` on values.
template <typename Op, typename F>
static OpFoldResult binary(IndexMath &m, OpFoldResult x, OpFoldResult y, F f) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return m.b.getIndexAttr(f(*cx, *cy));
  return Op::create(m.b, m.loc, m.value(x), m.value(y)).getResult();
}

static int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

OpFoldResult IndexMath::add(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(y, 0))
    return x;
  return binary<arith::AddIOp>(*this, x, y,
                               [](int64_t a, int64_t c) { return a + c; });
}
OpFoldResult IndexMath::sub(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(y, 0))
    return x;
  return binary<arith::SubIOp>(*this, x, y,
                               [](int64_t a, int64_t c) { return a - c; });
}
OpFoldResult IndexMath::mul(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(y, 1))
    return x;
  return binary<arith::MulIOp>(*this, x, y,
                               [](int64_t a, int64_t c) { return a * c; });
}
OpFoldResult IndexMath::floorDiv(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(y, 1))
    return x;
  return binary<arith::FloorDivSIOp>(*this, x, y, floorDivInt);
}
OpFoldResult IndexMath::ceilDiv(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(y, 1))
    return x;
  return binary<arith::CeilDivSIOp>(
      *this, x, y, [](int64_t a, int64_t c) { return -floorDivInt(-a, c); });
}
OpFoldResult IndexMath::max(OpFoldResult x, OpFoldResult y) {
  return binary<arith::MaxSIOp>(
      *this, x, y, [](int64_t a, int64_t c) { return std::max(a, c); });
}

SmallVector<int64_t> getI64Array(Operation *op, StringRef name,
                                 ArrayRef<int64_t> dflt) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(a.asArrayRef());
  return SmallVector<int64_t>(dflt);
}

FailureOr<WindowAttrs> readWindowAttrs(Operation *op,
                                       ArrayRef<int64_t> kernel) {
  WindowAttrs w;
  int64_t n = kernel.size();
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = getI64Array(op, "strides", SmallVector<int64_t>(n, 1));
  w.dilations = getI64Array(op, "dilations", SmallVector<int64_t>(n, 1));
  w.pads = getI64Array(op, "pads", SmallVector<int64_t>(2 * n, 0));
  if (auto a = op->getAttrOfType<StringAttr>("auto_pad"))
    w.autoPad = a.getValue();
  if (auto a = op->getAttrOfType<IntegerAttr>("ceil_mode"))
    w.ceilMode = a.getInt() != 0;
  if ((int64_t)w.strides.size() != n || (int64_t)w.dilations.size() != n ||
      (int64_t)w.pads.size() != 2 * n)
    return op->emitOpError("strides, dilations and pads must have one entry "
                           "per spatial dim (pads two)");
  if (w.autoPad != "NOTSET" && w.autoPad != "SAME_UPPER" &&
      w.autoPad != "SAME_LOWER" && w.autoPad != "VALID")
    return op->emitOpError("unsupported auto_pad '") << w.autoPad << "'";
  for (int64_t i = 0; i < n; ++i) {
    if (w.kernel[i] <= 0 || w.strides[i] <= 0 || w.dilations[i] <= 0)
      return op->emitOpError(
          "kernel sizes, strides and dilations must be positive");
    if (w.pads[i] < 0 || w.pads[i + n] < 0)
      return op->emitOpError("pads must be non-negative");
    // Sizes are index arithmetic on int64: no window attribute may take
    // them near the wrap (a window of 2^62 already needs more memory than
    // any tensor has; 2^40 is still a run-time error, a buffer too large).
    constexpr int64_t kMax = int64_t(1) << 62;
    int64_t span;
    if (w.kernel[i] > kMax || w.strides[i] > kMax || w.dilations[i] > kMax ||
        w.pads[i] > kMax || w.pads[i + n] > kMax ||
        llvm::MulOverflow(w.kernel[i] - 1, w.dilations[i], span) ||
        span >= kMax)
      return op->emitOpError("kernel sizes, strides, dilations, pads and "
                             "the window's extent must be at most 2^62");
  }
  return w;
}

WindowGeometry computeWindow(OpBuilder &b, Location loc, Value x,
                             const WindowAttrs &w,
                             ArrayRef<OpFoldResult> kernelSizes) {
  IndexMath m{b, loc};
  WindowGeometry g;
  int64_t n = w.numSpatial();
  for (int64_t i = 0; i < n; ++i) {
    OpFoldResult in = getDimOFR(b, loc, x, i + 2);
    int64_t s = w.strides[i];
    // (k-1)*d + 1; folds to a constant for a static kernel (bounded by
    // readWindowAttrs), checked at run time for one read from the weights.
    OpFoldResult k = kernelSizes.empty() ? m.cst(w.kernel[i]) : kernelSizes[i];
    OpFoldResult extent =
        m.add(m.mul(m.sub(k, m.cst(1)), m.cst(w.dilations[i])), m.cst(1));
    if (!getConstantIntValue(k))
      extent = m.add(
          OpFoldResult(checkedMul(
              b, loc, m.value(m.sub(k, m.cst(1))),
              createIndexConstant(b, loc, w.dilations[i]),
              "the kernel size minus 1 ({}) times the dilation ({}) is "
              "negative or past 2^63 - 1")),
          m.cst(1));
    OpFoldResult pb, pe, out;
    if (w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER") {
      out = m.ceilDiv(in, m.cst(s));
      OpFoldResult total = m.max(
          m.cst(0),
          m.sub(m.add(m.mul(m.sub(out, m.cst(1)), m.cst(s)), extent), in));
      OpFoldResult half = m.floorDiv(total, m.cst(2));
      OpFoldResult rest = m.sub(total, half);
      pb = w.autoPad == "SAME_UPPER" ? half : rest;
      pe = w.autoPad == "SAME_UPPER" ? rest : half;
    } else {
      bool valid = w.autoPad == "VALID";
      pb = m.cst(valid ? 0 : w.pads[i]);
      pe = m.cst(valid ? 0 : w.pads[i + n]);
      OpFoldResult span = m.sub(m.add(m.add(in, pb), pe), extent);
      if (w.ceilMode) {
        out = m.add(m.ceilDiv(span, m.cst(s)), m.cst(1));
        // The last window must start inside the input or the begin pad.
        OpFoldResult lastStart = m.mul(m.sub(out, m.cst(1)), m.cst(s));
        OpFoldResult limit = m.add(in, pb);
        auto cs = getConstantIntValue(lastStart),
             cl = getConstantIntValue(limit);
        if (cs && cl) {
          if (*cs >= *cl)
            out = m.sub(out, m.cst(1));
        } else {
          Value tooFar =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                    m.value(lastStart), m.value(limit));
          Value one = arith::IndexCastOp::create(
              b, loc, b.getIndexType(),
              arith::ExtUIOp::create(b, loc, b.getI64Type(), tooFar));
          out = m.sub(out, OpFoldResult(one));
        }
      } else {
        out = m.add(m.floorDiv(span, m.cst(s)), m.cst(1));
      }
    }
    // Enough end padding for the last window.
    OpFoldResult needed = m.sub(
        m.add(m.mul(m.sub(out, m.cst(1)), m.cst(s)), extent), m.add(in, pb));
    g.padBegin.push_back(pb);
    g.explicitPadEnd.push_back(pe);
    g.padEnd.push_back(m.max(pe, needed));
    g.out.push_back(out);
  }
  return g;
}

LogicalResult checkSpatialSizes(Operation *op, RankedTensorType resultType,
                                ArrayRef<OpFoldResult> out) {
  for (auto [i, o] : llvm::enumerate(out)) {
    auto c = getConstantIntValue(o);
    int64_t d = resultType.getDimSize(i + 2);
    if (c && *c <= 0)
      return op->emitOpError("the window does not fit the input (output size ")
             << *c << " in spatial dim " << i << ")";
    if (c && !ShapedType::isDynamic(d) && *c != d)
      return op->emitOpError("result spatial dim ")
             << i << " is " << d << " but the window gives " << *c;
  }
  return success();
}

Value padSpatial(OpBuilder &b, Location loc, Value x,
                 ArrayRef<OpFoldResult> low, ArrayRef<OpFoldResult> high,
                 Value padValue, ArrayRef<int64_t> dilation) {
  int64_t r = low.size();
  auto dil = [&](int64_t i) { return dilation.empty() ? 1 : dilation[i]; };
  SmallVector<bool> touched(r);
  bool any = false;
  for (int64_t i = 0; i < r; ++i) {
    touched[i] = !isConstantIntValue(low[i], 0) ||
                 !isConstantIntValue(high[i], 0) || dil(i) != 1;
    any |= touched[i];
  }
  if (!any)
    return x;
  // A gather over the result (no tensor.pad: its copy into a strided view
  // needs a runtime helper): out[i] = x[(i - low) / s] where that is an
  // element of x, else padValue.
  IndexMath m{b, loc};
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape().take_front(2));
  SmallVector<OpFoldResult> sizes = {getDimOFR(b, loc, x, 0),
                                     getDimOFR(b, loc, x, 1)};
  SmallVector<OpFoldResult> spans;
  for (int64_t i = 0; i < r; ++i) {
    OpFoldResult in = getDimOFR(b, loc, x, 2 + i);
    OpFoldResult span =
        m.add(m.mul(m.sub(in, m.cst(1)), m.cst(dil(i))), m.cst(1));
    spans.push_back(span);
    OpFoldResult size = m.add(m.add(low[i], span), high[i]);
    sizes.push_back(size);
    auto c = getConstantIntValue(size);
    shape.push_back(c ? *c : ShapedType::kDynamic);
  }
  auto type = RankedTensorType::get(shape, t.getElementType());
  SmallVector<Value> sizeValues;
  for (OpFoldResult o : sizes)
    sizeValues.push_back(m.value(o));
  Value init = createEmpty(b, loc, type, sizeValues);
  SmallVector<Value> lowV, spanV;
  for (int64_t i = 0; i < r; ++i) {
    lowV.push_back(m.value(low[i]));
    spanV.push_back(m.value(spans[i]));
  }
  int64_t rank = type.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value zero = arith::ConstantIndexOp::create(nb, l, 0);
               Value valid =
                   arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
               SmallVector<Value> idx = {linalg::IndexOp::create(nb, l, 0),
                                         linalg::IndexOp::create(nb, l, 1)};
               for (int64_t i = 0; i < r; ++i) {
                 Value iv = linalg::IndexOp::create(nb, l, 2 + i);
                 if (!touched[i]) {
                   idx.push_back(iv);
                   continue;
                 }
                 Value j = arith::SubIOp::create(nb, l, iv, lowV[i]);
                 Value ok = arith::AndIOp::create(
                     nb, l,
                     arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, j,
                                           zero),
                     arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, j,
                                           spanV[i]));
                 if (dil(i) != 1) {
                   Value s = arith::ConstantIndexOp::create(nb, l, dil(i));
                   Value rem = arith::RemSIOp::create(nb, l, j, s);
                   ok = arith::AndIOp::create(
                       nb, l, ok,
                       arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                             rem, zero));
                   j = arith::DivSIOp::create(nb, l, j, s);
                 }
                 valid = arith::AndIOp::create(nb, l, valid, ok);
                 idx.push_back(arith::SelectOp::create(nb, l, ok, j, zero));
               }
               Value v = tensor::ExtractOp::create(nb, l, x, idx);
               Value r = arith::SelectOp::create(nb, l, valid, v, padValue);
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

} // namespace mlir::onnxc::linalg_conv

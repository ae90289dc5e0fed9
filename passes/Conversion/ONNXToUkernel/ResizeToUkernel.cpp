//===- ResizeToUkernel.cpp - Resize -> onnxc_rt_resize2d -----------------===//
//
// See ResizeToUkernel.h. The call's parameter block is
// onnxc_resize2d_params (runtime_abi.h; runtime/src/resize.c); the tap
// tables are constants: per resized dim the indices (i64) and, for
// linear and antialias, the weights (f32; the generic computes in f64),
// and for a dim that keeps its size one tap of its own index (read
// directly, as the generic does).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToUkernel/ResizeToUkernel.h"

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ResizeTables.h"
#include "runtime/include/onnxc/runtime_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;
using namespace mlir::onnxc::linalg_conv::resize;

namespace {
constexpr StringLiteral kResize = "onnxc_rt_resize2d";
constexpr int64_t kResizeSlots =
    sizeof(onnxc_resize2d_params) / sizeof(int64_t);
/// The largest output size along H or W that gets tables (at most
/// kMaxTaps taps each).
constexpr int64_t kMaxTableRows = int64_t(1) << 20;

/// The identity table of a dim that keeps its size.
TapTable identityTable(int64_t size) {
  TapTable t;
  t.taps = 1;
  for (int64_t o = 0; o < size; ++o)
    t.index.push_back(o);
  return t;
}
} // namespace

LogicalResult mlir::onnxc::rewriteResizeToUkernel(RuntimeCallBuilder &rc,
                                                 ONNX::ResizeOp op) {
  auto xt = dyn_cast<RankedTensorType>(rc.tc.convertType(op.getX().getType()));
  auto yt = dyn_cast<RankedTensorType>(rc.tc.convertType(op.getY().getType()));
  if (!xt || !yt || xt.getRank() != 4 || yt.getRank() != 4 ||
      !xt.getElementType().isF32() || !yt.getElementType().isF32())
    return failure();
  for (int64_t d = 1; d < 4; ++d)
    if (xt.isDynamicDim(d) || yt.isDynamicDim(d))
      return failure();
  if (xt.getDimSize(1) != yt.getDimSize(1) ||
      (!xt.isDynamicDim(0) && !yt.isDynamicDim(0) &&
       xt.getDimSize(0) != yt.getDimSize(0)))
    return failure();
  ResizeParams p;
  SmallVector<int64_t> axes;
  std::string error;
  if (!readResizeAttributes(op, 4, p, axes, error))
    return failure();
  bool hasScales = !isAbsent(op.getScales()), hasSizes = !isAbsent(op.getSizes());
  if (hasScales == hasSizes || (hasSizes && p.policy != "stretch") ||
      p.coord == Coord::TfCropAndResize)
    return failure();
  // The constant scale of each dim (1 off the axes).
  double scale[4] = {1, 1, 1, 1};
  if (hasScales) {
    auto v = getConstantFloats(op.getScales());
    if (!v || v->size() != axes.size())
      return failure();
    for (auto [k, d] : llvm::enumerate(axes))
      scale[d] = (*v)[k];
  } else {
    auto v = getConstantInts(op.getSizes());
    if (!v || v->size() != axes.size())
      return failure();
    for (auto [k, d] : llvm::enumerate(axes)) {
      if (xt.isDynamicDim(d))
        return failure();
      scale[d] = static_cast<double>((*v)[k]) /
                 static_cast<double>(xt.getDimSize(d));
    }
  }
  // Dims 0 and 1 keep their size with scale 1; 2 and 3 have tables.
  for (int64_t d = 0; d < 2; ++d)
    if (scale[d] != 1.0)
      return failure();
  TapTable tables[2];
  for (int64_t d = 2; d < 4; ++d) {
    int64_t in = xt.getDimSize(d), out = yt.getDimSize(d);
    // Tables past kMaxTableRows output indices (a scale of 1e9) are left to
    // the generic, which reports the sizes; building them would exhaust
    // the compiler's memory first.
    if (in <= 0 || out <= 0 || out > kMaxTableRows || !(scale[d] > 0) ||
        std::isinf(scale[d]))
      return failure();
    // A dim whose size does not change is read directly (the generic's
    // rule; it checks the scale is 1, a tf_half_pixel_for_nn always
    // resizes).
    if (!llvm::is_contained(axes, d) ||
        (in == out && p.coord != Coord::TfHalfPixelForNN)) {
      if (in != out || scale[d] != 1.0)
        return failure();
      tables[d - 2] = identityTable(out);
      continue;
    }
    // Antialias windows grow as 1/scale: past 256x down, the generic.
    if (p.antialias && scale[d] < 1.0 / 256)
      return failure();
    std::optional<TapTable> t = computeTapTable(p, in, out, scale[d]);
    if (!t || t->taps <= 0 ||
        (int64_t)t->index.size() != out * t->taps ||
        (!t->weight.empty() && t->weight.size() != t->index.size()))
      return failure();
    tables[d - 2] = std::move(*t);
  }

  rc.setInsertionPoint(op);
  OpBuilder &b = rc.b;
  Location loc = rc.loc;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  // A constant table as a read-only buffer's address (null for none).
  auto indexTable = [&](const TapTable &t) {
    auto type = RankedTensorType::get({(int64_t)t.index.size()}, b.getI64Type());
    Value c = arith::ConstantOp::create(
        b, loc, type, DenseIntElementsAttr::get(type, ArrayRef<int64_t>(t.index)));
    return rc.pointer(rc.readBuffer(c));
  };
  auto weightTable = [&](const TapTable &t) -> Value {
    if (t.weight.empty())
      return LLVM::ZeroOp::create(b, loc, ptrType);
    std::vector<float> w(t.weight.begin(), t.weight.end());
    auto type = RankedTensorType::get({(int64_t)w.size()}, b.getF32Type());
    Value c = arith::ConstantOp::create(
        b, loc, type, DenseFPElementsAttr::get(type, ArrayRef<float>(w)));
    return rc.pointer(rc.readBuffer(c));
  };
  Value x = rc.builtin(op.getX());
  Value batch = rc.dim(x, 0);
  Value planes = arith::MulIOp::create(b, loc, batch, rc.idx(xt.getDimSize(1)));
  Value params = rc.paramsBlock(op, kResizeSlots);
  int64_t fields[] = {-1,
                      xt.getDimSize(2),
                      xt.getDimSize(3),
                      yt.getDimSize(2),
                      yt.getDimSize(3),
                      tables[0].taps,
                      tables[1].taps};
  static_assert(sizeof(fields) / sizeof(fields[0]) == kResizeSlots,
                "one value per onnxc_resize2d_params field");
  for (auto [i, f] : llvm::enumerate(fields))
    rc.store(params, i, i == 0 ? rc.i64(planes) : rc.i64c(f));
  SmallVector<Value> sizes = {batch};
  for (int64_t i = 1; i < 4; ++i)
    sizes.push_back(rc.idx(yt.getDimSize(i)));
  Value y = rc.alloc(yt, sizes);
  Value hIndex = indexTable(tables[0]), hWeight = weightTable(tables[0]);
  Value wIndex = indexTable(tables[1]), wWeight = weightTable(tables[1]);
  rc.call(kResize, {rc.pointer(params), rc.pointer(rc.readBuffer(op.getX())),
                    rc.pointer(y), hIndex, hWeight, wIndex, wWeight});
  op.getY().replaceAllUsesWith(rc.result(y, op.getY().getType()));
  op->erase();
  return success();
}

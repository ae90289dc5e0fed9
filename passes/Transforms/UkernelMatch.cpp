//===- UkernelMatch.cpp - The matchers of --onnxc-linalg-to-ukernel -------===//
//
// What onnxc-linalg-to-ukernel matches, and the forms that
// onnxc-fuse-elementwise keeps intact for it (UkernelMatch.h); what fuses
// around a match is in UkernelEpilogue.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/UkernelMatch.h"
#include "passes/Transforms/UkernelActivation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::onnxc;

using namespace mlir::onnxc::ukernel;

namespace mlir::onnxc::ukernel {
static bool linearForm(AffineExpr e, int64_t scale,
                       DenseMap<unsigned, int64_t> &coef);
} // namespace mlir::onnxc::ukernel

bool ukernel::hasMulAddBody(linalg::LinalgOp op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 3 || body.getOperations().size() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value prod = add.getLhs() == acc   ? add.getRhs()
               : add.getRhs() == acc ? add.getLhs()
                                     : Value();
  auto mul = prod ? prod.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

std::optional<ukernel::MaxPool2d> ukernel::matchMaxPool2d(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 6 ||
      !(op.hasPureBufferSemantics() || op.hasPureTensorSemantics()))
    return std::nullopt;
  // All f32, or all 8-bit integers (the window operand's type is free).
  Type elem = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!elem.isF32() && !elem.isInteger(8))
    return std::nullopt;
  if (getElementTypeOrSelf(op.getDpsInputs()[0].getType()) != elem)
    return std::nullopt;
  // yield max(x, y): arith.maximumf for f32, NaN-propagating as the kernel
  // is (maxnumf is not); maxui / maxsi for uint8 / int8.
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 3 || body.getOperations().size() != 2)
    return std::nullopt;
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  Operation *max = yield && yield.getNumOperands() == 1
                       ? yield.getOperand(0).getDefiningOp()
                       : nullptr;
  MaxPool2d mp;
  if (max && elem.isF32() && isa<arith::MaximumFOp>(max))
    mp.lowest = PadValue::NegInf;
  else if (max && elem.isInteger(8) && isa<arith::MaxUIOp>(max))
    mp.lowest = PadValue::U8Lowest;
  else if (max && elem.isInteger(8) && isa<arith::MaxSIOp>(max))
    mp.lowest = PadValue::S8Lowest;
  else
    return std::nullopt;
  Value in = body.getArgument(0), acc = body.getArgument(2);
  if (!((max->getOperand(0) == in && max->getOperand(1) == acc) ||
        (max->getOperand(0) == acc && max->getOperand(1) == in)))
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned i = 0; i < 6; ++i)
    if ((iters[i] == utils::IteratorType::reduction) != (i >= 4))
      return std::nullopt;
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[2] != AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx) ||
      maps[1] != AffineMap::get(6, 0, {d(4), d(5)}, ctx) ||
      maps[0].getNumResults() != 4 || maps[0].getResult(0) != d(0) ||
      maps[0].getResult(1) != d(1))
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    DenseMap<unsigned, int64_t> coef;
    if (!linearForm(maps[0].getResult(2 + i), 1, coef) || coef.size() != 2 ||
        coef.lookup(2 + i) < 1 || coef.lookup(4 + i) < 1)
      return std::nullopt;
    mp.stride[i] = coef[2 + i];
    mp.dilation[i] = coef[4 + i];
  }
  return mp;
}

namespace mlir::onnxc::ukernel {

static bool isF32Memref(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  return t && t.getElementType().isF32();
}

std::optional<SmallVector<int64_t>> operandDims(AffineMap map) {
  SmallVector<int64_t> dims;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (llvm::is_contained(dims, (int64_t)d.getPosition()))
        return std::nullopt;
      dims.push_back(d.getPosition());
    } else if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0) {
      dims.push_back(-1);
    } else {
      return std::nullopt;
    }
  }
  return dims;
}

std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 0)
    return std::nullopt;
  for (OpOperand &o : op->getOpOperands())
    if (!isF32Memref(o.get()))
      return std::nullopt;
  if (!ukernel::hasMulAddBody(op))
    return std::nullopt;
  Contraction c;
  for (AffineMap map : op.getIndexingMapsArray()) {
    auto d = operandDims(map);
    if (!d)
      return std::nullopt;
    c.dims.push_back(std::move(*d));
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  auto in = [&](unsigned operand, unsigned loop) {
    return llvm::is_contained(c.dims[operand], (int64_t)loop);
  };
  // C is indexed by parallel loop dims only (every element written once).
  for (int64_t d : c.dims[2])
    if (d < 0 || iters[d] != utils::IteratorType::parallel)
      return std::nullopt;
  std::optional<unsigned> k;
  SmallVector<unsigned> mLike, nLike;
  for (unsigned l = 0, e = op.getNumLoops(); l < e; ++l) {
    bool a = in(0, l), b = in(1, l), out = in(2, l);
    if (iters[l] == utils::IteratorType::reduction) {
      if (k || !a || !b || out)
        return std::nullopt;
      k = l;
      continue;
    }
    if (!out)
      return std::nullopt;
    if (a && !b)
      mLike.push_back(l);
    else if (b && !a)
      nLike.push_back(l);
    else
      c.batch.push_back(l);
  }
  if (!k)
    return std::nullopt;
  c.k = *k;
  // Several dims of A and C only (a 3-D A times a 2-D B): the one C varies
  // fastest along is M, the others are batch dims in which B does not move
  // (the runtime folds such a batch into M when the strides line up). Same
  // for N.
  auto innermostInC = [&](ArrayRef<unsigned> dims) {
    unsigned best = dims.front();
    for (unsigned d : dims)
      if (llvm::find(c.dims[2], (int64_t)d) > llvm::find(c.dims[2], (int64_t)best))
        best = d;
    return best;
  };
  if (!nLike.empty()) {
    c.n = innermostInC(nLike);
    for (unsigned d : nLike)
      if (d != *c.n)
        c.batch.push_back(d);
  }
  // A batch of dot products (no M, no N) would use 1/32 of each kernel
  // step: left to the loops.
  if (mLike.empty() && nLike.empty())
    return std::nullopt;
  if (!mLike.empty()) {
    c.m = innermostInC(mLike);
    // Last, so that the innermost batch dim (the one the call gets) is the
    // one next to M.
    for (unsigned d : mLike)
      if (d != *c.m)
        c.batch.push_back(d);
  }
  return c;
}

/// Coefficients of the loop dims in `e` (a sum of dims times constants);
/// false for anything else or a nonzero constant term.
static bool linearForm(AffineExpr e, int64_t scale, DenseMap<unsigned, int64_t> &coef) {
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    coef[d.getPosition()] += scale;
    return true;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() == 0;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return linearForm(bin.getLHS(), scale, coef) &&
           linearForm(bin.getRHS(), scale, coef);
  if (bin.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return linearForm(bin.getLHS(), scale * c.getValue(), coef);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return linearForm(bin.getRHS(), scale * c.getValue(), coef);
  }
  return false;
}

std::optional<Convolution> matchConvolution(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 0)
    return std::nullopt;
  for (OpOperand &o : op->getOpOperands())
    if (!isF32Memref(o.get()))
      return std::nullopt;
  if (!ukernel::hasMulAddBody(op))
    return std::nullopt;
  return matchConvolutionMaps(op.getIndexingMapsArray(),
                              op.getIteratorTypesArray());
}

bool hasConvolutionMaps(ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iters) {
  return matchConvolutionMaps(maps, iters).has_value();
}

std::optional<Convolution>
matchConvolutionMaps(ArrayRef<AffineMap> maps,
                     ArrayRef<utils::IteratorType> iters) {
  if (maps.size() != 3)
    return std::nullopt;
  unsigned rank = maps[2].getNumResults();
  if (rank != 4 && rank != 5)
    return std::nullopt;
  if (maps[0].getNumResults() != rank || maps[1].getNumResults() != rank)
    return std::nullopt;
  auto y = operandDims(maps[2]), w = operandDims(maps[1]);
  if (!y || !w || llvm::is_contained(*y, -1) || llvm::is_contained(*w, -1))
    return std::nullopt;
  auto isRed = [&](int64_t d) {
    return iters[d] == utils::IteratorType::reduction;
  };
  Convolution cv;
  cv.n = (*y)[0];
  cv.g = (*y)[1];
  cv.m = (*y)[2];
  cv.c = (*w)[2];
  if ((*w)[0] != cv.g || (*w)[1] != cv.m || !isRed(cv.c))
    return std::nullopt;
  ArrayRef<AffineExpr> xe = maps[0].getResults();
  auto isDim = [](AffineExpr e, unsigned d) {
    auto de = dyn_cast<AffineDimExpr>(e);
    return de && de.getPosition() == d;
  };
  if (!isDim(xe[0], cv.n) || !isDim(xe[1], cv.g) || !isDim(xe[2], cv.c))
    return std::nullopt;
  for (unsigned i = 3; i < rank; ++i) {
    unsigned o = (*y)[i], k = (*w)[i];
    if (isRed(o) || !isRed(k))
      return std::nullopt;
    DenseMap<unsigned, int64_t> coef;
    if (!linearForm(xe[i], 1, coef) || coef.size() != 2 || !coef.count(o) ||
        !coef.count(k) || coef[o] < 1 || coef[k] < 1)
      return std::nullopt;
    cv.o.push_back(o);
    cv.k.push_back(k);
    cv.stride.push_back(coef[o]);
    cv.dilation.push_back(coef[k]);
  }
  // Every loop is one of the above (no extra loops).
  if (iters.size() != 4 + 2 * (rank - 3))
    return std::nullopt;
  return cv;
}

SmallVector<Value> aliasesOf(Value root) {
  SmallVector<Value> all = {root};
  for (unsigned i = 0; i < all.size(); ++i)
    for (Operation *user : all[i].getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == all[i])
          all.append(user->result_begin(), user->result_end());
  return all;
}

bool touches(Operation *op, ArrayRef<Value> aliases) {
  if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
    return false;
  bool found = false;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (llvm::is_contained(aliases, v))
        found = true;
  });
  return found;
}

memref::ExtractAlignedPointerAsIndexOp
callPointer(Value v, SmallVectorImpl<Value> *offsets) {
  auto toPtr = v.getDefiningOp<LLVM::IntToPtrOp>();
  Value i = toPtr ? toPtr.getArg() : Value();
  if (auto cast = i ? i.getDefiningOp<arith::IndexCastOp>() : nullptr)
    i = cast.getIn();
  // An address plus an offset (a view's, in bytes).
  while (auto sum = i ? i.getDefiningOp<arith::AddIOp>() : nullptr) {
    if (offsets)
      offsets->push_back(sum.getRhs());
    i = sum.getLhs();
  }
  return i ? i.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>()
           : nullptr;
}

Value viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool isNegInf(Value v) {
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getValue().isInfinity() &&
         attr.getValue().isNegative();
}

bool isPadValue(Value v, PadValue kind) {
  switch (kind) {
  case PadValue::PosZero:
    return matchPattern(v, m_PosZeroFloat());
  case PadValue::NegInf:
    return isNegInf(v);
  case PadValue::U8Lowest:
  case PadValue::S8Lowest: {
    IntegerAttr attr;
    return matchPattern(v, m_Constant(&attr)) &&
           attr.getType().isInteger(8) &&
           attr.getValue() == APInt(8, kind == PadValue::U8Lowest ? 0 : 0x80);
  }
  }
  return false;
}

std::optional<FusedPad> matchFusedPad(Operation *op, Value x, unsigned rank,
                                      unsigned firstSpatial, PadValue pad) {
  FusedPad p;
  p.expand = x.getDefiningOp<memref::ExpandShapeOp>();
  p.buf = p.expand ? p.expand.getSrc() : x;
  if (!p.buf.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  auto bufType = cast<MemRefType>(p.buf.getType());
  // Which dims of buf are spatial: those of the convolution's dims from 3
  // on, each one alone in its reassociation group.
  SmallVector<ReassociationIndices> groups;
  if (p.expand)
    groups = p.expand.getReassociationIndices();
  else
    for (unsigned i = 0; i < rank; ++i)
      groups.push_back({(int64_t)i});
  SmallVector<bool> spatial;
  for (const ReassociationIndices &g : groups) {
    bool any =
        llvm::any_of(g, [&](int64_t d) { return d >= (int64_t)firstSpatial; });
    if (any && g.size() != 1)
      return std::nullopt;
    spatial.push_back(any);
  }
  // The last writer of buf: the copy, and before it the fill.
  SmallVector<Value> aliases = aliasesOf(p.buf);
  Operation *prev = op->getPrevNode();
  while (prev && !touches(prev, aliases))
    prev = prev->getPrevNode();
  if (!prev)
    return std::nullopt;
  Value from, to;
  if (auto copy = dyn_cast<linalg::CopyOp>(prev)) {
    if (!copy.hasPureBufferSemantics())
      return std::nullopt;
    from = copy.getInputs()[0];
    to = copy.getOutputs()[0];
  } else if (auto copy = dyn_cast<memref::CopyOp>(prev)) {
    from = copy.getSource();
    to = copy.getTarget();
  } else {
    return std::nullopt;
  }
  p.copy = prev;
  p.to = to.getDefiningOp<memref::SubViewOp>();
  if (!p.to || p.to.getSource() != p.buf || from == to)
    return std::nullopt;
  prev = prev->getPrevNode();
  while (prev && !touches(prev, aliases))
    prev = prev->getPrevNode();
  p.fill = dyn_cast_or_null<linalg::FillOp>(prev);
  if (!p.fill || !p.fill.hasPureBufferSemantics() ||
      p.fill.getDpsInits()[0] != p.buf ||
      !isPadValue(p.fill.getInputs()[0], pad))
    return std::nullopt;
  // The window: unit strides; whole along n and the channels.
  for (auto [r, off, sz, st] :
       llvm::enumerate(p.to.getMixedOffsets(), p.to.getMixedSizes(),
                       p.to.getMixedStrides())) {
    if (getConstantIntValue(st) != 1)
      return std::nullopt;
    if (spatial[r]) {
      p.low.push_back(off);
      p.size.push_back(sz);
      continue;
    }
    std::optional<int64_t> size = getConstantIntValue(sz);
    if (getConstantIntValue(off) != 0 || !size ||
        bufType.isDynamicDim(r) || *size != bufType.getDimSize(r))
      return std::nullopt;
  }
  if (p.low.empty() || p.low.size() > 2)
    return std::nullopt;
  // From the copy to the convolution, the source stays as it was.
  p.src = from;
  Value srcRoot = viewRoot(from);
  SmallVector<Value> srcAliases = aliasesOf(srcRoot);
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  Value yRoot = dps && dps.getNumDpsInits() == 1
                    ? viewRoot(dps.getDpsInits()[0])
                    : Value();
  for (Operation *o = p.copy->getNextNode(); o && o != op; o = o->getNextNode()) {
    if (!touches(o, srcAliases))
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(o);
        dealloc && dealloc.getMemref() == srcRoot) {
      p.srcDeallocs.push_back(o);
      continue;
    }
    // Y's initialization, when Y is the source's buffer: writes it, reads
    // nothing of it.
    auto init = dyn_cast<linalg::LinalgOp>(o);
    if (yRoot && srcRoot == yRoot && init && init.hasPureBufferSemantics() &&
        init.getNumDpsInits() == 1 &&
        viewRoot(init.getDpsInits()[0]) == srcRoot &&
        llvm::none_of(init.getDpsInputs(),
                      [&](Value in) { return viewRoot(in) == srcRoot; }) &&
        !init.payloadUsesValueFromOperand(init.getDpsInitOperand(0))) {
      p.yWriters.push_back(o);
      continue;
    }
    return std::nullopt;
  }
  return p;
}

bool definedBefore(Value v, Operation *op) {
  Operation *anc = v.getParentBlock()->findAncestorOpInBlock(*op);
  if (!anc)
    return false;
  Operation *def = v.getDefiningOp();
  return !def || (def != anc && def->isBeforeInBlock(anc));
}

bool movableBefore(Value v, Operation *op, SmallVectorImpl<Operation *> &chain) {
  chain.clear();
  while (!definedBefore(v, op)) {
    Operation *def = v.getDefiningOp();
    auto view = dyn_cast_or_null<ViewLikeOpInterface>(def);
    if (!def || def->getBlock() != op->getBlock() || !op->isBeforeInBlock(def) ||
        !(view || isa<memref::AllocOp>(def)))
      return false;
    chain.push_back(def);
    Value source = view ? view.getViewSource() : Value();
    for (Value operand : def->getOperands())
      if (operand != source && !definedBefore(operand, op))
        return false;
    if (!source)
      break;
    v = source;
  }
  return true;
}

void moveBefore(ArrayRef<Operation *> chain, Operation *op) {
  for (Operation *def : llvm::reverse(chain))
    def->moveBefore(op);
}

std::optional<SmallVector<float>> constantData(memref::GlobalOp global) {
  if (!global.getConstant() || !global.getInitialValue())
    return std::nullopt;
  int64_t count = global.getType().getNumElements();
  Attribute init = *global.getInitialValue();
  if (auto res = dyn_cast<DenseResourceElementsAttr>(init)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != (size_t)count * sizeof(float))
      return std::nullopt;
    SmallVector<float> data(count);
    std::memcpy(data.data(), blob->getData().data(), count * sizeof(float));
    return data;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(init)) {
    if (!dense.getElementType().isF32())
      return std::nullopt;
    SmallVector<float> data;
    data.reserve(count);
    for (float v : dense.getValues<float>())
      data.push_back(v);
    if ((int64_t)data.size() != count)
      return std::nullopt;
    return data;
  }
  return std::nullopt;
}

} // namespace mlir::onnxc::ukernel

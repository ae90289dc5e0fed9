//===- UkernelEpilogue.cpp - Epilogues of --onnxc-linalg-to-ukernel -------===//
//
// What onnxc-linalg-to-ukernel fuses into a kernel call around the product
// it matched (UkernelMatch.h): the initialization of the output (a zero
// fill, a bias broadcast, a copied bias), a Relu / Clip or activation that
// reads the output next, a matrix product's bias add and clamp.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/UkernelMatch.h"
#include "passes/Transforms/UkernelActivation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::ukernel;

namespace mlir::onnxc::ukernel {

/// The constant f32 operand of the binary op `cmp` (a min or max), with
/// the other operand in `other`; none when neither operand is one.
static std::optional<float> constantBound(Operation *cmp, Value &other) {
  for (unsigned i = 0; i < 2; ++i) {
    FloatAttr attr;
    if (matchPattern(cmp->getOperand(i), m_Constant(&attr)) &&
        attr.getType().isF32()) {
      other = cmp->getOperand(1 - i);
      return attr.getValue().convertToFloat();
    }
  }
  return std::nullopt;
}

/// `op` reads one of `aliases` but writes none: a copy from it, or a
/// linalg op with it as an input only (and no nested op using it).
static bool onlyReads(Operation *op, ArrayRef<Value> aliases) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return !llvm::is_contained(aliases, copy.getTarget());
  auto l = dyn_cast<linalg::LinalgOp>(op);
  if (!l || !l.hasPureBufferSemantics() ||
      llvm::any_of(l.getDpsInits(),
                   [&](Value v) { return llvm::is_contained(aliases, v); }))
    return false;
  bool nested = false;
  op->walk([&](Operation *inner) {
    if (inner != op && llvm::any_of(inner->getOperands(), [&](Value v) {
          return llvm::is_contained(aliases, v);
        }))
      nested = true;
  });
  return !nested;
}

/// `op` writes +0.0 into all of `buf`: a linalg.fill, or a linalg.generic
/// without inputs whose body yields the constant (the form a fill takes
/// after onnxc-fuse-elementwise).
static bool isZeroFillOf(Operation *op, Value buf) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == buf &&
           matchPattern(fill.getInputs()[0], m_PosZeroFloat());
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || !g.hasPureBufferSemantics() || g.getNumDpsInputs() != 0 ||
      g.getNumDpsInits() != 1 || g.getDpsInits()[0] != buf ||
      g.getNumReductionLoops() != 0 ||
      !g.getIndexingMapsArray()[0].isIdentity())
    return false;
  Block &body = g.getRegion().front();
  if (body.getOperations().size() != 1)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  return matchPattern(yield.getOperand(0), m_PosZeroFloat());
}

/// The buffer a copy source reshapes: `v` through expand_shape and
/// collapse_shape ops (which cover every element), or `v` itself.
static Value reshapeRoot(Value v) {
  while (true) {
    if (auto e = v.getDefiningOp<memref::ExpandShapeOp>())
      v = e.getSrc();
    else if (auto c = v.getDefiningOp<memref::CollapseShapeOp>())
      v = c.getSrc();
    else
      return v;
  }
}

Operation *zeroInitOf(Operation *op, Value buf, bool &erasable,
                      unsigned depth) {
  erasable = true;
  // The kernel's own buffer must be a fresh allocation; a copy's source
  // may be a reshape of one (a zero fill that CSE shares between several
  // products reaches them through such copies).
  if (depth > 0)
    buf = reshapeRoot(buf);
  if (depth > 2 || !buf.getDefiningOp<memref::AllocOp>())
    return nullptr;
  SmallVector<Value> aliases = aliasesOf(buf);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isZeroFillOf(prev, buf))
      return prev;
    if (auto copy = dyn_cast<memref::CopyOp>(prev)) {
      bool sourceErasable;
      if (copy.getTarget() == buf)
        return zeroInitOf(copy, copy.getSource(), sourceErasable, depth + 1)
                   ? copy
                   : nullptr;
    }
    if (onlyReads(prev, aliases)) {
      erasable = false;
      continue;
    }
    if (touches(prev, aliases))
      return nullptr;
  }
  return nullptr;
}

/// A 1-D memref whose elements are contiguous: the kernels read a bias
/// through a plain pointer.
static bool hasUnitStride(MemRefType t) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(t.getStridesAndOffset(strides, offset)) &&
         strides.size() == 1 && strides[0] == 1;
}

/// `op` writes into all of `buf` the per-channel bias broadcast that
/// convert-onnx-to-linalg emits (a generic reading a contiguous 1-D f32
/// bias at loop dim 1 and yielding it): the bias buffer, else null.
static Value biasBroadcastInto(Operation *op, Value buf) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || !g.hasPureBufferSemantics() || g.getNumDpsInputs() != 1 ||
      g.getNumDpsInits() != 1 || g.getDpsInits()[0] != buf ||
      g.getNumReductionLoops() != 0)
    return nullptr;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  Block &body = g.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto inType = dyn_cast<MemRefType>(g.getDpsInputs()[0].getType());
  if (maps[1].isIdentity() && maps[0].getNumResults() == 1 &&
      maps[0].getResult(0) == getAffineDimExpr(1, g.getContext()) && inType &&
      inType.getRank() == 1 && inType.getElementType().isF32() &&
      hasUnitStride(inType) && body.getOperations().size() == 1 &&
      yield.getOperand(0) == body.getArgument(0))
    return g.getDpsInputs()[0];
  return nullptr;
}

/// The initialization of a buffer that a copy into the convolution's
/// output reads: its source's root `root` (a fresh allocation, reshaped at
/// most) was last written, before `copy`, by a zero fill or a bias
/// broadcast, and only read since (other convolutions copy the same shared
/// initialization: CSE merges identical fills and broadcasts).
static bool copiedInit(memref::CopyOp copy, Value &bias) {
  Value root = reshapeRoot(copy.getSource());
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  SmallVector<Value> aliases = aliasesOf(root);
  for (Operation *prev = copy->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    if (isZeroFillOf(prev, root)) {
      bias = nullptr;
      return true;
    }
    if (Value b = biasBroadcastInto(prev, root)) {
      // A weight (a global), which lives until the convolution; a computed
      // bias may be freed after its broadcast.
      if (!reshapeRoot(b).getDefiningOp<memref::GetGlobalOp>())
        return false;
      bias = b;
      return true;
    }
    if (onlyReads(prev, aliases))
      continue;
    if (touches(prev, aliases))
      return false;
  }
  return false;
}

Operation *convInit(Operation *op, Value buf, Value &bias) {
  if (!buf.getDefiningOp<memref::AllocOp>())
    return nullptr;
  SmallVector<Value> aliases = aliasesOf(buf);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isZeroFillOf(prev, buf)) {
      bias = nullptr;
      return prev;
    }
    if (Value b = biasBroadcastInto(prev, buf)) {
      bias = b;
      return prev;
    }
    // A copy of a shared initialization into the whole of `buf`: the
    // kernel writes the zeros or the bias itself, and the copy goes.
    if (auto copy = dyn_cast<memref::CopyOp>(prev))
      if (copy.getTarget() == buf && copiedInit(copy, bias))
        return copy;
    if (touches(prev, aliases))
      return nullptr;
  }
  return nullptr;
}

/// A clamp's body: max with a constant lower bound, then maybe min with an
/// upper one, of the input.
static bool clampBody(Block &body, Clamp &c) {
  if (body.getOperations().size() > 3)
    return false;
  Value v = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  float hi = INFINITY;
  if (auto mn = v.getDefiningOp<arith::MinimumFOp>()) {
    auto bound = constantBound(mn, v);
    if (!bound)
      return false;
    hi = *bound;
  }
  auto mx = v.getDefiningOp<arith::MaximumFOp>();
  if (!mx)
    return false;
  auto lo = constantBound(mx, v);
  if (!lo || v != body.getArgument(0) || !(*lo <= hi))
    return false;
  c.lo = *lo;
  c.hi = hi;
  return true;
}

/// The first op after `op` that touches `aliases` (Y and its views), the
/// ops before it in `between`, if it is an elementwise generic over
/// buffers with `inputs` inputs and one output, every map the identity;
/// else null.
static linalg::GenericOp nextElementwise(Operation *op,
                                         ArrayRef<Value> aliases,
                                         unsigned inputs,
                                         SmallVectorImpl<Operation *> &between) {
  Operation *next = op->getNextNode();
  while (next && !touches(next, aliases)) {
    between.push_back(next);
    next = next->getNextNode();
  }
  auto g = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!g || !g.hasPureBufferSemantics() || g.getNumDpsInputs() != inputs ||
      g.getNumDpsInits() != 1 || g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  return g;
}

/// Y's value is not read after the epilogue `g`: from `g` on, the first
/// op that touches Y (or a view of it) frees it, or writes all of it
/// without reading it (bufferization gave a later value Y's buffer: a
/// fill, a bias broadcast, an elementwise op's result), or nothing does.
/// Views of Y are not reads.
static bool unreadAfter(linalg::GenericOp g, Value buf) {
  SmallVector<Value> aliases = aliasesOf(buf);
  for (Operation *o = g->getNextNode(); o; o = o->getNextNode()) {
    if (!touches(o, aliases))
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(o))
      return dealloc.getMemref() == buf;
    // A loop nest over all of Y that writes it without reading it (an
    // elementwise op's result in Y's buffer, a fill, a broadcast).
    auto l = dyn_cast<linalg::LinalgOp>(o);
    if (!l || !l.hasPureBufferSemantics() || l.getNumReductionLoops() != 0 ||
        o->getNumResults() != 0 ||
        llvm::any_of(l.getDpsInputs(),
                     [&](Value v) { return llvm::is_contained(aliases, v); }))
      return false;
    for (OpOperand &init : l.getDpsInitsMutable())
      if (init.get() == buf && l.getMatchingIndexingMap(&init).isIdentity() &&
          !l.payloadUsesValueFromOperand(&init))
        return true;
    return false;
  }
  return true;
}

std::optional<Clamp> convClamp(Operation *op, Value buf,
                               ArrayRef<Value> keepApart, bool activations) {
  SmallVector<Value> aliases = aliasesOf(buf);
  SmallVector<Operation *> between;
  linalg::GenericOp g = nextElementwise(op, aliases, 1, between);
  if (!g)
    return std::nullopt;
  Clamp c;
  // The clamp reads Y, or Y collapsed (a 5-D grouped-layout buffer read
  // as NCHW).
  Value in = g.getDpsInputs()[0];
  if (in != buf) {
    c.collapse = in.getDefiningOp<memref::CollapseShapeOp>();
    if (!c.collapse || c.collapse.getSrc() != buf ||
        !definedBefore(c.collapse.getResult(), g))
      return std::nullopt;
  }
  c.op = g;
  c.out = g.getDpsInits()[0];
  // The output: Y's shape, any strides (a Concat's slice: the kernel
  // writes through the strides).
  auto outType = dyn_cast<MemRefType>(c.out.getType());
  auto bufType = cast<MemRefType>(in.getType());
  if (!outType || outType.getShape() != bufType.getShape() ||
      outType.getElementType() != bufType.getElementType() || c.out == buf)
    return std::nullopt;
  // Defined before the convolution, or views of an allocation that can
  // move there (the caller moves them).
  SmallVector<Operation *> chain;
  if (!movableBefore(c.out, op, chain))
    return std::nullopt;
  // The output: untouched until the clamp, and not a buffer the
  // convolution reads.
  SmallVector<Value> outAliases = aliasesOf(viewRoot(c.out));
  for (Operation *o : between)
    if (touches(o, outAliases))
      return std::nullopt;
  Value outRoot = c.out;
  while (auto view = outRoot.getDefiningOp<ViewLikeOpInterface>())
    outRoot = view.getViewSource();
  for (Value v : keepApart) {
    Value root = v;
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
      root = view.getViewSource();
    if (root == outRoot)
      return std::nullopt;
  }
  // The body: a clamp, or else one of the runtime's activations.
  Block &body = g.getRegion().front();
  if (!clampBody(body, c) && !(activations && matchActivationBody(body, c)))
    return std::nullopt;
  // Nothing reads `buf` after the clamp (unreadAfter: bufferization may
  // give a later value Y's buffer, as in U-Net's encoder, whose second
  // Relu writes a Concat's slice). Its users before the clamp: the
  // initialization, the convolution (through views) and ops before the
  // convolution (bufferization may have reused the buffer of an earlier
  // value, which the kernel no longer overwrites); nextElementwise saw to
  // it that nothing between the two touches it. A user inside another
  // op's region (a memref.load in the body of a broadcasting generic with
  // dynamic dims) counts as that op, in op's block.
  bool usedAfter = false;
  // A user before the convolution, or after the clamp (noted); anything
  // else (between the two, or in another block) is not one we allow.
  auto allowed = [&](Operation *user) {
    Operation *anc = op->getBlock()->findAncestorOpInBlock(*user);
    if (!anc)
      return false;
    if (anc->isBeforeInBlock(op))
      return true;
    usedAfter = true;
    return g->isBeforeInBlock(anc);
  };
  for (Operation *user : buf.getUsers())
    if (user != g.getOperation() && user != op &&
        !isa<ViewLikeOpInterface>(user) && !allowed(user))
      return std::nullopt;
  for (Operation *user : buf.getUsers())
    if (isa<ViewLikeOpInterface>(user))
      for (Operation *vu : user->getUsers())
        if (vu != op && !(user == c.collapse && vu == g.getOperation()) &&
            !allowed(vu))
          return std::nullopt;
  if (usedAfter && !unreadAfter(g, buf))
    return std::nullopt;
  return c;
}

std::optional<Clamp> convResidual(Operation *op, Value buf,
                                  ArrayRef<Value> keepApart) {
  SmallVector<Value> aliases = aliasesOf(buf);
  SmallVector<Operation *> between;
  linalg::GenericOp g = nextElementwise(op, aliases, 2, between);
  if (!g)
    return std::nullopt;
  Clamp c;
  c.op = g;
  // Y (or Y collapsed) is one input, R the other and the output.
  int yi = -1;
  for (int i = 0; i < 2; ++i) {
    Value in = g.getDpsInputs()[i];
    if (in == buf) {
      yi = i;
    } else if (auto col = in.getDefiningOp<memref::CollapseShapeOp>()) {
      if (col.getSrc() == buf && definedBefore(col.getResult(), g)) {
        c.collapse = col;
        yi = i;
      }
    }
    if (yi >= 0)
      break;
  }
  if (yi < 0)
    return std::nullopt;
  Value r = g.getDpsInputs()[1 - yi];
  c.out = g.getDpsInits()[0];
  auto type = dyn_cast<MemRefType>(c.out.getType());
  if (r != c.out || !type ||
      type.getShape() !=
          cast<MemRefType>(g.getDpsInputs()[yi].getType()).getShape() ||
      !type.getElementType().isF32())
    return std::nullopt;
  // The body: yield [min(max(a + r, lo), hi) | max(a + r, lo) | a + r].
  Block &body = g.getRegion().front();
  if (body.getOperations().size() > 4)
    return std::nullopt;
  Value v = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  if (auto mn = v.getDefiningOp<arith::MinimumFOp>()) {
    auto bound = constantBound(mn, v);
    if (!bound)
      return std::nullopt;
    c.hi = *bound;
    if (!v.getDefiningOp<arith::MaximumFOp>())
      return std::nullopt;
  }
  if (auto mx = v.getDefiningOp<arith::MaximumFOp>()) {
    auto bound = constantBound(mx, v);
    if (!bound || !(*bound <= c.hi))
      return std::nullopt;
    c.lo = *bound;
  }
  auto sum = v.getDefiningOp<arith::AddFOp>();
  if (!sum ||
      !((sum.getLhs() == body.getArgument(0) &&
         sum.getRhs() == body.getArgument(1)) ||
        (sum.getLhs() == body.getArgument(1) &&
         sum.getRhs() == body.getArgument(0))))
    return std::nullopt;
  // R: defined before the convolution (or movable there), untouched until
  // the Add, not one of the convolution's operands.
  SmallVector<Operation *> chain;
  if (!movableBefore(c.out, op, chain))
    return std::nullopt;
  Value root = viewRoot(c.out);
  SmallVector<Value> outAliases = aliasesOf(root);
  for (Operation *o : between)
    if (touches(o, outAliases))
      return std::nullopt;
  for (Value v : keepApart)
    if (v && viewRoot(v) == root)
      return std::nullopt;
  if (!unreadAfter(g, buf))
    return std::nullopt;
  return c;
}

/// `v = min(max(x, lo), hi)` or `v = max(x, lo)` with constant f32 bounds
/// (a Relu or Clip as convert-onnx-to-linalg writes them): x and the
/// bounds, the ops of the chain counted in `ops`.
static std::optional<Value> clampChain(Value v, float &lo, float &hi, unsigned &ops) {
  lo = -INFINITY;
  hi = INFINITY;
  ops = 0;
  if (auto mn = v.getDefiningOp<arith::MinimumFOp>()) {
    std::optional<float> h = constantBound(mn, v);
    if (!h)
      return std::nullopt;
    hi = *h;
    ++ops;
  }
  auto mx = v.getDefiningOp<arith::MaximumFOp>();
  if (!mx)
    return std::nullopt;
  std::optional<float> l = constantBound(mx, v);
  if (!l || !(*l <= hi))
    return std::nullopt;
  lo = *l;
  ++ops;
  return v;
}

std::optional<MatmulEpilogue> matchMatmulEpilogue(linalg::LinalgOp op,
                                                  const Contraction &c) {
  Value cv = op.getDpsInits()[0];
  if (!cv.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  SmallVector<Value> cAliases = aliasesOf(cv);
  Operation *next = op->getNextNode();
  SmallVector<Operation *> between;
  while (next && !touches(next, cAliases)) {
    between.push_back(next);
    next = next->getNextNode();
  }
  auto g = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!g || !g.hasPureBufferSemantics() || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 0 || g.getNumDpsInputs() < 1 ||
      g.getNumDpsInputs() > 2)
    return std::nullopt;
  MatmulEpilogue e;
  e.op = g;
  e.out = g.getDpsInits()[0];
  auto outType = dyn_cast<MemRefType>(e.out.getType());
  auto cType = cast<MemRefType>(cv.getType());
  if (!outType || outType.getShape() != cType.getShape() ||
      outType.getElementType() != cType.getElementType() ||
      !g.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  // Which input is C (read through the identity), which the bias.
  Block &body = g.getRegion().front();
  std::optional<unsigned> cArg;
  for (OpOperand *in : g.getDpsInputOperands()) {
    if (in->get() == cv && g.getMatchingIndexingMap(in).isIdentity() &&
        !cArg)
      cArg = in->getOperandNumber();
    else if (in->get() == cv)
      return std::nullopt;
  }
  if (!cArg)
    return std::nullopt;
  // The body: [add C and the bias], then [the clamp], then yield.
  Value v = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  unsigned ops = 0;
  if (std::optional<Value> x = clampChain(v, e.lo, e.hi, ops)) {
    e.clamp = true;
    v = *x;
  }
  Value cIn = body.getArgument(*cArg);
  if (auto add = v.getDefiningOp<arith::AddFOp>()) {
    if (g.getNumDpsInputs() != 2)
      return std::nullopt;
    Value biasIn = body.getArgument(1 - *cArg);
    if (!((add.getLhs() == cIn && add.getRhs() == biasIn) ||
          (add.getLhs() == biasIn && add.getRhs() == cIn)))
      return std::nullopt;
    OpOperand *biasOperand = g.getDpsInputOperand(1 - *cArg);
    e.bias = biasOperand->get();
    if (!definedBefore(e.bias, op) || viewRoot(e.bias) == viewRoot(cv) ||
        viewRoot(e.bias) == viewRoot(e.out))
      return std::nullopt;
    ++ops;
    v = cIn;
    // The bias: indexed by one loop dim of the generic (the others are
    // 0), which is C's dim of M or of N, with a unit stride along it.
    auto biasType = dyn_cast<MemRefType>(e.bias.getType());
    auto dims = operandDims(g.getMatchingIndexingMap(biasOperand));
    if (!biasType || !biasType.getElementType().isF32() || !dims)
      return std::nullopt;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(biasType.getStridesAndOffset(strides, offset)))
      return std::nullopt;
    std::optional<int64_t> used;
    for (auto [i, d] : llvm::enumerate(*dims)) {
      if (d < 0)
        continue;
      if (used || strides[i] != 1)
        return std::nullopt;
      used = d;
    }
    if (!used)
      return std::nullopt;
    int64_t loop = c.dims[2][*used];
    if (c.m && loop == (int64_t)*c.m)
      e.biasPerRow = true;
    else if (!c.n || loop != (int64_t)*c.n)
      return std::nullopt;
  }
  if (v != cIn || body.getOperations().size() != ops + 1 ||
      (!e.bias && !e.clamp))
    return std::nullopt;
  // Where the kernel writes: C itself, or a buffer allocated in this block
  // (so no loop-carried value, argument or operand of the product can be a
  // view of it) that nothing touches before the generic.
  SmallVector<Value> reads = {op.getDpsInputs()[0], op.getDpsInputs()[1]};
  if (e.bias)
    reads.push_back(e.bias);
  if (e.out != cv) {
    Value outRoot = viewRoot(e.out);
    auto alloc = outRoot.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != op->getBlock())
      return std::nullopt;
    for (Value r : reads)
      if (viewRoot(r) == outRoot)
        return std::nullopt;
    // Defined before the product, or an allocation that can move there.
    if (!definedBefore(e.out, op) &&
        (e.out != outRoot ||
         !llvm::all_of(alloc->getOperands(), [&](Value operand) {
           return definedBefore(operand, op);
         })))
      return std::nullopt;
  }
  // Nothing between the product and the generic touches the output or
  // writes the bias (the kernel now writes and reads them at the product).
  SmallVector<Value> outAliases = aliasesOf(viewRoot(e.out));
  SmallVector<Value> biasAliases =
      e.bias ? aliasesOf(viewRoot(e.bias)) : SmallVector<Value>();
  for (Operation *o : between)
    if (o != e.out.getDefiningOp() &&
        (touches(o, outAliases) || touches(o, biasAliases)))
      return std::nullopt;
  // When the kernel writes elsewhere, C is read by nobody else: its users
  // are the product, the generic, deallocations and what came before the
  // product.
  if (e.out != cv)
    for (Operation *user : cv.getUsers())
      if (user != op.getOperation() && user != g.getOperation() &&
          !isa<memref::DeallocOp>(user) &&
          !(user->getBlock() == op->getBlock() && user->isBeforeInBlock(op)))
        return std::nullopt;
  return e;
}

} // namespace mlir::onnxc::ukernel

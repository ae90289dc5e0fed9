//===- ConvChains.cpp - Chained convolution calls as one call ------------===//
//
// A step of onnxc-linalg-to-ukernel (LinalgToUkernel.cpp), after the calls
// exist: `onnxc_rt_sconv2d` calls in a row, each reading the output of the
// one before, become one `onnxc_rt_sconv2d_chain` call with their operands
// in a block on the stack, which may run them interleaved in bands of
// rows, each band's rows of every map in between written right before the
// next call reads them (runtime/src/conv_chain.c: a MobileNet block's
// expanded map then goes through L2 instead of memory).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/UkernelMatch.h"

#include "onnxc/runtime_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "onnxc-linalg-to-ukernel"

using namespace mlir;
using namespace mlir::onnxc::ukernel;

namespace {

constexpr llvm::StringLiteral kConv = "onnxc_rt_sconv2d";
constexpr llvm::StringLiteral kChain = "onnxc_rt_sconv2d_chain";

/// The address a call's pointer operand `v` holds, as the buffer it points
/// into (through views) and a constant byte offset from that buffer's
/// aligned pointer.
std::optional<std::pair<Value, int64_t>> address(Value v) {
  SmallVector<Value> offsets;
  memref::ExtractAlignedPointerAsIndexOp extract = callPointer(v, &offsets);
  if (!extract)
    return std::nullopt;
  int64_t offset = 0;
  for (Value o : offsets) {
    std::optional<int64_t> c = getConstantIntValue(o);
    if (!c)
      return std::nullopt;
    offset += *c;
  }
  return std::make_pair(viewRoot(extract.getSource()), offset);
}

/// The convolution call right before `second` in its block whose output
/// `second` reads, with nothing in between but what builds `second`'s
/// operands (pure ops, allocations, stores into `second`'s parameter
/// block); else null.
func::CallOp firstOfPair(func::CallOp second) {
  std::optional<std::pair<Value, int64_t>> params = address(second.getOperand(0));
  if (!params)
    return {};
  for (Operation *p = second->getPrevNode(); p; p = p->getPrevNode()) {
    if (auto call = dyn_cast<func::CallOp>(p)) {
      if (call.getCallee() != kConv || call.getNumOperands() != 4)
        return {};
      std::optional<std::pair<Value, int64_t>> t = address(call.getOperand(3)),
                                               x = address(second.getOperand(1)),
                                               p1 = address(call.getOperand(0));
      if (!t || !x || *t != *x || !p1 || p1->first == params->first)
        return {};
      return call;
    }
    if (auto store = dyn_cast<memref::StoreOp>(p)) {
      if (viewRoot(store.getMemRef()) != params->first)
        return {};
      continue;
    }
    if (isa<memref::AllocOp, memref::AllocaOp>(p) ||
        (isMemoryEffectFree(p) && p->getNumRegions() == 0))
      continue;
    return {};
  }
  return {};
}

/// The value a constant `memref.store` into slot `slot` of `call`'s
/// parameter block (operand 0) last set before `call` in its block.
std::optional<int64_t> paramSlot(func::CallOp call, int64_t slot) {
  std::optional<std::pair<Value, int64_t>> params = address(call.getOperand(0));
  if (!params)
    return std::nullopt;
  for (Operation *p = call->getPrevNode(); p; p = p->getPrevNode()) {
    auto store = dyn_cast<memref::StoreOp>(p);
    if (!store || viewRoot(store.getMemRef()) != params->first ||
        store.getIndices().size() != 1 ||
        getConstantIntValue(store.getIndices()[0]) != slot)
      continue;
    Value v = store.getValueToStore();
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      v = cast.getIn();
    return getConstantIntValue(v);
  }
  return std::nullopt;
}

/// Whether the runtime could run `first` and `second` (which reads
/// `first`'s output) in bands (conv_chain.c): a map in between not known
/// to be under ONNXC_CONV_CHAIN_MIN_BYTES, and neither call known to take
/// the Winograd path (3 x 3, stride 1, one group, channels in multiples of
/// 16, constant packed weights, no activation but a clamp; winograd.c),
/// nor a grouped one with several input channels per group, nor one that
/// starts from Y's values plus its bias (ONNXC_CONV_BIAS_ADD).
/// Calls that would only run one by one stay apart: a profile keeps a
/// site each.
bool mayBand(func::CallOp first, func::CallOp second) {
  std::optional<std::pair<Value, int64_t>> t = address(first.getOperand(3));
  if (t) {
    auto type = dyn_cast<MemRefType>(t->first.getType());
    if (type && type.hasStaticShape() &&
        type.getNumElements() * (int64_t)sizeof(float) <
            ONNXC_CONV_CHAIN_MIN_BYTES)
      return false;
  }
  auto winograd = [](func::CallOp call) {
    auto slot = [&](auto field) { return paramSlot(call, field); };
    std::optional<int64_t> groups = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, groups)),
        out = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, out_channels)),
        in = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, in_channels)),
        kh = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, kernel_h)),
        kw = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, kernel_w)),
        sh = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, stride_h)),
        sw = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, stride_w)),
        flags = slot(ONNXC_ABI_SLOT(onnxc_conv2d_params, flags));
    return groups == 1 && out && *out % 16 == 0 && *out >= 32 && in &&
           *in % 16 == 0 && kh == 3 && kw == 3 && sh == 1 && sw == 1 &&
           flags && (*flags & ONNXC_CONV_W_PACKED) &&
           (*flags & ONNXC_CONV_W_CONST) && !(*flags & ONNXC_CONV_ACT_MASK);
  };
  // Grouped with several input channels per group (ResNeXt's): the
  // runtime runs it whole.
  auto grouped = [](func::CallOp call) {
    std::optional<int64_t> groups =
        paramSlot(call, ONNXC_ABI_SLOT(onnxc_conv2d_params, groups));
    std::optional<int64_t> in =
        paramSlot(call, ONNXC_ABI_SLOT(onnxc_conv2d_params, in_channels));
    return groups && *groups > 1 && in && *in > 1;
  };
  // A fused residual Add (ONNXC_CONV_BIAS_ADD): reading its start from
  // memory in bands made ResNeXt's blocks slower (docs/performance.md).
  auto residual = [](func::CallOp call) {
    std::optional<int64_t> flags =
        paramSlot(call, ONNXC_ABI_SLOT(onnxc_conv2d_params, flags));
    return flags && (*flags & ONNXC_CONV_BIAS_ADD);
  };
  return !winograd(first) && !winograd(second) && !grouped(first) &&
         !grouped(second) && !residual(first) && !residual(second);
}

/// Whether `call` (a convolution) writes every element of the buffer
/// `buf` and reads none: Y through the whole buffer or a reshape of it,
/// its old contents ignored (ONNXC_CONV_BIAS), not in place, and no other
/// operand in it.
bool overwrites(func::CallOp call, Value buf) {
  if (call.getCallee() != kConv || call.getNumOperands() != 4)
    return false;
  for (unsigned k = 0; k < 3; ++k) {
    std::optional<std::pair<Value, int64_t>> a = address(call.getOperand(k));
    if (!a || a->first == buf)
      return false;
  }
  SmallVector<Value> offsets;
  memref::ExtractAlignedPointerAsIndexOp extract =
      callPointer(call.getOperand(3), &offsets);
  if (!extract || !offsets.empty())
    return false;
  Value view = extract.getSource();
  while (view != buf) {
    Operation *def = view.getDefiningOp();
    if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return false;
    view = def->getOperand(0);
  }
  std::optional<int64_t> flags = paramSlot(
      call, ONNXC_ABI_SLOT(onnxc_conv2d_params, flags));
  return flags && (*flags & ONNXC_CONV_BIAS) && !(*flags & ONNXC_CONV_IN_PLACE);
}

/// Whether the buffer `ptr` (a call's output pointer) points into is read
/// by nothing after `last` (the chain's last call): an allocation of the
/// chain's block that after `last` is deallocated, overwritten whole by a
/// convolution call (bufferization gives a later map of the same size its
/// buffer) or not used at all.
bool deadAfter(Value ptr, func::CallOp last) {
  std::optional<std::pair<Value, int64_t>> a = address(ptr);
  auto alloc = a ? a->first.getDefiningOp<memref::AllocOp>() : nullptr;
  if (!alloc || alloc->getBlock() != last->getBlock())
    return false;
  Value buf = alloc.getResult();
  SmallVector<Value> aliases = aliasesOf(buf);
  // A use of the buffer in or under `o`: an alias operand other than a
  // view's or a deallocation's (pointer extractions included), or a call
  // operand whose address is in it.
  auto uses = [&](Operation *o) {
    bool found = false;
    o->walk([&](Operation *n) {
      if (isa<ViewLikeOpInterface, memref::DeallocOp>(n))
        return;
      for (Value v : n->getOperands())
        if (llvm::is_contained(aliases, v))
          found = true;
      if (auto call = dyn_cast<func::CallOp>(n))
        for (Value v : call.getOperands()) {
          std::optional<std::pair<Value, int64_t>> at = address(v);
          if (at && at->first == buf)
            found = true;
        }
    });
    return found;
  };
  for (Operation *o = last->getNextNode(); o; o = o->getNextNode()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(o))
      if (llvm::is_contained(aliases, dealloc.getMemref()))
        return true;
    // The pointer extraction of a call that overwrites it comes first.
    if (auto extract = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(o))
      if (llvm::is_contained(aliases, extract.getSource()))
        continue;
    if (auto call = dyn_cast<func::CallOp>(o))
      if (overwrites(call, buf))
        return true;
    if (uses(o))
      return false;
  }
  return true;
}

} // namespace

void mlir::onnxc::ukernel::chainConvCalls(func::FuncOp f) {
  SmallVector<func::CallOp> convs;
  f.walk([&](func::CallOp c) {
    if (c.getCallee() == kConv && c.getNumOperands() == 4)
      convs.push_back(c);
  });
  // Chains of calls in a row, each reading the one before's output, at
  // most ONNXC_CONV_CHAIN_MAX long.
  SmallVector<SmallVector<func::CallOp>> chains;
  llvm::DenseMap<Operation *, unsigned> chainOf;
  for (func::CallOp call : convs) {
    func::CallOp prev = firstOfPair(call);
    if (prev && !mayBand(prev, call))
      prev = {};
    auto it = prev ? chainOf.find(prev) : chainOf.end();
    if (it != chainOf.end() && chains[it->second].size() < ONNXC_CONV_CHAIN_MAX) {
      chains[it->second].push_back(call);
      chainOf[call] = it->second;
      continue;
    }
    chainOf[call] = chains.size();
    chains.push_back({call});
  }
  auto module = f->getParentOfType<ModuleOp>();
  for (SmallVector<func::CallOp> &chain : chains) {
    if (chain.size() < 2)
      continue;
    func::CallOp last = chain.back();
    Location loc = last.getLoc();
    SmallVector<Location> locs;
    for (func::CallOp c : chain)
      locs.push_back(c.getLoc());
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": chain of " << chain.size()
                            << " convolutions at " << loc << "\n");
    OpBuilder b(f.getContext());
    // The operands, as integers, in a block on the stack of the function
    // (allocated once at its entry: the chain may be in a loop).
    b.setInsertionPointToStart(&f.getBody().front());
    auto i64Type = b.getI64Type();
    constexpr int64_t slots = ONNXC_CONV_CHAIN_SLOTS;
    auto block = memref::AllocaOp::create(
        b, loc,
        MemRefType::get({(int64_t)(slots * chain.size())}, i64Type));
    b.setInsertionPoint(last);
    for (unsigned i = 0; i < chain.size(); ++i) {
      auto store = [&](Value v, unsigned k) {
        memref::StoreOp::create(
            b, loc, v, block,
            ValueRange{arith::ConstantIndexOp::create(b, loc, slots * i + k)});
      };
      for (unsigned k = 0; k < 4; ++k)
        store(LLVM::PtrToIntOp::create(b, loc, i64Type, chain[i].getOperand(k)),
              k);
      // Outputs in between that nothing reads after the chain, of calls
      // that overwrite them (not one known to start from Y's values; the
      // runtime checks ONNXC_CONV_BIAS too).
      std::optional<int64_t> callFlags = paramSlot(
          chain[i], ONNXC_ABI_SLOT(onnxc_conv2d_params, flags));
      int64_t flags = i + 1 < chain.size() &&
                              (!callFlags || (*callFlags & ONNXC_CONV_BIAS)) &&
                              deadAfter(chain[i].getOperand(3), last)
                          ? ONNXC_CONV_CHAIN_DEAD
                          : 0;
      store(arith::ConstantIntOp::create(b, loc, i64Type, flags), 4);
    }
    Value addr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, block);
    Value ptr = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()),
        arith::IndexCastOp::create(b, loc, i64Type, addr).getResult());
    Value count = arith::ConstantIntOp::create(b, loc, i64Type, chain.size());
    SmallVector<Value> args = {count, ptr};
    if (!module.lookupSymbol(kChain)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto fn = func::FuncOp::create(
          b, module.getLoc(), kChain,
          b.getFunctionType(ValueRange(args).getTypes(), {}));
      fn.setPrivate();
    }
    func::CallOp::create(b, b.getFusedLoc(locs), kChain, TypeRange{}, args);
    for (func::CallOp c : chain)
      c->erase();
  }
}

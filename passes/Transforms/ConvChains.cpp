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
/// aligned pointer (the call rewrites build llvm.inttoptr of an
/// index_cast of memref.extract_aligned_pointer_as_index plus offsets).
std::optional<std::pair<Value, int64_t>> address(Value v) {
  auto toPtr = v.getDefiningOp<LLVM::IntToPtrOp>();
  Value i = toPtr ? toPtr.getArg() : Value();
  if (auto cast = i ? i.getDefiningOp<arith::IndexCastOp>() : nullptr)
    i = cast.getIn();
  int64_t offset = 0;
  while (auto sum = i ? i.getDefiningOp<arith::AddIOp>() : nullptr) {
    std::optional<int64_t> c = getConstantIntValue(sum.getRhs());
    if (!c)
      return std::nullopt;
    offset += *c;
    i = sum.getLhs();
  }
  auto extract =
      i ? i.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>() : nullptr;
  if (!extract)
    return std::nullopt;
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

/// Whether the buffer `ptr` (a call's output pointer) points into is read
/// by nothing after `last` (the chain's last call): an allocation of the
/// chain's block whose views are used before `last` or deallocated.
bool deadAfter(Value ptr, func::CallOp last) {
  std::optional<std::pair<Value, int64_t>> a = address(ptr);
  auto alloc = a ? a->first.getDefiningOp<memref::AllocOp>() : nullptr;
  if (!alloc || alloc->getBlock() != last->getBlock())
    return false;
  for (Value v : aliasesOf(alloc.getResult()))
    for (Operation *user : v.getUsers()) {
      if (isa<memref::DeallocOp, ViewLikeOpInterface>(user))
        continue;
      Operation *at = last->getBlock()->findAncestorOpInBlock(*user);
      if (!at || (at != last.getOperation() && !at->isBeforeInBlock(last)))
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
      // Outputs in between that nothing reads after the chain.
      int64_t flags = i + 1 < chain.size() &&
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

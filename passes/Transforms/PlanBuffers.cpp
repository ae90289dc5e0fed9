//===- PlanBuffers.cpp - The --onnxc-plan-buffers pass --------------------===//
//
// Static memory planning: the statically shaped buffers that a function
// allocates and frees in its top-level block become views at fixed offsets
// of one arena, allocated once on entry and freed before returning. Two
// buffers share bytes when their lifetimes (from the alloc to the last
// top-level op that touches the buffer or a value derived from it, in the
// block's order) do not overlap. The ownership-based deallocation pipeline
// frees every buffer at the end of the function, so without this pass a
// run holds all of its intermediates at once. The placement is greedy by
// size (largest first, lowest offset that fits).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>
#include <optional>
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_PLANBUFFERS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-plan-buffers"

namespace {

constexpr int64_t kAlign = 64;

struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t start, end; // live in [start, end) of the block's positions
  int64_t bytes;      // rounded up to kAlign
  int64_t offset = -1;
};

/// Bytes of one element in memory (an i1 takes a byte), or 0 when the pass
/// does not plan buffers of this element type.
int64_t elementBytes(Type t) {
  if (t.isIndex())
    return 8;
  if (t.isIntOrFloat())
    return (t.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

/// The planned size of `alloc`'s buffer, or 0 when it is not a candidate:
/// a static shape, the identity layout, the default memory space, and an
/// alignment the arena's offsets give.
int64_t plannedBytes(memref::AllocOp alloc) {
  MemRefType t = alloc.getType();
  if (!t.hasStaticShape() || !t.getLayout().isIdentity() ||
      t.getMemorySpace() || !alloc.getSymbolOperands().empty())
    return 0;
  if (auto a = alloc.getAlignment(); a && (*a <= 0 || kAlign % *a != 0))
    return 0;
  int64_t elem = elementBytes(t.getElementType());
  if (elem == 0)
    return 0;
  int64_t bytes = t.getNumElements() * elem;
  return std::max<int64_t>(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
}

/// Places the buffers: each at the lowest offset where it overlaps no
/// placed buffer that is live at the same time. Returns the arena's size.
int64_t place(SmallVectorImpl<Buffer> &buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &b : buffers)
    order.push_back(&b);
  std::stable_sort(order.begin(), order.end(), [](Buffer *x, Buffer *y) {
    return x->bytes > y->bytes;
  });
  SmallVector<Buffer *> placed;
  int64_t total = 0;
  for (Buffer *b : order) {
    // The byte ranges taken by placed buffers live during b, by offset.
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (Buffer *p : placed)
      if (p->start < b->end && b->start < p->end)
        taken.push_back({p->offset, p->offset + p->bytes});
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [lo, hi] : taken) {
      if (offset + b->bytes <= lo)
        break;
      offset = std::max(offset, hi);
    }
    b->offset = offset;
    total = std::max(total, offset + b->bytes);
    placed.push_back(b);
  }
  return total;
}

/// Whether a result of an op that reads a buffer may carry (a part of) its
/// address: views, pointers, and the integers pointers travel as.
bool mayCarryAddress(Type t) {
  return !t.isIntOrFloat() || t.isInteger() || t.isIndex();
}

/// Ops through which a buffer reaches a runtime call without generated
/// code reading or writing its elements: views, pointer extraction, address
/// arithmetic.
bool isAddressOnly(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp, memref::CastOp,
             memref::DimOp, LLVM::IntToPtrOp, LLVM::PtrToIntOp, LLVM::GEPOp>(
             op) ||
         (op->getDialect() && op->getDialect()->getNamespace() == "arith" &&
          llvm::all_of(op->getResultTypes(), [](Type t) {
            return t.isIndex() || t.isInteger();
          }));
}

/// A linalg op without reduction loops (fill, copy, elementwise): its loops
/// need no alias facts beyond the run-time checks LLVM's vectorizer adds,
/// unlike a reduction, whose sum LLVM keeps in a register only when it can
/// prove that the output aliases no input.
bool isParallelLinalg(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

struct Liveness {
  int64_t last;   // position of the last top-level op that touches it
  bool callsOnly; // only runtime calls and parallel linalg ops access it
};

/// When the buffer `alloc` is last touched in `block`: by its own uses or
/// those of values derived from it (views, extracted pointers, results of
/// ops with a use in their regions), the dealloc aside. None when a derived
/// value reaches the return (the buffer outlives the function).
std::optional<Liveness> liveness(memref::AllocOp alloc,
                                 memref::DeallocOp dealloc, Block &block,
                                 DenseMap<Operation *, int64_t> &position) {
  Liveness l{position[alloc], true};
  SmallVector<Value> work{alloc.getResult()};
  DenseSet<Value> seen{alloc.getResult()};
  auto derive = [&](Operation *op) {
    for (Value r : op->getResults())
      if (mayCarryAddress(r.getType()) && seen.insert(r).second)
        work.push_back(r);
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc.getOperation())
        continue;
      Operation *top = block.findAncestorOpInBlock(*user);
      if (!top || isa<func::ReturnOp>(top))
        return std::nullopt;
      l.last = std::max(l.last, position[top]);
      // The address stored into memory (a kernel's parameter block): the
      // buffer lives as long as that memory is read.
      Value stored;
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getValueToStore() == v)
        stored = store.getMemRef();
      if (auto store = dyn_cast<LLVM::StoreOp>(user);
          store && store.getValue() == v)
        stored = store.getAddr();
      if (stored) {
        Operation *def = stored.getDefiningOp();
        if (!def || !block.findAncestorOpInBlock(*def))
          return std::nullopt;
        if (seen.insert(stored).second)
          work.push_back(stored);
      }
      if (top != user || !(isAddressOnly(user) || isa<func::CallOp>(user) ||
                           isParallelLinalg(user)))
        l.callsOnly = false;
      derive(user);
      // Whatever a region op yields may be the buffer again.
      if (top != user)
        derive(top);
    }
  }
  return l;
}

struct PlanBuffersPass : public onnxc::impl::PlanBuffersBase<PlanBuffersPass> {
  using PlanBuffersBase::PlanBuffersBase;
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    if (!f.getBody().hasOneBlock())
      return;
    Block &block = f.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      return;

    DenseMap<Operation *, int64_t> position;
    int64_t n = 0;
    for (Operation &op : block)
      position[&op] = n++;

    // Candidates: allocated and deallocated directly in this block, once.
    // `buffers` go to the arena: only runtime calls read and write them.
    SmallVector<Buffer> buffers, freedEarly;
    for (Operation &op : block) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc)
        continue;
      int64_t bytes = plannedBytes(alloc);
      if (bytes == 0)
        continue;
      memref::DeallocOp dealloc;
      bool ok = true;
      for (Operation *user : alloc->getUsers()) {
        auto d = dyn_cast<memref::DeallocOp>(user);
        if (!d)
          continue;
        if (dealloc || d->getBlock() != &block)
          ok = false;
        dealloc = d;
      }
      if (!ok || !dealloc)
        continue;
      std::optional<Liveness> live = liveness(alloc, dealloc, block, position);
      if (!live)
        continue;
      Buffer buf{alloc, dealloc, position[alloc], live->last + 1, bytes};
      (arena && live->callsOnly ? buffers : freedEarly).push_back(buf);
    }

    // Buffers that generated loops access keep their own allocations (a
    // noalias pointer each, which LLVM needs to keep sums in registers and
    // vectorize without run-time checks), freed right after their last use
    // instead of at the end; the allocator reuses the memory.
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Buffer &buf : freedEarly)
      buf.dealloc->moveAfter(ops[buf.end - 1]);
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << f.getSymName() << ": "
                            << buffers.size() << " buffers for the arena, "
                            << freedEarly.size() << " freed after last use\n");
    if (buffers.size() < (size_t)minBuffers) {
      for (Buffer &buf : buffers)
        buf.dealloc->moveAfter(ops[buf.end - 1]);
      return;
    }

    int64_t total = place(buffers);
    LLVM_DEBUG({
      int64_t separate = 0;
      for (Buffer &buf : buffers)
        separate += buf.bytes;
      llvm::dbgs() << DEBUG_TYPE ": arena of " << total << " bytes for "
                   << separate << " bytes of buffers\n";
    });
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&block);
    Location loc = f.getLoc();
    auto arenaType = MemRefType::get({total}, IntegerType::get(ctx, 8));
    Value arena = memref::AllocOp::create(b, loc, arenaType,
                                          b.getI64IntegerAttr(kAlign));
    for (Buffer &buf : buffers) {
      b.setInsertionPoint(buf.alloc);
      Value offset = arith::ConstantIndexOp::create(b, buf.alloc.getLoc(),
                                                    buf.offset);
      Value view = memref::ViewOp::create(b, buf.alloc.getLoc(),
                                          buf.alloc.getType(), arena, offset,
                                          ValueRange());
      buf.alloc.replaceAllUsesWith(view);
      buf.dealloc.erase();
      buf.alloc.erase();
    }
    b.setInsertionPoint(ret);
    memref::DeallocOp::create(b, loc, arena);
  }
};

} // namespace

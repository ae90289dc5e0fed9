//===- OrderSliceInserts.cpp - The --onnxc-order-slice-inserts pass -------===//
//
// A Concat lowers to a chain of tensor.insert_slice ops into a tensor.empty,
// in input order, where the Concat is. Empty-tensor elimination computes a
// source in its slice of the destination only where the destination it is
// inserted into is defined before the source's producer: the chain's first
// source alone, and only when the producer comes after the Concat's empty.
// A U-Net's skip connection (computed first, read by the encoder's next
// layer, concatenated at the end behind the decoder's upsampled map) was
// therefore always copied. This pass, for a chain of static, disjoint slices
// into a static tensor.empty, inserts the sources in the order they are
// computed and moves the tensor.empty before the producers of the earliest
// one, so that elimination puts that source in its slice.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ORDERSLICEINSERTS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// The insert_slice chain that starts at `empty`: each op the only user of
/// the one before it (as its destination), all in `empty`'s block, with
/// static offsets, sizes and unit strides. Empty when `empty` is not the
/// destination of exactly one insert_slice.
SmallVector<tensor::InsertSliceOp> chainOf(tensor::EmptyOp empty) {
  SmallVector<tensor::InsertSliceOp> chain;
  Value v = empty.getResult();
  while (v.hasOneUse()) {
    auto ins = dyn_cast<tensor::InsertSliceOp>(*v.getUsers().begin());
    if (!ins || ins.getDest() != v || ins->getBlock() != empty->getBlock() ||
        !ins.getOffsets().empty() || !ins.getSizes().empty() ||
        !ins.getStrides().empty() ||
        llvm::any_of(ins.getStaticStrides(), [](int64_t s) { return s != 1; }))
      break;
    chain.push_back(ins);
    v = ins.getResult();
  }
  return chain;
}

/// Whether the slices of `a` and `b` share no element.
bool disjoint(tensor::InsertSliceOp a, tensor::InsertSliceOp b) {
  ArrayRef<int64_t> oa = a.getStaticOffsets(), sa = a.getStaticSizes();
  ArrayRef<int64_t> ob = b.getStaticOffsets(), sb = b.getStaticSizes();
  for (size_t d = 0; d < oa.size(); ++d)
    if (oa[d] + sa[d] <= ob[d] || ob[d] + sb[d] <= oa[d])
      return true;
  return false;
}

/// The first op of `block` that computes `v`: its defining op, or the op
/// whose result it writes into when that result is `v`'s destination (a
/// DPS op's tied init, not a tensor.empty), back along such inits. Null
/// when `v` is defined outside `block`.
Operation *firstProducer(Value v, Block *block) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != block)
    return nullptr;
  while (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
    auto res = dyn_cast<OpResult>(v);
    if (!res || res.getOwner() != op)
      break;
    Value init = dps.getTiedOpOperand(res)->get();
    Operation *def = init.getDefiningOp();
    if (!def || def->getBlock() != block || isa<tensor::EmptyOp>(def))
      break;
    op = def;
    v = init;
  }
  return op;
}

struct OrderSliceInserts
    : onnxc::impl::OrderSliceInsertsBase<OrderSliceInserts> {
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> empties;
    getOperation()->walk([&](tensor::EmptyOp e) {
      if (e->getNumOperands() == 0)
        empties.push_back(e);
    });
    for (tensor::EmptyOp empty : empties)
      reorder(empty);
  }

  void reorder(tensor::EmptyOp empty) {
    SmallVector<tensor::InsertSliceOp> chain = chainOf(empty);
    if (chain.size() < 2)
      return;
    for (size_t i = 0; i < chain.size(); ++i)
      for (size_t j = i + 1; j < chain.size(); ++j)
        if (!disjoint(chain[i], chain[j]))
          return;
    Block *block = empty->getBlock();
    // Each source's first producer in this block (null: defined before it,
    // so available anywhere in it).
    SmallVector<std::pair<Operation *, tensor::InsertSliceOp>> order;
    for (tensor::InsertSliceOp ins : chain)
      order.push_back({firstProducer(ins.getSource(), block), ins});
    auto before = [](Operation *a, Operation *b) {
      if (!a || !b)
        return !a && b;
      return a->isBeforeInBlock(b);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const auto &x, const auto &y) {
                       return before(x.first, y.first);
                     });
    // The earliest producer in this block (sources from outside it sort
    // first and need no room).
    Operation *first = nullptr;
    for (auto &entry : order)
      if ((first = entry.first))
        break;
    bool sorted = llvm::all_of(llvm::enumerate(order), [&](auto e) {
      return e.value().second == chain[e.index()];
    });
    if (sorted && (!first || empty->isBeforeInBlock(first)))
      return;
    if (first && first->isBeforeInBlock(empty))
      empty->moveBefore(first);
    // The chain again, at its last op (every source is defined there), in
    // the order the sources are computed.
    tensor::InsertSliceOp last = chain.back();
    OpBuilder b(last);
    Value dest = empty.getResult();
    for (auto &[producer, ins] : order) {
      dest = tensor::InsertSliceOp::create(
                 b, ins.getLoc(), ins.getSource(), dest,
                 ins.getMixedOffsets(), ins.getMixedSizes(),
                 ins.getMixedStrides())
                 .getResult();
    }
    last.getResult().replaceAllUsesWith(dest);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      (*it)->erase();
  }
};

} // namespace

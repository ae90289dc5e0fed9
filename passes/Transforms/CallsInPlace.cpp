//===- CallsInPlace.cpp - Runtime calls that write their Concat slice ----===//
//
// The last step of onnxc-linalg-to-ukernel (LinalgToUkernel.cpp), after
// the calls exist: a runtime call's output buffer that bufferization then
// copies whole into a contiguous view of another buffer (a Concat input)
// is replaced by the view itself, so the call writes there and the copy
// goes (docs/performance.md, issue 10: U-Net's decoders, ocr_det's FPN).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/UkernelMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "onnxc-linalg-to-ukernel"

using namespace mlir;
using namespace mlir::onnxc::ukernel;

namespace {

/// The memref a runtime call's pointer operand `v` is the address of, or
/// null.
Value pointee(Value v) {
  memref::ExtractAlignedPointerAsIndexOp extract = callPointer(v);
  return extract ? extract.getSource() : Value();
}

/// A runtime call's output buffer copied whole into a contiguous view of
/// another buffer after the call (bufferization's copy of a Concat
/// input: a U-Net's upsampled map into its channels of the Concat), when
/// the calls in between that use the buffer are runtime calls too (a
/// convolution summing into it: ConvIntoAdd's): the calls address the
/// view instead, and the buffer and the copy go. The first call must
/// write every element of its dense output and read none
/// (`onnxc_rt_resize2d`'s y, f32); the others may be convolution calls;
/// none gets another pointer into the destination, and nothing else
/// touches the destination from the first call to the copy.
} // namespace

void mlir::onnxc::ukernel::writeCallsInPlace(func::FuncOp f) {
  SmallVector<memref::CopyOp> copies;
  f.walk([&](memref::CopyOp c) { copies.push_back(c); });
  for (memref::CopyOp copy : copies) {
    auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
    auto view = copy.getTarget().getDefiningOp<memref::SubViewOp>();
    if (!alloc || !view || alloc->getBlock() != copy->getBlock())
      continue;
    auto dst = view.getSource().getDefiningOp<memref::AllocOp>();
    auto type = cast<MemRefType>(view.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!dst || dst->getBlock() != copy->getBlock() ||
        !type.hasStaticShape() || !type.getElementType().isF32() ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset))
      continue;
    // Contiguous: each dim of size > 1 strided by the dims after it.
    bool dense = true;
    int64_t inner = 1;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (type.getDimSize(d) != 1 && strides[d] != inner)
        dense = false;
      inner *= type.getDimSize(d);
    }
    if (!dense)
      continue;
    // The buffer's users: the copy, its deallocations, and pointer
    // extractions whose values reach runtime calls only.
    SmallVector<memref::ExtractAlignedPointerAsIndexOp> ptrs;
    SmallVector<func::CallOp> calls;
    func::CallOp writer;
    bool ok = true;
    SmallVector<Operation *> deallocs, reshapes;
    // Users of the buffer and of its reshapes (the same bytes: a
    // convolution's view with the group dim).
    SmallVector<Operation *> users(alloc->getUsers().begin(),
                                   alloc->getUsers().end());
    for (unsigned k = 0; k < users.size(); ++k)
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(users[k])) {
        reshapes.push_back(users[k]);
        users.append(users[k]->getUsers().begin(),
                     users[k]->getUsers().end());
      }
    for (Operation *user : users) {
      if (user == copy || llvm::is_contained(reshapes, user))
        continue;
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        continue;
      }
      auto ptr = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user);
      if (!ptr) {
        ok = false;
        break;
      }
      ptrs.push_back(ptr);
      SmallVector<Operation *> work = {user};
      while (ok && !work.empty()) {
        Operation *o = work.pop_back_val();
        for (OpOperand &u : o->getUses()) {
          Operation *next = u.getOwner();
          auto c = dyn_cast<func::CallOp>(next);
          if (isa<arith::IndexCastOp, arith::AddIOp, LLVM::IntToPtrOp>(next))
            work.push_back(next);
          else if (c && c.getCallee() == "onnxc_rt_resize2d" &&
                   u.getOperandNumber() == 2)
            calls.push_back(c), writer = c;
          else if (c && c.getCallee() == "onnxc_rt_sconv2d")
            calls.push_back(c);
          else
            ok = false;
        }
      }
    }
    if (!ok || !writer || writer->getBlock() != copy->getBlock() ||
        !dst->isBeforeInBlock(writer) ||
        llvm::any_of(ptrs, [&](Operation *p) {
          return p->getBlock() != dst->getBlock() || !dst->isBeforeInBlock(p);
        }))
      continue;
    for (func::CallOp c : calls)
      if (c->getBlock() != copy->getBlock() || !c->isBeforeInBlock(copy) ||
          (c != writer && !writer->isBeforeInBlock(c)))
        ok = false;
    // The calls get no other pointer into dst; nothing else touches dst
    // from the writer to the copy.
    SmallVector<Value> dstAliases = aliasesOf(dst.getResult());
    for (func::CallOp c : calls)
      for (Value v : c.getOperands()) {
        Value m = pointee(v);
        if (v.getDefiningOp<LLVM::ZeroOp>() ||
            (m && viewRoot(m) == alloc.getResult()))
          continue;
        if (!m || viewRoot(m) == dst.getResult())
          ok = false;
      }
    // (Copies into other slices of dst, disjoint from the view, may come
    // in between: a Concat's other inputs.)
    auto disjoint = [&](Operation *o) {
      auto other = dyn_cast<memref::CopyOp>(o);
      auto sv = other ? other.getTarget().getDefiningOp<memref::SubViewOp>()
                      : memref::SubViewOp();
      if (!sv || sv.getSource() != dst.getResult() ||
          llvm::is_contained(dstAliases, other.getSource()))
        return false;
      for (unsigned d = 0; d < type.getRank(); ++d) {
        std::optional<int64_t> oa = getConstantIntValue(sv.getMixedOffsets()[d]),
                               sa = getConstantIntValue(sv.getMixedSizes()[d]),
                               ob = getConstantIntValue(view.getMixedOffsets()[d]),
                               sb = getConstantIntValue(view.getMixedSizes()[d]);
        if (oa && sa && ob && sb && (*oa + *sa <= *ob || *ob + *sb <= *oa))
          return true;
      }
      return false;
    };
    for (Operation *o = writer->getNextNode(); ok && o != copy.getOperation();
         o = o->getNextNode())
      if (!llvm::is_contained(calls, dyn_cast<func::CallOp>(o)) &&
          touches(o, dstAliases) && !disjoint(o))
        ok = false;
    if (!ok)
      continue;
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": call output in place at "
                            << writer.getLoc() << "\n");
    // Each address of the buffer becomes the view's: the destination's
    // (a view of it keeps its aligned pointer) plus the view's offset.
    for (memref::ExtractAlignedPointerAsIndexOp ptr : ptrs) {
      OpBuilder b(ptr);
      Location loc = ptr.getLoc();
      auto inPlace = cast<memref::SubViewOp>(b.clone(*view.getOperation()));
      Value aligned =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, inPlace);
      // The view's static offset, in bytes (none for the first slice).
      Value at = aligned;
      if (offset != 0)
        at = arith::AddIOp::create(
            b, loc, aligned,
            arith::ConstantIndexOp::create(b, loc,
                                           offset * (int64_t)sizeof(float)));
      ptr.getResult().replaceAllUsesWith(at);
      ptr->erase();
    }
    copy->erase();
    for (Operation *d : deallocs)
      d->erase();
    for (Operation *r : llvm::reverse(reshapes))
      if (r->use_empty())
        r->erase();
    if (view->use_empty())
      view->erase();
    if (alloc->use_empty())
      alloc->erase();
  }
}


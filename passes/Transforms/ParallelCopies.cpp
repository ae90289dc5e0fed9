//===- ParallelCopies.cpp - The --onnxc-parallel-copies pass --------------===//
//
// A large copy between buffers (a Concat input copied into its slice of the
// result, a padded buffer's interior) -> onnxc_rt_copy, which splits it
// over the model's threads (runtime/src/copy.c). LLVM would lower it to
// one memcpy or a loop nest on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "onnxc-parallel-copies"

namespace mlir::onnxc {
#define GEN_PASS_DEF_PARALLELCOPIES
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

constexpr StringLiteral kCopy = "onnxc_rt_copy";

/// Bytes of an element the runtime copies (whole bytes; not i1, whose
/// storage onnxc-bool-bytes decides later), or 0.
int64_t elementBytes(Type t) {
  if (!t.isIntOrFloat() || t.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  return t.getIntOrFloatBitWidth() / 8;
}

/// The copy's source and destination when it is one the pass rewrites: both
/// static, of one element type, `minBytes` or more.
std::optional<std::pair<Value, Value>> match(Operation *op, int64_t minBytes) {
  Value src, dst;
  if (auto c = dyn_cast<memref::CopyOp>(op)) {
    src = c.getSource();
    dst = c.getTarget();
  } else if (auto c = dyn_cast<linalg::CopyOp>(op);
             c && c.hasPureBufferSemantics()) {
    src = c.getInputs()[0];
    dst = c.getOutputs()[0];
  } else {
    return std::nullopt;
  }
  auto s = dyn_cast<MemRefType>(src.getType());
  auto d = dyn_cast<MemRefType>(dst.getType());
  if (!s || !d || !s.hasStaticShape() || s.getShape() != d.getShape() ||
      s.getElementType() != d.getElementType() || s.getMemorySpace() ||
      d.getMemorySpace())
    return std::nullopt;
  int64_t elem = elementBytes(s.getElementType());
  if (elem == 0 || s.getNumElements() * elem < minBytes)
    return std::nullopt;
  return std::make_pair(src, dst);
}

struct ParallelCopiesPass
    : public onnxc::impl::ParallelCopiesBase<ParallelCopiesPass> {
  using ParallelCopiesBase::ParallelCopiesBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getBody().empty())
      return;
    SmallVector<std::tuple<Operation *, Value, Value>> found;
    func.walk([&](Operation *op) {
      if (auto m = match(op, minBytes))
        found.push_back({op, m->first, m->second});
    });
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << found.size()
                            << " copies to " << kCopy << "\n");
    if (found.empty())
      return;
    auto module = func->getParentOfType<ModuleOp>();
    OpBuilder b(func.getContext());
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    if (!module.lookupSymbol(kCopy)) {
      b.setInsertionPointToStart(module.getBody());
      auto fn = func::FuncOp::create(
          b, module.getLoc(), kCopy,
          b.getFunctionType({ptrType, ptrType, ptrType}, {}));
      fn.setPrivate();
    }
    for (auto [op, src, dst] : found)
      rewrite(b, func, op, src, dst, ptrType);
  }

  /// op -> the parameter block (runtime_abi.h: rank, element bytes, sizes,
  /// source strides, destination strides) and the call.
  void rewrite(OpBuilder &b, func::FuncOp func, Operation *op, Value src,
               Value dst, Type ptrType) {
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(src.getType());
    int64_t rank = type.getRank();
    // The block lives in the function's frame (an alloca in a loop body
    // would grow the stack each iteration).
    b.setInsertionPointToStart(&func.getBody().front());
    Value params = memref::AllocaOp::create(
        b, loc, MemRefType::get({2 + 3 * rank}, b.getI64Type()));
    b.setInsertionPoint(op);
    auto i64c = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
    };
    auto i64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    };
    int64_t elem = elementBytes(type.getElementType());
    SmallVector<Value> fields = {i64c(rank), i64c(elem)};
    for (int64_t size : type.getShape())
      fields.push_back(i64c(size));
    SmallVector<Value> pointers;
    for (Value v : {src, dst}) {
      auto md = memref::ExtractStridedMetadataOp::create(b, loc, v);
      for (Value stride : md.getStrides())
        fields.push_back(i64(stride));
      Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
      Value bytes = arith::AddIOp::create(
          b, loc, i64(aligned),
          arith::MulIOp::create(b, loc, i64(md.getOffset()), i64c(elem)));
      pointers.push_back(LLVM::IntToPtrOp::create(b, loc, ptrType, bytes));
    }
    for (auto [i, f] : llvm::enumerate(fields))
      memref::StoreOp::create(
          b, loc, f, params,
          ValueRange{arith::ConstantIndexOp::create(b, loc, (int64_t)i)});
    Value block = LLVM::IntToPtrOp::create(
        b, loc, ptrType,
        i64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, params)));
    func::CallOp::create(b, loc, kCopy, TypeRange{},
                         ValueRange{block, pointers[0], pointers[1]});
    op->erase();
  }
};

} // namespace

//===- CheckAllocSizes.cpp - The --onnxc-check-alloc-sizes pass -----------===//
//
// bytes = esize * d0 * d1 * ... must fit in 2^63 - 1 with every d >= 0,
// checked before the allocation: statically for static dims, at run time
// (arith.mului_extended: an overflow leaves a non-zero high half) for the
// dynamic ones.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CHECKALLOCSIZES
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-check-alloc-sizes"

namespace {

constexpr StringLiteral kFailFn = "onnxc_rt_fail_alloc_size";
constexpr uint64_t kMaxBytes = INT64_MAX;

/// The bytes of one element; 0 when unknown (no check).
uint64_t elementBytes(Type t) {
  if (t.isIndex())
    return 8;
  if (t.isIntOrFloat())
    return (t.getIntOrFloatBitWidth() + 7) / 8;
  if (auto c = dyn_cast<ComplexType>(t))
    return 2 * elementBytes(c.getElementType());
  if (auto v = dyn_cast<VectorType>(t))
    if (v.hasStaticShape())
      return v.getNumElements() * elementBytes(v.getElementType());
  return 0;
}

/// "[2, ?, 4]".
std::string shapeString(MemRefType t) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(t.getShape()))
    s += (i ? ", " : "") +
         (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return s + "]";
}

struct CheckAllocSizesPass
    : public onnxc::impl::CheckAllocSizesBase<CheckAllocSizesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> allocs;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op))
        allocs.push_back(op);
    });
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << allocs.size()
                            << " allocations to check\n");
    for (Operation *op : allocs)
      if (failed(check(op)))
        return signalPassFailure();
  }

  LogicalResult check(Operation *op) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    uint64_t esize = elementBytes(type.getElementType());
    if (esize == 0)
      return success();
    // The static part, at compile time.
    uint64_t bytes = esize;
    for (int64_t d : type.getShape()) {
      if (d == 0)
        return success(); // no element, whatever the other dims
      if (!ShapedType::isDynamic(d))
        bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(d));
    }
    std::string label = nodeLabel(op->getLoc());
    if (bytes > kMaxBytes)
      return emitError(op->getLoc())
             << (label.empty() ? "" : label + ": ") << "a buffer of "
             << shapeString(type) << " elements of " << esize
             << " bytes holds more than 2^63 - 1 bytes";
    if (type.hasStaticShape())
      return success();

    // The dynamic dims, at run time.
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto i64 = b.getI64Type();
    ValueRange dynSizes = op->getOperands().take_front(type.getNumDynamicDims());
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value acc = arith::ConstantIntOp::create(b, loc, i64, (int64_t)bytes);
    // A negative dim fails; an overflowing product fails unless a later
    // dim is 0 (the buffer is empty: [2^32, 2^32, 0] is valid).
    Value bad, overflow, empty;
    auto orInto = [&](Value &acc, Value v) {
      acc = acc ? arith::OrIOp::create(b, loc, acc, v).getResult() : v;
    };
    auto orBad = [&](Value v) { orInto(bad, v); };
    SmallVector<Value> dims;
    unsigned next = 0;
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d)) {
        dims.push_back(arith::ConstantIntOp::create(b, loc, i64, d));
        continue;
      }
      Value v = arith::IndexCastOp::create(b, loc, i64, dynSizes[next++]);
      dims.push_back(v);
      orBad(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero));
      orInto(empty,
             arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, zero));
      auto mul = arith::MulUIExtendedOp::create(b, loc, acc, v);
      orInto(overflow, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             mul.getHigh(), zero));
      acc = mul.getLow();
    }
    orInto(overflow,
           arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, acc, zero));
    Value notEmpty = arith::XOrIOp::create(
        b, loc, empty, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    orBad(arith::AndIOp::create(b, loc, overflow, notEmpty));

    auto ifOp = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/false);
    OpBuilder then = ifOp.getThenBodyBuilder();
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    Value site = label.empty()
                     ? Value(LLVM::ZeroOp::create(then, loc, ptrTy))
                     : createMessageGlobal(then, loc, label);
    // onnxc_rt_fail_alloc_size(site, esize, rank, dims...): variadic, so
    // that the dims need no array (no alloca in the function).
    SmallVector<Value> args{
        site, arith::ConstantIntOp::create(then, loc, i64, (int64_t)esize),
        arith::ConstantIntOp::create(then, loc, i64, type.getRank())};
    args.append(dims.begin(), dims.end());
    LLVM::CallOp::create(then, loc, declareFail(b, loc, ptrTy, i64), args);
    return success();
  }

  LLVM::LLVMFuncOp declareFail(OpBuilder &b, Location loc, Type ptrTy,
                               Type i64) {
    ModuleOp module = getOperation();
    if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kFailFn))
      return fn;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fnTy = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(b.getContext()), {ptrTy, i64, i64},
        /*isVarArg=*/true);
    return LLVM::LLVMFuncOp::create(b, loc, kFailFn, fnTy);
  }
};

} // namespace

//===- DebugDump.cpp - The --onnxc-insert-debug-dumps pass ----------------===//
//
// onnxc --debug-dump: after every onnx op, each tensor result goes to the
// runtime (onnxc_rt_dump_tensor, runtime/src/dump.c) through a read-only
// bufferization.to_buffer, as convert-onnx-custom-to-call passes a custom
// op's inputs: an int64 block (an alloca at the function's entry) holds the
// buffer's address, dtype, rank, the result's index and its dims (tensor.dim
// of the run's value: symbolic dims are dumped with their actual size).
// Results no .npy holds (sequences, optionals, unranked tensors) are
// declared with onnxc_rt_dump_skip and the reason; onnx.Constant (weights,
// Constant nodes) and results of type none are not dumped. The entry
// functions call onnxc_rt_dump_begin first and onnxc_rt_dump_end before
// they return (the manifest). Passes.td describes it.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_INSERTDEBUGDUMPS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

constexpr StringLiteral kBegin = "onnxc_rt_dump_begin";
constexpr StringLiteral kTensor = "onnxc_rt_dump_tensor";
constexpr StringLiteral kSkip = "onnxc_rt_dump_skip";
constexpr StringLiteral kEnd = "onnxc_rt_dump_end";

/// onnxc_dtype of an element type (runtime.h); 0 when it has none.
int64_t dtypeOf(Type t) {
  if (t.isF32())
    return 1;
  if (t.isF64())
    return 11;
  if (t.isF16())
    return 10;
  if (t.isBF16())
    return 16;
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().isF32() ? 14 : c.getElementType().isF64() ? 15 : 0;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return 0;
  bool u = i.isUnsigned();
  switch (i.getWidth()) {
  case 1:
    return 9;
  case 8:
    return u ? 2 : 3;
  case 16:
    return u ? 4 : 5;
  case 32:
    return u ? 12 : 6;
  case 64:
    return u ? 13 : 7;
  default:
    return 0;
  }
}

struct Inserter {
  ModuleOp module;
  TypeConverter &tc;
  OpBuilder b;

  Inserter(ModuleOp module, TypeConverter &tc)
      : module(module), tc(tc), b(module.getContext()) {}

  void call(Location loc, StringRef name, ValueRange args) {
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      func::FuncOp::create(b, module.getLoc(), name,
                           b.getFunctionType(args.getTypes(), {}))
          .setPrivate();
    }
    func::CallOp::create(b, loc, name, TypeRange{}, args);
  }
  Value i64c(Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value message(Location loc, StringRef text) {
    return createMessageGlobal(b, loc, text, module);
  }

  /// The dumps of `op`'s results, after it.
  void dump(Operation *op, func::FuncOp fn) {
    Location loc = op->getLoc();
    NodeInfo info = getNodeInfo(loc);
    std::string site = info.name.empty() ? "?" : info.name;
    site += '\0';
    site += info.opType.empty() ? op->getName().stripDialect().str()
                                : info.opType;
    b.setInsertionPointAfter(op);
    for (OpResult r : op->getResults()) {
      Type type = r.getType();
      if (isa<NoneType>(type))
        continue;
      auto t = dyn_cast_or_null<RankedTensorType>(tc.convertType(type));
      // The dtype from the onnx type: the builtin one has signless integers.
      int64_t dtype =
          t ? dtypeOf(cast<ShapedType>(type).getElementType()) : 0;
      if (!t || t.getRank() > 16 || !dtype) {
        std::string reason;
        llvm::raw_string_ostream os(reason);
        if (!t)
          os << "its type " << type << " is not a tensor";
        else if (t.getRank() > 16)
          os << "its rank exceeds ONNXC_MAX_RANK";
        else
          os << "its element type " << t.getElementType()
             << " has no onnxc_dtype";
        call(loc, kSkip,
             {message(loc, site), i64c(loc, r.getResultNumber()),
              message(loc, reason)});
        continue;
      }
      // The block, in the function's frame (not in a loop body).
      Value block;
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&fn.getBody().front());
        block = memref::AllocaOp::create(
            b, loc, MemRefType::get({4 + t.getRank()}, b.getI64Type()));
      }
      Value v = r;
      if (t != type)
        v = UnrealizedConversionCastOp::create(b, loc, t, v).getResult(0);
      Value buf = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(t.getShape(), t.getElementType()), v,
          /*read_only=*/true);
      auto store = [&](int64_t slot, Value x) {
        memref::StoreOp::create(
            b, loc, x, block,
            ValueRange{arith::ConstantIndexOp::create(b, loc, slot)});
      };
      auto toI64 = [&](Value index) -> Value {
        return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
      };
      store(0, toI64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf)));
      store(1, i64c(loc, dtype));
      store(2, i64c(loc, t.getRank()));
      store(3, i64c(loc, r.getResultNumber()));
      for (int64_t d = 0; d < t.getRank(); ++d)
        store(4 + d, t.isDynamicDim(d)
                         ? toI64(tensor::DimOp::create(b, loc, v, d))
                         : i64c(loc, t.getDimSize(d)));
      auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
      Value blockPtr = LLVM::IntToPtrOp::create(
          b, loc, ptrTy,
          toI64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, block)));
      call(loc, kTensor, {message(loc, site), blockPtr});
    }
  }

  void runOn(func::FuncOp fn) {
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "onnx" &&
          !op->hasTrait<OpTrait::IsTerminator>() && op->getNumResults() > 0 &&
          !isa<ONNX::ConstantOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      dump(op, fn);
    if (!fn.isPublic())
      return;
    // The run: begin (the model's name) first, end before each return.
    Location loc = fn.getLoc();
    b.setInsertionPointToStart(&fn.getBody().front());
    call(loc, kBegin, {message(loc, fn.getSymName())});
    fn.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      call(ret.getLoc(), kEnd, {});
    });
  }
};

struct InsertDebugDumpsPass
    : public onnxc::impl::InsertDebugDumpsBase<InsertDebugDumpsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TypeConverter tc;
    populateONNXToLinalgTypeConversion(tc);
    Inserter inserter(module, tc);
    SmallVector<func::FuncOp> funcs;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        funcs.push_back(fn);
    for (func::FuncOp fn : funcs)
      inserter.runOn(fn);
  }
};

} // namespace

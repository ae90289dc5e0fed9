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
#include "passes/Conversion/RuntimeCall.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_INSERTDEBUGDUMPS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-insert-debug-dumps"

namespace {

constexpr StringLiteral kBegin = "onnxc_rt_dump_begin";
constexpr StringLiteral kTensor = "onnxc_rt_dump_tensor";
constexpr StringLiteral kSkip = "onnxc_rt_dump_skip";
constexpr StringLiteral kEnd = "onnxc_rt_dump_end";

struct Inserter : RuntimeCallBuilder {
  using RuntimeCallBuilder::RuntimeCallBuilder;

  /// The dumps of `op`'s results, after it.
  void dump(Operation *op, func::FuncOp fn) {
    loc = op->getLoc();
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
          t ? runtimeDType(cast<ShapedType>(type).getElementType()) : 0;
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
        call(kSkip,
             {message(site), i64c(r.getResultNumber()), message(reason)});
        continue;
      }
      // The block, in the function's frame (not in a loop body).
      Value block = paramsBlock(op, 4 + t.getRank());
      Value v = builtin(r);
      store(block, 0, address(readBuffer(v)));
      store(block, 1, i64c(dtype));
      store(block, 2, i64c(t.getRank()));
      store(block, 3, i64c(r.getResultNumber()));
      for (int64_t d = 0; d < t.getRank(); ++d)
        store(block, 4 + d, t.isDynamicDim(d) ? i64(dim(v, d))
                                              : i64c(t.getDimSize(d)));
      Value blockPtr = pointer(block);
      call(kTensor, {message(site), blockPtr});
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
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << fn.getSymName() << ": "
                            << ops.size() << " onnx ops dumped\n");
    for (Operation *op : ops)
      dump(op, fn);
    if (!fn.isPublic())
      return;
    // The run: begin (the model's name) first, end before each return.
    loc = fn.getLoc();
    b.setInsertionPointToStart(&fn.getBody().front());
    call(kBegin, {message(fn.getSymName())});
    fn.walk([&](func::ReturnOp ret) {
      setInsertionPoint(ret);
      call(kEnd, {});
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

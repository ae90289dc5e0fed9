//===- CustomToCall.cpp - --convert-onnx-custom-to-call -------------------===//
//
// onnx.Custom (a node of a domain onnxc does not know) -> a call of the
// user's kernel onnxc_custom_<domain>_<op> through the runtime
// (runtime/src/custom.c; the kernels' ABI is runtime/include/onnxc/custom_op.h,
// docs/custom-ops.md). Runs on the onnx dialect, before
// convert-onnx-to-linalg, as the int8 ukernel calls do: every input is read
// through a read-only bufferization.to_buffer placed right before the call,
// every output is a fresh memref.alloc handed back by bufferization.to_tensor
// (restrict, writable), and unrealized_conversion_casts bridge the onnx and
// builtin tensor types (convert-onnx-to-linalg folds them away).
//
// The call is described in an int64 block (an alloca at the function's
// entry; layout in runtime_abi.h): the node's name, domain and op type, the
// attributes (an encoded constant), then data address, dtype, rank and dims
// of each input and output. An output dim that the op's type leaves dynamic
// is -1 in the block; onnxc_rt_custom_shape has the user's
// onnxc_custom_<domain>_<op>_shape write it, and the allocation reads it
// back. The kernels are referenced by address (llvm.mlir.addressof of an
// external llvm.func): a missing one is an undefined symbol at link time.
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

#include <cstring>
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CONVERTONNXCUSTOMTOCALL
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "convert-onnx-custom-to-call"

namespace {

constexpr StringLiteral kShapeFn = "onnxc_rt_custom_shape";
constexpr StringLiteral kCallFn = "onnxc_rt_custom_call";

void appendI64(std::string &out, int64_t v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8); // little-endian targets only (x86-64, aarch64)
  out.append(bytes, 8);
}

/// The attribute blob of runtime/src/custom.c (decode_attrs).
std::string encodeAttrs(DictionaryAttr attrs) {
  std::string out;
  appendI64(out, attrs.size());
  for (NamedAttribute a : attrs) {
    Attribute v = a.getValue();
    std::string payload;
    int64_t kind = 0, count = 0;
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      kind = 2;
      appendI64(payload, i.getInt());
    } else if (auto f = dyn_cast<FloatAttr>(v)) {
      kind = 1;
      float x = (float)f.getValueAsDouble();
      payload.append(reinterpret_cast<const char *>(&x), 4);
    } else if (auto s = dyn_cast<StringAttr>(v)) {
      kind = 3;
      count = s.getValue().size();
      payload = s.getValue().str();
      payload.push_back('\0');
    } else if (auto ints = dyn_cast<DenseI64ArrayAttr>(v)) {
      kind = 7;
      count = ints.size();
      for (int64_t x : ints.asArrayRef())
        appendI64(payload, x);
    } else if (auto floats = dyn_cast<DenseF32ArrayAttr>(v)) {
      kind = 6;
      count = floats.size();
      for (float x : floats.asArrayRef())
        payload.append(reinterpret_cast<const char *>(&x), 4);
    }
    appendI64(out, kind);
    appendI64(out, count);
    out += a.getName().getValue().str();
    out.push_back('\0');
    out += payload;
  }
  return out;
}

struct Lowering : RuntimeCallBuilder {
  using RuntimeCallBuilder::RuntimeCallBuilder;

  Value ptrToI64(Value ptr) {
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  }
  /// The address of the external function `name` (int name(void *)).
  Value functionAddress(StringRef name) {
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      LLVM::LLVMFuncOp::create(
          b, module.getLoc(), name,
          LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrTy}));
    }
    return LLVM::AddressOfOp::create(b, loc, ptrTy, name);
  }
  LogicalResult rewrite(ONNX::CustomOp op);
};

LogicalResult Lowering::rewrite(ONNX::CustomOp op) {
  setInsertionPoint(op);
  std::string kernel = op.getKernelName();

  SmallVector<RankedTensorType> inTypes, outTypes;
  int64_t slots = 4;
  for (Value v : op.getInputs()) {
    auto t = dyn_cast_or_null<RankedTensorType>(tc.convertType(v.getType()));
    if (!t || !runtimeDType(t.getElementType()))
      return op.emitOpError() << "input of type " << v.getType()
                              << " has no onnxc_dtype";
    inTypes.push_back(t);
    slots += 3 + t.getRank();
  }
  for (Value v : op.getOutputs()) {
    auto t = dyn_cast_or_null<RankedTensorType>(tc.convertType(v.getType()));
    if (!t || !runtimeDType(t.getElementType()))
      return op.emitOpError() << "output of type " << v.getType()
                              << " has no onnxc_dtype";
    outTypes.push_back(t);
    slots += 3 + t.getRank();
  }

  // The block, in the frame of the function (an alloca in a loop would grow
  // the stack every iteration).
  Value block = paramsBlock(op, slots);
  std::string names = getNodeInfo(loc).name;
  names.push_back('\0');
  names += op.getDomain().str();
  names.push_back('\0');
  names += op.getOpType().str();
  store(block, 0, ptrToI64(message(names)));
  store(block, 1,
        op.getNodeAttrs().empty()
            ? i64c(0)
            : ptrToI64(message(encodeAttrs(op.getNodeAttrs()))));
  store(block, 2, i64c(inTypes.size()));
  store(block, 3, i64c(outTypes.size()));
  int64_t slot = 4;
  for (auto [v, t] : llvm::zip(op.getInputs(), inTypes)) {
    Value bt = builtin(v);
    store(block, slot++, address(readBuffer(bt)));
    store(block, slot++, i64c(runtimeDType(t.getElementType())));
    store(block, slot++, i64c(t.getRank()));
    for (int64_t d = 0; d < t.getRank(); ++d)
      store(block, slot++,
            t.isDynamicDim(d) ? i64(dim(bt, d)) : i64c(t.getDimSize(d)));
  }
  SmallVector<int64_t> outSlots;
  bool dynamic = false;
  for (RankedTensorType t : outTypes) {
    outSlots.push_back(slot);
    store(block, slot++, i64c(0));
    store(block, slot++, i64c(runtimeDType(t.getElementType())));
    store(block, slot++, i64c(t.getRank()));
    for (int64_t d = 0; d < t.getRank(); ++d) {
      store(block, slot++, i64c(t.isDynamicDim(d) ? -1 : t.getDimSize(d)));
      dynamic |= t.isDynamicDim(d);
    }
  }
  Value blockPtr = pointer(block);
  // The shape function writes the dynamic dims into the block.
  if (dynamic)
    call(kShapeFn, {blockPtr, functionAddress(kernel + "_shape")});
  SmallVector<Value> buffers;
  for (auto [t, base] : llvm::zip(outTypes, outSlots)) {
    SmallVector<Value> sizes(t.getRank());
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        sizes[d] = arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            memref::LoadOp::create(b, loc, block, ValueRange{idx(base + 3 + d)}));
    Value buf = alloc(t, sizes);
    store(block, base, address(buf));
    buffers.push_back(buf);
  }
  call(kCallFn, {blockPtr, functionAddress(kernel)});
  for (auto [out, buf] : llvm::zip(op.getOutputs(), buffers))
    out.replaceAllUsesWith(result(buf, out.getType()));
  op->erase();
  return success();
}

struct ConvertONNXCustomToCallPass
    : public onnxc::impl::ConvertONNXCustomToCallBase<
          ConvertONNXCustomToCallPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TypeConverter tc;
    populateONNXToLinalgTypeConversion(tc);
    Lowering lowering(module, tc);
    SmallVector<ONNX::CustomOp> ops;
    module.walk([&](ONNX::CustomOp op) { ops.push_back(op); });
    for (ONNX::CustomOp op : ops) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << op->getName() << " at "
                              << op->getLoc() << "\n");
      if (failed(lowering.rewrite(op)))
        return signalPassFailure();
    }
  }
};

} // namespace

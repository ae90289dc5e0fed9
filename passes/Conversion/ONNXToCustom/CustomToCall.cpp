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

namespace mlir::onnxc {
#define GEN_PASS_DEF_CONVERTONNXCUSTOMTOCALL
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

constexpr StringLiteral kShapeFn = "onnxc_rt_custom_shape";
constexpr StringLiteral kCallFn = "onnxc_rt_custom_call";

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

struct Lowering {
  ModuleOp module;
  TypeConverter &tc;
  OpBuilder b;
  Location loc;

  Lowering(ModuleOp module, TypeConverter &tc)
      : module(module), tc(tc), b(module.getContext()), loc(module.getLoc()) {}

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i64c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value i64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value builtin(Value v) {
    Type t = tc.convertType(v.getType());
    if (!t || t == v.getType())
      return v;
    return UnrealizedConversionCastOp::create(b, loc, t, v).getResult(0);
  }
  Value address(Value memref) {
    return i64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  }
  Value ptrToI64(Value ptr) {
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  }
  void store(Value block, int64_t slot, Value v) {
    memref::StoreOp::create(b, loc, v, block, ValueRange{idx(slot)});
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
  void call(StringRef name, ValueRange args) {
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                     b.getFunctionType(args.getTypes(), {}));
      fn.setPrivate();
    }
    func::CallOp::create(b, loc, name, TypeRange{}, args);
  }

  LogicalResult rewrite(ONNX::CustomOp op);
};

LogicalResult Lowering::rewrite(ONNX::CustomOp op) {
  loc = op.getLoc();
  b.setInsertionPoint(op);
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
  std::string kernel = op.getKernelName();

  SmallVector<RankedTensorType> inTypes, outTypes;
  int64_t slots = 4;
  for (Value v : op.getInputs()) {
    auto t = dyn_cast_or_null<RankedTensorType>(tc.convertType(v.getType()));
    if (!t || !dtypeOf(t.getElementType()))
      return op.emitOpError() << "input of type " << v.getType()
                              << " has no onnxc_dtype";
    inTypes.push_back(t);
    slots += 3 + t.getRank();
  }
  for (Value v : op.getOutputs()) {
    auto t = dyn_cast_or_null<RankedTensorType>(tc.convertType(v.getType()));
    if (!t || !dtypeOf(t.getElementType()))
      return op.emitOpError() << "output of type " << v.getType()
                              << " has no onnxc_dtype";
    outTypes.push_back(t);
    slots += 3 + t.getRank();
  }

  // The block, in the frame of the function (an alloca in a loop would grow
  // the stack every iteration).
  Value block;
  {
    auto fn = op->getParentOfType<func::FuncOp>();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fn.getBody().front());
    block = memref::AllocaOp::create(
        b, loc, MemRefType::get({slots}, b.getI64Type()));
  }
  std::string names = getNodeInfo(loc).name;
  names.push_back('\0');
  names += op.getDomain().str();
  names.push_back('\0');
  names += op.getOpType().str();
  store(block, 0, ptrToI64(createMessageGlobal(b, loc, names, module)));
  store(block, 1,
        op.getNodeAttrs().empty()
            ? i64c(0)
            : ptrToI64(createMessageGlobal(b, loc, encodeAttrs(op.getNodeAttrs()),
                                           module)));
  store(block, 2, i64c(inTypes.size()));
  store(block, 3, i64c(outTypes.size()));
  int64_t slot = 4;
  for (auto [v, t] : llvm::zip(op.getInputs(), inTypes)) {
    Value bt = builtin(v);
    Value buf = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(t.getShape(), t.getElementType()), bt,
        /*read_only=*/true);
    store(block, slot++, address(buf));
    store(block, slot++, i64c(dtypeOf(t.getElementType())));
    store(block, slot++, i64c(t.getRank()));
    for (int64_t d = 0; d < t.getRank(); ++d)
      store(block, slot++,
            t.isDynamicDim(d) ? i64(tensor::DimOp::create(b, loc, bt, d))
                              : i64c(t.getDimSize(d)));
  }
  SmallVector<int64_t> outSlots;
  bool dynamic = false;
  for (RankedTensorType t : outTypes) {
    outSlots.push_back(slot);
    store(block, slot++, i64c(0));
    store(block, slot++, i64c(dtypeOf(t.getElementType())));
    store(block, slot++, i64c(t.getRank()));
    for (int64_t d = 0; d < t.getRank(); ++d) {
      store(block, slot++, i64c(t.isDynamicDim(d) ? -1 : t.getDimSize(d)));
      dynamic |= t.isDynamicDim(d);
    }
  }
  Value blockPtr = LLVM::IntToPtrOp::create(b, loc, ptrTy, address(block));
  // The shape function writes the dynamic dims into the block.
  if (dynamic)
    call(kShapeFn, {blockPtr, functionAddress(kernel + "_shape")});
  SmallVector<Value> buffers;
  for (auto [t, base] : llvm::zip(outTypes, outSlots)) {
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        sizes.push_back(arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            memref::LoadOp::create(b, loc, block, ValueRange{idx(base + 3 + d)})));
    Value buf = memref::AllocOp::create(
        b, loc, MemRefType::get(t.getShape(), t.getElementType()), sizes,
        b.getI64IntegerAttr(64));
    store(block, base, address(buf));
    buffers.push_back(buf);
  }
  call(kCallFn, {blockPtr, functionAddress(kernel)});
  for (auto [result, buf, t] : llvm::zip(op.getOutputs(), buffers, outTypes)) {
    Value tensor = bufferization::ToTensorOp::create(b, loc, t, buf,
                                                     /*restrict=*/true,
                                                     /*writable=*/true);
    if (tensor.getType() != result.getType())
      tensor = UnrealizedConversionCastOp::create(b, loc, result.getType(), tensor)
                   .getResult(0);
    result.replaceAllUsesWith(tensor);
  }
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
    for (ONNX::CustomOp op : ops)
      if (failed(lowering.rewrite(op)))
        return signalPassFailure();
  }
};

} // namespace

//===- RuntimeCall.cpp - Calls of the C runtime from the onnx dialect -----===//
//
// See RuntimeCall.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/RuntimeCall.h"

#include "lib/Support/NodeLocation.h"
#include "runtime/include/onnxc/runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;

int64_t mlir::onnxc::runtimeDType(Type t) {
  if (t.isF32())
    return ONNXC_DTYPE_FLOAT;
  if (t.isF64())
    return ONNXC_DTYPE_DOUBLE;
  if (t.isF16())
    return ONNXC_DTYPE_FLOAT16;
  if (t.isBF16())
    return ONNXC_DTYPE_BFLOAT16;
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().isF32()   ? ONNXC_DTYPE_COMPLEX64
           : c.getElementType().isF64() ? ONNXC_DTYPE_COMPLEX128
                                        : ONNXC_DTYPE_UNDEFINED;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return ONNXC_DTYPE_UNDEFINED;
  bool u = i.isUnsigned();
  switch (i.getWidth()) {
  case 1:
    return ONNXC_DTYPE_BOOL;
  case 8:
    return u ? ONNXC_DTYPE_UINT8 : ONNXC_DTYPE_INT8;
  case 16:
    return u ? ONNXC_DTYPE_UINT16 : ONNXC_DTYPE_INT16;
  case 32:
    return u ? ONNXC_DTYPE_UINT32 : ONNXC_DTYPE_INT32;
  case 64:
    return u ? ONNXC_DTYPE_UINT64 : ONNXC_DTYPE_INT64;
  default:
    return ONNXC_DTYPE_UNDEFINED;
  }
}

RuntimeCallBuilder::RuntimeCallBuilder(ModuleOp module, const TypeConverter &tc)
    : module(module), tc(tc), b(module.getContext()), loc(module.getLoc()) {}

void RuntimeCallBuilder::setInsertionPoint(Operation *op) {
  b.setInsertionPoint(op);
  loc = op->getLoc();
}

Value RuntimeCallBuilder::builtin(Value v) {
  Type t = tc.convertType(v.getType());
  if (!t || t == v.getType())
    return v;
  return UnrealizedConversionCastOp::create(b, loc, t, v).getResult(0);
}

Value RuntimeCallBuilder::idx(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value RuntimeCallBuilder::i64c(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value RuntimeCallBuilder::i64(Value index) {
  return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), index);
}

Value RuntimeCallBuilder::dim(Value tensor, int64_t d) {
  auto t = cast<RankedTensorType>(tensor.getType());
  if (!t.isDynamicDim(d))
    return idx(t.getDimSize(d));
  return tensor::DimOp::create(b, loc, tensor, d);
}

Value RuntimeCallBuilder::address(Value memref) {
  return i64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
}

Value RuntimeCallBuilder::pointer(Value memref) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address(memref));
}

Value RuntimeCallBuilder::readBuffer(Value tensor) {
  Value t = builtin(tensor);
  auto tt = cast<RankedTensorType>(t.getType());
  return bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(tt.getShape(), tt.getElementType()), t,
      /*read_only=*/true);
}

Value RuntimeCallBuilder::alloc(RankedTensorType t, ArrayRef<Value> sizes) {
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (t.isDynamicDim(i))
      dyn.push_back(sizes[i]);
  return memref::AllocOp::create(
      b, loc, MemRefType::get(t.getShape(), t.getElementType()), dyn,
      b.getI64IntegerAttr(64));
}

Value RuntimeCallBuilder::result(Value memref, Type onnxType) {
  auto m = cast<MemRefType>(memref.getType());
  Value t = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(m.getShape(), m.getElementType()), memref,
      /*restrict=*/true, /*writable=*/true);
  if (t.getType() == onnxType)
    return t;
  return UnrealizedConversionCastOp::create(b, loc, onnxType, t).getResult(0);
}

Value RuntimeCallBuilder::paramsBlock(Operation *at, int64_t slots) {
  auto fn = at->getParentOfType<func::FuncOp>();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&fn.getBody().front());
  return memref::AllocaOp::create(b, loc,
                                  MemRefType::get({slots}, b.getI64Type()));
}

void RuntimeCallBuilder::store(Value block, int64_t slot, Value v) {
  memref::StoreOp::create(b, loc, v, block, ValueRange{idx(slot)});
}

void RuntimeCallBuilder::call(StringRef name, ValueRange args) {
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(b, module.getLoc(), name,
                         b.getFunctionType(args.getTypes(), {}))
        .setPrivate();
  }
  func::CallOp::create(b, loc, name, TypeRange{}, args);
}

Value RuntimeCallBuilder::message(StringRef text) {
  return createMessageGlobal(b, loc, text, module);
}

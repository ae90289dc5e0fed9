//===- PromoteF16.cpp - The onnx-promote-f16 pass --------------------------===//
//
// float16 ops computed in float32 (Passes.td has the contract). Each
// promotable op gets f32 operands (a constant's twin is folded, any other
// value gets a Cast after its definition, made once) and f32 results, and a
// Cast back to f16 after it for the users that still want f16 (the
// function's results, ops that stay f16). A Cast from f16 to f32 of a value
// that has an f32 twin reads the twin. Casts back that end up unused go.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Constants.h"
#include "passes/ONNX/Passes.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/ONNXOps.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"

#include <cstring>

#define DEBUG_TYPE "onnx-promote-f16"

namespace mlir::onnxc {
#define GEN_PASS_DEF_ONNXPROMOTEF16
#include "passes/ONNX/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// onnx TensorProto data types of the Casts the pass makes.
constexpr int64_t kFloat = 1, kFloat16 = 10;

bool isF16Tensor(Type t) {
  auto tt = dyn_cast<TensorType>(t);
  return tt && tt.getElementType().isF16();
}

/// `t` (an f16 tensor type) with f32 elements, same shape and dim names.
Type toF32(Type t) {
  Type f32 = Float32Type::get(t.getContext());
  if (auto r = dyn_cast<RankedTensorType>(t))
    return RankedTensorType::get(r.getShape(), f32, r.getEncoding());
  return UnrankedTensorType::get(f32);
}

/// Ops that keep their f16 types: those whose element type comes from an
/// attribute or is part of their arithmetic (Range's length, quantization
/// scales), random generators, and shape queries that read no data.
const llvm::StringSet<> &keptOps() {
  static const llvm::StringSet<> ops = {
      "onnx.Constant",        "onnx.Cast",              "onnx.CastLike",
      "onnx.ConstantOfShape", "onnx.EyeLike",           "onnx.Range",
      "onnx.RandomNormal",    "onnx.RandomNormalLike",  "onnx.RandomUniform",
      "onnx.RandomUniformLike", "onnx.Bernoulli",       "onnx.Multinomial",
      "onnx.QuantizeLinear",  "onnx.DequantizeLinear",
      "onnx.DynamicQuantizeLinear", "onnx.Shape",       "onnx.Size",
      "onnx.NoValue"};
  return ops;
}

/// Whether `op` computes in f32 instead of f16: an ai.onnx op without
/// regions whose operands and results are all tensors or absent, one of
/// them f16, and not one of keptOps.
bool isPromotable(Operation *op) {
  if (!isa<ONNX::ONNXDialect>(op->getDialect()) || op->getNumRegions() ||
      op->hasTrait<OpTrait::IsTerminator>())
    return false;
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("onnx.ml.") || name.starts_with("onnx.training.") ||
      keptOps().contains(name))
    return false;
  bool any = false;
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes())) {
    if (!isa<TensorType, NoneType>(t))
      return false;
    any |= isF16Tensor(t);
  }
  return any;
}

/// The f32 twin of an f16 onnx.Constant, or null when its data is not
/// readable.
Value foldConstant(OpBuilder &b, Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  std::optional<std::vector<char>> bytes = getConstantBytes(v);
  if (!type || !bytes)
    return {};
  size_t n = bytes->size() / 2;
  std::vector<char> out(n * 4);
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, bytes->data() + 2 * i, 2);
    float f = halfToFloat(h);
    std::memcpy(out.data() + 4 * i, &f, 4);
  }
  return createConstant(b, v.getLoc(), cast<RankedTensorType>(toF32(type)),
                        out, "f32_weight");
}

Value createCast(OpBuilder &b, Location loc, Value v, Type to, int64_t code) {
  return ONNX::CastOp::create(
             b, loc, TypeRange{to}, ValueRange{v},
             ArrayRef<NamedAttribute>{
                 b.getNamedAttr("to", b.getI64IntegerAttr(code))})
      .getResult();
}

struct ONNXPromoteF16Pass
    : public onnxc::impl::ONNXPromoteF16Base<ONNXPromoteF16Pass> {
  /// f16 value -> the f32 value that stands for it.
  DenseMap<Value, Value> twins;

  /// The f32 value standing for the f16 value `v`, made after v's
  /// definition the first time.
  Value twinOf(Value v) {
    if (Value t = twins.lookup(v))
      return t;
    OpBuilder b(v.getContext());
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    Value t = foldConstant(b, v);
    if (!t)
      t = createCast(b, v.getLoc(), v, toF32(v.getType()), kFloat);
    return twins[v] = t;
  }

  void runOnOperation() override {
    twins.clear();
    SmallVector<Operation *> ops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<ONNX::ONNXDialect>(op->getDialect()))
        ops.push_back(op);
    });
    SmallVector<Operation *> backCasts, deadCasts;
    unsigned promoted = 0;
    for (Operation *op : ops) {
      // Cast(x: f16 -> f32) of a promoted x reads x's f32 twin.
      if (auto c = dyn_cast<ONNX::CastOp>(op)) {
        Value in = c.getInput();
        if (isF16Tensor(in.getType()) &&
            getElementTypeOrSelf(c.getType()).isF32() && twins.count(in) &&
            twins.lookup(in).getType() == c.getType()) {
          c.getResult().replaceAllUsesWith(twins.lookup(in));
          deadCasts.push_back(op);
        }
        continue;
      }
      if (!isPromotable(op))
        continue;
      ++promoted;
      for (OpOperand &o : op->getOpOperands())
        if (isF16Tensor(o.get().getType()))
          o.set(twinOf(o.get()));
      OpBuilder b(op);
      b.setInsertionPointAfter(op);
      for (Value r : op->getResults()) {
        if (!isF16Tensor(r.getType()))
          continue;
        Type f16 = r.getType();
        r.setType(toF32(f16));
        Value back = createCast(b, op->getLoc(), r, f16, kFloat16);
        r.replaceAllUsesExcept(back, back.getDefiningOp());
        twins[back] = r;
        backCasts.push_back(back.getDefiningOp());
      }
    }
    for (Operation *op : deadCasts)
      op->erase();
    for (Operation *op : backCasts)
      if (op->use_empty())
        op->erase();
    LLVM_DEBUG(llvm::dbgs() << "onnx-promote-f16: " << promoted
                            << " ops promoted\n");
  }
};

} // namespace

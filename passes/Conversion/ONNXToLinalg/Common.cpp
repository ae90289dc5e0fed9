//===- Common.cpp - Helpers shared by the onnx -> linalg patterns ---------===//
//
// Constants, shapes and run-time checks (the broadcasting elementwise
// builder: Elementwise.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/NarrowTypes.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/MathExtras.h"

#include <cctype>
#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;

namespace mlir::onnxc::linalg_conv {

Type getElementType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

bool isUnsignedInt(Type t) {
  auto intTy = dyn_cast<IntegerType>(t);
  return intTy && intTy.isUnsigned();
}

Value createScalarConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, value));
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, (int64_t)value);
  auto it = cast<IntegerType>(type);
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(it, APInt(it.getWidth(), (int64_t)value,
                                         /*isSigned=*/true, /*implicitTrunc=*/true)));
}

Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, value);
  auto it = cast<IntegerType>(type);
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(it, APInt(it.getWidth(), value, true, true)));
}

Value createIndexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The signless builtin counterpart of an onnx scalar element type.
static Type signless(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

// ONNX Cast between numeric types: bool -> x is 0/1; x -> bool is x != 0;
// int widening follows the source signedness; float -> int truncates toward
// zero; float narrowing rounds to nearest even.
Value convertScalar(OpBuilder &b, Location loc, Value v, Type fromOnnx,
                    Type toOnnx, bool saturate) {
  if (fromOnnx == toOnnx)
    return v;
  if (isNarrowType(fromOnnx)) {
    v = decodeNarrow(b, loc, v, fromOnnx);
    fromOnnx = narrowComputeType(fromOnnx);
  }
  if (isNarrowType(toOnnx))
    return encodeNarrow(b, loc, v, fromOnnx, toOnnx, saturate);
  Type from = signless(fromOnnx), to = signless(toOnnx);
  if (from == to)
    return v;
  bool fromBool = from.isInteger(1), toBool = to.isInteger(1);
  if (toBool) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                   createScalarConstant(b, loc, from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                 createIntConstant(b, loc, from, 0));
  }
  if (auto ft = dyn_cast<FloatType>(to)) {
    if (auto ff = dyn_cast<FloatType>(from)) {
      if (ff.getWidth() == ft.getWidth()) { // f16 <-> bf16 through f32
        v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
        return arith::TruncFOp::create(b, loc, ft, v);
      }
      if (ff.getWidth() < ft.getWidth())
        return arith::ExtFOp::create(b, loc, ft, v);
      return arith::TruncFOp::create(b, loc, ft, v);
    }
    if (fromBool || isUnsignedInt(fromOnnx))
      return arith::UIToFPOp::create(b, loc, ft, v);
    return arith::SIToFPOp::create(b, loc, ft, v);
  }
  auto it = cast<IntegerType>(to);
  if (isa<FloatType>(from)) {
    // Saturating: NaN is 0, values beyond the integer type its minimum or
    // maximum. (fptosi/fptoui give poison there, and poison reaching a
    // check, an index from a Cast, is undefined behaviour.)
    bool isUnsigned = isUnsignedInt(toOnnx);
    unsigned w = it.getWidth();
    double hi = isUnsigned ? std::ldexp(1.0, w) : std::ldexp(1.0, w - 1);
    double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, w - 1);
    Value tooBig = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, v,
                                         createScalarConstant(b, loc, from, hi));
    Value tooSmall =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v,
                              createScalarConstant(b, loc, from, lo));
    Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    Value out = arith::OrIOp::create(
        b, loc, arith::OrIOp::create(b, loc, tooBig, tooSmall), nan);
    Value safe = arith::SelectOp::create(
        b, loc, out, createScalarConstant(b, loc, from, 0), v);
    Value r = isUnsigned ? Value(arith::FPToUIOp::create(b, loc, it, safe))
                         : Value(arith::FPToSIOp::create(b, loc, it, safe));
    APInt max = isUnsigned ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w);
    APInt min = isUnsigned ? APInt::getMinValue(w) : APInt::getSignedMinValue(w);
    r = arith::SelectOp::create(
        b, loc, tooBig,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, max)), r);
    return arith::SelectOp::create(
        b, loc, tooSmall,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, min)), r);
  }
  unsigned fw = from.getIntOrFloatBitWidth();
  if (fw > it.getWidth())
    return arith::TruncIOp::create(b, loc, it, v);
  if (fromBool || isUnsignedInt(fromOnnx))
    return arith::ExtUIOp::create(b, loc, it, v);
  return arith::ExtSIOp::create(b, loc, it, v);
}

/// The elements attribute behind an onnx.Constant / arith.constant value.
static ElementsAttr getConstantElements(Value orig, Value converted) {
  if (converted)
    if (auto c = converted.getDefiningOp<arith::ConstantOp>())
      if (auto e = dyn_cast<ElementsAttr>(c.getValue()))
        return e;
  if (orig)
    if (auto c = orig.getDefiningOp<ONNX::ConstantOp>()) {
      if (auto v = c.getValueAttr())
        return v;
      if (auto v = c.getValueIntAttr())
        return DenseElementsAttr::get(
            RankedTensorType::get({}, v.getType()), ArrayRef<Attribute>{v});
      if (auto v = c.getValueIntsAttr())
        return DenseElementsAttr::get(
            RankedTensorType::get({(int64_t)v.size()},
                                  IntegerType::get(orig.getContext(), 64)),
            v.asArrayRef());
    }
  return {};
}

std::optional<SmallVector<int64_t>> getConstantInts(Value orig,
                                                    Value converted) {
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(
      getConstantElements(orig, converted));
  if (!dense)
    return std::nullopt;
  bool isUnsigned = isUnsignedInt(dense.getElementType());
  SmallVector<int64_t> out;
  for (const APInt &v : dense.getValues<APInt>())
    out.push_back(isUnsigned ? (int64_t)v.getZExtValue() : v.getSExtValue());
  return out;
}

std::optional<SmallVector<double>> getConstantFloats(Value orig,
                                                     Value converted) {
  auto dense = dyn_cast_or_null<DenseFPElementsAttr>(
      getConstantElements(orig, converted));
  if (!dense)
    return std::nullopt;
  SmallVector<double> out;
  for (const APFloat &v : dense.getValues<APFloat>())
    out.push_back(v.convertToDouble());
  return out;
}

Value getDimValue(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.isDynamicDim(dim))
    return createIndexConstant(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, v, dim);
}

OpFoldResult getDimOFR(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, v, dim).getResult();
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> sizes) {
  SmallVector<Value> dyn;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(sizes[i]);
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dyn);
}

Value createEmptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                      Value like) {
  SmallVector<Value> dyn;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(tensor::DimOp::create(b, loc, like, i));
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dyn);
}

Value cmpI(OpBuilder &b, Location l, arith::CmpIPredicate p, Value x,
           Value y) {
  return b.createOrFold<arith::CmpIOp>(l, p, x, y);
}

SmallVector<Value>
buildIf(OpBuilder &b, Location l, Value cond, ValueRange elseValues,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> thenFn) {
  auto ifOp = scf::IfOp::create(b, l, elseValues.getTypes(), cond,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, l, thenFn(b, l));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, l, elseValues);
  }
  return ifOp.getResults();
}

SmallVector<Value> buildWhile(
    OpBuilder &b, Location loc, ValueRange inits,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cond,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  TypeRange types = inits.getTypes();
  SmallVector<Location> locs(types.size(), loc);
  auto whileOp = scf::WhileOp::create(b, loc, types, inits);
  OpBuilder::InsertionGuard g(b);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  scf::ConditionOp::create(b, loc, cond(b, loc, before->getArguments()),
                           before->getArguments());
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  scf::YieldOp::create(b, loc, body(b, loc, after->getArguments()));
  return whileOp.getResults();
}

SmallVector<utils::IteratorType> parallelIterators(unsigned n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

/// ONNXC_ERROR_RUNTIME in runtime/include/onnxc/runtime.h.
static constexpr int32_t kErrorRuntime = 5;
static constexpr StringLiteral kFailFn = "onnxc_rt_fail";
static constexpr StringLiteral kFailValuesFn = "onnxc_rt_fail_values";

std::string runtimeMessage(Location loc, StringRef message) {
  std::string label = nodeLabel(loc);
  // Lowerings write "Op: reason" (sometimes the op of a family: "Scatter"
  // for ScatterElements); the label names the op already.
  StringRef reason = message;
  size_t colon = reason.find(": ");
  if (!label.empty() && colon != StringRef::npos && colon > 0 &&
      isupper(static_cast<unsigned char>(reason[0])) &&
      llvm::all_of(reason.take_front(colon),
                   [](char ch) { return isalnum(static_cast<unsigned char>(ch)); }))
    reason = reason.drop_front(colon + 2);
  std::string text;
  for (size_t i = 0; i < reason.size(); ++i) {
    if (reason.substr(i).starts_with("{}")) {
      text.push_back('\x01'); // onnxc_rt_fail_values' placeholder
      ++i;
      continue;
    }
    text.push_back(reason[i]);
  }
  return label.empty() ? text : label + ": " + text;
}

/// The module of the insertion point, or of `anchor` when given (a builder
/// inside a region under construction, such as a linalg body, reaches no
/// module).
static ModuleOp moduleFor(OpBuilder &b, Operation *anchor) {
  if (anchor)
    return isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                 : anchor->getParentOfType<ModuleOp>();
  Operation *scope = b.getInsertionBlock()->getParentOp();
  assert(scope && "a run-time check inside a detached region needs an anchor");
  return isa<ModuleOp>(scope) ? cast<ModuleOp>(scope)
                              : scope->getParentOfType<ModuleOp>();
}

/// Declares `name` (private, no results) in `module` unless it exists.
static void declareRuntimeFn(OpBuilder &b, Location loc, ModuleOp module,
                             StringRef name, ArrayRef<Type> args) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType(args, {}));
  fn.setPrivate();
}

void emitRuntimeCheck(OpBuilder &b, Location loc, Value cond,
                      StringRef message, ValueRange values) {
  emitRuntimeCheck(b, loc, nullptr, cond, message, values);
}

void emitRuntimeCheck(OpBuilder &b, Location loc, Operation *anchor,
                      Value cond, StringRef message, ValueRange values) {
  if (auto c = getConstantIntValue(cond); c && *c)
    return;
  assert(values.size() <= 3 && "onnxc_rt_fail_values takes 3 values");
  ModuleOp module = moduleFor(b, anchor);
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
  auto i64 = b.getI64Type();
  Value ok = arith::XOrIOp::create(
      b, loc, cond, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  // The then-block's ops go through b's listener: under a
  // ConversionPatternRewriter, a pattern that fails after this check rolls
  // back the scf.if and unlinks its block's ops, freeing only those the
  // rewriter saw created (an untracked builder leaked them: fuzz-findings.test,
  // lstm-initial-h-leak.onnx).
  OpBuilder then = ifOp.getThenBodyBuilder(b.getListener());
  Value code = arith::ConstantOp::create(then, loc,
                                         then.getI32IntegerAttr(kErrorRuntime));
  Value msg =
      createMessageGlobal(then, loc, runtimeMessage(loc, message), module);
  if (values.empty()) {
    declareRuntimeFn(b, loc, module, kFailFn, {b.getI32Type(), ptrTy});
    func::CallOp::create(then, loc, kFailFn, TypeRange{}, ValueRange{code, msg});
    return;
  }
  declareRuntimeFn(b, loc, module, kFailValuesFn,
                   {b.getI32Type(), ptrTy, i64, i64, i64});
  SmallVector<Value> args{code, msg};
  for (Value v : values) {
    if (v.getType().isIndex())
      v = arith::IndexCastOp::create(then, loc, i64, v);
    else if (v.getType().getIntOrFloatBitWidth() < 64)
      v = v.getType().isInteger(1) ? Value(arith::ExtUIOp::create(then, loc, i64, v))
                                   : Value(arith::ExtSIOp::create(then, loc, i64, v));
    args.push_back(v);
  }
  while (args.size() < 5)
    args.push_back(createIntConstant(then, loc, i64, 0));
  func::CallOp::create(then, loc, kFailValuesFn, TypeRange{}, args);
}

Value checkedMul(OpBuilder &b, Location loc, Value x, Value y,
                 StringRef message) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  int64_t product;
  if (cx && cy && *cx >= 0 && *cy >= 0 &&
      !llvm::MulOverflow(*cx, *cy, product))
    return createIndexConstant(b, loc, product);
  auto i64 = b.getI64Type();
  Value x64 = arith::IndexCastOp::create(b, loc, i64, x);
  Value y64 = arith::IndexCastOp::create(b, loc, i64, y);
  Value zero = createIntConstant(b, loc, i64, 0);
  auto mul = arith::MulUIExtendedOp::create(b, loc, x64, y64);
  Value ok = arith::AndIOp::create(
      b, loc, cmpI(b, loc, arith::CmpIPredicate::sge, x64, zero),
      cmpI(b, loc, arith::CmpIPredicate::sge, y64, zero));
  ok = arith::AndIOp::create(
      b, loc, ok, cmpI(b, loc, arith::CmpIPredicate::eq, mul.getHigh(), zero));
  ok = arith::AndIOp::create(
      b, loc, ok, cmpI(b, loc, arith::CmpIPredicate::sge, mul.getLow(), zero));
  emitRuntimeCheck(b, loc, ok, message, {x, y});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), mul.getLow());
}

Value checkedAdd(OpBuilder &b, Location loc, Value x, Value y,
                 StringRef message) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  int64_t sum;
  if (cx && cy && !llvm::AddOverflow(*cx, *cy, sum))
    return createIndexConstant(b, loc, sum);
  Value r = arith::AddIOp::create(b, loc, x, y);
  // Signed overflow: both operands differ in sign from the sum.
  Value both = arith::AndIOp::create(b, loc, arith::XOrIOp::create(b, loc, x, r),
                                     arith::XOrIOp::create(b, loc, y, r));
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::sge, both,
                        createIndexConstant(b, loc, 0)),
                   message, {x, y});
  return r;
}

Value floatToSize(OpBuilder &b, Location loc, Value f, StringRef message) {
  auto f64 = b.getF64Type();
  if (f.getType() != f64)
    f = arith::ExtFOp::create(b, loc, f64, f);
  Value ok = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, f,
                            createScalarConstant(b, loc, f64, 0)),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, f,
                            createScalarConstant(b, loc, f64, 0x1p63)));
  emitRuntimeCheck(b, loc, ok, message);
  Value safe = arith::SelectOp::create(b, loc, ok, f,
                                       createScalarConstant(b, loc, f64, 0));
  Value i = arith::FPToSIOp::create(b, loc, b.getI64Type(), safe);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
}

StringRef dimName(Value orig, int64_t dim) {
  if (!orig)
    return "";
  auto t = dyn_cast<RankedTensorType>(orig.getType());
  if (!t || !t.isDynamicDim(dim))
    return "";
  return ONNX::getDimName(t, dim);
}

} // namespace mlir::onnxc::linalg_conv

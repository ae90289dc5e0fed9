//===- Verify.cpp - Checks shared by every ONNX op ------------------------===//
//
// The ONNXOpTrait verifier: what holds for every op (arity of the variadic
// input, region terminators), then the op's own checks from ops/*.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/OpInfo.h"
#include "dialects/ONNX/IR/VerifyUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX;
using namespace mlir::onnxc::ONNX::verify;

const VerifierTable &mlir::onnxc::ONNX::verify::getVerifierTable() {
  static const VerifierTable table = [] {
    VerifierTable t;
    registerMathVerifiers(t);
    registerNNVerifiers(t);
    registerTensorVerifiers(t);
    registerControlFlowVerifiers(t);
    return t;
  }();
  return table;
}

static LogicalResult verifyArity(Operation *op, const OpInfo &info,
                                 bool inputs) {
  ArrayRef<ParamInfo> params = inputs ? info.getInputs() : info.getOutputs();
  unsigned actual = inputs ? op->getNumOperands() : op->getNumResults();
  if (params.empty() || params.back().option != ParamInfo::Variadic)
    return success();
  unsigned fixed = params.size() - 1;
  int minArity = params.back().minArity;
  if (actual < fixed + minArity)
    return op->emitOpError() << "expects at least " << minArity << " '"
                             << params.back().name << "' "
                             << (inputs ? "input" : "output") << "(s), got "
                             << (actual < fixed ? 0 : actual - fixed);
  return success();
}

/// The element type of a tensor value; null for other values (none, not
/// yet inferred, sequences).
static Type tensorElementType(Value v) {
  if (auto t = llvm::dyn_cast<TensorType>(v.getType()))
    return t.getElementType();
  return {};
}

/// Inputs bound to one type parameter of the schema ("T" of Add's A and B)
/// have one element type. ODS checks each value against the parameter's
/// allowed types; this checks that they agree (Add(float, int64) lowered to
/// an arith.addf of an i64 before). Results are inference's to check.
static LogicalResult verifyTypeParams(Operation *op, const OpInfo &info) {
  ArrayRef<ParamInfo> params = info.getInputs();
  if (params.empty())
    return success();
  // First input seen per type parameter.
  llvm::StringMap<unsigned> bound;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    const ParamInfo &p = params[std::min<size_t>(i, params.size() - 1)];
    bool inVariadic = i + 1 >= params.size() && p.option == ParamInfo::Variadic;
    if (!p.typeParam || (inVariadic && !p.homogeneous) ||
        (i >= params.size() && !inVariadic))
      continue;
    Type t = tensorElementType(v);
    if (!t)
      continue;
    auto [it, fresh] = bound.try_emplace(p.typeParam, (unsigned)i);
    Type first = tensorElementType(op->getOperand(it->second));
    if (fresh || first == t)
      continue;
    const ParamInfo &q = params[std::min<size_t>(it->second, params.size() - 1)];
    return op->emitOpError()
           << "input " << it->second << " ('" << q.name << "') and input " << i
           << " ('" << p.name << "') must have one element type (type "
           << "parameter " << p.typeParam << "), got " << first << " and " << t;
  }
  return success();
}

LogicalResult mlir::onnxc::ONNX::verifyONNXOp(Operation *op) {
  const OpInfo *info = lookupOpInfo(op);
  if (!info)
    return success();
  if (failed(verifyArity(op, *info, true)) ||
      failed(verifyArity(op, *info, false)) ||
      failed(verifyTypeParams(op, *info)))
    return failure();
  for (Region &region : op->getRegions()) {
    if (region.empty())
      continue;
    Operation *term = region.front().empty() ? nullptr : &region.front().back();
    if (!term || term->getName().getStringRef() != "onnx.Yield")
      return op->emitOpError() << "region must end in onnx.Yield";
  }
  if (OpVerifyFn fn = getVerifierTable().fns.lookup(op->getName().getStringRef()))
    return fn(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> verify::getRank(Value v) {
  if (auto t = llvm::dyn_cast<RankedTensorType>(v.getType()))
    return t.getRank();
  return std::nullopt;
}

bool verify::isNone(Value v) { return llvm::isa<NoneType>(v.getType()); }

int64_t verify::getInt(Operation *op, StringRef name, int64_t dflt) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return dflt;
}

std::optional<ArrayRef<int64_t>> verify::getInts(Operation *op,
                                                 StringRef name) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return a.asArrayRef();
  return std::nullopt;
}

StringRef verify::getStr(Operation *op, StringRef name, StringRef dflt) {
  if (auto a = op->getAttrOfType<StringAttr>(name))
    return a.getValue();
  return dflt;
}

LogicalResult verify::checkAxis(Operation *op, StringRef what, int64_t axis,
                                int64_t rank, bool inclusive) {
  int64_t hi = inclusive ? rank : rank - 1;
  int64_t lo = inclusive ? -rank - 1 : -rank;
  if (axis < lo || axis > hi)
    return op->emitOpError() << what << " " << axis << " is out of range ["
                             << lo << ", " << hi << "] for rank " << rank;
  return success();
}

LogicalResult verify::checkOneOf(Operation *op, StringRef name,
                                 ArrayRef<StringRef> allowed, StringRef dflt) {
  StringRef v = getStr(op, name, dflt);
  if (llvm::is_contained(allowed, v))
    return success();
  auto diag = op->emitOpError() << "attribute '" << name << "' is '" << v
                                << "', expected one of";
  for (StringRef a : allowed)
    diag << " '" << a << "'";
  return diag;
}

LogicalResult verify::checkBool(Operation *op, StringRef name, int64_t dflt) {
  int64_t v = getInt(op, name, dflt);
  if (v != 0 && v != 1)
    return op->emitOpError() << "attribute '" << name << "' must be 0 or 1, got "
                             << v;
  return success();
}

LogicalResult verify::checkRank(Operation *op, unsigned index, int64_t lo,
                                int64_t hi) {
  if (index >= op->getNumOperands())
    return success();
  std::optional<int64_t> r = getRank(op->getOperand(index));
  if (!r || (*r >= lo && *r <= hi))
    return success();
  auto diag = op->emitOpError() << "input " << index << " has rank " << *r
                                << ", expected ";
  if (lo == hi)
    diag << lo;
  else if (hi == INT64_MAX)
    diag << "at least " << lo;
  else
    diag << lo << " to " << hi;
  return diag;
}

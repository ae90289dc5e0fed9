//===- Checks.cpp - Checks of the whole converted module ------------------===//
//
// What no single lowering sees: a static shape too large for its bytes
// (before the conversion), and the shapes the lowerings assumed from the
// types (after it): the tensor.casts they made from dynamic to static dims,
// the dims a linalg loop reads together. See Checks.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Checks.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace mlir::onnxc::linalg_conv {

/// The bytes that the static dims of `t` hold (dynamic dims count as 1),
/// saturating at UINT64_MAX.
static uint64_t staticBytes(RankedTensorType t) {
  Type elt = t.getElementType();
  uint64_t n = elt.isIntOrFloat() ? (elt.getIntOrFloatBitWidth() + 7) / 8 : 1;
  for (int64_t d : t.getShape()) {
    if (d == 0)
      return 0;
    if (!ShapedType::isDynamic(d))
      n = llvm::SaturatingMultiply(n, static_cast<uint64_t>(d));
  }
  return n;
}

/// "[2, ?, 4] elements of 4 bytes".
static std::string describeSize(RankedTensorType t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(t.getShape(), os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  Type elt = t.getElementType();
  os << "] elements of "
     << (elt.isIntOrFloat() ? (elt.getIntOrFloatBitWidth() + 7) / 8 : 1)
     << " bytes";
  return s;
}

/// One error per value whose static dims alone hold more than 2^63 - 1
/// bytes: its byte size (and byte offsets into it) would wrap.
LogicalResult checkStaticSizes(ModuleOp module) {
  constexpr uint64_t kMaxBytes = INT64_MAX;
  bool ok = true;
  module.walk([&](Operation *op) {
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      for (BlockArgument arg : fn.getArguments())
        if (auto t = dyn_cast<RankedTensorType>(arg.getType()))
          if (staticBytes(t) > kMaxBytes) {
            std::string name = "#" + std::to_string(arg.getArgNumber());
            if (auto n = fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                         "onnx.name"))
              name = n.getValue().str();
            emitError(arg.getLoc())
                << "input '" << name << "' has " << describeSize(t)
                << ": more than 2^63 - 1 bytes";
            ok = false;
          }
      return;
    }
    if (!isa_and_nonnull<ONNX::ONNXDialect>(op->getDialect()))
      return;
    for (OpResult r : op->getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType()))
        if (staticBytes(t) > kMaxBytes) {
          op->emitOpError("result ")
              << r.getResultNumber() << " has " << describeSize(t)
              << ": more than 2^63 - 1 bytes";
          ok = false;
          return;
        }
  });
  return success(ok);
}

/// The lowerings cast values to the types shape inference gave them
/// (tensor.cast from a dynamic to a static dim): a model whose run-time
/// sizes contradict them (a Squeeze of a dim that is not 1, a Concat of
/// inputs that differ in another dim) must fail there, not read or write
/// out of bounds. An empty result is exempt (a dim of an empty tensor may
/// be unknown: a loop that never ran), as it touches no element.
void checkCasts(ModuleOp module) {
  SmallVector<tensor::CastOp> casts;
  module.walk([&](tensor::CastOp c) { casts.push_back(c); });
  for (tensor::CastOp c : casts) {
    auto from = dyn_cast<RankedTensorType>(c.getSource().getType());
    auto to = dyn_cast<RankedTensorType>(c.getType());
    if (!from || !to)
      continue;
    if (llvm::is_contained(to.getShape(), 0))
      continue;
    OpBuilder b(c);
    Location loc = c.getLoc();
    Value empty;
    for (int64_t d = 0; d < to.getRank(); ++d)
      if (to.isDynamicDim(d)) {
        Value z = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            getDimValue(b, loc, c.getSource(), d),
            createIndexConstant(b, loc, 0));
        empty = empty ? arith::OrIOp::create(b, loc, empty, z).getResult() : z;
      }
    for (int64_t d = 0; d < to.getRank(); ++d) {
      if (!from.isDynamicDim(d) || to.isDynamicDim(d))
        continue;
      Value size = getDimValue(b, loc, c.getSource(), d);
      Value want = createIndexConstant(b, loc, to.getDimSize(d));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                       want);
      if (empty)
        ok = arith::OrIOp::create(b, loc, ok, empty);
      emitRuntimeCheck(
          b, loc, ok, "dim {} is {} at run time where {} is required",
          {createIndexConstant(b, loc, d), size, want});
    }
  }
}

ArgDimNames recordArgDimNames(ModuleOp module, const TypeConverter &tc) {
  ArgDimNames names;
  module.walk([&](func::FuncOp fn) {
    auto &list = names[fn];
    for (BlockArgument arg : fn.getArguments()) {
      SmallVector<Type> converted;
      if (failed(tc.convertType(arg.getType(), converted)))
        return;
      SmallVector<std::string> dims;
      if (converted.size() == 1)
        if (auto t = dyn_cast<RankedTensorType>(arg.getType()))
          for (int64_t d = 0; d < t.getRank(); ++d)
            dims.push_back(dimName(arg, d).str());
      list.push_back(dims);
      for (size_t k = 1; k < converted.size(); ++k)
        list.push_back({});
    }
  });
  return names;
}

namespace {
/// Where a dynamic dim's size comes from, as far as the IR says without
/// running: an index value (a tensor.empty's size operand), or dim `dim` of
/// a value (a function argument, or what the trace stops at). Through
/// tensor.dim, tensor.cast and destination-style ops (a result has its
/// init's dims).
struct DimSource {
  Value value;
  int64_t dim = -1; // -1: `value` is the index value itself
  bool operator==(const DimSource &o) const {
    return value == o.value && dim == o.dim;
  }
};
} // namespace

static DimSource traceDim(Value v, int64_t d) {
  for (int steps = 0; steps < 64; ++steps) {
    if (auto r = dyn_cast<OpResult>(v)) {
      Operation *op = r.getOwner();
      if (auto e = dyn_cast<tensor::EmptyOp>(op)) {
        // A static dim has no size operand (a tensor.empty reached through
        // a cast or an init whose type is less static: getDynamicSize read
        // before its operands, found by the 2026-11-27 fuzz campaign).
        if (!e.getType().isDynamicDim(d))
          return {v, d};
        Value size = e.getDynamicSize(d);
        if (auto dimOp = size.getDefiningOp<tensor::DimOp>())
          if (auto idx = dimOp.getConstantIndex()) {
            v = dimOp.getSource();
            d = *idx;
            continue;
          }
        return {size, -1};
      }
      if (auto c = dyn_cast<tensor::CastOp>(op)) {
        auto source = dyn_cast<RankedTensorType>(c.getSource().getType());
        if (!source || d >= source.getRank() || !source.isDynamicDim(d))
          return {v, d};
        v = c.getSource();
        continue;
      }
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
        OpOperand *init = dps.getTiedOpOperand(r);
        auto t = init ? dyn_cast<RankedTensorType>(init->get().getType())
                      : RankedTensorType();
        if (!t || d >= t.getRank())
          return {v, d};
        v = init->get();
        continue;
      }
    }
    return {v, d};
  }
  return {v, d};
}

/// Linalg semantics: every operand dim indexed by the same loop has the
/// loop's size (its range comes from the first operand that has the loop).
/// Where two such dims are not both static, a lowering relied on the types
/// (shape inference's symbolic dims, a BatchNormalization scale of the
/// channels' size, ...): check at run time, or a model whose sizes
/// contradict them reads or writes out of bounds. No check where the IR
/// shows the dims equal (an init sized from the input: the same source) or
/// the runtime does (function arguments' dims of one symbolic name). An
/// empty iteration space is exempt (nothing is touched).
void checkLinalgDims(ModuleOp module, const ArgDimNames &argNames) {
  auto argName = [&](DimSource s) -> StringRef {
    auto arg = dyn_cast<BlockArgument>(s.value);
    if (!arg || s.dim < 0)
      return "";
    auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!fn || arg.getOwner() != &fn.getBody().front())
      return "";
    auto it = argNames.find(fn);
    if (it == argNames.end() || arg.getArgNumber() >= it->second.size())
      return "";
    const auto &dims = it->second[arg.getArgNumber()];
    return s.dim < (int64_t)dims.size() ? StringRef(dims[s.dim]) : "";
  };
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics())
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    SmallVector<SmallVector<std::pair<Value, int64_t>>> uses(op.getNumLoops());
    bool anyDynamic = false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto t = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!t)
        continue;
      anyDynamic |= !t.hasStaticShape();
      AffineMap map = op.getMatchingIndexingMap(&operand);
      // An op the verifier will refuse (a map of another rank than its
      // operand's, or over other loops than the op's) is not checked here:
      // its dims and loops would be read past their ends (the 2026-11-27
      // fuzz campaign: a map of more dims than the op has loops).
      if (map.getNumResults() != (unsigned)t.getRank() ||
          map.getNumDims() != uses.size()) {
        anyDynamic = false;
        break;
      }
      for (auto [k, e] : llvm::enumerate(map.getResults()))
        if (auto d = dyn_cast<AffineDimExpr>(e))
          uses[d.getPosition()].push_back({operand.get(), (int64_t)k});
    }
    if (!anyDynamic)
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto dim = [&](std::pair<Value, int64_t> u) {
      return getDimValue(b, loc, u.first, u.second);
    };
    auto isDynamic = [](std::pair<Value, int64_t> u) {
      return cast<RankedTensorType>(u.first.getType()).isDynamicDim(u.second);
    };
    Value empty;
    for (auto [loop, list] : llvm::enumerate(uses)) {
      for (auto &u : llvm::drop_begin(list)) {
        if (!isDynamic(list.front()) && !isDynamic(u))
          continue;
        if (isDynamic(list.front()) && isDynamic(u)) {
          DimSource a = traceDim(list.front().first, list.front().second);
          DimSource c = traceDim(u.first, u.second);
          StringRef na = argName(a), nc = argName(c);
          if (a == c || (!na.empty() && na == nc))
            continue;
        }
        Value range = dim(list.front()), size = dim(u);
        Value ok = cmpI(b, loc, arith::CmpIPredicate::eq, range,
                                     size);
        if (matchPattern(ok, m_One()))
          continue;
        if (!empty) {
          empty = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
          for (auto &l : uses)
            if (!l.empty())
              empty = b.createOrFold<arith::OrIOp>(
                  loc, empty,
                  cmpI(b, loc, arith::CmpIPredicate::eq, dim(l[0]),
                                    createIndexConstant(b, loc, 0)));
        }
        ok = b.createOrFold<arith::OrIOp>(loc, ok, empty);
        emitRuntimeCheck(
            b, loc, ok,
            "operand sizes disagree: {} and {} along loop {}",
            {range, size, createIndexConstant(b, loc, loop)});
      }
    }
  }
}

} // namespace mlir::onnxc::linalg_conv

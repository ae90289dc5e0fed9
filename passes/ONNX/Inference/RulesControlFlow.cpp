//===- RulesControlFlow.cpp - onnxc's inference rule for Loop -------------===//
//
// A loop-carried value may change type across iterations. libonnx 1.12
// drops the shape of every carried value; onnxc infers the body to a fixed
// point instead: the carried values start with the types of the Loop's
// operands; while the body yields a type the current one does not cover, the
// two are joined (dims that differ become dynamic, ranks that differ
// unranked) and the body is inferred again from the types it had before.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::onnxc;

/// Fixed-point iterations of one Loop before its carried values become the
/// most general types (each iteration makes at least one dim dynamic or one
/// type unranked, so this is reached only by carried values of high rank).
static constexpr unsigned kMaxLoopIterations = 4;

namespace {
/// The types of the values a region defines (block arguments and results at
/// any depth), to restore before the region is inferred again.
class RegionTypes {
public:
  explicit RegionTypes(Region &region) {
    addArguments(region);
    region.walk([&](Operation *op) {
      for (Value v : op->getResults())
        saved.emplace_back(v, v.getType());
      for (Region &r : op->getRegions())
        addArguments(r);
    });
  }

  void restore() const {
    for (auto [v, t] : saved)
      v.setType(t);
  }

private:
  void addArguments(Region &r) {
    for (Block &block : r)
      for (BlockArgument arg : block.getArguments())
        saved.emplace_back(arg, arg.getType());
  }

  SmallVector<std::pair<Value, Type>> saved;
};
} // namespace

/// Refines block argument `arg` (whose type before inference was `before`)
/// to `type`.
static LogicalResult setArgument(Operation *op, BlockArgument arg, Type before,
                                 Type type) {
  std::string error;
  FailureOr<Type> merged = mergeTypes(before, type, error);
  if (failed(merged))
    return op->emitOpError()
           << "body input #" << arg.getArgNumber() << ": " << error;
  arg.setType(*merged);
  return success();
}

/// Loop(M, cond, v_initial...) with body (iter, cond, v...) -> (cond, v...,
/// scan...): results v_final... (the fixed point of the carried types) and
/// scan outputs (the body's per-iteration type with a leading dim: the trip
/// count if M is known and there is no condition, else dynamic).
static LogicalResult inferLoop(Operation *op, const ONNX::OpInfo &,
                               InferenceState &state) {
  InferenceState::Impl &impl = state.getImpl();
  Region &body = op->getRegion(0);
  if (op->getNumOperands() < 2 || body.empty() || body.front().empty())
    return success();
  Block &block = body.front();
  Operation *yield = &block.back();
  unsigned numCarried = op->getNumOperands() - 2;
  // Arity mismatches are the verifier's to report.
  if (block.getNumArguments() != numCarried + 2 ||
      yield->getNumOperands() < numCarried + 1 ||
      op->getNumResults() != yield->getNumOperands() - 1)
    return success();

  Builder b(op->getContext());
  RegionTypes before(body);
  SmallVector<Type> argsBefore(block.getArgumentTypes());
  SmallVector<Type> carried;
  for (unsigned i = 0; i < numCarried; ++i)
    carried.push_back(op->getOperand(i + 2).getType());
  // Once the budget is spent, the most general types need no iteration.
  bool general = impl.fixpointBudget == 0;
  if (general)
    for (Type &t : carried)
      t = generalizeType(t);

  for (unsigned iteration = 0;; ++iteration) {
    if (iteration > 0) {
      before.restore();
      impl.forgetRegion(body);
    }
    if (failed(setArgument(op, block.getArgument(0), argsBefore[0],
                           RankedTensorType::get({}, b.getI64Type()))) ||
        failed(setArgument(op, block.getArgument(1), argsBefore[1],
                           RankedTensorType::get({}, b.getI1Type()))))
      return failure();
    for (unsigned i = 0; i < numCarried; ++i)
      if (failed(setArgument(op, block.getArgument(i + 2), argsBefore[i + 2],
                             carried[i])))
        return failure();
    if (failed(inferRegionTypes(body, state)))
      return failure();
    if (general)
      break;
    bool changed = false;
    for (unsigned i = 0; i < numCarried; ++i) {
      std::string error;
      FailureOr<Type> joined =
          joinTypes(carried[i], yield->getOperand(i + 1).getType(), error);
      if (failed(joined))
        return op->emitOpError() << "loop-carried value #" << i
                                 << " changes type in the body: " << error;
      changed |= *joined != carried[i];
      carried[i] = *joined;
    }
    if (!changed)
      break;
    if (impl.fixpointBudget == 0 || iteration + 1 >= kMaxLoopIterations) {
      general = true;
      for (Type &t : carried)
        t = generalizeType(t);
    } else {
      --impl.fixpointBudget;
    }
  }
  impl.inferredRegions.insert(&body);

  for (unsigned i = 0; i < numCarried; ++i) {
    // A body that yields a plain T for an optional carried value makes the
    // result a T, as libonnx infers it (the body's output type).
    Type t = carried[i];
    if (auto o = llvm::dyn_cast<ONNX::OptType>(t);
        o && !llvm::isa<ONNX::OptType>(yield->getOperand(i + 1).getType()))
      t = o.getElementType();
    if (failed(refineResult(op, i, t)))
      return failure();
  }
  // Scan outputs: static length only for a known trip count and no
  // condition (the body's condition may stop the loop early).
  int64_t length = ShapedType::kDynamic;
  if (llvm::isa<NoneType>(op->getOperand(1).getType()))
    if (auto m = impl.getKnownInts(op->getOperand(0)); m && m->size() == 1)
      length = std::max<int64_t>(m->front(), 0);
  for (unsigned k = numCarried; k < op->getNumResults(); ++k) {
    Type t = yield->getOperand(k + 1).getType();
    if (auto r = llvm::dyn_cast<RankedTensorType>(t)) {
      SmallVector<SymDim> dims = getSymDims(r);
      dims.insert(dims.begin(), SymDim{length, ""});
      t = getSymTensorType(dims, r.getElementType());
    } else if (!llvm::isa<UnrankedTensorType>(t)) {
      continue;
    }
    if (failed(refineResult(op, k, t)))
      return failure();
  }
  return success();
}

void mlir::onnxc::registerControlFlowRules(
    llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.Loop"] = inferLoop;
}

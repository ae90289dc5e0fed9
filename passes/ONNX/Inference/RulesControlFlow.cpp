//===- RulesControlFlow.cpp - onnxc's inference rules for Loop and If -----===//
//
// A loop-carried value may change type across iterations. libonnx 1.12
// drops the shape of every carried value; onnxc infers the body to a fixed
// point instead: the carried values start with the types of the Loop's
// operands; while the body yields a type the current one does not cover, the
// two are joined (dims that differ become dynamic, ranks that differ
// unranked) and the body is inferred again from the types it had before.
// If is libonnx's, with the sequence results it joins wrongly redone.
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

  /// Forgets what is known of the sequences (and optionals of sequences)
  /// the region defines: they may have been inferred from a declaration
  /// that turned out wrong.
  void generalizeSequences() {
    for (auto &[v, t] : saved) {
      Type c = t;
      if (auto o = llvm::dyn_cast<ONNX::OptType>(c))
        c = o.getElementType();
      if (llvm::isa<ONNX::SeqType>(c))
        t = generalizeType(t);
    }
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

/// A declared body input is merged with what flows in, so a declaration
/// narrower than what the body yields hides the yielded type from the next
/// iteration. For a sequence that is a declaration the body breaks
/// (test_loop16_seq_none declares items of rank 0 and appends 1-D slices):
/// it is dropped (`declared` becomes unknown), with what the body inferred
/// of its sequences, so that the carried value gets the type of what flows
/// in alone. Tensors keep their declarations (their
/// shapes are checked at run time). Returns whether one was dropped.
static bool dropBrokenDeclarations(Block &block, Operation *yield,
                                   unsigned numCarried,
                                   SmallVectorImpl<Type> &declared,
                                   RegionTypes &before) {
  bool dropped = false;
  for (unsigned i = 0; i < numCarried; ++i) {
    Type d = declared[i + 2];
    if (auto o = llvm::dyn_cast<ONNX::OptType>(d))
      d = o.getElementType();
    if (!llvm::isa<ONNX::SeqType>(d))
      continue;
    Type arg = block.getArgument(i + 2).getType();
    std::string error;
    FailureOr<Type> joined =
        joinTypes(arg, yield->getOperand(i + 1).getType(), error);
    if (succeeded(joined) && *joined != arg) {
      declared[i + 2] = ONNX::UnknownType::get(block.getParent()->getContext());
      dropped = true;
    }
  }
  // What the body inferred from the declaration goes with it.
  if (dropped)
    before.generalizeSequences();
  return dropped;
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
    if (general) {
      if (dropBrokenDeclarations(block, yield, numCarried, argsBefore, before))
        continue;
      break;
    }
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
    if (!changed) {
      if (dropBrokenDeclarations(block, yield, numCarried, argsBefore, before))
        continue;
      break;
    }
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

/// Whether `t` is a sequence or an optional of one.
static bool isSequenceLike(Type t) {
  if (auto o = llvm::dyn_cast<ONNX::OptType>(t))
    t = o.getElementType();
  return llvm::isa<ONNX::SeqType>(t);
}

/// If: libonnx's inference, except that a result that is a sequence gets
/// the join of the branches' types. libonnx 1.12 joins a sequence of items
/// of no shape with one of scalars into one of scalars (UnionTypeInfo reads
/// the missing shape as rank 0), a type the other branch's items break.
static LogicalResult inferIf(Operation *op, const ONNX::OpInfo &info,
                             InferenceState &state) {
  SmallVector<Type> before(op->getResultTypes());
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  if (op->getNumRegions() != 2)
    return success();
  auto yieldOf = [](Region &r) -> Operation * {
    return r.empty() || r.front().empty() ? nullptr : &r.front().back();
  };
  Operation *thenYield = yieldOf(op->getRegion(0));
  Operation *elseYield = yieldOf(op->getRegion(1));
  // Arity mismatches are the verifier's to report.
  if (!thenYield || !elseYield ||
      thenYield->getNumOperands() != op->getNumResults() ||
      elseYield->getNumOperands() != op->getNumResults())
    return success();
  for (unsigned k = 0; k < op->getNumResults(); ++k) {
    if (!isSequenceLike(op->getResult(k).getType()))
      continue;
    std::string error;
    FailureOr<Type> joined =
        joinTypes(thenYield->getOperand(k).getType(),
                  elseYield->getOperand(k).getType(), error);
    if (failed(joined))
      continue; // libonnx reported what it found wrong
    FailureOr<Type> merged = mergeTypes(before[k], *joined, error);
    if (failed(merged))
      return op->emitOpError() << "result #" << k << ": " << error;
    op->getResult(k).setType(*merged);
  }
  return success();
}

void mlir::onnxc::registerControlFlowRules(
    llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.Loop"] = inferLoop;
  rules["onnx.If"] = inferIf;
}

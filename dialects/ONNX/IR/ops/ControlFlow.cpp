//===- ControlFlow.cpp - Checks of If, Loop, Scan and SequenceMap ---------===//
//
// The body of a control-flow op is a region; its block arguments are the
// subgraph's inputs and its onnx.Yield the subgraph's outputs. These checks
// tie their counts to the op's operands and results (ONNX semantics:
// Loop body (iter, cond, v...) -> (cond, v..., scan...); Scan body
// (state..., scan_in...) -> (state..., scan_out...)).
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/VerifyUtils.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Region.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX::verify;

static unsigned numYielded(Region &r) {
  return r.empty() || r.front().empty() ? 0
                                        : r.front().back().getNumOperands();
}

/// A condition or trip count: when its type is known, a tensor of `elt`
/// (bool or int64), holding one element when `scalar` (Loop's M and cond
/// are left to the lowering, which says so itself).
static LogicalResult checkScalar(Operation *op, Type type, StringRef what,
                                 Type elt, StringRef eltName,
                                 bool scalar = true) {
  auto t = llvm::dyn_cast<TensorType>(type);
  if (!t) {
    if (llvm::isa<NoneType, mlir::onnxc::ONNX::UnknownType>(type))
      return success(); // absent, or not inferred yet
    return op->emitOpError() << what << " must be a " << eltName
                             << " tensor, it is " << type;
  }
  if (t.getElementType() != elt)
    return op->emitOpError() << what << " must be a " << eltName
                             << " tensor, it is " << type;
  auto r = llvm::dyn_cast<RankedTensorType>(t);
  if (!scalar || !r || !r.hasStaticShape())
    return success();
  int64_t n = 1;
  for (int64_t d : r.getShape())
    if (llvm::MulOverflow(n, d, n))
      return op->emitOpError() << what << " must hold one element, it is "
                               << type;
  if (n != 1)
    return op->emitOpError() << what << " must hold one element, it has "
                             << n;
  return success();
}

static LogicalResult verifyIf(Operation *op) {
  Builder b(op->getContext());
  if (failed(checkScalar(op, op->getOperand(0).getType(), "condition",
                         b.getI1Type(), "bool")))
    return failure();
  for (Region &r : op->getRegions()) {
    if (!r.empty() && r.front().getNumArguments() != 0)
      return op->emitOpError() << "branches take no inputs";
    if (numYielded(r) != op->getNumResults())
      return op->emitOpError() << "a branch yields " << numYielded(r)
                               << " values for " << op->getNumResults()
                               << " results";
  }
  return success();
}

static LogicalResult verifyLoop(Operation *op) {
  Builder b(op->getContext());
  Type i64 = b.getIntegerType(64), i1 = b.getI1Type();
  if (failed(checkScalar(op, op->getOperand(0).getType(), "trip count M", i64,
                         "int64", /*scalar=*/false)) ||
      failed(checkScalar(op, op->getOperand(1).getType(), "condition", i1,
                         "bool", /*scalar=*/false)))
    return failure();
  Region &body = op->getRegion(0);
  if (body.empty())
    return success();
  unsigned carried = op->getNumOperands() - 2;
  unsigned args = body.front().getNumArguments();
  if (args != carried + 2)
    return op->emitOpError() << "body takes " << args << " inputs, expected "
                             << carried + 2
                             << " (iteration number, condition and "
                             << carried << " loop-carried values)";
  unsigned yielded = numYielded(body);
  if (yielded < carried + 1)
    return op->emitOpError() << "body yields " << yielded
                             << " values, expected at least " << carried + 1;
  if (op->getNumResults() != yielded - 1)
    return op->emitOpError() << "has " << op->getNumResults()
                             << " results but its body yields "
                             << yielded - 1 << " values after the condition";
  Block &entry = body.front();
  if (failed(checkScalar(op, entry.getArgument(0).getType(),
                         "body input 0 (the iteration number)", i64, "int64")) ||
      failed(checkScalar(op, entry.getArgument(1).getType(),
                         "body input 1 (the condition)", i1, "bool")) ||
      failed(checkScalar(op, entry.back().getOperand(0).getType(),
                         "body output 0 (the condition)", i1, "bool")))
    return failure();
  return success();
}

static LogicalResult verifyScan(Operation *op) {
  Region &body = op->getRegion(0);
  int64_t numScanInputs = getInt(op, "num_scan_inputs", 0);
  int64_t numInputs = op->getNumOperands();
  if (numScanInputs < 1 || numScanInputs > numInputs)
    return op->emitOpError() << "num_scan_inputs is " << numScanInputs
                             << ", expected 1 to " << numInputs;
  int64_t numState = numInputs - numScanInputs;
  int64_t numScanOutputs = (int64_t)op->getNumResults() - numState;
  if (numScanOutputs < 0)
    return op->emitOpError() << "has fewer results than state variables";
  auto checkLen = [&](StringRef name, int64_t n) -> LogicalResult {
    if (auto v = getInts(op, name); v && (int64_t)v->size() != n)
      return op->emitOpError() << "'" << name << "' has " << v->size()
                               << " entries, expected " << n;
    return success();
  };
  if (failed(checkLen("scan_input_axes", numScanInputs)) ||
      failed(checkLen("scan_input_directions", numScanInputs)) ||
      failed(checkLen("scan_output_axes", numScanOutputs)) ||
      failed(checkLen("scan_output_directions", numScanOutputs)))
    return failure();
  if (auto axes = getInts(op, "scan_input_axes"))
    for (int64_t i = 0; i < numScanInputs; ++i)
      if (std::optional<int64_t> r = getRank(op->getOperand(numState + i)))
        if (failed(checkAxis(op, "scan_input_axes entry", (*axes)[i], *r)))
          return failure();
  if (!body.empty() && (int64_t)body.front().getNumArguments() != numInputs)
    return op->emitOpError() << "body takes " << body.front().getNumArguments()
                             << " inputs, expected " << numInputs;
  if (!body.empty() && numYielded(body) != op->getNumResults())
    return op->emitOpError() << "body yields " << numYielded(body)
                             << " values for " << op->getNumResults()
                             << " results";
  return success();
}

static LogicalResult verifySequenceMap(Operation *op) {
  Region &body = op->getRegion(0);
  if (!body.empty() && body.front().getNumArguments() != op->getNumOperands())
    return op->emitOpError() << "body takes " << body.front().getNumArguments()
                             << " inputs, expected " << op->getNumOperands();
  if (numYielded(body) != op->getNumResults())
    return op->emitOpError() << "body yields " << numYielded(body)
                             << " values for " << op->getNumResults()
                             << " results";
  return success();
}

void mlir::onnxc::ONNX::verify::registerControlFlowVerifiers(VerifierTable &t) {
  t.add("onnx.If", verifyIf);
  t.add("onnx.Loop", verifyLoop);
  t.add("onnx.Scan", verifyScan);
  t.add("onnx.SequenceMap", verifySequenceMap);
}

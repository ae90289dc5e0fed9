//===- Tensor.cpp - Checks of the shape and data movement ops -------------===//

#include "dialects/ONNX/IR/VerifyUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX::verify;

/// `axis` attribute (default `dflt`) of input `index`, in [-r, r).
static LogicalResult checkAxisOfInput(Operation *op, unsigned index,
                                      int64_t dflt, bool inclusive = false) {
  if (index >= op->getNumOperands())
    return success();
  std::optional<int64_t> rank = getRank(op->getOperand(index));
  if (!rank)
    return success();
  return checkAxis(op, "axis", getInt(op, "axis", dflt), *rank, inclusive);
}

static LogicalResult verifyConcat(Operation *op) {
  std::optional<int64_t> rank;
  for (Value v : op->getOperands()) {
    std::optional<int64_t> r = getRank(v);
    if (!r)
      continue;
    if (rank && *r != *rank)
      return op->emitOpError() << "inputs have different ranks " << *rank
                               << " and " << *r;
    rank = r;
  }
  if (rank)
    return checkAxis(op, "axis", getInt(op, "axis", 0), *rank);
  return success();
}

static LogicalResult verifyTranspose(Operation *op) {
  std::optional<ArrayRef<int64_t>> perm = getInts(op, "perm");
  if (!perm)
    return success();
  std::optional<int64_t> rank = getRank(op->getOperand(0));
  if (rank && (int64_t)perm->size() != *rank)
    return op->emitOpError() << "'perm' has " << perm->size()
                             << " entries for an input of rank " << *rank;
  llvm::SmallBitVector seen(perm->size());
  for (int64_t p : *perm) {
    if (p < 0 || p >= (int64_t)perm->size() || seen.test(p))
      return op->emitOpError() << "'perm' is not a permutation";
    seen.set(p);
  }
  return success();
}

static LogicalResult verifyFlatten(Operation *op) {
  return checkAxisOfInput(op, 0, 1, /*inclusive=*/true);
}

static LogicalResult verifyGatherLike(Operation *op) {
  return checkAxisOfInput(op, 0, 0);
}

static LogicalResult verifyCast(Operation *op) {
  int64_t to = getInt(op, "to", 1);
  // 24-26 (FLOAT8E8M0 of opset 24, UINT2 and INT2 of opset 25) are ONNX
  // types that onnxc has no element type for.
  if (to >= 24 && to <= 26)
    return op->emitOpError()
           << "attribute 'to' is " << to << " ("
           << (to == 24 ? "FLOAT8E8M0" : to == 25 ? "UINT2" : "INT2")
           << "), an ONNX data type onnxc does not support";
  if (to < 1 || to > 23)
    return op->emitOpError() << "attribute 'to' is " << to
                             << ", not an ONNX tensor data type";
  return checkBool(op, "saturate", 1);
}

static LogicalResult verifyReshape(Operation *op) {
  if (failed(checkBool(op, "allowzero", 0)) || failed(checkRank(op, 1, 1, 1)))
    return failure();
  return success();
}

/// Slice's starts, ends, axes and steps are 1-D (a 0-D starts crashed the
/// lowering, found by the fuzz campaign).
static LogicalResult verifySlice(Operation *op) {
  for (unsigned i = 1; i < 5; ++i)
    if (failed(checkRank(op, i, 1, 1)))
      return failure();
  return success();
}

static LogicalResult verifySplit(Operation *op) {
  if (failed(checkAxisOfInput(op, 0, 0)))
    return failure();
  // 'split' is 1-D with one size per output (ORT refuses other lengths;
  // the extra sizes were ignored). A length known only at run time is
  // checked by the lowering.
  if (op->getNumOperands() > 1 && !isNone(op->getOperand(1))) {
    if (failed(checkRank(op, 1, 1, 1)))
      return failure();
    auto t = llvm::dyn_cast<RankedTensorType>(op->getOperand(1).getType());
    if (t && !t.isDynamicDim(0) && t.getDimSize(0) != op->getNumResults())
      return op->emitOpError() << "'split' has " << t.getDimSize(0)
                               << " sizes for " << op->getNumResults()
                               << " outputs";
  }
  // Every piece has the input's rank. Without a constant 'split' libonnx
  // infers nothing and a declared graph output type stands (a rank-0
  // output crashed the lowering, found by the fuzz campaign).
  if (std::optional<int64_t> rank = getRank(op->getOperand(0)))
    for (auto [i, r] : llvm::enumerate(op->getResults()))
      if (std::optional<int64_t> rr = getRank(r); rr && *rr != *rank)
        return op->emitOpError() << "output " << i << " has rank " << *rr
                                 << ", expected " << *rank
                                 << " (the input's)";
  if (op->hasAttr("num_outputs")) {
    int64_t n = getInt(op, "num_outputs", 1);
    if (n < 1)
      return op->emitOpError() << "attribute 'num_outputs' must be >= 1";
    if ((int64_t)op->getNumResults() != n)
      return op->emitOpError() << "num_outputs is " << n << " but the op has "
                               << op->getNumResults() << " outputs";
    if (op->getNumOperands() > 1 && !isNone(op->getOperand(1)))
      return op->emitOpError() << "'split' and 'num_outputs' are exclusive";
  }
  return success();
}

static LogicalResult verifyResize(Operation *op) {
  if (failed(checkOneOf(op, "mode", {"nearest", "linear", "cubic"}, "nearest")) ||
      failed(checkOneOf(op, "coordinate_transformation_mode",
                        {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                         "align_corners", "asymmetric", "tf_half_pixel_for_nn",
                         "tf_crop_and_resize"},
                        "half_pixel")) ||
      failed(checkOneOf(op, "nearest_mode",
                        {"round_prefer_floor", "round_prefer_ceil", "floor",
                         "ceil"},
                        "round_prefer_floor")) ||
      failed(checkOneOf(op, "keep_aspect_ratio_policy",
                        {"stretch", "not_larger", "not_smaller"}, "stretch")) ||
      failed(checkBool(op, "exclude_outside", 0)) ||
      failed(checkBool(op, "antialias", 0)))
    return failure();
  // ONNX's shape inference: "Axis ... is referred to more than once".
  if (std::optional<ArrayRef<int64_t>> axes = getInts(op, "axes")) {
    std::optional<int64_t> rank = getRank(op->getOperand(0));
    llvm::SmallVector<int64_t> seen;
    for (int64_t a : *axes) {
      int64_t d = rank && a < 0 ? a + *rank : a;
      if (llvm::is_contained(seen, d))
        return op->emitOpError() << "axis " << a
                                 << " is referred to more than once";
      seen.push_back(d);
    }
  }
  return success();
}

static LogicalResult verifyPad(Operation *op) {
  return checkOneOf(op, "mode", {"constant", "reflect", "edge", "wrap"},
                    "constant");
}

static LogicalResult verifyScatter(Operation *op) {
  if (failed(checkOneOf(op, "reduction", {"none", "add", "mul", "max", "min"},
                        "none")))
    return failure();
  if (op->getName().getStringRef() == "onnx.ScatterND")
    return success();
  return checkAxisOfInput(op, 0, 0);
}

static LogicalResult verifyTopK(Operation *op) {
  if (failed(checkBool(op, "largest", 1)) || failed(checkBool(op, "sorted", 1)))
    return failure();
  return checkAxisOfInput(op, 0, -1);
}

static LogicalResult verifyCumSum(Operation *op) {
  if (failed(checkBool(op, "exclusive", 0)) || failed(checkBool(op, "reverse", 0)))
    return failure();
  return checkRank(op, 1, 0, 1);
}

static LogicalResult verifyTrilu(Operation *op) {
  if (failed(checkBool(op, "upper", 1)))
    return failure();
  return checkRank(op, 0, 2, INT64_MAX);
}

static LogicalResult verifyOneHot(Operation *op) {
  std::optional<int64_t> rank = getRank(op->getOperand(0));
  if (!rank)
    return success();
  return checkAxis(op, "axis", getInt(op, "axis", -1), *rank, true);
}

void mlir::onnxc::ONNX::verify::registerTensorVerifiers(VerifierTable &t) {
  t.add("onnx.Concat", verifyConcat);
  t.add("onnx.Transpose", verifyTranspose);
  t.add("onnx.Flatten", verifyFlatten);
  t.add("onnx.Gather", verifyGatherLike);
  t.add("onnx.GatherElements", verifyGatherLike);
  t.add("onnx.Compress", [](Operation *op) {
    return op->hasAttr("axis") ? checkAxisOfInput(op, 0, 0) : success();
  });
  t.add("onnx.Cast", verifyCast);
  t.add("onnx.Reshape", verifyReshape);
  t.add("onnx.Slice", verifySlice);
  t.add("onnx.Split", verifySplit);
  t.add("onnx.Resize", verifyResize);
  t.add("onnx.Pad", verifyPad);
  t.add("onnx.ScatterElements", verifyScatter);
  t.add("onnx.ScatterND", verifyScatter);
  t.add("onnx.TopK", verifyTopK);
  t.add("onnx.CumSum", verifyCumSum);
  t.add("onnx.Trilu", verifyTrilu);
  t.add("onnx.OneHot", verifyOneHot);
}

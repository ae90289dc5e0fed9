//===- NN.cpp - Checks of convolutions, pooling and normalizations --------===//

#include "dialects/ONNX/IR/VerifyUtils.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX::verify;

static const llvm::StringRef kAutoPads[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                            "VALID"};

/// kernel_shape, strides, dilations and pads of a windowed op over an input
/// of rank N+2 (N spatial dims).
static LogicalResult verifyWindow(Operation *op) {
  if (failed(checkOneOf(op, "auto_pad", kAutoPads, "NOTSET")) ||
      failed(checkRank(op, 0, 3, INT64_MAX)))
    return failure();
  std::optional<int64_t> rank = getRank(op->getOperand(0));
  // Pools' kernel_shape is a required attribute: ODS checks its presence.
  std::optional<ArrayRef<int64_t>> kernel = getInts(op, "kernel_shape");
  int64_t spatial = rank ? *rank - 2 : kernel ? (int64_t)kernel->size() : -1;
  auto checkList = [&](StringRef name, int64_t factor,
                       int64_t minValue) -> LogicalResult {
    std::optional<ArrayRef<int64_t>> v = getInts(op, name);
    if (!v)
      return success();
    if (spatial >= 0 && (int64_t)v->size() != factor * spatial)
      return op->emitOpError()
             << "attribute '" << name << "' has " << v->size()
             << " values, expected " << factor * spatial;
    for (int64_t x : *v)
      if (x < minValue)
        return op->emitOpError() << "attribute '" << name << "' has value "
                                 << x << ", expected >= " << minValue;
    return success();
  };
  if (failed(checkList("kernel_shape", 1, 1)) ||
      failed(checkList("strides", 1, 1)) ||
      failed(checkList("dilations", 1, 1)) || failed(checkList("pads", 2, 0)))
    return failure();
  if (op->hasAttr("pads") && getStr(op, "auto_pad", "NOTSET") != "NOTSET")
    return op->emitOpError() << "'pads' cannot be used with auto_pad '"
                             << getStr(op, "auto_pad", "") << "'";
  return success();
}

static LogicalResult verifyConvLike(Operation *op) {
  if (failed(verifyWindow(op)))
    return failure();
  if (getInt(op, "group", 1) < 1)
    return op->emitOpError() << "attribute 'group' must be >= 1";
  // QLinearConv interleaves scales and zero points: W is its input 3.
  unsigned wIndex = op->getName().getStringRef() == "onnx.QLinearConv" ? 3 : 1;
  std::optional<int64_t> xr = getRank(op->getOperand(0));
  std::optional<int64_t> wr = getRank(op->getOperand(wIndex));
  if (xr && wr && *xr != *wr)
    return op->emitOpError() << "input X has rank " << *xr << " but W has rank "
                             << *wr;
  return success();
}

/// ConvTranspose: output_padding adds to the high side of each spatial dim
/// and must be smaller than its stride or its dilation (ONNX's "less than
/// the corresponding stride/dilation dimension", as PyTorch and ONNX
/// Runtime read it).
static LogicalResult verifyConvTranspose(Operation *op) {
  if (failed(verifyConvLike(op)))
    return failure();
  std::optional<ArrayRef<int64_t>> pads = getInts(op, "output_padding");
  if (!pads)
    return success();
  // (Its length is the lowering's to check, which says so itself.)
  std::optional<ArrayRef<int64_t>> strides = getInts(op, "strides");
  std::optional<ArrayRef<int64_t>> dilations = getInts(op, "dilations");
  for (auto [i, p] : llvm::enumerate(*pads)) {
    int64_t s = strides && i < strides->size() ? (*strides)[i] : 1;
    int64_t d = dilations && i < dilations->size() ? (*dilations)[i] : 1;
    if (p < 0)
      return op->emitOpError() << "attribute 'output_padding' has value " << p
                               << ", expected >= 0";
    if (p >= s && p >= d)
      return op->emitOpError()
             << "output_padding " << p << " of spatial dim " << i
             << " must be less than its stride (" << s << ") or its dilation ("
             << d << ")";
  }
  return success();
}

/// A pool's pads are smaller than its kernel (ONNX Runtime: "Pad should
/// be smaller than kernel"): a window wholly in the padding has no element
/// to pool (MaxPool returned -inf there).
static LogicalResult checkPoolPads(Operation *op) {
  std::optional<ArrayRef<int64_t>> kernel = getInts(op, "kernel_shape");
  std::optional<ArrayRef<int64_t>> pads = getInts(op, "pads");
  if (!kernel || !pads || pads->size() != 2 * kernel->size())
    return success();
  size_t n = kernel->size();
  for (auto [i, p] : llvm::enumerate(*pads))
    if (p >= (*kernel)[i % n])
      return op->emitOpError()
             << "pad " << p << " of spatial dim " << i % n
             << " must be smaller than the kernel (" << (*kernel)[i % n]
             << ")";
  return success();
}

static LogicalResult verifyPool(Operation *op) {
  if (failed(verifyWindow(op)) || failed(checkPoolPads(op)))
    return failure();
  return checkBool(op, "ceil_mode", 0);
}

static LogicalResult verifyLpPool(Operation *op) {
  if (failed(verifyWindow(op)) || failed(checkPoolPads(op)))
    return failure();
  if (getInt(op, "p", 2) < 1)
    return op->emitOpError() << "attribute 'p' must be >= 1";
  return success();
}

static LogicalResult verifyBatchNorm(Operation *op) {
  if (failed(checkRank(op, 0, 2, INT64_MAX)))
    return failure();
  for (unsigned i = 1; i < 5 && i < op->getNumOperands(); ++i)
    if (failed(checkRank(op, i, 1, 1)))
      return failure();
  return checkBool(op, "training_mode", 0);
}

static LogicalResult verifyLRN(Operation *op) {
  if (getInt(op, "size", 1) < 1)
    return op->emitOpError() << "attribute 'size' must be >= 1";
  return checkRank(op, 0, 3, INT64_MAX);
}

static LogicalResult verifyLayerNorm(Operation *op) {
  std::optional<int64_t> rank = getRank(op->getOperand(0));
  if (!rank)
    return success();
  int64_t axis = getInt(op, "axis", -1);
  if (failed(checkAxis(op, "axis", axis, *rank)))
    return failure();
  // Scale and B broadcast to the normalized dims [axis, rank) of X
  // (unidirectionally): not more dims than those (a fuzzed model's rank-4
  // scale over a rank-3 X made linalg maps of the wrong rank).
  int64_t normalized = *rank - (axis < 0 ? axis + *rank : axis);
  static const char *names[] = {"Scale", "B"};
  for (unsigned i = 1; i < op->getNumOperands() && i < 3; ++i) {
    std::optional<int64_t> r = getRank(op->getOperand(i));
    if (r && *r > normalized)
      return op->emitOpError()
             << names[i - 1] << " has rank " << *r << ", more than the "
             << normalized << " normalized dims of X (axis " << axis << ")";
  }
  return success();
}

static LogicalResult verifyRNN(Operation *op) {
  if (failed(checkOneOf(op, "direction", {"forward", "reverse", "bidirectional"},
                        "forward")) ||
      failed(checkBool(op, "layout", 0)) || failed(checkRank(op, 0, 3, 3)) ||
      failed(checkRank(op, 1, 3, 3)) || failed(checkRank(op, 2, 3, 3)))
    return failure();
  if (!op->hasAttr("hidden_size"))
    return success();
  if (getInt(op, "hidden_size", 1) < 1)
    return op->emitOpError() << "attribute 'hidden_size' must be >= 1";
  return success();
}

static LogicalResult verifyDepthSpace(Operation *op) {
  if (getInt(op, "blocksize", 1) < 1)
    return op->emitOpError() << "attribute 'blocksize' must be >= 1";
  if (op->getName().getStringRef() == "onnx.DepthToSpace" &&
      failed(checkOneOf(op, "mode", {"DCR", "CRD"}, "DCR")))
    return failure();
  return checkRank(op, 0, 4, 4);
}

void mlir::onnxc::ONNX::verify::registerNNVerifiers(VerifierTable &t) {
  for (StringRef n : {"onnx.Conv", "onnx.ConvInteger", "onnx.QLinearConv",
                      "onnx.DeformConv"})
    t.add(n, verifyConvLike);
  t.add("onnx.ConvTranspose", verifyConvTranspose);
  for (StringRef n : {"onnx.AveragePool", "onnx.MaxPool"})
    t.add(n, verifyPool);
  t.add("onnx.LpPool", verifyLpPool);
  t.add("onnx.BatchNormalization", verifyBatchNorm);
  t.add("onnx.LRN", verifyLRN);
  t.add("onnx.LayerNormalization", verifyLayerNorm);
  for (StringRef n : {"onnx.RNN", "onnx.GRU", "onnx.LSTM"})
    t.add(n, verifyRNN);
  t.add("onnx.DepthToSpace", verifyDepthSpace);
  t.add("onnx.SpaceToDepth", verifyDepthSpace);
}

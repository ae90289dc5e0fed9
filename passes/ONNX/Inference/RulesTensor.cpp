//===- RulesTensor.cpp - onnxc's inference rules: tensor and math ops -----===//
//
// Ops whose newest signature libonnx 1.12 does not know (opsets 18-21):
// delegated to an older libonnx schema where the new inputs and attributes
// are absent or default, inferred here otherwise. Also ops whose libonnx
// inference gives no shape, or none when an input value is unknown,
// although the rank is fixed (Compress, ReduceSum with keepdims, the window
// functions, MelWeightMatrix): libonnx first, then the rank and the dims
// that are known.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "dialects/ONNX/IR/ONNXDialect.h"

#include "mlir/IR/Builders.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::onnxc;

//===----------------------------------------------------------------------===//
// The rule other files register too
//===----------------------------------------------------------------------===//

LogicalResult mlir::onnxc::inferSameAsInput(Operation *op, const ONNX::OpInfo &,
                                            InferenceState &) {
  if (op->getNumOperands() == 0 || op->getNumResults() == 0)
    return success();
  return refineResult(op, 0, op->getOperand(0).getType());
}

/// Normalizes `axis` into [0, rank); fails (with an error on `op`) if out of
/// range.
static FailureOr<int64_t> normalizeAxis(Operation *op, int64_t axis,
                                        int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError()
           << "axis " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// A reduction with keepdims whose axes are not known keeps the rank of its
/// data: each dim is the data's or 1, so only static 1s are known.
static LogicalResult refineReduceKeepDims(Operation *op) {
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getResult(0));
  if (!in || !elt || getIntAttr(op, "keepdims", 1) == 0)
    return success();
  SmallVector<int64_t> shape;
  for (int64_t d : in.getShape())
    shape.push_back(d == 1 ? 1 : ShapedType::kDynamic);
  return refineResult(op, 0, RankedTensorType::get(shape, elt));
}

/// ReduceSum-13 (libonnx's) takes `axes` as input 1 and leaves the result
/// unranked when its values are unknown.
static LogicalResult inferReduceSum(Operation *op, const ONNX::OpInfo &info,
                                    InferenceState &state) {
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  if (isAbsent(op, 1) || state.getImpl().getKnownInts(op->getOperand(1)))
    return success();
  return refineReduceKeepDims(op);
}

/// ReduceX-18/20: `axes` is input 1. Known axes become the `axes` attribute
/// of the opset-13 (or older) schema.
static LogicalResult inferReduce(Operation *op, const ONNX::OpInfo &info,
                                 InferenceState &state) {
  bool noop = getIntAttr(op, "noop_with_empty_axes", 0) != 0;
  SchemaCall call;
  call.version = 13;
  call.numInputs = 1;
  call.hiddenAttrs = {"noop_with_empty_axes"};
  std::optional<SmallVector<int64_t>> axes;
  if (!isAbsent(op, 1)) {
    axes = state.getImpl().getKnownInts(op->getOperand(1));
    if (!axes) {
      // Unknown axes: only the rank survives, and only with keepdims.
      Type elt = getElementTypeOf(op->getOperand(0));
      if (!elt)
        return success();
      if (failed(refineResult(op, 0, UnrankedTensorType::get(elt))))
        return failure();
      return refineReduceKeepDims(op);
    }
  }
  if (!axes || axes->empty()) {
    if (noop)
      return inferSameAsInput(op, info, state);
    return inferWithLibOnnx(op, info, state, call);
  }
  call.extraAttrs.push_back(makeIntsAttr("axes", *axes));
  return inferWithLibOnnx(op, info, state, call);
}

//===----------------------------------------------------------------------===//
// Pad, Split
//===----------------------------------------------------------------------===//

/// What ONNX and ORT refuse in Pad's known values: an axis listed twice
/// (ONNX's shape inference: "referred to more than once"), and with a
/// static dim, edge/reflect/wrap padding a dim cropped to nothing, or
/// reflect padding a side by more than the dim (after the crops) - 1 (ORT:
/// "pre-pad exceeds maximum allowed"; numpy would reflect again).
static LogicalResult
checkPadValues(Operation *op, RankedTensorType in,
               const std::optional<SmallVector<int64_t>> &knownPads,
               const std::optional<SmallVector<int64_t>> &axes) {
  int64_t rank = in.getRank();
  SmallVector<int64_t> dims;
  if (axes) {
    for (int64_t a : *axes) {
      int64_t d = a < 0 ? a + rank : a;
      if (d < 0 || d >= rank)
        return success(); // normalizeAxis reports it
      if (llvm::is_contained(dims, d))
        return op->emitOpError() << "axis " << a
                                 << " is referred to more than once";
      dims.push_back(d);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
  }
  int64_t n = dims.size();
  if (!knownPads || (int64_t)knownPads->size() != 2 * n)
    return success();
  ArrayRef<int64_t> pads = *knownPads;
  auto modeAttr = op->getAttrOfType<StringAttr>("mode");
  StringRef mode = modeAttr ? modeAttr.getValue() : "constant";
  if (mode == "constant")
    return success();
  for (auto [k, d] : llvm::enumerate(dims)) {
    int64_t size = in.getDimSize(d);
    if (ShapedType::isDynamic(size))
      continue;
    int64_t lo = pads[k], hi = pads[k + n];
    int64_t kept = size - std::max<int64_t>(-lo, 0) - std::max<int64_t>(-hi, 0);
    if (kept <= 0) {
      if ((lo > 0 || hi > 0) && size + lo + hi > 0)
        return op->emitOpError() << "mode " << mode << " pads dim " << d
                                 << " of size 0 (after the crops) to "
                                 << size + lo + hi;
      continue;
    }
    for (int64_t pad : {lo, hi})
      if (mode == "reflect" && pad >= kept)
        return op->emitOpError()
               << "mode reflect pads dim " << d << " by " << pad
               << ": at most " << kept - 1 << " (its size after the crops - 1)";
  }
  return success();
}

/// Pad-19: without `axes` it is Pad-13 (mode "wrap" gives the same shape as
/// the others).
static LogicalResult inferPad(Operation *op, const ONNX::OpInfo &info,
                              InferenceState &state) {
  if (RankedTensorType in = getRankedOperand(op, 0)) {
    InferenceState::Impl &impl = state.getImpl();
    std::optional<SmallVector<int64_t>> axes;
    if (!isAbsent(op, 3))
      axes = impl.getKnownInts(op->getOperand(3));
    if ((isAbsent(op, 3) || axes) &&
        failed(checkPadValues(op, in, impl.getKnownInts(op->getOperand(1)),
                              axes)))
      return failure();
  }
  if (isAbsent(op, 3)) {
    SchemaCall call;
    call.version = 13;
    call.numInputs = 3;
    call.hiddenAttrs = {"mode"};
    return inferWithLibOnnx(op, info, state, call);
  }
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  if (!in)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  SmallVector<SymDim> dims(in.getRank());
  InferenceState::Impl &impl = state.getImpl();
  auto pads = impl.getKnownInts(op->getOperand(1));
  auto axes = impl.getKnownInts(op->getOperand(3));
  if (pads && axes) {
    if (pads->size() != 2 * axes->size())
      return op->emitOpError() << "'pads' has " << pads->size()
                               << " values for " << axes->size() << " axes";
    dims = getSymDims(in);
    for (auto [i, a] : llvm::enumerate(*axes)) {
      FailureOr<int64_t> axis = normalizeAxis(op, a, in.getRank());
      if (failed(axis))
        return failure();
      SymDim &d = dims[*axis];
      int64_t delta = (*pads)[i] + (*pads)[i + axes->size()];
      if (d.isStatic())
        d.size += delta;
      else if (delta != 0)
        d = SymDim();
      if (d.isStatic() && d.size < 0)
        return op->emitOpError()
               << "padding makes dim " << *axis << " negative";
    }
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// Split-18: `num_outputs` splits into equal chunks of ceil(dim / n), the
/// last one smaller; otherwise it is Split-13.
static LogicalResult inferSplit(Operation *op, const ONNX::OpInfo &info,
                                InferenceState &state) {
  auto numOutputs = op->getAttrOfType<IntegerAttr>("num_outputs");
  if (!numOutputs) {
    SchemaCall call;
    call.version = 13;
    call.hiddenAttrs = {"num_outputs"};
    if (failed(inferWithLibOnnx(op, info, state, call)))
      return failure();
    // libonnx 1.12 leaves every piece's axis dim unknown when the input's
    // is: known sizes give them anyway (a Squeeze of a [2, 1] piece of a
    // [2, N] input needs its 1; onnxc refused such a model, found by
    // difffuzz). The lowering checks that they add up to the dim.
    RankedTensorType in = getRankedOperand(op, 0);
    if (!in || isAbsent(op, 1))
      return success();
    std::optional<SmallVector<int64_t>> sizes =
        state.getImpl().getKnownInts(op->getOperand(1));
    if (!sizes || sizes->size() != op->getNumResults())
      return success();
    FailureOr<int64_t> axis =
        normalizeAxis(op, getIntAttr(op, "axis", 0), in.getRank());
    if (failed(axis))
      return failure();
    for (auto [i, r] : llvm::enumerate(op->getResults())) {
      auto rt = llvm::dyn_cast<RankedTensorType>(r.getType());
      if (!rt || rt.getRank() != in.getRank() || (*sizes)[i] < 0 ||
          !rt.isDynamicDim(*axis))
        continue;
      SmallVector<SymDim> dims = getSymDims(rt);
      dims[*axis] = SymDim();
      dims[*axis].size = (*sizes)[i];
      if (failed(refineResult(op, i, getSymTensorType(dims, rt.getElementType()))))
        return failure();
    }
    return success();
  }
  int64_t n = numOutputs.getInt();
  if (n < 1 || n != (int64_t)op->getNumResults())
    return op->emitOpError() << "num_outputs is " << n << " but the op has "
                             << op->getNumResults() << " results";
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  if (!in) {
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      if (failed(refineResult(op, i, UnrankedTensorType::get(elt))))
        return failure();
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(op, getIntAttr(op, "axis", 0), in.getRank());
  if (failed(axis))
    return failure();
  SmallVector<SymDim> dims = getSymDims(in);
  int64_t size = in.getDimSize(*axis);
  int64_t chunk = ShapedType::isDynamic(size) ? size : (size + n - 1) / n;
  for (int64_t i = 0; i < n; ++i) {
    SymDim d;
    if (!ShapedType::isDynamic(size)) {
      d.size = i + 1 < n ? chunk : size - chunk * (n - 1);
      if (d.size < 0)
        return op->emitOpError() << "cannot split dim " << *axis << " of size "
                                 << size << " into " << n << " chunks";
    }
    dims[*axis] = d;
    if (failed(refineResult(op, i, getSymTensorType(dims, elt))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

/// Compress-11: libonnx checks `axis` but gives no shape. Without `axis` the
/// result is 1-D (the selected elements of the flattened input); with it, the
/// input's shape with that dim dynamic (the number of true conditions).
static LogicalResult inferCompress(Operation *op, const ONNX::OpInfo &info,
                                   InferenceState &state) {
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  if (!axisAttr)
    return refineResult(op, 0, RankedTensorType::get({ShapedType::kDynamic}, elt));
  RankedTensorType in = getRankedOperand(op, 0);
  if (!in)
    return success();
  FailureOr<int64_t> axis = normalizeAxis(op, axisAttr.getInt(), in.getRank());
  if (failed(axis))
    return failure();
  SmallVector<SymDim> dims = getSymDims(in);
  dims[*axis] = SymDim();
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

//===----------------------------------------------------------------------===//
// Optional, bitwise and string ops
//===----------------------------------------------------------------------===//

/// OptionalHasElement-18 also takes a plain tensor or sequence: a bool scalar.
static LogicalResult
inferOptionalHasElement(Operation *op, const ONNX::OpInfo &, InferenceState &) {
  Builder b(op->getContext());
  return refineResult(op, 0, RankedTensorType::get({}, b.getI1Type()));
}

/// OptionalGetElement-18: opt<T> -> T; a plain T passes through.
static LogicalResult
inferOptionalGetElement(Operation *op, const ONNX::OpInfo &, InferenceState &) {
  if (op->getNumOperands() < 1)
    return success();
  Type t = op->getOperand(0).getType();
  if (auto o = llvm::dyn_cast<ONNX::OptType>(t))
    t = o.getElementType();
  return refineResult(op, 0, t);
}

/// Elementwise ops with numpy broadcasting; the result has the element type
/// of input 0 (or `resultElt`).
static LogicalResult inferBroadcast(Operation *op, Type resultElt = {}) {
  SmallVector<SmallVector<SymDim>> shapes;
  Type elt;
  bool ranked = true;
  for (Value v : op->getOperands()) {
    Type e = getElementTypeOf(v);
    if (!e)
      return success();
    if (elt && e != elt)
      return op->emitOpError()
             << "inputs have different element types " << elt << " and " << e;
    elt = e;
    if (auto r = llvm::dyn_cast<RankedTensorType>(v.getType()))
      shapes.push_back(getSymDims(r));
    else
      ranked = false;
  }
  if (!elt)
    return success();
  if (resultElt)
    elt = resultElt;
  std::string error;
  SmallVector<ArrayRef<SymDim>> refs(shapes.begin(), shapes.end());
  FailureOr<SmallVector<SymDim>> out = broadcastShapes(refs, error);
  if (failed(out))
    return op->emitOpError() << error;
  if (!ranked)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  return refineResult(op, 0, getSymTensorType(*out, elt));
}

static LogicalResult inferBitwise(Operation *op, const ONNX::OpInfo &,
                                  InferenceState &) {
  return inferBroadcast(op);
}

static LogicalResult inferStringConcat(Operation *op, const ONNX::OpInfo &,
                                       InferenceState &) {
  return inferBroadcast(op);
}

/// RegexFullMatch-20: the shape of X, bool.
static LogicalResult inferRegexFullMatch(Operation *op, const ONNX::OpInfo &,
                                         InferenceState &) {
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!t)
    return success();
  return refineResult(op, 0, t.clone(IntegerType::get(op->getContext(), 1)));
}

/// StringSplit-20: Y has X's shape plus a dim for the substrings, Z
/// (int64) X's shape.
static LogicalResult inferStringSplit(Operation *op, const ONNX::OpInfo &,
                                      InferenceState &) {
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!t || op->getNumResults() != 2)
    return success();
  auto r = llvm::dyn_cast<RankedTensorType>(t);
  if (!r)
    return failure(
        failed(refineResult(op, 0, t)) ||
        failed(refineResult(op, 1,
                            t.clone(IntegerType::get(op->getContext(), 64)))));
  SmallVector<SymDim> dims = getSymDims(r);
  if (failed(refineResult(
          op, 1,
          getSymTensorType(dims, IntegerType::get(op->getContext(), 64)))))
    return failure();
  dims.push_back(SymDim());
  return refineResult(op, 0, getSymTensorType(dims, t.getElementType()));
}

/// StringNormalizer-10: X is [C] or [1, C]; Y is [C'] or [1, C'] (C' is
/// unknown: stopwords drop strings). libonnx 1.12's rule also refuses a
/// symbolic first dim of a 2-D X; here it is taken as 1, as the spec
/// requires, and the lowering checks it at run time.
static LogicalResult inferStringNormalizer(Operation *op, const ONNX::OpInfo &,
                                           InferenceState &) {
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!t)
    return success();
  Type str = t.getElementType();
  auto r = llvm::dyn_cast<RankedTensorType>(t);
  if (!r)
    return refineResult(op, 0, UnrankedTensorType::get(str));
  if (r.getRank() == 1)
    return refineResult(op, 0, RankedTensorType::get({ShapedType::kDynamic}, str));
  if (r.getRank() != 2 || (!r.isDynamicDim(0) && r.getDimSize(0) != 1))
    return op->emitOpError()
           << "Input shape must have either [C] or [1,C] dimensions where C > 0";
  return refineResult(op, 0,
                      RankedTensorType::get({1, ShapedType::kDynamic}, str));
}

//===----------------------------------------------------------------------===//
// CenterCropPad, DFT
//===----------------------------------------------------------------------===//

/// CenterCropPad-18: the dims listed in `axes` (all by default) become the
/// values of input `shape`.
static LogicalResult inferCenterCropPad(Operation *op, const ONNX::OpInfo &,
                                        InferenceState &state) {
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  if (!in)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  SmallVector<int64_t> axes = getAxesOrAll(op, in.getRank());
  RankedTensorType shapeType = getRankedOperand(op, 1);
  if (shapeType && shapeType.getRank() == 1 && shapeType.hasStaticShape() &&
      shapeType.getDimSize(0) != (int64_t)axes.size())
    return op->emitOpError() << "'shape' has " << shapeType.getDimSize(0)
                             << " values for " << axes.size() << " axes";
  const onnx::TensorShapeProto *data =
      state.getImpl().getShapeData(op->getOperand(1));
  SmallVector<SymDim> dims = getSymDims(in);
  for (auto [i, a] : llvm::enumerate(axes)) {
    FailureOr<int64_t> axis = normalizeAxis(op, a, in.getRank());
    if (failed(axis))
      return failure();
    dims[*axis] =
        data && (int)i < data->dim_size() ? toSymDim(data->dim(i)) : SymDim();
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// DFT-20: `dft_length` and `axis` (default -2) are inputs; the last dim of
/// the result is 2 (complex).
static LogicalResult inferDFT(Operation *op, const ONNX::OpInfo &,
                              InferenceState &state) {
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  if (!in)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  int64_t rank = in.getRank();
  if (rank < 2)
    return op->emitOpError() << "input must have rank >= 2, it has " << rank;
  int64_t lastDim = in.getDimSize(rank - 1);
  if (!ShapedType::isDynamic(lastDim) && lastDim != 1 && lastDim != 2)
    return op->emitOpError()
           << "the last dim of the input must be 1 or 2, it is " << lastDim;
  InferenceState::Impl &impl = state.getImpl();
  int64_t axis = -2;
  if (!isAbsent(op, 2)) {
    auto a = impl.getKnownInts(op->getOperand(2));
    if (!a || a->size() != 1) {
      SmallVector<int64_t> dims(rank, ShapedType::kDynamic);
      dims[rank - 1] = 2;
      return refineResult(op, 0, RankedTensorType::get(dims, elt));
    }
    axis = a->front();
  }
  if (axis < -rank || axis >= rank - 1 || axis == -1)
    return op->emitOpError()
           << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  SmallVector<SymDim> dims = getSymDims(in);
  dims[rank - 1].size = 2;
  dims[rank - 1].name.clear();
  SymDim length = dims[axis];
  if (!isAbsent(op, 1)) {
    auto l = impl.getKnownInts(op->getOperand(1));
    length = l && l->size() == 1 ? SymDim{l->front(), ""} : SymDim();
  }
  bool onesided = getIntAttr(op, "onesided", 0) != 0;
  if (onesided && length.isStatic())
    length.size = length.size / 2 + 1;
  else if (onesided)
    length = SymDim();
  dims[axis] = length;
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

//===----------------------------------------------------------------------===//
// Window functions, MelWeightMatrix, STFT
//===----------------------------------------------------------------------===//

/// The value of scalar (or 1-element) integer operand `index`, if known.
static std::optional<int64_t> getKnownScalar(Operation *op, unsigned index,
                                             InferenceState &state) {
  if (isAbsent(op, index))
    return std::nullopt;
  auto values = state.getImpl().getKnownInts(op->getOperand(index));
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

/// Blackman/Hann/HammingWindow-17: libonnx gives [size] when `size` is
/// known and nothing otherwise; the result is 1-D either way.
static LogicalResult inferWindow(Operation *op, const ONNX::OpInfo &info,
                                 InferenceState &state) {
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  Type elt = getElementTypeOf(op->getResult(0));
  if (!elt)
    return success();
  return refineResult(op, 0, RankedTensorType::get({ShapedType::kDynamic}, elt));
}

/// MelWeightMatrix-17: [floor(dft_length / 2) + 1, num_mel_bins]; libonnx
/// gives it only when both are known, each dim is given here on its own.
static LogicalResult inferMelWeightMatrix(Operation *op,
                                          const ONNX::OpInfo &info,
                                          InferenceState &state) {
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  Type elt = getElementTypeOf(op->getResult(0));
  if (!elt)
    return success();
  SmallVector<int64_t> shape(2, ShapedType::kDynamic);
  if (auto dftLength = getKnownScalar(op, 1, state); dftLength && *dftLength > 0)
    shape[0] = *dftLength / 2 + 1;
  if (auto bins = getKnownScalar(op, 0, state); bins && *bins > 0)
    shape[1] = *bins;
  return refineResult(op, 0, RankedTensorType::get(shape, elt));
}

/// STFT-17: signal [batch, length, 1 or 2] -> [batch, frames, bins, 2] with
/// frames = (length - frame_length) / frame_step + 1 and bins frame_length
/// (frame_length / 2 + 1 if onesided); frame_length is the input of that
/// name or the window's length. Not libonnx's: it reads a symbolic batch
/// dim as 0 and counts frames with the onesided bin count.
static LogicalResult inferSTFT(Operation *op, const ONNX::OpInfo &,
                               InferenceState &state) {
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  RankedTensorType signal = getRankedOperand(op, 0);
  if (signal && signal.getRank() != 3)
    return op->emitOpError()
           << "signal must have rank 3, it has " << signal.getRank();
  SmallVector<SymDim> dims(4);
  dims[3].size = 2;
  if (signal)
    dims[0] = SymDim::of(signal, 0);
  std::optional<int64_t> frameLength = getKnownScalar(op, 3, state);
  RankedTensorType window = isAbsent(op, 2) ? RankedTensorType()
                                            : getRankedOperand(op, 2);
  if (window && window.getRank() != 1)
    return op->emitOpError()
           << "window must have rank 1, it has " << window.getRank();
  if (window && !window.isDynamicDim(0)) {
    if (frameLength && *frameLength != window.getDimSize(0))
      return op->emitOpError()
             << "frame_length " << *frameLength << " differs from the length "
             << window.getDimSize(0) << " of the window";
    frameLength = window.getDimSize(0);
  }
  std::optional<int64_t> frameStep = getKnownScalar(op, 1, state);
  if (frameLength && *frameLength > 0) {
    bool onesided = getIntAttr(op, "onesided", 1) != 0;
    dims[2].size = onesided ? *frameLength / 2 + 1 : *frameLength;
    if (signal && !signal.isDynamicDim(1) && frameStep && *frameStep > 0 &&
        signal.getDimSize(1) >= *frameLength)
      dims[1].size = (signal.getDimSize(1) - *frameLength) / *frameStep + 1;
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// OneHot: a known depth must be positive (a negative one compiled into a
/// negative dimension); then libonnx's inference.
static LogicalResult inferOneHot(Operation *op, const ONNX::OpInfo &info,
                                 InferenceState &state) {
  if (auto depth = state.getImpl().getKnownNumbers(op->getOperand(1)))
    if (depth->size() == 1 && !((*depth)[0] >= 1)) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", (*depth)[0]);
      return op->emitOpError() << "depth is " << text << ", expected >= 1";
    }
  return inferWithLibOnnx(op, info, state);
}

/// The ONNX code of `v`'s element type when libonnx 1.12 lacks it (float8
/// 17-20, uint4/int4 21-22, float4e2m1 23), else 0.
static int32_t newElementCode(Value v) {
  Type e = getElementTypeOf(v);
  int32_t c = e ? proto::getDataType(e) : 0;
  return c >= 17 && c <= 23 ? c : 0;
}

/// Identity, Reshape, Shape, Size, Transpose, Squeeze, Unsqueeze, Flatten:
/// libonnx's inference, with a float8/int4/float4 input presented as uint8.
static LogicalResult inferDataMovement(Operation *op, const ONNX::OpInfo &info,
                                       InferenceState &state) {
  SchemaCall call;
  call.version = info.libonnxInferenceVersion;
  call.standInFor = newElementCode(op->getOperand(0));
  return inferWithLibOnnx(op, info, state, call);
}

/// Cast, CastLike to or from float8/int4/float4 (libonnx 1.12 refuses the
/// type codes): x's shape with the target type.
static LogicalResult inferCast(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state) {
  bool isCast = op->getName().getStringRef() == "onnx.Cast";
  Type target =
      isCast ? proto::getElementType(op->getContext(),
                                     (int32_t)getIntAttr(op, "to", 0))
             : getElementTypeOf(op->getOperand(1));
  int32_t to = target ? proto::getDataType(target) : 0;
  if (!newElementCode(op->getOperand(0)) && !(to >= 17 && to <= 23))
    return inferWithLibOnnx(op, info, state);
  auto x = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!x || !target)
    return success();
  return refineResult(op, 0, x.clone(target));
}

void mlir::onnxc::registerTensorRules(llvm::StringMap<InferenceRule> &rules) {
  for (StringRef n : {"onnx.Identity", "onnx.Reshape", "onnx.Shape",
                      "onnx.Size", "onnx.Transpose", "onnx.Squeeze",
                      "onnx.Unsqueeze", "onnx.Flatten"})
    rules[n] = inferDataMovement;
  rules["onnx.Cast"] = inferCast;
  rules["onnx.CastLike"] = inferCast;
  rules["onnx.OneHot"] = inferOneHot;
  for (StringRef n :
       {"onnx.ReduceL1", "onnx.ReduceL2", "onnx.ReduceLogSum",
        "onnx.ReduceLogSumExp", "onnx.ReduceMax", "onnx.ReduceMean",
        "onnx.ReduceMin", "onnx.ReduceProd", "onnx.ReduceSumSquare"})
    rules[n] = inferReduce;
  rules["onnx.Pad"] = inferPad;
  rules["onnx.Split"] = inferSplit;
  rules["onnx.OptionalHasElement"] = inferOptionalHasElement;
  rules["onnx.OptionalGetElement"] = inferOptionalGetElement;
  for (StringRef n : {"onnx.BitwiseAnd", "onnx.BitwiseOr", "onnx.BitwiseXor"})
    rules[n] = inferBitwise;
  for (StringRef n : {"onnx.BitwiseNot", "onnx.Mish", "onnx.Gelu"})
    rules[n] = inferSameAsInput;
  rules["onnx.StringConcat"] = inferStringConcat;
  rules["onnx.RegexFullMatch"] = inferRegexFullMatch;
  rules["onnx.StringSplit"] = inferStringSplit;
  rules["onnx.StringNormalizer"] = inferStringNormalizer;
  rules["onnx.CenterCropPad"] = inferCenterCropPad;
  rules["onnx.DFT"] = inferDFT;
  rules["onnx.ReduceSum"] = inferReduceSum;
  rules["onnx.Compress"] = inferCompress;
  for (StringRef n :
       {"onnx.BlackmanWindow", "onnx.HannWindow", "onnx.HammingWindow"})
    rules[n] = inferWindow;
  rules["onnx.MelWeightMatrix"] = inferMelWeightMatrix;
  rules["onnx.STFT"] = inferSTFT;
}

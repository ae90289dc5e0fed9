//===- RulesNN.cpp - onnxc's inference rules: neural-network ops ----------===//
//
// Pooling, convolution-like, resampling and normalization ops whose newest
// signature libonnx 1.12 does not know, and convolutions whose result
// libonnx leaves unranked when the kernel shape is unknown. Pooling shapes
// all follow the MaxPool formula (kernel, pads, strides, dilations,
// ceil_mode): newer variants are presented to libonnx's MaxPool-12 when
// their own older schema lacks an attribute they use.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::onnxc;

static bool hasNonUnitInts(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
  return a && llvm::any_of(a.asArrayRef(), [](int64_t v) { return v != 1; });
}

static std::optional<LogicalResult> inferCeilModePool(Operation *op);

static SchemaCall asMaxPool(std::vector<std::string> hidden) {
  SchemaCall call;
  call.version = 12;
  call.schemaName = "MaxPool";
  call.numInputs = 1;
  call.hiddenAttrs = std::move(hidden);
  return call;
}

/// AveragePool-19 adds `dilations`.
static LogicalResult inferAveragePool(Operation *op, const ONNX::OpInfo &info,
                                      InferenceState &state) {
  if (std::optional<LogicalResult> r = inferCeilModePool(op))
    return *r;
  if (!hasNonUnitInts(op, "dilations")) {
    SchemaCall call;
    call.version = 11;
    call.hiddenAttrs = {"dilations"};
    return inferWithLibOnnx(op, info, state, call);
  }
  return inferWithLibOnnx(op, info, state, asMaxPool({"count_include_pad"}));
}

/// LpPool-18 adds `ceil_mode` and `dilations`.
static LogicalResult inferLpPool(Operation *op, const ONNX::OpInfo &info,
                                 InferenceState &state) {
  if (std::optional<LogicalResult> r = inferCeilModePool(op))
    return *r;
  if (getIntAttr(op, "ceil_mode", 0) == 0 && !hasNonUnitInts(op, "dilations")) {
    SchemaCall call;
    call.version = 11;
    call.hiddenAttrs = {"ceil_mode", "dilations"};
    return inferWithLibOnnx(op, info, state, call);
  }
  return inferWithLibOnnx(op, info, state, asMaxPool({"p"}));
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// Integer-array attribute `name` of `op` if it has `n` entries, else `n`
/// copies of `dflt` (a wrong length is libonnx's or the verifier's to
/// report).
static SmallVector<int64_t> getSpatialInts(Operation *op, StringRef name,
                                           int64_t n, int64_t dflt) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
  if (a && (int64_t)a.size() == n)
    return SmallVector<int64_t>(a.asArrayRef());
  return SmallVector<int64_t>(n, dflt);
}

/// The result dims of a pooling op with ceil_mode = 1 and explicit pads when
/// its last window along some axis would start in the end padding, which
/// ONNX Runtime and onnxc's lowering (Window.cpp) drop and libonnx 1.12's
/// formula counts: out = ceil((in + pads - ((k - 1) d + 1)) / s) + 1, minus
/// one when (out - 1) s >= in + pad_begin. None otherwise (libonnx then
/// infers, with the same result).
static std::optional<SmallVector<SymDim>> ceilModePoolDims(Operation *op) {
  if (getIntAttr(op, "ceil_mode", 0) == 0)
    return std::nullopt;
  if (auto autoPad = op->getAttrOfType<StringAttr>("auto_pad"))
    if (!autoPad.getValue().empty() && autoPad.getValue() != "NOTSET")
      return std::nullopt;
  RankedTensorType x = getRankedOperand(op, 0);
  auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape");
  if (!x || x.getRank() < 3 || !kernel ||
      (int64_t)kernel.size() != x.getRank() - 2)
    return std::nullopt;
  int64_t n = x.getRank() - 2;
  SmallVector<int64_t> strides = getSpatialInts(op, "strides", n, 1);
  SmallVector<int64_t> dilations = getSpatialInts(op, "dilations", n, 1);
  SmallVector<int64_t> pads = getSpatialInts(op, "pads", 2 * n, 0);
  SmallVector<SymDim> dims{SymDim::of(x, 0), SymDim::of(x, 1)};
  bool dropped = false;
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = x.getDimSize(i + 2), s = strides[i];
    if (ShapedType::isDynamic(in)) {
      dims.push_back(SymDim());
      continue;
    }
    int64_t span = in + pads[i] + pads[i + n] - ((kernel[i] - 1) * dilations[i] + 1);
    if (span < 0 || s <= 0)
      return std::nullopt; // libonnx reports it
    int64_t out = (span + s - 1) / s + 1;
    if ((out - 1) * s >= in + pads[i]) {
      --out;
      dropped = true;
    }
    SymDim d;
    d.size = out;
    dims.push_back(d);
  }
  if (!dropped)
    return std::nullopt;
  return dims;
}

/// Results of a pooling op from ceilModePoolDims (Indices as int64).
static std::optional<LogicalResult> inferCeilModePool(Operation *op) {
  std::optional<SmallVector<SymDim>> dims = ceilModePoolDims(op);
  if (!dims)
    return std::nullopt;
  if (failed(refineResult(
          op, 0, getSymTensorType(*dims, getElementTypeOf(op->getOperand(0))))))
    return failure();
  if (op->getNumResults() > 1 && !isa<NoneType>(op->getResult(1).getType()))
    return refineResult(op, 1,
                        getSymTensorType(*dims, IntegerType::get(op->getContext(), 64)));
  return success();
}

/// MaxPool: libonnx, except for a dropped last ceil_mode window.
static LogicalResult inferMaxPool(Operation *op, const ONNX::OpInfo &info,
                                  InferenceState &state) {
  if (std::optional<LogicalResult> r = inferCeilModePool(op))
    return *r;
  return inferWithLibOnnx(op, info, state);
}

/// What a convolution's result is without its kernel shape. libonnx (Conv,
/// ConvInteger, QLinearConv, ConvTranspose) computes Y's shape only when the
/// kernel shape is known (attribute, or W's static spatial dims) and
/// otherwise leaves Y unranked, although Y always has X's rank: (N, M,
/// spatial...) with N X's dim 0 and M W's dim 0 (ConvTranspose: W's dim 1
/// times group). The spatial dims that do not depend on the kernel are
/// given too: SAME padding with stride 1 keeps X's dim (its name as well),
/// with stride s a static X dim gives ceil(in / s); ConvTranspose's
/// `output_shape` gives them all. The rest stay dynamic. Merged into what
/// libonnx inferred, so it only adds to it.
static LogicalResult refineConvResult(Operation *op, unsigned xIndex,
                                      unsigned wIndex, bool transpose) {
  RankedTensorType x = getRankedOperand(op, xIndex);
  auto result = llvm::dyn_cast<TensorType>(op->getResult(0).getType());
  if (!x || !result || x.getRank() < 2)
    return success();
  int64_t rank = x.getRank(), spatial = rank - 2;
  SmallVector<SymDim> dims(rank);
  dims[0] = SymDim::of(x, 0);
  if (RankedTensorType w = getRankedOperand(op, wIndex);
      w && w.getRank() == rank) {
    if (!transpose) {
      dims[1] = SymDim::of(w, 0);
    } else {
      int64_t group = getIntAttr(op, "group", 1);
      SymDim c = SymDim::of(w, 1);
      if (c.isStatic())
        c.size *= group;
      else if (group != 1)
        c = SymDim();
      dims[1] = c;
    }
  }
  SmallVector<int64_t> strides = getSpatialInts(op, "strides", spatial, 1);
  // libonnx lets explicit pads win over auto_pad.
  auto autoPad = op->getAttrOfType<StringAttr>("auto_pad");
  bool same = autoPad && !op->hasAttr("pads") &&
              (autoPad.getValue() == "SAME_UPPER" ||
               autoPad.getValue() == "SAME_LOWER");
  auto outputShape = op->getAttrOfType<DenseI64ArrayAttr>("output_shape");
  bool hasOutputShape =
      transpose && outputShape && (int64_t)outputShape.size() == spatial;
  // ConvTranspose with SAME adds output_padding, and libonnx's formula
  // differs from the ONNX text when the kernel is smaller than the stride:
  // only stride 1 without output_padding is unambiguous (Y's dim is X's).
  bool transposeSameIsInput =
      same && llvm::all_of(getSpatialInts(op, "output_padding", spatial, 0),
                           [](int64_t p) { return p == 0; });
  for (int64_t i = 0; i < spatial; ++i) {
    SymDim in = SymDim::of(x, 2 + i);
    SymDim &out = dims[2 + i];
    int64_t s = strides[i];
    if (hasOutputShape)
      out.size = outputShape[i];
    else if (transpose ? transposeSameIsInput && s == 1 : same && s == 1)
      out = in;
    else if (!transpose && same && in.isStatic() && s > 0)
      out.size = (in.size + s - 1) / s;
  }
  return refineResult(op, 0, getSymTensorType(dims, result.getElementType()));
}

/// Conv, ConvInteger, QLinearConv and ConvTranspose: libonnx's inference,
/// then what refineConvResult adds.
template <unsigned XIndex, unsigned WIndex, bool Transpose>
static LogicalResult inferConv(Operation *op, const ONNX::OpInfo &info,
                               InferenceState &state) {
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  return refineConvResult(op, XIndex, WIndex, Transpose);
}

/// DeformConv-19 has Conv's output shape: X and W are Conv's inputs.
static LogicalResult inferDeformConv(Operation *op, const ONNX::OpInfo &info,
                                     InferenceState &state) {
  SchemaCall call;
  call.version = 11;
  call.schemaName = "Conv";
  call.numInputs = 2;
  call.hiddenAttrs = {"offset_group"};
  if (failed(inferWithLibOnnx(op, info, state, call)))
    return failure();
  return refineConvResult(op, 0, 1, /*transpose=*/false);
}

/// MaxUnpool: libonnx leaves the result unranked when the values of the
/// output_shape operand are unknown, although the result has X's rank.
static LogicalResult inferMaxUnpool(Operation *op, const ONNX::OpInfo &info,
                                    InferenceState &state) {
  // I has X's shape (the spec). libonnx 1.12 reads dim 1 of I's shape
  // without a check (it crashed on a fuzzed model whose I was 1-D).
  RankedTensorType x = getRankedOperand(op, 0);
  if (RankedTensorType i = getRankedOperand(op, 1)) {
    if (i.getRank() < 2)
      return op->emitOpError() << "indices I have rank " << i.getRank()
                               << "; they must have the shape of X (rank >= 2)";
    if (x && x.getRank() != i.getRank())
      return op->emitOpError() << "indices I have rank " << i.getRank()
                               << "; they must have the shape of X (rank "
                               << x.getRank() << ")";
  }
  if (failed(inferWithLibOnnx(op, info, state)))
    return failure();
  // An output_shape known here may not be smaller than the unpooled shape,
  // (in - 1) * stride + kernel - pads (ONNX Runtime refuses it; the
  // lowering checks it at run time otherwise).
  auto y = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape");
  std::optional<SmallVector<int64_t>> known;
  if (x && kernel && !isAbsent(op, 2))
    known = state.getImpl().getKnownInts(op->getOperand(2));
  if (known && (int64_t)known->size() == x.getRank() &&
      (int64_t)kernel.size() == x.getRank() - 2) {
    int64_t n = x.getRank() - 2;
    SmallVector<int64_t> strides = getSpatialInts(op, "strides", n, 1);
    SmallVector<int64_t> pads = getSpatialInts(op, "pads", 2 * n, 0);
    for (int64_t d = 0; d < x.getRank(); ++d) {
      if (x.isDynamicDim(d))
        continue;
      int64_t unpooled = x.getDimSize(d);
      if (d >= 2) {
        int64_t s = d - 2, v;
        if (__builtin_mul_overflow(unpooled - 1, strides[s], &v) ||
            __builtin_add_overflow(v, kernel[s], &v) ||
            __builtin_sub_overflow(v, pads[s], &v) ||
            __builtin_sub_overflow(v, pads[s + n], &v))
          continue;
        unpooled = v;
      }
      if ((*known)[d] < unpooled)
        return op->emitOpError()
               << "output_shape has " << (*known)[d] << " in dim " << d
               << ", smaller than the unpooled " << unpooled;
    }
  }
  if (!x || y)
    return success();
  SmallVector<int64_t> shape(x.getRank(), ShapedType::kDynamic);
  return refineResult(op, 0, RankedTensorType::get(shape, x.getElementType()));
}

/// Quantize/DequantizeLinear-21: block_size, output_dtype and int4 are new;
/// the result has the shape of x.
static LogicalResult inferQuantizeLinear(Operation *op,
                                         const ONNX::OpInfo &info,
                                         InferenceState &state) {
  int64_t outputDType = getIntAttr(op, "output_dtype", 0);
  // libonnx's QuantizeLinear-13 knows uint8/int8 zero points only.
  Type zpElt = isAbsent(op, 2) ? Type() : getElementTypeOf(op->getOperand(2));
  bool zp8 = !zpElt || zpElt.isInteger(8);
  if (getIntAttr(op, "block_size", 0) == 0 && outputDType == 0 && zp8) {
    SchemaCall call;
    call.version = 13;
    call.hiddenAttrs = {"saturate", "precision"};
    return inferWithLibOnnx(op, info, state, call);
  }
  auto x = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!x)
    return success();
  Type elt;
  if (!isAbsent(op, 2))
    elt = getElementTypeOf(op->getOperand(2));
  else if (outputDType)
    elt = proto::getElementType(op->getContext(), (int32_t)outputDType);
  else
    elt = IntegerType::get(op->getContext(), 8, IntegerType::Unsigned);
  if (!elt)
    return success();
  return refineResult(op, 0, x.clone(elt));
}

static LogicalResult inferDequantizeLinear(Operation *op,
                                           const ONNX::OpInfo &info,
                                           InferenceState &state) {
  Type scaleElt = getElementTypeOf(op->getOperand(1));
  int64_t outputDType = getIntAttr(op, "output_dtype", 0);
  Type xElt = getElementTypeOf(op->getOperand(0));
  if (getIntAttr(op, "block_size", 0) == 0 && outputDType == 0 && scaleElt &&
      scaleElt.isF32() && xElt && (xElt.isInteger(8) || xElt.isInteger(32))) {
    SchemaCall call;
    call.version = 13;
    return inferWithLibOnnx(op, info, state, call);
  }
  auto x = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  // Opset 23's output_dtype, else the scale's type.
  Type elt = outputDType
                 ? proto::getElementType(op->getContext(), (int32_t)outputDType)
                 : scaleElt;
  if (!x || !elt)
    return success();
  return refineResult(op, 0, x.clone(elt));
}

/// Resize-19: with the new attributes at their defaults it is Resize-13
/// (antialias and half_pixel_symmetric change values, not shapes).
static LogicalResult inferResize(Operation *op, const ONNX::OpInfo &info,
                                 InferenceState &state) {
  // Scales must be positive (ONNX: "It takes value greater than 0"); a
  // zero scale gives an empty output whose sampling divides by zero.
  if (!isAbsent(op, 2))
    if (auto scales = state.getImpl().getKnownNumbers(op->getOperand(2)))
      for (auto [i, s] : llvm::enumerate(*scales))
        if (!(s > 0) || !std::isfinite(s)) {
          char text[32];
          std::snprintf(text, sizeof text, "%g", s);
          return op->emitOpError() << "scale " << i << " is " << text
                                   << ", expected a finite number > 0";
        }
  if (!isAbsent(op, 3))
    if (auto sizes = state.getImpl().getKnownInts(op->getOperand(3)))
      for (auto [i, s] : llvm::enumerate(*sizes))
        if (s <= 0)
          return op->emitOpError()
                 << "size " << i << " is " << s << ", expected > 0";
  auto policy = op->getAttrOfType<StringAttr>("keep_aspect_ratio_policy");
  bool stretch = !policy || policy.getValue() == "stretch";
  if (!op->hasAttr("axes") && stretch) {
    SchemaCall call;
    call.version = 13;
    call.hiddenAttrs = {"antialias", "axes", "keep_aspect_ratio_policy"};
    auto mode = op->getAttrOfType<StringAttr>("coordinate_transformation_mode");
    if (mode && mode.getValue() == "half_pixel_symmetric")
      call.hiddenAttrs.push_back("coordinate_transformation_mode");
    return inferWithLibOnnx(op, info, state, call);
  }
  RankedTensorType in = getRankedOperand(op, 0);
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  if (!in)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  SmallVector<int64_t> axes = getAxesOrAll(op, in.getRank());
  SmallVector<SymDim> dims = getSymDims(in);
  auto sizes = isAbsent(op, 3)
                   ? std::nullopt
                   : state.getImpl().getKnownInts(op->getOperand(3));
  for (auto [i, a] : llvm::enumerate(axes)) {
    int64_t axis = a < 0 ? a + in.getRank() : a;
    if (axis < 0 || axis >= in.getRank())
      return op->emitOpError()
             << "axis " << a << " is out of range for rank " << in.getRank();
    // Only `sizes` with the stretch policy gives the dims directly.
    dims[axis] = sizes && stretch && i < sizes->size() ? SymDim{(*sizes)[i], ""}
                                                       : SymDim();
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// GridSample-20 takes N-d inputs; rank 4 is GridSample-16 (whose mode names
/// differ, but not its shapes).
static LogicalResult inferGridSample(Operation *op, const ONNX::OpInfo &info,
                                     InferenceState &state) {
  RankedTensorType x = getRankedOperand(op, 0);
  RankedTensorType grid = getRankedOperand(op, 1);
  if (x && x.getRank() == 4) {
    SchemaCall call;
    call.version = 16;
    call.hiddenAttrs = {"mode"};
    return inferWithLibOnnx(op, info, state, call);
  }
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  int64_t rank = x ? x.getRank() : grid ? grid.getRank() : -1;
  if (rank < 0)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  if (x && grid && x.getRank() != grid.getRank())
    return op->emitOpError() << "X has rank " << x.getRank()
                             << " but grid has rank " << grid.getRank();
  // N, C (or the grid's last dim) and a spatial dim at least: a rank-1
  // input wrote past `dims` (found by the fuzz campaign).
  if (rank < 3)
    return op->emitOpError() << (x ? "X" : "grid") << " has rank " << rank
                             << ", expected at least 3";
  SmallVector<SymDim> dims(rank);
  if (x) {
    dims[0] = SymDim::of(x, 0);
    dims[1] = SymDim::of(x, 1);
  }
  if (grid)
    for (int64_t i = 1; i + 1 < rank; ++i)
      dims[i + 1] = SymDim::of(grid, i);
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// Col2Im-18: (N, C * prod(block_shape), L) -> (N, C, image_shape...).
static LogicalResult inferCol2Im(Operation *op, const ONNX::OpInfo &,
                                 InferenceState &state) {
  Type elt = getElementTypeOf(op->getOperand(0));
  RankedTensorType imageShape = getRankedOperand(op, 1);
  if (!elt)
    return success();
  if (!imageShape || imageShape.getRank() != 1 || imageShape.isDynamicDim(0))
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  int64_t spatial = imageShape.getDimSize(0);
  SmallVector<SymDim> dims(2 + spatial);
  InferenceState::Impl &impl = state.getImpl();
  if (RankedTensorType in = getRankedOperand(op, 0)) {
    if (in.getRank() != 3)
      return op->emitOpError()
             << "input must have rank 3, it has " << in.getRank();
    dims[0] = SymDim::of(in, 0);
    auto block = impl.getKnownInts(op->getOperand(2));
    if (block && !in.isDynamicDim(1)) {
      int64_t product = 1;
      for (int64_t b : *block)
        product *= b;
      if (product <= 0 || in.getDimSize(1) % product != 0)
        return op->emitOpError()
               << "dim 1 of the input (" << in.getDimSize(1)
               << ") is not a multiple of the block size " << product;
      dims[1].size = in.getDimSize(1) / product;
    }
  }
  if (auto image = impl.getKnownInts(op->getOperand(1)))
    for (int64_t i = 0; i < spatial && i < (int64_t)image->size(); ++i)
      dims[2 + i].size = (*image)[i];
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// AffineGrid-20: size (N, C, H, W) -> (N, H, W, 2); (N, C, D, H, W) ->
/// (N, D, H, W, 3).
static LogicalResult inferAffineGrid(Operation *op, const ONNX::OpInfo &,
                                     InferenceState &state) {
  Type elt = getElementTypeOf(op->getOperand(0));
  RankedTensorType sizeType = getRankedOperand(op, 1);
  if (!elt)
    return success();
  if (!sizeType || sizeType.getRank() != 1 || sizeType.isDynamicDim(0))
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  int64_t n = sizeType.getDimSize(0);
  if (n != 4 && n != 5)
    return op->emitOpError() << "'size' must have 4 or 5 values, it has " << n;
  SmallVector<SymDim> dims(n);
  dims[n - 1].size = n - 2;
  if (RankedTensorType theta = getRankedOperand(op, 0))
    dims[0] = SymDim::of(theta, 0);
  if (const onnx::TensorShapeProto *size =
          state.getImpl().getShapeData(op->getOperand(1))) {
    if (size->dim_size() == n) {
      dims[0] = toSymDim(size->dim(0));
      for (int64_t i = 2; i < n; ++i)
        dims[i - 1] = toSymDim(size->dim(i));
    }
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

void mlir::onnxc::registerNNRules(llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.AveragePool"] = inferAveragePool;
  rules["onnx.MaxPool"] = inferMaxPool;
  rules["onnx.LpPool"] = inferLpPool;
  rules["onnx.MaxUnpool"] = inferMaxUnpool;
  rules["onnx.Conv"] = inferConv<0, 1, false>;
  rules["onnx.ConvInteger"] = inferConv<0, 1, false>;
  rules["onnx.QLinearConv"] = inferConv<0, 3, false>;
  rules["onnx.ConvTranspose"] = inferConv<0, 1, true>;
  rules["onnx.DeformConv"] = inferDeformConv;
  rules["onnx.QuantizeLinear"] = inferQuantizeLinear;
  rules["onnx.DequantizeLinear"] = inferDequantizeLinear;
  rules["onnx.Resize"] = inferResize;
  rules["onnx.GridSample"] = inferGridSample;
  rules["onnx.GroupNormalization"] = inferSameAsInput;
  rules["onnx.Col2Im"] = inferCol2Im;
  rules["onnx.AffineGrid"] = inferAffineGrid;
}

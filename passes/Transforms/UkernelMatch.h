//===- UkernelMatch.h - Forms onnxc-linalg-to-ukernel rewrites --*- C++ -*-===//
//
// The matchers of onnxc-linalg-to-ukernel (UkernelMatch.cpp): which linalg
// ops on buffers are products, convolutions and pools the runtime's
// kernels compute, and which neighbouring ops (zero fills, bias
// broadcasts, clamps, padding) fold into the kernel call (the
// initializations and clamps: UkernelEpilogue.cpp). LinalgToUkernel.cpp
// does the rewriting; onnxc-fuse-elementwise (FuseElementwise.cpp) reads
// the first section, the forms it must keep intact.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_TRANSFORMS_UKERNELMATCH_H
#define ONNXC_PASSES_TRANSFORMS_UKERNELMATCH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cmath>
#include <optional>

namespace mlir::onnxc::ukernel {

//===----------------------------------------------------------------------===//
// What the runtime's kernels compute: also read by onnxc-fuse-elementwise,
// which must not break these forms
//===----------------------------------------------------------------------===//

/// The body is `yield out + a * b` (operands of + and * in either order) over
/// the op's two inputs and its one init, in floating point.
bool hasMulAddBody(linalg::LinalgOp op);

/// Indexing maps and iterators (X, W, Y) of the grouped convolution that
/// onnxc-linalg-to-ukernel computes with the runtime's kernel
/// (matchConvolution, below): onnxc-fuse-elementwise keeps a
/// convolution in that form.
bool hasConvolutionMaps(ArrayRef<AffineMap> maps,
                        ArrayRef<utils::IteratorType> iters);

/// Strides and dilations (h, w) of `op` when it is the fp32 2-D max pool of
/// convert-onnx-to-linalg without Indices (Pooling.cpp): loops n, c, oh, ow
/// (parallel), kh, kw (reduction); maps X[n, c, oh * sh + kh * dh,
/// ow * sw + kw * dw], a kernel-shaped operand [kh, kw] and Y[n, c, oh, ow];
/// body `yield maximumf(x, y)`. On tensors or buffers: onnxc-fuse-elementwise
/// keeps the padding out of it, onnxc-linalg-to-ukernel replaces it by
/// onnxc_rt_smaxpool2d.
/// The value a padding (matchFusedPad) or a max pool's initial fill holds:
/// +0.0 (a convolution's zero padding), or the lowest value of a max pool's
/// type (-inf, uint8 0, int8 -128).
enum class PadValue { PosZero, NegInf, U8Lowest, S8Lowest };
bool isPadValue(Value v, PadValue kind);

/// A 2-D max pool generic (NCHW, no Indices) over f32 (arith.maximumf),
/// uint8 (arith.maxui) or int8 (arith.maxsi) elements; `lowest` is its
/// type's lowest value.
struct MaxPool2d {
  int64_t stride[2], dilation[2];
  PadValue lowest = PadValue::NegInf;
};
std::optional<MaxPool2d> matchMaxPool2d(linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// The matchers of onnxc-linalg-to-ukernel
//===----------------------------------------------------------------------===//

/// C[batch..., m, n] (+)= sum_k A[.., m, k] * B[.., k, n] in any layout.
struct Contraction {
  SmallVector<unsigned> batch; ///< parallel dims of C that are not m or n
  std::optional<unsigned> m, n;
  unsigned k = 0;
  SmallVector<SmallVector<int64_t>> dims; ///< per operand A, B, C
};

std::optional<Contraction> matchContraction(linalg::LinalgOp op);

/// The grouped convolution of convert-onnx-to-linalg (Conv.cpp): loops
/// n, g, m, o_i (parallel) and c, k_i (reduction), maps
/// X[n, g, c, o_i * s_i + k_i * d_i], W[g, m, c, k_i], Y[n, g, m, o_i];
/// one or two spatial dims.
struct Convolution {
  unsigned n = 0, g = 0, m = 0, c = 0;
  SmallVector<unsigned> o, k;
  SmallVector<int64_t> stride, dilation;
};

std::optional<Convolution> matchConvolution(linalg::LinalgOp op);
/// The same test on the indexing maps and iterators only (X, W, Y), for ops
/// on tensors: whether a rewrite keeps a convolution one that the kernel
/// computes.
std::optional<Convolution>
matchConvolutionMaps(ArrayRef<AffineMap> maps,
                     ArrayRef<utils::IteratorType> iters);

/// Every value that views the buffer `root` (root included).
SmallVector<Value> aliasesOf(Value root);

/// `op` reads or writes one of `aliases` (views, which touch no memory,
/// do not count).
bool touches(Operation *op, ArrayRef<Value> aliases);

/// The op that made `buf` all zeros before `op` (a `linalg.fill` of +0.0
/// of exactly `buf`, or a `memref.copy` into it from such a buffer), when
/// nothing between them writes `buf` or a view of it. `erasable`: nothing
/// in between reads it either, so the op can go. `buf` must be a fresh
/// allocation, so that nothing else can alias it.
Operation *zeroInitOf(Operation *op, Value buf, bool &erasable,
                      unsigned depth = 0);

/// The convolution's output buffer `buf` (a fresh allocation) was just
/// initialized, with nothing touching it since, by the per-channel bias
/// broadcast convert-onnx-to-linalg emits (a generic reading a 1-D f32 bias
/// at loop dim 1 and yielding it) or by a fill of +0.0: that op, with
/// `bias` set to the bias buffer (null for zeros). Also a `memref.copy`
/// into all of `buf` from a buffer (or a reshape of one) that such a fill
/// or broadcast of a weight initialized and only reads followed: CSE shares
/// identical initializations, and bufferization copies them; the kernel
/// then writes the values itself and the copy goes.
Operation *convInit(Operation *op, Value buf, Value &bias);

/// An elementwise clamp `out = min(max(in, lo), hi)` (or Relu's
/// `max(in, lo)`), or an activation of `in` alone that the runtime's
/// kernels apply (`act`: Sigmoid, Swish, HardSigmoid, HardSwish; the forms
/// in UkernelActivation.cpp's matchActivationBody), reading `buf` right after `op`:
/// the generic, its output buffer and the bounds or the activation.
struct Clamp {
  linalg::GenericOp op;
  Value out;
  float lo = -INFINITY, hi = INFINITY;
  /// An ONNXC_ACT_* kind (runtime_abi.h) instead of a clamp, with its
  /// alpha and beta; ONNXC_ACT_NONE (0): the clamp above.
  int act = 0;
  float alpha = 0.0f, beta = 0.0f;
  /// Set when the clamp reads Y through this collapse (Y is the
  /// convolution's 5-D [n, g, m, h, w] buffer): `out` has the collapsed
  /// shape, and the kernel writes it through the reverse expansion.
  memref::CollapseShapeOp collapse;
};

/// `activations`: the runtime's activations (Sigmoid, Swish, HardSigmoid,
/// HardSwish) count as epilogues too, not only a clamp.
std::optional<Clamp> convClamp(Operation *op, Value buf,
                               ArrayRef<Value> keepApart, bool activations);

/// A residual Add that reads the convolution's output Y (a fresh buffer
/// its initialization wrote) next and writes the sum over its other
/// operand R in place, maybe clamped after (an Add + Relu that
/// onnxc-fuse-elementwise pointed at R's buffer): the call starts from R
/// (ONNXC_CONV_BIAS_ADD) and writes R, and the Add goes. `op` the Add, `out`
/// R, `lo` and `hi` the clamp (both infinite: none), `collapse` as for a
/// clamp. None when something between the convolution and the Add touches
/// R, R is one of `keepApart` (the convolution's operands), or Y is read
/// after the Add.
std::optional<Clamp> convResidual(Operation *op, Value buf,
                                  ArrayRef<Value> keepApart);

/// The buffer a view is of (through view ops).
Value viewRoot(Value v);

/// `v` is the constant -inf.
bool isNegInf(Value v);

/// A zero padding in front of a convolution, to fuse into the call
/// (ONNXC_CONV_PADDED): the convolution's input `x` is a fresh buffer `buf`
/// (or an expand_shape of it) that was filled with +0.0 and then got `src`
/// copied into the window `to` of it, whole along the non-spatial dims;
/// nothing touched `buf` since, and nothing touched `src` but its
/// deallocations (moved after the call).
struct FusedPad {
  Value buf, src;
  memref::ExpandShapeOp expand; ///< x = expand(buf), or null when x = buf
  linalg::FillOp fill;
  Operation *copy = nullptr;
  memref::SubViewOp to;
  SmallVector<OpFoldResult> low, size; ///< of the spatial dims of buf
  SmallVector<Operation *> srcDeallocs;
  /// Ops between the copy and `op` that write the source, which is also
  /// `op`'s output buffer (bufferization gave Y the dead input's buffer),
  /// and read none of it: the initialization of Y. The pad fuses only if
  /// the caller fuses them into the call too.
  SmallVector<Operation *> yWriters;
};

/// The FusedPad of the convolution `op` (input rank `rank`, spatial dims
/// from `firstSpatial` on), whose input was written last by the fill +
/// copy that onnxc-pad-to-copy makes of a padding gather: a fill of +0.0,
/// or of its type's lowest value for a max pool (`pad`).
std::optional<FusedPad> matchFusedPad(Operation *op, Value x, unsigned rank,
                                      unsigned firstSpatial = 3,
                                      PadValue pad = PadValue::PosZero);

/// The epilogue of a matrix product to fuse into its call (ONNXC_SGEMM_BIAS_*,
/// ONNXC_SGEMM_CLAMP): the elementwise generic that reads the product's
/// output C next, as a Gemm (or MatMul + Add) and a Relu / Clip after it
/// lower,
///   out[i..] = clamp(C[i..] + bias[m or n])   (identity maps on C and out)
/// with the bias broadcast along C's M or N dim and unit-strided along it,
/// the bias or the clamp optional. The product must overwrite C, a fresh
/// buffer that nothing reads afterwards; the kernel then writes `out`.
struct MatmulEpilogue {
  linalg::GenericOp op;
  Value out;
  Value bias;           ///< null: none
  bool biasPerRow = false;
  bool clamp = false;
  float lo = 0.0f, hi = 0.0f;
};

/// The loop dim of each result of `map` (-1 for the constant 0), or nothing
/// when a result is anything else or a dim appears twice.
std::optional<SmallVector<int64_t>> operandDims(AffineMap map);

/// `v` is defined before `op` runs (in op's block or an enclosing one).
bool definedBefore(Value v, Operation *op);

/// `v` is defined before `op`, or by a chain of views (outermost first in
/// `chain`) of an allocation, all after `op` in its block, whose other
/// operands are: moveBefore(chain, op) then makes `v` usable at `op`.
bool movableBefore(Value v, Operation *op, SmallVectorImpl<Operation *> &chain);
void moveBefore(ArrayRef<Operation *> chain, Operation *op);

std::optional<MatmulEpilogue> matchMatmulEpilogue(linalg::LinalgOp op,
                                                  const Contraction &c);

/// The float data of a constant global, or nothing.
std::optional<SmallVector<float>> constantData(memref::GlobalOp global);

/// The pointer extraction a runtime call's pointer operand `v` starts from
/// (llvm.inttoptr of an index_cast of
/// memref.extract_aligned_pointer_as_index, plus byte offsets, as the call
/// rewrites build them), the offsets added to it in `offsets`; or null.
memref::ExtractAlignedPointerAsIndexOp
callPointer(Value v, SmallVectorImpl<Value> *offsets = nullptr);

/// onnxc-linalg-to-ukernel's last step (CallsInPlace.cpp): a runtime call's
/// output buffer copied whole into a contiguous view of another buffer
/// after the call (bufferization's copy of a Concat input), when the calls
/// in between that use the buffer are runtime calls too, is replaced by
/// the view; the buffer and the copy go.
void writeCallsInPlace(func::FuncOp f);

/// onnxc-linalg-to-ukernel's step after writeCallsInPlace (ConvChains.cpp):
/// `onnxc_rt_sconv2d` calls in a row, each reading the one before's
/// output, become one `onnxc_rt_sconv2d_chain` call (runtime_abi.h), which
/// may run them interleaved in bands of rows.
void chainConvCalls(func::FuncOp f);

} // namespace mlir::onnxc::ukernel

#endif // ONNXC_PASSES_TRANSFORMS_UKERNELMATCH_H

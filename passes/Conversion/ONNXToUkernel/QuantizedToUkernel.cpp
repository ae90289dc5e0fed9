//===- QuantizedToUkernel.cpp - --convert-onnx-quantized-to-ukernel -------===//
//
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul and
// DynamicQuantizeLinear -> calls of the runtime's int8 kernels
// (runtime/src/kernels/qgemm*.c; contract in runtime_abi.h), with the
// dequantizing chain that dynamic quantization puts after ConvInteger and
// MatMulInteger (Cast to float, Mul by the scale product, Add of a bias,
// Relu / Clip) fused into the call. Runs on the onnx dialect, before
// convert-onnx-to-linalg: there the chain is a few ops with their types
// and the weights are constants, which are packed here into the kernels'
// layout (ONNXC_Q_B_PACKED). Each call works on buffers bridged into the
// tensor IR: a read-only bufferization.to_buffer of every tensor it reads,
// placed right before it; a fresh memref.alloc per result, handed back as a
// tensor by bufferization.to_tensor (restrict, writable); and
// unrealized_conversion_casts between the onnx and the builtin tensor types,
// which convert-onnx-to-linalg folds away. What does not fit (3-D
// convolutions, weights of dynamic shape, zero points along other axes) is
// left to the plain lowering. The pass also calls the runtime's col2im for
// fp32 Col2Im (Col2ImToUkernel.cpp); the buffer bridge is RuntimeCall.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Window.h"
#include "runtime/include/onnxc/runtime_abi.h"
#include "passes/Conversion/ONNXToUkernel/Col2ImToUkernel.h"
#include "passes/Conversion/ONNXToUkernel/ResizeToUkernel.h"
#include "passes/Conversion/ONNXToUkernel/SoftmaxToUkernel.h"
#include "passes/Conversion/ONNXToUkernel/QuantizedPacking.h"
#include "passes/Conversion/Passes.h"
#include "passes/Conversion/RuntimeCall.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
#include <cstring>
#include <map>
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CONVERTONNXQUANTIZEDTOUKERNEL
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

#define DEBUG_TYPE "convert-onnx-quantized-to-ukernel"

namespace {

// runtime_abi.h: the one description of the int8 kernels' parameter
// blocks (its ONNXC_ABI_CHECKs pin the slot layout the fills follow).
constexpr int64_t kASigned = ONNXC_Q_A_SIGNED, kBSigned = ONNXC_Q_B_SIGNED,
                  kBPacked = ONNXC_Q_B_PACKED, kAZpPerRow = ONNXC_Q_A_ZP_PER_ROW,
                  kBZpPerChannel = ONNXC_Q_B_ZP_PER_CHANNEL,
                  kBScalePerChannel = ONNXC_Q_B_SCALE_PER_CHANNEL;
constexpr int64_t kOutI32 = ONNXC_Q_OUT_I32, kOutF32 = ONNXC_Q_OUT_F32,
                  kOutU8 = ONNXC_Q_OUT_U8, kOutS8 = ONNXC_Q_OUT_S8;
constexpr int64_t kBias = ONNXC_Q_BIAS, kClamp = ONNXC_Q_CLAMP,
                  kWHWC = ONNXC_Q_W_HWC;
constexpr int64_t kQParamSlots = sizeof(onnxc_qparams) / sizeof(int64_t);
constexpr int64_t kGemmSlots = sizeof(onnxc_qgemm_params) / sizeof(int64_t);
constexpr int64_t kConvSlots = sizeof(onnxc_qconv2d_params) / sizeof(int64_t);
static_assert(ONNXC_ABI_SLOT(onnxc_qgemm_params, q) + kQParamSlots == kGemmSlots &&
                  ONNXC_ABI_SLOT(onnxc_qconv2d_params, q) + kQParamSlots ==
                      kConvSlots,
              "onnxc_qparams ends both blocks");
constexpr StringLiteral kQGemm = "onnxc_rt_qgemm";
constexpr StringLiteral kQConv = "onnxc_rt_qconv2d";
constexpr StringLiteral kDynamicQuantize = "onnxc_rt_dynamic_quantize";
constexpr int64_t kOnnxFloat = 1; // TensorProto.FLOAT, Cast's `to`

bool isNone(Value v) { return !v || isa<NoneType>(v.getType()); }

RankedTensorType ranked(Value v) {
  return v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
}

/// Exactly one element (a scalar or a 1-element tensor of static shape).
bool oneElement(Value v) {
  auto t = ranked(v);
  return t && t.hasStaticShape() && t.getNumElements() == 1;
}

/// A 1-D tensor of `n` elements (n > 1).
bool oneD(Value v, int64_t n) {
  auto t = ranked(v);
  return t && n > 1 && t.getRank() == 1 && t.getDimSize(0) == n;
}

bool unsignedElements(Value v) { return isUnsignedInt(getElementType(v)); }

/// How `v` broadcasts against a result of rank `rank` whose channel dim is
/// `chDim`: one element, `channels` elements along the channel dim and 1
/// elsewhere (numpy's right-aligned broadcasting), or neither.
enum class Spread { Neither, One, PerChannel };
Spread spread(Value v, int64_t rank, int64_t chDim, int64_t channels) {
  auto t = ranked(v);
  if (!t || !t.hasStaticShape() || t.getRank() > rank ||
      !t.getElementType().isF32())
    return Spread::Neither;
  if (t.getNumElements() == 1)
    return Spread::One;
  int64_t off = rank - t.getRank();
  bool along = false;
  for (int64_t i = 0; i < t.getRank(); ++i) {
    int64_t size = t.getDimSize(i);
    if (off + i == chDim && size == channels)
      along = true;
    else if (size != 1)
      return Spread::Neither;
  }
  return along ? Spread::PerChannel : Spread::Neither;
}

/// The op of type OpTy that is `v`'s only user, in `v`'s block.
template <typename OpTy> OpTy soleUser(Value v, Block *block) {
  if (!v.hasOneUse())
    return nullptr;
  auto user = dyn_cast<OpTy>(*v.getUsers().begin());
  return user && user->getBlock() == block ? user : nullptr;
}

/// The dequantizing chain of dynamic quantization after ConvInteger or
/// MatMulInteger (as onnxruntime's quantize_dynamic writes it):
///   Cast(to = FLOAT) -> Mul(., scale) -> [Add(., bias)] -> [Relu | Clip]
/// each the only user of the one before, the scale one element or one per
/// output channel, the bias one per output channel, Clip's bounds constant.
struct Dequant {
  Value scale, bias;
  bool scalePerChannel = false;
  bool clamp = false;
  float lo = 0.0f, hi = 0.0f;
  SmallVector<Operation *> ops;
  Value result() const { return ops.back()->getResult(0); }
};

std::optional<float> scalarFloat(Value v) {
  std::optional<SmallVector<double>> f = getConstantFloats(v);
  if (!f || f->size() != 1)
    return std::nullopt;
  return (float)(*f)[0];
}

std::optional<Dequant> matchDequant(Value acc, int64_t chDim,
                                    int64_t channels) {
  Block *block = acc.getParentBlock();
  auto accType = ranked(acc);
  int64_t rank = accType.getRank();
  auto sameShape = [&](Value v) {
    auto t = ranked(v);
    return t && t.getShape() == accType.getShape() &&
           t.getElementType().isF32();
  };
  Dequant d;
  auto cast = soleUser<ONNX::CastOp>(acc, block);
  if (!cast || cast.getTo() != kOnnxFloat || !sameShape(cast.getResult()))
    return std::nullopt;
  d.ops.push_back(cast);
  Value cur = cast.getResult();
  auto mul = soleUser<ONNX::MulOp>(cur, block);
  if (!mul || mul.getA() == mul.getB() || !sameShape(mul.getResult()))
    return std::nullopt;
  d.scale = mul.getA() == cur ? mul.getB() : mul.getA();
  Spread s = spread(d.scale, rank, chDim, channels);
  if (s == Spread::Neither)
    return std::nullopt;
  d.scalePerChannel = s == Spread::PerChannel;
  d.ops.push_back(mul);
  cur = mul.getResult();
  if (auto add = soleUser<ONNX::AddOp>(cur, block)) {
    Value bias = add.getA() == cur ? add.getB() : add.getA();
    if (add.getA() != add.getB() && sameShape(add.getResult()) &&
        spread(bias, rank, chDim, channels) == Spread::PerChannel) {
      d.bias = bias;
      d.ops.push_back(add);
      cur = add.getResult();
    }
  }
  if (auto relu = soleUser<ONNX::ReluOp>(cur, block)) {
    d.clamp = true;
    d.lo = 0.0f;
    d.hi = INFINITY;
    d.ops.push_back(relu);
  } else if (auto clip = soleUser<ONNX::ClipOp>(cur, block);
             clip && clip.getInput() == cur) {
    std::optional<float> lo = isNone(clip.getMin()) ? std::optional<float>(-INFINITY)
                                                    : scalarFloat(clip.getMin());
    std::optional<float> hi = isNone(clip.getMax()) ? std::optional<float>(INFINITY)
                                                    : scalarFloat(clip.getMax());
    if (lo && hi && *lo <= *hi) {
      d.clamp = true;
      d.lo = *lo;
      d.hi = *hi;
      d.ops.push_back(clip);
    }
  }
  return d;
}

/// The quantization operands of a call (onnxc_qparams): onnx values (or
/// builtin tensors), null for none.
struct QOperands {
  int64_t flags = 0;
  Value aZp, bZp, aScale, bScale, yScale, yZp, bias;
  float lo = 0.0f, hi = 0.0f;
};

class Rewriter : public RuntimeCallBuilder {
public:
  Rewriter(ModuleOp module, TypeConverter &tc, bool packConstants,
           bool fuseEpilogues)
      : RuntimeCallBuilder(module, tc), symbols(module),
        packConstants(packConstants), fuseEpilogues(fuseEpilogues) {}

  LogicalResult rewrite(Operation *op) {
    if (isa<ONNX::ConvIntegerOp, ONNX::QLinearConvOp>(op))
      return conv(op);
    if (isa<ONNX::MatMulIntegerOp, ONNX::QLinearMatMulOp>(op))
      return matmul(op);
    if (auto dq = dyn_cast<ONNX::DynamicQuantizeLinearOp>(op))
      return dynamicQuantize(dq);
    if (auto q = dyn_cast<ONNX::QuantizeLinearOp>(op))
      return succeeded(qdqConv(q)) ? success() : qdqGemm(q);
    if (auto c = dyn_cast<ONNX::Col2ImOp>(op))
      return rewriteCol2ImToUkernel(*this, c);
    if (auto r = dyn_cast<ONNX::ResizeOp>(op))
      return rewriteResizeToUkernel(*this, r);
    if (isa<ONNX::SoftmaxOp, ONNX::LogSoftmaxOp>(op))
      return rewriteSoftmaxToUkernel(*this, op);
    return failure();
  }

private:
  SymbolTable symbols;
  bool packConstants, fuseEpilogues;
  /// Packed weights made so far: (constant op, conv or product) -> global.
  std::map<std::pair<Operation *, bool>, memref::GlobalOp> packed;

  // ---- Emission helpers (the rest: RuntimeCallBuilder) -----------------

  Value value(OpFoldResult f) {
    return getValueOrCreateConstantIndexOp(b, loc, f);
  }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(loc, x, y); }
  /// The address of a tensor's data, 0 for none.
  Value addressOf(Value tensor) {
    return isNone(tensor) ? i64c(0) : address(readBuffer(tensor));
  }
  Value oneF32() {
    auto t = RankedTensorType::get({}, b.getF32Type());
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(t, 1.0f));
  }
  void storeQ(Value block, int64_t base, const QOperands &q) {
    uint32_t lo, hi;
    std::memcpy(&lo, &q.lo, sizeof lo);
    std::memcpy(&hi, &q.hi, sizeof hi);
    store(block, base, i64c(q.flags));
    Value fields[] = {q.aZp, q.bZp, q.aScale, q.bScale, q.yScale, q.yZp, q.bias};
    for (auto [i, f] : llvm::enumerate(fields))
      store(block, base + 1 + i, addressOf(f));
    // The two floats share one slot, lo first (little-endian).
    store(block, base + 8, i64c((int64_t)(((uint64_t)hi << 32) | lo)));
  }
  /// A private constant global holding `data` (64-byte aligned), named
  /// after `base`.
  memref::GlobalOp global(StringRef base, const std::vector<uint8_t> &data) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    int64_t n = data.size();
    auto init = DenseResourceElementsAttr::get(
        RankedTensorType::get({n}, b.getI8Type()), "onnxc_qpacked",
        HeapAsmResourceBlob::allocateAndCopyInferAlign<uint8_t>(data));
    auto g = memref::GlobalOp::create(
        b, module.getLoc(), base, b.getStringAttr("private"),
        MemRefType::get({n}, b.getI8Type()), init, /*constant=*/true,
        b.getI64IntegerAttr(64));
    symbols.insert(g);
    return g;
  }
  /// The weights `w` packed by `pack` (a convolution's or a product's
  /// layout), once per constant and layout; null when not a constant.
  memref::GlobalOp packedWeights(
      Value w, bool conv,
      function_ref<std::vector<uint8_t>(const std::vector<uint8_t> &)> pack) {
    if (!packConstants || !w.getDefiningOp<ONNX::ConstantOp>())
      return nullptr;
    auto key = std::make_pair(w.getDefiningOp(), conv);
    if (auto it = packed.find(key); it != packed.end())
      return it->second;
    std::optional<std::vector<uint8_t>> bytes = qukernel::constantBytes(w);
    if (!bytes)
      return nullptr;
    memref::GlobalOp g =
        global(conv ? "onnxc_qconv_weights" : "onnxc_qgemm_weights",
               pack(*bytes));
    packed[key] = g;
    return g;
  }
  Value globalAddress(memref::GlobalOp g) {
    return pointer(memref::GetGlobalOp::create(b, loc, g.getType(),
                                               g.getSymName()));
  }

  /// Fills `q` from a dequantizing chain: the scale as a_scale (per
  /// tensor) or b_scale (per channel) with 1 for the other, the bias and
  /// the clamp.
  void dequantOperands(const Dequant &d, QOperands &q) {
    q.flags |= kOutF32;
    if (d.scalePerChannel) {
      q.aScale = oneF32();
      q.bScale = d.scale;
      q.flags |= kBScalePerChannel;
    } else {
      q.aScale = d.scale;
      q.bScale = oneF32();
    }
    if (d.bias) {
      q.bias = d.bias;
      q.flags |= kBias;
    }
    if (d.clamp) {
      q.flags |= kClamp;
      q.lo = d.lo;
      q.hi = d.hi;
    }
  }

  /// Replaces `last` (the op's result or its chain's) by `memref`, then
  /// erases the chain and the op.
  void finish(Operation *op, std::optional<Dequant> &dq, Value last,
              Value memref) {
    last.replaceAllUsesWith(result(memref, last.getType()));
    if (dq)
      for (Operation *o : llvm::reverse(dq->ops))
        o->erase();
    op->erase();
  }

  // ---- The ops ------------------------------------------------------------

  LogicalResult conv(Operation *op);
  LogicalResult qdqConv(ONNX::QuantizeLinearOp op);
  LogicalResult qdqGemm(ONNX::QuantizeLinearOp op);
  LogicalResult emitConv(struct ConvCall &cc);
  LogicalResult matmul(Operation *op);
  LogicalResult dynamicQuantize(ONNX::DynamicQuantizeLinearOp op);
};

/// What a convolution call computes: the op with the window attributes,
/// the quantized operands, zero points and scales, and what the call's
/// result replaces: the op's own result (ConvInteger, QLinearConv; then
/// maybe a dequantizing chain after ConvInteger) or a QuantizeLinear's
/// (the QDQ form), with the ops that go with it.
struct ConvCall {
  Operation *attrs = nullptr;
  Value x, w, bias;
  QOperands q;
  bool requant = false; ///< bytes out (QLinearConv, QDQ)
  bool relu = false;    ///< QDQ: a Relu before the QuantizeLinear
  Value result;
  SmallVector<Operation *> erase; ///< erased in this order once replaced
};

/// ConvInteger (alone: int32, or with its dequantizing chain: float) and
/// QLinearConv (requantized bytes), 1-D and 2-D, any groups, strides,
/// dilations, pads and auto_pad -> onnxc_rt_qconv2d.
LogicalResult Rewriter::conv(Operation *op) {
  ConvCall cc;
  cc.attrs = op;
  cc.result = op->getResult(0);
  cc.erase.push_back(op);
  if (auto c = dyn_cast<ONNX::ConvIntegerOp>(op)) {
    cc.x = c.getX();
    cc.w = c.getW();
    cc.q.aZp = c.getXZeroPoint();
    cc.q.bZp = c.getWZeroPoint();
  } else {
    auto l = cast<ONNX::QLinearConvOp>(op);
    cc.x = l.getX();
    cc.w = l.getW();
    cc.q.aZp = l.getXZeroPoint();
    cc.q.bZp = l.getWZeroPoint();
    cc.q.aScale = l.getXScale();
    cc.q.bScale = l.getWScale();
    cc.q.yScale = l.getYScale();
    cc.q.yZp = l.getYZeroPoint();
    cc.bias = l.getB();
    cc.requant = true;
  }
  return emitConv(cc);
}

/// The constant f32 values of `v` (an onnx.Constant: dense or a resource
/// blob), or nothing.
static std::optional<SmallVector<float>> floats(Value v) {
  if (auto c = v.getDefiningOp<ONNX::ConstantOp>())
    if (auto res = dyn_cast_or_null<DenseResourceElementsAttr>(c.getValueAttr())) {
      auto type = cast<ShapedType>(res.getType());
      AsmResourceBlob *blob = res.getRawHandle().getBlob();
      if (!type.getElementType().isF32() || !blob ||
          blob->getData().size() != (size_t)type.getNumElements() * 4)
        return std::nullopt;
      SmallVector<float> out(type.getNumElements());
      std::memcpy(out.data(), blob->getData().data(), out.size() * 4);
      return out;
    }
  std::optional<SmallVector<double>> d = getConstantFloats(v);
  if (!d)
    return std::nullopt;
  return SmallVector<float>(d->begin(), d->end());
}

/// `v` is a constant of zeros (dense or a resource blob).
static bool allZero(Value v) {
  auto c = v.getDefiningOp<ONNX::ConstantOp>();
  if (!c || !c.getValueAttr())
    return false;
  if (auto res = dyn_cast<DenseResourceElementsAttr>(c.getValueAttr())) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    return blob && llvm::all_of(blob->getData(), [](char b) { return b == 0; });
  }
  auto dense = dyn_cast<DenseElementsAttr>(c.getValueAttr());
  return dense && llvm::all_of(dense.getRawData(), [](char b) { return b == 0; });
}

/// The int32 tensor of a QDQ bias `b` (DequantizeLinear of int32 with zero
/// point 0 or none) whose scale is exactly aScale * bScale (per tensor, or
/// per output channel of `n`) in float, as the fused kernels add it; null
/// when `b` is anything else.
static Value int32BiasAtProductScale(Value b, Value aScale, Value bScale,
                                     int64_t n) {
  auto dqb = b.getDefiningOp<ONNX::DequantizeLinearOp>();
  if (!dqb || !getElementType(dqb.getX()).isInteger(32))
    return nullptr;
  std::optional<SmallVector<float>> bs = floats(dqb.getXScale());
  std::optional<SmallVector<float>> xs = floats(aScale);
  std::optional<SmallVector<float>> ws = floats(bScale);
  auto fits = [&](size_t size) { return size == 1 || (int64_t)size == n; };
  if (!bs || !xs || !ws || xs->size() != 1 || !fits(bs->size()) ||
      !fits(ws->size()) ||
      !(isNone(dqb.getXZeroPoint()) || allZero(dqb.getXZeroPoint())))
    return nullptr;
  for (int64_t m = 0; m < n; ++m) {
    float want = (*xs)[0] * (*ws)[ws->size() == 1 ? 0 : m];
    if ((*bs)[bs->size() == 1 ? 0 : m] != want)
      return nullptr;
  }
  return dqb.getX();
}

/// The QDQ form of a quantized convolution (onnxruntime's quantize_static
/// with QuantFormat.QDQ), as onnxruntime itself fuses it into QLinearConv:
///   QuantizeLinear(Conv(DequantizeLinear(x), DequantizeLinear(w),
///                       [DequantizeLinear(bias int32)]) [-> Relu])
/// with w constant (per tensor, or per output channel on axis 0), the
/// activations' parameters per tensor, the bias's zero point 0 and its
/// scale exactly x_scale * w_scale (in float, per channel), the Conv (and
/// Relu) used only there. The call requantizes as QLinearConv does; a Relu
/// clamps at the zero point.
LogicalResult Rewriter::qdqConv(ONNX::QuantizeLinearOp qop) {
  Value v = qop.getX();
  Block *block = qop->getBlock();
  ConvCall cc;
  if (auto relu = v.getDefiningOp<ONNX::ReluOp>()) {
    if (!relu->hasOneUse() || relu->getBlock() != block)
      return failure();
    cc.relu = true;
    cc.erase.push_back(relu);
    v = relu.getX();
  }
  auto convOp = v.getDefiningOp<ONNX::ConvOp>();
  if (!convOp || !convOp->hasOneUse() || convOp->getBlock() != block ||
      isNone(qop.getYZeroPoint()) || !oneElement(qop.getYScale()) ||
      !oneElement(qop.getYZeroPoint()))
    return failure();
  auto dqx = convOp.getX().getDefiningOp<ONNX::DequantizeLinearOp>();
  auto dqw = convOp.getW().getDefiningOp<ONNX::DequantizeLinearOp>();
  if (!dqx || !dqw || isNone(dqx.getXZeroPoint()) ||
      !oneElement(dqx.getXScale()) || !oneElement(dqx.getXZeroPoint()) ||
      !dqw.getX().getDefiningOp<ONNX::ConstantOp>() ||
      (!isNone(dqw.getXZeroPoint()) &&
       ranked(dqw.getXZeroPoint()).getRank() == 1 && dqw.getAxis() != 0))
    return failure();
  auto wt = ranked(dqw.getX());
  if (!wt || !wt.hasStaticShape() || wt.getRank() < 3)
    return failure();
  int64_t channels = wt.getDimSize(0);
  if (!oneElement(dqw.getXScale()) &&
      !(oneD(dqw.getXScale(), channels) && dqw.getAxis() == 0))
    return failure();
  cc.attrs = convOp;
  cc.x = dqx.getX();
  cc.w = dqw.getX();
  cc.q.aZp = dqx.getXZeroPoint();
  cc.q.aScale = dqx.getXScale();
  cc.q.bZp = dqw.getXZeroPoint();
  cc.q.bScale = dqw.getXScale();
  cc.q.yScale = qop.getYScale();
  cc.q.yZp = qop.getYZeroPoint();
  cc.requant = true;
  if (!isNone(convOp.getB())) {
    cc.bias = int32BiasAtProductScale(convOp.getB(), cc.q.aScale,
                                      cc.q.bScale, channels);
    if (!cc.bias)
      return failure();
  }
  cc.result = qop.getY();
  cc.erase.insert(cc.erase.begin(), qop);
  cc.erase.push_back(convOp);
  return emitConv(cc);
}

LogicalResult Rewriter::emitConv(ConvCall &cc) {
  Operation *op = cc.attrs;
  bool qlinear = cc.requant;
  QOperands q = cc.q;
  Value x = cc.x, w = cc.w, bias = cc.bias;
  auto xt = ranked(x), wt = ranked(w);
  if (!xt || !wt || !wt.hasStaticShape())
    return failure();
  int64_t rank = xt.getRank();
  if ((rank != 3 && rank != 4) || wt.getRank() != rank)
    return failure();
  int64_t group = op->getAttrOfType<IntegerAttr>("group").getInt();
  int64_t channels = wt.getDimSize(0), c = wt.getDimSize(1);
  if (group < 1 || channels <= 0 || c <= 0 || channels % group != 0 ||
      xt.isDynamicDim(1) || xt.getDimSize(1) != c * group)
    return failure();
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
  if (auto ks = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape");
      ks && ks.asArrayRef() != ArrayRef<int64_t>(kernel))
    return failure();
  FailureOr<WindowAttrs> attrs;
  {
    // A malformed attribute is the plain lowering's error to report.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    attrs = readWindowAttrs(op, kernel);
  }
  if (failed(attrs))
    return failure();
  // Zero points and scales: one element, or one per output channel for the
  // weights'; the bias one per output channel.
  if ((!isNone(q.aZp) && !oneElement(q.aZp)) ||
      (!isNone(q.bZp) && !oneElement(q.bZp) && !oneD(q.bZp, channels)))
    return failure();
  if (qlinear && (!oneElement(q.aScale) || !oneElement(q.yScale) ||
                  !oneElement(q.yZp) ||
                  (!oneElement(q.bScale) && !oneD(q.bScale, channels)) ||
                  (!isNone(bias) && !oneD(bias, channels) &&
                   !(channels == 1 && oneElement(bias)))))
    return failure();
  Value acc = cc.result;
  if (!ranked(acc) || ranked(acc).getRank() != rank)
    return failure();
  std::optional<Dequant> dq;
  if (!qlinear && fuseEpilogues)
    dq = matchDequant(acc, /*chDim=*/1, channels);
  Value last = dq ? dq->result() : acc;
  auto outType = dyn_cast_or_null<RankedTensorType>(tc.convertType(last.getType()));
  if (!outType)
    return failure();

  loc = op->getLoc();
  b.setInsertionPoint(last.getDefiningOp());
  if (cc.relu) {
    // Relu before the requantization: clamp at 0 output steps.
    q.flags |= kClamp;
    q.lo = 0.0f;
    q.hi = INFINITY;
  }
  if (!unsignedElements(x))
    q.flags |= kASigned;
  if (!unsignedElements(w))
    q.flags |= kBSigned;
  if (oneD(q.bZp, channels))
    q.flags |= kBZpPerChannel;
  if (qlinear) {
    q.flags |= unsignedElements(cc.result) ? kOutU8 : kOutS8;
    if (oneD(q.bScale, channels))
      q.flags |= kBScalePerChannel;
    if (!isNone(bias)) {
      q.bias = bias;
      q.flags |= kBias;
    }
  } else if (dq) {
    dequantOperands(*dq, q);
  } else {
    q.flags |= kOutI32;
  }
  int64_t m = channels / group, k = c;
  for (int64_t s : kernel)
    k *= s;
  // HWC rows (the channels of one tap together, so 4 of them are one word
  // of an input position and 16 one AMX tile row each) for the kernels
  // that read the input in place; 1 x 1 kernels have that order already.
  int64_t taps = k / c;
  bool hwc = c % 4 == 0 && taps > 1;
  memref::GlobalOp packedW =
      packedWeights(w, /*conv=*/true, [&](const std::vector<uint8_t> &bytes) {
        return qukernel::packConvWeights(bytes, channels, k,
                                         !unsignedElements(w), hwc ? taps : 0);
      });
  if (packedW)
    q.flags |= kBPacked | (hwc ? kWHWC : 0);

  Value xc = builtin(x);
  WindowGeometry geo = computeWindow(b, loc, xc, *attrs);
  bool twoD = rank == 4;
  Value n = dim(xc, 0), one = idx(1), zero = idx(0);
  Value inH = twoD ? dim(xc, 2) : one, inW = dim(xc, rank - 1);
  Value outH = twoD ? value(geo.out[0]) : one, outW = value(geo.out.back());
  Value padTop = twoD ? value(geo.padBegin[0]) : zero;
  Value padLeft = value(geo.padBegin.back());
  SmallVector<Value> outSizes = {n, idx(channels)};
  if (twoD)
    outSizes.push_back(outH);
  outSizes.push_back(outW);
  Value params = paramsBlock(op, kConvSlots);
  Value y = alloc(outType, outSizes);
  Value fields[] = {n,
                    idx(group),
                    idx(m),
                    idx(c),
                    inH,
                    inW,
                    outH,
                    outW,
                    idx(twoD ? kernel[0] : 1),
                    idx(kernel.back()),
                    idx(twoD ? attrs->strides[0] : 1),
                    idx(attrs->strides.back()),
                    idx(twoD ? attrs->dilations[0] : 1),
                    idx(attrs->dilations.back()),
                    padTop,
                    padLeft};
  for (auto [i, f] : llvm::enumerate(fields))
    store(params, i, i64(f));
  storeQ(params, 16, q);
  Value xp = pointer(readBuffer(xc));
  Value wp = packedW ? globalAddress(packedW) : pointer(readBuffer(w));
  call(kQConv, {pointer(params), xp, wp, pointer(y)});
  last.replaceAllUsesWith(result(y, last.getType()));
  if (dq)
    for (Operation *o : llvm::reverse(dq->ops))
      o->erase();
  for (Operation *o : cc.erase)
    o->erase();
  return success();
}

/// The QDQ form of a quantized product, as onnxruntime fuses it into
/// QGemm / QLinearMatMul:
///   QuantizeLinear(Gemm(DequantizeLinear(x), DequantizeLinear(w),
///                       [DequantizeLinear(bias int32)]))
///   QuantizeLinear(MatMul(DequantizeLinear(a), DequantizeLinear(w)))
/// with w a constant 2-D matrix (per tensor, or per output column: axis 0
/// of a transposed Gemm weight, axis 1 otherwise), the activations'
/// parameters per tensor, the Gemm plain (alpha = beta = 1, transA = 0),
/// its bias as in qdqConv, the product used only there. The weights are
/// packed (transposed first for transB) at compile time; the call
/// requantizes as QLinearMatMul does.
LogicalResult Rewriter::qdqGemm(ONNX::QuantizeLinearOp qop) {
  if (!packConstants)
    return failure();
  Operation *prod = qop.getX().getDefiningOp();
  if (!prod || !prod->hasOneUse() || prod->getBlock() != qop->getBlock() ||
      isNone(qop.getYZeroPoint()) || !oneElement(qop.getYScale()) ||
      !oneElement(qop.getYZeroPoint()))
    return failure();
  Value a, w, c;
  bool transB = false;
  if (auto g = dyn_cast<ONNX::GemmOp>(prod)) {
    if (g.getTransA() != 0 || g.getAlpha().convertToFloat() != 1.0f ||
        g.getBeta().convertToFloat() != 1.0f)
      return failure();
    a = g.getA();
    w = g.getB();
    c = g.getC();
    transB = g.getTransB() != 0;
  } else if (auto m = dyn_cast<ONNX::MatMulOp>(prod)) {
    a = m.getA();
    w = m.getB();
  } else {
    return failure();
  }
  auto dqa = a.getDefiningOp<ONNX::DequantizeLinearOp>();
  auto dqw = w.getDefiningOp<ONNX::DequantizeLinearOp>();
  if (!dqa || !dqw || isNone(dqa.getXZeroPoint()) ||
      !oneElement(dqa.getXScale()) || !oneElement(dqa.getXZeroPoint()) ||
      !dqw.getX().getDefiningOp<ONNX::ConstantOp>())
    return failure();
  auto at = ranked(dqa.getX()), wt = ranked(dqw.getX());
  if (!at || !wt || !wt.hasStaticShape() || wt.getRank() != 2 ||
      at.getRank() < 2 || (isa<ONNX::GemmOp>(prod) && at.getRank() != 2))
    return failure();
  int64_t k = wt.getDimSize(transB ? 1 : 0), nCols = wt.getDimSize(transB ? 0 : 1);
  if (k <= 0 || nCols <= 0 || at.getDimSize(at.getRank() - 1) != k)
    return failure();
  // Per-column weight parameters lie along the weight's output axis.
  int64_t colAxis = transB ? 0 : 1;
  auto perColumn = [&](Value v) {
    int64_t axis = (int64_t)dqw.getAxis();
    return oneD(v, nCols) && (axis == colAxis ||
                              axis == colAxis - 2);
  };
  if ((!oneElement(dqw.getXScale()) && !perColumn(dqw.getXScale())) ||
      (!isNone(dqw.getXZeroPoint()) && !oneElement(dqw.getXZeroPoint()) &&
       !perColumn(dqw.getXZeroPoint())))
    return failure();
  QOperands q;
  q.aZp = dqa.getXZeroPoint();
  q.aScale = dqa.getXScale();
  q.bZp = dqw.getXZeroPoint();
  q.bScale = dqw.getXScale();
  q.yScale = qop.getYScale();
  q.yZp = qop.getYZeroPoint();
  if (c && !isNone(c)) {
    q.bias = int32BiasAtProductScale(c, q.aScale, q.bScale, nCols);
    if (!q.bias || !oneD(q.bias, nCols))
      return failure();
    q.flags |= kBias;
  }
  auto outType = dyn_cast_or_null<RankedTensorType>(
      tc.convertType(qop.getY().getType()));
  if (!outType || outType.getRank() != at.getRank())
    return failure();
  Value bv = dqw.getX();
  bool bSigned = !unsignedElements(bv);
  std::optional<std::vector<uint8_t>> bytes = qukernel::constantBytes(bv);
  if (!bytes || (int64_t)bytes->size() != k * nCols)
    return failure();
  std::vector<uint8_t> kn = *bytes;
  if (transB)
    for (int64_t j = 0; j < nCols; ++j)
      for (int64_t i = 0; i < k; ++i)
        kn[i * nCols + j] = (*bytes)[j * k + i];

  loc = prod->getLoc();
  b.setInsertionPoint(qop);
  if (!unsignedElements(dqa.getX()))
    q.flags |= kASigned;
  if (bSigned)
    q.flags |= kBSigned;
  if (oneD(q.bZp, nCols))
    q.flags |= kBZpPerChannel;
  if (oneD(q.bScale, nCols))
    q.flags |= kBScalePerChannel;
  q.flags |= unsignedElements(qop.getY()) ? kOutU8 : kOutS8;
  q.flags |= kBPacked;
  memref::GlobalOp packedB =
      global("onnxc_qgemm_weights", qukernel::packGemmB(kn, k, nCols, bSigned));

  Value ac = builtin(dqa.getX());
  int64_t ra = at.getRank();
  SmallVector<Value> outSizes;
  Value rows = idx(1);
  for (int64_t i = 0; i < ra - 1; ++i) {
    outSizes.push_back(dim(ac, i));
    rows = mul(rows, outSizes.back());
  }
  outSizes.push_back(idx(nCols));
  Value params = paramsBlock(qop, kGemmSlots);
  Value out = alloc(outType, outSizes);
  Value fields[] = {idx(1), rows, idx(nCols), idx(k), idx(0)};
  for (auto [i, f] : llvm::enumerate(fields))
    store(params, i, i64(f));
  storeQ(params, 5, q);
  call(kQGemm, {pointer(params), pointer(readBuffer(ac)), globalAddress(packedB),
                pointer(out)});
  qop.getY().replaceAllUsesWith(result(out, qop.getY().getType()));
  qop->erase();
  prod->erase();
  return success();
}

/// MatMulInteger (int32, or float with its dequantizing chain) and
/// QLinearMatMul (requantized bytes) -> onnxc_rt_qgemm: A of rank >= 2
/// times a 2-D B (A's leading dims folded into its rows), or batched
/// operands of the same batch dims (static, or the same symbols).
LogicalResult Rewriter::matmul(Operation *op) {
  bool qlinear = isa<ONNX::QLinearMatMulOp>(op);
  QOperands q;
  Value a, bv;
  if (auto mi = dyn_cast<ONNX::MatMulIntegerOp>(op)) {
    a = mi.getA();
    bv = mi.getB();
    q.aZp = mi.getAZeroPoint();
    q.bZp = mi.getBZeroPoint();
  } else {
    auto l = cast<ONNX::QLinearMatMulOp>(op);
    a = l.getA();
    bv = l.getB();
    q.aZp = l.getAZeroPoint();
    q.bZp = l.getBZeroPoint();
    q.aScale = l.getAScale();
    q.bScale = l.getBScale();
    q.yScale = l.getYScale();
    q.yZp = l.getYZeroPoint();
  }
  auto at = ranked(a), bt = ranked(bv);
  if (!at || !bt || at.getRank() < 2 || bt.getRank() < 2)
    return failure();
  int64_t ra = at.getRank(), rb = bt.getRank();
  int64_t k = bt.getDimSize(rb - 2), nCols = bt.getDimSize(rb - 1);
  int64_t mRows = at.getDimSize(ra - 2);
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(nCols) || k <= 0 ||
      nCols <= 0 || at.getDimSize(ra - 1) != k)
    return failure();
  bool batchedB = rb > 2;
  if (batchedB) {
    if (ra != rb)
      return failure();
    // Equal batch dims: static and equal, or the same symbol.
    for (int64_t i = 0; i < ra - 2; ++i) {
      bool same = bt.isDynamicDim(i)
                      ? at.isDynamicDim(i) && !dimName(a, i).empty() &&
                            dimName(a, i) == dimName(bv, i)
                      : at.getDimSize(i) == bt.getDimSize(i);
      if (!same)
        return failure();
    }
  }
  if ((!isNone(q.aZp) && !oneElement(q.aZp) &&
       (ShapedType::isDynamic(mRows) || !oneD(q.aZp, mRows))) ||
      (!isNone(q.bZp) && !oneElement(q.bZp) && !oneD(q.bZp, nCols)))
    return failure();
  if (qlinear && (!oneElement(q.aScale) || !oneElement(q.yScale) ||
                  !oneElement(q.yZp) ||
                  (!oneElement(q.bScale) && !oneD(q.bScale, nCols))))
    return failure();
  Value acc = op->getResult(0);
  if (!ranked(acc) || ranked(acc).getRank() != ra)
    return failure();
  std::optional<Dequant> dq;
  if (!qlinear && fuseEpilogues)
    dq = matchDequant(acc, /*chDim=*/ra - 1, nCols);
  Value last = dq ? dq->result() : acc;
  auto outType = dyn_cast_or_null<RankedTensorType>(tc.convertType(last.getType()));
  if (!outType)
    return failure();

  loc = op->getLoc();
  b.setInsertionPoint(last.getDefiningOp());
  if (!unsignedElements(a))
    q.flags |= kASigned;
  if (!unsignedElements(bv))
    q.flags |= kBSigned;
  if (oneD(q.aZp, mRows))
    q.flags |= kAZpPerRow;
  if (oneD(q.bZp, nCols))
    q.flags |= kBZpPerChannel;
  if (qlinear) {
    q.flags |= unsignedElements(op->getResult(0)) ? kOutU8 : kOutS8;
    if (oneD(q.bScale, nCols))
      q.flags |= kBScalePerChannel;
  } else if (dq) {
    dequantOperands(*dq, q);
  } else {
    q.flags |= kOutI32;
  }
  memref::GlobalOp packedB =
      batchedB ? nullptr
               : packedWeights(bv, /*conv=*/false,
                               [&](const std::vector<uint8_t> &bytes) {
                                 return qukernel::packGemmB(
                                     bytes, k, nCols, !unsignedElements(bv));
                               });
  if (packedB)
    q.flags |= kBPacked;

  Value ac = builtin(a);
  SmallVector<Value> outSizes;
  for (int64_t i = 0; i < ra - 1; ++i)
    outSizes.push_back(dim(ac, i));
  outSizes.push_back(idx(nCols));
  // Rows: every leading dim of A (a 2-D B), or the last but one (batched
  // B, or a zero point per row of each matrix: a batch sharing B).
  bool fold = !batchedB && !(q.flags & kAZpPerRow);
  Value batch = idx(1), rows = outSizes[ra - 2];
  for (int64_t i = 0; i < ra - 2; ++i) {
    if (fold)
      rows = mul(rows, outSizes[i]);
    else
      batch = mul(batch, outSizes[i]);
  }
  Value params = paramsBlock(op, kGemmSlots);
  Value c = alloc(outType, outSizes);
  Value fields[] = {batch, rows, idx(nCols), idx(k), idx(batchedB ? k * nCols : 0)};
  for (auto [i, f] : llvm::enumerate(fields))
    store(params, i, i64(f));
  storeQ(params, 5, q);
  Value ap = pointer(readBuffer(ac));
  Value bp = packedB ? globalAddress(packedB) : pointer(readBuffer(bv));
  call(kQGemm, {pointer(params), ap, bp, pointer(c)});
  finish(op, dq, last, c);
  return success();
}

/// DynamicQuantizeLinear -> onnxc_rt_dynamic_quantize (min and max in one
/// pass, the quantization in a second).
LogicalResult Rewriter::dynamicQuantize(ONNX::DynamicQuantizeLinearOp op) {
  auto xt = ranked(op.getX());
  auto yType = dyn_cast_or_null<RankedTensorType>(tc.convertType(op.getY().getType()));
  auto sType = dyn_cast_or_null<RankedTensorType>(tc.convertType(op.getYScale().getType()));
  auto zType = dyn_cast_or_null<RankedTensorType>(
      tc.convertType(op.getYZeroPoint().getType()));
  if (!xt || !yType || !sType || !zType || !sType.hasStaticShape() ||
      !zType.hasStaticShape() || sType.getNumElements() != 1 ||
      zType.getNumElements() != 1 || yType.getRank() != xt.getRank())
    return failure();
  loc = op.getLoc();
  b.setInsertionPoint(op);
  Value xc = builtin(op.getX());
  SmallVector<Value> sizes;
  Value count = idx(1);
  for (int64_t i = 0; i < xt.getRank(); ++i) {
    sizes.push_back(dim(xc, i));
    count = mul(count, sizes.back());
  }
  Value y = alloc(yType, sizes);
  Value s = alloc(sType, {});
  Value z = alloc(zType, {});
  Value xp = pointer(readBuffer(xc));
  call(kDynamicQuantize, {xp, i64(count), pointer(y), pointer(s), pointer(z)});
  op.getY().replaceAllUsesWith(result(y, op.getY().getType()));
  op.getYScale().replaceAllUsesWith(result(s, op.getYScale().getType()));
  op.getYZeroPoint().replaceAllUsesWith(result(z, op.getYZeroPoint().getType()));
  op->erase();
  return success();
}

struct ConvertONNXQuantizedToUkernelPass
    : public onnxc::impl::ConvertONNXQuantizedToUkernelBase<
          ConvertONNXQuantizedToUkernelPass> {
  using ConvertONNXQuantizedToUkernelBase::ConvertONNXQuantizedToUkernelBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TypeConverter tc;
    populateONNXToLinalgTypeConversion(tc);
    Rewriter r(module, tc, packConstants, fuseEpilogues);
    bool qdq = this->qdq;
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ONNX::ConvIntegerOp, ONNX::QLinearConvOp, ONNX::MatMulIntegerOp,
              ONNX::QLinearMatMulOp, ONNX::DynamicQuantizeLinearOp,
              ONNX::Col2ImOp, ONNX::ResizeOp, ONNX::SoftmaxOp,
              ONNX::LogSoftmaxOp>(op) ||
          (qdq && isa<ONNX::QuantizeLinearOp>(op)))
        ops.push_back(op);
    });
    // What does not fit stays for convert-onnx-to-linalg.
    for (Operation *op : ops) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << op->getName() << " at "
                              << op->getLoc() << ": ");
      bool called = succeeded(r.rewrite(op));
      (void)called;
      LLVM_DEBUG(llvm::dbgs() << (called ? "runtime kernel call\n"
                                         : "left to convert-onnx-to-linalg\n"));
    }
  }
};

} // namespace

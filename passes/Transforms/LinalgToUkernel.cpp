//===- LinalgToUkernel.cpp - The --onnxc-linalg-to-ukernel pass -----------===//
//
// fp32 contractions and convolutions on buffers -> calls to the runtime's
// packed-GEMM kernels (runtime/src/gemm.c; the contract, including the
// packed layout of constant B operands, is in runtime_abi.h), and fp32 2-D
// max pools -> its pool kernel (runtime/src/pool.c). Works on
// memrefs so that operands of any layout arrive as a pointer and element
// strides, and runs after buffer deallocation so that the deallocations,
// placed after the linalg op, stay after the call that replaces it.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "runtime/include/onnxc/runtime_abi.h"
#include "passes/Transforms/PadToCopy.h"
#include "passes/Transforms/UkernelMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cmath>
#include <cstring>
#include <map>
#include <tuple>
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_LINALGTOUKERNEL
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

using namespace mlir::onnxc::ukernel;

#define DEBUG_TYPE "onnxc-linalg-to-ukernel"

// runtime_abi.h: the one description of the kernels' parameter blocks
// (its ONNXC_ABI_CHECKs pin the slot layout the fills below follow).
constexpr int64_t kPanel = ONNXC_SGEMM_PANEL;
constexpr int32_t kAccumulate = ONNXC_SGEMM_ACCUMULATE,
                  kBPacked = ONNXC_SGEMM_B_PACKED;
constexpr StringLiteral kSgemm = "onnxc_rt_sgemm";
constexpr StringLiteral kSgemmBatched = "onnxc_rt_sgemm_batched";
constexpr StringLiteral kSgemmEp = "onnxc_rt_sgemm_ep";
constexpr StringLiteral kSgemmBatchedEp = "onnxc_rt_sgemm_batched_ep";
// ONNXC_SGEMM_BIAS_ROW, ONNXC_SGEMM_BIAS_COL, ONNXC_SGEMM_CLAMP
constexpr int32_t kBiasRow = ONNXC_SGEMM_BIAS_ROW,
                  kBiasCol = ONNXC_SGEMM_BIAS_COL, kClamp = ONNXC_SGEMM_CLAMP;
constexpr StringLiteral kConv = "onnxc_rt_sconv2d";
constexpr int64_t kConvParams = sizeof(onnxc_conv2d_params) / sizeof(int64_t);
constexpr int64_t kConvWPacked = ONNXC_CONV_W_PACKED;
constexpr int64_t kConvWCBlock = ONNXC_CONV_W_CBLOCK;
constexpr int64_t kConvWConst = ONNXC_CONV_W_CONST;
constexpr int64_t kCBlock = ONNXC_CONV_CBLOCK;
constexpr int64_t kConvBias = ONNXC_CONV_BIAS;
constexpr int64_t kConvClamp = ONNXC_CONV_CLAMP;
constexpr int64_t kConvPadded = ONNXC_CONV_PADDED;
constexpr int64_t kConvInPlace = ONNXC_CONV_IN_PLACE;
constexpr StringLiteral kMaxPool = "onnxc_rt_smaxpool2d";
constexpr StringLiteral kU8MaxPool = "onnxc_rt_u8maxpool2d";
constexpr StringLiteral kS8MaxPool = "onnxc_rt_s8maxpool2d";
constexpr int64_t kMaxPoolParams =
    sizeof(onnxc_maxpool2d_params) / sizeof(int64_t);

struct Rewriter {
  ModuleOp module;
  IRRewriter b;
  bool packConstants;
  /// Packed copies made so far: (global, offset, stride of k, stride of n)
  /// -> packed global.
  std::map<std::tuple<Operation *, int64_t, int64_t, int64_t, int64_t, int64_t>,
           memref::GlobalOp>
      packed;
  SmallVector<memref::GlobalOp> packedSources;

  bool fuseEpilogues;
  bool fuseActivations;
  bool fuseResiduals;
  /// Ops erased so far: the pass's list of linalg ops to visit holds
  /// pointers to some of them (fills, bias broadcasts, clamps fused away).
  DenseSet<Operation *> erased;

  void erase(Operation *op) {
    op->walk([&](Operation *nested) { erased.insert(nested); });
    b.eraseOp(op);
  }

  Rewriter(ModuleOp module, bool packConstants, bool fuseEpilogues,
           bool fuseActivations, bool fuseResiduals)
      : module(module), b(module.getContext()), packConstants(packConstants),
        fuseEpilogues(fuseEpilogues), fuseActivations(fuseActivations),
        fuseResiduals(fuseResiduals) {}

  Value idx(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// Two floats in one int64 slot, `first` in the low half (little-endian:
  /// the first of the struct's two float fields).
  Value floatPair(Location loc, float first, float second) {
    uint32_t lo, hi;
    std::memcpy(&lo, &first, sizeof first);
    std::memcpy(&hi, &second, sizeof second);
    return idx(loc, (int64_t)(((uint64_t)hi << 32) | lo));
  }
  Value add(Location loc, Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value mul(Location loc, Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  }
  Value i64(Location loc, Value index) {
    return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), index);
  }

  void declare(StringRef name, TypeRange inputs) {
    if (module.lookupSymbol(name))
      return;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(inputs, {}));
    fn.setPrivate();
  }

  /// A memref's aligned pointer (index), element offset and strides, static
  /// ones as constants.
  struct View {
    Value aligned, offset;
    SmallVector<Value> strides;
  };
  View describe(Location loc, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    bool known = succeeded(type.getStridesAndOffset(strides, offset));
    memref::ExtractStridedMetadataOp md;
    if (!known || ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    View v;
    v.aligned = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    v.offset = known && !ShapedType::isDynamic(offset) ? idx(loc, offset)
                                                       : md.getOffset();
    for (unsigned i = 0; i < type.getRank(); ++i)
      v.strides.push_back(known && !ShapedType::isDynamic(strides[i])
                              ? idx(loc, strides[i])
                              : md.getStrides()[i]);
    return v;
  }
  /// The element stride of loop `loop` in an operand with dims `dims`.
  Value loopStride(Location loc, const View &v, ArrayRef<int64_t> dims,
                   std::optional<unsigned> loop) {
    if (loop)
      for (auto [i, d] : llvm::enumerate(dims))
        if (d == (int64_t)*loop)
          return v.strides[i];
    return idx(loc, 0);
  }
  Value pointer(Location loc, Value aligned, Value offset) {
    Value bytes = add(loc, aligned, mul(loc, offset, idx(loc, sizeof(float))));
    return LLVM::IntToPtrOp::create(b, loc,
                                    LLVM::LLVMPointerType::get(b.getContext()),
                                    i64(loc, bytes));
  }

  /// The global `v` views (through view ops) when `v` has a static layout:
  /// its element strides and offset into the global's data.
  memref::GlobalOp constantRoot(Value v, SmallVectorImpl<int64_t> &strides,
                                int64_t &offset) {
    auto type = cast<MemRefType>(v.getType());
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return nullptr;
    Value root = v;
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
      root = view.getViewSource();
    auto get = root.getDefiningOp<memref::GetGlobalOp>();
    if (!get)
      return nullptr;
    return SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
  }

  /// A new private global holding `data` (1-D, 64-byte aligned) next to
  /// `source`, whose name it extends.
  memref::GlobalOp createPacked(memref::GlobalOp source, ArrayRef<float> data) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(source);
    auto tensorType =
        RankedTensorType::get({(int64_t)data.size()}, b.getF32Type());
    auto init = DenseResourceElementsAttr::get(
        tensorType, "onnxc_packed",
        HeapAsmResourceBlob::allocateAndCopyInferAlign<float>(data));
    auto result = memref::GlobalOp::create(
        b, source.getLoc(), (source.getSymName() + "_packed").str(),
        b.getStringAttr("private"),
        MemRefType::get({(int64_t)data.size()}, b.getF32Type()), init,
        /*constant=*/true, b.getI64IntegerAttr(64));
    SymbolTable(module).insert(result);
    // A global packed in two layouts (B and B^T) is dropped once.
    if (!llvm::is_contained(packedSources, source))
      packedSources.push_back(source);
    return result;
  }

  /// Whether a 2-D convolution's weights go in ONNXC_CONV_W_CBLOCK order
  /// (the runtime then pads its input into a copy in blocks of 16
  /// channels): one group, a kernel larger than 1 x 1, at least 64 input
  /// channels in whole blocks and 64 output channels. The copy costs about
  /// 1.35 times the plain padded one and the tiles gain 10-20% over
  /// blocks (docs/performance.md, issue 10): the gain grows with K, the
  /// copy's share shrinks with the output channels. Measured on U-Net's
  /// and ResNet's layers: 64 -> 64 to 384 -> 128 5-18% faster, copy
  /// included; 96 -> 32 and 32 -> 32 even or up to 17% slower when other
  /// jobs load the memory, 16 output channels 12-16% slower.
  static bool useCBlock(int64_t groups, int64_t m, int64_t c, int64_t kh,
                        int64_t kw) {
    return groups == 1 && c >= 4 * kCBlock && c % kCBlock == 0 &&
           kh * kw > 1 && m >= 2 * kPanel;
  }

  /// The convolution's weights packed for the indirect-GEMM kernel
  /// (ONNXC_CONV_W_PACKED: per group, 32-channel panels of K = C * KH * KW
  /// rows), when they are a constant global of static layout and sizes with
  /// several input channels per group or, with one, several output channels
  /// (a 1-input-channel convolution such as an STFT's, 514 filters of 512
  /// taps, is a GEMM over K = the taps). Depthwise weights (one input and
  /// few output channels per group) stay as they are: the runtime has a
  /// direct kernel for them. `cblock`: whether the call may take the rows
  /// in ONNXC_CONV_W_CBLOCK order; it stays set when they are (useCBlock).
  memref::GlobalOp packConvWeights(linalg::LinalgOp op, const Convolution &cv,
                                   bool &cblock) {
    Value w = op.getDpsInputs()[1];
    SmallVector<int64_t> loops = op.getStaticLoopRanges();
    bool twoD = cv.o.size() == 2;
    int64_t groups = loops[cv.g], m = loops[cv.m], c = loops[cv.c];
    int64_t kh = twoD ? loops[cv.k[0]] : 1, kw = loops[cv.k.back()];
    if (llvm::any_of(ArrayRef<int64_t>{groups, m, c, kh, kw},
                     [](int64_t v) { return ShapedType::isDynamic(v) || v <= 0; }) ||
        (c <= 1 && m < 4))
      return nullptr;
    SmallVector<int64_t> strides;
    int64_t offset;
    memref::GlobalOp global = constantRoot(w, strides, offset);
    if (!global)
      return nullptr;
    int64_t sKh = twoD ? strides[3] : 0, sKw = strides.back();
    cblock = cblock && twoD && useCBlock(groups, m, c, kh, kw);
    auto key = std::make_tuple(global.getOperation(), offset, strides[0],
                               strides[1], m,
                               (c * 1000003 + kh * 1009 + kw) * 2 + cblock);
    if (auto it = packed.find(key); it != packed.end())
      return it->second;
    std::optional<SmallVector<float>> data = constantData(global);
    if (!data)
      return nullptr;
    int64_t panels = (m + kPanel - 1) / kPanel, k = c * kh * kw;
    SmallVector<float> out(groups * panels * k * kPanel, 0.0f);
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t mm = 0; mm < m; ++mm)
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t a = 0; a < kh; ++a)
            for (int64_t bb = 0; bb < kw; ++bb) {
              int64_t at = offset + g * strides[0] + mm * strides[1] +
                           ci * strides[2] + a * sKh + bb * sKw;
              if (at < 0 || at >= (int64_t)data->size())
                return nullptr;
              int64_t row = cblock ? ((ci / kCBlock * kh + a) * kw + bb) *
                                             kCBlock +
                                         ci % kCBlock
                                   : (ci * kh + a) * kw + bb;
              out[((g * panels + mm / kPanel) * k + row) * kPanel +
                  mm % kPanel] = (*data)[at];
            }
    memref::GlobalOp result = createPacked(global, out);
    packed[key] = result;
    return result;
  }

  /// B's data packed for the kernel, when B is a constant global of static
  /// layout, K and N are static and B has no batch dims.
  memref::GlobalOp packB(linalg::LinalgOp op, const Contraction &c) {
    Value bv = op.getDpsInputs()[1];
    for (int64_t d : c.dims[1])
      if (d >= 0 && llvm::is_contained(c.batch, (unsigned)d))
        return nullptr;
    SmallVector<int64_t> loops = op.getStaticLoopRanges();
    int64_t kSize = loops[c.k], nSize = c.n ? loops[*c.n] : 1;
    if (ShapedType::isDynamic(kSize) || ShapedType::isDynamic(nSize) ||
        kSize * nSize == 0)
      return nullptr;
    SmallVector<int64_t> strides;
    int64_t offset;
    memref::GlobalOp global = constantRoot(bv, strides, offset);
    if (!global)
      return nullptr;
    int64_t ks = 0, ns = 0;
    for (auto [i, d] : llvm::enumerate(c.dims[1])) {
      if (d == (int64_t)c.k)
        ks = strides[i];
      if (c.n && d == (int64_t)*c.n)
        ns = strides[i];
    }
    auto key = std::make_tuple(global.getOperation(), offset, ks, ns, kSize,
                               nSize);
    if (auto it = packed.find(key); it != packed.end())
      return it->second;
    std::optional<SmallVector<float>> data = constantData(global);
    if (!data)
      return nullptr;
    int64_t panels = (nSize + kPanel - 1) / kPanel;
    SmallVector<float> out(panels * kSize * kPanel, 0.0f);
    for (int64_t j = 0; j < panels; ++j)
      for (int64_t p = 0; p < kSize; ++p)
        for (int64_t col = 0; col < kPanel && j * kPanel + col < nSize; ++col) {
          int64_t at = offset + p * ks + (j * kPanel + col) * ns;
          if (at < 0 || at >= (int64_t)data->size())
            return nullptr;
          out[(j * kSize + p) * kPanel + col] = (*data)[at];
        }
    memref::GlobalOp result = createPacked(global, out);
    packed[key] = result;
    return result;
  }

  void rewriteContraction(linalg::LinalgOp op, const Contraction &c) {
    Location loc = op.getLoc();
    b.setInsertionPoint(op);
    Value av = op.getDpsInputs()[0], bv = op.getDpsInputs()[1],
          cv = op.getDpsInits()[0];
    // C known to be zero: the kernel overwrites it; the zero fill goes
    // unless something else reads it.
    int32_t flags = kAccumulate;
    bool erasable;
    if (Operation *init = zeroInitOf(op, cv, erasable);
        init && !llvm::is_contained(aliasesOf(cv), av) &&
        !llvm::is_contained(aliasesOf(cv), bv)) {
      if (erasable)
        erase(init);
      flags = 0;
    }
    // Epilogue fusion: a bias add and / or Relu / Clip reading the
    // product next (a Gemm's) goes into the call, which then writes their
    // output buffer instead of C.
    std::optional<MatmulEpilogue> ep;
    if (fuseEpilogues && flags == 0)
      ep = matchMatmulEpilogue(op, c);
    Value dst = cv;
    if (ep) {
      dst = ep->out;
      if (!definedBefore(dst, op))
        dst.getDefiningOp()->moveBefore(op);
      if (ep->bias)
        flags |= ep->biasPerRow ? kBiasRow : kBiasCol;
      if (ep->clamp)
        flags |= kClamp;
    }
    memref::GlobalOp packedB = packConstants ? packB(op, c) : nullptr;
    SmallVector<Value> sizes;
    for (Range r : op.createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    // A packed B is not read in place: no view of it (its global may go).
    View va = describe(loc, av), vc = describe(loc, dst);
    View vb = packedB ? View{idx(loc, 0), idx(loc, 0),
                             SmallVector<Value>(c.dims[1].size(), idx(loc, 0))}
                      : describe(loc, bv);
    auto size = [&](std::optional<unsigned> l) {
      return l ? sizes[*l] : idx(loc, 1);
    };
    Value offA = va.offset, offB = vb.offset, offC = vc.offset;
    // Batch dims but the innermost: loops around the call.
    std::optional<unsigned> inner;
    if (!c.batch.empty())
      inner = c.batch.back();
    for (unsigned l : ArrayRef<unsigned>(c.batch).drop_back(inner ? 1 : 0)) {
      auto loop = scf::ForOp::create(b, loc, idx(loc, 0), sizes[l], idx(loc, 1));
      b.setInsertionPointToStart(loop.getBody());
      Value iv = loop.getInductionVar();
      offA = add(loc, offA, mul(loc, iv, loopStride(loc, va, c.dims[0], l)));
      offB = add(loc, offB, mul(loc, iv, loopStride(loc, vb, c.dims[1], l)));
      offC = add(loc, offC, mul(loc, iv, loopStride(loc, vc, c.dims[2], l)));
    }
    Value pa = pointer(loc, va.aligned, offA);
    Value pc = pointer(loc, vc.aligned, offC);
    Value pb, rsb, csb;
    if (packedB) {
      Value g = memref::GetGlobalOp::create(b, loc, packedB.getType(),
                                            packedB.getSymName());
      pb = pointer(loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, g),
                   idx(loc, 0));
      rsb = csb = i64(loc, idx(loc, 0));
      flags |= kBPacked;
    } else {
      pb = pointer(loc, vb.aligned, offB);
      rsb = i64(loc, loopStride(loc, vb, c.dims[1], c.k));
      csb = i64(loc, loopStride(loc, vb, c.dims[1], c.n));
    }
    Value rsa = i64(loc, loopStride(loc, va, c.dims[0], c.m));
    Value csa = i64(loc, loopStride(loc, va, c.dims[0], c.k));
    Value rsc = i64(loc, loopStride(loc, vc, c.dims[2], c.m));
    Value csc = i64(loc, loopStride(loc, vc, c.dims[2], c.n));
    Value m = i64(loc, size(c.m)), n = i64(loc, size(c.n)),
          k = i64(loc, sizes[c.k]);
    Value fl = arith::ConstantIntOp::create(b, loc, b.getI32Type(), flags);
    SmallVector<Value> args;
    StringRef callee = kSgemm;
    if (inner) {
      callee = kSgemmBatched;
      args = {i64(loc, sizes[*inner]), m, n, k,
              pa, i64(loc, loopStride(loc, va, c.dims[0], inner)), rsa, csa,
              pb, packedB ? i64(loc, idx(loc, 0))
                          : i64(loc, loopStride(loc, vb, c.dims[1], inner)),
              rsb, csb,
              pc, i64(loc, loopStride(loc, vc, c.dims[2], inner)), rsc, csc,
              fl};
    } else {
      args = {m, n, k, pa, rsa, csa, pb, rsb, csb, pc, rsc, csc, fl};
    }
    if (ep) {
      // The _ep entries: the same arguments, then bias, lo, hi.
      callee = inner ? kSgemmBatchedEp : kSgemmEp;
      Value bias;
      if (ep->bias) {
        View vbias = describe(loc, ep->bias);
        bias = pointer(loc, vbias.aligned, vbias.offset);
      } else {
        bias = LLVM::ZeroOp::create(b, loc,
                                    LLVM::LLVMPointerType::get(b.getContext()));
      }
      args.push_back(bias);
      args.push_back(arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(ep->clamp ? ep->lo : 0.0f)));
      args.push_back(arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(ep->clamp ? ep->hi : 0.0f)));
    }
    declare(callee, ValueRange(args).getTypes());
    // The call stands for the epilogue's node too (--profile names both;
    // a fused location lists the last op first, as onnxc-fuse-elementwise's).
    func::CallOp::create(
        b, ep ? b.getFusedLoc({ep->op->getLoc(), loc}) : loc, callee,
        TypeRange{}, args);
    erase(op);
    if (ep) {
      erase(ep->op);
      // C itself is dead when the kernel wrote the epilogue's buffer.
      if (dst != cv)
        eraseIfDead(cv);
    }
  }

  void rewriteConvolution(linalg::LinalgOp op, const Convolution &cv) {
    Location loc = op.getLoc();
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1],
          y = op.getDpsInits()[0];
    // The parameter block lives in the function's frame (an alloca in a
    // loop body would grow the stack each iteration).
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func || func.getFunctionBody().empty())
      return;
    auto paramsType = MemRefType::get({kConvParams}, b.getI64Type());
    b.setInsertionPointToStart(&func.getFunctionBody().front());
    Value params = memref::AllocaOp::create(b, loc, paramsType);
    b.setInsertionPoint(op);
    SmallVector<Value> sizes;
    for (Range r : op.createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    // A zero padding in front (a Conv's pads, a Pad): the kernel reads the
    // unpadded source around the padding (ONNXC_CONV_PADDED), and the
    // padded buffer goes. Not when the convolution writes over the source
    // (decided below, once the epilogue is: bufferization may give Y the
    // dead source's buffer).
    std::optional<FusedPad> pad = fusedPad(op, x, 3 + cv.o.size());
    bool padIsY = pad && viewRoot(pad->src) == viewRoot(y);
    // Channel blocks only where the runtime copies the input anyway (a
    // padded, undilated convolution; ConvTaps splits dilated ones by
    // region, whose inner regions read the input in place).
    bool cblock = pad.has_value() &&
                  llvm::all_of(cv.dilation, [](int64_t d) { return d == 1; });
    memref::GlobalOp packedW =
        packConstants ? packConvWeights(op, cv, cblock) : nullptr;
    // Epilogue fusion: the bias broadcast (or zero fill) that initialized
    // Y goes into the kernel (ONNXC_CONV_BIAS), and then a Relu / Clip that
    // reads Y next and nothing after (ONNXC_CONV_CLAMP; the kernel writes
    // the clamp's output buffer instead of Y), or likewise a Sigmoid,
    // Swish, HardSigmoid or HardSwish (ONNXC_CONV_ACT).
    // Packed weights are constants of the library (ONNXC_CONV_W_CONST).
    int64_t flags = packedW ? kConvWPacked | kConvWConst |
                                  (cblock ? kConvWCBlock : 0)
                            : 0;
    Value yRoot = y;
    auto yView = y.getDefiningOp<memref::ExpandShapeOp>();
    if (yView)
      yRoot = yView.getSrc();
    if (pad)
      flags |= kConvPadded;
    b.setInsertionPoint(op);
    Value bias;
    Operation *init = fuseEpilogues ? convInit(op, yRoot, bias) : nullptr;
    std::optional<Clamp> clamp;
    Location callLoc = loc; // with the fused Relu/Clip's node
    // A residual Add (and its Relu) that reads Y next and writes over its
    // other operand R: the call starts from R (plus the bias:
    // ONNXC_CONV_BIAS_ADD) and writes R, through the clamp's machinery
    // below (`clamp` then holds the Add; `residual` says so).
    bool residual = false;
    if (init) {
      flags |= kConvBias;
      erase(init);
      b.setInsertionPoint(op);
      if (fuseResiduals)
        clamp = convResidual(op, yRoot, {x, w, pad ? pad->src : Value()});
      if (clamp) {
        residual = true;
        flags &= ~kConvBias;
        if (bias)
          flags |= ONNXC_CONV_BIAS_ADD;
      } else {
        clamp = convClamp(op, yRoot, {x, w}, fuseActivations);
      }
      // A clamp that writes the fused padding's source back (bufferization
      // reuses the input's buffer, as in U-Net's blocks): for a depthwise
      // convolution whose output is laid out exactly as its input, or an
      // ungrouped one over packed weights, whose input the runtime copies
      // padded in full before it writes any output (ONNXC_CONV_IN_PLACE);
      // else no clamp fusion.
      if (clamp && !residual && pad &&
          viewRoot(clamp->out) == viewRoot(pad->src)) {
        if (inPlaceDepthwise(*pad, clamp->out, sizes[cv.c], sizes[cv.m]) ||
            (packedW && getConstantIntValue(sizes[cv.g]) == 1 &&
             sameElements(pad->src, clamp->out)))
          flags |= kConvInPlace;
        else
          clamp.reset();
      }
    }
    // Y in the padding's source: the call reads the source unpadded only
    // if nothing writes it first. The bias is fused (no init writes Y
    // before the call) and the call writes elsewhere (a fused clamp's
    // output), or in place as above, or it is an ungrouped convolution over
    // packed weights writing Y exactly over the source, which the runtime
    // copies padded in full first (ONNXC_CONV_IN_PLACE). Otherwise the
    // padded buffer stays. (A U-Net block whose second Relu writes into
    // its Concat's slice: its convolution's Y reuses its input's buffer.)
    if (padIsY) {
      bool keep = false;
      if ((flags & kConvBias || residual) &&
          llvm::all_of(pad->yWriters, [&](Operation *w) { return w == init; })) {
        if (clamp)
          keep = viewRoot(clamp->out) != viewRoot(pad->src) ||
                 (flags & kConvInPlace);
        else if (packedW && getConstantIntValue(sizes[cv.g]) == 1 &&
                 sameElements(pad->src, yRoot)) {
          flags |= kConvInPlace;
          keep = true;
        }
      }
      if (!keep) {
        pad.reset();
        flags &= ~kConvPadded;
      }
    }
    // A residual Add without a Relu after it: no clamp.
    bool bounded = clamp && !clamp->act &&
                   !(residual && std::isinf(clamp->lo) && std::isinf(clamp->hi));
    if (clamp) {
      flags |= clamp->act ? ONNXC_CONV_ACT(clamp->act)
               : bounded  ? kConvClamp
                          : 0;
      SmallVector<Operation *> chain;
      if (movableBefore(clamp->out, op, chain))
        moveBefore(chain, op);
      callLoc = b.getFusedLoc({clamp->op->getLoc(), loc});
      erase(clamp->op);
      b.setInsertionPoint(op);
    }
    View vx = pad ? describeExpanded(loc, pad->src, pad->expand)
                  : describe(loc, x);
    // The convolution's view of Y, over the clamp's output instead (which
    // may be a strided slice of a larger buffer).
    View vy = !clamp ? describe(loc, y)
              : clamp->collapse
                  ? describeExpanded(
                        loc, clamp->out,
                        clamp->collapse.getReassociationIndices(),
                        memref::getMixedSizes(b, loc, clamp->collapse.getSrc()))
                  : describeExpanded(loc, clamp->out, yView);
    // Packed weights are not read in place: no view of them (their global
    // may go); their strides are ignored by the runtime.
    View vw = packedW ? View{idx(loc, 0), idx(loc, 0),
                             SmallVector<Value>(5, idx(loc, 0))}
                      : describe(loc, w);
    bool twoD = cv.o.size() == 2;
    Value one = idx(loc, 1), zero = idx(loc, 0);
    Value outW = sizes[cv.o.back()], kernelW = sizes[cv.k.back()];
    SmallVector<Value> fields = {
        sizes[cv.n], sizes[cv.g], sizes[cv.m], sizes[cv.c],
        twoD ? sizes[cv.o[0]] : one, outW,
        twoD ? sizes[cv.k[0]] : one, kernelW,
        idx(loc, twoD ? cv.stride[0] : 1), idx(loc, cv.stride.back()),
        idx(loc, twoD ? cv.dilation[0] : 1), idx(loc, cv.dilation.back())};
    // Strides per dim; a 1-D convolution's missing h dim gets the strides
    // a contiguous 2-D layout would have (only index 0 is used).
    auto push = [&](const View &v) {
      for (unsigned i = 0; i < 3; ++i)
        fields.push_back(v.strides[i]);
      fields.push_back(twoD ? v.strides[3] : zero);
      fields.push_back(v.strides.back());
    };
    push(vx);
    push(vw);
    push(vy);
    if (!twoD) {
      fields[12 + 5 + 3] = mul(loc, kernelW, vw.strides.back());
      fields[12 + 10 + 3] = mul(loc, outW, vy.strides.back());
    }
    static_assert(ONNXC_ABI_SLOT(onnxc_conv2d_params, flags) == 12 + 3 * 5,
                  "the fields above fill the slots before flags");
    fields.push_back(idx(loc, flags));
    // bias (a pointer; 0: start from zero), then the clamp bounds as the
    // bits of two floats in one int64 (lo first: little-endian).
    Value biasPtr = idx(loc, 0);
    if (bias) {
      View vb = describe(loc, bias);
      biasPtr = add(loc, vb.aligned, mul(loc, vb.offset, idx(loc, sizeof(float))));
    }
    fields.push_back(biasPtr);
    bool isClamp = bounded, isAct = clamp && clamp->act;
    fields.push_back(floatPair(loc, isClamp ? clamp->lo : 0.0f,
                               isClamp ? clamp->hi : 0.0f));
    // pad_top, pad_left, in_h, in_w (read only with ONNXC_CONV_PADDED).
    if (pad) {
      auto value = [&](OpFoldResult f) {
        return getValueOrCreateConstantIndexOp(b, loc, f);
      };
      fields.push_back(twoD ? value(pad->low[0]) : zero);
      fields.push_back(value(pad->low.back()));
      fields.push_back(twoD ? value(pad->size[0]) : one);
      fields.push_back(value(pad->size.back()));
    } else {
      fields.append({zero, zero, zero, zero});
    }
    // act_alpha, act_beta (read only with ONNXC_CONV_ACT).
    static_assert(ONNXC_ABI_SLOT(onnxc_conv2d_params, act_alpha) == 34,
                  "the fields above fill the slots before act_alpha");
    fields.push_back(floatPair(loc, isAct ? clamp->alpha : 0.0f,
                               isAct ? clamp->beta : 0.0f));
    assert(fields.size() == kConvParams && "every slot filled");
    for (auto [i, f] : llvm::enumerate(fields))
      memref::StoreOp::create(b, loc, i64(loc, f), params,
                              ValueRange{idx(loc, i)});
    SmallVector<Value> args = {
        pointer(loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, params),
                zero),
        pointer(loc, vx.aligned, vx.offset),
        packedW ? pointer(loc,
                          memref::ExtractAlignedPointerAsIndexOp::create(
                              b, loc,
                              memref::GetGlobalOp::create(b, loc,
                                                          packedW.getType(),
                                                          packedW.getSymName())),
                          zero)
                : pointer(loc, vw.aligned, vw.offset),
        pointer(loc, vy.aligned, vy.offset)};
    declare(kConv, ValueRange(args).getTypes());
    auto call = func::CallOp::create(b, callLoc, kConv, TypeRange{}, args);
    erase(op);
    if (pad) {
      for (Operation *d : pad->srcDeallocs)
        d->moveAfter(call);
      erasePadIfDead(*pad);
    }
    // Y itself is dead when the clamp's buffer took its place: drop its
    // views, deallocations and allocation.
    if (clamp)
      eraseIfDead(yRoot);
  }

  /// The FusedPad of a convolution (matchFusedPad), turning a padding
  /// gather that writes its input into fill + copy first.
  std::optional<FusedPad> fusedPad(Operation *op, Value x, unsigned rank,
                                   unsigned firstSpatial = 3,
                                   PadValue pad = PadValue::PosZero) {
    Value buf = x;
    if (auto expand = x.getDefiningOp<memref::ExpandShapeOp>())
      buf = expand.getSrc();
    if (!buf.getDefiningOp<memref::AllocOp>())
      return std::nullopt;
    SmallVector<Value> aliases = aliasesOf(buf);
    Operation *prev = op->getPrevNode();
    while (prev && !touches(prev, aliases))
      prev = prev->getPrevNode();
    if (auto gather = dyn_cast_or_null<linalg::GenericOp>(prev)) {
      if (gather.getNumDpsInits() == 1 && gather.getDpsInits()[0] == buf &&
          ukernel::rewritePadAsCopy(gather))
        erased.insert(prev); // on the pass's list; never dereferenced again
    }
    return matchFusedPad(op, x, rank, firstSpatial, pad);
  }

  /// The max pool `op` -> onnxc_rt_smaxpool2d (f32), onnxc_rt_u8maxpool2d
  /// or onnxc_rt_s8maxpool2d, when Y was filled with the type's lowest
  /// value last (-inf, 0, -128: the kernel writes every element, so the
  /// fill goes). A padding of that value in front (a fill + copy) goes too:
  /// the kernel clips windows to the source, which is the same under max.
  void rewriteMaxPool(linalg::LinalgOp op, const ukernel::MaxPool2d &mp) {
    Location loc = op.getLoc();
    Value x = op.getDpsInputs()[0], window = op.getDpsInputs()[1],
          y = op.getDpsInits()[0];
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func || func.getFunctionBody().empty())
      return;
    Value yRoot = viewRoot(y);
    if (!yRoot.getDefiningOp<memref::AllocOp>())
      return;
    SmallVector<Value> yAliases = aliasesOf(yRoot);
    linalg::FillOp init;
    for (Operation *prev = op->getPrevNode(); prev && !init;
         prev = prev->getPrevNode()) {
      auto fill = dyn_cast<linalg::FillOp>(prev);
      if (fill && fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == y &&
          isPadValue(fill.getInputs()[0], mp.lowest))
        init = fill;
      else if (touches(prev, yAliases))
        return;
    }
    if (!init)
      return;
    std::optional<FusedPad> pad = fusedPad(op, x, 4, /*firstSpatial=*/2,
                                           mp.lowest);
    if (pad && (pad->expand || viewRoot(pad->src) == yRoot ||
                !pad->yWriters.empty()))
      pad.reset();
    // The parameter block lives in the function's frame (see the
    // convolution's).
    b.setInsertionPointToStart(&func.getFunctionBody().front());
    Value params = memref::AllocaOp::create(
        b, loc, MemRefType::get({kMaxPoolParams}, b.getI64Type()));
    b.setInsertionPoint(op);
    SmallVector<Value> sizes;
    for (Range r : op.createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    Value src = pad ? pad->src : x;
    View vx = describe(loc, src), vy = describe(loc, y);
    auto value = [&](OpFoldResult f) {
      return getValueOrCreateConstantIndexOp(b, loc, f);
    };
    SmallVector<Value> fields = {sizes[0],
                                 sizes[1],
                                 sizes[2],
                                 sizes[3],
                                 sizes[4],
                                 sizes[5],
                                 idx(loc, mp.stride[0]),
                                 idx(loc, mp.stride[1]),
                                 idx(loc, mp.dilation[0]),
                                 idx(loc, mp.dilation[1])};
    if (pad) {
      fields.append({value(pad->low[0]), value(pad->low[1]),
                     value(pad->size[0]), value(pad->size[1])});
    } else {
      fields.append({idx(loc, 0), idx(loc, 0),
                     b.createOrFold<memref::DimOp>(loc, x, 2),
                     b.createOrFold<memref::DimOp>(loc, x, 3)});
    }
    fields.append(vx.strides.begin(), vx.strides.end());
    fields.append(vy.strides.begin(), vy.strides.end());
    for (auto [i, f] : llvm::enumerate(fields))
      memref::StoreOp::create(b, loc, i64(loc, f), params,
                              ValueRange{idx(loc, i)});
    Value zero = idx(loc, 0);
    SmallVector<Value> args = {
        pointer(loc,
                memref::ExtractAlignedPointerAsIndexOp::create(b, loc, params),
                zero),
        pointer(loc, vx.aligned, vx.offset),
        pointer(loc, vy.aligned, vy.offset)};
    StringRef kernel = mp.lowest == PadValue::U8Lowest   ? kU8MaxPool
                       : mp.lowest == PadValue::S8Lowest ? kS8MaxPool
                                                         : kMaxPool;
    declare(kernel, ValueRange(args).getTypes());
    auto call = func::CallOp::create(b, loc, kernel, TypeRange{}, args);
    erase(op);
    erase(init);
    if (pad) {
      for (Operation *d : pad->srcDeallocs)
        d->moveAfter(call);
      erasePadIfDead(*pad);
    }
    // The kernel-shaped operand only gave the loops their bounds.
    eraseIfDead(viewRoot(window));
  }

  /// Whether a depthwise convolution (one input and one output channel per
  /// group) may write `out` when it reads the padding's source: `out` and
  /// the source are the same elements (same buffer, static shape, strides
  /// and offset).
  static bool inPlaceDepthwise(const FusedPad &pad, Value out, Value inC,
                               Value outM) {
    if (getConstantIntValue(inC) != 1 || getConstantIntValue(outM) != 1)
      return false;
    return sameElements(pad.src, out);
  }

  /// Whether views `src` and `out` are the same elements: same buffer,
  /// static shape, strides and offset.
  static bool sameElements(Value src, Value out) {
    auto a = cast<MemRefType>(src.getType());
    auto b = cast<MemRefType>(out.getType());
    SmallVector<int64_t> sa, sb;
    int64_t oa, ob;
    return a.hasStaticShape() && a.getShape() == b.getShape() &&
           succeeded(a.getStridesAndOffset(sa, oa)) &&
           succeeded(b.getStridesAndOffset(sb, ob)) && sa == sb && oa == ob &&
           !ShapedType::isDynamic(oa) &&
           llvm::none_of(sa, ShapedType::isDynamic) &&
           viewRoot(src) == viewRoot(out) &&
           // The same start: both views of the root at static offset `oa`
           // (the root itself has an identity layout and offset 0 when a
           // view of it has a static offset; the root's type decides).
           cast<MemRefType>(viewRoot(out).getType()).getLayout().isIdentity();
  }

  /// The 5-D (4-D for 1-D) view `x` of a convolution's input (an
  /// expand_shape of its buffer, or the buffer itself), laid over `src` (of
  /// the buffer's rank) instead: src's strides split as `expand` splits.
  View describeExpanded(Location loc, Value src, memref::ExpandShapeOp expand) {
    if (!expand)
      return describe(loc, src);
    return describeExpanded(loc, src, expand.getReassociationIndices(),
                            expand.getMixedOutputShape());
  }
  /// `src` seen with the shape `shape`, each of its dims r split into the
  /// dims groups[r] (as an expand_shape would).
  View describeExpanded(Location loc, Value src,
                        ArrayRef<ReassociationIndices> groups,
                        ArrayRef<OpFoldResult> shape) {
    View s = describe(loc, src);
    View v{s.aligned, s.offset, {}};
    v.strides.resize(shape.size());
    for (auto [r, group] : llvm::enumerate(groups)) {
      Value stride = s.strides[r];
      for (int64_t d : llvm::reverse(group)) {
        v.strides[d] = stride;
        stride = mul(loc, stride, getValueOrCreateConstantIndexOp(b, loc, shape[d]));
      }
    }
    return v;
  }

  /// Erases a fused padding (its fill and copy, and the buffer when that
  /// leaves it unused) once nothing reads what they wrote: nothing touches
  /// the buffer after the copy until it is filled again, deallocated or its
  /// block ends (bufferization may pad into one buffer several times).
  void erasePadIfDead(FusedPad &p) {
    Operation *alloc = p.buf.getDefiningOp();
    if (alloc->getBlock() != p.copy->getBlock())
      return;
    SmallVector<Value> aliases = aliasesOf(p.buf);
    for (Operation *o = p.copy->getNextNode(); o; o = o->getNextNode()) {
      if (auto fill = dyn_cast<linalg::FillOp>(o);
          fill && fill.hasPureBufferSemantics() &&
          fill.getDpsInits()[0] == p.buf)
        break;
      if (auto dealloc = dyn_cast<memref::DeallocOp>(o);
          dealloc && dealloc.getMemref() == p.buf)
        break;
      if (touches(o, aliases))
        return;
    }
    erase(p.copy);
    if (p.to->use_empty())
      erase(p.to);
    erase(p.fill);
    eraseIfDead(p.buf);
  }

  /// Erases `buf` (an allocation) when it has no users but deallocations
  /// and views without users.
  void eraseIfDead(Value buf) {
    auto alloc = buf.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      return;
    SmallVector<Operation *> dead;
    for (Operation *user : buf.getUsers()) {
      if (isa<memref::DeallocOp>(user) ||
          (isa<ViewLikeOpInterface>(user) && user->use_empty()))
        dead.push_back(user);
      else
        return;
    }
    for (Operation *d : dead)
      erase(d);
    erase(alloc);
  }

  /// Drops the globals packing made unused, with their dead get_globals.
  void cleanup() {
    for (memref::GlobalOp g : packedSources) {
      SmallVector<Operation *> dead;
      bool used = false;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(g.getSymNameAttr(), module);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses) {
        Operation *user = use.getUser();
        if (isa<memref::GetGlobalOp>(user) && user->use_empty())
          dead.push_back(user);
        else
          used = true;
      }
      if (used)
        continue;
      for (Operation *d : dead)
        d->erase();
      g.erase();
    }
    packedSources.clear();
  }
};

struct LinalgToUkernelPass
    : public onnxc::impl::LinalgToUkernelBase<LinalgToUkernelPass> {
  using LinalgToUkernelBase::LinalgToUkernelBase;
  void runOnOperation() override {
    Rewriter r(getOperation(), packConstants, fuseEpilogues, fuseActivations,
               fuseResiduals);
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (r.erased.contains(op.getOperation()))
        continue;
      if (auto c = matchContraction(op)) {
        LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": contraction at "
                                << op->getLoc() << "\n");
        r.rewriteContraction(op, *c);
      } else if (auto cv = convolutions ? matchConvolution(op)
                                        : std::nullopt) {
        LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": convolution at "
                                << op->getLoc() << "\n");
        r.rewriteConvolution(op, *cv);
      } else if (auto mp = op.hasPureBufferSemantics()
                               ? ukernel::matchMaxPool2d(op)
                               : std::nullopt) {
        LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": max pool at " << op->getLoc()
                                << "\n");
        r.rewriteMaxPool(op, *mp);
      }
    }
    getOperation().walk([&](func::FuncOp f) {
      writeCallsInPlace(f);
      chainConvCalls(f);
    });
    r.cleanup();
  }
};

} // namespace

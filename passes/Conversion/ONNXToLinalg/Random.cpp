//===- Random.cpp - Random generator ops -> linalg ------------------------===//
//
// RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike,
// Bernoulli, Multinomial, and the random stream (Random.h) that Dropout
// (Dropout.cpp) draws from too.
//
// The generator is Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011), computed inline: every
// element's value is a pure function of the node's key and its counter, so
// the values come out of one linalg.generic of arith ops (two
// arith.mului_extended per round) that LLVM vectorizes, with no call and no
// state per element. Per call of a node the runtime supplies two scalars
// (runtime/src/random.c): the 64-bit key (onnxc_rt_random_key: from the
// seed attribute, or from the process seed and a hash of the node) and the
// call index k (onnxc_rt_random_call on the node's state, an internal
// global of the module). Element i (row-major flat index) of the call uses
// the block of counter (lo32(i), hi32(i), lo32(k), hi32(k)) under the key
// (lo32(key), hi32(key)), and of its four words w0..w3:
//   float uniform in [0, 1): (w0 >> 8) * 2^-24 (f16 and f32 outputs);
//   double uniform: ((w0 << 21) | (w1 >> 11)) * 2^-53;
//   normal: Box-Muller, sqrt(-2 ln u1) * cos(2 pi u2) with u1 in (0, 1]
//     ((w0 >> 8) + 1) * 2^-24 and u2 from w1 (f16, f32), or u1, u2 from
//     (w0, w1) and (w2, w3) at 53 bits (f64); the cosine by quadrant and
//     polynomial, no libm call;
//   Bernoulli: u < p with u at the input's precision (53 bits for double);
//   Multinomial: u at 53 bits, the class by inverse CDF in f64;
//   Dropout: keep iff w0 >= ceil(ratio * 2^32).
// docs/codegen.md#random-numbers describes the streams.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Random.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/RuntimeCall.h"
#include "runtime/include/onnxc/runtime.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace mlir::onnxc::linalg_conv::rng {

constexpr StringLiteral kKeyFn = "onnxc_rt_random_key";
constexpr StringLiteral kCallFn = "onnxc_rt_random_call";
constexpr StringLiteral kStatePrefix = "__onnxc_rng";

Value i32Const(OpBuilder &b, Location loc, uint32_t v) {
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getI32Type(), APInt(32, v)));
}

Value i64Const(OpBuilder &b, Location loc, uint64_t v) {
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getI64Type(), APInt(64, v)));
}

/// lo32(x), hi32(x) of an i64.
static std::pair<Value, Value> split64(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value lo = arith::TruncIOp::create(b, loc, i32, x);
  Value hi = arith::TruncIOp::create(
      b, loc, i32, arith::ShRUIOp::create(b, loc, x, i64Const(b, loc, 32)));
  return {lo, hi};
}

/// A 64-bit FNV-1a hash: the node id of an unseeded node.
static uint64_t fnv1a(StringRef s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

/// The seed attribute as the 64 bits the runtime's key derivation takes:
/// the IEEE bits of a float seed as a double, an integer seed (Dropout's)
/// as is. std::nullopt when the node has none.
static std::optional<uint64_t> seedBits(Operation *op) {
  Attribute a = op->getAttr("seed");
  if (auto f = dyn_cast_or_null<FloatAttr>(a))
    return llvm::bit_cast<uint64_t>(f.getValueAsDouble());
  if (auto i = dyn_cast_or_null<IntegerAttr>(a))
    return (uint64_t)i.getInt();
  return std::nullopt;
}

/// Emits, at the builder's position, the two runtime calls of one call of
/// the random node `op`: its key and its call index (declaring the
/// functions and the node's state global in the module).
Stream emitStream(OpBuilder &b, Location loc, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *ctx = b.getContext();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  LLVM::GlobalOp state;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    if (!module.lookupSymbol(kKeyFn))
      func::FuncOp::create(b, loc, kKeyFn, b.getFunctionType({i64, i32, i64}, {i64}))
          .setPrivate();
    if (!module.lookupSymbol(kCallFn))
      func::FuncOp::create(b, loc, kCallFn, b.getFunctionType({ptrTy}, {i64}))
          .setPrivate();
    unsigned index = 0;
    for (auto g : module.getOps<LLVM::GlobalOp>())
      index += g.getSymName().starts_with(kStatePrefix);
    auto arrTy = LLVM::LLVMArrayType::get(i64, 2);
    auto zero = DenseElementsAttr::get(RankedTensorType::get({2}, i64),
                                       b.getI64IntegerAttr(0).getValue());
    state = LLVM::GlobalOp::create(b, loc, arrTy, /*isConstant=*/false,
                                   LLVM::Linkage::Internal,
                                   (kStatePrefix + Twine(index)).str(), zero);
  }
  std::optional<uint64_t> seed = seedBits(op);
  // The node id: where the node is (function, node name, op) and its
  // state's name, unique in the module; not the model's file name, so that
  // a model compiled from another path draws the same values.
  std::string where;
  {
    llvm::raw_string_ostream os(where);
    if (auto fn = op->getParentOfType<func::FuncOp>())
      os << fn.getSymName();
    os << '/';
    op->getLoc()->walk([&](Location l) {
      if (auto name = dyn_cast<NameLoc>(l)) {
        os << name.getName().getValue();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    os << '/' << op->getName().getStringRef() << '/' << state.getSymName();
  }
  Value key =
      func::CallOp::create(
          b, loc, kKeyFn, TypeRange{i64},
          ValueRange{i64Const(b, loc, fnv1a(where)),
                     i32Const(b, loc, seed ? 1 : 0), i64Const(b, loc, seed.value_or(0))})
          .getResult(0);
  Value addr = LLVM::AddressOfOp::create(b, loc, state);
  Value call = func::CallOp::create(b, loc, kCallFn, TypeRange{i64},
                                    ValueRange{addr})
                   .getResult(0);
  auto [k0, k1] = split64(b, loc, key);
  auto [c2, c3] = split64(b, loc, call);
  return {philoxRoundKeys(b, loc, k0, k1), c2, c3};
}

/// The flat row-major index of the current element of a generic whose loop
/// sizes are `sizes` (index values), as an i64.
static Value flatIndex(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  int64_t rank = sizes.size();
  if (rank == 0)
    return i64Const(b, loc, 0);
  // Here and below, builder calls that create ops are separate statements
  // (never two in one argument list): the IR order must not depend on the
  // compiler's order of evaluating arguments (the tests see g++'s).
  Value acc = linalg::IndexOp::create(b, loc, 0);
  for (int64_t d = 1; d < rank; ++d) {
    Value i = linalg::IndexOp::create(b, loc, d);
    Value scaled = arith::MulIOp::create(b, loc, acc, sizes[d]);
    acc = arith::AddIOp::create(b, loc, scaled, i);
  }
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), acc);
}

/// `value` in [0, 1) from 24 bits of `w` (f32).
static Value uniform24(OpBuilder &b, Location loc, Value w,
                       bool openAtZero = false) {
  Value x = arith::ShRUIOp::create(b, loc, w, i32Const(b, loc, 8));
  if (openAtZero)
    x = arith::AddIOp::create(b, loc, x, i32Const(b, loc, 1));
  Value f = arith::SIToFPOp::create(b, loc, b.getF32Type(), x);
  return arith::MulFOp::create(
      b, loc, f,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p-24f)));
}

/// A double in [0, 1) from 53 bits of (hi, lo): (hi << 21) | (lo >> 11);
/// in (0, 1] with `openAtZero`.
static Value uniform53(OpBuilder &b, Location loc, Value hi, Value lo,
                       bool openAtZero = false) {
  Type i64 = b.getI64Type();
  Value c21 = i64Const(b, loc, 21);
  Value hi64 = arith::ExtUIOp::create(b, loc, i64, hi);
  Value h = arith::ShLIOp::create(b, loc, hi64, c21);
  Value l = arith::ExtUIOp::create(
      b, loc, i64, arith::ShRUIOp::create(b, loc, lo, i32Const(b, loc, 11)));
  Value x = arith::OrIOp::create(b, loc, h, l);
  if (openAtZero)
    x = arith::AddIOp::create(b, loc, x, i64Const(b, loc, 1));
  Value f = arith::SIToFPOp::create(b, loc, b.getF64Type(), x);
  return arith::MulFOp::create(
      b, loc, f, arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0x1p-53)));
}

/// The working precision of a random float of type `t`: f64 for f64, f32
/// otherwise (f16, bf16 are computed in f32 and rounded).
static bool isDouble(Type t) { return t.isF64(); }

/// A uniform in [0, 1) at the precision of `t` (f32 or f64).
static Value uniformOf(OpBuilder &b, Location loc, ArrayRef<Value> w, Type t) {
  return isDouble(t) ? uniform53(b, loc, w[0], w[1]) : uniform24(b, loc, w[0]);
}

/// The 24-bit integer m of the uniform m * 2^-24 from `w` (i32), or the
/// 53-bit m of m * 2^-53 from (hi, lo) (i64): what uniform24/uniform53
/// scale.
static Value bits24(OpBuilder &b, Location loc, Value w) {
  return arith::ShRUIOp::create(b, loc, w, i32Const(b, loc, 8));
}
static Value bits53(OpBuilder &b, Location loc, Value hi, Value lo) {
  Type i64 = b.getI64Type();
  Value c21 = i64Const(b, loc, 21);
  Value hi64 = arith::ExtUIOp::create(b, loc, i64, hi);
  Value h = arith::ShLIOp::create(b, loc, hi64, c21);
  Value l = arith::ExtUIOp::create(
      b, loc, i64, arith::ShRUIOp::create(b, loc, lo, i32Const(b, loc, 11)));
  return arith::OrIOp::create(b, loc, h, l);
}

/// cos(2 pi u) for u = m * 2^-B in [0, 1) (m an integer of `bits` bits, i32
/// or i64), without a libm call (so that the loop vectorizes): the quadrant
/// q = round(4u) and the remainder r = m - q 2^(B-2) in [-2^(B-3), 2^(B-3))
/// exactly, x = 2 pi r 2^-B in [-pi/4, pi/4), then cos x, -sin x, -cos x
/// or sin x by q mod 4, as Taylor polynomials (to x^8 / x^9 in f32, error
/// below 3e-8; to x^16 / x^17 in f64, below 3e-18).
static Value cos2pi(OpBuilder &b, Location loc, Value m, unsigned bits,
                    Type ft) {
  Type it = m.getType();
  auto ic = [&](int64_t v) { return createIntConstant(b, loc, it, v); };
  auto fc = [&](double v) { return createScalarConstant(b, loc, ft, v); };
  Value shift = ic(bits - 2);
  Value half = ic(int64_t(1) << (bits - 3));
  Value q = arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, m, half),
                                   shift);
  Value r = arith::SubIOp::create(
      b, loc, m, arith::ShLIOp::create(b, loc, q, ic(bits - 2)));
  Value step = fc(2 * M_PI * std::ldexp(1.0, -(int)bits));
  Value rf = arith::SIToFPOp::create(b, loc, ft, r);
  Value x = arith::MulFOp::create(b, loc, rf, step);
  Value x2 = arith::MulFOp::create(b, loc, x, x);
  int terms = ft.isF64() ? 8 : 4;
  // Horner in x^2: sum_k (-1)^k x^2k / (2k)! and x sum_k (-1)^k x^2k /
  // (2k+1)!, from the highest term down.
  auto series = [&](int first) {
    auto coef = [&](int k) {
      double f = 1;
      for (int i = 2; i <= 2 * k + first; ++i)
        f *= i;
      return (k % 2 ? -1.0 : 1.0) / f;
    };
    Value acc = fc(coef(terms));
    for (int k = terms - 1; k >= 0; --k) {
      Value ck = fc(coef(k));
      Value scaled = arith::MulFOp::create(b, loc, acc, x2);
      acc = arith::AddFOp::create(b, loc, scaled, ck);
    }
    return acc;
  };
  Value c = series(0);
  Value sn = arith::MulFOp::create(b, loc, x, series(1));
  Value q3 = arith::AndIOp::create(b, loc, q, ic(3));
  Value zero = ic(0);
  Value oneBit = ic(1);
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, loc, q3, oneBit),
                                    zero);
  // q = 1, 2 negate: cos(x + pi/2) = -sin x, cos(x + pi) = -cos x.
  Value two = ic(2);
  Value twoBit = ic(2);
  Value one = ic(1);
  Value next = arith::AddIOp::create(b, loc, q3, one);
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                    arith::AndIOp::create(b, loc, next, twoBit),
                                    two);
  Value v = arith::SelectOp::create(b, loc, odd, sn, c);
  return arith::SelectOp::create(b, loc, neg, arith::NegFOp::create(b, loc, v),
                                 v);
}

/// A standard normal by Box-Muller at the precision of `t`:
/// sqrt(-2 ln u1) cos(2 pi u2).
static Value normalOf(OpBuilder &b, Location loc, ArrayRef<Value> w, Type t) {
  bool dbl = isDouble(t);
  Type ft = dbl ? b.getF64Type() : b.getF32Type();
  Value u1 = dbl ? uniform53(b, loc, w[0], w[1], /*openAtZero=*/true)
                 : uniform24(b, loc, w[0], /*openAtZero=*/true);
  Value c = dbl ? cos2pi(b, loc, bits53(b, loc, w[2], w[3]), 53, ft)
                : cos2pi(b, loc, bits24(b, loc, w[1]), 24, ft);
  Value lg = math::LogOp::create(b, loc, u1);
  Value minusTwo = createScalarConstant(b, loc, ft, -2.0);
  Value r = math::SqrtOp::create(b, loc,
                                 arith::MulFOp::create(b, loc, minusTwo, lg));
  return arith::MulFOp::create(b, loc, r, c);
}

/// `v` (f32 or f64) rounded to the float type `t`.
Value toFloat(OpBuilder &b, Location loc, Value v, Type t) {
  if (v.getType() == t)
    return v;
  if (cast<FloatType>(t).getWidth() < cast<FloatType>(v.getType()).getWidth())
    return arith::TruncFOp::create(b, loc, t, v);
  return arith::ExtFOp::create(b, loc, t, v);
}

SmallVector<Value> buildRandomGeneric(OpBuilder &b, Location loc,
                                      ValueRange inits, ValueRange inputs,
                                      ArrayRef<Value> sizes, const Stream &s,
                                      RandomBodyFn fn) {
  int64_t rank = sizes.size();
  SmallVector<AffineMap> maps(inputs.size() + inits.size(),
                              b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, inits.getTypes(), inputs, inits, maps, parallelIterators(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto [c0, c1] = split64(nb, l, flatIndex(nb, l, sizes));
        SmallVector<Value> w =
            buildPhilox4x32(nb, l, {c0, c1, s.c2, s.c3}, s.keys);
        linalg::YieldOp::create(nb, l,
                                fn(nb, l, w, args.take_front(inputs.size())));
      });
  return SmallVector<Value>(generic.getResults());
}

/// The loop sizes of a tensor `like` of `type`.
SmallVector<Value> sizesOf(OpBuilder &b, Location loc, Value like,
                           RankedTensorType type) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(like ? getDimValue(b, loc, like, d)
                         : createIndexConstant(b, loc, type.getDimSize(d)));
  return sizes;
}

/// Checks a float `dtype` attribute (RandomUniform, RandomNormal and the
/// *Like forms): float16, float or double, and the result's element type.
static LogicalResult
checkFloatDtype(Operation *op, std::optional<int64_t> dtype, Type resultElt) {
  if (dtype && *dtype != ONNXC_DTYPE_FLOAT && *dtype != ONNXC_DTYPE_FLOAT16 &&
      *dtype != ONNXC_DTYPE_DOUBLE)
    return op->emitOpError("dtype ")
           << *dtype << " is not float16 (10), float (1) or double (11)";
  if (dtype && runtimeDType(resultElt) != *dtype)
    return op->emitOpError("dtype ")
           << *dtype << " does not match the result type " << resultElt;
  if (!isa<Float16Type, Float32Type, Float64Type>(resultElt))
    return op->emitOpError("the result type ")
           << resultElt << " is not float16, float or double";
  return success();
}

} // namespace mlir::onnxc::linalg_conv::rng

using namespace mlir::onnxc::linalg_conv::rng;

namespace {

/// RandomUniform, RandomUniformLike, RandomNormal, RandomNormalLike: one
/// generic of Philox blocks. `a`, `bnd`: low and high, or mean and scale.
template <typename OpTy, bool Normal, bool Like>
struct RandomLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = op.getOutput();
    auto type = convertedTensorType(this->getTypeConverter(), out);
    Type elt = type.getElementType();
    std::optional<int64_t> dtype;
    if constexpr (Like) {
      if (auto d = op.getDtype())
        dtype = (int64_t)*d;
    } else {
      dtype = (int64_t)op.getDtype();
    }
    if (failed(checkFloatDtype(op, dtype, getElementType(out))))
      return failure();
    Value like;
    if constexpr (Like) {
      like = adaptor.getInput();
      if (!dtype && !isa<FloatType>(getElementType(op.getInput())))
        return op.emitOpError("the input's element type ")
               << getElementType(op.getInput())
               << " is not a float type and no dtype is given";
    } else {
      for (int64_t d : op.getShape())
        if (d < 0)
          return op.emitOpError("shape has a negative dim ") << d;
      if (!type.hasStaticShape())
        return op.emitOpError("the result type must be static");
    }
    double p, q;
    if constexpr (Normal) {
      p = op.getMean().convertToDouble();
      q = op.getScale().convertToDouble();
    } else {
      p = op.getLow().convertToDouble();
      q = op.getHigh().convertToDouble() - p;
    }
    SmallVector<Value> sizes = sizesOf(rewriter, loc, like, type);
    Value init = createEmpty(rewriter, loc, type, sizes);
    Stream s = emitStream(rewriter, loc, op);
    Value y = buildRandomGeneric(
        rewriter, loc, init, {}, sizes, s,
        [&](OpBuilder &b, Location l, ArrayRef<Value> w, ValueRange) {
          Value v = Normal ? normalOf(b, l, w, elt) : uniformOf(b, l, w, elt);
          Type ft = v.getType();
          // low + (high - low) * u; mean + scale * z.
          Value scaled = arith::MulFOp::create(
              b, l, createScalarConstant(b, l, ft, q), v);
          v = arith::AddFOp::create(b, l, createScalarConstant(b, l, ft, p),
                                    scaled);
          return SmallVector<Value>{toFloat(b, l, v, elt)};
        })[0];
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// Bernoulli: 1 where a uniform draw is below the input probability.
struct BernoulliLowering : OpConversionPattern<ONNX::BernoulliOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::BernoulliOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type outElt = getElementType(op.getOutput());
    if (std::optional<uint64_t> du = op.getDtype()) {
      std::optional<int64_t> d = (int64_t)*du;
      // The numeric and bool types (onnxc_dtype numbers ONNX's).
      static const int64_t allowed[] = {
          ONNXC_DTYPE_FLOAT,   ONNXC_DTYPE_UINT8,  ONNXC_DTYPE_INT8,
          ONNXC_DTYPE_UINT16,  ONNXC_DTYPE_INT16,  ONNXC_DTYPE_INT32,
          ONNXC_DTYPE_INT64,   ONNXC_DTYPE_BOOL,   ONNXC_DTYPE_FLOAT16,
          ONNXC_DTYPE_DOUBLE,  ONNXC_DTYPE_UINT32, ONNXC_DTYPE_UINT64,
          ONNXC_DTYPE_BFLOAT16};
      if (!llvm::is_contained(allowed, *d))
        return op.emitOpError("dtype ")
               << *d << " is not a numeric or bool type";
      if (runtimeDType(outElt) != *d)
        return op.emitOpError("dtype ")
               << *d << " does not match the result type " << outElt;
    }
    Value x = adaptor.getInput();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Type pElt = getElementType(x);
    SmallVector<Value> sizes = sizesOf(rewriter, loc, x, type);
    Value init = createEmpty(rewriter, loc, type, sizes);
    Stream s = emitStream(rewriter, loc, op);
    Value y = buildRandomGeneric(
        rewriter, loc, init, x, sizes, s,
        [&](OpBuilder &b, Location l, ArrayRef<Value> w, ValueRange args) {
          Value u = uniformOf(b, l, w, pElt);
          Value p = toFloat(b, l, args[0], u.getType());
          Value hit =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, u, p);
          return SmallVector<Value>{
              convertScalar(b, l, hit, b.getI1Type(), outElt)};
        })[0];
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// Multinomial: input [B, C] of unnormalized log-probabilities, output
/// [B, S] class indices. Per row b: e_j = exp(x_bj - max_j x_bj) and their
/// running sums cdf_j (f64, summed in order by one loop, so that the total
/// equals the last running sum bit for bit); sample s is the number of j
/// with cdf_j <= u * cdf_{C-1} (at most C - 1), u a 53-bit uniform from the
/// element (b, s)'s block: class j has probability e_j / sum e.
struct MultinomialLowering : OpConversionPattern<ONNX::MultinomialOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MultinomialOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t dtype = (int64_t)op.getDtype();
    int64_t sampleSize = (int64_t)op.getSampleSize();
    if (dtype != ONNXC_DTYPE_INT32 && dtype != ONNXC_DTYPE_INT64)
      return op.emitOpError("dtype ") << dtype << " is not int32 (6) or int64 (7)";
    if (sampleSize < 0)
      return op.emitOpError("sample_size must be non-negative, got ")
             << sampleSize;
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    Type outElt = type.getElementType();
    if (runtimeDType(getElementType(op.getOutput())) != dtype)
      return op.emitOpError("dtype ")
             << dtype << " does not match the result type " << outElt;
    Value x = adaptor.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    if (xt.getRank() != 2 || type.getRank() != 2)
      return op.emitOpError("input must be 2-D [batch_size, class_size]");
    Type f64 = rewriter.getF64Type();
    Value batch = getDimValue(rewriter, loc, x, 0);
    Value classes = getDimValue(rewriter, loc, x, 1);
    Value zero = createIndexConstant(rewriter, loc, 0);
    Value one = createIndexConstant(rewriter, loc, 1);
    // No class to draw from: an error unless nothing is drawn.
    Value sampleCount = createIndexConstant(rewriter, loc, sampleSize);
    Value noSamples =
        cmpI(rewriter, loc, arith::CmpIPredicate::eq, sampleCount, zero);
    Value noRows = cmpI(rewriter, loc, arith::CmpIPredicate::eq, batch, zero);
    Value drawsNone =
        rewriter.createOrFold<arith::OrIOp>(loc, noRows, noSamples);
    emitRuntimeCheck(
        rewriter, loc,
        rewriter.createOrFold<arith::OrIOp>(
            loc, cmpI(rewriter, loc, arith::CmpIPredicate::sgt, classes, zero),
            drawsNone),
        "Multinomial: class_size must be positive");

    // The row maxima, then e = exp(x - max) in f64.
    auto rowType = RankedTensorType::get({xt.getDimSize(0)}, f64);
    Value rowInit = createEmpty(rewriter, loc, rowType, {batch});
    Value ninf = createScalarConstant(rewriter, loc, f64, -INFINITY);
    Value maxInit =
        linalg::FillOp::create(rewriter, loc, ninf, rowInit).getResult(0);
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
    Value rowMax =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rowType}, ValueRange{x},
            ValueRange{maxInit},
            SmallVector<AffineMap>{AffineMap::get(2, 0, {d0, d1}, ctx),
                                   AffineMap::get(2, 0, {d0}, ctx)},
            {utils::IteratorType::parallel, utils::IteratorType::reduction},
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = toFloat(b, l, args[0], f64);
              linalg::YieldOp::create(
                  b, l, ValueRange{arith::MaximumFOp::create(b, l, v, args[1])});
            })
            .getResult(0);
    auto eType = RankedTensorType::get(xt.getShape(), f64);
    Value eInit = createEmpty(rewriter, loc, eType, {batch, classes});
    Value e =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{eType}, ValueRange{x, rowMax},
            ValueRange{eInit},
            SmallVector<AffineMap>{AffineMap::get(2, 0, {d0, d1}, ctx),
                                   AffineMap::get(2, 0, {d0}, ctx),
                                   AffineMap::get(2, 0, {d0, d1}, ctx)},
            parallelIterators(2),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = arith::SubFOp::create(b, l, toFloat(b, l, args[0], f64),
                                              args[1]);
              linalg::YieldOp::create(b, l,
                                      ValueRange{math::ExpOp::create(b, l, v)});
            })
            .getResult(0);

    // sum_{j < n} e[row, j], in order.
    auto runningSum = [&](OpBuilder &b, Location l, Value row, Value n,
                          Value target) {
      // Returns (the sum, the count of running sums <= target) when
      // `target` is given, else (the sum, unused).
      Value zf = createScalarConstant(b, l, f64, 0);
      Value zi = createIndexConstant(b, l, 0);
      Value c1 = createIndexConstant(b, l, 1);
      auto loop = scf::ForOp::create(
          b, l, createIndexConstant(b, l, 0), n, c1, ValueRange{zf, zi},
          [&](OpBuilder &fb, Location fl, Value j, ValueRange iter) {
            Value acc = arith::AddFOp::create(
                fb, fl, iter[0],
                tensor::ExtractOp::create(fb, fl, e, ValueRange{row, j}));
            Value cnt = iter[1];
            if (target) {
              Value le = arith::CmpFOp::create(
                  fb, fl, arith::CmpFPredicate::OLE, acc, target);
              cnt = arith::AddIOp::create(
                  fb, fl, cnt,
                  arith::SelectOp::create(fb, fl, le, c1, zi));
            }
            scf::YieldOp::create(fb, fl, ValueRange{acc, cnt});
          });
      return std::make_pair(loop.getResult(0), loop.getResult(1));
    };
    Value totals =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rowType}, ValueRange{}, ValueRange{rowInit},
            SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
            parallelIterators(1),
            [&](OpBuilder &b, Location l, ValueRange) {
              Value row = linalg::IndexOp::create(b, l, 0);
              linalg::YieldOp::create(
                  b, l, ValueRange{runningSum(b, l, row, classes, {}).first});
            })
            .getResult(0);

    Value samples = createIndexConstant(rewriter, loc, sampleSize);
    SmallVector<Value> sizes = {batch, samples};
    Value init = createEmpty(rewriter, loc, type, sizes);
    Stream s = emitStream(rewriter, loc, op);
    Value lastClass = arith::SubIOp::create(rewriter, loc, classes, one);
    Value y = buildRandomGeneric(
        rewriter, loc, init, {}, sizes, s,
        [&](OpBuilder &b, Location l, ArrayRef<Value> w, ValueRange) {
          Value row = linalg::IndexOp::create(b, l, 0);
          Value total = tensor::ExtractOp::create(b, l, totals, ValueRange{row});
          Value target =
              arith::MulFOp::create(b, l, uniform53(b, l, w[0], w[1]), total);
          Value cnt = runningSum(b, l, row, classes, target).second;
          Value cls = arith::MinUIOp::create(b, l, cnt, lastClass);
          return SmallVector<Value>{
              arith::IndexCastOp::create(b, l, outElt, cls)};
        })[0];
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

SmallVector<Value> mlir::onnxc::linalg_conv::philoxRoundKeys(OpBuilder &b,
                                                             Location loc,
                                                             Value k0,
                                                             Value k1) {
  // The key is bumped by the Weyl constants W between rounds.
  Value w0 = i32Const(b, loc, 0x9E3779B9), w1 = i32Const(b, loc, 0xBB67AE85);
  SmallVector<Value> keys = {k0, k1};
  for (int round = 1; round < 10; ++round) {
    k0 = arith::AddIOp::create(b, loc, k0, w0);
    k1 = arith::AddIOp::create(b, loc, k1, w1);
    keys.append({k0, k1});
  }
  return keys;
}

SmallVector<Value> mlir::onnxc::linalg_conv::buildPhilox4x32(
    OpBuilder &b, Location loc, ArrayRef<Value> ctr, ArrayRef<Value> keys) {
  // Philox4x32 round: (hi, lo) = M * c as a 64-bit product;
  //   c' = (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1, lo(M0 c0)).
  Value m0 = i32Const(b, loc, 0xD2511F53), m1 = i32Const(b, loc, 0xCD9E8D57);
  Value c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  for (int round = 0; round < 10; ++round) {
    Value k0 = keys[2 * round], k1 = keys[2 * round + 1];
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c0);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c2);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c1), k0);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c3), k1);
    c0 = n0;
    c1 = p1.getLow();
    c2 = n2;
    c3 = p0.getLow();
  }
  return {c0, c1, c2, c3};
}

void mlir::onnxc::populateRandomPatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<RandomLowering<ONNX::RandomUniformOp, false, false>,
               RandomLowering<ONNX::RandomUniformLikeOp, false, true>,
               RandomLowering<ONNX::RandomNormalOp, true, false>,
               RandomLowering<ONNX::RandomNormalLikeOp, true, true>,
               BernoulliLowering, MultinomialLowering>(tc, patterns.getContext());
}

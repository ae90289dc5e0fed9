//===- NarrowTypes.cpp - int4, float8 and float4 elements as i8 -----------===//
//
// The element types narrower than a byte or without LLVM arithmetic (int4,
// uint4, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz,
// float4e2m1) are one i8 per element in the lowered code: int4 sign-extended,
// uint4 zero-extended, the floats' bit patterns (float4e2m1 in the low
// nibble). The C runtime packs and unpacks the 4-bit types at the API
// boundary (docs/embedding.md). Conversions to and from them are integer bit
// manipulation on the f32 bits here (no arith.truncf/extf to f8 types, which
// have no LLVM lowering): round to nearest even; overflow and NaN as the
// ONNX Cast spec's tables say for `saturate` 1 and 0.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/NarrowTypes.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// A small float format: sign, `exp` exponent bits with `bias`, `man`
/// mantissa bits; `maxCode` the largest finite magnitude code. `fnuz`: no
/// negative zero, the one NaN is 0x80 and non-saturated overflow is NaN.
/// `inf`: an infinity (e5m2: 0x7C, overflow without saturation). `nan`: the
/// NaN magnitude code (with the input's sign) for the others; float4e2m1
/// has no NaN (NaN gives +6, 0x7, as the ONNX reference).
struct SmallFloat {
  unsigned exp, man;
  int bias;
  uint32_t maxCode;
  bool fnuz, inf, alwaysSaturate;
  uint32_t nan;
};

std::optional<SmallFloat> smallFloat(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return SmallFloat{4, 3, 7, 0x7E, false, false, false, 0x7F};
  if (isa<Float8E4M3FNUZType>(t))
    return SmallFloat{4, 3, 8, 0x7F, true, false, false, 0};
  if (isa<Float8E5M2Type>(t))
    return SmallFloat{5, 2, 15, 0x7B, false, true, false, 0x7F};
  if (isa<Float8E5M2FNUZType>(t))
    return SmallFloat{5, 2, 16, 0x7F, true, false, false, 0};
  if (isa<Float4E2M1FNType>(t))
    return SmallFloat{2, 1, 1, 0x7, false, false, true, 0x7};
  return std::nullopt;
}

Value i32c(OpBuilder &b, Location l, int64_t v) {
  return createIntConstant(b, l, b.getI32Type(), v);
}

Value cmpI(OpBuilder &b, Location l, arith::CmpIPredicate p, Value x, Value y) {
  return arith::CmpIOp::create(b, l, p, x, y);
}

/// The f32 `v` as the code (an i8) of `f` with round to nearest even.
Value encode(OpBuilder &b, Location l, Value v, const SmallFloat &f,
             bool saturate) {
  using P = arith::CmpIPredicate;
  saturate = saturate || f.alwaysSaturate;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  Value bits = arith::BitcastOp::create(b, l, i32, v);
  Value sign = arith::ShRUIOp::create(b, l, bits, i32c(b, l, 31));
  Value a = arith::AndIOp::create(b, l, bits, i32c(b, l, 0x7FFFFFFF));
  Value isNaN = cmpI(b, l, P::ugt, a, i32c(b, l, 0x7F800000));
  // Normal in the target: drop 23 - man mantissa bits, ties to even (the
  // carry may move to the next binade or past the largest code).
  unsigned shift = 23 - f.man;
  Value lsb = arith::AndIOp::create(
      b, l, arith::ShRUIOp::create(b, l, a, i32c(b, l, shift)), i32c(b, l, 1));
  Value rounded = arith::AddIOp::create(
      b, l, arith::AddIOp::create(b, l, a, i32c(b, l, (1 << (shift - 1)) - 1)),
      lsb);
  Value normal = arith::SubIOp::create(
      b, l, arith::ShRUIOp::create(b, l, rounded, i32c(b, l, shift)),
      i32c(b, l, (int64_t)(127 - f.bias) << f.man));
  // Subnormal in the target (|v| < 2^(1 - bias)): the count of its smallest
  // steps, 2^(1 - bias - man), rounded to even (exact scaling by a power of
  // two); 2^man is the smallest normal's code.
  Value absF = arith::BitcastOp::create(b, l, f32, a);
  Value scaled = arith::MulFOp::create(
      b, l, absF,
      createScalarConstant(b, l, f32, std::ldexp(1.0, f.bias - 1 + f.man)));
  Value sub = arith::FPToSIOp::create(b, l, i32,
                                      math::RoundEvenOp::create(b, l, scaled));
  Value isSub = cmpI(b, l, P::ult, a,
                     i32c(b, l, (int64_t)(127 + 1 - f.bias) << 23));
  // For NaN, infinities and large values `sub` is poison (fptosi out of
  // range) but never selected: isSub is false for them.
  Value code = select(b, l, isSub, sub, normal);
  Value overflow = cmpI(b, l, P::sgt, code, i32c(b, l, f.maxCode));
  unsigned signShift = f.exp + f.man;
  Value signBit = arith::ShLIOp::create(b, l, sign, i32c(b, l, signShift));
  Value out;
  if (f.fnuz) {
    // No -0: a zero magnitude drops the sign; NaN (and non-saturated
    // overflow) is 0x80.
    Value mag = select(b, l, overflow, i32c(b, l, f.maxCode), code);
    Value isZero = cmpI(b, l, P::eq, mag, i32c(b, l, 0));
    out = arith::OrIOp::create(b, l, mag,
                               select(b, l, isZero, i32c(b, l, 0), signBit));
    Value toNaN = saturate ? isNaN
                           : Value(arith::OrIOp::create(b, l, isNaN, overflow));
    out = select(b, l, toNaN, i32c(b, l, 0x80), out);
  } else {
    uint32_t ovCode = saturate ? f.maxCode : f.inf ? 0x7C : f.nan;
    Value mag = select(b, l, overflow, i32c(b, l, ovCode), code);
    out = arith::OrIOp::create(b, l, mag, signBit);
    Value nanCode = f.alwaysSaturate
                        ? i32c(b, l, f.nan)
                        : Value(arith::OrIOp::create(b, l, i32c(b, l, f.nan),
                                                     signBit));
    out = select(b, l, isNaN, nanCode, out);
  }
  return arith::TruncIOp::create(b, l, b.getI8Type(), out);
}

/// The code `c` (an i8) of `f` as an f32.
Value decode(OpBuilder &b, Location l, Value c, const SmallFloat &f) {
  using P = arith::CmpIPredicate;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  unsigned signShift = f.exp + f.man;
  Value x = arith::AndIOp::create(b, l, arith::ExtUIOp::create(b, l, i32, c),
                                  i32c(b, l, (1 << (signShift + 1)) - 1));
  Value sign = arith::ShRUIOp::create(b, l, x, i32c(b, l, signShift));
  Value mag = arith::AndIOp::create(b, l, x, i32c(b, l, (1 << signShift) - 1));
  Value e = arith::ShRUIOp::create(b, l, mag, i32c(b, l, f.man));
  Value m = arith::AndIOp::create(b, l, mag, i32c(b, l, (1 << f.man) - 1));
  Value normalBits = arith::OrIOp::create(
      b, l,
      arith::ShLIOp::create(
          b, l, arith::AddIOp::create(b, l, e, i32c(b, l, 127 - f.bias)),
          i32c(b, l, 23)),
      arith::ShLIOp::create(b, l, m, i32c(b, l, 23 - f.man)));
  Value normal = arith::BitcastOp::create(b, l, f32, normalBits);
  Value sub = arith::MulFOp::create(
      b, l, arith::UIToFPOp::create(b, l, f32, m),
      createScalarConstant(b, l, f32,
                           std::ldexp(1.0, 1 - f.bias - (int)f.man)));
  Value v = select(b, l, cmpI(b, l, P::eq, e, i32c(b, l, 0)), sub, normal);
  Value isNeg = cmpI(b, l, P::ne, sign, i32c(b, l, 0));
  v = select(b, l, isNeg, arith::NegFOp::create(b, l, v), v);
  Value signBit = arith::ShLIOp::create(b, l, sign, i32c(b, l, 31));
  Value nan = arith::BitcastOp::create(
      b, l, f32, arith::OrIOp::create(b, l, signBit, i32c(b, l, 0x7FC00000)));
  if (f.fnuz) // the one NaN (0x80) has no sign: +NaN
    return select(b, l, cmpI(b, l, P::eq, x, i32c(b, l, 0x80)),
               arith::BitcastOp::create(b, l, f32, i32c(b, l, 0x7FC00000)),
               v);
  if (f.alwaysSaturate)
    return v;
  if (f.inf) {
    Value top = cmpI(b, l, P::eq, e, i32c(b, l, (1 << f.exp) - 1));
    Value inf = arith::BitcastOp::create(
        b, l, f32, arith::OrIOp::create(b, l, signBit, i32c(b, l, 0x7F800000)));
    Value isInf = arith::AndIOp::create(
        b, l, top, cmpI(b, l, P::eq, m, i32c(b, l, 0)));
    v = select(b, l, isInf, inf, v);
    return select(b, l, arith::AndIOp::create(b, l, top,
                                           cmpI(b, l, P::ne, m, i32c(b, l, 0))),
               nan, v);
  }
  return select(b, l, cmpI(b, l, P::eq, mag, i32c(b, l, f.nan)), nan, v);
}

} // namespace

bool mlir::onnxc::linalg_conv::isNarrowType(Type onnxElt) {
  if (auto it = dyn_cast<IntegerType>(onnxElt))
    return it.getWidth() == 4;
  return smallFloat(onnxElt).has_value();
}

Type mlir::onnxc::linalg_conv::narrowComputeType(Type onnxElt) {
  MLIRContext *ctx = onnxElt.getContext();
  if (auto it = dyn_cast<IntegerType>(onnxElt))
    return IntegerType::get(ctx, 8, it.isUnsigned() ? IntegerType::Unsigned
                                                    : IntegerType::Signless);
  return Float32Type::get(ctx);
}

Value mlir::onnxc::linalg_conv::decodeNarrow(OpBuilder &b, Location loc,
                                             Value v, Type onnxElt) {
  if (auto f = smallFloat(onnxElt))
    return decode(b, loc, v, *f);
  return v; // int4 / uint4: already sign- or zero-extended
}

Value mlir::onnxc::linalg_conv::encodeNarrow(OpBuilder &b, Location loc,
                                             Value v, Type fromOnnx,
                                             Type toOnnx, bool saturate) {
  Type f32 = b.getF32Type(), i8 = b.getI8Type();
  if (auto f = smallFloat(toOnnx))
    return encode(b, loc, convertScalar(b, loc, v, fromOnnx, f32), *f,
                  saturate);
  bool isUnsigned = isUnsignedInt(toOnnx);
  if (isa<FloatType>(fromOnnx)) {
    // Float -> int4: round to nearest even and saturate (the ONNX reference
    // of opset 21; NaN gives 0).
    Value x = convertScalar(b, loc, v, fromOnnx, f32);
    x = math::RoundEvenOp::create(b, loc, x);
    x = arith::MaximumFOp::create(
        b, loc, x, createScalarConstant(b, loc, f32, isUnsigned ? 0 : -8));
    x = arith::MinimumFOp::create(
        b, loc, x, createScalarConstant(b, loc, f32, isUnsigned ? 15 : 7));
    Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    x = arith::SelectOp::create(b, loc, nan,
                                createScalarConstant(b, loc, f32, 0), x);
    return arith::FPToSIOp::create(b, loc, i8, x);
  }
  // Integer or bool -> int4: keep the low 4 bits (Cast's "discard higher
  // bits and reinterpret"), then sign- or zero-extend.
  Type onnx8 = IntegerType::get(b.getContext(), 8);
  Value x = convertScalar(b, loc, v, fromOnnx, onnx8);
  if (isUnsigned)
    return arith::AndIOp::create(b, loc, x, createIntConstant(b, loc, i8, 0xF));
  Value four = createIntConstant(b, loc, i8, 4);
  return arith::ShRSIOp::create(b, loc,
                                arith::ShLIOp::create(b, loc, x, four), four);
}

APInt mlir::onnxc::linalg_conv::narrowStorage(const APInt &v, Type onnxElt) {
  if (auto it = dyn_cast<IntegerType>(onnxElt))
    return it.isUnsigned() ? v.zext(8) : v.sext(8);
  return v.zextOrTrunc(8); // float codes: the bits
}

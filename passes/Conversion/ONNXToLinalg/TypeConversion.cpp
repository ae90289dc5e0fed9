//===- TypeConversion.cpp - onnx types -> builtin types, constants --------===//
//
// The type converter and the lowering of onnx.Constant and onnx.Identity
// (the entry point that collects every category's patterns is in the pass
// file, ONNXToLinalgPass.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

/// A map's two tensors (keys, values), appended to `results`.
static LogicalResult convertMapType(const TypeConverter &tc,
                                          ONNX::MapType t,
                                          SmallVectorImpl<Type> &results) {
  MLIRContext *ctx = t.getContext();
  Type key = t.getKeyType();
  auto values = dyn_cast<TensorType>(t.getValueType());
  if (!(key.isSignlessInteger(64) || isa<ONNX::StringType>(key)) || !values)
    return failure();
  auto converted = dyn_cast_or_null<RankedTensorType>(tc.convertType(
      RankedTensorType::get({ShapedType::kDynamic}, values.getElementType())));
  if (!converted || converted.getElementType().isInteger(8) !=
                        values.getElementType().isInteger(8))
    return failure(); // not the narrow types' one byte each
  results.push_back(
      RankedTensorType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 64)));
  results.push_back(converted);
  return success();
}

void mlir::onnxc::populateONNXToLinalgTypeConversion(TypeConverter &tc) {
  // Anything else (none, index, signless scalars) is legal as is.
  tc.addConversion([](Type t) { return t; });
  tc.addConversion([](RankedTensorType t) -> Type {
    Type e = t.getElementType();
    // A string is the address of a NUL-terminated UTF-8 string (Strings.h).
    if (isa<ONNX::StringType>(e))
      return RankedTensorType::get(t.getShape(),
                                   IntegerType::get(t.getContext(), 64));
    // int4, uint4, float8 and float4e2m1: one i8 each (NarrowTypes.cpp).
    if (isNarrowType(e))
      return RankedTensorType::get(t.getShape(),
                                   IntegerType::get(t.getContext(), 8));
    if (auto it = dyn_cast<IntegerType>(e)) {
      if (it.getWidth() != 1 && it.getWidth() != 8 && it.getWidth() != 16 &&
          it.getWidth() != 32 && it.getWidth() != 64)
        return Type();
      e = IntegerType::get(t.getContext(), it.getWidth());
    } else if (!e.isF16() && !e.isBF16() && !e.isF32() && !e.isF64()) {
      return Type();
    }
    return RankedTensorType::get(t.getShape(), e);
  });
  // A sequence is two tensors: `data`, the items' elements concatenated
  // (each item row-major), and `shapes`, one row of dims per item
  // (tensor<n x r x i64>), or, when the items' rank is unknown, one row of
  // kSeqRowWidth per item holding its rank and dims (tensor<? x i64>;
  // Subgraph.h). An optional is a tensor<i1> presence flag followed by its
  // payload's values. See docs/codegen.md for how they cross the C API.
  // A map (ai.onnx.ml) is two 1-D tensors: its keys (i64, or string
  // addresses) and its values; a sequence of maps the keys and values of
  // all its maps one after the other and a tensor<? x i64> of each map's
  // size (MLMaps.cpp, runtime_abi.h).
  tc.addConversion([&tc](ONNX::MapType t, SmallVectorImpl<Type> &results)
                       -> std::optional<LogicalResult> {
    return convertMapType(tc, t, results);
  });
  tc.addConversion([&tc](ONNX::SeqType t, SmallVectorImpl<Type> &results)
                       -> std::optional<LogicalResult> {
    if (auto map = dyn_cast<ONNX::MapType>(t.getElementType())) {
      if (failed(convertMapType(tc, map, results)))
        return failure();
      results.push_back(RankedTensorType::get(
          {ShapedType::kDynamic}, IntegerType::get(t.getContext(), 64)));
      return success();
    }
    auto item = dyn_cast<TensorType>(t.getElementType());
    if (!item || (item.hasRank() && item.getRank() > kSeqMaxItemRank))
      return failure();
    Type converted = tc.convertType(
        item.hasRank() ? item
                       : RankedTensorType::get({}, item.getElementType()));
    if (!converted)
      return failure();
    Type elem = cast<TensorType>(converted).getElementType();
    MLIRContext *ctx = t.getContext();
    results.push_back(RankedTensorType::get({ShapedType::kDynamic}, elem));
    if (item.hasRank())
      results.push_back(RankedTensorType::get(
          {ShapedType::kDynamic, item.getRank()}, IntegerType::get(ctx, 64)));
    else
      results.push_back(RankedTensorType::get({ShapedType::kDynamic},
                                              IntegerType::get(ctx, 64)));
    return success();
  });
  tc.addConversion([&tc](ONNX::OptType t, SmallVectorImpl<Type> &results)
                       -> std::optional<LogicalResult> {
    SmallVector<Type> payload;
    if (failed(tc.convertType(t.getElementType(), payload)))
      return failure();
    results.push_back(RankedTensorType::get({}, IntegerType::get(t.getContext(), 1)));
    results.append(payload.begin(), payload.end());
    return success();
  });
  // Unranked tensors only appear outside the model (test drivers); onnx ops
  // with them are rejected before the conversion.
  tc.addConversion([](UnrankedTensorType t) -> Type {
    Type e = t.getElementType();
    if (isa<FloatType>(e) || e.isSignlessInteger())
      return t;
    return Type();
  });
}

namespace {

/// Constant: the `value` (or value_float(s)/value_int(s)) tensor becomes an
/// arith.constant of the signless type; resource blobs are re-wrapped with
/// the converted type, sharing the blob.
struct ConstantLowering : OpConversionPattern<ONNX::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("result type has no conversion");
    Attribute attr;
    if (op.getSparseValueAttr())
      return op.emitOpError("sparse_value is not supported");
    // Strings: their addresses in a constant blob of the library.
    SmallVector<StringRef> strings;
    bool isString = true;
    if (auto v = dyn_cast_or_null<DenseStringElementsAttr>(op.getValueAttr()))
      strings.assign(v.getRawStringData().begin(), v.getRawStringData().end());
    else if (auto v = op.getValueStringAttr())
      strings.push_back(v.getValue());
    else if (auto v = op.getValueStringsAttr())
      for (Attribute a : v)
        strings.push_back(cast<StringAttr>(a).getValue());
    else
      isString = false;
    if (isString != isStringType(op.getType()))
      return op.emitOpError(isString ? "a string value needs a string result"
                                     : "a string result needs a string value");
    if (isString) {
      if (auto v = dyn_cast_or_null<DenseStringElementsAttr>(op.getValueAttr());
          v && v.isSplat())
        strings.assign(type.getNumElements(), strings.front());
      if ((int64_t)strings.size() != type.getNumElements())
        return op.emitOpError("holds ")
               << strings.size() << " strings for " << type.getNumElements()
               << " elements";
      rewriter.replaceOp(op, buildStringConstant(rewriter, op.getLoc(), op,
                                                 type, strings));
      return success();
    }
    Type onnxElt = cast<ShapedType>(op.getType()).getElementType();
    if (auto v = op.getValueAttr()) {
      if (auto dense = dyn_cast<DenseElementsAttr>(v);
          dense && isNarrowType(onnxElt)) {
        // One i8 per element: an int4's value, a float8/float4's bits.
        SmallVector<APInt> vals;
        int64_t n = dense.isSplat() ? 1 : dense.getNumElements();
        if (isa<IntegerType>(onnxElt)) {
          auto it = dense.value_begin<APInt>();
          for (int64_t i = 0; i < n; ++i, ++it)
            vals.push_back(narrowStorage(*it, onnxElt));
        } else {
          auto it = dense.value_begin<APFloat>();
          for (int64_t i = 0; i < n; ++i, ++it)
            vals.push_back(narrowStorage((*it).bitcastToAPInt(), onnxElt));
        }
        attr = dense.isSplat() ? DenseElementsAttr::get(type, vals.front())
                               : DenseElementsAttr::get(type, vals);
      } else if (isNarrowType(onnxElt)) {
        return op.emitOpError("a ")
               << onnxElt << " constant must be a dense elements attribute";
      } else if (auto dense = dyn_cast<DenseElementsAttr>(v)) {
        if (dense.getType() == type)
          attr = dense;
        else if (dense.isSplat() && type.getElementType().isInteger(1))
          attr = DenseElementsAttr::get(type, dense.getSplatValue<bool>());
        else
          attr = DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
      } else if (auto res = dyn_cast<DenseResourceElementsAttr>(v)) {
        attr = DenseResourceElementsAttr::get(type, res.getRawHandle());
      } else {
        return op.emitOpError("unsupported value attribute kind");
      }
    } else if (auto v = op.getValueFloatAttr()) {
      attr = DenseElementsAttr::get(type, v);
    } else if (auto v = op.getValueFloatsAttr()) {
      attr = DenseElementsAttr::get(type, v.asArrayRef());
    } else if (auto v = op.getValueIntAttr()) {
      attr = DenseElementsAttr::get(type, v);
    } else if (auto v = op.getValueIntsAttr()) {
      attr = DenseElementsAttr::get(type, v.asArrayRef());
    } else {
      return op.emitOpError("has no value");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(attr));
    return success();
  }
};

/// Identity(x) = x, for tensors, sequences and optionals (their values).
struct IdentityLowering : OpConversionPattern<ONNX::IdentityOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::IdentityOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return op.emitOpError("input and output types do not match");
    // A tensor whose declared result shape is more (or less) static than
    // its input (a subgraph output declared [3, 4] for an outer value of
    // symbolic dims): a cast, checked at run time.
    ValueRange in = adaptor.getInput();
    if (types.size() == 1 && in.size() == 1 && types[0] != in[0].getType()) {
      auto from = dyn_cast<RankedTensorType>(in[0].getType());
      auto to = dyn_cast<RankedTensorType>(types[0]);
      if (from && to && from.getElementType() == to.getElementType() &&
          succeeded(verifyCompatibleShape(from, to))) {
        rewriter.replaceOp(op, castChecked(rewriter, op.getLoc(), in[0], to,
                                           "Identity: the input does not have "
                                           "the result's declared shape"));
        return success();
      }
    }
    if (TypeRange(types) != TypeRange(in.getTypes()))
      return op.emitOpError("input and output types do not match");
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(in)});
    return success();
  }
};

} // namespace

void mlir::onnxc::linalg_conv::populateTypeConversionPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, IdentityLowering>(tc, patterns.getContext());
}

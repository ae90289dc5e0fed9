//===- MLPreprocess.cpp - ai.onnx.ml feature preprocessing ----------------===//
//
// The ai.onnx.ml ops that transform features before a model: Scaler,
// Normalizer (MAX, L1, L2 per row), Binarizer, Imputer, ArrayFeatureExtractor,
// OneHotEncoder (int64 and string categories), LabelEncoder (opsets 2 and
// 4: float, double, int and string keys and values), FeatureVectorizer.
// Elementwise ones are one linalg.generic; Normalizer and FeatureVectorizer
// loop over rows; LabelEncoder binary-searches keys sorted at compile time.
// Semantics and float types follow ONNX Runtime's kernels (inputs cast to
// float, per-row norms skipped when zero). CategoryMapper maps strings to
// int64 and back with tables sorted at compile time (a binary search;
// strings compared by the runtime, Strings.h). DictVectorizer, CastMap and
// ZipMap are in MLMaps.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <map>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// `v` (of onnx element type `onnx`) as f32, as ORT's static_cast<float>.
Value toF32(OpBuilder &b, Location l, Value v, Type onnx) {
  return convertScalar(b, l, v, onnx, b.getF32Type());
}

LogicalResult checkRank12(Operation *op, Value x) {
  int64_t r = cast<RankedTensorType>(x.getType()).getRank();
  if (r != 1 && r != 2)
    return op->emitOpError("X must be 1-D or 2-D");
  return success();
}

/// Scaler: Y = (X - offset) * scale per column, in float.
struct ScalerLowering : OpConversionPattern<ONNX::MLScalerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLScalerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    if (xt.getRank() < 1)
      return op.emitOpError("X must have a rank of at least 1");
    Type f32 = rewriter.getF32Type();
    SmallVector<double> offset = getFloatList(op, "offset").value_or(
        SmallVector<double>{0.0});
    SmallVector<double> scale =
        getFloatList(op, "scale").value_or(SmallVector<double>{1.0});
    if (offset.size() != scale.size())
      return op.emitOpError("offset and scale must have as many values (")
             << offset.size() << " and " << scale.size() << ")";
    int64_t col = xt.getRank() - 1;
    FailureOr<PerColumn> off =
        perColumnTable(rewriter, loc, op, x, col, f32, offset, "offset");
    if (failed(off))
      return failure();
    FailureOr<PerColumn> sc =
        perColumnTable(rewriter, loc, op, x, col, f32, scale, "scale");
    if (failed(sc))
      return failure();
    Type xOnnx = getElementType(op.getX());
    Value y = mapElements(
        rewriter, loc, x, f32,
        [&](OpBuilder &b, Location l, Value v, ValueRange ivs) -> Value {
          // One statement per op: the order of the ops must not depend on
          // the compiler's order of evaluating arguments.
          Value c = ivs[col];
          Value s = sc->at(b, l, c);
          Value o = off->at(b, l, c);
          Value f = toF32(b, l, v, xOnnx);
          return mulF(b, l, subF(b, l, f, o), s);
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// Binarizer: x > threshold ? 1 : 0, in X's type.
struct BinarizerLowering : OpConversionPattern<ONNX::MLBinarizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLBinarizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    Type elt = cast<RankedTensorType>(x.getType()).getElementType();
    Type xOnnx = getElementType(op.getX());
    double threshold = op.getThreshold().convertToDouble();
    Value y = mapElements(
        rewriter, loc, x, elt,
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          Value f = convertScalar(b, l, v, xOnnx, b.getF64Type());
          Value gt = cmpF(b, l, arith::CmpFPredicate::OGT, f,
                          fConst(b, l, b.getF64Type(), threshold));
          return select(b, l, gt, createScalarConstant(b, l, elt, 1),
                        createScalarConstant(b, l, elt, 0));
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// Imputer: elements equal to the replaced value (NaN matches NaN) become
/// the imputed value of their column.
struct ImputerLowering : OpConversionPattern<ONNX::MLImputerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLImputerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    Type elt = xt.getElementType();
    if (xt.getRank() < 1)
      return op.emitOpError("X must have a rank of at least 1");
    int64_t col = xt.getRank() - 1;
    bool isF = isa<FloatType>(elt);
    SmallVector<double> imputed;
    if (isF) {
      auto v = op.getImputedValueFloats();
      if (!v)
        return op.emitOpError("a float X needs imputed_value_floats");
      imputed.assign(v->begin(), v->end());
    } else {
      auto v = op.getImputedValueInt64s();
      if (!v)
        return op.emitOpError("an integer X needs imputed_value_int64s");
      imputed.assign(v->begin(), v->end());
    }
    FailureOr<PerColumn> table = perColumnTable(rewriter, loc, op, x, col, elt,
                                                imputed, "the imputed values");
    if (failed(table))
      return failure();
    double replacedF = op.getReplacedValueFloat().convertToDouble();
    int64_t replacedI = op.getReplacedValueInt64();
    Value y = mapElements(
        rewriter, loc, x, elt,
        [&](OpBuilder &b, Location l, Value v, ValueRange ivs) -> Value {
          Value match;
          if (isF) {
            match = std::isnan(replacedF)
                        ? cmpF(b, l, arith::CmpFPredicate::UNO, v, v)
                        : cmpF(b, l, arith::CmpFPredicate::OEQ, v,
                               fConst(b, l, elt, replacedF));
          } else {
            match = cmpI(b, l, arith::CmpIPredicate::eq, v,
                         createIntConstant(b, l, elt, replacedI));
          }
          return select(b, l, match, table->at(b, l, ivs[col]), v);
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// Normalizer: each row (a 1-D X is one row) divided by its max, L1 or L2
/// norm, unless that is 0 (ORT; L2 as sign(x) * sqrt(x^2 / sum x^2)).
struct NormalizerLowering : OpConversionPattern<ONNX::MLNormalizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLNormalizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef norm = op.getNorm();
    if (norm != "MAX" && norm != "L1" && norm != "L2")
      return op.emitOpError("norm must be MAX, L1 or L2, not '") << norm << "'";
    Value x = adaptor.getX();
    if (failed(checkRank12(op, x)))
      return failure();
    Value x2 = mlRows2D(rewriter, loc, x);
    Type f32 = rewriter.getF32Type();
    Type xOnnx = getElementType(op.getX());
    Value rows = getDimValue(rewriter, loc, x2, 0);
    Value cols = getDimValue(rewriter, loc, x2, 1);
    auto x2t = cast<RankedTensorType>(x2.getType());
    auto outType = RankedTensorType::get(x2t.getShape(), f32);
    Value y = createEmpty(rewriter, loc, outType, {rows, cols});
    y = buildLoops(
        rewriter, loc, {rows}, ValueRange{y},
        [&](OpBuilder &b, Location l, ValueRange r,
            ValueRange args) -> SmallVector<Value> {
          Value row = r[0];
          auto read = [&](OpBuilder &b, Location l, Value c) {
            return toF32(b, l,
                         tensor::ExtractOp::create(b, l, x2, ValueRange{row, c}),
                         xOnnx);
          };
          double init = norm == "MAX" ? -3.4028234663852886e38 : 0.0;
          Value stat = buildLoops(
              b, l, {cols}, ValueRange{fConst(b, l, f32, init)},
              [&](OpBuilder &b, Location l, ValueRange c,
                  ValueRange a) -> SmallVector<Value> {
                Value v = read(b, l, c[0]);
                if (norm == "MAX")
                  return {stdMax(b, l, a[0], v)};
                if (norm == "L1")
                  return {addF(b, l, a[0], math::AbsFOp::create(b, l, v))};
                return {addF(b, l, a[0], mulF(b, l, v, v))};
              })[0];
          Value nonzero = cmpF(b, l, arith::CmpFPredicate::UNE, stat,
                               fConst(b, l, f32, 0));
          return buildLoops(
              b, l, {cols}, args,
              [&](OpBuilder &b, Location l, ValueRange c,
                  ValueRange a) -> SmallVector<Value> {
                Value v = read(b, l, c[0]);
                Value n;
                if (norm == "L2") {
                  n = math::SqrtOp::create(b, l, divF(b, l, mulF(b, l, v, v), stat));
                  Value neg = cmpF(b, l, arith::CmpFPredicate::OLT, v,
                                   fConst(b, l, f32, 0));
                  n = select(b, l, neg, arith::NegFOp::create(b, l, n), n);
                } else {
                  n = divF(b, l, v, stat);
                }
                n = select(b, l, nonzero, n, v);
                return {tensor::InsertOp::create(b, l, n, a[0],
                                                 ValueRange{row, c[0]})};
              });
        })[0];
    if (cast<RankedTensorType>(x.getType()).getRank() == 1)
      y = tensor::CollapseShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({x2t.getDimSize(1)}, f32), y,
          SmallVector<ReassociationIndices>{{0, 1}});
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// ArrayFeatureExtractor: Z[..., j] = X[..., Y[j]] (Y flattened); a 1-D X
/// is one row. Indices outside [0, C) are a run-time error.
struct ArrayFeatureExtractorLowering
    : OpConversionPattern<ONNX::MLArrayFeatureExtractorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLArrayFeatureExtractorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    if (xt.getRank() < 1)
      return op.emitOpError("X must have a rank of at least 1");
    if (xt.getRank() == 1)
      x = mlRows2D(rewriter, loc, x);
    xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    Value indices = flatten(rewriter, loc, adaptor.getY());
    Value cols = getDimValue(rewriter, loc, x, rank - 1);
    checkEveryElement(
        rewriter, loc, indices,
        "ArrayFeatureExtractor: an index of Y is outside [0, the number of "
        "columns of X)",
        [&](OpBuilder &b, Location l, Value i, ValueRange) -> Value {
          Value ix = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
          return andI(b, l,
                      cmpI(b, l, arith::CmpIPredicate::sge, ix, idx(b, l, 0)),
                      cmpI(b, l, arith::CmpIPredicate::slt, ix, cols));
        });
    Value k = getDimValue(rewriter, loc, indices, 0);
    SmallVector<int64_t> shape(xt.getShape());
    shape.back() = cast<RankedTensorType>(indices.getType()).getDimSize(0);
    auto outType = RankedTensorType::get(shape, xt.getElementType());
    SmallVector<Value> sizes = dimValues(rewriter, loc, x);
    sizes.back() = k;
    Value init = createEmpty(rewriter, loc, outType, sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outType}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        parallelIterators(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> ivs;
          for (int64_t d = 0; d < rank; ++d)
            ivs.push_back(linalg::IndexOp::create(b, l, d));
          Value j = tensor::ExtractOp::create(b, l, indices, ivs.back());
          ivs.back() = arith::IndexCastOp::create(b, l, b.getIndexType(), j);
          linalg::YieldOp::create(b, l,
                                  Value(tensor::ExtractOp::create(b, l, x, ivs)));
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), generic.getResult(0));
    return success();
  }
};

/// OneHotEncoder: Y[..., k] = (int64(x) == cats[k]); with zeros = 0 a
/// value that is no category is a run-time error.
struct OneHotEncoderLowering : OpConversionPattern<ONNX::MLOneHotEncoderOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLOneHotEncoderOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // String categories (a string X): compared bytewise by the runtime.
    bool strCats = isStringType(op.getX().getType());
    if (strCats != (bool)op.getCatsStrings() ||
        (bool)op.getCatsStrings() == (bool)op.getCatsInt64s())
      return op.emitOpError("a string X takes cats_strings, a numeric X "
                            "cats_int64s");
    SmallVector<StringRef> strs;
    if (strCats) {
      ArrayAttr catsStrings = *op.getCatsStrings();
      for (Attribute a : catsStrings)
        strs.push_back(cast<StringAttr>(a).getValue());
    }
    SmallVector<int64_t> cats;
    if (strCats)
      cats.assign(strs.size(), 0);
    else
      cats.assign(op.getCatsInt64s()->begin(), op.getCatsInt64s()->end());
    if (cats.empty())
      return op.emitOpError("the categories must not be empty");
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    Type xOnnx = getElementType(op.getX());
    Type i64 = rewriter.getI64Type();
    Value catTable =
        strCats ? buildStringConstant(
                      rewriter, loc, op,
                      RankedTensorType::get({(int64_t)strs.size()}, i64), strs)
                : i64Table(rewriter, loc, cats);
    // Whether element v is category k (c: the category's table entry).
    auto isCat = [&](OpBuilder &b, Location l, Value v, Value c) -> Value {
      if (strCats)
        return stringEqual(b, l, op, v, c);
      return cmpI(b, l, arith::CmpIPredicate::eq, convertScalar(b, l, v, xOnnx, i64), c);
    };
    if (op.getZeros() == 0) {
      Value flat = flatten(rewriter, loc, x);
      checkEveryElement(
          rewriter, loc, flat,
          "OneHotEncoder: a value of X is not a category (zeros = 0)",
          [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
            Value found = arith::ConstantIntOp::create(b, l, b.getI1Type(), 0);
            for (size_t k = 0; k < cats.size(); ++k)
              found = arith::OrIOp::create(
                  b, l, found,
                  isCat(b, l, v,
                        strCats ? Value(tensor::ExtractOp::create(
                                      b, l, catTable, idx(b, l, k)))
                                : createIntConstant(b, l, i64, cats[k])));
            return found;
          });
    }
    int64_t rank = xt.getRank();
    SmallVector<int64_t> shape(xt.getShape());
    shape.push_back(cats.size());
    Type f32 = rewriter.getF32Type();
    auto outType = RankedTensorType::get(shape, f32);
    SmallVector<Value> sizes = dimValues(rewriter, loc, x);
    sizes.push_back(idx(rewriter, loc, cats.size()));
    Value init = createEmpty(rewriter, loc, outType, sizes);
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(rewriter.getAffineDimExpr(d));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outType}, ValueRange{x}, ValueRange{init},
        SmallVector<AffineMap>{
            AffineMap::get(rank + 1, 0, exprs, rewriter.getContext()),
            rewriter.getMultiDimIdentityMap(rank + 1)},
        parallelIterators(rank + 1),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value k = linalg::IndexOp::create(b, l, rank);
          Value c = tensor::ExtractOp::create(b, l, catTable, k);
          Value eq = isCat(b, l, args[0], c);
          linalg::YieldOp::create(
              b, l, select(b, l, eq, fConst(b, l, f32, 1), fConst(b, l, f32, 0)));
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), generic.getResult(0));
    return success();
  }
};

/// LabelEncoder (opsets 2 and 4): keys sorted at compile time, a binary
/// search per element (string keys: the runtime's onnxc_rt_str_lookup over
/// the sorted strings); a value no key matches gets the default. Keys and
/// values are the keys_* / values_* lists (floats, int64s, strings) or,
/// from opset 4, tensors (float, double, int16, int32, int64, string). A
/// NaN key matches a NaN X (opset 4's rule). The default is default_tensor,
/// else default_float, default_int64 or default_string for float, int64
/// and string values, else -0.0 (double) or -1 (int16, int32): ONNX
/// Runtime's choice (it reads default_float for float values_tensor, not
/// for double ones).
struct LabelEncoderLowering : OpConversionPattern<ONNX::MLLabelEncoderOp> {
  using OpConversionPattern::OpConversionPattern;
  enum Kind { Float, Int, String };

  /// One side (keys or values): its kind, element type and elements.
  struct Side {
    Kind kind;
    Type elt;
    SmallVector<double> f;
    SmallVector<int64_t> i;
    SmallVector<StringRef> s;
    size_t size() const {
      return kind == Float ? f.size() : kind == Int ? i.size() : s.size();
    }
  };

  static FailureOr<Side> readSide(ONNX::MLLabelEncoderOp op, StringRef prefix) {
    std::string p = prefix.str();
    Builder b(op.getContext());
    auto floats = op->getAttrOfType<DenseF32ArrayAttr>(p + "_floats");
    auto ints = op->getAttrOfType<DenseI64ArrayAttr>(p + "_int64s");
    auto strs = op->getAttrOfType<ArrayAttr>(p + "_strings");
    auto tensor = op->getAttrOfType<ElementsAttr>(p + "_tensor");
    if ((bool)floats + (bool)ints + (bool)strs + (bool)tensor != 1)
      return op.emitOpError("exactly one of ")
             << p << "_floats, " << p << "_int64s, " << p << "_strings and "
             << p << "_tensor must be given";
    Side side;
    if (floats) {
      side.kind = Float, side.elt = b.getF32Type();
      side.f.assign(floats.asArrayRef().begin(), floats.asArrayRef().end());
    } else if (ints) {
      side.kind = Int, side.elt = b.getI64Type();
      side.i.assign(ints.asArrayRef().begin(), ints.asArrayRef().end());
    } else if (strs) {
      side.kind = String, side.elt = ONNX::StringType::get(op.getContext());
      for (Attribute a : strs)
        side.s.push_back(cast<StringAttr>(a).getValue());
    } else {
      std::optional<TensorValues> v = readTensorAttr(tensor);
      Type t = tensor.getElementType();
      bool ok = v && (t.isF32() || t.isF64() || t.isSignlessInteger(16) ||
                      t.isSignlessInteger(32) || t.isSignlessInteger(64) ||
                      isStringType(t));
      if (!ok || cast<ShapedType>(tensor.getType()).getRank() > 1)
        return op.emitOpError()
               << p << "_tensor must be a 1-D tensor of float, double, int16, "
               << "int32, int64 or string";
      side.elt = t;
      side.kind = isa<FloatType>(t) ? Float : isStringType(t) ? String : Int;
      side.f = v->floats, side.i = v->ints, side.s = v->strings;
    }
    return side;
  }

  LogicalResult
  matchAndRewrite(ONNX::MLLabelEncoderOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Side> keys = readSide(op, "keys");
    if (failed(keys))
      return failure();
    FailureOr<Side> values = readSide(op, "values");
    if (failed(values))
      return failure();
    Kind keyKind = keys->kind, valueKind = values->kind;
    size_t numKeys = keys->size(), numValues = values->size();
    if (numKeys != numValues)
      return op.emitOpError("has ")
             << numKeys << " keys and " << numValues
             << " values: they must be as many";
    if (numKeys == 0)
      return op.emitOpError("must have at least one key");
    Type xElt = getElementType(op.getX());
    if (xElt != keys->elt)
      return op.emitOpError("the keys' type must be X's element type");
    // The default.
    Type outElt = values->elt;
    double dfltF = -0.0;
    int64_t dfltI = -1;
    StringRef dfltS = op.getDefaultString();
    if (auto d = op->getAttrOfType<ElementsAttr>("default_tensor")) {
      std::optional<TensorValues> v = readTensorAttr(d);
      if (!v || v->size() != 1 || d.getElementType() != outElt)
        return op.emitOpError("default_tensor must hold one element of the "
                              "values' type");
      if (valueKind == Float)
        dfltF = v->floats[0];
      else if (valueKind == Int)
        dfltI = v->ints[0];
      else
        dfltS = v->strings[0];
    } else if (outElt.isF32()) {
      dfltF = op.getDefaultFloat().convertToDouble();
    } else if (outElt.isInteger(64)) {
      dfltI = op.getDefaultInt64();
    }
    // Sort (key, position); equal keys (0.0 and -0.0 included) are an
    // error. NaN keys sort last; the first one is the NaN entry.
    SmallVector<size_t> order(numKeys);
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    auto isNaNKey = [&](size_t a) {
      return keyKind == Float && std::isnan(keys->f[a]);
    };
    auto less = [&](size_t a, size_t b) {
      if (keyKind == Float && (isNaNKey(a) || isNaNKey(b)))
        return !isNaNKey(a) && isNaNKey(b);
      return keyKind == Float ? keys->f[a] < keys->f[b]
             : keyKind == Int ? keys->i[a] < keys->i[b]
                              : keys->s[a] < keys->s[b];
    };
    llvm::stable_sort(order, less);
    for (size_t i = 1; i < order.size(); ++i)
      if (!less(order[i - 1], order[i]))
        return op.emitOpError("key ")
               << (keyKind == Float ? std::to_string(keys->f[order[i]])
                   : keyKind == Int ? std::to_string(keys->i[order[i]])
                                    : "'" + keys->s[order[i]].str() + "'")
               << " is listed twice";
    bool nanKey = isNaNKey(order.back());
    Type i64 = rewriter.getI64Type();
    // Tables: float keys in their type, integer keys and values as i64
    // (X is sign-extended), strings as addresses.
    Side sk = *keys, sv = *values;
    for (Side *side : {&sk, &sv}) {
      const Side &src = side == &sk ? *keys : *values;
      side->f.clear(), side->i.clear(), side->s.clear();
      for (size_t i : order) {
        if (src.kind == Float)
          side->f.push_back(src.f[i]);
        else if (src.kind == Int)
          side->i.push_back(src.i[i]);
        else
          side->s.push_back(src.s[i]);
      }
    }
    int64_t n = numKeys - (nanKey ? 1 : 0);
    auto table = [&](const Side &side, int64_t count) -> Value {
      auto strType = RankedTensorType::get({count}, i64);
      if (side.kind == Float)
        return floatTable(rewriter, loc, side.elt,
                          ArrayRef(side.f).take_front(count));
      if (side.kind == Int)
        return i64Table(rewriter, loc, ArrayRef(side.i).take_front(count));
      return buildStringConstant(rewriter, loc, op, strType,
                                 ArrayRef(side.s).take_front(count));
    };
    Value keyTable = n > 0 ? table(sk, n) : Value();
    Value valueTable = table(sv, numKeys);
    auto scalar = [&](OpBuilder &b, Location l, Kind kind, double f, int64_t i,
                      StringRef s) -> Value {
      if (kind == Float)
        return fConst(b, l, outElt, f);
      if (kind == Int)
        return createIntConstant(b, l, outElt, i);
      return stringAddress(b, l, op, s);
    };
    // Values are read from the i64 table and truncated to int16/int32.
    auto valueAt = [&](OpBuilder &b, Location l, Value at) -> Value {
      Value v = tensor::ExtractOp::create(b, l, valueTable, at);
      if (valueKind == Int && !outElt.isInteger(64))
        v = arith::TruncIOp::create(b, l, outElt, v);
      return v;
    };
    Type storeElt = valueKind == String ? i64 : outElt;
    Value x = adaptor.getX();
    Value dfltValue = scalar(rewriter, loc, valueKind, dfltF, dfltI, dfltS);
    Value y = mapElements(
        rewriter, loc, x, storeElt,
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          Value dflt = dfltValue;
          if (nanKey) {
            // Separate statements, in the order g++ evaluated the
            // arguments: the IR must not depend on the compiler of onnxc.
            Value nanValue = valueAt(b, l, idx(b, l, numKeys - 1));
            Value isNan = cmpF(b, l, arith::CmpFPredicate::UNO, v, v);
            dflt = select(b, l, isNan, nanValue, dflt);
          }
          if (n == 0)
            return dflt;
          if (keyKind == String) {
            Value at = stringLookup(b, l, op, keyTable, n, v);
            Value found = cmpI(b, l, arith::CmpIPredicate::sge, at,
                               createIntConstant(b, l, i64, 0));
            Value i = arith::IndexCastOp::create(
                b, l, b.getIndexType(),
                select(b, l, found, at, createIntConstant(b, l, i64, 0)));
            return select(b, l, found, valueAt(b, l, i), dflt);
          }
          bool floatKeys = keyKind == Float;
          if (!floatKeys && !xElt.isInteger(64))
            v = arith::ExtSIOp::create(b, l, i64, v);
          // at = the first index with key >= v (clamped to n - 1).
          Value at =
              lowerBound(b, l, n, [&](OpBuilder &b, Location l, Value mid) {
                Value key = tensor::ExtractOp::create(b, l, keyTable, mid);
                return floatKeys
                           ? cmpF(b, l, arith::CmpFPredicate::OLT, key, v)
                           : cmpI(b, l, arith::CmpIPredicate::slt, key, v);
              });
          Value key = tensor::ExtractOp::create(b, l, keyTable, at);
          Value eq = floatKeys ? cmpF(b, l, arith::CmpFPredicate::OEQ, key, v)
                               : cmpI(b, l, arith::CmpIPredicate::eq, key, v);
          return select(b, l, eq, valueAt(b, l, at), dflt);
        });
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// FeatureVectorizer: the inputs' columns side by side in float, input i
/// taking inputdimensions[i] columns (its first ones, zeros past its own).
struct FeatureVectorizerLowering
    : OpConversionPattern<ONNX::MLFeatureVectorizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLFeatureVectorizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dimsAttr = op.getInputdimensions();
    ValueRange inputs = adaptor.getX();
    if (!dimsAttr || dimsAttr->size() != inputs.size())
      return op.emitOpError("inputdimensions must have one entry per input (")
             << inputs.size() << ")";
    ArrayRef<int64_t> dims = *dimsAttr;
    if (llvm::any_of(dims, [](int64_t d) { return d < 0; }))
      return op.emitOpError("inputdimensions must not be negative");
    SmallVector<Value> rows2d;
    for (Value in : inputs) {
      if (failed(checkRank12(op, in)))
        return failure();
      rows2d.push_back(mlRows2D(rewriter, loc, in));
    }
    int64_t total = 0;
    for (int64_t d : dims)
      total += d;
    Type f32 = rewriter.getF32Type();
    Value rows = getDimValue(rewriter, loc, rows2d[0], 0);
    for (size_t i = 1; i < rows2d.size(); ++i)
      checkEqual(rewriter, loc, rows, getDimValue(rewriter, loc, rows2d[i], 0),
                 "FeatureVectorizer: the inputs have different row counts");
    int64_t staticRows = cast<RankedTensorType>(rows2d[0].getType()).getDimSize(0);
    auto outType = RankedTensorType::get({staticRows, total}, f32);
    Value y = linalg::FillOp::create(
                  rewriter, loc, fConst(rewriter, loc, f32, 0),
                  createEmpty(rewriter, loc, outType, {rows, Value()}))
                  .getResult(0);
    int64_t offset = 0;
    for (size_t i = 0; i < rows2d.size(); ++i) {
      Value in = rows2d[i];
      Type onnx = getElementType(op.getX()[i]);
      Value n = minIdx(rewriter, loc, getDimValue(rewriter, loc, in, 1),
                       idx(rewriter, loc, dims[i]));
      int64_t off = offset;
      y = buildLoops(
          rewriter, loc, {rows, n}, ValueRange{y},
          [&](OpBuilder &b, Location l, ValueRange ivs,
              ValueRange a) -> SmallVector<Value> {
            Value v = tensor::ExtractOp::create(b, l, in, ivs);
            v = convertScalar(b, l, v, onnx, f32);
            Value c = arith::AddIOp::create(b, l, ivs[1], idx(b, l, off));
            return {tensor::InsertOp::create(b, l, v, a[0],
                                             ValueRange{ivs[0], c})};
          })[0];
      offset += dims[i];
    }
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// CategoryMapper: strings to int64 (cats_strings -> cats_int64s, else
/// default_int64) or int64 to strings (else default_string).
struct CategoryMapperLowering : OpConversionPattern<ONNX::MLCategoryMapperOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLCategoryMapperOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getCatsStrings() || !op.getCatsInt64s())
      return op.emitOpError("cats_strings and cats_int64s are required");
    SmallVector<StringRef> strs;
    ArrayAttr catsStrings = *op.getCatsStrings();
    for (Attribute a : catsStrings)
      strs.push_back(cast<StringAttr>(a).getValue());
    ArrayRef<int64_t> ints = *op.getCatsInt64s();
    if (strs.size() != ints.size())
      return op.emitOpError("has ")
             << strs.size() << " cats_strings and " << ints.size()
             << " cats_int64s: they must be as many";
    if (strs.empty())
      return op.emitOpError("must have at least one category");
    bool fromString = isStringType(op.getX().getType());
    if (fromString == isStringType(op.getY().getType()))
      return op.emitOpError("maps strings to int64 or int64 to strings");
    Type i64 = rewriter.getI64Type();
    // Sorted keys (the first of equal keys wins, as a map built in order).
    SmallVector<size_t> order(strs.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    if (fromString)
      llvm::stable_sort(order, [&](size_t a, size_t b) { return strs[a] < strs[b]; });
    else
      llvm::stable_sort(order, [&](size_t a, size_t b) { return ints[a] < ints[b]; });
    SmallVector<StringRef> sStrs;
    SmallVector<int64_t> sInts;
    for (size_t k = 0; k < order.size(); ++k) {
      size_t i = order[k];
      bool dup = k > 0 && (fromString ? strs[order[k - 1]] == strs[i]
                                      : ints[order[k - 1]] == ints[i]);
      if (dup)
        continue;
      sStrs.push_back(strs[i]);
      sInts.push_back(ints[i]);
    }
    int64_t n = sStrs.size();
    auto tableType = RankedTensorType::get({n}, i64);
    Value strTable = buildStringConstant(rewriter, loc, op, tableType, sStrs);
    Value intTable = i64Table(rewriter, loc, sInts);
    Value x = adaptor.getX();
    Value y;
    if (fromString) {
      Value dflt = createIntConstant(rewriter, loc, i64, op.getDefaultInt64());
      y = mapElements(
          rewriter, loc, x, i64,
          [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
            Value at = stringLookup(b, l, op, strTable, n, v);
            Value found = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::sge, at,
                createIntConstant(b, l, i64, 0));
            Value i = arith::IndexCastOp::create(
                b, l, b.getIndexType(),
                select(b, l, found, at, createIntConstant(b, l, i64, 0)));
            Value val = tensor::ExtractOp::create(b, l, intTable, i);
            return select(b, l, found, val, dflt);
          });
    } else {
      Value dflt = stringAddress(rewriter, loc, op, op.getDefaultString());
      y = mapElements(
          rewriter, loc, x, i64,
          [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
            Value at = lowerBound(
                b, l, n, [&](OpBuilder &b, Location l, Value mid) {
                  Value key = tensor::ExtractOp::create(b, l, intTable, mid);
                  return cmpI(b, l, arith::CmpIPredicate::slt, key, v);
                });
            Value key = tensor::ExtractOp::create(b, l, intTable, at);
            Value eq = cmpI(b, l, arith::CmpIPredicate::eq, key, v);
            Value val = tensor::ExtractOp::create(b, l, strTable, at);
            return select(b, l, eq, val, dflt);
          });
    }
    rewriter.replaceOp(
        op, castTo(rewriter, loc, y,
                   convertedTensorType(getTypeConverter(), op.getY())));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateMLPreprocessPatterns(TypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<ScalerLowering, BinarizerLowering, ImputerLowering,
               NormalizerLowering, ArrayFeatureExtractorLowering,
               OneHotEncoderLowering, LabelEncoderLowering,
               FeatureVectorizerLowering, CategoryMapperLowering>(
      tc, patterns.getContext());
}

//===- MLMaps.cpp - ai.onnx.ml ZipMap, DictVectorizer, CastMap -------------===//
//
// The ops on maps. A map is two 1-D tensors, keys (i64; string keys as the
// addresses of their strings) and values; a sequence of maps the keys and
// values of every map one after the other and the maps' sizes
// (TypeConversion.cpp, runtime_abi.h). Maps reach these ops from the
// model's inputs (checked by the runtime: distinct keys of the declared
// dtypes), and ZipMap's sequence goes to the model's outputs, where the
// runtime builds the maps (runtime/src/maps.c).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/Subgraph.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The index (i64) of `key` in `table`, `n` int64 keys sorted ascending,
/// or -1: a binary search.
Value lookupSorted(OpBuilder &b, Location loc, Value table, int64_t n,
                   Value key) {
  Type i64 = b.getI64Type();
  Value at = lowerBound(b, loc, n, [&](OpBuilder &b, Location l, Value mid) {
    Value k = tensor::ExtractOp::create(b, l, table, mid);
    return cmpI(b, l, arith::CmpIPredicate::slt, k, key);
  });
  Value eq = cmpI(b, loc, arith::CmpIPredicate::eq,
                  tensor::ExtractOp::create(b, loc, table, at), key);
  return select(b, loc, eq, arith::IndexCastOp::create(b, loc, i64, at),
                createIntConstant(b, loc, i64, -1));
}

/// A 1-D tensor<? x i64> of `size` elements, element i = table[i mod c].
Value repeatTable(OpBuilder &b, Location loc, Value table, int64_t c,
                  Value size) {
  Type i64 = b.getI64Type();
  Value init = emptyTensor(b, loc, {size}, i64);
  auto map = AffineMap::getMultiDimIdentityMap(1, b.getContext());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{map}, parallelIterators(1),
             [&](OpBuilder &b, Location l, ValueRange) {
               Value i = linalg::IndexOp::create(b, l, 0);
               Value k = arith::RemUIOp::create(b, l, i, idx(b, l, c));
               Value v = tensor::ExtractOp::create(b, l, table, k);
               linalg::YieldOp::create(b, l, v);
             })
      .getResult(0);
}

/// emptyTensor(sizes, elt) filled with the scalar `v`.
Value filledWith(OpBuilder &b, Location loc, ArrayRef<Value> sizes, Type elt,
                 Value v) {
  Value init = emptyTensor(b, loc, sizes, elt);
  return linalg::FillOp::create(b, loc, ValueRange{v}, ValueRange{init})
      .getResult(0);
}

/// ZipMap: X [N, C] (or [C]) -> N maps, map n pairing the C class labels
/// with row n of X: keys the labels repeated N times, values X flattened,
/// sizes N times C.
struct ZipMapLowering : OpConversionPattern<ONNX::MLZipMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLZipMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ints = op.getClasslabelsInt64sAttr();
    auto strs = op.getClasslabelsStringsAttr();
    if ((bool)ints == (bool)strs)
      return op.emitOpError(
          "exactly one of classlabels_int64s and classlabels_strings must be "
          "given");
    int64_t c = ints ? (int64_t)ints.size() : (int64_t)strs.size();
    if (c == 0)
      return op.emitOpError("has no class labels");
    auto types = convertedTypes(op, *getTypeConverter(), op.getType());
    if (failed(types))
      return failure();
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    if (xType.getRank() != 1 && xType.getRank() != 2)
      return op.emitOpError("X must be [N, C] or [C], got rank ")
             << xType.getRank();
    if (!xType.isDynamicDim(xType.getRank() - 1) &&
        xType.getDimSize(xType.getRank() - 1) != c)
      return op.emitOpError("X has ")
             << xType.getDimSize(xType.getRank() - 1) << " columns for " << c
             << " class labels";
    Value x2 = mlRows2D(rewriter, loc, adaptor.getX());
    Value rows = tensor::DimOp::create(rewriter, loc, x2, 0);
    Value cols = tensor::DimOp::create(rewriter, loc, x2, 1);
    checkEqual(rewriter, loc, cols, idx(rewriter, loc, c),
               "ZipMap: X's columns differ from the number of class labels");
    Value table;
    if (ints) {
      table = i64Table(rewriter, loc, ints.asArrayRef());
    } else {
      SmallVector<StringRef> labels;
      for (Attribute a : strs)
        labels.push_back(cast<StringAttr>(a).getValue());
      table = buildStringConstant(
          rewriter, loc, op, RankedTensorType::get({c}, rewriter.getI64Type()),
          labels);
    }
    Value total = mulIdx(rewriter, loc, rows, idx(rewriter, loc, c));
    Value keys = repeatTable(rewriter, loc, table, c, total);
    Value values = flatten(rewriter, loc, x2);
    Value sizes = filledWith(
        rewriter, loc, {rows}, rewriter.getI64Type(),
        createIntConstant(rewriter, loc, rewriter.getI64Type(), c));
    rewriter.replaceOpWithMultiple(
        op, {castAll(rewriter, loc, {keys, values, sizes}, *types,
                     "ZipMap: result sizes")});
    return success();
  }
};

/// The map operand's key and value element types (onnx types).
std::pair<Type, Type> mapTypes(Value map) {
  auto m = cast<ONNX::MapType>(map.getType());
  return {m.getKeyType(), cast<TensorType>(m.getValueType()).getElementType()};
}

/// DictVectorizer: Y [1, V], Y[0, j] the value of vocabulary[j] in the map
/// or zero ("" for strings) when the map lacks it, as ONNX Runtime. The
/// vocabulary is sorted at compile time (entries listed twice are refused);
/// each map entry binary-searches it.
struct DictVectorizerLowering
    : OpConversionPattern<ONNX::MLDictVectorizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLDictVectorizerOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [keyType, valueType] = mapTypes(op.getX());
    bool stringKeys = isStringType(keyType);
    auto ints = op.getInt64VocabularyAttr();
    auto strs = op.getStringVocabularyAttr();
    if ((bool)ints == (bool)strs)
      return op.emitOpError("exactly one of int64_vocabulary and "
                            "string_vocabulary must be given");
    if ((bool)strs != stringKeys)
      return op.emitOpError(stringKeys ? "string keys need string_vocabulary"
                                       : "int64 keys need int64_vocabulary");
    if (getElementType(op.getY()) != valueType)
      return op.emitOpError("Y's element type must be the map's value type");
    SmallVector<int64_t> vi;
    SmallVector<StringRef> vs;
    if (ints)
      vi.assign(ints.asArrayRef().begin(), ints.asArrayRef().end());
    else
      for (Attribute a : strs)
        vs.push_back(cast<StringAttr>(a).getValue());
    int64_t v = stringKeys ? vs.size() : vi.size();
    if (v == 0)
      return op.emitOpError("has an empty vocabulary");
    SmallVector<int64_t> order = labelIndices(v);
    llvm::stable_sort(order, [&](int64_t a, int64_t b) {
      return stringKeys ? vs[a] < vs[b] : vi[a] < vi[b];
    });
    for (int64_t i = 1; i < v; ++i) {
      int64_t a = order[i - 1], b = order[i];
      if (stringKeys ? vs[a] == vs[b] : vi[a] == vi[b])
        return op.emitOpError("vocabulary entry ")
               << (stringKeys ? "'" + vs[b].str() + "'" : std::to_string(vi[b]))
               << " is listed twice";
    }
    Type i64 = rewriter.getI64Type();
    Value table;
    if (stringKeys) {
      SmallVector<StringRef> sorted;
      for (int64_t i : order)
        sorted.push_back(vs[i]);
      table = buildStringConstant(rewriter, loc, op,
                                  RankedTensorType::get({v}, i64), sorted);
    } else {
      SmallVector<int64_t> sorted;
      for (int64_t i : order)
        sorted.push_back(vi[i]);
      table = i64Table(rewriter, loc, sorted);
    }
    Value position = i64Table(rewriter, loc, order);
    ValueRange x = adaptor.getX();
    Value keys = x[0], values = x[1];
    auto yType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    Type elt = yType.getElementType();
    Value zero = isStringType(valueType)
                     ? stringAddress(rewriter, loc, op, "")
                 : isa<FloatType>(elt) ? fConst(rewriter, loc, elt, 0.0)
                                       : createIntConstant(rewriter, loc, elt, 0);
    Value y = filledWith(rewriter, loc, {idx(rewriter, loc, 1), idx(rewriter, loc, v)},
                           elt, zero);
    Value n = tensor::DimOp::create(rewriter, loc, keys, 0);
    y = forRange(
        rewriter, loc, idx(rewriter, loc, 0), n, idx(rewriter, loc, 1), {y},
        [&](OpBuilder &b, Location l, Value i,
            ValueRange acc) -> SmallVector<Value> {
          Value key = tensor::ExtractOp::create(b, l, keys, i);
          Value at = stringKeys ? stringLookup(b, l, op, table, v, key)
                                : lookupSorted(b, l, table, v, key);
          Value found = cmpI(b, l, arith::CmpIPredicate::sge, at,
                             createIntConstant(b, l, i64, 0));
          return buildIf(
              b, l, found, acc,
              [&](OpBuilder &b, Location l) -> SmallVector<Value> {
                Value j = tableIndex(
                    b, l, position,
                    arith::IndexCastOp::create(b, l, b.getIndexType(), at));
                Value val = tensor::ExtractOp::create(b, l, values, i);
                return {tensor::InsertOp::create(
                    b, l, val, acc[0], ValueRange{idx(b, l, 0), j})};
              });
        })[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, y, yType));
    return success();
  }
};

/// CastMap: a map of int64 keys to float or string values -> Y [1, M] of
/// cast_to's type. DENSE: the values in ascending key order (M the map's
/// size; each key's rank counted over the others, O(n^2)). SPARSE: Y[0, k]
/// the value of key k, the pad elsewhere (M = max_map; a key outside
/// [0, max_map) fails the run). Casts as ONNX Runtime: float to int64
/// truncates, strings parse as Cast does; the pad is 0, or "0.f" for
/// strings (ONNX Runtime's).
struct CastMapLowering : OpConversionPattern<ONNX::MLCastMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLCastMapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [keyType, valueType] = mapTypes(op.getX());
    if (!keyType.isSignlessInteger(64) ||
        !(valueType.isF32() || isStringType(valueType)))
      return op.emitOpError("takes a map of int64 keys to float or string "
                            "values");
    StringRef to = op.getCastTo(), form = op.getMapForm();
    Type toOnnx = getElementType(op.getY());
    bool okCast = (to == "TO_FLOAT" && toOnnx.isF32()) ||
                  (to == "TO_INT64" && toOnnx.isSignlessInteger(64)) ||
                  (to == "TO_STRING" && isStringType(toOnnx));
    if (to != "TO_FLOAT" && to != "TO_INT64" && to != "TO_STRING")
      return op.emitOpError("unknown cast_to '")
             << to << "' (TO_FLOAT, TO_INT64, TO_STRING)";
    if (!okCast)
      return op.emitOpError("Y's element type differs from cast_to ") << to;
    bool sparse = form == "SPARSE";
    if (!sparse && form != "DENSE")
      return op.emitOpError("unknown map_form '")
             << form << "' (DENSE, SPARSE)";
    int64_t maxMap = op.getMaxMap();
    if (sparse && maxMap <= 0)
      return op.emitOpError("max_map must be positive with map_form SPARSE, got ")
             << maxMap;
    auto yType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getY().getType()));
    Type elt = yType.getElementType();
    ValueRange x = adaptor.getX();
    Value keys = x[0], values = x[1];
    Type i64 = rewriter.getI64Type();
    Value n = tensor::DimOp::create(rewriter, loc, keys, 0);
    auto convert = [&](OpBuilder &b, Location l, Value v) -> Value {
      if (isStringType(valueType) || isStringType(toOnnx))
        return castStringScalar(b, l, op, v, valueType, toOnnx);
      if (toOnnx.isSignlessInteger(64))
        return arith::FPToSIOp::create(b, l, i64, v);
      return v;
    };
    Value pad = isStringType(toOnnx) ? stringAddress(rewriter, loc, op, "0.f")
                : isa<FloatType>(elt) ? fConst(rewriter, loc, elt, 0.0)
                                      : createIntConstant(rewriter, loc, elt, 0);
    Value width = sparse ? idx(rewriter, loc, maxMap) : n;
    Value y = filledWith(rewriter, loc, {idx(rewriter, loc, 1), width}, elt,
                           pad);
    // Ops are created in separate statements, in the order g++ evaluated
    // these calls' arguments (right to left; clang goes left to right):
    // the IR must not depend on the compiler that built onnxc.
    Value step = idx(rewriter, loc, 1);
    Value lower = idx(rewriter, loc, 0);
    y = forRange(
        rewriter, loc, lower, n, step, {y},
        [&](OpBuilder &b, Location l, Value i,
            ValueRange acc) -> SmallVector<Value> {
          Value key = tensor::ExtractOp::create(b, l, keys, i);
          Value at;
          if (sparse) {
            Value below = cmpI(b, l, arith::CmpIPredicate::slt, key,
                               createIntConstant(b, l, i64, maxMap));
            Value nonNegative = cmpI(b, l, arith::CmpIPredicate::sge, key,
                                     createIntConstant(b, l, i64, 0));
            Value ok = andI(b, l, nonNegative, below);
            emitRuntimeCheck(b, l, op, ok,
                             "CastMap: key {} is outside [0, max_map = {}) "
                             "(map_form SPARSE)",
                             ValueRange{key, createIntConstant(b, l, i64, maxMap)});
            at = arith::IndexCastOp::create(b, l, b.getIndexType(), key);
          } else {
            // The key's rank: how many keys are smaller (keys are distinct).
            at = forRange(b, l, idx(b, l, 0), n, idx(b, l, 1),
                          {idx(b, l, 0)},
                          [&](OpBuilder &b, Location l, Value j,
                              ValueRange r) -> SmallVector<Value> {
                            Value other = tensor::ExtractOp::create(b, l, keys, j);
                            Value lt = cmpI(b, l, arith::CmpIPredicate::slt,
                                            other, key);
                            return {select(b, l, lt,
                                           arith::AddIOp::create(b, l, r[0],
                                                                 idx(b, l, 1)),
                                           r[0])};
                          })[0];
          }
          Value v = convert(b, l, tensor::ExtractOp::create(b, l, values, i));
          return {tensor::InsertOp::create(b, l, v, acc[0],
                                           ValueRange{idx(b, l, 0), at})};
        })[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, y, yType));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateMLMapPatterns(TypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<ZipMapLowering, DictVectorizerLowering, CastMapLowering>(
      tc, patterns.getContext());
}

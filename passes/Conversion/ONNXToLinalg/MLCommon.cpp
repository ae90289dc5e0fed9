//===- MLCommon.cpp - Pieces shared by the ai.onnx.ml lowerings -----------===//

#include "passes/Conversion/ONNXToLinalg/MLCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

FailureOr<PostTransform>
mlir::onnxc::linalg_conv::parsePostTransform(Operation *op, StringRef name) {
  if (name == "NONE")
    return PostTransform::None;
  if (name == "SOFTMAX")
    return PostTransform::Softmax;
  if (name == "LOGISTIC")
    return PostTransform::Logistic;
  if (name == "SOFTMAX_ZERO")
    return PostTransform::SoftmaxZero;
  if (name == "PROBIT")
    return PostTransform::Probit;
  return op->emitOpError("post_transform must be NONE, SOFTMAX, LOGISTIC, "
                         "SOFTMAX_ZERO or PROBIT, not '")
         << name << "'";
}

std::optional<SmallVector<double>>
mlir::onnxc::linalg_conv::getFloatList(Operation *op, StringRef name,
                                       bool *isDouble) {
  if (isDouble)
    *isDouble = false;
  if (auto a = op->getAttrOfType<DenseF32ArrayAttr>(name))
    return SmallVector<double>(a.asArrayRef().begin(), a.asArrayRef().end());
  auto t = op->getAttrOfType<ElementsAttr>((name + "_as_tensor").str());
  if (!t)
    return std::nullopt;
  Type elt = t.getElementType();
  if (isDouble)
    *isDouble = elt.isF64();
  SmallVector<double> out;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(t)) {
    for (const APFloat &v : dense.getValues<APFloat>())
      out.push_back(v.convertToDouble());
    return out;
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(t)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || !(elt.isF32() || elt.isF64()))
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    size_t width = elt.isF64() ? 8 : 4;
    for (size_t i = 0; i + width <= data.size(); i += width) {
      if (width == 8) {
        double d;
        std::memcpy(&d, data.data() + i, 8);
        out.push_back(d);
      } else {
        float f;
        std::memcpy(&f, data.data() + i, 4);
        out.push_back(f);
      }
    }
    return out;
  }
  return std::nullopt;
}

std::optional<TensorValues>
mlir::onnxc::linalg_conv::readTensorAttr(ElementsAttr a) {
  if (!a)
    return std::nullopt;
  TensorValues v;
  v.elementType = a.getElementType();
  int64_t n = a.getNumElements();
  if (auto s = dyn_cast<DenseStringElementsAttr>(a)) {
    ArrayRef<StringRef> raw = s.getRawStringData();
    for (int64_t i = 0; i < n; ++i)
      v.strings.push_back(raw[s.isSplat() ? 0 : i]);
    return v;
  }
  auto fType = dyn_cast<FloatType>(v.elementType);
  auto iType = dyn_cast<IntegerType>(v.elementType);
  if (!fType && !iType)
    return std::nullopt;
  if (auto d = dyn_cast<DenseElementsAttr>(a)) {
    if (fType)
      for (const APFloat &f : d.getValues<APFloat>()) {
        bool lost;
        APFloat x = f;
        x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
        v.floats.push_back(x.convertToDouble());
      }
    else
      for (const APInt &i : d.getValues<APInt>())
        v.ints.push_back(iType.isUnsigned() || i.getBitWidth() == 1
                             ? (int64_t)i.getZExtValue()
                             : i.getSExtValue());
    return v;
  }
  auto res = dyn_cast<DenseResourceElementsAttr>(a);
  AsmResourceBlob *blob = res ? res.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return std::nullopt;
  unsigned bits = v.elementType.getIntOrFloatBitWidth();
  if (bits % 8 || (size_t)n * (bits / 8) != blob->getData().size())
    return std::nullopt;
  const char *data = blob->getData().data();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t word = 0;
    std::memcpy(&word, data + i * (bits / 8), bits / 8);
    APInt raw(bits, word);
    if (fType) {
      APFloat x(fType.getFloatSemantics(), raw);
      bool lost;
      x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      v.floats.push_back(x.convertToDouble());
    } else {
      v.ints.push_back(iType.isUnsigned() ? (int64_t)raw.getZExtValue()
                                          : raw.getSExtValue());
    }
  }
  return v;
}

ArrayRef<int64_t> mlir::onnxc::linalg_conv::getI64List(Operation *op,
                                                       StringRef name) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return a.asArrayRef();
  return {};
}

Value mlir::onnxc::linalg_conv::i64Table(OpBuilder &b, Location loc,
                                         ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, b.getI64Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseIntElementsAttr::get(type, values));
}

Value mlir::onnxc::linalg_conv::i32Table(OpBuilder &b, Location loc,
                                         ArrayRef<int32_t> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, b.getI32Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseIntElementsAttr::get(type, values));
}

Value mlir::onnxc::linalg_conv::floatTable(OpBuilder &b, Location loc,
                                           Type elementType,
                                           ArrayRef<double> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, elementType);
  if (auto it = dyn_cast<IntegerType>(elementType)) {
    SmallVector<APInt> ints;
    for (double v : values)
      ints.push_back(APInt(it.getWidth(), (int64_t)v, /*isSigned=*/true));
    return arith::ConstantOp::create(b, loc, type,
                                     DenseIntElementsAttr::get(type, ints));
  }
  if (elementType.isF64())
    return arith::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, values));
  SmallVector<float> f(values.begin(), values.end());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseElementsAttr::get(type, ArrayRef(f)));
}

Value mlir::onnxc::linalg_conv::tableIndex(OpBuilder &b, Location loc,
                                           Value table, Value i) {
  Value v = tensor::ExtractOp::create(b, loc, table, ValueRange{i});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value mlir::onnxc::linalg_conv::mlLogistic(OpBuilder &b, Location loc,
                                           Value x) {
  Value one = cst(b, loc, x, 1);
  Value a = math::AbsFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, a));
  Value v = divF(b, loc, one, addF(b, loc, one, e));
  Value neg = cmpF(b, loc, arith::CmpFPredicate::OLT, x, cst(b, loc, x, 0));
  return select(b, loc, neg, subF(b, loc, one, v), v);
}

Value mlir::onnxc::linalg_conv::mlProbit(OpBuilder &b, Location loc,
                                         Value x) {
  // ErfInv(y), y = 2x - 1, as ORT's ml_common.h computes it in float.
  Type t = x.getType();
  Value f = t.isF32() ? x : arith::TruncFOp::create(b, loc, b.getF32Type(), x);
  Value y = subF(b, loc, mulF(b, loc, cst(b, loc, f, 2), f), cst(b, loc, f, 1));
  Value sgn = select(b, loc,
                     cmpF(b, loc, arith::CmpFPredicate::OLT, y, cst(b, loc, f, 0)),
                     cst(b, loc, f, -1), cst(b, loc, f, 1));
  Value one = cst(b, loc, f, 1);
  Value q = mulF(b, loc, subF(b, loc, one, y), addF(b, loc, one, y));
  Value lg = math::LogOp::create(b, loc, q);
  Value v = addF(b, loc,
                 cst(b, loc, f, 2 / (3.14159265f * 0.147f)),
                 mulF(b, loc, cst(b, loc, f, 0.5f), lg));
  Value v2 = mulF(b, loc, cst(b, loc, f, 1 / 0.147f), lg);
  Value v3 = addF(b, loc, arith::NegFOp::create(b, loc, v),
                  math::SqrtOp::create(
                      b, loc, subF(b, loc, mulF(b, loc, v, v), v2)));
  Value r = mulF(b, loc, sgn, math::SqrtOp::create(b, loc, v3));
  r = mulF(b, loc, cst(b, loc, f, 1.41421356f), r);
  return t.isF32() ? r : arith::ExtFOp::create(b, loc, t, r);
}

Value mlir::onnxc::linalg_conv::applyPostTransformRow(OpBuilder &b,
                                                      Location loc, Value z,
                                                      Value row,
                                                      int64_t numCols,
                                                      PostTransform kind) {
  if (kind == PostTransform::None || numCols == 0)
    return z;
  Value cols = idx(b, loc, numCols);
  auto perElement = [&](function_ref<Value(OpBuilder &, Location, Value)> fn,
                        Value in) {
    return buildLoops(b, loc, {cols}, ValueRange{in},
                      [&](OpBuilder &b, Location l, ValueRange ivs,
                          ValueRange args) -> SmallVector<Value> {
                        Value v = tensor::ExtractOp::create(
                            b, l, args[0], ValueRange{row, ivs[0]});
                        return {tensor::InsertOp::create(
                            b, l, fn(b, l, v), args[0],
                            ValueRange{row, ivs[0]})};
                      })[0];
  };
  if (kind == PostTransform::Logistic)
    return perElement(
        [](OpBuilder &b, Location l, Value v) { return mlLogistic(b, l, v); },
        z);
  if (kind == PostTransform::Probit)
    return perElement(
        [](OpBuilder &b, Location l, Value v) { return mlProbit(b, l, v); },
        z);
  // Softmax: max, exp(x - max) and the sum, then divide.
  Type f = cast<RankedTensorType>(z.getType()).getElementType();
  bool zero = kind == PostTransform::SoftmaxZero;
  Value lowest = fConst(b, loc, f, -3.4028234663852886e38);
  Value max = buildLoops(b, loc, {cols}, ValueRange{lowest},
                         [&](OpBuilder &b, Location l, ValueRange ivs,
                             ValueRange args) -> SmallVector<Value> {
                           Value v = tensor::ExtractOp::create(
                               b, l, z, ValueRange{row, ivs[0]});
                           Value gt = cmpF(b, l, arith::CmpFPredicate::OGT, v,
                                           args[0]);
                           return {select(b, l, gt, v, args[0])};
                         })[0];
  Value expNegMax =
      math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, max));
  SmallVector<Value> r = buildLoops(
      b, loc, {cols}, ValueRange{z, fConst(b, loc, f, 0)},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value v = tensor::ExtractOp::create(b, l, args[0],
                                            ValueRange{row, ivs[0]});
        Value e = math::ExpOp::create(b, l, subF(b, l, v, max));
        Value sum = addF(b, l, args[1], e);
        if (zero) {
          Value nz = arith::OrIOp::create(
              b, l, cmpF(b, l, arith::CmpFPredicate::OGT, v, fConst(b, l, f, 1e-7)),
              cmpF(b, l, arith::CmpFPredicate::OLT, v, fConst(b, l, f, -1e-7)));
          e = select(b, l, nz, e, mulF(b, l, v, expNegMax));
          sum = select(b, l, nz, sum, args[1]);
        }
        return {tensor::InsertOp::create(b, l, e, args[0],
                                         ValueRange{row, ivs[0]}),
                sum};
      });
  Value sum = r[1];
  return perElement(
      [&](OpBuilder &b, Location l, Value v) { return divF(b, l, v, sum); },
      r[0]);
}

Value mlir::onnxc::linalg_conv::mlRows2D(OpBuilder &b, Location loc, Value x) {
  auto xt = cast<RankedTensorType>(x.getType());
  if (xt.getRank() == 2)
    return x;
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({1, xt.getDimSize(0)}, xt.getElementType()),
      x, SmallVector<ReassociationIndices>{{0, 1}});
}

Value mlir::onnxc::linalg_conv::mapElements(
    OpBuilder &b, Location loc, Value x, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> fn) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  auto type = RankedTensorType::get(xt.getShape(), elementType);
  Value init = createEmptyLike(b, loc, type, x);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{x}, ValueRange{init},
      SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
      parallelIterators(rank), [&](OpBuilder &b, Location l, ValueRange args) {
        SmallVector<Value> ivs;
        for (int64_t d = 0; d < rank; ++d)
          ivs.push_back(linalg::IndexOp::create(b, l, d));
        linalg::YieldOp::create(b, l, fn(b, l, args[0], ivs));
      });
  return generic.getResult(0);
}

Value PerColumn::at(OpBuilder &b, Location loc, Value i) const {
  return tensor::ExtractOp::create(b, loc, table,
                                   ValueRange{single ? idx(b, loc, 0) : i});
}

FailureOr<PerColumn> mlir::onnxc::linalg_conv::perColumnTable(
    OpBuilder &b, Location loc, Operation *op, Value x, int64_t dim,
    Type elementType, ArrayRef<double> values, StringRef what) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t n = values.size();
  if (n == 0)
    return op->emitOpError() << what << " must not be empty";
  PerColumn pc{floatTable(b, loc, elementType, values), n == 1};
  if (n == 1)
    return pc;
  if (!xt.isDynamicDim(dim)) {
    if (xt.getDimSize(dim) != n)
      return op->emitOpError()
             << what << " has " << n << " values, X has " << xt.getDimSize(dim)
             << " columns";
    return pc;
  }
  Value cols = getDimValue(b, loc, x, dim);
  emitRuntimeCheck(b, loc, cmpI(b, loc, arith::CmpIPredicate::eq, cols, idx(b, loc, n)),
                   (what + " has " + std::to_string(n) +
                    " values but X has {} columns").str(),
                   ValueRange{cols});
  return pc;
}

Value mlir::onnxc::linalg_conv::createRowScores(OpBuilder &b, Location loc,
                                                Value x2, Value numRows,
                                                int64_t cols) {
  int64_t rows = cast<RankedTensorType>(x2.getType()).getDimSize(0);
  return createEmpty(b, loc,
                     RankedTensorType::get({rows, cols}, b.getF32Type()),
                     {numRows, Value()});
}

Value mlir::onnxc::linalg_conv::createRowLabels(OpBuilder &b, Location loc,
                                                Value x2, Value numRows) {
  int64_t rows = cast<RankedTensorType>(x2.getType()).getDimSize(0);
  return createEmpty(b, loc, RankedTensorType::get({rows}, b.getI64Type()),
                     {numRows});
}

void mlir::onnxc::linalg_conv::replaceWithCasts(
    ConversionPatternRewriter &rewriter, Operation *op,
    const TypeConverter *tc, ValueRange values) {
  SmallVector<Value> results;
  for (auto [v, r] : llvm::zip_equal(values, op->getResults()))
    results.push_back(
        castTo(rewriter, op->getLoc(), v, convertedTensorType(tc, r)));
  rewriter.replaceOp(op, results);
}

//===- Builders.cpp - IR builders shared by the onnx -> linalg patterns ---===//
//
// Implements Builders.h: the scalar builders (constants, comparisons,
// casts, clamps), index normalization and run-time index checks, loops.
// One set for every lowering file: no per-file copies.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace mlir::onnxc::linalg_conv {


RankedTensorType convertedTensorType(const TypeConverter *tc, Value v) {
  return cast<RankedTensorType>(tc->convertType(v.getType()));
}

Value toIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  if (v.getType().isIndex())
    return v;
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value normalizeIndex(OpBuilder &b, Location loc, Value i, Value dim) {
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                    createIndexConstant(b, loc, 0));
  return arith::SelectOp::create(b, loc, neg,
                                 arith::AddIOp::create(b, loc, i, dim), i);
}

Value indexInRange(OpBuilder &b, Location loc, Value i, Value dim) {
  Value negDim = arith::SubIOp::create(b, loc, createIndexConstant(b, loc, 0),
                                       dim);
  Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                   negDim);
  Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, dim);
  return arith::AndIOp::create(b, loc, lo, hi);
}

Value extractScalar(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> idx(type.getRank(), createIndexConstant(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, t, idx);
}

void checkEveryElement(
    OpBuilder &b, Location loc, Value indices, StringRef message,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> ok) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
  if (rank == 0) {
    // One index: a scalar test, no i1 tensor to allocate (a Gather by a
    // loop's iteration number checks once per iteration).
    Value v = tensor::ExtractOp::create(b, loc, indices, ValueRange{});
    emitRuntimeCheck(b, loc, ok(b, loc, v, {}), message);
    return;
  }
  auto i1 = b.getI1Type();
  // One op per statement: the IR order must not depend on the compiler's
  // order of evaluating arguments.
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, i1);
  Value allTrue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  Value init = linalg::FillOp::create(b, loc, allTrue, empty).getResult(0);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  Value all =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{indices},
          ValueRange{init},
          SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, {}, ctx)},
          iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> pos;
            for (int64_t d = 0; d < rank; ++d)
              pos.push_back(linalg::IndexOp::create(nb, l, d));
            Value v = ok(nb, l, args[0], pos);
            linalg::YieldOp::create(
                nb, l, ValueRange{arith::AndIOp::create(nb, l, args[1], v)});
          })
          .getResult(0);
  emitRuntimeCheck(b, loc, tensor::ExtractOp::create(b, loc, all, ValueRange{}),
                   message);
}

Value copyTensor(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  Value init = createEmptyLike(b, loc, type, t);
  return linalg::CopyOp::create(b, loc, t, init).getResult(0);
}

Value dimProduct(OpBuilder &b, Location loc, Value t, int64_t from,
                 int64_t to) {
  Value n = createIndexConstant(b, loc, 1);
  for (int64_t d = from; d < to; ++d)
    n = b.createOrFold<arith::MulIOp>(loc, n, getDimValue(b, loc, t, d));
  return n;
}

Value gatherGeneric(OpBuilder &b, Location loc, Value init, Value data,
                    GatherIndexFn indices) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> idx = indices(nb, l);
               linalg::YieldOp::create(
                   nb, l,
                   ValueRange{tensor::ExtractOp::create(nb, l, data, idx)});
             })
      .getResult(0);
}

Value indexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType type, ArrayRef<Value> sizes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> element) {
  int64_t rank = type.getRank();
  auto body = [&](OpBuilder &nb, Location l, ValueRange) {
    SmallVector<Value> iv;
    for (int64_t d = 0; d < rank; ++d)
      iv.push_back(linalg::IndexOp::create(nb, l, d));
    linalg::YieldOp::create(nb, l, element(nb, l, iv));
  };
  Value init = createEmpty(b, loc, type, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
             parallelIterators(rank), body)
      .getResult(0);
}

SmallVector<Value> buildLoops(OpBuilder &b, Location loc, ArrayRef<Value> ubs,
                              ValueRange iterArgs, LoopBody body) {
  SmallVector<Value> lbs(ubs.size(), createIndexConstant(b, loc, 0));
  SmallVector<Value> steps(ubs.size(), createIndexConstant(b, loc, 1));
  return scf::buildLoopNest(b, loc, lbs, ubs, steps, iterArgs,
                            [&](OpBuilder &nb, Location l, ValueRange ivs,
                                ValueRange args) -> scf::ValueVector {
                              return body(nb, l, ivs, args);
                            })
      .results;
}

SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value t) {
  SmallVector<Value> dims;
  for (int64_t d = 0, e = cast<RankedTensorType>(t.getType()).getRank(); d < e;
       ++d)
    dims.push_back(getDimValue(b, loc, t, d));
  return dims;
}



/// arith.cmpf.
Value cmpF(OpBuilder &b, Location l, arith::CmpFPredicate p, Value x, Value y) {
  return arith::CmpFOp::create(b, l, p, x, y);
}
/// A float constant of type `t`.
Value fConst(OpBuilder &b, Location l, Type t, double v) {
  return createScalarConstant(b, l, t, v);
}
/// An index constant.
Value idx(OpBuilder &b, Location l, int64_t v) {
  return createIndexConstant(b, l, v);
}
/// A constant of the (scalar) type of `like`.
Value cst(OpBuilder &b, Location l, Value like, double v) {
  return createScalarConstant(b, l, like.getType(), v);
}
Value addF(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AddFOp::create(b, l, x, y);
}
Value subF(OpBuilder &b, Location l, Value x, Value y) {
  return arith::SubFOp::create(b, l, x, y);
}
Value mulF(OpBuilder &b, Location l, Value x, Value y) {
  return arith::MulFOp::create(b, l, x, y);
}
Value divF(OpBuilder &b, Location l, Value x, Value y) {
  return arith::DivFOp::create(b, l, x, y);
}
Value select(OpBuilder &b, Location l, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, l, c, x, y);
}
Value andI(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AndIOp::create(b, l, x, y);
}
Type floatAccType(Type t) {
  return t.getIntOrFloatBitWidth() < 32 ? Float32Type::get(t.getContext()) : t;
}
Value convertFloat(OpBuilder &b, Location l, Value v, Type to) {
  return v.getType() == to ? v : convertScalar(b, l, v, v.getType(), to);
}
Value emptyTensor(OpBuilder &b, Location l, ArrayRef<Value> sizes, Type elt) {
  return tensor::EmptyOp::create(b, l, getAsOpFoldResult(sizes), elt);
}
Value filledTensor(OpBuilder &b, Location l, ArrayRef<Value> sizes, Type elt,
                   double v) {
  return linalg::FillOp::create(b, l, fConst(b, l, elt, v),
                                emptyTensor(b, l, sizes, elt))
      .getResult(0);
}
Value noValue(OpBuilder &b, Location l) {
  return ONNX::NoValueOp::create(b, l, b.getNoneType());
}
Value convertTensor(OpBuilder &b, Location l, Value t, Type to) {
  auto type = cast<RankedTensorType>(t.getType());
  if (type.getElementType() == to)
    return t;
  auto outType = RankedTensorType::get(type.getShape(), to);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
             b, l, TypeRange{outType}, ValueRange{t},
             ValueRange{createEmptyLike(b, l, outType, t)},
             SmallVector<AffineMap>{id, id}, parallelIterators(type.getRank()),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       convertFloat(nb, nl, args[0], to));
             })
      .getResult(0);
}
Value broadcastIndex(OpBuilder &b, Location l, Value t, int64_t dim, Value i) {
  auto type = cast<RankedTensorType>(t.getType());
  if (!type.isDynamicDim(dim))
    return type.getDimSize(dim) == 1 ? idx(b, l, 0) : i;
  Value one = cmpI(b, l, arith::CmpIPredicate::eq,
                   tensor::DimOp::create(b, l, t, dim), idx(b, l, 1));
  return select(b, l, one, idx(b, l, 0), i);
}
void checkBroadcastDim(OpBuilder &b, Location l, Value t, int64_t dim,
                       Value size, StringRef message) {
  auto type = cast<RankedTensorType>(t.getType());
  if (!type.isDynamicDim(dim) && type.getDimSize(dim) == 1)
    return;
  Value d = getDimValue(b, l, t, dim);
  // In the order g++ evaluated the call's arguments before (IR tests see it).
  Value isOne = cmpI(b, l, arith::CmpIPredicate::eq, d, idx(b, l, 1));
  Value isSize = cmpI(b, l, arith::CmpIPredicate::eq, d, size);
  Value ok = b.createOrFold<arith::OrIOp>(l, isSize, isOne);
  emitRuntimeCheck(b, l, ok, message, ValueRange{d, size});
}
Value notI(OpBuilder &b, Location l, Value x) {
  return arith::XOrIOp::create(
      b, l, x, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
}
/// std::max(x, y) = x < y ? y : x (NaN in x is kept, as in C++).
Value stdMax(OpBuilder &b, Location l, Value x, Value y) {
  return select(b, l, cmpF(b, l, arith::CmpFPredicate::OLT, x, y), y, x);
}
/// std::min(x, y) = y < x ? y : x.
Value stdMin(OpBuilder &b, Location l, Value x, Value y) {
  return select(b, l, cmpF(b, l, arith::CmpFPredicate::OLT, y, x), y, x);
}
Value addI(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(l, x, y);
}
Value subI(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(l, x, y);
}
Value mulI(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(l, x, y);
}
Value divI(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::DivSIOp>(l, x, y);
}
Value remI(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::RemSIOp>(l, x, y);
}
Value minIdx(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(l, x, y);
}
Value maxIdx(OpBuilder &b, Location l, Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(l, x, y);
}
/// An index value as a float of type `t`.
Value indexToF(OpBuilder &b, Location l, Value i, Type t) {
  Value v = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
  return arith::SIToFPOp::create(b, l, t, v);
}
/// A float that holds an integer value (or is clamped to hold one: NaN and
/// values beyond +-2^30 become +-2^30 first) as an index.
Value fToIndex(OpBuilder &b, Location l, Value f) {
  Type t = f.getType();
  f = arith::MinNumFOp::create(b, l, f, fConst(b, l, t, 1 << 30));
  f = arith::MaxNumFOp::create(b, l, f, fConst(b, l, t, -(1 << 30)));
  Value v = arith::FPToSIOp::create(b, l, b.getI64Type(), f);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}
/// min(max(i, 0), size - 1) on index values.
Value clampIdx(OpBuilder &b, Location l, Value i, Value size) {
  Value last = arith::SubIOp::create(b, l, size, idx(b, l, 1));
  return arith::MinSIOp::create(
      b, l, arith::MaxSIOp::create(b, l, i, idx(b, l, 0)), last);
}
/// The type arithmetic runs in: f64 when any of `types` is f64, else f32.
Type computeType(OpBuilder &b, ArrayRef<Type> types) {
  for (Type t : types)
    if (t.isF64())
      return b.getF64Type();
  return b.getF32Type();
}

/// Checks at run time that two sizes are equal (nothing when both are the
/// same constant).
void checkEqual(OpBuilder &b, Location loc, Value x, Value y,
                StringRef message) {
  emitRuntimeCheck(b, loc, cmpI(b, loc, arith::CmpIPredicate::eq, x, y),
                   message);
}

/// The sizes of `type` from `sizes`: static dims of the result type are
/// checked against the sizes computed from the operands.
void checkResultSizes(OpBuilder &b, Location loc, RankedTensorType type,
                      ArrayRef<Value> sizes, StringRef message) {
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!type.isDynamicDim(d))
      checkEqual(b, loc, sizes[d], idx(b, loc, type.getDimSize(d)), message);
}

/// The single element of the optional scalar operand `t` (a 0-D or
/// one-element tensor); its size is checked at run time when not static.
FailureOr<Value> scalarOperand(OpBuilder &b, Location loc, Operation *op,
                               Value t, StringRef name) {
  auto type = cast<RankedTensorType>(t.getType());
  if (type.hasStaticShape()) {
    if (type.getNumElements() != 1)
      return op->emitOpError(name) << " must have one element";
  } else {
    checkEqual(
        b, loc, dimProduct(b, loc, t, 0, type.getRank()), idx(b, loc, 1),
        (op->getName().stripDialect() + ": " + name + " must have one element")
            .str());
  }
  return extractScalar(b, loc, t);
}

/// scf.for iv in [lb, ub) by `step` carrying `iterArgs`.
SmallVector<Value> forRange(OpBuilder &b, Location loc, Value lb, Value ub,
                            Value step, ValueRange iterArgs, ForBody body) {
  auto forOp = scf::ForOp::create(
      b, loc, lb, ub, step, iterArgs,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, l, body(nb, l, iv, args));
      });
  return forOp.getResults();
}

Value lowerBound(OpBuilder &b, Location loc, int64_t n,
                 function_ref<Value(OpBuilder &, Location, Value)> before) {
  SmallVector<Value> range = buildWhile(
      b, loc, ValueRange{idx(b, loc, 0), idx(b, loc, n)},
      [&](OpBuilder &b, Location l, ValueRange r) {
        return cmpI(b, l, arith::CmpIPredicate::slt, r[0], r[1]);
      },
      [&](OpBuilder &b, Location l, ValueRange r) -> SmallVector<Value> {
        Value mid = arith::ShRUIOp::create(
            b, l, arith::AddIOp::create(b, l, r[0], r[1]), idx(b, l, 1));
        Value lt = before(b, l, mid);
        return {select(b, l, lt, arith::AddIOp::create(b, l, mid, idx(b, l, 1)),
                       r[0]),
                select(b, l, lt, r[1], mid)};
      });
  return minIdx(b, loc, range[0], idx(b, loc, n - 1));
}

Value f64Const(OpBuilder &b, Location loc, double v) {
  return createScalarConstant(b, loc, b.getF64Type(), v);
}

Value indexToF64(OpBuilder &b, Location loc, Value i) {
  Value v = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
  return arith::SIToFPOp::create(b, loc, b.getF64Type(), v);
}

/// `t` as a 1-D tensor<?xT> of its elements, row-major.
Value flatten(OpBuilder &b, Location l, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  Value flat;
  if (type.getRank() == 0) {
    flat = tensor::ExpandShapeOp::create(
        b, l, RankedTensorType::get({1}, type.getElementType()), t,
        ArrayRef<ReassociationIndices>{});
  } else if (type.getRank() == 1) {
    flat = t;
  } else {
    ReassociationIndices all;
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.push_back(d);
    flat = tensor::CollapseShapeOp::create(b, l, t,
                                           ArrayRef<ReassociationIndices>{all});
  }
  auto dyn = RankedTensorType::get({ShapedType::kDynamic},
                                   type.getElementType());
  if (flat.getType() != dyn)
    flat = tensor::CastOp::create(b, l, dyn, flat);
  return flat;
}

/// The element count of a ranked tensor.
Value numel(OpBuilder &b, Location l, Value t) {
  Value n = idx(b, l, 1);
  for (int64_t d = 0, e = cast<RankedTensorType>(t.getType()).getRank(); d < e;
       ++d)
    n = arith::MulIOp::create(b, l, n, getDimValue(b, l, t, d));
  return n;
}

/// Element `i` of the 1-D integer tensor `t` as an index value.
Value extractIndex(OpBuilder &b, Location loc, Value t, int64_t i) {
  Value e = tensor::ExtractOp::create(b, loc, t,
                                      ValueRange{createIndexConstant(b, loc, i)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
}

Value mulIdx(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulIOp::create(b, loc, x, y);
}

/// The result as a tensor.cast of `v` when the types differ (refinement).
Value castTo(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  if (v.getType() == type)
    return v;
  return tensor::CastOp::create(b, loc, type, v);
}

void checkStaticDim(OpBuilder &b, Location loc, RankedTensorType type,
                    int64_t dim, Value size, StringRef message) {
  if (type.isDynamicDim(dim))
    return;
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::eq, size,
                        createIndexConstant(b, loc, type.getDimSize(dim))),
                   message);
}

SmallVector<Value> delinearize(OpBuilder &b, Location l, Value p,
                               ArrayRef<Value> dims) {
  SmallVector<Value> idx(dims.size());
  for (int64_t d = dims.size() - 1; d >= 0; --d) {
    idx[d] = d == 0 ? p : Value(arith::RemUIOp::create(b, l, p, dims[d]));
    if (d > 0)
      p = arith::DivUIOp::create(b, l, p, dims[d]);
  }
  return idx;
}

} // namespace mlir::onnxc::linalg_conv

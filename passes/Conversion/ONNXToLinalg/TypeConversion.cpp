//===- TypeConversion.cpp - onnx types -> builtin types -------------------===//
//
// The type converter of convert-onnx-to-linalg (ONNXToLinalg.h). The ops
// whose lowering is only the type change are in their category's files
// (Constant: Generator.cpp, Identity: Tensor.cpp); the entry point that
// collects every category's patterns is in the pass file,
// ONNXToLinalgPass.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/NarrowTypes.h"
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

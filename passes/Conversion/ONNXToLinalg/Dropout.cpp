//===- Dropout.cpp - Dropout -> linalg ------------------------------------===//
//
// Dropout (ONNX's nn category), in inference and training mode. In training
// mode it draws from the random ops' Philox stream (Random.h): element i
// is kept iff word w0 of its block is >= ceil(ratio * 2^32)
// (docs/codegen.md#random-numbers).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Random.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;
using namespace mlir::onnxc::linalg_conv::rng;

namespace {

/// Dropout. Without training (training_mode absent or false) or with a
/// ratio of 0 it is the identity with an all-true mask. In training mode
/// y = x * mask / (1 - ratio), mask = (w0 >= ceil(ratio * 2^32)), keeping
/// each element with probability 1 - ratio (within 2^-32); ratio (default
/// 0.5) must be in [0, 1): a constant outside is an error, a run-time one
/// a run-time check. A run-time training_mode picks one of the two at run
/// time (scf.if): the identity draws no random numbers.
struct DropoutLowering : OpConversionPattern<ONNX::DropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool hasTraining = !isa<NoneType>(op.getTrainingMode().getType());
    bool hasRatio = !isa<NoneType>(op.getRatio().getType());
    std::optional<SmallVector<int64_t>> training;
    if (hasTraining)
      training =
          getConstantInts(op.getTrainingMode(), adaptor.getTrainingMode());
    std::optional<SmallVector<double>> ratio;
    if (hasRatio) {
      ratio = getConstantFloats(op.getRatio(), adaptor.getRatio());
      if (ratio && ratio->size() != 1)
        return op.emitOpError("ratio must be a scalar");
      if (ratio && !((*ratio)[0] >= 0 && (*ratio)[0] < 1)) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", (*ratio)[0]);
        return op.emitOpError("ratio ") << text << " is outside [0, 1)";
      }
    }
    if (training && training->size() != 1)
      return op.emitOpError("training_mode must be a scalar");
    bool neverTrains = !hasTraining || (training && (*training)[0] == 0) ||
                       (ratio && (*ratio)[0] == 0);

    Value x = adaptor.getData();
    auto type = convertedTensorType(getTypeConverter(), op.getOutput());
    bool wantMask = !isa<NoneType>(op.getMask().getType());
    RankedTensorType maskType;
    if (wantMask)
      maskType = convertedTensorType(getTypeConverter(), op.getMask());
    if (x.getType() != type)
      x = tensor::CastOp::create(rewriter, loc, type, x);

    // The identity and an all-true mask.
    auto identity = [&](OpBuilder &b, Location l) {
      SmallVector<Value> r = {x};
      if (wantMask) {
        Value empty = createEmptyLike(b, l, maskType, x);
        Value t = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
        r.push_back(linalg::FillOp::create(b, l, t, empty).getResult(0));
      }
      return r;
    };
    auto train = [&](OpBuilder &b, Location l) {
      Type elt = type.getElementType();
      Type ct = elt.isF64() ? b.getF64Type() : b.getF32Type();
      // A run-time ratio in f64, checked.
      Value r;
      if (!ratio && hasRatio) {
        r = toFloat(b, l, extractScalar(b, l, adaptor.getRatio()),
                    b.getF64Type());
        Value below1 =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, r,
                                  createScalarConstant(b, l, r.getType(), 1));
        Value atLeast0 =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, r,
                                  createScalarConstant(b, l, r.getType(), 0));
        Value ok = arith::AndIOp::create(b, l, atLeast0, below1);
        emitRuntimeCheck(b, l, ok, "Dropout: ratio must be in [0, 1)");
      }
      // threshold = min(ceil(ratio * 2^32), 2^32 - 1), scale = 1 / (1 -
      // ratio) in f64 rounded to the compute type: constants when ratio
      // is.
      Value thr, scale;
      if (ratio || !hasRatio) {
        double rc = ratio ? (*ratio)[0] : 0.5;
        double t = std::min(std::ceil(rc * 4294967296.0), 4294967295.0);
        thr = i32Const(b, l, (uint32_t)t);
        scale = createScalarConstant(b, l, ct, 1.0 / (1.0 - rc));
      } else {
        Value scaled = math::CeilOp::create(
            b, l,
            arith::MulFOp::create(
                b, l, r, createScalarConstant(b, l, r.getType(), 4294967296.0)));
        Value thr64 = arith::FPToUIOp::create(b, l, b.getI64Type(), scaled);
        thr64 =
            arith::MinUIOp::create(b, l, thr64, i64Const(b, l, 0xFFFFFFFFull));
        thr = arith::TruncIOp::create(b, l, b.getI32Type(), thr64);
        Value kept = arith::SubFOp::create(
            b, l, createScalarConstant(b, l, r.getType(), 1), r);
        scale = arith::DivFOp::create(
            b, l, createScalarConstant(b, l, r.getType(), 1), kept);
        scale = toFloat(b, l, scale, ct);
      }
      Value zero = createScalarConstant(b, l, ct, 0);

      SmallVector<Value> sizes = sizesOf(b, l, x, type);
      SmallVector<Value> inits = {createEmpty(b, l, type, sizes)};
      if (wantMask)
        inits.push_back(createEmpty(b, l, maskType, sizes));
      Stream s = emitStream(b, l, op);
      return buildRandomGeneric(
          b, l, inits, x, sizes, s,
          [&](OpBuilder &nb, Location nl, ArrayRef<Value> w, ValueRange args) {
            Value keep = arith::CmpIOp::create(
                nb, nl, arith::CmpIPredicate::uge, w[0], thr);
            // mask * x * scale: a dropped inf or NaN gives NaN, as the spec's.
            Value f = arith::SelectOp::create(nb, nl, keep, scale, zero);
            Value v = arith::MulFOp::create(nb, nl, toFloat(nb, nl, args[0], ct),
                                            f);
            SmallVector<Value> r = {toFloat(nb, nl, v, elt)};
            if (wantMask)
              r.push_back(keep);
            return r;
          });
    };

    SmallVector<Value> results;
    if (neverTrains)
      results = identity(rewriter, loc);
    else if (training)
      results = train(rewriter, loc);
    else {
      SmallVector<Type> types = {type};
      if (wantMask)
        types.push_back(maskType);
      Value t = extractScalar(rewriter, loc, adaptor.getTrainingMode());
      auto ifOp = scf::IfOp::create(rewriter, loc, types, t,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(rewriter, loc, train(rewriter, loc));
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(rewriter, loc, identity(rewriter, loc));
      }
      results = ifOp.getResults();
    }
    if (!wantMask)
      results.push_back(
          ONNX::NoValueOp::create(rewriter, loc, rewriter.getNoneType()));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateDropoutPatterns(TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<DropoutLowering>(tc, patterns.getContext());
}

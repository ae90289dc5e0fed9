//===- MLLinear.cpp - ai.onnx.ml linear models and SVMs -------------------===//
//
// LinearRegressor, LinearClassifier, SVMRegressor and SVMClassifier. The
// weights (coefficients, support vectors) are attributes: they become
// constant tables, and the scores are scf loops per row over them (X cast
// to float, as ONNX Runtime does). The label choice, the binary cases and
// the post transforms follow ONNX Runtime's kernels (linearclassifier.cc,
// svmclassifier.cc, ml_common.h's batched_update_scores_inplace): one score
// takes only PROBIT, a one-score binary classifier writes [1 - p, p] (p the
// score, or its logistic under LOGISTIC; [-s, s] for an SVM without post
// transform). SVMClassifier's probabilities (prob_a, prob_b) are LIBSVM's
// pairwise coupling, iterated per row as ORT does.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// X as [N, F] (a 1-D X is one row), with F checked against `features`.
FailureOr<Value> rowsWithFeatures(OpBuilder &b, Location loc, Operation *op,
                                  Value x, int64_t features) {
  auto xt = cast<RankedTensorType>(x.getType());
  if (xt.getRank() != 1 && xt.getRank() != 2)
    return op->emitOpError("X must be 1-D or 2-D");
  Value x2 = mlRows2D(b, loc, x);
  auto x2t = cast<RankedTensorType>(x2.getType());
  if (!x2t.isDynamicDim(1)) {
    if (x2t.getDimSize(1) != features)
      return op->emitOpError("X has ")
             << x2t.getDimSize(1) << " features, the model " << features;
  } else {
    Value cols = getDimValue(b, loc, x2, 1);
    emitRuntimeCheck(b, loc,
                     cmpI(b, loc, arith::CmpIPredicate::eq, cols,
                          idx(b, loc, features)),
                     "X has {} features, the model " + std::to_string(features),
                     ValueRange{cols});
  }
  return x2;
}

/// sum_c x[row, c] * table[base + c] over c < features, in f32.
Value dotRow(OpBuilder &b, Location l, Value x, Type xOnnx, Value row,
             Value table, Value base, int64_t features) {
  Type f32 = b.getF32Type();
  return buildLoops(b, l, {idx(b, l, features)},
                    ValueRange{fConst(b, l, f32, 0)},
                    [&](OpBuilder &b, Location l, ValueRange c,
                        ValueRange a) -> SmallVector<Value> {
                      Value v = tensor::ExtractOp::create(
                          b, l, x, ValueRange{row, c[0]});
                      v = convertScalar(b, l, v, xOnnx, f32);
                      Value w = tensor::ExtractOp::create(
                          b, l, table,
                          ValueRange{arith::AddIOp::create(b, l, base, c[0])});
                      return {addF(b, l, a[0], mulF(b, l, v, w))};
                    })[0];
}

/// The first index of the largest of `values` (std::max_element).
std::pair<Value, Value> argmaxFirst(OpBuilder &b, Location l,
                                    ArrayRef<Value> values) {
  Value best = values[0], at = idx(b, l, 0);
  for (size_t k = 1; k < values.size(); ++k) {
    Value gt = values[k].getType().isIndex() || isa<IntegerType>(values[k].getType())
                   ? cmpI(b, l, arith::CmpIPredicate::sgt, values[k], best)
                   : cmpF(b, l, arith::CmpFPredicate::OGT, values[k], best);
    best = select(b, l, gt, values[k], best);
    at = select(b, l, gt, idx(b, l, k), at);
  }
  return {at, best};
}

Value i64c(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, b.getI64Type(), v);
}

Value putZ(OpBuilder &b, Location l, Value z, Value row, int64_t k, Value v) {
  return tensor::InsertOp::create(b, l, v, z, ValueRange{row, idx(b, l, k)});
}

struct LinearRegressorLowering
    : OpConversionPattern<ONNX::MLLinearRegressorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLLinearRegressorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PostTransform> post =
        parsePostTransform(op, op.getPostTransform());
    if (failed(post))
      return failure();
    int64_t targets = op.getTargets();
    if (targets <= 0)
      return op.emitOpError("targets must be positive");
    SmallVector<double> coef =
        getFloatList(op, "coefficients").value_or(SmallVector<double>());
    if (coef.empty() || coef.size() % targets != 0)
      return op.emitOpError("coefficients must hold targets (")
             << targets << ") rows of features, it has " << coef.size()
             << " values";
    int64_t features = coef.size() / targets;
    SmallVector<double> intercepts =
        getFloatList(op, "intercepts").value_or(SmallVector<double>());
    // ORT uses the intercepts only when there is one per target.
    if ((int64_t)intercepts.size() != targets)
      intercepts.assign(targets, 0.0);
    FailureOr<Value> x2 =
        rowsWithFeatures(rewriter, loc, op, adaptor.getX(), features);
    if (failed(x2))
      return failure();
    Type f32 = rewriter.getF32Type();
    Value coefTable = floatTable(rewriter, loc, f32, coef);
    Value rows = getDimValue(rewriter, loc, *x2, 0);
    Value y = createRowScores(rewriter, loc, *x2, rows, targets);
    Type xOnnx = getElementType(op.getX());
    PostTransform kind = *post;
    if (targets == 1 && kind != PostTransform::Probit)
      kind = PostTransform::None;
    y = buildLoops(
        rewriter, loc, {rows}, ValueRange{y},
        [&](OpBuilder &b, Location l, ValueRange r,
            ValueRange a) -> SmallVector<Value> {
          Value z = a[0];
          for (int64_t t = 0; t < targets; ++t) {
            Value s = dotRow(b, l, *x2, xOnnx, r[0], coefTable,
                             idx(b, l, t * features), features);
            s = addF(b, l, s, fConst(b, l, f32, intercepts[t]));
            z = putZ(b, l, z, r[0], t, s);
          }
          return {applyPostTransformRow(b, l, z, r[0], targets, kind)};
        })[0];
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

struct LinearClassifierLowering
    : OpConversionPattern<ONNX::MLLinearClassifierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLLinearClassifierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PostTransform> post =
        parsePostTransform(op, op.getPostTransform());
    if (failed(post))
      return failure();
    // classlabels_strings: their indices stand in for them until Y is
    // mapped to the strings (Strings.h).
    ArrayRef<int64_t> labels = getI64List(op, "classlabels_ints");
    SmallVector<StringRef> strLabels = getStringLabels(op);
    SmallVector<int64_t> indices = labelIndices(strLabels.size());
    if (!strLabels.empty()) {
      if (!labels.empty())
        return op.emitOpError("has both classlabels_ints and "
                              "classlabels_strings");
      if (strLabels.size() < 2)
        return op.emitOpError("classlabels_strings needs at least 2 labels");
      labels = indices;
    }
    if (labels.empty())
      return op.emitOpError("classlabels_ints (or classlabels_strings) is "
                            "required");
    SmallVector<double> intercepts =
        getFloatList(op, "intercepts").value_or(SmallVector<double>());
    if (intercepts.empty())
      return op.emitOpError("intercepts is required (one per class score)");
    int64_t classes = intercepts.size();
    ArrayRef<float> coefF = op.getCoefficients();
    SmallVector<double> coef(coefF.begin(), coefF.end());
    if (coef.empty() || coef.size() % classes != 0)
      return op.emitOpError("coefficients must hold ")
             << classes << " rows (one per intercept), it has " << coef.size()
             << " values";
    if (classes > 1 && (int64_t)labels.size() != classes)
      return op.emitOpError("has ") << classes << " class scores but "
                                    << labels.size() << " labels";
    bool addSecond = classes == 1 && labels.size() == 2;
    if (addSecond && *post == PostTransform::Probit)
      return op.emitOpError("PROBIT on a one-score binary classifier is not "
                            "supported (ONNX Runtime's output is undefined)");
    int64_t features = coef.size() / classes;
    FailureOr<Value> x2 =
        rowsWithFeatures(rewriter, loc, op, adaptor.getX(), features);
    if (failed(x2))
      return failure();
    Type f32 = rewriter.getF32Type();
    Value coefTable = floatTable(rewriter, loc, f32, coef);
    Value labelTable = i64Table(rewriter, loc, labels);
    Value rows = getDimValue(rewriter, loc, *x2, 0);
    Value z = createRowScores(rewriter, loc, *x2, rows, addSecond ? 2 : classes);
    Value y = createRowLabels(rewriter, loc, *x2, rows);
    Type xOnnx = getElementType(op.getX());
    PostTransform kind = *post;
    SmallVector<Value> out = buildLoops(
        rewriter, loc, {rows}, ValueRange{z, y},
        [&](OpBuilder &b, Location l, ValueRange r,
            ValueRange a) -> SmallVector<Value> {
          Value row = r[0];
          SmallVector<Value> scores;
          for (int64_t c = 0; c < classes; ++c)
            scores.push_back(addF(b, l,
                                  dotRow(b, l, *x2, xOnnx, row, coefTable,
                                         idx(b, l, c * features), features),
                                  fConst(b, l, f32, intercepts[c])));
          Value zr = a[0], label;
          if (classes == 1) {
            Value s = scores[0];
            Value pos = cmpF(b, l, arith::CmpFPredicate::OGT, s,
                             fConst(b, l, f32, 0));
            label = select(b, l, pos, i64c(b, l, labels.size() == 2 ? labels[1] : 1),
                           i64c(b, l, labels.size() == 2 ? labels[0] : 0));
            if (addSecond) {
              // ORT: [1 - p, p], p the logistic of the score under
              // LOGISTIC, else the score itself.
              Value p = kind == PostTransform::Logistic ? mlLogistic(b, l, s) : s;
              zr = putZ(b, l, zr, row, 0, subF(b, l, fConst(b, l, f32, 1), p));
              zr = putZ(b, l, zr, row, 1, p);
            } else {
              zr = putZ(b, l, zr, row, 0,
                        kind == PostTransform::Probit ? mlProbit(b, l, s) : s);
            }
          } else {
            Value at = argmaxFirst(b, l, scores).first;
            label = tensor::ExtractOp::create(b, l, labelTable, at);
            for (int64_t c = 0; c < classes; ++c)
              zr = putZ(b, l, zr, row, c, scores[c]);
            zr = applyPostTransformRow(b, l, zr, row, classes, kind);
          }
          Value yr = tensor::InsertOp::create(b, l, label, a[1], ValueRange{row});
          return {zr, yr};
        });
    Value labelsOut = out[1];
    if (!strLabels.empty())
      labelsOut = mapStringLabels(rewriter, loc, op, labelsOut, strLabels);
    replaceWithCasts(rewriter, op, getTypeConverter(), {labelsOut, out[0]});
    return success();
  }
};

enum class Kernel { Linear, Poly, Rbf, Sigmoid };

/// The coupling below is unrolled over the classes.
constexpr int64_t kMaxProbaClasses = 32;

/// Class probabilities from the pairwise scores (LIBSVM's second method,
/// ORT's multiclass_probability, in f32): r[i][j] = clamp(1 -
/// logistic(s * A + B), 1e-7, 1 - 1e-7) for the pair (i, j), r[j][i] =
/// 1 - r[i][j]; Q from r; then at most 100 rounds of the fixed-point update
/// of p, stopping when every |Qp[i] - pQp| < 0.005 / classes. Q is built
/// at run time once per row (scalars); the rounds are an scf.while
/// carrying p.
SmallVector<Value> pairwiseCoupling(OpBuilder &b, Location l,
                                    ArrayRef<Value> scores,
                                    ArrayRef<double> probA,
                                    ArrayRef<double> probB, int64_t k) {
  Type f32 = b.getF32Type();
  auto c = [&](double v) { return fConst(b, l, f32, v); };
  std::vector<std::vector<Value>> r(k, std::vector<Value>(k, c(0)));
  int64_t p = 0;
  for (int64_t i = 0; i + 1 < k; ++i)
    for (int64_t j = i + 1; j < k; ++j, ++p) {
      Value v = addF(b, l, mulF(b, l, scores[p], c(probA[p])), c(probB[p]));
      Value val1 = subF(b, l, c(1), mlLogistic(b, l, v));
      Value val2 = stdMax(b, l, val1, c(1.0e-7));
      val2 = stdMin(b, l, val2, c(1 - 1.0e-7f));
      r[i][j] = val2;
      r[j][i] = subF(b, l, c(1), val2);
    }
  std::vector<std::vector<Value>> q(k, std::vector<Value>(k, c(0)));
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < i; ++j) {
      q[i][i] = addF(b, l, q[i][i], mulF(b, l, r[j][i], r[j][i]));
      q[i][j] = q[j][i];
    }
    for (int64_t j = i + 1; j < k; ++j) {
      q[i][i] = addF(b, l, q[i][i], mulF(b, l, r[j][i], r[j][i]));
      q[i][j] = arith::NegFOp::create(b, l, mulF(b, l, r[j][i], r[i][j]));
    }
  }
  float eps = 0.005f / (float)k;
  SmallVector<Value> inits(k, c(1.0f / (float)k));
  inits.push_back(idx(b, l, 0));
  inits.push_back(arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
  // Carried: p[0..k), the round, and whether to go on (not converged).
  SmallVector<Value> out = buildWhile(
      b, l, inits,
      [&](OpBuilder &b, Location l, ValueRange w) {
        return andI(b, l, w[k + 1],
                    cmpI(b, l, arith::CmpIPredicate::slt, w[k], idx(b, l, 100)));
      },
      [&](OpBuilder &b, Location l, ValueRange w) -> SmallVector<Value> {
        SmallVector<Value> pv(w.begin(), w.begin() + k);
        auto qp = [&](int64_t i) {
          Value acc = c(0);
          for (int64_t j = 0; j < k; ++j)
            acc = addF(b, l, acc, mulF(b, l, q[i][j], pv[j]));
          return acc;
        };
        SmallVector<Value> qpv;
        Value pqp = c(0);
        for (int64_t i = 0; i < k; ++i) {
          qpv.push_back(qp(i));
          pqp = addF(b, l, pqp, mulF(b, l, pv[i], qpv[i]));
        }
        Value maxErr = c(0);
        for (int64_t i = 0; i < k; ++i) {
          Value e = math::AbsFOp::create(b, l, subF(b, l, qpv[i], pqp));
          maxErr = select(b, l, cmpF(b, l, arith::CmpFPredicate::OGT, e, maxErr),
                          e, maxErr);
        }
        Value more = cmpF(b, l, arith::CmpFPredicate::UGE, maxErr, c(eps));
        // The update, kept only when not converged.
        SmallVector<Value> np(pv), nqp(qpv);
        Value npqp = pqp;
        for (int64_t i = 0; i < k; ++i) {
          Value diff = divF(b, l, addF(b, l, arith::NegFOp::create(b, l, nqp[i]),
                                       npqp),
                            q[i][i]);
          np[i] = addF(b, l, np[i], diff);
          Value onePlus = addF(b, l, c(1), diff);
          npqp = divF(b, l,
                      divF(b, l,
                           addF(b, l, npqp,
                                mulF(b, l, diff,
                                     addF(b, l, mulF(b, l, diff, q[i][i]),
                                          mulF(b, l, c(2), nqp[i])))),
                           onePlus),
                      onePlus);
          for (int64_t j = 0; j < k; ++j) {
            nqp[j] = divF(b, l, addF(b, l, nqp[j], mulF(b, l, diff, q[i][j])),
                          onePlus);
            np[j] = divF(b, l, np[j], onePlus);
          }
        }
        SmallVector<Value> next;
        for (int64_t i = 0; i < k; ++i)
          next.push_back(select(b, l, more, np[i], pv[i]));
        next.push_back(arith::AddIOp::create(b, l, w[k], idx(b, l, 1)));
        next.push_back(more);
        return next;
      });
  out.resize(k);
  return out;
}

/// The SVM kernel and its parameters (gamma, coef0, degree).
struct SvmKernel {
  Kernel kind = Kernel::Linear;
  float gamma = 0, coef0 = 0, degree = 0;

  static FailureOr<SvmKernel> parse(Operation *op) {
    SvmKernel k;
    StringRef name = op->getAttrOfType<StringAttr>("kernel_type")
                         ? op->getAttrOfType<StringAttr>("kernel_type").getValue()
                         : "LINEAR";
    if (name == "LINEAR")
      k.kind = Kernel::Linear;
    else if (name == "POLY")
      k.kind = Kernel::Poly;
    else if (name == "RBF")
      k.kind = Kernel::Rbf;
    else if (name == "SIGMOID")
      k.kind = Kernel::Sigmoid;
    else
      return op->emitOpError("kernel_type must be LINEAR, POLY, RBF or "
                             "SIGMOID, not '")
             << name << "'";
    SmallVector<double> p =
        getFloatList(op, "kernel_params").value_or(SmallVector<double>());
    if (!p.empty()) {
      if (p.size() != 3)
        return op->emitOpError("kernel_params must be [gamma, coef0, degree]");
      k.gamma = p[0];
      k.coef0 = p[1];
      k.degree = p[2];
    }
    return k;
  }

  /// K(x[row], table[base .. base + features)) in f32, as ORT's
  /// batched_kernel_dot.
  Value build(OpBuilder &b, Location l, Value x, Type xOnnx, Value row,
              Value table, Value base, int64_t features) const {
    Type f32 = b.getF32Type();
    if (kind == Kernel::Rbf) {
      Value sum = buildLoops(
          b, l, {idx(b, l, features)}, ValueRange{fConst(b, l, f32, 0)},
          [&](OpBuilder &b, Location l, ValueRange c,
              ValueRange a) -> SmallVector<Value> {
            Value v = convertScalar(
                b, l, tensor::ExtractOp::create(b, l, x, ValueRange{row, c[0]}),
                xOnnx, f32);
            Value w = tensor::ExtractOp::create(
                b, l, table, ValueRange{arith::AddIOp::create(b, l, base, c[0])});
            Value d = subF(b, l, v, w);
            return {addF(b, l, a[0], mulF(b, l, d, d))};
          })[0];
      return math::ExpOp::create(
          b, l, mulF(b, l, fConst(b, l, f32, -gamma), sum));
    }
    Value dot = dotRow(b, l, x, xOnnx, row, table, base, features);
    if (kind == Kernel::Linear)
      return dot;
    Value t = addF(b, l, mulF(b, l, fConst(b, l, f32, gamma), dot),
                   fConst(b, l, f32, coef0));
    if (kind == Kernel::Sigmoid)
      return math::TanhOp::create(b, l, t);
    if (degree == 2)
      return mulF(b, l, t, t);
    if (degree == 3)
      return mulF(b, l, mulF(b, l, t, t), t);
    return math::PowFOp::create(b, l, t, fConst(b, l, f32, degree));
  }
};

struct SVMRegressorLowering : OpConversionPattern<ONNX::MLSVMRegressorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLSVMRegressorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // ORT applies no post transform to an SVMRegressor; NONE only.
    if (op.getPostTransform() != "NONE")
      return op.emitOpError("post_transform must be NONE (ONNX Runtime "
                            "applies none to SVMRegressor), not '")
             << op.getPostTransform() << "'";
    FailureOr<SvmKernel> kernel = SvmKernel::parse(op);
    if (failed(kernel))
      return failure();
    SmallVector<double> coef =
        getFloatList(op, "coefficients").value_or(SmallVector<double>());
    SmallVector<double> rho =
        getFloatList(op, "rho").value_or(SmallVector<double>());
    SmallVector<double> sv =
        getFloatList(op, "support_vectors").value_or(SmallVector<double>());
    if (coef.empty())
      return op.emitOpError("coefficients must not be empty");
    if (rho.empty())
      return op.emitOpError("rho must not be empty");
    int64_t nsv = op.getNSupports();
    if (nsv < 0)
      return op.emitOpError("n_supports must not be negative");
    int64_t features;
    SvmKernel k = *kernel;
    if (nsv > 0) {
      if (sv.empty() || sv.size() % nsv != 0 || (int64_t)coef.size() < nsv)
        return op.emitOpError("support_vectors must hold n_supports (")
               << nsv << ") vectors and coefficients one weight per vector";
      features = sv.size() / nsv;
    } else {
      features = coef.size();
      k.kind = Kernel::Linear;
    }
    FailureOr<Value> x2 =
        rowsWithFeatures(rewriter, loc, op, adaptor.getX(), features);
    if (failed(x2))
      return failure();
    Type f32 = rewriter.getF32Type();
    Value coefTable = floatTable(rewriter, loc, f32, coef);
    Value svTable = nsv > 0 ? floatTable(rewriter, loc, f32, sv) : Value();
    Value rows = getDimValue(rewriter, loc, *x2, 0);
    Value y = createRowScores(rewriter, loc, *x2, rows, 1);
    Type xOnnx = getElementType(op.getX());
    bool oneClass = op.getOneClass() != 0;
    y = buildLoops(
        rewriter, loc, {rows}, ValueRange{y},
        [&](OpBuilder &b, Location l, ValueRange r,
            ValueRange a) -> SmallVector<Value> {
          Value s;
          if (nsv > 0) {
            s = buildLoops(
                b, l, {idx(b, l, nsv)}, ValueRange{fConst(b, l, f32, 0)},
                [&](OpBuilder &b, Location l, ValueRange j,
                    ValueRange acc) -> SmallVector<Value> {
                  Value kv = k.build(b, l, *x2, xOnnx, r[0], svTable,
                                     mulIdx(b, l, j[0], idx(b, l, features)),
                                     features);
                  Value c = tensor::ExtractOp::create(b, l, coefTable, j[0]);
                  return {addF(b, l, acc[0], mulF(b, l, c, kv))};
                })[0];
          } else {
            s = dotRow(b, l, *x2, xOnnx, r[0], coefTable, idx(b, l, 0),
                       features);
          }
          s = addF(b, l, s, fConst(b, l, f32, rho[0]));
          if (oneClass)
            s = select(b, l,
                       cmpF(b, l, arith::CmpFPredicate::OGT, s,
                            fConst(b, l, f32, 0)),
                       fConst(b, l, f32, 1), fConst(b, l, f32, -1));
          return {putZ(b, l, a[0], r[0], 0, s)};
        })[0];
    replaceWithCasts(rewriter, op, getTypeConverter(), y);
    return success();
  }
};

/// SVMClassifier's attributes, checked: the support vectors per class
/// (`start` of each class's first, `vectors` in all; none: a linear
/// classifier, one coefficient row per class), the pairwise rho and, with
/// prob_a and prob_b, the probability coupling.
struct SvmClassifier {
  SmallVector<int64_t> labels;   ///< classlabels_ints, or the indices of
  SmallVector<StringRef> strLabels; ///< classlabels_strings

  int64_t classes = 0;
  SmallVector<double> coef, rho, sv;
  ArrayRef<int64_t> perClass;
  SmallVector<double> probA, probB;
  bool proba = false;
  SmallVector<int64_t> start;
  int64_t vectors = 0;
  bool svc = false;
  SvmKernel k;
  int64_t features = 0, pairs = 0;

  static FailureOr<SvmClassifier> read(ONNX::MLSVMClassifierOp op,
                                       SvmKernel kernel, PostTransform post);
};

FailureOr<SvmClassifier> SvmClassifier::read(ONNX::MLSVMClassifierOp op,
                                             SvmKernel kernel,
                                             PostTransform post) {
  SvmClassifier m;
  SmallVector<int64_t> &labels = m.labels;
  int64_t &classes = m.classes;
  SmallVector<double> &coef = m.coef, &rho = m.rho, &sv = m.sv;
  ArrayRef<int64_t> &perClass = m.perClass;
  SmallVector<double> &probA = m.probA, &probB = m.probB;
  bool &proba = m.proba, &svc = m.svc;
  SmallVector<int64_t> &start = m.start;
  int64_t &vectors = m.vectors, &features = m.features, &pairs = m.pairs;
  SvmKernel &k = m.k;
  k = kernel;
  labels = llvm::to_vector(getI64List(op, "classlabels_ints"));
  m.strLabels = getStringLabels(op);
  if (!m.strLabels.empty()) {
    if (!labels.empty())
      return op.emitOpError("has both classlabels_ints and "
                            "classlabels_strings");
    labels = labelIndices(m.strLabels.size());
  }
  classes = labels.size();
  if (classes < 2)
    return op.emitOpError("classlabels_ints (or classlabels_strings) must "
                          "have at least 2 labels");
  coef = getFloatList(op, "coefficients").value_or(SmallVector<double>());
  rho = getFloatList(op, "rho").value_or(SmallVector<double>());
  sv = getFloatList(op, "support_vectors").value_or(SmallVector<double>());
  perClass = getI64List(op, "vectors_per_class");
  probA = getFloatList(op, "prob_a").value_or(SmallVector<double>());
  probB = getFloatList(op, "prob_b").value_or(SmallVector<double>());
  if (probA.size() != probB.size())
    return op.emitOpError("prob_a and prob_b must have as many values (")
           << probA.size() << " and " << probB.size() << ")";
  proba = !probA.empty();
  if (coef.empty())
    return op.emitOpError("coefficients must not be empty");
  if (rho.empty())
    return op.emitOpError("rho must not be empty");
  for (int64_t v : perClass) {
    if (v < 0)
      return op.emitOpError("vectors_per_class must not be negative");
    start.push_back(vectors);
    vectors += v;
  }
  svc = vectors > 0;
  pairs = classes * (classes - 1) / 2;
  if (svc) {
    if ((int64_t)perClass.size() != classes)
      return op.emitOpError("vectors_per_class must have one entry per "
                            "class (")
             << classes << ")";
    if (sv.size() % vectors != 0 || sv.empty())
      return op.emitOpError("support_vectors must hold ")
             << vectors << " vectors";
    features = sv.size() / vectors;
    if ((int64_t)coef.size() < (classes - 1) * vectors)
      return op.emitOpError("coefficients must hold ")
             << (classes - 1) * vectors << " values (classes - 1 rows of "
             << vectors << ")";
    if ((int64_t)rho.size() < pairs)
      return op.emitOpError("rho must hold one value per pair of classes (")
             << pairs << ")";
    if (proba && (int64_t)probA.size() < pairs)
      return op.emitOpError("prob_a and prob_b must hold one value per pair "
                            "of classes (")
             << pairs << ")";
    if (proba && classes > kMaxProbaClasses)
      return op.emitOpError("probability estimates for more than ")
             << kMaxProbaClasses << " classes are not supported";
    if (classes == 2 && !proba && post == PostTransform::Probit)
      return op.emitOpError("PROBIT on a binary SVC is not supported (ONNX "
                            "Runtime's second score is undefined)");
  } else {
    if (coef.size() % classes != 0)
      return op.emitOpError("coefficients must hold one row per class");
    features = coef.size() / classes;
    k.kind = Kernel::Linear;
  }
  return m;
}

struct SVMClassifierLowering : OpConversionPattern<ONNX::MLSVMClassifierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLSVMClassifierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PostTransform> post =
        parsePostTransform(op, op.getPostTransform());
    if (failed(post))
      return failure();
    FailureOr<SvmKernel> kernel = SvmKernel::parse(op);
    if (failed(kernel))
      return failure();
    FailureOr<SvmClassifier> model = SvmClassifier::read(op, *kernel, *post);
    if (failed(model))
      return failure();
    const SvmClassifier &m = *model;
    ArrayRef<int64_t> labels = m.labels, perClass = m.perClass;
    const SmallVector<double> &coef = m.coef, &rho = m.rho, &sv = m.sv,
                              &probA = m.probA, &probB = m.probB;
    const SmallVector<int64_t> &start = m.start;
    ArrayRef<StringRef> strLabels = m.strLabels;
    int64_t classes = m.classes, vectors = m.vectors, features = m.features,
            pairs = m.pairs;
    bool proba = m.proba, svc = m.svc;
    SvmKernel k = m.k;
    bool allPositive = llvm::all_of(coef, [](double c) { return c >= 0; });
    FailureOr<Value> x2 =
        rowsWithFeatures(rewriter, loc, op, adaptor.getX(), features);
    if (failed(x2))
      return failure();
    Type f32 = rewriter.getF32Type();
    Value coefTable = floatTable(rewriter, loc, f32, coef);
    Value svTable = svc ? floatTable(rewriter, loc, f32, sv) : Value();
    Value labelTable = i64Table(rewriter, loc, labels);
    Value rows = getDimValue(rewriter, loc, *x2, 0);
    int64_t zCols = !svc || proba ? classes : (classes > 2 ? pairs : 2);
    Value z = createRowScores(rewriter, loc, *x2, rows, zCols);
    Value y = createRowLabels(rewriter, loc, *x2, rows);
    Type xOnnx = getElementType(op.getX());
    PostTransform kind = *post;
    SmallVector<Value> out = buildLoops(
        rewriter, loc, {rows}, ValueRange{z, y},
        [&](OpBuilder &b, Location l, ValueRange r,
            ValueRange a) -> SmallVector<Value> {
          Value row = r[0];
          Value zr = a[0], label;
          auto sumRange = [&](int64_t coefBase, int64_t from, int64_t n,
                              Value kernels) {
            // sum_m coef[coefBase + from + m] * kernels[from + m].
            return buildLoops(
                b, l, {idx(b, l, n)}, ValueRange{fConst(b, l, f32, 0)},
                [&](OpBuilder &b, Location l, ValueRange m,
                    ValueRange acc) -> SmallVector<Value> {
                  Value j = arith::AddIOp::create(b, l, m[0], idx(b, l, from));
                  Value c = tensor::ExtractOp::create(
                      b, l, coefTable,
                      ValueRange{arith::AddIOp::create(b, l, j,
                                                       idx(b, l, coefBase))});
                  Value kv = tensor::ExtractOp::create(b, l, kernels, j);
                  return {addF(b, l, acc[0], mulF(b, l, c, kv))};
                })[0];
          };
          if (!svc) {
            // liblinear: one score per class, the label the first largest.
            SmallVector<Value> scores;
            for (int64_t c = 0; c < classes; ++c)
              scores.push_back(addF(
                  b, l,
                  dotRow(b, l, *x2, xOnnx, row, coefTable,
                         idx(b, l, c * features), features),
                  fConst(b, l, f32, rho[0])));
            auto [at, maxWeight] = argmaxFirst(b, l, scores);
            label = tensor::ExtractOp::create(b, l, labelTable, at);
            if (classes == 2 && !proba) {
              // ORT's ChooseClass without probabilities.
              Value win = allPositive
                              ? cmpF(b, l, arith::CmpFPredicate::OGE, maxWeight,
                                     fConst(b, l, f32, 0.5))
                              : cmpF(b, l, arith::CmpFPredicate::OGT, maxWeight,
                                     fConst(b, l, f32, 0));
              label = select(b, l, win, i64c(b, l, labels[1]), label);
            }
            for (int64_t c = 0; c < classes; ++c)
              zr = putZ(b, l, zr, row, c, scores[c]);
            zr = applyPostTransformRow(b, l, zr, row, classes, kind);
          } else {
            // Kernels against every support vector, then one score per
            // pair of classes (i < j) and a vote for its winner.
            Value kernels = tensor::EmptyOp::create(
                b, l, ArrayRef<int64_t>{vectors}, f32);
            kernels = buildLoops(
                b, l, {idx(b, l, vectors)}, ValueRange{kernels},
                [&](OpBuilder &b, Location l, ValueRange j,
                    ValueRange acc) -> SmallVector<Value> {
                  Value kv = k.build(b, l, *x2, xOnnx, row, svTable,
                                     mulIdx(b, l, j[0], idx(b, l, features)),
                                     features);
                  return {tensor::InsertOp::create(b, l, kv, acc[0], j[0])};
                })[0];
            SmallVector<Value> votes(classes, i64c(b, l, 0));
            SmallVector<Value> scores;
            int64_t p = 0;
            for (int64_t i = 0; i + 1 < classes; ++i)
              for (int64_t j = i + 1; j < classes; ++j, ++p) {
                Value s = addF(
                    b, l, sumRange(vectors * (j - 1), start[i], perClass[i], kernels),
                    sumRange(vectors * i, start[j], perClass[j], kernels));
                s = addF(b, l, s, fConst(b, l, f32, rho[p]));
                scores.push_back(s);
                Value pos = cmpF(b, l, arith::CmpFPredicate::OGT, s,
                                 fConst(b, l, f32, 0));
                Value one = i64c(b, l, 1), zero = i64c(b, l, 0);
                votes[i] = arith::AddIOp::create(b, l, votes[i],
                                                 select(b, l, pos, one, zero));
                votes[j] = arith::AddIOp::create(b, l, votes[j],
                                                 select(b, l, pos, zero, one));
              }
            Value at = argmaxFirst(b, l, votes).first;
            label = tensor::ExtractOp::create(b, l, labelTable, at);
            if (proba) {
              SmallVector<Value> prob =
                  pairwiseCoupling(b, l, scores, probA, probB, classes);
              for (int64_t c = 0; c < classes; ++c)
                zr = putZ(b, l, zr, row, c, prob[c]);
              zr = applyPostTransformRow(b, l, zr, row, classes, kind);
            } else if (classes == 2) {
              // ORT: [-s, s] without post transform, else [1 - p, p], p
              // the logistic of s under LOGISTIC, else s.
              Value s = scores[0];
              bool none = kind == PostTransform::None;
              if (kind == PostTransform::Logistic)
                s = mlLogistic(b, l, s);
              zr = putZ(b, l, zr, row, 0,
                        none ? arith::NegFOp::create(b, l, s).getResult()
                             : subF(b, l, fConst(b, l, f32, 1), s));
              zr = putZ(b, l, zr, row, 1, s);
            } else {
              for (int64_t q = 0; q < pairs; ++q)
                zr = putZ(b, l, zr, row, q, scores[q]);
              zr = applyPostTransformRow(b, l, zr, row, pairs, kind);
            }
          }
          Value yr = tensor::InsertOp::create(b, l, label, a[1], ValueRange{row});
          return {zr, yr};
        });
    Value labelsOut = out[1];
    if (!strLabels.empty())
      labelsOut = mapStringLabels(rewriter, loc, op, labelsOut, strLabels);
    replaceWithCasts(rewriter, op, getTypeConverter(), {labelsOut, out[0]});
    return success();
  }
};

} // namespace

void mlir::onnxc::populateMLLinearPatterns(TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<LinearRegressorLowering, LinearClassifierLowering,
               SVMRegressorLowering, SVMClassifierLowering>(
      tc, patterns.getContext());
}

//===- RulesML.cpp - onnxc's inference rules: ai.onnx.ml and functions ----===//
//
// Ops whose libonnx 1.12 schema has no inference function: the comparison
// and normalization ops defined as functions, and a few ai.onnx.ml ops.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::onnxc;

/// GreaterOrEqual-16, LessOrEqual-16: broadcast, bool.
static LogicalResult inferCompare(Operation *op, const ONNX::OpInfo &,
                                  InferenceState &) {
  SmallVector<SmallVector<SymDim>> shapes;
  for (Value v : op->getOperands()) {
    auto r = llvm::dyn_cast<RankedTensorType>(v.getType());
    if (!r)
      return refineResult(
          op, 0,
          UnrankedTensorType::get(IntegerType::get(op->getContext(), 1)));
    shapes.push_back(getSymDims(r));
  }
  std::string error;
  SmallVector<ArrayRef<SymDim>> refs(shapes.begin(), shapes.end());
  FailureOr<SmallVector<SymDim>> out = broadcastShapes(refs, error);
  if (failed(out))
    return op->emitOpError() << error;
  return refineResult(
      op, 0, getSymTensorType(*out, IntegerType::get(op->getContext(), 1)));
}

/// The shape of input 0 with element type `elt`.
static LogicalResult sameShape(Operation *op, Type elt) {
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!t)
    return success();
  return refineResult(op, 0, t.clone(elt));
}

static LogicalResult inferFloatSameShape(Operation *op, const ONNX::OpInfo &,
                                         InferenceState &) {
  return sameShape(op, Float32Type::get(op->getContext()));
}

/// LinearRegressor, SVMRegressor: (N, C) -> (N, targets) float.
static LogicalResult inferRegressor(Operation *op, const ONNX::OpInfo &,
                                    InferenceState &) {
  int64_t targets = getIntAttr(op, "targets", 1);
  if (op->getName().getStringRef() == "onnx.ml.SVMRegressor")
    targets = 1;
  SymDim n;
  if (RankedTensorType x = getRankedOperand(op, 0))
    n = x.getRank() == 2 ? SymDim::of(x, 0) : SymDim{1, ""};
  return refineResult(op, 0,
                      getSymTensorType({n, SymDim{targets, ""}},
                                       Float32Type::get(op->getContext())));
}

/// ArrayFeatureExtractor: X (..., C), Y indices -> (..., numel(Y)).
static LogicalResult inferArrayFeatureExtractor(Operation *op,
                                                const ONNX::OpInfo &,
                                                InferenceState &) {
  Type elt = getElementTypeOf(op->getOperand(0));
  RankedTensorType x = getRankedOperand(op, 0);
  RankedTensorType y = getRankedOperand(op, 1);
  if (!elt)
    return success();
  if (!x || x.getRank() == 0)
    return refineResult(op, 0, UnrankedTensorType::get(elt));
  SmallVector<SymDim> dims = getSymDims(x);
  dims.back() =
      y && y.hasStaticShape() ? SymDim{y.getNumElements(), ""} : SymDim();
  if (dims.size() == 1)
    dims.insert(dims.begin(), SymDim{1, ""});
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

/// OneHotEncoder: X dims + [categories], float.
static LogicalResult inferOneHotEncoder(Operation *op, const ONNX::OpInfo &,
                                        InferenceState &) {
  Type f32 = Float32Type::get(op->getContext());
  RankedTensorType x = getRankedOperand(op, 0);
  if (!x)
    return refineResult(op, 0, UnrankedTensorType::get(f32));
  int64_t n = ShapedType::kDynamic;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("cats_int64s"))
    n = a.size();
  else if (auto s = op->getAttrOfType<ArrayAttr>("cats_strings"))
    n = s.size();
  SmallVector<SymDim> dims = getSymDims(x);
  dims.push_back(SymDim{n, ""});
  return refineResult(op, 0, getSymTensorType(dims, f32));
}

/// FeatureVectorizer: (N, sum(inputdimensions)) float.
static LogicalResult inferFeatureVectorizer(Operation *op, const ONNX::OpInfo &,
                                            InferenceState &) {
  SymDim n;
  if (RankedTensorType x = getRankedOperand(op, 0))
    if (x.getRank() == 2)
      n = SymDim::of(x, 0);
  SymDim c;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("inputdimensions")) {
    c.size = 0;
    for (int64_t d : a.asArrayRef())
      c.size += d;
  }
  return refineResult(
      op, 0, getSymTensorType({n, c}, Float32Type::get(op->getContext())));
}

/// The rows of an ml op's X: dim 0 of a 2-D X, 1 for a 1-D X.
static SymDim mlRows(Operation *op) {
  if (RankedTensorType x = getRankedOperand(op, 0))
    return x.getRank() == 2 ? SymDim::of(x, 0) : SymDim{1, ""};
  return SymDim();
}

/// TreeEnsembleRegressor: (N, C) -> (N, n_targets) float.
static LogicalResult inferTreeRegressor(Operation *op, const ONNX::OpInfo &,
                                        InferenceState &) {
  int64_t targets = getIntAttr(op, "n_targets", ShapedType::kDynamic);
  return refineResult(op, 0,
                      getSymTensorType({mlRows(op), SymDim{targets, ""}},
                                       Float32Type::get(op->getContext())));
}

/// The class count of a classifier: its labels (int64 or string).
static int64_t numClassLabels(Operation *op) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("classlabels_ints"))
    return a.size();
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("classlabels_int64s"))
    return a.size();
  if (auto a = op->getAttrOfType<ArrayAttr>("classlabels_strings"))
    return a.size();
  return ShapedType::kDynamic;
}

/// The label type of a classifier: string with classlabels_strings.
static Type classLabelType(Operation *op) {
  if (op->getAttrOfType<ArrayAttr>("classlabels_strings"))
    return ONNX::StringType::get(op->getContext());
  return IntegerType::get(op->getContext(), 64);
}

/// TreeEnsembleClassifier: Y (N) labels, Z (N, classes) float.
static LogicalResult inferTreeClassifier(Operation *op, const ONNX::OpInfo &,
                                         InferenceState &) {
  SymDim n = mlRows(op);
  if (failed(refineResult(op, 0, getSymTensorType({n}, classLabelType(op)))))
    return failure();
  return refineResult(op, 1,
                      getSymTensorType({n, SymDim{numClassLabels(op), ""}},
                                       Float32Type::get(op->getContext())));
}

/// The length of float list attribute `name` (or its _as_tensor form).
static int64_t floatListSize(Operation *op, StringRef name) {
  if (auto a = op->getAttrOfType<DenseF32ArrayAttr>(name))
    return a.size();
  return 0;
}

/// LinearClassifier: Y (N), Z (N, scores): one score per intercept, two for
/// one score and two labels (ONNX Runtime's binary form).
static LogicalResult inferLinearClassifier(Operation *op, const ONNX::OpInfo &,
                                           InferenceState &) {
  SymDim n = mlRows(op);
  if (failed(refineResult(op, 0, getSymTensorType({n}, classLabelType(op)))))
    return failure();
  int64_t scores = floatListSize(op, "intercepts");
  int64_t labels = numClassLabels(op);
  int64_t cols = scores == 1 && labels == 2 ? 2
                 : scores > 0               ? scores
                                            : ShapedType::kDynamic;
  return refineResult(op, 1,
                      getSymTensorType({n, SymDim{cols, ""}},
                                       Float32Type::get(op->getContext())));
}

/// SVMClassifier: Y (N), Z (N, scores): with support vectors and no
/// probabilities one score per pair of classes (2 for two classes), else
/// one per class.
static LogicalResult inferSVMClassifier(Operation *op, const ONNX::OpInfo &,
                                        InferenceState &) {
  SymDim n = mlRows(op);
  if (failed(refineResult(op, 0, getSymTensorType({n}, classLabelType(op)))))
    return failure();
  int64_t classes = numClassLabels(op);
  int64_t vectors = 0;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("vectors_per_class"))
    for (int64_t v : a.asArrayRef())
      vectors += v;
  bool proba = floatListSize(op, "prob_a") > 0;
  int64_t cols = classes;
  if (!ShapedType::isDynamic(classes) && vectors > 0 && !proba)
    cols = classes > 2 ? classes * (classes - 1) / 2 : 2;
  return refineResult(op, 1,
                      getSymTensorType({n, SymDim{cols, ""}},
                                       Float32Type::get(op->getContext())));
}

/// CategoryMapper: X's shape, strings to int64 and int64 to strings.
static LogicalResult inferCategoryMapper(Operation *op, const ONNX::OpInfo &,
                                         InferenceState &) {
  auto t = llvm::dyn_cast<TensorType>(op->getOperand(0).getType());
  if (!t)
    return success();
  MLIRContext *ctx = op->getContext();
  Type elt = llvm::isa<ONNX::StringType>(t.getElementType())
                 ? Type(IntegerType::get(ctx, 64))
                 : Type(ONNX::StringType::get(ctx));
  return sameShape(op, elt);
}

/// LabelEncoder-4: X's shape, the element type of the values_* set.
static LogicalResult inferLabelEncoder(Operation *op, const ONNX::OpInfo &,
                                       InferenceState &) {
  MLIRContext *ctx = op->getContext();
  Type elt;
  if (op->getAttr("values_floats"))
    elt = Float32Type::get(ctx);
  else if (op->getAttr("values_int64s"))
    elt = IntegerType::get(ctx, 64);
  else if (op->getAttr("values_strings"))
    elt = ONNX::StringType::get(ctx);
  else if (auto t = op->getAttrOfType<ElementsAttr>("values_tensor"))
    elt = t.getElementType();
  if (!elt)
    return success();
  return sameShape(op, elt);
}

/// TreeEnsemble-5: (N, F) -> (N, n_targets) of X's type.
static LogicalResult inferTreeEnsemble(Operation *op, const ONNX::OpInfo &,
                                       InferenceState &) {
  Type elt = getElementTypeOf(op->getOperand(0));
  if (!elt)
    return success();
  int64_t targets = getIntAttr(op, "n_targets", ShapedType::kDynamic);
  return refineResult(op, 0,
                      getSymTensorType({mlRows(op), SymDim{targets, ""}}, elt));
}

/// DictVectorizer: a map -> [1, vocabulary size] of the map's value type
/// (ONNX Runtime's shape).
static LogicalResult inferDictVectorizer(Operation *op, const ONNX::OpInfo &,
                                         InferenceState &) {
  auto map = llvm::dyn_cast<ONNX::MapType>(op->getOperand(0).getType());
  auto values = map ? llvm::dyn_cast<TensorType>(map.getValueType())
                    : TensorType();
  if (!values)
    return success();
  int64_t n = 0;
  if (auto v = op->getAttrOfType<DenseI64ArrayAttr>("int64_vocabulary"))
    n = v.size();
  else if (auto v = op->getAttrOfType<ArrayAttr>("string_vocabulary"))
    n = v.size();
  return refineResult(op, 0,
                      getSymTensorType({SymDim{1, ""}, SymDim{n, ""}},
                                       values.getElementType()));
}

/// CastMap: a map -> [1, its size] (DENSE) or [1, max_map] (SPARSE) of
/// cast_to's type.
static LogicalResult inferCastMap(Operation *op, const ONNX::OpInfo &,
                                  InferenceState &) {
  MLIRContext *ctx = op->getContext();
  auto castTo = op->getAttrOfType<StringAttr>("cast_to");
  StringRef to = castTo ? castTo.getValue() : "TO_FLOAT";
  Type elt = to == "TO_STRING" ? Type(ONNX::StringType::get(ctx))
             : to == "TO_INT64" ? Type(IntegerType::get(ctx, 64))
                                : Type(Float32Type::get(ctx));
  auto form = op->getAttrOfType<StringAttr>("map_form");
  SymDim n;
  if (form && form.getValue() == "SPARSE")
    n = SymDim{getIntAttr(op, "max_map", 1), ""};
  return refineResult(op, 0, getSymTensorType({SymDim{1, ""}, n}, elt));
}

void mlir::onnxc::registerMLRules(llvm::StringMap<InferenceRule> &rules) {
  rules["onnx.ml.DictVectorizer"] = inferDictVectorizer;
  rules["onnx.ml.CastMap"] = inferCastMap;
  rules["onnx.ml.CategoryMapper"] = inferCategoryMapper;
  rules["onnx.GreaterOrEqual"] = inferCompare;
  rules["onnx.LessOrEqual"] = inferCompare;
  rules["onnx.MeanVarianceNormalization"] = inferSameAsInput;
  rules["onnx.ml.Binarizer"] = inferSameAsInput;
  rules["onnx.ml.Imputer"] = inferSameAsInput;
  rules["onnx.ml.Normalizer"] = inferFloatSameShape;
  rules["onnx.ml.Scaler"] = inferFloatSameShape;
  rules["onnx.ml.LinearRegressor"] = inferRegressor;
  rules["onnx.ml.SVMRegressor"] = inferRegressor;
  rules["onnx.ml.ArrayFeatureExtractor"] = inferArrayFeatureExtractor;
  rules["onnx.ml.OneHotEncoder"] = inferOneHotEncoder;
  rules["onnx.ml.FeatureVectorizer"] = inferFeatureVectorizer;
  rules["onnx.ml.TreeEnsembleRegressor"] = inferTreeRegressor;
  rules["onnx.ml.TreeEnsemble"] = inferTreeEnsemble;
  rules["onnx.ml.LabelEncoder"] = inferLabelEncoder;
  rules["onnx.ml.TreeEnsembleClassifier"] = inferTreeClassifier;
  rules["onnx.ml.LinearClassifier"] = inferLinearClassifier;
  rules["onnx.ml.SVMClassifier"] = inferSVMClassifier;
}

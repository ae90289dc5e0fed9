//===- ONNXToLinalg.h - onnx -> linalg/tensor/arith/math/scf ----*- C++ -*-===//
//
// The entry points of the conversion out of the onnx dialect. Preconditions:
// shape inference has run (every value a ranked tensor), absent optionals are
// `none` values of onnx.NoValue.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxc {

/// Converts onnx types to builtin ones: tensors lose the #onnx.dims
/// encoding, `uiN`/`siN` elements become `iN`; `i1` and float elements stay.
/// Tensors of other element types (string, complex, float8, int4) have no
/// conversion.
void populateONNXToLinalgTypeConversion(TypeConverter &typeConverter);

/// The patterns that lower every supported onnx op (ONNXToLinalgPass.cpp:
/// every category file's populate function below).
///
/// This header is the conversion's interface: each populate function below
/// is implemented in the file it names, the type conversion in
/// TypeConversion.cpp.
void populateONNXToLinalgConversionPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns);

/// The ops of onnx/defs/math, logical, tensor and nn lowered to one
/// broadcasting elementwise generic each (Elementwise.h): Abs, Exp, ...,
/// the activations (MathUnary.cpp); Add, Div, Pow, Mod, Max, Sum, PRelu,
/// Clip, ... (MathBinary.cpp); And, Or, Not, the comparisons, the bit ops
/// (Logical.cpp); Cast, CastLike, IsNaN, IsInf, Where
/// (TensorElementwise.cpp); Shrink (Shrink.cpp).
void populateMathUnaryPatterns(TypeConverter &tc, RewritePatternSet &patterns);
void populateMathBinaryPatterns(TypeConverter &tc, RewritePatternSet &patterns);
void populateLogicalPatterns(TypeConverter &tc, RewritePatternSet &patterns);
void populateTensorElementwisePatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns);
void populateShrinkPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Expand (Expand.cpp).
void populateExpandPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// MatMul, Gemm, MatMulInteger, QLinearMatMul (MatMul.cpp).
void populateMatMulPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// The Reduce* ops, ArgMax, ArgMin (Reduction.cpp).
void populateReductionPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Shape, Size, Reshape, Squeeze, Unsqueeze, Transpose, Concat, Identity
/// (Tensor.cpp).
void populateTensorPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Flatten (Flatten.cpp).
void populateFlattenPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Tile, Slice, Split (Slice.cpp).
void populateSlicePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Gather, GatherElements, GatherND (Gather.cpp).
void populateGatherPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// ScatterElements, ScatterND, Scatter, TensorScatter (Scatter.cpp).
void populateScatterPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// OneHot, NonZero, Trilu, Compress, ReverseSequence (Indexing.cpp).
void populateIndexingPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// TopK (TopK.cpp).
void populateTopKPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// CumSum (CumSum.cpp).
void populateCumSumPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear (Quantize.cpp).
void populateQuantizePatterns(TypeConverter &tc, RewritePatternSet &patterns);

/// Conv, ConvTranspose, ConvInteger, QLinearConv (Conv.cpp).
void populateConvPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Col2Im (Col2Im.cpp).
void populateCol2ImPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// DeformConv (DeformConv.cpp).
void populateDeformConvPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// MaxPool, AveragePool, LpPool, Global*Pool, MaxRoiPool (Pooling.cpp).
void populatePoolingPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// BatchNormalization, InstanceNormalization, LayerNormalization,
/// GroupNormalization, LpNormalization, LRN, MeanVarianceNormalization
/// (Normalization.cpp).
void populateNormalizationPatterns(TypeConverter &tc,
                                   RewritePatternSet &patterns);
/// Pad (Pad.cpp).
void populatePadPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Resize, Upsample (Resize.cpp).
void populateResizePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Sequence*, SplitToSequence, ConcatFromSequence, SequenceMap
/// (Sequence.cpp).
void populateSequencePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Optional, OptionalHasElement, OptionalGetElement (Optional.cpp).
void populateOptionalPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Scan, ScanV8 -> scf.for (Scan.cpp).
void populateScanPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// If, Loop and onnx.Yield -> scf (ControlFlow.cpp).
void populateControlFlowPatterns(TypeConverter &tc,
                                 RewritePatternSet &patterns);
/// DepthToSpace, SpaceToDepth (DepthToSpace.cpp).
void populateDepthToSpacePatterns(TypeConverter &tc,
                                  RewritePatternSet &patterns);
/// Einsum (Einsum.cpp).
void populateEinsumPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike,
/// Bernoulli, Multinomial (Random.cpp).
void populateRandomPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Constant, ConstantOfShape, Range, EyeLike (Generator.cpp).
void populateGeneratorPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Softmax, LogSoftmax, Hardmax (Softmax.cpp).
void populateSoftmaxPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Dropout (Dropout.cpp).
void populateDropoutPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// RNN, GRU, LSTM (Recurrent.cpp).
void populateRecurrentPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss (Loss.cpp).
void populateLossPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// MaxUnpool (Unpool.cpp).
void populateUnpoolPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Det (Det.cpp).
void populateDetPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// Unique (Unique.cpp).
void populateUniquePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// HannWindow, HammingWindow, BlackmanWindow, DFT, STFT, MelWeightMatrix
/// (Signal.cpp).
void populateSignalPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// GridSample (GridSample.cpp).
void populateGridSamplePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// RoiAlign, NonMaxSuppression (ObjectDetection.cpp).
void populateObjectDetectionPatterns(TypeConverter &tc,
                                     RewritePatternSet &patterns);
/// StringConcat, StringNormalizer, StringSplit, RegexFullMatch (Strings.cpp;
/// Cast and Equal on strings are in TensorElementwise.cpp and Logical.cpp,
/// string constants in Generator.cpp, CategoryMapper in MLPreprocess.cpp).
void populateStringPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// TfIdfVectorizer (TfIdf.cpp).
void populateTfIdfPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// ai.onnx.ml TreeEnsembleRegressor, TreeEnsembleClassifier (MLTree.cpp).
void populateMLTreePatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// ai.onnx.ml LinearRegressor, LinearClassifier, SVMRegressor,
/// SVMClassifier (MLLinear.cpp).
void populateMLLinearPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// ai.onnx.ml Scaler, Normalizer, Binarizer, Imputer, ArrayFeatureExtractor,
/// OneHotEncoder, LabelEncoder, FeatureVectorizer, CategoryMapper
/// (MLPreprocess.cpp).
void populateMLPreprocessPatterns(TypeConverter &tc,
                                  RewritePatternSet &patterns);
/// ai.onnx.ml ZipMap, DictVectorizer, CastMap (MLMaps.cpp).
void populateMLMapPatterns(TypeConverter &tc, RewritePatternSet &patterns);
/// RMSNormalization, RotaryEmbedding (Transformer.cpp), and Attention
/// through populateAttentionPatterns (Attention.cpp).
void populateTransformerPatterns(TypeConverter &tc,
                                 RewritePatternSet &patterns);
void populateAttentionPatterns(TypeConverter &tc, RewritePatternSet &patterns);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

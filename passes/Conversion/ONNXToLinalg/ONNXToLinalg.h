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

/// The patterns that lower every supported onnx op.
void populateONNXToLinalgConversionPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

//===- Quantize.h - Linear quantization of a scalar ---------------*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Quantize.cpp: the scalar step of
// QuantizeLinear, DynamicQuantizeLinear and QLinearMatMul (MatMul.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_QUANTIZE_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_QUANTIZE_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

namespace mlir::onnxc::linalg_conv {

/// saturate(roundeven(v) + zp) into the onnx integer type `onnxOut`, with `v`
/// and `zp` (null: none) floats of the same type; for a float8 `onnxOut`,
/// v + zp cast with `saturate` (Cast's rules, NarrowTypes.cpp).
Value quantize(OpBuilder &b, Location l, Value v, Value zp, Type onnxOut,
               bool saturate = true);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_QUANTIZE_H

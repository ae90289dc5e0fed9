//===- Constants.h - Reading and making onnx.Constant tensors ---*- C++ -*-===//
//
// The constant data the graph passes fold (onnx-graph-optimize,
// onnx-promote-f16): raw bytes of dense and resource attributes, new
// constants (resource blobs above 1 KiB, as the importer makes them), and
// float conversions.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_CONSTANTS_H
#define ONNXC_PASSES_ONNX_CONSTANTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlir::onnxc {

/// Bytes per element of a fixed-width element type (0 if not byte-sized).
size_t elementBytes(Type t);

/// The raw contents (row-major, every element) of an onnx.Constant with a
/// dense or resource `value` of a byte-sized int or float type.
std::optional<std::vector<char>> getConstantBytes(Value v);

/// An onnx.Constant of `type` holding `bytes` (a resource blob named after
/// `name` above 1 KiB, a dense attribute below).
Value createConstant(OpBuilder &builder, Location loc, RankedTensorType type,
                     ArrayRef<char> bytes, StringRef name);

/// Float values of constant bytes of element type f32 or f64.
std::optional<std::vector<double>> asDoubles(ArrayRef<char> bytes, Type t);

/// `values` as the bytes of element type f32 or f64.
std::vector<char> fromDoubles(ArrayRef<double> values, Type t);

/// An IEEE half (binary16) as a float: exact for every value, NaN payloads
/// and signs kept.
float halfToFloat(uint16_t h);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_ONNX_CONSTANTS_H

//===- QuantizedPacking.h - Compile-time packing of int8 weights -*- C++ -*-===//
//
// The layouts runtime_abi.h gives for weights the compiler packs
// (ONNXC_Q_B_PACKED): a convolution's weights as int8 rows, a product's B as
// uint8 panels, each followed by its int32 sums. Internal to
// convert-onnx-quantized-to-ukernel.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_QUANTIZEDPACKING_H
#define ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_QUANTIZEDPACKING_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::onnxc::qukernel {

/// The bytes of an 8-bit onnx.Constant (its `value`: dense or a resource
/// blob), row-major; nothing when `v` is not one.
std::optional<std::vector<uint8_t>> constantBytes(Value v);

/// The convolution's weights W[rows][k] (rows = groups * out_channels,
/// k = in_channels * kernel_h * kernel_w) as runtime_abi.h's packed rows:
/// per row 4 * ceil(k / 4) int8 (W, or W - 128 for uint8 weights), then one
/// int32 row sum per row (little-endian). With hwcTaps (kernel_h *
/// kernel_w; in_channels a multiple of 4), each row in ONNXC_Q_W_HWC's
/// (kh, kw, c) order; 0: (c, kh, kw).
std::vector<uint8_t> packConvWeights(const std::vector<uint8_t> &w,
                                     int64_t rows, int64_t k, bool isSigned,
                                     int64_t hwcTaps = 0);

/// A product's B[k][n] as runtime_abi.h's packed panels: ceil(n / 32)
/// panels of ceil(k / 4) x 32 x 4 uint8 (B + 128 for int8 B, B for uint8),
/// then n int32 column sums.
std::vector<uint8_t> packGemmB(const std::vector<uint8_t> &b, int64_t k,
                               int64_t n, bool isSigned);

} // namespace mlir::onnxc::qukernel

#endif // ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_QUANTIZEDPACKING_H

//===- ResizeTables.h - Resize's attributes and tap tables ------*- C++ -*-===//
//
// Internal to the Resize lowerings: the attributes of a Resize as one
// struct, and the per-dim tap tables (input indices and weights per output
// index) computed at compile time for static sizes and constant scales.
// Resize.cpp's generic reads the tables; ONNXToUkernel/ResizeToUkernel.cpp
// hands them to the runtime's onnxc_rt_resize2d.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H

#include "dialects/ONNX/IR/ONNXOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxc::resize {

enum class Interp { Nearest, Linear, Cubic };
enum class Coord {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
enum class Rounding { PreferFloor, PreferCeil, Floor, Ceil };

/// Everything a resize needs besides its operands.
struct ResizeParams {
  Interp interp = Interp::Nearest;
  Coord coord = Coord::HalfPixel;
  Rounding rounding = Rounding::PreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0;
  StringRef policy = "stretch";
  bool antialias = false; // linear and cubic only
};


/// The taps and weights of one resized dim computed at compile time (static
/// sizes, a constant scale): for output index o, taps[o * n + k] and, for
/// linear, weights[o * n + k]. The arithmetic is the generic's, op for op in
/// f64, so the result is the same bit for bit; only the per-element
/// coordinate math (divisions, rounding, conversions: most of a resize's
/// time) leaves the loop.
struct TapTable {
  int64_t taps = 0; // per output index
  std::vector<int64_t> index;
  std::vector<double> weight;
};

/// The attributes of `op` (mode, coordinate_transformation_mode,
/// nearest_mode, antialias, keep_aspect_ratio_policy, cubic_coeff_a,
/// exclude_outside, extrapolation_value) into `p` and its axes (normalized,
/// all dims when absent) into `axes`, for a result of rank `rank`. On an
/// unsupported or invalid value, false with the reason in `error`.
bool readResizeAttributes(ONNX::ResizeOp op, int64_t rank, ResizeParams &p,
                          SmallVectorImpl<int64_t> &axes, std::string &error);

/// The antialias window of one resized dim (ORT's window_size): the filter's
/// support (1 for linear, 2 for cubic) stretched by 1/scale when
/// downsampling, both sides, plus one.
int64_t antialiasWindow(const ResizeParams &p, double s);

/// The source coordinate of output index `o` (f64, as the generic computes
/// it) along a dim of `inSize` resized to `outSize` by scale `s`.
double sourceCoordinate(const ResizeParams &p, int64_t o, int64_t inSize,
                        int64_t outSize, double s);

/// The tap table of one dim of `inSize` resized to `outSize` by the
/// constant scale `s`: nearest, linear, or antialias (linear and cubic);
/// std::nullopt when the mode has no table (cubic without antialias,
/// tf_crop_and_resize).
std::optional<TapTable> computeTapTable(const ResizeParams &p, int64_t inSize,
                                        int64_t outSize, double s);

} // namespace mlir::onnxc::resize

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H

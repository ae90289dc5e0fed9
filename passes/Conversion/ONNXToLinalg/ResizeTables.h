//===- ResizeTables.h - Resize's tap tables ----------------------*- C++
//-*-===//
//
// What Resize.cpp's lowering and its tap tables (ResizeTables.cpp) share:
// the modes, the parameters, and the tables of taps and weights per resized
// dim, constant (static sizes, a constant scale) or, for antialias, built
// at run time by the runtime (onnxc_rt_resize_aa_table).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H

#include "mlir/IR/Builders.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::onnxc::linalg_conv::resize {

enum class Interp { Nearest, Linear, Cubic };
/// In the order of the runtime's ONNXC_RESIZE_* (runtime_abi.h).
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

/// Largest number of taps one result element may read.
constexpr int64_t kMaxTaps = 4096;

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

/// Whether an optional Resize operand is not given: none, or an empty
/// tensor (opset 11's way of leaving out scales or roi).
bool isAbsent(Value operand);

/// The tap table of one dim of `inSize` resized to `outSize` by the
/// constant scale `s`: nearest, linear, or antialias (linear and cubic);
/// std::nullopt when the mode has no table (cubic without antialias,
/// tf_crop_and_resize). ResizeToUkernel.cpp hands these to the runtime.
std::optional<TapTable> computeTapTable(const ResizeParams &p, int64_t inSize,
                                        int64_t outSize, double s);

/// The attributes of `op` (mode, coordinate_transformation_mode,
/// nearest_mode, antialias, keep_aspect_ratio_policy, cubic_coeff_a,
/// exclude_outside, extrapolation_value) into `p` and its axes (normalized,
/// all dims when absent) into `axes`, for a result of rank `rank`. On an
/// unsupported or invalid value, false with the reason in `error`.
bool readResizeAttributes(ONNX::ResizeOp op, int64_t rank, ResizeParams &p,
                          SmallVectorImpl<int64_t> &axes, std::string &error);

/// The tap tables of the resized dims with static sizes and a constant
/// scale (null where a dim has none): tap indices (i64) and weights (f64,
/// none for nearest), `taps` per output index.
struct TapTables {
  SmallVector<Value> index, weight;
  SmallVector<int64_t> taps;
};

TapTables buildTapTables(OpBuilder &b, Location loc, RankedTensorType xt,
                         RankedTensorType type, const ResizeParams &p,
                         ArrayRef<bool> resized,
                         ArrayRef<std::optional<double>> constScales);

/// The antialias table of one resized dim built at run time (its sizes or
/// scale are not known before): taps [outSize, width] (i64) and weights
/// (f64) filled by onnxc_rt_resize_aa_table; `width` is set.
std::pair<Value, Value> runtimeAntialiasTable(OpBuilder &b, Location loc,
                                              Operation *op,
                                              const ResizeParams &p,
                                              Value inSize, Value outSize,
                                              Value scale, Value &width);

} // namespace mlir::onnxc::linalg_conv::resize

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RESIZETABLES_H

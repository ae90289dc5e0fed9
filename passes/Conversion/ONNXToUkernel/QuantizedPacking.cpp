//===- QuantizedPacking.cpp - Compile-time packing of int8 weights --------===//

#include "passes/Conversion/ONNXToUkernel/QuantizedPacking.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::onnxc;

std::optional<std::vector<uint8_t>> qukernel::constantBytes(Value v) {
  auto c = v.getDefiningOp<ONNX::ConstantOp>();
  if (!c || !c.getValueAttr())
    return std::nullopt;
  ElementsAttr e = c.getValueAttr();
  auto type = cast<ShapedType>(e.getType());
  if (!type.hasStaticShape() || !type.getElementType().isInteger(8))
    return std::nullopt;
  size_t count = type.getNumElements();
  std::vector<uint8_t> out;
  if (auto res = dyn_cast<DenseResourceElementsAttr>(e)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != count)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    out.assign(data.begin(), data.end());
    return out;
  }
  if (auto dense = dyn_cast<DenseIntElementsAttr>(e)) {
    out.reserve(count);
    for (const APInt &x : dense.getValues<APInt>())
      out.push_back((uint8_t)x.getZExtValue());
    if (out.size() == count)
      return out;
  }
  return std::nullopt;
}

static void appendInt32(std::vector<uint8_t> &out, int32_t v) {
  uint32_t u = (uint32_t)v;
  for (int i = 0; i < 4; ++i)
    out.push_back((uint8_t)(u >> (8 * i)));
}

std::vector<uint8_t> qukernel::packConvWeights(const std::vector<uint8_t> &w,
                                               int64_t rows, int64_t k,
                                               bool isSigned, int64_t hwcTaps) {
  int64_t kp = (k + 3) / 4 * 4;
  std::vector<uint8_t> out(rows * kp, 0);
  std::vector<int32_t> sums(rows, 0);
  uint8_t flip = isSigned ? 0 : 0x80; // uint8 w -> w - 128 as int8
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t q = 0; q < k; ++q) {
      uint8_t v = w[r * k + q] ^ flip;
      // HWC order: k = (c, tap) -> tap * channels + c.
      int64_t at = q;
      if (hwcTaps) {
        int64_t c = q / hwcTaps, tap = q % hwcTaps;
        at = tap * (k / hwcTaps) + c;
      }
      out[r * kp + at] = v;
      sums[r] += (int8_t)v;
    }
  for (int32_t s : sums)
    appendInt32(out, s);
  return out;
}

std::vector<uint8_t> qukernel::packGemmB(const std::vector<uint8_t> &b,
                                         int64_t k, int64_t n, bool isSigned) {
  constexpr int64_t panel = 32; // ONNXC_QGEMM_PANEL
  int64_t panels = (n + panel - 1) / panel, k4 = (k + 3) / 4;
  std::vector<uint8_t> out(panels * k4 * panel * 4, 0);
  std::vector<int32_t> sums(n, 0);
  uint8_t flip = isSigned ? 0x80 : 0; // int8 b -> b + 128 as uint8
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t col = 0; col < n; ++col) {
      uint8_t v = b[kk * n + col] ^ flip;
      out[(((col / panel) * k4 + kk / 4) * panel + col % panel) * 4 + kk % 4] = v;
      sums[col] += v;
    }
  for (int32_t s : sums)
    appendInt32(out, s);
  return out;
}

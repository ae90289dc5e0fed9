//===- Constants.cpp - Reading and making onnx.Constant tensors -----------===//

#include "passes/ONNX/Constants.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::onnxc;

/// Constants above this size become resource blobs, as the importer's do.
static constexpr size_t kResourceThresholdBytes = 1024;

size_t mlir::onnxc::elementBytes(Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : 0;
}

std::optional<std::vector<char>> mlir::onnxc::getConstantBytes(Value v) {
  auto c = v.getDefiningOp<ONNX::ConstantOp>();
  if (!c || !c.getValueAttr())
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(c.getValueAttr().getType());
  if (!type || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  size_t eb = elementBytes(type.getElementType());
  if (!eb)
    return std::nullopt;
  size_t n = type.getNumElements();
  std::vector<char> out(n * eb);
  if (auto dense = dyn_cast<DenseElementsAttr>(c.getValueAttr())) {
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      for (size_t i = 0; i < n; ++i)
        std::memcpy(out.data() + i * eb, raw.data(), eb);
      return out;
    }
    if (raw.size() != out.size())
      return std::nullopt;
    std::memcpy(out.data(), raw.data(), raw.size());
    return out;
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(c.getValueAttr())) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != out.size())
      return std::nullopt;
    std::memcpy(out.data(), blob->getData().data(), out.size());
    return out;
  }
  return std::nullopt;
}

Value mlir::onnxc::createConstant(OpBuilder &rewriter, Location loc,
                                  RankedTensorType type, ArrayRef<char> bytes,
                                  StringRef name) {
  ElementsAttr attr;
  if (bytes.size() <= kResourceThresholdBytes) {
    attr = DenseElementsAttr::getFromRawBuffer(type, bytes);
  } else {
    size_t align = std::min<size_t>(elementBytes(type.getElementType()), 16);
    AsmResourceBlob blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, align);
    attr = DenseResourceElementsAttr::get(type, name, std::move(blob));
  }
  return ONNX::ConstantOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{},
      ArrayRef<NamedAttribute>{rewriter.getNamedAttr("value", attr)});
}

std::optional<std::vector<double>>
mlir::onnxc::asDoubles(ArrayRef<char> bytes, Type t) {
  std::vector<double> out;
  if (t.isF32()) {
    out.resize(bytes.size() / 4);
    for (size_t i = 0; i < out.size(); ++i) {
      float f;
      std::memcpy(&f, bytes.data() + 4 * i, 4);
      out[i] = f;
    }
    return out;
  }
  if (t.isF64()) {
    out.resize(bytes.size() / 8);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  return std::nullopt;
}

std::vector<char> mlir::onnxc::fromDoubles(ArrayRef<double> values, Type t) {
  std::vector<char> out(values.size() * (t.isF32() ? 4 : 8));
  for (size_t i = 0; i < values.size(); ++i) {
    if (t.isF32()) {
      float f = static_cast<float>(values[i]);
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      std::memcpy(out.data() + 8 * i, &values[i], 8);
    }
  }
  return out;
}

float mlir::onnxc::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); // inf, NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13); // normal: 127 - 15
  } else if (mant == 0) {
    bits = sign; // signed zero
  } else {
    // Subnormal: shift the mantissa up to a leading 1.
    int e = -1;
    do {
      mant <<= 1;
      ++e;
    } while (!(mant & 0x400));
    bits = sign | uint32_t(112 - e) << 23 | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

//===- Tensors.cpp - TensorProto <-> ElementsAttr -------------------------===//
//
// ONNX keeps tensor data in raw_data (little-endian bytes), in typed repeated
// fields (int32_data holds every narrow integer, float16 bits and bools), or
// in an external file. MLIR's dense storage for types whose width is a
// multiple of 8 bits is the same little-endian packing, so raw bytes pass
// through; large ones as resource blobs that own the protobuf's string.
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnxc;

namespace {

/// Storage bytes of one element in MLIR's dense layout (0 for i1, i4 and
/// strings, which are handled separately).
size_t storageBytes(Type elt) {
  if (auto c = llvm::dyn_cast<ComplexType>(elt))
    return 2 * storageBytes(c.getElementType());
  if (llvm::isa<IntegerType, FloatType>(elt)) {
    unsigned w = elt.getIntOrFloatBitWidth();
    return w % 8 == 0 ? w / 8 : 0;
  }
  return 0;
}

/// Reads `length` bytes at `offset` of the external file named by `t`,
/// refusing paths that leave the model's directory.
bool readExternal(const onnx::TensorProto &t, const proto::ExternalDataPolicy *policy,
                  std::string &data, std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset" || kv.key() == "length") {
      char *end = nullptr;
      long long v = std::strtoll(kv.value().c_str(), &end, 10);
      if (kv.value().empty() || *end || v < 0) {
        error = "external data '" + kv.key() + "' is not a valid number";
        return false;
      }
      (kv.key() == "offset" ? offset : length) = v;
    }
  }
  if (!policy) {
    error = "external data is not allowed here";
    return false;
  }
  if (location.empty()) {
    error = "external data has no location";
    return false;
  }
  if (llvm::sys::path::is_absolute(location)) {
    error = "external data path '" + location + "' is absolute";
    return false;
  }
  for (auto it = llvm::sys::path::begin(location),
            e = llvm::sys::path::end(location);
       it != e; ++it)
    if (*it == "..") {
      error = "external data path '" + location + "' leaves the model directory";
      return false;
    }
  llvm::SmallString<256> path(policy->baseDir);
  llvm::sys::path::append(path, location);
  llvm::SmallString<256> realBase, realPath;
  if (llvm::sys::fs::real_path(policy->baseDir.empty() ? "." : policy->baseDir,
                               realBase) ||
      llvm::sys::fs::real_path(path, realPath)) {
    error = "external data file '" + location + "' not found";
    return false;
  }
  llvm::StringRef rp = realPath;
  if (!rp.starts_with(realBase) ||
      (rp.size() > realBase.size() && !llvm::sys::path::is_separator(rp[realBase.size()]))) {
    error = "external data path '" + location +
            "' resolves outside the model directory";
    return false;
  }
  if (!llvm::sys::fs::is_regular_file(realPath)) {
    error = "external data path '" + location + "' is not a regular file";
    return false;
  }
  auto buf = llvm::MemoryBuffer::getFile(realPath, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    error = "cannot read external data file '" + location + "'";
    return false;
  }
  int64_t size = (*buf)->getBufferSize();
  if (length < 0)
    length = size - offset;
  if (offset > size || length > size - offset) {
    // Both are in [0, 2^63): their sum fits in 64 unsigned bits.
    error = "external data range [" + std::to_string(offset) + ", " +
            std::to_string(uint64_t(offset) + uint64_t(length)) +
            ") exceeds file '" + location +
            "' of " + std::to_string(size) + " bytes";
    return false;
  }
  data.assign((*buf)->getBufferStart() + offset, length);
  return true;
}

template <typename Field>
void appendValues(std::string &out, const Field &field, size_t bytesPerValue) {
  for (auto v : field) {
    char tmp[8];
    std::memcpy(tmp, &v, sizeof v);
    out.append(tmp, bytesPerValue); // little-endian: the low bytes come first
  }
}

} // namespace

FailureOr<ElementsAttr> proto::importTensor(MLIRContext *ctx,
                                            onnx::TensorProto &t,
                                            const ExternalDataPolicy *policy,
                                            std::string &error) {
  Type elt = getElementType(ctx, t.data_type());
  if (!elt) {
    error = t.data_type() == 0 ? "tensor has no data type"
                               : "tensor has unsupported data type " +
                                     std::to_string(t.data_type());
    return failure();
  }
  SmallVector<int64_t> shape;
  uint64_t count = 1;
  for (int64_t d : t.dims()) {
    if (d < 0) {
      error = "tensor has negative dimension " + std::to_string(d);
      return failure();
    }
    if (d > 0 && count > (uint64_t(1) << 40) / d) {
      error = "tensor has too many elements";
      return failure();
    }
    count *= d;
    shape.push_back(d);
  }
  auto type = RankedTensorType::get(shape, elt);
  auto mismatch = [&](uint64_t got) {
    error = "tensor holds " + std::to_string(got) + " values, its shape needs " +
            std::to_string(count);
    return failure();
  };

  if (llvm::isa<ONNX::StringType>(elt)) {
    if ((uint64_t)t.string_data_size() != count)
      return mismatch(t.string_data_size());
    SmallVector<StringRef> strs(t.string_data().begin(), t.string_data().end());
    return ElementsAttr(DenseStringElementsAttr::get(type, strs));
  }

  // Gather the bytes in ONNX's raw layout.
  std::string owned;
  std::string *raw = nullptr;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    if (!readExternal(t, policy, owned, error))
      return failure();
    raw = &owned;
  } else if (t.has_raw_data()) {
    raw = t.mutable_raw_data();
  } else {
    using TP = onnx::TensorProto;
    switch (t.data_type()) {
    case TP::FLOAT:
    case TP::COMPLEX64:
      appendValues(owned, t.float_data(), 4);
      break;
    case TP::DOUBLE:
    case TP::COMPLEX128:
      appendValues(owned, t.double_data(), 8);
      break;
    case TP::INT64:
      appendValues(owned, t.int64_data(), 8);
      break;
    case TP::UINT64:
      appendValues(owned, t.uint64_data(), 8);
      break;
    case TP::UINT32:
      appendValues(owned, t.uint64_data(), 4);
      break;
    case TP::INT32:
      appendValues(owned, t.int32_data(), 4);
      break;
    case TP::INT16:
    case TP::UINT16:
    case TP::FLOAT16:
    case TP::BFLOAT16:
      appendValues(owned, t.int32_data(), 2);
      break;
    case TP::INT8:
    case TP::UINT8:
    case TP::BOOL:
    case 17:
    case 18:
    case 19:
    case 20:
      appendValues(owned, t.int32_data(), 1);
      break;
    case 21:
    case 22: // int4, float4e2m1: two per int32 entry's low byte, packed
    case 23: // like raw_data
      appendValues(owned, t.int32_data(), 1);
      break;
    default:
      error = "tensor has unsupported data type " + std::to_string(t.data_type());
      return failure();
    }
    raw = &owned;
  }

  unsigned width = elt.isIntOrFloat() ? elt.getIntOrFloatBitWidth() : 0;
  if (width == 1 || width == 4) {
    // bool: one byte per element; int4: two elements per byte, low nibble first.
    uint64_t need = width == 1 ? count : (count + 1) / 2;
    if (raw->size() != need)
      return mismatch(width == 1 ? raw->size() : raw->size() * 2);
    if (width == 1) {
      SmallVector<bool> bits(count);
      for (uint64_t i = 0; i < count; ++i)
        bits[i] = (*raw)[i] != 0;
      return ElementsAttr(DenseElementsAttr::get(type, bits));
    }
    bool isSigned = !elt.isUnsignedInteger();
    auto floatType = llvm::dyn_cast<FloatType>(elt); // float4e2m1
    SmallVector<APInt> vals;
    SmallVector<APFloat> floats;
    for (uint64_t i = 0; i < count; ++i) {
      uint8_t byte = (uint8_t)(*raw)[i / 2];
      uint8_t nib = i % 2 ? byte >> 4 : byte & 0xF;
      if (floatType)
        floats.push_back(APFloat(floatType.getFloatSemantics(), APInt(4, nib)));
      else
        vals.push_back(APInt(4, nib, isSigned));
    }
    if (floatType)
      return ElementsAttr(DenseElementsAttr::get(type, floats));
    return ElementsAttr(DenseElementsAttr::get(type, vals));
  }

  size_t eltBytes = storageBytes(elt);
  if (raw->size() != count * eltBytes)
    return mismatch(eltBytes ? raw->size() / eltBytes : 0);
  if (raw->size() <= kResourceThresholdBytes) {
    ArrayRef<char> bytes(raw->data(), raw->size());
    return ElementsAttr(DenseElementsAttr::getFromRawBuffer(type, bytes));
  }
  // Large: hand the string itself to a resource blob (no copy).
  auto *heap = new std::string(std::move(*raw));
  size_t align = std::min<size_t>(eltBytes, 16);
  AsmResourceBlob blob(ArrayRef<char>(heap->data(), heap->size()), align,
                       [heap](void *, size_t, size_t) { delete heap; },
                       /*dataIsMutable=*/false);
  std::string name = t.name().empty() ? "tensor" : t.name();
  return ElementsAttr(DenseResourceElementsAttr::get(type, name, std::move(blob)));
}

FailureOr<ElementsAttr>
proto::importSparseTensor(MLIRContext *ctx, onnx::SparseTensorProto &t,
                          const ExternalDataPolicy *policy, std::string &error) {
  FailureOr<ElementsAttr> values = importTensor(ctx, *t.mutable_values(), policy, error);
  if (failed(values))
    return failure();
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  for (int64_t d : shape)
    if (d < 0) {
      error = "sparse tensor has negative dimension";
      return failure();
    }
  int64_t nnz = llvm::cast<ShapedType>(values->getType()).getNumElements();
  FailureOr<ElementsAttr> idx = importTensor(ctx, *t.mutable_indices(), policy, error);
  if (failed(idx))
    return failure();
  auto idxDense = llvm::dyn_cast<DenseIntElementsAttr>(*idx);
  if (!idxDense || !idxDense.getElementType().isInteger(64)) {
    error = "sparse tensor indices must be int64";
    return failure();
  }
  int64_t rank = shape.size();
  SmallVector<int64_t> coords;
  auto idxShape = idxDense.getType().getShape();
  SmallVector<int64_t> flat(idxDense.getValues<int64_t>());
  if (idxShape.size() == 1 && idxShape[0] == nnz) {
    // Linearized indices.
    for (int64_t lin : flat) {
      SmallVector<int64_t> c(rank);
      if (lin < 0) {
        error = "sparse tensor index out of range";
        return failure();
      }
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (shape[d] == 0) {
          error = "sparse tensor index out of range";
          return failure();
        }
        c[d] = lin % shape[d];
        lin /= shape[d];
      }
      // What is left is beyond the shape (it wrapped around before).
      if (lin != 0) {
        error = "sparse tensor index out of range";
        return failure();
      }
      coords.append(c);
    }
  } else if (idxShape.size() == 2 && idxShape[0] == nnz && idxShape[1] == rank) {
    coords = flat;
  } else {
    error = "sparse tensor indices have the wrong shape";
    return failure();
  }
  for (int64_t i = 0; i < nnz; ++i)
    for (int64_t d = 0; d < rank; ++d)
      if (coords[i * rank + d] < 0 || coords[i * rank + d] >= shape[d]) {
        error = "sparse tensor index out of range";
        return failure();
      }
  auto valuesDense = llvm::dyn_cast<DenseElementsAttr>(*values);
  if (!valuesDense) {
    error = "sparse tensor values are too large";
    return failure();
  }
  Builder b(ctx);
  auto idxType = RankedTensorType::get({nnz, rank}, b.getI64Type());
  auto type = RankedTensorType::get(shape, valuesDense.getElementType());
  return ElementsAttr(SparseElementsAttr::get(
      type, DenseIntElementsAttr::get(idxType, coords), valuesDense));
}

bool proto::exportTensor(ElementsAttr attr, onnx::TensorProto &out) {
  auto type = llvm::cast<ShapedType>(attr.getType());
  if (!type.hasStaticShape())
    return false;
  int32_t dt = getDataType(type.getElementType());
  if (!dt)
    return false;
  out.set_data_type(dt);
  for (int64_t d : type.getShape())
    out.add_dims(d);
  int64_t n = type.getNumElements();
  if (auto res = llvm::dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob)
      return false;
    ArrayRef<char> data = blob->getData();
    out.set_raw_data(data.data(), data.size());
    return true;
  }
  auto dense = llvm::dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return false;
  Type elt = type.getElementType();
  if (llvm::isa<ONNX::StringType>(elt)) {
    for (StringRef s : dense.getRawStringData())
      out.add_string_data(s.str());
    if (dense.isSplat())
      for (int64_t i = 1; i < n; ++i)
        out.add_string_data(out.string_data(0));
    return true;
  }
  if (elt.isInteger(1)) {
    std::string bytes;
    for (bool b : dense.getValues<bool>())
      bytes.push_back(b ? 1 : 0);
    out.set_raw_data(bytes);
    return true;
  }
  if (elt.isIntOrFloat() && elt.getIntOrFloatBitWidth() == 4) {
    // int4, uint4, float4e2m1: two per byte, low nibble first.
    std::string bytes((size_t)(n + 1) / 2, '\0');
    int64_t i = 0;
    auto put = [&](const APInt &v) {
      uint8_t nib = (uint8_t)(v.getZExtValue() & 0xF);
      bytes[i / 2] |= (char)(i % 2 ? nib << 4 : nib);
      ++i;
    };
    if (llvm::isa<FloatType>(elt))
      for (APFloat v : dense.getValues<APFloat>())
        put(v.bitcastToAPInt());
    else
      for (APInt v : dense.getValues<APInt>())
        put(v);
    out.set_raw_data(bytes);
    return true;
  }
  size_t eltBytes = storageBytes(elt);
  if (!eltBytes)
    return false;
  ArrayRef<char> data = dense.getRawData();
  std::string bytes;
  if (dense.isSplat())
    for (int64_t i = 0; i < n; ++i)
      bytes.append(data.data(), eltBytes);
  else
    bytes.assign(data.data(), data.size());
  out.set_raw_data(bytes);
  return true;
}

//===- Types.cpp - TypeProto <-> MLIR types -------------------------------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc;

Type proto::getElementType(MLIRContext *ctx, int32_t dataType) {
  Builder b(ctx);
  using TP = onnx::TensorProto;
  switch (dataType) {
  case TP::FLOAT:
    return b.getF32Type();
  case TP::DOUBLE:
    return b.getF64Type();
  case TP::FLOAT16:
    return b.getF16Type();
  case TP::BFLOAT16:
    return b.getBF16Type();
  case TP::INT8:
    return b.getIntegerType(8);
  case TP::INT16:
    return b.getIntegerType(16);
  case TP::INT32:
    return b.getIntegerType(32);
  case TP::INT64:
    return b.getIntegerType(64);
  case TP::UINT8:
    return b.getIntegerType(8, false);
  case TP::UINT16:
    return b.getIntegerType(16, false);
  case TP::UINT32:
    return b.getIntegerType(32, false);
  case TP::UINT64:
    return b.getIntegerType(64, false);
  case TP::BOOL:
    return b.getI1Type();
  case TP::STRING:
    return ONNX::StringType::get(ctx);
  case TP::COMPLEX64:
    return ComplexType::get(b.getF32Type());
  case TP::COMPLEX128:
    return ComplexType::get(b.getF64Type());
  // Newer than libonnx 1.12's enum: float8 (opset 19) and int4 (opset 21).
  case 17:
    return Float8E4M3FNType::get(ctx);
  case 18:
    return Float8E4M3FNUZType::get(ctx);
  case 19:
    return Float8E5M2Type::get(ctx);
  case 20:
    return Float8E5M2FNUZType::get(ctx);
  case 21:
    return b.getIntegerType(4, false);
  case 22:
    return b.getIntegerType(4);
  case 23: // float4e2m1 (opset 23)
    return Float4E2M1FNType::get(ctx);
  default:
    return {};
  }
}

int32_t proto::getDataType(Type t) {
  using TP = onnx::TensorProto;
  if (t.isF32())
    return TP::FLOAT;
  if (t.isF64())
    return TP::DOUBLE;
  if (t.isF16())
    return TP::FLOAT16;
  if (t.isBF16())
    return TP::BFLOAT16;
  if (llvm::isa<Float8E4M3FNType>(t))
    return 17;
  if (llvm::isa<Float8E4M3FNUZType>(t))
    return 18;
  if (llvm::isa<Float8E5M2Type>(t))
    return 19;
  if (llvm::isa<Float8E5M2FNUZType>(t))
    return 20;
  if (llvm::isa<Float4E2M1FNType>(t))
    return 23;
  if (llvm::isa<ONNX::StringType>(t))
    return TP::STRING;
  if (auto c = llvm::dyn_cast<ComplexType>(t))
    return c.getElementType().isF32()   ? TP::COMPLEX64
           : c.getElementType().isF64() ? TP::COMPLEX128
                                        : 0;
  if (auto i = llvm::dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 1:
      return TP::BOOL;
    case 4:
      return u ? 21 : 22;
    case 8:
      return u ? TP::UINT8 : TP::INT8;
    case 16:
      return u ? TP::UINT16 : TP::INT16;
    case 32:
      return u ? TP::UINT32 : TP::INT32;
    case 64:
      return u ? TP::UINT64 : TP::INT64;
    }
  }
  return 0;
}

std::string proto::getDataTypeName(int32_t dataType) {
  static const char *names[] = {
      "undefined", "float",    "uint8",     "int8",       "uint16",
      "int16",     "int32",    "int64",     "string",     "bool",
      "float16",   "double",   "uint32",    "uint64",     "complex64",
      "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz",
      "float8e5m2", "float8e5m2fnuz", "uint4", "int4", "float4e2m1"};
  if (dataType >= 0 && dataType < (int32_t)std::size(names))
    return names[dataType];
  return "data type " + std::to_string(dataType);
}

/// A tensor or sparse tensor TypeProto -> tensor type.
static FailureOr<Type> importTensorType(MLIRContext *ctx,
                                        const onnx::TypeProto &type,
                                        std::string &error) {
  bool sparse = type.value_case() == onnx::TypeProto::kSparseTensorType;
  int32_t elemType =
      sparse ? type.sparse_tensor_type().elem_type() : type.tensor_type().elem_type();
  bool hasShape = sparse ? type.sparse_tensor_type().has_shape()
                         : type.tensor_type().has_shape();
  const onnx::TensorShapeProto &shape =
      sparse ? type.sparse_tensor_type().shape() : type.tensor_type().shape();
  Type elt = proto::getElementType(ctx, elemType);
  if (!elt) {
    error = elemType == 0 ? "tensor type has no element type"
                          : "unsupported element type " + std::to_string(elemType);
    return failure();
  }
  if (!hasShape)
    return Type(UnrankedTensorType::get(elt));
  SmallVector<int64_t> dims;
  SmallVector<std::string> names;
  for (const auto &d : shape.dim()) {
    if (d.has_dim_value()) {
      if (d.dim_value() < 0) {
        error = "negative dimension " + std::to_string(d.dim_value());
        return failure();
      }
      if (d.dim_value() > (int64_t(1) << 48)) {
        error = "dimension " + std::to_string(d.dim_value()) + " is too large";
        return failure();
      }
      dims.push_back(d.dim_value());
      names.push_back("");
    } else {
      dims.push_back(ShapedType::kDynamic);
      names.push_back(d.has_dim_param() ? d.dim_param() : "");
    }
  }
  SmallVector<StringRef> refs(names.begin(), names.end());
  return Type(ONNX::getTensorType(dims, elt, refs));
}

FailureOr<Type> proto::importType(MLIRContext *ctx, const onnx::TypeProto &type,
                                  std::string &error) {
  // Sequences, optionals and maps each wrap one type: walk down the chain
  // (its length is the input's, so without recursion), then wrap back up.
  SmallVector<const onnx::TypeProto *> chain = {&type};
  for (;;) {
    const onnx::TypeProto &t = *chain.back();
    const onnx::TypeProto *inner = nullptr;
    switch (t.value_case()) {
    case onnx::TypeProto::kSequenceType:
      if (!t.sequence_type().has_elem_type()) {
        error = "sequence type has no element type";
        return failure();
      }
      inner = &t.sequence_type().elem_type();
      break;
    case onnx::TypeProto::kOptionalType:
      if (!t.optional_type().has_elem_type()) {
        error = "optional type has no element type";
        return failure();
      }
      inner = &t.optional_type().elem_type();
      break;
    case onnx::TypeProto::kMapType:
      inner = &t.map_type().value_type();
      break;
    default:
      break;
    }
    if (!inner)
      break;
    if (chain.size() > kMaxTypeNesting) {
      error = "types are nested more than " + std::to_string(kMaxTypeNesting) +
              " deep";
      return failure();
    }
    chain.push_back(inner);
  }
  const onnx::TypeProto &leaf = *chain.back();
  FailureOr<Type> result = failure();
  switch (leaf.value_case()) {
  case onnx::TypeProto::kTensorType:
  case onnx::TypeProto::kSparseTensorType:
    result = importTensorType(ctx, leaf, error);
    break;
  default:
    error = "type has no value (tensor, sequence, map or optional)";
    return failure();
  }
  if (failed(result))
    return failure();
  chain.pop_back();
  for (const onnx::TypeProto *t : llvm::reverse(chain)) {
    switch (t->value_case()) {
    case onnx::TypeProto::kSequenceType:
      result = Type(ONNX::SeqType::get(ctx, *result));
      break;
    case onnx::TypeProto::kOptionalType:
      result = Type(ONNX::OptType::get(ctx, *result));
      break;
    default: { // map
      Type key = getElementType(ctx, t->map_type().key_type());
      if (!key) {
        error = "map type has an unsupported key type";
        return failure();
      }
      result = Type(ONNX::MapType::get(ctx, key, *result));
      break;
    }
    }
  }
  return result;
}

bool proto::exportType(Type type, onnx::TypeProto &out) {
  if (auto t = llvm::dyn_cast<TensorType>(type)) {
    int32_t dt = getDataType(t.getElementType());
    if (!dt)
      return false;
    auto *tt = out.mutable_tensor_type();
    tt->set_elem_type(dt);
    if (auto r = llvm::dyn_cast<RankedTensorType>(t)) {
      auto *shape = tt->mutable_shape();
      for (unsigned i = 0; i < r.getRank(); ++i) {
        auto *d = shape->add_dim();
        if (!r.isDynamicDim(i))
          d->set_dim_value(r.getDimSize(i));
        else if (StringRef n = ONNX::getDimName(r, i); !n.empty())
          d->set_dim_param(n.str());
      }
    }
    return true;
  }
  if (auto s = llvm::dyn_cast<ONNX::SeqType>(type))
    return exportType(s.getElementType(),
                      *out.mutable_sequence_type()->mutable_elem_type());
  if (auto o = llvm::dyn_cast<ONNX::OptType>(type))
    return exportType(o.getElementType(),
                      *out.mutable_optional_type()->mutable_elem_type());
  if (auto m = llvm::dyn_cast<ONNX::MapType>(type)) {
    int32_t k = getDataType(m.getKeyType());
    if (!k)
      return false;
    out.mutable_map_type()->set_key_type(k);
    return exportType(m.getValueType(), *out.mutable_map_type()->mutable_value_type());
  }
  return false;
}

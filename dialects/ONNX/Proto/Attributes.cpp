//===- Attributes.cpp - AttributeProto <-> MLIR attributes ----------------===//

#include "dialects/ONNX/IR/OpInfo.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::ONNX;

const char *proto::getAttributeKindName(int kind) {
  static const char *names[] = {"undefined", "float",   "int",     "string",
                                "tensor",    "graph",   "floats",  "ints",
                                "strings",   "tensors", "graphs",  "sparse_tensor",
                                "sparse_tensors", "type_proto", "type_protos"};
  return kind >= 0 && kind < (int)std::size(names) ? names[kind] : "unknown";
}

int proto::getAttributeKind(const onnx::AttributeProto &a) {
  if (a.type() != onnx::AttributeProto::UNDEFINED)
    return a.type();
  // IR version 1-2 models may leave `type` unset.
  if (a.has_f())
    return kAttrFloat;
  if (a.has_i())
    return kAttrInt;
  if (a.has_s())
    return kAttrString;
  if (a.has_t())
    return kAttrTensor;
  if (a.has_g())
    return kAttrGraph;
  if (a.has_sparse_tensor())
    return kAttrSparseTensor;
  if (a.has_tp())
    return kAttrTypeProto;
  if (a.floats_size())
    return kAttrFloats;
  if (a.ints_size())
    return kAttrInts;
  if (a.strings_size())
    return kAttrStrings;
  if (a.tensors_size())
    return kAttrTensors;
  if (a.graphs_size())
    return kAttrGraphs;
  if (a.sparse_tensors_size())
    return kAttrSparseTensors;
  if (a.type_protos_size())
    return kAttrTypeProtos;
  return 0;
}

bool proto::checkAttributeFields(const onnx::AttributeProto &a,
                                 std::string &error) {
  // The kinds of the value fields that are set.
  SmallVector<int, 2> used;
  auto use = [&](bool set, int kind) {
    if (set)
      used.push_back(kind);
  };
  use(a.has_f(), kAttrFloat);
  use(a.has_i(), kAttrInt);
  use(a.has_s(), kAttrString);
  use(a.has_t(), kAttrTensor);
  use(a.has_g(), kAttrGraph);
  use(a.has_sparse_tensor(), kAttrSparseTensor);
  use(a.has_tp(), kAttrTypeProto);
  use(a.floats_size() > 0, kAttrFloats);
  use(a.ints_size() > 0, kAttrInts);
  use(a.strings_size() > 0, kAttrStrings);
  use(a.tensors_size() > 0, kAttrTensors);
  use(a.graphs_size() > 0, kAttrGraphs);
  use(a.sparse_tensors_size() > 0, kAttrSparseTensors);
  use(a.type_protos_size() > 0, kAttrTypeProtos);
  // (protobuf keeps a type beyond the enum as an unknown field: UNDEFINED.)
  int type = a.type();
  if (used.size() > 1) {
    error = std::string("holds values of two kinds (") +
            getAttributeKindName(used[0]) + " and " +
            getAttributeKindName(used[1]) + ")";
    return false;
  }
  // IR version 2 made `type` required. An empty list may leave it unset (the
  // text parser writes `axes = []` so): the op's kind applies.
  if (type == onnx::AttributeProto::UNDEFINED && !used.empty()) {
    error = std::string("has the type UNDEFINED (its value is of kind ") +
            getAttributeKindName(used[0]) + ")";
    return false;
  }
  if (type != onnx::AttributeProto::UNDEFINED && !used.empty() &&
      used[0] != type) {
    error = std::string("is of type ") + getAttributeKindName(type) +
            " but holds a value of kind " + getAttributeKindName(used[0]);
    return false;
  }
  return true;
}

FailureOr<Attribute> proto::importAttribute(MLIRContext *ctx,
                                            onnx::AttributeProto &a,
                                            int expected,
                                            const ExternalDataPolicy *policy,
                                            std::string &error) {
  Builder b(ctx);
  int kind = getAttributeKind(a);
  // An empty list carries no kind of its own: take the expected one.
  if (kind == 0 && (expected == kAttrInts || expected == kAttrFloats ||
                    expected == kAttrStrings || expected == kAttrTensors))
    kind = expected;
  // Widen ints to floats (text-format models write `alpha = 1`).
  if (kind == kAttrInt && expected == kAttrFloat)
    return Attribute(b.getF32FloatAttr((float)a.i()));
  if (kind == kAttrInts && expected == kAttrFloats) {
    SmallVector<float> v(a.ints().begin(), a.ints().end());
    return Attribute(b.getDenseF32ArrayAttr(v));
  }
  if (expected && kind != expected) {
    error = std::string("must be of kind ") + getAttributeKindName(expected) +
            ", got " + getAttributeKindName(kind);
    return failure();
  }
  switch (kind) {
  case kAttrFloat:
    return Attribute(b.getF32FloatAttr(a.f()));
  case kAttrInt:
    return Attribute(b.getI64IntegerAttr(a.i()));
  case kAttrString:
    return Attribute(b.getStringAttr(a.s()));
  case kAttrFloats: {
    SmallVector<float> v(a.floats().begin(), a.floats().end());
    return Attribute(b.getDenseF32ArrayAttr(v));
  }
  case kAttrInts: {
    SmallVector<int64_t> v(a.ints().begin(), a.ints().end());
    return Attribute(b.getDenseI64ArrayAttr(v));
  }
  case kAttrStrings: {
    SmallVector<Attribute> v;
    for (const std::string &s : a.strings())
      v.push_back(b.getStringAttr(s));
    return Attribute(b.getArrayAttr(v));
  }
  case kAttrTensor: {
    FailureOr<ElementsAttr> t = importTensor(ctx, *a.mutable_t(), policy, error);
    if (failed(t))
      return failure();
    return Attribute(*t);
  }
  case kAttrSparseTensor: {
    FailureOr<ElementsAttr> t =
        importSparseTensor(ctx, *a.mutable_sparse_tensor(), policy, error);
    if (failed(t))
      return failure();
    return Attribute(*t);
  }
  case kAttrTensors: {
    SmallVector<Attribute> v;
    for (onnx::TensorProto &tp : *a.mutable_tensors()) {
      FailureOr<ElementsAttr> t = importTensor(ctx, tp, policy, error);
      if (failed(t))
        return failure();
      v.push_back(*t);
    }
    return Attribute(b.getArrayAttr(v));
  }
  case kAttrSparseTensors: {
    SmallVector<Attribute> v;
    for (onnx::SparseTensorProto &tp : *a.mutable_sparse_tensors()) {
      FailureOr<ElementsAttr> t = importSparseTensor(ctx, tp, policy, error);
      if (failed(t))
        return failure();
      v.push_back(*t);
    }
    return Attribute(b.getArrayAttr(v));
  }
  case kAttrTypeProto: {
    FailureOr<Type> t = importType(ctx, a.tp(), error);
    if (failed(t))
      return failure();
    return Attribute(TypeAttr::get(*t));
  }
  case kAttrTypeProtos: {
    SmallVector<Attribute> v;
    for (const onnx::TypeProto &tp : a.type_protos()) {
      FailureOr<Type> t = importType(ctx, tp, error);
      if (failed(t))
        return failure();
      v.push_back(TypeAttr::get(*t));
    }
    return Attribute(b.getArrayAttr(v));
  }
  default:
    error = std::string("has unsupported kind ") + getAttributeKindName(kind);
    return failure();
  }
}

bool proto::exportAttribute(Attribute attr, int kind, const std::string &name,
                            onnx::AttributeProto &out) {
  out.set_name(name);
  out.set_type(static_cast<onnx::AttributeProto::AttributeType>(kind));
  switch (kind) {
  case kAttrFloat:
    if (auto f = llvm::dyn_cast<FloatAttr>(attr))
      return out.set_f(f.getValueAsDouble()), true;
    return false;
  case kAttrInt:
    if (auto i = llvm::dyn_cast<IntegerAttr>(attr))
      return out.set_i(i.getInt()), true;
    return false;
  case kAttrString:
    if (auto s = llvm::dyn_cast<StringAttr>(attr))
      return out.set_s(s.getValue().str()), true;
    return false;
  case kAttrFloats:
    if (auto v = llvm::dyn_cast<DenseF32ArrayAttr>(attr)) {
      for (float f : v.asArrayRef())
        out.add_floats(f);
      return true;
    }
    return false;
  case kAttrInts:
    if (auto v = llvm::dyn_cast<DenseI64ArrayAttr>(attr)) {
      for (int64_t i : v.asArrayRef())
        out.add_ints(i);
      return true;
    }
    return false;
  case kAttrStrings:
    if (auto v = llvm::dyn_cast<ArrayAttr>(attr)) {
      for (Attribute s : v)
        if (auto str = llvm::dyn_cast<StringAttr>(s))
          out.add_strings(str.getValue().str());
      return true;
    }
    return false;
  case kAttrTensor:
  case kAttrSparseTensor:
    if (auto e = llvm::dyn_cast<ElementsAttr>(attr)) {
      out.set_type(onnx::AttributeProto::TENSOR);
      return exportTensor(e, *out.mutable_t());
    }
    return false;
  case kAttrTensors:
    if (auto v = llvm::dyn_cast<ArrayAttr>(attr)) {
      for (Attribute t : v)
        if (auto e = llvm::dyn_cast<ElementsAttr>(t))
          if (!exportTensor(e, *out.add_tensors()))
            return false;
      return true;
    }
    return false;
  case kAttrTypeProto:
    if (auto t = llvm::dyn_cast<TypeAttr>(attr))
      return exportType(t.getValue(), *out.mutable_tp());
    return false;
  case kAttrTypeProtos:
    if (auto v = llvm::dyn_cast<ArrayAttr>(attr)) {
      for (Attribute t : v)
        if (auto ta = llvm::dyn_cast<TypeAttr>(t))
          if (!exportType(ta.getValue(), *out.add_type_protos()))
            return false;
      return true;
    }
    return false;
  default:
    return false;
  }
}

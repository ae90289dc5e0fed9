//===- TypeUtils.cpp - Merging and broadcasting of onnx types -------------===//

#include "passes/ONNX/Inference/TypeUtils.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::onnxc;

/// Types nest (seq<opt<seq<...>>>) as deep as a model says: recursion over
/// them is bounded, by the importer's limit (docs/importer.md).
static constexpr unsigned kMaxTypeNesting = proto::kMaxTypeNesting;

/// How many sequences, optionals and maps wrap `type`'s innermost type.
static unsigned typeNesting(Type type) {
  unsigned depth = 0;
  for (;; ++depth) {
    if (auto s = llvm::dyn_cast<ONNX::SeqType>(type))
      type = s.getElementType();
    else if (auto o = llvm::dyn_cast<ONNX::OptType>(type))
      type = o.getElementType();
    else if (auto m = llvm::dyn_cast<ONNX::MapType>(type))
      type = m.getValueType();
    else
      return depth;
  }
}

static std::string typeToString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool mlir::onnxc::containsUnknown(Type type) {
  for (unsigned i = 0; i < kMaxTypeNesting; ++i) {
    if (llvm::isa<ONNX::UnknownType>(type))
      return true;
    if (auto s = llvm::dyn_cast<ONNX::SeqType>(type))
      type = s.getElementType();
    else if (auto o = llvm::dyn_cast<ONNX::OptType>(type))
      type = o.getElementType();
    else if (auto m = llvm::dyn_cast<ONNX::MapType>(type))
      type = m.getValueType();
    else
      return false;
  }
  return true;
}

static FailureOr<Type> mergeTensorTypes(TensorType cur, TensorType inf,
                                        std::string &error) {
  if (cur.getElementType() != inf.getElementType()) {
    error = "inferred element type " + typeToString(inf.getElementType()) +
            " conflicts with " + typeToString(cur.getElementType());
    return failure();
  }
  auto curR = llvm::dyn_cast<RankedTensorType>(cur);
  auto infR = llvm::dyn_cast<RankedTensorType>(inf);
  if (!infR)
    return Type(cur);
  if (!curR)
    return Type(infR);
  if (curR.getRank() != infR.getRank()) {
    error = "inferred rank " + std::to_string(infR.getRank()) +
            " conflicts with rank " + std::to_string(curR.getRank()) + " of " +
            typeToString(cur);
    return failure();
  }
  SmallVector<SymDim> dims;
  for (unsigned i = 0; i < curR.getRank(); ++i) {
    SymDim c = SymDim::of(curR, i), n = SymDim::of(infR, i);
    if (c.isStatic() && n.isStatic() && c.size != n.size) {
      error = "inferred type " + typeToString(inf) + " conflicts with " +
              typeToString(cur) + " in dim " + std::to_string(i);
      return failure();
    }
    if (c.isStatic())
      dims.push_back(c);
    else if (n.isStatic() || c.name.empty())
      dims.push_back(n);
    else
      dims.push_back(c);
  }
  return Type(getSymTensorType(dims, cur.getElementType()));
}

static FailureOr<Type> mergeTypesImpl(Type cur, Type inf, std::string &error,
                                      unsigned depth) {
  if (depth > kMaxTypeNesting) {
    error = "types are nested too deep";
    return failure();
  }
  if (!inf || llvm::isa<ONNX::UnknownType>(inf) || cur == inf)
    return cur;
  if (!cur || llvm::isa<ONNX::UnknownType>(cur))
    return inf;
  if (llvm::isa<NoneType>(cur))
    return cur;
  auto conflict = [&]() -> FailureOr<Type> {
    error = "inferred type " + typeToString(inf) + " conflicts with " +
            typeToString(cur);
    return failure();
  };
  if (auto c = llvm::dyn_cast<TensorType>(cur)) {
    auto i = llvm::dyn_cast<TensorType>(inf);
    if (!i)
      return conflict();
    return mergeTensorTypes(c, i, error);
  }
  if (auto c = llvm::dyn_cast<ONNX::SeqType>(cur)) {
    auto i = llvm::dyn_cast<ONNX::SeqType>(inf);
    if (!i)
      return conflict();
    FailureOr<Type> e = mergeTypesImpl(c.getElementType(), i.getElementType(),
                                       error, depth + 1);
    if (failed(e))
      return failure();
    return Type(ONNX::SeqType::get(cur.getContext(), *e));
  }
  if (auto c = llvm::dyn_cast<ONNX::OptType>(cur)) {
    auto i = llvm::dyn_cast<ONNX::OptType>(inf);
    if (!i)
      return conflict();
    FailureOr<Type> e = mergeTypesImpl(c.getElementType(), i.getElementType(),
                                       error, depth + 1);
    if (failed(e))
      return failure();
    return Type(ONNX::OptType::get(cur.getContext(), *e));
  }
  if (auto c = llvm::dyn_cast<ONNX::MapType>(cur)) {
    auto i = llvm::dyn_cast<ONNX::MapType>(inf);
    if (!i || i.getKeyType() != c.getKeyType())
      return conflict();
    FailureOr<Type> v =
        mergeTypesImpl(c.getValueType(), i.getValueType(), error, depth + 1);
    if (failed(v))
      return failure();
    return Type(ONNX::MapType::get(cur.getContext(), c.getKeyType(), *v));
  }
  return conflict();
}

FailureOr<Type> mlir::onnxc::mergeTypes(Type current, Type inferred,
                                        std::string &error) {
  return mergeTypesImpl(current, inferred, error, 0);
}

LogicalResult mlir::onnxc::refineResult(Operation *op, unsigned index,
                                        Type inferred) {
  Value result = op->getResult(index);
  std::string error;
  FailureOr<Type> merged = mergeTypes(result.getType(), inferred, error);
  if (failed(merged))
    return op->emitOpError() << "result #" << index << ": " << error;
  // Each op may wrap its input's type once more (SequenceConstruct of a
  // sequence): a chain of them would nest types as deep as the graph is
  // long, and every recursion over types with them.
  if (typeNesting(*merged) > kMaxTypeNesting)
    return op->emitOpError() << "result #" << index
                             << ": types are nested more than "
                             << kMaxTypeNesting << " deep";
  if (*merged != result.getType())
    result.setType(*merged);
  return success();
}

//===----------------------------------------------------------------------===//
// Joins
//===----------------------------------------------------------------------===//

static Type generalizeImpl(Type t, unsigned depth) {
  if (depth > kMaxTypeNesting)
    return t;
  if (auto tt = llvm::dyn_cast<TensorType>(t))
    return UnrankedTensorType::get(tt.getElementType());
  if (auto s = llvm::dyn_cast<ONNX::SeqType>(t))
    return ONNX::SeqType::get(t.getContext(),
                              generalizeImpl(s.getElementType(), depth + 1));
  if (auto o = llvm::dyn_cast<ONNX::OptType>(t))
    return ONNX::OptType::get(t.getContext(),
                              generalizeImpl(o.getElementType(), depth + 1));
  if (auto m = llvm::dyn_cast<ONNX::MapType>(t))
    return ONNX::MapType::get(t.getContext(), m.getKeyType(),
                              generalizeImpl(m.getValueType(), depth + 1));
  return t;
}

Type mlir::onnxc::generalizeType(Type t) { return generalizeImpl(t, 0); }

static FailureOr<Type> joinTensorTypes(TensorType a, TensorType b,
                                       std::string &error) {
  if (a.getElementType() != b.getElementType()) {
    error = "element type " + typeToString(b.getElementType()) +
            " differs from " + typeToString(a.getElementType());
    return failure();
  }
  auto ar = llvm::dyn_cast<RankedTensorType>(a);
  auto br = llvm::dyn_cast<RankedTensorType>(b);
  if (!ar || !br || ar.getRank() != br.getRank())
    return Type(UnrankedTensorType::get(a.getElementType()));
  SmallVector<SymDim> dims;
  for (unsigned i = 0; i < ar.getRank(); ++i) {
    SymDim x = SymDim::of(ar, i), y = SymDim::of(br, i);
    if (x.size == y.size && x.name == y.name)
      dims.push_back(x);
    else
      dims.push_back(SymDim());
  }
  return Type(getSymTensorType(dims, a.getElementType()));
}

static FailureOr<Type> joinImpl(Type a, Type b, std::string &error,
                                unsigned depth) {
  if (depth > kMaxTypeNesting) {
    error = "types are nested too deep";
    return failure();
  }
  if (a == b)
    return a;
  if (llvm::isa<ONNX::UnknownType>(a))
    return generalizeType(b);
  if (llvm::isa<ONNX::UnknownType>(b))
    return generalizeType(a);
  auto conflict = [&]() -> FailureOr<Type> {
    error = "type " + typeToString(b) + " differs from " + typeToString(a);
    return failure();
  };
  // A plain T is a present optional<T> (Loop-16 bodies may yield one for an
  // optional carried value).
  auto ao = llvm::dyn_cast<ONNX::OptType>(a);
  auto bo = llvm::dyn_cast<ONNX::OptType>(b);
  if ((ao != nullptr) != (bo != nullptr)) {
    FailureOr<Type> e = ao ? joinImpl(ao.getElementType(), b, error, depth + 1)
                           : joinImpl(a, bo.getElementType(), error, depth + 1);
    if (failed(e))
      return failure();
    return Type(ONNX::OptType::get(a.getContext(), *e));
  }
  if (auto at = llvm::dyn_cast<TensorType>(a)) {
    auto bt = llvm::dyn_cast<TensorType>(b);
    if (!bt)
      return conflict();
    return joinTensorTypes(at, bt, error);
  }
  if (auto as = llvm::dyn_cast<ONNX::SeqType>(a)) {
    auto bs = llvm::dyn_cast<ONNX::SeqType>(b);
    if (!bs)
      return conflict();
    FailureOr<Type> e =
        joinImpl(as.getElementType(), bs.getElementType(), error, depth + 1);
    if (failed(e))
      return failure();
    return Type(ONNX::SeqType::get(a.getContext(), *e));
  }
  if (ao) {
    FailureOr<Type> e =
        joinImpl(ao.getElementType(), bo.getElementType(), error, depth + 1);
    if (failed(e))
      return failure();
    return Type(ONNX::OptType::get(a.getContext(), *e));
  }
  if (auto am = llvm::dyn_cast<ONNX::MapType>(a)) {
    auto bm = llvm::dyn_cast<ONNX::MapType>(b);
    if (!bm || am.getKeyType() != bm.getKeyType())
      return conflict();
    FailureOr<Type> v =
        joinImpl(am.getValueType(), bm.getValueType(), error, depth + 1);
    if (failed(v))
      return failure();
    return Type(ONNX::MapType::get(a.getContext(), am.getKeyType(), *v));
  }
  return conflict();
}

FailureOr<Type> mlir::onnxc::joinTypes(Type a, Type b, std::string &error) {
  return joinImpl(a, b, error, 0);
}

//===----------------------------------------------------------------------===//
// Symbolic shapes
//===----------------------------------------------------------------------===//

SymDim SymDim::of(RankedTensorType type, unsigned dim) {
  SymDim d;
  d.size = type.getDimSize(dim);
  if (!d.isStatic())
    d.name = ONNX::getDimName(type, dim).str();
  return d;
}

SmallVector<SymDim> mlir::onnxc::getSymDims(RankedTensorType type) {
  SmallVector<SymDim> dims;
  for (unsigned i = 0; i < type.getRank(); ++i)
    dims.push_back(SymDim::of(type, i));
  return dims;
}

RankedTensorType mlir::onnxc::getSymTensorType(ArrayRef<SymDim> dims,
                                               Type elementType) {
  SmallVector<int64_t> shape;
  SmallVector<StringRef> names;
  for (const SymDim &d : dims) {
    shape.push_back(d.size);
    names.push_back(d.name);
  }
  return ONNX::getTensorType(shape, elementType, names);
}

FailureOr<SmallVector<SymDim>>
mlir::onnxc::broadcastShapes(ArrayRef<ArrayRef<SymDim>> shapes,
                             std::string &error) {
  size_t rank = 0;
  for (ArrayRef<SymDim> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<SymDim> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Dim i of the result, counted from the back of every shape.
    int64_t staticSize = 1;
    bool anyDynamic = false, sameName = true;
    std::string name;
    for (ArrayRef<SymDim> s : shapes) {
      if (i >= s.size())
        continue;
      const SymDim &d = s[s.size() - 1 - i];
      if (d.isStatic()) {
        if (d.size == 1)
          continue;
        if (staticSize != 1 && staticSize != d.size) {
          error = "incompatible dimensions " + std::to_string(staticSize) +
                  " and " + std::to_string(d.size) + " in broadcasting";
          return failure();
        }
        staticSize = d.size;
        continue;
      }
      if (!anyDynamic)
        name = d.name;
      else if (name != d.name)
        sameName = false;
      anyDynamic = true;
    }
    SymDim &o = out[rank - 1 - i];
    if (staticSize != 1 || !anyDynamic) {
      o.size = staticSize;
    } else {
      o.size = ShapedType::kDynamic;
      o.name = sameName ? name : "";
    }
  }
  return out;
}

SymDim mlir::onnxc::toSymDim(const onnx::TensorShapeProto::Dimension &d) {
  SymDim s;
  if (d.has_dim_value())
    s.size = d.dim_value();
  else if (d.has_dim_param())
    s.name = d.dim_param();
  return s;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

bool mlir::onnxc::isAbsent(Operation *op, unsigned index) {
  return index >= op->getNumOperands() ||
         llvm::isa<NoneType>(op->getOperand(index).getType());
}

int64_t mlir::onnxc::getIntAttr(Operation *op, StringRef name, int64_t dflt) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return dflt;
}

SmallVector<int64_t> mlir::onnxc::getAxesOrAll(Operation *op, int64_t rank) {
  SmallVector<int64_t> axes;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("axes"))
    axes.assign(a.asArrayRef().begin(), a.asArrayRef().end());
  else
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  return axes;
}

onnx::AttributeProto mlir::onnxc::makeIntAttr(const std::string &name,
                                              int64_t value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(value);
  return a;
}

onnx::AttributeProto mlir::onnxc::makeIntsAttr(const std::string &name,
                                               ArrayRef<int64_t> values) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a.add_ints(v);
  return a;
}

RankedTensorType mlir::onnxc::getRankedOperand(Operation *op, unsigned index) {
  if (index >= op->getNumOperands())
    return {};
  return llvm::dyn_cast<RankedTensorType>(op->getOperand(index).getType());
}

Type mlir::onnxc::getElementTypeOf(Value v) {
  if (auto t = llvm::dyn_cast<TensorType>(v.getType()))
    return t.getElementType();
  return {};
}

//===- ProtoBridge.h - ONNX protobuf <-> onnx dialect values ----*- C++ -*-===//
//
// Conversions between ONNX protobuf messages (TypeProto, TensorProto,
// AttributeProto) and MLIR types and attributes of the onnx dialect. The
// importer uses them one way, shape inference (which calls libonnx's
// inference functions) both ways. No exceptions: failures return an error
// message for the caller to attach to a node.
//
// Large tensors become DenseResourceElementsAttr blobs that take ownership of
// the protobuf's raw_data string: a weight is copied at most once (from the
// file into the protobuf) on its way into the IR.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_PROTO_PROTOBRIDGE_H
#define ONNXC_DIALECTS_ONNX_PROTO_PROTOBRIDGE_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

#include "onnx/onnx_pb.h"

#include <string>

namespace mlir::onnxc::proto {

/// MLIR element type of an ONNX TensorProto::DataType; null if unsupported.
Type getElementType(MLIRContext *ctx, int32_t dataType);
/// ONNX TensorProto::DataType of an MLIR element type; 0 if none.
int32_t getDataType(Type elementType);
/// "float", "int64", ... for messages.
std::string getDataTypeName(int32_t dataType);

/// Sequence, optional and map types nest at most this deep.
constexpr unsigned kMaxTypeNesting = 64;

/// TypeProto -> tensor / !onnx.seq / !onnx.opt / !onnx.map type.
/// Dims with a dim_param become dynamic dims named by #onnx.dims.
FailureOr<Type> importType(MLIRContext *ctx, const onnx::TypeProto &type,
                           std::string &error);
/// MLIR type -> TypeProto; false if the type has no ONNX equivalent.
bool exportType(Type type, onnx::TypeProto &out);

/// Where external tensor data may be read from.
struct ExternalDataPolicy {
  /// The model file's directory; external data paths are relative to it and
  /// may not leave it (absolute paths, ".." and links outside are refused).
  std::string baseDir;
};

/// Tensors with more bytes than this become resource blobs.
constexpr size_t kResourceThresholdBytes = 1024;

/// TensorProto -> ElementsAttr (DenseElementsAttr, DenseResourceElementsAttr
/// for large numeric tensors, DenseStringElementsAttr). May take ownership of
/// `t`'s raw_data. `policy` null refuses external data.
FailureOr<ElementsAttr> importTensor(MLIRContext *ctx, onnx::TensorProto &t,
                                     const ExternalDataPolicy *policy,
                                     std::string &error);
/// SparseTensorProto -> SparseElementsAttr.
FailureOr<ElementsAttr> importSparseTensor(MLIRContext *ctx,
                                           onnx::SparseTensorProto &t,
                                           const ExternalDataPolicy *policy,
                                           std::string &error);
/// ElementsAttr -> TensorProto (dense and resource attributes).
bool exportTensor(ElementsAttr attr, onnx::TensorProto &out);

/// The kind of an AttributeProto, recovered from its fields for old models
/// that leave `type` unset.
int getAttributeKind(const onnx::AttributeProto &attr);

/// Whether the fields of `attr` agree with its `type`: one kind of value at
/// most, of that type (an empty list may leave `type` UNDEFINED). False
/// with `error` ("has the type UNDEFINED ...") otherwise.
bool checkAttributeFields(const onnx::AttributeProto &attr, std::string &error);

/// AttributeProto (not GRAPH/GRAPHS) -> attribute of the dialect's kind for
/// `expectedKind` (an int where a float is expected is widened).
FailureOr<Attribute> importAttribute(MLIRContext *ctx,
                                     onnx::AttributeProto &attr,
                                     int expectedKind,
                                     const ExternalDataPolicy *policy,
                                     std::string &error);
/// Attribute -> AttributeProto of kind `kind`; false if it does not convert.
bool exportAttribute(Attribute attr, int kind, const std::string &name,
                     onnx::AttributeProto &out);

/// Name of an attribute kind ("int", "floats", "graph", ...).
const char *getAttributeKindName(int kind);

} // namespace mlir::onnxc::proto

#endif // ONNXC_DIALECTS_ONNX_PROTO_PROTOBRIDGE_H

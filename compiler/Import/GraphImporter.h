//===- GraphImporter.h - Importer internals ---------------------*- C++ -*-===//
//
// Private to compiler/Import: the state of one model import. GraphImporter.cpp
// builds graphs, nodes and functions; Upgrade.cpp rewrites nodes of older
// opsets into the dialect's canonical signatures.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_COMPILER_IMPORT_GRAPHIMPORTER_H
#define ONNXC_COMPILER_IMPORT_GRAPHIMPORTER_H

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/OpInfo.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"
#include "passes/ONNX/Inference/Inference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::onnxc::import {

/// Opset version per canonical domain ("" is ai.onnx).
using OpsetMap = std::map<std::string, int64_t>;

/// Names visible to a graph: its own values, then (unless isolated) the
/// enclosing graphs' values.
struct Scope {
  llvm::StringMap<Value> values;
  const Scope *parent = nullptr;
  Value lookup(llvm::StringRef name) const {
    for (const Scope *s = this; s; s = s->parent)
      if (Value v = s->values.lookup(name))
        return v;
    return {};
  }
};

/// A node being imported, after its op and signature version are resolved.
struct NodeState {
  onnx::NodeProto node;  ///< a copy the upgrades may edit
  std::string label;     ///< node name, or "#index" when it has none
  std::string domain;    ///< canonical domain
  int64_t version = 0;   ///< version of the node's signature (schema since_version)
  const ONNX::OpInfo *info = nullptr;
};

/// Reads opset imports by canonical domain; fails on a domain imported
/// twice.
LogicalResult readOpsets(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto> &imports,
    OpsetMap &opsets, std::string &error);

/// Largest opset per domain onnxc accepts.
int64_t maxSupportedOpset(llvm::StringRef domain);

class GraphImporter {
public:
  /// `maxNodes`: most nodes the model may hold once functions are inlined.
  GraphImporter(MLIRContext &ctx, std::string fileName, std::string baseDir,
                uint64_t maxNodes);

  /// Imports the whole model; null after an error.
  OwningOpRef<ModuleOp> importModel(onnx::ModelProto &model);

  //--- Used by the upgrades (Upgrade.cpp) -----------------------------------
  /// A constant holding `values` (1-D, or a scalar when `scalar`).
  Value makeI64Constant(ArrayRef<int64_t> values, bool scalar = false);
  /// A scalar constant of `elementType` holding `v`.
  Value makeScalarConstant(Type elementType, double v);
  /// Creates an onnx op with inferred result types; null after an error.
  Operation *createOp(llvm::StringRef opName, ValueRange operands,
                      ArrayRef<NamedAttribute> attrs, unsigned numResults,
                      Location loc);
  Value noValue();
  Location nodeLoc(const NodeState &n) const;
  /// Emits "node 'label' (OpType): message" and returns failure.
  LogicalResult nodeError(const NodeState &n, const llvm::Twine &message);

  OpBuilder builder;
  MLIRContext *ctx;

private:
  friend struct ModelChecks;
  LogicalResult importGraph(onnx::GraphProto &graph, Block *block, Scope &scope,
                            const OpsetMap &opsets, bool isMain,
                            SmallVectorImpl<Type> *resultTypes,
                            SmallVectorImpl<std::string> *inputNames,
                            SmallVectorImpl<std::string> *outputNames);
  LogicalResult importNodes(std::vector<onnx::NodeProto *> &nodes, Scope &scope,
                            const OpsetMap &opsets,
                            const llvm::StringMap<onnx::TypeProto *> &valueInfo,
                            llvm::StringRef labelPrefix);
  LogicalResult importNode(onnx::NodeProto &node, size_t index, Scope &scope,
                           const OpsetMap &opsets,
                           const llvm::StringMap<onnx::TypeProto *> &valueInfo,
                           llvm::StringRef labelPrefix);
  LogicalResult buildOp(NodeState &n, Scope &scope,
                        const llvm::StringMap<onnx::TypeProto *> &valueInfo,
                        const OpsetMap &opsets);
  SmallVector<Value> foldKnownIf(Operation *op);
  SmallVector<Value> foldKnownResults(Operation *op);
  LogicalResult inlineFunction(const onnx::FunctionProto &fn, NodeState &n,
                               Scope &scope);
  LogicalResult normalizeConstant(NodeState &n);
  /// A node of a domain onnxc does not know as an onnx.Custom op, its
  /// results typed by value_info or the graph's output types (CustomOp.cpp).
  LogicalResult importCustomNode(NodeState &n, Scope &scope,
                                 const llvm::StringMap<onnx::TypeProto *> &valueInfo);
  /// Rewrites `n` from its signature version to the canonical one; may
  /// instead build the replacement itself and set `handled`.
  LogicalResult upgradeNode(NodeState &n, Scope &scope, bool &handled);
  /// Builds `func.func @name` in `module` from `graph` (a main graph: its
  /// inputs are the arguments, its initializers constants); null after an
  /// error.
  func::FuncOp importFunction(onnx::GraphProto &graph, llvm::StringRef name,
                              const OpsetMap &opsets, ModuleOp module);
  /// The functions of the model's TrainingInfoProto (Training.cpp).
  LogicalResult importTraining(onnx::ModelProto &model, const OpsetMap &opsets,
                               ModuleOp module);
  Value importInitializer(onnx::TensorProto &t);
  Value importSparseInitializer(onnx::SparseTensorProto &t);
  FailureOr<Type> mergeDeclaredType(Value v, StringRef name,
                                    const onnx::TypeProto &declared,
                                    std::string &error);

  std::string fileName;
  proto::ExternalDataPolicy policy;
  /// Null when external data is refused (no model directory).
  const proto::ExternalDataPolicy *policyPtr = nullptr;
  std::unique_ptr<InferenceState> inference;
  std::map<std::pair<std::string, std::string>, const onnx::FunctionProto *>
      functions;
  unsigned depth = 0;
  /// Named constants the next importFunction adds to its main graph's
  /// initializers (Training.cpp); null for none.
  const llvm::StringMap<ElementsAttr> *sharedConstants = nullptr;
  uint64_t maxNodes;
  uint64_t numNodes = 0; ///< nodes imported so far, inlined ones included
  Value cachedNoValue;
  /// The declared output types of the graph being imported.
  llvm::StringMap<onnx::TypeProto *> outputTypes;
  Block *mainBlock = nullptr;
};

/// Empty, or why `node` (ai.onnx, imported at `opset`) uses an op, input or
/// attribute of opsets 22-25 that its opset does not have yet: their
/// canonical signatures cover the earlier versions too (Upgrade.cpp).
std::string opsetPatchError(const onnx::NodeProto &node, int64_t opset);
/// The same for ai.onnx.ml opsets 4 and 5 (Upgrade.cpp).
std::string mlOpsetPatchError(const onnx::NodeProto &node, int64_t opset);

} // namespace mlir::onnxc::import

#endif // ONNXC_COMPILER_IMPORT_GRAPHIMPORTER_H

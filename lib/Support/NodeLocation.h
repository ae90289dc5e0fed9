//===- NodeLocation.h - ONNX nodes in the locations of later stages -*- C++ -*-===//
//
// The importer gives every op the location NameLoc(node name,
// FusedLoc<"OpType">[file]). Before the onnx ops are lowered,
// convert-onnx-to-linalg tags the locations that lack the op type (ops
// written by hand or by passes) with it (a FusedLoc whose metadata is the
// type), so that every
// op a lowering creates, and every buffer and check the later stages derive
// from it, can still name its ONNX node in a run-time message:
// "node 'conv1' (Conv)".
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_LIB_SUPPORT_NODELOCATION_H
#define ONNXC_LIB_SUPPORT_NODELOCATION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <string>

namespace mlir::onnxc {

/// `loc` tagged with the ONNX op type `opType` ("Conv", "ml.Scaler").
Location tagOpType(Location loc, StringRef opType);

/// The ONNX node behind a location: its name (empty when the location names
/// none) and op type (empty when untagged).
struct NodeInfo {
  std::string name, opType;
};
/// Looks through name and fused locations (the first tagged one wins) for a
/// tagged location.
NodeInfo getNodeInfo(Location loc);

/// "node 'name' (OpType)", or "OpType" without a name, or "" when `loc`
/// carries no tag. Bytes below 0x20 and 0x7f become "\xNN", so that the
/// label stays one line and free of the byte run-time messages use as a
/// placeholder (onnxc_rt_fail_values).
std::string nodeLabel(Location loc);

/// The address (an !llvm.ptr) of a NUL-terminated constant global holding
/// `text` in the module of the insertion point, one global per distinct text
/// (`__onnxc_msg<N>`): the messages generated code passes to the runtime.
/// `module`, when given, is where the global goes (for a builder inside a
/// region not yet attached to its op).
Value createMessageGlobal(OpBuilder &b, Location loc, StringRef text,
                          Operation *module = nullptr);

} // namespace mlir::onnxc

#endif // ONNXC_LIB_SUPPORT_NODELOCATION_H

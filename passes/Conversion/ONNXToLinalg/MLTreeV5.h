//===- MLTreeV5.h - TreeEnsemble-5 in the opset-3 form ----------*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in MLTreeV5.cpp: the nodes and leaf
// weights of a tree ensemble as TreeEnsembleRegressor/Classifier (ai.onnx.ml
// 3) list them (TreeSpec), which MLTree.cpp turns into tables and a walk,
// and the expansion of TreeEnsemble (ai.onnx.ml 5) into that form: its
// leaves become LEAF nodes and its BRANCH_MEMBER nodes chains of BRANCH_EQ
// nodes.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLTREEV5_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLTREEV5_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::onnxc::linalg_conv {

/// Node modes, as TreeEnsemble-5 numbers its branch modes.
enum TreeNodeMode : int32_t {
  kTreeLEQ = 0,
  kTreeLT,
  kTreeGTE,
  kTreeGT,
  kTreeEQ,
  kTreeNEQ,
  kTreeLeaf
};

/// Parallel lists: one entry per node (nodes_*), one per leaf weight
/// (target_* or class_*). `tracks` is empty or one 0/1 per node.
struct TreeSpec {
  SmallVector<int64_t> treeIds, nodeIds, featureIds, trueIds, falseIds, tracks;
  SmallVector<int32_t> modes;
  SmallVector<double> values;
  SmallVector<int64_t> weightTree, weightNode, weightId;
  SmallVector<double> weightValue;
};

/// The TreeEnsemble-5 attributes of `op` in the opset-3 form; false with
/// `error` (naming the attribute or node) when they are inconsistent: lists
/// of different lengths, a mode other than 0-6, a root, child or leaf index
/// out of range, a cycle, a target id outside [0, numTargets), membership
/// sets that do not match the BRANCH_MEMBER nodes, more than 2^26 nodes
/// once expanded (a node reached from several parents is copied).
bool expandTreeEnsembleV5(Operation *op, int64_t numTargets, TreeSpec &spec,
                          std::string &error);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_MLTREEV5_H

//===- MLTreeV5.cpp - TreeEnsemble (ai.onnx.ml 5) in the opset-3 form -----===//
//
// TreeEnsemble-5 lists interior nodes (nodes_*, indexed by position) and
// leaves (leaf_*: one target id and one weight each) apart; a child is a
// node or a leaf by nodes_trueleafs / nodes_falseleafs, a tree is its root
// in tree_roots. This file rewrites the ensemble in the form of
// TreeEnsembleRegressor (ai.onnx.ml 3), which MLTree.cpp lowers: per tree,
// each node reached becomes a node of that tree (a node reached from two
// parents or two trees is copied), each leaf reached a LEAF node with its one
// weight, and a BRANCH_MEMBER node with set {v1..vk} the chain
// EQ v1 -> (true: the true child, false: EQ v2 -> ... -> false child), every
// link tracking missing values as the node does (NaN is in no set, so it
// takes the false way unless tracked). The links share their true child:
// the result is a DAG per tree, which MLTree.cpp accepts for this form. A root
// whose two children are the same leaf is that leaf (the spec's one-leaf tree;
// its feature is not read). membership_values holds the sets in the order of
// the BRANCH_MEMBER nodes in nodes_modes, each ended by a NaN.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/MLTreeV5.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

constexpr int32_t kMember = 6;
/// Expanded nodes beyond this are refused (copies of shared subtrees can
/// grow exponentially).
constexpr size_t kMaxExpandedNodes = size_t(1) << 26;

ArrayRef<int64_t> ints(Operation *op, StringRef name) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return a.asArrayRef();
  return {};
}

} // namespace

bool mlir::onnxc::linalg_conv::expandTreeEnsembleV5(Operation *op,
                                                    int64_t numTargets,
                                                    TreeSpec &spec,
                                                    std::string &error) {
  ArrayRef<int64_t> featureIds = ints(op, "nodes_featureids");
  ArrayRef<int64_t> trueIds = ints(op, "nodes_truenodeids");
  ArrayRef<int64_t> falseIds = ints(op, "nodes_falsenodeids");
  ArrayRef<int64_t> trueLeafs = ints(op, "nodes_trueleafs");
  ArrayRef<int64_t> falseLeafs = ints(op, "nodes_falseleafs");
  ArrayRef<int64_t> tracks = ints(op, "nodes_missing_value_tracks_true");
  ArrayRef<int64_t> roots = ints(op, "tree_roots");
  ArrayRef<int64_t> leafTargets = ints(op, "leaf_targetids");
  std::optional<TensorValues> modes =
      readTensorAttr(op->getAttrOfType<ElementsAttr>("nodes_modes"));
  std::optional<TensorValues> splits =
      readTensorAttr(op->getAttrOfType<ElementsAttr>("nodes_splits"));
  std::optional<TensorValues> weights =
      readTensorAttr(op->getAttrOfType<ElementsAttr>("leaf_weights"));
  auto memberAttr = op->getAttrOfType<ElementsAttr>("membership_values");
  std::optional<TensorValues> members = readTensorAttr(memberAttr);
  size_t n = featureIds.size();
  auto fail = [&](const std::string &msg) {
    error = msg;
    return false;
  };
  if (!modes || modes->ints.size() != modes->size() ||
      !modes->elementType.isUnsignedInteger(8))
    return fail("nodes_modes must be a uint8 tensor");
  if (!splits || splits->floats.size() != splits->size())
    return fail("nodes_splits must be a float tensor");
  if (!weights || weights->floats.size() != weights->size())
    return fail("leaf_weights must be a float tensor");
  if (memberAttr && (!members || members->floats.size() != members->size()))
    return fail("membership_values must be a float tensor");
  if (n == 0)
    return fail("nodes_featureids must not be empty");
  struct Named {
    size_t size;
    const char *name;
  };
  for (Named l : {Named{trueIds.size(), "nodes_truenodeids"},
                  Named{falseIds.size(), "nodes_falsenodeids"},
                  Named{trueLeafs.size(), "nodes_trueleafs"},
                  Named{falseLeafs.size(), "nodes_falseleafs"},
                  Named{modes->size(), "nodes_modes"},
                  Named{splits->size(), "nodes_splits"}})
    if (l.size != n)
      return fail(std::string(l.name) + " has " + std::to_string(l.size) +
                  " entries, nodes_featureids " + std::to_string(n));
  if (!tracks.empty() && tracks.size() != n)
    return fail("nodes_missing_value_tracks_true has " +
                std::to_string(tracks.size()) + " entries, nodes_featureids " +
                std::to_string(n));
  size_t numLeaves = leafTargets.size();
  if (weights->size() != numLeaves)
    return fail("leaf_weights has " + std::to_string(weights->size()) +
                " entries, leaf_targetids " + std::to_string(numLeaves));
  for (size_t j = 0; j < numLeaves; ++j)
    if (leafTargets[j] < 0 || leafTargets[j] >= numTargets)
      return fail("leaf_targetids[" + std::to_string(j) +
                  "] = " + std::to_string(leafTargets[j]) +
                  " is out of range [0, " + std::to_string(numTargets) + ")");
  if (roots.empty())
    return fail("tree_roots must not be empty");

  // Per node: mode, children in range, the membership set.
  SmallVector<SmallVector<double>> sets(n);
  size_t numMembers = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t m = modes->ints[i];
    if (m < 0 || m > kMember)
      return fail("nodes_modes[" + std::to_string(i) +
                  "] = " + std::to_string(m) + " is not a mode (0-6)");
    numMembers += m == kMember;
    if (featureIds[i] < 0)
      return fail("node " + std::to_string(i) + ": negative feature id " +
                  std::to_string(featureIds[i]));
    for (int side = 0; side < 2; ++side) {
      int64_t leaf = (side ? falseLeafs : trueLeafs)[i];
      int64_t id = (side ? falseIds : trueIds)[i];
      const char *what = side ? "false" : "true";
      if (leaf != 0 && leaf != 1)
        return fail(std::string("nodes_") + what + "leafs[" +
                    std::to_string(i) + "] must be 0 or 1");
      size_t limit = leaf ? numLeaves : n;
      if (id < 0 || (size_t)id >= limit)
        return fail("node " + std::to_string(i) + ": " + what + " child " +
                    std::to_string(id) + " is not a " +
                    (leaf ? "leaf" : "node") + " (there are " +
                    std::to_string(limit) + ")");
    }
  }
  // The sets, in node order, each ended by a NaN (the last NaN may be left
  // out).
  if (numMembers) {
    if (!members)
      return fail("membership_values must be given for the BRANCH_MEMBER "
                  "nodes");
    size_t k = 0;
    size_t numSets = 0;
    SmallVector<SmallVector<double>> parsed(1);
    for (double v : members->floats) {
      if (std::isnan(v))
        parsed.emplace_back();
      else
        parsed.back().push_back(v);
    }
    if (parsed.back().empty() && !members->floats.empty() &&
        std::isnan(members->floats.back()))
      parsed.pop_back();
    numSets = parsed.size();
    if (numSets != numMembers)
      return fail("membership_values has " + std::to_string(numSets) +
                  " sets, there are " + std::to_string(numMembers) +
                  " BRANCH_MEMBER nodes");
    for (size_t i = 0; i < n; ++i)
      if (modes->ints[i] == kMember)
        sets[i] = parsed[k++];
  }
  // No cycle among the nodes (iterative three-colour DFS from every node).
  {
    std::vector<char> colour(n, 0); // 0 new, 1 on the path, 2 done
    for (size_t s = 0; s < n; ++s) {
      if (colour[s])
        continue;
      SmallVector<std::pair<size_t, int>> stack = {{s, 0}};
      colour[s] = 1;
      while (!stack.empty()) {
        auto &[i, next] = stack.back();
        if (next == 2) {
          colour[i] = 2;
          stack.pop_back();
          continue;
        }
        int side = next++;
        if ((side ? falseLeafs : trueLeafs)[i])
          continue;
        size_t c = (side ? falseIds : trueIds)[i];
        if (colour[c] == 1)
          return fail("node " + std::to_string(c) +
                      " is its own descendant (a cycle)");
        if (colour[c] == 0) {
          colour[c] = 1;
          stack.push_back({c, 0});
        }
      }
    }
  }

  // Expansion, tree by tree.
  for (size_t t = 0; t < roots.size(); ++t) {
    int64_t root = roots[t];
    if (root < 0 || (size_t)root >= n)
      return fail("tree_roots[" + std::to_string(t) +
                  "] = " + std::to_string(root) + " is not a node (there are " +
                  std::to_string(n) + ")");
    int64_t nextId = 0;
    auto addNode = [&](int64_t feature, int32_t mode, double value,
                       int64_t track) -> size_t {
      spec.treeIds.push_back(t);
      spec.nodeIds.push_back(nextId++);
      spec.featureIds.push_back(feature);
      spec.modes.push_back(mode);
      spec.values.push_back(value);
      spec.trueIds.push_back(0);
      spec.falseIds.push_back(0);
      spec.tracks.push_back(track);
      return spec.nodeIds.size() - 1;
    };
    auto addLeaf = [&](int64_t leaf) -> int64_t {
      size_t at = addNode(0, kTreeLeaf, 0.0, 0);
      spec.weightTree.push_back(t);
      spec.weightNode.push_back(spec.nodeIds[at]);
      spec.weightId.push_back(leafTargets[leaf]);
      spec.weightValue.push_back(weights->floats[leaf]);
      return spec.nodeIds[at];
    };
    if (trueLeafs[root] && falseLeafs[root] &&
        trueIds[root] == falseIds[root]) {
      addLeaf(trueIds[root]);
      continue;
    }
    // Work items: expand node `index`, whose first expanded node's id goes
    // to the spec slots `slots` of the true (side 0) or false (1) children
    // (none for the root; several for the true child of a member chain,
    // which its links share).
    struct Item {
      int64_t index;
      bool leaf;
      SmallVector<int64_t, 1> slots;
      int side;
    };
    SmallVector<Item> work = {{root, false, {}, 0}};
    while (!work.empty()) {
      Item it = work.pop_back_val();
      if (spec.nodeIds.size() >= kMaxExpandedNodes)
        return fail("the trees expand to more than 2^26 nodes (nodes reached "
                    "from several parents are copied)");
      int64_t id;
      if (it.leaf) {
        id = addLeaf(it.index);
      } else {
        size_t i = it.index;
        int64_t track = tracks.empty() ? 0 : tracks[i];
        int32_t mode = modes->ints[i];
        // A member node: one EQ link per value (an empty set: one EQ with
        // NaN, never true).
        SmallVector<double> values =
            mode == kMember ? sets[i] : SmallVector<double>{splits->floats[i]};
        if (values.empty())
          values.push_back(NAN);
        int32_t linkMode = mode == kMember ? kTreeEQ : mode;
        SmallVector<size_t> links;
        for (double v : values)
          links.push_back(addNode(featureIds[i], linkMode, v, track));
        id = spec.nodeIds[links[0]];
        // Link k's false child is link k + 1; every link's true child and
        // the last link's false child are the node's children.
        for (size_t k = 0; k + 1 < links.size(); ++k)
          spec.falseIds[links[k]] = spec.nodeIds[links[k + 1]];
        SmallVector<int64_t, 1> trueSlots(links.begin(), links.end());
        work.push_back({trueIds[i], (bool)trueLeafs[i], trueSlots, 0});
        work.push_back(
            {falseIds[i], (bool)falseLeafs[i], {(int64_t)links.back()}, 1});
      }
      for (int64_t slot : it.slots)
        (it.side ? spec.falseIds : spec.trueIds)[slot] = id;
    }
  }
  return true;
}

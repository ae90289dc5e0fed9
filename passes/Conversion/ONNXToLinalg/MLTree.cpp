//===- MLTree.cpp - TreeEnsembleRegressor/Classifier -> table walks -------===//
//
// ai.onnx.ml TreeEnsembleRegressor and TreeEnsembleClassifier (opsets 1 and
// 3: nodes_* attributes, or their *_as_tensor forms). The trees are
// attributes, so the compiler checks them (every child a node of the same
// tree, no node reached twice: no cycle) and embeds them as constant tables
// indexed by node (position in nodes_*): feature, threshold, mode (bit 3:
// missing_value_tracks_true), true and false child; for a leaf the two child
// slots hold the range of its weights in the leaf-weight tables (target or
// class id, weight), sorted by leaf. At run time, per row and tree, an
// scf.while walks from the tree's root (the first node listed with its tree
// id) to a leaf, and the leaf's weights are aggregated into an [N, targets]
// accumulator (f32, or f64 for a f64 X, as ONNX Runtime). The scores are
// then finalized per row as ONNX Runtime does (base values, AVERAGE's
// division, MIN/MAX rows no leaf reached, the classifier's binary cases and
// label choice) and post-transformed. Labels are int64 only: string tensors
// do not cross the C API.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/MLTreeV5.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

enum NodeMode : int32_t { LEQ = 0, LT, GTE, GT, EQ, NEQ, LEAF };
constexpr int32_t kTracksTrue = 8;

enum class Aggregate { Sum, Average, Min, Max };

/// Rows per block of the walk (see Walker::run).
constexpr int64_t kRowBlock = 64;

/// The ensemble as tables indexed by node (the position in nodes_*).
struct Tables {
  SmallVector<int64_t> feature, trueChild, falseChild, roots;
  SmallVector<int32_t> mode;
  SmallVector<double> threshold;
  SmallVector<int64_t> weightId; // target or class, sorted by leaf
  SmallVector<double> weightValue;
  /// Every branch node has this mode (-1: mixed), no node tracks missing
  /// values as true.
  int32_t commonMode = -1;
  bool anyTracks = false;
  int64_t maxFeature = -1;
  /// Targets every row is sure to get a weight for (some tree has one for
  /// it at every leaf).
  SmallVector<bool> alwaysReached;
  /// The distinct targets of the weights.
  std::set<int64_t> idsUsed;
  bool allWeightsPositive = true;
};

std::optional<int32_t> parseMode(StringRef s) {
  return llvm::StringSwitch<std::optional<int32_t>>(s)
      .Case("BRANCH_LEQ", LEQ)
      .Case("BRANCH_LT", LT)
      .Case("BRANCH_GTE", GTE)
      .Case("BRANCH_GT", GT)
      .Case("BRANCH_EQ", EQ)
      .Case("BRANCH_NEQ", NEQ)
      .Case("LEAF", LEAF)
      .Default(std::nullopt);
}

/// (tree id, node id) -> the node's index in the nodes_* lists.
using NodeIndex = std::map<std::pair<int64_t, int64_t>, int64_t>;

/// The children of every branch node, within its own tree, and the check
/// that every tree is one: each node reached once from its root.
LogicalResult linkTrees(Operation *op, Tables &t, const NodeIndex &index,
                        ArrayRef<int64_t> treeIds, ArrayRef<int64_t> nodeIds,
                        ArrayRef<int64_t> trueIds, ArrayRef<int64_t> falseIds,
                        bool allowShared) {
  size_t n = nodeIds.size();
  // Children, within the node's own tree.
  t.trueChild.assign(n, 0);
  t.falseChild.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if ((t.mode[i] & ~kTracksTrue) == LEAF)
      continue;
    for (int side = 0; side < 2; ++side) {
      int64_t id = side == 0 ? trueIds[i] : falseIds[i];
      auto it = index.find({treeIds[i], id});
      if (it == index.end())
        return op->emitOpError("node ")
               << nodeIds[i] << " of tree " << treeIds[i] << ": "
               << (side == 0 ? "true" : "false") << " child " << id
               << " is not a node of the tree";
      (side == 0 ? t.trueChild : t.falseChild)[i] = it->second;
    }
  }
  // Each tree: every node reachable from the root once (iterative walk);
  // with `allowShared` (a TreeEnsemble-5 expansion, acyclic by
  // construction) a node may have several parents.
  std::vector<char> seen(n, 0);
  for (int64_t root : t.roots) {
    SmallVector<int64_t> stack = {root};
    while (!stack.empty()) {
      int64_t i = stack.pop_back_val();
      if (seen[i] && allowShared)
        continue;
      if (seen[i])
        return op->emitOpError("tree ")
               << treeIds[root] << " is not a tree: node " << nodeIds[i]
               << " is reached twice (a cycle or a shared child)";
      seen[i] = 1;
      if ((t.mode[i] & ~kTracksTrue) != LEAF) {
        stack.push_back(t.trueChild[i]);
        stack.push_back(t.falseChild[i]);
      }
    }
  }
  return success();
}

/// The leaf weights (`prefix`_*), grouped by leaf in their order: a leaf's
/// trueChild and falseChild become the range of its weights. Also the ids
/// used, and the targets some tree weighs at every leaf.
LogicalResult addLeafWeights(Operation *op, Tables &t, const NodeIndex &index,
                             const TreeSpec &spec, StringRef prefix,
                             int64_t numTargets) {
  size_t n = t.mode.size();
  ArrayRef<int64_t> wTree = spec.weightTree;
  ArrayRef<int64_t> wNode = spec.weightNode;
  ArrayRef<int64_t> wIds = spec.weightId;
  const SmallVector<double> *wValues = &spec.weightValue;
  size_t nw = wIds.size();
  size_t nwv = wValues->size();
  if (wTree.size() != nw || wNode.size() != nw || nwv != nw)
    return op->emitOpError() << prefix << "ids, " << prefix << "treeids, "
                             << prefix << "nodeids and " << prefix
                             << "weights must have the same length (" << nw
                             << ", " << wTree.size() << ", " << wNode.size()
                             << ", " << nwv << ")";
  std::vector<SmallVector<std::pair<int64_t, double>>> perNode(n);
  for (size_t k = 0; k < nw; ++k) {
    auto it = index.find({wTree[k], wNode[k]});
    if (it == index.end())
      return op->emitOpError() << prefix << "nodeids[" << k << "]: node "
                               << wNode[k] << " of tree " << wTree[k]
                               << " does not exist";
    if (wIds[k] < 0 || wIds[k] >= numTargets)
      return op->emitOpError() << prefix << "ids[" << k << "] = " << wIds[k]
                               << " is out of range [0, " << numTargets << ")";
    perNode[it->second].push_back({wIds[k], (*wValues)[k]});
    t.idsUsed.insert(wIds[k]);
    if ((*wValues)[k] < 0)
      t.allWeightsPositive = false;
  }
  for (size_t i = 0; i < n; ++i) {
    if ((t.mode[i] & ~kTracksTrue) != LEAF)
      continue;
    t.trueChild[i] = t.weightId.size();
    for (auto [id, w] : perNode[i]) {
      t.weightId.push_back(id);
      t.weightValue.push_back(w);
    }
    t.falseChild[i] = t.weightId.size();
  }
  if (t.weightId.size() >= (1u << 31))
    return op->emitOpError("more than 2^31 leaf weights are not supported");
  // Targets some tree weighs at every leaf (each node counted once per
  // tree: a TreeEnsemble-5 expansion shares nodes).
  t.alwaysReached.assign(numTargets, false);
  std::vector<int64_t> stamp(n, -1);
  for (int64_t root : t.roots) {
    std::vector<int64_t> count(numTargets, 0);
    int64_t leaves = 0;
    SmallVector<int64_t> stack = {root};
    while (!stack.empty()) {
      int64_t i = stack.pop_back_val();
      if (stamp[i] == root)
        continue;
      stamp[i] = root;
      if ((t.mode[i] & ~kTracksTrue) != LEAF) {
        stack.push_back(t.trueChild[i]);
        stack.push_back(t.falseChild[i]);
        continue;
      }
      ++leaves;
      std::set<int64_t> ids;
      for (auto [id, w] : perNode[i])
        ids.insert(id);
      for (int64_t id : ids)
        ++count[id];
    }
    for (int64_t k = 0; k < numTargets; ++k)
      if (count[k] == leaves)
        t.alwaysReached[k] = true;
  }
  return success();
}

/// Checks the ensemble `spec` (`prefix`: target_ or class_, for the
/// messages) and builds its tables. `allowShared`: a node may have several
/// parents (TreeEnsemble-5's expansion).
FailureOr<Tables> buildTablesFromSpec(Operation *op, const TreeSpec &spec,
                                      StringRef prefix, int64_t numTargets,
                                      bool allowShared) {
  ArrayRef<int64_t> treeIds = spec.treeIds;
  ArrayRef<int64_t> nodeIds = spec.nodeIds;
  ArrayRef<int64_t> featureIds = spec.featureIds;
  ArrayRef<int64_t> trueIds = spec.trueIds;
  ArrayRef<int64_t> falseIds = spec.falseIds;
  ArrayRef<int64_t> tracks = spec.tracks;
  ArrayRef<int32_t> modes = spec.modes;
  const SmallVector<double> *values = &spec.values;
  size_t n = nodeIds.size();
  if (n == 0)
    return op->emitOpError("nodes_nodeids must not be empty");
  auto sameLength = [&](size_t size, StringRef name) -> LogicalResult {
    if (size == n)
      return success();
    return op->emitOpError() << name << " has " << size
                             << " entries, nodes_nodeids " << n;
  };
  if (failed(sameLength(treeIds.size(), "nodes_treeids")) ||
      failed(sameLength(featureIds.size(), "nodes_featureids")) ||
      failed(sameLength(trueIds.size(), "nodes_truenodeids")) ||
      failed(sameLength(falseIds.size(), "nodes_falsenodeids")) ||
      failed(sameLength(modes.size(), "nodes_modes")) ||
      failed(sameLength(values->size(),
                        "nodes_values (or nodes_values_as_tensor)")))
    return failure();
  if (!tracks.empty() && failed(sameLength(tracks.size(),
                                           "nodes_missing_value_tracks_true")))
    return failure();

  Tables t;
  NodeIndex index;
  std::map<int64_t, int64_t> rootOf;
  for (size_t i = 0; i < n; ++i) {
    if (!index.emplace(std::make_pair(treeIds[i], nodeIds[i]), i).second)
      return op->emitOpError("node ")
             << nodeIds[i] << " of tree " << treeIds[i] << " is listed twice";
    if (!rootOf.count(treeIds[i])) {
      rootOf[treeIds[i]] = i;
      t.roots.push_back(i);
    }
    std::optional<int32_t> m = modes[i];
    if (*m < 0)
      return op->emitOpError("nodes_modes[")
             << i << "] must be BRANCH_LEQ, BRANCH_LT, BRANCH_GTE, BRANCH_GT, "
             << "BRANCH_EQ, BRANCH_NEQ or LEAF";
    bool tr = !tracks.empty() && tracks[i] == 1;
    t.mode.push_back(*m | (tr && *m != LEAF ? kTracksTrue : 0));
    if (*m != LEAF) {
      t.anyTracks |= tr;
      if (featureIds[i] < 0)
        return op->emitOpError("node ")
               << nodeIds[i] << " of tree " << treeIds[i]
               << ": negative feature id " << featureIds[i];
      t.maxFeature = std::max(t.maxFeature, featureIds[i]);
    }
    t.feature.push_back(*m == LEAF ? 0 : featureIds[i]);
    t.threshold.push_back((*values)[i]);
  }
  // The common branch mode.
  for (size_t i = 0; i < n; ++i) {
    int32_t m = t.mode[i] & ~kTracksTrue;
    if (m == LEAF)
      continue;
    if (t.commonMode == -1)
      t.commonMode = m;
    else if (t.commonMode != m) {
      t.commonMode = -2;
      break;
    }
  }
  if (t.commonMode < 0)
    t.commonMode = -1;
  // The packed node table (Walker::run) holds ids and features in 32 bits.
  if (n >= (1u << 30) || t.maxFeature >= (1 << 26))
    return op->emitOpError("more than 2^30 nodes or a feature id of 2^26 or "
                           "more is not supported");

  if (failed(linkTrees(op, t, index, treeIds, nodeIds, trueIds, falseIds,
                       allowShared)) ||
      failed(addLeafWeights(op, t, index, spec, prefix, numTargets)))
    return failure();
  return t;
}

/// Reads the nodes_* and `prefix`_* (target_ or class_) attributes of a
/// TreeEnsembleRegressor/Classifier and builds the tables.
FailureOr<Tables> buildTables(Operation *op, StringRef prefix,
                              int64_t numTargets) {
  TreeSpec spec;
  auto copy = [&](SmallVector<int64_t> &to, StringRef name) {
    ArrayRef<int64_t> a = getI64List(op, name);
    to.assign(a.begin(), a.end());
  };
  copy(spec.treeIds, "nodes_treeids");
  copy(spec.nodeIds, "nodes_nodeids");
  copy(spec.featureIds, "nodes_featureids");
  copy(spec.trueIds, "nodes_truenodeids");
  copy(spec.falseIds, "nodes_falsenodeids");
  copy(spec.tracks, "nodes_missing_value_tracks_true");
  if (auto modes = op->getAttrOfType<ArrayAttr>("nodes_modes"))
    for (Attribute a : modes) {
      auto s = dyn_cast<StringAttr>(a);
      std::optional<int32_t> m = s ? parseMode(s.getValue()) : std::nullopt;
      spec.modes.push_back(m ? *m : -1);
    }
  spec.values =
      getFloatList(op, "nodes_values").value_or(SmallVector<double>());
  std::string pre = prefix.str();
  copy(spec.weightTree, pre + "treeids");
  copy(spec.weightNode, pre + "nodeids");
  copy(spec.weightId, pre + "ids");
  std::optional<SmallVector<double>> w = getFloatList(op, pre + "weights");
  spec.weightValue = w.value_or(SmallVector<double>());
  return buildTablesFromSpec(op, spec, prefix, numTargets, false);
}

/// The branch condition of `mode` (a constant when `commonMode` >= 0) for
/// the value x and threshold th, with missing values (NaN) going the true
/// way when the mode's tracks-true bit is set.
Value branchCondition(OpBuilder &b, Location l, Value x, Value th, Value mode,
                      int32_t commonMode, bool anyTracks) {
  using P = arith::CmpFPredicate;
  auto cmp = [&](int32_t m) -> Value {
    switch (m) {
    case LEQ:
      return cmpF(b, l, P::OLE, x, th);
    case LT:
      return cmpF(b, l, P::OLT, x, th);
    case GTE:
      return cmpF(b, l, P::OGE, x, th);
    case GT:
      return cmpF(b, l, P::OGT, x, th);
    case EQ:
      return cmpF(b, l, P::OEQ, x, th);
    default:
      return cmpF(b, l, P::UNE, x, th);
    }
  };
  Value c;
  Value m = arith::AndIOp::create(
      b, l, mode, arith::ConstantIntOp::create(b, l, mode.getType(), 7));
  if (commonMode >= 0) {
    c = cmp(commonMode);
  } else {
    c = cmp(NEQ);
    for (int32_t k = EQ; k >= LEQ; --k)
      c = select(b, l,
                 arith::CmpIOp::create(
                     b, l, arith::CmpIPredicate::eq, m,
                     arith::ConstantIntOp::create(b, l, mode.getType(), k)),
                 cmp(k), c);
  }
  if (!anyTracks)
    return c;
  Value tracks = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne,
      arith::AndIOp::create(
          b, l, mode,
          arith::ConstantIntOp::create(b, l, mode.getType(), kTracksTrue)),
      arith::ConstantIntOp::create(b, l, mode.getType(), 0));
  Value isNan = cmpF(b, l, P::UNO, x, x);
  return arith::OrIOp::create(b, l, c, andI(b, l, tracks, isNan));
}

/// What both ops share: the walk of every tree for every row, aggregating
/// the leaf weights into `acc` [N, T] (compute type) and, when `trackHas`,
/// marking in `has` [N, T] (i8) the targets a leaf weighed.
struct Walker {
  const Tables &t;
  Aggregate agg;
  Type ctype;
  bool trackHas;

  /// Returns (acc, has) after all trees (`has` null without tracking).
  std::pair<Value, Value> run(OpBuilder &b, Location loc, Operation *op,
                              Value x, Type xOnnx, Value numRows,
                              int64_t numTargets) const {
    // One row of 4 x i32 per node, so that a step of the walk reads one
    // cache line: mode | feature << 4, the f32 threshold's bits, true and
    // false child (a leaf: its weight range). f64 thresholds (an f64 X)
    // live in a table of their own.
    SmallVector<int32_t> packed;
    for (size_t i = 0; i < t.mode.size(); ++i) {
      float th = t.threshold[i];
      int32_t bits;
      std::memcpy(&bits, &th, 4);
      packed.append({(int32_t)(t.mode[i] | (t.feature[i] << 4)), bits,
                     (int32_t)t.trueChild[i], (int32_t)t.falseChild[i]});
    }
    auto nodeType =
        RankedTensorType::get({(int64_t)t.mode.size(), 4}, b.getI32Type());
    Value nodes = arith::ConstantOp::create(
        b, loc, nodeType, DenseIntElementsAttr::get(nodeType, ArrayRef(packed)));
    Value threshold64;
    if (ctype.isF64())
      threshold64 = floatTable(b, loc, ctype, t.threshold);
    Value roots = i64Table(b, loc, t.roots);
    Value weightId, weightValue;
    if (!t.weightId.empty()) {
      weightId = i64Table(b, loc, t.weightId);
      weightValue = floatTable(b, loc, ctype, t.weightValue);
    }
    int64_t staticRows = cast<RankedTensorType>(x.getType()).getDimSize(0);
    auto accType = RankedTensorType::get({staticRows, numTargets}, ctype);
    double init = agg == Aggregate::Min   ? INFINITY
                  : agg == Aggregate::Max ? -INFINITY
                                          : 0.0;
    // MIN/MAX start from +-inf; a row that no weight reached is told by
    // `has` (ORT's has_score), so an infinite weight is still exact.
    Value acc = linalg::FillOp::create(
                    b, loc, fConst(b, loc, ctype, init),
                    createEmpty(b, loc, accType, {numRows, Value()}))
                    .getResult(0);
    Value has;
    if (trackHas) {
      auto hasType =
          RankedTensorType::get({staticRows, numTargets}, b.getI8Type());
      has = linalg::FillOp::create(
                b, loc,
                Value(arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0)),
                createEmpty(b, loc, hasType, {numRows, Value()}))
                .getResult(0);
    }
    if (t.weightId.empty())
      return {acc, has};
    SmallVector<Value> inits = {acc};
    if (has)
      inits.push_back(has);
    Value numTrees = idx(b, loc, t.roots.size());
    // Rows in blocks of kRowBlock, trees within a block, rows within a
    // tree: a tree's nodes stay in cache while the block's rows walk it
    // (ORT's batched loop order).
    auto walkRow = [&](OpBuilder &b, Location l, Value row, Value tree,
                       ValueRange args) -> SmallVector<Value> {
          Value root = tableIndex(b, l, roots, tree);
          // Walk to the leaf.
          Type i32 = b.getI32Type();
          auto word = [&](OpBuilder &b, Location l, Value node, int64_t k) {
            return tensor::ExtractOp::create(b, l, nodes,
                                             ValueRange{node, idx(b, l, k)})
                .getResult();
          };
          auto toIdx = [&](OpBuilder &b, Location l, Value v) {
            return arith::IndexCastOp::create(b, l, b.getIndexType(), v)
                .getResult();
          };
          Value leaf = buildWhile(
              b, l, ValueRange{root},
              [&](OpBuilder &b, Location l, ValueRange w) {
                Value m = arith::AndIOp::create(
                    b, l, word(b, l, w[0], 0),
                    arith::ConstantIntOp::create(b, l, i32, 15));
                return arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ne, m,
                    arith::ConstantIntOp::create(b, l, i32, LEAF));
              },
              [&](OpBuilder &b, Location l,
                  ValueRange w) -> SmallVector<Value> {
                Value node = w[0];
                Value w0 = word(b, l, node, 0);
                Value f = toIdx(b, l,
                                arith::ShRUIOp::create(
                                    b, l, w0,
                                    arith::ConstantIntOp::create(b, l, i32, 4)));
                Value v =
                    tensor::ExtractOp::create(b, l, x, ValueRange{row, f});
                v = convertScalar(b, l, v, xOnnx, ctype);
                Value th =
                    threshold64
                        ? tensor::ExtractOp::create(b, l, threshold64, node)
                              .getResult()
                        : arith::BitcastOp::create(b, l, b.getF32Type(),
                                                   word(b, l, node, 1))
                              .getResult();
                Value c = branchCondition(b, l, v, th, w0, t.commonMode,
                                          t.anyTracks);
                return {toIdx(b, l,
                              select(b, l, c, word(b, l, node, 2),
                                     word(b, l, node, 3)))};
              })[0];
          Value first = toIdx(b, l, word(b, l, leaf, 2));
          Value last = toIdx(b, l, word(b, l, leaf, 3));
          return forRange(
              b, l, first, last, idx(b, l, 1), args,
              [&](OpBuilder &b, Location l, Value k,
                  ValueRange a) -> SmallVector<Value> {
                Value id = tableIndex(b, l, weightId, k);
                Value w = tensor::ExtractOp::create(b, l, weightValue, k);
                Value old =
                    tensor::ExtractOp::create(b, l, a[0], ValueRange{row, id});
                Value nv;
                switch (agg) {
                case Aggregate::Sum:
                case Aggregate::Average:
                  nv = addF(b, l, old, w);
                  break;
                case Aggregate::Min:
                  // (!has || w < old) ? w : old, old = +inf without has.
                  nv = select(b, l, cmpF(b, l, arith::CmpFPredicate::OLT, w, old),
                              w, old);
                  break;
                case Aggregate::Max:
                  nv = select(b, l, cmpF(b, l, arith::CmpFPredicate::OGT, w, old),
                              w, old);
                  break;
                }
                SmallVector<Value> res = {tensor::InsertOp::create(
                    b, l, nv, a[0], ValueRange{row, id})};
                if (a.size() > 1)
                  res.push_back(tensor::InsertOp::create(
                      b, l, arith::ConstantIntOp::create(b, l, b.getI8Type(), 1),
                      a[1], ValueRange{row, id}));
                return res;
              });
    };
    Value block = idx(b, loc, kRowBlock);
    SmallVector<Value> out = forRange(
        b, loc, idx(b, loc, 0), numRows, block, inits,
        [&](OpBuilder &b, Location l, Value r0,
            ValueRange args) -> SmallVector<Value> {
          Value r1 = minIdx(b, l, arith::AddIOp::create(b, l, r0, block),
                            numRows);
          return buildLoops(
              b, l, {numTrees}, args,
              [&](OpBuilder &b, Location l, ValueRange tr,
                  ValueRange args) -> SmallVector<Value> {
                return forRange(b, l, r0, r1, idx(b, l, 1), args,
                                [&](OpBuilder &b, Location l, Value row,
                                    ValueRange args) -> SmallVector<Value> {
                                  return walkRow(b, l, row, tr[0], args);
                                });
              });
        });
    return {out[0], has ? out[1] : Value()};
  }
};

/// The element type the ensemble computes in: f64 for a f64 X (ORT's
/// double kernels), else f32.
Type computeElementType(OpBuilder &b, Type xElement) {
  return xElement.isF64() ? (Type)b.getF64Type() : (Type)b.getF32Type();
}

/// X as [N, F] (a 1-D X is one row), its features checked against those
/// the trees read (at compile time when F is static, else at run time).
FailureOr<Value> treeRows(Operation *op, Value x, const Tables &t, OpBuilder &b,
                          Location loc) {
  auto xt = cast<RankedTensorType>(x.getType());
  if (xt.getRank() != 1 && xt.getRank() != 2)
    return op->emitOpError("X must be 1-D or 2-D");
  Value x2 = mlRows2D(b, loc, x);
  auto x2t = cast<RankedTensorType>(x2.getType());
  if (t.maxFeature < 0)
    return x2;
  if (!x2t.isDynamicDim(1)) {
    if (t.maxFeature >= x2t.getDimSize(1))
      return op->emitOpError("feature id ")
             << t.maxFeature << " is out of range: X has " << x2t.getDimSize(1)
             << " features";
    return x2;
  }
  Value cols = getDimValue(b, loc, x2, 1);
  emitRuntimeCheck(b, loc,
                   cmpI(b, loc, arith::CmpIPredicate::sgt, cols,
                        idx(b, loc, t.maxFeature)),
                   "the trees read feature " + std::to_string(t.maxFeature) +
                       " but X has {} features",
                   ValueRange{cols});
  return x2;
}

/// Element `k` of the base values (0 past their end).
double baseAt(ArrayRef<double> base, int64_t k) {
  return k < (int64_t)base.size() ? base[k] : 0.0;
}

/// The regression of `tables` over X (`x`, converted; `xOnnx` its onnx
/// element type) into Y [N, numTargets] of `outElt`, finalized as ORT's
/// aggregators: AVERAGE divides by the tree count, MIN/MAX give 0 where no
/// weight arrived, the base values are added; with `ortOneTarget` one
/// target takes only PROBIT (FinalizeScores1), else every transform
/// applies. Replaces `op`.
LogicalResult lowerTreeRegression(Operation *op, Value x, Type xOnnx,
                                  const Tables &tables, Aggregate agg,
                                  PostTransform kind, ArrayRef<double> base,
                                  int64_t numTargets, Type outElt,
                                  bool ortOneTarget,
                                  ConversionPatternRewriter &rewriter,
                                  const TypeConverter *tc) {
  Location loc = op->getLoc();
  FailureOr<Value> rows2D = treeRows(op, x, tables, rewriter, loc);
  if (failed(rows2D))
    return failure();
  Value x2 = *rows2D;
  Type ctype = computeElementType(rewriter, getElementTypeOrSelf(x2));
  // ORT's has_score: MIN/MAX start from it, and with several targets a
  // target no weight reached in a row is written as 0 (base value and
  // all; ScoreValue's conversion).
  bool trackHas = (agg == Aggregate::Min || agg == Aggregate::Max ||
                   numTargets > 1) &&
                  !llvm::all_of(tables.alwaysReached, [](bool b) { return b; });
  Walker walker{tables, agg, ctype, trackHas};
  Value numRows = getDimValue(rewriter, loc, x2, 0);
  auto [acc, has] = walker.run(rewriter, loc, op, x2, xOnnx, numRows,
                               numTargets);

  int64_t staticRows = cast<RankedTensorType>(x2.getType()).getDimSize(0);
  Value z = createEmpty(rewriter, loc,
                        RankedTensorType::get({staticRows, numTargets}, outElt),
                        {numRows, Value()});
  Value baseTable = floatTable(rewriter, loc, ctype, base.empty()
                                   ? SmallVector<double>(numTargets, 0.0)
                                   : SmallVector<double>(base));
  double numTrees = tables.roots.size();
  if (ortOneTarget && numTargets == 1 && kind != PostTransform::Probit)
    kind = PostTransform::None;
  z = buildLoops(
      rewriter, loc, {numRows}, ValueRange{z},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value row = ivs[0];
        Value zr = buildLoops(
            b, l, {idx(b, l, numTargets)}, args,
            [&](OpBuilder &b, Location l, ValueRange k,
                ValueRange a) -> SmallVector<Value> {
              Value v = tensor::ExtractOp::create(b, l, acc,
                                                  ValueRange{row, k[0]});
              Value bv = tensor::ExtractOp::create(b, l, baseTable, k[0]);
              if (agg == Aggregate::Average)
                v = divF(b, l, v, fConst(b, l, ctype, numTrees));
              Value reached;
              if (has)
                reached = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ne,
                    tensor::ExtractOp::create(b, l, has,
                                              ValueRange{row, k[0]}),
                    arith::ConstantIntOp::create(b, l, b.getI8Type(), 0));
              if (reached && (agg == Aggregate::Min || agg == Aggregate::Max))
                v = select(b, l, reached, v, fConst(b, l, ctype, 0));
              v = addF(b, l, v, bv);
              if (reached && numTargets > 1)
                v = select(b, l, reached, v, fConst(b, l, ctype, 0));
              if (ctype != outElt)
                v = ctype.getIntOrFloatBitWidth() >
                            outElt.getIntOrFloatBitWidth()
                        ? arith::TruncFOp::create(b, l, outElt, v).getResult()
                        : arith::ExtFOp::create(b, l, outElt, v).getResult();
              return {tensor::InsertOp::create(b, l, v, a[0],
                                               ValueRange{row, k[0]})};
            })[0];
        return {applyPostTransformRow(b, l, zr, row, numTargets, kind)};
      })[0];
  replaceWithCasts(rewriter, op, tc, z);
  return success();
}

struct TreeEnsembleRegressorLowering
    : OpConversionPattern<ONNX::MLTreeEnsembleRegressorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLTreeEnsembleRegressorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<PostTransform> post =
        parsePostTransform(op, op.getPostTransform());
    if (failed(post))
      return failure();
    StringRef aggName = op.getAggregateFunction();
    Aggregate agg;
    if (aggName == "SUM")
      agg = Aggregate::Sum;
    else if (aggName == "AVERAGE")
      agg = Aggregate::Average;
    else if (aggName == "MIN")
      agg = Aggregate::Min;
    else if (aggName == "MAX")
      agg = Aggregate::Max;
    else
      return op.emitOpError("aggregate_function must be SUM, AVERAGE, MIN or "
                            "MAX, not '")
             << aggName << "'";
    std::optional<uint64_t> nt = op.getNTargets();
    if (!nt || (int64_t)*nt <= 0)
      return op.emitOpError("n_targets must be given and positive");
    int64_t numTargets = *nt;
    SmallVector<double> base =
        getFloatList(op, "base_values").value_or(SmallVector<double>());
    if (!base.empty() && (int64_t)base.size() != numTargets)
      return op.emitOpError("base_values has ")
             << base.size() << " entries, n_targets is " << numTargets;
    FailureOr<Tables> tables = buildTables(op, "target_", numTargets);
    if (failed(tables))
      return failure();
    return lowerTreeRegression(op, adaptor.getX(), getElementType(op.getX()),
                               *tables, agg, *post, base, numTargets,
                               rewriter.getF32Type(), /*ortOneTarget=*/true,
                               rewriter, getTypeConverter());
  }
};

/// TreeEnsemble (ai.onnx.ml 5): expanded into the opset-3 form
/// (MLTreeV5.cpp), then the regression; Y has X's type (computed in f64
/// for f64, in f32 for f32 and f16). post_transform follows the spec
/// (1 SOFTMAX, 2 LOGISTIC, applied to one target too), where ONNX Runtime
/// 1.30 swaps 1 and 2 and transforms one target only with PROBIT.
struct TreeEnsembleLowering : OpConversionPattern<ONNX::MLTreeEnsembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLTreeEnsembleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t aggCode = op.getAggregateFunction();
    if (aggCode < 0 || aggCode > 3)
      return op.emitOpError("aggregate_function must be 0 (AVERAGE), 1 (SUM), "
                            "2 (MIN) or 3 (MAX), not ")
             << aggCode;
    Aggregate agg = aggCode == 0   ? Aggregate::Average
                    : aggCode == 1 ? Aggregate::Sum
                    : aggCode == 2 ? Aggregate::Min
                                   : Aggregate::Max;
    int64_t postCode = op.getPostTransform();
    if (postCode < 0 || postCode > 4)
      return op.emitOpError("post_transform must be 0 (NONE), 1 (SOFTMAX), 2 "
                            "(LOGISTIC), 3 (SOFTMAX_ZERO) or 4 (PROBIT), not ")
             << postCode;
    PostTransform post = (PostTransform)postCode;
    std::optional<uint64_t> nt = op.getNTargets();
    if (!nt || (int64_t)*nt <= 0)
      return op.emitOpError("n_targets must be given and positive");
    int64_t numTargets = *nt;
    TreeSpec spec;
    std::string error;
    if (!expandTreeEnsembleV5(op, numTargets, spec, error))
      return op.emitOpError(error);
    FailureOr<Tables> tables =
        buildTablesFromSpec(op, spec, "leaf_", numTargets, true);
    if (failed(tables))
      return failure();
    Type outElt = getElementType(op.getX());
    return lowerTreeRegression(op, adaptor.getX(), outElt, *tables, agg, post,
                               {}, numTargets, outElt, /*ortOneTarget=*/false,
                               rewriter, getTypeConverter());
  }
};

struct TreeEnsembleClassifierLowering
    : OpConversionPattern<ONNX::MLTreeEnsembleClassifierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::MLTreeEnsembleClassifierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PostTransform> post =
        parsePostTransform(op, op.getPostTransform());
    if (failed(post))
      return failure();
    // classlabels_strings: their indices stand in for them until Y is
    // mapped to the strings (Strings.h).
    ArrayRef<int64_t> labels = getI64List(op, "classlabels_int64s");
    SmallVector<StringRef> strLabels = getStringLabels(op);
    SmallVector<int64_t> indices = labelIndices(strLabels.size());
    if (!strLabels.empty()) {
      if (!labels.empty())
        return op.emitOpError("has both classlabels_int64s and "
                              "classlabels_strings");
      labels = indices;
    }
    int64_t numClasses = labels.size();
    if (numClasses < 2)
      return op.emitOpError("classlabels_int64s (or classlabels_strings) must "
                            "have at least 2 labels");
    SmallVector<double> base =
        getFloatList(op, "base_values").value_or(SmallVector<double>());
    // ORT's rule: 0 or one per class; two classes also take one.
    if (numClasses > 2 ? !base.empty() && (int64_t)base.size() != numClasses
                       : base.size() > 2)
      return op.emitOpError("base_values has ")
             << base.size() << " entries, there are " << numClasses
             << " classes";
    FailureOr<Tables> tables = buildTables(op, "class_", numClasses);
    if (failed(tables))
      return failure();
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    auto zt = convertedTensorType(getTypeConverter(), op.getZ());
    if (!yt || !zt)
      return op.emitOpError("Y and Z must be tensors");
    FailureOr<Value> rows2D = treeRows(op, adaptor.getX(), *tables, rewriter, loc);
    if (failed(rows2D))
      return failure();
    Value x2 = *rows2D;
    Type ctype = computeElementType(rewriter, getElementTypeOrSelf(x2));
    // has_score matters for the label (classes no leaf reached are skipped)
    // and for binary models; it is known where a tree weighs the class at
    // every leaf or a base value sets it.
    bool trackHas = false;
    for (int64_t k = 0; k < numClasses; ++k)
      if (!tables->alwaysReached[k] &&
          !(numClasses > 2 && k < (int64_t)base.size()))
        trackHas = true;
    Walker walker{*tables, Aggregate::Sum, ctype, trackHas};
    Value numRows = getDimValue(rewriter, loc, x2, 0);
    auto [acc, has] = walker.run(rewriter, loc, op, x2,
                                 getElementType(op.getX()), numRows, numClasses);

    Type f32 = rewriter.getF32Type();
    Value z = createRowScores(rewriter, loc, x2, numRows, numClasses);
    Value y = createRowLabels(rewriter, loc, x2, numRows);
    Value labelTable = i64Table(rewriter, loc, labels);
    auto hasAt = [&](OpBuilder &b, Location l, Value row, int64_t k) -> Value {
      if (!has || tables->alwaysReached[k])
        return arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
      return arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::ne,
          tensor::ExtractOp::create(b, l, has, ValueRange{row, idx(b, l, k)}),
          arith::ConstantIntOp::create(b, l, b.getI8Type(), 0));
    };
    auto toF32 = [&](OpBuilder &b, Location l, Value v) -> Value {
      return ctype == f32 ? v : arith::TruncFOp::create(b, l, f32, v);
    };
    PostTransform kind = *post;
    bool binaryCase = numClasses == 2 && tables->idsUsed.size() == 1;
    bool allPositive = tables->allWeightsPositive;
    SmallVector<Value> out = buildLoops(
        rewriter, loc, {numRows}, ValueRange{z, y},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          Value row = ivs[0];
          Value zr = args[0], yr = args[1];
          auto accAt = [&](int64_t k) -> Value {
            return tensor::ExtractOp::create(b, l, acc,
                                             ValueRange{row, idx(b, l, k)});
          };
          auto put = [&](Value zz, int64_t k, Value v) -> Value {
            return tensor::InsertOp::create(b, l, toF32(b, l, v), zz,
                                            ValueRange{row, idx(b, l, k)});
          };
          if (numClasses > 2) {
            // Base values set the first classes; the label is the first
            // class of highest score among those with one.
            Value maxClass = idx(b, l, -1);
            Value maxWeight = fConst(b, l, ctype, 0);
            for (int64_t k = 0; k < numClasses; ++k) {
              Value v = accAt(k);
              Value h = hasAt(b, l, row, k);
              if (k < (int64_t)base.size()) {
                v = addF(b, l, v, fConst(b, l, ctype, base[k]));
                h = arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
              }
              zr = put(zr, k, v);
              Value better = andI(
                  b, l, h,
                  arith::OrIOp::create(
                      b, l,
                      cmpI(b, l, arith::CmpIPredicate::eq, maxClass,
                           idx(b, l, -1)),
                      cmpF(b, l, arith::CmpFPredicate::OGT, v, maxWeight)));
              maxClass = select(b, l, better, idx(b, l, k), maxClass);
              maxWeight = select(b, l, better, v, maxWeight);
            }
            // No class reached (ORT reads before its labels): the first.
            maxClass = maxIdx(b, l, maxClass, idx(b, l, 0));
            Value label = tensor::ExtractOp::create(b, l, labelTable, maxClass);
            zr = applyPostTransformRow(b, l, zr, row, numClasses, kind);
            yr = tensor::InsertOp::create(b, l, label, yr, ValueRange{row});
            return {zr, yr};
          }
          // Two classes: ORT's binary rules.
          Value s0 = accAt(0), s1 = accAt(1);
          Value h0 = hasAt(b, l, row, 0), h1 = hasAt(b, l, row, 1);
          // Whether one score remains (the second class popped), and the
          // add_second_class code (-1 none, 3 when there are no base values).
          Value single;
          int64_t addSecond = -1;
          if (base.size() == 2) {
            // With a score for class 1, class 1 gets base[1] + the score of
            // class 0 and class 0 its opposite (ORT's reading); else both
            // add their base value.
            Value t1 = addF(b, l, fConst(b, l, ctype, base[1]), s0);
            Value n0 = select(b, l, h1, arith::NegFOp::create(b, l, t1),
                              addF(b, l, s0, fConst(b, l, ctype, base[0])));
            Value n1 = select(b, l, h1, t1,
                              addF(b, l, s1, fConst(b, l, ctype, base[1])));
            s0 = n0;
            s1 = n1;
            single = arith::ConstantIntOp::create(b, l, b.getI1Type(), 0);
          } else {
            if (base.size() == 1)
              s0 = addF(b, l, s0, fConst(b, l, ctype, base[0]));
            else
              addSecond = 3;
            single = notI(b, l, h1);
          }
          // _set_score_binary.
          Value zero = fConst(b, l, ctype, 0);
          Value useS1 = andI(b, l, notI(b, l, single), h1);
          Value pos = select(b, l, useS1, s1, select(b, l, h0, s0, zero));
          Value label, code;
          auto i64c = [&](int64_t v) {
            return arith::ConstantIntOp::create(b, l, b.getI64Type(), v);
          };
          if (binaryCase) {
            Value thr = fConst(b, l, ctype, allPositive ? 0.5 : 0.0);
            Value win = cmpF(b, l, arith::CmpFPredicate::OGT, pos, thr);
            label = select(b, l, win, i64c(labels[1]), i64c(labels[0]));
            code = select(b, l, win, i64c(allPositive ? 0 : 2),
                          i64c(allPositive ? 1 : 3));
          } else {
            Value win = cmpF(b, l, arith::CmpFPredicate::OGT, pos, zero);
            label = select(b, l, win, i64c(1), i64c(0));
            code = i64c(addSecond);
          }
          yr = tensor::InsertOp::create(b, l, label, yr, ValueRange{row});
          // write_scores: two scores take the transform; one score becomes
          // two by the code (PROBIT: one probit score, the second 0). A
          // score without has_score is written as 0 (ScoreValue's
          // conversion).
          s0 = select(b, l, h0, s0, zero);
          s1 = select(b, l, h1, s1, zero);
          Value s = s0;
          auto eqCode = [&](int64_t v) {
            return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, code,
                                         i64c(v));
          };
          Value o0, o1;
          if (kind == PostTransform::Probit) {
            o0 = mlProbit(b, l, s);
            o1 = zero;
          } else {
            Value neg = arith::NegFOp::create(b, l, s);
            Value c01 = arith::OrIOp::create(b, l, eqCode(0), eqCode(1));
            Value oneMinus = subF(b, l, fConst(b, l, ctype, 1), s);
            Value m0, m1, n0, n1; // codes 2 and 3
            if (kind == PostTransform::Logistic) {
              m0 = n0 = mlLogistic(b, l, neg);
              m1 = n1 = mlLogistic(b, l, s);
            } else {
              m0 = neg;
              m1 = s;
              n0 = s;
              n1 = neg;
            }
            o0 = select(b, l, c01, oneMinus,
                        select(b, l, eqCode(2), m0,
                               select(b, l, eqCode(3), n0, s)));
            o1 = select(b, l, c01, s,
                        select(b, l, eqCode(2), m1,
                               select(b, l, eqCode(3), n1, zero)));
          }
          auto ifOp = scf::IfOp::create(b, l, TypeRange{zr.getType()}, single,
                                        true);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            scf::YieldOp::create(b, l, ValueRange{put(put(zr, 0, o0), 1, o1)});
            b.setInsertionPointToStart(ifOp.elseBlock());
            Value two = put(put(zr, 0, s0), 1, s1);
            scf::YieldOp::create(
                b, l,
                ValueRange{applyPostTransformRow(b, l, two, row, 2, kind)});
          }
          return {ifOp.getResult(0), yr};
        });
    Value labelsOut = out[1];
    if (!strLabels.empty())
      labelsOut = mapStringLabels(rewriter, loc, op, labelsOut, strLabels);
    replaceWithCasts(rewriter, op, getTypeConverter(), {labelsOut, out[0]});
    return success();
  }
};

} // namespace

void mlir::onnxc::populateMLTreePatterns(TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<TreeEnsembleRegressorLowering, TreeEnsembleClassifierLowering,
               TreeEnsembleLowering>(tc, patterns.getContext());
}

//===- TfIdf.cpp - TfIdfVectorizer -> scf loops ---------------------------===//
//
// TfIdfVectorizer finds, per row of X, the n-grams of the pool (with up to
// max_skip_count items skipped between consecutive items) and adds up
// their weights. The pool is an attribute, so the compiler builds ONNX
// Runtime's n-gram trie at compile time and embeds it as constant tensors
// (children contiguous per node, sorted by key: binary search). At run
// time, per row, skip distance and start position, an scf.while walks the
// trie along X and updates the output at every n-gram it passes whose
// length is in [min_gram_length, max_gram_length], in ORT's order: TF adds
// 1, TFIDF adds the n-gram's weight, IDF sets it (weights[i] is the weight
// of the i-th n-gram of the pool, 1 without weights). Unigrams count at
// skip distance 1 only (ORT: they are not affected by skips). Integer
// inputs only: string tensors do not cross the C API.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <map>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace {

/// The pool as a trie, flattened breadth first: node 0 is the root; the
/// children of node k are the nodes childStart[k] + 1 .. childStart[k + 1]
/// (their keys childKey[childStart[k] .. childStart[k + 1]), ascending);
/// column[k] is the output column of the n-gram ending at node k, or -1,
/// weight[k] its weight.
struct FlatTrie {
  SmallVector<int64_t> childStart, childKey, column;
  SmallVector<float> weight;
};

/// Builds the trie of the n-grams whose length is in [minN, maxN], as ORT's
/// PopulateGrams does: n-grams are numbered in pool order over every
/// length (from 1), and n-gram i goes to output column ngram_indexes[i-1]
/// with weight weights[i-1] (1 without weights).
FailureOr<FlatTrie> buildTrie(Operation *op, ArrayRef<int64_t> pool,
                              ArrayRef<int64_t> counts,
                              ArrayRef<int64_t> indexes,
                              std::optional<ArrayRef<float>> weights,
                              int64_t minN, int64_t maxN) {
  struct Node {
    std::map<int64_t, int64_t> children; // key -> node
    int64_t column = -1;
    float weight = 1;
  };
  std::vector<Node> nodes(1);
  int64_t id = 1;
  int64_t total = pool.size();
  for (size_t i = 0; i < counts.size(); ++i) {
    int64_t n = i + 1;
    int64_t start = counts[i];
    int64_t end = i + 1 < counts.size() ? counts[i + 1] : total;
    if (start < 0 || end < start || end > total)
      return op->emitOpError("ngram_counts must be non-decreasing offsets "
                             "into pool_int64s");
    if ((end - start) % n != 0)
      return op->emitOpError("the ")
             << n << "-grams of the pool do not fill whole " << n << "-grams";
    int64_t grams = (end - start) / n;
    if (n < minN || n > maxN) {
      id += grams;
      continue;
    }
    for (int64_t g = 0; g < grams; ++g, ++id) {
      int64_t node = 0;
      for (int64_t k = 0; k < n; ++k) {
        int64_t key = pool[start + g * n + k];
        auto it = nodes[node].children.find(key);
        if (it == nodes[node].children.end()) {
          nodes.emplace_back();
          it = nodes[node].children.emplace(key, nodes.size() - 1).first;
        }
        node = it->second;
      }
      if (nodes[node].column != -1)
        return op->emitOpError("duplicate ") << n << "-gram in the pool";
      if (id - 1 >= (int64_t)indexes.size())
        return op->emitOpError("ngram_indexes has no entry for n-gram ")
               << id - 1;
      nodes[node].column = indexes[id - 1];
      if (weights)
        nodes[node].weight = (*weights)[id - 1];
    }
  }
  // Breadth first, so that every node's children are consecutive.
  FlatTrie flat;
  std::vector<int64_t> order = {0};
  for (size_t q = 0; q < order.size(); ++q) {
    const Node &node = nodes[order[q]];
    flat.childStart.push_back(order.size() - 1);
    flat.column.push_back(node.column);
    flat.weight.push_back(node.weight);
    for (auto [key, child] : node.children) {
      flat.childKey.push_back(key);
      order.push_back(child);
    }
  }
  flat.childStart.push_back(order.size() - 1);
  return flat;
}

Value i64Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()}, b.getI64Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseIntElementsAttr::get(type, values));
}

/// Element `i` (an index) of a 1-D i64 tensor, as an index.
Value readIndex(OpBuilder &b, Location l, Value t, Value i) {
  Value v = tensor::ExtractOp::create(b, l, t, ValueRange{i});
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}

enum class Weighting { TF, IDF, TFIDF };

/// TfIdfVectorizer's attributes, checked.
struct TfIdfAttrs {
  Weighting mode = Weighting::TF;
  int64_t minN = 1, maxN = 1, maxSkip = 0;
  ArrayRef<int64_t> indexes;
  /// The largest ngram_indexes + 1.
  int64_t numCols = 0;
  std::optional<ArrayRef<float>> weights;
};

FailureOr<TfIdfAttrs> checkTfIdfAttrs(ONNX::TfIdfVectorizerOp op) {
  TfIdfAttrs at;
  StringRef modeName = op.getMode();
  if (modeName == "TF")
    at.mode = Weighting::TF;
  else if (modeName == "IDF")
    at.mode = Weighting::IDF;
  else if (modeName == "TFIDF")
    at.mode = Weighting::TFIDF;
  else
    return op.emitOpError("mode must be TF, IDF or TFIDF, not '")
           << modeName << "'";
  at.minN = (int64_t)op.getMinGramLength();
  at.maxN = (int64_t)op.getMaxGramLength();
  at.maxSkip = (int64_t)op.getMaxSkipCount();
  if (at.minN < 1 || at.maxN < at.minN)
    return op.emitOpError("min_gram_length must be positive and at most "
                          "max_gram_length");
  if (at.maxSkip < 0)
    return op.emitOpError("max_skip_count must not be negative");
  if (op.getPoolStrings() || isStringType(op.getX().getType()))
    return op.emitOpError("string n-grams (pool_strings, a string X) are "
                          "not supported yet");
  if (!op.getPoolInt64s())
    return op.emitOpError("pool_int64s is required");
  at.indexes = op.getNgramIndexes();
  if (at.indexes.empty())
    return op.emitOpError("ngram_indexes must not be empty");
  if (llvm::any_of(at.indexes, [](int64_t i) { return i < 0; }))
    return op.emitOpError("ngram_indexes must not be negative");
  at.numCols = *llvm::max_element(at.indexes) + 1;
  at.weights = op.getWeights();
  if (at.weights && at.weights->size() != at.indexes.size())
    return op.emitOpError("weights must have one entry per ngram_indexes "
                          "entry (")
           << at.indexes.size() << ")";
  return at;
}

/// The trie as constants of the IR (weight: null for TF, which adds 1 per
/// hit), and the position of its last child key.
struct TrieTables {
  Value childStart, childKey, column, weight, lastKey;
};

/// Child `item` of `node`, by binary search among the node's children:
/// its position in childKey (clamped when absent), and whether it is
/// there.
std::pair<Value, Value> findChild(OpBuilder &b, Location l,
                                  const TrieTables &t, Value node, Value item,
                                  Value one) {
  Value lo0 = readIndex(b, l, t.childStart, node);
  Value hi0 =
      readIndex(b, l, t.childStart, arith::AddIOp::create(b, l, node, one));
  SmallVector<Value> range = buildWhile(
      b, l, ValueRange{lo0, hi0},
      [&](OpBuilder &b, Location l, ValueRange r) {
        return cmpI(b, l, arith::CmpIPredicate::slt, r[0], r[1]);
      },
      [&](OpBuilder &b, Location l, ValueRange r) -> SmallVector<Value> {
        Value mid = arith::ShRUIOp::create(
            b, l, arith::AddIOp::create(b, l, r[0], r[1]), one);
        Value key = tensor::ExtractOp::create(b, l, t.childKey, ValueRange{mid});
        Value less = cmpI(b, l, arith::CmpIPredicate::slt, key, item);
        return {arith::SelectOp::create(
                    b, l, less, arith::AddIOp::create(b, l, mid, one), r[0]),
                arith::SelectOp::create(b, l, less, r[1], mid)};
      });
  Value at = range[0];
  Value key = tensor::ExtractOp::create(
      b, l, t.childKey, ValueRange{arith::MinSIOp::create(b, l, at, t.lastKey)});
  Value found = arith::AndIOp::create(
      b, l, cmpI(b, l, arith::CmpIPredicate::slt, at, hi0),
      cmpI(b, l, arith::CmpIPredicate::eq, key, item));
  return {at, found};
}

/// `result` with the hit of trie node `node` counted at [row, col] when
/// `hit`: TF adds 1, TFIDF the node's weight, IDF sets the weight.
Value countHit(OpBuilder &b, Location l, const TrieTables &t, Weighting mode,
               Value hit, Value result, Value row, Value col, Value node) {
  auto ifOp = scf::IfOp::create(b, l, TypeRange{result.getType()}, hit, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value v = t.weight ? Value(tensor::ExtractOp::create(b, l, t.weight,
                                                       ValueRange{node}))
                     : createScalarConstant(b, l, b.getF32Type(), 1);
  if (mode != Weighting::IDF)
    v = arith::AddFOp::create(
        b, l, tensor::ExtractOp::create(b, l, result, ValueRange{row, col}), v);
  scf::YieldOp::create(
      b, l, ValueRange{tensor::InsertOp::create(b, l, v, result,
                                                ValueRange{row, col})});
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, l, ValueRange{result});
  return ifOp.getResult(0);
}

/// The n-grams of x's row `row` that start at `start` with skip distance
/// `dist` and have at least `startN` items, counted into `result`: the trie
/// walked along x[row, start + k dist] while a node matches.
Value countFrom(OpBuilder &b, Location l, const TrieTables &t,
                const TfIdfAttrs &at, Value x, Type xOnnx, Value row,
                Value rowLen, Value start, Value dist, Value startN, Value one,
                Value result) {
  Value neg = idx(b, l, -1);
  // (node, length so far + 1, position, result)
  SmallVector<Value> walk = buildWhile(
      b, l, ValueRange{idx(b, l, 0), one, start, result},
      [&](OpBuilder &b, Location l, ValueRange w) {
        Value alive = cmpI(b, l, arith::CmpIPredicate::ne, w[0], neg);
        alive = arith::AndIOp::create(
            b, l, alive,
            cmpI(b, l, arith::CmpIPredicate::sle, w[1], idx(b, l, at.maxN)));
        return arith::AndIOp::create(
            b, l, alive, cmpI(b, l, arith::CmpIPredicate::slt, w[2], rowLen));
      },
      [&](OpBuilder &b, Location l, ValueRange w) -> SmallVector<Value> {
        Value node = w[0], len = w[1], pos = w[2];
        Value item = tensor::ExtractOp::create(b, l, x, ValueRange{row, pos});
        item = convertScalar(b, l, item, xOnnx, b.getI64Type());
        auto [pos0, found] = findChild(b, l, t, node, item, one);
        Value child = arith::SelectOp::create(
            b, l, found, arith::AddIOp::create(b, l, pos0, one), neg);
        Value at0 = arith::SelectOp::create(b, l, found, child, idx(b, l, 0));
        Value col = readIndex(b, l, t.column, at0);
        Value hit = arith::AndIOp::create(
            b, l, found,
            arith::AndIOp::create(
                b, l, cmpI(b, l, arith::CmpIPredicate::sge, len, startN),
                cmpI(b, l, arith::CmpIPredicate::sge, col, idx(b, l, 0))));
        Value counted = countHit(b, l, t, at.mode, hit, w[3], row, col, at0);
        return {child, arith::AddIOp::create(b, l, len, one),
                arith::AddIOp::create(b, l, pos, dist), counted};
      });
  return walk[3];
}

struct TfIdfVectorizerLowering : OpConversionPattern<ONNX::TfIdfVectorizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::TfIdfVectorizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<TfIdfAttrs> attrs = checkTfIdfAttrs(op);
    if (failed(attrs))
      return failure();
    const TfIdfAttrs &at = *attrs;
    int64_t minN = at.minN, maxN = at.maxN, numCols = at.numCols;

    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    int64_t rank = xt.getRank();
    if (rank != 1 && rank != 2)
      return op.emitOpError("X must be 1-D or 2-D");
    if (yt.getRank() != rank)
      return op.emitOpError("Y must have the rank of X");
    if (!yt.isDynamicDim(rank - 1) && yt.getDimSize(rank - 1) != numCols)
      return op.emitOpError("Y must have ")
             << numCols << " columns (the largest ngram_indexes + 1)";
    FailureOr<FlatTrie> trie =
        buildTrie(op, *op.getPoolInt64s(), op.getNgramCounts(), at.indexes,
                  at.weights, minN, maxN);
    if (failed(trie))
      return failure();

    // Rows of X: a 1-D X is one row.
    if (rank == 1)
      x = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({1, xt.getDimSize(0)}, xt.getElementType()), x,
          SmallVector<ReassociationIndices>{{0, 1}});
    Value numRows = getDimValue(rewriter, loc, x, 0);
    Value rowLen = getDimValue(rewriter, loc, x, 1);
    if (!yt.isDynamicDim(0) && rank == 2)
      emitRuntimeCheck(rewriter, loc,
                       cmpI(rewriter, loc, arith::CmpIPredicate::eq, numRows,
                            idx(rewriter, loc, yt.getDimSize(0))),
                       "TfIdfVectorizer: the result shape does not match the "
                       "result type");
    Type f32 = rewriter.getF32Type();
    int64_t staticRows = cast<RankedTensorType>(x.getType()).getDimSize(0);
    auto y2Type = RankedTensorType::get({staticRows, numCols}, f32);
    Value y = linalg::FillOp::create(
                  rewriter, loc, createScalarConstant(rewriter, loc, f32, 0),
                  createEmpty(rewriter, loc, y2Type, {numRows, Value()}))
                  .getResult(0);

    // No n-gram in range: the result stays 0.
    if (trie->childKey.size() > 0) {
      TrieTables t;
      t.childStart = i64Constant(rewriter, loc, trie->childStart);
      t.childKey = i64Constant(rewriter, loc, trie->childKey);
      t.column = i64Constant(rewriter, loc, trie->column);
      // TF adds 1 per hit: no weights to read.
      if (at.mode != Weighting::TF) {
        auto weightType =
            RankedTensorType::get({(int64_t)trie->weight.size()}, f32);
        t.weight = arith::ConstantOp::create(
            rewriter, loc, weightType,
            DenseElementsAttr::get(weightType, ArrayRef<float>(trie->weight)));
      }
      t.lastKey = idx(rewriter, loc, trie->childKey.size() - 1);
      Type xOnnx = getElementType(op.getX());
      // Unigrams count at skip distance 1 only; once the smallest length
      // counted exceeds max_gram_length, larger distances add nothing.
      int64_t numDistances = (minN == 1 && maxN == 1) ? 1 : at.maxSkip + 1;
      int64_t laterMin = std::max<int64_t>(minN, 2);
      // Distances after the first count n-grams of 2 items or more: a
      // distance of rowLen or more fits none. Capped at max(rowLen - 1,
      // 1): a max_skip_count of 2^62 looped 2^62 times (a hang).
      Value distances = idx(rewriter, loc, numDistances);
      if (numDistances > 1)
        distances = minIdx(
            rewriter, loc, distances,
            maxIdx(rewriter, loc,
                   arith::SubIOp::create(rewriter, loc, rowLen,
                                         idx(rewriter, loc, 1)),
                   idx(rewriter, loc, 1)));
      y = buildLoops(
          rewriter, loc, {numRows, distances}, ValueRange{y},
          [&](OpBuilder &b, Location l, ValueRange ivs,
              ValueRange args) -> SmallVector<Value> {
            Value row = ivs[0];
            Value one = idx(b, l, 1), zero = idx(b, l, 0);
            Value dist = arith::AddIOp::create(b, l, ivs[1], one);
            Value isFirst = cmpI(b, l, arith::CmpIPredicate::eq, ivs[1], zero);
            Value startN = arith::SelectOp::create(
                b, l, isFirst, idx(b, l, minN), idx(b, l, laterMin));
            // Starts from which the shortest counted n-gram fits: rowLen -
            // dist (startN - 1) when dist (startN - 1) <= rowLen - 1, which
            // is checked by a division (the product can overflow for a
            // min_gram_length near 2^63).
            Value gaps = arith::SubIOp::create(b, l, startN, one);
            Value room = arith::DivSIOp::create(
                b, l,
                maxIdx(b, l, arith::SubIOp::create(b, l, rowLen, one), zero),
                dist);
            Value fits = cmpI(b, l, arith::CmpIPredicate::sle, gaps, room);
            Value span = arith::MulIOp::create(
                b, l, dist, arith::SelectOp::create(b, l, fits, gaps, zero));
            Value numStarts = arith::SelectOp::create(
                b, l, fits, arith::SubIOp::create(b, l, rowLen, span), zero);
            return buildLoops(
                b, l, {numStarts}, args,
                [&](OpBuilder &b, Location l, ValueRange s,
                    ValueRange sargs) -> SmallVector<Value> {
                  return {countFrom(b, l, t, at, x, xOnnx, row, rowLen, s[0],
                                    dist, startN, one, sargs[0])};
                });
          })[0];
    }

    if (rank == 1)
      y = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({numCols}, f32), y,
          SmallVector<ReassociationIndices>{{0, 1}});
    if (y.getType() != yt)
      y = tensor::CastOp::create(rewriter, loc, yt, y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::onnxc::populateTfIdfPatterns(TypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<TfIdfVectorizerLowering>(tc, patterns.getContext());
}

//===- Recurrent.h - RNN, GRU, LSTM lowering internals ----------*- C++ -*-===//
//
// Internal to ONNXToLinalg/: what Recurrent.cpp (the op's checks, the loop
// over directions, the patterns) and RecurrentStep.cpp (the per-step cells
// and the time loop of one direction) share. Recurrent.cpp's file comment
// describes the lowering.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENT_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENT_H

#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/RecurrentActivations.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>
#include <string>

namespace mlir::onnxc::recurrent {

using namespace mlir::onnxc::linalg_conv;

//===----------------------------------------------------------------------===//
// Sizes and slices (Recurrent.cpp)
//===----------------------------------------------------------------------===//

/// `v * k` for a size that is a constant or an index value.
OpFoldResult mulSize(OpBuilder &b, Location loc, OpFoldResult v, int64_t k);
Value indexValue(OpBuilder &b, Location loc, OpFoldResult v);
RankedTensorType tensorType(ArrayRef<OpFoldResult> sizes, Type elt);
Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elt);
/// A new tensor with undefined contents that is never merged with another
/// one (Recurrent.cpp says why).
Value freshTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elt);
/// The slice of `v` at `offsets` with `sizes` (unit strides), keeping the
/// dims listed in `kept` (the others have size 1 and are dropped).
Value slice(OpBuilder &b, Location loc, Value v, ArrayRef<OpFoldResult> offsets,
            ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> kept);
Value insert(OpBuilder &b, Location loc, Value src, Value dest,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes);
/// The 2-D `v` transposed, in element type `to`.
Value transposed(OpBuilder &b, Location loc, Value v, Type to);

/// The right operand B [K, N] of a product A B, held either as B^T [N, K]
/// (`nk`: a block of W or R as stored, read in place) or as B (transposed
/// once before the loop).
struct Weight {
  Value v;
  bool nk = true;
  /// The columns [off, off + n) of B, whose rows are `k` long.
  Weight columns(OpBuilder &b, Location loc, OpFoldResult off, OpFoldResult n,
                 OpFoldResult k) const {
    OpFoldResult zero = b.getIndexAttr(0);
    if (nk)
      return {slice(b, loc, v, {off, zero}, {n, k}, {0, 1}), true};
    return {slice(b, loc, v, {zero, off}, {k, n}, {0, 1}), false};
  }
};

/// acc[..., n] + sum_k lhs[..., k] B[k, n] (Recurrent.cpp).
Value contract(OpBuilder &b, Location loc, Value lhs, const Weight &w,
               Value acc);
/// `t` filled with zeros.
Value zeroed(OpBuilder &b, Location loc, Value t);

//===----------------------------------------------------------------------===//
// The per-step elementwise generics
//===----------------------------------------------------------------------===//

/// The operands of a generic over (batch, hidden): [batch, hidden] tensors,
/// per-column [hidden] vectors (biases, peepholes) and per-row [batch]
/// vectors (sequence_lens).
class StepGeneric {
public:
  explicit StepGeneric(MLIRContext *ctx) : ctx(ctx) {}
  unsigned full(Value v) {
    return add(v, AffineMap::getMultiDimIdentityMap(2, ctx));
  }
  unsigned column(Value v) {
    return add(v, AffineMap::get(2, 0, getAffineDimExpr(1, ctx), ctx));
  }
  unsigned row(Value v) {
    return add(v, AffineMap::get(2, 0, getAffineDimExpr(0, ctx), ctx));
  }
  /// Builds the generic writing into `outs` (each [batch, hidden]); `body`
  /// gets the input scalars then the current output scalars.
  SmallVector<Value>
  build(OpBuilder &b, Location loc, ValueRange outs,
        function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange,
                                        ValueRange)>
            body) {
    SmallVector<AffineMap> allMaps = maps;
    allMaps.append(outs.size(), AffineMap::getMultiDimIdentityMap(2, ctx));
    unsigned n = ins.size();
    auto op = linalg::GenericOp::create(
        b, loc, outs.getTypes(), ins, outs, allMaps, parallelIterators(2),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(
              nb, l, body(nb, l, args.take_front(n), args.drop_front(n)));
        });
    return SmallVector<Value>(op.getResults());
  }

private:
  unsigned add(Value v, AffineMap m) {
    ins.push_back(v);
    maps.push_back(m);
    return ins.size() - 1;
  }
  MLIRContext *ctx;
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
};

enum class Cell { RNN, GRU, LSTM };

/// What distinguishes the three ops and their attributes.
struct Config {
  Cell cell;
  int64_t gates;  // gate blocks in W and R: 1, 3, 4
  int64_t perDir; // activations per direction: 1, 2, 3
  bool layout1 = false;
  bool linearBeforeReset = false;
  bool inputForget = false;
  std::optional<double> clip;
  SmallVector<bool, 2> reverse; // per direction: runs backwards
  SmallVector<Activation> acts;
};

/// Direction `d`'s operands of the step computation, built before its loop.
struct DirectionParams {
  int64_t d;
  bool reverse;
  /// Column offsets k * hidden of the gate blocks (k = 0..3).
  SmallVector<OpFoldResult, 4> gateOffsets;
  /// The right operands of X W^T (W's block [gates*hidden, input], read in
  /// place, in X's element type) and of H R^T (in the accumulation type, as
  /// H: R's block read in place when it is a constant of that type, else
  /// R^T, transposed and converted once). GRU: R's z and r blocks (Zr) and
  /// h block (H) apart.
  Weight w, r, rZr, rH;
  /// X W^T for every step, [seq, batch, gates*hidden] (layout 1: [batch,
  /// seq, gates*hidden]), computed before the loop.
  Value xw;
  /// Wb + Rb per gate [hidden] (none without B). GRU with
  /// linear_before_reset: Wbh and Rbh apart instead (r scales Rbh).
  SmallVector<Value, 4> gateBias;
  Value wbh, rbh;
  /// Peepholes P[iof] [hidden].
  Value pi, po, pf;
};

/// The scalars that one element of the gate generic combines.
struct CellScalars {
  /// Per gate, the products X_t W^T + H R^T (GRU: z and r only).
  SmallVector<Value, 4> products;
  /// GRU: X_t W_h^T and H R_h^T (or (r . H) R_h^T).
  Value xwh, hrh;
  SmallVector<Value, 4> bias; // null without B
  Value wbh, rbh, pi, po, pf; // null when absent
  Value hPrev, cPrev;
};

/// The lowering of one op; see the file comment.
class RecurrentBuilder {
public:
  RecurrentBuilder(Operation *op, const Config &cfg, ValueRange operands,
                   const TypeConverter *tc, ConversionPatternRewriter &rw)
      : op(op), cfg(cfg), operands(operands), tc(tc), b(rw), loc(op->getLoc()) {
  }

  LogicalResult lower();

private:
  Value operand(unsigned i) const {
    if (i >= operands.size() || isa<NoneType>(operands[i].getType()))
      return {};
    return operands[i];
  }
  RankedTensorType resultType(unsigned i) const {
    if (i >= op->getNumResults() || isa<NoneType>(op->getResult(i).getType()))
      return {};
    return dyn_cast_or_null<RankedTensorType>(
        tc->convertType(op->getResult(i).getType()));
  }
  std::string message(const Twine &what) const {
    return (op->getName().stripDialect() + ": " + what).str();
  }
  LogicalResult checkRank(Value v, RankedTensorType t, int64_t rank,
                          StringRef name);
  LogicalResult expectShape(Value v, ArrayRef<OpFoldResult> expected,
                            StringRef name, StringRef desc);
  LogicalResult expectResultShape(RankedTensorType t,
                                  ArrayRef<OpFoldResult> expected,
                                  StringRef name, StringRef desc);
  /// Offsets and sizes of direction `d`'s [batch, hidden] slice of Y_h /
  /// initial_h, or of Y's at step `t`; the kept dims in `kept`.
  void stateSlice(int64_t d, SmallVectorImpl<OpFoldResult> &offsets,
                  SmallVectorImpl<OpFoldResult> &sizes,
                  SmallVectorImpl<int64_t> &kept);
  void ySlice(Value t, int64_t d, SmallVectorImpl<OpFoldResult> &offsets,
              SmallVectorImpl<OpFoldResult> &sizes,
              SmallVectorImpl<int64_t> &kept);
  /// The initial state of direction `d` from `init` (or zeros), in `acc`.
  Value initialState(Value init, int64_t d);
  /// Writes the final state `s` of direction `d` into `dest` (Y_h / Y_c).
  Value storeState(Value s, Value dest, int64_t d);
  /// Lowers direction `d`: updates y, yh, yc (null when not needed).
  void direction(int64_t d, Value &y, Value &yh, Value &yc);
  DirectionParams prepareDirection(int64_t d);
  /// One time step: the loop body, given the iteration's carried values
  /// (state(s), then Y if needed, then the scratch tensors from index
  /// `firstScratch`); returns the values to yield.
  SmallVector<Value> step(OpBuilder &nb, Location l, const DirectionParams &p,
                          Value iv, ValueRange args, unsigned firstScratch);
  /// The new hidden state (and LSTM cell state) of one element.
  Value rnnCell(OpBuilder &nb, Location l, int64_t d, const CellScalars &s);
  Value gruCell(OpBuilder &nb, Location l, int64_t d, const CellScalars &s);
  std::pair<Value, Value> lstmCell(OpBuilder &nb, Location l, int64_t d,
                                   const CellScalars &s);
  /// x + bias (bias may be null, of any float type), then clipped.
  Value preActivation(OpBuilder &nb, Location l, Value x, Value bias);
  Value act(OpBuilder &nb, Location l, int64_t d, int64_t k, Value x) {
    return applyActivation(nb, l, cfg.acts[d * cfg.perDir + k], x);
  }

  Operation *op;
  const Config &cfg;
  ValueRange operands;
  const TypeConverter *tc;
  ConversionPatternRewriter &b;
  Location loc;

  Value x, w, r, bias, lens, h0, c0, peep;
  /// R's data is known at compile time.
  bool rIsConstant = false;
  Type elt, acc;
  OpFoldResult seq, batch, input, hidden, gateRows;
  int64_t numDir = 1;
};

} // namespace mlir::onnxc::recurrent

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RECURRENT_H

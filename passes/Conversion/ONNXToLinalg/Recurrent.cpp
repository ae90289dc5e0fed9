//===- Recurrent.cpp - RNN, GRU, LSTM -> linalg + scf ---------------------===//
//
// One scf.for over the time steps per direction. Before it, the input
// projection X W^T of every step is one product ([seq * batch, input] x
// [input, gates * hidden], as onnxruntime does), so that the loop computes
// only H R^T per step. The hidden state (and the LSTM cell state) and the
// Y output are the loop's tensor iter_args. Per step: the product H R^T;
// one elementwise linalg.generic adds it to step t's slice of X W^T and the
// biases, applies the activations inline and writes the new state into the
// carried state (its `outs`, so the old state is read from the output
// block argument) and Y_t into Y's slice for this step (a
// tensor.insert_slice back into the carried Y). Every carried value is
// updated through its own `outs`, so one-shot bufferization keeps each in
// one buffer across the steps.
//
// The products are multiply-add contractions that onnxc-linalg-to-ukernel
// turns into GEMM calls. W, and R when it is a constant, are read in place
// (B^T through the indexing map): a constant reaches the GEMM as a constant
// and is packed once, at compile time. A non-constant R is transposed once
// before the loop (the GEMM packs a non-constant B on every call, fastest
// from contiguous rows).
//
// GRU with linear_before_reset = 0 needs (r . H) R_h^T: a first generic
// computes r . H, a product, then the gate generic.
//
// The state is computed in f32 for f16 models (in the element type
// otherwise) and rounded when it is written to Y, Y_h and Y_c.
//
// sequence_lens: at steps t >= sequence_lens[b] batch entry b writes 0 to
// Y and keeps its state, so Y_h is the state after its last valid step; in
// reverse direction the steps run from seq_length - 1 down, so entry b
// starts at sequence_lens[b] - 1. An entry of length 0 gives Y_h = Y_c = 0
// (as onnxruntime). The lengths are checked to lie in [0, seq_length] at
// run time before the loop.
//
// Bidirectional: the forward loop, then the reverse loop, each writing its
// own direction's slices of Y, Y_h and Y_c (no concatenation).
//
// Activations (RecurrentActivations.cpp; activation_alpha / activation_beta
// consumed in order by the functions that take them, as onnxruntime): Relu, Tanh, Sigmoid,
// Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu,
// Softsign, Softplus. clip bounds every gate pre-activation (not the cell
// state before h, as onnxruntime).
//
// The per-step code (the cells, one direction's time loop) is in
// RecurrentStep.cpp; what the two share, in Recurrent.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Recurrent.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;
using namespace mlir::onnxc::recurrent;

namespace mlir::onnxc::recurrent {

//===----------------------------------------------------------------------===//
// Sizes and slices
//===----------------------------------------------------------------------===//

/// `v * k` for a size that is a constant or an index value.
OpFoldResult mulSize(OpBuilder &b, Location loc, OpFoldResult v, int64_t k) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return b.getIndexAttr(*c * k);
  return arith::MulIOp::create(b, loc, cast<Value>(v),
                               createIndexConstant(b, loc, k))
      .getResult();
}

Value indexValue(OpBuilder &b, Location loc, OpFoldResult v) {
  return getValueOrCreateConstantIndexOp(b, loc, v);
}

SmallVector<int64_t> staticShape(ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> shape;
  for (OpFoldResult s : sizes)
    shape.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
  return shape;
}

RankedTensorType tensorType(ArrayRef<OpFoldResult> sizes, Type elt) {
  return RankedTensorType::get(staticShape(sizes), elt);
}

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elt) {
  return tensor::EmptyOp::create(b, loc, sizes, elt);
}

/// A new tensor with undefined contents that is never merged with another
/// one. Everything the loops carry (the states, Y, the per-step products)
/// and Y_h / Y_c start from one rather than from tensor.empty: CSE merges
/// equal tensor.empty ops, and one-shot bufferization then gives loop
/// iter_args initialized from the merged value one buffer, because it sees
/// no conflict on a value with undefined contents (a GRU's X_t W_h^T and
/// r . H ended up in the same buffer).
Value freshTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elt) {
  SmallVector<Value> dyn;
  for (OpFoldResult s : sizes)
    if (!getConstantIntValue(s))
      dyn.push_back(cast<Value>(s));
  return bufferization::AllocTensorOp::create(b, loc, tensorType(sizes, elt),
                                              dyn);
}

/// The slice of `v` at `offsets` with `sizes` (unit strides), keeping the
/// dims listed in `kept` (the others have size 1 and are dropped).
Value slice(OpBuilder &b, Location loc, Value v, ArrayRef<OpFoldResult> offsets,
            ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> kept) {
  SmallVector<OpFoldResult> keptSizes;
  for (int64_t k : kept)
    keptSizes.push_back(sizes[k]);
  auto type = tensorType(keptSizes, getElementType(v));
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, type, v, offsets, sizes,
                                        strides);
}

Value insert(OpBuilder &b, Location loc, Value src, Value dest,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, loc, src, dest, offsets, sizes,
                                       strides);
}

/// The 2-D `v` transposed, in element type `to`: a linalg.transpose, or a
/// generic that also converts.
Value transposed(OpBuilder &b, Location loc, Value v, Type to) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes = {getDimOFR(b, loc, v, 1),
                                     getDimOFR(b, loc, v, 0)};
  Value init = emptyTensor(b, loc, sizes, to);
  if (t.getElementType() == to)
    return linalg::TransposeOp::create(b, loc, v, init,
                                       ArrayRef<int64_t>{1, 0})
        .getResult()[0];
  MLIRContext *ctx = b.getContext();
  AffineMap perm = AffineMap::get(
      2, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(0, ctx)}, ctx);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init},
             SmallVector<AffineMap>{perm, b.getMultiDimIdentityMap(2)},
             parallelIterators(2),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l,
                                       convertFloat(nb, l, args[0], to));
             })
      .getResult(0);
}

/// acc[..., n] + sum_k lhs[..., k] B[k, n] for a 2-D or 3-D `lhs` (and
/// `acc`), the operands converted to acc's element type. B^T is read in
/// place through the indexing map (a generic whose body is the multiply-add
/// that onnxc-linalg-to-ukernel turns into a GEMM call; a constant weight
/// gets there as a constant and is packed at compile time, not per call);
/// a transposed B is a linalg.matmul (a named op, so that elementwise
/// fusion does not fold the transpose back into a per-step product).
Value contract(OpBuilder &b, Location loc, Value lhs, const Weight &w,
               Value acc) {
  unsigned rank = cast<RankedTensorType>(lhs.getType()).getRank();
  if (!w.nk && rank == 2)
    return linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                    ValueRange{lhs, w.v}, ValueRange{acc})
        .getResult(0);
  // Loops: lhs's leading dims, n, k.
  MLIRContext *ctx = b.getContext();
  unsigned nDim = rank - 1, kDim = rank;
  SmallVector<AffineExpr> lead;
  for (unsigned i = 0; i < nDim; ++i)
    lead.push_back(getAffineDimExpr(i, ctx));
  AffineExpr n = getAffineDimExpr(nDim, ctx), k = getAffineDimExpr(kDim, ctx);
  SmallVector<AffineExpr> lhsExprs = lead, outExprs = lead;
  lhsExprs.push_back(k);
  outExprs.push_back(n);
  SmallVector<AffineExpr> rhsExprs =
      w.nk ? SmallVector<AffineExpr>{n, k} : SmallVector<AffineExpr>{k, n};
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, lhsExprs, ctx),
                                 AffineMap::get(rank + 1, 0, rhsExprs, ctx),
                                 AffineMap::get(rank + 1, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(rank);
  iters.push_back(utils::IteratorType::reduction);
  Type to = getElementType(acc);
  return linalg::GenericOp::create(
             b, loc, TypeRange{acc.getType()}, ValueRange{lhs, w.v},
             ValueRange{acc}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value prod = arith::MulFOp::create(
                   nb, l, convertFloat(nb, l, args[0], to),
                   convertFloat(nb, l, args[1], to));
               linalg::YieldOp::create(
                   nb, l, arith::AddFOp::create(nb, l, args[2], prod)
                              .getResult());
             })
      .getResult(0);
}

Value zeroed(OpBuilder &b, Location loc, Value t) {
  Value z = createScalarConstant(b, loc, getElementType(t), 0);
  return linalg::FillOp::create(b, loc, z, t).getResult(0);
}

//===----------------------------------------------------------------------===//
// The op's checks and the loop over directions
//===----------------------------------------------------------------------===//

LogicalResult RecurrentBuilder::checkRank(Value v, RankedTensorType t,
                                          int64_t rank, StringRef name) {
  if (!t && v)
    t = dyn_cast<RankedTensorType>(v.getType());
  if (t && t.getRank() != rank)
    return op->emitOpError() << name << " must have rank " << rank << ", got "
                             << t;
  return success();
}

LogicalResult RecurrentBuilder::expectShape(Value v,
                                            ArrayRef<OpFoldResult> expected,
                                            StringRef name, StringRef desc) {
  Value ok;
  for (auto [i, e] : llvm::enumerate(expected)) {
    OpFoldResult actual = getDimOFR(b, loc, v, i);
    std::optional<int64_t> ca = getConstantIntValue(actual),
                           ce = getConstantIntValue(e);
    if (ca && ce) {
      if (*ca != *ce)
        return op->emitOpError()
               << name << " must have shape " << desc << " (dim " << i
               << " is " << *ca << ", expected " << *ce << ")";
      continue;
    }
    Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     indexValue(b, loc, actual),
                                     indexValue(b, loc, e));
    ok = ok ? arith::AndIOp::create(b, loc, ok, eq).getResult() : eq;
  }
  if (ok)
    emitRuntimeCheck(b, loc, ok,
                     message(name + " must have shape " + desc));
  return success();
}

LogicalResult
RecurrentBuilder::expectResultShape(RankedTensorType t,
                                    ArrayRef<OpFoldResult> expected,
                                    StringRef name, StringRef desc) {
  if (!t)
    return success();
  Value ok;
  for (auto [i, e] : llvm::enumerate(expected)) {
    if (t.isDynamicDim(i))
      continue;
    std::optional<int64_t> ce = getConstantIntValue(e);
    if (ce) {
      if (*ce != t.getDimSize(i))
        return op->emitOpError()
               << "result " << name << " must have shape " << desc << " (dim "
               << i << " is " << t.getDimSize(i) << ", expected " << *ce
               << ")";
      continue;
    }
    Value eq = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, indexValue(b, loc, e),
        createIndexConstant(b, loc, t.getDimSize(i)));
    ok = ok ? arith::AndIOp::create(b, loc, ok, eq).getResult() : eq;
  }
  if (ok)
    emitRuntimeCheck(b, loc, ok,
                     message("the inputs do not give result " + name +
                             " its inferred shape"));
  return success();
}

void RecurrentBuilder::stateSlice(int64_t d,
                                  SmallVectorImpl<OpFoldResult> &offsets,
                                  SmallVectorImpl<OpFoldResult> &sizes,
                                  SmallVectorImpl<int64_t> &kept) {
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1),
               dir = b.getIndexAttr(d);
  if (cfg.layout1) { // [batch, num_directions, hidden]
    offsets.assign({zero, dir, zero});
    sizes.assign({batch, one, hidden});
    kept.assign({0, 2});
  } else { // [num_directions, batch, hidden]
    offsets.assign({dir, zero, zero});
    sizes.assign({one, batch, hidden});
    kept.assign({1, 2});
  }
}

void RecurrentBuilder::ySlice(Value t, int64_t d,
                              SmallVectorImpl<OpFoldResult> &offsets,
                              SmallVectorImpl<OpFoldResult> &sizes,
                              SmallVectorImpl<int64_t> &kept) {
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1),
               dir = b.getIndexAttr(d);
  if (cfg.layout1) { // [batch, seq, num_directions, hidden]
    offsets.assign({zero, t, dir, zero});
    sizes.assign({batch, one, one, hidden});
    kept.assign({0, 3});
  } else { // [seq, num_directions, batch, hidden]
    offsets.assign({t, dir, zero, zero});
    sizes.assign({one, one, batch, hidden});
    kept.assign({2, 3});
  }
}

Value RecurrentBuilder::initialState(Value init, int64_t d) {
  // Always a fresh tensor (see freshTensor): the loop updates the state in
  // place, and one-shot bufferization would otherwise write into the
  // caller's initial_h (a function argument is writable) or, after CSE, give
  // H and C one buffer. A linalg.copy rather than an identity generic, which
  // canonicalization erases.
  SmallVector<OpFoldResult> stateSizes = {batch, hidden};
  Value fresh = freshTensor(b, loc, stateSizes, acc);
  if (!init) {
    Value zero = createScalarConstant(b, loc, acc, 0);
    return linalg::FillOp::create(b, loc, zero, fresh).getResult(0);
  }
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<int64_t> kept;
  stateSlice(d, offsets, sizes, kept);
  Value s = slice(b, loc, init, offsets, sizes, kept);
  if (getElementType(s) == acc)
    return linalg::CopyOp::create(b, loc, s, fresh).getResult(0);
  StepGeneric g(b.getContext());
  unsigned in = g.full(s);
  return g.build(b, loc, ValueRange{fresh},
                 [&](OpBuilder &nb, Location l, ValueRange ins,
                     ValueRange) -> SmallVector<Value> {
                   return {convertFloat(nb, l, ins[in], acc)};
                 })[0];
}

Value RecurrentBuilder::storeState(Value s, Value dest, int64_t d) {
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<int64_t> kept;
  stateSlice(d, offsets, sizes, kept);
  Value out = slice(b, loc, dest, offsets, sizes, kept);
  StepGeneric g(b.getContext());
  unsigned in = g.full(s);
  unsigned len = lens ? g.row(lens) : 0;
  Value stored =
      g.build(b, loc, ValueRange{out},
              [&](OpBuilder &nb, Location l, ValueRange ins,
                  ValueRange) -> SmallVector<Value> {
                Value v = convertFloat(nb, l, ins[in], elt);
                if (!lens)
                  return {v};
                // A sequence of length 0 has no last state: 0.
                Value empty = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::eq, ins[len],
                    createIntConstant(nb, l, ins[len].getType(), 0));
                return {arith::SelectOp::create(nb, l, empty, cst(nb, l, v, 0),
                                                v)};
              })[0];
  return insert(b, loc, stored, dest, offsets, sizes);
}

LogicalResult RecurrentBuilder::lower() {
  x = operands[0];
  w = operands[1];
  r = operands[2];
  rIsConstant = matchPattern(r, m_Constant()) ||
                op->getOperand(2).getDefiningOp<ONNX::ConstantOp>();
  bias = operand(3);
  lens = operand(4);
  h0 = operand(5);
  if (cfg.cell == Cell::LSTM) {
    c0 = operand(6);
    peep = operand(7);
  }
  RankedTensorType yType = resultType(0), yhType = resultType(1),
                   ycType = cfg.cell == Cell::LSTM ? resultType(2)
                                                   : RankedTensorType();
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    if (!isa<NoneType>(op->getResult(i).getType()) && !resultType(i))
      return op->emitOpError("result ") << i << " has no tensor conversion";
  if (failed(checkRank(x, {}, 3, "X")) || failed(checkRank(w, {}, 3, "W")) ||
      failed(checkRank(r, {}, 3, "R")) || failed(checkRank(bias, {}, 2, "B")) ||
      failed(checkRank(lens, {}, 1, "sequence_lens")) ||
      failed(checkRank(h0, {}, 3, "initial_h")) ||
      failed(checkRank(c0, {}, 3, "initial_c")) ||
      failed(checkRank(peep, {}, 2, "P")) ||
      failed(checkRank({}, yType, 4, "Y")) ||
      failed(checkRank({}, yhType, 3, "Y_h")) ||
      failed(checkRank({}, ycType, 3, "Y_c")))
    return failure();
  elt = getElementType(x);
  if (!isa<FloatType>(elt))
    return op->emitOpError("X must have a float element type");
  acc = elt.getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type()) : elt;
  numDir = cfg.reverse.size();

  // Sizes: seq_length, batch_size, input_size from X; hidden_size from the
  // attribute, else from R or the results, else R's dim at run time.
  int64_t seqDim = cfg.layout1 ? 1 : 0, batchDim = cfg.layout1 ? 0 : 1;
  seq = getDimOFR(b, loc, x, seqDim);
  batch = getDimOFR(b, loc, x, batchDim);
  input = getDimOFR(b, loc, x, 2);
  int64_t hs = ShapedType::kDynamic;
  if (auto a = op->getAttrOfType<IntegerAttr>("hidden_size"))
    hs = a.getInt();
  auto rt = cast<RankedTensorType>(r.getType());
  if (ShapedType::isDynamic(hs))
    hs = rt.getDimSize(2);
  std::pair<RankedTensorType, int64_t> hiddenDims[] = {
      {yType, 3}, {yhType, 2}, {ycType, 2}};
  for (auto [t, dim] : hiddenDims)
    if (ShapedType::isDynamic(hs) && t)
      hs = t.getDimSize(dim);
  hidden = ShapedType::isDynamic(hs) ? OpFoldResult(getDimOFR(b, loc, r, 2))
                                     : OpFoldResult(b.getIndexAttr(hs));
  gateRows = mulSize(b, loc, hidden, cfg.gates);

  // Shapes, at compile time where static, else checked at run time.
  OpFoldResult dirs = b.getIndexAttr(numDir);
  std::string g = cfg.gates == 1 ? "" : std::to_string(cfg.gates) + "*";
  SmallVector<OpFoldResult> stateShape =
      cfg.layout1 ? SmallVector<OpFoldResult>{batch, dirs, hidden}
                  : SmallVector<OpFoldResult>{dirs, batch, hidden};
  StringRef stateDesc = cfg.layout1
                            ? "[batch_size, num_directions, hidden_size]"
                            : "[num_directions, batch_size, hidden_size]";
  SmallVector<OpFoldResult> yShape =
      cfg.layout1 ? SmallVector<OpFoldResult>{batch, seq, dirs, hidden}
                  : SmallVector<OpFoldResult>{seq, dirs, batch, hidden};
  StringRef yDesc =
      cfg.layout1 ? "[batch_size, seq_length, num_directions, hidden_size]"
                  : "[seq_length, num_directions, batch_size, hidden_size]";
  if (failed(expectShape(w, {dirs, gateRows, input}, "W",
                         "[num_directions, " + g +
                             "hidden_size, input_size]")) ||
      failed(expectShape(r, {dirs, gateRows, hidden}, "R",
                         "[num_directions, " + g +
                             "hidden_size, hidden_size]")) ||
      (bias && failed(expectShape(bias,
                                  {dirs, mulSize(b, loc, gateRows, 2)}, "B",
                                  "[num_directions, " +
                                      std::to_string(2 * cfg.gates) +
                                      "*hidden_size]"))) ||
      (lens && failed(expectShape(lens, {batch}, "sequence_lens",
                                  "[batch_size]"))) ||
      (h0 && failed(expectShape(h0, stateShape, "initial_h", stateDesc))) ||
      (c0 && failed(expectShape(c0, stateShape, "initial_c", stateDesc))) ||
      (peep && failed(expectShape(peep, {dirs, mulSize(b, loc, hidden, 3)},
                                  "P", "[num_directions, 3*hidden_size]"))) ||
      failed(expectResultShape(yType, yShape, "Y", yDesc)) ||
      failed(expectResultShape(yhType, stateShape, "Y_h", stateDesc)) ||
      failed(expectResultShape(ycType, stateShape, "Y_c", stateDesc)))
    return failure();
  if (lens) {
    Value seqV = indexValue(b, loc, seq);
    checkEveryElement(
        b, loc, lens,
        message("sequence_lens values must be in [0, seq_length]"),
        [&](OpBuilder &nb, Location l, Value v, ValueRange) -> Value {
          Value i = toIndex(nb, l, v);
          Value lo = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, i,
                                           createIndexConstant(nb, l, 0));
          Value hi = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, i,
                                           seqV);
          return arith::AndIOp::create(nb, l, lo, hi);
        });
  }

  Value y = yType ? freshTensor(b, loc, yShape, elt) : Value();
  Value yh = yhType ? freshTensor(b, loc, stateShape, elt) : Value();
  Value yc = ycType ? freshTensor(b, loc, stateShape, elt) : Value();
  for (int64_t d = 0; d < numDir; ++d)
    direction(d, y, yh, yc);

  SmallVector<Value> results;
  auto result = [&](Value v, RankedTensorType t) -> Value {
    if (!t)
      return ONNX::NoValueOp::create(b, loc, b.getNoneType());
    if (v.getType() != t)
      v = tensor::CastOp::create(b, loc, t, v);
    return v;
  };
  results.push_back(result(y, yType));
  results.push_back(result(yh, yhType));
  if (cfg.cell == Cell::LSTM)
    results.push_back(result(yc, ycType));
  b.replaceOp(op, results);
  return success();
}


} // namespace mlir::onnxc::recurrent

namespace {

/// The attributes common to the three ops into `cfg`.
LogicalResult readConfig(Operation *op, Config &cfg,
                         ArrayRef<StringRef> defaultActivations) {
  auto dirAttr = op->getAttrOfType<StringAttr>("direction");
  StringRef dir = dirAttr ? dirAttr.getValue() : "forward";
  if (dir == "forward")
    cfg.reverse = {false};
  else if (dir == "reverse")
    cfg.reverse = {true};
  else if (dir == "bidirectional")
    cfg.reverse = {false, true};
  else
    return op->emitOpError("direction '") << dir << "' is not supported";
  if (auto a = op->getAttrOfType<IntegerAttr>("layout"))
    cfg.layout1 = a.getInt() != 0;
  if (auto a = op->getAttrOfType<FloatAttr>("clip")) {
    double c = a.getValueAsDouble();
    if (!(c >= 0))
      return op->emitOpError("clip must be >= 0, got ") << c;
    cfg.clip = c;
  }
  FailureOr<SmallVector<Activation>> acts = parseActivations(
      op, cfg.perDir, cfg.reverse.size(), defaultActivations);
  if (failed(acts))
    return failure();
  cfg.acts = std::move(*acts);
  return success();
}

struct RNNLowering : OpConversionPattern<ONNX::RNNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RNNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Config cfg{Cell::RNN, 1, 1};
    if (failed(readConfig(op, cfg, {"Tanh"})))
      return failure();
    return RecurrentBuilder(op, cfg, adaptor.getOperands(), getTypeConverter(),
                            rewriter)
        .lower();
  }
};

struct GRULowering : OpConversionPattern<ONNX::GRUOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::GRUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Config cfg{Cell::GRU, 3, 2};
    cfg.linearBeforeReset = op.getLinearBeforeReset() != 0;
    if (failed(readConfig(op, cfg, {"Sigmoid", "Tanh"})))
      return failure();
    return RecurrentBuilder(op, cfg, adaptor.getOperands(), getTypeConverter(),
                            rewriter)
        .lower();
  }
};

struct LSTMLowering : OpConversionPattern<ONNX::LSTMOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::LSTMOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Config cfg{Cell::LSTM, 4, 3};
    cfg.inputForget = op.getInputForget() != 0;
    if (failed(readConfig(op, cfg, {"Sigmoid", "Tanh", "Tanh"})))
      return failure();
    return RecurrentBuilder(op, cfg, adaptor.getOperands(), getTypeConverter(),
                            rewriter)
        .lower();
  }
};

} // namespace

void mlir::onnxc::populateRecurrentPatterns(TypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<RNNLowering, GRULowering, LSTMLowering>(tc,
                                                       patterns.getContext());
}

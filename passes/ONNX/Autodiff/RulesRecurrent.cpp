//===- RulesRecurrent.cpp - RNN, GRU, LSTM differentiated via their cell --===//
//
// A recurrent op on a path from an x to y is rewritten, before the reverse
// pass, into its cell's ONNX ops unrolled over the time steps (the ONNX
// spec's equations), which the other rules differentiate: the per-step
// values the backward reads are ordinary forward values. Per direction:
//   XW = X W^T + Wb for every step at once (one MatMul), split per step;
//   per step t (0..T-1, or T-1..0 in reverse): gates = XW_t + H R^T + Rb,
//     then the cell:
//     RNN:  H = f(gates)
//     GRU:  z = f(.z), r = f(.r), h~ = g(X W_h^T + (r . H) R_h^T + Rb_h + Wb_h)
//           (linear_before_reset: g(X W_h^T + r . (H R_h^T + Rb_h) + Wb_h)),
//           H = (1 - z) . h~ + z . H
//     LSTM: i = f(.i + P_i . C), f = f(.f + P_f . C), c~ = g(.c),
//           C = f . C + i . c~, o = f(.o + P_o . C), H = o . h(C)
//   with clip bounding each activation's input (not C before h, as the
//   lowering), activations and their alpha/beta as the lowering reads them,
//   and sequence_lens as masks (a step past an entry's length keeps its
//   state and writes 0 to Y; an entry of length 0 ends with zero states).
//   Y stacks the per-step H; layout 1 transposes in and out.
// A static sequence length gives T copies of the cell; a symbolic one a
// Scan per direction whose body is the cell (carrying H, and C for LSTM,
// scanning XW and, with sequence_lens, the step numbers; reverse
// directions scan backwards), which the Scan rule differentiates
// (RulesControlFlow.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/RecurrentActivations.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"


using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

enum class Kind { RNN, GRU, LSTM };

/// An activation function of the recurrent ops, with its alpha / beta.
using Act = rnn::Activation;
using rnn::ActKind;

/// The activation `a` of `x` as onnx ops (clipped first when `clip` > 0).
Value apply(GradientBuilder &gb, const Act &a, Value x, double clip) {
  Type et = getElementTypeOrSelf(x.getType());
  if (clip > 0)
    x = gb.op("Clip", {x, gb.scalar(-clip, et), gb.scalar(clip, et)});
  StringRef n = rnn::activationName(a.kind);
  switch (a.kind) {
  case ActKind::Relu:
  case ActKind::Tanh:
  case ActKind::Sigmoid:
  case ActKind::Softsign:
  case ActKind::Softplus:
    return gb.op(n, {x});
  case ActKind::Affine:
    return gb.add(gb.mul(x, gb.scalar(a.alpha, et)), gb.scalar(a.beta, et));
  case ActKind::ScaledTanh:
    return gb.mul(gb.scalar(a.alpha, et),
                  gb.op("Tanh", {gb.mul(x, gb.scalar(a.beta, et))}));
  case ActKind::HardSigmoid:
    return gb.op(n, {x}, {gb.attr("alpha", (float)a.alpha),
                          gb.attr("beta", (float)a.beta)});
  case ActKind::LeakyRelu:
  case ActKind::ThresholdedRelu:
  case ActKind::Elu:
    break;
  }
  return gb.op(n, {x}, {gb.attr("alpha", (float)a.alpha)});
}

/// `v[d]` of a [numDir, ...] tensor.
Value dirSlice(GradientBuilder &gb, Value v, int64_t d, int64_t numDir) {
  if (numDir > 1)
    v = gb.op("Slice", {v, gb.i64s({d}), gb.i64s({d + 1}), gb.i64s({0}),
                        gb.none()});
  return gb.op("Squeeze", {v, gb.i64s({0})});
}

/// Columns [k * h, (k + 1) * h) of the last axis.
Value part(GradientBuilder &gb, Value v, int64_t k, int64_t h) {
  return gb.op("Slice", {v, gb.i64s({k * h}), gb.i64s({(k + 1) * h}),
                         gb.i64s({-1}), gb.none()});
}

/// `n` equal parts of the last axis.
SmallVector<Value> split(GradientBuilder &gb, Value v, int64_t n, int64_t h) {
  Operation *s = gb.create("Split", {v, gb.i64s(SmallVector<int64_t>(n, h))},
                           {gb.attr("axis", (int64_t)-1)}, n);
  if (!s)
    return SmallVector<Value>(n, Value());
  return SmallVector<Value>(s->getResults());
}

/// What the expansion reads of a recurrent op's attributes and types.
struct Recurrent {
  int64_t gates = 0, layout = 0, steps = 0, h = 0, numDir = 1, perDir = 0;
  bool symbolic = false, lbr = false;
  StringRef direction;
  double clip = 0;
  SmallVector<Act> acts;
  Type et;
};

template <Kind kind> FailureOr<Recurrent> readRecurrent(Operation *op) {
  Recurrent rc;
  rc.gates = kind == Kind::RNN ? 1 : kind == Kind::GRU ? 3 : 4;
  Value x = op->getOperand(0), w = op->getOperand(1);
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  auto wt = dyn_cast<RankedTensorType>(w.getType());
  if (!xt || xt.getRank() != 3 || !wt || wt.getRank() != 3)
    return op->emitOpError("autodiff: a recurrent op with unranked inputs");
  rc.layout = getIntAttr(op, "layout", 0);
  rc.steps = xt.getDimSize(rc.layout ? 1 : 0);
  rc.symbolic = ShapedType::isDynamic(rc.steps);
  rc.h = getIntAttr(op, "hidden_size", -1);
  if (rc.h < 0) {
    if (wt.isDynamicDim(1))
      return op->emitOpError("autodiff: unknown hidden_size");
    rc.h = wt.getDimSize(1) / rc.gates;
  }
  auto dirAttr = op->getAttrOfType<StringAttr>("direction");
  rc.direction = dirAttr ? dirAttr.getValue() : "forward";
  rc.numDir = rc.direction == "bidirectional" ? 2 : 1;
  if (auto c = op->getAttrOfType<FloatAttr>("clip"))
    rc.clip = c.getValueAsDouble();
  if (kind == Kind::LSTM && getIntAttr(op, "input_forget", 0) != 0)
    return op->emitOpError("autodiff: LSTM with input_forget has no rule");
  rc.lbr = kind == Kind::GRU && getIntAttr(op, "linear_before_reset", 0);
  SmallVector<StringRef> defaults;
  if (kind == Kind::RNN)
    defaults = {"Tanh"};
  else if (kind == Kind::GRU)
    defaults = {"Sigmoid", "Tanh"};
  else
    defaults = {"Sigmoid", "Tanh", "Tanh"};
  rc.perDir = defaults.size();
  auto acts = rnn::parseActivations(op, rc.perDir, rc.numDir, defaults);
  if (failed(acts))
    return failure();
  rc.acts = std::move(*acts);
  rc.et = xt.getElementType();
  return rc;
}

/// One direction's cell: the weights it reads, its activations, and its
/// initial states.
template <Kind kind> struct Cell {
  const Recurrent &rc;
  ArrayRef<Act> act;
  Value xw;       ///< X W^T + Wb, every step: [T, batch, gates * hidden]
  Value rdT, rhT; ///< R^T (GRU without linear_before_reset: r, z only; R_h^T)
  Value rb;       ///< Rb, or null
  SmallVector<Value> rbParts, peep;
  Value lens;     ///< sequence_lens, or null
  Value hInit, cInit;

  /// One step of the cell on `g`'s block: XW of the step, the states, the
  /// step number (with sequence_lens) -> the new states and Y's step.
  void step(GradientBuilder &g, Value xst, Value hIn, Value cIn, Value tval,
            Value &hOut, Value &cOut, Value &yOut) const {
    int64_t h = rc.h;
    double clip = rc.clip;
    Value hr = g.op("MatMul", {hIn, rdT});
    Value hNew, cNew;
    if (kind == Kind::RNN) {
      Value pre = g.add(xst, hr);
      if (rb)
        pre = g.add(pre, rb);
      hNew = apply(g, act[0], pre, clip);
    } else if (kind == Kind::GRU) {
      SmallVector<Value> xg = split(g, xst, 3, h);
      SmallVector<Value> hg = split(g, hr, rc.lbr ? 3 : 2, h);
      auto withRb = [&](Value v, int64_t k) {
        return rb ? g.add(v, rbParts[k]) : v;
      };
      Value z = apply(g, act[0], withRb(g.add(xg[0], hg[0]), 0), clip);
      Value rr = apply(g, act[0], withRb(g.add(xg[1], hg[1]), 1), clip);
      Value inner = rc.lbr ? g.mul(rr, withRb(hg[2], 2))
                           : withRb(g.op("MatMul", {g.mul(rr, hIn), rhT}), 2);
      Value hTilde = apply(g, act[1], g.add(xg[2], inner), clip);
      hNew = g.add(g.mul(g.sub(g.scalar(1.0, rc.et), z), hTilde),
                   g.mul(z, hIn));
    } else {
      Value pre = g.add(xst, hr);
      if (rb)
        pre = g.add(pre, rb);
      SmallVector<Value> gt = split(g, pre, 4, h); // i, o, f, c
      Value ip = peep.empty() ? gt[0] : g.add(gt[0], g.mul(peep[0], cIn));
      Value fp = peep.empty() ? gt[2] : g.add(gt[2], g.mul(peep[2], cIn));
      Value i = apply(g, act[0], ip, clip);
      Value f = apply(g, act[0], fp, clip);
      Value c = apply(g, act[1], gt[3], clip);
      cNew = g.add(g.mul(f, cIn), g.mul(i, c));
      Value opre = peep.empty() ? gt[1] : g.add(gt[1], g.mul(peep[1], cNew));
      Value o = apply(g, act[0], opre, clip);
      hNew = g.mul(o, apply(g, act[2], cNew, 0));
    }
    Value y = hNew;
    if (lens) {
      Value valid =
          g.op("Unsqueeze", {g.op("Less", {tval, lens}), g.i64s({1})});
      y = g.op("Where", {valid, hNew, g.scalar(0.0, rc.et)});
      hNew = g.op("Where", {valid, hNew, hIn});
      if (cNew)
        cNew = g.op("Where", {valid, cNew, cIn});
    }
    hOut = hNew;
    cOut = cNew;
    yOut = y;
  }
};

/// Direction `d`'s cell: the direction's slices of W, R, B and P, XW, and
/// the initial states (`zeroState` where absent). `x` is time major.
template <Kind kind>
Cell<kind> directionCell(Operation *op, GradientBuilder &gb,
                         const Recurrent &rc, int64_t d, Value x,
                         Value zeroState, Value lens) {
  int64_t h = rc.h, gates = rc.gates, numDir = rc.numDir;
  Cell<kind> cell{rc, ArrayRef<Act>(rc.acts).slice(d * rc.perDir, rc.perDir)};
  cell.lens = lens;
  Value w = op->getOperand(1), r = op->getOperand(2);
  Value wd = dirSlice(gb, w, d, numDir);
  cell.rdT = gb.op("Transpose", {dirSlice(gb, r, d, numDir)},
                   {gb.attr("perm", ArrayRef<int64_t>{1, 0})});
  cell.xw = gb.op("MatMul",
                  {x, gb.op("Transpose", {wd}, {gb.attr("perm", ArrayRef<int64_t>{
                                                             1, 0})})});
  if (present(op, 3)) {
    Value bd = dirSlice(gb, op->getOperand(3), d, numDir);
    cell.xw = gb.add(cell.xw, part(gb, bd, 0, gates * h));
    cell.rb = part(gb, bd, 1, gates * h);
  }
  // Initial states: [dirs, batch, hidden] ([batch, dirs, hidden] in
  // layout 1).
  auto initial = [&](unsigned k) {
    if (!present(op, k))
      return zeroState;
    Value v = op->getOperand(k);
    if (rc.layout)
      v = gb.op("Transpose", {v}, {gb.attr("perm", ArrayRef<int64_t>{1, 0, 2})});
    return dirSlice(gb, v, d, numDir);
  };
  cell.hInit = initial(5);
  if (kind == Kind::LSTM) {
    cell.cInit = initial(6);
    if (present(op, 7))
      cell.peep = split(gb, dirSlice(gb, op->getOperand(7), d, numDir), 3, h);
  }
  // GRU without linear_before_reset: (r . H) R_h^T separately.
  if (cell.rb)
    cell.rbParts = split(gb, cell.rb, gates, h);
  if (kind == Kind::GRU) {
    cell.rhT = gb.op("Slice", {cell.rdT, gb.i64s({2 * h}), gb.i64s({3 * h}),
                               gb.i64s({1}), gb.none()});
    if (!rc.lbr)
      cell.rdT = gb.op("Slice", {cell.rdT, gb.i64s({0}), gb.i64s({2 * h}),
                                 gb.i64s({1}), gb.none()});
  }
  return cell;
}

/// A static sequence length: T copies of the cell. Returns the direction's
/// Y ([T, batch, hidden]) and updates the states to the last step's.
template <Kind kind>
FailureOr<Value> unrollSteps(GradientBuilder &gb, const Cell<kind> &cell,
                             bool reverse, Type lenType, Value &hPrev,
                             Value &cPrev) {
  int64_t steps = cell.rc.steps;
  // XW per step: one Split (its gradient is one Concat).
  SmallVector<Value> xs;
  Operation *perStep =
      gb.create("Split", {cell.xw, gb.i64s(SmallVector<int64_t>(steps, 1))},
                {gb.attr("axis", (int64_t)0)}, steps);
  if (!perStep)
    return failure();
  for (Value v : perStep->getResults())
    xs.push_back(gb.op("Squeeze", {v, gb.i64s({0})}));
  SmallVector<Value> stepY(steps);
  for (int64_t k = 0; k < steps; ++k) {
    int64_t t = reverse ? steps - 1 - k : k;
    Value hNew, cNew, y;
    cell.step(gb, xs[t], hPrev, cPrev,
              cell.lens ? gb.scalar(t, lenType) : Value(), hNew, cNew, y);
    stepY[t] = gb.op("Unsqueeze", {y, gb.i64s({0})});
    hPrev = hNew;
    cPrev = cNew;
  }
  return steps == 1 ? stepY[0]
                    : gb.op("Concat", stepY, {gb.attr("axis", (int64_t)0)});
}

/// A symbolic sequence length: a Scan of the cell (states H and C, scan
/// inputs XW and the step numbers, scan output Y, in the direction's
/// order). Returns the direction's Y and updates the states to the Scan's.
template <Kind kind>
FailureOr<Value> scanSteps(Operation *op, GradientBuilder &gb,
                           const Cell<kind> &cell, bool reverse, Type lenType,
                           Value &hPrev, Value &cPrev) {
  Value xw = cell.xw, lens = cell.lens;
  auto xwt = dyn_cast<RankedTensorType>(xw.getType());
  auto ht = dyn_cast<RankedTensorType>(hPrev.getType());
  auto ct = cPrev ? dyn_cast<RankedTensorType>(cPrev.getType())
                  : RankedTensorType();
  if (!xwt || xwt.getRank() != 3 || !ht || (cPrev && !ct) || gb.failed)
    return op->emitOpError("autodiff: a recurrent op whose per-step "
                           "values have unranked types");
  SmallVector<Value> operands{hPrev};
  if (cPrev)
    operands.push_back(cPrev);
  unsigned numStates = operands.size();
  operands.push_back(xw);
  if (lens) {
    Type i64 = gb.b.getI64Type();
    Value count = gb.op("Squeeze", {gb.op("Slice", {gb.shapeOf(xw),
                                                    gb.i64s({0}),
                                                    gb.i64s({1}),
                                                    gb.none(), gb.none()}),
                                    gb.i64s({0})});
    Value iota = gb.op("Range", {gb.scalar(0, i64), count,
                                 gb.scalar(1, i64)});
    operands.push_back(gb.castLike(iota, lens));
  }
  int64_t numIn = operands.size() - numStates, dir = reverse ? 1 : 0;
  OperationState st(gb.loc, "onnx.Scan");
  st.addOperands(operands);
  st.addAttribute("num_scan_inputs", gb.b.getI64IntegerAttr(numIn));
  st.addAttribute("scan_input_directions",
                  gb.b.getDenseI64ArrayAttr(SmallVector<int64_t>(numIn, dir)));
  st.addAttribute("scan_output_directions", gb.b.getDenseI64ArrayAttr({dir}));
  st.addRegion();
  st.addTypes(SmallVector<Type>(numStates + 1,
                                ONNX::UnknownType::get(gb.b.getContext())));
  Operation *scan = gb.b.create(st);
  Block *block = new Block;
  scan->getRegion(0).push_back(block);
  Value hArg = block->addArgument(ht, gb.loc);
  Value cArg = cPrev ? block->addArgument(ct, gb.loc) : Value();
  Value xArg = block->addArgument(
      RankedTensorType::get(xwt.getShape().drop_front(), cell.rc.et), gb.loc);
  Value tArg = lens ? block->addArgument(RankedTensorType::get({}, lenType),
                                         gb.loc)
                    : Value();
  OpBuilder nb = OpBuilder::atBlockEnd(block);
  GradientBuilder bgb(nb, gb.state, gb.loc);
  bgb.gradientName = gb.gradientName;
  Value hNew, cNew, y;
  cell.step(bgb, xArg, hArg, cArg, tArg, hNew, cNew, y);
  if (bgb.failed) {
    gb.failed = true;
    return failure();
  }
  SmallVector<Value> yielded{hNew};
  if (cNew)
    yielded.push_back(cNew);
  yielded.push_back(y);
  OperationState yst(gb.loc, "onnx.Yield");
  yst.addOperands(yielded);
  nb.create(yst);
  if (failed(ONNX::verifyONNXOp(scan)) ||
      failed(inferOpTypes(scan, gb.state))) {
    gb.failed = true;
    return failure();
  }
  hPrev = scan->getResult(0);
  cPrev = cPrev ? scan->getResult(1) : Value();
  return scan->getResult(numStates);
}

/// Replaces the op's used results by Y, Y_h (and Y_c for LSTM) stacked from
/// the directions' values (`ys` [T, 1, batch, hidden] each, `hs` and `cs`
/// [1, batch, hidden]), and erases it.
template <Kind kind>
LogicalResult replaceResults(Operation *op, GradientBuilder &gb,
                             const Recurrent &rc, ArrayRef<Value> ys,
                             ArrayRef<Value> hs, ArrayRef<Value> cs) {
  auto stack = [&](ArrayRef<Value> v, int64_t axis) {
    return v.size() == 1 ? v[0] : gb.op("Concat", v, {gb.attr("axis", axis)});
  };
  Value y = stack(ys, 1), yh = stack(hs, 0);
  Value yc = kind == Kind::LSTM ? stack(cs, 0) : Value();
  if (rc.layout) {
    y = gb.op("Transpose", {y}, {gb.attr("perm", ArrayRef<int64_t>{2, 0, 1, 3})});
    yh = gb.op("Transpose", {yh}, {gb.attr("perm", ArrayRef<int64_t>{1, 0, 2})});
    if (yc)
      yc = gb.op("Transpose", {yc},
                 {gb.attr("perm", ArrayRef<int64_t>{1, 0, 2})});
  }
  if (gb.failed)
    return failure();
  Value outs[] = {y, yh, yc};
  for (unsigned k = 0; k < op->getNumResults(); ++k) {
    Value res = op->getResult(k);
    if (isa<NoneType>(res.getType()) || res.use_empty())
      continue;
    Value v = outs[k];
    // Keep the op's result type (inference may name dims differently).
    if (v.getType() != res.getType()) {
      OperationState st(gb.loc, "onnx.Identity");
      st.addOperands(v);
      st.addTypes(res.getType());
      v = gb.b.create(st)->getResult(0);
    }
    res.replaceAllUsesWith(v);
  }
  op->erase();
  return success();
}

template <Kind kind>
LogicalResult expandRecurrent(Operation *op, GradientBuilder &gb) {
  FailureOr<Recurrent> parsed = readRecurrent<kind>(op);
  if (failed(parsed))
    return failure();
  const Recurrent &rc = *parsed;
  Type et = rc.et;
  Value x = op->getOperand(0);
  if (rc.layout)
    x = gb.op("Transpose", {x}, {gb.attr("perm", ArrayRef<int64_t>{1, 0, 2})});
  // Zeros [batch, hidden] for absent initial states.
  Value zeroState = gb.op(
      "ConstantOfShape",
      {gb.op("Concat", {gb.op("Slice", {gb.shapeOf(x), gb.i64s({1}),
                                        gb.i64s({2}), gb.none(), gb.none()}),
                        gb.i64s({rc.h})},
             {gb.attr("axis", (int64_t)0)})},
      {gb.b.getNamedAttr("value", DenseElementsAttr::get(
                                      RankedTensorType::get({1}, et),
                                      gb.b.getFloatAttr(et, 0.0)))});
  Value lens = present(op, 4) ? op->getOperand(4) : Value();
  Type lenType = lens ? getElementTypeOrSelf(lens.getType()) : Type();
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < rc.numDir; ++d) {
    bool reverse = rc.direction == "reverse" || d == 1;
    Cell<kind> cell = directionCell<kind>(op, gb, rc, d, x, zeroState, lens);
    Value hPrev = cell.hInit, cPrev = cell.cInit;
    FailureOr<Value> yd =
        rc.symbolic
            ? scanSteps<kind>(op, gb, cell, reverse, lenType, hPrev, cPrev)
            : unrollSteps<kind>(gb, cell, reverse, lenType, hPrev, cPrev);
    if (failed(yd))
      return failure();
    if (lens) {
      Value nonEmpty = gb.op("Unsqueeze", {gb.op("Greater", {lens, gb.scalar(
                                                                  0, lenType)}),
                                           gb.i64s({1})});
      hPrev = gb.op("Where", {nonEmpty, hPrev, gb.scalar(0.0, et)});
      if (cPrev)
        cPrev = gb.op("Where", {nonEmpty, cPrev, gb.scalar(0.0, et)});
    }
    ys.push_back(gb.op("Unsqueeze", {*yd, gb.i64s({1})}));
    hs.push_back(gb.op("Unsqueeze", {hPrev, gb.i64s({0})}));
    if (cPrev)
      cs.push_back(gb.op("Unsqueeze", {cPrev, gb.i64s({0})}));
  }
  return replaceResults<kind>(op, gb, rc, ys, hs, cs);
}

} // namespace

void autodiff::registerRecurrentExpansions(
    llvm::StringMap<GradientExpansion> &expansions) {
  expansions["onnx.RNN"] = expandRecurrent<Kind::RNN>;
  expansions["onnx.GRU"] = expandRecurrent<Kind::GRU>;
  expansions["onnx.LSTM"] = expandRecurrent<Kind::LSTM>;
}

//===- RecurrentStep.cpp - RNN, GRU, LSTM: cells and time loop ------------===//
//
// The per-step half of the RNN / GRU / LSTM lowering (Recurrent.cpp's file
// comment describes the whole): the gate pre-activations and the three
// cells' formulas, the operands of a direction built before its loop
// (prepareDirection), one time step (step: H R^T, the gate generic, the
// sequence_lens masking, Y's slice) and the scf.for over the steps
// (direction).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Recurrent.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

namespace mlir::onnxc::recurrent {

Value RecurrentBuilder::preActivation(OpBuilder &nb, Location l, Value v,
                                      Value biasV) {
  if (biasV)
    v = arith::AddFOp::create(nb, l, v, convertFloat(nb, l, biasV, acc));
  if (cfg.clip) {
    v = arith::MaximumFOp::create(nb, l, v, cst(nb, l, v, -*cfg.clip));
    v = arith::MinimumFOp::create(nb, l, v, cst(nb, l, v, *cfg.clip));
  }
  return v;
}

Value RecurrentBuilder::rnnCell(OpBuilder &nb, Location l, int64_t d,
                                const CellScalars &s) {
  // Ht = f(Xt W^T + Ht-1 R^T + Wb + Rb)
  return act(nb, l, d, 0, preActivation(nb, l, s.products[0], s.bias[0]));
}

Value RecurrentBuilder::gruCell(OpBuilder &nb, Location l, int64_t d,
                                const CellScalars &s) {
  // zt = f(Xt Wz^T + Ht-1 Rz^T + Wbz + Rbz); rt likewise;
  // ht = g(Xt Wh^T + (rt . Ht-1) Rh^T + Rbh + Wbh), or with
  // linear_before_reset g(Xt Wh^T + rt . (Ht-1 Rh^T + Rbh) + Wbh);
  // Ht = (1 - zt) . ht + zt . Ht-1.
  auto mul = [&](Value a, Value v) {
    return arith::MulFOp::create(nb, l, a, v).getResult();
  };
  auto add = [&](Value a, Value v) {
    return arith::AddFOp::create(nb, l, a, v).getResult();
  };
  Value z = act(nb, l, d, 0, preActivation(nb, l, s.products[0], s.bias[0]));
  Value hh;
  if (cfg.linearBeforeReset) {
    Value rv = act(nb, l, d, 0, preActivation(nb, l, s.products[1], s.bias[1]));
    Value rec = s.hrh;
    if (s.rbh)
      rec = add(rec, convertFloat(nb, l, s.rbh, acc));
    hh = preActivation(nb, l, add(s.xwh, mul(rv, rec)), s.wbh);
  } else {
    hh = preActivation(nb, l, add(s.xwh, s.hrh), s.bias[2]);
  }
  hh = act(nb, l, d, 1, hh);
  Value one = cst(nb, l, z, 1);
  return add(mul(arith::SubFOp::create(nb, l, one, z), hh), mul(z, s.hPrev));
}

std::pair<Value, Value> RecurrentBuilder::lstmCell(OpBuilder &nb, Location l,
                                                   int64_t d,
                                                   const CellScalars &s) {
  // it = f(Xt Wi^T + Ht-1 Ri^T + Pi . Ct-1 + Wbi + Rbi)
  // ft = f(Xt Wf^T + Ht-1 Rf^T + Pf . Ct-1 + Wbf + Rbf) (input_forget:
  //      1 - it)
  // ct = g(Xt Wc^T + Ht-1 Rc^T + Wbc + Rbc); Ct = ft . Ct-1 + it . ct
  // ot = f(Xt Wo^T + Ht-1 Ro^T + Po . Ct + Wbo + Rbo); Ht = ot . h(Ct)
  // The gate blocks are in the order i, o, f, c.
  auto mul = [&](Value a, Value v) {
    return arith::MulFOp::create(nb, l, a, v).getResult();
  };
  auto add = [&](Value a, Value v) {
    return arith::AddFOp::create(nb, l, a, v).getResult();
  };
  auto peephole = [&](Value v, Value p, Value cell) {
    return p ? add(v, mul(convertFloat(nb, l, p, acc), cell)) : v;
  };
  Value iv = act(nb, l, d, 0,
                 preActivation(nb, l, peephole(s.products[0], s.pi, s.cPrev),
                               s.bias[0]));
  Value fv;
  if (cfg.inputForget)
    fv = arith::SubFOp::create(nb, l, cst(nb, l, iv, 1), iv);
  else
    fv = act(nb, l, d, 0,
             preActivation(nb, l, peephole(s.products[2], s.pf, s.cPrev),
                           s.bias[2]));
  Value cv = act(nb, l, d, 1, preActivation(nb, l, s.products[3], s.bias[3]));
  Value cNew = add(mul(fv, s.cPrev), mul(iv, cv));
  Value ov = act(nb, l, d, 0,
                 preActivation(nb, l, peephole(s.products[1], s.po, cNew),
                               s.bias[1]));
  return {mul(ov, act(nb, l, d, 2, cNew)), cNew};
}

DirectionParams RecurrentBuilder::prepareDirection(int64_t d) {
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1),
               dir = b.getIndexAttr(d);
  DirectionParams p;
  p.d = d;
  p.reverse = cfg.reverse[d];
  for (int64_t k = 0; k < 4; ++k)
    p.gateOffsets.push_back(mulSize(b, loc, hidden, k));
  auto vec = [&](Value v, int64_t k) {
    return slice(b, loc, v, {p.gateOffsets[k]}, {hidden}, {0});
  };

  // W is read in place: the input projection is one product per call. R
  // is read every step: in place only when it is a constant of the
  // accumulation type (packed at compile time), else transposed once (the
  // GEMM packs it again every step, copying contiguous rows).
  p.w = {slice(b, loc, w, {dir, zero, zero}, {one, gateRows, input}, {1, 2}),
         true};
  Value rd =
      slice(b, loc, r, {dir, zero, zero}, {one, gateRows, hidden}, {1, 2});
  if (elt == acc && rIsConstant)
    p.r = {rd, true};
  else
    p.r = {transposed(b, loc, rd, acc), false};
  bool isGRU = cfg.cell == Cell::GRU;
  if (isGRU) {
    OpFoldResult twoH = p.gateOffsets[2];
    p.rZr = p.r.columns(b, loc, zero, twoH, hidden);
    p.rH = p.r.columns(b, loc, twoH, hidden, hidden);
  }

  p.gateBias.assign(cfg.gates, Value());
  if (bias) {
    Value bd = slice(b, loc, bias, {dir, zero},
                     {one, mulSize(b, loc, gateRows, 2)}, {1});
    Value wb = slice(b, loc, bd, {zero}, {gateRows}, {0});
    Value rb = slice(b, loc, bd, {gateRows}, {gateRows}, {0});
    Value init = emptyTensor(b, loc, {gateRows}, acc);
    Value sum =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ValueRange{wb, rb},
            ValueRange{init},
            SmallVector<AffineMap>(3, b.getMultiDimIdentityMap(1)),
            parallelIterators(1),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  nb, l,
                  arith::AddFOp::create(nb, l,
                                        convertFloat(nb, l, args[0], acc),
                                        convertFloat(nb, l, args[1], acc))
                      .getResult());
            })
            .getResult(0);
    for (int64_t k = 0; k < cfg.gates; ++k)
      p.gateBias[k] = vec(sum, k);
    if (isGRU && cfg.linearBeforeReset) {
      p.gateBias[2] = Value();
      p.wbh = vec(wb, 2);
      p.rbh = vec(rb, 2);
    }
  }
  if (peep) {
    Value pd = slice(b, loc, peep, {dir, zero},
                     {one, mulSize(b, loc, hidden, 3)}, {1});
    p.pi = vec(pd, 0);
    p.po = vec(pd, 1);
    p.pf = vec(pd, 2);
  }
  return p;
}

SmallVector<Value> RecurrentBuilder::step(OpBuilder &nb, Location l,
                                          const DirectionParams &p, Value iv,
                                          ValueRange args,
                                          unsigned firstScratch) {
  bool isGRU = cfg.cell == Cell::GRU, isLSTM = cfg.cell == Cell::LSTM;
  OpFoldResult zero = nb.getIndexAttr(0), one = nb.getIndexAttr(1);
  Value h = args[0];
  Value c = isLSTM ? args[1] : Value();
  Value yIn = firstScratch > (isLSTM ? 2u : 1u) ? args[firstScratch - 1]
                                                : Value();
  ValueRange scratch = args.drop_front(firstScratch);
  // The time index: the reverse direction runs from seq_length - 1 down.
  Value t = iv;
  if (p.reverse)
    t = arith::SubIOp::create(
        nb, l, arith::SubIOp::create(nb, l, indexValue(nb, l, seq), iv),
        createIndexConstant(nb, l, 1));
  // (X W^T)_t: [batch, gates*hidden], computed before the loop.
  Value xw =
      cfg.layout1
          ? slice(nb, l, p.xw, {zero, t, zero}, {batch, one, gateRows}, {0, 2})
          : slice(nb, l, p.xw, {t, zero, zero}, {one, batch, gateRows}, {1, 2});
  auto gateSlice = [&](Value m, int64_t k) {
    return slice(nb, l, m, {zero, p.gateOffsets[k]}, {batch, hidden}, {0, 1});
  };
  // H R^T, the one product per step (GRU without linear_before_reset: for
  // the z and r gates; the h gate's (r . H) R_h^T after r).
  Value hr, hrh, rh;
  if (!isGRU || cfg.linearBeforeReset) {
    hr = contract(nb, l, h, p.r, zeroed(nb, l, scratch[0]));
    if (isGRU)
      hrh = gateSlice(hr, 2);
  } else {
    hr = contract(nb, l, h, p.rZr, zeroed(nb, l, scratch[0]));
    // (r . H) R_h^T needs r first: one more generic and product.
    StepGeneric g(nb.getContext());
    unsigned rXw = g.full(gateSlice(xw, 1)), rHr = g.full(gateSlice(hr, 1)),
             hIn = g.full(h);
    std::optional<unsigned> br;
    if (p.gateBias[1])
      br = g.column(p.gateBias[1]);
    rh = g.build(nb, l, ValueRange{scratch[1]},
                 [&](OpBuilder &gb, Location gl, ValueRange in,
                     ValueRange) -> SmallVector<Value> {
                   Value pre = arith::AddFOp::create(gb, gl, in[rXw], in[rHr]);
                   Value rv = act(gb, gl, p.d, 0,
                                  preActivation(gb, gl, pre,
                                                br ? in[*br] : Value()));
                   return {arith::MulFOp::create(gb, gl, rv, in[hIn])};
                 })[0];
    hrh = contract(nb, l, rh, p.rH, zeroed(nb, l, scratch[2]));
  }

  // The gate generic: the new state(s), written over the carried ones, and
  // Y_t, written into Y's slice.
  SmallVector<OpFoldResult> yOffsets, ySizes;
  SmallVector<int64_t> yKept;
  Value yOut;
  if (yIn) {
    ySlice(t, p.d, yOffsets, ySizes, yKept);
    yOut = slice(nb, l, yIn, yOffsets, ySizes, yKept);
  }
  StepGeneric g(nb.getContext());
  auto column = [&](Value v) -> std::optional<unsigned> {
    if (!v)
      return std::nullopt;
    return g.column(v);
  };
  // Per gate (GRU: z and r) (X W^T)_t and H R^T, added in the body.
  SmallVector<std::pair<unsigned, unsigned>, 4> productIn;
  for (int64_t k = 0, e = isGRU ? 2 : cfg.gates; k < e; ++k)
    productIn.push_back({g.full(gateSlice(xw, k)), g.full(gateSlice(hr, k))});
  std::optional<unsigned> xwhIn, hrhIn;
  if (isGRU) {
    xwhIn = g.full(gateSlice(xw, 2));
    hrhIn = g.full(hrh);
  }
  SmallVector<std::optional<unsigned>, 4> biasIn;
  for (Value v : p.gateBias)
    biasIn.push_back(column(v));
  std::optional<unsigned> wbhIn = column(p.wbh), rbhIn = column(p.rbh),
                          piIn = column(p.pi), poIn = column(p.po),
                          pfIn = column(p.pf), lenIn;
  if (lens)
    lenIn = g.row(lens);
  // sequence_lens: step t is valid for entry b when t < lens[b].
  Value tI32;
  if (lens)
    tI32 = arith::IndexCastOp::create(nb, l, nb.getI32Type(), t);
  SmallVector<Value> outs = {h};
  if (c)
    outs.push_back(c);
  if (yOut)
    outs.push_back(yOut);
  SmallVector<Value> res = g.build(
      nb, l, outs,
      [&](OpBuilder &gb, Location gl, ValueRange in,
          ValueRange cur) -> SmallVector<Value> {
        auto get = [&](std::optional<unsigned> i) {
          return i ? in[*i] : Value();
        };
        CellScalars s;
        for (auto [xwIn, hrIn] : productIn)
          s.products.push_back(
              arith::AddFOp::create(gb, gl, in[xwIn], in[hrIn]));
        for (std::optional<unsigned> i : biasIn)
          s.bias.push_back(get(i));
        s.xwh = get(xwhIn);
        s.hrh = get(hrhIn);
        s.wbh = get(wbhIn);
        s.rbh = get(rbhIn);
        s.pi = get(piIn);
        s.po = get(poIn);
        s.pf = get(pfIn);
        s.hPrev = cur[0];
        s.cPrev = c ? cur[1] : Value();
        Value hNew, cNew;
        switch (cfg.cell) {
        case Cell::RNN:
          hNew = rnnCell(gb, gl, p.d, s);
          break;
        case Cell::GRU:
          hNew = gruCell(gb, gl, p.d, s);
          break;
        case Cell::LSTM:
          std::tie(hNew, cNew) = lstmCell(gb, gl, p.d, s);
          break;
        }
        Value yv = hNew;
        if (lens) {
          Value valid = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::slt,
                                              tI32, in[*lenIn]);
          hNew = arith::SelectOp::create(gb, gl, valid, hNew, s.hPrev);
          if (cNew)
            cNew = arith::SelectOp::create(gb, gl, valid, cNew, s.cPrev);
          yv = arith::SelectOp::create(gb, gl, valid, yv, cst(gb, gl, yv, 0));
        }
        SmallVector<Value> results = {hNew};
        if (cNew)
          results.push_back(cNew);
        if (yOut)
          results.push_back(convertFloat(gb, gl, yv, elt));
        return results;
      });

  SmallVector<Value> yields = {res[0]};
  if (isLSTM)
    yields.push_back(res[1]);
  if (yIn)
    yields.push_back(insert(nb, l, res.back(), yIn, yOffsets, ySizes));
  yields.push_back(hr);
  if (rh) {
    yields.push_back(rh);
    yields.push_back(hrh);
  }
  return yields;
}

void RecurrentBuilder::direction(int64_t d, Value &y, Value &yh, Value &yc) {
  bool isGRU = cfg.cell == Cell::GRU, isLSTM = cfg.cell == Cell::LSTM;
  DirectionParams p = prepareDirection(d);
  SmallVector<Value> inits = {initialState(h0, d)};
  if (isLSTM)
    inits.push_back(initialState(c0, d));
  if (y)
    inits.push_back(y);
  // The input projection X W^T of every step: one product before the loop
  // instead of a small one per step.
  SmallVector<OpFoldResult> xwSizes =
      cfg.layout1 ? SmallVector<OpFoldResult>{batch, seq, gateRows}
                  : SmallVector<OpFoldResult>{seq, batch, gateRows};
  p.xw = contract(b, loc, x, p.w,
                  zeroed(b, loc, freshTensor(b, loc, xwSizes, acc)));
  // The per-step temporaries (the products) are carried too: each is
  // written through `outs` every step, so it keeps one buffer for the whole
  // loop instead of an allocation per step.
  unsigned firstScratch = inits.size();
  SmallVector<OpFoldResult> stateSizes = {batch, hidden};
  bool rFirst = isGRU && !cfg.linearBeforeReset;
  inits.push_back(freshTensor(
      b, loc, {batch, rFirst ? p.gateOffsets[2] : gateRows}, acc)); // H R^T
  if (rFirst) {
    inits.push_back(freshTensor(b, loc, stateSizes, acc)); // r . H
    inits.push_back(freshTensor(b, loc, stateSizes, acc)); // (r . H) R_h^T
  }
  Value lb = createIndexConstant(b, loc, 0);
  Value stepSize = createIndexConstant(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, indexValue(b, loc, seq), stepSize, inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, l, step(nb, l, p, iv, args, firstScratch));
      });
  if (y)
    y = loop.getResult(firstScratch - 1);
  if (yh)
    yh = storeState(loop.getResult(0), yh, d);
  if (yc)
    yc = storeState(loop.getResult(1), yc, d);
}

} // namespace mlir::onnxc::recurrent

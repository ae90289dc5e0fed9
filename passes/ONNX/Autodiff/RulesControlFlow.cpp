//===- RulesControlFlow.cpp - Gradients of If, Scan and Loop --------------===//
//
// A subgraph's backward is a subgraph of the same kind that recomputes the
// forward body from the values it read, then runs the reverse sweep
// (backpropagate) over the recomputed ops, seeded with the gradients of the
// body's outputs. The gradients of the outer values a body reads (its
// captures) that are active are results of the backward op; in Loop and
// Scan they are carried and summed over the iterations.
//
//   If:   If(cond) { recompute then; sweep } else { recompute else; sweep }
//         -> d(captures). The backward takes the branch the forward took.
//   Scan: the forward Scan also outputs each step's input states (extra
//         scan outputs, forward order, axis 0). The backward Scan carries
//         (d states, d captures) and scans, in the opposite direction of
//         each forward one, the saved states, the scan inputs and the
//         gradients of the scan outputs (their axes kept); it outputs the
//         gradients of the scan inputs (their axes and directions kept).
//   Loop: the forward Loop also outputs each iteration's number and carried
//         values (extra scan outputs), so that the number of iterations run
//         (a trip count, a condition, a data-dependent exit) is the length
//         of the records. The backward Loop runs that many iterations,
//         iteration j reading row N-1-j of the records and of the scan
//         outputs' gradients, and carries (d carried values, d captures).
// The recomputation keeps the records to the carried values (not every
// value of the body); nested control flow in a body is differentiated by
// the same rules inside the recomputed body.
//
// Partial: a Loop's carried values must keep their shape across iterations
// (the records stack them); carried sequences, the opset-8 Scan and random
// ops in a body (Dropout in training mode too: the recomputation would draw
// again) are not differentiated (an error names the op).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Autodiff/GradientBuilder.h"

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::autodiff;

namespace {

/// The outer values the regions of `op` read, in first-use order.
SmallVector<Value> capturesOf(Operation *op) {
  llvm::SetVector<Value> in;
  for (Region &r : op->getRegions())
    r.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          in.insert(v);
    });
  return in.takeVector();
}

/// The captures of `op` that get a gradient: active float tensors.
SmallVector<Value> differentiatedCaptures(Operation *op,
                                          GradientBuilder &gb) {
  SmallVector<Value> caps;
  for (Value v : capturesOf(op))
    if (isFloatTensor(v.getType()) && gb.isActive(v))
      caps.push_back(v);
  return caps;
}

/// An onnx op with `numRegions` empty regions and `numResults` results of
/// unknown type (finish() infers them once the regions are built).
Operation *createRegionOp(GradientBuilder &gb, StringRef name,
                          ValueRange operands, ArrayRef<NamedAttribute> attrs,
                          unsigned numRegions, unsigned numResults) {
  OperationState st(gb.loc, ("onnx." + name).str());
  st.addOperands(operands);
  st.addAttributes(attrs);
  for (unsigned r = 0; r < numRegions; ++r)
    st.addRegion();
  st.addTypes(SmallVector<Type>(numResults,
                                ONNX::UnknownType::get(gb.b.getContext())));
  return gb.b.create(st);
}

LogicalResult finish(Operation *op, GradientBuilder &gb) {
  if (failed(ONNX::verifyONNXOp(op)) || failed(inferOpTypes(op, gb.state))) {
    gb.failed = true;
    return failure();
  }
  for (Value r : op->getResults())
    if (isa<ONNX::UnknownType>(r.getType())) {
      gb.failed = true;
      return op->emitOpError("autodiff: cannot infer the type of a result of "
                             "the backward op");
    }
  return success();
}

/// Ends a backward body with a Yield of `values`, then drops the ops the
/// Yield does not need (recomputed forward values no gradient reads; no op
/// of a recomputed body has side effects: random ops are refused).
void yield(OpBuilder &b, Location loc, ValueRange values,
           InferenceState &state) {
  OperationState st(loc, "onnx.Yield");
  st.addOperands(values);
  Operation *term = b.create(st);
  SmallVector<Operation *> ops;
  for (Operation &op : *term->getBlock())
    if (&op != term)
      ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      eraseInferredOp(op, state);
}

/// A builder of ops at the end of `block`, sharing `gb`'s state.
GradientBuilder nestedBuilder(OpBuilder &b, GradientBuilder &gb) {
  GradientBuilder ngb(b, gb.state, gb.loc);
  ngb.gradientName = gb.gradientName;
  return ngb;
}

/// Clones the ops of `body` but its terminator at `b`'s insertion point
/// (with `map`, where the caller mapped the block arguments) and infers
/// them; `yielded` gets the terminator's operands, mapped.
FailureOr<SmallVector<Operation *>> recompute(Block &body, IRMapping &map,
                                              GradientBuilder &gb,
                                              SmallVectorImpl<Value> &yielded) {
  // A random op would draw again: the recomputed body would differ from
  // the forward one.
  WalkResult random = body.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    bool training = name == "onnx.Dropout" && op->getNumOperands() > 2 &&
                    !isa<NoneType>(op->getOperand(2).getType());
    if (training ||
        llvm::is_contained({"onnx.RandomUniform", "onnx.RandomNormal",
                            "onnx.RandomUniformLike", "onnx.RandomNormalLike",
                            "onnx.Bernoulli", "onnx.Multinomial"},
                           name)) {
      op->emitOpError() << "autodiff: a random op in a subgraph is not "
                           "differentiated (the backward recomputes the "
                           "subgraph, which would draw again)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (random.wasInterrupted()) {
    gb.failed = true;
    return failure();
  }
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator()) {
    Operation *c = gb.b.clone(op, map);
    if (failed(inferOpTypes(c, gb.state))) {
      gb.failed = true;
      return failure();
    }
    ops.push_back(c);
  }
  for (Value v : body.getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return ops;
}

/// The gradient `g` of `v` in `v`'s type (null: zeros of v's shape).
Value gradOrZeros(GradientBuilder &gb, Value g, Value v) {
  if (!g)
    return gb.filledLike(v, 0.0);
  if (g.getType() != v.getType())
    g = gb.sumToShapeOf(g, v);
  return g;
}

/// `op` rebuilt with the same operands and attributes (`attrs` replacing
/// some) and its body yielding also `extra(newBody)`, at `op`'s place; its
/// first results replace op's, which goes to gb.dead.
Operation *withRecords(Operation *op, GradientBuilder &gb,
                       ArrayRef<NamedAttribute> attrs,
                       function_ref<SmallVector<Value>(Block &)> extra) {
  OpBuilder fb(op);
  GradientBuilder fgb(fb, gb.state, op->getLoc());
  NamedAttrList attrList(op->getAttrs());
  for (const NamedAttribute &a : attrs)
    attrList.set(a.getName(), a.getValue());
  Block &old = op->getRegion(0).front();
  // extra() only reads block arguments: count the records on the old body.
  unsigned numExtra = extra(old).size();
  Operation *n =
      createRegionOp(fgb, op->getName().getStringRef().drop_front(5),
                     op->getOperands(), attrList.getAttrs(), 1,
                     op->getNumResults() + numExtra);
  IRMapping map;
  op->getRegion(0).cloneInto(&n->getRegion(0), map);
  Block &body = n->getRegion(0).front();
  Operation *term = body.getTerminator();
  SmallVector<Value> values(term->getOperands());
  values.append(extra(body));
  OpBuilder tb(term);
  OperationState st(term->getLoc(), "onnx.Yield");
  st.addOperands(values);
  tb.create(st);
  term->erase();
  if (failed(finish(n, gb)))
    return nullptr;
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    op->getResult(i).replaceAllUsesWith(n->getResult(i));
  if (gb.dead)
    gb.dead->push_back(op);
  return n;
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

LogicalResult ifGradient(Operation *op, ArrayRef<Value> resultGrads,
                         GradientBuilder &gb, InputGrads &grads) {
  SmallVector<Value> caps = differentiatedCaptures(op, gb);
  if (caps.empty())
    return success();
  Operation *bwd =
      createRegionOp(gb, "If", {op->getOperand(0)}, {}, 2, caps.size());
  for (unsigned r = 0; r < 2; ++r) {
    Block *block = new Block;
    bwd->getRegion(r).push_back(block);
    OpBuilder nb = OpBuilder::atBlockEnd(block);
    GradientBuilder ngb = nestedBuilder(nb, gb);
    IRMapping map;
    SmallVector<Value> yielded;
    auto ops = recompute(op->getRegion(r).front(), map, ngb, yielded);
    if (failed(ops))
      return failure();
    InputGrads g;
    for (auto [v, dv] : llvm::zip(yielded, resultGrads))
      accumulate(ngb, g, v, dv);
    if (failed(backpropagate(*ops, caps, g, ngb)))
      return failure();
    SmallVector<Value> outs;
    for (Value c : caps)
      outs.push_back(gradOrZeros(ngb, g.lookup(c), c));
    if (ngb.failed) {
      gb.failed = true;
      return failure();
    }
    yield(nb, gb.loc, outs, gb.state);
  }
  if (failed(finish(bwd, gb)))
    return failure();
  for (auto [c, d] : llvm::zip(caps, bwd->getResults()))
    accumulate(gb, grads, c, d);
  return success();
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

SmallVector<int64_t> intsOr(Operation *op, StringRef name, size_t n) {
  if (auto v = intsAttr(op, name))
    return *v;
  return SmallVector<int64_t>(n, 0);
}

LogicalResult scanGradient(Operation *op, ArrayRef<Value> resultGrads,
                           GradientBuilder &gb, InputGrads &grads) {
  auto numScanAttr = op->getAttrOfType<IntegerAttr>("num_scan_inputs");
  if (!numScanAttr)
    return op->emitOpError("autodiff: no num_scan_inputs");
  unsigned M = numScanAttr.getInt();
  unsigned N = op->getNumOperands() - M;
  unsigned K = op->getNumResults() - N;
  SmallVector<int64_t> inDirs = intsOr(op, "scan_input_directions", M);
  SmallVector<int64_t> inAxes = intsOr(op, "scan_input_axes", M);
  SmallVector<int64_t> outDirs = intsOr(op, "scan_output_directions", K);
  SmallVector<int64_t> outAxes = intsOr(op, "scan_output_axes", K);
  if (inDirs.size() != M || inAxes.size() != M || outDirs.size() != K ||
      outAxes.size() != K)
    return op->emitOpError("autodiff: scan attributes of the wrong length");
  Block &fbody = op->getRegion(0).front();
  SmallVector<Type> argTypes(fbody.getArgumentTypes());
  SmallVector<Type> outTypes;
  for (Value v : fbody.getTerminator()->getOperands())
    outTypes.push_back(v.getType());

  SmallVector<Value> caps = differentiatedCaptures(op, gb);
  SmallVector<unsigned> fstates, fins, gouts;
  for (unsigned s = 0; s < N; ++s)
    if (isFloatTensor(argTypes[s]))
      fstates.push_back(s);
  for (unsigned m = 0; m < M; ++m)
    if (isFloatTensor(op->getOperand(N + m).getType()) &&
        gb.isActive(op->getOperand(N + m)))
      fins.push_back(m);
  for (unsigned k = 0; k < K; ++k)
    if (resultGrads[N + k])
      gouts.push_back(k);

  // The forward Scan, recording each step's input states.
  SmallVector<int64_t> recDirs(outDirs), recAxes(outAxes);
  recDirs.append(N, 0);
  recAxes.append(N, 0);
  Operation *fwd = withRecords(
      op, gb,
      {gb.attr("scan_output_directions", recDirs),
       gb.attr("scan_output_axes", recAxes)},
      [&](Block &body) {
        return SmallVector<Value>(body.getArguments().take_front(N));
      });
  if (!fwd)
    return failure();
  ValueRange saved = fwd->getResults().drop_front(N + K);

  // The backward Scan.
  SmallVector<Value> operands;
  for (unsigned s : fstates)
    operands.push_back(resultGrads[s] ? resultGrads[s]
                                      : gb.filledLike(fwd->getResult(s), 0.0));
  for (Value c : caps)
    operands.push_back(gb.filledLike(c, 0.0));
  unsigned numCarried = operands.size();
  operands.append(saved.begin(), saved.end());
  for (unsigned m = 0; m < M; ++m)
    operands.push_back(op->getOperand(N + m));
  for (unsigned k : gouts)
    operands.push_back(resultGrads[N + k]);
  if (gb.failed)
    return failure();
  SmallVector<int64_t> bInDirs(N, 1), bInAxes(N, 0), bOutDirs, bOutAxes;
  for (unsigned m = 0; m < M; ++m) {
    bInDirs.push_back(1 - inDirs[m]);
    bInAxes.push_back(inAxes[m]);
  }
  for (unsigned k : gouts) {
    bInDirs.push_back(1 - outDirs[k]);
    bInAxes.push_back(outAxes[k]);
  }
  for (unsigned m : fins) {
    bOutDirs.push_back(1 - inDirs[m]);
    bOutAxes.push_back(inAxes[m]);
  }
  int64_t numScanIn = operands.size() - numCarried;
  SmallVector<NamedAttribute> attrs = {
      gb.attr("num_scan_inputs", numScanIn),
      gb.attr("scan_input_directions", bInDirs),
      gb.attr("scan_input_axes", bInAxes)};
  if (!fins.empty()) {
    attrs.push_back(gb.attr("scan_output_directions", bOutDirs));
    attrs.push_back(gb.attr("scan_output_axes", bOutAxes));
  }
  Operation *bwd = createRegionOp(gb, "Scan", operands, attrs, 1,
                                  numCarried + fins.size());
  Block *block = new Block;
  bwd->getRegion(0).push_back(block);
  Location loc = gb.loc;
  SmallVector<Value> dstate, dcap, rec, ins, douts;
  for (unsigned s : fstates)
    dstate.push_back(block->addArgument(argTypes[s], loc));
  for (Value c : caps)
    dcap.push_back(block->addArgument(c.getType(), loc));
  for (unsigned s = 0; s < N; ++s)
    rec.push_back(block->addArgument(argTypes[s], loc));
  for (unsigned m = 0; m < M; ++m)
    ins.push_back(block->addArgument(argTypes[N + m], loc));
  for (unsigned k : gouts)
    douts.push_back(block->addArgument(outTypes[N + k], loc));

  OpBuilder nb = OpBuilder::atBlockEnd(block);
  GradientBuilder ngb = nestedBuilder(nb, gb);
  IRMapping map;
  for (unsigned s = 0; s < N; ++s)
    map.map(fbody.getArgument(s), rec[s]);
  for (unsigned m = 0; m < M; ++m)
    map.map(fbody.getArgument(N + m), ins[m]);
  SmallVector<Value> yielded;
  auto ops = recompute(fbody, map, ngb, yielded);
  if (failed(ops))
    return failure();
  InputGrads g;
  for (auto [i, s] : llvm::enumerate(fstates))
    accumulate(ngb, g, yielded[s], dstate[i]);
  for (auto [i, k] : llvm::enumerate(gouts))
    accumulate(ngb, g, yielded[N + k], douts[i]);
  SmallVector<Value> sources(caps);
  for (unsigned s : fstates)
    sources.push_back(rec[s]);
  for (unsigned m : fins)
    sources.push_back(ins[m]);
  if (failed(backpropagate(*ops, sources, g, ngb)))
    return failure();
  SmallVector<Value> outs;
  for (unsigned s : fstates)
    outs.push_back(gradOrZeros(ngb, g.lookup(rec[s]), rec[s]));
  for (auto [i, c] : llvm::enumerate(caps)) {
    Value d = g.lookup(c);
    outs.push_back(d ? ngb.add(dcap[i], gradOrZeros(ngb, d, c)) : dcap[i]);
  }
  for (unsigned m : fins)
    outs.push_back(gradOrZeros(ngb, g.lookup(ins[m]), ins[m]));
  if (ngb.failed) {
    gb.failed = true;
    return failure();
  }
  yield(nb, loc, outs, gb.state);
  if (failed(finish(bwd, gb)))
    return failure();

  unsigned r = 0;
  for (unsigned s : fstates)
    accumulate(gb, grads, op->getOperand(s), bwd->getResult(r++));
  for (Value c : caps)
    accumulate(gb, grads, c, bwd->getResult(r++));
  for (unsigned m : fins)
    accumulate(gb, grads, op->getOperand(N + m), bwd->getResult(r++));
  return success();
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

/// The carried values that forward iteration i yields are the records of
/// iteration i + 1, and the Loop's results for the last one: the backward
/// body reads them (row idx of the records shifted by one, the results
/// appended) instead of recomputing them, where the reverse sweep reads a
/// recomputed carried value (Tanh's and Sigmoid's gradients read their
/// results, for one). The recomputation that only produced them (an RNN
/// cell's products) is then unused, and yield() drops it.
LogicalResult reuseCarriedOutputs(Operation *op, Operation *fwd,
                                  Operation *bwd, Block *block, Value idx,
                                  ArrayRef<Value> yielded,
                                  GradientBuilder &gb) {
  unsigned N = op->getNumOperands() - 2;
  unsigned K = op->getNumResults() - N;
  ValueRange saved = fwd->getResults().drop_front(N + K + 1);
  for (unsigned s = 0; s < N; ++s) {
    Value v = yielded[1 + s];
    Operation *def = v.getDefiningOp();
    // Recomputed in this body (not a carried or outer value passed on),
    // and read by the sweep.
    if (!def || def->getBlock() != block || v.use_empty())
      continue;
    Value next;
    {
      // The shifted records, before the backward Loop (which reads them).
      OpBuilder::InsertionGuard guard(gb.b);
      gb.b.setInsertionPoint(bwd);
      Value rest = gb.op("Slice", {saved[s], gb.i64s({1}),
                                   gb.i64s({INT64_MAX}), gb.i64s({0}),
                                   gb.none()});
      Value last = gb.op("Unsqueeze", {fwd->getResult(s), gb.i64s({0})});
      next = gb.op("Concat", {rest, last}, {gb.attr("axis", (int64_t)0)});
    }
    if (gb.failed || !next)
      return failure();
    Value row;
    {
      OpBuilder::InsertionGuard guard(gb.b);
      OpBuilder rb(block, std::next(Block::iterator(idx.getDefiningOp())));
      GradientBuilder rgb = nestedBuilder(rb, gb);
      row = rgb.op("Gather", {next, idx}, {rgb.attr("axis", (int64_t)0)});
      if (rgb.failed || !row)
        return failure();
    }
    if (row.getType() != v.getType()) {
      // A type the recomputation knows better (or differently): keep it.
      if (row.use_empty())
        eraseInferredOp(row.getDefiningOp(), gb.state);
      continue;
    }
    v.replaceAllUsesWith(row);
  }
  return success();
}

LogicalResult loopGradient(Operation *op, ArrayRef<Value> resultGrads,
                           GradientBuilder &gb, InputGrads &grads) {
  unsigned N = op->getNumOperands() - 2;
  unsigned K = op->getNumResults() - N;
  Block &fbody = op->getRegion(0).front();
  SmallVector<Type> argTypes(fbody.getArgumentTypes());
  SmallVector<Type> outTypes;
  for (Value v : fbody.getTerminator()->getOperands())
    outTypes.push_back(v.getType());
  for (unsigned s = 0; s < N; ++s)
    if (!isa<TensorType>(argTypes[2 + s]))
      return op->emitOpError()
             << "autodiff: carried value " << s
             << " is not a tensor (only tensors are recorded for the "
                "backward Loop)";

  SmallVector<Value> caps = differentiatedCaptures(op, gb);
  SmallVector<unsigned> fstates, gouts;
  for (unsigned s = 0; s < N; ++s)
    if (isFloatTensor(argTypes[2 + s]))
      fstates.push_back(s);
  for (unsigned k = 0; k < K; ++k)
    if (resultGrads[N + k])
      gouts.push_back(k);

  // The forward Loop, recording each iteration's number and carried values.
  Operation *fwd = withRecords(op, gb, {}, [&](Block &body) {
    SmallVector<Value> v{body.getArgument(0)};
    v.append(body.getArguments().begin() + 2, body.getArguments().end());
    return v;
  });
  if (!fwd)
    return failure();
  Value iters = fwd->getResult(N + K);
  ValueRange saved = fwd->getResults().drop_front(N + K + 1);

  Type i64 = gb.b.getI64Type();
  Value count = gb.op("Gather", {gb.shapeOf(iters), gb.scalar(0, i64)},
                      {gb.attr("axis", (int64_t)0)});
  SmallVector<Value> operands{count, gb.none()};
  for (unsigned s : fstates)
    operands.push_back(resultGrads[s] ? resultGrads[s]
                                      : gb.filledLike(fwd->getResult(s), 0.0));
  for (Value c : caps)
    operands.push_back(gb.filledLike(c, 0.0));
  if (gb.failed)
    return failure();
  unsigned numCarried = operands.size() - 2;
  Operation *bwd = createRegionOp(gb, "Loop", operands, {}, 1, numCarried);
  Block *block = new Block;
  bwd->getRegion(0).push_back(block);
  Location loc = gb.loc;
  Value j = block->addArgument(RankedTensorType::get({}, i64), loc);
  block->addArgument(RankedTensorType::get({}, gb.b.getI1Type()), loc);
  SmallVector<Value> dstate, dcap;
  for (unsigned s : fstates)
    dstate.push_back(block->addArgument(argTypes[2 + s], loc));
  for (Value c : caps)
    dcap.push_back(block->addArgument(c.getType(), loc));

  OpBuilder nb = OpBuilder::atBlockEnd(block);
  GradientBuilder ngb = nestedBuilder(nb, gb);
  // Iteration j of the backward runs the forward's iteration N-1-j.
  Value idx = ngb.sub(ngb.sub(count, j), ngb.scalar(1, i64));
  Value yes = ngb.scalar(1, gb.b.getI1Type());
  auto row = [&](Value stacked) {
    return ngb.op("Gather", {stacked, idx}, {ngb.attr("axis", (int64_t)0)});
  };
  IRMapping map;
  map.map(fbody.getArgument(0), idx);
  map.map(fbody.getArgument(1), yes);
  SmallVector<Value> rec;
  for (unsigned s = 0; s < N; ++s) {
    rec.push_back(row(saved[s]));
    map.map(fbody.getArgument(2 + s), rec.back());
  }
  SmallVector<Value> douts;
  for (unsigned k : gouts)
    douts.push_back(row(resultGrads[N + k]));
  if (ngb.failed) {
    gb.failed = true;
    return failure();
  }
  SmallVector<Value> yielded;
  auto ops = recompute(fbody, map, ngb, yielded);
  if (failed(ops))
    return failure();
  InputGrads g;
  for (auto [i, s] : llvm::enumerate(fstates))
    accumulate(ngb, g, yielded[1 + s], dstate[i]);
  for (auto [i, k] : llvm::enumerate(gouts))
    accumulate(ngb, g, yielded[1 + N + k], douts[i]);
  SmallVector<Value> sources(caps);
  for (unsigned s : fstates)
    sources.push_back(rec[s]);
  if (failed(backpropagate(*ops, sources, g, ngb)))
    return failure();
  SmallVector<Value> outs{yes};
  for (auto [i, s] : llvm::enumerate(fstates)) {
    outs.push_back(gradOrZeros(ngb, g.lookup(rec[s]), rec[s]));
  }
  for (auto [i, c] : llvm::enumerate(caps)) {
    Value d = g.lookup(c);
    outs.push_back(d ? ngb.add(dcap[i], gradOrZeros(ngb, d, c)) : dcap[i]);
  }
  if (ngb.failed) {
    gb.failed = true;
    return failure();
  }
  if (failed(reuseCarriedOutputs(op, fwd, bwd, block, idx, yielded, gb)))
    return failure();
  yield(nb, loc, outs, gb.state);
  if (failed(finish(bwd, gb)))
    return failure();

  unsigned r = 0;
  for (unsigned s : fstates)
    accumulate(gb, grads, op->getOperand(2 + s), bwd->getResult(r++));
  for (Value c : caps)
    accumulate(gb, grads, c, bwd->getResult(r++));
  return success();
}

} // namespace

void autodiff::registerControlFlowGradients(
    llvm::StringMap<GradientRule> &rules) {
  rules["onnx.If"] = ifGradient;
  rules["onnx.Scan"] = scanGradient;
  rules["onnx.Loop"] = loopGradient;
}

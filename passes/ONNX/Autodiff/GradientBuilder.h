//===- GradientBuilder.h - Building gradients out of onnx ops ---*- C++ -*-===//
//
// What the gradient rules of onnx-autodiff share (Autodiff.cpp runs them):
// a builder of onnx ops with inferred types, the rule signature and the
// registry, which the Rules*.cpp files fill (one file per op category, as
// the lowerings are grouped).
//
// A rule gets the forward op and the gradient flowing into each of its
// results (null where none flows: the result does not reach y), and adds
// the gradient of each input it differentiates to `grads`: an operand, or an
// outer value a region reads (If, Loop, Scan). An input it leaves out gets
// no gradient (integer inputs, indices, shapes). Rules build ONNX ops only,
// so the backward graph goes through the same inference, folding, fusion and
// lowering as the forward one.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_ONNX_AUTODIFF_GRADIENTBUILDER_H
#define ONNXC_PASSES_ONNX_AUTODIFF_GRADIENTBUILDER_H

#include "passes/ONNX/Inference/Inference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::onnxc::autodiff {

/// Builds onnx ops at the builder's insertion point, each inferred as the
/// importer infers them (symbolic dims kept). Every helper returns null
/// after an error (emitted on the op being differentiated).
class GradientBuilder {
public:
  GradientBuilder(OpBuilder &b, InferenceState &state, Location loc)
      : b(b), state(state), loc(loc) {}

  OpBuilder &b;
  InferenceState &state;
  Location loc;

  /// onnx op `name` ("Add", "ReduceSum", ...) with `numResults` results of
  /// inferred types.
  Operation *create(StringRef name, ValueRange operands,
                    ArrayRef<NamedAttribute> attrs = {},
                    unsigned numResults = 1);
  /// The same, for one result.
  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {});

  NamedAttribute attr(StringRef name, int64_t v);
  NamedAttribute attr(StringRef name, float v);
  /// INTS, as the dialect stores them (DenseI64ArrayAttr).
  NamedAttribute attr(StringRef name, ArrayRef<int64_t> v);
  NamedAttribute attr(StringRef name, StringRef v);

  Value add(Value a, Value c) { return op("Add", {a, c}); }
  Value sub(Value a, Value c) { return op("Sub", {a, c}); }
  Value mul(Value a, Value c) { return op("Mul", {a, c}); }
  Value div(Value a, Value c) { return op("Div", {a, c}); }
  Value neg(Value a) { return op("Neg", {a}); }
  /// The absent operand (onnx.NoValue).
  Value none();

  /// A rank-0 constant `v` of float or int element type `elt`.
  Value scalar(double v, Type elt);
  /// A 1-D i64 constant.
  Value i64s(ArrayRef<int64_t> values);
  /// A tensor of `like`'s shape and element type, filled with `v`.
  Value filledLike(Value like, double v);
  /// The i64 shape of `v` (Shape).
  Value shapeOf(Value v) { return op("Shape", {v}); }

  /// `grad` (the gradient of a broadcast result) summed over the dims that
  /// broadcasting added or stretched to `x`'s shape, then given x's shape:
  /// the gradient of `x`. Dims are matched statically (1 against another
  /// size, equal sizes or equal symbols); a dynamic dim of x that may be 1
  /// where the result's is not is summed at run time.
  Value sumToShapeOf(Value grad, Value x);

  /// `v` cast to the element type of `like` (no-op when equal).
  Value castLike(Value v, Value like);

  /// Whether an error was emitted.
  bool failed = false;

  /// The Gradient op differentiated, as messages name it ("node 'g'
  /// (training.Gradient)").
  std::string gradientName;
  /// The values of the current sweep that depend on a source and reach a
  /// seed (null: all). Control-flow rules differentiate only the outer
  /// values their regions read that are active.
  const llvm::DenseSet<Value> *active = nullptr;
  /// Forward ops a rule replaced (a Loop or Scan recording its per-step
  /// values): erased, unused, when the sweep ends.
  SmallVector<Operation *> *dead = nullptr;

  bool isActive(Value v) const { return !active || active->contains(v); }
};

/// The gradients of one op's inputs, accumulated by value.
using InputGrads = llvm::MapVector<Value, Value>;

/// Adds to `grads` the gradient of each input of `op` it differentiates,
/// given the gradient flowing into each result (null: none). Returns
/// failure after emitting an error on `op`.
using GradientRule = LogicalResult (*)(Operation *op,
                                       ArrayRef<Value> resultGrads,
                                       GradientBuilder &gb, InputGrads &grads);

/// The rules, by op name ("onnx.Add").
const llvm::StringMap<GradientRule> &getGradientRules();

/// Each category file registers its rules.
void registerElementwiseGradients(llvm::StringMap<GradientRule> &rules);
void registerLinalgGradients(llvm::StringMap<GradientRule> &rules);
void registerReductionGradients(llvm::StringMap<GradientRule> &rules);
void registerTensorGradients(llvm::StringMap<GradientRule> &rules);
void registerLossGradients(llvm::StringMap<GradientRule> &rules);
void registerConvGradients(llvm::StringMap<GradientRule> &rules);
void registerPoolingGradients(llvm::StringMap<GradientRule> &rules);
void registerNormalizationGradients(llvm::StringMap<GradientRule> &rules);
void registerNNMiscGradients(llvm::StringMap<GradientRule> &rules);

/// The integer-list attribute `name` of `op` (INTS: a DenseI64ArrayAttr),
/// or none.
std::optional<SmallVector<int64_t>> intsAttr(Operation *op, StringRef name);

/// Ops differentiated through an expansion: before the reverse pass, an op
/// on a path from an x is rewritten at its place into other onnx ops (its
/// results replaced, the op erased), which the rules then differentiate.
/// Returns failure after emitting an error on `op`.
using GradientExpansion = LogicalResult (*)(Operation *op,
                                            GradientBuilder &gb);

/// The expansions, by op name (RNN, GRU, LSTM: their cell unrolled).
const llvm::StringMap<GradientExpansion> &getGradientExpansions();
void registerRecurrentExpansions(llvm::StringMap<GradientExpansion> &rules);

/// Control flow: If, Loop, Scan (RulesControlFlow.cpp).
void registerControlFlowGradients(llvm::StringMap<GradientRule> &rules);

/// The values `op` reads: its operands, and the outer values its regions
/// use.
SmallVector<Value> inputsOf(Operation *op);

/// The reverse sweep over `ops` (in block order; other ops are not
/// differentiated): `grads` holds the seeds (value -> gradient) and gets
/// the gradient of every value on a path from one of `sources` to a seed
/// (a source that reaches none gets none). Rules build at `gb`'s insertion
/// point. Returns failure after emitting an error (an op with no rule names
/// the op and gb.gradientName).
LogicalResult backpropagate(ArrayRef<Operation *> ops, ArrayRef<Value> sources,
                            InputGrads &grads, GradientBuilder &gb);

/// Adds `g` to the gradient of `v` in `grads` (a sum when one is there).
void accumulate(GradientBuilder &gb, InputGrads &grads, Value v, Value g);

/// The small queries every rule file uses.
/// The element type of `v` (its type when not shaped).
inline Type eltOf(Value v) { return getElementTypeOrSelf(v.getType()); }
/// Whether `t` is a tensor of floats (a type gradients flow through).
inline bool isFloatTensor(Type t) {
  auto tt = dyn_cast<TensorType>(t);
  return tt && isa<FloatType>(tt.getElementType());
}
/// `v`'s ranked tensor type, or null.
inline RankedTensorType rankedOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}
/// Whether optional operand `k` of `op` is there (not none).
inline bool present(Operation *op, unsigned k) {
  return op->getNumOperands() > k &&
         !isa<NoneType>(op->getOperand(k).getType());
}
/// Whether optional result `k` of `op` is there (not none).
inline bool presentResult(Operation *op, unsigned k) {
  return op->getNumResults() > k && !isa<NoneType>(op->getResult(k).getType());
}
/// Float attribute `name` of `op`, or `dflt`.
inline float floatAttr(Operation *op, StringRef name, float dflt) {
  if (auto a = op->getAttrOfType<FloatAttr>(name))
    return a.getValueAsDouble();
  return dflt;
}

} // namespace mlir::onnxc::autodiff

#endif // ONNXC_PASSES_ONNX_AUTODIFF_GRADIENTBUILDER_H

//===- Elementwise.h - Broadcasting elementwise ops -> linalg ---*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Elementwise.cpp: the one
// builder of every elementwise op, a linalg.generic with numpy broadcasting
// around a scalar body (buildElementwise), the pattern that lowers an op by
// name with it (ElementwiseLowering), and the scalar pieces the category
// files' bodies share. The bodies themselves are in the file of the op's
// ONNX category: MathUnary.cpp, MathBinary.cpp, Logical.cpp,
// TensorElementwise.cpp, Shrink.cpp, Expand.cpp, Strings.cpp (StringConcat).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ELEMENTWISE_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ELEMENTWISE_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

#include <functional>

namespace mlir::onnxc::linalg_conv {

//===----------------------------------------------------------------------===//
// The broadcasting generic
//===----------------------------------------------------------------------===//

/// What a scalar body builder gets: the scalar operands (a null Value for an
/// absent optional operand), the onnx element types of the operands and the
/// result (for signedness), and the converted result element type.
struct ScalarContext {
  OpBuilder &b;
  Location loc;
  Operation *op;
  ValueRange args;
  ArrayRef<Type> onnxTypes;
  Type onnxResultType;
  Type resultType;
};
using ScalarFn = std::function<Value(ScalarContext &)>;

/// Builds a linalg.generic computing `fn` over the operands `inputs` (the
/// converted operands; null entries for absent optionals), broadcast numpy
/// style to `resultType`. `origInputs` (the onnx operands) and `origResult`
/// supply the symbolic dim names: dims known equal use identity maps, static
/// 1 dims broadcast with constant maps, and dynamic dims that may be 1 at run
/// time are indexed through a select, with run-time checks that the dims
/// broadcast. `resultSizes` (one per result dim, null for static ones), when
/// given, are the result sizes (Expand: they come from its shape operand);
/// every dynamic operand dim is then indexed through a select.
Value buildElementwise(OpBuilder &b, Location loc, Operation *op,
                       ArrayRef<Value> inputs, ArrayRef<Value> origInputs,
                       Value origResult, RankedTensorType resultType,
                       const ScalarFn &fn, ArrayRef<Value> resultSizes = {});

/// The run-time size of every dynamic result dim (null for static dims) of
/// a numpy broadcast of `inputs` to `resultType` (with the checks that the
/// dims broadcast). Used by buildElementwise and by ops that broadcast batch
/// dims (MatMul).
SmallVector<Value> broadcastSizes(OpBuilder &b, Location loc,
                                  ArrayRef<Value> inputs,
                                  ArrayRef<Value> origInputs, Value origResult,
                                  RankedTensorType resultType);

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

/// A pattern lowering the op `opName` to one broadcasting linalg.generic whose
/// body `fn` builds; `check` (optional) rejects unsupported attribute values
/// with an error on the op before anything is built; only the first
/// `numInputs` operands are inputs.
class ElementwiseLowering : public ConversionPattern {
public:
  using CheckFn = std::function<LogicalResult(Operation *)>;
  ElementwiseLowering(TypeConverter &tc, MLIRContext *ctx, StringRef opName,
                      ScalarFn fn, CheckFn check = nullptr,
                      unsigned numInputs = ~0u);
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override;

private:
  ScalarFn fn;
  CheckFn check;
  /// Operands past this many are not elementwise inputs (CastLike's type).
  unsigned numInputs;
};

/// Adds the ElementwiseLowering of each op, by op name, to one pattern set.
struct ElementwisePatterns {
  TypeConverter &tc;
  RewritePatternSet &patterns;
  void add(StringRef opName, ScalarFn fn,
           ElementwiseLowering::CheckFn check = nullptr,
           unsigned numInputs = ~0u);
};

//===----------------------------------------------------------------------===//
// Scalar pieces of the bodies
//===----------------------------------------------------------------------===//

/// One binary scalar op per element kind: float, signed and unsigned
/// integer (the onnx element type gives the signedness).
struct BinaryKinds {
  std::function<Value(OpBuilder &, Location, Value, Value)> f, si, ui;
};

/// The BinaryKinds of three arith ops (the unsigned one defaults to the
/// signed one).
template <typename FOp, typename SIOp, typename UIOp = SIOp>
BinaryKinds kinds() {
  return {[](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return FOp::create(b, l, x, y);
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return SIOp::create(b, l, x, y);
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return UIOp::create(b, l, x, y);
          }};
}

/// `k` applied to `x` and `y`, chosen by the kind of `onnxType`.
Value applyKind(const BinaryKinds &k, ScalarContext &c, Type onnxType, Value x,
                Value y);

/// A body folding all (present) operands with `k`, left to right (Add,
/// Max, Sum, And, BitwiseOr, ...).
ScalarFn foldAll(BinaryKinds k);

/// The float attribute `name` of `op`, or `dflt` when it is absent.
double floatAttr(Operation *op, StringRef name, double dflt);

} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ELEMENTWISE_H

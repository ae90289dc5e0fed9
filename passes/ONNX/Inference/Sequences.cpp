//===- Sequences.cpp - Inference over sequences of known length -----------===//
//
// A sequence type has one element type for all its elements: SequenceAt of a
// sequence built from tensors of different shapes, and ConcatFromSequence
// (whose result depends on the number of elements), lose dims. Where a
// sequence is built in ways inference can follow (SequenceEmpty,
// SequenceConstruct, SequenceInsert and SequenceErase at known positions,
// SplitToSequence of known sizes, Identity), the InferenceState tracks its
// element types one by one; the sequence's own type gets their join.
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/Sequences.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "dialects/ONNX/IR/ONNXDialect.h"

using namespace mlir;
using namespace mlir::onnxc;

/// Sequences longer than this are not tracked element by element.
static constexpr size_t kMaxTrackedElements = 4096;

/// The value of a known integer scalar operand.
static std::optional<int64_t> getKnownScalar(Operation *op, unsigned index,
                                             InferenceState &state) {
  if (isAbsent(op, index))
    return std::nullopt;
  auto ints = state.getImpl().getKnownInts(op->getOperand(index));
  if (!ints || ints->size() != 1)
    return std::nullopt;
  return ints->front();
}

/// Records the element types of result 0 and refines its type to the
/// sequence of their join.
static LogicalResult setElements(Operation *op, InferenceState &state,
                                 SmallVector<Type> elements) {
  if (elements.size() > kMaxTrackedElements ||
      !llvm::isa<ONNX::SeqType>(op->getResult(0).getType()))
    return success();
  Type joined;
  std::string error;
  for (Type t : elements) {
    if (!joined) {
      joined = t;
      continue;
    }
    FailureOr<Type> j = joinTypes(joined, t, error);
    // Elements of different kinds or element types are the op's own
    // inference's to report.
    if (failed(j))
      return success();
    joined = *j;
  }
  state.getImpl().seqElements[op->getResult(0)] = std::move(elements);
  if (!joined)
    return success();
  return refineResult(op, 0, ONNX::SeqType::get(op->getContext(), joined));
}

/// SequenceInsert(S, T, position = end).
static LogicalResult insertElement(Operation *op, InferenceState &state) {
  const SmallVector<Type> *in =
      state.getImpl().getSeqElements(op->getOperand(0));
  if (!in || op->getNumOperands() < 2)
    return success();
  SmallVector<Type> elements = *in;
  int64_t n = elements.size(), pos = n;
  if (!isAbsent(op, 2)) {
    std::optional<int64_t> p = getKnownScalar(op, 2, state);
    if (!p)
      return success();
    pos = *p < 0 ? *p + n : *p;
    if (pos < 0 || pos > n)
      return success();
  }
  elements.insert(elements.begin() + pos, op->getOperand(1).getType());
  return setElements(op, state, std::move(elements));
}

/// SequenceErase(S, position = last).
static LogicalResult eraseElement(Operation *op, InferenceState &state) {
  const SmallVector<Type> *in =
      state.getImpl().getSeqElements(op->getOperand(0));
  if (!in || in->empty())
    return success();
  SmallVector<Type> elements = *in;
  int64_t n = elements.size(), pos = n - 1;
  if (!isAbsent(op, 1)) {
    std::optional<int64_t> p = getKnownScalar(op, 1, state);
    if (!p)
      return success();
    pos = *p < 0 ? *p + n : *p;
    if (pos < 0 || pos >= n)
      return success();
  }
  elements.erase(elements.begin() + pos);
  return setElements(op, state, std::move(elements));
}

/// SequenceAt(S, position): the type of that element.
static LogicalResult refineSequenceAt(Operation *op, InferenceState &state) {
  const SmallVector<Type> *elements =
      state.getImpl().getSeqElements(op->getOperand(0));
  std::optional<int64_t> p = getKnownScalar(op, 1, state);
  if (!elements || !p)
    return success();
  int64_t n = elements->size(), pos = *p < 0 ? *p + n : *p;
  if (pos < 0 || pos >= n)
    return success();
  return refineResult(op, 0, (*elements)[pos]);
}

/// SequenceLength(S): a known value.
static void propagateLength(Operation *op, InferenceState &state) {
  const SmallVector<Type> *elements =
      state.getImpl().getSeqElements(op->getOperand(0));
  if (!elements)
    return;
  onnx::TensorShapeProto data;
  data.add_dim()->set_dim_value(elements->size());
  state.getImpl().setShapeData(op->getResult(0), std::move(data));
}

/// SplitToSequence(input, split): one element per chunk along `axis`.
static LogicalResult splitToSequence(Operation *op, InferenceState &state) {
  RankedTensorType in = getRankedOperand(op, 0);
  if (!in)
    return success();
  int64_t rank = in.getRank();
  int64_t axis = getIntAttr(op, "axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return success();
  int64_t size = in.getDimSize(axis);
  SmallVector<int64_t> sizes;
  bool keepDims = true;
  if (isAbsent(op, 1)) {
    // Chunks of 1; keepdims = 0 drops the axis.
    if (ShapedType::isDynamic(size) || size > (int64_t)kMaxTrackedElements)
      return success();
    sizes.assign(size, 1);
    keepDims = getIntAttr(op, "keepdims", 1) != 0;
  } else {
    RankedTensorType splitType = getRankedOperand(op, 1);
    auto split = state.getImpl().getKnownInts(op->getOperand(1));
    if (!splitType || !split)
      return success();
    if (splitType.getRank() == 0) {
      int64_t chunk = split->front();
      if (ShapedType::isDynamic(size) || chunk <= 0 ||
          (size + chunk - 1) / chunk > (int64_t)kMaxTrackedElements)
        return success();
      for (int64_t left = size; left > 0; left -= chunk)
        sizes.push_back(std::min(left, chunk));
    } else {
      sizes.assign(split->begin(), split->end());
    }
  }
  SmallVector<Type> elements;
  for (int64_t s : sizes) {
    SmallVector<SymDim> dims = getSymDims(in);
    if (keepDims)
      dims[axis] = SymDim{s, ""};
    else
      dims.erase(dims.begin() + axis);
    elements.push_back(getSymTensorType(dims, in.getElementType()));
  }
  return setElements(op, state, std::move(elements));
}

/// ConcatFromSequence(S): the elements concatenated along `axis`, or stacked
/// along a new one (new_axis = 1).
static LogicalResult refineConcatFromSequence(Operation *op,
                                              InferenceState &state) {
  const SmallVector<Type> *elements =
      state.getImpl().getSeqElements(op->getOperand(0));
  if (!elements || elements->empty())
    return success();
  SmallVector<SmallVector<SymDim>> shapes;
  Type elt;
  for (Type t : *elements) {
    auto r = llvm::dyn_cast<RankedTensorType>(t);
    if (!r || (!shapes.empty() && r.getRank() != (int64_t)shapes[0].size()))
      return success();
    shapes.push_back(getSymDims(r));
    elt = r.getElementType();
  }
  int64_t rank = shapes[0].size();
  bool newAxis = getIntAttr(op, "new_axis", 0) != 0;
  int64_t axis = getIntAttr(op, "axis", 0);
  int64_t outRank = newAxis ? rank + 1 : rank;
  if (axis < 0)
    axis += outRank;
  if (axis < 0 || axis >= outRank)
    return success();
  // Dims other than the axis: the same in every element (a static one
  // wins over a dynamic one; two different static ones are an error at run
  // time, left unrefined here).
  SmallVector<SymDim> dims = shapes[0];
  for (int64_t d = 0; d < rank; ++d) {
    if (!newAxis && d == axis)
      continue;
    for (ArrayRef<SymDim> s : shapes) {
      if (s[d].isStatic() && dims[d].isStatic() && s[d].size != dims[d].size)
        return success();
      if (s[d].isStatic())
        dims[d] = s[d];
    }
  }
  if (newAxis) {
    dims.insert(dims.begin() + axis, SymDim{(int64_t)shapes.size(), ""});
  } else {
    SymDim sum{0, ""};
    for (ArrayRef<SymDim> s : shapes) {
      if (!s[axis].isStatic()) {
        sum = SymDim();
        break;
      }
      sum.size += s[axis].size;
    }
    dims[axis] = sum;
  }
  return refineResult(op, 0, getSymTensorType(dims, elt));
}

LogicalResult mlir::onnxc::refineWithSequenceData(Operation *op,
                                                  InferenceState &state) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() != 1)
    return success();
  if (name == "onnx.SequenceEmpty")
    return setElements(op, state, {});
  if (name == "onnx.SequenceConstruct")
    return setElements(op, state, llvm::to_vector(op->getOperandTypes()));
  if (name == "onnx.SequenceInsert")
    return insertElement(op, state);
  if (name == "onnx.SequenceErase")
    return eraseElement(op, state);
  if (name == "onnx.SplitToSequence")
    return splitToSequence(op, state);
  if (name == "onnx.Identity" && op->getNumOperands() == 1) {
    if (const SmallVector<Type> *e =
            state.getImpl().getSeqElements(op->getOperand(0)))
      return setElements(op, state, *e);
    return success();
  }
  if (name == "onnx.SequenceAt")
    return refineSequenceAt(op, state);
  if (name == "onnx.SequenceLength")
    propagateLength(op, state);
  if (name == "onnx.ConcatFromSequence")
    return refineConcatFromSequence(op, state);
  return success();
}

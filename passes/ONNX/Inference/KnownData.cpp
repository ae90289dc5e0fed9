//===- KnownData.cpp - Known values of integer tensors of any rank --------===//
//
// libonnx's data propagation follows 1-D shape tensors. Exporters also move
// small integer tensors through 2-D shapes (PyTorch's reflect padding:
// Reshape(pads, [-1, 2]), Slice with step -1, Transpose, Reshape(-1)). These
// rules follow the values (each an onnx::TensorShapeProto dim: known,
// symbolic or unknown, in row-major order) through the data-movement ops of
// any rank when the shapes are static: Reshape, Flatten, Squeeze, Unsqueeze,
// Identity, Transpose, Slice, Concat, Gather, Expand. The importer turns
// fully known results into constants (GraphImporter.cpp), so the ops that
// read them see constants (static Pad shapes, say). libonnx itself is only
// ever handed the data of tensors of rank 0 or 1 (LibOnnxBridge.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/ONNX/Inference/KnownData.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

using namespace mlir;
using namespace mlir::onnxc;

namespace {

using Dims = onnx::TensorShapeProto;

/// The static shape of `v` with at most `max` elements, or nothing.
std::optional<SmallVector<int64_t>> staticShape(Value v, int64_t max = 4096) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape() || t.getNumElements() > max)
    return std::nullopt;
  return SmallVector<int64_t>(t.getShape());
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// The data of `v` when it has the element count of its static shape.
const Dims *dataOf(Value v, InferenceState &state,
                   std::optional<SmallVector<int64_t>> &shape) {
  shape = staticShape(v);
  if (!shape)
    return nullptr;
  const Dims *d = state.getImpl().getShapeData(v);
  int64_t n = 1;
  for (int64_t x : *shape)
    n *= x;
  return d && d->dim_size() == n ? d : nullptr;
}

/// result = input's values in the same order (reshapes).
void same(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> in, out = staticShape(op->getResult(0));
  const Dims *d = dataOf(op->getOperand(0), state, in);
  if (!d || !out || (*out).size() <= 1 && in->size() <= 1)
    return; // 1-D to 1-D is libonnx's
  int64_t n = 1;
  for (int64_t x : *out)
    n *= x;
  if (n == d->dim_size())
    state.getImpl().setShapeData(op->getResult(0), *d);
}

/// Result element at multi-index `idx` comes from input element
/// `source(idx)`; fills the result's data.
template <typename Fn>
void gather(Operation *op, InferenceState &state, const Dims &in,
            ArrayRef<int64_t> outShape, Fn source) {
  Dims out;
  int64_t n = 1;
  for (int64_t x : outShape)
    n *= x;
  SmallVector<int64_t> idx(outShape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t s = source(idx);
    if (s < 0 || s >= in.dim_size())
      return;
    *out.add_dim() = in.dim(s);
    for (int64_t d = (int64_t)outShape.size() - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  state.getImpl().setShapeData(op->getResult(0), std::move(out));
}

void transpose(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> in, out = staticShape(op->getResult(0));
  const Dims *d = dataOf(op->getOperand(0), state, in);
  if (!d || !out || in->size() != out->size())
    return;
  int64_t r = in->size();
  SmallVector<int64_t> perm;
  if (auto p = op->getAttrOfType<DenseI64ArrayAttr>("perm"))
    perm.assign(p.asArrayRef().begin(), p.asArrayRef().end());
  else
    for (int64_t i = r - 1; i >= 0; --i)
      perm.push_back(i);
  if ((int64_t)perm.size() != r)
    return;
  SmallVector<int64_t> st = stridesOf(*in);
  gather(op, state, *d, *out, [&](ArrayRef<int64_t> idx) {
    int64_t s = 0;
    for (int64_t k = 0; k < r; ++k)
      s += idx[k] * st[perm[k]];
    return s;
  });
}

void slice(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> in, out = staticShape(op->getResult(0));
  const Dims *d = dataOf(op->getOperand(0), state, in);
  if (!d || !out || in->size() != out->size() || op->getNumOperands() < 3)
    return;
  InferenceState::Impl &impl = state.getImpl();
  auto known = [&](unsigned k) -> std::optional<SmallVector<int64_t>> {
    if (k >= op->getNumOperands() || isa<NoneType>(op->getOperand(k).getType()))
      return SmallVector<int64_t>();
    return impl.getKnownInts(op->getOperand(k));
  };
  auto starts = known(1), ends = known(2), axes = known(3), steps = known(4);
  if (!starts || !ends || !axes || !steps || starts->size() != ends->size())
    return;
  int64_t r = in->size();
  SmallVector<int64_t> start(r, 0), step(r, 1);
  for (size_t i = 0; i < starts->size(); ++i) {
    int64_t a = axes->empty() ? (int64_t)i : (*axes)[i];
    if (a < 0)
      a += r;
    int64_t s = steps->empty() ? 1 : (*steps)[i];
    if (a < 0 || a >= r || s == 0)
      return;
    int64_t dim = (*in)[a], b = (*starts)[i];
    // The first index as ONNX clamps it (the end only fixes the count,
    // which the result's static shape already holds).
    if (b < 0)
      b += dim;
    b = s > 0 ? std::clamp<int64_t>(b, 0, dim) : std::clamp<int64_t>(b, 0, dim - 1);
    start[a] = b;
    step[a] = s;
  }
  SmallVector<int64_t> st = stridesOf(*in);
  gather(op, state, *d, *out, [&](ArrayRef<int64_t> idx) {
    int64_t s = 0;
    for (int64_t k = 0; k < r; ++k)
      s += (start[k] + idx[k] * step[k]) * st[k];
    return s;
  });
}

void concat(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> out = staticShape(op->getResult(0));
  if (!out || out->size() <= 1)
    return; // 1-D is propagateConcat's and libonnx's
  int64_t r = out->size();
  int64_t axis = getIntAttr(op, "axis", 0);
  if (axis < 0)
    axis += r;
  if (axis < 0 || axis >= r)
    return;
  SmallVector<const Dims *> parts;
  SmallVector<SmallVector<int64_t>> shapes;
  SmallVector<int64_t> offsets;
  int64_t offset = 0;
  for (Value v : op->getOperands()) {
    std::optional<SmallVector<int64_t>> s;
    const Dims *d = dataOf(v, state, s);
    if (!d || (int64_t)s->size() != r)
      return;
    parts.push_back(d);
    shapes.push_back(*s);
    offsets.push_back(offset);
    offset += (*s)[axis];
  }
  Dims out2;
  int64_t n = 1;
  for (int64_t x : *out)
    n *= x;
  SmallVector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    size_t p = 0;
    while (p + 1 < parts.size() && idx[axis] >= offsets[p + 1])
      ++p;
    SmallVector<int64_t> st = stridesOf(shapes[p]);
    int64_t s = 0;
    for (int64_t k = 0; k < r; ++k)
      s += (k == axis ? idx[k] - offsets[p] : idx[k]) * st[k];
    if (s < 0 || s >= parts[p]->dim_size())
      return;
    *out2.add_dim() = parts[p]->dim(s);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < (*out)[d])
        break;
      idx[d] = 0;
    }
  }
  state.getImpl().setShapeData(op->getResult(0), std::move(out2));
}

void gatherOp(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> in, out = staticShape(op->getResult(0));
  const Dims *d = dataOf(op->getOperand(0), state, in);
  std::optional<SmallVector<int64_t>> idxShape;
  auto indices = staticShape(op->getOperand(1));
  auto known = state.getImpl().getKnownInts(op->getOperand(1));
  if (!d || !out || !indices || !known || in->size() <= 1 && indices->size() <= 1)
    return; // the 1-D case is libonnx's
  int64_t r = in->size();
  int64_t axis = getIntAttr(op, "axis", 0);
  if (axis < 0)
    axis += r;
  if (axis < 0 || axis >= r)
    return;
  int64_t q = indices->size();
  SmallVector<int64_t> st = stridesOf(*in), ist = stridesOf(*indices);
  gather(op, state, *d, *out, [&](ArrayRef<int64_t> idx) -> int64_t {
    // out[i_0..i_{axis-1}, j_0..j_{q-1}, i_{axis+1}..]
    int64_t flat = 0;
    for (int64_t k = 0; k < q; ++k)
      flat += idx[axis + k] * ist[k];
    int64_t at = (*known)[flat];
    if (at < 0)
      at += (*in)[axis];
    if (at < 0 || at >= (*in)[axis])
      return -1;
    int64_t s = 0;
    for (int64_t k = 0; k < r; ++k)
      s += (k < axis ? idx[k] : k == axis ? at : idx[k + q - 1]) * st[k];
    return s;
  });
}

void expand(Operation *op, InferenceState &state) {
  std::optional<SmallVector<int64_t>> in, out = staticShape(op->getResult(0));
  const Dims *d = dataOf(op->getOperand(0), state, in);
  if (!d || !out || out->size() < in->size())
    return;
  int64_t r = out->size(), lead = r - in->size();
  SmallVector<int64_t> st = stridesOf(*in);
  gather(op, state, *d, *out, [&](ArrayRef<int64_t> idx) {
    int64_t s = 0;
    for (int64_t k = lead; k < r; ++k)
      s += ((*in)[k - lead] == 1 ? 0 : idx[k]) * st[k - lead];
    return s;
  });
}

} // namespace

void mlir::onnxc::propagateKnownData(Operation *op, InferenceState &state) {
  if (op->getNumResults() != 1 || op->getNumOperands() == 0)
    return;
  auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!t || !t.getElementType().isSignlessInteger() ||
      state.getImpl().shapeData.count(op->getResult(0)))
    return;
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Reshape" || name == "onnx.Flatten" ||
      name == "onnx.Squeeze" || name == "onnx.Unsqueeze" ||
      name == "onnx.Identity")
    same(op, state);
  else if (name == "onnx.Transpose")
    transpose(op, state);
  else if (name == "onnx.Slice")
    slice(op, state);
  else if (name == "onnx.Concat")
    concat(op, state);
  else if (name == "onnx.Gather")
    gatherOp(op, state);
  else if (name == "onnx.Expand")
    expand(op, state);
}

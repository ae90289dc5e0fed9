//===- onnxc/runtime.hpp - C++17 classes over the onnxc runtime API ------===//
//
// Header-only C++17 over onnxc/runtime.h (nothing of it is compiled into the
// runtime, which stays C99). The generated M.hpp embeds this file under the
// same include guard and adds a class per model (docs/embedding.md):
//
//   onnxc::models::mlp m;
//   auto out = m(onnxc::TensorIn<float>(x, {n, 4}));   // symbolic N from x
//   const float *p = out.probabilities.data();          // typed, owned
//
// - onnxc::Error: every failure, a std::runtime_error with the runtime's
//   one-line message (what()) and its onnxc_status (status()).
// - Inputs (read only, never copied; they must outlive the call):
//   TensorIn<T> (data + shape), SequenceIn<T> (items), and std::optional of
//   either for ONNX optionals.
// - Outputs, allocated by the model and owned by these move-only classes
//   (freed by their destructors): Tensor<T>, Sequence<T>, Optional<V> (V is
//   TensorView<T> or SequenceView<T>). The *View classes are non-owning.
//
// Element types: float, double, intN_t/uintN_t as in C; bool is uint8_t,
// float16 and bfloat16 are uint16_t bits, complex64/128 std::complex.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_RUNTIME_HPP
#define ONNXC_RUNTIME_HPP

#include "onnxc/runtime.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace onnxc {

/// A failed call: the runtime's message and status.
class Error : public std::runtime_error {
public:
  Error(onnxc_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  onnxc_status status() const noexcept { return status_; }

private:
  onnxc_status status_;
};

/// Throws onnxc::Error with onnxc_last_error() unless `status` is ONNXC_OK.
inline void check(onnxc_status status) {
  if (status != ONNXC_OK)
    throw Error(status, onnxc_last_error());
}

namespace detail {

inline onnxc_tensor emptyTensor() {
  onnxc_tensor t{};
  return t;
}

inline int64_t numel(const onnxc_tensor &t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t.rank; ++d)
    n *= t.shape[d];
  return n;
}

/// A model-allocated onnxc_tensor, released on destruction; move-only.
class Owned {
public:
  Owned() noexcept : t_(emptyTensor()) {}
  explicit Owned(const onnxc_tensor &t) noexcept : t_(t) {}
  Owned(Owned &&o) noexcept : t_(o.t_) { o.t_ = emptyTensor(); }
  Owned &operator=(Owned &&o) noexcept {
    if (this != &o) {
      onnxc_tensor_release(&t_);
      t_ = o.t_;
      o.t_ = emptyTensor();
    }
    return *this;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() { onnxc_tensor_release(&t_); }
  const onnxc_tensor &get() const noexcept { return t_; }
  onnxc_tensor &get() noexcept { return t_; }
  /// Gives up ownership: the caller releases the result.
  onnxc_tensor release() noexcept {
    onnxc_tensor t = t_;
    t_ = emptyTensor();
    return t;
  }

private:
  onnxc_tensor t_;
};

/// The read accessors of a tensor of T; D::raw() gives the onnxc_tensor.
template <class T, class D> class TensorAccess {
public:
  using value_type = T;
  int32_t dtype() const { return raw().dtype; }
  int32_t rank() const { return raw().rank; }
  /// Dim `d`; throws for d outside [0, rank).
  int64_t dim(int32_t d) const {
    if (d < 0 || d >= raw().rank)
      throw Error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "dim " + std::to_string(d) + " of a tensor of rank " +
                      std::to_string(raw().rank));
    return raw().shape[d];
  }
  std::vector<int64_t> shape() const {
    return std::vector<int64_t>(raw().shape, raw().shape + raw().rank);
  }
  /// The number of elements.
  int64_t size() const { return numel(raw()); }
  const T *data() const { return static_cast<const T *>(raw().data); }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size(); }
  /// Element `i` of the row-major data (no bounds check).
  const T &operator[](int64_t i) const { return data()[i]; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

private:
  const onnxc_tensor &raw() const { return static_cast<const D *>(this)->raw(); }
};

} // namespace detail

/// A tensor the caller does not own (a sequence's item, an optional's value,
/// a training parameter): valid while its owner is.
template <class T>
class TensorView : public detail::TensorAccess<T, TensorView<T>> {
public:
  explicit TensorView(const onnxc_tensor *t) : t_(*t) {}
  const onnxc_tensor &raw() const { return t_; }

private:
  onnxc_tensor t_;
};

/// A tensor output: owns the model's buffer.
template <class T> class Tensor : public detail::TensorAccess<T, Tensor<T>> {
public:
  Tensor() = default;
  /// Takes ownership of `t` (an output of M_run).
  explicit Tensor(const onnxc_tensor &t) noexcept : owned_(t) {}
  const onnxc_tensor &raw() const { return owned_.get(); }
  using detail::TensorAccess<T, Tensor<T>>::data;
  T *data() { return static_cast<T *>(owned_.get().data); }
  TensorView<T> view() const { return TensorView<T>(&owned_.get()); }
  /// Gives up ownership (release the result with onnxc_tensor_release).
  onnxc_tensor release() noexcept { return owned_.release(); }

private:
  detail::Owned owned_;
};

/// A sequence the caller does not own: size() tensors of T, valid while
/// its owner is.
template <class T> class SequenceView {
public:
  explicit SequenceView(const onnxc_tensor *t) : t_(*t) {}
  int64_t size() const { return t_.num_items; }
  bool empty() const { return t_.num_items == 0; }
  /// Item `i`; throws for i outside [0, size()).
  TensorView<T> operator[](int64_t i) const {
    if (i < 0 || i >= t_.num_items)
      throw Error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "item " + std::to_string(i) + " of a sequence of " +
                      std::to_string(t_.num_items));
    return TensorView<T>(&t_.items[i]);
  }
  const onnxc_tensor &raw() const { return t_; }

private:
  onnxc_tensor t_;
};

/// A sequence output: owns its items.
template <class T> class Sequence {
public:
  Sequence() = default;
  explicit Sequence(const onnxc_tensor &t) noexcept : owned_(t) {}
  int64_t size() const { return view().size(); }
  bool empty() const { return view().empty(); }
  TensorView<T> operator[](int64_t i) const { return view()[i]; }
  SequenceView<T> view() const { return SequenceView<T>(&owned_.get()); }
  const onnxc_tensor &raw() const { return owned_.get(); }
  onnxc_tensor release() noexcept { return owned_.release(); }

private:
  detail::Owned owned_;
};

/// An optional output holding a V (TensorView<T> or SequenceView<T>) or
/// nothing; owns what it holds.
template <class V> class Optional {
public:
  Optional() = default;
  explicit Optional(const onnxc_tensor &t) noexcept : owned_(t) {}
  bool has_value() const { return owned_.get().num_items > 0; }
  explicit operator bool() const { return has_value(); }
  /// The value; throws when absent.
  V value() const {
    if (!has_value())
      throw Error(ONNXC_ERROR_INVALID_ARGUMENT, "the optional is empty");
    return V(&owned_.get().items[0]);
  }
  const onnxc_tensor &raw() const { return owned_.get(); }
  onnxc_tensor release() noexcept { return owned_.release(); }

private:
  detail::Owned owned_;
};

/// A tensor input: the caller's row-major buffer and its shape (read only,
/// not copied; it must outlive the call). The symbolic dims of the model
/// come from these shapes.
template <class T> class TensorIn {
public:
  TensorIn(const T *data, std::initializer_list<int64_t> shape) : data_(data) {
    setShape(shape.begin(), shape.size());
  }
  TensorIn(const T *data, const std::vector<int64_t> &shape) : data_(data) {
    setShape(shape.data(), shape.size());
  }
  /// A vector of exactly as many elements as `shape` has (else throws).
  TensorIn(const std::vector<T> &values, std::initializer_list<int64_t> shape)
      : data_(values.data()) {
    setShape(shape.begin(), shape.size());
    checkCount(values.size());
  }
  TensorIn(const std::vector<T> &values, const std::vector<int64_t> &shape)
      : data_(values.data()) {
    setShape(shape.data(), shape.size());
    checkCount(values.size());
  }
  /// A 1-D tensor of the vector's elements.
  TensorIn(const std::vector<T> &values) // NOLINT: implicit on purpose
      : data_(values.data()), rank_(1) {
    shape_[0] = static_cast<int64_t>(values.size());
  }
  /// A scalar (rank 0), held by value.
  TensorIn(const T &value) // NOLINT: implicit on purpose
      : data_(nullptr), rank_(0), scalar_(value), ownsScalar_(true) {}
  /// Another model's output (or any tensor of T), without a copy.
  template <class D>
  TensorIn(const detail::TensorAccess<T, D> &t) // NOLINT
      : data_(t.data()) {
    std::vector<int64_t> s = t.shape();
    setShape(s.data(), s.size());
  }

  const T *data() const { return ownsScalar_ ? &scalar_ : data_; }
  int32_t rank() const { return rank_; }
  const int64_t *shape() const { return shape_; }
  /// The onnxc_tensor of M_run for the model's `dtype`.
  onnxc_tensor toC(int32_t dtype) const {
    onnxc_tensor t = detail::emptyTensor();
    t.data = const_cast<T *>(data());
    t.rank = rank_;
    t.dtype = dtype;
    for (int32_t d = 0; d < rank_; ++d)
      t.shape[d] = shape_[d];
    return t;
  }

private:
  void setShape(const int64_t *dims, size_t rank) {
    if (rank > ONNXC_MAX_RANK)
      throw Error(ONNXC_ERROR_SHAPE, "rank " + std::to_string(rank) +
                                         " is above ONNXC_MAX_RANK (16)");
    rank_ = static_cast<int32_t>(rank);
    for (size_t d = 0; d < rank; ++d)
      shape_[d] = dims[d];
  }
  void checkCount(size_t count) const {
    int64_t n = 1;
    for (int32_t d = 0; d < rank_; ++d)
      n *= shape_[d];
    if (n < 0 || static_cast<uint64_t>(n) != count)
      throw Error(ONNXC_ERROR_SHAPE,
                  "a vector of " + std::to_string(count) +
                      " elements for a shape of " + std::to_string(n));
  }

  const T *data_;
  int32_t rank_ = 0;
  int64_t shape_[ONNXC_MAX_RANK] = {};
  T scalar_ = T();
  bool ownsScalar_ = false;
};

/// A sequence input: its items (read only; they must outlive the call).
template <class T> class SequenceIn {
public:
  SequenceIn() = default;
  SequenceIn(std::initializer_list<TensorIn<T>> items) : items_(items) {}
  SequenceIn(std::vector<TensorIn<T>> items) : items_(std::move(items)) {}
  const std::vector<TensorIn<T>> &items() const { return items_; }

private:
  std::vector<TensorIn<T>> items_;
};

/// A map the caller does not own (ai.onnx.ml; K int64_t or const char *):
/// size() entries, key i of keys() paired with value i of values(); valid
/// while its owner is.
template <class K, class V> class MapView {
public:
  explicit MapView(const onnxc_tensor *t) : t_(*t) {}
  int64_t size() const { return t_.num_items == 2 ? t_.items[0].shape[0] : 0; }
  bool empty() const { return size() == 0; }
  TensorView<K> keys() const { return TensorView<K>(&t_.items[0]); }
  TensorView<V> values() const { return TensorView<V>(&t_.items[1]); }
  const onnxc_tensor &raw() const { return t_; }

private:
  onnxc_tensor t_;
};

/// A map output: owns its entries.
template <class K, class V> class Map {
public:
  Map() = default;
  explicit Map(const onnxc_tensor &t) noexcept : owned_(t) {}
  int64_t size() const { return view().size(); }
  bool empty() const { return view().empty(); }
  TensorView<K> keys() const { return view().keys(); }
  TensorView<V> values() const { return view().values(); }
  MapView<K, V> view() const { return MapView<K, V>(&owned_.get()); }
  const onnxc_tensor &raw() const { return owned_.get(); }
  onnxc_tensor release() noexcept { return owned_.release(); }

private:
  detail::Owned owned_;
};

/// A sequence of maps output (ZipMap's): owns its maps.
template <class K, class V> class MapSequence {
public:
  MapSequence() = default;
  explicit MapSequence(const onnxc_tensor &t) noexcept : owned_(t) {}
  int64_t size() const { return owned_.get().num_items; }
  bool empty() const { return size() == 0; }
  /// Map `i`; throws for i outside [0, size()).
  MapView<K, V> operator[](int64_t i) const {
    if (i < 0 || i >= size())
      throw Error(ONNXC_ERROR_INVALID_ARGUMENT,
                  "map " + std::to_string(i) + " of a sequence of " +
                      std::to_string(size()));
    return MapView<K, V>(&owned_.get().items[i]);
  }
  const onnxc_tensor &raw() const { return owned_.get(); }
  onnxc_tensor release() noexcept { return owned_.release(); }

private:
  detail::Owned owned_;
};

/// A map input: 1-D keys (int64_t or const char *, distinct) and as many
/// values (read only; they must outlive the call).
template <class K, class V> class MapIn {
public:
  MapIn(TensorIn<K> keys, TensorIn<V> values)
      : keys_(std::move(keys)), values_(std::move(values)) {}
  const TensorIn<K> &keys() const { return keys_; }
  const TensorIn<V> &values() const { return values_; }

private:
  TensorIn<K> keys_;
  TensorIn<V> values_;
};

/// A sequence of maps input.
template <class K, class V> class MapSequenceIn {
public:
  MapSequenceIn() = default;
  MapSequenceIn(std::initializer_list<MapIn<K, V>> maps) : maps_(maps) {}
  MapSequenceIn(std::vector<MapIn<K, V>> maps) : maps_(std::move(maps)) {}
  const std::vector<MapIn<K, V>> &maps() const { return maps_; }

private:
  std::vector<MapIn<K, V>> maps_;
};

/// A training state (models with training info, docs/training.md): owns an
/// onnxc_train_state, move-only, one thread at a time. The generated
/// M::Trainer adds the model's typed step() and infer().
class TrainState {
public:
  explicit TrainState(const onnxc_train_info *info) {
    check(onnxc_train_create(info, &state_));
  }
  TrainState(TrainState &&o) noexcept : state_(o.state_) { o.state_ = nullptr; }
  TrainState &operator=(TrainState &&o) noexcept {
    if (this != &o) {
      onnxc_train_destroy(state_);
      state_ = o.state_;
      o.state_ = nullptr;
    }
    return *this;
  }
  TrainState(const TrainState &) = delete;
  TrainState &operator=(const TrainState &) = delete;
  ~TrainState() { onnxc_train_destroy(state_); }

  onnxc_train_state *get() const noexcept { return state_; }
  int32_t num_params() const { return onnxc_train_num_params(state_); }
  /// The state's tensors by name (the initializers'), in state order.
  std::vector<std::string> param_names() const {
    std::vector<std::string> names;
    for (int32_t i = 0; i < num_params(); ++i)
      names.emplace_back(onnxc_train_param_name(state_, i));
    return names;
  }
  /// A view of the tensor `name`, valid until the next step, set or load.
  /// Throws for an unknown name or elements that are not sizeof(T) bytes.
  template <class T> TensorView<T> param(const std::string &name) const {
    onnxc_tensor t = paramTensor(name, sizeof(T));
    return TensorView<T>(&t);
  }
  /// Copies `value` into the tensor `name` (same shape, else throws).
  template <class T>
  void set_param(const std::string &name, const TensorIn<T> &value) {
    onnxc_tensor v = value.toC(paramTensor(name, sizeof(T)).dtype);
    check(onnxc_train_set_param(state_, name.c_str(), &v));
  }
  void save(const std::string &path) const {
    check(onnxc_train_save(state_, path.c_str()));
  }
  void load(const std::string &path) {
    check(onnxc_train_load(state_, path.c_str()));
  }
  std::vector<unsigned char> save_buffer() const {
    void *data = nullptr;
    size_t size = 0;
    check(onnxc_train_save_buffer(state_, &data, &size));
    const unsigned char *bytes = static_cast<const unsigned char *>(data);
    std::vector<unsigned char> out(bytes, bytes + size);
    std::free(data);
    return out;
  }
  void load_buffer(const void *data, size_t size) {
    check(onnxc_train_load_buffer(state_, data, size));
  }

private:
  onnxc_tensor paramTensor(const std::string &name, size_t elementSize) const {
    onnxc_tensor t = detail::emptyTensor();
    check(onnxc_train_get_param(state_, name.c_str(), &t));
    if (onnxc_dtype_size(t.dtype) != elementSize)
      throw Error(ONNXC_ERROR_DTYPE,
                  "parameter '" + name + "' is " + onnxc_dtype_name(t.dtype) +
                      ", not of " + std::to_string(elementSize) +
                      "-byte elements");
    return t;
  }

  onnxc_train_state *state_ = nullptr;
};

namespace detail {

/// One input of a call as onnxc_tensors, with the storage of a sequence's
/// items and an optional's value. Not movable: `value` points into it.
class Arg {
public:
  Arg() = default;
  Arg(const Arg &) = delete;
  Arg &operator=(const Arg &) = delete;

  template <class T> void set(const TensorIn<T> &in, int32_t dtype) {
    value = in.toC(dtype);
  }
  template <class T> void set(const SequenceIn<T> &in, int32_t dtype) {
    items.clear();
    for (const TensorIn<T> &item : in.items())
      items.push_back(item.toC(dtype));
    value = onnxc_make_sequence(items.data(),
                                static_cast<int64_t>(items.size()));
    value.dtype = dtype;
  }
  template <class K, class V> void set(const MapIn<K, V> &in, int32_t dtype) {
    items.assign(2, emptyTensor());
    onnxc_tensor k = in.keys().toC(keyDtype<K>()), v = in.values().toC(dtype);
    value = onnxc_make_map(items.data(), &k, &v);
  }
  template <class K, class V>
  void set(const MapSequenceIn<K, V> &in, int32_t dtype) {
    size_t m = in.maps().size();
    parts.assign(2 * m, emptyTensor());
    items.assign(m, emptyTensor());
    for (size_t i = 0; i < m; ++i) {
      const MapIn<K, V> &map = in.maps()[i];
      onnxc_tensor k = map.keys().toC(keyDtype<K>());
      onnxc_tensor v = map.values().toC(dtype);
      items[i] = onnxc_make_map(&parts[2 * i], &k, &v);
    }
    value = onnxc_make_sequence(items.data(), static_cast<int64_t>(m));
    value.dtype = dtype;
  }
  template <class I> void set(const std::optional<I> &in, int32_t dtype) {
    if (!in) {
      value = onnxc_make_optional(nullptr);
      value.dtype = dtype;
      return;
    }
    set(*in, dtype);
    payload = value;
    value = onnxc_make_optional(&payload);
  }

  onnxc_tensor value = emptyTensor();

private:
  template <class K> static int32_t keyDtype() {
    return std::is_same<K, int64_t>::value ? ONNXC_DTYPE_INT64
                                           : ONNXC_DTYPE_STRING;
  }
  std::vector<onnxc_tensor> items, parts;
  onnxc_tensor payload = emptyTensor();
};

/// The onnxc_tensor outputs of a call; released unless taken.
template <size_t N> class Outs {
public:
  Outs() {
    for (onnxc_tensor &t : t_)
      t = emptyTensor();
  }
  Outs(const Outs &) = delete;
  Outs &operator=(const Outs &) = delete;
  ~Outs() {
    for (onnxc_tensor &t : t_)
      onnxc_tensor_release(&t);
  }
  onnxc_tensor *data() { return t_; }
  /// Output `i`, no longer released here.
  onnxc_tensor take(size_t i) {
    onnxc_tensor t = t_[i];
    t_[i] = emptyTensor();
    return t;
  }

private:
  onnxc_tensor t_[N > 0 ? N : 1];
};

} // namespace detail
} // namespace onnxc

#endif // ONNXC_RUNTIME_HPP

// The generated C++ classes (M.hpp) of four models in one program
// (test/embed/cxx-wrapper.test): symbolic dims from the inputs, named and
// typed outputs owned by their structs, sequences and optionals both ways,
// errors as onnxc::Error, and the training API. Prints what it checks;
// exits non-zero on a mismatch.
#include "cumsum_scan.hpp"
#include "linear_train.hpp"
#include "mlp.hpp"
#include "seqs.hpp"

#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("MISMATCH: %s\n", what);
    ++failures;
  }
}

bool close(float a, float b) { return std::fabs(a - b) < 1e-4f; }

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Types are what the model says: checked at compile time.
static_assert(std::is_same_v<decltype(onnxc::models::mlp::Outputs::probabilities),
                             onnxc::Tensor<float>>);
static_assert(std::is_same_v<decltype(onnxc::models::seqs::Outputs::parts),
                             onnxc::Sequence<float>>);
static_assert(std::is_same_v<decltype(onnxc::models::seqs::Inputs::scale),
                             std::optional<onnxc::TensorIn<float>>>);
static_assert(!std::is_copy_constructible_v<onnxc::Tensor<float>>);
static_assert(std::is_nothrow_move_constructible_v<onnxc::Tensor<float>>);

void mlp() {
  const std::vector<float> features = {1.0f, 2.0f,  3.0f, 4.0f,  -1.0f, 0.5f,
                                       0.0f, 2.0f,  0.0f, 0.0f,  0.0f,  0.0f,
                                       0.25f, -0.75f, 1.5f, -2.0f};
  const float expected[4][3] = {{0.983321f, 0.016404f, 0.000275f},
                                {0.695453f, 0.257221f, 0.047325f},
                                {0.880642f, 0.073614f, 0.045744f},
                                {0.436011f, 0.185011f, 0.378978f}};
  onnxc::models::mlp model;
  for (int64_t n : {4, 2}) {
    // N comes from the input's shape.
    auto out = model(onnxc::TensorIn<float>(features.data(), {n, 4}));
    const onnxc::Tensor<float> &p = out.probabilities;
    std::printf("mlp N=%d: probabilities %s, row %d: %.6f %.6f %.6f\n", (int)n,
                shapeText(p.shape()).c_str(), (int)n - 1, p[(n - 1) * 3],
                p[(n - 1) * 3 + 1], p[(n - 1) * 3 + 2]);
    for (int64_t i = 0; i < n; ++i)
      for (int j = 0; j < 3; ++j)
        expect(close(p[i * 3 + j], expected[i][j]), "mlp probabilities");
  }
  // The named form, and an output outliving its struct (moved out).
  onnxc::Tensor<float> kept;
  {
    onnxc::models::mlp::Inputs in{onnxc::TensorIn<float>(features, {4, 4})};
    kept = model.run(in).probabilities;
  }
  expect(kept.size() == 12 && close(kept.to_vector()[11], 0.378978f),
         "moved output");
  std::printf("mlp run(Inputs): %d elements kept after the struct\n",
              (int)kept.size());
}

void cumsum() {
  // Two symbols (T, D) from one input.
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  onnxc::models::cumsum_scan model;
  auto out = model(onnxc::TensorIn<float>(x, {3, 2}));
  std::printf("cumsum_scan T=3 D=2: total %s = %g %g, prefix", 
              shapeText(out.total.shape()).c_str(), out.total[0], out.total[1]);
  for (float v : out.prefix)
    std::printf(" %g", v);
  std::printf(", suffix[0] %g %g\n", out.suffix[0], out.suffix[1]);
  expect(out.total[0] == 9 && out.total[1] == 12, "cumsum totals");
  expect(out.prefix.shape() == std::vector<int64_t>({3, 2}), "prefix shape");
}

void errors() {
  onnxc::models::mlp model;
  std::vector<float> wrong(10);
  try {
    model(onnxc::TensorIn<float>(wrong, {2, 5}));
    expect(false, "no exception for a wrong dim");
  } catch (const onnxc::Error &e) {
    std::printf("wrong dim: status %d: %s\n", (int)e.status(), e.what());
  }
  try {
    model(onnxc::TensorIn<float>(wrong, {3, 4}));
    expect(false, "no exception for a short vector");
  } catch (const onnxc::Error &e) {
    std::printf("short vector: status %d: %s\n", (int)e.status(), e.what());
  }
  try {
    // A std::runtime_error too.
    onnxc::models::mlp::Outputs out = model(onnxc::TensorIn<float>(wrong, {10}));
    (void)out;
    expect(false, "no exception for a wrong rank");
  } catch (const std::runtime_error &e) {
    std::printf("wrong rank: %s\n", e.what());
  }
}

void sequences() {
  onnxc::models::seqs model;
  std::vector<float> x(4 * 4);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = (float)i;
  std::vector<int64_t> lens = {1, 2, 1};
  std::vector<float> a(2 * 4, 1.5f), b(1 * 4, -2.0f);
  float scale = 3.0f;
  onnxc::SequenceIn<float> extra = {onnxc::TensorIn<float>(a, {2, 4}),
                                    onnxc::TensorIn<float>(b, {1, 4})};
  auto out = model(onnxc::TensorIn<float>(x, {4, 4}), lens, extra,
                   onnxc::TensorIn<float>(&scale, {1}));
  std::printf("seqs: parts: %d items:", (int)out.parts.size());
  for (int64_t i = 0; i < out.parts.size(); ++i)
    std::printf(" %s", shapeText(out.parts[i].shape()).c_str());
  std::printf(", item 1 starts at %g\n", out.parts[1][0]);
  expect(out.parts.size() == 3 && out.parts[2][3] == 15, "parts");
  std::printf("seqs: sums %g %g %g %g, joined %s [0] %g [8] %g, has_scale %d\n",
              out.sums[0], out.sums[1], out.sums[2], out.sums[3],
              shapeText(out.joined.shape()).c_str(), out.joined[0],
              out.joined[8], (int)out.has_scale[0]);
  expect(out.has_scale[0] == 1, "has_scale");
  expect(out.maybe.has_value() && out.maybe.value()[3] == out.sums[3],
         "maybe");
  std::printf("seqs: maybe: %s, %s\n", out.maybe ? "present" : "absent",
              shapeText(out.maybe.value().shape()).c_str());

  // An absent optional (left out: a trailing optional) and an empty
  // sequence; out-of-range items throw.
  auto none = model(onnxc::TensorIn<float>(x, {4, 4}), lens,
                    onnxc::SequenceIn<float>({onnxc::TensorIn<float>(b, {1, 4})}));
  std::printf("seqs absent scale: has_scale %d, joined %s\n",
              (int)none.has_scale[0], shapeText(none.joined.shape()).c_str());
  expect(none.has_scale[0] == 0, "absent scale");
  try {
    none.parts[3];
    expect(false, "no exception for item 3");
  } catch (const onnxc::Error &e) {
    std::printf("item 3: %s\n", e.what());
  }
  // A sequence item of the wrong shape: the runtime's message.
  std::vector<float> c(3);
  try {
    model(onnxc::TensorIn<float>(x, {4, 4}), lens,
          onnxc::SequenceIn<float>({onnxc::TensorIn<float>(c, {1, 3})}));
    expect(false, "no exception for a bad item");
  } catch (const onnxc::Error &e) {
    std::printf("bad item: status %d: %s\n", (int)e.status(), e.what());
  }
}

void training() {
  using Model = onnxc::models::linear_train;
  Model::Trainer trainer;
  std::printf("train: %d params:", (int)trainer.num_params());
  for (const std::string &name : trainer.param_names())
    std::printf(" %s", name.c_str());
  std::printf("\n");
  std::vector<float> w0 = trainer.param<float>("W").to_vector();
  std::vector<float> b0 = trainer.param<float>("b").to_vector();
  std::vector<float> x = {1, 2, 3, -1, 0.5f, 2};
  std::vector<float> label = {0.5f, 1, -1, 2};
  // One SGD step (lr 0.1) of the mean squared error, by hand.
  float y[2][2], g[2][2], loss = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      y[i][j] = b0[j];
      for (int k = 0; k < 3; ++k)
        y[i][j] += x[i * 3 + k] * w0[k * 2 + j];
      float d = y[i][j] - label[i * 2 + j];
      loss += d * d / 4;
      g[i][j] = 2 * d / 4;
    }
  Model::StepOutputs out = trainer.step({onnxc::TensorIn<float>(x, {2, 3}),
                                         onnxc::TensorIn<float>(label, {2, 2})});
  std::printf("train: loss %.5f (by hand %.5f)\n", out.loss[0], loss);
  expect(close(out.loss[0], loss), "loss");
  onnxc::TensorView<float> w = trainer.param<float>("W");
  bool wOk = true;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j) {
      float grad = 0;
      for (int i = 0; i < 2; ++i)
        grad += x[i * 3 + k] * g[i][j];
      wOk &= close(w[k * 2 + j], w0[k * 2 + j] - 0.1f * grad);
    }
  std::printf("train: W after one step %s\n", wOk ? "matches" : "DIFFERS");
  expect(wOk, "W after one step");
  for (int s = 0; s < 50; ++s)
    out = trainer.step({onnxc::TensorIn<float>(x, {2, 3}),
                        onnxc::TensorIn<float>(label, {2, 2})});
  std::printf("train: loss after 51 steps %s\n", out.loss[0] < loss / 10 ? "below a tenth" : "NOT LOWER");
  expect(out.loss[0] < loss / 10, "loss decreases");
  // Inference with the trained parameters; save, set, load.
  Model::InferOutputs pred = trainer.infer({onnxc::TensorIn<float>(x, {2, 3})});
  std::vector<unsigned char> saved = trainer.save_buffer();
  trainer.set_param("W", onnxc::TensorIn<float>(w0, {3, 2}));
  expect(trainer.param<float>("W")[0] == w0[0], "set_param");
  trainer.load_buffer(saved.data(), saved.size());
  Model::InferOutputs again = trainer.infer({onnxc::TensorIn<float>(x, {2, 3})});
  expect(again.y.to_vector() == pred.y.to_vector(), "load_buffer");
  std::printf("train: infer %s, save/set/load round trip %s\n",
              shapeText(pred.y.shape()).c_str(),
              again.y.to_vector() == pred.y.to_vector() ? "ok" : "DIFFERS");
  try {
    trainer.set_param("W", onnxc::TensorIn<float>(w0, {2, 3}));
    expect(false, "no exception for a wrong-shaped parameter");
  } catch (const onnxc::Error &e) {
    std::printf("set_param wrong shape: status %d: %s\n", (int)e.status(),
                e.what());
  }
  try {
    trainer.param<double>("W");
    expect(false, "no exception for a wrong element type");
  } catch (const onnxc::Error &e) {
    std::printf("param<double>: %s\n", e.what());
  }
  Model::Trainer moved = std::move(trainer);
  std::printf("train: moved state has %d params\n", (int)moved.num_params());
}

} // namespace

int main() {
  mlp();
  cumsum();
  errors();
  sequences();
  training();
  std::printf("%s\n", failures ? "FAILED" : "OK");
  return failures != 0;
}

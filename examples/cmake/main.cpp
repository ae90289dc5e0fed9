// Two models compiled by onnxc_add_model into one program, through their
// generated C++ classes (mlp.hpp, cumsum.hpp). Exits non-zero on a wrong
// result.
#include "cumsum.hpp"
#include "mlp.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  int failures = 0;

  // The MLP on two rows: the batch size N comes from the input's shape.
  std::vector<float> features = {1.0f, 2.0f, 3.0f, 4.0f,
                                 0.25f, -0.75f, 1.5f, -2.0f};
  onnxc::models::mlp mlp;
  auto out = mlp(onnxc::TensorIn<float>(features, {2, 4}));
  const float expected[3] = {0.436011f, 0.185011f, 0.378978f};
  std::printf("mlp: probabilities [%d, %d], row 1:", (int)out.probabilities.dim(0),
              (int)out.probabilities.dim(1));
  for (int j = 0; j < 3; ++j) {
    std::printf(" %.6f", out.probabilities[3 + j]);
    failures += std::fabs(out.probabilities[3 + j] - expected[j]) > 1e-4f;
  }
  std::printf("\n");

  // Running sums over T = 3 rows of D = 2 columns.
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  auto sums = onnxc::models::cumsum()(onnxc::TensorIn<float>(x, {3, 2}));
  std::printf("cumsum: total %g %g\n", sums.total[0], sums.total[1]);
  failures += sums.total[0] != 9 || sums.total[1] != 12;

  // A wrong shape is an exception with the runtime's message.
  try {
    mlp(onnxc::TensorIn<float>(x, {2, 3}));
    ++failures;
  } catch (const onnxc::Error &e) {
    std::printf("error: %s\n", e.what());
  }
  std::printf("%s\n", failures ? "FAILED" : "OK");
  return failures != 0;
}

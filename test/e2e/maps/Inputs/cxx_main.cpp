// Maps through the C++ classes of maps.hpp (docs/embedding.md): MapIn for
// the map input, MapSequence<const char *, float> for ZipMap's output.
#include "maps.hpp"
#include <cstdio>
#include <vector>
int main() {
  std::vector<float> x = {3.0f, 0.0f, 0.0f, 3.0f};
  std::vector<const char *> keys = {"c", "a"};
  std::vector<float> values = {4.0f, 0.5f};
  onnxc::models::maps model;
  auto out = model(onnxc::TensorIn<float>(x, {2, 2}),
                   onnxc::MapIn<const char *, float>(keys, values));
  for (int64_t i = 0; i < out.output_probability.size(); ++i) {
    auto map = out.output_probability[i];
    std::printf("map %lld:", (long long)i);
    for (int64_t j = 0; j < map.size(); ++j)
      std::printf(" %s=%.3f", map.keys()[j], map.values()[j]);
    std::printf("\n");
  }
  std::printf("y: %g %g %g\n", out.y[0], out.y[1], out.y[2]);
  try {
    std::vector<const char *> twice = {"a", "a"};
    model(onnxc::TensorIn<float>(x, {2, 2}),
          onnxc::MapIn<const char *, float>(twice, values));
  } catch (const onnxc::Error &e) {
    std::printf("error: %s\n", e.what());
  }
  return 0;
}

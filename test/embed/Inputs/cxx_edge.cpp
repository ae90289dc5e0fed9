// Edge cases of M.hpp (test/embed/cxx-wrapper.test): a model named like
// the nested struct Inputs (its class becomes Inputs_model) and without
// inputs; a model without outputs.
#include "Inputs.hpp"
#include "noout.hpp"

#include <cstdio>

int main() {
  onnxc::models::Inputs_model constant;
  auto a = constant();
  auto b = constant.run({});
  std::printf("no inputs: y = %g %g, run({}) %d elements\n", a.y[0], a.y[1],
              (int)b.y.size());
  float x[2] = {1, 2};
  onnxc::models::noout sink;
  auto none = sink(onnxc::TensorIn<float>(x, {2}));
  (void)none;
  std::printf("no outputs: ran, %d outputs\n", (int)onnxc::models::noout::num_outputs);
  return 0;
}

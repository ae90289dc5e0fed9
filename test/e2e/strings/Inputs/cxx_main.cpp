// String tensors through the C++ classes of words.hpp (docs/embedding.md).
#include "words.hpp"
#include <cstdio>
#include <cstring>
int main() {
  const char *s[2] = {"one", "zz"};
  float x[2] = {1.5f, 2.0f};
  onnxc::models::words m;
  auto out = m(onnxc::TensorIn<const char *>(s, {2}), onnxc::TensorIn<float>(x, {2}));
  std::printf("%s %s %s %lld\n", out.joined[0], out.joined[1], out.upper[1], (long long)out.code[0]);
  return std::strcmp(out.joined[0], "one:1.5") != 0;
}

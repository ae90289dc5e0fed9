// The C++ view of the generated headers: both in one translation unit, the
// struct wrappers and the plain C entry points.
#include "addone.h"
#include "names.h"

#include <cstdio>

int main() {
  using onnxc_model::addone;
  float x[8] = {1, -2, 3, 4, -5, 6, 7, 8}, y[8];
  int64_t k[1] = {2};
  uint8_t z[2];
  static_assert(addone::kNumInputs == 2 && onnxc_model::names::kNumOutputs == 7,
                "counts");
  onnxc_status s = addone::run_typed(2, x, k, y, z);
  std::printf("C++: %s %s status %d Y[0] %g Z %d %d\n", addone::info()->name,
              addone_Y_NAME, (int)s, y[0], z[0], z[1]);
  onnxc_tensor in[2] = {}, out[2] = {};
  in[0].data = x, in[0].rank = 2, in[0].shape[0] = 2, in[0].shape[1] = 4;
  in[0].dtype = ONNXC_DTYPE_FLOAT;
  in[1].data = k, in[1].rank = 1, in[1].shape[0] = 1;
  in[1].dtype = ONNXC_DTYPE_FLOAT;
  s = addone::run(in, 2, out, 2);
  std::printf("C++: status %d: %s\n", (int)s, onnxc_last_error());
  return 0;
}

/* Two model libraries, each with its own copy of the runtime, linked into
 * one program: the last error is right whichever library failed. */
#include "onnxc/runtime.h"

#include <stdio.h>

const onnxc_model_info *first_info(void);
onnxc_status first_run(const onnxc_tensor *, int32_t, onnxc_tensor *, int32_t);
onnxc_status second_run(const onnxc_tensor *, int32_t, onnxc_tensor *, int32_t);

int main(void) {
  float x[8] = {0};
  int64_t k = -1;
  onnxc_tensor in[2] = {{0}}, out[2] = {{0}};
  in[0].data = x, in[0].rank = 2, in[0].shape[0] = 2, in[0].shape[1] = 4;
  in[0].dtype = ONNXC_DTYPE_FLOAT;
  in[1].data = &k, in[1].rank = 1, in[1].shape[0] = 1;
  in[1].dtype = ONNXC_DTYPE_INT64;
  printf("second: %d %s\n", (int)second_run(in, 2, out, 2), onnxc_last_error());
  in[0].shape[1] = 5;
  printf("first: %d %s\n", (int)first_run(in, 2, out, 2), onnxc_last_error());
  in[0].shape[1] = 4;
  k = 3;
  printf("second: %d\n", (int)second_run(in, 2, out, 2));
  printf("Y[0] = %g\n", ((float *)out[0].data)[0]);
  onnxc_tensor_release(&out[0]);
  onnxc_tensor_release(&out[1]);
  return 0;
}

/* A stand-in for a model library whose code calls a runtime kernel large
 * enough to be split over threads (parallel-dlclose.test). */
#include "onnxc/runtime_abi.h"

#include <stdlib.h>

/* C = A * B, 256 x 256 x 256, with A = B = 1: every element is 256. */
int product_is_right(void) {
  enum { N = 256 };
  float *a = malloc(sizeof(float) * N * N), *c = malloc(sizeof(float) * N * N);
  int i, ok = 1;
  for (i = 0; i < N * N; ++i)
    a[i] = 1.0f;
  onnxc_rt_sgemm(N, N, N, a, N, 1, a, N, 1, c, N, 1, 0);
  for (i = 0; i < N * N; ++i)
    ok &= c[i] == (float)N;
  free(a);
  free(c);
  return ok;
}

/* A caller of a model library built with `onnxc --sanitize=address`
 * (sanitize.test), linked with -fsanitize=address. The model is
 * test/e2e/hostile/Inputs/chain.onnxtxt: x float[N] -> a = x + 1, b = 2x,
 * c = a * b.
 *
 *   asan_main good       N = 8 on buffers of 8 floats: no report, "good: ok"
 *   asan_main read-past  N = 8 but x holds 4 floats: the model reads past
 *                        the caller's input (an ASan report, exit 1)
 *   asan_main write-past N = 8 but c holds 4 floats: the model's result is
 *                        written past the caller's output (a report)
 * Buffers come from malloc so that ASan knows their bounds exactly. */
#include "chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "good";
  int64_t n = 8, i;
  size_t nx = strcmp(mode, "read-past") == 0 ? 4 : 8;
  size_t nc = strcmp(mode, "write-past") == 0 ? 4 : 8;
  float *x = (float *)malloc(nx * sizeof(float));
  float *a = (float *)malloc(8 * sizeof(float));
  float *b = (float *)malloc(8 * sizeof(float));
  float *c = (float *)malloc(nc * sizeof(float));
  onnxc_status s;
  int ok = 1;
  for (i = 0; i < (int64_t)nx; ++i)
    x[i] = (float)i;
  s = chain_run_typed(n, x, a, b, c);
  for (i = 0; i < n && s == ONNXC_OK; ++i)
    ok &= c[i] == (x[i] + 1.0f) * (2.0f * x[i]);
  printf("%s: %s %s\n", mode, onnxc_status_string(s), ok ? "ok" : "WRONG");
  free(x);
  free(a);
  free(b);
  free(c);
  return s == ONNXC_OK && ok ? 0 : 1;
}

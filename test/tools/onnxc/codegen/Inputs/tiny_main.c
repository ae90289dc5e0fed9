/* Runs a compiled Inputs/tiny.onnxtxt (y = Relu(MatMul(x, w) + b), x is
 * float[N, 3]) through its generated header: the typed entry point at two
 * sizes of N, then the generic one with a wrong shape, dtype and count.
 * Prints what it gets; the lit tests check the numbers and messages. */
#include "tiny.h"

#include <stdio.h>
#include <string.h>

static const float kW[3 * 2] = {1.0f, 2.0f, -1.0f, 0.5f, 2.0f, -3.0f};
static const float kB[2] = {0.5f, -1.0f};

static int run(int64_t n) {
  float x[5 * 3], y[5 * 2];
  int64_t i;
  onnxc_status s;
  for (i = 0; i < n; ++i) {
    x[3 * i + 0] = (float)i;
    x[3 * i + 1] = -1.0f;
    x[3 * i + 2] = 0.5f * (float)i;
  }
  memset(y, 0xff, sizeof y); /* NaN: every element must be written */
  s = tiny_run_typed(n, x, kW, kB, y);
  printf("N=%d: %s", (int)n, onnxc_status_string(s));
  if (s != ONNXC_OK) {
    printf(" [%s]\n", onnxc_last_error());
    return 1;
  }
  for (i = 0; i < n * 2; ++i)
    printf(" %g", y[i]);
  printf("\n");
  return 0;
}

/* One generic call with input 0 replaced by `x0` and `count` inputs. */
static void run_generic(const char *what, const onnxc_tensor *x0, int32_t count) {
  onnxc_tensor in[3], out[1];
  onnxc_status s;
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  in[0] = *x0;
  in[1].data = (void *)(uintptr_t)kW;
  in[1].rank = 2;
  in[1].shape[0] = 3;
  in[1].shape[1] = 2;
  in[1].dtype = ONNXC_DTYPE_FLOAT;
  in[2].data = (void *)(uintptr_t)kB;
  in[2].rank = 1;
  in[2].shape[0] = 2;
  in[2].dtype = ONNXC_DTYPE_FLOAT;
  s = tiny_run(in, count, out, 1);
  /* Brackets show that the message is exactly one line. */
  printf("%s: %d %s [%s]\n", what, (int)s, onnxc_status_string(s),
         s == ONNXC_OK ? "" : onnxc_last_error());
  onnxc_tensor_release(&out[0]);
}

int main(void) {
  static const double kX[2 * 3] = {0};
  onnxc_tensor x;
  int failures = 0;

  failures += run(2);
  failures += run(5);

  memset(&x, 0, sizeof x);
  x.data = (void *)(uintptr_t)kX;
  x.rank = 2;
  x.shape[0] = 2;
  x.shape[1] = 3;
  x.dtype = ONNXC_DTYPE_FLOAT;
  run_generic("good", &x, 3);
  x.shape[1] = 4;
  run_generic("shape", &x, 3);
  x.shape[1] = 3;
  x.rank = 3;
  x.shape[2] = 1;
  run_generic("rank", &x, 3);
  x.rank = 2;
  x.dtype = ONNXC_DTYPE_DOUBLE;
  run_generic("dtype", &x, 3);
  x.dtype = ONNXC_DTYPE_FLOAT;
  run_generic("count", &x, 2);
  return failures;
}

/* Two different models in one program (test/embed/two-models.test): the
 * example MLP (matrix products, the runtime's GEMM kernels) and the
 * cumulative sums by Scan. Linked as two static libraries or two shared
 * ones; both headers in one translation unit. Checks each model's outputs,
 * an error of one between runs of the other, and both models run at once
 * from two threads over the runtime's shared thread pool. Prints one line
 * per check; exits non-zero on any failure. */
#include "cumsum_scan.h"
#include "mlp.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const float kFeatures[4][4] = {{1.0f, 2.0f, 3.0f, 4.0f},
                                      {-1.0f, 0.5f, 0.0f, 2.0f},
                                      {0.0f, 0.0f, 0.0f, 0.0f},
                                      {0.25f, -0.75f, 1.5f, -2.0f}};
/* numpy's probabilities for kFeatures (examples/mlp/main.c). */
static const float kProbs[4][3] = {{0.983321f, 0.016404f, 0.000275f},
                                   {0.695453f, 0.257221f, 0.047325f},
                                   {0.880642f, 0.073614f, 0.045744f},
                                   {0.436011f, 0.185011f, 0.378978f}};

static int close_to(float a, float b) { return a - b < 1e-4f && b - a < 1e-4f; }

/* The MLP on the 4 rows; 0 when every probability matches. */
static int run_mlp(void) {
  float probs[4][3];
  int i, j;
  if (mlp_run_typed(4, &kFeatures[0][0], &probs[0][0]) != ONNXC_OK)
    return 1;
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 3; ++j)
      if (!close_to(probs[i][j], kProbs[i][j]))
        return 1;
  return 0;
}

/* Prefix and suffix sums of a T x D matrix against plain loops. */
static int run_cumsum(int64_t t, int64_t d) {
  float x[64], total[8], prefix[64], suffix[64], run[8];
  int64_t i, j;
  for (i = 0; i < t * d; ++i)
    x[i] = (float)((i * 7) % 5) - 1.5f;
  if (cumsum_scan_run_typed(t, d, x, total, prefix, suffix) != ONNXC_OK)
    return 1;
  for (j = 0; j < d; ++j)
    run[j] = 0;
  for (i = 0; i < t; ++i)
    for (j = 0; j < d; ++j) {
      run[j] += x[i * d + j];
      if (!close_to(prefix[i * d + j], run[j]))
        return 1;
    }
  for (j = 0; j < d; ++j)
    if (!close_to(total[j], run[j]) || !close_to(suffix[j], run[j]))
      return 1;
  return 0;
}

static void *mlp_thread(void *arg) {
  int k, *bad = (int *)arg;
  for (k = 0; k < 200; ++k)
    *bad += run_mlp();
  return 0;
}

static void *cumsum_thread(void *arg) {
  int k, *bad = (int *)arg;
  for (k = 0; k < 200; ++k)
    *bad += run_cumsum(1 + k % 8, 1 + k % 7);
  return 0;
}

int main(void) {
  int failures = 0, bad_mlp = 0, bad_cumsum = 0;
  float wrong[2 * 5] = {0};
  onnxc_tensor in, out;
  pthread_t a, b;

  printf("models: %s, %s\n", mlp_info()->name, cumsum_scan_info()->name);
  failures += run_mlp();
  printf("mlp: %s\n", failures ? "MISMATCH" : "ok");
  failures += run_cumsum(4, 3);
  printf("cumsum_scan: %s\n", failures ? "MISMATCH" : "ok");

  /* A failure of one model, the other one right after. */
  memset(&in, 0, sizeof in);
  memset(&out, 0, sizeof out);
  in.data = wrong, in.rank = 2, in.shape[0] = 2, in.shape[1] = 5;
  in.dtype = ONNXC_DTYPE_FLOAT;
  printf("mlp wrong shape: %d %s\n", (int)mlp_run(&in, 1, &out, 1),
         onnxc_last_error());
  failures += run_cumsum(2, 2);
  printf("cumsum_scan after: %s\n", failures ? "MISMATCH" : "ok");

  /* Both at once, the products split over the shared pool (the test sets
   * ONNXC_NUM_THREADS=2 and ONNXC_PARALLEL_MIN_FLOP=0). */
  pthread_create(&a, 0, mlp_thread, &bad_mlp);
  pthread_create(&b, 0, cumsum_thread, &bad_cumsum);
  pthread_join(a, 0);
  pthread_join(b, 0);
  printf("concurrent (%d threads): mlp %d bad, cumsum_scan %d bad\n",
         (int)onnxc_get_num_threads(), bad_mlp, bad_cumsum);
  failures += bad_mlp + bad_cumsum;
  printf("%s\n", failures ? "FAILED" : "OK");
  return failures != 0;
}

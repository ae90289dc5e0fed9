/* Runs the compiled example model (mlp.so, through its generated header
 * mlp.h) from C: two batch sizes through the typed entry point, then a
 * wrong-shaped call through the generic one. Exits non-zero on any failure.
 *
 *   build/bin/onnxc examples/mlp/mlp.onnxtxt -o DIR/mlp.so   (writes mlp.h too)
 *   cc -std=c99 -Wall -Wextra -Werror main.c -IDIR DIR/mlp.so \
 *      -Wl,-rpath,DIR -o main
 *
 * .ci/bootstrap does exactly this in build/examples/mlp/.
 */
#include "mlp.h"

#include <stdio.h>
#include <string.h>

#define MAX_BATCH 4

/* Four feature rows and the probabilities the model should give for them
 * (computed with numpy from the weights in mlp.onnxtxt). */
static const float kFeatures[MAX_BATCH][mlp_features_DIM1] = {
    {1.0f, 2.0f, 3.0f, 4.0f},
    {-1.0f, 0.5f, 0.0f, 2.0f},
    {0.0f, 0.0f, 0.0f, 0.0f},
    {0.25f, -0.75f, 1.5f, -2.0f}};
static const float kExpected[MAX_BATCH][mlp_probabilities_DIM1] = {
    {0.983321f, 0.016404f, 0.000275f},
    {0.695453f, 0.257221f, 0.047325f},
    {0.880642f, 0.073614f, 0.045744f},
    {0.436011f, 0.185011f, 0.378978f}};

/* Runs the model on the first `n` rows; returns the number of failures. */
static int run_batch(int64_t n) {
  float probs[MAX_BATCH][mlp_probabilities_DIM1];
  int failures = 0;
  int64_t i;
  int j;
  onnxc_status s = mlp_run_typed(n, &kFeatures[0][0], &probs[0][0]);
  if (s != ONNXC_OK) {
    printf("N=%d: %s: %s\n", (int)n, onnxc_status_string(s), onnxc_last_error());
    return 1;
  }
  for (i = 0; i < n; ++i) {
    int bad = 0;
    printf("N=%d row %d:", (int)n, (int)i);
    for (j = 0; j < mlp_probabilities_DIM1; ++j) {
      float diff = probs[i][j] - kExpected[i][j];
      printf(" %.6f", probs[i][j]);
      if (!(diff < 1e-4f && diff > -1e-4f)) /* also catches NaN */
        bad = 1;
    }
    printf("%s\n", bad ? "  (MISMATCH)" : "");
    failures += bad;
  }
  return failures;
}

/* Calls mlp_run with `input` and expects `want`; returns 0 when it got it. */
static int expect_error(const char *what, const onnxc_tensor *input,
                        onnxc_status want) {
  onnxc_tensor output;
  onnxc_status s;
  memset(&output, 0, sizeof output); /* data = NULL: model-allocated */
  s = mlp_run(input, 1, &output, 1);
  printf("%s: %s: %s\n", what, onnxc_status_string(s), onnxc_last_error());
  onnxc_tensor_release(&output);
  if (s != want) {
    printf("  expected %s\n", onnxc_status_string(want));
    return 1;
  }
  return 0;
}

int main(void) {
  onnxc_tensor bad;
  int failures = 0;
  const onnxc_model_info *info = mlp_info();

  printf("model '%s': %d input(s), %d output(s), symbolic dim '%s'\n",
         info->name, (int)info->num_inputs, (int)info->num_outputs,
         info->num_symbols > 0 ? info->symbol_names[0] : "");
  failures += run_batch(1);
  failures += run_batch(MAX_BATCH);

  /* The generic entry point checks every input before running: here
   * 'features' is float[2, 5] where the model wants float[N, 4]. */
  memset(&bad, 0, sizeof bad);
  bad.data = (void *)(uintptr_t)&kFeatures[0][0];
  bad.rank = 2;
  bad.shape[0] = 2;
  bad.shape[1] = 5;
  bad.dtype = ONNXC_DTYPE_FLOAT;
  failures += expect_error("float[2, 5]", &bad, ONNXC_ERROR_SHAPE);
  bad.shape[1] = mlp_features_DIM1;
  bad.dtype = ONNXC_DTYPE_DOUBLE;
  failures += expect_error("double[2, 4]", &bad, ONNXC_ERROR_DTYPE);

  printf("%s\n", failures ? "FAILED" : "OK");
  return failures ? 1 : 0;
}

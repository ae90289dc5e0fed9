/* Uses two generated model headers in one translation unit and runs the
 * typed entry point of one of them against a hand-written model library
 * (test/tools/onnxc-run/Inputs/fake_model.c, same signature as addone). */
#include "addone.h"
#include "addone.h" /* twice: guarded */
#include "names.h"

#include <stdio.h>

static void print(onnxc_status s, const float *y, const uint8_t *z) {
  int i;
  printf("status %d (%s)", (int)s, onnxc_status_string(s));
  if (s == ONNXC_OK) {
    printf(": Y =");
    for (i = 0; i < 8; ++i)
      printf(" %g", y[i]);
    if (z)
      printf(", Z = %d %d", z[0], z[1]);
  } else {
    printf(": %s", onnxc_last_error());
  }
  printf("\n");
}

int main(void) {
  float x[addone_X_DIM1 * 2] = {1, -2, 3, 4, -5, 6, 7, 8};
  int64_t k[addone_K_NUMEL] = {1};
  float y[8];
  uint8_t z[2];
  onnxc_status s;
  const onnxc_model_info *info = addone_info();

  printf("%s: %d inputs (%s, %s), %d outputs, input %d is '%s' of rank %d\n",
         info->name, addone_NUM_INPUTS, addone_X_NAME, addone_K_NAME,
         addone_NUM_OUTPUTS, addone_Y_INDEX, info->inputs[addone_X_INDEX].name,
         addone_X_RANK);
  s = addone_run_typed(2, x, k, y, z);
  print(s, y, z);
  /* A NULL output is computed and discarded. */
  s = addone_run_typed(2, x, k, y, NULL);
  print(s, y, NULL);
  /* Errors come back as a status and a message. */
  s = addone_run_typed(-1, x, k, y, z);
  print(s, y, z);
  k[0] = -1;
  s = addone_run_typed(2, x, k, y, z);
  print(s, y, z);
  (void)names_NUM_INPUTS;
  return 0;
}

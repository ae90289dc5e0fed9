/* Runs Inputs/half.onnxtxt (double -> float16) and prints the bits. */
#include "half.h"

#include <stdio.h>

int main(void) {
  const double x[4] = {1.0, 0.5, -2.0, 65504.0};
  uint16_t y[4];
  onnxc_status s = half_run_typed(4, x, y);
  printf("%d: %04x %04x %04x %04x\n", (int)s, y[0], y[1], y[2], y[3]);
  return s != ONNXC_OK;
}

/* The MLP as a shared library (TYPE SHARED) and the Scan model as an
 * object (TYPE OBJECT), through their C headers. */
#include "cumsum_o.h"
#include "mlp_dyn.h"

#include <stdio.h>

int main(void) {
  const float features[2 * 4] = {1.0f, 2.0f, 3.0f, 4.0f,
                                 0.25f, -0.75f, 1.5f, -2.0f};
  float probs[2 * 3];
  onnxc_status s = mlp_dyn_run_typed(2, features, probs);
  if (s != ONNXC_OK) {
    printf("mlp_dyn: %s\n", onnxc_last_error());
    return 1;
  }
  printf("mlp_dyn: row 1: %.6f %.6f %.6f\n", probs[3], probs[4], probs[5]);

  {
    const float x[3 * 2] = {1, 2, 3, 4, 5, 6};
    float total[2], prefix[3 * 2], suffix[3 * 2];
    s = cumsum_o_run_typed(3, 2, x, total, prefix, suffix);
    if (s != ONNXC_OK) {
      printf("cumsum_o: %s\n", onnxc_last_error());
      return 1;
    }
    printf("cumsum_o: total %g %g\n", total[0], total[1]);
  }
  return 0;
}

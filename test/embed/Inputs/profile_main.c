/* The profiling and dump APIs of runtime.h from C, on the example MLP
 * compiled with onnxc --profile (PROFILE defined) or --debug-dump (DUMP
 * defined): test/embed/profile-api.test builds it for the host and for
 * aarch64 (qemu).
 *
 *   profile_main TRACE BAD_PATH    record 3 runs into TRACE, print the
 *                                  summary; then start on BAD_PATH: a status
 *   profile_main DIR BAD_DIR       dump one run into DIR; then BAD_DIR
 */
#include "mlp.h"

#include <stdio.h>

static const float kFeatures[2][mlp_features_DIM1] = {{1.0f, 2.0f, 3.0f, 4.0f},
                                                      {0.0f, 0.0f, 0.0f, 0.0f}};

static int run(void) {
  float probs[2][mlp_probabilities_DIM1];
  onnxc_status s = mlp_run_typed(2, &kFeatures[0][0], &probs[0][0]);
  if (s != ONNXC_OK) {
    printf("run: %s: %s\n", onnxc_status_string(s), onnxc_last_error());
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  onnxc_status s;
  if (argc != 3)
    return 2;
#ifdef PROFILE
  {
    onnxc_profile_entry entries[16];
    int32_t n, i;
    s = onnxc_profile_start(argv[1]);
    printf("start: %s\n", onnxc_status_string(s));
    for (i = 0; i < 3; ++i)
      if (run())
        return 1;
    s = onnxc_profile_stop();
    printf("stop: %s\n", onnxc_status_string(s));
    n = onnxc_profile_summary(entries, 16);
    for (i = 0; i < n && i < 16; ++i)
      printf("site %s (%s): %lld calls, %s\n", entries[i].name, entries[i].op,
             (long long)entries[i].calls,
             entries[i].total_ns > 0 ? "time > 0" : "no time");
    s = onnxc_profile_start(argv[2]);
    printf("start bad: %s: %s\n", onnxc_status_string(s), onnxc_last_error());
  }
#endif
#ifdef DUMP
  s = onnxc_debug_dump_dir(argv[1]);
  printf("dir: %s\n", onnxc_status_string(s));
  if (run())
    return 1;
  s = onnxc_debug_dump_dir(argv[2]);
  printf("dir bad: %s: %s\n", onnxc_status_string(s), onnxc_last_error());
#endif
  return 0;
}

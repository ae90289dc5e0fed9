/* dlopen(RTLD_LOCAL) argv[2] copies of one model library (argv[1]/mN.so,
 * as Python's ctypes loads libraries): each has its own runtime and its
 * own thread-locals (runtime.c), so each one runs and reports its own
 * error. test/embed/many-libraries.test. */
#include "onnxc/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef onnxc_status (*run_fn)(const onnxc_tensor *, int32_t, onnxc_tensor *,
                               int32_t);
typedef const char *(*last_error_fn)(void);

int main(int argc, char **argv) {
  int n = argc > 2 ? atoi(argv[2]) : 0, i, bad = 0;
  float x[2 * 3] = {0, -1, 0, 1, -1, 0.5f};
  float w[3 * 2] = {1, 2, -1, 0.5f, 2, -3}, b[2] = {0.5f, -1};
  for (i = 0; i < n; ++i) {
    char path[4096];
    void *h;
    run_fn run;
    last_error_fn last_error;
    onnxc_tensor in[3], out[1];
    snprintf(path, sizeof path, "%s/m%d.so", argv[1], i);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("library %d: %s\n", i, dlerror());
      return 1;
    }
    run = (run_fn)dlsym(h, "tiny_run");
    last_error = (last_error_fn)dlsym(h, "onnxc_last_error");
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    in[0].data = x, in[0].rank = 2, in[0].shape[0] = 2, in[0].shape[1] = 3;
    in[1].data = w, in[1].rank = 2, in[1].shape[0] = 3, in[1].shape[1] = 2;
    in[2].data = b, in[2].rank = 1, in[2].shape[0] = 2;
    in[0].dtype = in[1].dtype = in[2].dtype = ONNXC_DTYPE_FLOAT;
    /* A wrong count: this library's own message. */
    if (run(in, 2, out, 1) != ONNXC_ERROR_INVALID_ARGUMENT ||
        strcmp(last_error(), "model 'tiny': expected 3 inputs, got 2") != 0)
      ++bad;
    if (run(in, 3, out, 1) != ONNXC_OK || ((float *)out[0].data)[2] != 3.5f)
      ++bad;
    ((void (*)(onnxc_tensor *))dlsym(h, "onnxc_tensor_release"))(&out[0]);
  }
  printf("%d libraries loaded and run, %d bad\n", n, bad);
  return bad != 0;
}

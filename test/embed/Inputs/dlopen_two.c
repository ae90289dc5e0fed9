/* Two model libraries loaded with dlopen(RTLD_LOCAL) into one process
 * (test/embed/two-models.test), as Python's ctypes loads them: each
 * library binds to its own copy of the runtime, so each one's last error
 * is looked up in that library. argv[1]: the MLP, argv[2]: cumsum_scan.
 * Prints the outputs and errors; exits non-zero on a failure. */
#include "onnxc/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef onnxc_status (*run_fn)(const onnxc_tensor *, int32_t, onnxc_tensor *,
                               int32_t);
typedef const char *(*last_error_fn)(void);
typedef void (*release_fn)(onnxc_tensor *);

struct lib {
  void *handle;
  run_fn run;
  last_error_fn last_error;
  release_fn release;
};

static int open_lib(struct lib *l, const char *path, const char *run) {
  l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!l->handle) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  l->run = (run_fn)dlsym(l->handle, run);
  l->last_error = (last_error_fn)dlsym(l->handle, "onnxc_last_error");
  l->release = (release_fn)dlsym(l->handle, "onnxc_tensor_release");
  return !l->run || !l->last_error || !l->release;
}

static onnxc_tensor tensor2d(float *data, int64_t rows, int64_t cols) {
  onnxc_tensor t;
  memset(&t, 0, sizeof t);
  t.data = data, t.rank = 2, t.shape[0] = rows, t.shape[1] = cols;
  t.dtype = ONNXC_DTYPE_FLOAT;
  return t;
}

int main(int argc, char **argv) {
  struct lib mlp, cumsum;
  float features[8] = {1, 2, 3, 4, 0.25f, -0.75f, 1.5f, -2.0f};
  float x[6] = {1, 2, 3, 4, 5, 6};
  onnxc_tensor in, out[3];
  onnxc_status s;
  int k;
  if (argc != 3 || open_lib(&mlp, argv[1], "mlp_run") ||
      open_lib(&cumsum, argv[2], "cumsum_scan_run"))
    return 1;
  printf("runtime copies: %s\n",
         mlp.last_error != cumsum.last_error ? "two" : "one");

  in = tensor2d(features, 2, 4);
  memset(out, 0, sizeof out);
  s = mlp.run(&in, 1, out, 1);
  printf("mlp: %d, row 1: %.6f %.6f %.6f\n", (int)s,
         ((float *)out[0].data)[3], ((float *)out[0].data)[4],
         ((float *)out[0].data)[5]);
  mlp.release(&out[0]);

  in = tensor2d(x, 3, 2);
  s = cumsum.run(&in, 1, out, 3);
  printf("cumsum_scan: %d, prefix:", (int)s);
  for (k = 0; k < 6; ++k)
    printf(" %g", ((float *)out[1].data)[k]);
  printf("\n");
  for (k = 0; k < 3; ++k)
    cumsum.release(&out[k]);

  /* An error in one library; the other's message is untouched. */
  in = tensor2d(features, 2, 3);
  s = mlp.run(&in, 1, out, 1);
  printf("mlp wrong shape: %d [%s] cumsum_scan's last error: [%s]\n", (int)s,
         mlp.last_error(), cumsum.last_error());
  in = tensor2d(x, 3, 2);
  s = cumsum.run(&in, 1, out, 2);
  printf("cumsum_scan wrong count: %d [%s] mlp's last error: [%s]\n", (int)s,
         cumsum.last_error(), mlp.last_error());
  dlclose(mlp.handle);
  dlclose(cumsum.handle);
  return 0;
}

/* Loads a library that links the runtime, runs a kernel on 2 threads and
 * unloads it, three times: the pool's workers start with the library and
 * must be gone when dlclose returns (their code is unmapped then). */
#define _POSIX_C_SOURCE 200809L
#include "onnxc/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long threads_now(void) {
  char line[256];
  long n = -1;
  FILE *f = fopen("/proc/self/status", "r");
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "Threads:", 8) == 0)
      n = strtol(line + 8, NULL, 10);
  if (f)
    fclose(f);
  return n;
}

int main(int argc, char **argv) {
  int round;
  if (argc != 2)
    return 2;
  for (round = 0; round < 3; ++round) {
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    onnxc_status (*set_threads)(int32_t);
    int (*product)(void);
    long during;
    if (!lib) {
      printf("dlopen: %s\n", dlerror());
      return 1;
    }
    *(void **)&set_threads = dlsym(lib, "onnxc_set_num_threads");
    *(void **)&product = dlsym(lib, "product_is_right");
    if (!set_threads || !product || set_threads(2) != ONNXC_OK)
      return 1;
    printf("round %d: product %s", round, product() ? "right" : "wrong");
    during = threads_now();
    dlclose(lib);
    printf(", threads %ld while loaded, %ld after dlclose\n", during,
           threads_now());
  }
  return 0;
}

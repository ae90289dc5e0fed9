/* Memory and the API boundary of compiled models; links the
 * libraries of Inputs/chain.onnxtxt (x float[N] -> a = x + 1, b = 2x,
 * c = a * b: three buffers of N floats) and examples/mlp.
 *
 *   memory_main api     a valid call with a shape whose byte size wraps
 *   memory_main oom     a 256 MiB input (run it under ulimit -v 1000000)
 *   memory_main limit   onnxc_set_memory_limit below what a call needs
 *   memory_main leak    100 calls failing on the limit leave the heap as
 *                       one did (mallinfo2)
 * Every mode then makes a good call. Prints one line per call: the status
 * and the message. */
#include "chain.h"
#include "mlp.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int good_call(void) {
  float x[4] = {0, 1, 2, 3}, a[4], b[4], c[4];
  onnxc_status s = chain_run_typed(4, x, a, b, c);
  int ok = s == ONNXC_OK && c[3] == 4.0f * 6.0f;
  printf("good: %s\n", ok ? "ok" : "WRONG");
  return ok;
}

static onnxc_status run_chain(int64_t n, const float *x) {
  onnxc_tensor in, out[3];
  onnxc_status s;
  int k;
  memset(&in, 0, sizeof in);
  memset(out, 0, sizeof out);
  in.data = (void *)x;
  in.rank = 1;
  in.shape[0] = n;
  in.dtype = ONNXC_DTYPE_FLOAT;
  s = chain_run(&in, 1, out, 3);
  for (k = 0; k < 3; ++k)
    onnxc_tensor_release(&out[k]);
  return s;
}

static void report(const char *what, onnxc_status s) {
  printf("%s: %s: %s\n", what, onnxc_status_string(s),
         s == ONNXC_OK ? "" : onnxc_last_error());
}

static size_t heap_in_use(void) {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "api") == 0) {
    /* 2^60 x 4 floats: 2^62 elements fit an int64, their 2^64 bytes do
     * not; the data pointer is never read. */
    float dummy[4] = {0};
    onnxc_tensor in, out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.data = dummy;
    in.rank = 2;
    in.shape[0] = (int64_t)1 << 60;
    in.shape[1] = 4;
    in.dtype = ONNXC_DTYPE_FLOAT;
    report("wrapping shape", mlp_run(&in, 1, &out, 1));
  } else if (strcmp(mode, "oom") == 0) {
    int64_t n = (int64_t)64 << 20; /* 256 MiB of floats */
    float *x = (float *)calloc((size_t)n, sizeof(float));
    if (!x) {
      printf("cannot allocate the input\n");
      return 1;
    }
    report("256 MiB input", run_chain(n, x));
    free(x);
  } else if (strcmp(mode, "limit") == 0 || strcmp(mode, "leak") == 0) {
    int64_t n = 256 << 10; /* 1 MiB per buffer */
    float *x = (float *)calloc((size_t)n, sizeof(float));
    onnxc_status s;
    int i;
    if (!x)
      return 1;
    report("negative limit", onnxc_set_memory_limit(-1));
    onnxc_set_memory_limit((int64_t)3 << 20); /* two buffers, not three */
    printf("limit: %lld\n", (long long)onnxc_get_memory_limit());
    s = run_chain(n, x);
    if (strcmp(mode, "limit") == 0) {
      report("over the limit", s);
    } else {
      size_t before, after;
      /* Warm-up: what libc allocates once (its own bookkeeping) is not a
       * leak of the calls. */
      for (i = 0; i < 10; ++i)
        (void)run_chain(n, x);
      before = heap_in_use();
      for (i = 0; i < 100; ++i)
        if (run_chain(n, x) != ONNXC_ERROR_OUT_OF_MEMORY)
          printf("call %d did not fail\n", i);
      after = heap_in_use();
      printf("leaked after 100 failed calls: %lld bytes\n",
             (long long)(after > before ? after - before : 0));
    }
    onnxc_set_memory_limit(0);
    report("no limit", run_chain(n, x));
    free(x);
  } else {
    printf("usage: memory_main api|oom|limit|leak\n");
    return 2;
  }
  return good_call() ? 0 : 1;
}

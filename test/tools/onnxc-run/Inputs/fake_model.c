/* A hand-written stand-in for a compiled model library, until onnxc emits
 * real ones: the exports M_info and M_run (runtime.h) over an `invoke` that
 * follows runtime_abi.h.
 *
 *   inputs:  X float[N, 4], K int64[1]
 *   outputs: Y float[N, 4] = X + K[0]
 *            Z bool[N]     = Y[n, 0] > 0
 * A negative K fails inside the model (onnxc_rt_fail). */
#include "onnxc/runtime_abi.h"

#include <stdlib.h>

typedef struct memref1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref1;
typedef struct memref2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2;
typedef struct results {
  memref2 y;
  memref1 z;
} results;

static const int64_t x_dims[] = {-1, 4}, k_dims[] = {1}, z_dims[] = {-1};
static const int32_t x_syms[] = {0, -1}, k_syms[] = {-1}, z_syms[] = {0};
static const char *const symbols[] = {"N"};
static const onnxc_value_info inputs[] = {
    {"X", ONNXC_DTYPE_FLOAT, 2, x_dims, x_syms, 0, 0, 0},
    {"K", ONNXC_DTYPE_INT64, 1, k_dims, k_syms, 0, 0, 0}};
static const onnxc_value_info outputs[] = {
    {"Y", ONNXC_DTYPE_FLOAT, 2, x_dims, x_syms, 0, 0, 0},
    {"Z", ONNXC_DTYPE_BOOL, 1, z_dims, z_syms, 0, 0, 0}};
#define STR2(a) #a
#define STR(a) STR2(a)
static const onnxc_model_info info = {STR(MODEL), 2, 2,      inputs,
                                      outputs,    1, symbols};

static void invoke(void **args) {
  results *r = (results *)args[0];
  const memref2 *x = (const memref2 *)args[1];
  const memref1 *k = (const memref1 *)args[2];
  int64_t n = x->sizes[0], i;
  int64_t add = ((const int64_t *)k->aligned)[k->offset];
  const float *in = (const float *)x->aligned + x->offset;
  float *y;
  unsigned char *z;
  if (add < 0)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "K must be non-negative");
  y = (float *)malloc((size_t)(n * 4) * sizeof(float) + 1);
  z = (unsigned char *)malloc((size_t)n + 1);
  if (!y || !z)
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  for (i = 0; i < n * 4; ++i)
    y[i] = in[i] + (float)add;
  for (i = 0; i < n; ++i)
    z[i] = y[i * 4] > 0;
  r->y.allocated = r->y.aligned = y;
  r->y.offset = 0;
  r->y.sizes[0] = n;
  r->y.sizes[1] = 4;
  r->y.strides[0] = 4;
  r->y.strides[1] = 1;
  r->z.allocated = r->z.aligned = z;
  r->z.offset = 0;
  r->z.sizes[0] = n;
  r->z.strides[0] = 1;
}

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

const onnxc_model_info *CAT(MODEL, _info)(void) { return &info; }

onnxc_status CAT(MODEL, _run)(const onnxc_tensor *in, int32_t num_inputs,
                              onnxc_tensor *out, int32_t num_outputs) {
  return onnxc_run_model(&info, invoke, in, num_inputs, out, num_outputs);
}

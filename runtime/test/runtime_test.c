/*===- runtime_test.c - Unit test of the onnxc C runtime ------------------===*
 *
 * Drives onnxc_run_model with hand-written models (fake `invoke` functions
 * following runtime_abi.h) and checks every status and message. Prints one
 * line per failed check and exits 1 if any failed.
 *
 *   onnxc-runtime-test               run every check
 *   onnxc-runtime-test fail-outside  call onnxc_rt_fail outside a run (aborts)
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
    }                                                                          \
  } while (0)

/* A status and the exact message of the last error. */
#define CHECK_ERROR(expr, status, message)                                     \
  do {                                                                         \
    onnxc_status got_ = (expr);                                                \
    ++checks;                                                                  \
    if (got_ != (status) || strcmp(onnxc_last_error(), (message)) != 0) {      \
      ++failures;                                                              \
      printf("FAIL %s:%d: got %d '%s', expected %d '%s'\n", __FILE__,          \
             __LINE__, (int)got_, onnxc_last_error(), (int)(status),           \
             (message));                                                       \
    }                                                                          \
  } while (0)

/* Memref descriptors of ranks 0, 1 and 2 (runtime_abi.h). */
typedef struct memref0 {
  void *allocated, *aligned;
  int64_t offset;
} memref0;
typedef struct memref1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref1;
typedef struct memref2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2;
typedef struct memref3 {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} memref3;

#define GLOBAL ((void *)(uintptr_t)0xdeadbeef)

static onnxc_tensor tensor(void *data, int32_t dtype, int32_t rank, int64_t d0,
                           int64_t d1) {
  onnxc_tensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.dtype = dtype;
  t.rank = rank;
  t.shape[0] = d0;
  t.shape[1] = d1;
  return t;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    abort();
  return p;
}

/*===------------------ add_one: float[N,4] -> float[N,4]
 * ------------------===*/

static const int64_t n4_dims[] = {-1, 4};
static const int32_t n4_syms[] = {0, -1};
static const char *const n_symbols[] = {"N"};
static const onnxc_value_info add_one_in[] = {
    {"X", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0}};
static const onnxc_value_info add_one_out[] = {
    {"Y", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0}};
static const onnxc_model_info add_one_info = {
    "add_one", 1, 1, add_one_in, add_one_out, 1, n_symbols};

static int descriptor_ok; /* what add_one saw of its input descriptor */

static void add_one_invoke(void **args) {
  memref2 *y = (memref2 *)args[0];
  const memref2 *x = (const memref2 *)args[1];
  int64_t n = x->sizes[0] * x->sizes[1], i;
  float *out = (float *)xmalloc((size_t)n * sizeof(float));
  const float *in = (const float *)x->aligned + x->offset;
  descriptor_ok = x->allocated == x->aligned && x->offset == 0 &&
                  x->sizes[1] == 4 && x->strides[0] == 4 && x->strides[1] == 1;
  for (i = 0; i < n; ++i)
    out[i] = in[i] + 1.0f;
  y->allocated = y->aligned = out;
  y->offset = 0;
  y->sizes[0] = x->sizes[0];
  y->sizes[1] = 4;
  y->strides[0] = 4;
  y->strides[1] = 1;
}

static onnxc_status run_add_one(onnxc_tensor *x, onnxc_tensor *y) {
  return onnxc_run_model(&add_one_info, add_one_invoke, x, 1, y, 1);
}

static void test_add_one(void) {
  float x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  float y_buf[8];
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 2, 2, 4), out;
  int i;

  memset(&out, 0, sizeof out);
  CHECK(run_add_one(&in, &out) == ONNXC_OK);
  CHECK(descriptor_ok);
  CHECK(out.owner != NULL && out.data == out.owner);
  CHECK(out.rank == 2 && out.shape[0] == 2 && out.shape[1] == 4);
  CHECK(out.dtype == ONNXC_DTYPE_FLOAT);
  CHECK(onnxc_tensor_numel(&out) == 8);
  for (i = 0; i < 8; ++i)
    CHECK(((float *)out.data)[i] == x[i] + 1.0f);
  onnxc_tensor_release(&out);
  CHECK(out.owner == NULL && out.data == NULL);
  onnxc_tensor_release(&out); /* twice: no-op */

  /* Caller-provided output: written in place, the model's buffer freed. */
  out = tensor(y_buf, ONNXC_DTYPE_FLOAT, 2, 2, 4);
  CHECK(run_add_one(&in, &out) == ONNXC_OK);
  CHECK(out.owner == NULL && out.data == y_buf);
  for (i = 0; i < 8; ++i)
    CHECK(y_buf[i] == x[i] + 1.0f);
  onnxc_tensor_release(&out); /* caller-owned: no-op */
  CHECK(out.data == y_buf);

  /* Zero elements: the data pointer is never dereferenced. */
  in = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 0, 4);
  memset(&out, 0, sizeof out);
  CHECK(run_add_one(&in, &out) == ONNXC_OK);
  CHECK(out.rank == 2 && out.shape[0] == 0 && onnxc_tensor_numel(&out) == 0);
  onnxc_tensor_release(&out);
  in = tensor((void *)(uintptr_t)16, ONNXC_DTYPE_FLOAT, 2, 0, 4);
  out = tensor((void *)(uintptr_t)32, ONNXC_DTYPE_FLOAT, 2, 0, 4);
  CHECK(run_add_one(&in, &out) == ONNXC_OK);
  CHECK(out.owner == NULL && out.data == (void *)(uintptr_t)32);
}

static void test_input_errors(void) {
  float x[12] = {0};
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 2, 3, 4), out, two[2];
  memset(&out, 0, sizeof out);
  memset(two, 0, sizeof two);

  CHECK_ERROR(onnxc_run_model(NULL, add_one_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "null model info or invoke function");
  CHECK_ERROR(onnxc_run_model(&add_one_info, NULL, &in, 1, &out, 1),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "null model info or invoke function");
  CHECK_ERROR(onnxc_run_model(&add_one_info, add_one_invoke, two, 2, &out, 1),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "model 'add_one': expected 1 inputs, got 2");
  CHECK_ERROR(onnxc_run_model(&add_one_info, add_one_invoke, &in, 1, two, 0),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "model 'add_one': expected 1 outputs, got 0");
  CHECK_ERROR(onnxc_run_model(&add_one_info, add_one_invoke, NULL, 1, &out, 1),
              ONNXC_ERROR_INVALID_ARGUMENT, "inputs is null");
  CHECK_ERROR(onnxc_run_model(&add_one_info, add_one_invoke, &in, 1, NULL, 1),
              ONNXC_ERROR_INVALID_ARGUMENT, "outputs is null");

  in.dtype = ONNXC_DTYPE_INT64;
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_DTYPE,
              "input 'X': expected dtype float, got int64");
  in.dtype = 99;
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_DTYPE,
              "input 'X': expected dtype float, got unknown");
  in = tensor(x, ONNXC_DTYPE_FLOAT, 3, 3, 4);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "input 'X': expected rank 2, got 3");
  in = tensor(x, ONNXC_DTYPE_FLOAT, 2, 4, 3);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "input 'X' dim 1: expected 4, got 3");
  in = tensor(x, ONNXC_DTYPE_FLOAT, 2, -1, 4);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "input 'X' dim 0: negative size -1");
  in = tensor(x, ONNXC_DTYPE_FLOAT, 2, INT64_MAX / 2, 4);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "input 'X': too many elements");
  in = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 3, 4);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'X': data is null");
  /* Nothing was allocated for the output on any of these paths. */
  CHECK(out.data == NULL && out.owner == NULL);

  /* A garbage owner on a model-allocated output is cleared, so release is
   * safe after an error. */
  out.owner = (void *)(uintptr_t)8;
  CHECK(run_add_one(&in, &out) == ONNXC_ERROR_INVALID_ARGUMENT);
  CHECK(out.owner == NULL);
  onnxc_tensor_release(&out);
}

static void test_output_preset_errors(void) {
  float x[8] = {0}, y[12];
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 2, 2, 4), out;

  out = tensor(y, ONNXC_DTYPE_DOUBLE, 2, 2, 4);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_DTYPE,
              "output 'Y': expected dtype float, got double");
  out = tensor(y, ONNXC_DTYPE_FLOAT, 1, 8, 0);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "output 'Y': expected rank 2, got 1");
  out = tensor(y, ONNXC_DTYPE_FLOAT, 2, 2, 6);
  CHECK_ERROR(run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
              "output 'Y' dim 1: expected 4, got 6");
  /* Symbolic dim: known only after the run; the model's buffer is freed. */
  out = tensor(y, ONNXC_DTYPE_FLOAT, 2, 3, 4);
  CHECK_ERROR(
      run_add_one(&in, &out), ONNXC_ERROR_SHAPE,
      "output 'Y' dim 0: the model produced 2, the caller's buffer has 3");
  CHECK(out.data == y && out.owner == NULL);
}

/*===----------- views: aliases, globals, strides, shared buffers
 * ----------===*/

static const int64_t dims3[] = {3}, dims23[] = {2, 3}, dims32[] = {3, 2},
                     dims6[] = {6}, dims2[] = {2};
static const onnxc_value_info views_in[] = {
    {"X", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0}};
static const onnxc_value_info views_out[] = {
    {"alias", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0},
    {"global", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0},
    {"fresh", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0},
    {"fresh_again", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0},
    {"transposed", ONNXC_DTYPE_FLOAT, 2, dims32, NULL, 0, 0},
    {"reversed", ONNXC_DTYPE_FLOAT, 1, dims6, NULL, 0, 0},
    {"broadcast", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0},
    {"offset", ONNXC_DTYPE_FLOAT, 1, dims2, NULL, 0, 0},
    {"scalar", ONNXC_DTYPE_DOUBLE, 0, NULL, NULL, 0, 0},
    {"flags", ONNXC_DTYPE_BOOL, 1, dims3, NULL, 0, 0}};
static const onnxc_model_info views_info = {"views",   1, 10,  views_in,
                                            views_out, 0, NULL};

static const float global_data[6] = {10, 11, 12, 13, 14, 15};

typedef struct views_results {
  memref1 alias;
  memref2 global, fresh, fresh_again, transposed;
  memref1 reversed;
  memref2 broadcast;
  memref1 offset;
  memref0 scalar;
  memref1 flags;
} views_results;

static void *views_fresh, *views_offset_alloc;

static void set1(memref1 *m, void *alloc, void *aligned, int64_t off,
                 int64_t size, int64_t stride) {
  m->allocated = alloc;
  m->aligned = aligned;
  m->offset = off;
  m->sizes[0] = size;
  m->strides[0] = stride;
}

static void set2(memref2 *m, void *alloc, void *aligned, int64_t off,
                 int64_t s0, int64_t s1, int64_t st0, int64_t st1) {
  m->allocated = alloc;
  m->aligned = aligned;
  m->offset = off;
  m->sizes[0] = s0;
  m->sizes[1] = s1;
  m->strides[0] = st0;
  m->strides[1] = st1;
}

static void views_invoke(void **args) {
  views_results *r = (views_results *)args[0];
  memref1 *x = (memref1 *)args[1];
  float *fresh = (float *)xmalloc(6 * sizeof(float));
  char *raw = (char *)xmalloc(64);
  float *aligned = (float *)(raw + 16);
  double *scalar = (double *)xmalloc(sizeof(double));
  uint8_t *flags = (uint8_t *)xmalloc(3);
  int i;
  for (i = 0; i < 6; ++i)
    fresh[i] = (float)i; /* [[0 1 2] [3 4 5]] */
  aligned[2] = 42;
  aligned[3] = 43;
  *scalar = 2.5;
  flags[0] = 1, flags[1] = 0, flags[2] = 1;
  views_fresh = fresh;
  views_offset_alloc = raw;
  set1(&r->alias, x->allocated, x->aligned, 0, 3, 1);
  set2(&r->global, GLOBAL, (void *)(uintptr_t)global_data, 0, 2, 3, 3, 1);
  set2(&r->fresh, fresh, fresh, 0, 2, 3, 3, 1);
  set2(&r->fresh_again, fresh, fresh, 0, 2, 3, 3, 1);
  set2(&r->transposed, fresh, fresh, 0, 3, 2, 1, 3);
  set1(&r->reversed, GLOBAL, (void *)(uintptr_t)global_data, 5, 6, -1);
  set2(&r->broadcast, x->allocated, x->aligned, 0, 2, 3, 0, 1);
  set1(&r->offset, raw, aligned, 2, 2, 1);
  r->scalar.allocated = r->scalar.aligned = scalar;
  r->scalar.offset = 0;
  set1(&r->flags, flags, flags, 0, 3, 1);
}

static int floats_equal(const onnxc_tensor *t, const float *expected, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (((const float *)t->data)[i] != expected[i])
      return 0;
  return 1;
}

static void test_views(void) {
  float x[3] = {7, 8, 9};
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 1, 3, 0), out[10];
  float fresh_buf[6], transposed_buf[6];
  static const float fresh_exp[6] = {0, 1, 2, 3, 4, 5};
  static const float transposed_exp[6] = {0, 3, 1, 4, 2, 5};
  static const float reversed_exp[6] = {15, 14, 13, 12, 11, 10};
  static const float broadcast_exp[6] = {7, 8, 9, 7, 8, 9};
  static const float offset_exp[2] = {42, 43};
  int k;

  memset(out, 0, sizeof out);
  CHECK(onnxc_run_model(&views_info, views_invoke, &in, 1, out, 10) ==
        ONNXC_OK);
  /* Alias of the input: copied. */
  CHECK(out[0].owner != NULL && out[0].data != (void *)x);
  CHECK(floats_equal(&out[0], x, 3));
  /* Global: copied. */
  CHECK(out[1].owner != NULL && out[1].data != global_data);
  CHECK(floats_equal(&out[1], global_data, 6));
  /* Fresh and contiguous: handed over as is. */
  CHECK(out[2].owner == views_fresh && out[2].data == views_fresh);
  CHECK(floats_equal(&out[2], fresh_exp, 6));
  /* The same buffer again: copied. */
  CHECK(out[3].owner != views_fresh && floats_equal(&out[3], fresh_exp, 6));
  /* Strided views: copied row-major. */
  CHECK(out[4].owner != views_fresh && out[4].shape[0] == 3 &&
        out[4].shape[1] == 2);
  CHECK(floats_equal(&out[4], transposed_exp, 6));
  CHECK(floats_equal(&out[5], reversed_exp, 6));
  CHECK(floats_equal(&out[6], broadcast_exp, 6));
  /* Fresh with aligned != allocated and an offset: owner is `allocated`. */
  CHECK(out[7].owner == views_offset_alloc &&
        out[7].data == (char *)views_offset_alloc + 16 + 2 * sizeof(float));
  CHECK(floats_equal(&out[7], offset_exp, 2));
  CHECK(out[8].rank == 0 && out[8].dtype == ONNXC_DTYPE_DOUBLE &&
        *(double *)out[8].data == 2.5 && onnxc_tensor_numel(&out[8]) == 1);
  CHECK(out[9].dtype == ONNXC_DTYPE_BOOL && ((uint8_t *)out[9].data)[0] == 1 &&
        ((uint8_t *)out[9].data)[1] == 0 && ((uint8_t *)out[9].data)[2] == 1);
  for (k = 0; k < 10; ++k)
    onnxc_tensor_release(&out[k]);

  /* Caller-provided buffers for the fresh buffer and a strided view of it:
   * the fresh buffer is freed only after every output read it. */
  memset(out, 0, sizeof out);
  out[2] = tensor(fresh_buf, ONNXC_DTYPE_FLOAT, 2, 2, 3);
  out[4] = tensor(transposed_buf, ONNXC_DTYPE_FLOAT, 2, 3, 2);
  CHECK(onnxc_run_model(&views_info, views_invoke, &in, 1, out, 10) ==
        ONNXC_OK);
  CHECK(out[2].data == fresh_buf && out[2].owner == NULL);
  CHECK(floats_equal(&out[2], fresh_exp, 6));
  CHECK(out[3].owner == views_fresh); /* handed to the next output instead */
  CHECK(floats_equal(&out[4], transposed_exp, 6));
  for (k = 0; k < 10; ++k)
    onnxc_tensor_release(&out[k]);

  /* A caller buffer for a broadcast view of the input. */
  memset(out, 0, sizeof out);
  out[6] = tensor(fresh_buf, ONNXC_DTYPE_FLOAT, 2, 2, 3);
  out[6].shape[0] = 2;
  out[6].shape[1] = 3;
  CHECK(onnxc_run_model(&views_info, views_invoke, &in, 1, out, 10) ==
        ONNXC_OK);
  CHECK(out[6].owner == NULL && floats_equal(&out[6], broadcast_exp, 6));
  for (k = 0; k < 10; ++k)
    onnxc_tensor_release(&out[k]);
}

/*===------- a model whose output dims break its signature
 * -----------------===*/

static const int64_t dyn1[] = {-1};
static const int32_t sym0[] = {0}, sym1[] = {1};
static const char *const nk_symbols[] = {"N", "K"};
static const onnxc_value_info shapes_in[] = {
    {"A", ONNXC_DTYPE_INT64, 1, dyn1, sym0, 0, 0}};
static const onnxc_value_info shapes_out[] = {
    {"same_n", ONNXC_DTYPE_INT64, 1, dyn1, sym0, 0, 0},
    {"four", ONNXC_DTYPE_INT64, 1, dims2, NULL, 0, 0},
    {"count", ONNXC_DTYPE_INT64, 1, dyn1, sym1, 0, 0}};
static const onnxc_model_info shapes_info = {
    "shapes", 1, 3, shapes_in, shapes_out, 2, nk_symbols};

static int64_t shapes_sizes[3];

static void shapes_invoke(void **args) {
  memref1 *r = (memref1 *)args[0];
  int k;
  for (k = 0; k < 3; ++k) {
    int64_t *buf =
        (int64_t *)xmalloc((size_t)shapes_sizes[k] * sizeof(int64_t));
    int64_t i;
    for (i = 0; i < shapes_sizes[k]; ++i)
      buf[i] = i;
    set1(&r[k], buf, buf, 0, shapes_sizes[k], 1);
  }
}

static void test_output_shapes(void) {
  int64_t a[3] = {1, 2, 3}, count_buf[5];
  onnxc_tensor in = tensor(a, ONNXC_DTYPE_INT64, 1, 3, 0), out[3];
  int k;

  shapes_sizes[0] = 3, shapes_sizes[1] = 2, shapes_sizes[2] = 5;
  memset(out, 0, sizeof out);
  CHECK(onnxc_run_model(&shapes_info, shapes_invoke, &in, 1, out, 3) ==
        ONNXC_OK);
  CHECK(out[2].shape[0] == 5 && ((int64_t *)out[2].data)[4] == 4);
  for (k = 0; k < 3; ++k)
    onnxc_tensor_release(&out[k]);

  shapes_sizes[1] = 7;
  memset(out, 0, sizeof out);
  CHECK_ERROR(
      onnxc_run_model(&shapes_info, shapes_invoke, &in, 1, out, 3),
      ONNXC_ERROR_RUNTIME,
      "output 'four' dim 0: the model produced 7, its signature says 2");
  /* The first output was handed over, then taken back. */
  CHECK(out[0].data == NULL && out[0].owner == NULL);

  shapes_sizes[0] = 4, shapes_sizes[1] = 2;
  CHECK_ERROR(onnxc_run_model(&shapes_info, shapes_invoke, &in, 1, out, 3),
              ONNXC_ERROR_RUNTIME,
              "output 'same_n' dim 0: the model produced 4, symbol 'N' is 3");

  /* A data-dependent dim into a caller buffer of the wrong size. */
  shapes_sizes[0] = 3, shapes_sizes[2] = 4;
  memset(out, 0, sizeof out);
  out[2] = tensor(count_buf, ONNXC_DTYPE_INT64, 1, 5, 0);
  CHECK_ERROR(
      onnxc_run_model(&shapes_info, shapes_invoke, &in, 1, out, 3),
      ONNXC_ERROR_SHAPE,
      "output 'count' dim 0: the model produced 4, the caller's buffer has 5");
  CHECK(out[0].data == NULL && out[1].data == NULL && out[2].data == count_buf);
}

/*===----------------- symbols shared between inputs
 * -----------------------===*/

static const int64_t dyn2[] = {-1, -1};
static const int32_t sym_nn[] = {0, 0}, sym_nk[] = {0, 1};
static const onnxc_value_info sym_in[] = {
    {"X", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nk, 0, 0},
    {"Y", ONNXC_DTYPE_FLOAT, 1, dyn1, sym1, 0, 0},
    {"Sq", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nn, 0, 0}};
static const onnxc_model_info sym_info = {"sym", 3, 0,         sym_in,
                                          NULL,  2, nk_symbols};

static void noop_invoke(void **args) { (void)args; }

static int sym_ran;
static void sym_invoke(void **args) {
  const memref2 *x = (const memref2 *)args[0]; /* no outputs: inputs first */
  sym_ran = x->sizes[0] == 2 && x->sizes[1] == 3;
}

static void test_symbols(void) {
  float buf[16] = {0};
  onnxc_tensor in[3];
  in[0] = tensor(buf, ONNXC_DTYPE_FLOAT, 2, 2, 3);
  in[1] = tensor(buf, ONNXC_DTYPE_FLOAT, 1, 3, 0);
  in[2] = tensor(buf, ONNXC_DTYPE_FLOAT, 2, 2, 2);
  CHECK(onnxc_run_model(&sym_info, sym_invoke, in, 3, NULL, 0) == ONNXC_OK);
  CHECK(sym_ran);
  in[1].shape[0] = 4;
  CHECK_ERROR(onnxc_run_model(&sym_info, sym_invoke, in, 3, NULL, 0),
              ONNXC_ERROR_SHAPE,
              "symbol 'K' is 3 for input 'X' but 4 for input 'Y'");
  in[1].shape[0] = 3;
  in[2].shape[1] = 5;
  CHECK_ERROR(onnxc_run_model(&sym_info, sym_invoke, in, 3, NULL, 0),
              ONNXC_ERROR_SHAPE,
              "symbol 'N' is 2 for input 'X' but 5 for input 'Sq'");
  in[0].shape[0] = 5;
  in[2].shape[0] = 4;
  CHECK_ERROR(onnxc_run_model(&sym_info, sym_invoke, in, 3, NULL, 0),
              ONNXC_ERROR_SHAPE,
              "symbol 'N' is 5 for input 'X' but 4 for input 'Sq'");
  in[2].shape[0] = 5;
  in[2].shape[1] = 6;
  CHECK_ERROR(onnxc_run_model(&sym_info, sym_invoke, in, 3, NULL, 0),
              ONNXC_ERROR_SHAPE,
              "symbol 'N' is 5 for input 'X' but 6 for input 'Sq'");
  /* Both dims of one input. */
  {
    onnxc_model_info sq_info = {"sq", 1, 0, &sym_in[2], NULL, 2, nk_symbols};
    in[2].shape[0] = 6;
    in[2].shape[1] = 7;
    CHECK_ERROR(onnxc_run_model(&sq_info, noop_invoke, &in[2], 1, NULL, 0),
                ONNXC_ERROR_SHAPE,
                "symbol 'N' is 6 for input 'Sq' dim 0 but 7 for dim 1");
  }
}

/*===-------------------- bad model descriptions
 * ----------------------------===*/

static void test_bad_info(void) {
  static const onnxc_value_info str_in[] = {
      {"text", ONNXC_DTYPE_STRING, 1, dims3, NULL, 0, 0}};
  static const onnxc_value_info c_out[] = {
      {"z", ONNXC_DTYPE_UNDEFINED, 1, dims3, NULL, 0, 0}};
  static const int32_t bad_sym[] = {3};
  static const onnxc_value_info bad_sym_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, 1, dyn1, bad_sym, 0, 0}};
  static const onnxc_value_info big_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, ONNXC_MAX_RANK + 1, dims3, NULL, 0, 0}};
  onnxc_model_info info = {"bad", 1, 0, str_in, NULL, 0, NULL};
  onnxc_tensor in = tensor(NULL, ONNXC_DTYPE_STRING, 1, 3, 0), out;
  memset(&out, 0, sizeof out);

  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
              ONNXC_ERROR_DTYPE,
              "input 'text': string tensors are not supported");
  info.inputs = NULL;
  info.num_inputs = 0;
  info.outputs = c_out;
  info.num_outputs = 1;
  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, NULL, 0, &out, 1),
              ONNXC_ERROR_DTYPE, "output 'z': dtype 0 is not supported");
  info.outputs = NULL;
  info.num_outputs = 0;
  info.inputs = bad_sym_in;
  info.num_inputs = 1;
  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "model info: input 'X' dim 0 has symbol 3");
  info.inputs = big_in;
  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "model info: input 'X' has rank 17");
  info.num_symbols = 1;
  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
              ONNXC_ERROR_INVALID_ARGUMENT, "model info: bad symbol table");
}

/*===------------------ run-time failures (onnxc_rt_fail)
 * -------------------===*/

static int32_t fail_with_code;
static void fail_invoke(void **args) {
  memref1 *r = (memref1 *)args[0];
  /* A buffer of the allocator, allocated before the failure, is freed by
   * the runtime (the ASan build of this test finds a leak otherwise). */
  set1(r, NULL, NULL, 0, 0, 1);
  (void)onnxc_rt_alloc(100, "node 'f' (Fail)");
  onnxc_rt_fail(
      fail_with_code,
      fail_with_code == 42 ? NULL : "Gather: index 7 is out of range [-3, 3)");
}

static const onnxc_value_info fail_out[] = {
    {"out", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0}};
static const onnxc_model_info fail_info = {"fails",  1, 1,   views_in,
                                           fail_out, 0, NULL};

static void test_rt_fail(void) {
  float x[3] = {0};
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 1, 3, 0), out;
  memset(&out, 0, sizeof out);
  fail_with_code = ONNXC_ERROR_RUNTIME;
  CHECK_ERROR(onnxc_run_model(&fail_info, fail_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME, "Gather: index 7 is out of range [-3, 3)");
  CHECK(out.data == NULL && out.owner == NULL);
  fail_with_code = ONNXC_ERROR_SHAPE;
  CHECK_ERROR(onnxc_run_model(&fail_info, fail_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_SHAPE, "Gather: index 7 is out of range [-3, 3)");
  fail_with_code = 42; /* not a status, no message */
  CHECK_ERROR(onnxc_run_model(&fail_info, fail_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME, "a run-time check failed");
  /* The thread is usable afterwards, and the last error stays until the
   * next failure. */
  {
    float y[8] = {0};
    onnxc_tensor a = tensor(y, ONNXC_DTYPE_FLOAT, 2, 2, 4), b;
    memset(&b, 0, sizeof b);
    CHECK(run_add_one(&a, &b) == ONNXC_OK);
    CHECK(strcmp(onnxc_last_error(), "a run-time check failed") == 0);
    onnxc_tensor_release(&b);
  }
}

/*===------------- the allocator's arenas and the memory limit ------------===*/

/* arena_mode 0: Y = X + 1 in an allocator block, a temporary freed, one
 * left for the runtime; 1: fails after allocating; 2: allocates 4096
 * bytes; 3: the same block for both outputs. */
static int arena_mode;
static const onnxc_value_info arena_out[] = {
    {"Y", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0},
    {"Z", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0}};
static const onnxc_model_info arena_info = {
    "arena", 1, 2, add_one_in, arena_out, 1, n_symbols};

static void arena_invoke(void **args) {
  memref2 *r = (memref2 *)args[0];
  const memref2 *x = (const memref2 *)args[1];
  int64_t n = x->sizes[0] * x->sizes[1], i, k;
  float *out, *temp;
  const float *in = (const float *)x->aligned + x->offset;
  if (arena_mode == 2)
    (void)onnxc_rt_alloc(4096, "node 'big' (Big)");
  temp = (float *)onnxc_rt_alloc((size_t)n * sizeof(float), "node 't' (T)");
  (void)onnxc_rt_alloc(64, NULL); /* never freed by the model */
  out = (float *)onnxc_rt_alloc((size_t)n * sizeof(float), "node 'y' (Y)");
  if (arena_mode == 1)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "node 'y' (Y): failed");
  for (i = 0; i < n; ++i)
    out[i] = (temp[i] = in[i]) + 1.0f;
  _mlir_memref_to_llvm_free(temp);
  for (k = 0; k < 2; ++k) {
    void *o = k == 1 && arena_mode != 3 ? _mlir_memref_to_llvm_alloc(
                                               (size_t)n * sizeof(float))
                                         : (void *)out;
    if (o != out)
      memcpy(o, out, (size_t)n * sizeof(float));
    r[k].allocated = r[k].aligned = o;
    r[k].offset = 0;
    r[k].sizes[0] = x->sizes[0];
    r[k].sizes[1] = 4;
    r[k].strides[0] = 4;
    r[k].strides[1] = 1;
  }
}

static void test_arena(void) {
  float x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 2, 2, 4), out[2];
  int i, mode;
  for (mode = 0; mode <= 3; mode += 3) {
    arena_mode = mode;
    memset(out, 0, sizeof out);
    CHECK(onnxc_run_model(&arena_info, arena_invoke, &in, 1, out, 2) ==
          ONNXC_OK);
    /* Handed over: the block behind its header is what the caller frees. */
    CHECK(out[0].owner != NULL && out[0].data != out[0].owner);
    CHECK(out[1].owner != NULL && out[1].data != out[0].data);
    for (i = 0; i < 8; ++i)
      CHECK(((float *)out[0].data)[i] == x[i] + 1.0f &&
            ((float *)out[1].data)[i] == x[i] + 1.0f);
    onnxc_tensor_release(&out[0]);
    onnxc_tensor_release(&out[1]);
  }

  arena_mode = 1;
  CHECK_ERROR(onnxc_run_model(&arena_info, arena_invoke, &in, 1, out, 2),
              ONNXC_ERROR_RUNTIME, "node 'y' (Y): failed");
  CHECK(out[0].data == NULL && out[1].data == NULL);

  /* The memory limit: per call, counted from the call's start. */
  CHECK_ERROR(onnxc_set_memory_limit(-1), ONNXC_ERROR_INVALID_ARGUMENT,
              "onnxc_set_memory_limit: negative limit -1");
  CHECK(onnxc_get_memory_limit() == 0);
  CHECK(onnxc_set_memory_limit(4096 + 16) == ONNXC_OK);
  CHECK(onnxc_get_memory_limit() == 4096 + 16);
  arena_mode = 2;
  CHECK_ERROR(onnxc_run_model(&arena_info, arena_invoke, &in, 1, out, 2),
              ONNXC_ERROR_OUT_OF_MEMORY,
              "node 't' (T): out of memory: a buffer of 32 bytes would "
              "exceed the memory limit of 4112 bytes (4096 in use by this "
              "call)");
  arena_mode = 0;
  CHECK(onnxc_run_model(&arena_info, arena_invoke, &in, 1, out, 2) ==
        ONNXC_OK);
  onnxc_tensor_release(&out[0]);
  onnxc_tensor_release(&out[1]);
  CHECK(onnxc_set_memory_limit(0) == ONNXC_OK);

  /* Outside a call a failed allocation is NULL. */
  CHECK(onnxc_rt_alloc((size_t)-1, NULL) == NULL);
  {
    void *p = _mlir_memref_to_llvm_alloc(10);
    CHECK(p != NULL);
    _mlir_memref_to_llvm_free(p);
  }
}

/* Messages with values (onnxc_rt_fail_values, onnxc_rt_fail_alloc_size). */
static int message_kind;
static void message_invoke(void **args) {
  (void)args;
  if (message_kind == 0)
    onnxc_rt_fail_values(ONNXC_ERROR_RUNTIME,
                         "node 'r' (Reshape): \x01 elements into \x01 x \x01",
                         8, 3, -1);
  if (message_kind == 1)
    onnxc_rt_fail_alloc_size("node 'c' (C)", 4, 3, (int64_t)2147483648,
                             (int64_t)2147483648, (int64_t)3);
  onnxc_rt_fail_alloc_size("node 'c' (C)", 4, 2, (int64_t)-2, (int64_t)3);
}

static void test_messages(void) {
  float x[3] = {0};
  onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 1, 3, 0), out;
  memset(&out, 0, sizeof out);
  message_kind = 0;
  CHECK_ERROR(onnxc_run_model(&fail_info, message_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME, "node 'r' (Reshape): 8 elements into 3 x -1");
  message_kind = 1;
  CHECK_ERROR(onnxc_run_model(&fail_info, message_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "node 'c' (C): a buffer of [2147483648, 2147483648, 3] elements "
              "of 4 bytes holds more than 2^63 - 1 bytes");
  message_kind = 2;
  CHECK_ERROR(onnxc_run_model(&fail_info, message_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "node 'c' (C): a buffer of [-2, 3] elements of 4 bytes has a "
              "negative dim");
}

/*===----------------- sequences and optionals (runtime_abi.h) ------------===*/

/*   inputs:  S seq<float[?, 2]>, O opt<int64[3]>, P opt<seq<int32[?]>>
 *   outputs: T seq<float[?, 2]> = S items + 1 (data with stride 2, shapes
 *              transposed in memory)
 *            F bool[] = O is present
 *            U opt<int64[3]> = O + 10 (fresh), or absent (the input's
 *              absent buffer aliased)
 *            Q opt<seq<int32[?]>> = P with items reversed and doubled; its
 *              flag is the input's */
static const int64_t n2_dims[] = {-1, 2}, n_dims[] = {-1};
static const onnxc_value_info seq_in[] = {
    {"S", ONNXC_DTYPE_FLOAT, 2, n2_dims, NULL, ONNXC_VALUE_SEQUENCE, 0},
    {"O", ONNXC_DTYPE_INT64, 1, dims3, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR},
    {"P", ONNXC_DTYPE_INT32, 1, n_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE}};
static const onnxc_value_info seq_out[] = {
    {"T", ONNXC_DTYPE_FLOAT, 2, n2_dims, NULL, ONNXC_VALUE_SEQUENCE, 0},
    {"F", ONNXC_DTYPE_BOOL, 0, NULL, NULL, 0, 0},
    {"U", ONNXC_DTYPE_INT64, 1, dims3, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR},
    {"Q", ONNXC_DTYPE_INT32, 1, n_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE}};
static const onnxc_model_info seq_info = {"seq",   3, 4,   seq_in,
                                          seq_out, 0, NULL};

typedef struct seq_results {
  memref1 t_data;
  memref2 t_shapes;
  memref0 f;
  memref0 u_flag;
  memref1 u;
  memref0 q_flag;
  memref1 q_data;
  memref2 q_shapes;
} seq_results;

/* What the model saw, and how it should misbehave. */
static struct {
  int64_t s_size, s_shapes[8], p_size, p_shapes[4], o_size, o_data[3];
  float s_data[16];
  int32_t p_data[8];
  int o_flag, p_flag, ok;
} seq_seen;
static int seq_break; /* 1: T's shapes need more than its data; 2: Q's
                         shapes have 2 columns; 3: T's item 0 breaks the
                         static dim */

static void seq_invoke(void **args) {
  seq_results *r = (seq_results *)args[0];
  const memref1 *s = (const memref1 *)args[1];
  const memref2 *s_shapes = (const memref2 *)args[2];
  const memref0 *o_flag = (const memref0 *)args[3];
  const memref1 *o = (const memref1 *)args[4];
  const memref0 *p_flag = (const memref0 *)args[5];
  const memref1 *p = (const memref1 *)args[6];
  const memref2 *p_shapes = (const memref2 *)args[7];
  const float *sd = (const float *)s->aligned + s->offset;
  const int64_t *ss = (const int64_t *)s_shapes->aligned + s_shapes->offset;
  const int32_t *pd = (const int32_t *)p->aligned + p->offset;
  const int64_t *ps = (const int64_t *)p_shapes->aligned + p_shapes->offset;
  int64_t n = s_shapes->sizes[0], total = s->sizes[0], i, e, start;
  int64_t pn = p_shapes->sizes[0], ptotal = p->sizes[0];
  float *t;
  int64_t *t_shapes, *u, *q_shapes;
  int32_t *q;
  uint8_t *f, *u_flag;

  /* Record the input descriptors. */
  seq_seen.ok = s->strides[0] == 1 && s_shapes->sizes[1] == 2 &&
                s_shapes->strides[0] == 2 && s_shapes->strides[1] == 1 &&
                o->strides[0] == 1 && p_shapes->sizes[1] == 1;
  seq_seen.s_size = total;
  for (i = 0; i < n * 2 && i < 8; ++i)
    seq_seen.s_shapes[i] = ss[i];
  for (i = 0; i < total && i < 16; ++i)
    seq_seen.s_data[i] = sd[i];
  seq_seen.o_flag = *((const uint8_t *)o_flag->aligned + o_flag->offset);
  seq_seen.o_size = o->sizes[0];
  for (i = 0; i < o->sizes[0] && i < 3; ++i)
    seq_seen.o_data[i] = ((const int64_t *)o->aligned)[o->offset + i];
  seq_seen.p_flag = *((const uint8_t *)p_flag->aligned + p_flag->offset);
  seq_seen.p_size = ptotal;
  for (i = 0; i < pn && i < 4; ++i)
    seq_seen.p_shapes[i] = ps[i];
  for (i = 0; i < ptotal && i < 8; ++i)
    seq_seen.p_data[i] = pd[i];

  /* T: items + 1, every other element of the buffer (stride 2, offset 1);
   * shapes stored transposed. */
  t = (float *)xmalloc((size_t)(2 * total + 1) * sizeof(float));
  t_shapes = (int64_t *)xmalloc((size_t)(n * 2) * sizeof(int64_t));
  for (i = 0; i < total; ++i)
    t[1 + 2 * i] = sd[i] + 1.0f;
  for (i = 0; i < n; ++i) {
    t_shapes[i] = ss[i * 2];
    t_shapes[n + i] = seq_break == 3 && i == 0 ? 1 : ss[i * 2 + 1];
  }
  if (seq_break == 1 && n > 0)
    t_shapes[0] = total;
  set1(&r->t_data, t, t, 1, total, 2);
  /* No items: shapes of no width (any width goes without items). */
  set2(&r->t_shapes, t_shapes, t_shapes, 0, n, n ? 2 : 0, 1, n);

  f = (uint8_t *)xmalloc(1);
  *f = (uint8_t)seq_seen.o_flag;
  r->f.allocated = r->f.aligned = f;
  r->f.offset = 0;

  u_flag = (uint8_t *)xmalloc(1);
  *u_flag = (uint8_t)seq_seen.o_flag;
  r->u_flag.allocated = r->u_flag.aligned = u_flag;
  r->u_flag.offset = 0;
  if (seq_seen.o_flag) {
    u = (int64_t *)xmalloc(3 * sizeof(int64_t));
    for (i = 0; i < 3; ++i)
      u[i] = seq_seen.o_data[i] + 10;
    set1(&r->u, u, u, 0, 3, 1);
  } else {
    set1(&r->u, o->allocated, o->aligned, o->offset, o->sizes[0], 1);
  }

  /* Q: P's items reversed and doubled; the flag is the input's own. */
  r->q_flag.allocated = p_flag->allocated;
  r->q_flag.aligned = p_flag->aligned;
  r->q_flag.offset = p_flag->offset;
  q = (int32_t *)xmalloc((size_t)ptotal * sizeof(int32_t));
  q_shapes = (int64_t *)xmalloc((size_t)pn * sizeof(int64_t));
  for (i = 0, start = 0, e = ptotal; i < pn; start += ps[i], ++i) {
    int64_t j;
    e -= ps[i]; /* where item i goes */
    for (j = 0; j < ps[i]; ++j)
      q[e + j] = 2 * pd[start + j];
    q_shapes[pn - 1 - i] = ps[i];
  }
  set1(&r->q_data, q, q, 0, ptotal, 1);
  set2(&r->q_shapes, q_shapes, q_shapes, 0, pn, seq_break == 2 ? 2 : 1, 1, 1);
}

static onnxc_status run_seq(onnxc_tensor *in, onnxc_tensor *out) {
  return onnxc_run_model(&seq_info, seq_invoke, in, 3, out, 4);
}

static void release_all(onnxc_tensor *t, int n) {
  int i;
  for (i = 0; i < n; ++i)
    onnxc_tensor_release(&t[i]);
}

static void test_sequences(void) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[2] = {7, 8};
  int64_t o[3] = {1, 2, 3};
  int32_t p0[2] = {5, 6}, p1[1] = {7};
  onnxc_tensor s_items[3], o_value, p_items[2], p_seq, in[3], out[4];
  static const float t0[6] = {2, 3, 4, 5, 6, 7};
  static const float t1[2] = {8, 9};
  const onnxc_tensor *t, *q;
  int i;

  s_items[0] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 3, 2);
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  s_items[2] = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 0, 2); /* no elements */
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 3, 0);
  p_items[0] = tensor(p0, ONNXC_DTYPE_INT32, 1, 2, 0);
  p_items[1] = tensor(p1, ONNXC_DTYPE_INT32, 1, 1, 0);
  p_seq = onnxc_make_sequence(p_items, 2);
  in[0] = onnxc_make_sequence(s_items, 3);
  in[1] = onnxc_make_optional(&o_value);
  in[2] = onnxc_make_optional(&p_seq);
  CHECK(in[0].kind == ONNXC_VALUE_SEQUENCE && in[0].num_items == 3 &&
        in[0].items == s_items && in[0].dtype == ONNXC_DTYPE_FLOAT);
  CHECK(in[1].kind == ONNXC_VALUE_OPTIONAL && in[1].num_items == 1);

  /* Garbage in the outputs: sequences and optionals are model-allocated
   * whatever they held. */
  memset(out, 0x5a, sizeof out);
  out[1] = tensor(NULL, 0, 0, 0, 0);
  CHECK(run_seq(in, out) == ONNXC_OK);
  /* What the model saw: the items one after the other, shapes, flags. */
  CHECK(seq_seen.ok);
  CHECK(seq_seen.s_size == 8);
  CHECK(seq_seen.s_shapes[0] == 3 && seq_seen.s_shapes[1] == 2 &&
        seq_seen.s_shapes[2] == 1 && seq_seen.s_shapes[3] == 2 &&
        seq_seen.s_shapes[4] == 0 && seq_seen.s_shapes[5] == 2);
  CHECK(seq_seen.s_data[0] == 1 && seq_seen.s_data[5] == 6 &&
        seq_seen.s_data[6] == 7 && seq_seen.s_data[7] == 8);
  CHECK(seq_seen.o_flag == 1 && seq_seen.o_size == 3 &&
        seq_seen.o_data[2] == 3);
  CHECK(seq_seen.p_flag == 1 && seq_seen.p_size == 3 &&
        seq_seen.p_shapes[0] == 2 && seq_seen.p_shapes[1] == 1 &&
        seq_seen.p_data[0] == 5 && seq_seen.p_data[1] == 6 &&
        seq_seen.p_data[2] == 7);
  /* T: three items of their own shapes, each owning its data. */
  t = &out[0];
  CHECK(t->kind == ONNXC_VALUE_SEQUENCE && t->num_items == 3 &&
        t->owner == t->items && t->dtype == ONNXC_DTYPE_FLOAT &&
        t->data == NULL);
  CHECK(t->items[0].kind == ONNXC_VALUE_TENSOR && t->items[0].rank == 2 &&
        t->items[0].shape[0] == 3 && t->items[0].shape[1] == 2 &&
        t->items[0].owner != NULL && t->items[0].dtype == ONNXC_DTYPE_FLOAT);
  CHECK(floats_equal(&t->items[0], t0, 6));
  CHECK(t->items[1].shape[0] == 1 && floats_equal(&t->items[1], t1, 2));
  CHECK(t->items[2].shape[0] == 0 && t->items[2].shape[1] == 2 &&
        onnxc_tensor_numel(&t->items[2]) == 0);
  CHECK(out[1].kind == ONNXC_VALUE_TENSOR && out[1].rank == 0 &&
        *(uint8_t *)out[1].data == 1);
  /* U: present, its fresh buffer handed over. */
  CHECK(out[2].kind == ONNXC_VALUE_OPTIONAL && out[2].num_items == 1 &&
        out[2].items[0].kind == ONNXC_VALUE_TENSOR &&
        out[2].items[0].shape[0] == 3 && out[2].items[0].owner != NULL &&
        ((int64_t *)out[2].items[0].data)[2] == 13);
  /* Q: present, a sequence of P's items reversed and doubled. */
  q = out[3].num_items == 1 ? &out[3].items[0] : NULL;
  CHECK(out[3].kind == ONNXC_VALUE_OPTIONAL && q != NULL);
  if (q) {
    CHECK(q->kind == ONNXC_VALUE_SEQUENCE && q->num_items == 2);
    CHECK(q->items[0].shape[0] == 1 && ((int32_t *)q->items[0].data)[0] == 14);
    CHECK(q->items[1].shape[0] == 2 && ((int32_t *)q->items[1].data)[0] == 10 &&
          ((int32_t *)q->items[1].data)[1] == 12);
  }
  release_all(out, 4);
  CHECK(out[0].items == NULL && out[0].num_items == 0 && out[0].owner == NULL);
  CHECK(out[3].items == NULL && out[3].owner == NULL);
  release_all(out, 4); /* twice: no-op */

  /* Empty sequences, absent optionals: the absent tensor is a zero-filled
   * int64[3], the absent sequence has no items. */
  in[0] = onnxc_make_sequence(NULL, 0);
  in[1] = onnxc_make_optional(NULL);
  p_seq = onnxc_make_sequence(NULL, 0);
  in[2] = onnxc_make_optional(&p_seq); /* present, empty */
  memset(out, 0, sizeof out);
  memset(&seq_seen, 0xff, sizeof seq_seen);
  CHECK(run_seq(in, out) == ONNXC_OK);
  CHECK(seq_seen.ok && seq_seen.s_size == 0);
  CHECK(seq_seen.o_flag == 0 && seq_seen.o_size == 3 &&
        seq_seen.o_data[0] == 0 && seq_seen.o_data[2] == 0);
  CHECK(seq_seen.p_flag == 1 && seq_seen.p_size == 0);
  CHECK(out[0].kind == ONNXC_VALUE_SEQUENCE && out[0].num_items == 0 &&
        out[0].items == NULL);
  CHECK(*(uint8_t *)out[1].data == 0);
  CHECK(out[2].kind == ONNXC_VALUE_OPTIONAL && out[2].num_items == 0 &&
        out[2].items == NULL);
  CHECK(out[3].num_items == 1 && out[3].items[0].kind == ONNXC_VALUE_SEQUENCE &&
        out[3].items[0].num_items == 0);
  release_all(out, 4);
  in[2] = onnxc_make_optional(NULL);
  CHECK(run_seq(in, out) == ONNXC_OK);
  CHECK(seq_seen.p_flag == 0 && seq_seen.p_size == 0);
  CHECK(out[3].kind == ONNXC_VALUE_OPTIONAL && out[3].num_items == 0);
  release_all(out, 4);

  /* Input errors, before the model runs. */
  in[0] = onnxc_make_sequence(s_items, 2);
  in[1] = onnxc_make_optional(&o_value);
  p_seq = onnxc_make_sequence(p_items, 2);
  in[2] = onnxc_make_optional(&p_seq);
  CHECK(run_seq(in, out) == ONNXC_OK);
  release_all(out, 4);
  in[0] = s_items[0];
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S': expected a sequence, got a tensor");
  in[0] = onnxc_make_sequence(s_items, 2);
  s_items[1].dtype = ONNXC_DTYPE_DOUBLE;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S' item 1: expected dtype float, got double");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 1, 2, 0);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1: expected rank 2, got 1");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 3);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1 dim 1: expected 2, got 3");
  s_items[1] = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S' item 1: data is null");
  s_items[1] = o_value;
  s_items[1].kind = ONNXC_VALUE_OPTIONAL;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S' item 1: expected a tensor, got an optional");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  s_items[1].shape[0] = INT64_MAX / 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1: 9223372036854775806 elements of 4 bytes "
              "hold more than 2^63 - 1 bytes");
  s_items[1].shape[0] = ((int64_t)1 << 60) - 1; /* fits alone */
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S': too many elements"); /* all items together */
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  in[0].num_items = -1;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S': negative item count -1");
  in[0] = onnxc_make_sequence(NULL, 2);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S': items is null");
  in[0] = onnxc_make_sequence(s_items, 2);
  in[1] = o_value;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected an optional, got a tensor");
  in[1] = onnxc_make_optional(&o_value);
  in[1].num_items = 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'O': an optional holds 0 or 1 item, got 2");
  in[1] = onnxc_make_optional(&p_seq);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected a tensor, got a sequence");
  o_value.dtype = ONNXC_DTYPE_FLOAT;
  in[1] = onnxc_make_optional(&o_value);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected dtype int64, got float");
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 4, 0);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'O' dim 0: expected 3, got 4");
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 3, 0);
  in[2] = onnxc_make_optional(&o_value);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P': expected a sequence, got a tensor");
  p_items[1].dtype = ONNXC_DTYPE_INT64;
  in[2] = onnxc_make_optional(&p_seq);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P' item 1: expected dtype int32, got int64");
  p_items[1].dtype = ONNXC_DTYPE_INT32;
  in[2].kind = 7;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P': expected an optional, got a value of unknown kind");
  in[2] = onnxc_make_optional(&p_seq);
  /* Nothing was allocated on those paths. */
  for (i = 0; i < 4; ++i)
    CHECK(out[i].owner == NULL && out[i].items == NULL);

  /* Results that break the contract: every output filled so far is taken
   * back (AddressSanitizer checks that nothing leaks). */
  seq_break = 1;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'T' item 0: the model's shapes need more than the 8 "
              "elements of its data");
  seq_break = 3;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'T' item 0 dim 1: the model produced 1, its signature "
              "says 2");
  seq_break = 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'Q': the model produced 2 x 2 shapes for items of "
              "rank 1");
  seq_break = 0;
  for (i = 0; i < 4; ++i)
    CHECK(out[i].owner == NULL && out[i].data == NULL && out[i].items == NULL &&
          out[i].num_items == 0);
  CHECK(out[0].kind == ONNXC_VALUE_SEQUENCE &&
        out[2].kind == ONNXC_VALUE_OPTIONAL);
  release_all(out, 4);
  CHECK(run_seq(in, out) == ONNXC_OK);
  release_all(out, 4);

  /* Bad kinds in the model's description. */
  {
    onnxc_value_info bad_in[3];
    onnxc_model_info bad = seq_info;
    memcpy(bad_in, seq_in, sizeof bad_in);
    bad.inputs = bad_in;
    bad_in[1].payload_kind = ONNXC_VALUE_OPTIONAL;
    CHECK_ERROR(onnxc_run_model(&bad, seq_invoke, in, 3, out, 4),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'O' has kind 2 (payload kind 2)");
    bad_in[1].payload_kind = 0;
    bad_in[0].kind = 3;
    CHECK_ERROR(onnxc_run_model(&bad, seq_invoke, in, 3, out, 4),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'S' has kind 3 (payload kind 0)");
  }
}

/*===-------- sequences whose items have no declared rank (rank -1) -------===*/

/* Their shapes are rows of 1 + ONNXC_MAX_RANK: the item's rank, its dims,
 * zeros (runtime_abi.h). */
#define ROW (1 + ONNXC_MAX_RANK)
static const onnxc_value_info useq_in[] = {
    {"S", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_SEQUENCE, 0}};
static const onnxc_value_info useq_out[] = {
    {"T", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_SEQUENCE, 0}};
static const onnxc_model_info useq_info = {"useq",   1, 1,   useq_in,
                                           useq_out, 0, NULL};
typedef struct useq_results {
  memref1 data;
  memref1 shapes;
} useq_results;
static int64_t useq_shapes[3 * ROW], useq_size;
static int useq_break; /* 1: rows of a bad width; 2: an item of rank 17 */

/* T = S, its data and shapes aliased. */
static void useq_invoke(void **args) {
  useq_results *r = (useq_results *)args[0];
  int64_t i;
  r->data = *(const memref1 *)args[1];
  r->shapes = *(const memref1 *)args[2];
  useq_size = r->shapes.sizes[0];
  for (i = 0; i < useq_size && i < 3 * ROW; ++i)
    useq_shapes[i] = ((const int64_t *)r->shapes.aligned)[i];
  if (useq_break == 1)
    r->shapes.sizes[0] = ROW + 1;
  if (useq_break == 2) {
    /* A copy: the input's rows are only read. */
    static int64_t bad[ROW];
    bad[0] = ONNXC_MAX_RANK + 1;
    r->shapes.allocated = GLOBAL;
    r->shapes.aligned = bad;
    r->shapes.sizes[0] = ROW;
  }
}

static void test_unranked_sequences(void) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {7, 8, 9}, c = 10;
  onnxc_tensor items[3], in, out;
  int64_t k;
  items[0] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 2, 3);
  items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 3);
  in = onnxc_make_sequence(items, 2);
  memset(&out, 0, sizeof out);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  /* One row per item: rank, dims, zeros. */
  CHECK(useq_size == 2 * ROW);
  CHECK(useq_shapes[0] == 2 && useq_shapes[1] == 2 && useq_shapes[2] == 3 &&
        useq_shapes[3] == 0 && useq_shapes[ROW - 1] == 0);
  CHECK(useq_shapes[ROW] == 2 && useq_shapes[ROW + 1] == 1 &&
        useq_shapes[ROW + 2] == 3);
  CHECK(out.num_items == 2);
  CHECK(out.items[0].rank == 2 && out.items[0].shape[0] == 2 &&
        out.items[0].shape[1] == 3 && floats_equal(&out.items[0], a, 6));
  CHECK(out.items[1].rank == 2 && out.items[1].shape[0] == 1 &&
        floats_equal(&out.items[1], b, 3));
  onnxc_tensor_release(&out);
  /* Items of different ranks: a scalar, a vector, a matrix. */
  items[0] = tensor(&c, ONNXC_DTYPE_FLOAT, 0, 0, 0);
  items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 1, 3, 0);
  items[2] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 3, 2);
  in = onnxc_make_sequence(items, 3);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  CHECK(useq_size == 3 * ROW && useq_shapes[0] == 0 && useq_shapes[1] == 0 &&
        useq_shapes[ROW] == 1 && useq_shapes[ROW + 1] == 3 &&
        useq_shapes[2 * ROW] == 2 && useq_shapes[2 * ROW + 1] == 3 &&
        useq_shapes[2 * ROW + 2] == 2);
  for (k = 0; k < 3 * ROW; ++k)
    if (k % ROW > (k < ROW ? 0 : k < 2 * ROW ? 1 : 2))
      CHECK(useq_shapes[k] == 0);
  CHECK(out.num_items == 3);
  CHECK(out.items[0].rank == 0 && *(float *)out.items[0].data == 10);
  CHECK(out.items[1].rank == 1 && out.items[1].shape[0] == 3 &&
        floats_equal(&out.items[1], b, 3));
  CHECK(out.items[2].rank == 2 && out.items[2].shape[0] == 3 &&
        out.items[2].shape[1] == 2 && floats_equal(&out.items[2], a, 6));
  onnxc_tensor_release(&out);
  /* No items: no rows. */
  in = onnxc_make_sequence(NULL, 0);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  CHECK(useq_size == 0 && out.num_items == 0);
  /* Ranks must fit a row. */
  in = onnxc_make_sequence(items, 3);
  items[1].rank = ONNXC_MAX_RANK + 1;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_SHAPE,
              "input 'S' item 1: rank 17 is outside [0, 16]");
  items[1].rank = 1;
  /* Rows the model got wrong. */
  useq_break = 1;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "output 'T': the model produced 18 shapes, not rows of 17");
  CHECK(out.num_items == 0 && out.items == NULL);
  useq_break = 2;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "output 'T' item 0: the model produced rank 17");
  CHECK(out.num_items == 0 && out.items == NULL);
  useq_break = 0;
  /* Only sequences may leave their rank open. */
  {
    static const onnxc_value_info bad_in[] = {
        {"X", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_TENSOR, 0}};
    onnxc_model_info bad = useq_info;
    bad.inputs = bad_in;
    CHECK_ERROR(onnxc_run_model(&bad, useq_invoke, &in, 1, &out, 1),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'X' has rank -1");
  }
}

/*===------------------------ helpers and threads
 * ---------------------------===*/

static void test_helpers(void) {
  onnxc_tensor t;
  memset(&t, 0, sizeof t);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_FLOAT) == 4);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_BOOL) == 1);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_FLOAT16) == 2);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_BFLOAT16) == 2);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_UINT64) == 8);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_COMPLEX128) == 16);
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_STRING) == 0);
  CHECK(onnxc_dtype_size(1234) == 0);
  CHECK(strcmp(onnxc_status_string(ONNXC_OK), "ok") == 0);
  CHECK(strcmp(onnxc_status_string(ONNXC_ERROR_SHAPE), "shape mismatch") == 0);
  CHECK(strcmp(onnxc_status_string((onnxc_status)77), "unknown status") == 0);
  CHECK(onnxc_tensor_numel(&t) == 1); /* a scalar */
  t.rank = 2;
  t.shape[0] = 3;
  t.shape[1] = 5;
  CHECK(onnxc_tensor_numel(&t) == 15);
  t.shape[1] = -2;
  CHECK(onnxc_tensor_numel(&t) == -1);
  t.rank = ONNXC_MAX_RANK + 1;
  CHECK(onnxc_tensor_numel(&t) == -1);
  CHECK(onnxc_tensor_numel(NULL) == -1);
  onnxc_tensor_release(NULL);
}

static void *thread_main(void *arg) {
  int id = (int)(intptr_t)arg, i, bad = 0;
  float x[4 * 8];
  for (i = 0; i < 4 * 8; ++i)
    x[i] = (float)(id * 100 + i);
  for (i = 0; i < 2000; ++i) {
    int64_t n = 1 + (i + id) % 8;
    onnxc_tensor in = tensor(x, ONNXC_DTYPE_FLOAT, 2, n, 4), out;
    char expected[64];
    memset(&out, 0, sizeof out);
    if (run_add_one(&in, &out) != ONNXC_OK || out.shape[0] != n ||
        ((float *)out.data)[n * 4 - 1] != x[n * 4 - 1] + 1.0f)
      ++bad;
    onnxc_tensor_release(&out);
    in.shape[1] = 5 + id;
    snprintf(expected, sizeof expected, "input 'X' dim 1: expected 4, got %d",
             5 + id);
    if (run_add_one(&in, &out) != ONNXC_ERROR_SHAPE ||
        strcmp(onnxc_last_error(), expected) != 0)
      ++bad;
  }
  return (void *)(intptr_t)bad;
}

static void test_threads(void) {
  pthread_t threads[4];
  int i;
  for (i = 0; i < 4; ++i)
    CHECK(pthread_create(&threads[i], NULL, thread_main, (void *)(intptr_t)i) ==
          0);
  for (i = 0; i < 4; ++i) {
    void *bad = NULL;
    CHECK(pthread_join(threads[i], &bad) == 0);
    CHECK(bad == NULL);
  }
}

/* memrefCopy (memref.c), what MLIR's lowering calls for a copy between
 * memrefs that are not both contiguous: against an element-by-element
 * reference, for element sizes 1, 2, 3, 4 and 8, contiguous and strided
 * rows, transposed, negative and zero strides, rank 0 and empty copies. */
struct onnxc_unranked_memref { /* runtime_abi.h declares it incomplete */
  int64_t rank;
  void *descriptor;
};

typedef struct memref_desc4 {
  void *allocated, *aligned;
  int64_t offset;
  int64_t sizes_strides[8]; /* sizes[rank], then strides[rank] */
} memref_desc4;

static memref_desc4 memref_desc(char *base, int64_t rank, int64_t offset,
                                const int64_t *sizes, const int64_t *strides) {
  memref_desc4 m;
  int64_t i;
  memset(&m, 0, sizeof m);
  m.allocated = m.aligned = base;
  m.offset = offset;
  for (i = 0; i < rank; ++i) {
    m.sizes_strides[i] = sizes[i];
    m.sizes_strides[rank + i] = strides[i];
  }
  return m;
}

static void test_memref_copy(void) {
  static const struct {
    int64_t rank, sizes[4], soff, sstr[4], doff, dstr[4];
  } cases[] = {
      {2, {3, 5}, 2, {7, 1}, 0, {5, 1}},          /* rows of a wider source */
      {2, {4, 3}, 0, {1, 4}, 1, {3, 1}},          /* transposed */
      {3, {2, 3, 4}, 12, {-12, 4, 1}, 0, {1, 2, 6}}, /* negative, scattered */
      {1, {5}, 3, {0}, 0, {2}},                    /* broadcast, strided */
      {4, {2, 2, 3, 2}, 0, {24, 12, 4, 2}, 0, {12, 6, 2, 1}},
      {0, {0}, 4, {0}, 2, {0}},                    /* rank 0 */
      {2, {3, 0}, 0, {4, 1}, 0, {1, 1}},           /* empty */
  };
  static const int64_t elem_sizes[] = {1, 2, 3, 4, 8};
  size_t c, e;
  for (c = 0; c < sizeof cases / sizeof cases[0]; ++c)
    for (e = 0; e < sizeof elem_sizes / sizeof elem_sizes[0]; ++e) {
      int64_t es = elem_sizes[e], rank = cases[c].rank, n = 1, k, i;
      char src[64 * 8], dst[64 * 8], ref[64 * 8];
      int64_t idx[4] = {0, 0, 0, 0};
      memref_desc4 sd, dd;
      struct onnxc_unranked_memref su, du;
      for (k = 0; k < (int64_t)sizeof src; ++k) {
        src[k] = (char)(k * 7 + 3);
        dst[k] = ref[k] = (char)(k * 5 + 1);
      }
      for (i = 0; i < rank; ++i)
        n *= cases[c].sizes[i];
      /* The reference: element by element in row-major order. */
      for (k = 0; k < n; ++k) {
        int64_t so = cases[c].soff, doff = cases[c].doff;
        for (i = 0; i < rank; ++i) {
          so += idx[i] * cases[c].sstr[i];
          doff += idx[i] * cases[c].dstr[i];
        }
        memcpy(ref + doff * es, src + so * es, (size_t)es);
        for (i = rank - 1; i >= 0; --i) {
          if (++idx[i] < cases[c].sizes[i])
            break;
          idx[i] = 0;
        }
      }
      sd = memref_desc(src, rank, cases[c].soff, cases[c].sizes, cases[c].sstr);
      dd = memref_desc(dst, rank, cases[c].doff, cases[c].sizes, cases[c].dstr);
      su.rank = du.rank = rank;
      su.descriptor = &sd;
      du.descriptor = &dd;
      memrefCopy(es, &su, &du);
      if (memcmp(dst, ref, sizeof dst) != 0)
        printf("memrefCopy case %d, element size %d: ", (int)c, (int)es);
      CHECK(memcmp(dst, ref, sizeof dst) == 0);
    }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fail-outside") == 0) {
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "called from main");
    return 0;
  }
  CHECK(strcmp(onnxc_last_error(), "") == 0);
  test_helpers();
  test_memref_copy();
  test_add_one();
  test_input_errors();
  test_output_preset_errors();
  test_views();
  test_output_shapes();
  test_symbols();
  test_bad_info();
  test_rt_fail();
  test_arena();
  test_messages();
  test_sequences();
  test_unranked_sequences();
  test_threads();
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

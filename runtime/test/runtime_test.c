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
    {"X", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms}};
static const onnxc_value_info add_one_out[] = {
    {"Y", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms}};
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
    {"X", ONNXC_DTYPE_FLOAT, 1, dims3, NULL}};
static const onnxc_value_info views_out[] = {
    {"alias", ONNXC_DTYPE_FLOAT, 1, dims3, NULL},
    {"global", ONNXC_DTYPE_FLOAT, 2, dims23, NULL},
    {"fresh", ONNXC_DTYPE_FLOAT, 2, dims23, NULL},
    {"fresh_again", ONNXC_DTYPE_FLOAT, 2, dims23, NULL},
    {"transposed", ONNXC_DTYPE_FLOAT, 2, dims32, NULL},
    {"reversed", ONNXC_DTYPE_FLOAT, 1, dims6, NULL},
    {"broadcast", ONNXC_DTYPE_FLOAT, 2, dims23, NULL},
    {"offset", ONNXC_DTYPE_FLOAT, 1, dims2, NULL},
    {"scalar", ONNXC_DTYPE_DOUBLE, 0, NULL, NULL},
    {"flags", ONNXC_DTYPE_BOOL, 1, dims3, NULL}};
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
    {"A", ONNXC_DTYPE_INT64, 1, dyn1, sym0}};
static const onnxc_value_info shapes_out[] = {
    {"same_n", ONNXC_DTYPE_INT64, 1, dyn1, sym0},
    {"four", ONNXC_DTYPE_INT64, 1, dims2, NULL},
    {"count", ONNXC_DTYPE_INT64, 1, dyn1, sym1}};
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
    {"X", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nk},
    {"Y", ONNXC_DTYPE_FLOAT, 1, dyn1, sym1},
    {"Sq", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nn}};
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
      {"text", ONNXC_DTYPE_STRING, 1, dims3, NULL}};
  static const onnxc_value_info c_out[] = {
      {"z", ONNXC_DTYPE_UNDEFINED, 1, dims3, NULL}};
  static const int32_t bad_sym[] = {3};
  static const onnxc_value_info bad_sym_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, 1, dyn1, bad_sym}};
  static const onnxc_value_info big_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, ONNXC_MAX_RANK + 1, dims3, NULL}};
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
  /* A buffer allocated before the failure leaks (documented). */
  set1(r, NULL, NULL, 0, 0, 1);
  onnxc_rt_fail(
      fail_with_code,
      fail_with_code == 42 ? NULL : "Gather: index 7 is out of range [-3, 3)");
}

static const onnxc_value_info fail_out[] = {
    {"out", ONNXC_DTYPE_FLOAT, 1, dims3, NULL}};
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

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fail-outside") == 0) {
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "called from main");
    return 0;
  }
  CHECK(strcmp(onnxc_last_error(), "") == 0);
  test_helpers();
  test_add_one();
  test_input_errors();
  test_output_preset_errors();
  test_views();
  test_output_shapes();
  test_symbols();
  test_bad_info();
  test_rt_fail();
  test_threads();
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

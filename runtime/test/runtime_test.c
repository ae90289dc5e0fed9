/*===- runtime_test.c - Unit test of the onnxc C runtime ------------------===*
 *
 * Drives onnxc_run_model with hand-written models (fake `invoke` functions
 * following runtime_abi.h) and checks every status and message. Prints one
 * line per failed check and exits 1 if any failed.
 *
 *   onnxc-runtime-test               run every check
 *   onnxc-runtime-test fail-outside  call onnxc_rt_fail outside a run (aborts)
 *===----------------------------------------------------------------------===*/

#include "runtime_test.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int checks, failures;

/*===------------------ add_one: float[N,4] -> float[N,4]
 * ------------------===*/

static const int64_t n4_dims[] = {-1, 4};
static const int32_t n4_syms[] = {0, -1};
static const char *const n_symbols[] = {"N"};
static const onnxc_value_info add_one_in[] = {
    {"X", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0, 0}};
static const onnxc_value_info add_one_out[] = {
    {"Y", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0, 0}};
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
    {"X", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0, 0}};
static const onnxc_value_info views_out[] = {
    {"alias", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0, 0},
    {"global", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0, 0},
    {"fresh", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0, 0},
    {"fresh_again", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0, 0},
    {"transposed", ONNXC_DTYPE_FLOAT, 2, dims32, NULL, 0, 0, 0},
    {"reversed", ONNXC_DTYPE_FLOAT, 1, dims6, NULL, 0, 0, 0},
    {"broadcast", ONNXC_DTYPE_FLOAT, 2, dims23, NULL, 0, 0, 0},
    {"offset", ONNXC_DTYPE_FLOAT, 1, dims2, NULL, 0, 0, 0},
    {"scalar", ONNXC_DTYPE_DOUBLE, 0, NULL, NULL, 0, 0, 0},
    {"flags", ONNXC_DTYPE_BOOL, 1, dims3, NULL, 0, 0, 0}};
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
    {"A", ONNXC_DTYPE_INT64, 1, dyn1, sym0, 0, 0, 0}};
static const onnxc_value_info shapes_out[] = {
    {"same_n", ONNXC_DTYPE_INT64, 1, dyn1, sym0, 0, 0, 0},
    {"four", ONNXC_DTYPE_INT64, 1, dims2, NULL, 0, 0, 0},
    {"count", ONNXC_DTYPE_INT64, 1, dyn1, sym1, 0, 0, 0}};
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
    {"X", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nk, 0, 0, 0},
    {"Y", ONNXC_DTYPE_FLOAT, 1, dyn1, sym1, 0, 0, 0},
    {"Sq", ONNXC_DTYPE_FLOAT, 2, dyn2, sym_nn, 0, 0, 0}};
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
      {"text", ONNXC_DTYPE_STRING, 1, dims3, NULL, 0, 0, 0}};
  static const onnxc_value_info c_out[] = {
      {"z", ONNXC_DTYPE_UNDEFINED, 1, dims3, NULL, 0, 0, 0}};
  static const int32_t bad_sym[] = {3};
  static const onnxc_value_info bad_sym_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, 1, dyn1, bad_sym, 0, 0, 0}};
  static const onnxc_value_info big_in[] = {
      {"X", ONNXC_DTYPE_FLOAT, ONNXC_MAX_RANK + 1, dims3, NULL, 0, 0, 0}};
  onnxc_model_info info = {"bad", 1, 0, str_in, NULL, 0, NULL};
  onnxc_tensor in = tensor(NULL, ONNXC_DTYPE_STRING, 1, 3, 0), out;
  memset(&out, 0, sizeof out);

  /* String inputs are arrays of non-null pointers (docs/strings.md). */
  CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
              ONNXC_ERROR_INVALID_ARGUMENT, "input 'text': data is null");
  {
    static const char *strs[3] = {"a", NULL, "c"};
    in.data = (void *)strs;
    CHECK_ERROR(onnxc_run_model(&info, noop_invoke, &in, 1, NULL, 0),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "input 'text': string 1 is a null pointer");
  }
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
    {"out", ONNXC_DTYPE_FLOAT, 1, dims3, NULL, 0, 0, 0}};
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
    {"Y", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0, 0},
    {"Z", ONNXC_DTYPE_FLOAT, 2, n4_dims, n4_syms, 0, 0, 0}};
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
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_STRING) == sizeof(const char *));
  CHECK(onnxc_dtype_size(1234) == 0);
  /* float8: a byte each; the 4-bit types two per byte. */
  CHECK(onnxc_dtype_size(ONNXC_DTYPE_FLOAT8E5M2FNUZ) == 1);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_FLOAT8E4M3FN, 5) == 5);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_INT4, 5) == 3);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_UINT4, 4) == 2);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_FLOAT4E2M1, 0) == 0);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_FLOAT, 3) == 12);
  CHECK(onnxc_dtype_bytes(ONNXC_DTYPE_INT4, -1) == 0);
  CHECK(onnxc_dtype_bytes(1234, 3) == 0);
  CHECK(strcmp(onnxc_dtype_name(ONNXC_DTYPE_INT4), "int4") == 0);
  CHECK(strcmp(onnxc_dtype_name(ONNXC_DTYPE_FLOAT4E2M1), "float4e2m1") == 0);
  CHECK(strcmp(onnxc_dtype_name(24), "unknown") == 0);
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
  /* An overflowing product before a 0 is 0 elements (it gave -1), one past
   * it still overflows, and a negative dim after a 0 is still -1. */
  t.rank = 3;
  t.shape[0] = (int64_t)1 << 32;
  t.shape[1] = (int64_t)1 << 32;
  t.shape[2] = 0;
  CHECK(onnxc_tensor_numel(&t) == 0);
  t.shape[2] = 2;
  CHECK(onnxc_tensor_numel(&t) == -1);
  t.shape[0] = 0;
  t.shape[2] = -1;
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

/* Large blocks (alloc.c): from 512 KiB on, whole 2 MiB pages on a 2 MiB
 * boundary (the block's 32-byte header first), kept across calls and
 * handed out again for a request of the same pages; with
 * ONNXC_HUGE_PAGES=0 (test/runtime/runtime.test runs both), malloc's.
 * (Not under AddressSanitizer, which gets malloc's exact blocks.) */
/* alloc.c's (internal.h): whether the allocator's cache holds a raw
 * block. The test links the static runtime, hidden symbols included. */
int onnxc_rt_cache_holds(const void *block);
/* alloc.c's (internal.h): a block that lives across calls, for the kept
 * and derived weights. */
void *onnxc_rt_malloc_large(size_t size);

static void test_huge_blocks(void) {
  const char *env = getenv("ONNXC_HUGE_PAGES");
  int huge = !(env && strcmp(env, "0") == 0);
  /* onnxc_rt_malloc_large's blocks start on a cache line at every size
   * (the kernels read kept weights a zmm vector at a time; malloc's
   * blocks of 256 KiB started 16 bytes into a page), and on a 2 MiB
   * boundary from 512 KiB on when huge pages are on. */
  {
    static const size_t sizes[] = {100, (size_t)256 << 10, (size_t)300 << 10,
                                   (size_t)1 << 20};
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
      char *p = (char *)onnxc_rt_malloc_large(sizes[i]);
      CHECK(p != NULL && (uintptr_t)p % 64 == 0);
#if !defined(__SANITIZE_ADDRESS__)
      if (sizes[i] >= ((size_t)512 << 10))
        CHECK(((uintptr_t)p % ((size_t)2 << 20) == 0) == huge);
#endif
      memset(p, 1, sizes[i]);
      free(p);
    }
  }
#if defined(__SANITIZE_ADDRESS__)
  /* Built with AddressSanitizer (runtime-sanitizers.test), the allocator
   * hands out exact malloc blocks and keeps none. */
  return;
#endif
  size_t page = (size_t)2 << 20;
  char *a = (char *)_mlir_memref_to_llvm_alloc((size_t)1536 << 10), *b, *c;
  CHECK(a != NULL);
  CHECK((((uintptr_t)(a - 32)) % page == 0) == huge);
  memset(a, 1, (size_t)1536 << 10);
  _mlir_memref_to_llvm_free(a);
  /* The same pages for 1.5 MiB again, and for 600 KiB (one page too). */
  b = (char *)_mlir_memref_to_llvm_alloc((size_t)1536 << 10);
  CHECK(b == a);
  _mlir_memref_to_llvm_free(b);
  c = (char *)_mlir_memref_to_llvm_alloc((size_t)600 << 10);
  CHECK(huge ? c == a : c != NULL);
  _mlir_memref_to_llvm_free(c);
  /* Below 512 KiB: malloc's blocks. */
  c = (char *)_mlir_memref_to_llvm_alloc((size_t)400 << 10);
  CHECK(c != NULL && ((uintptr_t)(c - 32)) % page != 0);
  _mlir_memref_to_llvm_free(c);
  /* A released output this runtime handed over goes back to its cache
   * (outputs.c, alloc.c's onnxc_rt_release_owner); one whose header lacks
   * the hand-over mark (a block of another library's copy of the runtime)
   * goes to libc. */
  {
    static float big[65536 * 4];
    onnxc_tensor in = tensor(big, ONNXC_DTYPE_FLOAT, 2, 65536, 4), out[2];
    void *owners[2];
    const char *off = getenv("ONNXC_DISABLE_ALLOC_CACHE");
    int pass, cached = !(off && off[0] && strcmp(off, "0") != 0);
    for (pass = 0; pass < 2; ++pass) {
      arena_mode = 0;
      memset(out, 0, sizeof out);
      CHECK(onnxc_run_model(&arena_info, arena_invoke, &in, 1, out, 2) ==
            ONNXC_OK);
      owners[0] = out[0].owner;
      owners[1] = out[1].owner;
      CHECK(owners[0] != NULL && owners[1] != NULL);
      CHECK(!onnxc_rt_cache_holds(owners[0]) &&
            !onnxc_rt_cache_holds(owners[1]));
      if (pass == 1) /* as another copy's blocks: no mark */
        memset(owners[0], 0, 16), memset(owners[1], 0, 16);
      onnxc_tensor_release(&out[0]);
      onnxc_tensor_release(&out[1]);
      CHECK(onnxc_rt_cache_holds(owners[0]) == (pass == 0 && cached));
      CHECK(onnxc_rt_cache_holds(owners[1]) == (pass == 0 && cached));
    }
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
  test_huge_blocks();
  test_messages();
  test_sequences();
  test_unranked_sequences();
  test_maps();
  test_threads();
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

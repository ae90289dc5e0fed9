/*===- runtime_test_maps.c - Maps and sequences of maps through the API ---===*
 *
 * Part of the runtime's unit test (runtime_test.c runs these): maps
 * (ONNXC_VALUE_MAP) crossing onnxc_run_model both ways (runtime_abi.h's
 * keys, values and sizes memrefs), ownership of the outputs, and every
 * error for a bad map input.
 *===----------------------------------------------------------------------===*/

#include "runtime_test.h"

#include <stdio.h>

/*   inputs:  M map<string, float>, S seq<map<int64, double>>
 *   outputs: R map<string, float> = M with values + 1 (keys as the model's
 *              own strings: the runtime must copy them out)
 *            Z seq<map<int64, double>> = S with the maps reversed */
static const int64_t map_dims[] = {-1};
static const onnxc_value_info map_in[] = {
    {"M", ONNXC_DTYPE_FLOAT, 1, map_dims, NULL, ONNXC_VALUE_MAP, 0,
     ONNXC_DTYPE_STRING},
    {"S", ONNXC_DTYPE_DOUBLE, 1, map_dims, NULL, ONNXC_VALUE_SEQUENCE,
     ONNXC_VALUE_MAP, ONNXC_DTYPE_INT64}};
static const onnxc_value_info map_out[] = {
    {"R", ONNXC_DTYPE_FLOAT, 1, map_dims, NULL, ONNXC_VALUE_MAP, 0,
     ONNXC_DTYPE_STRING},
    {"Z", ONNXC_DTYPE_DOUBLE, 1, map_dims, NULL, ONNXC_VALUE_SEQUENCE,
     ONNXC_VALUE_MAP, ONNXC_DTYPE_INT64}};
static const onnxc_model_info map_info = {"maps", 2, 2, map_in, map_out, 0,
                                          NULL};

typedef struct map_results {
  memref1 r_keys, r_values, z_keys, z_values, z_sizes;
} map_results;

static int map_break; /* 1: Z's sizes need more than its entries */

static void map_invoke(void **args) {
  map_results *r = (map_results *)args[0];
  const memref1 *mk = (const memref1 *)args[1];
  const memref1 *mv = (const memref1 *)args[2];
  const memref1 *sk = (const memref1 *)args[3];
  const memref1 *sv = (const memref1 *)args[4];
  const memref1 *ss = (const memref1 *)args[5];
  int64_t n = mk->sizes[0], total = sk->sizes[0], m = ss->sizes[0], i, j;
  int64_t *rk = (int64_t *)onnxc_rt_alloc((size_t)(n + 1) * 8, NULL);
  float *rv = (float *)onnxc_rt_alloc((size_t)(n + 1) * 4, NULL);
  int64_t *zk = (int64_t *)onnxc_rt_alloc((size_t)(total + 1) * 8, NULL);
  double *zv = (double *)onnxc_rt_alloc((size_t)(total + 1) * 8, NULL);
  int64_t *zs = (int64_t *)onnxc_rt_alloc((size_t)(m + 1) * 8, NULL);
  const int64_t *sizes = (const int64_t *)ss->aligned + ss->offset;
  static const char *names[] = {"alpha", "beta", "gamma", "delta"};
  int64_t out = 0;
  for (i = 0; i < n; ++i) {
    /* The model's own strings stand for the keys, by position. */
    rk[i] = (int64_t)(uintptr_t)names[i % 4];
    rv[i] = ((const float *)mv->aligned)[mv->offset + i] + 1.0f;
  }
  /* The maps in reverse order. */
  for (j = m - 1; j >= 0; --j) {
    int64_t start = 0, k;
    for (k = 0; k < j; ++k)
      start += sizes[k];
    for (k = 0; k < sizes[j]; ++k, ++out) {
      zk[out] = ((const int64_t *)sk->aligned)[sk->offset + start + k];
      zv[out] = ((const double *)sv->aligned)[sv->offset + start + k];
    }
    zs[m - 1 - j] = sizes[j] + (map_break == 1 ? 5 : 0);
  }
  set1(&r->r_keys, rk, rk, 0, n, 1);
  set1(&r->r_values, rv, rv, 0, n, 1);
  set1(&r->z_keys, zk, zk, 0, total, 1);
  set1(&r->z_values, zv, zv, 0, total, 1);
  set1(&r->z_sizes, zs, zs, 0, m, 1);
}

static onnxc_tensor vec(void *data, int32_t dtype, int64_t n) {
  return tensor(data, dtype, 1, n, 0);
}

void test_maps(void) {
  const char *mkeys[] = {"x", "y", "z"};
  float mvals[] = {1.0f, 2.5f, -3.0f};
  int64_t k0[] = {4, 1}, k1[] = {9}, k2[] = {0, 0};
  double v0[] = {0.5, 1.5}, v1[] = {9.0};
  onnxc_tensor m_items[2], s_items[2][2], maps[2], in[2], out[2], bad;
  onnxc_tensor keys = vec(mkeys, ONNXC_DTYPE_STRING, 3);
  onnxc_tensor values = vec(mvals, ONNXC_DTYPE_FLOAT, 3);
  onnxc_tensor tk, tv;
  memset(out, 0, sizeof out);
  in[0] = onnxc_make_map(m_items, &keys, &values);
  tk = vec(k0, ONNXC_DTYPE_INT64, 2);
  tv = vec(v0, ONNXC_DTYPE_DOUBLE, 2);
  maps[0] = onnxc_make_map(s_items[0], &tk, &tv);
  tk = vec(k1, ONNXC_DTYPE_INT64, 1);
  tv = vec(v1, ONNXC_DTYPE_DOUBLE, 1);
  maps[1] = onnxc_make_map(s_items[1], &tk, &tv);
  in[1] = onnxc_make_sequence(maps, 2);

  CHECK(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2) == ONNXC_OK);
  CHECK(out[0].kind == ONNXC_VALUE_MAP && out[0].num_items == 2 &&
        out[0].dtype == ONNXC_DTYPE_FLOAT && out[0].owner != NULL);
  if (out[0].kind == ONNXC_VALUE_MAP && out[0].num_items == 2) {
    const onnxc_tensor *k = &out[0].items[0], *v = &out[0].items[1];
    const char *const *ks = (const char *const *)k->data;
    float expected[] = {2.0f, 3.5f, -2.0f};
    CHECK(k->dtype == ONNXC_DTYPE_STRING && k->rank == 1 && k->shape[0] == 3);
    CHECK(v->dtype == ONNXC_DTYPE_FLOAT && v->rank == 1 && v->shape[0] == 3);
    CHECK(strcmp(ks[0], "alpha") == 0 && strcmp(ks[2], "gamma") == 0);
    /* Copied into the map's block, not the library's strings. */
    CHECK((const char *)ks[0] > (const char *)out[0].owner &&
          k->owner == NULL && v->owner == NULL);
    CHECK(floats_equal(v, expected, 3));
  }
  CHECK(out[1].kind == ONNXC_VALUE_SEQUENCE && out[1].num_items == 2);
  if (out[1].kind == ONNXC_VALUE_SEQUENCE && out[1].num_items == 2) {
    const onnxc_tensor *a = &out[1].items[0], *b = &out[1].items[1];
    CHECK(a->kind == ONNXC_VALUE_MAP && a->items[0].shape[0] == 1 &&
          ((int64_t *)a->items[0].data)[0] == 9 &&
          ((double *)a->items[1].data)[0] == 9.0);
    CHECK(b->kind == ONNXC_VALUE_MAP && b->items[0].shape[0] == 2 &&
          ((int64_t *)b->items[0].data)[1] == 1 &&
          ((double *)b->items[1].data)[0] == 0.5);
  }
  onnxc_tensor_release(&out[0]);
  onnxc_tensor_release(&out[1]);
  CHECK(out[0].owner == NULL && out[0].items == NULL && out[1].items == NULL);

  /* Empty maps and an empty sequence of maps. */
  keys.shape[0] = values.shape[0] = 0;
  in[0] = onnxc_make_map(m_items, &keys, &values);
  in[1] = onnxc_make_sequence(NULL, 0);
  CHECK(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2) == ONNXC_OK);
  CHECK(out[0].kind == ONNXC_VALUE_MAP && out[0].items[0].shape[0] == 0 &&
        out[1].num_items == 0);
  onnxc_tensor_release(&out[0]);
  onnxc_tensor_release(&out[1]);
  keys.shape[0] = values.shape[0] = 3;
  in[0] = onnxc_make_map(m_items, &keys, &values);
  in[1] = onnxc_make_sequence(maps, 2);

  /* The model's sizes must fit its entries. */
  map_break = 1;
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_RUNTIME,
              "output 'Z' item 0: the model's map sizes need more than its 3 "
              "entries");
  CHECK(out[0].owner == NULL && out[1].items == NULL);
  map_break = 0;

  /* Bad inputs, one line each. */
  bad = values;
  in[0] = bad;
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_DTYPE, "input 'M': expected a map, got a tensor");
  in[0] = onnxc_make_map(m_items, &keys, &values);
  in[0].num_items = 3;
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'M': a map holds 2 items (keys, values), got 3");
  tk = vec(k0, ONNXC_DTYPE_INT64, 2);
  tv = vec(mvals, ONNXC_DTYPE_FLOAT, 2);
  in[0] = onnxc_make_map(m_items, &tk, &tv);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_DTYPE,
              "input 'M' keys: expected dtype string, got int64");
  tv = vec(v0, ONNXC_DTYPE_DOUBLE, 2);
  keys.shape[0] = 2;
  in[0] = onnxc_make_map(m_items, &keys, &tv);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_DTYPE,
              "input 'M' values: expected dtype float, got double");
  keys.shape[0] = 3;
  values.shape[0] = 2;
  in[0] = onnxc_make_map(m_items, &keys, &values);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_SHAPE, "input 'M': 3 keys but 2 values");
  values.shape[0] = 3;
  mkeys[2] = "x";
  in[0] = onnxc_make_map(m_items, &keys, &values);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'M': key 'x' appears twice (map keys are distinct)");
  mkeys[2] = "z";
  in[0] = onnxc_make_map(m_items, &keys, &values);
  tk = vec(k2, ONNXC_DTYPE_INT64, 2);
  tv = vec(v0, ONNXC_DTYPE_DOUBLE, 2);
  maps[1] = onnxc_make_map(s_items[1], &tk, &tv);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S' item 1: key 0 appears twice (map keys are distinct)");
  in[1] = values;
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_DTYPE,
              "input 'S': expected a sequence, got a tensor");
  in[1] = onnxc_make_sequence(&values, 1);
  CHECK_ERROR(onnxc_run_model(&map_info, map_invoke, in, 2, out, 2),
              ONNXC_ERROR_DTYPE,
              "input 'S' item 0: expected a map, got a tensor");
  {
    /* The model's own description: a map needs int64 or string keys. */
    onnxc_value_info bad_in[2];
    onnxc_model_info bad_info = map_info;
    memcpy(bad_in, map_in, sizeof bad_in);
    bad_in[0].key_dtype = ONNXC_DTYPE_FLOAT;
    bad_info.inputs = bad_in;
    CHECK_ERROR(onnxc_run_model(&bad_info, map_invoke, in, 2, out, 2),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'M' has kind 3 (payload kind 0)");
  }
  CHECK(onnxc_abi_version() == ONNXC_ABI_VERSION && ONNXC_ABI_VERSION == 2);
}

/* Maps through the C API (maps.h, docs/embedding.md): a map input built
 * with onnxc_make_map, a sequence of maps output (ZipMap) released with
 * onnxc_tensor_release, and the errors of bad map inputs. */
#include "maps.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failed;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s\n", __LINE__, #c);                              \
      failed = 1;                                                              \
    }                                                                          \
  } while (0)

/* Runs the model on map `m`; prints the status's message on failure. */
static onnxc_status run(const char *what, onnxc_tensor *m, int print) {
  /* Row 0 favours cat, row 1 dog. */
  float x[4] = {3.0f, 0.0f, 0.0f, 3.0f};
  float y[3] = {-7.0f, -7.0f, -7.0f};
  onnxc_tensor label, probs;
  int64_t i, j;
  onnxc_status s;
  memset(&label, 0, sizeof label);
  memset(&probs, 0, sizeof probs);
  s = maps_run_typed(2, x, m, &label, &probs, y);
  if (s != ONNXC_OK) {
    printf("%s: %s\n", what, onnxc_last_error());
    return s;
  }
  EXPECT(probs.kind == ONNXC_VALUE_SEQUENCE && probs.num_items == 2);
  for (i = 0; i < probs.num_items; ++i) {
    const onnxc_tensor *map = &probs.items[i];
    const char *const *keys = (const char *const *)map->items[0].data;
    const float *values = (const float *)map->items[1].data;
    float sum = 0;
    EXPECT(map->kind == ONNXC_VALUE_MAP && map->num_items == 2);
    EXPECT(map->items[0].dtype == ONNXC_DTYPE_STRING &&
           map->items[1].dtype == ONNXC_DTYPE_FLOAT);
    EXPECT(map->items[0].shape[0] == 3);
    if (print)
      printf("map %lld:", (long long)i);
    for (j = 0; j < 3; ++j) {
      sum += values[j];
      if (print)
        printf(" %s=%.3f", keys[j], values[j]);
    }
    if (print)
      printf(" (label %s)\n", ((const char *const *)label.data)[i]);
    EXPECT(fabsf(sum - 1.0f) < 1e-5f);
  }
  if (print)
    printf("y: %g %g %g\n", y[0], y[1], y[2]);
  onnxc_tensor_release(&probs);
  onnxc_tensor_release(&label);
  EXPECT(probs.items == NULL && probs.owner == NULL);
  return s;
}

int main(void) {
  const char *keys[] = {"b", "zz", "a"};
  float values[] = {2.5f, 9.0f, -1.0f};
  int64_t int_keys[] = {1, 2, 3};
  onnxc_tensor k, v, items[2], m;
  memset(&k, 0, sizeof k);
  memset(&v, 0, sizeof v);
  k.data = (void *)keys;
  k.dtype = ONNXC_DTYPE_STRING;
  k.rank = 1;
  k.shape[0] = 3;
  v.data = values;
  v.dtype = ONNXC_DTYPE_FLOAT;
  v.rank = 1;
  v.shape[0] = 3;
  m = onnxc_make_map(items, &k, &v);
  EXPECT(run("run", &m, 1) == ONNXC_OK);
  EXPECT(run("run", &m, 0) == ONNXC_OK);

  /* Bad maps: one line each. */
  EXPECT(run("null map", NULL, 0) == ONNXC_ERROR_INVALID_ARGUMENT);
  keys[2] = "b";
  EXPECT(run("key twice", &m, 0) == ONNXC_ERROR_INVALID_ARGUMENT);
  keys[2] = "a";
  k.data = int_keys;
  k.dtype = ONNXC_DTYPE_INT64;
  m = onnxc_make_map(items, &k, &v);
  EXPECT(run("int64 keys", &m, 0) == ONNXC_ERROR_DTYPE);
  EXPECT(run("a tensor for the map", &v, 0) == ONNXC_ERROR_DTYPE);
  printf(failed ? "FAILED\n" : "PASSED\n");
  return failed;
}

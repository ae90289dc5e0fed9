/*===- maps.c - Maps and sequences of maps across the C API ----------------===*
 *
 * C99, libc only. The ai.onnx.ml map values (ZipMap's output,
 * DictVectorizer's and CastMap's input; runtime.h, ONNXC_VALUE_MAP): their
 * checks against the signature, the memrefs the model takes (runtime_abi.h:
 * keys, values and, for a sequence, each map's size) and the outputs built
 * from the model's memrefs (one block per map).
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-------------------------- Checks ------------------------------------===*/

static const char *kind_text(int32_t kind) {
  return kind == ONNXC_VALUE_TENSOR     ? "a tensor"
         : kind == ONNXC_VALUE_SEQUENCE ? "a sequence"
         : kind == ONNXC_VALUE_OPTIONAL ? "an optional"
         : kind == ONNXC_VALUE_MAP      ? "a map"
                                        : "a value of unknown kind";
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One 1-D part (keys or values) of map `t`. */
static onnxc_status check_part(const onnxc_tensor *p, int32_t dtype,
                               const char *label, const char *part) {
  if (p->kind != ONNXC_VALUE_TENSOR)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s %s: expected a tensor, got %s",
                          label, part, kind_text(p->kind));
  if (p->dtype != dtype)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s %s: expected dtype %s, got %s",
                          label, part, onnxc_dtype_name(dtype),
                          onnxc_dtype_name(p->dtype));
  if (p->rank != 1)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s %s: expected rank 1, got %d",
                          label, part, (int)p->rank);
  if (p->shape[0] < 0)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s %s: negative size %lld", label,
                          part, (long long)p->shape[0]);
  /* As for tensor inputs (check.c): every byte offset must fit an int64,
   * checked before anything reads the data. */
  if (onnxc_dtype_size(dtype) &&
      (uint64_t)p->shape[0] > (uint64_t)INT64_MAX / onnxc_dtype_size(dtype))
    return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                          "%s %s: %lld elements of %d bytes hold more than "
                          "2^63 - 1 bytes",
                          label, part, (long long)p->shape[0],
                          (int)onnxc_dtype_size(dtype));
  if (p->shape[0] > 0 && !p->data)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s %s: data is null",
                          label, part);
  if (dtype == ONNXC_DTYPE_STRING) {
    int64_t i;
    for (i = 0; i < p->shape[0]; ++i)
      if (!((const char *const *)p->data)[i])
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "%s %s: string %lld is a null pointer", label,
                              part, (long long)i);
  }
  return ONNXC_OK;
}

/* Map `t` against vi's key and value dtypes; its keys must be distinct. */
static onnxc_status check_map(const onnxc_value_info *vi, const onnxc_tensor *t,
                              const char *label) {
  onnxc_status status;
  int64_t n, i;
  void *sorted;
  if (t->kind != ONNXC_VALUE_MAP)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE, "%s: expected a map, got %s",
                          label, kind_text(t->kind));
  if (t->num_items != 2 || !t->items)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "%s: a map holds 2 items (keys, values), got %lld%s",
                          label, (long long)t->num_items,
                          t->items ? "" : " and a null items pointer");
  status = check_part(&t->items[0], vi->key_dtype, label, "keys");
  if (status == ONNXC_OK)
    status = check_part(&t->items[1], vi->dtype, label, "values");
  if (status != ONNXC_OK)
    return status;
  n = t->items[0].shape[0];
  if (t->items[1].shape[0] != n)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: %lld keys but %lld values",
                          label, (long long)n, (long long)t->items[1].shape[0]);
  if (n < 2)
    return ONNXC_OK;
  /* Distinct keys: a sorted copy, neighbours compared. */
  if ((uint64_t)n > (uint64_t)(SIZE_MAX / sizeof(int64_t)))
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: too many keys", label);
  sorted = malloc((size_t)n * sizeof(int64_t));
  if (!sorted)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  memcpy(sorted, t->items[0].data, (size_t)n * sizeof(int64_t));
  if (vi->key_dtype == ONNXC_DTYPE_STRING) {
    const char **s = (const char **)sorted;
    qsort(s, (size_t)n, sizeof *s, cmp_str);
    for (i = 1; i < n; ++i)
      if (strcmp(s[i - 1], s[i]) == 0) {
        status = onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                                "%s: key '%s' appears twice (map keys are "
                                "distinct)",
                                label, s[i]);
        break;
      }
  } else {
    int64_t *k = (int64_t *)sorted;
    qsort(k, (size_t)n, sizeof *k, cmp_i64);
    for (i = 1; i < n; ++i)
      if (k[i - 1] == k[i]) {
        status = onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                                "%s: key %lld appears twice (map keys are "
                                "distinct)",
                                label, (long long)k[i]);
        break;
      }
  }
  free(sorted);
  return status;
}

onnxc_status onnxc_rt_check_map_value(const onnxc_value_info *vi,
                                      const onnxc_tensor *t,
                                      const char *label) {
  char item_label[ONNXC_RT_ERROR_CAP];
  int64_t i, total = 0;
  onnxc_status status;
  if (vi->kind == ONNXC_VALUE_MAP)
    return check_map(vi, t, label);
  if (t->kind != ONNXC_VALUE_SEQUENCE)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE,
                          "%s: expected a sequence of maps, got %s", label,
                          kind_text(t->kind));
  if (t->num_items < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "%s: negative item count %lld", label,
                          (long long)t->num_items);
  if (t->num_items > 0 && !t->items)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "%s: items is null",
                          label);
  for (i = 0; i < t->num_items; ++i) {
    snprintf(item_label, sizeof item_label, "%s item %lld", label,
             (long long)i);
    status = check_map(vi, &t->items[i], item_label);
    if (status != ONNXC_OK)
      return status;
    if (total > (INT64_MAX >> 4) - t->items[i].items[0].shape[0])
      return onnxc_rt_error(ONNXC_ERROR_SHAPE, "%s: too many entries", label);
    total += t->items[i].items[0].shape[0];
  }
  return ONNXC_OK;
}

/*===-------------------------- Inputs ------------------------------------===*/

onnxc_status onnxc_rt_map_input(const onnxc_value_info *vi,
                                const onnxc_tensor *t, void **temps,
                                int32_t *num_temps, void *bufs[3],
                                int64_t sizes[3], const char *label) {
  size_t vsize = onnxc_dtype_size(vi->dtype), koff = 0, voff = 0;
  int64_t n = 0, m, i;
  char *keys, *values;
  int64_t *counts;
  if (vi->kind == ONNXC_VALUE_MAP) {
    /* The caller's arrays, as they are (the model only reads them). */
    bufs[0] = t->items[0].data;
    bufs[1] = t->items[1].data;
    sizes[0] = sizes[1] = t->items[0].shape[0];
    return ONNXC_OK;
  }
  m = t->num_items;
  for (i = 0; i < m; ++i)
    n += t->items[i].items[0].shape[0];
  /* One extra byte each, so that no buffer is empty (calloc(0)). */
  keys = (char *)calloc(1, (size_t)n * sizeof(int64_t) + 1);
  values = (char *)calloc(1, (size_t)n * vsize + 1);
  counts = (int64_t *)calloc(1, (size_t)m * sizeof(int64_t) + 1);
  if (keys)
    temps[(*num_temps)++] = keys;
  if (values)
    temps[(*num_temps)++] = values;
  if (counts)
    temps[(*num_temps)++] = counts;
  if (!keys || !values || !counts)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  for (i = 0; i < m; ++i) {
    const onnxc_tensor *map = &t->items[i];
    int64_t k = map->items[0].shape[0];
    counts[i] = k;
    if (k == 0)
      continue;
    memcpy(keys + koff, map->items[0].data, (size_t)k * sizeof(int64_t));
    memcpy(values + voff, map->items[1].data, (size_t)k * vsize);
    koff += (size_t)k * sizeof(int64_t);
    voff += (size_t)k * vsize;
  }
  bufs[0] = keys;
  bufs[1] = values;
  bufs[2] = counts;
  sizes[0] = sizes[1] = n;
  sizes[2] = m;
  return ONNXC_OK;
}

/*===-------------------------- Outputs -----------------------------------===*/

/* Element i of a 1-D result memref. */
static const char *element(const onnxc_rt_memref1 *d, int64_t i,
                           size_t esize) {
  return (const char *)d->aligned +
         (d->offset + i * d->stride) * (int64_t)esize;
}

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Map `out` of entries [start, start + n) of the keys and values memrefs:
 * one block with the two item structs, the keys, the values and the
 * strings they point to. */
static onnxc_status make_map(const onnxc_value_info *vi,
                             const onnxc_rt_memref1 *kd,
                             const onnxc_rt_memref1 *vd, int64_t start,
                             int64_t n, const char *label, onnxc_tensor *out) {
  size_t vsize = onnxc_dtype_size(vi->dtype);
  int skeys = vi->key_dtype == ONNXC_DTYPE_STRING;
  int svalues = vi->dtype == ONNXC_DTYPE_STRING;
  size_t head = align8(2 * sizeof(onnxc_tensor));
  size_t kbytes = (size_t)n * sizeof(int64_t);
  size_t vbytes = align8((size_t)n * vsize), bytes, len;
  int64_t i;
  char *block, *kp, *vp, *sp;
  if ((uint64_t)n > (uint64_t)(SIZE_MAX / 16 / (vsize + 8)))
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
  bytes = head + kbytes + vbytes;
  for (i = 0; i < n; ++i) {
    const char *s;
    if (skeys) {
      memcpy(&s, element(kd, start + i, sizeof s), sizeof s);
      len = (s ? strlen(s) : 0) + 1;
      if (bytes > SIZE_MAX - len)
        return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
      bytes += len;
    }
    if (svalues) {
      memcpy(&s, element(vd, start + i, sizeof s), sizeof s);
      len = (s ? strlen(s) : 0) + 1;
      if (bytes > SIZE_MAX - len)
        return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
      bytes += len;
    }
  }
  block = (char *)calloc(1, bytes);
  if (!block)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY,
                          "%s: out of memory (%llu bytes)", label,
                          (unsigned long long)bytes);
  kp = block + head;
  vp = kp + kbytes;
  sp = vp + vbytes;
  for (i = 0; i < n; ++i) {
    memcpy(kp + i * 8, element(kd, start + i, 8), 8);
    memcpy(vp + i * (int64_t)vsize, element(vd, start + i, vsize), vsize);
  }
  /* The strings move into the block; the pointers follow them. */
  for (i = 0; i < n && (skeys || svalues); ++i) {
    int part;
    for (part = 0; part < 2; ++part) {
      char *slot = part == 0 ? kp + i * 8 : vp + i * 8;
      const char *s;
      if (part == 0 ? !skeys : !svalues)
        continue;
      memcpy(&s, slot, sizeof s);
      len = (s ? strlen(s) : 0) + 1;
      memcpy(sp, s ? s : "", len);
      memcpy(slot, &sp, sizeof sp);
      sp += len;
    }
  }
  {
    onnxc_tensor *items = (onnxc_tensor *)block;
    items[0].data = kp;
    items[0].rank = 1;
    items[0].shape[0] = n;
    items[0].dtype = vi->key_dtype;
    items[1].data = vp;
    items[1].rank = 1;
    items[1].shape[0] = n;
    items[1].dtype = vi->dtype;
    memset(out, 0, sizeof *out);
    out->kind = ONNXC_VALUE_MAP;
    out->dtype = vi->dtype;
    out->num_items = 2;
    out->items = items;
    out->owner = block;
  }
  return ONNXC_OK;
}

onnxc_status onnxc_rt_fill_map(const onnxc_value_info *vi, const char *label,
                               const onnxc_rt_memref1 *kd,
                               const onnxc_rt_memref1 *vd,
                               const onnxc_rt_memref1 *sd, onnxc_tensor *out) {
  char item_label[ONNXC_RT_ERROR_CAP];
  int64_t n = kd->size, m, i, start = 0;
  onnxc_tensor *maps;
  onnxc_status status = ONNXC_OK;
  if (n < 0 || vd->size != n)
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                          "%s: the model produced %lld keys and %lld values",
                          label, (long long)n, (long long)vd->size);
  if (vi->kind == ONNXC_VALUE_MAP)
    return make_map(vi, kd, vd, 0, n, label, out);
  m = sd->size;
  if (m < 0 || (uint64_t)m > (uint64_t)(SIZE_MAX / sizeof(onnxc_tensor)))
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME, "%s: the model produced %lld maps",
                          label, (long long)m);
  maps = (onnxc_tensor *)calloc(m ? (size_t)m : 1, sizeof(onnxc_tensor));
  if (!maps)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  for (i = 0; i < m && status == ONNXC_OK; ++i) {
    int64_t k;
    memcpy(&k, element(sd, i, sizeof k), sizeof k);
    snprintf(item_label, sizeof item_label, "%s item %lld", label,
             (long long)i);
    if (k < 0 || k > n - start)
      status = onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                              "%s: the model's map sizes need more than its "
                              "%lld entries",
                              item_label, (long long)n);
    else
      status = make_map(vi, kd, vd, start, k, item_label, &maps[i]);
    start += k;
  }
  if (status != ONNXC_OK) {
    for (i = 0; i < m; ++i)
      free(maps[i].owner);
    free(maps);
    return status;
  }
  memset(out, 0, sizeof *out);
  out->kind = ONNXC_VALUE_SEQUENCE;
  out->dtype = vi->dtype;
  out->num_items = m;
  out->items = m ? maps : NULL;
  out->owner = m ? (void *)maps : NULL;
  if (!m)
    free(maps);
  return ONNXC_OK;
}

/*===- outputs.c - A run's results handed over as the caller's outputs ----===*
 *
 * C99, libc only. Once the model returned, onnxc_run_model (runtime.c)
 * hands its results over: every result memref is classified (a buffer of
 * the run, an input's, a constant), then every output is filled from its
 * memrefs (runtime_abi.h): a fresh contiguous buffer is handed over, any
 * other result is copied; strings and packed 4-bit values are always
 * copied; sequences get one buffer per item. A failure gives back what the
 * outputs filled so far took. onnxc_tensor_release frees what an output
 * owns.
 *
 * Thread safety: as runtime.c; the outputs belong to the calling thread.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MLIR's sentinel for the `allocated` pointer of a memref.get_global. */
#define ONNXC_GLOBAL_SENTINEL ((void *)(uintptr_t)0xdeadbeef)

/* Values nest at most two deep (an optional of a sequence of tensors); the
 * bound only keeps a corrupted struct from recursing without end. */
static void release_value(onnxc_tensor *tensor, int depth) {
  int64_t i;
  if (!tensor || !tensor->owner)
    return;
  if (tensor->kind != ONNXC_VALUE_TENSOR && tensor->items && depth < 3)
    for (i = 0; i < tensor->num_items; ++i)
      release_value(&tensor->items[i], depth + 1);
  onnxc_rt_release_owner(tensor->owner);
  tensor->owner = NULL;
  tensor->data = NULL;
  if (tensor->kind != ONNXC_VALUE_TENSOR) {
    tensor->items = NULL;
    tensor->num_items = 0;
  }
}

void onnxc_tensor_release(onnxc_tensor *tensor) { release_value(tensor, 0); }

/* String outputs (docs/codegen.md, "String tensors"): the model's result
 * holds pointers into the call's arena, the caller's inputs or the
 * library's constants. `ptrs` (n pointers, modified) becomes one malloc
 * block: n pointers followed by the NUL-terminated strings they point to
 * (a null pointer, which the model never makes, is copied as ""). Returns
 * the block, NULL when out of memory. */
static void *string_block(const char **ptrs, int64_t n) {
  size_t bytes = (size_t)n * sizeof(char *), len;
  int64_t i;
  char *block, *p;
  for (i = 0; i < n; ++i) {
    len = ptrs[i] ? strlen(ptrs[i]) + 1 : 1;
    if (bytes > SIZE_MAX - len)
      return NULL;
    bytes += len;
  }
  block = (char *)malloc(bytes ? bytes : 1);
  if (!block)
    return NULL;
  p = block + (size_t)n * sizeof(char *);
  for (i = 0; i < n; ++i) {
    const char *src = ptrs[i] ? ptrs[i] : "";
    len = strlen(src) + 1;
    memcpy(p, src, len);
    ((char **)block)[i] = p;
    p += len;
  }
  return block;
}

/* A string tensor out of result memref `state` (sizes, strides, base):
 * always a fresh block of its own. */
static onnxc_status fill_strings(const char *label, const char *base,
                                 const int64_t *sizes, const int64_t *strides,
                                 int32_t rank, int64_t numel, int contiguous,
                                 onnxc_tensor *out) {
  size_t esize = sizeof(char *);
  const char **ptrs = (const char **)malloc(numel ? (size_t)numel * esize : 1);
  void *block;
  if (!ptrs)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  if (numel > 0) {
    if (contiguous)
      memcpy(ptrs, base, (size_t)numel * esize);
    else
      onnxc_rt_copy_strided((char *)ptrs, base, sizes, strides, rank, esize);
  }
  block = string_block(ptrs, numel);
  free(ptrs);
  if (!block)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  out->owner = out->data = block;
  return ONNXC_OK;
}

/* The sizes of result memref `desc` (value `vi`) into `sizes` and their
 * product into `*numel`, checked against the signature and the input-bound
 * symbols. */
static onnxc_status result_sizes(const onnxc_model_info *info,
                                 const onnxc_value_info *vi, const char *label,
                                 const onnxc_rt_slot *desc,
                                 const onnxc_rt_binding *bindings,
                                 int64_t *sizes, int64_t *numel) {
  int32_t rank = vi->rank, d;
  for (d = 0; d < rank; ++d)
    sizes[d] = (&desc[3].i64)[d];
  *numel = onnxc_rt_shape_numel(sizes, rank);
  if (*numel < 0)
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME, "%s: the model produced an invalid shape",
                label);
  /* An empty result may leave dims it never learned at 0 (a scan output of
   * a loop that ran no step has 0 rows and rows of unknown shape): such a
   * dim takes its static or input-bound size, as long as another dim keeps
   * the result empty. */
  if (*numel == 0)
    for (d = 0; d < rank; ++d) {
      int32_t s = onnxc_rt_value_symbol(vi, d), e;
      int64_t want = vi->dims[d] >= 0 ? vi->dims[d]
                     : s >= 0 && bindings[s].input >= 0 ? bindings[s].value
                                                        : -1;
      int other_empty = 0;
      if (want < 0 || sizes[d] == want || sizes[d] != 0)
        continue;
      for (e = 0; e < rank; ++e)
        other_empty |= e != d && sizes[e] == 0;
      if (other_empty)
        sizes[d] = want;
    }
  for (d = 0; d < rank; ++d) {
    int32_t s = onnxc_rt_value_symbol(vi, d);
    if (vi->dims[d] >= 0 && sizes[d] != vi->dims[d])
      return onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                  "%s dim %d: the model produced %lld, its signature says %lld",
                  label, (int)d, (long long)sizes[d], (long long)vi->dims[d]);
    if (s >= 0 && bindings[s].input >= 0 && sizes[d] != bindings[s].value)
      return onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                  "%s dim %d: the model produced %lld, symbol '%s' is %lld",
                  label, (int)d, (long long)sizes[d], onnxc_rt_symbol_name(info, s),
                  (long long)bindings[s].value);
  }
  return ONNXC_OK;
}

/* A caller-provided buffer must have the result's shape. */
static onnxc_status check_preset_shape(const char *label,
                                       const onnxc_tensor *out,
                                       const int64_t *sizes, int32_t rank) {
  int32_t d;
  for (d = 0; d < rank; ++d)
    if (out->shape[d] != sizes[d])
      return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                  "%s dim %d: the model produced %lld, the caller's buffer "
                  "has %lld",
                  label, (int)d, (long long)sizes[d],
                  (long long)out->shape[d]);
  return ONNXC_OK;
}

/* The strided result at `base` as a packed 4-bit tensor: one byte each
 * inside, two per byte at the API, so always packed into the caller's
 * buffer (`preset`) or a fresh block. */
static onnxc_status fill_packed(const char *label, const onnxc_value_info *vi,
                                int preset, const char *base,
                                const int64_t *sizes, const int64_t *strides,
                                int64_t numel, int contiguous,
                                onnxc_tensor *out) {
  int32_t rank = vi->rank;
  size_t esize = onnxc_dtype_size(vi->dtype), bytes = (size_t)numel * esize;
  const int8_t *src = (const int8_t *)base;
  int8_t *tmp = NULL;
  size_t packed = onnxc_dtype_bytes(vi->dtype, numel);
  void *dst;
  if (numel > 0 && !contiguous) {
    tmp = (int8_t *)malloc(bytes);
    if (!tmp)
      return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
    onnxc_rt_copy_strided((char *)tmp, base, sizes, strides, rank, esize);
    src = tmp;
  }
  if (preset) {
    onnxc_status st = check_preset_shape(label, out, sizes, rank);
    if (st == ONNXC_OK && numel > 0)
      onnxc_rt_pack4((uint8_t *)out->data, src, numel);
    free(tmp);
    if (st == ONNXC_OK)
      out->owner = NULL;
    return st;
  }
  dst = malloc(packed ? packed : 1);
  if (!dst) {
    free(tmp);
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  }
  if (numel > 0)
    onnxc_rt_pack4((uint8_t *)dst, src, numel);
  free(tmp);
  out->owner = dst;
  out->data = dst;
  return ONNXC_OK;
}

/* A plain result at `base`: handed over when it is a fresh, contiguous
 * block no earlier output (states[0, k)) took, else copied into a new one. */
static onnxc_status fill_owned(const char *label, onnxc_rt_result_state *states,
                               int32_t k, int32_t rank, char *base,
                               const int64_t *sizes, const int64_t *strides,
                               int64_t numel, size_t esize, int contiguous,
                               onnxc_tensor *out) {
  onnxc_rt_result_state *state = &states[k];
  size_t bytes = (size_t)numel * esize;
  int taken = 0;
  int32_t j;
  void *copy;
  for (j = 0; j < k; ++j)
    if (states[j].handed && states[j].allocated == state->allocated)
      taken = 1;
  if (state->fresh && !taken && contiguous) {
    out->owner = state->owner ? state->owner : state->allocated;
    out->data = base;
    state->handed = 1;
    state->handed_to = out;
    return ONNXC_OK;
  }
  copy = malloc(bytes ? bytes : 1);
  if (!copy)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory (%llu bytes)",
                label, (unsigned long long)bytes);
  if (numel > 0) {
    if (contiguous)
      memcpy(copy, base, bytes);
    else
      onnxc_rt_copy_strided((char *)copy, base, sizes, strides, rank, esize);
  }
  out->owner = copy;
  out->data = copy;
  return ONNXC_OK;
}

/* Fills tensor `out` (a tensor output, or the value of an optional output)
 * from result memref `k`. On failure, `out` is as it was. */
static onnxc_status fill_tensor(const onnxc_model_info *info,
                                const onnxc_value_info *vi, const char *label,
                                onnxc_rt_result_state *states, int32_t k,
                                onnxc_tensor *out, const onnxc_rt_binding *bindings) {
  onnxc_rt_result_state *state = &states[k];
  const onnxc_rt_slot *desc = state->desc;
  int32_t rank = vi->rank, d;
  const int64_t *strides = &desc[3].i64 + rank;
  int64_t sizes[ONNXC_MAX_RANK];
  char *base;
  size_t esize = onnxc_dtype_size(vi->dtype), bytes;
  int64_t numel;
  int contiguous;
  onnxc_status st =
      result_sizes(info, vi, label, desc, bindings, sizes, &numel);

  if (st != ONNXC_OK)
    return st;
  if ((uint64_t)numel > (uint64_t)(SIZE_MAX / esize))
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
  bytes = (size_t)numel * esize;
  base = (char *)desc[1].ptr + desc[2].i64 * (int64_t)esize;
  contiguous = onnxc_rt_is_contiguous(sizes, strides, rank);

  if (onnxc_rt_dtype_packed(vi->dtype)) {
    st = fill_packed(label, vi, state->preset, base, sizes, strides, numel,
                     contiguous, out);
    if (st != ONNXC_OK || state->preset)
      return st;
  } else if (vi->dtype == ONNXC_DTYPE_STRING) {
    /* Strings are always copied out (the arena holds them). */
    st = fill_strings(label, base, sizes, strides, rank, numel, contiguous,
                      out);
    if (st != ONNXC_OK)
      return st;
  } else if (state->preset) {
    /* Caller-provided buffer: same shape or nothing. */
    st = check_preset_shape(label, out, sizes, rank);
    if (st != ONNXC_OK)
      return st;
    if (numel > 0) {
      if (contiguous)
        memmove(out->data, base, bytes);
      else
        onnxc_rt_copy_strided((char *)out->data, base, sizes, strides, rank, esize);
    }
    out->owner = NULL;
    return ONNXC_OK;
  } else {
    st = fill_owned(label, states, k, rank, base, sizes, strides, numel, esize,
                    contiguous, out);
    if (st != ONNXC_OK)
      return st;
  }
  out->rank = rank;
  out->dtype = vi->dtype;
  for (d = 0; d < rank; ++d)
    out->shape[d] = sizes[d];
  out->kind = ONNXC_VALUE_TENSOR;
  out->num_items = 0;
  out->items = NULL;
  return ONNXC_OK;
}

/* A sequence or optional value with `n` items in `items` (owned). */
static void set_container(onnxc_tensor *out, int32_t kind, int32_t dtype,
                          onnxc_tensor *items, int64_t n) {
  memset(out, 0, sizeof *out);
  out->kind = kind;
  out->dtype = dtype;
  out->num_items = n;
  out->items = items;
  out->owner = items;
}

/* Fills sequence `out` from its data and shapes memrefs: every item is
 * copied out of the data into a buffer of its own. On failure, `out` is as
 * it was. */
static onnxc_status fill_sequence(const onnxc_value_info *vi, const char *label,
                                  const onnxc_rt_slot *data_desc,
                                  const onnxc_rt_slot *shapes_desc, onnxc_tensor *out) {
  /* Items of no declared rank: rows (onnxc_rt_value_layout), each with the item's
   * rank before its dims. */
  int rows = vi->rank < 0;
  const int64_t *ssizes = &shapes_desc[3].i64;
  const int64_t *sstrides = ssizes + (rows ? 1 : 2);
  /* Item i's dims start at i * row_stride, dim d at d * dim_stride. */
  int64_t row_stride = rows ? ONNXC_RT_SEQ_ROW_WIDTH * sstrides[0] : sstrides[0];
  int64_t dim_stride = rows ? sstrides[0] : sstrides[1];
  int64_t r = vi->rank;
  int32_t d;
  int64_t size = data_desc[3].i64, stride = data_desc[4].i64;
  size_t esize = onnxc_dtype_size(vi->dtype);
  const char *dbase =
      (const char *)data_desc[1].ptr + data_desc[2].i64 * (int64_t)esize;
  const int64_t *sbase =
      (const int64_t *)shapes_desc[1].ptr + shapes_desc[2].i64;
  int64_t n = rows ? ssizes[0] / ONNXC_RT_SEQ_ROW_WIDTH : ssizes[0], i, start = 0;
  onnxc_tensor *items;
  onnxc_status status = ONNXC_OK;

  if (rows && (ssizes[0] < 0 || ssizes[0] % ONNXC_RT_SEQ_ROW_WIDTH != 0))
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                "%s: the model produced %lld shapes, not rows of %d", label,
                (long long)ssizes[0], ONNXC_RT_SEQ_ROW_WIDTH);
  /* No items: whatever the width of the shapes. */
  if (n == 0) {
    set_container(out, ONNXC_VALUE_SEQUENCE, vi->dtype, NULL, 0);
    return ONNXC_OK;
  }
  if (!rows && (n < 0 || ssizes[1] != r))
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                "%s: the model produced %lld x %lld shapes for items of rank "
                "%d",
                label, (long long)n, (long long)ssizes[1], (int)vi->rank);
  if (size < 0)
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME, "%s: the model produced %lld elements",
                label, (long long)size);
  if ((uint64_t)n > (uint64_t)(SIZE_MAX / sizeof(onnxc_tensor)))
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too many items", label);
  items = (onnxc_tensor *)calloc((size_t)n, sizeof(onnxc_tensor));
  if (!items)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  for (i = 0; i < n && status == ONNXC_OK; ++i) {
    onnxc_tensor *item = &items[i];
    const int64_t *dims = sbase + i * row_stride;
    int64_t numel;
    size_t bytes;
    void *buf;
    if (rows) {
      r = dims[0];
      dims += dim_stride;
      if (r < 0 || r > ONNXC_MAX_RANK) {
        status = onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                      "%s item %lld: the model produced rank %lld", label,
                      (long long)i, (long long)r);
        break;
      }
    }
    for (d = 0; d < r && status == ONNXC_OK; ++d) {
      int64_t got = dims[d * dim_stride];
      if (got < 0)
        status = onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                      "%s item %lld dim %d: the model produced %lld", label,
                      (long long)i, (int)d, (long long)got);
      else if (vi->rank >= 0 && vi->dims[d] >= 0 && got != vi->dims[d])
        status = onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                      "%s item %lld dim %d: the model produced %lld, its "
                      "signature says %lld",
                      label, (long long)i, (int)d, (long long)got,
                      (long long)vi->dims[d]);
      item->shape[d] = got;
    }
    if (status != ONNXC_OK)
      break;
    numel = onnxc_rt_shape_numel(item->shape, (int32_t)r);
    if (numel < 0 || numel > size - start) {
      status = onnxc_rt_error(ONNXC_ERROR_RUNTIME,
                    "%s item %lld: the model's shapes need more than the %lld "
                    "elements of its data",
                    label, (long long)i, (long long)size);
      break;
    }
    if ((uint64_t)numel > (uint64_t)(SIZE_MAX / esize)) {
      status = onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s item %lld: too large", label,
                    (long long)i);
      break;
    }
    bytes = (size_t)numel * esize;
    buf = malloc(bytes ? bytes : 1);
    if (!buf) {
      status = onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY,
                    "%s item %lld: out of memory (%llu bytes)", label,
                    (long long)i, (unsigned long long)bytes);
      break;
    }
    if (numel > 0)
      onnxc_rt_copy_strided((char *)buf, dbase + start * stride * (int64_t)esize, &numel,
                   &stride, 1, esize);
    start += numel;
    if (vi->dtype == ONNXC_DTYPE_STRING) {
      void *block = string_block((const char **)buf, numel);
      free(buf);
      if (!block) {
        status = onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY,
                                "%s item %lld: out of memory", label,
                                (long long)i);
        break;
      }
      buf = block;
    }
    item->data = item->owner = buf;
    item->rank = (int32_t)r;
    item->dtype = vi->dtype;
    item->kind = ONNXC_VALUE_TENSOR;
  }
  if (status != ONNXC_OK) {
    for (i = 0; i < n; ++i)
      free(items[i].owner);
    free(items);
    return status;
  }
  set_container(out, ONNXC_VALUE_SEQUENCE, vi->dtype, items, n);
  return ONNXC_OK;
}

/* Fills output `k` from its memrefs, states[s..]. On failure, `out` is as
 * it was. */
static onnxc_status fill_output(const onnxc_model_info *info, int32_t k,
                                onnxc_rt_result_state *states, int32_t s,
                                onnxc_tensor *out, const onnxc_rt_binding *bindings) {
  const onnxc_value_info *vi = &info->outputs[k];
  char label[ONNXC_RT_ERROR_CAP];
  onnxc_tensor *value;
  onnxc_status status;
  snprintf(label, sizeof label, "output '%s'", onnxc_rt_value_name(vi));
  if (onnxc_rt_is_map_value(vi))
    return onnxc_rt_fill_map(
        vi, label, (const onnxc_rt_memref1 *)states[s].desc,
        (const onnxc_rt_memref1 *)states[s + 1].desc,
        vi->kind == ONNXC_VALUE_SEQUENCE
            ? (const onnxc_rt_memref1 *)states[s + 2].desc
            : NULL,
        out);
  if (vi->kind == ONNXC_VALUE_TENSOR)
    return fill_tensor(info, vi, label, states, s, out, bindings);
  if (vi->kind == ONNXC_VALUE_SEQUENCE)
    return fill_sequence(vi, label, states[s].desc, states[s + 1].desc, out);
  /* An optional: the flag, then the value. */
  if (!*(const uint8_t *)((const char *)states[s].desc[1].ptr +
                          states[s].desc[2].i64)) {
    set_container(out, ONNXC_VALUE_OPTIONAL, vi->dtype, NULL, 0);
    return ONNXC_OK;
  }
  value = (onnxc_tensor *)calloc(1, sizeof(onnxc_tensor));
  if (!value)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  status = vi->payload_kind == ONNXC_VALUE_SEQUENCE
               ? fill_sequence(vi, label, states[s + 1].desc,
                               states[s + 2].desc, value)
               : fill_tensor(info, vi, label, states, s + 1, value, bindings);
  if (status != ONNXC_OK) {
    free(value);
    return status;
  }
  set_container(out, ONNXC_VALUE_OPTIONAL, vi->dtype, value, 1);
  return ONNXC_OK;
}

/* Frees the fresh result buffers no output kept, each once; those of the
 * call's arena go with it. */
static void free_unhanded(const onnxc_rt_result_state *states, int32_t n) {
  int32_t k, j;
  for (k = 0; k < n; ++k) {
    int keep = !states[k].fresh || !states[k].first || states[k].owner;
    for (j = k; !keep && j < n; ++j)
      if (states[j].allocated == states[k].allocated && states[j].handed)
        keep = 1;
    if (!keep)
      free(states[k].allocated);
  }
}

void onnxc_rt_reset_outputs(const onnxc_model_info *info,
                            onnxc_tensor *outputs) {
  int32_t k;
  for (k = 0; k < info->num_outputs; ++k) {
    if (info->outputs[k].kind != ONNXC_VALUE_TENSOR)
      set_container(&outputs[k], info->outputs[k].kind, info->outputs[k].dtype,
                    NULL, 0);
    else if (!outputs[k].data || info->outputs[k].dtype == ONNXC_DTYPE_STRING)
      outputs[k].owner = outputs[k].data = NULL;
  }
}

/* Classifies every result buffer (states[s], s over the outputs' memrefs)
 * before any is handed over. */
static void classify_results(const onnxc_model_info *info,
                             const onnxc_rt_slot *results,
                             onnxc_rt_result_state *states,
                             void *const *input_data, int32_t num_data,
                             onnxc_rt_arena *arena,
                             const onnxc_tensor *outputs) {
  const onnxc_rt_slot *desc = results;
  int32_t i, k, j, s = 0;
  for (k = 0; k < info->num_outputs; ++k) {
    onnxc_rt_layout l = onnxc_rt_value_layout(&info->outputs[k]);
    for (j = 0; j < l.count; ++j, ++s) {
      onnxc_rt_result_state *st = &states[s];
      st->desc = desc;
      st->allocated = desc[0].ptr;
      st->fresh = st->allocated != NULL &&
                  st->allocated != ONNXC_GLOBAL_SENTINEL &&
                  st->allocated != (void *)onnxc_rt_empty_buffer;
      for (i = 0; st->fresh && i < num_data; ++i)
        if (st->allocated == input_data[i])
          st->fresh = 0;
      st->owner = st->fresh ? onnxc_rt_arena_owner(arena, st->allocated) : NULL;
      st->first = 1;
      for (i = 0; i < s; ++i)
        if (states[i].allocated == st->allocated)
          st->first = 0;
      st->preset = info->outputs[k].kind == ONNXC_VALUE_TENSOR &&
                   outputs[k].data != NULL;
      desc += onnxc_rt_descriptor_slots(l.ranks[j]);
    }
  }
}

/* After a failure at output `failed`: the outputs filled so far give their
 * buffers back: handed buffers to free_unhanded, copies and item arrays to
 * release. */
static void give_back(const onnxc_model_info *info,
                      onnxc_rt_result_state *states, int32_t num_states,
                      int32_t failed, onnxc_tensor *outputs) {
  int32_t i, j, s;
  for (j = 0; j < num_states; ++j)
    if (states[j].handed) {
      states[j].handed_to->owner = NULL;
      states[j].handed = 0;
    }
  for (s = 0, i = 0; i < failed;
       s += onnxc_rt_value_layout(&info->outputs[i]).count, ++i) {
    const onnxc_value_info *vi = &info->outputs[i];
    if (states[s].preset)
      continue;
    release_value(&outputs[i], 0);
    if (vi->kind == ONNXC_VALUE_TENSOR)
      outputs[i].owner = outputs[i].data = NULL;
    else
      set_container(&outputs[i], vi->kind, vi->dtype, NULL, 0);
  }
}

onnxc_status onnxc_rt_take_outputs(const onnxc_model_info *info,
                                   const onnxc_rt_slot *results,
                                   onnxc_rt_result_state *states,
                                   void *const *input_data, int32_t num_data,
                                   onnxc_rt_arena *arena,
                                   onnxc_tensor *outputs,
                                   const onnxc_rt_binding *bindings) {
  onnxc_status status = ONNXC_OK;
  int32_t k, j, s = 0, num_states = 0;
  for (k = 0; k < info->num_outputs; ++k)
    num_states += onnxc_rt_value_layout(&info->outputs[k]).count;
  classify_results(info, results, states, input_data, num_data, arena,
                   outputs);
  for (k = 0; k < info->num_outputs; ++k) {
    status = fill_output(info, k, states, s, &outputs[k], bindings);
    if (status != ONNXC_OK)
      break;
    s += onnxc_rt_value_layout(&info->outputs[k]).count;
  }
  if (status != ONNXC_OK)
    give_back(info, states, num_states, k, outputs);
  /* Handed-over buffers now belong to their outputs. */
  for (j = 0; j < num_states; ++j)
    if (states[j].handed && states[j].owner)
      onnxc_rt_arena_forget(arena, states[j].allocated);
  free_unhanded(states, num_states);
  return status;
}

/*===- runtime.c - The C runtime of onnxc-compiled models -----------------===*
 *
 * C99, libc only. onnxc_run_model validates the caller's tensors against the
 * model's signature, builds the memref descriptors the lowered model takes
 * (runtime_abi.h), calls it under setjmp so that failed run-time checks come
 * back as a status, and hands the results over (or copies them).
 *
 * Thread safety: every function may be called from several threads at once;
 * the error message and the jump target of a run are thread-local.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A memref descriptor is a sequence of 8-byte slots (runtime_abi.h). */
typedef char onnxc_check_pointer_size_[sizeof(void *) == 8 ? 1 : -1];

typedef union slot {
  void *ptr;
  int64_t i64;
} slot;

/* MLIR's sentinel for the `allocated` pointer of a memref.get_global. */
#define ONNXC_GLOBAL_SENTINEL ((void *)(uintptr_t)0xdeadbeef)

static ONNXC_THREAD_LOCAL char error_buf[ONNXC_RT_ERROR_CAP];
static ONNXC_THREAD_LOCAL jmp_buf *fail_target;
static ONNXC_THREAD_LOCAL int32_t fail_code;

/* Non-null, never dereferenced: the data of zero-element inputs. */
static char empty_buffer[1];

/* Sets this thread's onnxc_last_error() message and returns `status`
 * (declared in internal.h for the other runtime files). */
onnxc_status onnxc_rt_error(onnxc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_buf, sizeof error_buf, fmt, ap);
  va_end(ap);
  return status;
}

const char *onnxc_last_error(void) { return error_buf; }

int32_t onnxc_abi_version(void) { return ONNXC_ABI_VERSION; }

/* Values nest at most two deep (an optional of a sequence of tensors); the
 * bound only keeps a corrupted struct from recursing without end. */
static void release_value(onnxc_tensor *tensor, int depth) {
  int64_t i;
  if (!tensor || !tensor->owner)
    return;
  if (tensor->kind != ONNXC_VALUE_TENSOR && tensor->items && depth < 3)
    for (i = 0; i < tensor->num_items; ++i)
      release_value(&tensor->items[i], depth + 1);
  free(tensor->owner);
  tensor->owner = NULL;
  tensor->data = NULL;
  if (tensor->kind != ONNXC_VALUE_TENSOR) {
    tensor->items = NULL;
    tensor->num_items = 0;
  }
}

void onnxc_tensor_release(onnxc_tensor *tensor) { release_value(tensor, 0); }

/* Product of `shape[0..rank)`; -1 for a negative dim or an overflow. */
int64_t onnxc_rt_shape_numel(const int64_t *shape, int32_t rank) {
  int64_t n = 1;
  int32_t d;
  int empty = 0;
  for (d = 0; d < rank; ++d) {
    if (shape[d] < 0)
      return -1;
    empty |= shape[d] == 0;
  }
  /* A 0 anywhere makes the product 0, whatever the dims before it. */
  if (empty)
    return 0;
  for (d = 0; d < rank; ++d) {
    if (n > INT64_MAX / shape[d])
      return -1;
    n *= shape[d];
  }
  return n;
}

int64_t onnxc_tensor_numel(const onnxc_tensor *tensor) {
  if (!tensor || tensor->rank < 0 || tensor->rank > ONNXC_MAX_RANK)
    return -1;
  return onnxc_rt_shape_numel(tensor->shape, tensor->rank);
}

void onnxc_rt_fail(int32_t code, const char *message) {
  if (!fail_target) {
    fprintf(stderr, "onnxc: run-time check failed outside a model run: %s\n",
            message ? message : "(no message)");
    abort();
  }
  snprintf(error_buf, sizeof error_buf, "%s",
           message ? message : "a run-time check failed");
  fail_code = code;
  longjmp(*fail_target, 1);
}

void onnxc_rt_fail_values(int32_t code, const char *message, int64_t v0,
                          int64_t v1, int64_t v2) {
  char buf[sizeof error_buf];
  const int64_t values[3] = {v0, v1, v2};
  size_t n = 0;
  int next = 0;
  const char *p;
  for (p = message ? message : ""; *p && n + 1 < sizeof buf; ++p) {
    if (*p == '\x01' && next < 3) {
      int w = snprintf(buf + n, sizeof buf - n, "%lld",
                       (long long)values[next++]);
      n = w < 0 ? n : n + (size_t)w < sizeof buf ? n + (size_t)w
                                                   : sizeof buf - 1;
      continue;
    }
    buf[n++] = *p;
  }
  buf[n] = '\0';
  onnxc_rt_fail(code, buf);
}

void onnxc_rt_fail_alloc_size(const char *site, int64_t elem_size,
                              int64_t rank, ...) {
  char buf[sizeof error_buf];
  size_t n = 0;
  int64_t d;
  int negative = 0;
  va_list ap;
  int w = snprintf(buf, sizeof buf, "%s%sa buffer of [", site ? site : "",
                   site ? ": " : "");
  n = w > 0 ? (size_t)w : 0;
  va_start(ap, rank);
  for (d = 0; d < rank; ++d) {
    int64_t dim = va_arg(ap, int64_t);
    negative |= dim < 0;
    if (n >= sizeof buf)
      continue;
    w = snprintf(buf + n, sizeof buf - n, "%s%lld", d ? ", " : "",
                 (long long)dim);
    n += w > 0 ? (size_t)w : 0;
  }
  va_end(ap);
  if (n < sizeof buf)
    snprintf(buf + n, sizeof buf - n, "] elements of %lld bytes %s",
             (long long)elem_size,
             negative ? "has a negative dim"
                      : "holds more than 2^63 - 1 bytes");
  onnxc_rt_fail(ONNXC_ERROR_RUNTIME, buf);
}

/* Calls invoke(args); 0 if the model called onnxc_rt_fail. The previous
 * target is restored so that runs may nest (a model called from a custom
 * kernel of another). */
static int invoke_protected(onnxc_invoke_fn invoke, void **args) {
  jmp_buf env;
  jmp_buf *volatile previous = fail_target;
  fail_target = &env;
  if (setjmp(env) != 0) {
    fail_target = previous;
    return 0;
  }
  invoke(args);
  fail_target = previous;
  return 1;
}

int32_t onnxc_rt_try(void (*fn)(void *), void *arg, char *msg, size_t cap) {
  jmp_buf env;
  jmp_buf *volatile previous = fail_target;
  fail_target = &env;
  if (setjmp(env) != 0) {
    fail_target = previous;
    if (cap > 0)
      snprintf(msg, cap, "%s", error_buf);
    return fail_code != 0 ? fail_code : ONNXC_ERROR_RUNTIME;
  }
  fn(arg);
  fail_target = previous;
  return 0;
}

/*===-------------------------- Threads -----------------------------------===*/

/* The thread count (onnxc_set_num_threads). It lives here, not with the
 * pool (threads.c), so that every model library exports the setter even
 * when it links no kernel that uses the pool. 0: not set yet. */
static int32_t num_threads;

#define ONNXC_MAX_THREADS 64

/* 0 (one per online CPU) resolved and the count capped. */
static int32_t resolve_threads(long n) {
  if (n == 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > ONNXC_MAX_THREADS ? ONNXC_MAX_THREADS : (int32_t)n;
}

onnxc_status onnxc_set_num_threads(int32_t n) {
  if (n < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                "onnxc_set_num_threads: negative thread count %d", (int)n);
  __atomic_store_n(&num_threads, resolve_threads(n), __ATOMIC_RELAXED);
  return ONNXC_OK;
}

int32_t onnxc_get_num_threads(void) {
  int32_t n = __atomic_load_n(&num_threads, __ATOMIC_RELAXED);
  if (n == 0) {
    /* First use: ONNXC_NUM_THREADS, else 1. A bad value counts as unset,
     * with a warning. Threads racing here compute the same value. */
    const char *env = getenv("ONNXC_NUM_THREADS");
    long v = 1;
    int32_t unset = 0;
    if (env && env[0]) {
      char *end = NULL;
      v = strtol(env, &end, 10);
      if (*end != '\0' || v < 0) {
        fprintf(stderr,
                "onnxc: ignoring ONNXC_NUM_THREADS='%s' (not a thread count)\n",
                env);
        v = 1;
      }
    }
    n = resolve_threads(v);
    /* An onnxc_set_num_threads that came in between wins. */
    if (!__atomic_compare_exchange_n(&num_threads, &unset, n, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      n = unset;
  }
  return n;
}

/*===-------------------------- Layout ------------------------------------===*/

/* The memrefs one graph value flattens into (runtime_abi.h): at most an
 * optional's flag, then a tensor's memref or a sequence's data (1-D, the
 * items' elements one item after the other) and shapes: n x r for items of
 * a declared rank r, else (rank -1) n rows of ONNXC_RT_SEQ_ROW_WIDTH, 1-D, each
 * holding an item's rank, its dims and zeros. */
#define MAX_MEMREFS 3
typedef struct layout {
  int32_t count;
  int32_t ranks[MAX_MEMREFS];
} layout;

static layout value_layout(const onnxc_value_info *vi) {
  layout l;
  l.count = 0;
  if (vi->kind == ONNXC_VALUE_OPTIONAL)
    l.ranks[l.count++] = 0;
  if (onnxc_rt_is_map_value(vi)) {
    /* keys, values (and a sequence's sizes), all 1-D. */
    l.ranks[l.count++] = 1;
    l.ranks[l.count++] = 1;
    if (vi->kind == ONNXC_VALUE_SEQUENCE)
      l.ranks[l.count++] = 1;
  } else if (onnxc_rt_content_kind(vi) == ONNXC_VALUE_SEQUENCE) {
    l.ranks[l.count++] = 1;
    l.ranks[l.count++] = vi->rank < 0 ? 1 : 2;
  } else {
    l.ranks[l.count++] = vi->rank;
  }
  return l;
}

static int64_t descriptor_slots(int32_t rank) { return 3 + 2 * (int64_t)rank; }

static int64_t layout_slots(layout l) {
  int64_t n = 0;
  int32_t j;
  for (j = 0; j < l.count; ++j)
    n += descriptor_slots(l.ranks[j]);
  return n;
}

/*===-------------------------- Copies ------------------------------------===*/

/* Copies a block of `sizes` elements from `src` (element strides
 * `src_strides`) to `dst` (element strides `dst_strides`). Strides may be 0
 * or negative. */
static void copy_block(char *dst, const int64_t *dst_strides, const char *src,
                       const int64_t *src_strides, const int64_t *sizes,
                       int32_t rank, size_t esize) {
  int64_t index[ONNXC_MAX_RANK + 1];
  int64_t inner, e, es = (int64_t)esize;
  int32_t d;
  if (rank == 0) {
    memcpy(dst, src, esize);
    return;
  }
  for (d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  inner = sizes[rank - 1];
  memset(index, 0, sizeof index);
  for (;;) {
    const char *s = src;
    char *t = dst;
    for (d = 0; d < rank - 1; ++d) {
      s += index[d] * src_strides[d] * es;
      t += index[d] * dst_strides[d] * es;
    }
    if (src_strides[rank - 1] == 1 && dst_strides[rank - 1] == 1) {
      memcpy(t, s, (size_t)inner * esize);
    } else {
      for (e = 0; e < inner; ++e)
        memcpy(t + e * dst_strides[rank - 1] * es,
               s + e * src_strides[rank - 1] * es, esize);
    }
    /* Odometer over the outer dims. */
    for (d = rank - 2; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/* Row-major strides of `sizes`. */
static void dense_strides(const int64_t *sizes, int32_t rank,
                          int64_t *strides) {
  int64_t stride = 1;
  int32_t d;
  for (d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= sizes[d];
  }
}

/* Copies a strided view (`base` points at element offset 0 of the view) to
 * the contiguous `dst`. */
static void copy_strided(char *dst, const char *base, const int64_t *sizes,
                         const int64_t *strides, int32_t rank, size_t esize) {
  int64_t dst_strides[ONNXC_MAX_RANK + 1];
  dense_strides(sizes, rank, dst_strides);
  copy_block(dst, dst_strides, base, strides, sizes, rank, esize);
}

/* True when `strides` are the row-major strides of `sizes` (dims of size 1
 * may have any stride; an empty tensor is contiguous). */
static int is_contiguous(const int64_t *sizes, const int64_t *strides,
                         int32_t rank) {
  int64_t expected = 1;
  int32_t d;
  for (d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return 1;
  for (d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      return 0;
    expected *= sizes[d];
  }
  return 1;
}

/*===-------------------------- Input descriptors -------------------------===*/

/* Where the input descriptors go, and what they point to. */
typedef struct builder {
  slot *desc;        /* the next descriptor */
  void **args;       /* the next argument of invoke */
  void **input_data; /* the `allocated` pointer of every input memref */
  int32_t num_data;
  void **temps; /* buffers of this run, freed after it */
  int32_t num_temps;
} builder;

/* Appends a contiguous row-major descriptor over `data`. */
static void put_descriptor(builder *b, void *data, const int64_t *sizes,
                           int32_t rank) {
  slot *desc = b->desc;
  int64_t strides[ONNXC_MAX_RANK + 1];
  int32_t d;
  dense_strides(sizes, rank, strides);
  desc[0].ptr = data;
  desc[1].ptr = data;
  desc[2].i64 = 0;
  for (d = 0; d < rank; ++d) {
    desc[3 + d].i64 = sizes[d];
    desc[3 + rank + d].i64 = strides[d];
  }
  *b->args++ = desc;
  b->input_data[b->num_data++] = data;
  b->desc += descriptor_slots(rank);
}

/* A zero-filled buffer of `bytes` owned by this run (the shared empty
 * buffer for 0 bytes); NULL when out of memory. */
static void *temp_buffer(builder *b, size_t bytes) {
  void *p;
  if (bytes == 0)
    return empty_buffer;
  p = calloc(1, bytes);
  if (p)
    b->temps[b->num_temps++] = p;
  return p;
}

/* The tensor memref of `t`, or, for an absent optional (t NULL), a
 * zero-filled one with the static dims and 0 for the dynamic ones. */
static onnxc_status put_tensor(builder *b, const onnxc_value_info *vi,
                               const onnxc_tensor *t, const char *label) {
  int64_t dims[ONNXC_MAX_RANK];
  int32_t d;
  void *data;
  if (t) {
    int64_t numel = onnxc_rt_shape_numel(t->shape, t->rank);
    data = numel == 0 ? (void *)empty_buffer : t->data;
    if (numel > 0 && onnxc_rt_dtype_packed(vi->dtype)) {
      /* Two per byte at the API, one byte each inside. */
      data = temp_buffer(b, (size_t)numel);
      if (!data)
        return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
      onnxc_rt_unpack4((int8_t *)data, (const uint8_t *)t->data, numel, vi->dtype);
    }
    put_descriptor(b, data, t->shape, t->rank);
    return ONNXC_OK;
  }
  for (d = 0; d < vi->rank; ++d)
    dims[d] = vi->dims[d] >= 0 ? vi->dims[d] : 0;
  {
    int64_t numel = onnxc_rt_shape_numel(dims, vi->rank);
    size_t esize = onnxc_dtype_size(vi->dtype);
    if (numel < 0 || (uint64_t)numel > (uint64_t)(SIZE_MAX / esize))
      return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
    data = temp_buffer(b, (size_t)numel * esize);
  }
  if (!data)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  put_descriptor(b, data, dims, vi->rank);
  return ONNXC_OK;
}

/* The data and shapes memrefs of sequence `seq` (checked; NULL: the empty
 * sequence of an absent optional). The items are copied one after the other
 * into one buffer; their shapes are n x r, or rows (value_layout). */
static onnxc_status put_sequence(builder *b, const onnxc_value_info *vi,
                                 const onnxc_tensor *seq, const char *label) {
  int64_t total = onnxc_rt_sequence_numel(seq), n = seq ? seq->num_items : 0, i;
  int64_t shape_dims[2];
  /* Row i of the shapes starts at i * width (zero-filled buffer). */
  int rows = vi->rank < 0;
  int32_t width = rows ? ONNXC_RT_SEQ_ROW_WIDTH : vi->rank, d;
  size_t esize = onnxc_dtype_size(vi->dtype), offset = 0;
  char *data;
  int64_t *shapes;

  /* check_sequence bounded the total size and the rows. */
  data = (char *)temp_buffer(b, (size_t)total * esize);
  shapes = (int64_t *)temp_buffer(b, (size_t)(n * width) * sizeof(int64_t));
  if (!data || !shapes)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  for (i = 0; i < n; ++i) {
    const onnxc_tensor *item = &seq->items[i];
    int64_t *row = shapes + i * width;
    size_t bytes = (size_t)onnxc_rt_shape_numel(item->shape, item->rank) * esize;
    if (rows)
      *row++ = item->rank;
    for (d = 0; d < item->rank; ++d)
      row[d] = item->shape[d];
    if (bytes)
      memcpy(data + offset, item->data, bytes);
    offset += bytes;
  }
  put_descriptor(b, data, &total, 1);
  if (rows) {
    shape_dims[0] = n * width;
    put_descriptor(b, shapes, shape_dims, 1);
  } else {
    shape_dims[0] = n;
    shape_dims[1] = width;
    put_descriptor(b, shapes, shape_dims, 2);
  }
  return ONNXC_OK;
}

/*===-------------------------- Results -----------------------------------===*/

/* What became of one result buffer (one memref of the results struct). */
typedef struct result_state {
  const slot *desc;
  void *allocated;
  int fresh;  /* a heap buffer of this run */
  void *owner; /* its malloc block when the call's arena holds it (alloc.c),
                  else NULL: a plain malloc block, or not fresh */
  int first;  /* no earlier memref returned the same buffer */
  int preset; /* the caller provided the output's buffer */
  int handed; /* its ownership went to `handed_to` */
  onnxc_tensor *handed_to;
} result_state;

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
      copy_strided((char *)ptrs, base, sizes, strides, rank, esize);
  }
  block = string_block(ptrs, numel);
  free(ptrs);
  if (!block)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
  out->owner = out->data = block;
  return ONNXC_OK;
}

/* Fills tensor `out` (a tensor output, or the value of an optional output)
 * from result memref `k`. On failure, `out` is as it was. */
static onnxc_status fill_tensor(const onnxc_model_info *info,
                                const onnxc_value_info *vi, const char *label,
                                result_state *states, int32_t k,
                                onnxc_tensor *out, const onnxc_rt_binding *bindings) {
  result_state *state = &states[k];
  const slot *desc = state->desc;
  int32_t rank = vi->rank, d, j;
  const int64_t *strides = &desc[3].i64 + rank;
  int64_t sizes[ONNXC_MAX_RANK];
  char *base;
  size_t esize = onnxc_dtype_size(vi->dtype), bytes;
  int64_t numel;
  int contiguous, taken = 0;

  for (d = 0; d < rank; ++d)
    sizes[d] = (&desc[3].i64)[d];
  numel = onnxc_rt_shape_numel(sizes, rank);
  if (numel < 0)
    return onnxc_rt_error(ONNXC_ERROR_RUNTIME, "%s: the model produced an invalid shape",
                label);
  /* An empty result may leave dims it never learned at 0 (a scan output of
   * a loop that ran no step has 0 rows and rows of unknown shape): such a
   * dim takes its static or input-bound size, as long as another dim keeps
   * the result empty. */
  if (numel == 0)
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
  if ((uint64_t)numel > (uint64_t)(SIZE_MAX / esize))
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: too large", label);
  bytes = (size_t)numel * esize;
  base = (char *)desc[1].ptr + desc[2].i64 * (int64_t)esize;
  contiguous = is_contiguous(sizes, strides, rank);

  if (onnxc_rt_dtype_packed(vi->dtype)) {
    /* One byte each inside, two per byte at the API: always packed into the
     * caller's buffer or a fresh block. */
    const int8_t *src = (const int8_t *)base;
    int8_t *tmp = NULL;
    size_t packed = onnxc_dtype_bytes(vi->dtype, numel);
    void *dst;
    if (numel > 0 && !contiguous) {
      tmp = (int8_t *)malloc(bytes);
      if (!tmp)
        return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
      copy_strided((char *)tmp, base, sizes, strides, rank, esize);
      src = tmp;
    }
    if (state->preset) {
      for (d = 0; d < rank; ++d)
        if (out->shape[d] != sizes[d]) {
          free(tmp);
          return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                      "%s dim %d: the model produced %lld, the caller's buffer "
                      "has %lld",
                      label, (int)d, (long long)sizes[d],
                      (long long)out->shape[d]);
        }
      if (numel > 0)
        onnxc_rt_pack4((uint8_t *)out->data, src, numel);
      free(tmp);
      out->owner = NULL;
      return ONNXC_OK;
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
  } else if (vi->dtype == ONNXC_DTYPE_STRING) {
    /* Strings are always copied out (the arena holds them). */
    onnxc_status st = fill_strings(label, base, sizes, strides, rank, numel,
                                   contiguous, out);
    if (st != ONNXC_OK)
      return st;
  } else if (state->preset) {
    /* Caller-provided buffer: same shape or nothing. */
    for (d = 0; d < rank; ++d)
      if (out->shape[d] != sizes[d])
        return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                    "%s dim %d: the model produced %lld, the caller's buffer "
                    "has %lld",
                    label, (int)d, (long long)sizes[d],
                    (long long)out->shape[d]);
    if (numel > 0) {
      if (contiguous)
        memmove(out->data, base, bytes);
      else
        copy_strided((char *)out->data, base, sizes, strides, rank, esize);
    }
    out->owner = NULL;
    return ONNXC_OK;
  }

  for (j = 0; j < k; ++j)
    if (states[j].handed && states[j].allocated == state->allocated)
      taken = 1;
  if (vi->dtype == ONNXC_DTYPE_STRING || onnxc_rt_dtype_packed(vi->dtype)) {
    /* filled above */
  } else if (state->fresh && !taken && contiguous) {
    out->owner = state->owner ? state->owner : state->allocated;
    out->data = base;
    state->handed = 1;
    state->handed_to = out;
  } else {
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
      return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "%s: out of memory (%llu bytes)",
                  label, (unsigned long long)bytes);
    if (numel > 0) {
      if (contiguous)
        memcpy(copy, base, bytes);
      else
        copy_strided((char *)copy, base, sizes, strides, rank, esize);
    }
    out->owner = copy;
    out->data = copy;
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
                                  const slot *data_desc,
                                  const slot *shapes_desc, onnxc_tensor *out) {
  /* Items of no declared rank: rows (value_layout), each with the item's
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
      copy_strided((char *)buf, dbase + start * stride * (int64_t)esize, &numel,
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
                                result_state *states, int32_t s,
                                onnxc_tensor *out, const onnxc_rt_binding *bindings) {
  const onnxc_value_info *vi = &info->outputs[k];
  char label[sizeof error_buf];
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
static void free_unhanded(const result_state *states, int32_t n) {
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

/*===-------------------------- The entry point ---------------------------===*/

/* Builds the input descriptors (after check_inputs). */
static onnxc_status build_inputs(const onnxc_model_info *info,
                                 const onnxc_tensor *inputs, builder *b,
                                 uint8_t *flags) {
  char label[sizeof error_buf];
  int32_t i;
  onnxc_status status = ONNXC_OK;
  for (i = 0; i < info->num_inputs && status == ONNXC_OK; ++i) {
    const onnxc_value_info *vi = &info->inputs[i];
    const onnxc_tensor *t = &inputs[i];
    snprintf(label, sizeof label, "input '%s'", onnxc_rt_value_name(vi));
    if (onnxc_rt_is_map_value(vi)) {
      void *bufs[3];
      int64_t sizes[3];
      int32_t j;
      status = onnxc_rt_map_input(vi, t, b->temps, &b->num_temps, bufs, sizes,
                                  label);
      for (j = 0; status == ONNXC_OK && j < value_layout(vi).count; ++j)
        put_descriptor(b, sizes[j] ? bufs[j] : (void *)empty_buffer,
                       &sizes[j], 1);
      continue;
    }
    if (vi->kind == ONNXC_VALUE_OPTIONAL) {
      flags[i] = t->num_items == 1;
      put_descriptor(b, &flags[i], NULL, 0);
      t = t->num_items == 1 ? &t->items[0] : NULL;
    }
    status = onnxc_rt_content_kind(vi) == ONNXC_VALUE_SEQUENCE
                 ? put_sequence(b, vi, t, label)
                 : put_tensor(b, vi, t, label);
  }
  return status;
}

onnxc_status onnxc_run_model(const onnxc_model_info *info,
                             onnxc_invoke_fn invoke, const onnxc_tensor *inputs,
                             int32_t num_inputs, onnxc_tensor *outputs,
                             int32_t num_outputs) {
  onnxc_status status;
  int64_t slots = 0, result_slots = 0;
  int32_t num_in_memrefs = 0, num_out_memrefs = 0;
  int32_t i, k, j, s;
  size_t bytes;
  char *block;
  slot *results;
  void **args;
  result_state *states;
  onnxc_rt_binding *bindings;
  uint8_t *flags;
  builder b;
  onnxc_rt_arena arena, *previous;

  if (!info || !invoke)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                "null model info or invoke function");
  if (num_inputs != info->num_inputs)
    return onnxc_rt_error(
        ONNXC_ERROR_INVALID_ARGUMENT, "model '%s': expected %d inputs, got %d",
        info->name ? info->name : "?", (int)info->num_inputs, (int)num_inputs);
  if (num_outputs != info->num_outputs)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                "model '%s': expected %d outputs, got %d",
                info->name ? info->name : "?", (int)info->num_outputs,
                (int)num_outputs);
  if (num_inputs > 0 && !inputs)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "inputs is null");
  if (num_outputs > 0 && !outputs)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "outputs is null");
  if (info->num_symbols < 0 || (info->num_symbols > 0 && !info->symbol_names))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "model info: bad symbol table");
  status = onnxc_rt_check_info_values(info, info->inputs, num_inputs, "input");
  if (status == ONNXC_OK)
    status = onnxc_rt_check_info_values(info, info->outputs, num_outputs, "output");
  if (status != ONNXC_OK)
    return status;

  /* One block: results struct, input descriptors, args, input data
   * pointers, temporaries, bookkeeping, optional flags. */
  for (k = 0; k < num_outputs; ++k) {
    layout l = value_layout(&info->outputs[k]);
    result_slots += layout_slots(l);
    num_out_memrefs += l.count;
  }
  slots = result_slots;
  for (i = 0; i < num_inputs; ++i) {
    layout l = value_layout(&info->inputs[i]);
    slots += layout_slots(l);
    num_in_memrefs += l.count;
  }
  bytes = (size_t)slots * sizeof(slot) +
          ((size_t)num_in_memrefs + 1) * sizeof(void *) +  /* args */
          (size_t)num_in_memrefs * sizeof(void *) +        /* input data */
          (size_t)num_inputs * 3 * sizeof(void *) +        /* temps */
          (size_t)num_out_memrefs * sizeof(result_state) + /* states */
          (size_t)info->num_symbols * sizeof(onnxc_rt_binding) +
          (size_t)num_inputs; /* flags */
  block = (char *)calloc(1, bytes);
  if (!block)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  results = (slot *)block;
  args = (void **)(results + slots);
  b.desc = results + result_slots;
  b.args = args;
  b.input_data = args + num_in_memrefs + 1;
  b.num_data = 0;
  b.temps = b.input_data + num_in_memrefs;
  b.num_temps = 0;
  states = (result_state *)(b.temps + 3 * num_inputs);
  bindings = (onnxc_rt_binding *)(states + num_out_memrefs);
  flags = (uint8_t *)(bindings + info->num_symbols);

  /* Model-allocated outputs start empty, so that release is always safe;
   * sequences and optionals are always model-allocated. */
  for (k = 0; k < num_outputs; ++k) {
    if (info->outputs[k].kind != ONNXC_VALUE_TENSOR)
      set_container(&outputs[k], info->outputs[k].kind, info->outputs[k].dtype,
                    NULL, 0);
    else if (!outputs[k].data || info->outputs[k].dtype == ONNXC_DTYPE_STRING)
      outputs[k].owner = outputs[k].data = NULL;
  }

  status = onnxc_rt_check_inputs(info, inputs, bindings);
  if (status == ONNXC_OK)
    status = onnxc_rt_check_preset_outputs(info, outputs);
  if (status == ONNXC_OK) {
    if (num_outputs > 0)
      *b.args++ = results;
    status = build_inputs(info, inputs, &b, flags);
  }
  /* Everything the model allocates from here goes into the arena, which
   * frees what is left at the end (a failed check jumps past the model's
   * own frees). */
  previous = onnxc_rt_arena_enter(&arena);
  if (status == ONNXC_OK && !invoke_protected(invoke, args)) {
    int32_t code = fail_code;
    status = code > ONNXC_OK && code <= ONNXC_ERROR_RUNTIME
                 ? (onnxc_status)code
                 : ONNXC_ERROR_RUNTIME;
  } else if (status == ONNXC_OK) {
    /* Classify every result buffer before handing any over. */
    const slot *desc = results;
    s = 0;
    for (k = 0; k < num_outputs; ++k) {
      layout l = value_layout(&info->outputs[k]);
      for (j = 0; j < l.count; ++j, ++s) {
        result_state *st = &states[s];
        st->desc = desc;
        st->allocated = desc[0].ptr;
        st->fresh = st->allocated != NULL &&
                    st->allocated != ONNXC_GLOBAL_SENTINEL &&
                    st->allocated != (void *)empty_buffer;
        for (i = 0; st->fresh && i < b.num_data; ++i)
          if (st->allocated == b.input_data[i])
            st->fresh = 0;
        st->owner =
            st->fresh ? onnxc_rt_arena_owner(&arena, st->allocated) : NULL;
        st->first = 1;
        for (i = 0; i < s; ++i)
          if (states[i].allocated == st->allocated)
            st->first = 0;
        st->preset = info->outputs[k].kind == ONNXC_VALUE_TENSOR &&
                     outputs[k].data != NULL;
        desc += descriptor_slots(l.ranks[j]);
      }
    }
    s = 0;
    for (k = 0; k < num_outputs; ++k) {
      status = fill_output(info, k, states, s, &outputs[k], bindings);
      if (status != ONNXC_OK)
        break;
      s += value_layout(&info->outputs[k]).count;
    }
    if (status != ONNXC_OK) {
      /* The outputs filled so far give their buffers back: handed buffers
       * to free_unhanded, copies and item arrays to release. */
      for (j = 0; j < num_out_memrefs; ++j)
        if (states[j].handed) {
          states[j].handed_to->owner = NULL;
          states[j].handed = 0;
        }
      for (s = 0, i = 0; i < k;
           s += value_layout(&info->outputs[i]).count, ++i) {
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
    /* Handed-over buffers now belong to their outputs. */
    for (j = 0; j < num_out_memrefs; ++j)
      if (states[j].handed && states[j].owner)
        onnxc_rt_arena_forget(&arena, states[j].allocated);
    free_unhanded(states, num_out_memrefs);
  }
  onnxc_rt_arena_leave(&arena, previous);
  for (i = 0; i < b.num_temps; ++i)
    free(b.temps[i]);
  free(block);
  return status;
}

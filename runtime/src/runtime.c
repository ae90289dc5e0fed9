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

#include "onnxc/runtime_abi.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
/* initial-exec: a model library then needs no __tls_get_addr from the
   dynamic loader (its only NEEDED entries stay libc and libm). The few
   bytes fit the static TLS space glibc reserves for dlopen'ed libraries. */
#define ONNXC_THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))
#else
#define ONNXC_THREAD_LOCAL _Thread_local
#endif

/* A memref descriptor is a sequence of 8-byte slots (runtime_abi.h). */
typedef char onnxc_check_pointer_size_[sizeof(void *) == 8 ? 1 : -1];

typedef union slot {
  void *ptr;
  int64_t i64;
} slot;

/* MLIR's sentinel for the `allocated` pointer of a memref.get_global. */
#define ONNXC_GLOBAL_SENTINEL ((void *)(uintptr_t)0xdeadbeef)

static ONNXC_THREAD_LOCAL char error_buf[512];
static ONNXC_THREAD_LOCAL jmp_buf *fail_target;
static ONNXC_THREAD_LOCAL int32_t fail_code;

/* Non-null, never dereferenced: the data of zero-element inputs. */
static char empty_buffer[1];

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static onnxc_status
fail(onnxc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_buf, sizeof error_buf, fmt, ap);
  va_end(ap);
  return status;
}

const char *onnxc_dtype_name(int32_t dtype) {
  static const char *const names[] = {
      "undefined", "float",  "uint8",     "int8",       "uint16",  "int16",
      "int32",     "int64",  "string",    "bool",       "float16", "double",
      "uint32",    "uint64", "complex64", "complex128", "bfloat16"};
  return dtype >= 0 && dtype <= 16 ? names[dtype] : "unknown";
}

size_t onnxc_dtype_size(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UINT8:
  case ONNXC_DTYPE_INT8:
  case ONNXC_DTYPE_BOOL:
    return 1;
  case ONNXC_DTYPE_UINT16:
  case ONNXC_DTYPE_INT16:
  case ONNXC_DTYPE_FLOAT16:
  case ONNXC_DTYPE_BFLOAT16:
    return 2;
  case ONNXC_DTYPE_FLOAT:
  case ONNXC_DTYPE_INT32:
  case ONNXC_DTYPE_UINT32:
    return 4;
  case ONNXC_DTYPE_INT64:
  case ONNXC_DTYPE_DOUBLE:
  case ONNXC_DTYPE_UINT64:
  case ONNXC_DTYPE_COMPLEX64:
    return 8;
  case ONNXC_DTYPE_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

static const char *dtype_name(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UNDEFINED:
    return "undefined";
  case ONNXC_DTYPE_FLOAT:
    return "float";
  case ONNXC_DTYPE_UINT8:
    return "uint8";
  case ONNXC_DTYPE_INT8:
    return "int8";
  case ONNXC_DTYPE_UINT16:
    return "uint16";
  case ONNXC_DTYPE_INT16:
    return "int16";
  case ONNXC_DTYPE_INT32:
    return "int32";
  case ONNXC_DTYPE_INT64:
    return "int64";
  case ONNXC_DTYPE_STRING:
    return "string";
  case ONNXC_DTYPE_BOOL:
    return "bool";
  case ONNXC_DTYPE_FLOAT16:
    return "float16";
  case ONNXC_DTYPE_DOUBLE:
    return "double";
  case ONNXC_DTYPE_UINT32:
    return "uint32";
  case ONNXC_DTYPE_UINT64:
    return "uint64";
  case ONNXC_DTYPE_COMPLEX64:
    return "complex64";
  case ONNXC_DTYPE_COMPLEX128:
    return "complex128";
  case ONNXC_DTYPE_BFLOAT16:
    return "bfloat16";
  default:
    return "unknown";
  }
}

const char *onnxc_status_string(onnxc_status status) {
  switch (status) {
  case ONNXC_OK:
    return "ok";
  case ONNXC_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case ONNXC_ERROR_DTYPE:
    return "dtype mismatch";
  case ONNXC_ERROR_SHAPE:
    return "shape mismatch";
  case ONNXC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case ONNXC_ERROR_RUNTIME:
    return "runtime error";
  }
  return "unknown status";
}

const char *onnxc_last_error(void) { return error_buf; }

void onnxc_tensor_release(onnxc_tensor *tensor) {
  if (!tensor || !tensor->owner)
    return;
  free(tensor->owner);
  tensor->owner = NULL;
  tensor->data = NULL;
}

/* Product of `shape[0..rank)`; -1 for a negative dim or an overflow. */
static int64_t shape_numel(const int64_t *shape, int32_t rank) {
  int64_t n = 1;
  int32_t d;
  for (d = 0; d < rank; ++d)
    if (shape[d] < 0)
      return -1;
  for (d = 0; d < rank; ++d) {
    if (shape[d] == 0)
      return 0;
    if (n > INT64_MAX / shape[d])
      return -1;
    n *= shape[d];
  }
  return n;
}

int64_t onnxc_tensor_numel(const onnxc_tensor *tensor) {
  if (!tensor || tensor->rank < 0 || tensor->rank > ONNXC_MAX_RANK)
    return -1;
  return shape_numel(tensor->shape, tensor->rank);
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

/*===-------------------------- Validation --------------------------------===*/

static const char *value_name(const onnxc_value_info *vi) {
  return vi->name ? vi->name : "?";
}

static int32_t value_symbol(const onnxc_value_info *vi, int32_t d) {
  return vi->symbols ? vi->symbols[d] : -1;
}

static const char *symbol_name(const onnxc_model_info *info, int32_t s) {
  return info->symbol_names && info->symbol_names[s] ? info->symbol_names[s]
                                                     : "?";
}

/* The model's own description must be usable before anything else. */
static onnxc_status check_info_values(const onnxc_model_info *info,
                                      const onnxc_value_info *values, int32_t n,
                                      const char *kind) {
  int32_t i, d;
  if (n > 0 && !values)
    return fail(ONNXC_ERROR_INVALID_ARGUMENT, "model info: no %s array", kind);
  for (i = 0; i < n; ++i) {
    const onnxc_value_info *vi = &values[i];
    if (vi->rank < 0 || vi->rank > ONNXC_MAX_RANK ||
        (vi->rank > 0 && !vi->dims))
      return fail(ONNXC_ERROR_INVALID_ARGUMENT,
                  "model info: %s '%s' has rank %d", kind, value_name(vi),
                  (int)vi->rank);
    if (vi->dtype == ONNXC_DTYPE_STRING)
      return fail(ONNXC_ERROR_DTYPE,
                  "%s '%s': string tensors are not supported", kind,
                  value_name(vi));
    if (onnxc_dtype_size(vi->dtype) == 0)
      return fail(ONNXC_ERROR_DTYPE, "%s '%s': dtype %d is not supported", kind,
                  value_name(vi), (int)vi->dtype);
    for (d = 0; d < vi->rank; ++d) {
      int32_t s = value_symbol(vi, d);
      if (s < -1 || s >= info->num_symbols)
        return fail(ONNXC_ERROR_INVALID_ARGUMENT,
                    "model info: %s '%s' dim %d has symbol %d", kind,
                    value_name(vi), (int)d, (int)s);
    }
  }
  return ONNXC_OK;
}

/* Where a symbol was first bound. */
typedef struct binding {
  int64_t value;
  int32_t input; /* -1 while unbound */
  int32_t dim;
} binding;

static onnxc_status check_inputs(const onnxc_model_info *info,
                                 const onnxc_tensor *inputs,
                                 binding *bindings) {
  int32_t i, d, s;
  for (s = 0; s < info->num_symbols; ++s)
    bindings[s].input = -1;
  for (i = 0; i < info->num_inputs; ++i) {
    const onnxc_value_info *vi = &info->inputs[i];
    const onnxc_tensor *t = &inputs[i];
    const char *name = value_name(vi);
    if (t->dtype != vi->dtype)
      return fail(ONNXC_ERROR_DTYPE, "input '%s': expected dtype %s, got %s",
                  name, dtype_name(vi->dtype), dtype_name(t->dtype));
    if (t->rank != vi->rank)
      return fail(ONNXC_ERROR_SHAPE, "input '%s': expected rank %d, got %d",
                  name, (int)vi->rank, (int)t->rank);
    for (d = 0; d < t->rank; ++d) {
      int64_t got = t->shape[d];
      if (got < 0)
        return fail(ONNXC_ERROR_SHAPE, "input '%s' dim %d: negative size %lld",
                    name, (int)d, (long long)got);
      if (vi->dims[d] >= 0 && got != vi->dims[d])
        return fail(ONNXC_ERROR_SHAPE,
                    "input '%s' dim %d: expected %lld, got %lld", name, (int)d,
                    (long long)vi->dims[d], (long long)got);
      s = value_symbol(vi, d);
      if (s < 0)
        continue;
      if (bindings[s].input < 0) {
        bindings[s].value = got;
        bindings[s].input = i;
        bindings[s].dim = d;
      } else if (bindings[s].value != got) {
        if (bindings[s].input == i)
          return fail(
              ONNXC_ERROR_SHAPE,
              "symbol '%s' is %lld for input '%s' dim %d but %lld for dim %d",
              symbol_name(info, s), (long long)bindings[s].value, name,
              (int)bindings[s].dim, (long long)got, (int)d);
        return fail(
            ONNXC_ERROR_SHAPE,
            "symbol '%s' is %lld for input '%s' but %lld for input '%s'",
            symbol_name(info, s), (long long)bindings[s].value,
            value_name(&info->inputs[bindings[s].input]), (long long)got, name);
      }
    }
    if (shape_numel(t->shape, t->rank) < 0)
      return fail(ONNXC_ERROR_SHAPE, "input '%s': too many elements", name);
    if (!t->data && shape_numel(t->shape, t->rank) > 0)
      return fail(ONNXC_ERROR_INVALID_ARGUMENT, "input '%s': data is null",
                  name);
  }
  return ONNXC_OK;
}

/* Caller-provided outputs: what can be checked before the run. */
static onnxc_status check_preset_outputs(const onnxc_model_info *info,
                                         const onnxc_tensor *outputs) {
  int32_t k, d;
  for (k = 0; k < info->num_outputs; ++k) {
    const onnxc_value_info *vi = &info->outputs[k];
    const onnxc_tensor *t = &outputs[k];
    if (!t->data)
      continue;
    if (t->dtype != vi->dtype)
      return fail(ONNXC_ERROR_DTYPE, "output '%s': expected dtype %s, got %s",
                  value_name(vi), dtype_name(vi->dtype), dtype_name(t->dtype));
    if (t->rank != vi->rank)
      return fail(ONNXC_ERROR_SHAPE, "output '%s': expected rank %d, got %d",
                  value_name(vi), (int)vi->rank, (int)t->rank);
    for (d = 0; d < t->rank; ++d)
      if (vi->dims[d] >= 0 && t->shape[d] != vi->dims[d])
        return fail(ONNXC_ERROR_SHAPE,
                    "output '%s' dim %d: expected %lld, got %lld",
                    value_name(vi), (int)d, (long long)vi->dims[d],
                    (long long)t->shape[d]);
  }
  return ONNXC_OK;
}

/*===-------------------------- Results -----------------------------------===*/

static int64_t descriptor_slots(int32_t rank) { return 3 + 2 * (int64_t)rank; }

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

/* Copies a strided view (`base` points at element offset 0 of the view) to
 * the contiguous `dst`. Strides may be 0 or negative. */
static void copy_strided(char *dst, const char *base, const int64_t *sizes,
                         const int64_t *strides, int32_t rank, size_t esize) {
  int64_t index[ONNXC_MAX_RANK];
  int64_t inner, inner_stride, e;
  int32_t d;
  if (rank == 0) {
    memcpy(dst, base, esize);
    return;
  }
  for (d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  inner = sizes[rank - 1];
  inner_stride = strides[rank - 1];
  memset(index, 0, sizeof index);
  for (;;) {
    const char *src = base;
    for (d = 0; d < rank - 1; ++d)
      src += index[d] * strides[d] * (int64_t)esize;
    if (inner_stride == 1) {
      memcpy(dst, src, (size_t)inner * esize);
      dst += (size_t)inner * esize;
    } else {
      for (e = 0; e < inner; ++e, dst += esize)
        memcpy(dst, src + e * inner_stride * (int64_t)esize, esize);
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

/* What became of one result buffer. */
typedef struct result_state {
  void *allocated;
  int fresh;  /* a heap buffer of this run */
  int first;  /* no earlier output returned the same buffer */
  int taken;  /* an earlier output took ownership of the same buffer */
  int preset; /* the caller provided the output's buffer */
  int handed; /* its ownership went to the output */
} result_state;

/* Fills output `k` from its descriptor `desc`. On failure, `out` is as the
 * caller left it (owner = NULL for a model-allocated output). */
static onnxc_status fill_output(const onnxc_model_info *info, int32_t k,
                                const slot *desc, result_state *state,
                                onnxc_tensor *out, const binding *bindings) {
  const onnxc_value_info *vi = &info->outputs[k];
  const char *name = value_name(vi);
  int32_t rank = vi->rank, d;
  const int64_t *sizes = &desc[3].i64;
  const int64_t *strides = sizes + rank;
  char *base;
  size_t esize = onnxc_dtype_size(vi->dtype), bytes;
  int64_t numel = shape_numel(sizes, rank);
  int contiguous;

  if (numel < 0)
    return fail(ONNXC_ERROR_RUNTIME,
                "output '%s': the model produced an invalid shape", name);
  for (d = 0; d < rank; ++d) {
    int32_t s = value_symbol(vi, d);
    if (vi->dims[d] >= 0 && sizes[d] != vi->dims[d])
      return fail(ONNXC_ERROR_RUNTIME,
                  "output '%s' dim %d: the model produced %lld, its signature "
                  "says %lld",
                  name, (int)d, (long long)sizes[d], (long long)vi->dims[d]);
    if (s >= 0 && bindings[s].input >= 0 && sizes[d] != bindings[s].value)
      return fail(ONNXC_ERROR_RUNTIME,
                  "output '%s' dim %d: the model produced %lld, symbol '%s' is "
                  "%lld",
                  name, (int)d, (long long)sizes[d], symbol_name(info, s),
                  (long long)bindings[s].value);
  }
  if ((uint64_t)numel > (uint64_t)(SIZE_MAX / esize))
    return fail(ONNXC_ERROR_OUT_OF_MEMORY, "output '%s': too large", name);
  bytes = (size_t)numel * esize;
  base = (char *)desc[1].ptr + desc[2].i64 * (int64_t)esize;
  contiguous = is_contiguous(sizes, strides, rank);

  if (state->preset) {
    /* Caller-provided buffer: same shape or nothing. */
    for (d = 0; d < rank; ++d)
      if (out->shape[d] != sizes[d])
        return fail(ONNXC_ERROR_SHAPE,
                    "output '%s' dim %d: the model produced %lld, the caller's "
                    "buffer has %lld",
                    name, (int)d, (long long)sizes[d],
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

  if (state->fresh && !state->taken && contiguous) {
    out->owner = state->allocated;
    out->data = base;
    state->handed = 1;
  } else {
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
      return fail(ONNXC_ERROR_OUT_OF_MEMORY,
                  "output '%s': out of memory (%llu bytes)", name,
                  (unsigned long long)bytes);
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
  return ONNXC_OK;
}

/* Frees the fresh result buffers no output kept, each once. */
static void free_unhanded(const result_state *states, int32_t n) {
  int32_t k, j;
  for (k = 0; k < n; ++k) {
    int keep = !states[k].fresh || !states[k].first;
    for (j = k; !keep && j < n; ++j)
      if (states[j].allocated == states[k].allocated && states[j].handed)
        keep = 1;
    if (!keep)
      free(states[k].allocated);
  }
}

/*===-------------------------- The entry point ---------------------------===*/

onnxc_status onnxc_run_model(const onnxc_model_info *info,
                             onnxc_invoke_fn invoke, const onnxc_tensor *inputs,
                             int32_t num_inputs, onnxc_tensor *outputs,
                             int32_t num_outputs) {
  onnxc_status status;
  int64_t slots = 0;
  int32_t i, k, d;
  size_t bytes;
  char *block;
  slot *results, *descs;
  void **args;
  void **input_data;
  result_state *states;
  binding *bindings;

  if (!info || !invoke)
    return fail(ONNXC_ERROR_INVALID_ARGUMENT,
                "null model info or invoke function");
  if (num_inputs != info->num_inputs)
    return fail(
        ONNXC_ERROR_INVALID_ARGUMENT, "model '%s': expected %d inputs, got %d",
        info->name ? info->name : "?", (int)info->num_inputs, (int)num_inputs);
  if (num_outputs != info->num_outputs)
    return fail(ONNXC_ERROR_INVALID_ARGUMENT,
                "model '%s': expected %d outputs, got %d",
                info->name ? info->name : "?", (int)info->num_outputs,
                (int)num_outputs);
  if (num_inputs > 0 && !inputs)
    return fail(ONNXC_ERROR_INVALID_ARGUMENT, "inputs is null");
  if (num_outputs > 0 && !outputs)
    return fail(ONNXC_ERROR_INVALID_ARGUMENT, "outputs is null");
  if (info->num_symbols < 0 || (info->num_symbols > 0 && !info->symbol_names))
    return fail(ONNXC_ERROR_INVALID_ARGUMENT, "model info: bad symbol table");
  status = check_info_values(info, info->inputs, num_inputs, "input");
  if (status == ONNXC_OK)
    status = check_info_values(info, info->outputs, num_outputs, "output");
  if (status != ONNXC_OK)
    return status;

  /* One block: results struct, input descriptors, args, bookkeeping. */
  for (k = 0; k < num_outputs; ++k)
    slots += descriptor_slots(info->outputs[k].rank);
  for (i = 0; i < num_inputs; ++i)
    slots += descriptor_slots(info->inputs[i].rank);
  bytes = (size_t)slots * sizeof(slot) +
          ((size_t)num_inputs + 1) * (sizeof(void *) + sizeof(void *)) +
          (size_t)num_outputs * sizeof(result_state) +
          (size_t)info->num_symbols * sizeof(binding);
  block = (char *)calloc(1, bytes);
  if (!block)
    return fail(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  results = (slot *)block;
  descs = results;
  for (k = 0; k < num_outputs; ++k)
    descs += descriptor_slots(info->outputs[k].rank);
  args = (void **)(results + slots);
  input_data = args + num_inputs + 1;
  states = (result_state *)(input_data + num_inputs + 1);
  bindings = (binding *)(states + num_outputs);

  /* Model-allocated outputs start empty, so that release is always safe. */
  for (k = 0; k < num_outputs; ++k)
    if (!outputs[k].data)
      outputs[k].owner = NULL;

  status = check_inputs(info, inputs, bindings);
  if (status == ONNXC_OK)
    status = check_preset_outputs(info, outputs);
  if (status != ONNXC_OK) {
    free(block);
    return status;
  }

  /* Input descriptors: contiguous row-major, allocated = aligned = data. */
  {
    int32_t a = 0;
    slot *desc = descs;
    if (num_outputs > 0)
      args[a++] = results;
    for (i = 0; i < num_inputs; ++i) {
      const onnxc_tensor *t = &inputs[i];
      int32_t rank = t->rank;
      int64_t stride = 1;
      void *data =
          shape_numel(t->shape, rank) == 0 ? (void *)empty_buffer : t->data;
      desc[0].ptr = data;
      desc[1].ptr = data;
      desc[2].i64 = 0;
      for (d = rank - 1; d >= 0; --d) {
        desc[3 + d].i64 = t->shape[d];
        desc[3 + rank + d].i64 = stride;
        stride *= t->shape[d];
      }
      input_data[i] = data;
      args[a++] = desc;
      desc += descriptor_slots(rank);
    }
  }

  if (!invoke_protected(invoke, args)) {
    int32_t code = fail_code;
    free(block);
    return code > ONNXC_OK && code <= ONNXC_ERROR_RUNTIME ? (onnxc_status)code
                                                          : ONNXC_ERROR_RUNTIME;
  }

  /* Classify every result buffer before handing any over. */
  {
    slot *desc = results;
    for (k = 0; k < num_outputs; ++k) {
      result_state *st = &states[k];
      st->allocated = desc[0].ptr;
      st->fresh = st->allocated != NULL &&
                  st->allocated != ONNXC_GLOBAL_SENTINEL &&
                  st->allocated != (void *)empty_buffer;
      for (i = 0; st->fresh && i < num_inputs; ++i)
        if (st->allocated == input_data[i])
          st->fresh = 0;
      st->first = 1;
      for (i = 0; i < k; ++i)
        if (states[i].allocated == st->allocated)
          st->first = 0;
      st->preset = outputs[k].data != NULL;
      desc += descriptor_slots(info->outputs[k].rank);
    }
    desc = results;
    for (k = 0; k < num_outputs; ++k) {
      states[k].taken = 0;
      for (i = 0; i < k; ++i)
        if (states[i].handed && states[i].allocated == states[k].allocated)
          states[k].taken = 1;
      status = fill_output(info, k, desc, &states[k], &outputs[k], bindings);
      if (status != ONNXC_OK)
        break;
      desc += descriptor_slots(info->outputs[k].rank);
    }
    /* On failure, the outputs filled so far give their buffers back. */
    for (i = 0; status != ONNXC_OK && i < k; ++i) {
      if (states[i].preset)
        continue;
      if (states[i].handed)
        states[i].handed = 0;
      else
        free(outputs[i].owner);
      outputs[i].owner = NULL;
      outputs[i].data = NULL;
    }
  }
  free_unhanded(states, num_outputs);
  free(block);
  return status;
}

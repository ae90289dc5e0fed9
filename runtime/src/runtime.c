/*===- runtime.c - The C runtime of onnxc-compiled models -----------------===*
 *
 * C99, libc only. onnxc_run_model validates the caller's tensors against the
 * model's signature (check.c), builds the memref descriptors the lowered
 * model takes (runtime_abi.h), calls it with failed run-time checks caught
 * (onnxc_rt_try, errors.c) so that they come back as a status, and hands
 * the results over or copies them (outputs.c). Also here: the thread count
 * and the element counts of the API.
 *
 * Thread safety: every function may be called from several threads at once;
 * the error message and the jump target of a run are thread-local.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char onnxc_rt_empty_buffer[1];

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

/*===-------------------------- Input descriptors -------------------------===*/

/* Where the input descriptors go, and what they point to. */
typedef struct builder {
  onnxc_rt_slot *desc;        /* the next descriptor */
  void **args;       /* the next argument of invoke */
  void **input_data; /* the `allocated` pointer of every input memref */
  int32_t num_data;
  void **temps; /* buffers of this run, freed after it */
  int32_t num_temps;
} builder;

/* Appends a contiguous row-major descriptor over `data`. */
static void put_descriptor(builder *b, void *data, const int64_t *sizes,
                           int32_t rank) {
  onnxc_rt_slot *desc = b->desc;
  int64_t strides[ONNXC_MAX_RANK + 1];
  int32_t d;
  onnxc_rt_dense_strides(sizes, rank, strides);
  desc[0].ptr = data;
  desc[1].ptr = data;
  desc[2].i64 = 0;
  for (d = 0; d < rank; ++d) {
    desc[3 + d].i64 = sizes[d];
    desc[3 + rank + d].i64 = strides[d];
  }
  *b->args++ = desc;
  b->input_data[b->num_data++] = data;
  b->desc += onnxc_rt_descriptor_slots(rank);
}

/* A zero-filled buffer of `bytes` owned by this run (the shared empty
 * buffer for 0 bytes); NULL when out of memory. */
static void *temp_buffer(builder *b, size_t bytes) {
  void *p;
  if (bytes == 0)
    return onnxc_rt_empty_buffer;
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
    data = numel == 0 ? (void *)onnxc_rt_empty_buffer : t->data;
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
 * into one buffer; their shapes are n x r, or rows (onnxc_rt_value_layout). */
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

/*===-------------------------- The entry point ---------------------------===*/

/* Builds the input descriptors (after check_inputs). */
static onnxc_status build_inputs(const onnxc_model_info *info,
                                 const onnxc_tensor *inputs, builder *b,
                                 uint8_t *flags) {
  char label[ONNXC_RT_ERROR_CAP];
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
      for (j = 0; status == ONNXC_OK && j < onnxc_rt_value_layout(vi).count;
           ++j)
        put_descriptor(b, sizes[j] ? bufs[j] : (void *)onnxc_rt_empty_buffer,
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

/* The arguments onnxc_run_model was called with, before anything else. */
static onnxc_status check_call(const onnxc_model_info *info,
                               onnxc_invoke_fn invoke,
                               const onnxc_tensor *inputs, int32_t num_inputs,
                               const onnxc_tensor *outputs,
                               int32_t num_outputs) {
  onnxc_status status;
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
  return status;
}

/* What one call needs besides the arena, in one block (`block`, zero-filled):
 * the results struct, the input descriptors, the arguments of invoke, the
 * inputs' data pointers, temporaries, the results' states, the symbols'
 * bindings, the optional inputs' flags. */
typedef struct run_block {
  char *block;
  onnxc_rt_slot *results;
  void **args;
  builder b;
  int32_t num_out_memrefs;
  onnxc_rt_result_state *states;
  onnxc_rt_binding *bindings;
  uint8_t *flags;
} run_block;

/* 0 when out of memory. */
static int alloc_run_block(const onnxc_model_info *info, run_block *r) {
  int64_t slots = 0, result_slots = 0;
  int32_t num_in_memrefs = 0, num_out_memrefs = 0;
  int32_t num_inputs = info->num_inputs, i, k;
  size_t bytes;
  for (k = 0; k < info->num_outputs; ++k) {
    onnxc_rt_layout l = onnxc_rt_value_layout(&info->outputs[k]);
    result_slots += onnxc_rt_layout_slots(l);
    num_out_memrefs += l.count;
  }
  slots = result_slots;
  for (i = 0; i < num_inputs; ++i) {
    onnxc_rt_layout l = onnxc_rt_value_layout(&info->inputs[i]);
    slots += onnxc_rt_layout_slots(l);
    num_in_memrefs += l.count;
  }
  bytes = (size_t)slots * sizeof(onnxc_rt_slot) +
          ((size_t)num_in_memrefs + 1) * sizeof(void *) +  /* args */
          (size_t)num_in_memrefs * sizeof(void *) +        /* input data */
          (size_t)num_inputs * 3 * sizeof(void *) +        /* temps */
          (size_t)num_out_memrefs * sizeof(onnxc_rt_result_state) + /* states */
          (size_t)info->num_symbols * sizeof(onnxc_rt_binding) +
          (size_t)num_inputs; /* flags */
  r->block = (char *)calloc(1, bytes);
  if (!r->block)
    return 0;
  r->results = (onnxc_rt_slot *)r->block;
  r->args = (void **)(r->results + slots);
  r->b.desc = r->results + result_slots;
  r->b.args = r->args;
  r->b.input_data = r->args + num_in_memrefs + 1;
  r->b.num_data = 0;
  r->b.temps = r->b.input_data + num_in_memrefs;
  r->b.num_temps = 0;
  r->num_out_memrefs = num_out_memrefs;
  r->states = (onnxc_rt_result_state *)(r->b.temps + 3 * num_inputs);
  r->bindings = (onnxc_rt_binding *)(r->states + num_out_memrefs);
  r->flags = (uint8_t *)(r->bindings + info->num_symbols);
  return 1;
}

/* The model's code, for onnxc_rt_try. */
typedef struct invocation {
  onnxc_invoke_fn invoke;
  void **args;
} invocation;

static void invoke_model(void *arg) {
  const invocation *call = (const invocation *)arg;
  call->invoke(call->args);
}

onnxc_status onnxc_run_model(const onnxc_model_info *info,
                             onnxc_invoke_fn invoke, const onnxc_tensor *inputs,
                             int32_t num_inputs, onnxc_tensor *outputs,
                             int32_t num_outputs) {
  onnxc_status status;
  int32_t i;
  run_block r;
  onnxc_rt_arena arena, *previous;

  status = check_call(info, invoke, inputs, num_inputs, outputs, num_outputs);
  if (status != ONNXC_OK)
    return status;
  if (!alloc_run_block(info, &r))
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");

  onnxc_rt_reset_outputs(info, outputs);
  status = onnxc_rt_check_inputs(info, inputs, r.bindings);
  if (status == ONNXC_OK)
    status = onnxc_rt_check_preset_outputs(info, outputs);
  if (status == ONNXC_OK) {
    if (num_outputs > 0)
      *r.b.args++ = r.results;
    status = build_inputs(info, inputs, &r.b, r.flags);
  }
  /* Everything the model allocates from here goes into the arena, which
   * frees what is left at the end (a failed check jumps past the model's
   * own frees). */
  previous = onnxc_rt_arena_enter(&arena);
  if (status == ONNXC_OK) {
    invocation call;
    int32_t code;
    call.invoke = invoke;
    call.args = r.args;
    code = onnxc_rt_try(invoke_model, &call, NULL, 0);
    if (code != 0)
      status = code > ONNXC_OK && code <= ONNXC_ERROR_RUNTIME
                   ? (onnxc_status)code
                   : ONNXC_ERROR_RUNTIME;
    else
      status = onnxc_rt_take_outputs(info, r.results, r.states,
                                     r.b.input_data, r.b.num_data, &arena,
                                     outputs, r.bindings);
  }
  onnxc_rt_arena_leave(&arena, previous);
  for (i = 0; i < r.b.num_temps; ++i)
    free(r.b.temps[i]);
  free(r.block);
  return status;
}

/*===- train.c - The training API of models with training info ----------===*
 *
 * A state is the model's mutable tensors, each owned by the state. A step
 * runs the generated step function on views of them plus the caller's
 * inputs (onnxc_run_model does the checking and the copying out), and only
 * when it succeeds swaps the updated tensors in: all or nothing.
 *
 * Save format (docs/training.md), little-endian:
 *   "ONNXCTS1", uint32 version (1), uint32 count, then per tensor:
 *   uint32 name length, the name (no NUL), int32 dtype, int32 rank,
 *   int64 dims[rank], uint64 byte count, the data (row-major).
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include "onnxc/runtime_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct onnxc_train_state {
  const onnxc_train_info *info;
  int32_t count;
  onnxc_tensor *tensors; /* owned */
  /* The step's and inference's signatures as the caller sees them: the
   * state inputs (and the step's updates) left out. */
  onnxc_model_info step_view, infer_view;
};

static const char kMagic[8] = {'O', 'N', 'N', 'X', 'C', 'T', 'S', '1'};

/* A view of `t` that the caller does not own. */
static onnxc_tensor view(const onnxc_tensor *t) {
  onnxc_tensor v = *t;
  v.owner = NULL;
  return v;
}

static size_t tensor_bytes(const onnxc_tensor *t) {
  int64_t n = onnxc_tensor_numel(t);
  return n < 0 ? 0 : (size_t)n * onnxc_dtype_size(t->dtype);
}

/* Frees a state tensor the step replaced into the models' allocator cache
 * (alloc.c): the next step allocates the same sizes, and a block handed
 * back to libc would be unmapped and faulted in again every step. */
static void recycle(onnxc_tensor *t) {
  if (t->owner && t->kind == ONNXC_VALUE_TENSOR) {
    onnxc_rt_free_owner(t->owner);
    t->owner = NULL;
    t->data = NULL;
  } else {
    onnxc_tensor_release(t);
  }
}

static void release_all(onnxc_tensor *tensors, int32_t count) {
  int32_t i;
  for (i = 0; i < count; ++i)
    onnxc_tensor_release(&tensors[i]);
}

onnxc_status onnxc_train_create(const onnxc_train_info *info,
                                onnxc_train_state **state) {
  onnxc_train_state *s;
  onnxc_status st;
  if (!info || !state || !info->init || !info->step || !info->infer ||
      info->num_state <= 0 || info->num_updates < 0 ||
      info->num_updates > info->num_state ||
      info->init->num_outputs != info->num_state ||
      info->step->num_inputs < info->num_state ||
      info->step->num_outputs < info->num_updates ||
      info->infer->num_inputs < info->num_state)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "onnxc_train_create: bad arguments or train info");
  *state = NULL;
  s = (onnxc_train_state *)calloc(1, sizeof *s);
  if (!s)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  s->info = info;
  s->count = info->num_state;
  s->tensors = (onnxc_tensor *)calloc((size_t)s->count, sizeof(onnxc_tensor));
  if (!s->tensors) {
    free(s);
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  st = onnxc_run_model(info->init, info->init_invoke, NULL, 0, s->tensors,
                       s->count);
  if (st != ONNXC_OK) {
    free(s->tensors);
    free(s);
    return st;
  }
  s->step_view = *info->step;
  s->step_view.inputs += s->count;
  s->step_view.num_inputs -= s->count;
  s->step_view.num_outputs -= info->num_updates;
  s->infer_view = *info->infer;
  s->infer_view.inputs += s->count;
  s->infer_view.num_inputs -= s->count;
  *state = s;
  return ONNXC_OK;
}

void onnxc_train_destroy(onnxc_train_state *state) {
  if (!state)
    return;
  release_all(state->tensors, state->count);
  free(state->tensors);
  free(state);
}

/* Runs `fn` of `state` on the state's views followed by the caller's
 * inputs; the caller's outputs, then `extra` model-allocated outputs into
 * `extra_out`. */
static onnxc_status run_with_state(const onnxc_train_state *state,
                                   const onnxc_model_info *fn,
                                   onnxc_invoke_fn invoke,
                                   const onnxc_tensor *inputs,
                                   int32_t num_inputs, onnxc_tensor *outputs,
                                   int32_t num_outputs, int32_t extra,
                                   onnxc_tensor *extra_out) {
  int32_t n_in, n_out, i;
  onnxc_tensor *in, *out;
  onnxc_status st;
  if (!state)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null training state");
  if (num_inputs < 0 || num_outputs < 0 || (num_inputs > 0 && !inputs) ||
      (num_outputs > 0 && !outputs))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "null inputs or outputs");
  if (num_inputs != fn->num_inputs - state->count ||
      num_outputs != fn->num_outputs - extra)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "model '%s': expected %d inputs and %d outputs, got "
                          "%d and %d",
                          fn->name, (int)(fn->num_inputs - state->count),
                          (int)(fn->num_outputs - extra), (int)num_inputs,
                          (int)num_outputs);
  n_in = fn->num_inputs;
  n_out = fn->num_outputs;
  in = (onnxc_tensor *)calloc((size_t)n_in + (size_t)n_out + 1,
                              sizeof(onnxc_tensor));
  if (!in)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  out = in + n_in;
  for (i = 0; i < state->count; ++i)
    in[i] = view(&state->tensors[i]);
  for (i = 0; i < num_inputs; ++i)
    in[state->count + i] = inputs[i];
  for (i = 0; i < num_outputs; ++i)
    out[i] = outputs[i];
  st = onnxc_run_model(fn, invoke, in, n_in, out, n_out);
  for (i = 0; i < num_outputs; ++i)
    outputs[i] = out[i];
  for (i = 0; i < extra; ++i)
    extra_out[i] = out[num_outputs + i];
  free(in);
  return st;
}

onnxc_status onnxc_train_step(onnxc_train_state *state,
                              const onnxc_tensor *inputs, int32_t num_inputs,
                              onnxc_tensor *outputs, int32_t num_outputs) {
  const onnxc_train_info *info;
  onnxc_tensor *updates;
  onnxc_status st;
  int32_t i;
  if (!state)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null training state");
  info = state->info;
  updates = (onnxc_tensor *)calloc((size_t)info->num_updates + 1,
                                   sizeof(onnxc_tensor));
  if (!updates)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  st = run_with_state(state, info->step, info->step_invoke, inputs,
                      num_inputs, outputs, num_outputs, info->num_updates,
                      updates);
  if (st == ONNXC_OK)
    for (i = 0; i < info->num_updates; ++i) {
      recycle(&state->tensors[i]);
      state->tensors[i] = updates[i];
    }
  free(updates);
  return st;
}

onnxc_status onnxc_train_infer(const onnxc_train_state *state,
                               const onnxc_tensor *inputs, int32_t num_inputs,
                               onnxc_tensor *outputs, int32_t num_outputs) {
  if (!state)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null training state");
  return run_with_state(state, state->info->infer, state->info->infer_invoke,
                        inputs, num_inputs, outputs, num_outputs, 0, NULL);
}

const onnxc_model_info *onnxc_train_step_info(const onnxc_train_state *state) {
  return state ? &state->step_view : NULL;
}

const onnxc_model_info *onnxc_train_infer_info(const onnxc_train_state *state) {
  return state ? &state->infer_view : NULL;
}

int32_t onnxc_train_num_params(const onnxc_train_state *state) {
  return state ? state->count : 0;
}

const char *onnxc_train_param_name(const onnxc_train_state *state,
                                   int32_t index) {
  if (!state || index < 0 || index >= state->count)
    return NULL;
  return state->info->step->inputs[index].name;
}

static int32_t find_param(const onnxc_train_state *state, const char *name) {
  int32_t i;
  if (!state || !name)
    return -1;
  for (i = 0; i < state->count; ++i)
    if (strcmp(state->info->step->inputs[i].name, name) == 0)
      return i;
  return -1;
}

onnxc_status onnxc_train_get_param(const onnxc_train_state *state,
                                   const char *name, onnxc_tensor *out) {
  int32_t i = find_param(state, name);
  if (!out)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null output");
  if (i < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "no training parameter named '%s'",
                          name ? name : "(null)");
  *out = view(&state->tensors[i]);
  return ONNXC_OK;
}

/* Whether `t` has the dtype and shape of state tensor `i`; the status and
 * message otherwise. */
static onnxc_status check_like(const onnxc_train_state *state, int32_t i,
                               int32_t dtype, int32_t rank,
                               const int64_t *shape) {
  const onnxc_tensor *p = &state->tensors[i];
  int32_t d;
  const char *name = onnxc_train_param_name(state, i);
  if (dtype != p->dtype)
    return onnxc_rt_error(ONNXC_ERROR_DTYPE,
                          "training parameter '%s': dtype %s, expected %s",
                          name, onnxc_dtype_name(dtype),
                          onnxc_dtype_name(p->dtype));
  if (rank != p->rank)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                          "training parameter '%s': rank %d, expected %d",
                          name, (int)rank, (int)p->rank);
  for (d = 0; d < rank; ++d)
    if (shape[d] != p->shape[d])
      return onnxc_rt_error(ONNXC_ERROR_SHAPE,
                            "training parameter '%s': dim %d is %lld, "
                            "expected %lld",
                            name, (int)d, (long long)shape[d],
                            (long long)p->shape[d]);
  return ONNXC_OK;
}

onnxc_status onnxc_train_set_param(onnxc_train_state *state, const char *name,
                                   const onnxc_tensor *value) {
  int32_t i = find_param(state, name);
  onnxc_status st;
  if (!value || (value->kind != ONNXC_VALUE_TENSOR))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "onnxc_train_set_param: a tensor is needed");
  if (i < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "no training parameter named '%s'",
                          name ? name : "(null)");
  if (value->rank < 0 || value->rank > ONNXC_MAX_RANK)
    return onnxc_rt_error(ONNXC_ERROR_SHAPE, "bad rank %d", (int)value->rank);
  st = check_like(state, i, value->dtype, value->rank, value->shape);
  if (st != ONNXC_OK)
    return st;
  if (tensor_bytes(value) && !value->data)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null data");
  memcpy(state->tensors[i].data, value->data, tensor_bytes(value));
  return ONNXC_OK;
}

/* ---- serialization ---------------------------------------------------- */

typedef struct writer {
  unsigned char *p;
  size_t size, cap;
  int failed;
} writer;

static void put(writer *w, const void *data, size_t n) {
  if (w->failed)
    return;
  if (w->size + n > w->cap) {
    size_t cap = w->cap ? w->cap : 256;
    unsigned char *p;
    while (cap < w->size + n)
      cap *= 2;
    p = (unsigned char *)realloc(w->p, cap);
    if (!p) {
      w->failed = 1;
      return;
    }
    w->p = p;
    w->cap = cap;
  }
  if (n)
    memcpy(w->p + w->size, data, n);
  w->size += n;
}

static void put_u32(writer *w, uint32_t v) { put(w, &v, 4); }

onnxc_status onnxc_train_save_buffer(const onnxc_train_state *state,
                                     void **data, size_t *size) {
  writer w = {NULL, 0, 0, 0};
  int32_t i;
  if (!state || !data || !size)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null argument");
  put(&w, kMagic, 8);
  put_u32(&w, 1);
  put_u32(&w, (uint32_t)state->count);
  for (i = 0; i < state->count; ++i) {
    const onnxc_tensor *t = &state->tensors[i];
    const char *name = onnxc_train_param_name(state, i);
    uint64_t bytes = tensor_bytes(t);
    put_u32(&w, (uint32_t)strlen(name));
    put(&w, name, strlen(name));
    put(&w, &t->dtype, 4);
    put(&w, &t->rank, 4);
    put(&w, t->shape, 8 * (size_t)t->rank);
    put(&w, &bytes, 8);
    put(&w, t->data, (size_t)bytes);
  }
  if (w.failed) {
    free(w.p);
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  *data = w.p;
  *size = w.size;
  return ONNXC_OK;
}

typedef struct reader {
  const unsigned char *p;
  size_t size, pos;
} reader;

static int get(reader *r, void *out, size_t n) {
  if (n > r->size - r->pos)
    return 0;
  memcpy(out, r->p + r->pos, n);
  r->pos += n;
  return 1;
}

onnxc_status onnxc_train_load_buffer(onnxc_train_state *state,
                                     const void *data, size_t size) {
  reader r = {(const unsigned char *)data, size, 0};
  char magic[8];
  uint32_t version, count, k;
  int pass;
  unsigned char *seen;
  if (!state || (!data && size))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null argument");
  if (!get(&r, magic, 8) || memcmp(magic, kMagic, 8) != 0 ||
      !get(&r, &version, 4) || version != 1 || !get(&r, &count, 4))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "not an onnxc training state (version 1)");
  if (count != (uint32_t)state->count)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "the saved state has %u tensors, the model %d",
                          count, (int)state->count);
  /* Each tensor of the model once: with the count equal, a name listed
   * twice would leave another tensor out (loaded OK, that tensor kept its
   * value). */
  seen = (unsigned char *)calloc(count ? count : 1, 1);
  if (!seen)
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  /* Pass 0 checks everything, pass 1 copies: all or nothing. */
  for (pass = 0; pass < 2; ++pass) {
    r.pos = 16;
    for (k = 0; k < count; ++k) {
      uint32_t len;
      int32_t dtype, rank, i;
      int64_t shape[ONNXC_MAX_RANK];
      uint64_t bytes;
      char name[256];
      onnxc_status st;
      if (!get(&r, &len, 4) || len >= sizeof name || !get(&r, name, len)) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: bad name of tensor %u", k);
      }
      name[len] = 0;
      i = find_param(state, name);
      if (i < 0) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: '%s' is not a training parameter "
                              "of the model",
                              name);
      }
      if (pass == 0 && seen[i]) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: tensor '%s' is listed twice",
                              name);
      }
      seen[i] = 1;
      if (!get(&r, &dtype, 4) || !get(&r, &rank, 4) || rank < 0 ||
          rank > ONNXC_MAX_RANK || !get(&r, shape, 8 * (size_t)rank) ||
          !get(&r, &bytes, 8)) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: tensor '%s' is truncated", name);
      }
      st = check_like(state, i, dtype, rank, shape);
      if (st != ONNXC_OK) {
        free(seen);
        return st;
      }
      if (bytes > r.size - r.pos && bytes == tensor_bytes(&state->tensors[i])) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: tensor '%s' is truncated", name);
      }
      if (bytes != tensor_bytes(&state->tensors[i]) ||
          bytes > r.size - r.pos) {
        free(seen);
        return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                              "saved state: tensor '%s' holds %llu bytes, "
                              "expected %llu",
                              name, (unsigned long long)bytes,
                              (unsigned long long)tensor_bytes(
                                  &state->tensors[i]));
      }
      if (pass == 1 && bytes)
        memcpy(state->tensors[i].data, r.p + r.pos, (size_t)bytes);
      r.pos += (size_t)bytes;
    }
  }
  free(seen);
  return ONNXC_OK;
}

onnxc_status onnxc_train_save(const onnxc_train_state *state,
                              const char *path) {
  void *data;
  size_t size;
  FILE *f;
  onnxc_status st = onnxc_train_save_buffer(state, &data, &size);
  if (st != ONNXC_OK)
    return st;
  f = path ? fopen(path, "wb") : NULL;
  if (!f || fwrite(data, 1, size, f) != size) {
    if (f)
      fclose(f);
    free(data);
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot write '%s'", path ? path : "(null)");
  }
  free(data);
  if (fclose(f) != 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "cannot write '%s'",
                          path);
  return ONNXC_OK;
}

onnxc_status onnxc_train_load(onnxc_train_state *state, const char *path) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  long size;
  void *data;
  onnxc_status st;
  if (!f)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "cannot open '%s'",
                          path ? path : "(null)");
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "cannot read '%s'",
                          path);
  }
  data = malloc((size_t)size + 1);
  if (!data) {
    fclose(f);
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  if (fread(data, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    free(data);
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "cannot read '%s'",
                          path);
  }
  fclose(f);
  st = onnxc_train_load_buffer(state, data, (size_t)size);
  free(data);
  return st;
}

static void put_varint(writer *w, uint64_t v) {
  unsigned char b[10];
  size_t n = 0;
  do {
    b[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v)
      b[n] |= 0x80;
    ++n;
  } while (v);
  put(w, b, n);
}

onnxc_status onnxc_train_export_param(const onnxc_train_state *state,
                                      const char *name, void **data,
                                      size_t *size) {
  writer w = {NULL, 0, 0, 0};
  int32_t i = find_param(state, name), d;
  const onnxc_tensor *t;
  size_t bytes, len;
  if (!data || !size)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT, "null argument");
  if (i < 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "no training parameter named '%s'",
                          name ? name : "(null)");
  t = &state->tensors[i];
  bytes = tensor_bytes(t);
  len = strlen(name);
  /* TensorProto: dims = 1 (varint), data_type = 2, name = 8, raw_data = 9. */
  for (d = 0; d < t->rank; ++d) {
    put_varint(&w, 1 << 3);
    put_varint(&w, (uint64_t)t->shape[d]);
  }
  put_varint(&w, 2 << 3);
  put_varint(&w, (uint64_t)t->dtype);
  put_varint(&w, (8 << 3) | 2);
  put_varint(&w, len);
  put(&w, name, len);
  put_varint(&w, (9 << 3) | 2);
  put_varint(&w, bytes);
  put(&w, t->data, bytes);
  if (w.failed) {
    free(w.p);
    return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  *data = w.p;
  *size = w.size;
  return ONNXC_OK;
}

/* A hand-written stand-in for a compiled model with sequences and
 * optionals in its signature, following runtime_abi.h: every sequence is a
 * 1-D `data` memref (the items' elements one item after the other) and a
 * `shapes` memref (n x rank), every optional a presence flag and then its
 * value's memrefs.
 *
 *   inputs:  S seq<float[?, 2]>, O opt<int64[3]>, P opt<seq<int32[?]>>
 *   outputs: T seq<float[?, 2]> = every item of S + 1
 *            F bool[]            = O is present
 *            U opt<int64[3]>     = O + 10 (absent when O is)
 *            Q opt<seq<int32[?]>> = every item of P * 2 (absent when P is)
 * More than 4 items in S fail inside the model (onnxc_rt_fail). */
#include "onnxc/runtime_abi.h"

#include <stdlib.h>

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
typedef struct results {
  memref1 t_data;
  memref2 t_shapes;
  memref0 f;
  memref0 u_flag;
  memref1 u;
  memref0 q_flag;
  memref1 q_data;
  memref2 q_shapes;
} results;

static const int64_t item_dims[] = {-1, 2}, o_dims[] = {3}, p_dims[] = {-1};
static const onnxc_value_info inputs[] = {
    {"S", ONNXC_DTYPE_FLOAT, 2, item_dims, NULL, ONNXC_VALUE_SEQUENCE, 0, 0},
    {"O", ONNXC_DTYPE_INT64, 1, o_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR, 0},
    {"P", ONNXC_DTYPE_INT32, 1, p_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE, 0}};
static const onnxc_value_info outputs[] = {
    {"T", ONNXC_DTYPE_FLOAT, 2, item_dims, NULL, ONNXC_VALUE_SEQUENCE, 0, 0},
    {"F", ONNXC_DTYPE_BOOL, 0, NULL, NULL, ONNXC_VALUE_TENSOR, 0, 0},
    {"U", ONNXC_DTYPE_INT64, 1, o_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR, 0},
    {"Q", ONNXC_DTYPE_INT32, 1, p_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE, 0}};
#define STR2(a) #a
#define STR(a) STR2(a)
static const onnxc_model_info info = {STR(MODEL), 3, 4,   inputs,
                                      outputs,    0, NULL};

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  return p;
}

static uint8_t *flag(int present) {
  uint8_t *f = (uint8_t *)xmalloc(1);
  *f = (uint8_t)present;
  return f;
}

static void invoke(void **args) {
  results *r = (results *)args[0];
  const memref1 *s = (const memref1 *)args[1];
  const memref2 *s_shapes = (const memref2 *)args[2];
  const memref0 *o_flag = (const memref0 *)args[3];
  const memref1 *o = (const memref1 *)args[4];
  const memref0 *p_flag = (const memref0 *)args[5];
  const memref1 *p = (const memref1 *)args[6];
  const memref2 *p_shapes = (const memref2 *)args[7];
  int o_present = *((const uint8_t *)o_flag->aligned + o_flag->offset);
  int p_present = *((const uint8_t *)p_flag->aligned + p_flag->offset);
  int64_t n = s_shapes->sizes[0], total = s->sizes[0], ptotal = p->sizes[0], i;
  float *t;
  int64_t *u;
  int32_t *q;

  if (n > 4)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "S holds more than 4 items");
  /* T: every element + 1; the shapes are S's (an alias of the input). */
  t = (float *)xmalloc((size_t)total * sizeof(float));
  for (i = 0; i < total; ++i)
    t[i] = ((const float *)s->aligned)[s->offset + i * s->strides[0]] + 1.0f;
  r->t_data.allocated = r->t_data.aligned = t;
  r->t_data.offset = 0;
  r->t_data.sizes[0] = total;
  r->t_data.strides[0] = 1;
  r->t_shapes = *s_shapes;

  r->f.allocated = r->f.aligned = flag(o_present);
  r->f.offset = 0;

  /* U: O + 10; an absent O has a valid (zero-filled) buffer too. */
  r->u_flag.allocated = r->u_flag.aligned = flag(o_present);
  r->u_flag.offset = 0;
  u = (int64_t *)xmalloc(3 * sizeof(int64_t));
  for (i = 0; i < 3; ++i)
    u[i] = ((const int64_t *)o->aligned)[o->offset + i * o->strides[0]] + 10;
  r->u.allocated = r->u.aligned = u;
  r->u.offset = 0;
  r->u.sizes[0] = 3;
  r->u.strides[0] = 1;

  /* Q: P * 2, P's shapes as they are. */
  r->q_flag.allocated = r->q_flag.aligned = flag(p_present);
  r->q_flag.offset = 0;
  q = (int32_t *)xmalloc((size_t)ptotal * sizeof(int32_t));
  for (i = 0; i < ptotal; ++i)
    q[i] = 2 * ((const int32_t *)p->aligned)[p->offset + i * p->strides[0]];
  r->q_data.allocated = r->q_data.aligned = q;
  r->q_data.offset = 0;
  r->q_data.sizes[0] = ptotal;
  r->q_data.strides[0] = 1;
  r->q_shapes = *p_shapes;
}

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

const onnxc_model_info *CAT(MODEL, _info)(void) { return &info; }

onnxc_status CAT(MODEL, _run)(const onnxc_tensor *in, int32_t num_inputs,
                              onnxc_tensor *out, int32_t num_outputs) {
  return onnxc_run_model(&info, invoke, in, num_inputs, out, num_outputs);
}

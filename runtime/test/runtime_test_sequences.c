/*===- runtime_test_sequences.c - Sequences and optionals through the API -===*
 *
 * Part of the runtime's unit test (runtime_test.c runs these): sequences
 * and optionals crossing onnxc_run_model both ways, items of a declared
 * rank and of none (runtime_abi.h's data and shapes memrefs).
 *===----------------------------------------------------------------------===*/

#include "runtime_test.h"

#include <stdio.h>

static const int64_t dims3[] = {3};

/*===----------------- sequences and optionals (runtime_abi.h) ------------===*/

/*   inputs:  S seq<float[?, 2]>, O opt<int64[3]>, P opt<seq<int32[?]>>
 *   outputs: T seq<float[?, 2]> = S items + 1 (data with stride 2, shapes
 *              transposed in memory)
 *            F bool[] = O is present
 *            U opt<int64[3]> = O + 10 (fresh), or absent (the input's
 *              absent buffer aliased)
 *            Q opt<seq<int32[?]>> = P with items reversed and doubled; its
 *              flag is the input's */
static const int64_t n2_dims[] = {-1, 2}, n_dims[] = {-1};
static const onnxc_value_info seq_in[] = {
    {"S", ONNXC_DTYPE_FLOAT, 2, n2_dims, NULL, ONNXC_VALUE_SEQUENCE, 0, 0},
    {"O", ONNXC_DTYPE_INT64, 1, dims3, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR, 0},
    {"P", ONNXC_DTYPE_INT32, 1, n_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE, 0}};
static const onnxc_value_info seq_out[] = {
    {"T", ONNXC_DTYPE_FLOAT, 2, n2_dims, NULL, ONNXC_VALUE_SEQUENCE, 0, 0},
    {"F", ONNXC_DTYPE_BOOL, 0, NULL, NULL, 0, 0, 0},
    {"U", ONNXC_DTYPE_INT64, 1, dims3, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_TENSOR, 0},
    {"Q", ONNXC_DTYPE_INT32, 1, n_dims, NULL, ONNXC_VALUE_OPTIONAL,
     ONNXC_VALUE_SEQUENCE, 0}};
static const onnxc_model_info seq_info = {"seq",   3, 4,   seq_in,
                                          seq_out, 0, NULL};

typedef struct seq_results {
  memref1 t_data;
  memref2 t_shapes;
  memref0 f;
  memref0 u_flag;
  memref1 u;
  memref0 q_flag;
  memref1 q_data;
  memref2 q_shapes;
} seq_results;

/* What the model saw, and how it should misbehave. */
static struct {
  int64_t s_size, s_shapes[8], p_size, p_shapes[4], o_size, o_data[3];
  float s_data[16];
  int32_t p_data[8];
  int o_flag, p_flag, ok;
} seq_seen;
static int seq_break; /* 1: T's shapes need more than its data; 2: Q's
                         shapes have 2 columns; 3: T's item 0 breaks the
                         static dim */

static void seq_invoke(void **args) {
  seq_results *r = (seq_results *)args[0];
  const memref1 *s = (const memref1 *)args[1];
  const memref2 *s_shapes = (const memref2 *)args[2];
  const memref0 *o_flag = (const memref0 *)args[3];
  const memref1 *o = (const memref1 *)args[4];
  const memref0 *p_flag = (const memref0 *)args[5];
  const memref1 *p = (const memref1 *)args[6];
  const memref2 *p_shapes = (const memref2 *)args[7];
  const float *sd = (const float *)s->aligned + s->offset;
  const int64_t *ss = (const int64_t *)s_shapes->aligned + s_shapes->offset;
  const int32_t *pd = (const int32_t *)p->aligned + p->offset;
  const int64_t *ps = (const int64_t *)p_shapes->aligned + p_shapes->offset;
  int64_t n = s_shapes->sizes[0], total = s->sizes[0], i, e, start;
  int64_t pn = p_shapes->sizes[0], ptotal = p->sizes[0];
  float *t;
  int64_t *t_shapes, *u, *q_shapes;
  int32_t *q;
  uint8_t *f, *u_flag;

  /* Record the input descriptors. */
  seq_seen.ok = s->strides[0] == 1 && s_shapes->sizes[1] == 2 &&
                s_shapes->strides[0] == 2 && s_shapes->strides[1] == 1 &&
                o->strides[0] == 1 && p_shapes->sizes[1] == 1;
  seq_seen.s_size = total;
  for (i = 0; i < n * 2 && i < 8; ++i)
    seq_seen.s_shapes[i] = ss[i];
  for (i = 0; i < total && i < 16; ++i)
    seq_seen.s_data[i] = sd[i];
  seq_seen.o_flag = *((const uint8_t *)o_flag->aligned + o_flag->offset);
  seq_seen.o_size = o->sizes[0];
  for (i = 0; i < o->sizes[0] && i < 3; ++i)
    seq_seen.o_data[i] = ((const int64_t *)o->aligned)[o->offset + i];
  seq_seen.p_flag = *((const uint8_t *)p_flag->aligned + p_flag->offset);
  seq_seen.p_size = ptotal;
  for (i = 0; i < pn && i < 4; ++i)
    seq_seen.p_shapes[i] = ps[i];
  for (i = 0; i < ptotal && i < 8; ++i)
    seq_seen.p_data[i] = pd[i];

  /* T: items + 1, every other element of the buffer (stride 2, offset 1);
   * shapes stored transposed. */
  t = (float *)xmalloc((size_t)(2 * total + 1) * sizeof(float));
  t_shapes = (int64_t *)xmalloc((size_t)(n * 2) * sizeof(int64_t));
  for (i = 0; i < total; ++i)
    t[1 + 2 * i] = sd[i] + 1.0f;
  for (i = 0; i < n; ++i) {
    t_shapes[i] = ss[i * 2];
    t_shapes[n + i] = seq_break == 3 && i == 0 ? 1 : ss[i * 2 + 1];
  }
  if (seq_break == 1 && n > 0)
    t_shapes[0] = total;
  set1(&r->t_data, t, t, 1, total, 2);
  /* No items: shapes of no width (any width goes without items). */
  set2(&r->t_shapes, t_shapes, t_shapes, 0, n, n ? 2 : 0, 1, n);

  f = (uint8_t *)xmalloc(1);
  *f = (uint8_t)seq_seen.o_flag;
  r->f.allocated = r->f.aligned = f;
  r->f.offset = 0;

  u_flag = (uint8_t *)xmalloc(1);
  *u_flag = (uint8_t)seq_seen.o_flag;
  r->u_flag.allocated = r->u_flag.aligned = u_flag;
  r->u_flag.offset = 0;
  if (seq_seen.o_flag) {
    u = (int64_t *)xmalloc(3 * sizeof(int64_t));
    for (i = 0; i < 3; ++i)
      u[i] = seq_seen.o_data[i] + 10;
    set1(&r->u, u, u, 0, 3, 1);
  } else {
    set1(&r->u, o->allocated, o->aligned, o->offset, o->sizes[0], 1);
  }

  /* Q: P's items reversed and doubled; the flag is the input's own. */
  r->q_flag.allocated = p_flag->allocated;
  r->q_flag.aligned = p_flag->aligned;
  r->q_flag.offset = p_flag->offset;
  q = (int32_t *)xmalloc((size_t)ptotal * sizeof(int32_t));
  q_shapes = (int64_t *)xmalloc((size_t)pn * sizeof(int64_t));
  for (i = 0, start = 0, e = ptotal; i < pn; start += ps[i], ++i) {
    int64_t j;
    e -= ps[i]; /* where item i goes */
    for (j = 0; j < ps[i]; ++j)
      q[e + j] = 2 * pd[start + j];
    q_shapes[pn - 1 - i] = ps[i];
  }
  set1(&r->q_data, q, q, 0, ptotal, 1);
  set2(&r->q_shapes, q_shapes, q_shapes, 0, pn, seq_break == 2 ? 2 : 1, 1, 1);
}

static onnxc_status run_seq(onnxc_tensor *in, onnxc_tensor *out) {
  return onnxc_run_model(&seq_info, seq_invoke, in, 3, out, 4);
}

static void release_all(onnxc_tensor *t, int n) {
  int i;
  for (i = 0; i < n; ++i)
    onnxc_tensor_release(&t[i]);
}

void test_sequences(void) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[2] = {7, 8};
  int64_t o[3] = {1, 2, 3};
  int32_t p0[2] = {5, 6}, p1[1] = {7};
  onnxc_tensor s_items[3], o_value, p_items[2], p_seq, in[3], out[4];
  static const float t0[6] = {2, 3, 4, 5, 6, 7};
  static const float t1[2] = {8, 9};
  const onnxc_tensor *t, *q;
  int i;

  s_items[0] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 3, 2);
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  s_items[2] = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 0, 2); /* no elements */
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 3, 0);
  p_items[0] = tensor(p0, ONNXC_DTYPE_INT32, 1, 2, 0);
  p_items[1] = tensor(p1, ONNXC_DTYPE_INT32, 1, 1, 0);
  p_seq = onnxc_make_sequence(p_items, 2);
  in[0] = onnxc_make_sequence(s_items, 3);
  in[1] = onnxc_make_optional(&o_value);
  in[2] = onnxc_make_optional(&p_seq);
  CHECK(in[0].kind == ONNXC_VALUE_SEQUENCE && in[0].num_items == 3 &&
        in[0].items == s_items && in[0].dtype == ONNXC_DTYPE_FLOAT);
  CHECK(in[1].kind == ONNXC_VALUE_OPTIONAL && in[1].num_items == 1);

  /* Garbage in the outputs: sequences and optionals are model-allocated
   * whatever they held. */
  memset(out, 0x5a, sizeof out);
  out[1] = tensor(NULL, 0, 0, 0, 0);
  CHECK(run_seq(in, out) == ONNXC_OK);
  /* What the model saw: the items one after the other, shapes, flags. */
  CHECK(seq_seen.ok);
  CHECK(seq_seen.s_size == 8);
  CHECK(seq_seen.s_shapes[0] == 3 && seq_seen.s_shapes[1] == 2 &&
        seq_seen.s_shapes[2] == 1 && seq_seen.s_shapes[3] == 2 &&
        seq_seen.s_shapes[4] == 0 && seq_seen.s_shapes[5] == 2);
  CHECK(seq_seen.s_data[0] == 1 && seq_seen.s_data[5] == 6 &&
        seq_seen.s_data[6] == 7 && seq_seen.s_data[7] == 8);
  CHECK(seq_seen.o_flag == 1 && seq_seen.o_size == 3 &&
        seq_seen.o_data[2] == 3);
  CHECK(seq_seen.p_flag == 1 && seq_seen.p_size == 3 &&
        seq_seen.p_shapes[0] == 2 && seq_seen.p_shapes[1] == 1 &&
        seq_seen.p_data[0] == 5 && seq_seen.p_data[1] == 6 &&
        seq_seen.p_data[2] == 7);
  /* T: three items of their own shapes, each owning its data. */
  t = &out[0];
  CHECK(t->kind == ONNXC_VALUE_SEQUENCE && t->num_items == 3 &&
        t->owner == t->items && t->dtype == ONNXC_DTYPE_FLOAT &&
        t->data == NULL);
  CHECK(t->items[0].kind == ONNXC_VALUE_TENSOR && t->items[0].rank == 2 &&
        t->items[0].shape[0] == 3 && t->items[0].shape[1] == 2 &&
        t->items[0].owner != NULL && t->items[0].dtype == ONNXC_DTYPE_FLOAT);
  CHECK(floats_equal(&t->items[0], t0, 6));
  CHECK(t->items[1].shape[0] == 1 && floats_equal(&t->items[1], t1, 2));
  CHECK(t->items[2].shape[0] == 0 && t->items[2].shape[1] == 2 &&
        onnxc_tensor_numel(&t->items[2]) == 0);
  CHECK(out[1].kind == ONNXC_VALUE_TENSOR && out[1].rank == 0 &&
        *(uint8_t *)out[1].data == 1);
  /* U: present, its fresh buffer handed over. */
  CHECK(out[2].kind == ONNXC_VALUE_OPTIONAL && out[2].num_items == 1 &&
        out[2].items[0].kind == ONNXC_VALUE_TENSOR &&
        out[2].items[0].shape[0] == 3 && out[2].items[0].owner != NULL &&
        ((int64_t *)out[2].items[0].data)[2] == 13);
  /* Q: present, a sequence of P's items reversed and doubled. */
  q = out[3].num_items == 1 ? &out[3].items[0] : NULL;
  CHECK(out[3].kind == ONNXC_VALUE_OPTIONAL && q != NULL);
  if (q) {
    CHECK(q->kind == ONNXC_VALUE_SEQUENCE && q->num_items == 2);
    CHECK(q->items[0].shape[0] == 1 && ((int32_t *)q->items[0].data)[0] == 14);
    CHECK(q->items[1].shape[0] == 2 && ((int32_t *)q->items[1].data)[0] == 10 &&
          ((int32_t *)q->items[1].data)[1] == 12);
  }
  release_all(out, 4);
  CHECK(out[0].items == NULL && out[0].num_items == 0 && out[0].owner == NULL);
  CHECK(out[3].items == NULL && out[3].owner == NULL);
  release_all(out, 4); /* twice: no-op */

  /* Empty sequences, absent optionals: the absent tensor is a zero-filled
   * int64[3], the absent sequence has no items. */
  in[0] = onnxc_make_sequence(NULL, 0);
  in[1] = onnxc_make_optional(NULL);
  p_seq = onnxc_make_sequence(NULL, 0);
  in[2] = onnxc_make_optional(&p_seq); /* present, empty */
  memset(out, 0, sizeof out);
  memset(&seq_seen, 0xff, sizeof seq_seen);
  CHECK(run_seq(in, out) == ONNXC_OK);
  CHECK(seq_seen.ok && seq_seen.s_size == 0);
  CHECK(seq_seen.o_flag == 0 && seq_seen.o_size == 3 &&
        seq_seen.o_data[0] == 0 && seq_seen.o_data[2] == 0);
  CHECK(seq_seen.p_flag == 1 && seq_seen.p_size == 0);
  CHECK(out[0].kind == ONNXC_VALUE_SEQUENCE && out[0].num_items == 0 &&
        out[0].items == NULL);
  CHECK(*(uint8_t *)out[1].data == 0);
  CHECK(out[2].kind == ONNXC_VALUE_OPTIONAL && out[2].num_items == 0 &&
        out[2].items == NULL);
  CHECK(out[3].num_items == 1 && out[3].items[0].kind == ONNXC_VALUE_SEQUENCE &&
        out[3].items[0].num_items == 0);
  release_all(out, 4);
  in[2] = onnxc_make_optional(NULL);
  CHECK(run_seq(in, out) == ONNXC_OK);
  CHECK(seq_seen.p_flag == 0 && seq_seen.p_size == 0);
  CHECK(out[3].kind == ONNXC_VALUE_OPTIONAL && out[3].num_items == 0);
  release_all(out, 4);

  /* Input errors, before the model runs. */
  in[0] = onnxc_make_sequence(s_items, 2);
  in[1] = onnxc_make_optional(&o_value);
  p_seq = onnxc_make_sequence(p_items, 2);
  in[2] = onnxc_make_optional(&p_seq);
  CHECK(run_seq(in, out) == ONNXC_OK);
  release_all(out, 4);
  in[0] = s_items[0];
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S': expected a sequence, got a tensor");
  in[0] = onnxc_make_sequence(s_items, 2);
  s_items[1].dtype = ONNXC_DTYPE_DOUBLE;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S' item 1: expected dtype float, got double");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 1, 2, 0);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1: expected rank 2, got 1");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 3);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1 dim 1: expected 2, got 3");
  s_items[1] = tensor(NULL, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S' item 1: data is null");
  s_items[1] = o_value;
  s_items[1].kind = ONNXC_VALUE_OPTIONAL;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'S' item 1: expected a tensor, got an optional");
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  s_items[1].shape[0] = INT64_MAX / 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S' item 1: 9223372036854775806 elements of 4 bytes "
              "hold more than 2^63 - 1 bytes");
  s_items[1].shape[0] = ((int64_t)1 << 60) - 1; /* fits alone */
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'S': too many elements"); /* all items together */
  s_items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 2);
  in[0].num_items = -1;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S': negative item count -1");
  in[0] = onnxc_make_sequence(NULL, 2);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'S': items is null");
  in[0] = onnxc_make_sequence(s_items, 2);
  in[1] = o_value;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected an optional, got a tensor");
  in[1] = onnxc_make_optional(&o_value);
  in[1].num_items = 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_INVALID_ARGUMENT,
              "input 'O': an optional holds 0 or 1 item, got 2");
  in[1] = onnxc_make_optional(&p_seq);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected a tensor, got a sequence");
  o_value.dtype = ONNXC_DTYPE_FLOAT;
  in[1] = onnxc_make_optional(&o_value);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'O': expected dtype int64, got float");
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 4, 0);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_SHAPE,
              "input 'O' dim 0: expected 3, got 4");
  o_value = tensor(o, ONNXC_DTYPE_INT64, 1, 3, 0);
  in[2] = onnxc_make_optional(&o_value);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P': expected a sequence, got a tensor");
  p_items[1].dtype = ONNXC_DTYPE_INT64;
  in[2] = onnxc_make_optional(&p_seq);
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P' item 1: expected dtype int32, got int64");
  p_items[1].dtype = ONNXC_DTYPE_INT32;
  in[2].kind = 7;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_DTYPE,
              "input 'P': expected an optional, got a value of unknown kind");
  in[2] = onnxc_make_optional(&p_seq);
  /* Nothing was allocated on those paths. */
  for (i = 0; i < 4; ++i)
    CHECK(out[i].owner == NULL && out[i].items == NULL);

  /* Results that break the contract: every output filled so far is taken
   * back (AddressSanitizer checks that nothing leaks). */
  seq_break = 1;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'T' item 0: the model's shapes need more than the 8 "
              "elements of its data");
  seq_break = 3;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'T' item 0 dim 1: the model produced 1, its signature "
              "says 2");
  seq_break = 2;
  CHECK_ERROR(run_seq(in, out), ONNXC_ERROR_RUNTIME,
              "output 'Q': the model produced 2 x 2 shapes for items of "
              "rank 1");
  seq_break = 0;
  for (i = 0; i < 4; ++i)
    CHECK(out[i].owner == NULL && out[i].data == NULL && out[i].items == NULL &&
          out[i].num_items == 0);
  CHECK(out[0].kind == ONNXC_VALUE_SEQUENCE &&
        out[2].kind == ONNXC_VALUE_OPTIONAL);
  release_all(out, 4);
  CHECK(run_seq(in, out) == ONNXC_OK);
  release_all(out, 4);

  /* Bad kinds in the model's description. */
  {
    onnxc_value_info bad_in[3];
    onnxc_model_info bad = seq_info;
    memcpy(bad_in, seq_in, sizeof bad_in);
    bad.inputs = bad_in;
    bad_in[1].payload_kind = ONNXC_VALUE_OPTIONAL;
    CHECK_ERROR(onnxc_run_model(&bad, seq_invoke, in, 3, out, 4),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'O' has kind 2 (payload kind 2)");
    bad_in[1].payload_kind = 0;
    bad_in[0].kind = 3;
    CHECK_ERROR(onnxc_run_model(&bad, seq_invoke, in, 3, out, 4),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'S' has kind 3 (payload kind 0)");
  }
}

/*===-------- sequences whose items have no declared rank (rank -1) -------===*/

/* Their shapes are rows of 1 + ONNXC_MAX_RANK: the item's rank, its dims,
 * zeros (runtime_abi.h). */
#define ROW (1 + ONNXC_MAX_RANK)
static const onnxc_value_info useq_in[] = {
    {"S", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_SEQUENCE, 0, 0}};
static const onnxc_value_info useq_out[] = {
    {"T", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_SEQUENCE, 0, 0}};
static const onnxc_model_info useq_info = {"useq",   1, 1,   useq_in,
                                           useq_out, 0, NULL};
typedef struct useq_results {
  memref1 data;
  memref1 shapes;
} useq_results;
static int64_t useq_shapes[3 * ROW], useq_size;
static int useq_break; /* 1: rows of a bad width; 2: an item of rank 17 */

/* T = S, its data and shapes aliased. */
static void useq_invoke(void **args) {
  useq_results *r = (useq_results *)args[0];
  int64_t i;
  r->data = *(const memref1 *)args[1];
  r->shapes = *(const memref1 *)args[2];
  useq_size = r->shapes.sizes[0];
  for (i = 0; i < useq_size && i < 3 * ROW; ++i)
    useq_shapes[i] = ((const int64_t *)r->shapes.aligned)[i];
  if (useq_break == 1)
    r->shapes.sizes[0] = ROW + 1;
  if (useq_break == 2) {
    /* A copy: the input's rows are only read. */
    static int64_t bad[ROW];
    bad[0] = ONNXC_MAX_RANK + 1;
    r->shapes.allocated = GLOBAL;
    r->shapes.aligned = bad;
    r->shapes.sizes[0] = ROW;
  }
}

void test_unranked_sequences(void) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {7, 8, 9}, c = 10;
  onnxc_tensor items[3], in, out;
  int64_t k;
  items[0] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 2, 3);
  items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 2, 1, 3);
  in = onnxc_make_sequence(items, 2);
  memset(&out, 0, sizeof out);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  /* One row per item: rank, dims, zeros. */
  CHECK(useq_size == 2 * ROW);
  CHECK(useq_shapes[0] == 2 && useq_shapes[1] == 2 && useq_shapes[2] == 3 &&
        useq_shapes[3] == 0 && useq_shapes[ROW - 1] == 0);
  CHECK(useq_shapes[ROW] == 2 && useq_shapes[ROW + 1] == 1 &&
        useq_shapes[ROW + 2] == 3);
  CHECK(out.num_items == 2);
  CHECK(out.items[0].rank == 2 && out.items[0].shape[0] == 2 &&
        out.items[0].shape[1] == 3 && floats_equal(&out.items[0], a, 6));
  CHECK(out.items[1].rank == 2 && out.items[1].shape[0] == 1 &&
        floats_equal(&out.items[1], b, 3));
  onnxc_tensor_release(&out);
  /* Items of different ranks: a scalar, a vector, a matrix. */
  items[0] = tensor(&c, ONNXC_DTYPE_FLOAT, 0, 0, 0);
  items[1] = tensor(b, ONNXC_DTYPE_FLOAT, 1, 3, 0);
  items[2] = tensor(a, ONNXC_DTYPE_FLOAT, 2, 3, 2);
  in = onnxc_make_sequence(items, 3);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  CHECK(useq_size == 3 * ROW && useq_shapes[0] == 0 && useq_shapes[1] == 0 &&
        useq_shapes[ROW] == 1 && useq_shapes[ROW + 1] == 3 &&
        useq_shapes[2 * ROW] == 2 && useq_shapes[2 * ROW + 1] == 3 &&
        useq_shapes[2 * ROW + 2] == 2);
  for (k = 0; k < 3 * ROW; ++k)
    if (k % ROW > (k < ROW ? 0 : k < 2 * ROW ? 1 : 2))
      CHECK(useq_shapes[k] == 0);
  CHECK(out.num_items == 3);
  CHECK(out.items[0].rank == 0 && *(float *)out.items[0].data == 10);
  CHECK(out.items[1].rank == 1 && out.items[1].shape[0] == 3 &&
        floats_equal(&out.items[1], b, 3));
  CHECK(out.items[2].rank == 2 && out.items[2].shape[0] == 3 &&
        out.items[2].shape[1] == 2 && floats_equal(&out.items[2], a, 6));
  onnxc_tensor_release(&out);
  /* No items: no rows. */
  in = onnxc_make_sequence(NULL, 0);
  CHECK(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1) == ONNXC_OK);
  CHECK(useq_size == 0 && out.num_items == 0);
  /* Ranks must fit a row. */
  in = onnxc_make_sequence(items, 3);
  items[1].rank = ONNXC_MAX_RANK + 1;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_SHAPE,
              "input 'S' item 1: rank 17 is outside [0, 16]");
  items[1].rank = 1;
  /* Rows the model got wrong. */
  useq_break = 1;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "output 'T': the model produced 18 shapes, not rows of 17");
  CHECK(out.num_items == 0 && out.items == NULL);
  useq_break = 2;
  CHECK_ERROR(onnxc_run_model(&useq_info, useq_invoke, &in, 1, &out, 1),
              ONNXC_ERROR_RUNTIME,
              "output 'T' item 0: the model produced rank 17");
  CHECK(out.num_items == 0 && out.items == NULL);
  useq_break = 0;
  /* Only sequences may leave their rank open. */
  {
    static const onnxc_value_info bad_in[] = {
        {"X", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_VALUE_TENSOR, 0, 0}};
    onnxc_model_info bad = useq_info;
    bad.inputs = bad_in;
    CHECK_ERROR(onnxc_run_model(&bad, useq_invoke, &in, 1, &out, 1),
                ONNXC_ERROR_INVALID_ARGUMENT,
                "model info: input 'X' has rank -1");
  }
}

/*===- custom.c - Calls of custom-op kernels ------------------------------===*
 *
 * Generated code (passes/Conversion/ONNXToCustom/CustomToCall.cpp) describes
 * a custom node's call in an int64_t block; these functions turn it into the
 * onnxc_custom_call of include/onnxc/custom_op.h, call the user's shape
 * function or kernel, and fail the run naming the node when it returns
 * non-zero. Block layout (runtime_abi.h, onnxc_rt_custom_call):
 *   [0] const char *: "node\0domain\0op_type\0"
 *   [1] const unsigned char *: the attributes (NULL for none), see
 *       decode_attrs
 *   [2] number of inputs, [3] number of outputs
 *   then per input, then per output: data, dtype, rank, dims[rank]
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "onnxc/custom_op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a call owns besides the block. */
typedef struct custom_state {
  onnxc_custom_call call;
  onnxc_custom_tensor *tensors;
  onnxc_custom_attr *attrs;
  void *attr_data; /* the attributes' aligned copies */
  char message[512];
} custom_state;

static int64_t read_i64(const unsigned char **p) {
  int64_t v;
  memcpy(&v, *p, sizeof v);
  *p += sizeof v;
  return v;
}

static void release(custom_state *st) {
  free(st->tensors);
  free(st->attrs);
  free(st->attr_data);
}

static void fail_oom(custom_state *st) {
  release(st);
  onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY,
                "custom op: out of memory for its call");
}

/* The attribute blob: int64 count, then per attribute int64 kind, int64
 * count, the name and a NUL, the payload (INT 8 bytes, FLOAT 4, STRING
 * count bytes and a NUL, INTS count * 8, FLOATS count * 4), unaligned. */
static void decode_attrs(custom_state *st, const unsigned char *blob) {
  const unsigned char *p = blob;
  int64_t n, i, bytes = 0;
  char *data;
  if (!blob)
    return;
  n = read_i64(&p);
  if (n <= 0)
    return;
  st->attrs = (onnxc_custom_attr *)calloc((size_t)n, sizeof *st->attrs);
  if (!st->attrs)
    fail_oom(st);
  /* Sizes of the aligned copies of ints and floats. */
  for (i = 0; i < n; ++i) {
    int64_t kind = read_i64(&p), count = read_i64(&p);
    p += strlen((const char *)p) + 1;
    switch (kind) {
    case ONNXC_CUSTOM_ATTR_INT: p += 8; break;
    case ONNXC_CUSTOM_ATTR_FLOAT: p += 4; break;
    case ONNXC_CUSTOM_ATTR_STRING: p += count + 1; break;
    case ONNXC_CUSTOM_ATTR_INTS: p += count * 8; bytes += count * 8; break;
    default: p += count * 4; bytes += (count * 4 + 7) / 8 * 8; break;
    }
  }
  st->attr_data = malloc(bytes ? (size_t)bytes : 1);
  if (!st->attr_data)
    fail_oom(st);
  data = (char *)st->attr_data;
  p = blob + 8;
  for (i = 0; i < n; ++i) {
    onnxc_custom_attr *a = &st->attrs[i];
    a->kind = (int32_t)read_i64(&p);
    a->count = read_i64(&p);
    a->name = (const char *)p;
    p += strlen(a->name) + 1;
    switch (a->kind) {
    case ONNXC_CUSTOM_ATTR_INT:
      a->i = read_i64(&p);
      break;
    case ONNXC_CUSTOM_ATTR_FLOAT:
      memcpy(&a->f, p, 4);
      p += 4;
      break;
    case ONNXC_CUSTOM_ATTR_STRING:
      a->s = (const char *)p;
      p += a->count + 1;
      break;
    case ONNXC_CUSTOM_ATTR_INTS:
      memcpy(data, p, (size_t)a->count * 8);
      a->ints = (const int64_t *)(void *)data;
      data += a->count * 8;
      p += a->count * 8;
      break;
    default:
      memcpy(data, p, (size_t)a->count * 4);
      a->floats = (const float *)(void *)data;
      data += (a->count * 4 + 7) / 8 * 8;
      p += a->count * 4;
      break;
    }
  }
  st->call.num_attrs = n;
  st->call.attrs = st->attrs;
}

static void build(custom_state *st, int64_t *block) {
  const char *strings = (const char *)(intptr_t)block[0];
  int64_t nin = block[2], nout = block[3], i, *slot = block + 4;
  memset(st, 0, sizeof *st);
  st->call.node = strings;
  st->call.domain = strings + strlen(strings) + 1;
  st->call.op_type = st->call.domain + strlen(st->call.domain) + 1;
  st->tensors = (onnxc_custom_tensor *)calloc((size_t)(nin + nout + 1),
                                              sizeof *st->tensors);
  if (!st->tensors)
    fail_oom(st);
  for (i = 0; i < nin + nout; ++i) {
    onnxc_custom_tensor *t = &st->tensors[i];
    t->data = (void *)(intptr_t)slot[0];
    t->dtype = (int32_t)slot[1];
    t->rank = slot[2];
    t->dims = slot + 3;
    slot += 3 + t->rank;
  }
  st->call.num_inputs = nin;
  st->call.num_outputs = nout;
  st->call.inputs = st->tensors;
  st->call.outputs = st->tensors + nin;
  st->call.message = st->message;
  st->call.message_size = sizeof st->message;
  decode_attrs(st, (const unsigned char *)(intptr_t)block[1]);
}

/* Fails the run: "node 'n' (domain.Op): what: reason". */
static void fail_call(custom_state *st, const char *what, int status) {
  char msg[768];
  if (st->message[0])
    snprintf(msg, sizeof msg, "node '%s' (%s.%s): %s: %.*s", st->call.node,
             st->call.domain, st->call.op_type, what,
             (int)sizeof st->message, st->message);
  else
    snprintf(msg, sizeof msg, "node '%s' (%s.%s): %s returned %d",
             st->call.node, st->call.domain, st->call.op_type, what, status);
  release(st);
  onnxc_rt_fail(ONNXC_ERROR_RUNTIME, msg);
}

void onnxc_rt_custom_shape(int64_t *block, onnxc_custom_fn shape_fn) {
  custom_state st;
  int64_t o, d, saved[16 * 8], nsaved = 0;
  int status;
  build(&st, block);
  /* The dims value_info fixed, to check the shape function kept them. */
  for (o = 0; o < st.call.num_outputs; ++o)
    for (d = 0; d < st.call.outputs[o].rank; ++d)
      if (nsaved < (int64_t)(sizeof saved / sizeof saved[0]))
        saved[nsaved++] = st.call.outputs[o].dims[d];
  status = shape_fn(&st.call);
  if (status != 0)
    fail_call(&st, "its shape function", status);
  nsaved = 0;
  for (o = 0; o < st.call.num_outputs; ++o)
    for (d = 0; d < st.call.outputs[o].rank; ++d) {
      int64_t want = nsaved < (int64_t)(sizeof saved / sizeof saved[0])
                         ? saved[nsaved++]
                         : -1;
      int64_t got = st.call.outputs[o].dims[d];
      if (got < 0 || (want >= 0 && got != want)) {
        snprintf(st.message, sizeof st.message,
                 got < 0 ? "output %lld dim %lld left at %lld"
                         : "output %lld dim %lld set to %lld, the model says %lld",
                 (long long)o, (long long)d, (long long)got, (long long)want);
        fail_call(&st, "its shape function", 0);
      }
    }
  release(&st);
}

void onnxc_rt_custom_call(int64_t *block, onnxc_custom_fn kernel_fn) {
  custom_state st;
  int status;
  build(&st, block);
  status = kernel_fn(&st.call);
  if (status != 0)
    fail_call(&st, "the kernel", status);
  release(&st);
}

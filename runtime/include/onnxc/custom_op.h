/*===- onnxc/custom_op.h - The ABI of custom-op kernels ---------*- C -*-===*
 *
 * A node of a domain onnxc does not know (say com.example's Swish) compiles
 * to a call of an extern C function the user provides:
 *
 *   int onnxc_custom_<domain>_<op>(onnxc_custom_call *call);
 *
 * where <domain> is the node's domain with every character that is not a
 * letter, digit or '_' replaced by '_' ("com.example" -> "com_example") and
 * <op> its op type, likewise. When a result of the node has a dim that the
 * model's value_info leaves unknown (or symbolic), onnxc first calls
 *
 *   int onnxc_custom_<domain>_<op>_shape(onnxc_custom_call *call);
 *
 * which writes those dims. Link the kernels into the model with
 * `onnxc --link kernels.o` (or kernels.a), or, for --emit=staticlib and
 * --emit=obj, in your own link. docs/custom-ops.md has an example.
 *
 * Plain C99, no dependencies. Both functions return 0 on success; any other
 * value fails the model's run with ONNXC_ERROR_RUNTIME and the message
 * "node '<name>' (<domain>.<op>): <call->message>" (or "kernel returned N"
 * when the kernel left `message` empty). They are called from the thread
 * that runs the model, possibly from several threads at once for different
 * runs: keep them reentrant. They must not keep any pointer of `call` past
 * their return.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_CUSTOM_OP_H
#define ONNXC_CUSTOM_OP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A tensor: dense, row-major, `rank` dims. `dtype` is an onnxc_dtype
 * (runtime.h: 1 float, 7 int64, 11 double, 9 bool as one byte, ...). */
typedef struct onnxc_custom_tensor {
  void *data;    /* inputs: read only; outputs: allocated by onnxc (NULL in
                    the shape function), the kernel writes every element */
  int64_t *dims; /* outputs in the shape function: -1 where the kernel must
                    write the dim; read only everywhere else */
  int64_t rank;
  int32_t dtype;
  int32_t reserved;
} onnxc_custom_tensor;

/** Attribute kinds: ONNX's AttributeProto numbers. */
typedef enum onnxc_custom_attr_kind {
  ONNXC_CUSTOM_ATTR_FLOAT = 1,
  ONNXC_CUSTOM_ATTR_INT = 2,
  ONNXC_CUSTOM_ATTR_STRING = 3,
  ONNXC_CUSTOM_ATTR_FLOATS = 6,
  ONNXC_CUSTOM_ATTR_INTS = 7
} onnxc_custom_attr_kind;

/** One attribute of the node, as the model gives it. */
typedef struct onnxc_custom_attr {
  const char *name;
  int32_t kind;         /* onnxc_custom_attr_kind */
  int32_t reserved;
  int64_t count;        /* elements of ints / floats; bytes of a string */
  int64_t i;            /* INT */
  float f;              /* FLOAT */
  const char *s;        /* STRING: `count` bytes, then a NUL */
  const int64_t *ints;  /* INTS */
  const float *floats;  /* FLOATS */
} onnxc_custom_attr;

/** One call of a custom node. */
typedef struct onnxc_custom_call {
  const char *node;     /* the node's name ("#3" for the 4th unnamed node) */
  const char *domain;   /* the node's domain, as in the model */
  const char *op_type;
  int64_t num_inputs, num_outputs, num_attrs;
  const onnxc_custom_tensor *inputs; /* in the node's order */
  onnxc_custom_tensor *outputs;      /* in the node's order */
  const onnxc_custom_attr *attrs;    /* sorted by name */
  char *message;        /* a failing kernel may write a NUL-terminated */
  size_t message_size;  /* reason here (message_size bytes at most) */
} onnxc_custom_call;

/** The attribute `name` of `call`, NULL when the node has none. */
static inline const onnxc_custom_attr *
onnxc_custom_find_attr(const onnxc_custom_call *call, const char *name) {
  int64_t i;
  for (i = 0; i < call->num_attrs; ++i)
    if (strcmp(call->attrs[i].name, name) == 0)
      return &call->attrs[i];
  return NULL;
}

/** Elements of `t` (the product of its dims). */
static inline int64_t onnxc_custom_numel(const onnxc_custom_tensor *t) {
  int64_t n = 1, d;
  for (d = 0; d < t->rank; ++d)
    n *= t->dims[d];
  return n;
}

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_CUSTOM_OP_H */

/*===- runtime_test.h - What the runtime's unit test files share ---------===*
 *
 * The check macros and their counters, memref descriptors of ranks 0 to 3
 * (runtime_abi.h) and small builders of tensors and descriptors.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_TEST_H
#define ONNXC_RUNTIME_TEST_H

#include "onnxc/runtime_abi.h"

#include <stdlib.h>
#include <string.h>

/* The counts main() prints (runtime_test.c). */
extern int checks, failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
    }                                                                          \
  } while (0)

/* A status and the exact message of the last error. */
#define CHECK_ERROR(expr, status, message)                                     \
  do {                                                                         \
    onnxc_status got_ = (expr);                                                \
    ++checks;                                                                  \
    if (got_ != (status) || strcmp(onnxc_last_error(), (message)) != 0) {      \
      ++failures;                                                              \
      printf("FAIL %s:%d: got %d '%s', expected %d '%s'\n", __FILE__,          \
             __LINE__, (int)got_, onnxc_last_error(), (int)(status),           \
             (message));                                                       \
    }                                                                          \
  } while (0)

/* Memref descriptors of ranks 0, 1 and 2 (runtime_abi.h). */
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
typedef struct memref3 {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} memref3;

#define GLOBAL ((void *)(uintptr_t)0xdeadbeef)

static inline onnxc_tensor tensor(void *data, int32_t dtype, int32_t rank, int64_t d0,
                           int64_t d1) {
  onnxc_tensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.dtype = dtype;
  t.rank = rank;
  t.shape[0] = d0;
  t.shape[1] = d1;
  return t;
}

static inline void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    abort();
  return p;
}

static inline void set1(memref1 *m, void *alloc, void *aligned, int64_t off,
                 int64_t size, int64_t stride) {
  m->allocated = alloc;
  m->aligned = aligned;
  m->offset = off;
  m->sizes[0] = size;
  m->strides[0] = stride;
}

static inline void set2(memref2 *m, void *alloc, void *aligned, int64_t off,
                 int64_t s0, int64_t s1, int64_t st0, int64_t st1) {
  m->allocated = alloc;
  m->aligned = aligned;
  m->offset = off;
  m->sizes[0] = s0;
  m->sizes[1] = s1;
  m->strides[0] = st0;
  m->strides[1] = st1;
}

static inline int floats_equal(const onnxc_tensor *t, const float *expected, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (((const float *)t->data)[i] != expected[i])
      return 0;
  return 1;
}

/* runtime_test_sequences.c */
void test_sequences(void);
void test_unranked_sequences(void);

/* runtime_test_maps.c */
void test_maps(void);

#endif /* ONNXC_RUNTIME_TEST_H */

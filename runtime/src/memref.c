/*===- memref.c - Helpers MLIR's lowering calls by name -------------------===*
 *
 * MLIR lowers a copy between memrefs that are not both contiguous to a call
 *   void memrefCopy(int64_t elemSize, UnrankedMemRefType *src,
 *                   UnrankedMemRefType *dst);
 * (mlir/ExecutionEngine/CRunnerUtils.h). Models must not depend on MLIR's
 * runner libraries, so the runtime provides it. A ranked descriptor of rank
 * r is { void *allocated; void *aligned; int64_t offset; int64_t sizes[r];
 * int64_t strides[r]; } (runtime_abi.h). Source and destination have the
 * same sizes; strides may be anything, including 0 and negative.
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

#include <string.h>

typedef struct onnxc_unranked_memref {
  int64_t rank;
  void *descriptor;
} onnxc_unranked_memref;

typedef struct onnxc_memref_view {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
} onnxc_memref_view;

static onnxc_memref_view view_of(const onnxc_unranked_memref *m) {
  const char *d = (const char *)m->descriptor;
  onnxc_memref_view v;
  void *aligned;
  memcpy(&aligned, d + sizeof(void *), sizeof aligned);
  v.aligned = (char *)aligned;
  memcpy(&v.offset, d + 2 * sizeof(void *), sizeof v.offset);
  v.sizes = (const int64_t *)(const void *)(d + 2 * sizeof(void *) + sizeof(int64_t));
  v.strides = v.sizes + m->rank;
  return v;
}

/* One row of `n` elements of `size` bytes, strides in elements. */
static void copy_row(char *d, int64_t ds, const char *s, int64_t ss, int64_t n,
                     int64_t size) {
  int64_t j;
  if (ds == 1 && ss == 1) {
    memcpy(d, s, (size_t)(n * size));
    return;
  }
  switch (size) {
  case 4:
    for (j = 0; j < n; ++j)
      memcpy(d + j * ds * 4, s + j * ss * 4, 4);
    return;
  case 8:
    for (j = 0; j < n; ++j)
      memcpy(d + j * ds * 8, s + j * ss * 8, 8);
    return;
  case 2:
    for (j = 0; j < n; ++j)
      memcpy(d + j * ds * 2, s + j * ss * 2, 2);
    return;
  case 1:
    for (j = 0; j < n; ++j)
      d[j * ds] = s[j * ss];
    return;
  default:
    for (j = 0; j < n; ++j)
      memcpy(d + j * ds * size, s + j * ss * size, (size_t)size);
  }
}

void memrefCopy(int64_t elemSize, onnxc_unranked_memref *src,
                onnxc_unranked_memref *dst) {
  int64_t rank = src->rank;
  onnxc_memref_view s = view_of(src), d = view_of(dst);
  int64_t index[ONNXC_MAX_RANK + 1];
  int64_t i, total = 1, inner, so, doff;
  if (rank > ONNXC_MAX_RANK)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "memref copy of rank above ONNXC_MAX_RANK");
  for (i = 0; i < rank; ++i) {
    total *= s.sizes[i];
    index[i] = 0;
  }
  if (total == 0)
    return;
  if (rank == 0) {
    memcpy(d.aligned + d.offset * elemSize, s.aligned + s.offset * elemSize,
           (size_t)elemSize);
    return;
  }
  /* Rows along the innermost dim (one memcpy when both are contiguous
   * there), the outer dims walked with an odometer that keeps both
   * offsets up to date. */
  inner = s.sizes[rank - 1];
  so = s.offset;
  doff = d.offset;
  for (;;) {
    int64_t k;
    copy_row(d.aligned + doff * elemSize, d.strides[rank - 1],
             s.aligned + so * elemSize, s.strides[rank - 1], inner, elemSize);
    for (k = rank - 2; k >= 0; --k) {
      so += s.strides[k];
      doff += d.strides[k];
      if (++index[k] < s.sizes[k])
        break;
      so -= index[k] * s.strides[k];
      doff -= index[k] * d.strides[k];
      index[k] = 0;
    }
    if (k < 0)
      return;
  }
}

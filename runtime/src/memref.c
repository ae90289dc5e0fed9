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

void memrefCopy(int64_t elemSize, onnxc_unranked_memref *src,
                onnxc_unranked_memref *dst) {
  int64_t rank = src->rank;
  onnxc_memref_view s = view_of(src), d = view_of(dst);
  int64_t index[ONNXC_MAX_RANK + 1];
  int64_t i, total = 1;
  if (rank > ONNXC_MAX_RANK)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "memref copy of rank above ONNXC_MAX_RANK");
  for (i = 0; i < rank; ++i) {
    total *= s.sizes[i];
    index[i] = 0;
  }
  if (total == 0)
    return;
  /* Walk the elements in row-major order with an odometer. */
  for (;;) {
    int64_t so = s.offset, doff = d.offset, k;
    for (i = 0; i < rank; ++i) {
      so += index[i] * s.strides[i];
      doff += index[i] * d.strides[i];
    }
    memcpy(d.aligned + doff * elemSize, s.aligned + so * elemSize,
           (size_t)elemSize);
    for (k = rank - 1; k >= 0; --k) {
      if (++index[k] < s.sizes[k])
        break;
      index[k] = 0;
    }
    if (k < 0)
      return;
  }
}

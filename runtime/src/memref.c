/*===- memref.c - Strided copies: MLIR's memrefCopy, the run's copies -----===*
 *
 * MLIR lowers a copy between memrefs that are not both contiguous to a call
 *   void memrefCopy(int64_t elemSize, UnrankedMemRefType *src,
 *                   UnrankedMemRefType *dst);
 * (mlir/ExecutionEngine/CRunnerUtils.h). Models must not depend on MLIR's
 * runner libraries, so the runtime provides it. A ranked descriptor of rank
 * r is { void *allocated; void *aligned; int64_t offset; int64_t sizes[r];
 * int64_t strides[r]; } (runtime_abi.h). Source and destination have the
 * same sizes; strides may be anything, including 0 and negative.
 *
 * onnxc_run_model copies strided results out with the same loop (internal.h,
 * "memref.c"), and copy.c's onnxc_rt_copy the parts of a split copy.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

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

void onnxc_rt_copy_row(char *d, int64_t ds, const char *s, int64_t ss,
                       int64_t n, int64_t size) {
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

void onnxc_rt_copy_view(char *dst, const int64_t *dst_strides,
                        const char *src, const int64_t *src_strides,
                        const int64_t *sizes, int64_t rank, int64_t size) {
  int64_t index[ONNXC_MAX_RANK + 1];
  int64_t i, inner, so = 0, doff = 0;
  for (i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      return;
    index[i] = 0;
  }
  if (rank == 0) {
    memcpy(dst, src, (size_t)size);
    return;
  }
  /* Rows along the innermost dim (one memcpy when both are contiguous
   * there), the outer dims walked with an odometer that keeps both
   * offsets up to date. */
  inner = sizes[rank - 1];
  for (;;) {
    int64_t k;
    onnxc_rt_copy_row(dst + doff * size, dst_strides[rank - 1],
                      src + so * size, src_strides[rank - 1], inner, size);
    for (k = rank - 2; k >= 0; --k) {
      so += src_strides[k];
      doff += dst_strides[k];
      if (++index[k] < sizes[k])
        break;
      so -= index[k] * src_strides[k];
      doff -= index[k] * dst_strides[k];
      index[k] = 0;
    }
    if (k < 0)
      return;
  }
}

void memrefCopy(int64_t elemSize, onnxc_unranked_memref *src,
                onnxc_unranked_memref *dst) {
  onnxc_memref_view s = view_of(src), d = view_of(dst);
  if (src->rank > ONNXC_MAX_RANK)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "memref copy of rank above ONNXC_MAX_RANK");
  onnxc_rt_copy_view(d.aligned + d.offset * elemSize, d.strides,
            s.aligned + s.offset * elemSize, s.strides, s.sizes, src->rank,
            elemSize);
}

/*===-------------------------- The run's copies --------------------------===*/

/* Row-major strides of `sizes`. */
void onnxc_rt_dense_strides(const int64_t *sizes, int32_t rank,
                            int64_t *strides) {
  int64_t stride = 1;
  int32_t d;
  for (d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= sizes[d];
  }
}

/* Copies a strided view (`base` points at element offset 0 of the view) to
 * the contiguous `dst`. */
void onnxc_rt_copy_strided(char *dst, const char *base, const int64_t *sizes,
                           const int64_t *strides, int32_t rank,
                           size_t esize) {
  int64_t dst_strides[ONNXC_MAX_RANK + 1];
  onnxc_rt_dense_strides(sizes, rank, dst_strides);
  onnxc_rt_copy_view(dst, dst_strides, base, strides, sizes, rank,
                     (int64_t)esize);
}

/* True when `strides` are the row-major strides of `sizes` (dims of size 1
 * may have any stride; an empty tensor is contiguous). */
int onnxc_rt_is_contiguous(const int64_t *sizes, const int64_t *strides,
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

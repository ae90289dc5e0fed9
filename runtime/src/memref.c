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
 * onnxc_run_model copies strided results out with the same kind of loop
 * (internal.h, "memref.c").
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

/*===-------------------------- The run's copies --------------------------===*/

/* Copies a block of `sizes` elements from `src` (element strides
 * `src_strides`) to `dst` (element strides `dst_strides`). Strides may be 0
 * or negative. */
static void copy_block(char *dst, const int64_t *dst_strides, const char *src,
                       const int64_t *src_strides, const int64_t *sizes,
                       int32_t rank, size_t esize) {
  int64_t index[ONNXC_MAX_RANK + 1];
  int64_t inner, e, es = (int64_t)esize;
  int32_t d;
  if (rank == 0) {
    memcpy(dst, src, esize);
    return;
  }
  for (d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  inner = sizes[rank - 1];
  memset(index, 0, sizeof index);
  for (;;) {
    const char *s = src;
    char *t = dst;
    for (d = 0; d < rank - 1; ++d) {
      s += index[d] * src_strides[d] * es;
      t += index[d] * dst_strides[d] * es;
    }
    if (src_strides[rank - 1] == 1 && dst_strides[rank - 1] == 1) {
      memcpy(t, s, (size_t)inner * esize);
    } else {
      for (e = 0; e < inner; ++e)
        memcpy(t + e * dst_strides[rank - 1] * es,
               s + e * src_strides[rank - 1] * es, esize);
    }
    /* Odometer over the outer dims. */
    for (d = rank - 2; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

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
  copy_block(dst, dst_strides, base, strides, sizes, rank, esize);
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

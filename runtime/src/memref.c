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
 * onnxc_rt_copy (runtime_abi.h) is the compiler's large copies
 * (onnxc-parallel-copies), split over threads. onnxc_run_model copies
 * strided results out with the same loop (internal.h, "memref.c").
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

/* Copies `sizes` elements (rank `rank`, each of `size` bytes) from `src`
 * (element strides `src_strides`) to `dst` (element strides
 * `dst_strides`); strides may be 0 or negative. */
static void copy_view(char *dst, const int64_t *dst_strides, const char *src,
                      const int64_t *src_strides, const int64_t *sizes,
                      int64_t rank, int64_t size) {
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
    copy_row(dst + doff * size, dst_strides[rank - 1], src + so * size,
             src_strides[rank - 1], inner, size);
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
  copy_view(d.aligned + d.offset * elemSize, d.strides,
            s.aligned + s.offset * elemSize, s.strides, s.sizes, src->rank,
            elemSize);
}

/*===------------------- onnxc_rt_copy: a split copy ----------------------===*/

/* A copy with its dims merged (copy_merge), cut into units: `pieces`
 * column ranges of `piece` elements (the last takes the rest) of each of
 * the `rows` rows (the outer dims' odometer). */
typedef struct copy_job {
  char *dst;
  const char *src;
  int64_t rank, size;
  int64_t sizes[ONNXC_MAX_RANK], ss[ONNXC_MAX_RANK], ds[ONNXC_MAX_RANK];
  int64_t pieces, piece;
} copy_job;

/* Drops dims of size 1 and merges dim k into dim k + 1 where both strides
 * walk them as one (stride[k] = stride[k + 1] * size[k + 1]): a Concat
 * input's copy into its slice becomes one row. Returns 0 when the copy is
 * empty. */
static int copy_merge(copy_job *j, const int64_t *sizes, const int64_t *ss,
                      const int64_t *ds, int64_t rank) {
  int64_t k;
  j->rank = 0;
  for (k = 0; k < rank; ++k) {
    int64_t r = j->rank;
    if (sizes[k] == 0)
      return 0;
    if (sizes[k] == 1)
      continue;
    if (r > 0 && j->ss[r - 1] == ss[k] * sizes[k] &&
        j->ds[r - 1] == ds[k] * sizes[k]) {
      /* dim r - 1 then dim k, as one: the inner stride, both sizes. */
      j->sizes[r - 1] *= sizes[k];
      j->ss[r - 1] = ss[k];
      j->ds[r - 1] = ds[k];
      continue;
    }
    j->sizes[r] = sizes[k];
    j->ss[r] = ss[k];
    j->ds[r] = ds[k];
    ++j->rank;
  }
  if (j->rank == 0) { /* one element */
    j->sizes[0] = 1;
    j->ss[0] = j->ds[0] = 1;
    j->rank = 1;
  }
  return 1;
}

/* The offsets (elements) of row `row` in the source and destination, and
 * its index over the outer dims in `index`. */
static void copy_row_at(const copy_job *j, int64_t row, int64_t *index,
                        int64_t *so, int64_t *doff) {
  int64_t k;
  *so = *doff = 0;
  for (k = j->rank - 2; k >= 0; --k) {
    index[k] = row % j->sizes[k];
    row /= j->sizes[k];
    *so += index[k] * j->ss[k];
    *doff += index[k] * j->ds[k];
  }
}

/* Units [first, end) of the job: whole rows walked with an odometer, or
 * column ranges of a few rows. */
static void copy_units(void *p, int64_t first, int64_t end) {
  const copy_job *j = p;
  int64_t r = j->rank, inner = j->sizes[r - 1], index[ONNXC_MAX_RANK];
  int64_t u, so, doff, k;
  if (j->pieces > 1) {
    for (u = first; u < end; ++u) {
      int64_t c0 = (u % j->pieces) * j->piece;
      int64_t c1 = u % j->pieces == j->pieces - 1 ? inner : c0 + j->piece;
      copy_row_at(j, u / j->pieces, index, &so, &doff);
      so += c0 * j->ss[r - 1];
      doff += c0 * j->ds[r - 1];
      copy_row(j->dst + doff * j->size, j->ds[r - 1], j->src + so * j->size,
               j->ss[r - 1], c1 - c0, j->size);
    }
    return;
  }
  copy_row_at(j, first, index, &so, &doff);
  for (u = first; u < end; ++u) {
    copy_row(j->dst + doff * j->size, j->ds[r - 1], j->src + so * j->size,
             j->ss[r - 1], inner, j->size);
    for (k = r - 2; k >= 0; --k) {
      so += j->ss[k];
      doff += j->ds[k];
      if (++index[k] < j->sizes[k])
        break;
      so -= index[k] * j->ss[k];
      doff -= index[k] * j->ds[k];
      index[k] = 0;
    }
  }
}

void onnxc_rt_copy(const int64_t *params, const void *src, void *dst) {
  int64_t rank = params[0], size = params[1], rows = 1, k, inner, total;
  const int64_t *sizes = params + 2;
  copy_job j;
  int threads;
  if (rank < 1 || rank > ONNXC_MAX_RANK)
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "copy of a rank outside [1, ONNXC_MAX_RANK]");
  if (!copy_merge(&j, sizes, sizes + rank, sizes + 2 * rank, rank))
    return;
  j.dst = (char *)dst;
  j.src = (const char *)src;
  j.size = size;
  for (k = 0; k + 1 < j.rank; ++k)
    rows *= j.sizes[k];
  inner = j.sizes[j.rank - 1];
  total = rows * inner;
  threads = onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT * (double)total);
  if (threads <= 1) {
    copy_view(j.dst, j.ds, j.src, j.ss, j.sizes, j.rank, size);
    return;
  }
  /* Few rows: each cut into column ranges of whole cache lines, so that
   * there are about 4 units a thread. */
  j.pieces = 1;
  j.piece = inner;
  if (rows < 4 * (int64_t)threads) {
    int64_t line = size < 64 ? 64 / size : 1;
    int64_t want = (4 * (int64_t)threads + rows - 1) / rows;
    j.piece = ((inner + want - 1) / want + line - 1) / line * line;
    j.pieces = (inner + j.piece - 1) / j.piece;
  }
  onnxc_rt_parallel_range(rows * j.pieces, 1, threads, copy_units, &j);
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
  copy_view(dst, dst_strides, base, strides, sizes, rank, (int64_t)esize);
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
